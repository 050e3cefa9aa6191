"""Pai Gow Poker's strategy chart (issue 40, part 4): where the best play departs from a house
way, what each departure is worth, and what the house way costs against the best play.

Random hands (seeded; the same hands as ``sapsam paigow-poker cost`` with the same seed) are
each valued exactly, every setting against every dealer hand of the cards left
(:func:`sapsam.paigow_poker.measure.rank_settings`).  A hand *departs* where the house way's
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
edge comes from ``sapsam paigow-poker edge``'s deals (:func:`sapsam.paigow_poker.measure.
house_edge`, the two samples independent, so the half-widths add in quadrature) or, on a small
deck, from every hand of the deck exactly (:func:`house_edge_on_deck`).  Banking, both are the
banker's: copies are the player's, the opponent sets by the house way.
"""

from dataclasses import dataclass
from itertools import combinations
from math import comb, sqrt

import numpy as np

from sapsam.paigow_poker.game import CATEGORY_NAMES, format_cards, high_words, low_words, tables
from sapsam.paigow_poker.kernels.hands import JOKER, LOW_PAIR, N_CARDS
from sapsam.paigow_poker.measure import pattern_of, rank_settings

Z = 1.96


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
    same as :func:`sapsam.paigow_poker.measure.sample_gaps` deals with the same seed."""
    from sapsam.play.seeds import Stream

    rng = Stream(seed, "paigow-poker-gap").generator()
    pool = N_CARDS if deck is None else np.asarray(deck)
    for _ in range(hands):
        yield np.sort(rng.choice(pool, 7, replace=False)).astype(np.uint8)


def parse_chart_deck(text):
    """The cards a check's hands and dealer hands come from: at least 14 distinct cards of the
    53, ascending uint8."""
    from sapsam.paigow_poker.game import parse_hand

    count = len(text.replace(",", " ").split()) if isinstance(text, str) else len(text)
    if count < 14:
        raise ValueError(f"a deck needs at least 14 cards (a hand's 7 and a dealer's 7), got {count}")
    return parse_hand(text, count, "deck")


def wilson(k, n):
    """The Wilson 95% interval of a share ``k / n``."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_ci(values, n=None):
    """Mean of ``values`` padded with zeros to ``n`` and its 95% half-width (None for one)."""
    values = np.asarray(values, dtype=float)
    n = len(values) if n is None else n
    mean = values.sum() / n
    if n < 2:
        return mean, None
    padded = np.concatenate([values, np.zeros(n - len(values))])
    return mean, Z * float(padded.std(ddof=1)) / sqrt(n)


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
        low, high = wilson(len(part), n)
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
    share_low, share_high = wilson(departing, n)
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
    from sapsam.paigow_poker.measure import house_setting_of

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
    the whole deck (:func:`sapsam.paigow_poker.measure.house_edge`), or exact on a small
    ``deck`` (:func:`house_edge_on_deck`)."""
    from sapsam.paigow_poker.measure import house_edge

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
        deck = parse_chart_deck(deck)
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


def _points(x, digits=3):
    return "" if x is None else f"{100 * x:.{digits}f}"


def chart_frame(answer):
    """One row per house way, hand group and move, in points (percent of a unit bet)."""
    import pandas as pd

    rows = []
    for w in answer["house_ways"]:
        for r in w["rows"]:
            rows.append({"house_way": w["house_way"]["id"], "group": r["group"], "move": r["move"],
                         "departures": r["departures"], "hands": w["hands"],
                         "share_pct": 100 * r["share"], "share_low_pct": 100 * r["share_low"],
                         "share_high_pct": 100 * r["share_high"],
                         "cost_per_departure_pts": 100 * r["cost_per_departure"],
                         "cost_per_departure_ci95_pts": None if r["cost_per_departure_half_width"] is None
                         else 100 * r["cost_per_departure_half_width"],
                         "cost_per_hand_pts": 100 * r["cost_per_hand"],
                         "cost_per_hand_ci95_pts": 100 * (r["cost_per_hand_half_width"] or 0),
                         "example": r["example"], "example_cost_pts": 100 * r["example_cost"]})
    return pd.DataFrame(rows)


def departures_frame(answer):
    """Every departing hand of every house way: its cards, both settings and the exact cost."""
    import pandas as pd

    return pd.DataFrame([{"house_way": w["house_way"]["id"], "cards": d["cards"], "group": d["group"],
                          "move": d["move"], "house_high": d["house"][0], "house_low": d["house"][1],
                          "best_high": d["best"][0], "best_low": d["best"][1],
                          "cost_pts": 100 * d["cost"]}
                         for w in answer["house_ways"] for d in w["departing_hands"]])


def _setting(s):
    return f"{s[0]} / {s[1]}"


def best_play_lines(answer):
    """Per house way one line: the house way against itself and the best play against it, in
    percent with 95% half-widths ("exact" where counted), and the published line if any."""
    lines = []
    for w in answer["house_ways"]:
        b = w.get("best_play")
        if b is None:
            continue
        house = "exact" if b["house_way_exact"] else f"± {100 * b['house_way_half_width']:.4f}"
        best = "" if b["half_width"] is None else f" ± {100 * b['half_width']:.3f}"
        lines.append(f"{w['house_way']['name']}: house way against itself {100 * b['house_way_edge']:.4f}% "
                     f"{house}; best play {100 * b['edge']:.3f}%{best}")
    p = answer.get("published")
    if p:
        lines.append(f"published (Foxwoods): house way against itself {100 * p['house_way_edge']:.4f}% "
                     f"exact; best play about {100 * p['best_play_edge']:.2f}% (0.21 points lower)")
    return lines


def best_play_markdown(answer):
    """The chart's section on the house edge: the house way against itself and the best play
    against it, per house way, with the published figures; [] where there is none."""
    ways = [w for w in answer["house_ways"] if w.get("best_play")]
    if not ways:
        return []
    side = "Banking (copies are the player's)" if answer["banking"] else "Not banking"
    deals = ways[0]["best_play"]
    source = ("every hand of the deck against every dealer hand, exact" if deals["house_way_exact"] else
              f"{deals['house_way_deals']:,} deals of the whole deck (seed {answer['seed']}), each both "
              "ways round, as `sapsam paigow-poker edge`")
    lines = ["", "## The house edge: the house way against itself, and the best play against it", "",
             f"{side}, {100 * answer['commission']:g}% commission, in percent of a unit bet. The house way "
             f"against itself: {source}. The best play against the house way: that edge less the cost "
             f"per hand above ({answer['hands']:,} hands, each hand's best setting worth its house way "
             "setting plus its cost, exactly); its 95% interval is the two intervals in quadrature, almost "
             "all of it the sample of hands, so far wider than the issue's 0.01 points: the last column "
             "says how many hands would bring it to 0.01 at the same spread.", "",
             "| house way | house way against itself | 95% ± | best play against the house way | 95% ± "
             "| hands for ± 0.01 |", "|---|--:|--:|--:|--:|--:|"]
    for w in ways:
        b = w["best_play"]
        house = "exact" if b["house_way_exact"] else _points(b["house_way_half_width"], 4)
        needed = "" if not w["half_width"] else f"{answer['hands'] * (w['half_width'] / 0.0001) ** 2:,.0f}"
        lines.append(f"| {w['house_way']['name']} | {100 * b['house_way_edge']:.4f}% | {house} | "
                     f"{100 * b['edge']:.3f}% | {_points(b['half_width'])} | {needed} |")
    p = answer.get("published")
    if p:
        lines += [f"| published, Foxwoods | {100 * p['house_way_edge']:.4f}% | exact | "
                  f"about {100 * p['best_play_edge']:.2f}% | | |", "",
                  f"Published: the house way against itself, {p['source']}; the best play, "
                  f"{p['best_play_source']}."]
    return lines


def chart_markdown(answer):
    """The chart as markdown: each house way's cost, then its departures."""
    n, seed = answer["hands"], answer["seed"]
    lines = ["# Pai Gow Poker: where the best play departs from the house way", "",
             f"{n:,} random hands (seed {seed}, the same hands for every house way), each valued "
             f"exactly: every setting against every dealer hand of the cards left, the dealer "
             f"setting by the house way; {'banking' if answer['banking'] else 'not banking'}, "
             f"{100 * answer['commission']:g}% commission. A hand *departs* where the house way's "
             "setting is worth strictly less than the best setting; its cost is the difference in "
             "points (percent of a unit bet), exact for the hand. Shares, means and parts of the "
             "cost per hand are over the sampled hands, with 95% intervals (shares: Wilson; means: "
             "normal, blank for a single departure). A group's parts add up to the house way's cost.",
             "", "## What each house way costs against the best play", "",
             "| house way | hands | best play departs | 95% CI | cost per hand (points) | 95% ± |",
             "|---|--:|--:|--:|--:|--:|"]
    for w in answer["house_ways"]:
        lines.append(f"| {w['house_way']['name']} | {w['hands']:,} | {100 * w['share']:.1f}% | "
                     f"{100 * w['share_low']:.1f}-{100 * w['share_high']:.1f}% | "
                     f"{_points(w['cost_per_hand'])} | {_points(w['half_width'])} |")
    lines += best_play_markdown(answer)
    for w in answer["house_ways"]:
        lines += ["", f"## {w['house_way']['name']}: the departures", "",
                  f"{w['departures']} of {w['hands']:,} hands depart; by the hand (every move "
                  "together), where the cost comes from:", "",
                  "| hand | hands | departs | cost per hand (points) | 95% ± |", "|---|--:|--:|--:|--:|"]
        for g in w["by_group"]:
            if g["departures"]:
                lines.append(f"| {g['group']} | {g['hands']:,} | {g['departures']} | "
                             f"{_points(g['cost_per_hand'])} | {_points(g['cost_per_hand_half_width'])} |")
        others = sum(g["hands"] for g in w["by_group"] if not g["departures"])
        lines += ["", f"No departure in the other {others:,} hands "
                  f"({'; '.join(g['group'] for g in w['by_group'] if not g['departures']) or 'none'}).",
                  "", "What the best play does instead, costliest first:", "",
                  "| hand | the best play | departures | share of hands | cost per departure (points) "
                  "| cost per hand (points) | the costliest: house way → best (points) |",
                  "|---|---|--:|--:|--:|--:|---|"]
        for r in w["rows"]:
            per = _points(r["cost_per_departure"])
            if r["cost_per_departure_half_width"] is not None:
                per += f" ± {_points(r['cost_per_departure_half_width'])}"
            lines.append(f"| {r['group']} | {r['move']} | {r['departures']} | {100 * r['share']:.2f}% "
                         f"({100 * r['share_low']:.2f}-{100 * r['share_high']:.2f}) | {per} | "
                         f"{_points(r['cost_per_hand'])} ± {_points(r['cost_per_hand_half_width'])} | "
                         f"{r['example']}: {_setting(r['example_house'])} → {_setting(r['example_best'])} "
                         f"({_points(r['example_cost'])}) |")
    return "\n".join(lines) + "\n"


