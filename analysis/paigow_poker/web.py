"""Pai Gow Poker's web routes (``/api/paigow-poker/...``) and the script of its tab: the same
JSON as ``sapsam paigow-poker best --json`` and ``house-ways --json``, and the shipped strategy
chart (``chart --json`` of the committed run, less its departing hands) with its figure."""

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse, Response
from pydantic import Field

from sapsam.paigow_poker.game import parse_deck, parse_hand
from sapsam.paigow_poker.output import best_answer, house_ways_answer
from sapsam.paigow_poker.strategy import house_way, house_way_ids
from sapsam.web.checks import checking
from sapsam.web.contract import PNG, answers
from sapsam.web.page import Page
from sapsam.web.requests import TEXT, Body

router = APIRouter()
page = Page.beside(__file__, "Pai Gow Poker", "/games/paigow_poker.js")  # its tab in the page


class PaiGowPokerRequest(Body):
    cards: Annotated[str, Field(max_length=TEXT, description='Seven cards of the 53, the joker '
                                                             '"Jk": "Jk As Kd Th 9c 3s 2d".')]
    house_way: Annotated[str, Field(max_length=64, description="A shipped house way's id.")] = "foxwoods"
    banking: bool = False
    commission: Annotated[float, Field(ge=0, lt=1, description="On a winning bet, e.g. 0.05.")] = 0.05
    wheel: Literal["second", "lowest"] = "second"
    deck: Annotated[str | None, Field(max_length=TEXT, description="Draw the dealer's hands from "
                                      "these cards only (a check); all 53 by default.")] = None


@router.post("/api/paigow-poker/best", summary="Rank seven cards' settings exactly against a house way "
             "(sapsam paigow-poker best --json)", responses=answers(400, 422))
def paigow_poker_best(body: PaiGowPokerRequest):
    with checking("cards"):
        hand = parse_hand(body.cards)
    with checking("house_way"):
        if body.house_way not in house_way_ids():  # a web request never reads a file by its path
            raise ValueError(f"unknown house way {body.house_way!r}: the web API takes a shipped house "
                             f"way's id, one of {', '.join(house_way_ids())}")
        house_way(body.house_way)
    deck = None
    if body.deck is not None:
        with checking("deck"):
            deck = parse_deck(body.deck, hand)
    return best_answer(hand, body.house_way, body.banking, body.commission, body.wheel == "second", deck)


@router.get("/api/paigow-poker/house-ways", summary="The shipped house ways (sapsam paigow-poker "
            "house-ways --json)", responses=answers())
def paigow_poker_house_ways():
    return house_ways_answer()


BANKING = Query(description="The banker's chart (copies are the player's) instead of the player's.")


def _shipped(banking):
    from sapsam.paigow_poker.output.chart_files import shipped

    answer = shipped(banking)
    if answer is None:
        raise HTTPException(404, f"no strategy chart ships for {'banking' if banking else 'not banking'}")
    return answer


@router.get("/api/paigow-poker/chart", summary="The shipped strategy chart: where the best play departs "
            "from each house way, and the best play's house edge (sapsam paigow-poker chart --json of "
            "the committed run, less its departing hands)", responses=answers(404, 422))
def paigow_poker_chart(banking: Annotated[bool, BANKING] = False):
    return _shipped(banking)


@router.get("/api/paigow-poker/best-play", summary="The best play's house edge against each shipped house "
            "way, banking and not, to about a hundredth of a point (sapsam paigow-poker best-play --json of "
            "the committed run)", responses=answers(404))
def paigow_poker_best_play():
    from sapsam.paigow_poker.output.chart_files import shipped_best_play_edge

    answer = shipped_best_play_edge()
    if answer is None:
        raise HTTPException(404, "no best-play run ships")
    return answer


@lru_cache(maxsize=2)
def _figure(banking):
    from sapsam.paigow_poker.output.chart_files import figure_png

    return figure_png(_shipped(banking))


@router.get("/api/paigow-poker/chart.png", summary="The shipped strategy chart's figure: each house "
            "way's cost per hand by hand, with 95% intervals", responses=answers(404, 422) | {200: PNG},
            response_class=Response)
def paigow_poker_chart_figure(banking: Annotated[bool, BANKING] = False):
    return Response(_figure(banking), media_type="image/png")


@router.get("/games/paigow_poker.js", include_in_schema=False)
def script():
    return FileResponse(Path(__file__).with_name("web.js"), media_type="text/javascript")
