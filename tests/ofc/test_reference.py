"""The plain-Python OFC reference (tests/ofc_reference.py) against examples worked by hand
from analysis/ofc/rules.md part E."""

import pytest
from naive import cards, category_of_key, hand_key, strength

from tests.ofc import reference as ofc


def board(front, middle, back):
    return cards(front), cards(middle), cards(back)


def setting(front, middle, back):
    """A board as :func:`ofc_reference.best_fantasyland` returns it: ascending tuples."""
    return tuple(tuple(sorted(cards(row))) for row in (front, middle, back))


# --------------------------------------------------------------------------------------------
# Royalties of each row (E2)
# --------------------------------------------------------------------------------------------

FIVES = {  # hand: (back royalty, middle royalty)
    "Ac Kd 9h 5s 2c": (0, 0),  # high card
    "Ac Ad 9h 5s 2c": (0, 0),  # pair
    "Ac Ad 9h 9s 2c": (0, 0),  # two pair
    "8c 8d 8h 2s 4c": (0, 2),  # three of a kind: a middle royalty only
    "5c 6d 7h 8s 9c": (2, 4),  # straight
    "Ac 2d 3h 4s 5c": (2, 4),  # the wheel is a straight
    "Tc Jd Qh Ks Ac": (2, 4),  # ace-high straight, not suited
    "2h 5h 8h Jh Kh": (4, 8),  # flush
    "3c 3d 3h 9s 9c": (6, 12),  # full house
    "7c 7d 7h 7s Kd": (10, 20),  # four of a kind
    "5s 6s 7s 8s 9s": (15, 30),  # straight flush
    "As 2s 3s 4s 5s": (15, 30),  # the steel wheel is a straight flush, not royal
    "9h Th Jh Qh Kh": (15, 30),  # king-high straight flush
    "Th Jh Qh Kh Ah": (25, 50),  # royal flush: its own value, not also the straight flush's
}


@pytest.mark.parametrize("hand", FIVES)
def test_back_and_middle_royalties(hand):
    back, middle = FIVES[hand]
    assert ofc.royalty("back", cards(hand)) == back
    assert ofc.royalty("middle", cards(hand)) == middle


FRONTS = {
    "Ac Kd 9h": 0,  # high card
    "2c 2d Ah": 0,  # pairs below sixes pay nothing
    "5c 5d Ac": 0,
    "6c 6d Ac": 1,  # sixes 1
    "7c 7d 2h": 2,
    "Qc Qd 2h": 7,
    "Kc Kd Ah": 8,
    "Ac Ad Kc": 9,  # aces 9
    "2c 2d 2h": 10,  # trips of deuces 10
    "3c 3d 3h": 11,
    "Kc Kd Kh": 21,
    "Ac Ad Ah": 22,  # trips of aces 22
}


@pytest.mark.parametrize("hand", FRONTS)
def test_front_royalties(hand):
    assert ofc.royalty("front", cards(hand)) == FRONTS[hand]


def test_custom_tables():
    royal = cards("Th Jh Qh Kh Ah")
    assert ofc.royalty("back", royal, back={"straight-flush": 15}) == 15  # no royal entry: a straight flush
    assert ofc.royalty("back", royal, back={"straight-flush": 15, "royal-flush": 0}) == 0
    assert ofc.royalty("middle", cards("8c 8d 8h 2s 4c"), middle={}) == 0
    flat = [10] * 13  # a flat bonus for trips in front
    assert ofc.royalty("front", cards("Ac Ad Ah"), front_trips=flat) == 10
    assert ofc.royalty("front", cards("Ac Ad Kh"), front_pair=list(range(13))) == 12


def test_row_sizes_are_checked():
    with pytest.raises(ValueError):
        ofc.royalty("front", cards("Ac Kd 9h 5s 2c"))
    with pytest.raises(ValueError):
        ofc.royalty("top", cards("Ac Kd 9h"))


# --------------------------------------------------------------------------------------------
# Fouls
# --------------------------------------------------------------------------------------------


