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


def _seven_card_straight_flush(cards):
    """Seven suited cards in sequence (A-7 too), the joker any card: None, "natural" or "joker"."""
    real = [c for c in cards if c != JOKER]
    fills = [None] if len(real) == 7 else range(52)
    for fill in fills:
        hand = real + ([] if fill is None else [fill])
        if fill in real or len({c & 3 for c in hand}) != 1:
            continue
        ranks = sorted({c >> 2 for c in hand})
        if len(ranks) == 7 and (ranks[-1] - ranks[0] == 6 or ranks == [0, 1, 2, 3, 4, 5, 12]):
            return "natural" if fill is None else "joker"
    return None


def bonus_hand(cards):
    """The bonus hand of seven codes, by the definitions of sapsam.paigow_poker.kernels.bonus."""
    seven = _seven_card_straight_flush(list(cards))
    if seven == "natural":
        return "seven-card straight flush"
    fives = list(combinations(cards, 5))
    royal = None
    for five in fives:
        real = [c for c in five if c != JOKER]
        suited_high = len({c & 3 for c in real}) == 1 and all(c >> 2 >= 8 for c in real)
        if suited_high and len({c >> 2 for c in real}) == len(real):
            rest = [c for c in cards if c not in five]
            match = len(rest) == 2 and JOKER not in rest and {c >> 2 for c in rest} == {10, 11} \
                and rest[0] & 3 == rest[1] & 3 and rest[0] & 3 != real[0] & 3
            kind = "match" if match else ("natural" if len(real) == 5 else "joker")
            royal = kind if royal is None or kind == "match" or (kind == "natural" and royal == "joker") else royal
    if royal == "match":
        return "royal flush plus royal match"
    if seven == "joker":
        return "seven-card straight flush with joker"
    best = max(high_key(five) for five in fives)[0]
    if best == 9:
        return "five aces"
    if royal:
        return "royal flush" if royal == "natural" else "royal flush with joker"
    names = {8: "straight flush", 7: "four of a kind", 6: "full house", 5: "flush", 3: "three of a kind",
             4: "straight", 2: "two pair", 1: "one pair", 0: "high card"}
    ranks = [min(c >> 2, 12) for c in cards]
    if best == 4 and max(ranks.count(r) for r in ranks) >= 3:
        return "three of a kind"
    return names[best]


def legal(high_key_, low):
    """Whether a high hand (its key) outranks a low hand (its key), a missing kicker lowest."""
    category, rest = high_key_
    if category >= 2:
        return True
    top, second = ((int(rest) >> 16) & 15) - 1, ((int(rest) >> 12) & 15) - 1
    if category == 1:
        return not low[0] or top >= low[1]
    return not low[0] and (top, second) >= low[1:]


def house_setting(cards, way, wheel_second=True):
    """The house way's (high key, low key) of seven codes, from its arrays
    (:class:`sapsam.paigow_poker.kernels.houseway.HouseWay`), by the rules in words."""
    settings = []
    for low in combinations(sorted(cards), 2):
        high = [c for c in cards if c not in low]
        hk, lk = high_key(high, wheel_second), low_key(*low)
        if legal(hk, lk):
            settings.append((hk, lk))
    ranks = [min(c >> 2, 12) for c in cards]
    count = {r: ranks.count(r) for r in set(ranks)}
    by = lambda n: sorted((r for r, c in count.items() if c == n), reverse=True)  # noqa: E731
    quads, trips, pairs, singles = by(4), by(3), by(2), by(1)
    s1, s2, s3 = (singles + [-1, -1, -1])[:3]

    def holds(threshold):
        return s1 >= threshold[0] and s2 >= threshold[1]

    def pair(r):
        return (True, r, r)

    def odd(a, b):
        return (False, max(a, b), min(a, b))

    def with_low(target):
        return max(((h, lk) for h, lk in settings if lk == target), default=None)

    complete = [(lk, h) for h, lk in settings if h[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH)]
    best_complete = max(complete, default=None)
    if count.get(12) == 5:
        other = pairs[0] if pairs and pairs[0] >= way.params[0] else 12
        return with_low(pair(other))
    if quads:
        if trips or pairs:
            return with_low(pair(max(trips + pairs)))
        return with_low(odd(s1, s2) if holds(way.quads[quads[0]]) else pair(quads[0]))
    if len(trips) == 2:
        return with_low(pair(trips[0]))
    if trips and pairs:
        if len(pairs) == 1 and holds(way.full_house[pairs[0]]):
            return with_low(odd(s1, s2))
        return with_low(pair(pairs[0]))
    if trips:
        if best_complete:
            found = max(((h, lk) for lk, h in complete if lk == pair(trips[0])), default=None)
            if found:
                return found
        return with_low(odd(trips[0], s1) if way.trips_split[trips[0]] else odd(s1, s2))
    if len(pairs) == 3:
        return with_low(pair(pairs[0]))
    if len(pairs) == 2:
        return with_low(odd(s1, s2) if holds(way.two_pair[pairs[0], pairs[1]]) else pair(pairs[1]))
    if pairs:
        if not best_complete:
            return with_low(odd(s1, s2))
        if way.pair_exception[pairs[0]] and s1 == 12 and \
                (not way.params[1] or best_complete[0] < odd(12, s2)):
            return with_low(odd(12, s2))
        return best_complete[1], best_complete[0]
    if best_complete:
        return best_complete[1], best_complete[0]
    return with_low(odd(s2, s3))
