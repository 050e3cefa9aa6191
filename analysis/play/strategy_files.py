"""Fitted strategy files: where they are, reading them, and the policy they make.

Fitted strategies are files ``<ruleset>-<players>p.npz`` with a JSON manifest beside them,
written by ``sapsam fit`` (:mod:`sapsam.strategy.fit`).  They ship inside the package
(``analysis/play/strategies/``); a user's own fits live in the user's data folder
(:func:`user_strategy_dir`) and take precedence, so that a fit the user made is the one used;
fits made on demand for any other ruleset or table size are cached there too
(:func:`on_demand_dir`).  A strategy is used only for the rules it was fitted for: its manifest
records their :meth:`~sapsam.game.rules.Ruleset.digest`.
"""

import json
from functools import cache
from pathlib import Path

import numpy as np

from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.play.policy import Policy

SHIPPED_STRATEGY_DIR = Path(__file__).resolve().parent / "strategies"


def user_strategy_dir():
    """The folder of the user's own fits: ``$SAPSAM_DATA/strategies`` if that variable is set,
    else ``strategies`` in the user's data folder (platformdirs)."""
    import os

    from platformdirs import user_data_path

    root = os.environ.get("SAPSAM_DATA")
    return (Path(root) if root else user_data_path("sapsam", appauthor=False)) / "strategies"


def strategy_name(rules_id, players):
    """The file name of a ruleset id's strategy at a table size."""
    return f"{rules_id}-{players}p.npz"


def on_demand_dir():
    """Where fits made on demand are cached: ``on-demand`` in :func:`user_strategy_dir`, one
    file per ruleset content (:meth:`~sapsam.game.rules.Ruleset.digest`) and table size."""
    return user_strategy_dir() / "on-demand"


def on_demand_path(rules, players):
    """The cached on-demand fit of a ruleset's content at a table size (it may not exist)."""
    return on_demand_dir() / f"{rules.digest()}-{players}p.npz"


def strategy_path(rules_id, players):
    """The file of a ruleset id's strategy at a table size: the user's own fit if there is one,
    else the shipped one (either may not exist, or be for other rules under that id:
    :func:`find_strategy` checks)."""
    own = user_strategy_dir() / strategy_name(rules_id, players)
    return own if own.is_file() else SHIPPED_STRATEGY_DIR / strategy_name(rules_id, players)


def find_strategy(rules, players):
    """The fitted strategy of a ruleset (a :class:`~sapsam.game.rules.Ruleset`) at a table
    size, or None: the user's own fit, else the shipped one for the same rules (whatever their
    id), else a cached on-demand fit; each only if its manifest says it was fitted for these
    rules (their digest) and this table size, so that an edited ruleset file never plays an
    old fit."""
    name = strategy_name(rules.id, players)
    shipped = _shipped_by_digest().get((rules.digest(), players))  # a named one, under any id
    for path in (user_strategy_dir() / name, shipped, on_demand_path(rules, players)):
        if path is not None and path.is_file() and _fitted_for(path, rules, players):
            return path
    return None


@cache
def _shipped_by_digest():
    """The shipped fits by (ruleset digest, players): read once, they never change."""
    found = {}
    for path in sorted(SHIPPED_STRATEGY_DIR.glob("*p.npz")):
        try:
            made = manifest(path)
        except (OSError, ValueError):
            continue
        found.setdefault((made.get("ruleset_digest"), made.get("players")), path)
    return found


def _fitted_for(path, rules, players):
    try:
        made = manifest(path)
    except (OSError, ValueError):
        return False
    return made.get("players") == players and made.get("ruleset_digest") == rules.digest()


def check_strategy(path, rules, players):
    """Refuse a strategy file made for other rules (their digest, or for files from before
    digests their id) or another table size: its manifest says which."""
    path = Path(path)
    try:
        made = manifest(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"strategy {path}: its manifest {path.with_suffix('.json')} cannot be "
                         f"read ({getattr(exc, 'strerror', None) or exc}); a strategy file needs the "
                         "manifest 'sapsam fit' writes beside it") from None
    theirs, digest = made.get("ruleset"), made.get("ruleset_digest")
    same = digest == rules.digest() if digest is not None else theirs == rules.id  # from before digests: by id
    if not same or made.get("players") != players:
        changed = " (the ruleset changed since it was fitted)" if theirs == rules.id and not same else ""
        raise ValueError(f"strategy {path} was fitted for {theirs} with {made.get('players')} "
                         f"players{changed}, not {rules.id} with {players} players")


def _read(path):
    """A strategy file's arrays (read whole; a clear error if it cannot be)."""
    from sapsam.base.files import load_npz

    return load_npz(path, "strategy file (as 'sapsam fit' writes)", ("row_mass",))


def load_strategy(path, data=None):
    """A strategy file's per-row strength distribution (float64 (3, N_STRENGTHS)) and the
    share of the field that surrenders (0 for files without it); ``data``: its arrays, if
    already read."""
    data = _read(path) if data is None else data
    mass = data["row_mass"]
    if mass.shape != (3, N_STRENGTHS):
        raise ValueError(f"{path}: row_mass has shape {mass.shape}, expected (3, {N_STRENGTHS})")
    if not (np.issubdtype(mass.dtype, np.number) and np.isfinite(mass).all() and (mass >= 0).all()):
        raise ValueError(f"{path}: row_mass holds values that are not finite, non-negative numbers "
                         "(a share of hands per row and strength)")
    if not (mass.sum(axis=1) > 0).all():
        raise ValueError(f"{path}: row_mass gives a row no hands (each row's shares must add up to more than 0)")
    rate = data["surrender_rate"] if "surrender_rate" in data else 0.0
    try:
        rate = float(rate) if np.shape(rate) == () else None
    except (TypeError, ValueError):
        rate = None
    if rate is None or not 0 <= rate <= 1:  # NaN fails too
        raise ValueError(f"{path}: surrender_rate must be one number from 0 to 1 (a share of the field)")
    return mass, rate


