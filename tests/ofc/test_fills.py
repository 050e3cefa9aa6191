"""The heuristic's rows on random fills (``sapsam.ofc.kernels.fills``): each version of a row,
computed once a decision and shared among its placements, held to placing the cards and
filling the board's empty places row by row, placement by placement, as plain Python."""

import numpy as np
import pytest

from sapsam.kernels.evaluate import eval3, eval5
from sapsam.ofc.kernels.fills import fill_scratch, filled_rows
from sapsam.ofc.kernels.policies import legal

STARTS, SIZES = (0, 3, 8), (3, 5, 5)


def _filled_by_hand(board, counts, dealt, code, fill):
    """The three rows' strengths of ``board`` after placement ``code``, its empty places taking
    ``fill``'s cards in turn, the front's first."""
    rows = [list(board[STARTS[r]:STARTS[r] + counts[r]]) for r in range(3)]
    for i, card in enumerate(dealt):
        r = (code >> (2 * i)) & 3
        if r < 3:
            rows[r].append(card)
    cards = iter(fill)
    for r in range(3):
        while len(rows[r]) < SIZES[r]:
            rows[r].append(next(cards))
    return eval3(*rows[0]), eval5(*rows[1]), eval5(*rows[2])


@pytest.mark.parametrize("placed", [0, 5, 7, 9, 11])
def test_every_placement_sees_its_own_rows_on_every_fill(placed):
    """First streets (five cards, all kept), later ones (three, two kept) and the last (the
    board finished: one version, no fills), on random boards."""
    rng = np.random.default_rng(placed)
    nd, keep = (5, 5) if placed == 0 else (3, 2)
    fills = 6
    for _ in range(20):
        deck = rng.permutation(52).astype(np.uint8)
        slots = rng.permutation([0] * 3 + [1] * 5 + [2] * 5)[:placed]
        board = np.zeros(13, np.uint8)
        counts = np.zeros(3, np.int64)
        for card, r in zip(deck[:placed], slots):
            board[STARTS[r] + counts[r]] = card
            counts[r] += 1
        dealt = deck[placed:placed + nd].copy()
        need = 13 - placed - keep
        drawn = np.stack([rng.permutation(deck[placed + nd:])[:need] for _ in range(fills)]) if need else \
            np.empty((0, 0), np.uint8)
        scratch = fill_scratch(nd, drawn.shape[0])
        checked = 0
        for code in range(1 << (2 * nd)):
            if not legal(code, nd, keep, counts):
                continue
            f, m, b = filled_rows(board, counts, dealt, nd, code, drawn, scratch)
            for k in range(max(drawn.shape[0], 1)):
                fill = drawn[k] if need else []
                got = (scratch[0][f, k], scratch[0][m, k], scratch[0][b, k])
                assert got == _filled_by_hand(board, counts, dealt, code, fill), (code, k)
            checked += 1
        assert checked > 0
