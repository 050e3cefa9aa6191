"""Criss-cross: the exact field a player meets, from the opponent's 26 cards.

In criss-cross the whole deck is dealt: a player holding 26 cards (its two hands) knows the
opponent's 26 exactly, not how they are split.  Each row pays its unit alone, so a setting's
EV is the sum of its rows' chances against the distributions of the opponent's rows, and the
EV tables of those distributions (:func:`sapsam.kernels.value.ev_tables`) value every setting
exactly.  :func:`crossed_field` estimates them by dealing the opponent's cards and playing
them; a ``table`` policy with those tables is the player's policy for that deal.

A best response to the fitted policy's play of the opponent's cards alone is more exploitable
than the fitted policy (it answers one field, which then moves), so both sides of the deal
play rounds of iterated best response with their fields blended (a damped fictitious play on
that one deal) before the player answers the opponent's last field.
"""

import numpy as np

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import N_CATEGORIES, N_STRENGTHS
from sapsam.kernels.policies import TABLE, decide, policy_scratch, split_rows
from sapsam.kernels.removal import removal_scratch
from sapsam.kernels.rng import shuffle_prefix, sorted_hand
from sapsam.kernels.settings import _frontier
from sapsam.kernels.value import N_VALUES, TABLE_SHAPE, ev_tables, outcome_values, value, value_kind

_ROOM = 36036  # a 13-card hand's frontier fits (as sapsam.kernels.policies)
_SIDE_SEED = np.uint64(0x5DEECE66D)  # the opponent's splits' stream differs from the player's


@njit(cache=True)
def crossed_field(cards, samples, rounds, blend, tables, points, removal, params, naturals, opponents, search):
    """EV tables of the field met by the criss-cross player holding ``cards`` (26, sorted).

    ``samples`` splits of each side's 26 cards are dealt, from a random stream seeded by the
    player's cards (so the player's decisions are a function of its cards), and each hand is
    decided knowing its other: first by the fitted policy (``tables``, ``points``,
    ``removal``, as :func:`sapsam.kernels.policies.decide` takes them), whose rows make each
    side's first field.  Then ``rounds`` rounds of iterated best response: each side's hands
    take the best member of their frontier against the other side's field (its EV tables),
    and each field moves a share ``blend`` of the way to the rows so set.

    Returns float64 :data:`sapsam.kernels.value.TABLE_SHAPE`: the EV tables of the opponent's
    last field.  For rulesets whose rows pay their unit alone, without naturals or surrender
    (:func:`sapsam.play.policy.require_exact_field` refuses the others).
    """
    mask = np.int64(0)
    for c in cards:
        mask |= np.int64(1) << np.int64(c)
    royalty = np.zeros((3, N_CATEGORIES), np.int64)
    hands = 2 * samples
    mass = np.zeros((2, 3, N_STRENGTHS))  # each side's field: the player's (0), the opponent's (1)
    starts = np.zeros((2, hands + 1), np.int64)
    members = np.empty((2, 64 * hands, 3), np.int16)
    for side in range(2 if rounds > 0 else 1):
        members = _fitted_field(mask, 1 - side, samples, tables, points, removal, params, naturals, opponents,
                                search, mass[1 - side], starts, members, rounds > 0)
    values = np.zeros(N_VALUES)
    outcome_values(params, values)
    kind = value_kind(np.bool_(False), params, values)
    prepared = removal_scratch()
    sides = np.zeros((2,) + TABLE_SHAPE)
    played = np.zeros((3, N_STRENGTHS))
    for _ in range(rounds):
        for side in range(2):  # each side against the other's field
            sides[side] = ev_tables(mass[1 - side], params, royalty, 0.0)
        for side in range(2):
            played[:] = 0.0
            for i in range(hands):
                best, best_value = starts[side, i], -1e300
                for m in range(starts[side, i], starts[side, i + 1]):
                    v = value(kind, np.uint16(members[side, m, 0]), np.uint16(members[side, m, 1]),
                              np.uint16(members[side, m, 2]), sides[side], values, points, removal, prepared,
                              params, opponents)
                    if v > best_value:
                        best, best_value = m, v
                for k in range(3):
                    played[k, members[side, best, k]] += 1.0 / hands
            mass[side] += blend * (played - mass[side])
    return ev_tables(mass[1], params, royalty, 0.0)


@njit(cache=True)
def _fitted_field(mask, side, samples, tables, points, removal, params, naturals, opponents, search, out, starts,
                  members, keep):
    """Row masses (into ``out``, (3, N_STRENGTHS)) of ``samples`` splits of one side's 26 cards
    (side 0: those of ``mask``; 1: the rest), every hand decided by the fitted policy; with
    ``keep``, each hand's frontier too, hand ``i``'s members at ``members[side,
    starts[side, i]:starts[side, i + 1]]`` (returns ``members``, grown if it had too little
    room).  A side's splits come from a stream seeded by ``mask`` and the side."""
    deck = np.empty(26, np.uint8)
    n = 0
    for c in range(52):
        if ((mask >> c) & 1) == 1 - side:
            deck[n] = c
            n += 1
    state = np.zeros(1, np.uint64)
    state[0] = np.uint64(mask) ^ (_SIDE_SEED * np.uint64(side))
    pair = np.empty((2, 13), np.uint8)
    scratch = policy_scratch()
    splits, rows = np.empty(_ROOM, np.int32), np.empty((_ROOM, 3), np.int16)
    wheel = params[S.P_WHEEL_SECOND] != 0
    out[:] = 0.0
    size = 0
    for i in range(samples):
        shuffle_prefix(deck, 13, state)  # a uniform 13 of the 26 in front: one hand, the rest the other
        sorted_hand(deck, 0, pair[0])
        sorted_hand(deck, 13, pair[1])
        for j in range(2):
            hand = pair[j]
            split = decide(hand, pair[1 - j], np.int64(TABLE), tables, points, removal, params, naturals,
                           opponents, search, state, scratch)[0]
            r = split_rows(hand, split, params)
            for k in range(3):
                out[k, r[k]] += 1.0 / (2 * samples)
            if keep:
                found = _frontier(hand, wheel, scratch[0], splits, rows)[1]
                if size + found > members.shape[1]:
                    grown = np.empty((2, 2 * (size + found), 3), np.int16)
                    grown[:, :members.shape[1]] = members
                    members = grown
                members[side, size:size + found] = rows[:found]
                size += found
                starts[side, 2 * i + j + 1] = size
    return members
