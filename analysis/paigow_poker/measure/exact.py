"""What a Pai Gow Poker setting is worth, exactly: one hand's every setting against the
dealer's house way over every dealer hand of the 46 cards left (53,524,680 of them).

The dealer's hands enter only through their (high, low) strengths: a histogram ``n[h, l]``
of how many dealer hands the house way sets to high ``h`` and low ``l``
(:mod:`sapsam.paigow_poker.kernels.exact`), read from the house way's table of all
154,143,080 hands of the deck (built once, about half a gigabyte, in the user's cache
folder), or set hand by hand where a part of the deck is asked for.  Its 2-D cumulative sums
``C[h, l]`` (dealer hands with high <= h and low <= l) give every setting's win, push and
loss counts at once: not banking, the player wins against the dealer hands below it on both
hands and loses against those at or above it on both (the banker's copies); banking, copies
are the player's.

A bet's value per unit: ``(1 - commission) * P(win) - P(loss)``.
"""

import hashlib
import os
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np

from sapsam.base.stats import Z95
from sapsam.paigow_poker.game import tables
from sapsam.paigow_poker.kernels.exact import (
    direct_histogram_chunk,
    histogram_direct,
    histogram_from_table,
    house_table,
    house_table_chunk,
    set_hand,
    table_histogram_chunk,
    top_pairs,
)
from sapsam.paigow_poker.kernels.hands import JOKER, LOW_PACKED, N_CARDS, N_HIGH, N_LOW
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS, PAIRS, settings_of

N_HANDS = comb(N_CARDS, 7)  # 154,143,080
CHUNKS = 8


def cache_dir():
    """``$SAPSAM_CACHE/paigow-poker``, else ``paigow-poker`` in the user's cache folder."""
    from platformdirs import user_cache_path

    root = os.environ.get("SAPSAM_CACHE")
    return (Path(root) if root else user_cache_path("sapsam", appauthor=False)) / "paigow-poker"


def way_digest(way, rules):
    """A digest of a house way's arrays and the straight rule: its table's name."""
    digest = hashlib.sha256(f"wheel_second={rules.wheel_second}".encode())
    for array in way.arrays:
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def table_paths(way, rules):
    stem = cache_dir() / f"{way.id}-{way_digest(way, rules)}"
    return stem.with_suffix(".high.npy"), stem.with_suffix(".low.npy")


def table_ready(way, rules):
    return all(p.is_file() for p in table_paths(way, rules))


def build_table(way, rules):
    """The house way's (high, low) of all 154,143,080 hands: (uint16, uint8) arrays."""
    scale, joker = tables(rules)
    high = np.empty(N_HANDS, dtype=np.uint16)
    low = np.empty(N_HANDS, dtype=np.uint8)
    house_table(way.arrays, scale, joker, top_pairs(N_CARDS), CHUNKS, high, low)
    return high, low


def house_way_table(way, rules):
    """The house way's table, from the cache (memory-mapped), or built and saved now."""
    paths = table_paths(way, rules)
    if not table_ready(way, rules):
        arrays = build_table(way, rules)
        for path, array in zip(paths, arrays):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as handle:
                np.save(handle, array)
            os.replace(tmp, path)
    return tuple(np.load(p, mmap_mode="r") for p in paths)


def dealer_histogram(cards, way, rules, direct=False):
    """Dealer hands of seven of ``cards`` (ascending codes) by the house way's (high, low):
    int64, shape (N_HIGH, N_LOW).  ``direct`` sets every hand now instead of reading the
    table (for a part of the deck, or to check the table)."""
    cards = np.ascontiguousarray(cards, dtype=np.uint8)
    pairs = top_pairs(len(cards))
    if direct:
        scale, joker = tables(rules)
        return histogram_direct(cards, pairs, way.arrays, scale, joker, CHUNKS)
    high, low = house_way_table(way, rules)
    return histogram_from_table(cards, pairs, high, low, CHUNKS)


def outcome_counts(histogram, high, low, banking):
    """(win, push, loss) counts of settings of strengths ``high``, ``low`` (int arrays)
    against a dealer histogram."""
    cum = np.zeros((N_HIGH + 1, N_LOW + 1), dtype=np.int64)  # cum[h + 1, l + 1] = C[h, l]
    cum[1:, 1:] = histogram.cumsum(axis=0).cumsum(axis=1)
    total = cum[-1, -1]
    h = np.asarray(high, dtype=np.int64) + (1 if banking else 0)  # below h and lo: a win
    lo = np.asarray(low, dtype=np.int64) + (1 if banking else 0)
    win = cum[h, lo]
    loss = total - cum[h, -1] - cum[-1, lo] + cum[h, lo]
    return win, total - win - loss, loss


