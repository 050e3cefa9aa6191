"""Rulesets as data: a frozen dataclass, TOML files with inheritance, and compiled arrays.

A ruleset is built from the mechanisms of RULES.md part A.  On disk it is one TOML file
(``analysis/rulesets/<id>.toml`` for the named ones); ``extends = "<id or path>"`` inherits
another file, tables merging key by key and arrays replaced whole.  Validation names the
file, the key and what is allowed.  :meth:`Ruleset.compile` flattens a ruleset into the
integer arrays :mod:`kernels.settle` takes.

>>> rules = load_ruleset("pagat-typical")
>>> rules.royalties.front
{<Category.TRIPS: 'trips'>: 3}
"""

import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import numpy as np
import pydantic
from pydantic import ConfigDict, model_validator
from pydantic.dataclasses import dataclass as validated
from pydantic_core import PydanticCustomError

from kernels import settle as _k
from kernels.naturals import NATURAL_KINDS

RULESET_DIR = Path(__file__).with_name("rulesets")


class Game(StrEnum):
    """Who is compared with whom (RULES.md A2, A7-A9)."""

    PAIRWISE = "pairwise"
    BANK = "bank"
    POOL = "pool"
    SINGLE_WINNER = "single-winner"


class Base(StrEnum):
    """Scoring base between two players (RULES.md A2)."""

    PER_ROW = "per-row"
    TWO_FOUR = "two-four"
    ONE_SIX = "one-six"
    TWO_OF_THREE = "two-of-three"


class RoyaltyMode(StrEnum):
    INSTEAD = "instead"
    EXTRA = "extra"


class RoyaltyWhen(StrEnum):
    WINNER = "winner"
    ALWAYS = "always"


class Category(StrEnum):
    """Hand categories a royalty can name (a straight flush includes the royal flush)."""

    HIGH_CARD = "high-card"
    PAIR = "pair"
    TWO_PAIR = "two-pair"
    TRIPS = "trips"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full-house"
    QUADS = "quads"
    STRAIGHT_FLUSH = "straight-flush"


class Clash(StrEnum):
    """How two declared naturals settle with each other (RULES.md A4)."""

    HIGHER_WINS_FULL = "higher-wins-full"
    DIFFERENCE = "difference"
    EQUAL_TIER_NO_PAYMENT = "equal-tier-no-payment"


class SurrenderMode(StrEnum):
    NONE = "none"
    TWO_ROWS = "two-rows"  # as if it lost two rows of three to each opponent
    FIXED = "fixed"  # a fixed number of units to each opponent


class FoulMode(StrEnum):
    AS_SWEPT = "as-swept"
    NOT_ALLOWED = "not-allowed"


class BankRotation(StrEnum):
    ROTATE = "rotate"
    FIXED = "fixed"


class WheelRank(StrEnum):
    ACE_LOW = "ace-low"
    SECOND = "second"


NaturalKind = StrEnum("NaturalKind", {k.upper().replace("-", "_"): k for k in NATURAL_KINDS})
NaturalKind.__doc__ = "Special 13-card hands (RULES.md A4); see kernels.naturals for definitions."

_STRICT = ConfigDict(extra="forbid", frozen=True)

