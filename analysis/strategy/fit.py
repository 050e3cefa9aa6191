"""Fitted strategies by blended iterated best response (fictitious play).

Start from the field of ``balanced`` players.  Each iteration deals ``hands`` random hands,
sets each with the ``table`` policy against the current field, measures the per-row strength
distribution of what was played, and blends it into the field:
``field <- (1 - w) field + w played`` with ``w = max(blend, 1 / (iteration + 1))`` (a
fictitious-play average that keeps a floor so late iterations still move).  It stops when the
largest change of any row's cumulative distribution falls below ``tolerance`` or after
``iterations``.  Every iteration uses its own seeded deals, so a fit is reproducible from its
seed.  The result is stored as ``<ruleset>-<players>p.npz`` in the user's strategy folder
(:func:`sapsam.play.strategy_files.user_strategy_dir`, or where asked) with a JSON manifest beside it
(ruleset, players, iterations, hands, seed, versions).  Every round is checkpointed,
so an interrupted fit resumes (``sapsam fit --resume``) with the same result.
"""

import json
import time
from functools import cache
from pathlib import Path

import numpy as np

from sapsam.base.files import (
    checkpoint_beside,
    provenance,
    read_checkpoint,
    write_json,
    write_npz,
)
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as _kp
from sapsam.kernels import value as _kv
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.play.deal import deal_sorted_hands
from sapsam.play.policy import Policy, balanced_points
from sapsam.play.seeds import CHUNKS, SCHEME, Stream


def played_field(policy, rules, players, hands, stream):
    """What a policy plays over ``hands`` deals from ``stream`` (its choices from the stream's
    child 1): the per-row strength distribution of its settings (float64 (3, N_STRENGTHS),
    None if no hand was set) and the share of hands it surrenders."""
    compiled = rules.compile()
    deals = deal_sorted_hands(hands, stream)
    rows, _, _, surrender = _kp.play_hands(deals, policy.arrays, compiled.arrays,
                                           rules.opposing_hands(players),
                                           stream.child(1).states(CHUNKS))
    rows = rows[rows[:, 0] >= 0].astype(np.int64)
    if len(rows) == 0:
        return None, float(surrender.mean())
    mass = np.stack([np.bincount(rows[:, k], minlength=N_STRENGTHS) for k in range(3)]).astype(float)
    return mass / mass.sum(axis=1, keepdims=True), float(surrender.mean())


def played_row_mass(policy, rules, players, hands, stream):
    """Per-row strength distribution of a policy's settings (see :func:`played_field`)."""
    return played_field(policy, rules, players, hands, stream)[0]


def fit_equilibrium(rules, players, iterations=30, hands=20000, seed=0, blend=0.2,
                    tolerance=0.002, progress=None, checkpoint=None, resume=False, fresh=False):
    """Fit the per-row field distribution of a ruleset and table size.

    Parameters
    ----------
    rules : Ruleset or str
    players : int
    iterations : int
        At most this many best-response rounds.
    hands : int
        Hands dealt per round.
    seed : int
    blend : float
        Floor of the weight of the newest round.
    tolerance : float
        Stop when no row's CDF moves by more than this.
    progress : callable, optional
        Called as ``progress(iteration, change)`` after each round.
    checkpoint : path, optional
        Written (atomically) after every round; with ``resume``, a run continues from it and
        ends with the same numbers as an uninterrupted one (each round has its own seed);
        ``fresh`` discards it; an existing one is refused without either.

    Returns
    -------
    row_mass : ndarray(float64), shape (3, N_STRENGTHS)
        Strength distribution of each row among hands that are set.
    surrender_rate : float
        Share of hands the fitted policy surrenders.
    history : list of float
        The largest change of each round (row CDFs, or the weighted surrender rate).
    """
    from sapsam.play.policy import Policy
    from sapsam.strategy.fit import balanced_field

    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    rules.check_players(players)
    run = {"ruleset": rules.id, "ruleset_digest": rules.digest(), "players": players,
           "hands": hands, "seed": seed, "blend": blend, "seeds": SCHEME}
    saved = read_checkpoint(checkpoint, run, resume, fresh) if checkpoint else None
    if saved is not None:
        field, rate = saved["field"], float(saved["surrender_rate"])
        history = saved["history"].tolist()
    else:
        field, rate, history = balanced_field(players, rules.low_middle), 0.0, []
    if history and history[-1] < tolerance:
        return field, rate, history
    for it in range(len(history), iterations):
        policy = Policy.from_row_mass("fitted", field, rules, "fit", rate)
        played, played_rate = played_field(policy, rules, players, hands,
                                             Stream(seed, "fit", (it,)))
        weight = max(blend, 1.0 / (it + 2))
        new = field if played is None else (1 - weight) * field + weight * played
        change = float(np.abs(np.cumsum(new, axis=1) - np.cumsum(field, axis=1)).max())
        change = max(change, abs(played_rate - rate) * weight)
        field = new
        rate = (1 - weight) * rate + weight * played_rate
        history.append(change)
        if checkpoint:
            write_npz(checkpoint, field=field, surrender_rate=rate, history=np.array(history),
                      run=json.dumps(run))
        if progress is not None:
            progress(it + 1, change)
        if change < tolerance:
            break
    return field, rate, history


