"""The bodies the web API accepts, with the limits that keep one request from taking the
machine.  Pydantic checks their shape and bounds (a 422 naming the field); what only the game
can check (cards, settings, ruleset ids) is checked by the routes (:mod:`sapsam.web.checks`, a 400
naming the field).  Every game's own bodies are beside its routes."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from sapsam.play.names import POLICY_NAMES

# per request: the CLI's defaults are well inside these
MAX_SAMPLES = 100_000  # best, review: sampled opponent tables
MAX_TABLES = 200_000  # simulate: tables; houseway: paired tables
MAX_DEALS = 1_000  # exploit
MAX_CHART_SAMPLES = 50_000
MAX_BODY = 64 * 1024  # bytes of a request body
TEXT = 200  # characters of a hand, a setting or a ruleset id

Policy = Literal[tuple(POLICY_NAMES)]
Players = Annotated[int, Field(ge=2, le=4, description="Players at the table, 2 to 4.")]
Seed = Annotated[int, Field(ge=0, lt=2**63, description="Seed of the random streams.")]
Rules = Annotated[str, Field(max_length=TEXT, description="A named ruleset's id (GET /api/rules).")]
Hand = Annotated[str, Field(max_length=TEXT, description='13 cards, e.g. "As Kd Qh Jc Ts 9s 9h '
                                                         '5c 5d 4h 3s 2c 2d".')]


class Body(BaseModel):
    """A request body: unknown fields are refused, not ignored, and each field takes only its own
    JSON type: no ``true``/``false`` or ``"5"`` for a number, no ``5.0`` for a whole number, no
    ``1`` for a boolean or a number for a string (a 422 naming the field)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SettingsRequest(Body):
    hand: Hand
    wheel_rank: Literal["ace-low", "second"] = "ace-low"
    rules: Rules | None = None  # a ruleset's scales instead of wheel_rank


class HandRequest(Body):
    """One hand against sampled opponents: what best, review and houseway share."""

    hand: Hand
    rules: Rules = "standard"
    players: Annotated[Players | None, Field(description="The table's size; null or left out: the "
                                                         "ruleset's (4, or 2 in criss-cross).")] = None
    other: Hand | None = None  # criss-cross: the player's other hand
    opponents: Policy = "fitted"
    samples: Annotated[int, Field(ge=100, le=MAX_SAMPLES)] = 10_000
    seed: Seed = 0


class BestRequest(HandRequest):
    top: Annotated[int | None, Field(ge=1)] = None
    precision: Annotated[float | None, Field(gt=0)] = None
    scores: Annotated[list[Annotated[int, Field(ge=0, le=99)]] | None,
                      Field(min_length=2, max_length=4, description=(
                          "A match's score (first-to-11), yours first, one per player: rank by "
                          "the chance of winning the match (sapsam best --score)."))] = None


class ReviewRequest(HandRequest):
    setting: Annotated[str, Field(max_length=TEXT, description='"front | middle | back", e.g. '
                                                               '"5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"; '
                                                               'or "surrender", or "natural" declared.')]
    held_out: bool = Field(False, description=(
        "Also measure the loss against the best chosen on as many tables of their own (held_out_loss, "
        "a lower estimate; the ranking's own loss leans high where settings are near-tied), as sapsam "
        "review always does. About twice the time."))


class ScoreRequest(Body):
    rules: Rules = "standard"
    settings: Annotated[list[Annotated[str, Field(max_length=TEXT)]],
                        Field(min_length=2, max_length=4,
                              description="One declaration per seat: 'front | middle | back', "
                                          "'natural:<13 cards>' or 'surrender:<13 cards>'.")]
    names: Annotated[list[Annotated[str, Field(max_length=40)]] | None,
                     Field(max_length=4)] = None
    bank: Annotated[int | None, Field(ge=1, le=4, description="The bank's seat, 1-based.")] = None
    chips: Annotated[list[Annotated[int, Field(ge=0)]] | None, Field(max_length=4)] = None


class SimulateJob(Body):
    kind: Literal["simulate"]
    rules: Annotated[list[Rules], Field(min_length=1, max_length=32)] = ["standard"]
    players: Annotated[Players | None, Field(description="The table's size; null or left out: the "
                                                         "first ruleset's.")] = None
    seats: Annotated[list[Policy], Field(min_length=1, max_length=4)] = ["fitted"]
    tables: Annotated[int, Field(ge=1, le=MAX_TABLES)] = 20_000
    seed: Seed = 0
    block_size: Annotated[int, Field(ge=100, le=10_000)] = 500


class ExploitJob(Body):
    kind: Literal["exploit"]
    rules: Rules = "two-four"
    players: Players = 2
    policy: Policy = "fitted"
    deals: Annotated[int, Field(ge=1, le=MAX_DEALS)] = 100
    samples: Annotated[int, Field(ge=4, le=MAX_SAMPLES)] = 2000
    seed: Seed = 0


class HousewayJob(Body):
    kind: Literal["houseway"]
    rules: Rules = "standard"
    players: Annotated[Players | None, Field(description="The table's size; null or left out: the "
                                                         "ruleset's.")] = None
    tables: Annotated[int, Field(ge=1, le=MAX_TABLES)] = 20_000
    seed: Seed = 0


class ChartJob(Body):
    kind: Literal["chart"]
    chart: Literal["rows", "front", "declare", "policies", "rulesets", "match"] = "policies"
    rules: Annotated[Rules | None, Field(description="A named ruleset's id (rulesets: or 'all'); default "
                                                     "standard, first-to-11 for the match chart.")] = None
    players: Annotated[Players | None, Field(description="The table's size; null or left out: the "
                                                         "ruleset's (a rulesets chart: 4).")] = None
    samples: Annotated[int | None, Field(ge=1, le=MAX_CHART_SAMPLES)] = None
    seed: Seed = 0
    policies: Annotated[list[Policy], Field(min_length=1, max_length=6)] = ["greedy", "balanced"]


JOBS = (SimulateJob, ExploitJob, HousewayJob, ChartJob)
JOB_KINDS = tuple(job.model_fields["kind"].annotation.__args__[0] for job in JOBS)
JobRequest = Annotated[SimulateJob | ExploitJob | HousewayJob | ChartJob,
                       Field(discriminator="kind")]
