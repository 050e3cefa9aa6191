"""The Foxwoods house way for Pai Gow tiles, as a policy: which of the three settings of four
tiles the banker plays.

Source: the Foxwoods Training Center booklet of February 1997, as transcribed by the Wizard of
Odds ("Pai Gow Tiles House Way from Foxwoods", wizardofodds.com/games/pai-gow-tiles/house-way/
foxwoods/), the house way his published house-edge figures play.  The first rule that applies
decides.  RULES.md ("Pai Gow tiles") lists the rules as played here, and what the transcription
leaves to pictures (the tile lists of the "Other hands" exceptions C to K), which this policy
cannot play.

Tiles are named by their pips as the booklet does: 2 (day), 12 (teen), high 8 (yun), low 8
(mixed eight), high 4 (gor), low 4 (bon), high 10 (mooy), low 10 (ping), high 6 (chong), low 6
(look), high 7 (tit), low 7 (mixed seven), 11 (foo), 9 and 5 (mixed), Gee Joon.
"""

import numpy as np

from sapsam.paigow.game import NAMES, candidates, group_name, hand_points
from sapsam.paigow.kernels import GROUP, SETTING_HALVES, strength

(TEEN, DAY, YUN, GOR, MOOY, CHONG, BON, FOO, PING, TIT, LOOK, NINE, EIGHT, SEVEN, FIVE,
 GEE) = range(16)
NEVER_SPLIT = {GOR, BON, FIVE, CHONG, LOOK, MOOY, PING, FOO}  # 4s, 5s, 6s, 10s, 11s
BIG = {DAY, MOOY, PING, TEEN}  # the 2, 10 and 12 tiles
BIG_OR_11 = BIG | {FOO}
SPECIAL_PIPS = {TIT: 7, SEVEN: 7, YUN: 8, EIGHT: 8, NINE: 9}  # partners of a 2 or 12
HIGH_NINE, GONG, WONG = "high nine", "gong", "wong"
TYPE_OF = {7: HIGH_NINE, 8: GONG, 9: WONG}
BOOKLET_HIGH_THREE = "chong"  # the booklet's "High 6": the 3-3, as the other casinos' ways say
HIGH_SIX_READINGS = (BOOKLET_HIGH_THREE, "teen")  # the two readings of "High 6" (the web's)


def high_three_tile(tile):
    """The name of the tile that tops the lowest "high 3", from any of its names or faces
    (``"chong"``, ``"high-six"``, ``"3-3"``; ``"teen"``, ``"6-6"``); ``ValueError`` in one
    line for anything else."""
    try:
        group = int(GROUP[candidates(str(tile))[0]])
    except (ValueError, IndexError):
        raise ValueError(f"unknown tile {tile!r} for the house way's high 3: use a tile's name "
                         f"or faces, such as chong (3-3, the booklet's) or teen (6-6)") from None
    return group_name(group)


def high_three(tile=BOOKLET_HIGH_THREE):
    """The strength below which a low hand is "lower than a high 3" in the house way's "Other
    hands" rule: a 3-point hand whose highest tile is ``tile`` (any name of
    :func:`high_three_tile`).

    The booklet: "lower than a High 3 (a 3-point hand whose highest-ranking tile is a High
    6)".  Its "High 6" is the chong (3-3) in its own words ("high" and "low" name the two
    tiles of a number of pips; the 6-6 it calls "12"), as the Taj Mahal's and Casino
    Canberra's house ways spell it out: a high 3 is a 3 whose high tile is "high-6 or
    better".  ``"teen"`` reads the "High 6" as the 6-6; RULES.md (D4) gives what each reading
    makes of the published house-edge table.

    >>> high_three(), high_three("teen")
    (58, 63)
    """
    return 16 * 3 + 15 - NAMES[high_three_tile(tile)]


HIGH_THREE = high_three()  # 3 points, the high tile a high 6 (chong, rank 10)


class _Hand:
    """The four tiles, their groups and each setting's halves and strengths."""

    def __init__(self, tiles):
        self.tiles = [int(t) for t in tiles]
        self.groups = [int(GROUP[t]) for t in self.tiles]
        self.halves, self.low, self.high = [], [], []
        for k in range(3):
            h = SETTING_HALVES[k]
            a = (self.tiles[h[0]], self.tiles[h[1]])
            b = (self.tiles[h[2]], self.tiles[h[3]])
            sa, sb = int(strength(*a)), int(strength(*b))
            if sa > sb:
                a, b, sa, sb = b, a, sb, sa
            self.halves.append((a, b))  # (low half, high half)
            self.low.append(sa)
            self.high.append(sb)

    def is_pair(self, half):
        return GROUP[half[0]] == GROUP[half[1]]

    def pair_settings(self):
        return [k for k in range(3) if any(self.is_pair(h) for h in self.halves[k])]


