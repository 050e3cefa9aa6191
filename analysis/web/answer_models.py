"""The bodies of the core routes' successful answers (:mod:`sapsam.web.app`): one model per
answer, each field as the command line's ``--json`` writes it, so that the OpenAPI document
(``/openapi.json``, ``/docs``) types every answer.  The routes send their JSON as it is built
(:mod:`sapsam.output.answers`, :mod:`sapsam.measure`); these models document it and the tests
hold the two to each other.

Points are units of the ruleset's scoring, per hand, from the player's seat; a share is from 0
to 1; an interval is a 95% one, ``[low, high]``.  Cards are text, strongest first: ``"As Kd
Qh"``; a setting is ``"front | middle | back"``."""

from typing import Annotated, Literal

from pydantic import Field, RootModel

from sapsam.game.mechanisms import (
    Bank,
    Extras,
    Fouls,
    Match,
    Middle,
    Naturals,
    Pool,
    Royalties,
    Scoring,
    SingleWinner,
    Surrender,
    Table,
    WheelRank,
)
from sapsam.web.contract import Answer
from sapsam.web.requests import ChartJob, ExploitJob, HousewayJob, SimulateJob


def absent(description):
    """A field the answer leaves out where it does not apply (never ``null``)."""
    return Field(default=None, description=description,
                 json_schema_extra=lambda schema: schema.pop("default", None))


Interval = Annotated[list[float], Field(min_length=2, max_length=2)]  # [low, high]
Share = Annotated[float, Field(ge=0, le=1)]
SETTING = 'A setting, "front | middle | back"; or "natural (<kind>)" or "surrender".'

# --- the rulesets ------------------------------------------------------------------------------


class RulesetList(RootModel[dict[str, str]]):
    """Every named ruleset's one-line description, by its id: a map, so a root model (it names
    no fields of its own)."""


class RulesetAnswer(Answer):
    """One ruleset in full: the shape of its TOML file (docs/rulesets.md).  Its sections are
    the game's own models (:mod:`sapsam.game.mechanisms`), which forbid unknown fields too."""

    id: str
    name: str
    source: str = Field(description="Where the rules come from.")
    defaults: list[str] = Field(description="Every default chosen where the source is silent.")
    options: list[str] = Field(description="Variants the source names, and how to select them.")
    players: int = Field(ge=2, le=4, description="Its usual table size.")
    wheel_rank: WheelRank
    scoring: Scoring
    royalties: Royalties
    naturals: Naturals
    surrender: Surrender
    fouls: Fouls
    middle: Middle
    table: Table
    bank: Bank
    pool: Pool
    single_winner: SingleWinner
    match: Match
    extras: Extras


# --- settings ----------------------------------------------------------------------------------


class FrontierMember(Answer):
    setting: str = Field(description='"front | middle | back".')
    split: int = Field(description="The split's index (0 to 72,071) among the ways to set the sorted hand.")
    strengths: list[int] = Field(description="Each row's strength on the ruleset's scale (higher wins).")
    rows: list[str] = Field(description="Each row's hand in words, front first.")
    same: int = Field(description="Legal settings with these very strengths, this one included.")


class SettingsAnswer(Answer):
    """A hand's legal settings and their Pareto frontier: no member is beaten row by row by
    another setting."""

    hand: str
    legal: int = Field(description="Legal settings (no foul) of the 72,072 splits.")
    distinct: int = Field(description="Distinct strength triples among them.")
    frontier: list[list[str]] = Field(description="Each member's rows as [front, middle, back].")
    details: list[FrontierMember]


# --- best, review, houseway --------------------------------------------------------------------


class RowShares(Answer):
    """Against each opponent's row: the share won, tied and lost (0-1)."""

    win: Share
    tie: Share
    loss: Share


class RowsShares(Answer):
    front: RowShares
    middle: RowShares
    back: RowShares


class Candidate(Answer):
    """A decision for the hand, with what it earns against the sampled opponents."""

    setting: str = Field(description=SETTING)
    ev: float = Field(description="Expected points per hand.")
    ci: Interval = Field(description="The EV's 95% interval, [low, high].")
    gap: float = Field(description="EV less the best's, paired on the same tables (<= 0).")
    gap_ci: Interval = Field(description="The gap's paired 95% interval; [0, 0] for the best.")
    distinguishable: bool = Field(description="The gap's interval lies below 0: worse than the best at 95%.")
    samples: int = Field(description="Sampled tables it met (fewer once dropped from a race by precision).")
    rows: RowsShares = Field(description="Each row against the opponents' rows (all 0 for a natural or "
                                         "surrender).")
    sweep: Share = Field(description="Share of opponents it beats in all three rows (0-1).")
    swept: Share = Field(description="Share of opponents that beat it in all three rows (0-1).")
    royalty_ev: float = Field(description="Royalty points per hand, net.")


