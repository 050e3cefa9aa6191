"""The report of a table simulation: tables, plots, a Markdown summary and a manifest.

:func:`write_report` turns the integer totals of :func:`sapsam.measure.simulate.run` into a folder
a reader can use without Python:

=========================  ===========================================================
``seats.csv/.parquet``     per ruleset and seat: policy, hands, total and mean units,
                           SD, 95% CI of the mean, event counts (fouls, surrenders,
                           naturals declared, sweeps given and taken, home runs, bank hands)
``naturals.csv/.parquet``  per ruleset and natural: hands holding it, frequency, the exact
                           probability (:mod:`sapsam.game.exact`), 95% Wilson interval, z-score
``points.csv/.parquet``    per ruleset and seat: hands ending on each whole number of units
``totals.npz``             the raw totals ``acc``, ``hist``, ``held`` (int64), the finished
                           blocks ``done`` and the run (JSON) — enough to re-render
``summary.md``             the same numbers to read
``manifest.json``          the run, block counts, wall time, backend, versions and git revision
                           (STYLE.md item 11)
``ev_by_ruleset.png/svg``, ``points_distribution.png/svg``, ``naturals.png/svg``: plots
=========================  ===========================================================

Every file is written atomically (a temporary file in the same folder, then ``os.replace``,
as :mod:`sapsam.base.files` does, but with the usual file permissions), so an interrupted
write never leaves a half file.  :func:`render_report` rebuilds all of it
from ``totals.npz`` and ``manifest.json`` (or from the run's ``checkpoint.npz``) without
simulating: ``sapsam report DIR``.

Intervals: the CI of a seat's mean is the normal one, mean +- 1.96 SD / sqrt(hands); a
natural's observed frequency gets the Wilson score interval (E. B. Wilson, "Probable
inference, the law of succession, and statistical inference", JASA 22, 1927), which stays
sensible at zero counts; its z-score is ``(count - n p) / sqrt(n p (1 - p))`` with ``p`` exact.
"""

import io
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from sapsam.base.files import load_json, load_npz, provenance, write_atomic, write_npz
from sapsam.base.stats import wilson_interval
from sapsam.game.cards import RANKS
from sapsam.game.exact import natural_probability
from sapsam.kernels import simulate as _ks
from sapsam.kernels.naturals import NAT_KIND, NAT_PARAMETER, NATURAL_KINDS
from sapsam.measure.simulate import (
    CHECKPOINT,
    Simulation,
    compile_simulation,
    run_key,
)
from sapsam.output import plots
from sapsam.output.report_figures import plot_ev, plot_naturals, plot_points
from sapsam.output.simulation_frames import EVENTS, naturals_frame, points_frame, seats_frame

TOTALS = "totals.npz"
MANIFEST = "manifest.json"
SUMMARY = "summary.md"
TABLES = ("seats", "naturals", "points")
PLOTS = ("ev_by_ruleset", "points_distribution", "naturals")
NATURAL_COLUMNS = ["ruleset", "natural", "count", "hands", "frequency", "exact", "parameter",
                   "label", "ci_low", "ci_high", "expected", "z"]
# provenance() keys that describe the software which produced the numbers
_PROVENANCE_KEYS = ("sapsam", "numpy", "numba", "python", "git", "date")


def report_files():
    """Names of every file :func:`write_report` writes, in writing order."""
    return ([TOTALS, MANIFEST] + [f"{t}.{ext}" for t in TABLES for ext in ("csv", "parquet")]
            + [SUMMARY] + [f"{p}.{ext}" for p in PLOTS for ext in ("png", "svg")])