@dataclass(frozen=True)
class Setting:
    """One distinct setting of a hand and its exact counts."""

    high_cards: tuple
    low_cards: tuple
    high: int  # dense strength
    low: int
    win: int
    push: int
    loss: int

    def value(self, commission):
        total = self.win + self.push + self.loss
        return ((1 - commission) * self.win - self.loss) / total


def legal_settings(hand, rules):
    """The distinct legal settings of seven ascending codes: [(high, low, high cards, low
    cards)], and how many of the 21 foul (the low hand outranks the high)."""
    scale, joker = tables(rules)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    settings_of(np.ascontiguousarray(hand, dtype=np.uint8), scale.dense, joker, high, low)
    seen, out, fouls = set(), [], 0
    for k in range(N_SETTINGS):
        if scale.packed[high[k]] <= LOW_PACKED[low[k]]:
            fouls += 1
            continue
        if (int(high[k]), int(low[k])) in seen:
            continue
        seen.add((int(high[k]), int(low[k])))
        i, j = PAIRS[k]
        out.append((int(high[k]), int(low[k]),
                    tuple(int(hand[m]) for m in range(7) if m not in (i, j)), (int(hand[i]), int(hand[j]))))
    return out, fouls


def house_setting_of(hand, way, rules):
    """The house way's (high, low) strengths of seven ascending codes."""
    scale, joker = tables(rules)
    _, high, low = set_hand(np.ascontiguousarray(hand, dtype=np.uint8), way.arrays, scale, joker)
    return int(high), int(low)


def remaining_cards(hand, deck=None):
    """The cards not in ``hand`` of ``deck`` (all 53 by default), ascending uint8."""
    deck = np.arange(N_CARDS) if deck is None else np.asarray(deck)
    return np.array(sorted(set(int(c) for c in deck) - set(int(c) for c in hand)), dtype=np.uint8)


def rank_settings(hand, way, rules, banking=False, deck=None):
    """Every distinct legal setting of ``hand`` with its exact counts against the house way,
    best value first; the house way's own (high, low); the fouls' count; dealer hands."""
    rest = remaining_cards(hand, deck)
    histogram = dealer_histogram(rest, way, rules, direct=deck is not None)
    settings, fouls = legal_settings(hand, rules)
    win, push, loss = outcome_counts(histogram, [s[0] for s in settings], [s[1] for s in settings], banking)
    ranked = [Setting(s[2], s[3], s[0], s[1], int(w), int(p), int(lo))
              for s, w, p, lo in zip(settings, win, push, loss)]
    ranked.sort(key=lambda s: (-s.value(rules.commission), -s.high, -s.low))
    return ranked, house_setting_of(hand, way, rules), fouls, int(histogram.sum())


def best_kernels():
    """The kernels ``best`` runs (for the compile notice)."""
    from sapsam.paigow_poker.kernels.montecarlo import house_block

    return [house_table_chunk, table_histogram_chunk, direct_histogram_chunk, set_hand, settings_of, house_block]


assert JOKER == N_CARDS - 1


def compiled_kernels():
    """The Numba dispatchers ``sapsam paigow-poker`` compiles (the registry's ``kernels``)."""
    from sapsam.paigow_poker.kernels.hands import _joker_table
    from sapsam.paigow_poker.kernels.pool import gains_chunk, pool_block

    return [_joker_table, *best_kernels(), pool_block, gains_chunk]


def warm():
    """Compile them on tiny runs (``sapsam compile``): one hand against a 16-card deck."""
    from sapsam.paigow_poker.game import Rules
    from sapsam.paigow_poker.strategy import house_way

    deck = [*range(36, 53)]
    rank_settings(np.array(deck[:7], dtype=np.uint8), house_way(), Rules(), deck=deck)
    cards = np.arange(8, dtype=np.uint8)
    scale, joker = tables(Rules())
    histogram_from_table(cards, top_pairs(8), np.zeros(16, np.uint16), np.zeros(16, np.uint8), 1)
    house_table(house_way().arrays, scale, joker, top_pairs(7)[:0], 1,
                np.zeros(1, np.uint16), np.zeros(1, np.uint8))
    from sapsam.paigow_poker.kernels.montecarlo import house_against_house

    house_against_house(np.zeros(1, np.uint16), np.zeros(1, np.uint8), np.zeros(1, np.uint64), 0)
    from sapsam.paigow_poker.kernels.pool import draw_pool, pool_gains

    pool = draw_pool(np.array(deck, dtype=np.uint8), 1, house_way().arrays, scale, joker, np.zeros(2, np.uint64))
    pool_gains(np.array([deck[:7]], dtype=np.uint8), *pool, house_way().arrays, scale, joker, 0.05)


# the Wizard of Odds' exact count of the Foxwoods house way against itself, not banking (issue 40)
PUBLISHED_HOUSE_WAY = {"win": 2_402_491_783_820_756, "push": 3_341_087_256_920_524,
                       "loss": 2_506_879_990_473_120, "total": 8_250_459_031_214_400,
                       "source": "https://wizardofodds.com/games/pai-gow-poker/ (house way against "
                                 "house way, Foxwoods, 5% commission)"}