# Bounds of every number in a ruleset.  The kernels count points in int64: a seat's points per
# hand x (kernels.settle, in units of 1 / P_SCALE) are summed, and summed squared, over every
# hand of a run (kernels.simulate, A_SUM and A_SUMSQ per ruleset and seat).  A run of up to 1e10
# hands stays exact if x**2 * 1e10 < 2**62, that is |x| <= 21,474.  With V = VALUE_MAX,
# N = NATURAL_MAX, M = MULTIPLIER_MAX, the worst hand of 4 players (a seat has 3 opponents, or
# the bank faces 3 players):
#   - pairwise and bank games, per opponent the largest of
#       a showdown: M x (rows: 3 rows + one-six's 3, or two-of-three's home-run units, <= V;
#                  royalties of 3 rows <= 3 V; sweep bonus <= V; overall point 1) + aces bet 8
#                  = 10 x 501 + 8 = 5,018;
#       a natural: N + 8 (never multiplied) = 1,008;  a surrender: V + 1 + 8 = 109;
#     so 3 x 5,018 + rake V = 15,154 in all;
#   - pool: P_SCALE (at most 18: _pool_scale) x (3 x (stake + sweep_extra) + rake) = 12,600;
#   - single winner: 3 x units + rake = 400.
# 15,154**2 x 1e10 = 2.3e18 < 2**62 = 4.6e18.  The limits are round numbers far above any real
# ruleset (the catalogue's largest: a natural of 108, a royalty of 14, a multiplier of 4).
VALUE_MAX = 100  # units: royalties, bonuses, base units, surrender, stakes, rake
NATURAL_MAX = 1000  # the value of a natural
MULTIPLIER_MAX = 10  # scoop and home-run multipliers
SEAT_MAX = 3  # a seat number (4 players at most)
WORST_POINTS = max(3 * (MULTIPLIER_MAX * (5 * VALUE_MAX + 1) + 8) + VALUE_MAX,
                   3 * (NATURAL_MAX + 8) + VALUE_MAX,
                   18 * (3 * (VALUE_MAX + VALUE_MAX) + VALUE_MAX))  # |points| of a seat per hand
assert WORST_POINTS ** 2 * 10 ** 10 < 2 ** 62, "ruleset bounds allow int64 overflow"


def _bounded(low, high):
    """A whole number from ``low`` to ``high``, written as an integer in TOML ("4", 4.0 or
    ``true`` are errors, not coerced).  Anything else (huge, negative, inf, nan, a string)
    fails with one message naming the value and the range."""

    def check(value):
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        context = {"value": _shown(value), "low": low, "high": high}
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not (
                low <= value <= high):  # nan and inf fail here too
            raise PydanticCustomError(
                "out_of_range", "{value} is out of range: use a whole number from {low} to {high}",
                context)
        raise PydanticCustomError(
            "not_integer", "{value} is not an integer: use a whole number from {low} to {high}",
            context)

    return Annotated[int, pydantic.BeforeValidator(check)]  # check returns only such an int


