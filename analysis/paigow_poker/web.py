"""Pai Gow Poker's web routes (``/api/paigow-poker/...``) and the script of its tab: the same
JSON as ``sapsam paigow-poker best --json`` and ``house-ways --json``, and the shipped strategy
chart (``chart --json`` of the committed run, less its departing hands) with its figure; each
answer with its model for the OpenAPI document."""

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse, Response
from pydantic import Field

from sapsam.paigow_poker.game import parse_deck, parse_hand
from sapsam.paigow_poker.output import best_answer, house_ways_answer
from sapsam.paigow_poker.strategy import SECTIONS, house_way, house_way_ids
from sapsam.web.answer_models import Share
from sapsam.web.checks import checking
from sapsam.web.contract import PNG, Answer, answers
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


# --- the answers' models: money is per unit bet (0.01 is a point, a percent of the bet) ----------

class HouseWay(Answer):
    """A shipped house way."""

    id: str
    name: str
    casino: str
    source: str = Field(description="Where its rules are published.")
    note: str = Field(description="Its rules in short.")
    unstated: list[Literal[tuple(SECTIONS)]] = Field(description="The sections its source does not state, "
                                                                 "played as Foxwoods does.")


class HouseWaysAnswer(Answer):
    house_ways: list[HouseWay]


class PokerHand(Answer):
    cards: str = Field(description='The cards, e.g. "Jk As Kd Th 9s" (the joker "Jk").')
    hand: str = Field(description="The hand in words.")


class PokerSetting(Answer):
    """A setting against every dealer hand of the cards left, the dealer setting by the house way."""

    high: PokerHand = Field(description="The five-card hand.")
    low: PokerHand = Field(description="The two-card hand.")
    win: int = Field(description="Dealer hands it beats; push and loss alike.")
    push: int
    loss: int
    p_win: Share = Field(description="The chance it wins (0-1); p_push and p_loss alike.")
    p_push: Share
    p_loss: Share
    value: float = Field(description="Its expected value per unit bet, the commission paid.")
    gap: float = Field(description="Its value less the best's (<= 0).")
    house_way: bool = Field(description="The house way's own setting.")
    best: bool = Field(description="The setting worth most.")


class PaiGowPokerBestAnswer(Answer):
    """Seven cards' distinct legal settings, best first (sapsam paigow-poker best --json)."""

    cards: str
    house_way: HouseWay
    banking: bool
    commission: float
    wheel: Literal["second", "lowest"]
    dealer_hands: int = Field(description="The dealer hands counted: every seven of the cards left.")
    fouls: int = Field(description="The hand's settings (of 21) that foul, left out: the low above the high.")
    best_value: float
    house_way_value: float
    house_way_gives_up: float = Field(description="The best value less the house way's (>= 0).")
    settings: list[PokerSetting]


HALF_WIDTH = "Its 95% half-width; null where undefined (a single value)."


class DepartureRow(Answer):
    """A hand group and what the best play does instead of the house way, over the sampled hands."""

    group: str
    move: str = Field(description="What the best play does instead of the house way.")
    departures: int
    share: float = Field(description="Share of the sampled hands (0-1), with its Wilson 95% interval.")
    share_low: float
    share_high: float
    cost_per_departure: float = Field(description="Mean cost per departing hand, per unit bet.")
    cost_per_departure_half_width: float | None = Field(description=HALF_WIDTH)
    cost_per_hand: float = Field(description="Its part of the house way's cost per hand, per unit bet.")
    cost_per_hand_half_width: float | None = Field(description=HALF_WIDTH)
    example: str = Field(description="The costliest hand of these.")
    example_house: list[str] = Field(description="The house way's setting: high cards, low cards, high hand "
                                                 "and low hand in words.")
    example_best: list[str] = Field(description="The best setting, as example_house.")
    example_cost: float


class GroupCost(Answer):
    group: str
    hands: int
    departures: int
    cost_per_hand: float = Field(description="The group's part of the cost per hand, per unit bet.")
    cost_per_hand_half_width: float | None = Field(description=HALF_WIDTH)


class ChartBestPlay(Answer):
    """The best play's house edge against the house way: the house way's against itself less its cost."""

    house_way_edge: float = Field(description="The house way against itself, per unit bet.")
    house_way_half_width: float
    house_way_deals: int
    house_way_exact: bool
    edge: float
    half_width: float | None = Field(description=HALF_WIDTH)


