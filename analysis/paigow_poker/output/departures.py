"""Pai Gow Poker's strategy chart (issue 40, part 4): where the best play departs from a house
way, what each departure is worth, and what the house way costs against the best play.

Random hands (seeded; the same hands as ``sapsam paigow-poker cost`` with the same seed) are
each valued exactly, every setting against every dealer hand of the cards left
(:func:`sapsam.paigow_poker.measure.exact.rank_settings`).  A hand *departs* where the house way's
setting is worth strictly less than the best setting; its *cost* is the difference, per unit
bet, an exact value.  Departures are grouped by the hand (its rank pattern, whether a straight
or flush can be made, whether the joker is in it) and by what the best play does instead (the
two settings' shapes: the high hand's category and the low hand, :func:`move_of`).

Every figure over the hands is a sample mean: the house way's cost per hand (the mean cost
over all hands, departing or not) with its 95% interval; per group the share of hands (a
Wilson 95% interval), the mean cost per departure (95% interval over its departures) and the
group's part of the cost per hand (95% interval over all hands).  The groups' parts add up to
the cost per hand.

The best play against the house way (issue 40, part 3): its house edge is the house way's own
(the house way against itself) less the mean cost per hand, since each hand's best setting is
worth its house way setting plus its cost, exactly (:func:`best_play_edge`).  The house way's
edge comes from ``sapsam paigow-poker edge``'s deals (:func:`sapsam.paigow_poker.measure.exact.
house_edge`, the two samples independent, so the half-widths add in quadrature) or, on a small
deck, from every hand of the deck exactly (:func:`house_edge_on_deck`).  Banking, both are the
banker's: copies are the player's, the opponent sets by the house way.
"""

from dataclasses import dataclass
from itertools import combinations
from math import comb, sqrt

import numpy as np

from sapsam.base.stats import mean_interval, wilson_interval
from sapsam.paigow_poker.game import CATEGORY_NAMES, format_cards, high_words, low_words, parse_deck, tables
from sapsam.paigow_poker.kernels.hands import JOKER, LOW_PAIR, N_CARDS
from sapsam.paigow_poker.measure.exact import pattern_of, rank_settings


@dataclass(frozen=True)
class Departure:
    """One sampled hand against the house way: its group, both settings and the exact cost
    (0 where the house way's setting is as good as the best)."""

    cards: str
    group: str
    move: str
    house: tuple  # (high cards, low cards, high words, low words)
    best: tuple
    cost: float  # per unit bet, >= 0

    @property
    def departs(self):
        return self.cost > 0


COMPLETE = ("straight", "flush", "straight flush")


def _high_kind(category):
    return CATEGORY_NAMES[int(category)]


def _front(low):
    """A low hand's shape in words: "a pair in front" or "no pair in front"."""
    return "a pair in front" if int(low) >= LOW_PAIR else "no pair in front"


def move_of(best, house, scale):
    """What the best play does instead of the house way's setting, in a few words that group
    alike departures: it keeps or breaks a straight or flush, splits or keeps together two
    pair, puts a pair in front or keeps it behind; where the two settings have the same
    shape (the high hand's category, a pair in front or not), it trades a weaker low hand
    for a stronger high hand, or the other way round."""
    b_high, h_high = _high_kind(scale.category[best.high]), _high_kind(scale.category[house.high])
    b_pair, h_pair = int(best.low) >= LOW_PAIR, int(house.low) >= LOW_PAIR
    if (b_high, b_pair) == (h_high, h_pair):
        if best.low < house.low:
            return f"a weaker low hand for a stronger high hand ({b_high} behind, {_front(best.low)})"
        return f"a stronger low hand for a weaker high hand ({b_high} behind, {_front(best.low)})"
    if b_high in COMPLETE and h_high in COMPLETE:
        return f"the {b_high} behind, not the {h_high} ({_front(best.low)})"
    if b_high in COMPLETE and h_high not in COMPLETE:
        return f"keeps the {b_high} behind ({_front(best.low)}) where the house way plays {h_high} behind"
    if h_high in COMPLETE and b_high not in COMPLETE:
        return f"breaks the {h_high}: {b_high} behind, {_front(best.low)}"
    if h_high == "three of a kind" and b_high == "one pair" and not b_pair:
        return "splits the three of a kind: a pair behind, the third card in front"
    if h_high == "two pair" and not h_pair and b_pair:
        return "splits the two pair (a pair in front) where the house way keeps them together"
    if b_high == "two pair" and not b_pair and h_pair:
        return "keeps the two pair together where the house way splits them"
    if b_pair and not h_pair:
        return f"a pair in front ({b_high} behind) where the house way plays {h_high} behind, no pair in front"
    if h_pair and not b_pair:
        return f"no pair in front ({b_high} behind) where the house way plays {h_high} behind, a pair in front"
    return f"{b_high} behind, {_front(best.low)}, where the house way plays {h_high} behind"


