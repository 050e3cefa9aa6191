"""Settle a showdown of 2-4 players under a ruleset.

A player's *declaration* is a setting ``front | middle | back``, ``natural:<13 cards>`` or
``surrender:<13 cards>``.  :func:`score_showdown` validates the declarations against the
ruleset, evaluates them and settles the table with :func:`sapsam.kernels.settle.settle_into`;
:func:`settle_tables` is the array interface for many tables at once.

>>> result = score_showdown("two-four", ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
...                                      "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"])
>>> result.totals
[2, -2]
"""

from dataclasses import dataclass

import numpy as np

from sapsam.base.arguments import option
from sapsam.game.cards import count_aces, format_cards, format_setting, parse_hand, parse_setting
from sapsam.game.hands import setting_strengths
from sapsam.game.mechanisms import Game, SurrenderMode
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.settings import settled_rows
from sapsam.kernels import settle as _k
from sapsam.kernels.naturals import NAT_KIND, NATURAL_KINDS, best_natural, natural_key

ROWS = ("front", "middle", "back")
# a chip stack only caps payments (a stack above any payment is unlimited); the bound keeps
# it, and what is left of it, an int64
CHIPS_MAX = 10**9


@dataclass(frozen=True)
class Declaration:
    """What one player puts down: a setting, a natural or a surrender."""

    kind: str  # "set" | "natural" | "surrender"
    cards: np.ndarray  # (13,) uint8: front, middle, back order for a setting
    text: str  # as the commands write it: each row (or the 13 cards) from its highest card down

    @classmethod
    def parse(cls, text):
        """``front | middle | back``, ``natural:<13 cards>`` or ``surrender:<13 cards>``."""
        if not isinstance(text, str):
            raise ValueError(f"a declaration is text: 'front | middle | back', 'natural:<13 cards>' or "
                             f"'surrender:<13 cards>', got {text!r}")
        head, sep, tail = text.partition(":")
        word = head.strip().lower()
        if sep and word in ("natural", "surrender"):
            cards = parse_hand(tail)
            return cls(word, cards, f"{word}:{format_cards(cards, descending=True)}")
        if sep:
            raise ValueError(f"unknown declaration {head.strip()!r}: use 'natural:<13 cards>', "
                             "'surrender:<13 cards>' or 'front | middle | back'")
        front, middle, back = parse_setting(text)
        return cls("set", np.concatenate([front, middle, back]), format_setting(front, middle, back))

    def rows(self, wheel_rank="ace-low", middle_plays="high"):
        """Strength triple of a setting (zeros for a natural or surrender)."""
        if self.kind != "set":
            return np.zeros(3, np.int16)
        c = self.cards
        return np.array(setting_strengths(c[:3], c[3:8], c[8:], wheel_rank, middle_plays), np.int16)


@dataclass(frozen=True)
class Showdown:
    """A settled table."""

    rules: Ruleset
    names: tuple
    declarations: tuple
    status: tuple  # per seat: "set", "foul", "natural: <kind>" or "surrender"
    points: np.ndarray  # int64 (P,), in units of 1 / scale
    scale: int
    detail: np.ndarray  # int64 (P, P, N_DETAIL), units to i from j
    results: np.ndarray  # int8 (P, P, 3): +1 / -1 / 0, 2 = not compared
    bank: int  # -1 when not a bank game

    @property
    def totals(self):
        """Net units per seat (exact fractions shown as floats in the pool game)."""
        return [int(p) if self.scale == 1 else float(p) / self.scale for p in self.points]

    @property
    def player_totals(self):
        """Net units per player: a seat's, or in criss-cross the sum of a player's two hands
        (seats 1-2 and 3-4), as ``{"P1+P2": units, ...}``."""
        hands = self.rules.hands
        return {"+".join(self.names[s:s + hands]): sum(self.totals[s:s + hands])
                for s in range(0, len(self.names), hands)}

    def pairs(self):
        """One dict per compared pair: rows won, units to the first seat, breakdown."""
        out = []
        n = len(self.names)
        for i in range(n):
            for j in range(i + 1, n):
                res = self.results[i, j]
                if self.rules.scoring.game in (Game.POOL, Game.SINGLE_WINNER, Game.MATCH):
                    continue
                if _k.same_player(self.rules.compile().params, i, j, n):  # criss-cross
                    continue
                if self.bank >= 0 and self.bank not in (i, j):
                    continue
                winners = None
                if res[0] != _k.NOT_COMPARED:
                    winners = [self.names[i] if r > 0 else self.names[j] if r < 0 else "tie"
                               for r in res]
                entry = {"seats": [i, j], "names": [self.names[i], self.names[j]],
                         "rows": dict(zip(ROWS, winners)) if winners else None,
                         "units": self._units(self.detail[i, j, _k.D_PAID])}
                entry["breakdown"] = {name: self._units(self.detail[i, j, d])
                                      for d, name in enumerate(_k.DETAIL_NAMES)
                                      if d not in (_k.D_PAID, _k.D_WON, _k.D_LOST)}
                out.append(entry)
        return out

    def _units(self, value):
        return int(value) if self.scale == 1 else float(value) / self.scale