def _shown(value):
    """A TOML value as it would be written (for error messages)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (int, float)):
        return repr(value)
    return "{ ... }" if isinstance(value, dict) else "[ ... ]" if isinstance(value, list) else repr(value)


Count = _bounded(0, VALUE_MAX)
Positive = _bounded(1, VALUE_MAX)
Multiplier = _bounded(1, MULTIPLIER_MAX)
NaturalValue = _bounded(0, NATURAL_MAX)
Seat = _bounded(0, SEAT_MAX)
Flag = pydantic.StrictBool
_FRONT_CATEGORIES = {Category.HIGH_CARD, Category.PAIR, Category.TRIPS}


@validated(config=_STRICT)
class Scoring:
    """Scoring base and its modifiers (RULES.md A2, A7-A9)."""

    game: Game = Game.PAIRWISE
    base: Base = Base.PER_ROW
    sweep_bonus: Count = 0
    overall_point: Flag = False
    scoop_multiplier: Multiplier = 1
    home_run_multiplier: Multiplier = 1  # total factor for sweeping every opponent
    majority_units: Count = 1  # two-of-three: 2 rows to 1 (net)
    sweep_units: Count = 6  # two-of-three: all three rows
    home_run_units: Count = 9  # two-of-three: all three against everyone


@validated(config=_STRICT)
class Royalties:
    """Bonuses for strong rows (RULES.md A3): units per (row, category)."""

    mode: RoyaltyMode = RoyaltyMode.INSTEAD
    when: RoyaltyWhen = RoyaltyWhen.WINNER
    front: dict[Category, Positive] = field(default_factory=dict)
    middle: dict[Category, Positive] = field(default_factory=dict)
    back: dict[Category, Positive] = field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self):
        wrong = set(self.front) - _FRONT_CATEGORIES
        if wrong:
            raise ValueError(f"a 3-card front can only be {', '.join(sorted(_FRONT_CATEGORIES))}; "
                             f"got {', '.join(sorted(wrong))}")
        if self.mode == RoyaltyMode.INSTEAD and self.when == RoyaltyWhen.ALWAYS:
            raise ValueError("mode 'instead' pays a winning row, so it needs when = 'winner'")
        return self


@validated(config=_STRICT)
class NaturalHand:
    """One natural of a ruleset's list, with the options RULES.md A4 names."""

    kind: NaturalKind
    value: NaturalValue
    same_tier: Flag = False  # ranks equal with the previous entry ("=" in RULES.md)
    six_pairs_counts: str = "strict"  # strict | quads-as-two | any
    front_straight_ace: str = "both"  # both | low | high: which of A-2-3 / Q-K-A count
    quads_as_trips: Flag = False  # four threes of a kind: quads count as trips
    max_rank: str = "8"  # small: highest rank allowed (8, 9 or T)
    min_rank: str = "8"  # big: lowest rank allowed

    @model_validator(mode="after")
    def _options(self):
        allowed = {"six_pairs_counts": ("strict", "quads-as-two", "any"),
                   "front_straight_ace": ("both", "low", "high"),
                   "max_rank": tuple("23456789TJQKA"), "min_rank": tuple("23456789TJQKA")}
        for key, values in allowed.items():
            if getattr(self, key) not in values:
                raise ValueError(f"{key} must be one of {', '.join(values)}; got {getattr(self, key)!r}")
        return self

    @property
    def parameter(self):
        """The kind's option as the integer kernels.naturals expects."""
        ranks = "23456789TJQKA"
        return {
            "six-pairs": ("strict", "quads-as-two", "any").index(self.six_pairs_counts),
            "three-straights": ("both", "low", "high").index(self.front_straight_ace),
            "four-trips": int(self.quads_as_trips),
            "small": ranks.index(self.max_rank),
            "big": ranks.index(self.min_rank),
        }.get(str(self.kind), 0)


@validated(config=_STRICT)
class Naturals:
    """Naturals in ascending order and how two of them clash (RULES.md A4)."""

    clash: Clash = Clash.HIGHER_WINS_FULL
    hands: tuple[NaturalHand, ...] = ()


@validated(config=_STRICT)
class Surrender:
    """RULES.md A5."""

    mode: SurrenderMode = SurrenderMode.NONE
    units: Count = 0  # for mode = "fixed"


@validated(config=_STRICT)
class Fouls:
    """RULES.md A6."""

    mode: FoulMode = FoulMode.AS_SWEPT


@validated(config=_STRICT)
class Bank:
    """RULES.md A7: used when ``scoring.game = "bank"``."""

    rotation: BankRotation = BankRotation.ROTATE
    seat: Seat = 0  # the bank's seat when rotation = "fixed"


@validated(config=_STRICT)
class Pool:
    """RULES.md A8: used when ``scoring.game = "pool"``."""

    stake: Positive = 3
    sweep_takes_all: Flag = False
    sweep_extra: Count = 3


@validated(config=_STRICT)
class SingleWinner:
    """RULES.md A9: used when ``scoring.game = "single-winner"``."""

    units: Positive = 1


@validated(config=_STRICT)
class Extras:
    """Chip-limited settlement (A10), the aces side bet and the rake (A11)."""

    chip_limited: Flag = False
    aces_bet: Flag = False
    rake: Count = 0