def house_edge(way, rules, deals, seed=0, blocks=64, table=None):
    """The house way against itself, sampled: ``deals`` deals (rounded up to ``blocks``
    equal blocks), each met both ways round.  Returns per banking (False, True) the win,
    push and loss fractions and the house edge, each with its 95% half-width (``win_half_width``
    and so on; the edge's ``half_width``), z = 1.96 over the deals' paired values: a deal's
    share of wins is its two outcomes' mean.  ``table``: the house way's (high, low) arrays,
    if not its own."""
    from sapsam.paigow_poker.kernels.montecarlo import house_against_house
    from sapsam.play.seeds import Stream

    per_block = -(-deals // blocks)
    high, low = table if table is not None else house_way_table(way, rules)
    states = Stream(seed, "paigow-poker-edge").states(blocks)
    tallies = house_against_house(high, low, states, per_block).sum(axis=0)
    n = blocks * per_block
    worth = np.array([1 - rules.commission, 0.0, -1.0])
    out = {}
    for banking in (False, True):
        joint = tallies[int(banking)] / n  # P(first way round a, second b)
        pair_value = (worth[:, None] + worth[None, :]) / 2
        mean = float((joint * pair_value).sum())
        var = float((joint * pair_value ** 2).sum()) - mean ** 2
        single = (joint.sum(axis=1) + joint.sum(axis=0)) / 2
        out[banking] = {"win": float(single[0]), "push": float(single[1]), "loss": float(single[2]),
                        "edge": -mean, "half_width": Z95 * (var / n) ** 0.5, "deals": n}
        for k, name in enumerate(("win", "push", "loss")):
            share = (np.eye(3)[k][:, None] + np.eye(3)[k][None, :]) / 2
            spread = float((joint * share ** 2).sum()) - float(single[k]) ** 2
            out[banking][f"{name}_half_width"] = Z95 * (max(spread, 0.0) / n) ** 0.5
    return out


def bonus_counts_of_deck(rules):
    """Every hand of the 53 cards by its bonus hand (``BONUS_HANDS``): a dict of counts,
    computed once (a minute or two) and kept in the cache folder."""
    import json

    from sapsam.base.files import write_json
    from sapsam.paigow_poker.kernels.bonus import BONUS_HANDS, bonus_counts

    path = cache_dir() / f"bonus-counts-wheel-{'second' if rules.wheel_second else 'lowest'}.json"
    if path.is_file():
        return json.loads(path.read_text())
    scale, joker = tables(rules)
    counts = bonus_counts(np.arange(N_CARDS, dtype=np.uint8), top_pairs(N_CARDS), scale.dense,
                          joker, scale.category, CHUNKS)
    answer = dict(zip(BONUS_HANDS, (int(c) for c in counts)))
    write_json(path, answer)
    return answer


PATTERNS = ("no pair", "one pair", "two pair", "three pair", "three of a kind", "two sets",
            "full house", "four of a kind", "five aces")


def pattern_of(hand, rules):
    """What a house way looks at first: the rank pattern of seven codes (the joker an ace),
    and whether some setting holds a straight or a flush in the high hand."""
    ranks = [min(int(c) >> 2, 12) for c in hand]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] == 5:
        name = "five aces"
    elif counts[0] == 4:
        name = "four of a kind"
    elif counts[0] == 3:
        name = "two sets" if counts[1] == 3 else ("full house" if counts[1] == 2 else "three of a kind")
    else:
        name = ("no pair", "one pair", "two pair", "three pair")[counts.count(2)]
    scale, _ = tables(rules)
    settings, _ = legal_settings(hand, rules)
    complete = any(scale.category[s[0]] in (4, 5, 8) for s in settings)  # straight, flush, SF
    return name, complete


def sample_gaps(way, rules, hands, seed=0, banking=False):
    """What the house way's setting gives up against each hand's best setting, on ``hands``
    random hands: per hand its pattern, whether a straight or flush is there, the gap (value
    per unit), and whether the best setting is another one."""
    from sapsam.play.seeds import Stream

    rng = Stream(seed, "paigow-poker-gap").generator()
    out = []
    for _ in range(hands):
        hand = np.sort(rng.choice(N_CARDS, 7, replace=False)).astype(np.uint8)
        ranked, house, _, _ = rank_settings(hand, way, rules, banking)
        best = ranked[0].value(rules.commission)
        mine = next(s for s in ranked if (s.high, s.low) == house)
        name, complete = pattern_of(hand, rules)
        out.append({"cards": hand.tolist(), "pattern": name, "straight_or_flush": complete,
                    "gap": best - mine.value(rules.commission),
                    "departs": (ranked[0].high, ranked[0].low) != house})
    return out
