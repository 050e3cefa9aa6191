"""A slow, obviously-correct reference for the tests (STYLE.md 4).

Everything here is plain Python written from RULES.md part A1 and DESIGN.md, without calling
or copying ``kernels/``: the tests feed the same input to both and demand the same answers.
Speed does not matter; clarity does.  New references (the scorer, the setter, the simulator)
get their own section below.

Conventions (DESIGN.md): a card is an int ``rank * 4 + suit``, rank 0 = deuce .. 12 = ace,
suits c, d, h, s = 0..3.
"""

from bisect import bisect_left
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement

# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
ACE = 12


def rank_of(card):
    return card // 4


def suit_of(card):
    return card % 4


def card(text):
    """Code of a card written plainly, e.g. ``'As'`` -> 51 (test helper, no aliases)."""
    return RANK_CHARS.index(text[0].upper()) * 4 + SUIT_CHARS.index(text[1].lower())


def cards(text):
    """Codes of space-separated plain cards, e.g. ``'As Kd'`` -> [51, 45]."""
    return [card(t) for t in text.split()]


def card_text(code):
    return RANK_CHARS[code // 4] + SUIT_CHARS[code % 4]


# --------------------------------------------------------------------------------------------
# Hand keys: one comparable tuple per 3- or 5-card hand
# --------------------------------------------------------------------------------------------

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")

MISSING = -1  # a front's missing kicker: lower than any rank (RULES.md A1)
KEY_LENGTH = 6  # category + five tie-break places
WHEEL_TOP = 3  # A-2-3-4-5 counts as five high: the lowest straight
WHEEL_SECOND_TOP = 11.5  # option wheel_rank = "second": between king high (11) and ace high (12)


def straight_top(ranks, wheel_second=False):
    """Top rank of a 5-card straight (``ranks`` of five cards), or None if not a straight.

    Ace high or low (A-2-3-4-5), no wrap-around: K-A-2-3-4 is no straight.
    """
    distinct = sorted(set(ranks))
    if len(ranks) != 5 or len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if distinct == [0, 1, 2, 3, ACE]:
        return WHEEL_SECOND_TOP if wheel_second else WHEEL_TOP
    return None


def hand_key(hand, wheel_second=False):
    """A tuple that orders 3- and 5-card hands on one scale: bigger is better, equal is a tie.

    ``(category, tie-break ranks...)``: the ranks grouped by how often they occur (most
    often first, higher first among equals), padded with ``MISSING`` so a front's absent
    kickers rank lowest.  Suits never rank; a front (3 cards) makes only high card, pair or
    three of a kind.
    """
    hand = list(hand)
    if len(hand) not in (3, 5) or len(set(hand)) != len(hand):
        raise ValueError(f"a hand is 3 or 5 distinct cards, got {hand}")
    ranks = [rank_of(c) for c in hand]
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)

    category = None
    if len(hand) == 5:
        flush = len({suit_of(c) for c in hand}) == 1
        top = straight_top(ranks, wheel_second)
        if top is not None and flush:
            category, groups = STRAIGHT_FLUSH, [top]
        elif shape == [4, 1]:
            category = QUADS
        elif shape == [3, 2]:
            category = FULL_HOUSE
        elif flush:
            category = FLUSH
        elif top is not None:
            category, groups = STRAIGHT, [top]
    if category is None:
        if shape[0] == 3:
            category = TRIPS
        elif shape[:2] == [2, 2]:
            category = TWO_PAIR
        elif shape[0] == 2:
            category = PAIR
        else:
            category = HIGH_CARD
    tie_break = list(groups) + [MISSING] * (KEY_LENGTH - 1 - len(groups))
    return (category, *tie_break)


def category_of_key(key):
    return key[0]


# --------------------------------------------------------------------------------------------
# The strength scale: every hand class, 3- and 5-card together, numbered from the weakest
# --------------------------------------------------------------------------------------------


def class_representatives():
    """One hand (card codes) per hand class: 455 fronts, then 7,462 five-card classes.

    A hand's key depends only on its rank multiset and on whether it is a flush, so one hand
    per (rank multiset, flush) covers every class.  Suits are dealt 0, 1, 2, 3, 0 along the
    sorted multiset, which keeps the cards distinct and never makes a flush.

    Returns
    -------
    fronts : list of tuple, 455 three-card hands
    fives : list of tuple, 7,462 five-card hands (6,175 non-flush, then 1,287 flushes)
    """
    fronts = [tuple(r * 4 + i % 4 for i, r in enumerate(m))
              for m in combinations_with_replacement(range(13), 3)]
    fives = [tuple(r * 4 + i % 4 for i, r in enumerate(m))
             for m in combinations_with_replacement(range(13), 5)
             if max(Counter(m).values()) <= 4]
    fives += [tuple(r * 4 for r in m) for m in combinations(range(13), 5)]  # clubs flushes
    return fronts, fives


