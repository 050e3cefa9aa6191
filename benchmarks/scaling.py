"""How ``best`` and ``simulate`` scale with threads on one host, and Dask beside threads.

Usage: ``python benchmarks/scaling.py [--threads 1 2 4 8 16] [--best-tables N] [--sim-tables N]
[--block-size N] [--dask WORKERS[xTHREADS] ...] [--dask-repeats K] [--out FILE]``.

Each figure is the best of ``--repeats`` timed runs, after small untimed runs that compile or
load the kernels.  ``best``: one hand (the README's), 4 players, ``standard``, fitted opponents.
``simulate``: 4-player tables, fitted seats, scored under every ruleset with a fitted 4-player
strategy, the blocks run in-process (no start-up, no report), in blocks of ``--block-size``
tables (500, simulate's default).  Dask: the same simulation on each local cluster that
``--dask`` names (``16``: 16 worker processes of one thread; ``2x8``: 2 of 8 threads, which
share their process's compiled simulation), a task a block, its totals checked equal, bit for
bit, to the threads': ``--dask-repeats`` runs of the cluster and as many of the same number of
threads in this process, taken in turn, their medians compared.  (Blocks of 78 tables, a tenth of a second
each, lose 20% to Dask's work per task on 2 cores; blocks of 500, none.)  Speed-ups are against
one thread; efficiency is the speed-up over the thread count; from 2 threads to the most,
simulate's speed-up is given as a share of best's (issue 39 asks at least 0.9), and simulate's
totals are checked equal, bit for bit, at every thread count.  The host (CPU model, cores,
threads per core) heads the table, which ``--out`` holds after each thread count.
"""

import argparse
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
from bench import cpu_model  # beside this script

SEED = 20240613
HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"


def host():
    """CPU model, logical CPUs, and threads per core (from lscpu where there is one)."""
    import subprocess

    per_core = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Thread(s) per core"):
                per_core = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cpu_model(), os.cpu_count(), per_core


def timed(run, threads, repeats):
    """The best of ``repeats`` timed runs on ``threads`` threads, and the last run's result."""
    numba.set_num_threads(threads)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def dask_against_threads(sim, compiled, totals, workers, repeats, per_worker=1):
    """A local Dask cluster of ``workers`` x ``per_worker`` threads against as many threads in
    this process, the same blocks: ``repeats`` runs of each, in turn (the order reversed every
    other round, so that a machine's drift weighs on both alike), compared by their medians.
    A line of text."""
    from sapsam.measure.cluster import _compiled, dask_compute

    def digest(sim):  # a worker's compiled simulation stays there: only its digest comes back
        return _compiled(sim)[1]
    from sapsam.measure.simulate import run_blocks

    def idle(client):
        # the same blocks again are the same tasks: wait until the scheduler has let the last
        # run's results go, or the next run would be handed them for nothing
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
            time.sleep(0.05)

    rates = {"threads": [], "dask": []}
    same = True
    count = workers * per_worker
    numba.set_num_threads(count)
    with dask_compute(sim, workers=workers, threads=per_worker) as compute:
        # warm-up: every worker compiles the simulation (its rulesets and policy tables), which
        # a few blocks handed out at random need not reach, and loads the kernels
        assert set(compute.client.run(digest, sim).values()) == {compute.digest}
        compute(range(min(sim.blocks, 2 * count)))
        idle(compute.client)
        for k in range(repeats):
            for kind in ("threads", "dask") if k % 2 == 0 else ("dask", "threads"):
                start = time.perf_counter()
                if kind == "dask":
                    got = compute(range(sim.blocks))
                else:
                    got = run_blocks(sim, compiled, range(sim.blocks))
                rates[kind].append(sim.tables / (time.perf_counter() - start))
                same = same and all(np.array_equal(a, b) for a, b in zip(got, totals))
                if kind == "dask":
                    idle(compute.client)
                print(f"{kind}: {rates[kind][-1]:,.0f} tables/s", flush=True)
    dask, threads = np.median(rates["dask"]), np.median(rates["threads"])
    spread = ", ".join(f"{r:,.0f}" for r in rates["dask"])
    layout = f"{workers} worker{'s' * (workers > 1)} x {per_worker} thread{'s' * (per_worker > 1)}"
    return (f"Dask, a local cluster of {layout}: {dask:,.0f} tables/s (median of {repeats}: {spread}), "
            f"{dask / threads:.0%} of {count} threads in one process ({threads:,.0f}, median of {repeats}, "
            f"run in turn with the cluster's); totals "
            f"{'equal to the threads, bit for bit' if same else 'DIFFER from the threads'}.")