def test_fouls():
    flush = "Ac Kc 9c 5c 2c"
    # a pair of queens in front over a pair of jacks in the middle
    qq_over_jj = board("Qc Qd 2h", "Jc Jd 9h 8s 3c", flush)
    assert ofc.fouled(*qq_over_jj)
    assert ofc.royalties(qq_over_jj) == 0  # the flush and the queens earn nothing
    # the same pair in front and middle: the kickers decide, a front's missing ones lowest
    assert ofc.fouled(*board("Qc Qd Ah", "Qh Qs Kd Jc 9d", flush))  # QQ-A over QQ-K-J-9
    assert not ofc.fouled(*board("Qc Qd 2h", "Qh Qs 3c 4d 5s", flush))  # QQ-2 under QQ-5-4-3
    # a middle flush over a back straight
    assert ofc.fouled(*board("Ac Kd 9h", "2h 5h 8h Jh Kh", "5c 6d 7h 8s 9c"))
    # a clean board: royalties of the three rows add up
    clean = board("Kc Kd 4h", "7c 8d 9h Ts Jc", "2h 6h 8h Qh Ah")
    assert not ofc.fouled(*clean)
    assert ofc.royalties(clean) == 8 + 4 + 4


# --------------------------------------------------------------------------------------------
# Settling (E2)
# --------------------------------------------------------------------------------------------

# A: KK in front (8), straight in the middle (4), flush in back (4): royalties 16
A = board("Kc Kd 4h", "7c 8d 9h Ts Jc", "2h 6h 8h Qh Ah")
# B: king high, a pair of threes, trips of fours: no royalties, loses every row to A
B = board("Qc Jd 2c", "3c 3d 5h 6s Td", "4c 4d 4s 9s Jh")
# C (the 13 cards A and B leave): QQ in front (7), a full house in the middle (12) and in
# back (6): royalties 25; C loses the front to A and wins the other two; beats B in all three
C = board("Qd Qs 2d", "5c 5d 5s 9c 9d", "7d 7h 7s Ac Ad")
# a fouled board: queens over jacks, with a flush in back
FOULED = board("Qc Qd 2h", "Jc Jd 9h 8s 3c", "Ac Kc 9c 5c 2c")


def test_distinct_cards_in_the_examples():
    dealt = [c for b in (A, B, C) for row in b for c in row]
    assert len(set(dealt)) == len(dealt) == 39


def test_scoop_and_royalties():
    # A wins three rows (3) and the scoop (3) and collects 16 - 0 royalties
    assert ofc.settle([A, B]) == [22, -22]
    assert ofc.settle([B, A]) == [-22, 22]
    assert ofc.settle([A, B], scoop=0) == [19, -19]
    assert ofc.settle([A, B], row=2, scoop=6) == [28, -28]


def test_two_rows_to_one_and_royalties_both_ways():
    # A: 66 front (1), two pair (0), full house back (6)   -> royalties 7
    a = board("6c 6d 2h", "Tc Td 8h 8s 3c", "Jc Jd Jh 5c 5d")
    # B: ace high (0), trips middle (2), flush back (4)     -> royalties 6
    b = board("Ac Kd 7h", "9c 9d 9h 4s 2c", "2s 3s 7s 9s Ks")
    # rows: A wins front and back, B the middle -> +1; royalties 7 - 6 -> +1
    assert ofc.settle([a, b]) == [2, -2]


def test_tied_rows_score_nothing_and_break_the_scoop():
    # fronts tie (A-K-5 both); A wins the middle (99 over 88); B's quads beat A's full house
    a = board("Ac Kd 5h", "9c 9d 4h 3s 2c", "Tc Td Th 6s 6c")
    b = board("Ad Kc 5s", "8c 8d Ah Ks Qs", "Jc Jd Js Jh 2d")
    assert ofc.settle([a, b]) == [0 + 6 - 10, 0 - 6 + 10]
    # A wins middle and back, ties the front: 2 rows and no scoop
    b2 = board("Ad Kc 5s", "8c 8d Ah Ks Qs", "2h 3h 7h 9h Jh")  # a flush, under A's full house
    assert ofc.settle([a, b2]) == [2 + 6 - 4, -2 - 6 + 4]


def test_fouled_board_loses_six_plus_royalties():
    clean = board("Ac Kd 7h", "2c 2d 5h 9s Kc", "3d 4h 5s 6c 7d")  # straight in back: 2
    assert ofc.settle([FOULED, clean]) == [-8, 8]
    no_royalties = board("Ac Kd 7h", "2c 2d 5h 9s Kc", "3d 3h 5s 6c 7d")
    assert ofc.settle([no_royalties, FOULED]) == [6, -6]


def test_two_fouled_boards_score_nothing():
    other = board("Ac Ad Ah", "Kc Kd 2h 3s 4c", "Ts Js Qs Ks As")  # trips over a pair: fouled
    assert ofc.fouled(*other)
    assert ofc.settle([FOULED, other]) == [0, 0]
    assert ofc.settle([FOULED, other, A]) == [-22, -22, 44]


