"""Commands of the table simulator: ``simulate`` (resumable, local or on Dask) and ``report``."""

import click

from sapsam.cli.common import (
    Names,
    OutputFolder,
    compile_notice,
    console,
    distinct_rulesets,
    fits_ready,
    quiet_option,
    reports_bad_input,
    resumable,
    resume_options,
    resume_or_fresh,
    seed_option,
    table,
)
from sapsam.play.names import POLICY_NAMES

MAX_TABLES = 10**10  # the int64 tallies are exact up to this many hands (analysis/game/mechanisms.py)


@click.command("simulate")
@click.option("--rules", "rulesets", type=Names(every="all"), required=True,
              help="Ruleset ids or TOML files, comma-separated; 'all' for every named one "
                   "(but criss-cross, which deals two hands a player: simulate it alone).")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Table size  [default: the ruleset's, 4 but in criss-cross]")
@click.option("--seats", type=Names(POLICY_NAMES, repeats=True), default="fitted",
              show_default=True, help="A policy per seat, comma-separated, or one for every seat.")
@click.option("--tables", type=click.IntRange(1, MAX_TABLES), default=100000, show_default=True,
              help="Tables dealt (at most 10**10: the tallies' bound, analysis/game/mechanisms.py).")
@seed_option()
@click.option("--block-size", type=click.IntRange(1), default=500, show_default=True,
              help="Tables per block (one random stream each; the unit of checkpoints and tasks).")
@click.option("--out", required=True, type=OutputFolder(),
              help="Folder for the reports, plots, manifest and checkpoint.")
@resume_options
@click.option("--scheduler", default=None, help="Run the blocks on this Dask scheduler (tcp://HOST:PORT).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Start a local Dask cluster of this many worker processes.")
@click.option("--worker-threads", type=click.IntRange(1), default=1, show_default=True,
              help="Threads of each --workers process, a block each at a time; they share the "
                   "process's compiled simulation.")
@quiet_option()
@reports_bad_input
def simulate_command(rulesets, players, seats, tables, seed, block_size, out, resume, fresh,
                     scheduler, workers, worker_threads, quiet):
    """Deal many tables, set them with the seats' policies, score them under every ruleset.

    The same deals meet every ruleset (common random numbers).  Finished blocks are
    checkpointed in --out; after an interruption, --resume continues and ends with the same
    numbers (--fresh starts over).  The report (CSV, Parquet, Markdown, plots, manifest) is
    written at the end; `sapsam report DIR` re-renders it.
    """
    import time
    from pathlib import Path

    from sapsam.base.files import exclusive, read_checkpoint
    from sapsam.base.progress import Progress
    from sapsam.compile import simulate_kernels
    from sapsam.game import ruleset_files as _rules
    from sapsam.measure.cluster import check_layout
    from sapsam.measure.simulate import (
        CHECKPOINT,
        Simulation,
        compile_simulation,
        elapsed,
        run,
        table_hands,
    )
    from sapsam.output.report import write_report
    from sapsam.output.simulation_frames import seats_frame

    resume_or_fresh(resume, fresh)
    check_layout(scheduler, workers, worker_threads, options=True)
    if rulesets == ("all",):  # criss-cross deals two hands a player: it runs on its own
        ids = [i for i in _rules.ruleset_ids() if _rules.load_ruleset(i).hands == 1]
    else:
        ids = list(rulesets)
    distinct_rulesets(ids)  # unknown ids, malformed files and one ruleset twice fail here
    loaded = [_rules.load_ruleset(i) for i in ids]
    players = players or loaded[0].players
    table_hands(loaded, players)  # a table it can deal, before fitting or touching --out
    sim = Simulation(tuple(ids), players, tuple(seats * players if len(seats) == 1 else seats),
                     tables, seed, block_size)
    compile_notice(quiet or bool(scheduler or workers), *simulate_kernels())
    resumable(saved=[Path(out) / CHECKPOINT])
    with exclusive(Path(out) / ".sapsam.lock", out):
        if not (resume or fresh):  # refuse an earlier run's checkpoint before starting work
            read_checkpoint(Path(out) / CHECKPOINT, None, resume=False)
        start = time.perf_counter()
        backend = "local"
        with Progress(quiet) as bars:
            fits_ready(ids, players, sim.seats, bars, quiet)
            progress = bars.task("tables", tables, unit="tables")
            if scheduler or workers:
                from sapsam.measure.cluster import dask_compute, local_cluster

                backend = f"dask {scheduler or local_cluster(workers, worker_threads)}"
                with dask_compute(sim, scheduler=scheduler, workers=workers, threads=worker_threads) as compute:
                    # a checkpoint every 4 blocks a thread (the blocks stream: none waits)
                    totals = run(sim, out, resume, progress, compute=compute, fresh=fresh,
                                 round_blocks=max(8, 4 * compute.threads))
            else:
                totals = run(sim, out, resume, progress, fresh=fresh)
        session = time.perf_counter() - start
        seconds = max(elapsed(out), session)
        compiled = compile_simulation(sim)
        write_report(out, sim, compiled, totals, seconds, backend)
    grid = table("ruleset", ">seat", "policy", ">EV", ">95% CI", ">SD",
                 title="EV per hand (units), 95% CI")
    for row in seats_frame(sim, compiled, totals[0]).itertuples(index=False):
        grid.add_row(row.ruleset, str(row.seat), row.policy, f"{row.mean:+.4f}",
                     f"{row.ci_low:+.4f} {row.ci_high:+.4f}", f"{row.sd:.3f}")
    out_console = console()
    out_console.print(grid)
    sessions = "" if abs(seconds - session) < 0.05 else f" over all sessions ({session:.1f} s in this one)"
    rulesets = f"{len(ids)} ruleset{'s' if len(ids) != 1 else ''}"
    out_console.print(f"{tables:,} tables x {rulesets} in {seconds:.1f} s{sessions} "
                      f"({tables / seconds:,.0f} tables/s); report, plots and manifest in {out}")


@click.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
@reports_bad_input
def report_command(folder):
    """Re-render the report of a finished simulation in FOLDER (no simulating)."""
    from pathlib import Path

    from sapsam.output.report import render_report

    if not folder.strip():
        raise click.BadParameter("an empty path: give the simulation's folder", param_hint="'FOLDER'")
    if not any((Path(folder) / name).is_file() for name in ("manifest.json", "checkpoint.npz")):
        raise ValueError(f"{folder} holds no simulation (no manifest.json or checkpoint.npz)")
    render_report(folder)
    click.echo(f"re-rendered the report in {folder}")
