"""Match play to a target (the ``match`` game, first to 11): playing deals' points out into
matches, and each player's chance of winning the match from any score.

A deal gives each player a few points (:func:`sapsam.kernels.settle._settle_match`); the match ends
after the deal on which someone has ``target`` or more and leads alone.  A tie for the lead at
the target or beyond is played on, everyone dealt in, until one player leads alone.

Equity from a score: with the deals' outcomes (points of every player) independent and
distributed as ``probs`` over the rows of ``outcomes``, the chance of winning from scores
``s`` (all below the target) is ``W(s) = sum_o p(o) W(s + o)``, where a score at the target
with a sole leader is won by that leader, and a tie for the lead is worth ``T(s - max s)``,
the chance from the tie's differences.  Outcomes never lower a score, so scores are solved
from the highest down (an outcome of no points is a loop solved by division); the ties, whose
values refer to one another, by iteration to a fixed point.  A player more than ``clip``
points behind in a tie is taken as ``clip`` behind (:data:`CLIP`; against 20 behind, no
equity of first-to-11's fitted fields moves by 1e-9, though a made-up field that ties four
deals in five moves by 1e-4: tests/test_match.py).
"""

import numpy as np

from sapsam.kernels.compiler import njit

CLIP = 12  # differences kept in a tie for the lead (see the module doc)


@njit(cache=True, inline="always")
def _lead(x):
    """The top score of ``x`` and the player holding it alone (-1 if two or more share it)."""
    top = x[0]
    leader = 0
    for p in range(1, x.shape[0]):
        if x[p] > top:
            top, leader = x[p], p
        elif x[p] == top:
            leader = -1
    return top, leader


@njit(cache=True)
def play_out(points, target, state, winners, lengths, done):
    """Play deals' points into matches, in order.

    Parameters
    ----------
    points : ndarray(int64), shape (D, P)
        Each deal's points per player.
    target : int
    state : ndarray(int64), shape (P + 1,)
        The match under way: scores, then its deals so far; updated (a run of chunks carries
        it from one chunk to the next).
    winners, lengths : ndarray(int64), shape (M,)
        Output: each finished match's winner and number of deals, from index ``done``.
    done : int
        Matches finished before this chunk.

    Returns
    -------
    int
        Matches finished after this chunk (at most M: deals left over stay in ``state``).
    """
    players = points.shape[1]
    for d in range(points.shape[0]):
        if done >= winners.shape[0]:
            break
        for p in range(players):
            state[p] += points[d, p]
        state[players] += 1
        top, leader = _lead(state[:players])
        if top >= target and leader >= 0:
            winners[done] = leader
            lengths[done] = state[players]
            done += 1
            state[:] = 0
    return done


@njit(cache=True, inline="always")
def _index(scores, radix):
    """Mixed-radix index of a score vector (the first player's score the most significant)."""
    i = 0
    for s in scores:
        i = i * radix + s
    return i


@njit(cache=True, inline="always")
def _tie_index(x, top, clip):
    """Index of the tie state of scores ``x`` led by ``top``: each difference, clipped."""
    i = 0
    for s in x:
        i = i * (clip + 1) + min(top - s, clip)
    return i


@njit(cache=True)
def _after(x, target, clip, pre, tie, out):
    """Set ``out`` to each player's chance from scores ``x``: a finished match, a tie for the
    lead at the target or beyond, or scores below it."""
    top, leader = _lead(x)
    if top >= target:
        if leader >= 0:
            out[:] = 0.0
            out[leader] = 1.0
        else:
            out[:] = tie[_tie_index(x, top, clip)]
        return
    out[:] = pre[_index(x, target)]


@njit(cache=True)
def _tie_equity(outcomes, probs, clip, tolerance, max_rounds):
    """Equity of every tie state (differences from the lead, 0..clip each), iterated."""
    players = outcomes.shape[1]
    n = (clip + 1) ** players
    tie = np.full((n, players), 1.0 / players)
    diffs = np.zeros(players, np.int64)
    x = np.zeros(players, np.int64)
    new = np.zeros(players)
    for _ in range(max_rounds):
        change = 0.0
        for i in range(n):
            rest = i
            for p in range(players - 1, -1, -1):
                diffs[p] = rest % (clip + 1)
                rest //= clip + 1
            new[:] = 0.0
            for k in range(outcomes.shape[0]):
                for p in range(players):
                    x[p] = -diffs[p] + outcomes[k, p]
                top, leader = _lead(x)
                if leader >= 0:
                    new[leader] += probs[k]
                else:
                    j = _tie_index(x, top, clip)
                    for p in range(players):
                        new[p] += probs[k] * tie[j, p]
            for p in range(players):
                change = max(change, abs(new[p] - tie[i, p]))
                tie[i, p] = new[p]
        if change < tolerance:
            break
    return tie


@njit(cache=True)
def equity(outcomes, probs, target, clip=CLIP, tolerance=1e-13, max_rounds=10000):
    """Each player's chance of winning the match from every score.

    Parameters
    ----------
    outcomes : ndarray(int64), shape (K, P)
        The distinct points of a deal, per player.
    probs : ndarray(float64), shape (K,)
        Their probabilities (summing to 1).
    target : int

    Returns
    -------
    pre : ndarray(float64), shape (target ** P, P)
        From scores all below the target (mixed-radix index, the first player's score the most
        significant): each player's chance.
    tie : ndarray(float64), shape ((clip + 1) ** P, P)
        From a tie for the lead at the target or beyond, by each player's distance behind the
        lead (clipped at ``clip``).
    """
    players = outcomes.shape[1]
    tie = _tie_equity(outcomes, probs, clip, tolerance, max_rounds)
    n = target ** players
    pre = np.zeros((n, players))
    scores = np.zeros(players, np.int64)
    x = np.zeros(players, np.int64)
    value = np.zeros(players)
    total = np.zeros(players)
    for i in range(n - 1, -1, -1):
        rest = i
        for p in range(players - 1, -1, -1):
            scores[p] = rest % target
            rest //= target
        stay = 0.0  # probability of a deal of no points
        total[:] = 0.0
        for k in range(outcomes.shape[0]):
            moved = False
            for p in range(players):
                x[p] = scores[p] + outcomes[k, p]
                moved |= outcomes[k, p] != 0
            if not moved:
                stay += probs[k]
                continue
            _after(x, target, clip, pre, tie, value)
            for p in range(players):
                total[p] += probs[k] * value[p]
        for p in range(players):
            pre[i, p] = total[p] / (1.0 - stay)
    return pre, tie


@njit(cache=True)
def equity_after(scores, codes, target, pre, tie, clip=CLIP):
    """The first player's chance of winning after each deal in ``codes``: a deal's points
    packed three bits per player (player p at bits 3p, as :mod:`sapsam.kernels.montecarlo` gives
    them in the match game), added to ``scores`` (int64 (P,)).  float64, shaped like
    ``codes``."""
    players = scores.shape[0]
    flat = codes.ravel()
    out = np.empty(flat.shape[0])
    x = np.zeros(players, np.int64)
    value = np.zeros(players)
    for i in range(flat.shape[0]):
        for p in range(players):
            x[p] = scores[p] + ((flat[i] >> (3 * p)) & 7)
        _after(x, target, clip, pre, tie, value)
        out[i] = value[0]
    return out.reshape(codes.shape)
