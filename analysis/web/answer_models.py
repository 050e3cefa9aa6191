"""The bodies of the core routes' successful answers (:mod:`sapsam.web.app`): one model per
answer, each field as the command line's ``--json`` writes it, so that the OpenAPI document
(``/openapi.json``, ``/docs``) types every answer.  The routes send their JSON as it is built
(:mod:`sapsam.output.answers`, :mod:`sapsam.measure`); these models document it and the tests
hold the two to each other.

Points are units of the ruleset's scoring, per hand, from the player's seat; a share is from 0
to 1; an interval is a 95% one, ``[low, high]``.  Cards are text, strongest first: ``"As Kd
Qh"``; a setting is ``"front | middle | back"``."""

from typing import Annotated

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
    loss: float = Field(description="The best's EV less the decision's, paired (>= 0).")
    loss_ci: Interval = Field(description="The loss's paired 95% interval.")
    distinguishable: bool = Field(description="The loss's interval lies above 0.")
    samples: int


class ReviewAnswer(Graded):
    """A played setting against the best decision for its hand (sapsam review --json)."""

    setting: str = Field(description="The played setting, rows strongest card first.")
    legal: bool = Field(description="False for a foul.")


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