def test_three_players_sum_to_zero():
    # A-B: A +22.  A-C: rows +1 -2, royalties 16 - 25: A -10.  B-C: scoop -6, royalties -25: B -31
    assert ofc.settle([A, B, C]) == [22 - 10, -22 - 31, 10 + 31]
    assert sum(ofc.settle([A, B, C])) == 0
    assert ofc.settle([C, A, B]) == [41, 12, -53]


# --------------------------------------------------------------------------------------------
# Fantasyland (E3)
# --------------------------------------------------------------------------------------------

MIDDLE_FLUSH, BACK_FLUSH = "2c 3c 4c 5c 7c", "8d 9d Td Jd 3d"  # clubs under diamonds


def fronted(front):
    return board(front, MIDDLE_FLUSH, BACK_FLUSH)


PLAIN, PROGRESSIVE = {"QQ": 14}, {"QQ": 14, "KK": 15, "AA": 16, "trips": 17}


@pytest.mark.parametrize("front, plain, progressive", [
    ("Ah Ks 2d", 0, 0),
    ("Jh Js Ad", 0, 0),
    ("Qh Qs 2d", 14, 14),
    ("Kh Ks 2d", 14, 15),
    ("Ah As 2d", 14, 16),
    ("2h 2s 2d", 14, 17),  # trips reach every pair key
    ("Ah As Ad", 14, 17),
])
def test_fantasyland_cards(front, plain, progressive):
    assert ofc.fantasyland_cards(fronted(front), PLAIN) == plain
    assert ofc.fantasyland_cards(fronted(front), PROGRESSIVE) == progressive
    assert ofc.fantasyland_cards(fronted(front), {"QQ": 13}) == (13 if plain else 0)  # classic


def test_fantasyland_thresholds_and_fouls():
    assert ofc.fantasyland_cards(fronted("Qh Qs 2d"), {"KK": 15}) == 0  # below the threshold
    assert ofc.fantasyland_cards(fronted("Ah As 2d"), {"KK": 15}) == 15
    assert ofc.fantasyland_cards(fronted("Kh Ks 2d"), {"QQ": 14, "trips": 17}) == 14
    assert ofc.fantasyland_cards(fronted("2h 2s 2d"), {"trips": 17}) == 17
    assert ofc.fantasyland_cards(fronted("Ah As 2d"), {"trips": 17}) == 0
    assert ofc.fantasyland_cards(FOULED, PROGRESSIVE) == 0  # queens in front, but fouled
    with pytest.raises(ValueError):
        ofc.fantasyland_cards(fronted("Qh Qs 2d"), {"Q": 14})


def test_stays():
    assert ofc.stays(fronted("2h 2s 2d"))  # trips in front
    assert not ofc.stays(fronted("Ah As Kd"))  # aces in front only enter
    quads = board("Qh Qs 2d", MIDDLE_FLUSH, "9h 9s 9d 9c 3h")
    assert ofc.stays(quads)
    assert ofc.stays(board("Qh Qs 2d", MIDDLE_FLUSH, "8d 9d Td Jd Qd"))  # straight flush in back
    full_middle = board("Qh Qs 2d", "5c 5d 5s 9c 9d", "7d 7h 7s Ac Ad")
    assert not ofc.stays(full_middle)
    assert ofc.stays(full_middle, middle_full_house=True)
    fouled_trips = board("2h 2s 2d", "3c 3d 5h 6s 7c", "Ac Kc 9c 5c 4c")  # trips over a pair
    assert not ofc.stays(fouled_trips)
    assert not ofc.stays(fouled_trips, middle_full_house=True)


# --------------------------------------------------------------------------------------------
# The best Fantasyland setting (E4)
# --------------------------------------------------------------------------------------------


def check_answer(answer, worth, middle_full_house=False):
    """The answer's value and strength sum are those of its own board."""
    value, total, found = answer
    assert not ofc.fouled(*found)
    assert value == ofc.royalties(found) + worth * ofc.stays(found, middle_full_house)
    assert total == sum(strength(row) for row in found)


