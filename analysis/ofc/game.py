"""Open-Face Chinese Poker's rulesets and boards (RULES.md part E).

A ruleset is a TOML file in ``rulesets/`` (or any path), read like the 13-card rulesets
(``extends``, errors naming the file and the key), and compiled into the strength-indexed
tables the kernels take (:class:`OfcTables`).  A board is written ``front | middle | back``
with any row short of cards while the hand is being built.

>>> rules = load_ofc_rules("ofc-pineapple")
>>> rules.cards_per_hand, rules.fantasyland.entry
(17, {'QQ': 14})
"""

from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path

import numpy as np
from pydantic import model_validator
from pydantic.dataclasses import dataclass as validated

from sapsam.game.cards import RANKS, format_cards, parse_cards
from sapsam.game.mechanisms import STRICT, Flag, bounded
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import RULESET_DIR, RulesetError, build_ruleset, read_ruleset
from sapsam.kernels.evaluate import CATEGORY_OF, N_STRENGTHS, ORDINAL_TO_PACKED, THREE_CARD

OFC_DIR = Path(__file__).with_name("rulesets")
ROWS = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)
_CATEGORIES = ("high-card", "pair", "two-pair", "trips", "straight", "flush", "full-house", "quads",
               "straight-flush", "royal-flush")
_ENTRY_KEYS = tuple(r + r for r in RANKS) + ("trips",)
Points = bounded(0, 100)


@validated(config=STRICT)
class Deal:
    """How a hand is dealt: ``first`` cards placed at once, then ``rounds`` of ``draw`` cards of
    which ``keep`` are placed (the rest discarded face down)."""

    first: bounded(1, 13) = 5
    rounds: bounded(0, 12) = 4
    draw: bounded(1, 4) = 3
    keep: bounded(1, 4) = 2

    @model_validator(mode="after")
    def _thirteen(self):
        if self.keep > self.draw:
            raise ValueError(f"keep ({self.keep}) cannot be more than draw ({self.draw})")
        if self.first + self.rounds * self.keep != 13:
            raise ValueError(f"first + rounds x keep must place 13 cards; "
                             f"{self.first} + {self.rounds} x {self.keep} = "
                             f"{self.first + self.rounds * self.keep}")
        return self


@validated(config=STRICT)
class OfcScoring:
    row: Points = 1  # a row won
    scoop: Points = 3  # winning all three, more


@validated(config=STRICT)
class OfcRoyalties:
    """Points for a row by its category (``royal-flush``: an ace-high straight flush), and for
    a front pair or trips by rank, deuces to aces."""

    back: dict[str, Points] = field(default_factory=dict)
    middle: dict[str, Points] = field(default_factory=dict)
    front_pair: list[Points] = field(default_factory=lambda: [0] * 13)
    front_trips: list[Points] = field(default_factory=lambda: [0] * 13)

    @model_validator(mode="after")
    def _known(self):
        for row in ("back", "middle"):
            wrong = sorted(set(getattr(self, row)) - set(_CATEGORIES))
            if wrong:
                raise ValueError(f"{row}: unknown category {', '.join(wrong)}; "
                                 f"use {', '.join(_CATEGORIES)}")
        for key in ("front_pair", "front_trips"):
            if len(getattr(self, key)) != 13:
                raise ValueError(f"{key} needs 13 numbers (deuces to aces), "
                                 f"got {len(getattr(self, key))}")
        return self


@validated(config=STRICT)
class Fantasyland:
    """Who enters (front hand -> cards dealt next hand), who stays, and what it is worth."""

    entry: dict[str, bounded(13, 17)] = field(default_factory=lambda: {"QQ": 14})
    stay_cards: bounded(13, 17) = 14
    stay_front_trips: Flag = True
    stay_back_quads: Flag = True
    stay_middle_full_house: Flag = False
    worth: float = 9.6  # points: a Fantasyland hand's over a normal one (RULES.md E3)

    @property
    def dealt(self):
        """The counts of cards a Fantasyland hand is dealt, entering or staying, ascending."""
        return sorted({*self.entry.values(), self.stay_cards})

    @model_validator(mode="after")
    def _known(self):
        wrong = sorted(set(self.entry) - set(_ENTRY_KEYS))
        if wrong:
            raise ValueError(f"entry: unknown front hand {', '.join(wrong)}; use a pair "
                             f"(22 ... AA) or trips")
        if not 0 <= self.worth <= 100:
            raise ValueError(f"worth {self.worth!r} is out of range: use points from 0 to 100")
        return self