@cache
def strength_scale(wheel_second=False):
    """Sorted list of the distinct keys of all hand classes (7,917 of them)."""
    fronts, fives = class_representatives()
    return sorted({hand_key(h, wheel_second) for h in fronts + fives})


def strength(hand, wheel_second=False):
    """Dense ordinal of a hand on the shared scale: its key's place in ``strength_scale``."""
    scale = strength_scale(wheel_second)
    key = hand_key(hand, wheel_second)
    i = bisect_left(scale, key)
    assert scale[i] == key
    return i


def key_strength(key, wheel_second=False):
    """Dense ordinal of a key (see :func:`strength`)."""
    scale = strength_scale(wheel_second)
    i = bisect_left(scale, key)
    assert scale[i] == key, key
    return i


# --------------------------------------------------------------------------------------------
# Splits of a 13-card hand, legality and the Pareto frontier
# --------------------------------------------------------------------------------------------

FRONT_CHOICES = list(combinations(range(13), 3))  # 286, lexicographic
MIDDLE_CHOICES = list(combinations(range(10), 5))  # 252, over the ten positions left
N_SPLITS = len(FRONT_CHOICES) * len(MIDDLE_CHOICES)  # 72,072


def all_splits(sorted_hand):
    """Yield ``(split_index, front, middle, back)`` for all 72,072 splits of a sorted hand.

    ``split_index = front_index * 252 + middle_index``: ``front_index`` numbers the 3-position
    subsets of 0..12 in ``itertools.combinations`` order, ``middle_index`` the 5-subsets of
    the ten remaining positions (taken in their own ascending order), the back is the rest.
    """
    hand = [int(c) for c in sorted_hand]
    if len(hand) != 13 or len(set(hand)) != 13 or hand != sorted(hand):
        raise ValueError(f"need 13 distinct cards in ascending order, got {hand}")
    for front_index, front_positions in enumerate(FRONT_CHOICES):
        rest = [p for p in range(13) if p not in front_positions]
        for middle_index, chosen in enumerate(MIDDLE_CHOICES):
            middle_positions = [rest[j] for j in chosen]
            back_positions = [p for p in rest if p not in middle_positions]
            yield (front_index * len(MIDDLE_CHOICES) + middle_index,
                   tuple(hand[p] for p in front_positions),
                   tuple(hand[p] for p in middle_positions),
                   tuple(hand[p] for p in back_positions))


def split_keys(hand, wheel_second=False):
    """``[(split_index, (front_key, middle_key, back_key))]`` for all splits of ``hand``.

    The hand is sorted first (split indices refer to the sorted hand).  Keys of the same
    cards are remembered, which changes nothing but the running time.
    """
    memo = {}

    def key(row):
        if row not in memo:
            memo[row] = hand_key(row, wheel_second)
        return memo[row]

    return [(s, (key(f), key(m), key(b))) for s, f, m, b in all_splits(sorted(hand))]


def is_legal(triple):
    """Back >= middle >= front, ties allowed (RULES.md A1)."""
    front, middle, back = triple
    return back >= middle >= front


def legal_splits(hand, wheel_second=False):
    """``[(split_index, key_triple)]`` of the legal settings, split index ascending."""
    return [(s, t) for s, t in split_keys(hand, wheel_second) if is_legal(t)]


def distinct_triples(hand, wheel_second=False):
    """The set of distinct key triples among the legal settings."""
    return {t for _, t in legal_splits(hand, wheel_second)}


def matches_or_beats(u, t):
    """True if triple ``u`` is at least as strong as ``t`` in every row."""
    return all(a >= b for a, b in zip(u, t))


