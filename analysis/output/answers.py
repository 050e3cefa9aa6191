"""The JSON answers of the one-hand commands, shared by the command line's ``--json`` and the
web API (:mod:`sapsam.web.app`), so that both give the same data for the same request, and
the typed results of the Python API (:mod:`sapsam.api`) whose ``to_dict()`` is that JSON.

``best`` answers with :meth:`sapsam.measure.best.BestResult.to_dict`; ``review`` with
:func:`sapsam.measure.review.review_of` (typed: :class:`ReviewResult`); the three functions
here have no result type in the layers below (typed: :class:`SettingsResult`,
:class:`RulesetList`, :class:`ScoreResult`).
"""

from dataclasses import dataclass, field, fields
from pathlib import Path

from sapsam.game import ruleset_files as _rules
from sapsam.game import settings as _settings
from sapsam.game.cards import format_cards
from sapsam.game.rules import Ruleset


def settings_frontier(hand, wheel_rank="ace-low", ruleset=None):
    """The frontier ``sapsam settings`` shows: under a ruleset's scales (an id, a TOML file or
    a Ruleset: its wheel rank, a low middle) when one is given, else with ``wheel_rank``."""
    if ruleset is not None and not isinstance(ruleset, Ruleset):
        ruleset = _rules.load_ruleset(ruleset)
    scales = _settings.scales(ruleset) if ruleset is not None else {"wheel_rank": wheel_rank}
    return _settings.pareto_frontier(hand, **scales)


def settings_answer(hand, wheel_rank="ace-low", ruleset=None):
    """``sapsam settings --json``: the legal count and the Pareto frontier of a hand."""
    return frontier_answer(settings_frontier(hand, wheel_rank, ruleset))


def frontier_answer(frontier):
    """A :class:`~sapsam.game.settings.Frontier` as ``sapsam settings --json`` gives it."""
    return {
        "hand": format_cards(frontier.hand, descending=True),
        "legal": frontier.legal,
        "distinct": frontier.distinct,
        "frontier": [[format_cards(row, descending=True) for row in (m.front, m.middle, m.back)]
                     for m in frontier.members],
        "details": [{"setting": m.text, "split": m.split, "strengths": list(m.strengths),
                     "rows": list(m.describe()), "same": m.equivalent}
                    for m in frontier.members],
    }


def rules_answer(ruleset=None):
    """``sapsam rules --json``: every named ruleset's one-line description by id, or one
    ruleset (an id or a TOML file) in full."""
    if ruleset is None:
        return {rid: _rules.load_ruleset(rid).describe() for rid in _rules.ruleset_ids()}
    return _rules.as_dict(_rules.load_ruleset(ruleset))


def score_answer(result):
    """``sapsam score --json``: a settled showdown
    (:func:`sapsam.game.score.score_showdown`)."""
    return {"rules": result.rules.id, "names": list(result.names), "status": list(result.status),
            "totals": result.totals, "pairs": result.pairs(),
            **({"players": result.player_totals} if result.rules.hands > 1 else {})}


def _ranked(records):
    """A DataFrame of ``records``, its index the rank from 1."""
    import pandas as pd

    frame = pd.DataFrame(records)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
    return frame


class _Answer:
    """A dataclass whose fields are a command's JSON answer (those with ``json=False``
    metadata aside): ``to_dict()`` gives that JSON."""

    def to_dict(self):
        return {f.name: getattr(self, f.name) for f in fields(self) if f.metadata.get("json", True)}


_HIDDEN = {"json": False}  # a field that is not part of the JSON


@dataclass(frozen=True)
class SettingsResult(_Answer):
    """The legal settings of a hand and its Pareto frontier (``sapsam settings``)."""

    hand: str
    legal: int  # legal splits of the 72,072
    distinct: int  # distinct strength triples among them
    frontier: list  # per member: [front, middle, back] as text
    details: list  # per member: setting, split, strengths, rows in words, same
    members: tuple = field(default=(), metadata=_HIDDEN, repr=False)  # the Settings

    @classmethod
    def of(cls, frontier):
        return cls(**frontier_answer(frontier), members=frontier.members)

    def to_frame(self):
        """One row per frontier member: its rows' cards and names, strengths, the settings
        with the same strengths."""
        return _ranked([{"setting": d["setting"], **dict(zip(("front", "middle", "back"), rows)),
                         **{f"{r}_hand": h for r, h in zip(("front", "middle", "back"), d["rows"])},
                         "strengths": tuple(d["strengths"]), "split": d["split"], "same": d["same"]}
                        for rows, d in zip(self.frontier, self.details)])


