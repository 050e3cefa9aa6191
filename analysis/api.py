"""The Python API: one function a command, the same computation with the same defaults.

``import sapsam`` gives these functions (imported on first use, so that importing the package
loads no Numba): :func:`best`, :func:`review`, :func:`score`, :func:`settings`,
:func:`rulesets`, :func:`ruleset`, :func:`simulate`, :func:`report`, :func:`exploit`,
:func:`houseway` and :func:`chart`.  Each calls what its command calls, so the same
arguments and seed give the same numbers as the command; a result's ``to_dict()`` is the
command's ``--json``, and ``to_frame()`` a pandas DataFrame where it is a table.  Bad input
raises ``ValueError`` with the command's one-line error.  The other games have their own:
:mod:`sapsam.paigow.api`, :mod:`sapsam.ofc.api` (``sapsam.paigow.best``, ``sapsam.ofc.place``).

>>> import sapsam
>>> sapsam.score(["Ah Ad 2c | Ks Kd 7h 7c 3s | 9s 9h 9d 4c 4d",
...               "Qh Qd 5c | Js Jd 8h 8c 2s | Ts Th Td 6c 6d"]).totals
[2, -2]
"""

from contextlib import nullcontext
from pathlib import Path

from sapsam.base.arguments import api_function, counts, maybe_whole, name_list, resume_or_fresh, whole

__all__ = ["best", "review", "score", "settings", "rulesets", "ruleset", "simulate", "report", "exploit", "houseway",
           "chart"]


def _ruleset(rules):
    """A Ruleset from an id, a TOML file or a Ruleset."""
    from sapsam.game.rules import Ruleset
    from sapsam.game.ruleset_files import load_ruleset

    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


def _best(hand, rules, players, opponents, samples, seed, strategy, other=None, **options):
    """``sapsam best``'s ranking of one hand: bad cards told first, then the ruleset."""
    from sapsam.game.cards import parse_hand
    from sapsam.measure.best import best_setting

    players, samples, seed = maybe_whole("players", players), whole("samples", samples, 1), whole("seed", seed, 0)
    for each in (hand, other):
        if isinstance(each, str):
            parse_hand(each)
    rules = _ruleset(rules)
    players = rules.check_players(rules.players if players is None else players)
    return best_setting(hand, rules, players, opponents, samples, seed, strategy=strategy,
                        other=other, **options)


def best(hand, rules="standard", players=None, opponents="fitted", samples=10000, seed=0, *,
         other=None, precision=None, strategy=None, scores=None):
    """Rank every sensible way to set a 13-card hand by Monte Carlo EV (``sapsam best``).

    Parameters
    ----------
    hand : str or array-like of 13 card codes
    rules : str or Ruleset
        A ruleset id, a TOML file or a :class:`~sapsam.game.rules.Ruleset`.
    players : int, optional
        Table size, 2 to 4; default the ruleset's.
    opponents : str
        Their policy: random, greedy, balanced, table, fitted or houseway.
    samples, seed : int
        Sampled opponent tables (the most, with ``precision``) and the seed.
    other : str, optional
        Criss-cross: your other hand (its ranking is ``best(other, other=hand)``).
    precision : float, optional
        Stop once the best is separated or every 95% half-width is below this.
    strategy : path, optional
        A strategy file for fitted opponents.
    scores : sequence of int or str, optional
        A match's score, yours first (or text, ``"3,5"``): rank by the chance of winning the match.

    Returns
    -------
    BestResult or MatchDecision
        :class:`~sapsam.measure.best.BestResult` (with ``scores``:
        :class:`~sapsam.measure.match.MatchDecision`).

    Examples
    --------
    >>> import sapsam
    >>> result = sapsam.best("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", samples=400, seed=1)
    >>> result.to_frame().loc[1, "setting"][:5]  # the nines in front
    '9s 9h'
    >>> result.to_dict()["samples"], len(result.to_frame()) == len(result.to_dict()["candidates"])
    (400, True)
    """
    if scores is None:
        return _best(hand, rules, players, opponents, samples, seed, strategy, other,
                     precision=precision)
    from sapsam.game.cards import parse_hand
    from sapsam.measure.match import match_rules, match_setting, score_list

    if precision is not None or other is not None:
        raise ValueError("scores rank a match's settings: give no precision or other hand")
    if players is not None and players != len(score_list(scores)):
        raise ValueError(f"scores give {len(score_list(scores))} players' scores, players {players}")
    if isinstance(hand, str):
        parse_hand(hand)
    rules = match_rules(rules)  # then the scores (match_setting's check_scores), before any work
    return match_setting(hand, rules, scores, opponents, whole("samples", samples, 1), whole("seed", seed, 0),
                         strategy)