def chart_figure(answer, stem):
    """Each house way's cost per hand by hand group, with 95% intervals: one panel a house
    way, the groups that depart."""
    from sapsam.output.plots import figure, save_figure

    ways = answer["house_ways"]
    groups = sorted({g["group"] for w in ways for g in w["by_group"] if g["departures"]},
                    key=lambda g: -max((r["cost_per_hand"] for w in ways for r in w["by_group"]
                                        if r["group"] == g), default=0))
    fig = figure(8.0, 1.6 + 0.45 * len(groups))
    ax = fig.add_subplot()
    height = 0.8 / max(1, len(ways))
    for i, w in enumerate(ways):
        found = {g["group"]: g for g in w["by_group"]}
        y = np.arange(len(groups)) + i * height
        x = [100 * found[g]["cost_per_hand"] if g in found else 0 for g in groups]
        err = [100 * (found[g]["cost_per_hand_half_width"] or 0) if g in found else 0 for g in groups]
        ax.barh(y, x, height, xerr=err, label=f"{w['house_way']['name']}: {100 * w['cost_per_hand']:.3f} "
                f"± {100 * (w['half_width'] or 0):.3f} points a hand", capsize=2)
    ax.set_yticks(np.arange(len(groups)) + height * (len(ways) - 1) / 2, groups)
    ax.invert_yaxis()
    ax.set_xlabel("cost per hand against the best play (points, 95% interval)")
    fig.suptitle(f"Pai Gow Poker: what each house way gives up against the best play, by hand\n"
                 f"({answer['hands']:,} hands, {'banking' if answer['banking'] else 'not banking'}, "
                 f"{100 * answer['commission']:g}% commission)")
    ax.legend(loc="lower right", fontsize=7)
    save_figure(fig, stem, formats=("png",))