class BestAnswer(Answer):
    """The hand's decisions ranked by EV, best first (sapsam best --json)."""

    hand: str
    rules: str
    other_hand: str = absent("The player's other hand: criss-cross only.")
    players: int
    opponents: str = Field(description="The opponents' policy.")
    samples: int = Field(description="Sampled opponent tables.")
    seed: int
    candidates: list[Candidate]


class MatchCandidate(Answer):
    """A decision ranked by the chance of winning the match, beside the deal's points."""

    setting: str = Field(description=SETTING)
    win: float = Field(description="Chance of winning the match after this deal (0-1).")
    win_ci_low: float = Field(description="Its 95% interval's low end.")
    win_ci_high: float
    win_gap: float = Field(description="Chance of winning less the best's, paired (<= 0).")
    win_gap_ci_low: float
    win_gap_ci_high: float
    points: float = Field(description="Match points of this deal (a point per row won; a sweep's bonus).")
    points_ci_low: float
    points_ci_high: float


class MatchBestAnswer(Answer):
    """With ``scores``: the hand's settings ranked by the chance of winning the match
    (sapsam best --score --json)."""

    hand: str
    rules: str
    scores: list[int] = Field(description="The match's score before this deal, the player's first.")
    opponents: str = Field(description="The opponents' policy.")
    samples: int
    seed: int
    win_now: float = Field(description="Chance of winning the match before the deal (the field's, 0-1).")
    match_best: str = Field(description="The setting most likely to win the match.")
    points_best: str = Field(description="The setting with the most points this deal.")
    candidates: list[MatchCandidate]


class Graded(Answer):
    """A decision graded against the best for its hand: what review and houseway share."""

    rank: int = Field(description="The decision's rank among the candidates, from 1.")
    candidates: int
    ev: float = Field(description="The decision's expected points per hand.")
    ci: Interval = Field(description="The EV's 95% interval.")
    best: str = Field(description=SETTING)
    best_ev: float
    best_ci: Interval = Field(description="The best's EV's 95% interval.")
    loss: float = Field(description="The best's EV less the decision's, paired (>= 0).")
    loss_ci: Interval = Field(description="The loss's paired 95% interval.")
    distinguishable: bool = Field(description="The loss's interval lies above 0.")
    samples: int


class ReviewAnswer(Graded):
    """A played setting against the best decision for its hand (sapsam review --json)."""

    setting: str = Field(description="The played setting, rows strongest card first.")
    legal: bool = Field(description="False for a foul.")
    held_out_loss: float | None = Field(None, description=(
        "Asked with held_out: the loss against the best chosen, measured on tables of their own (a "
        "lower estimate of the loss); absent otherwise."))
    held_out_ci: Interval | None = Field(None, description="Its 95% interval.")


class ChartLine(Answer):
    row: str = Field(description="front, middle or back.")
    line: str = Field(description="The house way's chart line that scores the row.")
    points: float = Field(description="The chart's points for it (the house way's scale, not the game's).")


class HouseWayDecision(Answer):
    """How the house way sets the hand, and which of its rules decided it."""

    rule: int = Field(description="The deciding rule's number.")
    decision: str = Field(description=SETTING)
    reason: str
    lines: list[ChartLine] = Field(description="Per row of a setting; empty for a natural or surrender.")
    total: float = Field(description="The chart total of the setting played.")
    tied: int = Field(description="Frontier settings sharing the highest total.")


class HouseWayAnswer(Graded):
    """The house way's decision for the hand, graded against the best (sapsam houseway HAND --json)."""

    hand: str
    rules: str
    players: int
    opponents: str = Field(description="The opponents' policy.")
    seed: int
    houseway: HouseWayDecision


# --- score -------------------------------------------------------------------------------------

Units = Annotated[float, Field(description="Units: whole numbers, fractions in a pool game.")]


class RowWinners(Answer):
    """Each row's winner: a seat's name, or "tie"."""

    front: str
    middle: str
    back: str


class Breakdown(Answer):
    """The units to the pair's first seat by their source, before any chip limit."""

    rows: float
    royalties: float
    bonus: float = Field(description="Sweeps, scoops, the overall point.")
    naturals: float
    surrender: float
    aces: float = Field(description="The aces bet.")
    total: float


