"""A ruleset, and the same ruleset compiled for the kernels.

:class:`Ruleset` is a complete ruleset (RULES.md part A): immutable and hashable, equal when
its content is.  :meth:`Ruleset.compile` flattens it, once per process, into the integer
arrays :mod:`sapsam.kernels.settle` takes (:class:`CompiledRules`).  Files: :mod:`sapsam.game.ruleset_files`.
"""

from dataclasses import dataclass, field
from functools import cache

import numpy as np
from pydantic import model_validator
from pydantic.dataclasses import dataclass as validated

from sapsam.game.mechanisms import (
    STRICT,
    Bank,
    Base,
    Category,
    Clash,
    Extras,
    FoulMode,
    Fouls,
    Game,
    LowOrder,
    Match,
    Middle,
    MiddlePlay,
    Naturals,
    Pool,
    Royalties,
    RoyaltyMode,
    RoyaltyWhen,
    Scoring,
    SingleWinner,
    Surrender,
    SurrenderMode,
    Table,
    WheelRank,
    bounded,
)
from sapsam.kernels import settle as _k
from sapsam.kernels.naturals import NAT_COLUMNS, NAT_KIND, NAT_PARAMETER, NAT_TIER, NAT_VALUE, NATURAL_KINDS


@validated(config=STRICT)
class Ruleset:
    """A complete Chinese Poker ruleset (RULES.md part A), immutable."""

    id: str
    name: str
    source: str
    defaults: tuple[str, ...] = ()  # every default chosen where the source is silent
    options: tuple[str, ...] = ()  # variants the source names, and how to select them
    players: bounded(2, 4) = 4
    wheel_rank: WheelRank = WheelRank.ACE_LOW
    scoring: Scoring = field(default_factory=Scoring)
    royalties: Royalties = field(default_factory=Royalties)
    naturals: Naturals = field(default_factory=Naturals)
    surrender: Surrender = field(default_factory=Surrender)
    fouls: Fouls = field(default_factory=Fouls)
    middle: Middle = field(default_factory=Middle)
    table: Table = field(default_factory=Table)
    bank: Bank = field(default_factory=Bank)
    pool: Pool = field(default_factory=Pool)
    single_winner: SingleWinner = field(default_factory=SingleWinner)
    match: Match = field(default_factory=Match)
    extras: Extras = field(default_factory=Extras)

    @model_validator(mode="after")
    def _consistent(self):
        game, base = self.scoring.game, self.scoring.base
        has_royalties = any((self.royalties.front, self.royalties.middle, self.royalties.back))
        if game in (Game.POOL, Game.SINGLE_WINNER, Game.MATCH):
            extra = [name for name, used in (("royalties", has_royalties),
                                             ("naturals", bool(self.naturals.hands)),
                                             ("surrender", self.surrender.mode != SurrenderMode.NONE),
                                             ("extras.chip_limited", self.extras.chip_limited),
                                             ("extras.aces_bet", self.extras.aces_bet))
                     if used]
            if extra:
                raise ValueError(f"scoring.game = {game.value!r} settles rows only; remove {', '.join(extra)}")
        if base == Base.TWO_OF_THREE and has_royalties and self.royalties.mode == RoyaltyMode.INSTEAD:
            raise ValueError("scoring.base = 'two-of-three' pays no unit per row; royalties need mode = 'extra'")
        if self.surrender.mode == SurrenderMode.FIXED and self.surrender.units == 0:
            raise ValueError("surrender.mode = 'fixed' needs surrender.units > 0")
        if self.low_middle and self.royalties.middle:
            raise ValueError("middle.plays = 'deuce-to-seven' ranks the middle as a low; "
                             "remove royalties.middle")
        if self.hands == 2:
            wrong = [key for key, used in (
                ("players (must be 2)", self.players != 2),
                ("scoring.game (must be 'pairwise')", game != Game.PAIRWISE),
                ("scoring.home_run_multiplier (must be 1)", self.scoring.home_run_multiplier != 1),
                ("scoring.home_run_units (must equal sweep_units)",
                 base == Base.TWO_OF_THREE and self.scoring.home_run_units != self.scoring.sweep_units),
                ("extras.chip_limited (must be false)", self.extras.chip_limited)) if used]
            if wrong:
                raise ValueError("table.hands = 2 (criss-cross) is heads-up and settles each pair "
                                 "of hands on its own; change " + ", ".join(wrong))
        if game == Game.BANK and self.bank.seat >= self.players:
            raise ValueError(f"bank.seat must be below players ({self.players}); got {self.bank.seat}")
        return self

    @property
    def low_middle(self):
        """The middle row plays as a deuce-to-seven low."""
        return self.middle.plays == MiddlePlay.DEUCE_TO_SEVEN

    @property
    def hands(self):
        """Hands dealt to each player: 2 in criss-cross, else 1."""
        return self.table.hands

    def opposing_hands(self, players):
        """How many hands one hand is compared with at a table of ``players``."""
        return (players - 1) * self.hands

    @property
    def tables(self):
        """The table sizes the ruleset is played at: heads-up only in criss-cross."""
        return (2,) if self.hands == 2 else (2, 3, 4)

    def check_players(self, players):
        """``players`` if this ruleset can be played by so many, else a ValueError saying why."""
        if not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        if self.hands == 2 and players != 2:
            raise ValueError(f"{self.id} is heads-up (two hands each, the whole deck): "
                             f"players must be 2, got {players}")
        return players

    def __repr__(self):
        """Its id and what it plays, in one line: every result that names its ruleset prints it,
        and its every field (the sources' words among them) ran to some 6,500 characters."""
        return f"<Ruleset {self.id!r}: {self.describe()}>"

    def describe(self):
        """One line for ``sapsam rules``."""
        s = self.scoring
        parts = [str(s.base) if s.game in (Game.PAIRWISE, Game.BANK) else str(s.game)]
        if self.hands == 2:
            parts.append("heads-up, two hands each (criss-cross)")
        if s.game == Game.MATCH:
            parts[0] = (f"a point per row, first to {self.match.target}"
                        + (f" (a 4th for a sweep at {self.match.sweep_point_players} players)"
                           if self.match.sweep_point_players <= 4 else ""))
        if self.low_middle:
            parts.append("2-7 low middle" + (" (high order)" if self.middle.order == LowOrder.HIGH_ORDER
                                            else ""))
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

    def digest(self):
        """A short hash of what the ruleset plays (every field but ``id``, ``name``, ``source``,
        ``defaults`` and ``options``): equal for equal rules however the file is written, and
        changed by any change of a rule.  Fitted strategies are kept under it."""
        return _digest(self)

    def compile(self):
        """Flat integer arrays for :mod:`sapsam.kernels.settle` (see :class:`CompiledRules`), built
        once per process for each ruleset content."""
        return _compiled(self)