# a card-removal model's arrays in a strategy file (sapsam.kernels.removal), and its field's
# copula (fits from 2026-11-28 on; optional)
REMOVAL_KEYS = ("removal_gamma", "removal_xmean", "removal_edges")
COPULA_KEY = "removal_copula"


def load_removal(path, data=None):
    """A strategy file's card-removal model (:mod:`sapsam.kernels.removal`) as
    :meth:`sapsam.play.policy.Policy.from_row_mass` takes it, (gamma, xmean, edges, copula), or
    None if it has none (a fit under a low middle, or an older file); copula None if the file
    has none."""
    from sapsam.kernels.removal import BASE_FEATURES, N_BINS, N_FEATURES, N_GRID

    data = _read(path) if data is None else data
    if not all(key in data for key in REMOVAL_KEYS):
        return None
    gamma, xmean, edges = (data[key] for key in REMOVAL_KEYS)
    # the features a model was fitted with: the first 16 (fits of 2026-11-28) or all of them
    features = xmean.shape[0] if xmean.shape[:1] == (BASE_FEATURES,) else N_FEATURES
    shapes = {"removal_gamma": (3, N_BINS, features), "removal_xmean": (features,),
              "removal_edges": (3, N_BINS)}
    for key, array in zip(REMOVAL_KEYS, (gamma, xmean, edges)):
        if array.shape != shapes[key]:
            raise ValueError(f"{path}: {key} has shape {array.shape}, expected {shapes[key]}")
    if np.any(np.diff(edges, axis=1) < 0) or edges.min() < 0 or edges.max() > N_STRENGTHS:
        raise ValueError(f"{path}: removal_edges must rise from 0 to at most {N_STRENGTHS}")
    copula = data[COPULA_KEY] if COPULA_KEY in data else None
    if copula is not None:
        if copula.shape != (2,) + (N_GRID + 1,) * 3:
            raise ValueError(f"{path}: {COPULA_KEY} has shape {copula.shape}, expected "
                             f"{(2,) + (N_GRID + 1,) * 3}")
        if (copula.min() < 0 or copula.max() > 1 + 1e-9
                or any(np.any(np.diff(copula, axis=a) < -1e-12) for a in (1, 2, 3))):
            raise ValueError(f"{path}: {COPULA_KEY} must be a distribution function: rising "
                             "along each row's axis, from 0 to 1")
    return gamma, xmean, edges, copula


# criss-cross fits: (splits, rounds, blend) of the exact field each player's settings are valued
# against (sapsam.play.policy.Policy.crossed; optional, absent: the fitted field)
EXACT_FIELD_KEY = "exact_field"


def load_exact_field(path, data=None):
    """A strategy file's exact field (:data:`EXACT_FIELD_KEY`) as (splits, rounds, blend), ()
    if it has none (:func:`sapsam.play.policy.require_exact_field` checks its values)."""
    data = _read(path) if data is None else data
    if EXACT_FIELD_KEY not in data:
        return ()
    exact = data[EXACT_FIELD_KEY]
    if exact.shape != (3,):
        raise ValueError(f"{path}: {EXACT_FIELD_KEY} has shape {exact.shape}, expected (3,): splits, rounds "
                         "and blend")
    return tuple(exact.tolist())


def shipped_features(rules_id, players):
    """How many features of a hand the shipped fit of a table reads (its manifest's
    ``card_removal.features``: 16 for the fits of 2026-11-28 not refitted since, else 61), so
    that ``make strategies`` refits each table as it was fitted; 61 where none is shipped."""
    path = SHIPPED_STRATEGY_DIR / strategy_name(rules_id, players)
    try:
        return int(manifest(path).get("card_removal", {}).get("features", 61))
    except (OSError, ValueError):
        return 61


def manifest(path):
    """The JSON manifest beside a strategy file: an object (``ValueError`` if not)."""
    made = json.loads(Path(path).with_suffix(".json").read_text())
    if not isinstance(made, dict):
        raise ValueError(f"it holds a JSON {type(made).__name__}, not an object")
    return made


class MissingStrategy(ValueError):
    """No fitted strategy for a ruleset and table size (the strategy layer fits one)."""


def fitted_policy(rules, players, strategy=None):
    """The ``fitted`` policy of a ruleset (a :class:`~sapsam.game.rules.Ruleset`) and table
    size: from ``strategy`` (a file, refused if made for other rules or another table size) or
    from :func:`find_strategy`; :class:`MissingStrategy` if there is none
    (:func:`sapsam.strategy.fit.fitted_strategy` fits one on demand)."""
    if strategy is not None:
        path = Path(strategy)
        if not path.is_file():
            raise ValueError(f"strategy file {path} does not exist")
        check_strategy(path, rules, players)
    else:
        path = find_strategy(rules, players)
        if path is None:
            raise MissingStrategy(f"no fitted strategy for {rules.id} with {players} players; "
                                  f"run 'sapsam fit --rules {rules.id} --players {players}'")
    data = _read(path)  # once, for its three parts
    mass, rate = load_strategy(path, data)
    return Policy.from_row_mass("fitted", mass, rules, str(path), rate, load_removal(path, data),
                                 load_exact_field(path, data))