def group_of(hand, rules):
    """The hand's group: its rank pattern (the joker an ace), "with a straight or flush" where
    some setting holds one in the high hand, "with the joker"."""
    name, complete = pattern_of(hand, rules)
    parts = [name]
    if complete:
        parts.append("straight or flush")
    if JOKER in [int(c) for c in hand]:
        parts.append("joker")
    return ", ".join(parts)


def depart(hand, way, rules, banking=False, deck=None):
    """One hand (ascending codes) against the house way: a :class:`Departure`."""
    scale, _ = tables(rules)
    ranked, house, _, _ = rank_settings(hand, way, rules, banking, deck)
    best = ranked[0]
    mine = next(s for s in ranked if (s.high, s.low) == house)
    cost = best.value(rules.commission) - mine.value(rules.commission)
    if cost <= 0:  # as good as the best: the ranking's first may be another setting of equal value
        best, cost = mine, 0.0

    def words(s):
        return (format_cards(s.high_cards), format_cards(s.low_cards),
                high_words(scale.packed[s.high]), low_words(s.low))

    move = move_of(best, mine, scale) if cost > 0 else ""
    return Departure(format_cards(hand), group_of(hand, rules), move, words(mine), words(best), cost)


def sample_hands(hands, seed=0, deck=None):
    """``hands`` random hands of seven (ascending uint8) of ``deck`` (all 53 by default), the
    same as :func:`sapsam.paigow_poker.measure.exact.sample_gaps` deals with the same seed."""
    from sapsam.play.seeds import Stream

    rng = Stream(seed, "paigow-poker-gap").generator()
    pool = N_CARDS if deck is None else np.asarray(deck)
    for _ in range(hands):
        yield np.sort(rng.choice(pool, 7, replace=False)).astype(np.uint8)


def _mean_ci(values, n=None):
    """Mean of ``values`` padded with zeros to ``n`` and its 95% half-width (Student's t; None
    for one value)."""
    values = np.asarray(values, dtype=float)
    n = len(values) if n is None else n
    mean, _, low, _ = mean_interval(np.concatenate([values, np.zeros(n - len(values))]))
    return mean, None if n < 2 else mean - low


def summarise(departures):
    """The chart of sampled hands (:class:`Departure`): a dict with the hands, the departures'
    share, the cost per hand with its 95% half-width, and a row per (group, move), costliest
    first, each with its departures, share (Wilson 95%), mean cost per departure (95%
    half-width) and part of the cost per hand (95% half-width over all hands)."""
    n = len(departures)
    costs = [d.cost for d in departures]
    mean, half = _mean_ci(costs)
    by = {}
    for d in departures:
        if d.departs:
            by.setdefault((d.group, d.move), []).append(d)
    rows = []
    for (group, move), part in by.items():
        cost = [d.cost for d in part]
        low, high = wilson_interval(len(part), n)
        per_departure, per_departure_half = _mean_ci(cost)
        per_hand, per_hand_half = _mean_ci(cost, n)
        example = max(part, key=lambda d: d.cost)
        rows.append({"group": group, "move": move, "departures": len(part), "share": len(part) / n,
                     "share_low": low, "share_high": high,
                     "cost_per_departure": per_departure, "cost_per_departure_half_width": per_departure_half,
                     "cost_per_hand": per_hand, "cost_per_hand_half_width": per_hand_half,
                     "example": example.cards, "example_house": example.house, "example_best": example.best,
                     "example_cost": example.cost})
    rows.sort(key=lambda r: (-r["cost_per_hand"], r["group"], r["move"]))
    departing = sum(d.departs for d in departures)
    share_low, share_high = wilson_interval(departing, n)
    return {"hands": n, "departures": departing, "share": departing / n, "share_low": share_low,
            "share_high": share_high, "cost_per_hand": mean, "half_width": half, "rows": rows}