_NOT_PLAYED = ("id", "name", "source", "defaults", "options")


@cache
def _digest(rules):
    import hashlib
    import json

    from pydantic import TypeAdapter

    content = TypeAdapter(Ruleset).dump_python(rules, mode="json")
    played = {k: v for k, v in content.items() if k not in _NOT_PLAYED}
    for key, used in (("middle", rules.low_middle), ("table", rules.hands != 1),
                      ("match", rules.scoring.game == Game.MATCH)):
        if not used:  # fields added after strategies were fitted: absent by default
            played.pop(key)
    text = json.dumps(played, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def _compiled(rules):
    return CompiledRules.from_ruleset(rules)


@dataclass(frozen=True, eq=False)
class CompiledRules:
    """A ruleset as the kernels take it: one per ruleset content and process
    (:meth:`Ruleset.compile`), so hashed and compared by identity; never written to.

    Attributes
    ----------
    params : ndarray(int64), shape (sapsam.kernels.settle.N_PARAMS,)
        Scalars at the indices named ``P_*`` in :mod:`sapsam.kernels.settle`.
    royalty : ndarray(int64), shape (3, 9)
        Units per (row, category); rows front, middle, back.
    naturals : ndarray(int64), shape (k, sapsam.kernels.naturals.NAT_COLUMNS)
        Per natural, ascending: kind code, option parameter, value, tier (columns ``NAT_*``).
    """

    params: np.ndarray
    royalty: np.ndarray
    naturals: np.ndarray

    @property
    def arrays(self):
        """The three arrays as the kernels take them together (:class:`sapsam.kernels.settle.Rules`)."""
        return _k.Rules(self.params, self.royalty, self.naturals)

    @property
    def wheel_second(self):
        """A-2-3-4-5 is the second-highest straight."""
        return bool(self.params[_k.P_WHEEL_SECOND])

    @property
    def surrender_allowed(self):
        return bool(self.params[_k.P_SURRENDER_ALLOWED])

    @property
    def low_middle(self):
        """The middle row plays as a deuce-to-seven low (its strengths on that scale)."""
        return bool(self.params[_k.P_LOW_MIDDLE])

    @property
    def high_order(self):
        """With a low middle, its high value must also lie between front and back."""
        return bool(self.params[_k.P_LOW_HIGH_ORDER])

    @property
    def scale(self):
        """Points are counted in units of ``1 / scale`` (pool shares)."""
        return int(self.params[_k.P_SCALE])

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
        p[_k.P_LOW_MIDDLE] = rules.low_middle
        p[_k.P_LOW_HIGH_ORDER] = rules.low_middle and rules.middle.order == LowOrder.HIGH_ORDER
        p[_k.P_HANDS] = rules.hands
        p[_k.P_MATCH_SWEEP_FROM] = rules.match.sweep_point_players
        royalty = np.zeros((3, 9), np.int64)
        for row, table in enumerate((rules.royalties.front, rules.royalties.middle, rules.royalties.back)):
            for category, units in table.items():
                royalty[row, list(Category).index(category)] = units
        naturals = np.zeros((len(rules.naturals.hands), NAT_COLUMNS), np.int64)
        tier = -1
        for i, hand in enumerate(rules.naturals.hands):
            tier += 0 if (hand.same_tier and i) else 1
            naturals[i, NAT_KIND], naturals[i, NAT_PARAMETER] = NATURAL_KINDS.index(str(hand.kind)), hand.parameter
            naturals[i, NAT_VALUE], naturals[i, NAT_TIER] = hand.value, tier
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