def write_chart(answer, folder):
    """Write ``chart.md``, ``chart.csv`` (a row per house way, group and move),
    ``chart-departures.csv`` (every departing hand), ``chart.json`` and ``chart.png`` into
    ``folder`` (``chart-banking.*`` when banking).  Returns the markdown's path."""
    from pathlib import Path

    from sapsam.base.files import provenance, write_atomic, write_json

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / ("chart-banking" if answer["banking"] else "chart")
    write_atomic(stem.with_suffix(".md"), chart_markdown(answer))
    write_atomic(stem.with_suffix(".csv"), chart_frame(answer).to_csv(index=False, float_format="%.5g"))
    write_atomic(stem.parent / f"{stem.name}-departures.csv",
                 departures_frame(answer).to_csv(index=False, float_format="%.5g"))
    write_json(stem.with_suffix(".json"), {**answer, "provenance": provenance(
        game="pai gow poker", hands=answer["hands"], seed=answer["seed"])})
    chart_figure(answer, stem)
    return stem.with_suffix(".md")


# The committed charts ship as package data for the web tab: results/paigow_poker's chart.json
# and chart-banking.json less every departing hand (the rows, groups and best play stay), in
# this package's folder ``shipped``.  After a new run into results/paigow_poker:
#   python -c "from sapsam.paigow_poker.departures import ship_charts; ship_charts()"
# (tests/paigow_poker/test_chart.py holds the two to each other in a checkout).
SHIPPED = "shipped"


