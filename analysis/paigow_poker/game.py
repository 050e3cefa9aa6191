"""Pai Gow Poker, the game: its 53 cards as text, its rules, and hands described in words.

A card is the core's code (:mod:`sapsam.game.cards`, ``As``, ``Td``, ``10h``, ``Q♠``) or the
joker, code 52, written ``Jk``, ``joker`` or ``🃏``.  The rules (:class:`Rules`): whether
A-2-3-4-5 is the second-best straight (most casinos) or the lowest, the commission on a
winning bet (5%, or none in the commission-free variants), and who wins copies (the banker).

>>> format_cards(parse_hand("jk as kd 10h 9c 3s 2d"))
'Jk As Kd Th 9c 3s 2d'
"""

import functools
from dataclasses import dataclass

import numpy as np

from sapsam.game.cards import RANKS, SUITS, parse_card, parse_cards
from sapsam.paigow_poker.kernels.hands import JOKER, LOW_PACKED, joker_table, make_scale

JOKER_NAMES = ("jk", "joker", "🃏")
CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush", "five aces")
RANK_WORDS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
              "tens", "jacks", "queens", "kings", "aces")


@dataclass(frozen=True)
class Rules:
    """The table's rules: ``wheel_second`` ranks A-2-3-4-5 second among straights (else
    lowest); ``commission`` is taken from a winning bet."""

    wheel_second: bool = True
    commission: float = 0.05

    def __post_init__(self):
        if not 0 <= self.commission < 1:
            raise ValueError(f"commission must be a fraction from 0 up to 1, got {self.commission!r}")


def parse_card53(token):
    """Code of one card of the 53: the core's cards and the joker (52)."""
    if token.strip().lower() in JOKER_NAMES:
        return JOKER
    return parse_card(token)


def parse_hand(text, count=7, what="hand"):
    """Seven distinct cards of the 53 from text, ascending: ndarray(uint8), shape (7,)."""
    return np.sort(parse_cards(text, count, what, card=parse_card53))


def parse_deck(text, hand=None):
    """The cards the dealer's hands come from (and, without ``hand``, a check's hands too): at
    least 14 distinct cards of the 53, holding ``hand``'s seven, ascending uint8."""
    deck = np.sort(parse_cards(text, what="deck", card=parse_card53))
    if len(deck) < 14:
        raise ValueError(f"a deck needs at least 14 cards (a hand's 7 and a dealer's 7), got {len(deck)}")
    missing = set() if hand is None else set(hand.tolist()) - set(deck.tolist())
    if missing:
        raise ValueError(f"the deck lacks the hand's {format_cards(sorted(missing))}")
    return deck


def card_text(code):
    code = int(code)
    return "Jk" if code == JOKER else RANKS[code >> 2] + SUITS[code & 3]


def format_cards(codes):
    """Cards as text, highest first (the joker first of all)."""
    return " ".join(card_text(c) for c in sorted((int(c) for c in codes), reverse=True))


def high_words(packed):
    """``"two pair, kings and fives"``: a high hand's packed strength in words."""
    category = int(packed) >> 20
    ranks = [((int(packed) >> (16 - 4 * i)) & 15) - 1 for i in range(5)]
    name = CATEGORY_NAMES[category]
    if category in (1, 3, 7):
        return f"{name}, {RANK_WORDS[ranks[0]]}"
    if category == 2:
        return f"{name}, {RANK_WORDS[ranks[0]]} and {RANK_WORDS[ranks[1]]}"
    if category == 6:
        return f"{name}, {RANK_WORDS[ranks[0]]} full of {RANK_WORDS[ranks[1]]}"
    if category in (4, 8):
        top = ranks[0] if ranks[0] >= 0 else 3  # the wheel: five high
        return f"{name}, {RANKS[top]} high"
    if category == 9:
        return name
    return f"{name}, {RANKS[ranks[0]]} high"


def low_words(low):
    """``"pair of queens"`` or ``"A-K"``: a dense low strength in words."""
    packed = int(LOW_PACKED[int(low)])
    hi, lo = ((packed >> 16) & 15) - 1, ((packed >> 12) & 15) - 1
    return f"pair of {RANK_WORDS[hi]}" if packed >> 20 else f"{RANKS[hi]}-{RANKS[lo]}"


@functools.cache
def _tables(wheel_second):
    scale = make_scale(wheel_second)
    return scale, joker_table(scale)


def tables(rules):
    """(the dense strength :class:`~sapsam.paigow_poker.kernels.hands.Scale`, the joker's
    table) of these rules, built once per process."""
    return _tables(rules.wheel_second)


@dataclass(frozen=True)
class PayTable:
    """A side bet's pay table (``sidebets/*.toml``): what each bonus hand pays, to 1."""

    id: str
    name: str
    casino: str
    source: str
    note: str
    pays: dict  # bonus hand (sapsam.paigow_poker.kernels.bonus.BONUS_HANDS) -> pays to 1
    published_edge: float | None = None

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def pay_table_ids():
    from importlib.resources import files

    folder = files("sapsam.paigow_poker").joinpath("sidebets")
    return sorted(str(p.name)[:-5] for p in folder.iterdir() if str(p.name).endswith(".toml"))


def pay_table(ident):
    """A shipped pay table by id; errors name the file, the key and what is allowed."""
    import tomllib
    from importlib.resources import files

    from sapsam.paigow_poker.kernels.bonus import BONUS_HANDS

    if ident not in pay_table_ids():
        raise ValueError(f"unknown pay table {ident!r}; allowed: {', '.join(pay_table_ids())}")
    label = f"sidebets/{ident}.toml"
    data = tomllib.loads(files("sapsam.paigow_poker").joinpath(label).read_text(encoding="utf-8"))
    keys = ("name", "casino", "source", "note", "published_edge", "pays")
    for key in data:
        if key not in keys:
            raise ValueError(f"{label}: {key}: unknown key; allowed: {', '.join(keys)}")
    for key in keys[:4]:
        if not isinstance(data.get(key), str):
            raise ValueError(f"{label}: {key}: missing or not a string; allowed: a string")
    pays = data.get("pays", {})
    for hand, pay in pays.items():
        if hand not in BONUS_HANDS:
            raise ValueError(f"{label}: pays.{hand}: not a bonus hand; allowed: {', '.join(BONUS_HANDS)}")
        if not isinstance(pay, int) or pay < 0:
            raise ValueError(f"{label}: pays.{hand}: {pay!r}; allowed: a whole number >= 0 (to 1)")
    return PayTable(ident, data["name"], data["casino"], data["source"], " ".join(data["note"].split()),
                    dict(pays), data.get("published_edge"))