def write_report(out_dir, sim, compiled, totals, seconds, backend, *, done=None, produced=None,
                 run=None):
    """Write the tables, plots, summary and manifest of a simulation into ``out_dir``.

    Parameters
    ----------
    out_dir : path
        Folder (created if missing); files already there with the same names are replaced.
    sim : sapsam.measure.simulate.Simulation
    compiled : sapsam.measure.simulate.Compiled
        ``compile_simulation(sim)``.
    totals : (acc, hist, held)
        From :func:`sapsam.measure.simulate.run`: ``acc`` int64 (R, P, N_ACC), ``hist`` int64
        (R, P, N_HIST), ``held`` int64 (R, K).
    seconds : float or None
        Wall time of the run (None when unknown, e.g. rendered from a checkpoint).
    backend : str or None
        What computed the blocks (``"local"``, ``"dask tcp://..."``).
    done : ndarray(bool), shape (sim.blocks,), optional
        Finished blocks, for a partial run rendered from a checkpoint; default all.
    produced : dict, optional
        Provenance of the software that simulated (``sapsam``, ``numpy``, ``numba``,
        ``python``, ``git``, ``date``) when it is not this process, as :func:`render_report`
        passes it from the old manifest; this process then shows up under ``rendered``.
    run : dict, optional
        The key the totals were made under, kept on a re-render (default: ``run_key``).

    Returns
    -------
    list of pathlib.Path
        The files written (:func:`report_files`).

    Examples
    --------
    >>> sim = Simulation(("standard",), 4, ("greedy",) * 4, 1000, seed=1)  # doctest: +SKIP
    >>> write_report("results/sim", sim, compile_simulation(sim), run(sim), 12.5, "local")  # doctest: +SKIP
    """
    out = Path(out_dir)
    key = run_key(sim, compiled) if run is None else run
    acc, hist, held = _check_totals(sim, compiled, totals)
    done = np.ones(sim.blocks, np.bool_) if done is None else np.asarray(done, np.bool_)
    if done.shape != (sim.blocks,):
        raise ValueError(f"done must have one flag per block ({sim.blocks}), got shape {done.shape}")
    if acc[:, :, _ks.A_HANDS].min() < 1:
        raise ValueError("no hands in these totals: nothing to report")
    written = []

    write_npz(out / TOTALS, acc=acc, hist=hist, held=held, done=done,
              run=json.dumps(key))
    written.append(out / TOTALS)
    manifest = _manifest(sim, compiled, acc, done, seconds, backend, produced, key)
    write_atomic(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    written.append(out / MANIFEST)

    frames = report_frames(sim, compiled, acc, hist, held)
    for name in TABLES:
        frame = frames[name]
        write_atomic(out / f"{name}.csv", frame.to_csv(index=False))
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        write_atomic(out / f"{name}.parquet", buffer.getvalue())
        written += [out / f"{name}.csv", out / f"{name}.parquet"]

    write_atomic(out / SUMMARY, summary_markdown(sim, compiled, frames, manifest))
    written.append(out / SUMMARY)

    for name, draw in (("ev_by_ruleset", plot_ev), ("points_distribution", plot_points),
                       ("naturals", plot_naturals)):
        written += plots.save_figure(draw(sim, compiled, frames, manifest), out / name)
    return written


def render_report(out_dir):
    """Re-render the whole report of a run folder from its saved totals, without simulating.

    Reads ``totals.npz`` and ``manifest.json`` (a finished report), or the run's
    ``checkpoint.npz`` when there is no report yet or the checkpoint has more finished blocks
    (an interrupted or resumed run); rebuilds the :class:`~sapsam.measure.simulate.Simulation` from
    the saved run and calls :func:`~sapsam.measure.simulate.compile_simulation` for the ruleset
    metadata.  Wall time and backend are kept from the manifest when its totals are used.

    Parameters
    ----------
    out_dir : path
        A folder written by :func:`write_report` or holding a checkpoint of
        :func:`sapsam.measure.simulate.run`.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Examples
    --------
    >>> render_report("results/sim")  # doctest: +SKIP
    """
    out = Path(out_dir)
    report = _load_npz(out / TOTALS)
    checkpoint = _load_npz(out / CHECKPOINT)
    if report is None and checkpoint is None:
        raise ValueError(f"{out} holds no simulation: neither {TOTALS} nor {CHECKPOINT}")
    if report is not None and checkpoint is not None and report["run"] != checkpoint["run"]:
        raise ValueError(f"{out / TOTALS} and {out / CHECKPOINT} belong to different runs; "
                         "move one of them away")
    manifest = None
    if (out / MANIFEST).is_file():
        manifest = load_json(out / MANIFEST, "simulation manifest", dict)
    use_report = report is not None and (
        checkpoint is None or report["done"].sum() >= checkpoint["done"].sum())
    data = report if use_report else checkpoint
    sim = data["sim"]
    seconds = backend = produced = None
    if use_report and manifest is not None and manifest.get("run") == data["run"]:
        seconds, backend = manifest.get("seconds"), manifest.get("backend")
        produced = {k: manifest.get(k) for k in _PROVENANCE_KEYS}
    return write_report(out, sim, compile_simulation(sim), (data["acc"], data["hist"], data["held"]),
                        seconds, backend, done=data["done"], produced=produced, run=data["run"])


def _load_npz(path):
    if not path.is_file():
        return None
    data = load_npz(path, "simulation's totals", ("acc", "hist", "held", "done", "run"))
    try:  # the run as stored and as a Simulation, read once (a damaged description told apart)
        run = json.loads(str(data["run"]))
        return {**{k: data[k] for k in ("acc", "hist", "held")}, "done": data["done"].astype(np.bool_),
                "run": run, "sim": Simulation.from_description(run)}
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: its description of the run is damaged ({type(exc).__name__}: {exc})") from None


def _check_totals(sim, compiled, totals):
    try:
        acc, hist, held = totals
    except (TypeError, ValueError):
        raise TypeError("totals must be the (acc, hist, held) of sapsam.measure.simulate.run") from None
    n_rules, k_max = compiled.naturals.shape[:2]
    want = {"acc": (n_rules, sim.players, _ks.N_ACC), "hist": (n_rules, sim.players, _ks.N_HIST),
            "held": (n_rules, k_max)}
    out = []
    for name, array in (("acc", acc), ("hist", hist), ("held", held)):
        array = np.asarray(array)
        if array.dtype.kind not in "iu":
            raise TypeError(f"{name} must hold integers (int64 totals), got {array.dtype}")
        if array.shape != want[name]:
            raise ValueError(f"{name} must have shape {want[name]} for this run, got {array.shape}")
        out.append(array.astype(np.int64))
    return out


# ---- tables -----------------------------------------------------------------------------------

def natural_label(kind, parameter):
    """A natural and its option in words: ``natural_label(11, 6) == 'small (2-8)'``."""
    name = NATURAL_KINDS[kind]
    option = {
        "six-pairs": {0: "strict", 1: "quads as two pairs", 2: "trips and quads count"},
        "three-straights": {0: "front A-2-3 or Q-K-A", 1: "front A-2-3", 2: "front Q-K-A"},
        "four-trips": {1: "quads as trips"},
        "small": {parameter: f"2-{RANKS[parameter]}"} if 0 <= parameter < 13 else {},
        "big": {parameter: f"{RANKS[parameter]}-A"} if 0 <= parameter < 13 else {},
    }.get(name, {}).get(parameter)
    return f"{name} ({option})" if option else name




def report_frames(sim, compiled, acc, hist, held):
    """The report's tables: ``{"seats", "naturals", "points"}`` DataFrames.

    ``naturals`` counts the hands actually dealt (``acc`` hands summed over the seats), so a
    partial run's frequencies are right; it adds the option ``parameter``, a ``label``, the 95%
    Wilson interval, the expected count and the z-score to :func:`sapsam.output.simulation_frames.naturals_frame`.
    """
    seats = seats_frame(sim, compiled, acc)
    naturals = naturals_frame(sim, compiled, held, exact=natural_probability)
    dealt = {rules.id: int(acc[r, :, _ks.A_HANDS].sum()) for r, rules in enumerate(compiled.rulesets)}
    parameters, labels = [], []
    for r in range(len(compiled.rulesets)):
        for k in range(int(compiled.n_naturals[r])):
            kind, parameter = (int(compiled.naturals[r, k, c]) for c in (NAT_KIND, NAT_PARAMETER))
            parameters.append(parameter)
            labels.append(natural_label(kind, parameter))
    naturals["hands"] = naturals["ruleset"].map(dealt).astype(np.int64)
    naturals["frequency"] = naturals["count"] / naturals["hands"]
    naturals["parameter"] = np.array(parameters, np.int64)
    naturals["label"] = pd.Series(labels, dtype=object)
    low, high = wilson_interval(naturals["count"].to_numpy(), naturals["hands"].to_numpy())
    naturals["ci_low"], naturals["ci_high"] = low, high
    p = naturals["exact"].to_numpy(np.float64)
    n = naturals["hands"].to_numpy(np.float64)
    naturals["expected"] = n * p
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (naturals["count"].to_numpy() - n * p) / np.sqrt(n * p * (1 - p))
    naturals["z"] = np.where((p > 0) & (p < 1), z, np.nan)
    return {"seats": seats, "naturals": naturals[NATURAL_COLUMNS],
            "points": points_frame(sim, compiled, hist)}


def _manifest(sim, compiled, acc, done, seconds, backend, produced, key):
    import matplotlib
    import pyarrow

    starts = np.arange(sim.blocks) * sim.block_size
    sizes = np.minimum(sim.block_size, sim.tables - starts)
    what = {
        "what": "table simulation report (sapsam.output.report)",
        "run": key,
        "rulesets": [r.id for r in compiled.rulesets],
        "ruleset_names": {r.id: r.name for r in compiled.rulesets},
        "players": sim.players,
        "policies": list(sim.seats),
        "tables": sim.tables,
        "seed": sim.seed,
        "block_size": sim.block_size,
        "blocks": sim.blocks,
        "blocks_done": int(done.sum()),
        "tables_done": int(sizes[done].sum()),
        "hands_per_ruleset": int(acc[0, :, _ks.A_HANDS].sum()) * len(compiled.seat_policy) // sim.players,
        "complete": bool(done.all()),
        "seconds": None if seconds is None else float(seconds),
        "backend": backend,
        "files": report_files(),
        "pandas": pd.__version__,
        "matplotlib": matplotlib.__version__,
        "pyarrow": pyarrow.__version__,
    }
    record = provenance(**what)
    if produced is not None:  # re-rendered: the numbers keep the software that produced them
        record["rendered"] = {k: record[k] for k in _PROVENANCE_KEYS}
        record.update({k: produced.get(k) for k in _PROVENANCE_KEYS})
    return record


# ---- summary ----------------------------------------------------------------------------------

def _markdown_table(headers, rows, right):
    """A Markdown table; ``right`` says per column whether to right-align it."""
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _per_100(row, event):
    """An event's rate per 100 hands with its 95% interval, e.g. ``8.72 [7.89, 9.64]``."""
    rate, low, high = (100 * x for x in (getattr(row, event) / row.hands, getattr(row, f"{event}_low"),
                                         getattr(row, f"{event}_high")))
    return f"{rate:.2f} [{low:.2f}, {high:.2f}]"


def summary_markdown(sim, compiled, frames, manifest):
    """The readable summary (Markdown) of a report's tables and manifest."""
    seats, naturals = frames["seats"], frames["naturals"]
    lines = [f"# Table simulation: {', '.join(manifest['rulesets'])}", ""]
    done = f"{manifest['tables_done']:,} tables"
    if not manifest["complete"]:
        done = (f"**partial run**: {manifest['tables_done']:,} of {sim.tables:,} tables "
                f"({manifest['blocks_done']} of {sim.blocks} blocks)")
    lines.append(f"{sim.players} players, {done}, {manifest['hands_per_ruleset']:,} hands per ruleset (the same "
                 f"deals under every ruleset); seed {sim.seed}, {sim.blocks_text}.")
    seats_text = ", ".join(f"{p + 1} {name}" for p, name in enumerate(sim.seats))
    lines.append(f"Seats: {seats_text}.")
    timing = []
    if manifest.get("backend"):
        timing.append(f"backend {manifest['backend']}")
    if manifest.get("seconds"):
        seconds = manifest["seconds"]
        timing.append(f"{seconds:,.1f} s wall time ({manifest['tables_done'] / seconds:,.0f} tables/s)")
    timing.append(f"sapsam {manifest['sapsam']}, numba {manifest['numba']}, "
                  f"git {manifest['git'] or 'unknown'}, {manifest['date']}")
    timing = "; ".join(timing)
    lines += [timing[0].upper() + timing[1:] + ".", ""]
    crossed = (" In criss-cross a seat is a player, a hand a deal of its two hands (a home run: one sweeping "
               "both of the opponent's).") if len(compiled.seat_policy) > sim.players else ""
    lines += [(
        "EV is the mean of a seat's points per hand in the ruleset's units, with its 95% confidence interval "
        "(mean ± 1.96 SD/√hands) and the SD of one hand.  Event rates are per 100 hands: fouls (mis-set hands), "
        "surrenders, naturals declared, sweeps given (this seat won all three rows against an opponent) and "
        "taken, home runs (swept every opponent); each with its 95% Wilson interval (where a hand can hold "
        "several, as sweeps, Wilson's on its share of the most it can hold, which the hand's events going "
        "together cannot make too narrow); a bank's hands rotate by the rules." + crossed), ""]
    for rules in compiled.rulesets:
        lines += [f"## {rules.id}: {rules.name}", ""]
        rows = []
        bank = bool(seats.loc[seats.ruleset == rules.id, "bank_hands"].sum())
        for row in seats[seats.ruleset == rules.id].itertuples(index=False):
            n = row.hands
            cells = [row.seat, row.policy, f"{n:,}", f"{row.mean:+.4f}",
                     f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}]", f"{row.sd:.3f}",
                     *(_per_100(row, e) for e in EVENTS)]
            rows.append(cells + ([f"{100 * row.bank_hands / n:.2f}"] if bank else []))
        headers = ["Seat", "Policy", "Hands", "EV (units/hand)", "95% CI", "SD (units)",
                   "Fouls", "Surrenders", "Naturals", "Sweeps given", "Sweeps taken", "Home runs"]
        headers += ["Bank"] if bank else []
        right = [True, False] + [True] * (len(headers) - 2)
        lines += [_markdown_table(headers, rows, right), ""]
        held = naturals[naturals.ruleset == rules.id]
        if held.empty:
            lines += ["No naturals in this ruleset.", ""]
            continue
        lines += [(f"Naturals held (declared or not) in {int(held.hands.iloc[0]):,} hands, against "
                  "the exact probability over all C(52, 13) hands; 95% Wilson interval; "
                  "z = (observed − expected) / √(n p (1 − p)), a normal approximation worth reading "
                  "only where the expected count is about 5 or more (else compare the count with "
                  "the interval)."), ""]
        rows = []
        for row in held.itertuples(index=False):
            z = "" if math.isnan(row.z) else f"{row.z:+.2f}"
            one_in = f" (1 in {1 / row.exact:,.0f})" if row.exact > 0 else ""
            rows.append([row.label, f"{row.count:,}", f"{row.frequency:.4g}",
                         f"[{row.ci_low:.3g}, {row.ci_high:.3g}]", f"{row.exact:.4g}{one_in}",
                         f"{row.expected:,.1f}", z])
        lines += [_markdown_table(["Natural", "Observed", "Frequency", "95% interval", "Exact",
                                   "Expected", "z"], rows, [False] + [True] * 6), ""]
    lines += ["Files: " + ", ".join(f"`{name}`" for name in manifest["files"]) + ".", ""]
    return "\n".join(lines)


# ---- plots ------------------------------------------------------------------------------------