@validated(config=_STRICT)
class Ruleset:
    """A complete Chinese Poker ruleset (RULES.md part A), immutable."""

    id: str
    name: str
    source: str
    defaults: tuple[str, ...] = ()  # every default chosen where the source is silent
    options: tuple[str, ...] = ()  # variants the source names, and how to select them
    players: _bounded(2, 4) = 4
    wheel_rank: WheelRank = WheelRank.ACE_LOW
    scoring: Scoring = field(default_factory=Scoring)
    royalties: Royalties = field(default_factory=Royalties)
    naturals: Naturals = field(default_factory=Naturals)
    surrender: Surrender = field(default_factory=Surrender)
    fouls: Fouls = field(default_factory=Fouls)
    bank: Bank = field(default_factory=Bank)
    pool: Pool = field(default_factory=Pool)
    single_winner: SingleWinner = field(default_factory=SingleWinner)
    extras: Extras = field(default_factory=Extras)

    @model_validator(mode="after")
    def _consistent(self):
        game, base = self.scoring.game, self.scoring.base
        has_royalties = any((self.royalties.front, self.royalties.middle, self.royalties.back))
        if game in (Game.POOL, Game.SINGLE_WINNER):
            extra = [name for name, used in (("royalties", has_royalties),
                                             ("naturals", bool(self.naturals.hands)),
                                             ("surrender", self.surrender.mode != SurrenderMode.NONE),
                                             ("extras.chip_limited", self.extras.chip_limited),
                                             ("extras.aces_bet", self.extras.aces_bet))
                     if used]
            if extra:
                raise ValueError(f"scoring.game = {game!r} settles rows only; remove {', '.join(extra)}")
        if base == Base.TWO_OF_THREE and has_royalties and self.royalties.mode == RoyaltyMode.INSTEAD:
            raise ValueError("scoring.base = 'two-of-three' pays no unit per row; royalties need mode = 'extra'")
        if self.surrender.mode == SurrenderMode.FIXED and self.surrender.units == 0:
            raise ValueError("surrender.mode = 'fixed' needs surrender.units > 0")
        if game == Game.BANK and self.bank.seat >= self.players:
            raise ValueError(f"bank.seat must be below players ({self.players}); got {self.bank.seat}")
        return self

    def describe(self):
        """One line for ``sapsam rules``."""
        s = self.scoring
        parts = [str(s.base) if s.game in (Game.PAIRWISE, Game.BANK) else str(s.game)]
        if s.game == Game.BANK:
            parts.append("bank")
        if s.sweep_bonus:
            parts.append(f"sweep +{s.sweep_bonus}")
        if s.overall_point:
            parts.append("overall point")
        if s.scoop_multiplier > 1 or s.home_run_multiplier > 1:
            parts.append(f"scoop x{s.scoop_multiplier}, home run x{s.home_run_multiplier}")
        n_roy = sum(map(len, (self.royalties.front, self.royalties.middle, self.royalties.back)))
        if n_roy:
            parts.append(f"{n_roy} royalties ({self.royalties.mode}, {self.royalties.when})")
        if self.naturals.hands:
            parts.append(f"{len(self.naturals.hands)} naturals ({self.naturals.clash})")
        if self.surrender.mode != SurrenderMode.NONE:
            parts.append("surrender")
        return ", ".join(parts)

    def compile(self):
        """Flat integer arrays for :mod:`kernels.settle` (see :class:`CompiledRules`)."""
        return CompiledRules.from_ruleset(self)


