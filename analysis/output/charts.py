"""Strategy charts: what the fitted strategy plays, what it wins, and what other policies cost.

Five kinds (:data:`CHART_KINDS`), each a tidy DataFrame (:func:`chart_data`), a figure drawn
from that frame alone (:func:`chart_figure`) and a folder of files (:func:`write_chart`):

============  ================================================================================
``rows``      per-row win probability of each hand against one fitted opponent's row, exact
              from the strategy file: P(win) + P(tie) / 2 under the fitted per-row strength
              distribution (:func:`sapsam.kernels.value.ev_tables` keeps the same two numbers),
              that is against an opponent who sets a hand (not one who declares or surrenders).
              Hands are grouped by category and top rank (high card by its top card, pairs by
              the pair, ...); a group's marker is its median hand, its bar spans the weakest
              to the strongest hand of the group.
``front``     what goes in front: the shapes of the fronts the fitted strategy plays over
              ``samples`` seeded hands (high card by top rank, pair by rank, trips; hands
              declared a natural or surrendered are their own bar), with Wilson 95% intervals.
``rulesets``  per ruleset, seat 1's EV with each of ``policies`` against fitted opponents and
              the paired gap to playing fitted itself (:func:`sapsam.measure.compare.policy_gaps`,
              ``samples`` tables per ruleset, the same deals for every ruleset).
``declare``   how often the fitted strategy surrenders or declares each natural (seat 1 over
              ``samples`` seeded tables of fitted players, Wilson 95% intervals) and seat 1's
              mean units per hand in the tables where it did (Student's t 95% intervals).
``policies``  for one ruleset, seat 1's EV with each of ``policies`` against fitted opponents
              and the paired gap to fitted (``samples`` tables).
``match``     a match ruleset (first to 11): by your score and the opponents', how often the
              setting that wins the match most differs from the one that scores the most
              points, and the chance of winning it gains (``samples`` hands;
              :func:`sapsam.measure.match.decision_differences`).
============  ================================================================================

Files (:func:`write_chart`): ``<kind>-<rules>-<players>p.png``/``.svg``/``.csv`` and a
``.json`` manifest with the inputs, the files, the wall time and :func:`sapsam.base.files`
(STYLE.md item 11), every one written atomically.

Intervals: shares get the Wilson score interval (:func:`sapsam.base.stats.wilson_interval`),
sensible at zero counts; means get Student's t interval (:func:`sapsam.base.stats.mean_interval`),
which widens where n is small (a rare natural seen a handful of times).
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd

from sapsam.base.files import (
    REPOSITORY,
    provenance,
    writable_folder,
    write_atomic,
    write_json,
)
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.measure.match import decision_differences
from sapsam.output import plots
from sapsam.output.chart_figures import chart_figure
from sapsam.output.chart_frames import (
    BASELINE,
    CHART_KINDS,
    check_kind,
    declare_frame,
    front_frame,
    policies_frame,
    rows_frame,
    rulesets_frame,
)
from sapsam.strategy.fit import fitted_strategy
from sapsam.strategy.houseway_chart import has_house_way
from sapsam.strategy.registry import make_policy

DEFAULT_SAMPLES = {"rows": None, "front": 20000, "rulesets": 4000, "declare": 20000,
                   "policies": 20000, "match": 200}
DEFAULT_POLICIES = ("greedy", "balanced")
_FEW_RULESETS = 4  # up to this many ruleset ids are joined in a rulesets chart's file name


# ---- data -------------------------------------------------------------------------------------

def chart_data(kind, rules, players=4, samples=None, seed=0, policies=DEFAULT_POLICIES):
    """The tidy table behind a chart.

    Parameters
    ----------
    kind : str
        One of :data:`CHART_KINDS`.
    rules : str, Ruleset, sequence of str
        One ruleset (id, TOML path or Ruleset); for ``rulesets`` also a list of ids or
        ``"all"`` (every named ruleset with a fitted strategy for ``players``).
    players : int
        Table size (2..4); the fitted strategy for it must exist.
    samples : int, optional
        Hands (``front``) or tables (``rulesets``: per ruleset; ``declare``, ``policies``);
        default :data:`DEFAULT_SAMPLES`.  ``rows`` is exact and ignores it.
    seed : int
        Fixes the deals and the policies' random choices.
    policies : sequence of str
        Policies measured against fitted (``rulesets``, ``policies``; ignored otherwise).

    Returns
    -------
    pandas.DataFrame
        One row per plotted point; the columns are described by each ``*_frame`` function.

    Raises
    ------
    ValueError
        Unknown kind, ruleset or policy, no fitted strategy, ``samples < 1``.

    Examples
    --------
    >>> chart_data("rows", "standard").query("row == 'front'").head(3)  # doctest: +SKIP
    """
    return _compute(*_checked(kind, rules, players, samples, seed, policies))


def _checked(kind, rules, players, samples, seed, policies):
    """The inputs of a chart validated and normalised, before any work: (kind, rulesets,
    players, samples, seed, policies); rulesets a list, policies a tuple (empty if unused)."""
    kind = check_kind(kind)
    samples = _check_samples(kind, samples)
    if not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    rulesets = _ruleset_list(rules, players) if kind == "rulesets" else [_one_ruleset(rules)]
    if kind in ("rulesets", "policies"):
        policies = _check_policies(policies, rulesets, players, every=kind == "rulesets")
    else:
        policies = ()
        make_policy(BASELINE, rulesets[0], players)  # fitted now if there is no fit yet
    return kind, rulesets, int(players), samples, int(seed), policies


def _compute(kind, rulesets, players, samples, seed, policies, progress=None):
    if kind == "rulesets":
        return rulesets_frame(rulesets, players, policies, samples, seed, progress)
    if kind == "policies":
        return policies_frame(rulesets[0], players, policies, samples, seed, progress)
    if kind == "rows":
        return rows_frame(rulesets[0], players)
    if kind == "front":
        return front_frame(rulesets[0], players, samples, seed, progress)
    if kind == "match":
        return decision_differences(rulesets[0], players, samples, seed=seed, progress=progress)
    return declare_frame(rulesets[0], players, samples, seed, progress)


def _check_samples(kind, samples):
    if kind == "rows":
        return None  # exact
    if samples is None:
        return DEFAULT_SAMPLES[kind]
    if not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1, got {samples!r}")
    return int(samples)


def _one_ruleset(rules):
    if isinstance(rules, Ruleset):
        return rules
    if not isinstance(rules, str) or rules == "all":
        raise ValueError(f"this chart takes one ruleset, got {rules!r}")
    return load_ruleset(rules)


def _ruleset_list(rules, players):
    """Rulesets of a ``rulesets`` chart: ``"all"`` is every named one played at ``players``."""
    if isinstance(rules, (str, Ruleset)) and rules != "all":
        rules = [rules]
    if rules == "all":
        return [r for r in map(load_ruleset, ruleset_ids()) if players in r.tables]
    rulesets = [r if isinstance(r, Ruleset) else load_ruleset(r) for r in rules]
    if not rulesets:
        raise ValueError("name at least one ruleset")
    if len({r.id for r in rulesets}) < len(rulesets):
        raise ValueError("a ruleset is named twice")
    return rulesets


def _check_policies(policies, rulesets, players, every=False):
    """Policy names as a tuple, each checked (with fitted) on every ruleset before any work;
    ``every`` (a rulesets chart): the house way only where there is one, as
    :func:`sapsam.output.chart_frames.rulesets_frame` plays it."""
    if isinstance(policies, str):
        policies = (policies,)
    policies = tuple(policies)
    if not policies:
        raise ValueError("name at least one policy to compare with fitted")
    for rules in rulesets:
        for name in (BASELINE, *policies):
            if not (every and name == "houseway" and not has_house_way(rules)):
                make_policy(name, rules, players)
    return policies


# ---- files ------------------------------------------------------------------------------------

def chart_stem(kind, rules, players):
    """File name without extension: ``<kind>-<rules>-<players>p``.

    ``rules`` is an id, ``"all"`` or a list of ids (a ``rulesets`` chart): up to four ids are
    joined with ``+``; more become ``<n>-rulesets-<digest>`` unless they are ``all``.
    """
    if isinstance(rules, str):
        tag = rules
    elif len(rules) <= _FEW_RULESETS:
        tag = "+".join(rules)
    else:
        import hashlib

        tag = f"{len(rules)}-rulesets-{hashlib.sha1(','.join(rules).encode()).hexdigest()[:8]}"
    return f"{kind}-{tag}-{players}p"


def write_chart(kind, rules, players=4, samples=None, seed=0, out="results/charts",
                policies=DEFAULT_POLICIES, progress=None):
    """Compute a chart and write its figure (PNG, SVG), data (CSV) and manifest (JSON).

    Parameters
    ----------
    kind, rules, players, samples, seed, policies
        As :func:`chart_data`.
    out : path
        Folder (created if missing); files with the same names are replaced atomically.
    progress : callable, optional
        ``progress(hands_decided, hands)`` as the fitted and measured policies set hands.

    Returns
    -------
    list of pathlib.Path
        ``<stem>.png``, ``<stem>.svg``, ``<stem>.csv``, ``<stem>.json``
        (stem: :func:`chart_stem`).

    Raises
    ------
    ValueError
        Bad input (see :func:`chart_data`) or an ``out`` that cannot be written.

    Examples
    --------
    >>> write_chart("front", "standard", 4, samples=2000, out="charts")  # doctest: +SKIP
    [PosixPath('charts/front-standard-4p.png'), ..., PosixPath('charts/front-standard-4p.json')]
    """
    start = time.perf_counter()
    checked = _checked(kind, rules, players, samples, seed, policies)
    kind, rulesets, players, samples, seed, policies = checked
    folder = writable_folder(out)
    frame = _compute(*checked, progress)
    ids = [r.id for r in rulesets]
    label = ("all" if isinstance(rules, str) and rules == "all" else ids) if kind == "rulesets" \
        else ids[0]
    info = {"rules": ids if kind == "rulesets" else ids[0], "players": players,
            "samples": samples, "seed": seed, "name": rulesets[0].name}
    stem = folder / chart_stem(kind, label, players)
    written = plots.save_figure(chart_figure(kind, frame, info), stem)
    csv = stem.with_name(stem.name + ".csv")
    write_atomic(csv, frame.to_csv(index=False))
    written.append(csv)
    manifest = stem.with_name(stem.name + ".json")
    written.append(manifest)
    write_json(manifest, _manifest(kind, rulesets, players, samples, seed,
                                   list(policies) or None, written, time.perf_counter() - start))
    return written


def _manifest(kind, rulesets, players, samples, seed, policies, files, seconds):
    import matplotlib

    strategies = {}
    for rules in rulesets:
        path = fitted_strategy(rules, players)
        strategies[rules.id] = str(path.relative_to(REPOSITORY)) \
            if path.is_relative_to(REPOSITORY) else str(path)
    ids = [r.id for r in rulesets]
    return provenance(
        what=f"strategy chart '{kind}' (sapsam.output.charts)", kind=kind,
        rules=ids if kind == "rulesets" else ids[0], players=players, samples=samples,
        samples_are={"rows": "none (exact)", "front": "hands", "rulesets": "tables per ruleset",
                     "declare": "tables", "policies": "tables",
                     "match": "hands (1,000 sampled tables each)"}[kind],
        seed=None if kind == "rows" else seed, policies=policies,
        baseline=BASELINE, strategies=strategies, files=[Path(f).name for f in files],
        seconds=round(seconds, 3), pandas=pd.__version__, matplotlib=matplotlib.__version__)


__all__ = ["CHART_KINDS", "DEFAULT_SAMPLES", "chart_data", "chart_figure", "chart_stem",
           "write_chart"]