def review(hand=None, setting=None, rules="standard", players=None, opponents="fitted", samples=10000,
           seed=0, *, other=None, strategy=None, file=None):
    """Review a setting played with a hand: its rank and EV loss against the best, as ranked and
    measured apart (``sapsam review``); the arguments as :func:`best`'s.  A
    :class:`~sapsam.output.answers.ReviewResult`, whose ``to_frame()`` is the ranking.  Or every hand
    of a CSV ``file`` (``sapsam review --file``: columns hand, setting, in criss-cross other), each seeded
    ``seed`` plus its line's number: a :class:`~sapsam.output.answers.ReviewedHands` (each hand's review
    or refusal, the losses summed with 95% intervals).

    Examples
    --------
    >>> import sapsam
    >>> played = sapsam.review("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d",
    ...                        "5c 5d 2c | 9s 9h 4h 3s 2d | As Kd Qh Jc Ts", samples=400, seed=1)
    >>> played.legal, played.rank > 1, bool(played.loss > 0)
    (True, True, True)
    """
    from sapsam.measure.review import extra_rows, played_setting
    from sapsam.output.answers import ReviewedHands, ReviewResult

    if file is not None or hand is None or setting is None:
        if file is None or hand is not None or setting is not None or other is not None:
            raise ValueError(f"give a hand and its setting, or file= (a CSV file of hands){', not both' * bool(file)}")
        return ReviewedHands.of(file, rules, maybe_whole("players", players), opponents, whole("samples", samples, 1),
                                whole("seed", seed, 0), strategy)
    cards, rows = played_setting(hand, setting, rules)
    result = _best(cards, rules, players, opponents, samples, seed, strategy, other, extra=extra_rows(rows))
    return ReviewResult.of(result, rows, opponents, strategy, other)


@api_function
def score(declarations, rules="standard", *, bank=None, chips=None, names=None):
    """Settle a showdown of 2 to 4 players (``sapsam score``).

    ``declarations`` are a seat's each, ``"front | middle | back"``, ``"natural:<13 cards>"``
    or ``"surrender:<13 cards>"``; ``bank`` the bank's seat counted from 1 (as ``--bank``);
    ``chips`` the chip stacks for a chip-limited settlement; ``names`` the seats' names.
    Returns a :class:`~sapsam.output.answers.ScoreResult` (``totals``, ``pairs()``...), whose
    ``to_frame()`` has a row per pair.
    """
    from sapsam.game.score import score_showdown
    from sapsam.output.answers import ScoreResult

    return ScoreResult(score_showdown(rules, declarations, chips=chips, names=names,
                                      bank=None if bank is None else maybe_whole("bank", bank, 1) - 1))


def rulesets():
    """The named rulesets' ids in catalogue order (``sapsam rules``): a tuple, a
    :class:`~sapsam.output.answers.RulesetList` whose ``to_dict()`` gives each one's
    description and ``to_frame()`` a row each.

    Examples
    --------
    >>> import sapsam
    >>> "standard" in sapsam.rulesets(), sapsam.ruleset("standard").players
    (True, 4)
    """
    from sapsam.game.ruleset_files import ruleset_ids
    from sapsam.output.answers import RulesetList

    return RulesetList(ruleset_ids())


def ruleset(name):
    """A :class:`~sapsam.game.rules.Ruleset` by id or TOML file (``sapsam rules NAME``; its
    JSON is :func:`sapsam.game.ruleset_files.as_dict`)."""
    return _ruleset(name)


def settings(hand, rules=None, wheel_rank=None):
    """The legal settings of a 13-card hand and its Pareto frontier (``sapsam settings``), set
    under a ruleset's scales or with ``wheel_rank`` ("ace-low", the default, or "second").

    Examples
    --------
    >>> import sapsam
    >>> found = sapsam.settings("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d")
    >>> found.legal, len(found.to_frame()) == len(found.frontier)
    (21100, True)
    """
    from sapsam.game.cards import parse_hand
    from sapsam.output.answers import SettingsResult, settings_frontier

    if isinstance(hand, str):
        parse_hand(hand)
    if rules is not None and wheel_rank is not None:
        raise ValueError("give rules or wheel_rank, not both (a ruleset has its wheel rank)")
    return SettingsResult.of(settings_frontier(hand, wheel_rank or "ace-low", rules))


