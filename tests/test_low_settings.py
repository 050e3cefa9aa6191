"""The low middle's settings (kernels/low_settings.py): legality by its rule, and a frontier
that is exactly the set of legal triples no other legal triple matches or beats, checked
against every legal split by brute force."""

import numpy as np
import pytest

from sapsam.game.cards import parse_hand
from sapsam.kernels.evaluate import rank3, rank5
from sapsam.kernels.low_settings import low_pareto_frontier, low_split_strengths
from sapsam.kernels.lowball import rank5_low
from sapsam.kernels.settings import FIVE_POSITIONS, FRONT_POSITIONS, SPLIT_ROWS

HANDS = ["As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d",  # a straight, pairs and low cards
         "7s 5d 4h 3c 2s 8d 6h Kc Kd Ks Ah Ad Qc",  # a perfect low beside trips
         "2s 3s 4s 5s 7s 9s Js Qs Kd Kh Kc Ad 8h"]  # flushes spoil the lows


def reference(hand, strict):
    """Triples and legality from the bulk evaluators, no code shared with the kernel."""
    cards = np.asarray(hand, np.uint8)
    fronts = rank3(cards[FRONT_POSITIONS])
    high, low = rank5(cards[FIVE_POSITIONS]), rank5_low(cards[FIVE_POSITIONS])
    f, m, b = (SPLIT_ROWS[:, i] for i in range(3))
    rows = np.stack([fronts[f], low[m], high[b]], axis=1)
    legal = high[b] >= fronts[f]
    if strict:
        legal &= (high[b] >= high[m]) & (high[m] >= fronts[f])
    return rows, legal


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("text", HANDS)
def test_frontier_is_exactly_the_undominated_legal_triples(text, strict):
    hand = parse_hand(text)
    rows, legal = reference(hand, strict)
    got_rows, got_legal = low_split_strengths(np.asarray(hand, np.uint8), False, strict)
    assert (got_rows == rows).all() and (got_legal == legal).all()
    count, splits, members = low_pareto_frontier(np.asarray(hand, np.uint8), False, strict)
    assert count == legal.sum() and len(splits) == len({tuple(r) for r in members})
    triples = rows[legal]
    assert (rows[splits] == members).all() and legal[splits].all()
    for member in members:  # no legal triple matches-or-beats a member and differs from it
        at_least = (triples >= member).all(axis=1) & (triples != member).any(axis=1)
        assert not at_least.any(), member
    covered = np.zeros(len(triples), bool)  # every legal triple is matched or beaten by one
    for member in members:
        covered |= (member >= triples).all(axis=1)
    assert covered.all()
    first = {}  # each member is the smallest split with its triple
    for s in np.flatnonzero(legal):
        first.setdefault(tuple(rows[s]), s)
    assert all(first[tuple(m)] == s for s, m in zip(splits, members))


def test_the_perfect_low_is_on_the_frontier():
    """7-5-4-3-2, the weakest of high hands, is the best middle: a frontier member plays it,
    where the usual order would never put it between a front and a back."""
    hand = np.asarray(parse_hand(HANDS[1]), np.uint8)
    _, splits, members = low_pareto_frontier(hand, False, False)
    assert members[:, 1].max() == 7461 and len(splits) > 1