class ChartHouseWay(Answer):
    """Where the best play departs from a house way, and what it costs."""

    house_way: HouseWay
    hands: int = Field(description="The sampled hands, each valued exactly.")
    departures: int = Field(description="Hands whose house way setting is worth less than the best.")
    share: float = Field(description="Their share (0-1), with its Wilson 95% interval.")
    share_low: float
    share_high: float
    cost_per_hand: float = Field(description="The house way's mean cost per hand, per unit bet.")
    half_width: float | None = Field(description=HALF_WIDTH)
    rows: list[DepartureRow] = Field(description="Costliest first.")
    best_play: ChartBestPlay | None = Field(description="null where the house way's own edge is not measured.")
    by_group: list[GroupCost] = Field(description="Every hand group, costliest first.")


class Published(Answer):
    """The published figures beside Foxwoods, not banking, 5% commission, the whole deck."""

    house_way: str
    house_way_edge: float
    best_play_edge: float
    best_play_note: str
    source: str
    best_play_source: str


class Provenance(Answer):
    """What the committed run was made with."""

    game: str
    hands: int
    seed: int
    sapsam: str
    numpy: str
    numba: str
    python: str
    git: str | None = Field(description="The checkout's short revision; null outside a repository.")
    date: str = Field(description="ISO 8601, UTC.")


class ChartAnswer(Answer):
    """The shipped strategy chart (sapsam paigow-poker chart --json, less its departing hands)."""

    hands: int
    seed: int
    banking: bool
    commission: float
    deck: str | None = Field(description="The cards the hands were drawn from; null for all 53.")
    house_ways: list[ChartHouseWay]
    published: Published | None
    provenance: Provenance


class BestPlayRow(Answer):
    """One side of the bet: the house way against itself, the best play's mean gain, and its edge."""

    banking: bool
    house_way_edge: float
    house_way_half_width: float
    house_way_exact: bool
    gain: float = Field(description="The best play's mean gain over the house way, per unit bet.")
    gain_half_width: float
    pooled_gain: float = Field(description="The gain of the many hands, against a pool of dealer hands.")
    pooled_half_width: float
    correction: float = Field(description="The few hands' exact gain less their pooled gain.")
    correction_half_width: float
    correlation: float | None = Field(description="Of the few hands' exact and pooled gains; null where "
                                                  "either is constant.")
    departs: Share = Field(description="Share of the few hands where the best play departs (0-1).")
    edge: float = Field(description="The best play's house edge: house_way_edge less gain.")
    half_width: float


class BestPlayHouseWay(Answer):
    house_way: HouseWay
    house_way_deals: int
    rows: list[BestPlayRow] = Field(description="Not banking, then banking.")


class BestPlayAnswer(Answer):
    """The best play's house edge against each shipped house way (sapsam paigow-poker best-play --json)."""

    hands: int = Field(description="Hands valued against the pool of dealer hands, per house way.")
    exact_hands: int = Field(description="Hands valued exactly too.")
    pool: int = Field(description="Dealer hands in the pool.")
    seed: int
    deck: list[int] | None = Field(description="The card codes the hands were drawn from; null for all 53.")
    commission: float
    wheel_second: bool
    edge_deals: int | None = Field(description="Deals of the house way against itself; null on a deck.")
    house_ways: list[BestPlayHouseWay]
    published: Published | None


@router.post("/api/paigow-poker/best", summary="Rank seven cards' settings exactly against a house way "
             "(sapsam paigow-poker best --json)",
             responses=answers(400, 422, ok=(200, PaiGowPokerBestAnswer, "The settings, best first.")))
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
            "house-ways --json)",
            responses=answers(ok=(200, HouseWaysAnswer, "Every shipped house way.")))
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
            "the committed run, less its departing hands)",
            responses=answers(404, 422, ok=(200, ChartAnswer, "The chart.")))
def paigow_poker_chart(banking: Annotated[bool, BANKING] = False):
    return _shipped(banking)


@router.get("/api/paigow-poker/best-play", summary="The best play's house edge against each shipped house "
            "way, banking and not, to about a hundredth of a point (sapsam paigow-poker best-play --json of "
            "the committed run)",
            responses=answers(404, ok=(200, BestPlayAnswer, "The best play's edges.")))
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