def test_quads_and_trips():
    # 7777 KKK QQ and 2 3 4 9, no straight, no flush.  Trips in front cannot be backed (the
    # middle would need trips or better with a better back behind it), so the front pays at
    # most KK 8.  Quads in back (10, stays) leave KKK QQ for the middle: full house 12, the
    # front three of 2 3 4 9: 22 + 8.  Without quads in back the back pays at most 6 and the
    # middle (under it) at most 12, front at most 8, no stay: at most 26 < 30.  Of the four
    # ways to split 2 3 4 9 the strongest rows put the deuce beside the quads (front 9-4-3).
    hand = cards("7c 7d 7h 7s Kc Kd Kh Qc Qd 2c 3d 4h 9s")
    answer = ofc.best_fantasyland(hand, 8)
    check_answer(answer, 8)
    assert answer[0] == 30
    assert answer[2] == setting("3d 4h 9s", "Kc Kd Kh Qc Qd", "2c 7c 7d 7h 7s")
    assert ofc.best_fantasyland(hand, 0)[0] == 22
    assert ofc.can_stay(hand)


def test_middle_full_house_option():
    # KKK QQ, 888 77, 2 4 9: two full houses, no quads, no front trips that can be backed.
    # Back KKKQQ 6, middle 88877 12, front 9-4-2: 18, which stays only with the option.
    hand = cards("Kc Kd Kh Qc Qd 8c 8d 8h 7s 7h 2c 4d 9s")
    plain = ofc.best_fantasyland(hand, 8)
    option = ofc.best_fantasyland(hand, 8, middle_full_house=True)
    check_answer(plain, 8)
    check_answer(option, 8, middle_full_house=True)
    assert plain[0] == 18
    assert option[0] == 18 + 8
    assert plain[2] == option[2] == setting("2c 4d 9s", "7h 7s 8c 8d 8h", "Kc Kd Kh Qc Qd")
    assert not ofc.can_stay(hand)
    assert ofc.can_stay(hand, middle_full_house=True)


def test_worth_decides_and_strength_breaks_ties():
    # 555 777 QQ, 2 8 9 T J: no flush; the straights 7-J and 8-Q share 8 9 T J.
    # Staying: 555 in front (13) needs a middle of trips or better: 777 + Q 2 (2) under the
    # straight 8-Q (2): 17.  Not staying: QQ-2 in front (7), the straight 7-J (4), the full
    # house 555 77 in back (6): also 17.  (777 in front cannot be backed; no setting pays more.)
    hand = cards("2s 5d 5h 5s 7c 7d 7s 8d 9c Td Jh Qc Qh")
    staying = ofc.best_fantasyland(hand, 8)
    check_answer(staying, 8)
    assert staying[0] == 17 + 8
    front, middle, back = (hand_key(row) for row in staying[2])
    assert front[:2] == (3, 3) and middle[:2] == (3, 5)  # trips of fives, trips of sevens
    assert back[:2] == (4, 10)  # queen-high straight
    # worth nothing: two settings pay 17, the one with the stronger rows wins
    stay_board = board("5d 5h 5s", "2s 7c 7d 7s Qh", "8d 9c Td Jh Qc")
    other_board = board("2s Qc Qh", "7s 8d 9c Td Jh", "5d 5h 5s 7c 7d")
    assert ofc.royalties(stay_board) == ofc.royalties(other_board) == 17
    sums = {name: sum(strength(row) for row in b) for name, b in (("stay", stay_board), ("other", other_board))}
    free = ofc.best_fantasyland(hand, 0)
    check_answer(free, 0)
    assert free[0] == 17
    assert free[1] == max(sums.values())
    assert sums["other"] > sums["stay"]
    assert free[2] == setting("2s Qc Qh", "7s 8d 9c Td Jh", "5d 5h 5s 7c 7d")
    assert [category_of_key(hand_key(row)) for row in free[2]] == [1, 4, 6]  # pair, straight, full house


def test_can_stay_false_with_unbackable_trips():
    # 222 and ten single cards with no straight (no 5 or T) and no flush: trips in front need
    # a middle of trips or better, and there is none; no quads
    hand = cards("2c 2d 2h 3s 4c 6d 7h 8s 9c Jd Qh Ks As")
    assert not ofc.can_stay(hand)
    assert not ofc.can_stay(hand, middle_full_house=True)


def test_fourteen_cards_discard_one():
    hand = cards("7c 7d 7h 7s Kc Kd Kh Qc Qd 2c 3d 4h 9s Ah")
    value, _, found = ofc.best_fantasyland(hand, 8)
    assert value == 30
    assert sum(len(row) for row in found) == 13
    assert ofc.can_stay(hand)