@validated(config=STRICT)
class OfcRuleset:
    id: str
    name: str
    source: str = ""
    defaults: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    players: bounded(2, 3) = 2
    deal: Deal = field(default_factory=Deal)
    scoring: OfcScoring = field(default_factory=OfcScoring)
    royalties: OfcRoyalties = field(default_factory=OfcRoyalties)
    fantasyland: Fantasyland = field(default_factory=Fantasyland)

    @model_validator(mode="after")
    def _dealt_from_one_deck(self):
        need = self.players * self.cards_per_hand
        if need > 52:
            raise ValueError(f"deal: each player sees {self.cards_per_hand} cards (first + rounds x draw), "
                             f"{need} for {self.players} players, more than the deck's 52")
        return self

    @property
    def cards_per_hand(self):
        """Cards a player sees in a normal hand (placed and discarded)."""
        return self.deal.first + self.deal.rounds * self.deal.draw

    def check_players(self, players):
        most = 52 // max(self.cards_per_hand, *self.fantasyland.entry.values())
        if not 2 <= players <= min(3, most):
            raise ValueError(f"{self.id} is played by 2 to {min(3, most)} players, not {players}")

    @cached_property
    def tables(self):
        return OfcTables.of(self)


@dataclass(frozen=True, eq=False)
class OfcTables:
    """A ruleset as the kernels take it (kernels/ofc.py)."""

    royalty: np.ndarray  # int32 (3, N_STRENGTHS)
    stay: np.ndarray  # bool (3, N_STRENGTHS)
    entry: np.ndarray  # int8 (N_STRENGTHS,): cards dealt next hand, 0 = none
    scores: np.ndarray  # int64 (row, scoop)
    worth_milli: int

    @classmethod
    def of(cls, rules):
        category = CATEGORY_OF.astype(np.int64)
        packed = ORDINAL_TO_PACKED.astype(np.int64)
        top = (packed >> 16) & 15  # the first nibble: rank + 1 of the top group or card
        royal = (category == 8) & (top == 13)
        names = np.array(_CATEGORIES)[np.where(royal, 9, category)]
        five = ~THREE_CARD
        royalty = np.zeros((3, N_STRENGTHS), np.int32)
        for row, table in ((1, rules.royalties.middle), (2, rules.royalties.back)):
            for name, points in table.items():
                royalty[row, five & (names == name)] = points
        rank = np.clip(top - 1, 0, 12)
        pair = THREE_CARD & (category == 1)
        trips = THREE_CARD & (category == 3)
        royalty[0, pair] = np.array(rules.royalties.front_pair)[rank[pair]]
        royalty[0, trips] = np.array(rules.royalties.front_trips)[rank[trips]]

        fl = rules.fantasyland
        stay = np.zeros((3, N_STRENGTHS), np.bool_)
        stay[0] = trips & fl.stay_front_trips
        stay[1] = five & (category >= 6) & fl.stay_middle_full_house
        stay[2] = five & (category >= 7) & fl.stay_back_quads
        entry = np.zeros(N_STRENGTHS, np.int8)
        for key, cards in sorted(fl.entry.items(), key=lambda kv: _ENTRY_KEYS.index(kv[0])):
            reached = trips if key == "trips" else (trips | (pair & (rank >= RANKS.index(key[0]))))
            entry[reached] = cards
        return cls(royalty, stay, entry, np.array([rules.scoring.row, rules.scoring.scoop], np.int64),
                   round(1000 * fl.worth))


def ofc_rules_ids():
    return sorted(p.stem for p in OFC_DIR.glob("*.toml"))