def _resolve(rules):
    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


def score_showdown(rules, declarations, bank=None, chips=None, names=None):
    """Settle one table.

    Parameters
    ----------
    rules : Ruleset or str
        A ruleset or its id / TOML path.
    declarations : sequence of str or Declaration
        One per seat, 2 to 4; seat 0 is the dealer (chip-limited settlement order).  In
        criss-cross, four: the first two are one player's hands, the last two the other's.
    bank : int, optional
        The bank's seat in a bank game (default: the ruleset's ``bank.seat``).
    chips : sequence of int, optional
        Chip stacks, 0 to ``CHIPS_MAX`` each: settles chip-limited (RULES.md A10).
    names : sequence of str, optional
        Seat names for the breakdown (default ``P1..Pn``).
    """
    if isinstance(declarations, str) or not hasattr(declarations, "__iter__"):
        raise ValueError(f"give the declarations as a list, one a seat, got {declarations!r}")
    rules = _resolve(rules)
    decl = tuple(d if isinstance(d, Declaration) else Declaration.parse(d) for d in declarations)
    n = len(decl)
    if not 2 <= n <= 4:
        raise ValueError(f"a table has 2 to 4 players, got {n}")
    if rules.hands == 2 and n != 4:
        raise ValueError(f"{rules.id} deals two hands to each of two players: give four "
                         f"settings (the first two one player's, the last two the other's), got {n}")
    names = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(n))
    if len(names) != n or len(set(names)) != n:
        raise ValueError(f"need {n} distinct names, got {', '.join(names)}")
    seen = set()
    for c in np.concatenate([d.cards for d in decl]).tolist():  # the first card held twice, as given
        if c in seen:
            raise ValueError(f"card {format_cards([c])} is held by two players")
        seen.add(c)
    compiled = rules.compile()
    rows = np.stack([d.rows(rules.wheel_rank, rules.middle.plays) for d in decl])
    natural = np.full(n, -1, np.int64)
    key = np.zeros(n, np.int64)
    surrender = np.zeros(n, np.bool_)
    status = []
    for i, d in enumerate(decl):
        if d.kind == "natural":
            natural[i], key[i] = best_natural(np.sort(d.cards), compiled.naturals)
            if natural[i] < 0:
                allowed = ", ".join(str(h.kind) for h in rules.naturals.hands) or "none"
                raise ValueError(f"{names[i]} declares a natural, but {format_cards(np.sort(d.cards)[::-1])} "
                                 f"is none of {rules.id}'s naturals ({allowed})")
            status.append(f"natural: {NATURAL_KINDS[compiled.naturals[natural[i], NAT_KIND]]}")
        elif d.kind == "surrender":
            if rules.surrender.mode == SurrenderMode.NONE:
                raise ValueError(f"{names[i]} surrenders, but {rules.id} has no surrender")
            surrender[i] = True
            status.append("surrender")
        else:
            rows[i], legal = settled_rows(d.cards[:3], d.cards[3:8], d.cards[8:], rules)
            status.append("set" if legal else "foul")
    if "foul" in status and rules.fouls.mode != "as-swept":
        raise ValueError(f"{names[status.index('foul')]}'s setting is a foul, which {rules.id} does not allow")
    aces = np.array([int(count_aces(d.cards)) for d in decl], np.int64)
    is_bank = rules.scoring.game == Game.BANK
    if bank is not None and not is_bank:
        raise ValueError(f"{rules.id} is not a bank game; {option('bank')} applies only to bank rulesets")
    seat = (rules.bank.seat if bank is None else bank) if is_bank else -1
    if is_bank and not 0 <= seat < n:
        raise ValueError(f"bank seat {seat + 1} (counted from 1) is not at this table of {n}")
    params = compiled.params
    if chips is not None:
        if len(chips) != n or any(not 0 <= c <= CHIPS_MAX for c in chips):
            raise ValueError(f"need {n} chip stacks from 0 to {CHIPS_MAX}, got {list(chips)}")
        params = params.copy()
        params[_k.P_CHIP_LIMITED] = 1
        stacks = np.array(chips, np.int64)
    else:
        stacks = np.full(n, -1, np.int64)
    points = np.empty((1, n), np.int64)
    detail = np.empty((n, n, _k.N_DETAIL), np.int64)
    results = np.empty((n, n, 3), np.int8)
    table = _k.Table(rows[None], natural[None], key[None], surrender[None], aces[None],
                     np.array([seat], np.int64), stacks[None])
    _k.settle_into(_k.Rules(params, compiled.royalty, compiled.naturals), table, points, 0,
                   _k.new_work(), detail, results, True)
    points = points[0]
    return Showdown(rules, names, decl, tuple(status), points, int(params[_k.P_SCALE]), detail,
                    results, seat)


