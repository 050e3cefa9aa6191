"""Fantasyland in Open-Face Chinese Poker (RULES.md E3, E4): the exact best setting of 13 to 17
cards, and how often n random cards can stay.

>>> best = best_fantasyland("As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h", "ofc-pineapple")
>>> best.setting, best.discards, best.royalties, best.stays
('Kh Kd 3h | As Ad Ac Qs Qh | Jc Tc 9c 8c 7c', '2d', 35, True)
"""

import time
from dataclasses import dataclass

import numpy as np

from sapsam.base.jit import loaded
from sapsam.base.stats import wilson_interval
from sapsam.game.cards import card_codes, format_cards, parse_cards
from sapsam.game.hands import describe, strength
from sapsam.ofc.game import ROWS, load_ofc_rules, ofc_rules_ids
from sapsam.ofc.kernels.board import STRENGTH_BITS, stay_counts
from sapsam.ofc.kernels.board import best_fantasyland as _solve
from sapsam.play.seeds import Stream

STAY_CHUNK = 50_000  # decks drawn per stream of a stay measurement


@dataclass(frozen=True)
class FantasylandSetting:
    """The best setting of a Fantasyland hand, as :func:`best_fantasyland` finds it."""

    rules: str
    cards: np.ndarray
    rows: tuple  # front, middle, back: uint8 arrays
    discards: str
    row_royalties: tuple  # front, middle, back
    royalties: int
    stays: bool
    value: float  # royalties + the worth of Fantasyland if the board stays
    seconds: float

    @property
    def setting(self):
        return " | ".join(format_cards(r, descending=True) for r in self.rows)

    def to_dict(self):
        rows = {name: {"cards": format_cards(cards, descending=True), "hand": describe(int(strength(cards))),
                       "royalty": points}
                for name, cards, points in zip(ROWS, self.rows, self.row_royalties)}
        return {"rules": self.rules, "cards": format_cards(self.cards), "setting": self.setting, "rows": rows,
                "discards": self.discards.split() if self.discards else [],
                "royalties": self.royalties, "stays": self.stays, "value": self.value,
                "seconds": round(self.seconds, 4)}

    def to_frame(self):
        """One row per row of the board: its cards, hand and royalty."""
        import pandas as pd

        rows = self.to_dict()["rows"]
        return pd.DataFrame([{"row": name, **row} for name, row in rows.items()]).set_index("row")


def parse_fantasyland_cards(text, rules=None, naming="--rules {}"):
    """The cards of a Fantasyland hand, 13 to 17; with ``rules``, only as many as that ruleset
    deals a Fantasyland hand (14 cards are no hand of classic's, which deals 13), the refusal
    naming a ruleset that deals them as the caller gives one: ``naming`` formats its id
    (``--rules {}`` for a command, ``rules='{}'`` for the Python API).  The solver itself sets
    any 13 to 17 (``ofc stay`` asks of every n)."""
    cards = card_codes(text, "Fantasyland hand")
    if not 13 <= len(cards) <= 17:
        raise ValueError(f"a Fantasyland hand has 13 to 17 cards, got {len(cards)}")
    if rules is not None and len(cards) not in rules.fantasyland.dealt:
        dealt = " or ".join(map(str, rules.fantasyland.dealt))
        others = [rid for rid in ofc_rules_ids() if len(cards) in load_ofc_rules(rid).fantasyland.dealt]
        raise ValueError(f"{rules.id} deals {dealt} cards in Fantasyland, not {len(cards)}"
                         + (f" ({' and '.join(others)} {'deal' if len(others) > 1 else 'deals'} "
                            f"{len(cards)}: {naming.format(others[0])})" if others else ""))
    return cards


def best_fantasyland(cards, rules="ofc-pineapple"):
    """The setting of 13 of ``cards`` (text or codes, 13 to 17) with the most royalties plus
    the worth of staying in Fantasyland, by exact search (RULES.md E4)."""
    rules = load_ofc_rules(rules)
    cards = parse_fantasyland_cards(cards)  # checked whatever their form: a kernel meets only the deck's
    tables = rules.tables
    args = (cards, tables.royalty, tables.stay, tables.worth_milli)
    solve = loaded(_solve, *args)  # its time is the search's, not the kernel's loading
    start = time.perf_counter()
    key, *masks = solve(*args)
    seconds = time.perf_counter() - start
    if key < 0:  # cannot happen: any 13 cards set strongest-first are legal
        raise RuntimeError(f"no legal setting of {format_cards(cards)}")
    rows = tuple(cards[[i for i in range(len(cards)) if m >> i & 1]] for m in masks)
    used = masks[0] | masks[1] | masks[2]
    discards = format_cards([c for i, c in enumerate(cards) if not used >> i & 1])
    strengths = [int(strength(r)) for r in rows]
    row_royalties = tuple(int(tables.royalty[i, s]) for i, s in enumerate(strengths))
    stays = any(bool(tables.stay[i, s]) for i, s in enumerate(strengths))
    value = (int(key) >> STRENGTH_BITS) / 1000
    return FantasylandSetting(rules.id, cards, rows, discards, row_royalties, sum(row_royalties), stays, value,
                              seconds)


@dataclass(frozen=True)
class StayChance:
    cards: int
    stays: int
    samples: int

    @property
    def chance(self):
        return self.stays / self.samples

    @property
    def interval(self):
        return wilson_interval(self.stays, self.samples)

    def to_dict(self):
        low, high = self.interval
        return {"cards": self.cards, "stays": self.stays, "samples": self.samples,
                "chance": self.chance, "low": low, "high": high}


def stay_chance(n, rules="ofc-pineapple", samples=200_000, seed=1, progress=None):
    """How often ``n`` random cards (13 to 17) can be set, not fouled, to stay in Fantasyland:
    a Monte Carlo count with its Wilson interval (decks in chunks of :data:`STAY_CHUNK`, each
    from its own stream, so a larger run extends a smaller one)."""
    if not 13 <= n <= 17:
        raise ValueError(f"a Fantasyland hand has 13 to 17 cards, not {n}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    tables = load_ofc_rules(rules).tables
    full_house = int(strength(parse_cards("2c 2d 2h 3c 3d")))
    stays = 0
    for chunk, start in enumerate(range(0, samples, STAY_CHUNK)):
        count = min(STAY_CHUNK, samples - start)
        rng = Stream(seed, "ofc-stay", (n, chunk)).generator()
        decks = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (count, 52)), axis=1)
        out = np.zeros(count, np.bool_)
        stay_counts(np.ascontiguousarray(decks[:, :n]), n, tables.stay, full_house, out)
        stays += int(out.sum())
        if progress is not None:
            progress(start + count, samples)
    return StayChance(n, stays, samples)
