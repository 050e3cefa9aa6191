"""Fitted strategies by blended iterated best response (fictitious play).

Start from the field of ``balanced`` players.  Each iteration deals ``hands`` random hands,
sets each with the ``table`` policy against the current field, measures the per-row strength
distribution of what was played, and blends it into the field:
``field <- (1 - w) field + w played`` with ``w = max(blend, 1 / (iteration + 1))`` (a
fictitious-play average that keeps a floor so late iterations still move).  It stops when the
largest change of any row's cumulative distribution falls below ``tolerance`` or after
``iterations``.  Every iteration uses its own seeded deals, so a fit is reproducible from its
seed.  The result is stored as ``results/strategies/<ruleset>-<players>p.npz`` with a JSON
manifest (ruleset, players, iterations, hands, seed, versions).  Every round is checkpointed,
so an interrupted fit resumes (``sapsam fit --resume``) with the same result.
"""

import json
import time
from pathlib import Path

import numpy as np

from analysis.provenance import provenance, read_checkpoint, write_json, write_npz
from analysis.rules import Ruleset, load_ruleset
from analysis.sampling import block_states
from kernels import policies as _kp
from kernels.evaluate import N_STRENGTHS

CHUNKS = 64  # RNG streams per batch of hands (fixes the numbers whatever the thread count)


def deal_sorted_hands(n, seed):
    """``n`` random 13-card hands, each from its own shuffled deck, sorted: uint8 (n, 13)."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
    return np.ascontiguousarray(np.sort(decks[:, :13], axis=1))


def played_row_mass(policy, rules, players, hands, seed):
    """Per-row strength distribution (float64 (3, N_STRENGTHS)) of a policy's settings."""
    compiled = rules.compile()
    deals = deal_sorted_hands(hands, seed)
    rows, _, _, _ = _kp.play_hands(deals, policy.code, policy.tables, policy.percentile,
                                   compiled.params, compiled.naturals, players - 1,
                                   block_states(seed, 0, CHUNKS))
    rows = rows[rows[:, 0] >= 0].astype(np.int64)
    mass = np.stack([np.bincount(rows[:, k], minlength=N_STRENGTHS) for k in range(3)]).astype(float)
    return mass / mass.sum(axis=1, keepdims=True)


def fit_equilibrium(rules, players, iterations=30, hands=20000, seed=0, blend=0.2,
                    tolerance=0.002, progress=None, checkpoint=None, resume=False):
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
        ends with the same numbers as an uninterrupted one (each round has its own seed).

    Returns
    -------
    row_mass : ndarray(float64), shape (3, N_STRENGTHS)
    history : list of float
        The largest CDF change of each round.
    """
    from analysis.policies import Policy, balanced_field

    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    run = {"ruleset": rules.id, "players": players, "hands": hands, "seed": seed, "blend": blend}
    saved = read_checkpoint(checkpoint, run) if (checkpoint and resume) else None
    if saved is not None:
        field, history = saved["field"], saved["history"].tolist()
    else:
        field, history = balanced_field(players), []
    if history and history[-1] < tolerance:
        return field, history
    for it in range(len(history), iterations):
        policy = Policy.from_row_mass("fitted", field, rules, "fit")
        played = played_row_mass(policy, rules, players, hands, seed * 1000003 + it)
        weight = max(blend, 1.0 / (it + 2))
        new = (1 - weight) * field + weight * played
        change = float(np.abs(np.cumsum(new, axis=1) - np.cumsum(field, axis=1)).max())
        field = new
        history.append(change)
        if checkpoint:
            write_npz(checkpoint, field=field, history=np.array(history), run=json.dumps(run))
        if progress is not None:
            progress(it + 1, change)
        if change < tolerance:
            break
    return field, history


def save_strategy(path, row_mass, rules, players, history, hands, seed, seconds):
    """Write a strategy file and its manifest, each atomically."""
    path = Path(path)
    write_npz(path, row_mass=row_mass)
    manifest = provenance(
        ruleset=rules.id, players=players, iterations=len(history), hands_per_iteration=hands,
        seed=seed, cdf_change_per_iteration=history,
        method="blended iterated best response (analysis/fit.py)", seconds=round(seconds, 1))
    write_json(path.with_suffix(".json"), manifest)
    return manifest


def fit_and_save(rules, players, path=None, resume=False, **options):
    """Fit and store; returns the manifest.  Rounds are checkpointed beside the strategy file
    (``.<name>.partial.npz``, removed at the end); ``resume`` continues an interrupted fit."""
    from analysis.policies import strategy_path

    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    path = Path(path or strategy_path(rules.id, players))
    checkpoint = path.with_name(f".{path.stem}.partial.npz")
    start = time.perf_counter()
    mass, history = fit_equilibrium(rules, players, checkpoint=checkpoint, resume=resume, **options)
    manifest = save_strategy(path, mass, rules, players, history, options.get("hands", 20000),
                             options.get("seed", 0), time.perf_counter() - start)
    checkpoint.unlink(missing_ok=True)
    return manifest
