"""Hand strengths for people: evaluation wrappers and descriptions in words.

Strengths are the dense ordinals of :mod:`sapsam.kernels.evaluate` (0..7916, fronts and 5-card hands
on one scale).  ``describe`` turns one into words::

    >>> describe(strength("Kh Ks Kd 8c 8d"))
    'Full house, kings over eights'
    >>> describe(strength("6c 6d 4h"))
    'Pair of sixes, four kicker'
"""

import operator

import numpy as np

from sapsam.game.cards import as_hands, parse_cards
from sapsam.kernels import evaluate as _ev
from sapsam.kernels import lowball as _low

CATEGORY_NAMES = (
    "High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush",
    "Full house", "Four of a kind", "Straight flush",
)
_RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")
N_STRENGTHS = _ev.N_STRENGTHS


def rank5(hands):
    """Strengths of 5-card hands: text, codes (5,) or (n, 5) -> ndarray(int16), shape (n,)."""
    return _ev.rank5(as_hands(hands, 5))


def rank3(hands):
    """Strengths of 3-card fronts: text, codes (3,) or (n, 3) -> ndarray(int16), shape (n,)."""
    return _ev.rank3(as_hands(hands, 3))


def strength(cards):
    """Strength of one 3- or 5-card row given as text or codes."""
    codes = parse_cards(cards) if isinstance(cards, str) else np.asarray(cards)
    if len(codes) == 5:
        return int(rank5(codes)[0])
    if len(codes) == 3:
        return int(rank3(codes)[0])
    raise ValueError(f"a row has 3 or 5 cards, got {len(codes)}")


def rank5_low(hands):
    """2-7 low strengths of 5-card hands (:mod:`sapsam.kernels.lowball`, higher the better low)."""
    return _low.rank5_low(as_hands(hands, 5))


def setting_strengths(front, middle, back, wheel_rank="ace-low", middle_plays="high"):
    """Strength triple (front, middle, back) of a setting given as card rows.

    ``wheel_rank = "second"`` puts the strengths on that ruleset's scale (A-2-3-4-5 just below
    10-J-Q-K-A), as every ruleset-aware comparison needs; ``middle_plays = "deuce-to-seven"``
    gives the middle's 2-7 low strength.
    """
    triple = [int(rank3(front)[0]), int(rank5(middle)[0]), int(rank5(back)[0])]
    if str(wheel_rank) == "second":
        triple[1:] = [int(_ev.WHEEL_SECOND[v]) for v in triple[1:]]
    if str(middle_plays) == "deuce-to-seven":
        triple[1] = int(rank5_low(middle)[0])
    return tuple(triple)


def category(strengths):
    """Category index (0 = high card .. 8 = straight flush) of strength ordinals."""
    return _ev.CATEGORY_OF[np.asarray(strengths, dtype=np.int64)]


def to_packed(strengths):
    """Packed form ``category << 20 | five rank nibbles`` of strength ordinals."""
    return _ev.to_packed(strengths)


def from_packed(packed):
    """Strength ordinals of packed values."""
    return _ev.from_packed(packed)


def _plural(rank):
    word = _RANK_WORDS[rank]
    return word + ("es" if word == "six" else "s")


def _kickers(ranks):
    if not ranks:
        return ""
    words = "-".join(_RANK_WORDS[r] for r in ranks)
    return f", {words} kicker" + ("s" if len(ranks) > 1 else "")


def _ordinal(value, size, what, source):
    """``value`` as an int: a whole number (numpy's too, not a bool, not text), else a
    ``ValueError`` saying that ``what`` is one from 0 to ``size - 1`` and where it comes from."""
    try:
        if isinstance(value, bool | np.bool_):
            raise TypeError
        return operator.index(value)
    except TypeError:
        raise ValueError(f"expected {what}, a whole number from 0 to {size - 1} (as {source} gives), "
                         f"got {value!r}") from None


def describe(value):
    """Words for one strength ordinal, e.g. ``'Two pair, kings and eights, ace kicker'``: a whole
    number from 0 to 7916, as :func:`strength` gives for a row's cards (not the cards)."""
    value = _ordinal(value, N_STRENGTHS, "a hand's strength", 'strength("Kh Ks Kd 8c 8d")')
    if not 0 <= value < N_STRENGTHS:
        raise ValueError(f"strength {value} is outside 0..{N_STRENGTHS - 1}")
    return _words(int(_ev.ORDINAL_TO_PACKED[value]))


def describe_low(value):
    """Words for one 2-7 low strength, e.g. ``'7-5-4-3-2 low'``, ``'A-5-4-3-2 low'`` (ace high)
    or ``'Pair of fours, ... (as a low)'`` for a hand that pairs, straights or flushes."""
    value = _ordinal(value, _low.N_LOW, "a 2-7 low strength", 'rank5_low("7c 5d 4h 3s 2c")[0]')
    if not 0 <= value < _low.N_LOW:
        raise ValueError(f"low strength {value} is outside 0..{_low.N_LOW - 1}")
    packed = int(_low.LOW_TO_PACKED[value])
    if packed >> 20 == _ev.HIGH_CARD:
        return "-".join("23456789TJQKA"[((packed >> (16 - 4 * i)) & 15) - 1] for i in range(5)) + " low"
    return f"{_words(packed)} (as a low)"


def _words(packed):
    """Words for a hand's packed value (``category << 20`` and five rank nibbles)."""
    cat = packed >> 20
    nibbles = [(packed >> (16 - 4 * i)) & 15 for i in range(5)]
    ranks = [n - 1 for n in nibbles if n]
    if cat in (_ev.STRAIGHT, _ev.STRAIGHT_FLUSH):
        top = ranks[0]  # the wheel's ace is nibble 0, so its top is the five
        if cat == _ev.STRAIGHT_FLUSH and top == 12:
            return "Royal flush"
        return f"{CATEGORY_NAMES[cat]}, {_RANK_WORDS[top]} high"
    if cat in (_ev.HIGH_CARD, _ev.FLUSH):
        return f"{CATEGORY_NAMES[cat]}, " + "-".join(_RANK_WORDS[r] for r in ranks)
    if cat == _ev.PAIR:
        return f"Pair of {_plural(ranks[0])}" + _kickers(ranks[1:])
    if cat == _ev.TWO_PAIR:
        return f"Two pair, {_plural(ranks[0])} and {_plural(ranks[1])}" + _kickers(ranks[2:])
    if cat == _ev.TRIPS:
        return f"Three of a kind, {_plural(ranks[0])}" + _kickers(ranks[1:])
    if cat == _ev.FULL_HOUSE:
        return f"Full house, {_plural(ranks[0])} over {_plural(ranks[1])}"
    return f"Four of a kind, {_plural(ranks[0])}" + _kickers(ranks[1:])
