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
from sapsam.play.strategy_files import COPULA_KEY, EXACT_FIELD_KEY, REMOVAL_KEYS


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


def removal_pairs(rules, players, hands):
    """Which hands' rows each hand's card-removal model learns from: the opposing hands at its
    table (every other player's; in criss-cross, the other player's two).  Returns int64
    (pairs, 2) of (seat, opposing seat) within a table of ``players * hands`` hands."""
    seats = players * hands
    return np.array([(i, j) for i in range(seats) for j in range(seats)
                     if i // hands != j // hands], np.int64)


def default_removal_tables(rules, players):
    """Tables a round of :func:`fit_removal` deals: about 400,000 (hand, opposing hand) pairs,
    at least 20,000 tables."""
    seats = players * rules.hands
    return max(20000, 400000 // (seats * (seats - rules.hands)))


def fit_removal(rules, players, row_mass, surrender_rate, rounds=4, tables=None, seed=0, blend=0.5,
                progress=None, features=None):
    """Fit a card-removal model (:mod:`sapsam.kernels.removal`) to a fitted field, by rounds of
    self-play of the policy it makes.

    Each round deals ``tables`` tables, lets every hand decide by the current policy (the field
    ``row_mass`` corrected by the current model), and regresses, per row and bin of strengths,
    whether an opposing hand's row fell in the bin on the hand's centred features: the bin's
    mass relative to its mean, linear in the features (one least-squares solve for all bins).
    The field's masses and the model are blended into the running ones (weight
    ``max(blend, 1 / (round + 1))``), a fictitious-play average as :func:`fit_equilibrium`
    keeps.  Bins are cut once, at equal steps of the starting field's mass.  The model reads a
    hand's first ``features`` (:data:`sapsam.kernels.removal.BASE_FEATURES` or, the default, all
    :data:`sapsam.kernels.removal.N_FEATURES`).  The field's copula
    (:func:`sapsam.kernels.removal.field_copula`: how an opponent's three rows go together, what
    a sweep's chance needs) is measured on each round's settings and blended alike.

    Returns (row_mass, surrender_rate, (gamma, xmean, edges, copula), history): the field, its
    surrender rate, the model as :meth:`sapsam.play.policy.Policy.from_row_mass` takes it, and each
    round's largest change of a bin's relative mass at a typical hand.
    """
    from sapsam.kernels import removal as _kr
    from sapsam.play.deal import deal_tables

    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    compiled = rules.compile()
    hands = rules.hands
    tables = tables or default_removal_tables(rules, players)
    edges = _kr.removal_edges(row_mass)
    bin_of = _kr.bins_of_edges(edges)
    pairs = removal_pairs(rules, players, hands)
    features = features or _kr.N_FEATURES
    if features not in (_kr.BASE_FEATURES, _kr.N_FEATURES):
        raise ValueError(f"a card-removal model reads {_kr.BASE_FEATURES} or {_kr.N_FEATURES} "
                         f"features of a hand, not {features}")
    gamma = np.zeros((3, _kr.N_BINS, features))
    xmean = copula = None
    mass, rate, history = np.array(row_mass, np.float64), float(surrender_rate), []
    for it in range(rounds):
        stream = Stream(seed, "fit", (1000 + it,))
        policy = Policy.from_row_mass("fitted", mass, rules, "fit", rate,
                                      (gamma, xmean, edges, copula) if xmean is not None else None)
        dealt = deal_tables(tables, players * hands, stream)
        flat = dealt.reshape(-1, 13)
        rows, _, _, surrender = _kp.play_hands(flat, policy.arrays, compiled.arrays,
                                               rules.opposing_hands(players),
                                               stream.child(1).states(CHUNKS), paired=hands == 2)
        rows = rows.reshape(tables, players * hands, 3).astype(np.int64)
        x = np.zeros((len(flat), _kr.N_FEATURES))
        _kr.many_features(flat, hands == 2, x)
        x = x[:, :features].reshape(tables, players * hands, features)
        xs = x[:, pairs[:, 0]].reshape(-1, features)
        ys = rows[:, pairs[:, 1]].reshape(-1, 3)
        kept = ys[:, 0] >= 0
        xs, ys = xs[kept], ys[kept]
        mean = xs.mean(axis=0)
        xmean = mean if xmean is None else xmean
        centred = xs - xmean
        gram = centred.T @ centred
        new = np.zeros_like(gamma)
        for k in range(3):
            b = bin_of[k, ys[:, k]]
            share = np.bincount(b, minlength=_kr.N_BINS) / len(b)
            moments = np.stack([np.bincount(b, weights=centred[:, f], minlength=_kr.N_BINS)
                                for f in range(features)], axis=1)
            # E[1(row in bin) | x] = share (1 + gamma . x): gamma = gram^-1 X'1(bin) / share
            solved = np.linalg.lstsq(gram, moments.T, rcond=None)[0].T
            new[k] = np.where(share[:, None] > 0, solved / np.maximum(share[:, None], 1e-300), 0.0)
        played = rows.reshape(-1, 3)
        played = played[played[:, 0] >= 0]
        played_mass = np.stack([np.bincount(played[:, k], minlength=N_STRENGTHS)
                                for k in range(3)]).astype(float)
        played_mass /= played_mass.sum(axis=1, keepdims=True)
        weight = max(blend, 1.0 / (it + 1))
        measured = _kr.field_copula(played, mass)
        copula = measured if copula is None else (1 - weight) * copula + weight * measured
        change = float(np.abs((new - gamma) @ np.sqrt(np.diag(gram) / len(xs))).max())
        gamma = (1 - weight) * gamma + weight * new
        mass = (1 - weight) * mass + weight * played_mass
        rate = (1 - weight) * rate + weight * float(surrender.mean())
        history.append(change)
        if progress is not None:
            progress(it + 1, change)
    return mass, rate, (gamma, xmean, edges, copula), history


def strategy_file(path):
    """``path`` as a strategy file: it must end in ``.npz``, so that its manifest (the same
    name ending in ``.json``) never takes its place."""
    path = Path(path)
    if path.suffix != ".npz":
        raise ValueError(f"a strategy file ends in .npz (its manifest is written beside it as "
                         f".json), got {path}")
    return path


def exact_field_default(rules, splits=None):
    """The exact field a fit of ``rules`` carries (:meth:`sapsam.play.policy.Policy.crossed`):
    (splits, :data:`EXACT_ROUNDS`, :data:`EXACT_BLEND`).  By default (``splits`` None)
    :data:`EXACT_SPLITS` where it applies (criss-cross, rows that pay their unit alone) and ()
    elsewhere; 0 splits: (); any other number where it cannot apply is refused, saying why."""
    from sapsam.play.policy import require_exact_field

    if splits == 0:
        return ()
    exact = (splits or EXACT_SPLITS, EXACT_ROUNDS, EXACT_BLEND)
    try:
        require_exact_field(rules, exact)
    except ValueError:
        if splits is None:  # the default: none where it does not apply
            return ()
        raise
    return exact


# Criss-cross's exact field: the opponent's and the player's 26 cards each dealt 512 ways, 12
# rounds of iterated best response blended a quarter of the way.  Measured on 80 sides of 40
# deals, the best response's held-out gain from the opponent's actual rows: 0.0011 +- 0.0011
# units a hand (0.0105 for the fitted field; 256 splits 0.0040, 1,024 splits 0.0003; a best
# response to the fitted play alone, no rounds, 0.033 in sapsam exploit), 0.18 s a player
EXACT_SPLITS, EXACT_ROUNDS, EXACT_BLEND = 512, 12, 0.25


def save_strategy(path, row_mass, surrender_rate, rules, players, history, hands, seed, seconds,
                  removal=None, removal_history=(), removal_tables=0, exact=()):
    """Write a strategy file and its manifest, each atomically; with ``removal`` (gamma, xmean,
    edges, copula, as :func:`fit_removal` gives it) the card-removal model too, and with
    ``exact`` (splits, rounds, blend) criss-cross's exact field."""
    path = strategy_file(path)
    arrays = {"row_mass": row_mass, "surrender_rate": np.float64(surrender_rate)}
    extra = {}
    if exact:
        arrays[EXACT_FIELD_KEY] = np.array(exact, np.float64)
        extra["exact_field"] = {
            "splits": exact[0], "rounds": exact[1], "blend": exact[2],
            "method": "each player's settings valued against the opponent's 26 cards dealt and played, "
                      "after rounds of iterated best response on that deal (sapsam.kernels.crossed)"}
    if removal is not None:
        gamma, xmean, edges, copula = removal
        arrays.update(zip(REMOVAL_KEYS, (gamma, xmean, edges)), **{COPULA_KEY: copula})
        extra = {"card_removal": {
            "rounds": len(removal_history), "tables_per_round": removal_tables,
            "bins": int(gamma.shape[1]), "features": int(gamma.shape[2]),
            "change_per_round": list(removal_history), "copula_grid": int(copula.shape[1] - 1),
            "method": "bin masses linear in the hand's features, by rounds of self-play "
                      "(sapsam.strategy.fit.fit_removal)"}, **extra}
    write_npz(path, **arrays)
    manifest = provenance(
        ruleset=rules.id, ruleset_digest=rules.digest(), players=players,
        surrender_rate=surrender_rate,
        iterations=len(history), hands_per_iteration=hands,
        seed=seed, cdf_change_per_iteration=history,
        method="blended iterated best response (analysis/strategy/fit.py)", seconds=round(seconds, 1),
        **extra)
    write_json(path.with_suffix(".json"), manifest)
    return manifest


def default_strategy_path(rules_id, players):
    """Where ``sapsam fit`` writes when not told: the user's strategy folder, never the
    strategies shipped in the package."""
    from sapsam.play.strategy_files import strategy_name, user_strategy_dir

    return user_strategy_dir() / strategy_name(rules_id, players)


def fit_and_save(rules, players, path=None, resume=False, fresh=False, removal_rounds=4,
                 removal_tables=None, removal_progress=None, removal_features=None, exact_splits=None,
                 **options):
    """Fit and store; returns the manifest.  The field's rounds are checkpointed beside the
    strategy file (:func:`sapsam.base.files.checkpoint_beside`, removed at the end); ``resume``
    continues an interrupted fit, ``fresh`` discards its checkpoint.  Then
    ``removal_rounds`` rounds of :func:`fit_removal` of ``removal_tables`` tables each
    (default :func:`default_removal_tables`; a minute at most; 0 rounds: none), reading a
    hand's first ``removal_features`` (default: all).  Criss-cross's exact field plays
    ``exact_splits`` of each side's cards (:func:`exact_field_default`; 0: none)."""
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    path = strategy_file(path or default_strategy_path(rules.id, players))
    exact = exact_field_default(rules, exact_splits)
    checkpoint = checkpoint_beside(path)
    start = time.perf_counter()
    mass, rate, history = fit_equilibrium(rules, players, checkpoint=checkpoint, resume=resume,
                                          fresh=fresh, **options)
    removal, removal_history, tables = None, (), 0
    if removal_rounds:
        tables = removal_tables or default_removal_tables(rules, players)
        mass, rate, removal, removal_history = fit_removal(
            rules, players, mass, rate, removal_rounds, tables, options.get("seed", 0),
            progress=removal_progress, features=removal_features)
    manifest = save_strategy(path, mass, rate, rules, players, history, options.get("hands", 20000),
                             options.get("seed", 0), time.perf_counter() - start, removal,
                             removal_history, tables, exact)
    checkpoint.unlink(missing_ok=True)
    return manifest


# A fit made on demand: the same method and budget as a plain 'sapsam fit' (under a minute on
# 2 cores, its card-removal rounds included), cached under the ruleset's digest.
ON_DEMAND = {"iterations": 30, "hands": 20000, "seed": 0, "removal_rounds": 4, "removal_tables": None}


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
