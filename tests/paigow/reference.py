"""A plain-Python Pai Gow reference, written from the seed page's rules with no shared code:
tiles by their faces, a hand compared with another by the rules as a person applies them."""


CIVIL = [(6, 6), (1, 1), (4, 4), (1, 3), (5, 5), (3, 3), (2, 2), (5, 6), (4, 6), (1, 6), (1, 5)]
MILITARY = [(4, 5), (3, 6), (3, 5), (2, 6), (3, 4), (2, 5), (1, 4), (2, 3)]
GEE = [(1, 2), (2, 4)]
SET = sorted(CIVIL * 2 + MILITARY + GEE, key=lambda f: f)  # 32 faces, any order


def rank(face):
    """Single-tile rank for ties: civil in their order, then military by pips, Gee Joon last."""
    if face in CIVIL:
        return 100 - CIVIL.index(face)
    if face in GEE:
        return 0
    return sum(face)  # 9, 8, 7 or 5: alike within their pair


def is_pair(a, b):
    if a in GEE and b in GEE:
        return True
    if a in CIVIL or b in CIVIL:
        return a == b
    return sum(a) == sum(b)


def pair_rank(a):
    return 1000 if a in GEE else rank(a)


def points(a, b):
    for big, other in ((a, b), (b, a)):
        if big in ((6, 6), (1, 1)) and sum(other) in (8, 9):
            return 10 if sum(other) == 8 else 11
    options_a = (3, 6) if a in GEE else (sum(a),)
    options_b = (3, 6) if b in GEE else (sum(b),)
    return max((x + y) % 10 for x in options_a for y in options_b)


def beats(hand, other):
    """Whether two-tile ``hand`` beats ``other`` outright (a copy does not)."""
    (a, b), (c, d) = hand, other
    if is_pair(a, b) or is_pair(c, d):
        if not is_pair(c, d):
            return True
        if not is_pair(a, b):
            return False
        return pair_rank(a) > pair_rank(c)
    p, q = points(a, b), points(c, d)
    if p != q:
        return p > q
    if p == 0:
        return False  # zero-zero goes to the banker
    return max(rank(a), rank(b)) > max(rank(c), rank(d))


def settings(four):
    a, b, c, d = four
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def ordered(setting):
    """(low, high) of a setting."""
    x, y = setting
    return (y, x) if beats(x, y) else (x, y)