class RulesetList(tuple):
    """The named rulesets' ids in catalogue order (``sapsam rules``): a tuple of str."""

    def to_dict(self):
        """Each ruleset's one-line description by id (``sapsam rules --json``)."""
        return {rid: _rules.load_ruleset(rid).describe() for rid in self}

    def to_frame(self):
        """One row per ruleset: id, name, table size, scoring in a line."""
        import pandas as pd

        loaded = [_rules.load_ruleset(rid) for rid in self]
        return pd.DataFrame({"id": list(self), "name": [r.name for r in loaded],
                             "players": [r.players for r in loaded],
                             "scoring": [r.describe() for r in loaded]})


@dataclass(frozen=True)
class ScoreResult:
    """A settled showdown (``sapsam score``): ``showdown`` is the
    :class:`~sapsam.game.score.Showdown`."""

    showdown: object

    def __getattr__(self, name):  # rules, names, status, totals, pairs(), player_totals...
        if name == "showdown":  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.showdown, name)

    def to_dict(self):
        return score_answer(self.showdown)

    def to_frame(self):
        """One row per pair compared: the seats, the rows' winners, units to the first seat
        and their breakdown."""
        return _ranked([{"first": p["names"][0], "second": p["names"][1], "units": p["units"],
                         **(p["rows"] or dict.fromkeys(("front", "middle", "back"))),
                         **p["breakdown"]} for p in self.showdown.pairs()])


@dataclass(frozen=True)
class ReviewResult(_Answer):
    """A played setting against the best candidates of its hand (``sapsam review``);
    ``ranking`` is the :class:`~sapsam.measure.best.BestResult` it was ranked in."""

    setting: str
    legal: bool
    rank: int  # from 1
    candidates: int
    ev: float
    ci: list
    best: str
    best_ev: float
    best_ci: list
    loss: float  # the best's EV less this one's, paired
    loss_ci: list
    distinguishable: bool  # the loss from 0, at 95%
    samples: int
    # the loss measured again, the played and the best on tables of their own (a lower estimate:
    # sapsam.measure.review.held_out), and its 95% interval
    held_out_loss: float = None
    held_out_ci: list = None
    ranking: object = field(default=None, metadata=_HIDDEN, repr=False)

    @classmethod
    def of(cls, result, rows, opponents=None, strategy=None, other=None):
        """The review of ``rows`` in ``result``; with ``opponents`` (a policy name or a
        Policy) its loss measured apart too."""
        from sapsam.measure.review import held_out, review_of
        from sapsam.play.policy import Policy
        from sapsam.strategy.registry import make_policy

        apart = {}
        if opponents is not None:
            policy = (opponents if isinstance(opponents, Policy)
                      else make_policy(opponents, result.rules, result.players, strategy))
            loss, ci = held_out(result, rows, policy, result.samples, result.seed, other)
            apart = {"held_out_loss": loss, "held_out_ci": ci}
        return cls(**review_of(result, rows), **apart, ranking=result)

    def to_frame(self):
        """The ranking it was reviewed in, one row per candidate."""
        return self.ranking.to_frame()


@dataclass(frozen=True)
class ReviewedHands(_Answer):
    """A file of played hands reviewed one by one (``sapsam review --file``): each hand's
    review (as :class:`ReviewResult`'s JSON, with its ``line`` and ``hand``) or the ``error``
    that refused it, in the file's order, and the losses summed
    (:func:`sapsam.measure.review.review_total`)."""

    file: str
    rules: str
    players: int
    opponents: str
    samples: int  # a hand's sampled tables
    seed: int  # a hand's seed is this plus its line's number
    hands: list
    total: dict  # hands, refused, loss and loss_ci, per_hand and per_hand_ci

    interrupted: bool = False  # stopped (Ctrl-C) before the file's end: the hands done

    @classmethod
    def of(cls, path, rules, players, opponents, samples, seed=0, strategy=None, progress=None,
           stop_on_interrupt=False, played=None):
        """The hands of the CSV file ``path`` (:func:`sapsam.measure.review.read_played`, or
        ``played`` as it gives them, the file read once) reviewed under ``rules`` (an id, a TOML
        file or a Ruleset) at a table of ``players`` (None: the ruleset's) against ``opponents``
        (a policy's name, or a Policy), the file, the ruleset and the table checked before any
        work; ``progress(done, total)`` after each hand.  With ``stop_on_interrupt``, an
        interruption (``KeyboardInterrupt``) ends the review with the hands done
        (``interrupted``), as the command shows them, rather than losing them."""
        from sapsam.measure.review import read_played, review_played, review_total
        from sapsam.play.policy import Policy
        from sapsam.strategy.registry import make_policy

        rules = rules if isinstance(rules, Ruleset) else _rules.load_ruleset(rules)
        played = read_played(path, rules) if played is None else played
        players = rules.check_players(rules.players if players is None else players)
        policy = opponents if isinstance(opponents, Policy) else make_policy(opponents, rules, players, strategy)
        hands = []
        try:
            review_played(played, rules, players, policy, samples, seed, progress, reviews=hands)
        except KeyboardInterrupt:
            if not stop_on_interrupt:
                raise
        return cls(str(path), rules.id, players, policy.name, samples, seed, hands, review_total(hands),
                   interrupted=len(hands) < len(played))

    @property
    def refused(self):
        """The hands refused, each with its line and error."""
        return [h for h in self.hands if "error" in h]

    def to_frame(self):
        """One row per hand of the file, by line: its review (each interval in a ``_low`` and a
        ``_high`` column, as the web app's Review tab exports it), or its error."""
        import pandas as pd

        def flat(hand):  # an interval "x_ci" as the columns x_ci_low and x_ci_high, in its place
            row = {}
            for key, value in hand.items():
                if key == "ci" or key.endswith("_ci"):
                    row[f"{key}_low"], row[f"{key}_high"] = value
                else:
                    row[key] = value
            return row

        frame = pd.DataFrame([flat(h) for h in self.hands]).set_index("line")
        for name in ("rank", "candidates", "samples"):  # whole numbers, left empty for a refused hand
            if name in frame:
                frame[name] = frame[name].astype("Int64")
        return frame


