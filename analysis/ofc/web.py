"""Open-Face's web routes (``/api/ofc/...``) and the script of its tab in the page: the same
JSON as ``sapsam ofc fantasyland --json`` and ``sapsam ofc place --json``."""

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field

from sapsam.base.files import finite
from sapsam.game.cards import parse_cards
from sapsam.ofc.game import CardClash, load_ofc_rules, ofc_rules_ids, parse_board
from sapsam.ofc.measure.fantasyland import best_fantasyland, parse_fantasyland_cards
from sapsam.ofc.measure.place import parse_opponent, parse_position, rank_placements
from sapsam.web.checks import BadInput, checking, gate
from sapsam.web.contract import answers
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
    cards: Annotated[str, Field(max_length=TEXT, description="13 to 17 cards of a Fantasyland hand.")]
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


def _rules(rid):
    """A named OFC ruleset, checked (never a file by its path)."""
    if rid not in ofc_rules_ids():
        raise BadInput("rules", f"unknown ruleset {rid!r}: use one of {', '.join(ofc_rules_ids())}")
    return load_ofc_rules(rid)


@router.post("/api/ofc/fantasyland",
             summary="The best setting of an OFC Fantasyland hand (sapsam ofc fantasyland --json)",
             responses=answers(400, 422))
def fantasyland(body: FantasylandRequest):
    rules = _rules(body.rules)
    with checking("cards"):
        cards = parse_fantasyland_cards(body.cards)
    return best_fantasyland(cards, rules).to_dict()


@router.post("/api/ofc/place", summary="Rank an OFC decision's placements by rollouts (sapsam ofc place --json)",
             responses=answers(400, 422))
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