class ScorePair(Answer):
    """Two seats compared (none in a pool, single-winner or match game)."""

    seats: list[int] = Field(description="The two seats, counted from 0.")
    names: list[str]
    rows: RowWinners | None = Field(description="null where the pair was settled without comparing rows "
                                                "(a natural, a surrender).")
    units: Units = Field(description="Units the first seat wins from the second, as paid (chips can limit "
                                     "it; negative: it pays).")
    breakdown: Breakdown


class ScoreAnswer(Answer):
    """A settled showdown (sapsam score --json)."""

    rules: str
    names: list[str]
    status: list[str] = Field(description='Per seat: "set", "foul", "natural: <kind>" or "surrender".')
    totals: list[Units] = Field(description="Net units per seat.")
    pairs: list[ScorePair]
    players: dict[str, Units] = absent('Criss-cross: net units per player (two seats each), '
                                              'e.g. {"P1+P2": -4}.')


# --- jobs --------------------------------------------------------------------------------------


class Progress(Answer):
    stage: str = Field(description="The stage the job is at, e.g. \"tables\".")
    done: float
    total: float | None


class SimulateSeat(Answer):
    """One seat of one ruleset over the simulated tables (a row of the report's seats.csv): its
    units per hand (mean, SD and 95% interval, null where one hand leaves them undefined), how
    often each event came its way, with the 95% interval of that count, and the hands it held
    the bank."""

    ruleset: str
    seat: int = Field(ge=1, description="Counted from 1.")
    policy: str
    hands: int
    total_units: float
    mean: float
    sd: float | None
    ci_low: float | None
    ci_high: float | None
    fouls: int
    surrenders: int
    naturals: int
    sweeps_given: int
    sweeps_taken: int
    home_runs: int
    bank_hands: int
    fouls_low: float
    fouls_high: float
    surrenders_low: float
    surrenders_high: float
    naturals_low: float
    naturals_high: float
    sweeps_given_low: float
    sweeps_given_high: float
    sweeps_taken_low: float
    sweeps_taken_high: float
    home_runs_low: float
    home_runs_high: float


class SimulateResult(Answer):
    seats: list[SimulateSeat] = Field(description="Every ruleset's seats, ruleset by ruleset: the "
                                                   "rows of the report's seats.csv.")


class ExploitResult(Answer):
    """How much a best response wins against the policy (sapsam exploit --json), units a hand."""

    gap: float = Field(description="On held-out deals.")
    ci: Interval
    gap_in_sample: float = Field(description="On the deals the best responses were chosen on.")
    ci_in_sample: Interval
    deals: int
    hands: int
    samples: int


class HousewayResult(Answer):
    """A house way derived for the ruleset, and what it costs against the fitted policy."""

    rules: str
    players: int
    house_way: str = Field(description="Its rules, as Markdown.")
    cost: float = Field(description="Units a hand it gives up to the fitted policy.")
    ci: Interval
    tables: int


class ChartResult(Answer):
    chart: str
    files: list[str] = Field(description="The figures it drew: GET /api/jobs/{job_id}/files/{name}.")


class _Job(Answer):
    """A job of the server: what it does, how far it is, and what it left."""

    id: str
    state: Literal["queued", "running", "done", "failed", "cancelled"]
    progress: Progress
    error: str = Field(description="Why it failed; empty otherwise.")
    files: list[str] = Field(description="The files it wrote: GET /api/jobs/{job_id}/files/{name}.")
    seconds: float | None = Field(description="How long it ran, once it has stopped.")


class SimulateJobAnswer(_Job):
    kind: Literal["simulate"]
    params: SimulateJob = Field(description="The body it was started with, defaults filled in.")
    result: SimulateResult | None = Field(description="Once done: the report's seats.")


class ExploitJobAnswer(_Job):
    kind: Literal["exploit"]
    params: ExploitJob = Field(description="The body it was started with, defaults filled in.")
    result: ExploitResult | None = Field(description="Once done: what sapsam exploit --json holds.")


class HousewayJobAnswer(_Job):
    kind: Literal["houseway"]
    params: HousewayJob = Field(description="The body it was started with, defaults filled in.")
    result: HousewayResult | None = Field(description="Once done: the house way and its cost.")


class ChartJobAnswer(_Job):
    kind: Literal["chart"]
    params: ChartJob = Field(description="The body it was started with, defaults filled in.")
    result: ChartResult | None = Field(description="Once done: the figures it drew.")


Job = Annotated[SimulateJobAnswer | ExploitJobAnswer | HousewayJobAnswer | ChartJobAnswer,
                Field(discriminator="kind")]