def shipped_chart(answer):
    """The part of a chart (:func:`chart_answer`, as written to ``chart.json``) that the web
    tab shows: everything but each house way's departing hands."""
    return {**answer, "house_ways": [{k: v for k, v in w.items() if k != "departing_hands"}
                                     for w in answer["house_ways"]]}


def ship_charts(results="results/paigow_poker", package=None):
    """Write :func:`shipped_chart` of ``results``' chart.json and chart-banking.json (those
    there) into the package's ``shipped`` folder (``package``): the checkout's
    analysis/paigow_poker/shipped by default.  Returns the paths written."""
    import json
    from pathlib import Path

    from sapsam.base.files import write_atomic

    package = Path(__file__).with_name(SHIPPED) if package is None else Path(package)
    package.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ("chart.json", "chart-banking.json"):
        source = Path(results) / name
        if source.is_file():
            answer = shipped_chart(json.loads(source.read_text(encoding="utf-8")))
            write_atomic(package / name, json.dumps(answer, indent=1) + "\n")
            written.append(package / name)
    return written


def shipped(banking=False):
    """The shipped chart (:func:`shipped_chart` of the committed run), banking or not, from
    the package data; None where none ships."""
    import json
    from importlib.resources import files

    source = files("sapsam.paigow_poker").joinpath(SHIPPED, "chart-banking.json" if banking else "chart.json")
    return json.loads(source.read_text(encoding="utf-8")) if source.is_file() else None


def figure_png(answer):
    """:func:`chart_figure` of a chart as PNG bytes (the same bytes as its ``chart.png``)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="sapsam-pgp-chart-") as folder:
        chart_figure(answer, Path(folder) / "chart")
        return (Path(folder) / "chart.png").read_bytes()