def _pair_rule(hand):
    """(setting, rule) when the pair rules keep a pair, (None, rule) when they split it, or
    None when there is no pair."""
    paired = hand.pair_settings()
    if not paired:
        return None
    k = paired[0]
    both = [k for k in paired if all(hand.is_pair(h) for h in hand.halves[k])]
    if both:
        return both[0], "two pairs: play both"
    low, high = hand.halves[k]
    pair, rest = (high, low) if hand.is_pair(high) else (low, high)
    g = int(GROUP[pair[0]])
    others = sorted(int(GROUP[t]) for t in rest)
    split = others == [FOO, NINE]  # a 9 and an 11: rules C and E
    if g in NEVER_SPLIT:
        return k, "pair rule A: never split 4s, 5s, 6s, 10s, 11s"
    if g == GEE:
        split, rule = set(others) <= {PING, FOO, TEEN}, "pair rule B: Gee Joon"
    elif g in (TEEN, DAY):
        open_ = [j for j in range(3) if j != k]
        split = split or any(hand_points(hand.low[j]) >= 6 and hand_points(hand.high[j]) >= 8
                             for j in open_)
        rule = "pair rule C: 2s and 12s"
    elif g == NINE:
        split, rule = set(others) <= BIG, "pair rule D: 9s"
    elif g in (YUN, EIGHT):
        split, rule = split or set(others) <= BIG_OR_11, "pair rule E: 8s"
    elif g in (TIT, SEVEN):
        split, rule = set(others) <= BIG_OR_11, "pair rule F: 7s"
    return (None, f"{rule}: split") if split else (k, f"{rule}: keep")


def _specials(hand, k):
    """The wong, gong and high nine hands (a 2 or 12 with a 7, 8 or 9) of setting k."""
    found = []
    for half in hand.halves[k]:
        groups = sorted(int(GROUP[t]) for t in half)
        if groups[0] in (TEEN, DAY) and groups[1] in SPECIAL_PIPS:
            found.append(TYPE_OF[SPECIAL_PIPS[groups[1]]])
    return found


def _order(hand):
    """High nine over gong over wong, save the exceptions named by the fourth tile."""
    big = [g for g in hand.groups if g in (TEEN, DAY)]
    partners = [g for g in hand.groups if g in SPECIAL_PIPS]
    if len(big) == 1 and len(partners) == 2:
        fourth = next(g for g in hand.groups if g not in (TEEN, DAY) and g not in SPECIAL_PIPS)
        if fourth == FOO:
            return (WONG, HIGH_NINE, GONG), "exceptions A, B: the fourth tile is an 11"
        if fourth in (GOR, BON) or (fourth == FIVE and EIGHT in partners):
            return (GONG, HIGH_NINE, WONG), "exception C: gong over high nine"
    return (HIGH_NINE, GONG, WONG), "high nine over gong over wong"


def _wong_gong_rule(hand, settings):
    found = {k: _specials(hand, k) for k in settings}
    if not any(found.values()):
        return None
    order, why = _order(hand)
    kind = next(t for t in order if any(t in f for f in found.values()))
    chosen = [k for k in settings if kind in found[k]]

    def teen_high(k):
        return any(GROUP[t] == TEEN for t in hand.halves[k][1])

    k = max(chosen, key=lambda k: (teen_high(k), hand.low[k], hand.high[k]))
    return k, f"wong, gong and high nine ({why}): {kind}"


def _other_hands(hand, settings, high_three):
    """Maximise the low hand, or the high one when the low cannot reach a high 3 and the
    high can reach 7; then exceptions A and B, which only move the high tile."""
    best_low = max(hand.low[k] for k in settings)
    best_high = max(hand_points(hand.high[k]) for k in settings)
    if best_low < high_three and best_high >= 7:
        k = max(settings, key=lambda k: (hand.high[k], hand.low[k]))
        rule = "other hands: the low cannot make a high 3, so the high hand as high as possible"
    else:
        k = max(settings, key=lambda k: (hand.low[k], hand.high[k]))
        rule = "other hands: the low hand as high as possible"
    lp, hp = hand_points(hand.low[k]), hand_points(hand.high[k])
    same = [j for j in settings if (hand_points(hand.low[j]), hand_points(hand.high[j])) == (lp, hp)]
    if len(same) > 1:
        top = min(hand.groups)  # the highest-ranking tile's group

        def holds(group):
            return [j for j in same if any(GROUP[t] == group for t in hand.halves[j][1])]

        if lp >= 8 and hp >= 9 and holds(top):
            k = holds(top)[0]
            rule = "other hands, exception A: 8/9 or more, the high tile in the high hand"
        elif (lp, hp) == (7, 8) and {TEEN, DAY} <= set(hand.groups) and holds(TEEN):
            k = holds(TEEN)[0]
            rule = "other hands, exception B: 7/8 with a 2 and a 12, the 12 in the high hand"
    return k, rule


def foxwoods(tiles, high_three=HIGH_THREE):
    """(setting 0..2, the rule that chose it) for four sorted tile indices; ``high_three`` is
    the strength below which a low hand is "lower than a high 3"."""
    hand = _Hand(tiles)
    decided = _pair_rule(hand)
    settings, before = [0, 1, 2], ""
    if decided is not None:
        k, rule = decided
        if k is not None:
            return k, rule
        settings = [j for j in settings if j not in hand.pair_settings()]
        before = rule + "; then "
    k, rule = _wong_gong_rule(hand, settings) or _other_hands(hand, settings, high_three)
    return k, before + rule


def special_hands(tiles):
    """{setting: the wong, gong and high nine hands it makes} for four sorted tiles."""
    hand = _Hand(tiles)
    return {k: _specials(hand, k) for k in range(3)}


def foxwoods_policy(hands, high_three=HIGH_THREE):
    """The house way's setting for each row of ``hands`` ((n, 4) sorted tiles), as int8."""
    return np.array([foxwoods(h, high_three)[0] for h in hands], dtype=np.int8)