def pareto_frontier(hand, wheel_second=False):
    """The set of ``(split_index, key_triple)`` on the Pareto frontier of ``hand``.

    A legal setting belongs unless another legal setting with a different triple matches or
    beats it in all three rows; one member per distinct triple, the smallest split index.

    Why the sweep below is right: a triple ``u != t`` that matches or beats ``t`` in every
    row is lexicographically greater, so it comes first in descending order; and if ``t``
    is dominated at all it is dominated by a maximal triple (domination is transitive and
    there are finitely many), which the sweep has kept.  So ``t`` is kept iff undominated.
    """
    smallest_split = {}
    for s, t in legal_splits(hand, wheel_second):  # ascending split index: first is smallest
        smallest_split.setdefault(t, s)
    maxima = []
    for t in sorted(smallest_split, reverse=True):
        if not any(matches_or_beats(u, t) for u in maxima):
            maxima.append(t)
    return {(smallest_split[t], t) for t in maxima}


def pareto_frontier_brute_force(hand, wheel_second=False):
    """Same as :func:`pareto_frontier` straight from the definition (quadratic; small use)."""
    smallest_split = {}
    for s, t in legal_splits(hand, wheel_second):
        smallest_split.setdefault(t, s)
    triples = list(smallest_split)
    return {(smallest_split[t], t) for t in triples
            if not any(u != t and matches_or_beats(u, t) for u in triples)}


def triple_strengths(triple, wheel_second=False):
    """Key triple -> tuple of dense ordinals (to compare with the kernels' int16 rows)."""
    return tuple(key_strength(k, wheel_second) for k in triple)


from dataclasses import dataclass  # noqa: E402  (imports of the sections below)
from fractions import Fraction  # noqa: E402

# --------------------------------------------------------------------------------------------
# Naturals: plain detectors written from RULES.md A4 (and the definitions documented in
# kernels/naturals.py), brute force where that is clearer
# --------------------------------------------------------------------------------------------

NATURAL_KIND_NAMES = (
    "dragon", "clean-dragon", "six-pairs", "three-straights", "three-flushes",
    "three-straight-flushes", "five-pairs-trips", "four-trips", "three-quads", "all-one-colour",
    "twelve-one-colour", "small", "big", "twelve-pictures", "twelve-royalties", "no-pictures",
)
JACK, QUEEN, KING = 9, 10, 11
BLACK_SUITS = (0, 3)  # clubs, spades; diamonds and hearts are red

# 5-card straights as (top, ranks): top is the highest card, the wheel A-2-3-4-5 counts as five
# high (RULES.md A1: ace low only there); 3-card front straights likewise, A-2-3 three high.
FIVE_RUNS = [(3, (ACE, 0, 1, 2, 3))] + [(top, tuple(range(top - 4, top + 1))) for top in range(4, 13)]
FRONT_RUNS = [(1, (ACE, 0, 1))] + [(top, (top - 2, top - 1, top)) for top in range(2, 13)]


def _front_runs(option):
    """Front straights allowed by ``front_straight_ace``: 0 both, 1 only A-2-3, 2 only Q-K-A."""
    return [(top, ranks) for top, ranks in FRONT_RUNS
            if not (top == ACE and option == 1) and not (top == 1 and option == 2)]


def natural_option(hand):
    """``(kind, option)`` of an ``sapsam.game.mechanisms.NaturalHand``, read from its named fields.

    The option is the integer :func:`natural_key` takes: six pairs 0 strict, 1 quads-as-two,
    2 any; three straights 0 both, 1 low (A-2-3 only), 2 high (Q-K-A only); four trips 1 if
    quads count as trips; small / big the rank index of ``max_rank`` / ``min_rank``.
    """
    kind = str(hand.kind)
    if kind == "six-pairs":
        option = {"strict": 0, "quads-as-two": 1, "any": 2}[hand.six_pairs_counts]
    elif kind == "three-straights":
        option = {"both": 0, "low": 1, "high": 2}[hand.front_straight_ace]
    elif kind == "four-trips":
        option = 1 if hand.quads_as_trips else 0
    elif kind == "small":
        option = RANK_CHARS.index(hand.max_rank)
    elif kind == "big":
        option = RANK_CHARS.index(hand.min_rank)
    else:
        option = 0
    return kind, option


@cache
def _run_patterns():
    """{rank-count tuple: [(back_top, middle_top, front_top), ...]} over every choice of two
    5-card runs and one 3-card run (10 * 10 * 12 choices), built once."""
    table = {}
    for back_top, back in FIVE_RUNS:
        for middle_top, middle in FIVE_RUNS:
            for front_top, front in FRONT_RUNS:
                count = Counter(back) + Counter(middle) + Counter(front)
                pattern = tuple(count[r] for r in range(13))
                table.setdefault(pattern, []).append((back_top, middle_top, front_top))
    return table