@api_function
def simulate(rules, players=None, seats="fitted", tables=100000, seed=0, block_size=500,
             out=None, *, resume=False, fresh=False, scheduler=None, workers=None, worker_threads=1):
    """Deal many tables, set them by the seats' policies, score them under every ruleset
    (``sapsam simulate``).

    ``rules`` is an id or file, a list of them or "all" (every named one dealing one hand a
    player); ``seats`` a policy for every seat or one a seat.  With ``out`` the report is
    written there and finished blocks are checkpointed (``resume``, ``fresh`` as the options);
    ``scheduler`` or ``workers`` (of ``worker_threads`` each) run the blocks on Dask.  Returns a
    :class:`~sapsam.output.answers.SimulationReport`.

    Examples
    --------
    >>> import sapsam
    >>> run = sapsam.simulate("standard", seats="greedy", tables=500, seed=1)
    >>> run.to_frame()[["ruleset", "seat", "hands"]].values.tolist()[0]
    ['standard', 1, 500]
    """
    import time

    from sapsam.base.files import exclusive, read_checkpoint, writable_folder
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
    from sapsam.measure import simulate as sim_
    from sapsam.measure.cluster import check_layout
    from sapsam.output.answers import SimulationReport
    from sapsam.output.report import report_frames, write_report

    resume_or_fresh(resume, fresh, out)
    players, tables, seed = maybe_whole("players", players), whole("tables", tables, 1), whole("seed", seed, 0)
    block_size, workers = whole("block_size", block_size, 1), maybe_whole("workers", workers, 1)
    check_layout(scheduler, workers, worker_threads)
    names = name_list("rules", rules)
    if names == ("all",):  # criss-cross deals two hands a player: it runs on its own
        names = tuple(i for i in ruleset_ids() if load_ruleset(i).hands == 1)
    ids = [load_ruleset(name).id for name in names]  # unknown ids, malformed files fail here
    if len(set(ids)) < len(ids):
        raise ValueError(f"rules names a ruleset twice: {', '.join(map(str, names))}")
    players = players or load_ruleset(names[0]).players
    seats = name_list("seats", seats)
    sim = sim_.Simulation(names, players, seats * players if len(seats) == 1 else seats,
                          tables, seed, block_size)
    folder = None if out is None else writable_folder(out)
    with exclusive(folder / ".sapsam.lock", folder) if folder else nullcontext():
        if folder and not (resume or fresh):  # an earlier run's checkpoint, refused first
            read_checkpoint(folder / sim_.CHECKPOINT, None, resume=False)
        start, backend = time.perf_counter(), "local"
        if scheduler or workers:
            from sapsam.measure.cluster import dask_compute, local_cluster

            backend = f"dask {scheduler or local_cluster(workers, worker_threads)}"
            with dask_compute(sim, scheduler=scheduler, workers=workers, threads=worker_threads) as compute:
                totals = sim_.run(sim, folder, resume, compute=compute, fresh=fresh,
                                  round_blocks=max(8, 4 * compute.threads))
        else:
            totals = sim_.run(sim, folder, resume, fresh=fresh)
        compiled = sim_.compile_simulation(sim)
        if folder:
            seconds = max(sim_.elapsed(folder), time.perf_counter() - start)
            write_report(folder, sim, compiled, totals, seconds, backend)
    if folder:
        return report(folder, render=False)
    return SimulationReport(sim, report_frames(sim, compiled, *totals))


def report(folder, render=True):
    """The report of a simulation in ``folder``, re-rendered first (``sapsam report``) unless
    ``render`` is False: a :class:`~sapsam.output.answers.SimulationReport` of its files.

    >>> sapsam.report("results/simulations/all-4p-fitted", render=False)  # doctest: +SKIP
    """
    import pandas as pd

    from sapsam.base.files import load_json
    from sapsam.measure.simulate import Simulation
    from sapsam.output.answers import SimulationReport
    from sapsam.output.report import MANIFEST, TABLES, render_report

    folder = Path(folder)
    if not any((folder / name).is_file() for name in (MANIFEST, "checkpoint.npz")):
        raise ValueError(f"{folder} holds no simulation (no manifest.json or checkpoint.npz)")
    if render:
        render_report(folder)
    elif not (folder / MANIFEST).is_file():
        raise ValueError(f"{folder} holds a checkpoint but no report yet: render it")
    manifest = load_json(folder / MANIFEST, "simulation manifest")
    frames = {name: pd.read_parquet(folder / f"{name}.parquet") for name in TABLES}
    return SimulationReport(Simulation.from_description(manifest["run"]), frames, folder, manifest)


