"""Cards and settings as text.

A card is a ``uint8`` code ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace; suits c, d, h, s).
Text forms (DESIGN.md): ``As Kd Th`` with ``T`` or ``10`` and either case, the suit symbols
``♠♥♦♣`` (and their hollow forms) accepted; cards may be separated by spaces or commas.
A setting is ``front | middle | back``.

>>> format_cards(parse_cards("as 10h 2♦"))
'As Th 2d'
"""

import re

import numpy as np

RANKS = "23456789TJQKA"
ACE = RANKS.index("A")  # 12: an ace's rank (a code >> 2)
SUITS = "cdhs"
CARD_DTYPE = np.uint8
_SUIT_ALIASES = {"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h", "♠": "s", "♤": "s"}
_TOKEN = re.compile(r"^(10|[2-9tjqka])([cdhs])$")


def parse_card(token):
    """Code of one card such as ``'As'``, ``'10h'``, ``'td'``, ``'Q♠'``."""
    text = token.strip()
    # U+FE0F asks for emoji presentation ("A♠️" as phones type it): not part of the card
    normal = "".join(_SUIT_ALIASES.get(ch, ch) for ch in text if ch != "\ufe0f").lower()
    match = _TOKEN.match(normal)
    if not match:
        raise ValueError(f"unknown card {text!r}: write rank then suit, e.g. 'As', 'Td', '10h', 'Q♠'")
    rank = "t" if match[1] == "10" else match[1]
    return RANKS.lower().index(rank) * 4 + SUITS.index(match[2])


def parse_cards(text, count=None, what="cards", card=parse_card):
    """Distinct card codes from text.

    Parameters
    ----------
    text : str or iterable of str
    count : int, optional
        Required number of cards.
    what : str
        What the cards are, for error messages ("hand", "front", ...).
    card : callable
        One card's code from its text (a game's own deck: Pai Gow Poker's joker).

    Returns
    -------
    ndarray(uint8), shape (k,)
        In the order given.
    """
    if not isinstance(text, str) and (np.ndim(text) != 1 or not all(isinstance(t, str) for t in text)):
        raise ValueError(f"expected {what} as text, e.g. 'As Kd Qh', or a list of such cards, got {text!r}")
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    codes = [card(tok) for tok in tokens]
    seen = {}
    for tok, code in zip(tokens, codes):
        if code in seen:
            raise ValueError(f"duplicate card {tok!r} in {what} (also given as {seen[code]!r})")
        seen[code] = tok
    if count is not None and len(codes) != count:
        raise ValueError(f"{what} needs {count} cards, got {len(codes)}: {' '.join(tokens) or '(none)'}")
    return np.array(codes, dtype=CARD_DTYPE)


def card_codes(cards, what="cards"):
    """Distinct card codes, in the order given, from text (:func:`parse_cards`), a list of cards
    as text, or integer codes 0 to 51: ndarray(uint8); a ``ValueError`` naming what is wrong
    (before any kernel sees a code outside the deck), a ``TypeError`` for codes that are not
    whole numbers."""
    if isinstance(cards, str) or (np.ndim(cards) == 1 and all(isinstance(c, str) for c in cards)):
        return parse_cards(cards, what=what)
    if np.ndim(cards) != 1:
        raise ValueError(f"expected {what} as text, e.g. 'As Kd Qh', or card codes 0 to 51, got {cards!r}")
    codes = np.asarray(cards)
    if codes.size and codes.dtype.kind not in "iu":  # as as_hands says it
        raise TypeError(f"card codes must be integers, got dtype {codes.dtype}")
    if codes.size and (codes.min() < 0 or codes.max() > 51):
        raise ValueError(f"card codes lie in 0 to 51, got {codes.tolist()} in {what}")
    seen = set()
    for code in codes.tolist():
        if code in seen:
            raise ValueError(f"duplicate card {format_card(code)} in {what}")
        seen.add(code)
    return codes.astype(CARD_DTYPE)


def parse_hand(text):
    """A 13-card hand: ndarray(uint8), shape (13,), in the order given."""
    return parse_cards(text, 13, "hand")


def parse_setting(text):
    """``front | middle | back`` -> three uint8 arrays of 3, 5 and 5 distinct cards."""
    if not isinstance(text, str):
        raise ValueError(f"a setting is text, 'front | middle | back' (3 | 5 | 5 cards), got {text!r}")
    parts = text.split("|")
    if len(parts) != 3:
        raise ValueError(f"a setting is 'front | middle | back' (3 | 5 | 5 cards), got {text!r}")
    rows = [parse_cards(p, n, name) for p, n, name in zip(parts, (3, 5, 5), ("front", "middle", "back"))]
    parse_cards(" ".join(format_cards(r) for r in rows), 13, "setting")  # no card in two rows
    return tuple(rows)


def count_aces(cards):
    """The aces among card codes, counted along the last axis (as the kernels count them,
    :func:`sapsam.kernels.evaluate.is_ace`).

    >>> int(count_aces(parse_cards("As Ad Kh")))
    2
    """
    return ((np.asarray(cards) >> 2) == ACE).sum(axis=-1)


def format_card(code):
    """``'As'`` for code 51."""
    code = int(code)
    if not 0 <= code < 52:
        raise ValueError(f"card code {code} is outside 0..51")
    return RANKS[code >> 2] + SUITS[code & 3]


def format_cards(codes, descending=False):
    """Cards as text, in the given order or from the highest down."""
    codes = [int(c) for c in codes]
    if descending:
        codes = sorted(codes, reverse=True)
    return " ".join(format_card(c) for c in codes)


def format_setting(front, middle, back):
    """``front | middle | back`` with each row from its highest card down."""
    return " | ".join(format_cards(row, descending=True) for row in (front, middle, back))


def as_hands(hands, size):
    """Validate card rows at the kernel boundary.

    Accepts text (one hand), a sequence of card codes, or an integer array of shape
    (size,) or (n, size); returns ndarray(uint8), shape (n, size), C-contiguous.
    Raises ``ValueError`` for codes outside 0..51, a wrong row length or a repeated card.
    """
    if isinstance(hands, str):
        return parse_cards(hands, size)[None, :]
    arr = np.asarray(hands)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"card codes must be integers, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != size:
        raise ValueError(f"expected rows of {size} cards, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise ValueError("card codes must lie in 0..51")
    ordered = np.sort(arr, axis=1)
    if size > 1 and np.any(ordered[:, 1:] == ordered[:, :-1]):
        row = int(np.flatnonzero(np.any(ordered[:, 1:] == ordered[:, :-1], axis=1))[0])
        raise ValueError(f"row {row} repeats a card: {format_cards(arr[row])}")
    return np.ascontiguousarray(arr, dtype=CARD_DTYPE)