def _rows_of_runs(hand_ranks, option=0):
    """Every (back_top, middle_top, front_top) whose three runs use exactly ``hand_ranks``,
    the front allowed by ``option`` (see :func:`_front_runs`)."""
    count = Counter(hand_ranks)
    fronts = {top for top, _ in _front_runs(option)}
    return [t for t in _run_patterns().get(tuple(count[r] for r in range(13)), []) if t[2] in fronts]


def _three_flushes(hand):
    """Best (back key, middle key, front key) with three one-suit rows, or None (brute force
    over the fronts and middles; keys of the same cards are remembered)."""
    hand = sorted(hand)
    suits = Counter(suit_of(c) for c in hand)
    shapes = {(13,), (10, 3), (8, 5), (5, 5, 3)}
    if tuple(sorted(suits.values(), reverse=True)) not in shapes:
        return None  # no way to cut the suits into 3 + 5 + 5 one-suit rows
    memo = {}

    def key(row):
        if row not in memo:
            memo[row] = hand_key(row)
        return memo[row]

    best = None
    for front in combinations(hand, 3):
        if len({suit_of(c) for c in front}) != 1:
            continue
        rest = [c for c in hand if c not in front]
        for middle in combinations(rest, 5):
            back = tuple(c for c in rest if c not in middle)
            if len({suit_of(c) for c in middle}) != 1 or len({suit_of(c) for c in back}) != 1:
                continue
            candidate = (key(back), key(middle), key(front))
            if best is None or candidate > best:
                best = candidate
    return best


def _three_straight_flushes(hand):
    """Best (back_top, middle_top, front_top) of three straight-flush rows, or None."""
    have = set(hand)
    best = None
    for back_top, back in FIVE_RUNS:
        for sb in range(4):
            b = {r * 4 + sb for r in back}
            if not b <= have:
                continue
            for middle_top, middle in FIVE_RUNS:
                for sm in range(4):
                    m = {r * 4 + sm for r in middle}
                    if not m <= have - b:
                        continue
                    for front_top, front in FRONT_RUNS:  # both front aces (kernels docstring)
                        for sf in range(4):
                            if {r * 4 + sf for r in front} == have - b - m:
                                key = (back_top, middle_top, front_top)
                                best = key if best is None or key > best else best
    return best