def load_ofc_rules(name):
    """An OFC ruleset by id (``"ofc-pineapple"``) or by path to a TOML file; a 13-card
    ruleset is refused in a sentence that says so (:func:`_not_thirteen_card`)."""
    if isinstance(name, OfcRuleset):
        return name
    try:
        data, path = read_ruleset(str(name), OFC_DIR)
    except RulesetError:
        _not_thirteen_card(name)  # a 13-card id, or a file that extends one
        raise
    _not_thirteen_card(name, data, path)
    return build_ruleset(OfcRuleset, data, path)


def _not_thirteen_card(name, data=None, path=None):
    """Refuse a 13-card Chinese Poker ruleset given where an Open-Face one is wanted: without
    this, every key of it is listed as unknown, on one line of some 900 characters.  It is one
    when its keys are all the 13-card ruleset's and one at least is not Open-Face's (a file of
    Open-Face keys, a misspelt one among them, keeps its key-by-key errors).  ``data`` not
    given: ``name`` did not read as an Open-Face ruleset; read as a 13-card one, it may be."""
    if data is None:
        try:
            data, path = read_ruleset(str(name), RULESET_DIR)
        except RulesetError:
            return
    keys = set(data)
    if not (keys <= _THIRTEEN_CARD_KEYS and keys - _OFC_KEYS):
        return
    what = path if Path(str(name)).suffix == ".toml" else repr(str(name))
    raise RulesetError(f"{what} is a 13-card Chinese Poker ruleset (for best, simulate, match and the other "
                       f"13-card commands), not an Open-Face one: use {', '.join(ofc_rules_ids())} or a TOML "
                       f"file extending one")


_THIRTEEN_CARD_KEYS = {f.name for f in fields(Ruleset)}
_OFC_KEYS = {f.name for f in fields(OfcRuleset)}


# --------------------------------------------------------------------------------------------
# Boards as text
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """Cards placed so far, row by row (each a uint8 array of at most 3, 5, 5 codes)."""

    rows: tuple = (np.zeros(0, np.uint8),) * 3

    @property
    def cards(self):
        return np.concatenate(self.rows).astype(np.uint8)

    @property
    def placed(self):
        return sum(len(r) for r in self.rows)

    @property
    def complete(self):
        return self.placed == 13

    def room(self):
        return tuple(size - len(r) for size, r in zip(ROW_SIZES, self.rows))

    def __str__(self):
        return " | ".join(format_cards(r) if len(r) else "-" for r in self.rows)


def parse_board(text, what="board"):
    """A board ``front | middle | back`` (rows may be short; ``-`` or nothing for an empty row)."""
    parts = text.split("|") if text.strip() else ["", "", ""]
    if len(parts) != 3:
        raise ValueError(f"{what} {text!r}: write three rows 'front | middle | back' "
                         f"(a row may be '-' or empty)")
    rows = []
    for name, size, part in zip(ROWS, ROW_SIZES, parts):
        part = "" if part.strip() == "-" else part
        cards = parse_cards(part, what=f"{what}'s {name}")
        if len(cards) > size:
            raise ValueError(f"{what}'s {name} holds {size} cards, got {len(cards)}: {part.strip()}")
        rows.append(cards)
    board = Board(tuple(rows))
    check_distinct([(what, board.cards)])
    return board


class CardClash(ValueError):
    """A card given twice; ``group`` names where it was given the second time."""

    def __init__(self, message, group):
        super().__init__(message)
        self.group = group


def check_distinct(groups):
    """Refuse a card in two places (:class:`CardClash`): ``groups`` is a list of (name, codes)."""
    seen = {}
    for name, codes in groups:
        for code in codes:
            code = int(code)
            if code in seen:
                where = name if seen[code] == name else f"{seen[code]} and in {name}"
                raise CardClash(f"card {format_cards([code])} is given twice (in {where})", name)
            seen[code] = name


def board_array(board):
    """A complete board as the kernels' 13 codes (front, middle, back)."""
    if not board.complete:
        raise ValueError(f"board {board} is not complete ({board.placed} of 13 cards)")
    return board.cards
