"""Open-Face's web routes (``/api/ofc/...``) and the script of its tab in the page: the same
JSON as ``sapsam ofc fantasyland --json`` and ``sapsam ofc place --json``, each answer with its
model for the OpenAPI document."""

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field

from sapsam.base.files import finite
from sapsam.game.cards import parse_cards
from sapsam.ofc.game import CardClash, load_ofc_rules, ofc_rules_ids, parse_board
from sapsam.ofc.measure.fantasyland import best_fantasyland, parse_fantasyland_cards
from sapsam.ofc.measure.place import ROLLOUT_POLICIES, parse_opponent, parse_position, rank_placements
from sapsam.web.checks import BadInput, checking, gate
from sapsam.web.contract import Answer, answers
from sapsam.web.page import Page
from sapsam.web.requests import TEXT, Body, Seed

router = APIRouter()
page = Page.beside(__file__, "Open-Face", "/games/ofc.js")  # its tab in the page

Rules = Annotated[str, Field(max_length=TEXT, description="An OFC ruleset's id: ofc-pineapple, "
                                                          "ofc-pineapple-progressive or ofc-classic.")]
Board = Annotated[str, Field(max_length=TEXT, description='"front | middle | back", rows may be short, '
                                                          'e.g. "As Ad | Kc Qc 5d | 9h 9s".')]
MAX_SAMPLES = 5_000  # rollouts of every placement


class FantasylandRequest(Body):
    cards: Annotated[str, Field(max_length=TEXT, description=(
        "A Fantasyland hand: as many cards as the ruleset deals there (13 to 17)."))]
    rules: Rules = "ofc-pineapple"


class PlaceRequest(Body):
    board: Board = ""
    hand: Annotated[str, Field(max_length=TEXT, description='The cards dealt now, e.g. "Ah 2c 7d".')]
    dead: Annotated[str, Field(max_length=TEXT, description="Cards known to be out.")] = ""
    opponents: Annotated[list[Annotated[str, Field(max_length=TEXT, description=(
        "An opponent's board, or 'fantasyland:N' for one in Fantasyland with N cards."))]],
        Field(max_length=2)] = []
    rules: Rules = "ofc-pineapple"
    samples: Annotated[int, Field(ge=32, le=MAX_SAMPLES)] = 500
    seed: Seed = 1


class FantasylandRow(Answer):
    cards: str
    hand: str = Field(description="The row's hand in words.")
    royalty: int = Field(description="Its royalty, in points.")


class FantasylandRows(Answer):
    front: FantasylandRow
    middle: FantasylandRow
    back: FantasylandRow


class FantasylandAnswer(Answer):
    """The best setting of a Fantasyland hand (sapsam ofc fantasyland --json)."""

    rules: str
    cards: str = Field(description="The hand, as given.")
    setting: str = Field(description='"front | middle | back".')
    rows: FantasylandRows
    discards: list[str] = Field(description='The cards left out, one card each, e.g. ["2d"].')
    royalties: int = Field(description="The three rows' royalties, in points.")
    stays: bool = Field(description="The board stays in Fantasyland for the next hand.")
    value: float = Field(description="What it is worth: the royalties, plus Fantasyland's worth if it stays "
                                     "(points).")
    seconds: float = Field(description="The solver's time.")


class Placement(Answer):
    """Where the cards in hand go, and what that is worth to the end of the hand."""

    setting: str = Field(description='The board after it, "front | middle | back" ("-" for an empty row).')
    discard: str = Field(description="The card discarded; empty where none is.")
    ev: float = Field(description="Expected points of the hand, Fantasyland's worth included.")
    ci_low: float = Field(description="The EV's 95% interval (the EV itself where exact).")
    ci_high: float
    gap: float = Field(description="EV less the best's, paired on the same deals (<= 0).")
    gap_low: float = Field(description="The gap's paired 95% interval.")
    gap_high: float
    exact: bool = Field(description="Its EV is exact: every deal left enumerated.")
    rollouts: int = Field(description="Rollouts it had (0 where exact).")
    dropped: bool = Field(description="Dropped from the race early, after fewer rollouts.")


class PlaceAnswer(Answer):
    """A decision's placements ranked by expected points, best first (sapsam ofc place --json)."""

    rules: str
    board: str = Field(description='Your board before it, "front | middle | back" ("-" for an empty row).')
    hand: str
    opponents: int = Field(description="How many opponents.")
    fantasyland: list[int] = Field(description="Per opponent: the cards it is dealt in Fantasyland, 0 if "
                                               "it builds.")
    samples: int = Field(description="Rollouts a placement; where exact, the deals enumerated.")
    policy: Literal[(*ROLLOUT_POLICIES, "exact")] = Field(description="Who plays the later streets in the "
                                                                        "rollouts; exact where enumerated.")
    exact: bool = Field(description="Every EV is exact.")
    race: bool = Field(description="Rolled out in a race: placements clearly worse than the leader dropped.")
    dropped: int = Field(description="Placements dropped early.")
    placements: list[Placement]


def _rules(rid):
    """A named OFC ruleset, checked (never a file by its path)."""
    if rid not in ofc_rules_ids():
        raise BadInput("rules", f"unknown ruleset {rid!r}: use one of {', '.join(ofc_rules_ids())}")
    return load_ofc_rules(rid)


@router.post("/api/ofc/fantasyland",
             summary="The best setting of an OFC Fantasyland hand (sapsam ofc fantasyland --json)",
             responses=answers(400, 422, ok=(200, FantasylandAnswer, "The best setting.")))
def fantasyland(body: FantasylandRequest):
    rules = _rules(body.rules)
    with checking("cards"):
        cards = parse_fantasyland_cards(body.cards, rules, naming='rules "{}"')
    return best_fantasyland(cards, rules).to_dict()


@router.post("/api/ofc/place", summary="Rank an OFC decision's placements by rollouts (sapsam ofc place --json)",
             responses=answers(400, 422, ok=(200, PlaceAnswer, "The placements, best first.")))
def place(body: PlaceRequest, request: Request):
    rules = _rules(body.rules)
    for field, check in (("board", lambda: parse_board(body.board)), ("hand", lambda: parse_cards(body.hand)),
                         ("dead", lambda: parse_cards(body.dead)),
                         ("opponents", lambda: [parse_opponent(b, i, rules)
                                                for i, b in enumerate(body.opponents)])):
        with checking(field):
            check()
    with checking("hand"):
        try:
            parse_position(rules, body.board, body.hand, body.dead, body.opponents)
        except CardClash as clash:  # in the field where the card was given again
            field = "opponents" if clash.group.startswith("opponent") else {"dead cards": "dead"}.get(
                clash.group, clash.group)
            raise BadInput(field, str(clash)) from None
    with gate(request):
        result = rank_placements(rules, body.board, body.hand, body.dead, body.opponents, body.samples,
                                 body.seed)
    return JSONResponse(finite(result.to_dict()))


@router.get("/games/ofc.js", include_in_schema=False)
def script():
    return FileResponse(Path(__file__).with_name("web.js"), media_type="text/javascript")