def by_group(departures):
    """The cost per hand and departures by hand group alone (every move together): rows
    costliest first, each with its part of the cost per hand and its 95% half-width."""
    n = len(departures)
    groups = {}
    for d in departures:
        groups.setdefault(d.group, []).append(d)
    rows = []
    for group, part in groups.items():
        cost = [d.cost for d in part if d.departs]
        per_hand, half = _mean_ci(cost, n)
        rows.append({"group": group, "hands": len(part), "departures": len(cost),
                     "cost_per_hand": per_hand, "cost_per_hand_half_width": half})
    rows.sort(key=lambda r: (-r["cost_per_hand"], -r["hands"], r["group"]))
    return rows


DECK_EDGE_HANDS = 20_000  # a deck's house way against itself is exact up to this many hands


def house_edge_on_deck(way, rules, deck, banking=False):
    """The house way against itself on the cards of ``deck`` only, exactly: every hand of
    seven of the deck against every dealer hand of seven of the cards left, both set by the
    house way (copies to the dealer, or to the player when ``banking``).  A dict: the house
    edge, its ``half_width`` 0 and the deals counted.  For checks: at most
    :data:`DECK_EDGE_HANDS` hands of seven (a deck of up to 17 cards)."""
    from sapsam.paigow_poker.measure.exact import house_setting_of

    deck = [int(c) for c in deck]
    if comb(len(deck), 7) > DECK_EDGE_HANDS:
        raise ValueError(f"the house way against itself is counted exactly on a deck of at most "
                         f"17 cards; this one has {len(deck)}")
    setting = {}
    for hand in combinations(deck, 7):  # ascending, as the deck
        setting[frozenset(hand)] = house_setting_of(np.array(hand, dtype=np.uint8), way, rules)
    win = push = loss = 0
    for hand, (high, low) in setting.items():
        rest = [c for c in deck if c not in hand]
        for dealer in combinations(rest, 7):
            d_high, d_low = setting[frozenset(dealer)]
            if banking:
                won, lost = high >= d_high and low >= d_low, high < d_high and low < d_low
            else:
                won, lost = high > d_high and low > d_low, high <= d_high and low <= d_low
            win, loss, push = win + won, loss + lost, push + (not won and not lost)
    deals = win + push + loss
    return {"edge": (loss - (1 - rules.commission) * win) / deals, "half_width": 0.0, "deals": deals,
            "exact": True}


def house_way_edge(way, rules, banking=False, deals=10_000_000, seed=0, deck=None):
    """The house way against itself, banking or not: a dict with the house edge, its 95%
    ``half_width``, the deals and whether it is ``exact``: sampled over ``deals`` deals of
    the whole deck (:func:`sapsam.paigow_poker.measure.exact.house_edge`), or exact on a small
    ``deck`` (:func:`house_edge_on_deck`)."""
    from sapsam.paigow_poker.measure.exact import house_edge

    if deck is not None:
        return house_edge_on_deck(way, rules, deck, banking)
    row = house_edge(way, rules, int(deals), seed)[bool(banking)]
    return {"edge": row["edge"], "half_width": row["half_width"], "deals": row["deals"], "exact": False}


def best_play_edge(house, cost, cost_half_width):
    """The best play's house edge against the house way: the house way's edge (a
    :func:`house_way_edge` dict) less the mean cost per hand; the 95% half-widths of the two
    independent estimates in quadrature (None where the cost has none: a single hand)."""
    half = None if cost_half_width is None else sqrt(house["half_width"] ** 2 + cost_half_width ** 2)
    return {"house_way_edge": house["edge"], "house_way_half_width": house["half_width"],
            "house_way_deals": house["deals"], "house_way_exact": house["exact"],
            "edge": house["edge"] - cost, "half_width": half}


