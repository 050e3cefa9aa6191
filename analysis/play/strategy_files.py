"""Fitted strategy files: where they are, reading them, and the policy they make.

Fitted strategies are files ``<ruleset>-<players>p.npz`` with a JSON manifest beside them,
written by ``sapsam fit`` (:mod:`analysis.strategy.fit`).  They ship inside the package
(``analysis/play/strategies/``); a user's own fits live in the user's data folder
(:func:`user_strategy_dir`) and take precedence, so that a fit the user made is the one used.
"""

import json
from pathlib import Path

from analysis.play.policy import Policy
from kernels.evaluate import N_STRENGTHS

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


def strategy_path(rules_id, players):
    """The strategy file used for a ruleset id and table size: the user's own fit if there is
    one, else the shipped one (which may not exist: check ``is_file()``)."""
    own = user_strategy_dir() / strategy_name(rules_id, players)
    return own if own.is_file() else SHIPPED_STRATEGY_DIR / strategy_name(rules_id, players)


def fitted_strategies():
    """(ruleset id, players) of every shipped or user-fitted strategy, sorted."""
    found = set()
    for folder in (SHIPPED_STRATEGY_DIR, user_strategy_dir()):
        for path in folder.glob("*p.npz"):
            rid, _, n = path.stem.rpartition("-")
            if n[:-1].isdigit():
                found.add((rid, int(n[:-1])))
    return sorted(found)


def check_strategy(path, rules_id, players):
    """Refuse a strategy file made for another ruleset or table size (its manifest says which)."""
    path = Path(path)
    try:
        made = manifest(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"strategy {path}: its manifest {path.with_suffix('.json')} cannot be "
                         f"read ({getattr(exc, 'strerror', None) or exc}); a strategy file needs the "
                         "manifest 'sapsam fit' writes beside it") from None
    theirs = (made.get("ruleset"), made.get("players"))
    if theirs != (rules_id, players):
        raise ValueError(f"strategy {path} was fitted for {theirs[0]} with {theirs[1]} players, "
                         f"not {rules_id} with {players} players")


def load_strategy(path):
    """A strategy file's per-row strength distribution (float64 (3, N_STRENGTHS)) and the
    share of the field that surrenders (0 for files without it)."""
    from analysis.base.files import load_npz

    data = load_npz(path, "strategy file (as 'sapsam fit' writes)", ("row_mass",))
    mass = data["row_mass"]
    rate = float(data["surrender_rate"]) if "surrender_rate" in data else 0.0
    if mass.shape != (3, N_STRENGTHS):
        raise ValueError(f"{path}: row_mass has shape {mass.shape}, expected (3, {N_STRENGTHS})")
    return mass, rate


def manifest(path):
    """The JSON manifest beside a strategy file."""
    return json.loads(Path(path).with_suffix(".json").read_text())


def fitted_policy(rules, players, strategy=None):
    """The ``fitted`` policy of a ruleset (a :class:`~analysis.game.rules.Ruleset`) and table size:
    from ``strategy`` (a file, refused if made for another ruleset or table size) or from
    :func:`strategy_path`."""
    path = Path(strategy) if strategy else strategy_path(rules.id, players)
    if strategy and path.is_file():
        check_strategy(path, rules.id, players)
    if not path.is_file():
        have = ", ".join(f"{r} ({p} players)" for r, p in fitted_strategies()) or "none"
        raise ValueError(f"no fitted strategy for {rules.id} with {players} players at {path} "
                         f"(have: {have}); run 'sapsam fit --rules {rules.id} --players {players}'")
    mass, rate = load_strategy(path)
    return Policy.from_row_mass("fitted", mass, rules, str(path), rate)