@dataclass(frozen=True)
class CompiledRules:
    """A ruleset as the kernels take it.

    Attributes
    ----------
    params : ndarray(int64), shape (kernels.settle.N_PARAMS,)
        Scalars at the indices named ``P_*`` in :mod:`kernels.settle`.
    royalty : ndarray(int64), shape (3, 9)
        Units per (row, category); rows front, middle, back.
    naturals : ndarray(int64), shape (k, 4)
        Per natural, ascending: kind code, option parameter, value, tier.
    """

    params: np.ndarray
    royalty: np.ndarray
    naturals: np.ndarray

    @classmethod
    def from_ruleset(cls, rules):
        s = rules.scoring
        p = np.zeros(_k.N_PARAMS, np.int64)
        p[_k.P_GAME] = list(Game).index(s.game)
        p[_k.P_BASE] = list(Base).index(s.base)
        p[_k.P_SWEEP_BONUS] = s.sweep_bonus
        p[_k.P_OVERALL_POINT] = s.overall_point
        p[_k.P_SCOOP_MULT] = s.scoop_multiplier
        p[_k.P_HOME_RUN_MULT] = s.home_run_multiplier
        p[_k.P_MAJORITY_UNITS] = s.majority_units
        p[_k.P_SWEEP_UNITS] = s.sweep_units
        p[_k.P_HOME_RUN_UNITS] = s.home_run_units
        p[_k.P_ROYALTY_EXTRA] = rules.royalties.mode == RoyaltyMode.EXTRA
        p[_k.P_ROYALTY_ALWAYS] = rules.royalties.when == RoyaltyWhen.ALWAYS
        p[_k.P_CLASH] = list(Clash).index(rules.naturals.clash)
        p[_k.P_FOUL_ALLOWED] = rules.fouls.mode == FoulMode.AS_SWEPT
        p[_k.P_POOL_STAKE] = rules.pool.stake
        p[_k.P_POOL_SWEEP_ALL] = rules.pool.sweep_takes_all
        p[_k.P_POOL_SWEEP_EXTRA] = rules.pool.sweep_extra
        p[_k.P_SINGLE_UNITS] = rules.single_winner.units
        p[_k.P_CHIP_LIMITED] = rules.extras.chip_limited
        p[_k.P_ACES_BET] = rules.extras.aces_bet
        p[_k.P_RAKE] = rules.extras.rake
        p[_k.P_WHEEL_SECOND] = rules.wheel_rank == WheelRank.SECOND
        p[_k.P_SCALE] = _pool_scale(rules.pool.stake) if s.game == Game.POOL else 1
        royalty = np.zeros((3, 9), np.int64)
        for row, table in enumerate((rules.royalties.front, rules.royalties.middle, rules.royalties.back)):
            for category, units in table.items():
                royalty[row, list(Category).index(category)] = units
        naturals = np.zeros((len(rules.naturals.hands), 4), np.int64)
        tier = -1
        for i, hand in enumerate(rules.naturals.hands):
            tier += 0 if (hand.same_tier and i) else 1
            naturals[i] = (NATURAL_KINDS.index(str(hand.kind)), hand.parameter, hand.value, tier)
        if rules.surrender.mode == SurrenderMode.FIXED:
            p[_k.P_SURRENDER_COST] = rules.surrender.units
        elif rules.surrender.mode == SurrenderMode.TWO_ROWS:
            p[_k.P_SURRENDER_COST] = -_k.two_rows_lost(p)
        p[_k.P_SURRENDER_ALLOWED] = rules.surrender.mode != SurrenderMode.NONE
        return cls(p, royalty, naturals)


def _pool_scale(stake):
    """Smallest unit divisor making every pool share integral: stake * P / (3 k), P, k <= 4."""
    scale = 1
    while any((scale * stake * players) % (3 * k) for players in (2, 3, 4) for k in range(1, players + 1)):
        scale += 1
    return scale


# --- loading -------------------------------------------------------------------------------


class RulesetError(ValueError):
    """A ruleset id or file that cannot be used; the message names file, key and allowed values."""


def ruleset_ids():
    """Ids of the named rulesets, in catalogue order (RULES.md part B)."""
    return [p.stem for p in sorted(RULESET_DIR.glob("*.toml"), key=_catalogue_order)]


def load_ruleset(name):
    """A ruleset by id (``"standard"``) or by path to a TOML file."""
    data, path = _resolve(str(name), ())
    try:
        return Ruleset(**data)
    except pydantic.ValidationError as exc:
        raise RulesetError(_explain(exc, path)) from None
    except TypeError as exc:  # a field given twice or a missing required one
        raise RulesetError(f"{path}: {exc}") from None


