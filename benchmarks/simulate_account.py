"""Where a simulation's wall time goes, thread by thread, and what running more threads than
cores costs (issue 39, item 2).

Usage: ``python benchmarks/simulate_account.py [--tables N] [--block-size N] [--threads 2 16]
[--repeats K] [--out FILE]``.

Each thread count runs the same simulation (4-player tables, fitted seats, every ruleset with a
fitted 4-player strategy, checkpointed to a temporary folder as ``sapsam simulate`` does) through
:func:`sapsam.measure.simulate.run`, whose ``timeline`` records when each block's kernel ran and
on which thread.  The account splits the wall time of ``T`` threads (``T x wall`` thread-seconds)
into the blocks' kernels and the rest: the serial Python before the first block and after the
last (loading the rulesets and fits, the last checkpoint), and each thread's time between its
blocks and at the end (checkpoints written, waiting for the lock, the last blocks' tail).
Oversubscription: the rate with more threads than cores against the rate with one thread a core,
the totals checked equal bit for bit.  Each count runs ``K`` times, the counts in turn and their
order reversed every other round (2 16 16 2 2 16 ...), so that a machine speeding up or slowing
down over the runs weighs on each count alike; the rates compared are each count's median, beside
the spread of one count's own runs (what the machine's noise alone gives).
``NUMBA_NUM_THREADS`` is set from the largest count before Numba loads.  Run on a quiet machine:
another job's load shows up as a slower kernel, not as waiting, but it shifts the rates.
"""

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

SEED = 20240613


def account(timeline, threads):
    """The split of ``ran x wall`` thread-seconds of one run's ``timeline`` (``ran``: the
    threads that ran blocks; ``threads``: those asked for): a dict."""
    start = next(row[1] for row in timeline if row[0] == "start")
    end = next(row[1] for row in timeline if row[0] == "end")
    blocks = [row for row in timeline if len(row) == 4]
    first = min(b[2] for b in blocks)
    last = max(b[2] + b[3] for b in blocks)
    busy = defaultdict(float)
    for _, thread, _, seconds in blocks:
        busy[thread] += seconds
    wall = end - start
    kernels = sum(busy.values())
    serial = (first - start) + (end - last)
    ran = len(busy)
    between = ran * (last - first) - kernels
    return {"threads": threads, "ran": ran, "blocks": len(blocks), "wall": wall, "kernels": kernels,
            "serial": serial, "between": between, "busy": dict(busy),
            "block_mean": kernels / len(blocks), "block_max": max(b[3] for b in blocks),
            "lost": 1 - kernels / (ran * wall)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--block-size", type=int, default=500)
    parser.add_argument("--threads", type=int, nargs="+", default=[os.cpu_count() or 2, 16])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each thread count (interleaved)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    os.environ["NUMBA_NUM_THREADS"] = str(max(args.threads))
    import numba
    import numpy as np
    from bench import cpu_model  # beside this script

    from sapsam.game.ruleset_files import ruleset_ids
    from sapsam.measure.simulate import Simulation, run
    from sapsam.play.strategy_files import strategy_path

    ids = tuple(r for r in ruleset_ids() if strategy_path(r, 4).is_file())
    sim = Simulation(ids, 4, ("fitted",) * 4, args.tables, SEED, args.block_size)
    run(Simulation(ids, 4, ("fitted",) * 4, 8, SEED, 4))  # compile or load the kernels
    order = []
    for k in range(args.repeats):
        order += args.threads if k % 2 == 0 else args.threads[::-1]
    rows, totals = [], []
    for threads in order:
        numba.set_num_threads(threads)
        timeline = []
        with tempfile.TemporaryDirectory(prefix="sapsam-account-") as folder:
            totals.append(run(sim, folder, timeline=timeline))
        rows.append(account(timeline, threads))
        print(f"{threads} threads: {args.tables / rows[-1]['wall']:,.0f} tables/s", flush=True)
    same = all(all(np.array_equal(a, b) for a, b in zip(totals[0], t)) for t in totals)
    lines = [f"`simulate`, {args.tables:,} tables x {len(ids)} rulesets, 4 fitted seats, blocks of "
             f"{args.block_size} ({sim.blocks} blocks), checkpointed; {os.cpu_count()} logical CPUs "
             f"({cpu_model()}), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; each count "
             f"{args.repeats} times, in the order of the rows.", "",
             "| threads asked (ran) | tables/s | wall s | kernels (thread-s) | serial Python s | between blocks "
             "(thread-s) | lost to serial and waiting | mean block s | slowest block s |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['threads']} ({r['ran']}) | {args.tables / r['wall']:,.0f} | {r['wall']:.2f} | "
                     f"{r['kernels']:.2f} | {r['serial']:.3f} | {r['between']:.3f} | {100 * r['lost']:.2f}% | "
                     f"{r['block_mean']:.3f} | {r['block_max']:.3f} |")
    runs = {t: [args.tables / r["wall"] for r in rows if r["threads"] == t] for t in args.threads}
    rate = {t: np.median(runs[t]) for t in args.threads}
    lines.append("")
    for t in args.threads:
        lost = np.median([100 * r["lost"] for r in rows if r["threads"] == t])
        lines.append(f"- {t} threads: median {rate[t]:,.0f} tables/s; its own runs {min(runs[t]):,.0f} to "
                     f"{max(runs[t]):,.0f} ({100 * (max(runs[t]) / min(runs[t]) - 1):.1f}% apart); lost to "
                     f"serial Python and waiting, median {lost:.2f}%.")
    base = args.threads[0]
    for t in args.threads[1:]:
        lines.append(f"- {t} threads against {base}: {100 * (1 - rate[t] / rate[base]):+.1f}% of the rate "
                     f"lost (medians).")
    lines.append(f"- Totals of every run {'equal, bit for bit' if same else 'DIFFER'}.")
    lines.append("- Per thread, seconds in kernels, run by run: " + "; ".join(
        f"{r['threads']} threads: " + ", ".join(f"{v:.2f}" for v in sorted(r["busy"].values())) for r in rows))
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