def natural_key(hand, kind, option=0):
    """Tie-break key of a 13-card ``hand`` as natural ``kind``, or None if it is not one.

    ``kind`` is a name of :data:`NATURAL_KIND_NAMES` (or its position there); ``option`` as
    in :func:`natural_option`.  Keys are tuples: a higher key beats a lower one between two
    holders of the same natural, equal keys tie (RULES.md A4):

    - six pairs: the pair ranks from the highest down (a four of a kind, where it counts,
      gives its rank twice);
    - three straights / three straight flushes: (back top, middle top, front top) of the best
      way to cut the hand into runs (wheel = five high, A-2-3 = three high);
    - three flushes: (back, middle, front) hand keys of the best one-suit setting;
    - every other kind: ``()`` (two holders tie).
    """
    hand = [int(c) for c in hand]
    if len(hand) != 13 or len(set(hand)) != 13:
        raise ValueError(f"a natural needs 13 distinct cards, got {hand}")
    if not isinstance(kind, str):
        kind = NATURAL_KIND_NAMES[kind]
    ranks = [rank_of(c) for c in hand]
    count = Counter(ranks)
    shape = sorted(count.values(), reverse=True)
    suits = Counter(suit_of(c) for c in hand)
    black = sum(1 for c in hand if suit_of(c) in BLACK_SUITS)
    yes = ()
    if kind == "dragon":
        return yes if len(count) == 13 else None
    if kind == "clean-dragon":
        return yes if len(suits) == 1 else None
    if kind == "six-pairs":
        allowed = {0: {1, 2}, 1: {1, 2, 4}, 2: {1, 2, 3, 4}}[option]
        if any(c not in allowed for c in count.values()):
            return None
        pairs = sorted((r for r, c in count.items() for _ in range(c // 2)), reverse=True)
        return tuple(pairs) if len(pairs) == 6 else None
    if kind == "three-straights":
        found = _rows_of_runs(ranks, option)
        return max(found) if found else None
    if kind == "three-flushes":
        return _three_flushes(hand)
    if kind == "three-straight-flushes":
        if not _rows_of_runs(ranks) or _three_flushes(hand) is None:
            return None  # cheap necessary conditions first
        return _three_straight_flushes(hand)
    if kind == "five-pairs-trips":
        return yes if shape == [3, 2, 2, 2, 2, 2] else None
    if kind == "four-trips":
        ok = shape == [3, 3, 3, 3, 1] or (option == 1 and shape == [4, 3, 3, 3])
        return yes if ok else None
    if kind == "three-quads":
        return yes if shape == [4, 4, 4, 1] else None
    if kind == "all-one-colour":
        return yes if black in (0, 13) else None
    if kind == "twelve-one-colour":
        return yes if black in (1, 12) else None
    if kind == "small":
        return yes if max(ranks) <= option else None
    if kind == "big":
        return yes if min(ranks) >= option else None
    if kind == "twelve-pictures":
        return yes if sum(count[r] for r in (JACK, QUEEN, KING)) == 12 else None
    if kind == "twelve-royalties":
        return yes if min(ranks) >= JACK else None
    if kind == "no-pictures":
        return yes if not any(count[r] for r in (JACK, QUEEN, KING)) else None
    raise ValueError(f"unknown natural kind {kind!r}")


# --------------------------------------------------------------------------------------------
# Scoring: the reference scorer, written from RULES.md A2-A11 and the settlement order and
# defaults listed in the docstring of kernels/settle.py
# --------------------------------------------------------------------------------------------

ROW_NAMES = ("front", "middle", "back")
CATEGORY_WORDS = ("high-card", "pair", "two-pair", "trips", "straight", "flush", "full-house",
                  "quads", "straight-flush")  # the values of sapsam.game.mechanisms.Category
ACES_BET = {0: 0, 1: 1, 2: 2, 3: 6, 4: 8}  # RULES.md A11


@dataclass
class Seat:
    """What one seat puts down.

    A setting (``front`` 3 cards, ``middle`` 5, ``back`` 5), or a declared natural
    (``natural`` = index into ``rules.naturals.hands``, with its tie-break ``natural_key``,
    any comparable value), or a surrender.  ``aces`` is the number of aces held (for the side
    bet); by default it is counted from the setting's cards.
    """

    front: tuple = ()
    middle: tuple = ()
    back: tuple = ()
    natural: int = -1
    natural_key: object = 0
    surrender: bool = False
    aces: int = None

    def ace_count(self):
        if self.aces is not None:
            return self.aces
        return sum(1 for c in (*self.front, *self.middle, *self.back) if rank_of(c) == ACE)


def low_key(hand):
    """A 5-card hand's key as a deuce-to-seven low, bigger the better low (RULES.md A12): the
    high key with A-5-4-3-2 an ace-high hand (no straight), negated."""
    key = hand_key(hand)
    ranks = sorted((rank_of(c) for c in hand), reverse=True)
    if ranks == [ACE, 3, 2, 1, 0]:
        key = (FLUSH if len({suit_of(c) for c in hand}) == 1 else HIGH_CARD, *ranks)
    return tuple(-x for x in key)


def _setting_keys(seat, wheel_second, low_middle=False):
    keys = [hand_key(row, wheel_second) for row in (seat.front, seat.middle, seat.back)]
    if low_middle:
        keys[1] = low_key(seat.middle)
    return tuple(keys)


def _legal(rules, seat, keys):
    """Back >= middle >= front; a low middle: back >= front, and for ``high-order`` the
    middle's high key between them too."""
    if not rules.low_middle:
        return is_legal(keys)
    high = _setting_keys(seat, str(rules.wheel_rank) == "second")
    return keys[2] >= keys[0] and (str(rules.middle.order) != "high-order" or is_legal(high))


def _status(rules, seat, keys):
    if seat.natural >= 0:
        if not 0 <= seat.natural < len(rules.naturals.hands):
            raise ValueError(f"natural index {seat.natural} beyond the ruleset's naturals")
        return "natural"
    if seat.surrender:
        if str(rules.surrender.mode) == "none":
            raise ValueError(f"{rules.id} has no surrender")
        return "surrender"
    return "set" if _legal(rules, seat, keys) else "foul"


def _royalty(rules, row, key, fouled):
    """Royalty units of a row hand (0 for none; a fouled hand's count for nothing, A6)."""
    if fouled or (row == 1 and rules.low_middle):  # a low middle earns none (A12)
        return 0
    table = getattr(rules.royalties, ROW_NAMES[row])
    return table.get(CATEGORY_WORDS[category_of_key(key)], 0)


def _tiers(rules):
    """Tier of each natural: ascending list, ``same_tier`` entries share the previous tier."""
    tiers, tier = [], -1
    for i, hand in enumerate(rules.naturals.hands):
        if not (hand.same_tier and i > 0):
            tier += 1
        tiers.append(tier)
    return tiers


def natural_payment(rules, seat_i, seat_j):
    """Units to seat i from seat j when at least one of them declares a natural (A4)."""
    hands = rules.naturals.hands
    ni, nj = seat_i.natural, seat_j.natural
    if nj < 0:
        return hands[ni].value  # paid its value by an opponent without one
    if ni < 0:
        return -hands[nj].value
    vi, vj = hands[ni].value, hands[nj].value
    tiers = _tiers(rules)
    ti, tj = tiers[ni], tiers[nj]
    clash = str(rules.naturals.clash)
    if clash == "difference":
        return vi - vj  # the lower-valued natural pays the difference; equal: nothing
    if ti != tj:  # a higher natural / tier wins its full value, the lower loses its own
        return vi if ti > tj else -vj
    if clash == "higher-wins-full" and hands[ni].kind == hands[nj].kind:
        ki, kj = seat_i.natural_key, seat_j.natural_key  # same kind: compare (A4)
        return vi if ki > kj else -vj if ki < kj else 0
    return 0  # equal tier: nobody is higher


def pair_outcome(rules, keys_i, keys_j, foul_i, foul_j, bank_side=0):
    """Row results of seat i against seat j: tuple of +1 / -1 / 0 per row.

    A fouled hand loses every row; two fouled hands are even (A6).  ``bank_side`` is +1 if
    i is the bank, -1 if j is: the bank wins every tied row (A7).
    """
    if foul_i and foul_j:
        return (0, 0, 0)
    if foul_i:
        return (-1, -1, -1)
    if foul_j:
        return (1, 1, 1)
    out = []
    for a, b in zip(keys_i, keys_j):
        out.append(1 if a > b else -1 if a < b else bank_side)
    return tuple(out)


def showdown_amount(rules, results, royalties_i=(0, 0, 0), royalties_j=(0, 0, 0),
                    home_run_i=False, home_run_j=False, both_fouled=False):
    """Units to seat i from seat j for row ``results`` (i's side) and row royalties (A2, A3).

    Order (kernels/settle.py docstring, step 3): row units, the base's extras, the sweep
    bonus, royalties, then the overall point, then the scoop or home-run multiplier on all
    of it.
    """
    if both_fouled:
        return 0
    s = rules.scoring
    base = str(s.base)
    wins = results.count(1)
    losses = results.count(-1)
    extra = str(rules.royalties.mode) == "extra"
    always = str(rules.royalties.when) == "always"
    row_unit = 0 if base == "two-of-three" else 1
    total = 0
    for r, ui, uj in zip(results, royalties_i, royalties_j):
        if always:  # both players' royalties, won or lost (A3 "always")
            total += r * row_unit + ui - uj
        elif r == 1:  # only the winner's royalty
            total += (ui if not extra else row_unit + ui) if ui else row_unit
        elif r == -1:
            total -= (uj if not extra else row_unit + uj) if uj else row_unit
    if base == "two-four":
        total += (wins > losses) - (losses > wins)
    elif base == "one-six":
        total += 3 * (wins == 3) - 3 * (losses == 3)
    elif base == "two-of-three":
        if wins == 3:
            total += s.home_run_units if home_run_i else s.sweep_units
        elif losses == 3:
            total -= s.home_run_units if home_run_j else s.sweep_units
        elif wins != losses:
            total += s.majority_units if wins > losses else -s.majority_units
    total += s.sweep_bonus * ((wins == 3) - (losses == 3))
    if s.overall_point:
        total += (total > 0) - (total < 0)
    if wins == 3:
        total *= s.home_run_multiplier if home_run_i else s.scoop_multiplier
    elif losses == 3:
        total *= s.home_run_multiplier if home_run_j else s.scoop_multiplier
    return total


def surrender_cost(rules):
    """Units a surrendering seat pays each opponent (A5)."""
    mode = str(rules.surrender.mode)
    if mode == "fixed":
        return rules.surrender.units
    if mode == "two-rows":  # as if it lost two rows of three, no royalties
        return -showdown_amount(rules, (-1, -1, 1))
    raise ValueError(f"{rules.id} has no surrender")


def _pool(rules, keys, status, scale):
    """A8: each stakes ``stake``; the best row of each kind takes a third of the pool."""
    n = len(keys)
    stake = Fraction(rules.pool.stake)
    pot = stake * n
    net = [-stake] * n
    sole = []
    for row in range(3):
        # a fouled hand ranks below every set hand; fouls are even with each other (A6)
        value = [(0,) if status[i] == "foul" else (1, keys[i][row]) for i in range(n)]
        best = max(value)
        winners = [i for i in range(n) if value[i] == best]
        for i in winners:
            net[i] += pot / 3 / len(winners)
        sole.append(winners[0] if len(winners) == 1 else None)
    if rules.pool.sweep_takes_all and sole[0] is not None and sole.count(sole[0]) == 3:
        w = sole[0]
        extra = rules.pool.sweep_extra
        net = [-stake - extra] * n
        net[w] = pot - stake + extra * (n - 1)
    out = []
    for x in net:
        scaled = x * scale
        assert scaled.denominator == 1, (x, scale)
        out.append(int(scaled))
    return out


def _match(rules, keys, status):
    """A13 (first to 11): a point to the one best hand of each row, none for a tie for best,
    one more for winning all three at a table of ``match.sweep_point_players``."""
    n = len(keys)
    points = [0] * n
    won = []
    for row in range(3):
        value = [(0,) if status[i] == "foul" else (1, keys[i][row]) for i in range(n)]
        winners = [i for i in range(n) if value[i] == max(value)]
        if len(winners) == 1:
            points[winners[0]] += 1
            won.append(winners[0])
    if len(won) == 3 and len(set(won)) == 1 and n >= rules.match.sweep_point_players:
        points[won[0]] += 1
    return points


def _single_winner(rules, keys, status):
    """A9: the player beating each other player on at least two rows collects from all."""
    n = len(keys)
    units = rules.single_winner.units
    for i in range(n):
        if status[i] == "foul":
            continue
        beats = []
        for j in range(n):
            if j != i:
                res = pair_outcome(rules, keys[i], keys[j], False, status[j] == "foul")
                beats.append(res.count(1) >= 2)
        if all(beats):
            return [units * (n - 1) if k == i else -units for k in range(n)]
    return [0] * n


def settle(rules, seats, bank=-1, chips=None):
    """Net points of each seat at one table (RULES.md part A), plain Python.

    Parameters
    ----------
    rules : sapsam.game.rules.Ruleset
    seats : list of Seat, 2 to 4; seat 0 is the dealer (chip-limited order, A10)
    bank : int
        The bank's seat in a bank game (A7); ignored otherwise.
    chips : list of int, optional
        Chip stacks at the start of the deal: settle chip-limited (A10); a negative stack
        is unlimited.

    Returns
    -------
    list of int
        Net points per seat, in units of ``1 / scale`` where ``scale`` is the compiled
        ruleset's ``P_SCALE`` (1 except in the pool game).
    """
    from sapsam.kernels.settle import P_SCALE  # the one number taken from the library

    n = len(seats)
    if not 2 <= n <= 4:
        raise ValueError(f"2 to 4 seats, got {n}")
    scale = int(rules.compile().params[P_SCALE])
    wheel_second = str(rules.wheel_rank) == "second"
    keys = [None if (s.natural >= 0 or s.surrender) else _setting_keys(s, wheel_second, rules.low_middle)
            for s in seats]
    status = [_status(rules, s, k) for s, k in zip(seats, keys)]
    game = str(rules.scoring.game)
    rake = rules.extras.rake * scale
    if game in ("pool", "single-winner", "match"):
        if any(st in ("natural", "surrender") for st in status):
            raise ValueError(f"the {game} game settles rows only")
        rows_only = {"pool": lambda: _pool(rules, keys, status, scale), "match": lambda: _match(rules, keys, status),
                     "single-winner": lambda: _single_winner(rules, keys, status)}
        return [x - rake for x in rows_only[game]()]

    is_bank = game == "bank"
    if is_bank and not 0 <= bank < n:
        raise ValueError(f"a bank game needs a bank seat 0..{n - 1}, got {bank}")
    # criss-cross (A14): a table of four is two players' two hands, seats 0-1 and 2-3; a table
    # of three is one hand (seat 0) and the opponent's two; of two, a hand and one of theirs
    player = {2: [0, 1], 3: [0, 1, 1], 4: [0, 0, 1, 1]}[n]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)
             if (not is_bank or bank in (i, j)) and (rules.hands == 1 or player[i] != player[j])]

    # Row results of the pairs that reach the showdown, and who swept whom.
    results = {}
    for i, j in pairs:
        if "natural" in (status[i], status[j]) or "surrender" in (status[i], status[j]):
            continue
        side = (1 if i == bank else -1 if j == bank else 0) if is_bank else 0
        results[i, j] = pair_outcome(rules, keys[i], keys[j], status[i] == "foul",
                                     status[j] == "foul", side)
    swept = set()  # (winner, loser)
    for (i, j), res in results.items():
        if res == (1, 1, 1):
            swept.add((i, j))
        if res == (-1, -1, -1):
            swept.add((j, i))
    opponents = {s: [j for i, j in pairs if i == s] + [i for i, j in pairs if j == s]
                 for s in range(n)}
    home_run = [len(opponents[s]) >= 2 and all((s, o) in swept for o in opponents[s])
                for s in range(n)]

    first = {}  # naturals, settled first under chip limits
    rest = {}  # everything else between the pair
    cost = None
    for i, j in pairs:
        si, sj = status[i], status[j]
        amount = 0
        if si == "natural" or sj == "natural":
            first[i, j] = natural_payment(rules, seats[i], seats[j])
        elif si == "surrender" or sj == "surrender":
            if si != sj:  # two surrendering seats pay nothing to each other
                cost = surrender_cost(rules) if cost is None else cost
                amount = -cost if si == "surrender" else cost
        else:
            fi, fj = si == "foul", sj == "foul"
            roy_i = [_royalty(rules, k, keys[i][k], fi) for k in range(3)]
            roy_j = [_royalty(rules, k, keys[j][k], fj) for k in range(3)]
            amount = showdown_amount(rules, results[i, j], roy_i, roy_j, home_run[i],
                                     home_run[j], both_fouled=fi and fj)
        if rules.extras.aces_bet:  # fewer aces pays the difference (A11)
            amount += ACES_BET[seats[i].ace_count()] - ACES_BET[seats[j].ace_count()]
        rest[i, j] = amount

    net = [0] * n
    free = None if chips is None else [None if c < 0 else c for c in chips]
    for stage in (first, rest):
        for i, j in pairs:  # 0-1, 0-2, ..., clockwise from the dealer (A10)
            amount = stage.get((i, j), 0)
            paid = abs(amount)
            if free is not None:  # each chip can be won or lost once
                for s in (i, j):
                    if free[s] is not None:
                        paid = min(paid, free[s])
                for s in (i, j):
                    if free[s] is not None:
                        free[s] -= paid
            paid = paid if amount >= 0 else -paid
            net[i] += paid
            net[j] -= paid
    return [x * scale - rake for x in net]


# --------------------------------------------------------------------------------------------
# Policies: a plain greedy setter, written from DESIGN.md "Opponent policies" (greedy: the
# best back, then the best middle of the other eight cards, the last three in front)
# --------------------------------------------------------------------------------------------


def best_five(cards, wheel_second=False):
    """``(key, five)``: the strongest 5-card hand among ``cards`` (any number >= 5).

    Among equally strong hands the first 5-subset in ``itertools.combinations`` order of
    ``cards`` as given is kept (the tie-break only picks cards; the key is what matters).
    """
    best = None
    for five in combinations(cards, 5):
        key = hand_key(five, wheel_second)
        if best is None or key > best[0]:
            best = (key, five)
    return best


def greedy_setting(hand, wheel_second=False):
    """The greedy setter: ``(front, middle, back)`` as tuples of card codes.

    The back is the strongest five of the 13 cards, the middle the strongest five of the
    eight left, the front the last three.  It never fouls: the back is the best five of a
    superset of the middle's cards, and the middle is at least any five of the eight that
    include the three front cards (adding cards never weakens a hand, RULES.md A1).
    """
    hand = sorted(int(c) for c in hand)
    if len(hand) != 13 or len(set(hand)) != 13:
        raise ValueError(f"need 13 distinct cards, got {hand}")
    _, back = best_five(hand, wheel_second)
    rest = [c for c in hand if c not in back]
    _, middle = best_five(rest, wheel_second)
    front = tuple(c for c in rest if c not in middle)
    return front, middle, back