def _resolve(name, chain):
    path = _locate(name, chain)
    if path in chain:
        cycle = " -> ".join(p.name for p in (*chain, path))
        raise RulesetError(f"{chain[-1]}: key 'extends': cycle of extends ({cycle})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: {_syntax_error(exc, path)}") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data, path
    if not isinstance(parent, str):
        raise RulesetError(f"{path}: key 'extends' must be a ruleset id or a file path")
    base, _ = _resolve(parent, (*chain, path))
    for key in ("id", "name", "source", "defaults", "options"):  # never inherited
        base.pop(key, None)
    return _merge(base, data), path


def _syntax_error(exc, path):
    """TOML syntax error with the key of the offending line, when the line has one."""
    match = re.search(r"line (\d+)", str(exc))
    if match:
        lines = path.read_text(encoding="utf-8").splitlines()
        number = int(match[1])
        line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
        key = line.split("=", 1)[0].strip() if "=" in line else ""
        if key:
            return f"key '{key}' (line {number}): not valid TOML: {exc}"
    return f"not valid TOML: {exc}"


def _locate(name, chain):
    named = RULESET_DIR / f"{name}.toml"
    if named.is_file():
        return named
    candidate = Path(name)
    if not candidate.is_absolute() and chain:
        candidate = chain[-1].parent / candidate
    if candidate.suffix == ".toml" and candidate.is_file():
        return candidate.resolve()
    where = f"{chain[-1]}: key 'extends': " if chain else ""
    raise RulesetError(f"{where}unknown ruleset {name!r}: use a TOML file path or one of "
                       f"{', '.join(ruleset_ids())}")


def _merge(base, override):
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _explain(exc, path):
    lines = []
    for err in exc.errors():
        key = ".".join(str(part) for part in err["loc"]) or "(top level)"
        message = err["msg"]
        if err["type"] == "unexpected_keyword_argument" or err["type"] == "extra_forbidden":
            message = "unknown key"
        elif err["type"] == "missing_argument" or err["type"] == "missing":
            message = "required key is missing"
        elif err["type"] in ("out_of_range", "not_integer"):  # "<value> is out of range: ..."
            lines.append(f"key '{key}' = {message}")
            continue
        lines.append(f"key '{key}': {message}")
    return f"{path}: " + "; ".join(lines)


_CATALOGUE = ("basic", "two-four", "one-six", "pagat-typical", "pagat-sweep", "pagat-middle",
              "pagat-overall", "pagat-extras", "pagat-surrender", "pagat-pool",
              "pusoy-single-winner", "house", "malayan", "vietnamese", "singapore",
              "hawaiian-gardens", "standard", "taiwanese")


def _catalogue_order(path):
    return (_CATALOGUE.index(path.stem) if path.stem in _CATALOGUE else len(_CATALOGUE), path.stem)


# --- showing ---------------------------------------------------------------------------------


def as_dict(rules):
    """A ruleset as plain data (enums as their strings), the shape of its TOML file."""
    from dataclasses import asdict

    def plain(value):
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return str(value) if isinstance(value, StrEnum) else value

    data = plain(asdict(rules))
    relevant = {"six-pairs": "six_pairs_counts", "three-straights": "front_straight_ace",
                "four-trips": "quads_as_trips", "small": "max_rank", "big": "min_rank"}
    for hand in data["naturals"]["hands"]:
        for option in set(relevant.values()) - {relevant.get(hand["kind"])}:
            del hand[option]
        if not hand["same_tier"]:
            del hand["same_tier"]
    return data


def as_toml(rules):
    """A ruleset in full as TOML text (every key, defaults included)."""
    data = as_dict(rules)
    lines = []
    for key, value in data.items():
        if not isinstance(value, dict):
            lines.append(f"{key} = {_toml_value(value)}")
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"\n[{key}]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in value.items())
    return "\n".join(lines)


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    items = [_toml_value(v) for v in value]
    if sum(map(len, items)) > 60:
        return "[\n" + "".join(f"  {item},\n" for item in items) + "]"
    return "[" + ", ".join(items) + "]"