def strategy_file(path):
    """``path`` as a strategy file: it must end in ``.npz``, so that its manifest (the same
    name ending in ``.json``) never takes its place."""
    path = Path(path)
    if path.suffix != ".npz":
        raise ValueError(f"a strategy file ends in .npz (its manifest is written beside it as "
                         f".json), got {path}")
    return path


def save_strategy(path, row_mass, surrender_rate, rules, players, history, hands, seed, seconds):
    """Write a strategy file and its manifest, each atomically."""
    path = strategy_file(path)
    write_npz(path, row_mass=row_mass, surrender_rate=np.float64(surrender_rate))
    manifest = provenance(
        ruleset=rules.id, ruleset_digest=rules.digest(), players=players,
        surrender_rate=surrender_rate,
        iterations=len(history), hands_per_iteration=hands,
        seed=seed, cdf_change_per_iteration=history,
        method="blended iterated best response (analysis/strategy/fit.py)", seconds=round(seconds, 1))
    write_json(path.with_suffix(".json"), manifest)
    return manifest


def default_strategy_path(rules_id, players):
    """Where ``sapsam fit`` writes when not told: the user's strategy folder, never the
    strategies shipped in the package."""
    from sapsam.play.strategy_files import strategy_name, user_strategy_dir

    return user_strategy_dir() / strategy_name(rules_id, players)


def fit_and_save(rules, players, path=None, resume=False, fresh=False, **options):
    """Fit and store; returns the manifest.  Rounds are checkpointed beside the strategy file
    (:func:`sapsam.base.files.checkpoint_beside`, removed at the end); ``resume`` continues an interrupted fit,
    ``fresh`` discards its checkpoint."""
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    path = strategy_file(path or default_strategy_path(rules.id, players))
    checkpoint = checkpoint_beside(path)
    start = time.perf_counter()
    mass, rate, history = fit_equilibrium(rules, players, checkpoint=checkpoint, resume=resume,
                                          fresh=fresh, **options)
    manifest = save_strategy(path, mass, rate, rules, players, history, options.get("hands", 20000),
                             options.get("seed", 0), time.perf_counter() - start)
    checkpoint.unlink(missing_ok=True)
    return manifest


# A fit made on demand: the same method and budget as a plain 'sapsam fit' (seconds to half a
# minute on 2 cores), cached under the ruleset's digest.
ON_DEMAND = {"iterations": 30, "hands": 20000, "seed": 0}


def fitted_strategy(rules, players, stage=None):
    """The strategy file of a ruleset and table size
    (:func:`sapsam.play.strategy_files.find_strategy`), fitted now and cached if there is
    none (:func:`sapsam.play.strategy_files.on_demand_path`): any ruleset file, any table.

    ``stage(label, total, unit)`` gives the fit's progress callback (as
    :meth:`sapsam.base.progress.Progress.task`); it is called only when a fit is needed.
    """
    from sapsam.play.strategy_files import find_strategy, on_demand_path

    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    path = find_strategy(rules, players)
    if path is not None:
        return path
    path = on_demand_path(rules, players)
    task = stage(f"fitting {rules.id} for {players} players (once: kept for next time)",
                 ON_DEMAND["iterations"], "rounds") if stage else None
    fit_and_save(rules, players, path, resume=True,
                 progress=(lambda it, change: task(it)) if task else None, **ON_DEMAND)
    return path


@cache
def balanced_field(players, low_middle=False, deals=4000):
    """Per-row strength distribution of ``balanced`` settings over ``deals`` random hands (the
    middle as a 2-7 low with ``low_middle``): a fixed part of the ``table`` policy and of a
    fit's start, so drawn from seed 0 whatever a command's ``--seed``."""
    from sapsam.play.seeds import Stream
    from sapsam.strategy.fit import played_row_mass

    policy = Policy("balanced", _kp.BALANCED, np.zeros(_kv.TABLE_SHAPE),
                    balanced_points(low_middle), "")
    rules = load_ruleset("low-middle" if low_middle else "basic")
    return played_row_mass(policy, rules, players, deals, Stream(0, "balanced"))
