"""benchmarks/peer_cpoker.py's own parts, without the peer's checkout: the port of poker/v2's
evaluator against sapsam's order, the port of cpoker's Play against a brute force over every
split, and the duplicate-deal arithmetic.  The port against cpoker's own program is the
script's ``check`` (it needs the checkout and Go); docs/validation.md says how to run it."""

import importlib.util
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from conftest import SEED, deal_hands

from sapsam.game.hands import rank3, rank5
from sapsam.game.ruleset_files import load_ruleset

# imported by the name the script runs under (its __main__ imports it so), which keeps Numba's
# cache of its kernels loadable from both
_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "peer_cpoker.py"
_SPEC = importlib.util.spec_from_file_location("peer_cpoker", _PATH)
peer = sys.modules.setdefault("peer_cpoker", importlib.util.module_from_spec(_SPEC))
_SPEC.loader.exec_module(peer)


def test_card_codes_round_trip():
    cards = np.arange(52, dtype=np.uint8)
    theirs = peer.to_peer_codes(cards)
    assert sorted(theirs) == list(range(52))
    assert theirs[12 * 4 + 3] == 3  # the ace of spades is poker/v2's rank 1, suit 3
    assert theirs[0] == 4  # the deuce of clubs its rank 2
    assert (peer.from_peer_codes(theirs) == cards).all()


def test_scores_are_poker_v2s_7930():
    assert len(peer.scores()) == peer.N_RANKS
    assert (np.diff(peer.scores()) > 0).all()


def test_rank_orders_hands_as_sapsam():
    """Every front and 20,000 five-card rows: poker/v2's rank is a strictly rising function of
    sapsam's strength, fronts and five-card rows on one scale (the check does all 2,598,960)."""
    fronts = np.array(list(combinations(range(52), 3)), np.uint8)
    fives = deal_hands(np.random.default_rng(SEED), 20_000, size=5)
    ours = np.concatenate([rank3(fronts), rank5(fives)]).astype(np.int64)
    theirs = np.concatenate([peer.peer_rank(fronts), peer.peer_rank(fives)])
    pairs = np.unique(np.stack([ours, theirs], 1), axis=0)
    assert len(np.unique(pairs[:, 0])) == len(pairs)
    assert (np.diff(pairs[:, 1]) > 0).all()


def _brute_best(hand, wins):
    """The highest cpoker value over every split whose front is below both five-card rows and
    whose middle and back differ (Play's rules), by plain enumeration."""
    threes, fives = list(combinations(range(13), 3)), list(combinations(range(13), 5))
    rank = dict(zip(threes, peer.peer_rank(hand[np.array(threes)])))
    rank.update(zip(fives, peer.peer_rank(hand[np.array(fives)])))
    best = -np.inf
    for front in threes:
        rest = [i for i in range(13) if i not in front]
        for five in combinations(rest, 5):
            other = tuple(i for i in rest if i not in five)
            f, x, y = rank[front], rank[five], rank[other]
            if f < x and f < y and x != y:
                best = max(best, peer._value(wins, f, min(x, y), max(x, y)))
    return best


@pytest.mark.parametrize("seed", [1, 2])
def test_play_finds_the_best_split(seed):
    """With win chances rising in the rank (as trained ones do), the pruned search of Play
    keeps a split of the highest value there is, and it is legal under two-four."""
    rng = np.random.default_rng(seed)
    wins = np.sort(rng.random((3, peer.N_RANKS)), axis=1)
    hand = deal_hands(rng, 1)
    setting = peer.peer_play(hand, wins)[0]
    assert sorted(setting) == sorted(hand[0])
    f = peer.peer_rank(setting[None, :3])[0]
    m, b = peer.peer_rank(np.stack([setting[3:8], setting[8:]]))
    assert m < b
    assert peer._value(wins, f, m, b) == _brute_best(hand[0], wins)
    _, legal = peer.setting_rows(setting[None], load_ruleset("two-four"))
    assert legal.all()


def test_setting_rows_flags_a_foul():
    from sapsam.game.cards import parse_cards

    rules = load_ruleset("two-four")
    fine = parse_cards("2c 3d 4h 5s 5c 7d 8h 9s Ac Ad Kh Ks Qc")
    foul = parse_cards("Ac Ad Kh 5s 5c 7d 8h 9s 2c 3d 4h 6s Qc")
    rows, legal = peer.setting_rows(np.stack([fine, foul]), rules)
    assert legal.tolist() == [True, False]
    assert rows.dtype == np.int16 and rows.shape == (2, 3)


def test_duplicate_values_average_both_tables():
    # deal 0: sapsam +2 with hand A, -4 with hand B; deal 1: +1 and +3
    ours = np.array([2, 1, -4, 3])
    values = peer.duplicate_values(ours, -ours, 1)
    assert values.tolist() == [-1.0, 2.0]
    with pytest.raises(ValueError):
        peer.duplicate_values(ours[:3], -ours[:3], 1)