def settle_tables(rules, rows, natural=None, natural_key=None, surrender=None, aces=None,
                  bank=None, chips=None, parallel=True):
    """Settle many tables at once.

    Parameters
    ----------
    rules : Ruleset or str
    rows : ndarray(int16), shape (T, P, 3)
        Strength triples on the ruleset's scale.
    natural, natural_key : ndarray(int64), shape (T, P), optional
        Declared natural (row of the ruleset's naturals, -1 none) and its tie-break key.
    surrender : ndarray(bool), shape (T, P), optional
    aces : ndarray(int64), shape (T, P), optional
    bank : ndarray(int64), shape (T,), optional
        Bank seat per table in a bank game.
    chips : ndarray(int64), shape (T, P), optional
        Chip stacks (chip-limited settlement when the ruleset has it).

    Returns
    -------
    ndarray(int64), shape (T, P)
        Points per seat in units of ``1 / scale`` (:func:`points_scale`).
    """
    compiled = _resolve(rules).compile()
    rows = np.ascontiguousarray(rows, np.int16)
    if rows.ndim != 3 or rows.shape[2] != 3 or not 2 <= rows.shape[1] <= 4:
        raise ValueError(f"rows must have shape (T, 2..4, 3), got {rows.shape}")
    t, p = rows.shape[:2]
    natural = np.full((t, p), -1, np.int64) if natural is None else np.asarray(natural, np.int64)
    natural_key = np.zeros((t, p), np.int64) if natural_key is None else np.asarray(natural_key, np.int64)
    surrender = np.zeros((t, p), np.bool_) if surrender is None else np.asarray(surrender, np.bool_)
    aces = np.zeros((t, p), np.int64) if aces is None else np.asarray(aces, np.int64)
    bank = np.zeros(t, np.int64) if bank is None else np.asarray(bank, np.int64)
    chips = np.full((t, p), -1, np.int64) if chips is None else np.asarray(chips, np.int64)
    if np.any(natural >= len(compiled.naturals)):
        raise ValueError("natural index beyond the ruleset's naturals")
    return _k.settle_tables(compiled.arrays, _k.Table(rows, natural, natural_key, surrender, aces, bank, chips),
                            parallel=parallel)


def points_scale(rules):
    """Points per unit in kernel output (1 except the pool game)."""
    return _resolve(rules).compile().scale


__all__ = ["Declaration", "Showdown", "natural_key", "points_scale", "score_showdown", "settle_tables"]
