"""The mechanisms a ruleset is built from (RULES.md part A): each one a small frozen,
validated dataclass, every number bounded, every choice an enum.
"""

from dataclasses import field
from enum import StrEnum
from typing import Annotated

import pydantic
from pydantic import ConfigDict, model_validator
from pydantic.dataclasses import dataclass as validated
from pydantic_core import PydanticCustomError

from sapsam.kernels.naturals import NATURAL_KINDS


class Game(StrEnum):
    """Who is compared with whom (RULES.md A2, A7-A9)."""

    PAIRWISE = "pairwise"
    BANK = "bank"
    POOL = "pool"
    SINGLE_WINNER = "single-winner"
    MATCH = "match"  # a point per row won, played to a target (issue 18's first to 11)


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


class MiddlePlay(StrEnum):
    """How the middle row is ranked (issue 18's low middle)."""

    HIGH = "high"
    DEUCE_TO_SEVEN = "deuce-to-seven"


class LowOrder(StrEnum):
    """What a legal setting is when the middle plays low: the back at least the front (the
    middle free), or also the middle's value as a high hand between them."""

    BACK_OVER_FRONT = "back-over-front"
    HIGH_ORDER = "high-order"


class BankRotation(StrEnum):
    ROTATE = "rotate"
    FIXED = "fixed"


class WheelRank(StrEnum):
    ACE_LOW = "ace-low"
    SECOND = "second"

NaturalKind = StrEnum("NaturalKind", {k.upper().replace("-", "_"): k for k in NATURAL_KINDS})

NaturalKind.__doc__ = "Special 13-card hands (RULES.md A4); see sapsam.kernels.naturals for definitions."

STRICT = ConfigDict(extra="forbid", frozen=True)

# Bounds of every number in a ruleset.  The kernels count points in int64: a seat's points per
# hand x (sapsam.kernels.settle, in units of 1 / P_SCALE) are summed, and summed squared, over every
# hand of a run (sapsam.kernels.simulate, A_SUM and A_SUMSQ per ruleset and seat).  A run of up to 1e10
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


def bounded(low, high):
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

Count = bounded(0, VALUE_MAX)

Positive = bounded(1, VALUE_MAX)

Multiplier = bounded(1, MULTIPLIER_MAX)

NaturalValue = bounded(0, NATURAL_MAX)

Seat = bounded(0, SEAT_MAX)

Flag = pydantic.StrictBool

_FRONT_CATEGORIES = {Category.HIGH_CARD, Category.PAIR, Category.TRIPS}


@validated(config=STRICT)
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


class FrozenMap(dict):
    """A mapping that cannot change, and so can be hashed: a ruleset's royalty table."""

    def _refuse(self, *args, **kwargs):
        raise TypeError("a ruleset cannot change; build another one")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self):
        return hash(frozenset(self.items()))

    def __reduce__(self):  # pickle and copy rebuild it whole, never item by item
        return FrozenMap, (dict(self),)


@validated(config=STRICT)
class Royalties:
    """Bonuses for strong rows (RULES.md A3): units per (row, category)."""

    mode: RoyaltyMode = RoyaltyMode.INSTEAD
    when: RoyaltyWhen = RoyaltyWhen.WINNER
    front: dict[Category, Positive] = field(default_factory=dict)
    middle: dict[Category, Positive] = field(default_factory=dict)
    back: dict[Category, Positive] = field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self):
        for row in ("front", "middle", "back"):
            object.__setattr__(self, row, FrozenMap(getattr(self, row)))
        wrong = set(self.front) - _FRONT_CATEGORIES
        if wrong:
            raise ValueError(f"a 3-card front can only be {', '.join(sorted(_FRONT_CATEGORIES))}; "
                             f"got {', '.join(sorted(wrong))}")
        if self.mode == RoyaltyMode.INSTEAD and self.when == RoyaltyWhen.ALWAYS:
            raise ValueError("mode 'instead' pays a winning row, so it needs when = 'winner'")
        return self


@validated(config=STRICT)
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
        """The kind's option as the integer sapsam.kernels.naturals expects."""
        ranks = "23456789TJQKA"
        return {
            "six-pairs": ("strict", "quads-as-two", "any").index(self.six_pairs_counts),
            "three-straights": ("both", "low", "high").index(self.front_straight_ace),
            "four-trips": int(self.quads_as_trips),
            "small": ranks.index(self.max_rank),
            "big": ranks.index(self.min_rank),
        }.get(str(self.kind), 0)


@validated(config=STRICT)
class Naturals:
    """Naturals in ascending order and how two of them clash (RULES.md A4)."""

    clash: Clash = Clash.HIGHER_WINS_FULL
    hands: tuple[NaturalHand, ...] = ()


@validated(config=STRICT)
class Surrender:
    """RULES.md A5."""

    mode: SurrenderMode = SurrenderMode.NONE
    units: Count = 0  # for mode = "fixed"


@validated(config=STRICT)
class Fouls:
    """RULES.md A6."""

    mode: FoulMode = FoulMode.AS_SWEPT


@validated(config=STRICT)
class Middle:
    """How the middle row plays: as a high hand, or as a deuce-to-seven low (issue 18), and
    then which settings are fouls (``order``; unused for a high middle)."""

    plays: MiddlePlay = MiddlePlay.HIGH
    order: LowOrder = LowOrder.BACK_OVER_FRONT


@validated(config=STRICT)
class Table:
    """How many hands each player is dealt: one, or two in criss-cross (issue 18), where each
    of a player's hands plays each of the opponent's, heads-up, and the deck is dealt out."""

    hands: bounded(1, 2) = 1


@validated(config=STRICT)
class Bank:
    """RULES.md A7: used when ``scoring.game = "bank"``."""

    rotation: BankRotation = BankRotation.ROTATE
    seat: Seat = 0  # the bank's seat when rotation = "fixed"


@validated(config=STRICT)
class Pool:
    """RULES.md A8: used when ``scoring.game = "pool"``."""

    stake: Positive = 3
    sweep_takes_all: Flag = False
    sweep_extra: Count = 3


@validated(config=STRICT)
class SingleWinner:
    """RULES.md A9: used when ``scoring.game = "single-winner"``."""

    units: Positive = 1


@validated(config=STRICT)
class Match:
    """Used when ``scoring.game = "match"`` (issue 18, first to 11): a point to the one best
    hand of each row (a row tied for best scores for nobody), one more for winning all three
    at a table of at least ``sweep_point_players``, and the first to ``target`` wins."""

    target: bounded(1, 100) = 11
    sweep_point_players: bounded(2, 5) = 4  # 5: never


@validated(config=STRICT)
class Extras:
    """Chip-limited settlement (A10), the aces side bet and the rake (A11)."""

    chip_limited: Flag = False
    aces_bet: Flag = False
    rake: Count = 0
