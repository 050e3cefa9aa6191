"""Pai Gow's web routes (``/api/paigow/...``) and the script of its tab in the page: the same
JSON as ``sapsam paigow best --json`` and ``sapsam paigow table --json``."""

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from pydantic import Field

from sapsam.paigow.game import parse_tiles
from sapsam.paigow.output import best_answer, table_answer
from sapsam.paigow.strategy import HIGH_SIX_READINGS
from sapsam.web.checks import checking
from sapsam.web.contract import answers
from sapsam.web.page import Page
from sapsam.web.requests import TEXT, Body

router = APIRouter()
page = Page.beside(__file__, "Pai Gow", "/games/paigow.js")  # its tab in the page


class PaiGowRequest(Body):
    tiles: Annotated[str, Field(max_length=TEXT, description='Four Pai Gow tiles, e.g. "6-6 1-1 '
                                                             '4-2 5-3" or "teen day gee joon eight".')]
    banking: bool = False
    commission: Annotated[float, Field(ge=0, lt=1, description="On a winning bet, e.g. 0.05.")] = 0.05


@router.post("/api/paigow/best", summary="Rank four Pai Gow tiles' settings exactly (sapsam paigow best --json)",
             responses=answers(400, 422))
def paigow_best(body: PaiGowRequest):
    with checking("tiles"):
        tiles = parse_tiles(body.tiles)
    return best_answer(tiles, body.banking, body.commission)


@router.get("/api/paigow/table", summary="Pai Gow's house-edge table (sapsam paigow table --json)",
            responses=answers(422))
def paigow_table(high_three: Annotated[Literal[HIGH_SIX_READINGS], Query(description=(
        'The house way\'s "lower than a high 3" is a 3 topped by a tile below this one: chong '
        '(3-3, the booklet\'s "High 6") or teen (6-6, the other reading of it).'))] = "chong"):
    return table_answer(high_three)


@router.get("/games/paigow.js", include_in_schema=False)
def script():
    return FileResponse(Path(__file__).with_name("web.js"), media_type="text/javascript")