@api_function
def exploit(rules="two-four", players=2, policy="fitted", deals=200, samples=2000, seed=0, *,
            strategy=None, out=None, resume=False, fresh=False):
    """What ``policy`` loses per hand to its Monte Carlo best response, on duplicate deals
    (``sapsam exploit``).  With ``out``, the result and its provenance are written there as
    JSON and finished deals checkpointed beside it (``resume``, ``fresh``).

    Returns
    -------
    Exploitability
        :class:`~sapsam.measure.exploit.Exploitability`; ``to_frame()`` has a row per hand.

    Examples
    --------
    >>> import sapsam
    >>> found = sapsam.exploit(deals=2, samples=100, seed=1)
    >>> found.to_dict()["hands"], len(found.to_frame())
    (4, 4)
    """
    from sapsam.base.files import checkpoint_beside, provenance, write_json, writing_result
    from sapsam.measure.exploit import exploitability

    resume_or_fresh(resume, fresh, out)
    players, deals, samples, seed = counts(players=(players, 2), deals=(deals, 1), samples=(samples, 1), seed=(seed, 0))
    checkpoint = checkpoint_beside(out) if out else None
    with writing_result(out, resume, fresh):
        result = exploitability(rules, players, policy, deals, samples, seed, strategy,
                                checkpoint=checkpoint, resume=resume, fresh=fresh)
        if out:
            write_json(out, {**result.to_dict(), "provenance": provenance(
                ruleset=str(rules), players=players, policy=policy, seed=seed,
                strategy=result.strategy)})
            checkpoint.unlink(missing_ok=True)
    return result


def houseway(hand=None, rules="standard", players=None, tables=20000, samples=10000,
             opponents="fitted", other=None, seed=0, out=None):
    """The house way, a dozen-line point count for setting a hand, derived from the fitted
    strategy (``sapsam houseway``).

    Without ``hand``: the house way of ``rules`` and its cost against fitted players
    (``tables`` paired tables), a :class:`~sapsam.output.answers.HouseWayResult`, its files
    written in ``out`` if given.  With a 13-card ``hand``: how the house way sets it and what
    that gives up against the best (``samples`` tables against ``opponents``), a
    :class:`~sapsam.output.answers.HouseWayReview` (``to_frame()``: the ranking its setting was
    reviewed in).  ``players``: the ruleset's table by default.

    Examples
    --------
    >>> import sapsam
    >>> way = sapsam.houseway("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", samples=200, seed=1)
    >>> way.houseway["decision"] == way.to_dict()["houseway"]["decision"], way.rank >= 1
    (True, True)
    """
    from sapsam.output.answers import HouseWayResult

    players, tables, samples, seed = counts(players=(_ruleset(rules).players if players is None else players, 2),
                                            tables=(tables, 1), samples=(samples, 1), seed=(seed, 0))
    if hand is not None:
        from sapsam.game.cards import parse_hand
        from sapsam.output.answers import HouseWayReview

        if isinstance(hand, str):
            parse_hand(hand)
        return HouseWayReview.of(hand, _ruleset(rules), players, opponents, samples, seed, other=other)
    if other is not None:
        raise ValueError("other goes with a hand")
    if out is not None:
        from sapsam.output.houseway import write_houseway

        way, gap, paths = write_houseway(rules, players, tables, seed, out)
        return HouseWayResult(way, gap, tuple(paths))
    from sapsam.measure.compare import policy_gap
    from sapsam.strategy.houseway import as_policy, derive

    way = derive(rules, players, seed=seed)
    return HouseWayResult(way, policy_gap(rules, players, as_policy(
        way, f"house way derived with seed {seed}"), tables=tables, seed=seed))


@api_function
def chart(kind, rules=None, players=None, samples=None, seed=0, policies=("greedy", "balanced"),
          out=None):
    """A strategy chart of the fitted strategy (``sapsam chart``): ``kind`` is rows, front,
    declare, policies, rulesets or match; ``rules`` one ruleset (default standard, first-to-11
    for match), for rulesets a list or "all" (the default).  With ``out`` its figure, data and
    manifest are written there; ``players`` the ruleset's table by default (4 for rulesets).
    Returns a :class:`~sapsam.output.answers.ChartResult`.

    Examples
    --------
    >>> import sapsam
    >>> rows = sapsam.chart("rows")
    >>> sorted(set(rows.to_frame()["row"]))
    ['back', 'front', 'middle']
    """
    import pandas as pd

    from sapsam.output.answers import ChartResult
    from sapsam.output.charts import chart_data, write_chart

    samples, seed = maybe_whole("samples", samples, 1), whole("seed", seed, 0)
    if kind == "rulesets":
        rules = "all" if rules in (None, "all") else [rules] if isinstance(rules, str) else list(rules)
    else:
        rules = _ruleset(rules or ("first-to-11" if kind == "match" else "standard"))
    players = whole("players", (4 if kind == "rulesets" else rules.players) if players is None else players)
    if out is None:
        frame, paths = chart_data(kind, rules, players, samples, seed, tuple(policies)), ()
    else:
        paths = tuple(write_chart(kind, rules, players, samples, seed, out, list(policies)))
        frame = pd.read_csv(next(p for p in paths if p.suffix == ".csv"))
    return ChartResult.of(kind, frame, rules, players, samples, seed, paths)