@dataclass(frozen=True)
class HouseWayReview(_Answer):
    """How the house way sets a hand, which rule decided it, and what it gives up against
    the best setting (``sapsam houseway HAND``)."""

    hand: str
    rules: str
    players: int
    opponents: str
    seed: int
    houseway: dict  # decision, rule, reason, lines
    rank: int
    candidates: int
    ev: float
    ci: list
    best: str
    best_ev: float
    best_ci: list
    loss: float
    loss_ci: list
    distinguishable: bool
    samples: int
    ranking: object = field(default=None, metadata=_HIDDEN, repr=False)

    @classmethod
    def of(cls, hand, rules, players, opponents, samples, seed, other=None):
        """The house way's setting of ``hand`` reviewed against ``opponents``
        (:func:`sapsam.measure.review.houseway_review`), with the ranking it was read from."""
        from sapsam.measure.review import houseway_ranked

        answer, result = houseway_ranked(hand, rules, players, opponents, samples, seed, other=other)
        return cls(**answer, ranking=result)

    def to_frame(self):
        """The ranking the house way's setting was reviewed in, one row per candidate (its own at
        ``rank``)."""
        return self.ranking.to_frame()


@dataclass(frozen=True)
class SimulationReport:
    """A simulation's tables: ``frames`` holds the DataFrames ``seats``, ``naturals`` and
    ``points`` (:func:`sapsam.output.report.report_frames`); ``folder`` and ``manifest`` where
    a report was written."""

    simulation: object  # sapsam.measure.simulate.Simulation
    frames: dict = field(repr=False)
    folder: Path = None
    manifest: dict = field(default=None, repr=False)

    def to_frame(self):
        """One row per ruleset and seat: hands, EV per hand and its 95% CI, SD, events."""
        return self.frames["seats"].copy()

    def to_dict(self):
        return {"simulation": self.simulation.describe(),
                **{name: frame.to_dict(orient="records") for name, frame in self.frames.items()}}


@dataclass(frozen=True)
class HouseWayResult:
    """The house way (:class:`~sapsam.strategy.houseway.HouseWay`) and its paired cost
    against fitted players (:class:`~sapsam.measure.compare.Gap`); ``paths`` the files
    written."""

    way: object
    gap: object
    paths: tuple = ()

    def describe(self):
        return self.way.describe()

    def to_dict(self):
        return {**self.way.to_dict(), "cost": self.gap.to_dict()}


@dataclass(frozen=True)
class ChartResult:
    """A strategy chart's table (``frame``), what it was computed with (``info``), and the
    files written (``paths``, with ``out``)."""

    kind: str
    frame: object = field(repr=False)  # pandas.DataFrame
    info: dict
    paths: tuple = ()

    @classmethod
    def of(cls, kind, frame, rules, players, samples, seed, paths=()):
        """A chart's result from its table and what it was asked for (``rules`` a Ruleset; for
        ``rulesets`` the table names them), the default ``samples`` filled in."""
        from sapsam.output.charts import DEFAULT_SAMPLES

        ids = list(dict.fromkeys(frame["rules"])) if kind == "rulesets" else [rules.id]
        info = {"rules": ids if kind == "rulesets" else ids[0], "players": players,
                "samples": DEFAULT_SAMPLES.get(kind) if samples is None or kind == "rows" else samples,
                "seed": seed, "name": _rules.load_ruleset(ids[0]).name}
        return cls(kind, frame, info, tuple(paths))

    def to_frame(self):
        return self.frame.copy()

    def to_dict(self):
        return {"kind": self.kind, **self.info, "data": self.frame.to_dict(orient="records")}

    def figure(self):
        """The chart as a matplotlib figure."""
        from sapsam.output.chart_figures import chart_figure

        return chart_figure(self.kind, self.frame, self.info)
