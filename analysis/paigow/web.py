"""Pai Gow's web routes (``/api/paigow/...``) and the script of its tab in the page: the same
JSON as ``sapsam paigow best --json`` and ``sapsam paigow table --json``, each answer with its
model for the OpenAPI document."""

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from pydantic import Field

from sapsam.paigow.game import parse_tiles
from sapsam.paigow.output import best_answer, table_answer
from sapsam.paigow.strategy import HIGH_SIX_READINGS
from sapsam.web.answer_models import Share
from sapsam.web.checks import checking
from sapsam.web.contract import Answer, answers
from sapsam.web.page import Page
from sapsam.web.requests import TEXT, Body

router = APIRouter()
page = Page.beside(__file__, "Pai Gow", "/games/paigow.js")  # its tab in the page


class PaiGowRequest(Body):
    tiles: Annotated[str, Field(max_length=TEXT, description='Four Pai Gow tiles, e.g. "6-6 1-1 '
                                                             '4-2 5-3" or "teen day gee joon eight".')]
    banking: bool = False
    commission: Annotated[float, Field(ge=0, lt=1, description="On a winning bet, e.g. 0.05.")] = 0.05


class Pair(Answer):
    """One hand of a setting: two tiles."""

    tiles: list[str] = Field(description='Each tile by its dots, e.g. "6-6".')
    names: list[str] = Field(description='Each tile with its name, e.g. "6-6 teen".')
    hand: str = Field(description='The hand in words, e.g. "gong (teen)" or "8 (high day)".')


class PaiGowSetting(Answer):
    """A setting of the four tiles against every hand of the house way's banker, exactly."""

    low: Pair
    high: Pair
    win: Share = Field(description="The chance it wins (0-1); push and loss alike.")
    push: Share
    loss: Share
    value: float = Field(description="Its expected value per unit bet, the commission paid.")
    house_way: bool = Field(description="The house way's own setting.")
    best: bool = Field(description="The setting worth most.")


class PaiGowBestAnswer(Answer):
    """Four tiles' distinct settings, best first (sapsam paigow best --json)."""

    tiles: list[str] = Field(description="The tiles by their dots.")
    banking: bool
    commission: float = Field(description="On a winning bet, e.g. 0.05.")
    opponent: str = Field(description="Whom the hand plays.")
    deals: int = Field(description="The banker's hands counted: every four of the tiles left.")
    settings: list[PaiGowSetting]


class EdgeRow(Answer):
    """A strategy against the house way: exact chances and the house edge."""

    strategy: Literal["house way", "optimal"]
    opponent: Literal["house way"]
    banking: bool
    commission: float
    win: Share = Field(description="The player's chance of winning (0-1); loss and push alike.")
    loss: Share
    push: Share
    house_edge: float = Field(description="Per unit bet: the loss less the win after commission.")


class PaiGowTableAnswer(Answer):
    """Pai Gow's house-edge table (sapsam paigow table --json)."""

    source: str = Field(description="Where the published table is.")
    high_three: str = Field(description='The tile that tops the house way\'s lowest "high 3", e.g. "chong".')
    rows: list[EdgeRow]


@router.post("/api/paigow/best", summary="Rank four Pai Gow tiles' settings exactly (sapsam paigow best --json)",
             responses=answers(400, 422, ok=(200, PaiGowBestAnswer, "The settings, best first.")))
def paigow_best(body: PaiGowRequest):
    with checking("tiles"):
        tiles = parse_tiles(body.tiles)
    return best_answer(tiles, body.banking, body.commission)


@router.get("/api/paigow/table", summary="Pai Gow's house-edge table (sapsam paigow table --json)",
            responses=answers(422, ok=(200, PaiGowTableAnswer, "The table.")))
def paigow_table(high_three: Annotated[Literal[HIGH_SIX_READINGS], Query(description=(
        'The house way\'s "lower than a high 3" is a 3 topped by a tile below this one: chong '
        '(3-3, the booklet\'s "High 6") or teen (6-6, the other reading of it).'))] = "chong"):
    return table_answer(high_three)


@router.get("/games/paigow.js", include_in_schema=False)
def script():
    return FileResponse(Path(__file__).with_name("web.js"), media_type="text/javascript")
