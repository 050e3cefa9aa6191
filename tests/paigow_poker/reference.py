"""Plain-Python references for Pai Gow Poker: a 5-card evaluator with the joker by trying
every card in its place, the 2-card low hand, and one hand's outcomes against the dealer by
meeting every dealer hand one at a time (slow: for small decks)."""

from itertools import combinations

from sapsam.kernels.evaluate import FLUSH, STRAIGHT, STRAIGHT_FLUSH, packed_of_ranks

JOKER = 52


def _key(packed, wheel_second):
    """An order key of a packed 5-card strength; the wheel just below broadway if asked."""
    category = packed >> 20
    if wheel_second and category in (STRAIGHT, STRAIGHT_FLUSH) and (packed & 0xFFFFF) == 0x43210:
        return (category, 12.5)  # above K-high (nibble 12), below A-high (13)
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        return (category, (packed >> 16) & 15)
    return (category, packed & 0xFFFFF)


def high_key(cards, wheel_second=True):
    """Order key of five distinct codes (52 the joker): ``(category, ...)``, five aces (9)."""
    real = [c for c in cards if c != JOKER]
    if len(real) == 5:
        flush = len({c & 3 for c in real}) == 1
        return _key(packed_of_ranks([c >> 2 for c in real], flush), wheel_second)
    if sum(1 for c in real if c >> 2 == 12) == 4:
        return (9, 0)
    best = None
    for card in range(52):
        if card in real:
            continue
        ranks = [c >> 2 for c in real] + [card >> 2]
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        flush = len({c & 3 for c in real + [card]}) == 1
        key = _key(packed_of_ranks(ranks, flush), wheel_second)
        if card >> 2 == 12 or key[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            best = key if best is None or key > best else best
    return best


def low_key(a, b):
    """Order key of a 2-card low hand (the joker an ace): (is a pair, high rank, low rank)."""
    r = sorted((min(a >> 2, 12), min(b >> 2, 12)), reverse=True)
    return (r[0] == r[1], r[0], r[1])


def outcomes(high, low, dealer_settings, banking):
    """(win, push, loss) of a setting's strengths against the dealer's list of (high, low)."""
    win = push = loss = 0
    for dh, dl in dealer_settings:
        if banking:
            w, lo = high >= dh and low >= dl, high < dh and low < dl
        else:
            w, lo = high > dh and low > dl, high <= dh and low <= dl
        win += w
        loss += lo
        push += not w and not lo
    return win, push, loss


def dealer_hands(rest):
    return combinations(sorted(rest), 7)
