"""Dealing: random hands and tables, as every analysis and the simulator deal them.

Each comes from a :class:`~sapsam.play.seeds.Stream`; a table is dealt from one shuffled
pack, a single hand from its own.
"""

import numpy as np

from sapsam.base.memory import require_memory
from sapsam.game.cards import count_aces
from sapsam.game.mechanisms import BankRotation, Game

HAND_BYTES = 200  # memory per hand dealt: cards and their sorted copy, decisions, points


def deal_sorted_hands(n, stream):
    """``n`` random 13-card hands, each from its own shuffled deck, sorted: uint8 (n, 13),
    drawn from ``stream`` (:class:`sapsam.play.seeds.Stream`)."""
    require_memory(n * 120, f"{n:,} hands")  # a shuffled pack each, then the hand and its rows
    rng = stream.generator()
    decks = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
    return np.ascontiguousarray(np.sort(decks[:, :13], axis=1))


def deal_tables(tables, players, stream):
    """Deal ``tables`` tables of ``players`` hands, each table from one shuffled pack, drawn
    from ``stream`` (:class:`sapsam.play.seeds.Stream`).

    Returns
    -------
    ndarray(uint8), shape (tables, players, 13)
        Every hand sorted ascending.
    """
    require_memory(tables * players * HAND_BYTES, f"{tables:,} tables of {players} players")
    rng = stream.generator()
    packs = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (tables, 52)), axis=1)
    hands = packs[:, :13 * players].reshape(tables, players, 13)
    return np.ascontiguousarray(np.sort(hands, axis=2))


def table_setup(rules, hands):
    """The aces each hand holds and each table's bank seat, as :mod:`sapsam.kernels.simulate` has them.

    Parameters
    ----------
    rules : Ruleset
    hands : ndarray(uint8), shape (T, P, 13)

    Returns
    -------
    aces : ndarray(int64), shape (T, P)
    bank : ndarray(int64), shape (T,)
        ``table % P`` (rotating bank), the ruleset's seat (fixed bank), or -1 (no bank).
    """
    tables, players = hands.shape[:2]
    aces = count_aces(hands).astype(np.int64)
    if rules.scoring.game != Game.BANK:
        bank = np.full(tables, -1, np.int64)
    elif rules.bank.rotation == BankRotation.ROTATE:
        bank = np.arange(tables, dtype=np.int64) % players
    else:
        bank = np.full(tables, min(rules.bank.seat, players - 1), np.int64)
    return aces, bank
