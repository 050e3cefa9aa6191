"""The side bets (issue 40, part 5): each hand's bonus hand against the reference, the
published counts of the seven-card hands (slow: all of them), the pay tables as data."""

import numpy as np
import pytest

from sapsam.paigow_poker.game import Rules, parse_hand, pay_table, pay_table_ids, tables
from sapsam.paigow_poker.kernels.bonus import BONUS_HANDS, bonus_hand
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS
from tests.paigow_poker import reference as ref

# the Wizard of Odds' seven-card table of Pai Gow Mania, where three of a kind ranks above a
# straight: the counts it shares with ours
PUBLISHED_MANIA = {"five aces": 1_128, "four of a kind": 307_472, "full house": 4_188_528,
                   "flush": 6_172_088, "three of a kind": 7_672_500, "straight": 11_034_204}
PUBLISHED_STRAIGHT_FLUSHES = 26_132 + 184_832  # its royal and straight flushes together


def kernel(codes):
    scale, joker = tables(Rules())
    high = np.empty(N_SETTINGS, np.int16)
    low = np.empty(N_SETTINGS, np.int16)
    h = np.array(sorted(codes), dtype=np.uint8)
    return BONUS_HANDS[bonus_hand(h, scale.dense, joker, scale.category, high, low)]


@pytest.mark.parametrize("text, expected", [
    ("9h 8h 7h 6h 5h 4h 3h", "seven-card straight flush"),
    ("Ah 2h 3h 4h 5h 6h 7h", "seven-card straight flush"),
    ("Jk 8h 7h 6h 5h 4h 3h", "seven-card straight flush with joker"),
    ("Jk 9h 7h 6h 5h 4h 3h", "seven-card straight flush with joker"),
    ("As Ks Qs Js Ts Kd Qd", "royal flush plus royal match"),
    ("As Ks Qs Js Ts Kd Qc", "royal flush"),
    ("Jk Ks Qs Js Ts 2d 3c", "royal flush with joker"),
    ("Jk Ah Ad Ac As 2d 3c", "five aces"),
    ("9s 9d 9c 8h 7s 6d 5c", "three of a kind"),   # trips above a straight
    ("Jk Ad Ac 8h 7s 6d 5c", "three of a kind"),   # the joker an ace
    ("Jk Kd Qc 8h 7s 6d 4c", "straight"),
])
def test_bonus_hands(text, expected):
    assert kernel(parse_hand(text).tolist()) == expected == ref.bonus_hand(parse_hand(text).tolist())


def test_bonus_hands_of_random_hands_match_the_reference():
    rng = np.random.default_rng(41)
    hands = [rng.choice(53, 7, replace=False).tolist() for _ in range(300)]
    hands += [rng.choice(13, 6, replace=False).tolist() for _ in range(100)]  # suited, mostly
    hands = [[c * 4 + 1 if len(h) == 6 else c for c in h] + ([52] if len(h) == 6 else []) for h in hands]
    for hand in hands:
        assert kernel(hand) == ref.bonus_hand(sorted(hand)), hand


def test_pay_tables_load_and_name_their_sources():
    ids = pay_table_ids()
    assert len(ids) >= 2
    for ident in ids:
        table = pay_table(ident)
        assert table.source.startswith("http") and set(table.pays) <= set(BONUS_HANDS)
    with pytest.raises(ValueError, match="unknown pay table 'nope'; allowed: fortune"):
        pay_table("nope")


@pytest.mark.slow
def test_the_published_seven_card_counts_and_the_edge(tmp_path, monkeypatch):
    """All 154,143,080 hands (about a minute; counted afresh, not from the cache): the counts
    the published table shares with ours, exactly, and the common Fortune table's edge against
    its rounded published 7.8%."""
    from sapsam.paigow_poker.output import side_bets_answer

    monkeypatch.setenv("SAPSAM_CACHE", str(tmp_path))
    answer = side_bets_answer()
    counts = {r["hand"]: r["count"] for r in answer["pay_tables"][0]["rows"]}
    assert {k: counts[k] for k in PUBLISHED_MANIA} == PUBLISHED_MANIA
    flushes = ("seven-card straight flush", "royal flush plus royal match",
               "seven-card straight flush with joker", "royal flush", "royal flush with joker",
               "straight flush")
    assert sum(counts[k] for k in flushes) == PUBLISHED_STRAIGHT_FLUSHES
    assert sum(counts.values()) == answer["hands"] == 154_143_080
    common = next(t for t in answer["pay_tables"] if t["id"] == "fortune-common")
    assert round(common["house_edge"], 3) == common["published_edge"]