def published_best_play(commission, banking, deck, ways):
    """The published figures beside Foxwoods, not banking, 5% commission, the whole deck: the
    house way against itself exactly (the Wizard of Odds) and the best play 0.21 points
    below it (its exact analysis of 2013, "using optimal strategy lowers the house edge by
    0.21%"); None otherwise."""
    from sapsam.paigow_poker.output import published_edge

    if banking or deck is not None or commission != 0.05 or "foxwoods" not in [w.id for w in ways]:
        return None
    house = published_edge(commission)
    return {"house_way": "foxwoods", "house_way_edge": house["edge"], "best_play_edge": house["edge"] - 0.0021,
            "best_play_note": "0.21 points below the house way, rounded as published",
            "source": house["source"],
            "best_play_source": "the Wizard of Odds, 'Combinatorial Analysis of Pai Gow Poker' (JB's exact "
                                "analysis, Foxwoods, 31 December 2013): \"using optimal strategy lowers the "
                                "house edge by 0.21%\""}


def house_way_names(text):
    """House ways from text: ids or .toml paths separated by commas, or "all" (the shipped
    ones); a ValueError naming an unknown one."""
    from sapsam.paigow_poker.strategy import house_way, house_way_ids

    names = [t.strip() for t in str(text).split(",")]
    if names == ["all"]:
        names = house_way_ids()
    if not all(names):
        raise ValueError(f"house ways {text!r}: an empty name; separate them by single commas")
    if len(set(names)) != len(names):
        raise ValueError(f"house ways {text!r}: a house way given twice")
    return [house_way(n) for n in names]


def chart_answer(ways="foxwoods", hands=600, seed=0, commission=0.05, banking=False, deck=None,
                 progress=None, edge_deals=10_000_000):
    """The strategy chart of each house way (ids or files, comma-separated, or "all") on the
    same ``hands`` random hands: a dict with a ``house_ways`` list, each the
    :func:`summarise` of its hands, ``by_group``, every departing hand and ``best_play``: the
    house way against itself (``edge_deals`` deals, seeded by ``seed``) and the best play's
    house edge against the house way (:func:`best_play_edge`); ``published``: the published
    figures beside Foxwoods, not banking.  ``deck``: draw the hands and the dealer's hands
    from these cards only (a check on a small deck; the house way against itself is then
    counted exactly, on a deck of up to 17 cards, and left out, None, on a larger one).
    ``progress(done, total)`` is called after each hand."""
    from sapsam.paigow_poker.game import Rules

    if int(hands) < 1:
        raise ValueError(f"hands must be at least 1, got {hands!r}")
    rules = Rules(commission=commission)
    chosen = house_way_names(ways) if isinstance(ways, str) else list(ways)
    if isinstance(deck, str):
        deck = parse_deck(deck)
    if int(edge_deals) < 1:
        raise ValueError(f"edge_deals must be at least 1, got {edge_deals!r}")
    sampled = list(sample_hands(int(hands), seed, deck))
    out, done = [], 0
    for way in chosen:
        departures = []
        for hand in sampled:
            departures.append(depart(hand, way, rules, banking, deck))
            done += 1
            if progress:
                progress(done, len(sampled) * len(chosen))
        summary = summarise(departures)
        best_play = None
        if deck is None or comb(len(deck), 7) <= DECK_EDGE_HANDS:
            house = house_way_edge(way, rules, banking, edge_deals, seed, deck)
            best_play = best_play_edge(house, summary["cost_per_hand"], summary["half_width"])
        out.append({"house_way": way.to_dict(), **summary, "best_play": best_play,
                    "by_group": by_group(departures),
                    "departing_hands": [{"cards": d.cards, "group": d.group, "move": d.move,
                                         "house": d.house, "best": d.best, "cost": d.cost}
                                        for d in sorted(departures, key=lambda d: -d.cost) if d.departs]})
    return {"hands": int(hands), "seed": int(seed), "banking": bool(banking), "commission": commission,
            "deck": None if deck is None else format_cards(deck), "house_ways": out,
            "published": published_best_play(commission, banking, deck, chosen)}
