"""Pai Gow tiles, the game: the 32 tiles as people write them, four tiles read from text, and
a two-tile hand described in words.  The hand values live in :mod:`sapsam.paigow.kernels`.

A tile is written by its faces in either order ("6-6", "4-2", "2-4", "42") or by its name
(:data:`NAMES`: "teen", "day", "gee-joon", "nine" ...).  A name shared by two military tiles
("nine" is 4-5 or 3-6) takes the first one not yet in the hand; the two play alike.
"""

import numbers
import re

from sapsam.paigow.kernels import FACES, GROUP, N_TILES, PAIR_BASE

# each group's names, the first as shown; a group is a pair (two alike civil tiles, or two
# military tiles of the same pips, or the two Gee Joon tiles)
GROUP_NAMES = (
    ("teen", "heaven"), ("day", "earth"), ("yun", "high-eight", "man"),
    ("gor", "high-four", "harmony", "goose"), ("mooy", "high-ten", "plum"),
    ("chong", "high-six", "long"), ("bon", "low-four", "bench"), ("foo", "eleven", "axe"),
    ("ping", "low-ten"), ("tit", "high-seven"), ("look", "low-six"),
    ("nine", "mixed-nine", "chop-gow"), ("eight", "low-eight", "mixed-eight", "chop-bot"),
    ("seven", "low-seven", "mixed-seven", "chop-chit"), ("five", "mixed-five", "chop-ng"),
    ("gee-joon", "gee", "geejoon", "supreme"),
)
NAMES = {name: g for g, names in enumerate(GROUP_NAMES) for name in names}
_FACE = re.compile(r"^([1-6])[-:/]?([1-6])$")


def tile_text(t):
    """``"6-6"``: a tile's faces, the larger first."""
    a, b = sorted(int(x) for x in FACES[t])
    return f"{b}-{a}"


def group_name(g):
    return GROUP_NAMES[g][0]


def tile_label(t):
    """``"6-6 teen"``: faces and name."""
    return f"{tile_text(t)} {group_name(int(GROUP[t]))}"


def candidates(token):
    """The tile indices a word may stand for (one or two alike tiles), or raise."""
    word = token.lower().replace("_", "-")
    face = _FACE.match(word)
    if face:
        want = tuple(sorted((int(face.group(1)), int(face.group(2)))))
        return [t for t in range(N_TILES) if tuple(sorted(FACES[t])) == want]
    if word in NAMES:
        return [t for t in range(N_TILES) if GROUP[t] == NAMES[word]]
    raise ValueError(f"unknown tile {token!r}: write its faces as 6-6, 4-2 ... (1 to 6 "
                     f"pips each) or a name such as teen, day, gee-joon, nine")


def parse_tiles(text, count=4):
    """Four tiles from text such as ``"6-6 1-1 4-2 5-3"`` or ``"teen day gee joon 9"``:
    sorted tile indices.  Raises ``ValueError`` naming what is wrong."""
    text = re.sub(r"(?i)\bgee[\s-]+joon\b", "gee-joon", str(text))
    tokens = [x for x in re.split(r"[\s,|]+", text.strip()) if x]
    if len(tokens) != count:  # first: the hand's size, then its tiles
        raise ValueError(f"{len(tokens)} tiles given: a Pai Gow hand is {count} tiles")
    tiles = []
    for token in tokens:
        free = [t for t in candidates(token) if t not in tiles]
        if not free:
            held = "one" if len(candidates(token)) == 1 else "two"
            raise ValueError(f"{token!r} more times than the set of 32 tiles holds "
                             f"(it has {held})")
        tiles.append(free[0])
    return sorted(tiles)


def tile_indices(tiles, count=4):
    """Four tiles given by their indices (0 to 31, each a tile of the set): sorted, or a
    ``ValueError`` naming what is wrong."""
    if isinstance(tiles, (str, bytes)) or not hasattr(tiles, "__iter__"):
        raise ValueError(f"give the tiles as text such as '6-6 1-1 4-2 5-3' or as {count} tile "
                         f"indices 0 to {N_TILES - 1}, got {tiles!r}")
    tiles = list(tiles)
    if tiles and all(isinstance(t, str) for t in tiles):  # a list of tiles as text
        return parse_tiles(" ".join(tiles), count)
    for t in tiles:
        if isinstance(t, bool) or not isinstance(t, numbers.Integral) or not 0 <= t < N_TILES:
            raise ValueError(f"tile index {t!r}: a tile's index is a whole number 0 to {N_TILES - 1}")
    if len(set(map(int, tiles))) < len(tiles):
        raise ValueError(f"tile indices {sorted(map(int, tiles))} repeat a tile: each of the 32 is "
                         "one tile (the set's two alike tiles have indices of their own)")
    if len(tiles) != count:
        raise ValueError(f"{len(tiles)} tiles given: a Pai Gow hand is {count} tiles")
    return sorted(int(t) for t in tiles)


def hand_points(strength):
    """A two-tile hand's points from its strength: 0 .. 9, gong 10, wong 11, a pair 12 (above
    every other hand, as a house way's "6/8 or better" counts it)."""
    return 12 if int(strength) >= PAIR_BASE else int(strength) // 16


def hand_text(strength):
    """A two-tile hand's strength in words: ``"teen pair"``, ``"wong (teen)"``, ``"7 (high
    tile foo)"``, ``"0"``."""
    strength = int(strength)
    if strength >= PAIR_BASE:
        rank = strength - PAIR_BASE
        group = 15 if rank == 16 else 15 - rank
        return f"{group_name(group)} pair"
    if strength == 0:
        return "0"
    points, high = divmod(strength, 16)
    top = group_name(15 - high)
    word = {11: "wong", 10: "gong"}.get(points)
    return f"{word} ({top})" if word else f"{points} (high {top})"