def layout(text):
    """``WORKERS`` or ``WORKERSxTHREADS`` as (workers, threads a worker)."""
    try:
        workers, x, threads = text.partition("x")
        pair = int(workers), int(threads if x else 1)
    except ValueError:
        pair = (0, 0)
    if min(pair) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WORKERS or WORKERSxTHREADS, e.g. 16 or 2x8")
    return pair


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--best-tables", type=int, default=100_000)
    parser.add_argument("--sim-tables", type=int, default=40_000)
    parser.add_argument("--block-size", type=int, default=500,
                        help="Tables a block (simulate's default): a Dask task each")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--dask", type=layout, nargs="*", default=[], metavar="WORKERS[xTHREADS]",
                        help="local Dask clusters to time against threads: workers, and threads "
                             "a worker (default 1), e.g. 16 2x8 1x16")
    parser.add_argument("--dask-repeats", type=int, default=3,
                        help="runs of the cluster and of as many threads, in turn")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    most = numba.config.NUMBA_NUM_THREADS
    threads = [t for t in args.threads if t <= most]
    if not threads or any(w * t > most for w, t in args.dask):
        parser.error(f"at most {most} threads here (NUMBA_NUM_THREADS): --threads "
                     f"{' '.join(map(str, args.threads))}, --dask {' '.join(f'{w}x{t}' for w, t in args.dask)}")

    from sapsam.game.ruleset_files import ruleset_ids
    from sapsam.measure.best import best_setting
    from sapsam.measure.simulate import Simulation, compile_simulation, run_blocks
    from sapsam.play.strategy_files import strategy_path

    ids = tuple(r for r in ruleset_ids() if strategy_path(r, 4).is_file())
    sim = Simulation(ids, 4, ("fitted",) * 4, args.sim_tables, SEED, block_size=args.block_size)
    compiled = compile_simulation(sim)
    best_setting(HAND, "standard", 4, "fitted", 200, seed=SEED)  # compile or load the kernels
    run_blocks(sim, compiled, [0])
    rows = []
    totals = None
    for t in threads:
        b, _ = timed(lambda: best_setting(HAND, "standard", 4, "fitted", args.best_tables, seed=SEED),
                     t, args.repeats)
        s, got = timed(lambda: run_blocks(sim, compiled, range(sim.blocks)), t, args.repeats)
        same = totals is None or all(np.array_equal(x, y) for x, y in zip(got, totals))
        totals = got
        rows.append((t, args.best_tables / b, args.sim_tables / s, same))
        print(f"{t:>2} threads: best {args.best_tables / b:,.0f} tables/s, "
              f"simulate {args.sim_tables / s:,.0f} tables/s", flush=True)
        text = table(args, ids, rows)  # after each count: a run cut short keeps what it measured
        if args.out:
            args.out.write_text(text)
    for workers, per_worker in args.dask:
        text += "\n" + dask_against_threads(sim, compiled, totals, workers, args.dask_repeats,
                                            per_worker) + "\n"
        if args.out:
            args.out.write_text(text)
    print(text)
    if args.out:
        args.out.write_text(text)


def table(args, ids, rows):
    """The report so far: the host, the runs, a row a thread count, and from 2 threads to the
    most, simulate's speed-up over best's (issue 39 asks at least 0.9)."""
    lines = []
    model, cpus, per_core = host()
    lines += [f"Scaling on {model}, {cpus} logical CPUs, {per_core} threads per core; "
              f"{datetime.now(UTC):%Y-%m-%d}, numba {numba.__version__}, Python "
              f"{platform.python_version()}.", "",
              f"`best`: {args.best_tables:,} sampled tables (one hand, 4 players, standard, fitted); "
              f"`simulate`: {args.sim_tables:,} tables x {len(ids)} rulesets (fitted seats, in-process), "
              f"in blocks of {args.block_size:,}.",
              "", "| threads | best tables/s | speed-up | efficiency | simulate tables/s | speed-up | "
              "efficiency | simulate speed-up / best's |", "|---|---|---|---|---|---|---|---|"]
    base_b, base_s = rows[0][1], rows[0][2]
    for t, b, s, _ in rows:
        sb, ss = b / base_b, s / base_s
        lines.append(f"| {t} | {b:,.0f} | {sb:.2f}x | {sb / t:.0%} | {s:,.0f} | {ss:.2f}x | "
                     f"{ss / t:.0%} | {ss / sb:.2f} |")
    two = [row for row in rows if row[0] == 2]
    if two and rows[-1][0] > 2:
        (_, b2, s2, _), (top, b, s, _) = two[0], rows[-1]
        lines += ["", f"From 2 to {top} threads: `best` {b / b2:.2f}x, `simulate` {s / s2:.2f}x, "
                  f"{(s / s2) / (b / b2):.2f} of best's (issue 39 asks at least 0.90)."]
    lines += ["", "`simulate`'s totals at every thread count: "
              + ("equal, bit for bit." if all(row[3] for row in rows) else "DIFFER.")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
