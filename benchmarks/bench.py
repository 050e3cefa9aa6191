"""Benchmarks of the hot kernels.

Usage: ``python benchmarks/bench.py [--out FILE] [--quick] [--only NAME ...]``.

Benchmarks are scripts, not timed tests (STYLE.md item 12): every figure is the best and the
median of several timed repeats after one untimed warm-up call that compiles (or loads from
the cache) the JIT code and starts the thread pool.  Inputs come from a seeded numpy
``Generator``, thread counts from ``numba.set_num_threads``.  The report is a Markdown table
with the CPU, the package versions and the git revision; a missed target prints a warning but
does not fail the run, since the figures are reported, not asserted.  DESIGN.md ("The hot
paths") gives the probe figures the targets come from.

To add a benchmark, register a function that takes a :class:`Context` and returns rows::

    @benchmark("settle")
    def settle(context):
        from sapsam.kernels.settle import settle_table  # kernels are imported lazily
        tables = ...  # built from context.rng, sized by context.size(full, quick)
        seconds = context.time(lambda: settle_table(tables), threads=2)
        return [rate_row("settle_table", 2, seconds, len(tables), "tables/s")]
"""

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import llvmlite
import numba
import numpy as np

SEED = 20240613
REPEATS = 7
QUICK_REPEATS = 3
REPOSITORY = Path(__file__).resolve().parents[1]
SAPSAM = Path(sys.executable).with_name("sapsam")  # the console script installed beside Python
CLI_REPEATS = 5
FIRST_RUNS = 3  # a first `sapsam best` from an empty cache: about 20 s each, one run 1-2 s off another
CLI_HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"

BENCHMARKS = {}


def benchmark(name):
    """Register the decorated function as benchmark ``name`` (run in registration order).

    Parameters
    ----------
    name : str
        The name ``--only`` selects it by.

    Returns
    -------
    callable
        A decorator returning the function unchanged.
    """

    def register(function):
        BENCHMARKS[name] = function
        return function

    return register


@dataclass(frozen=True)
class Row:
    """One reported figure.

    Attributes
    ----------
    benchmark : str
        What was measured, with the input size.
    threads : int
        Numba threads it ran on.
    best : float
        Figure of the fastest repeat (lowest time, or highest rate).
    median : float
        Median figure over the repeats; targets are judged on it.
    unit : str
        Unit of ``best`` and ``median``.
    target : float or None
        Figure to reach, or None when the row is information only.
    higher_is_better : bool
        True for rates (target is a minimum), False for times (target is a maximum).
    """

    benchmark: str
    threads: int
    best: float
    median: float
    unit: str
    target: float | None = None
    higher_is_better: bool = True

    @property
    def met(self):
        """Whether the median reaches the target; None without a target."""
        if self.target is None:
            return None
        return self.median >= self.target if self.higher_is_better else self.median <= self.target

    @property
    def target_text(self):
        """The target as ``>= 300`` or ``<= 250``; empty without a target."""
        if self.target is None:
            return ""
        return f"{'>=' if self.higher_is_better else '<='} {format_number(self.target)}"


def rate_row(name, threads, seconds, items, unit, scale=1.0, target=None):
    """Row of a throughput: ``items`` processed per timed call.

    Parameters
    ----------
    name : str
        Benchmark label.
    threads : int
        Numba threads used.
    seconds : ndarray(float64), shape (repeats,)
        Time of each repeat, from :meth:`Context.time`.
    items : int
        Items processed by one call.
    unit : str
        Unit label, e.g. ``"M hands/s"``.
    scale : float
        Items per unit, e.g. ``1e6`` for millions per second.
    target : float, optional
        Minimum rate wanted, in ``unit``.

    Returns
    -------
    Row
    """
    rates = items / seconds / scale
    return Row(name, threads, float(rates.max()), float(np.median(rates)), unit, target)


def time_row(name, threads, seconds, items, unit, scale=1.0, target=None):
    """Row of a time per item: ``items`` processed per timed call.

    Parameters are those of :func:`rate_row`; ``scale`` is seconds per unit (``1e-6`` for
    microseconds) and ``target`` the maximum time wanted, in ``unit``.

    Returns
    -------
    Row
    """
    per_item = seconds / items / scale
    return Row(name, threads, float(per_item.min()), float(np.median(per_item)), unit, target,
               higher_is_better=False)


@dataclass(frozen=True)
class Context:
    """What a benchmark needs besides its kernels.

    Attributes
    ----------
    quick : bool
        Smaller inputs for a smoke test.
    repeats : int
        Timed repeats per measurement.
    rng : numpy.random.Generator
        Seeded afresh for each benchmark, so ``--only`` does not change its inputs.
    """

    quick: bool
    repeats: int
    rng: np.random.Generator

    def size(self, full, quick):
        """Input size: ``quick`` under ``--quick``, else ``full``."""
        return quick if self.quick else full

    def time(self, run, threads=1):
        """Seconds taken by each of ``repeats`` calls of ``run()``, after one warm-up call.

        Parameters
        ----------
        run : callable
            Does the measured work; takes no arguments.
        threads : int
            Numba threads to run on.

        Returns
        -------
        ndarray(float64), shape (repeats,)
        """
        numba.set_num_threads(threads)
        run()
        seconds = np.empty(self.repeats)
        for i in range(self.repeats):
            start = time.perf_counter()
            run()
            seconds[i] = time.perf_counter() - start
        return seconds


def thread_counts(*wanted):
    """The thread counts among ``wanted`` that Numba can run (``NUMBA_NUM_THREADS``)."""
    return [threads for threads in wanted if threads <= numba.config.NUMBA_NUM_THREADS]


def random_hands(rng, n, size):
    """Random hands: ``size`` distinct card codes per row, in random order.

    Parameters
    ----------
    rng : numpy.random.Generator
    n, size : int
        Number of hands and cards per hand.

    Returns
    -------
    ndarray(uint8), shape (n, size)
    """
    decks = np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52))
    return np.ascontiguousarray(rng.permuted(decks, axis=1)[:, :size])


def random_deals(rng, n):
    """Random 13-card deals, each sorted ascending: ndarray(uint8), shape (n, 13)."""
    return np.sort(random_hands(rng, n, 13), axis=1)


@benchmark("evaluate5")
def evaluate5(context):
    """Bulk 5-card evaluation: ``rank5`` on random hands, serial and parallel."""
    from sapsam.kernels.evaluate import rank5

    n = context.size(10**6, 10**5)
    cards = random_hands(context.rng, n, 5)
    seconds = context.time(lambda: rank5(cards, parallel=False))
    rows = [rate_row(f"rank5 serial, {n:,} hands", 1, seconds, n, "M hands/s", 1e6, 300)]
    for threads in thread_counts(1, 2):
        seconds = context.time(lambda: rank5(cards, parallel=True), threads)
        rows.append(rate_row(f"rank5 parallel, {n:,} hands", threads, seconds, n, "M hands/s", 1e6,
                             300 if threads == 1 else None))
    return rows


@benchmark("evaluate5_low")
def evaluate5_low(context):
    """Bulk 2-7 low evaluation (the low middle of issue 18): ``rank5_low``, serial."""
    from sapsam.kernels.lowball import rank5_low

    n = context.size(10**6, 10**5)
    cards = random_hands(context.rng, n, 5)
    seconds = context.time(lambda: rank5_low(cards, parallel=False))
    return [rate_row(f"rank5_low (2-7 low) serial, {n:,} hands", 1, seconds, n, "M hands/s", 1e6, 300)]


@benchmark("evaluate3")
def evaluate3(context):
    """Bulk 3-card evaluation: ``rank3`` on random fronts, serial."""
    from sapsam.kernels.evaluate import rank3

    n = context.size(10**6, 10**5)
    cards = random_hands(context.rng, n, 3)
    seconds = context.time(lambda: rank3(cards, parallel=False))
    return [rate_row(f"rank3 serial, {n:,} hands", 1, seconds, n, "M hands/s", 1e6)]


@benchmark("frontier")
def frontier(context):
    """One deal's enumeration, legality and Pareto frontier; the count alone; batches."""
    from sapsam.kernels.settings import count_legal, pareto_frontier, pareto_frontier_batch

    def each_deal(kernel, deals):
        def run():
            for hand in deals:
                kernel(hand, False)

        return run

    n = context.size(500, 50)
    deals = random_deals(context.rng, n)
    rows = [
        time_row(f"pareto_frontier, per deal, {n:,} deals", 1,
                 context.time(each_deal(pareto_frontier, deals)), n, "µs/deal", 1e-6, 250),
        time_row(f"count_legal, per deal, {n:,} deals", 1,
                 context.time(each_deal(count_legal, deals)), n, "µs/deal", 1e-6),
    ]
    n = context.size(4000, 400)
    deals = random_deals(context.rng, n)
    for threads in thread_counts(1, 2):
        seconds = context.time(lambda: pareto_frontier_batch(deals, False, parallel=True), threads)
        rows.append(rate_row(f"pareto_frontier_batch, {n:,} deals", threads, seconds, n, "deals/s",
                             target=8000 if threads == 2 else None))
    return rows


def frontier_tables(rng, n_tables, players):
    """Realistic tables: each seat holds a random Pareto-frontier setting of a random deal.

    Returns ndarray(int16), shape (n_tables, players, 3): strength triples, seats of one table
    dealt from one deck.
    """
    from sapsam.kernels.settings import pareto_frontier_batch

    hands = random_hands(rng, n_tables, 13 * players).reshape(n_tables * players, 13)
    _, offsets, _, rows = pareto_frontier_batch(np.sort(hands, axis=1), False)
    sizes = np.diff(offsets)
    pick = offsets[:-1] + (rng.random(len(sizes)) * sizes).astype(np.int64)
    return np.ascontiguousarray(rows[pick].reshape(n_tables, players, 3))


@benchmark("settle")
def settle(context):
    """Settlement of 4-player tables under ``standard`` (frontier settings, no naturals)."""
    from sapsam.game.score import settle_tables

    n = context.size(10**6, 10**5)
    tables = frontier_tables(context.rng, context.size(20000, 5000), 4)
    tables = tables[np.arange(n) % len(tables)]
    rows = []
    for threads in thread_counts(1, 2):
        seconds = context.time(lambda: settle_tables("standard", tables, parallel=True), threads)
        rows.append(rate_row(f"settle_tables standard, 4 players, {n:,} tables", threads, seconds, n,
                             "M tables/s", 1e6, 5 if threads == 1 else None))
    return rows


@benchmark("policies")
def policies(context):
    """Hands set per second by each opponent policy (4 players, ``standard``), 2 threads."""
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.kernels.policies import BALANCED, HOUSEWAY, SEARCH_AUTO, TABLE, play_hands
    from sapsam.kernels.value import SURRENDER_RATE, TIE
    from sapsam.play.deal import deal_sorted_hands
    from sapsam.play.policy import Policy
    from sapsam.play.seeds import CHUNKS, Stream
    from sapsam.strategy.registry import make_policy

    searching = (BALANCED, TABLE, HOUSEWAY)
    rules = load_ruleset("standard")
    compiled = rules.compile()
    n = context.size(20000, 2000)
    deals = deal_sorted_hands(n, Stream(SEED, "hands"))
    rows = []
    threads = max(thread_counts(1, 2))
    for name in ("random", "greedy", "balanced", "table", "houseway", "fitted"):
        try:
            policy = make_policy(name, rules, 4)
        except ValueError as exc:  # no fitted strategy yet
            print(f"skipped {name}: {exc}", file=sys.stderr)
            continue
        states = Stream(SEED, "field").states(CHUNKS)
        # searching (the default), and for the searching policies the whole frontier as before
        for search in (SEARCH_AUTO, False) if policy.code in searching else (SEARCH_AUTO,):
            seconds = context.time(lambda p=policy, s=states, f=search: play_hands(
                deals, p.arrays, compiled.arrays, 3, s, search=f),
                threads)
            how = ", whole frontier" if search is False else ""
            target = 150_000 if search is SEARCH_AUTO and policy.code in searching else None
            rows.append(rate_row(f"{name} policy{how}, {n:,} hands", threads, seconds, n, "hands/s",
                                 target=target))
        if name == "fitted" and policy.removal.xmean.size:
            # the same field without its card-removal model: what the model costs (issue 37
            # asks that it keep at least half this rate)
            plain = Policy.from_row_mass("fitted", policy.tables[:, :-1, TIE], rules, "",
                                         float(policy.tables[SURRENDER_RATE]))
            seconds = context.time(lambda p=plain, s=states: play_hands(
                deals, p.arrays, compiled.arrays, 3, s), threads)
            rows.append(rate_row(f"fitted policy without card removal, {n:,} hands", threads,
                                 seconds, n, "hands/s"))
    # the same hands with the middle played as a 2-7 low: its own search (kernels/low_search.py)
    low = load_ruleset("low-middle")
    try:
        policy = make_policy("fitted", low, 4)
    except ValueError as exc:
        print(f"skipped the low middle: {exc}", file=sys.stderr)
        return rows
    states = Stream(SEED, "field").states(CHUNKS)
    low_rules = low.compile().arrays
    seconds = context.time(lambda: play_hands(deals, policy.arrays, low_rules, 3, states), threads)
    rows.append(rate_row(f"fitted policy, 2-7 low middle (low-middle), {n:,} hands", threads, seconds,
                         n, "hands/s"))
    return rows


@benchmark("best")
def best(context):
    """One hand, 4 players, ``standard``, fitted opponents, 10,000 sampled tables."""
    from sapsam.measure.best import best_setting

    n = context.size(10000, 1000)
    hand = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
    try:
        best_setting(hand, "standard", 4, "fitted", 200, seed=SEED)  # warm-up
    except ValueError as exc:
        print(f"skipped best: {exc}", file=sys.stderr)
        return []
    threads = max(thread_counts(1, 2))
    seconds = context.time(lambda: best_setting(hand, "standard", 4, "fitted", n, seed=SEED), threads)
    rows = [time_row(f"best setting of one hand, {n:,} sampled tables (fitted)", threads, seconds, 1,
                     "s/hand", 1, 0.25)]
    # criss-cross: the fit plays each player's exact field (sapsam.kernels.crossed), computed
    # once for the opponent and once for the hand's own player
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.strategy.registry import make_policy

    rules = load_ruleset("criss-cross")
    policy = make_policy("fitted", rules, 2)
    other = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
    cards = np.arange(26, dtype=np.uint8)
    if policy.exact:
        policy.crossed(rules, cards)  # warm-up
        seconds = context.time(lambda: policy.crossed(rules, cards), 1)
        rows.append(time_row(f"criss-cross exact field, one player ({policy.exact[0]} splits, "
                             f"{policy.exact[1]} rounds)", 1, seconds, 1, "s/player", 1))
    best_setting(hand, rules, 2, "fitted", 200, seed=SEED, other=other)  # warm-up
    seconds = context.time(lambda: best_setting(hand, rules, 2, "fitted", n, seed=SEED, other=other), threads)
    rows.append(time_row(f"best setting in criss-cross, {n:,} sampled deals (fitted, exact field)", threads,
                         seconds, 1, "s/hand", 1))
    return rows


def _yardstick_kernel():
    """A prange loop of ``count_legal`` over many hands (built on first use: kernels are
    imported lazily)."""
    from numba import njit, prange

    from sapsam.kernels.settings import count_legal

    @njit(parallel=True, cache=True)
    def enumerate_all(hands, out):
        for i in prange(hands.shape[0]):
            out[i] = count_legal(hands[i], False)

    return enumerate_all


@benchmark("yardstick")
def yardstick(context):
    """Issue 39's yardstick and ``best`` against it, in the same run on the same threads: the
    exhaustive enumeration of all 72,072 splits, with legality, of the 30,000 opponent hands of
    10,000 4-player tables; and ``best`` with 10,000 fitted 4-player tables on a hand whose
    Pareto frontier has 100 or more members (the first such of a seeded search), as a ratio."""
    from sapsam.game.cards import format_cards
    from sapsam.kernels.settings import pareto_frontier
    from sapsam.measure.best import best_setting

    n = context.size(10000, 1000)
    threads = max(thread_counts(1, 2))
    hands = random_deals(context.rng, 3 * n)
    counts = np.empty(len(hands), np.int64)
    enumerate_all = _yardstick_kernel()
    enumerate_all(hands[:10], counts[:10])  # compile
    base = context.time(lambda: enumerate_all(hands, counts), threads)
    search = np.random.default_rng(SEED)
    while True:
        hand = np.sort(search.permutation(52)[:13]).astype(np.uint8)
        if len(pareto_frontier(hand, False)[1]) >= 100:
            break
    members = len(pareto_frontier(hand, False)[1])
    text = format_cards(hand, descending=True)
    best_setting(text, "standard", 4, "fitted", 200, seed=SEED)  # warm-up
    seconds = context.time(lambda: best_setting(text, "standard", 4, "fitted", n, seed=SEED), threads)
    ratio = np.asarray(seconds) / np.median(base)
    return [rate_row(f"yardstick: all 72,072 splits of {3 * n:,} hands, with legality", threads, base,
                     3 * n, "hands/s"),
            Row(f"best, {n:,} fitted 4-player tables, {text} ({members} frontier members), "
                "as a share of the yardstick's time", threads, float(ratio.min()),
                float(np.median(ratio)), "x yardstick", 0.2, higher_is_better=False)]


@benchmark("paigow")
def paigow(context):
    """Pai Gow tiles: the whole exact house-edge table (3,620 hands x 35,960 banker hands,
    both banking sides, the house way derived), from nothing, in-process; one hand's ranking."""
    from sapsam.paigow import measure as exact
    from sapsam.paigow.game import parse_tiles

    def table():
        for cached in vars(exact).values():  # every table the module keeps (functools.cache)
            if callable(getattr(cached, "cache_clear", None)):
                cached.cache_clear()
        exact.house_edge_table()

    threads = max(thread_counts(1, 2))
    hand = parse_tiles("6-6 1-1 4-2 5-3")
    return [time_row("paigow exact house-edge table, 8 rows", threads,
                     context.time(table, threads), 1, "s/table", 1, 60),
            time_row("paigow best, one hand, all 20,475 banker hands", threads,
                     context.time(lambda: exact.best(hand), threads), 1, "ms/hand", 1e-3)]


@benchmark("paigow_poker")
def paigow_poker(context):
    """Pai Gow Poker: one hand's every setting against all 53,524,680 dealer hands of the 46
    cards left (the house way's table read from the cache; the warm-up builds it if it is not
    there, minutes), and the house way against itself, a million deals both ways round."""
    from sapsam.paigow_poker.game import Rules, parse_hand
    from sapsam.paigow_poker.measure.exact import house_edge, rank_settings
    from sapsam.paigow_poker.strategy import house_way

    rules, way = Rules(), house_way("foxwoods")
    hand = parse_hand("Jk As Kd Th 9c 3s 2d")
    rows = []
    for threads in thread_counts(1, 2):
        rows.append(time_row("paigow-poker best, one hand, all 53,524,680 dealer hands", threads,
                             context.time(lambda: rank_settings(hand, way, rules), threads), 1, "s/hand",
                             1, 2))
    threads = max(thread_counts(1, 2))
    deals = context.size(1_000_000, 100_000)
    rows.append(rate_row("paigow-poker edge, house way against itself", threads,
                         context.time(lambda: house_edge(way, rules, deals), threads), deals, "M deals/s", 1e6))
    return rows


@benchmark("ofc")
def ofc(context):
    """Open-Face Chinese Poker: the exact Fantasyland solver on random hands of 14 and 17 cards
    (mean and slowest of the set), the stay test, heads-up hands between heuristic players, and
    one placement's ranking as ``sapsam ofc place`` computes it (500 rollouts)."""
    from sapsam.ofc.game import load_ofc_rules
    from sapsam.ofc.kernels.board import best_fantasyland
    from sapsam.ofc.measure.fantasyland import stay_chance
    from sapsam.ofc.measure.place import rank_placements
    from sapsam.ofc.measure.simulate import simulate_ofc

    tables = load_ofc_rules("ofc-pineapple").tables
    rows = []
    for n in (14, 17):
        hands = [context.rng.permutation(52)[:n].astype(np.uint8) for _ in range(context.size(200, 10))]
        numba.set_num_threads(1)
        best_fantasyland(hands[0], tables.royalty, tables.stay, tables.worth_milli)  # compiled, warm
        seconds = np.empty(len(hands))
        for i, h in enumerate(hands):  # each hand once: the set is the repeat
            start = time.perf_counter()
            best_fantasyland(h, tables.royalty, tables.stay, tables.worth_milli)
            seconds[i] = time.perf_counter() - start
        rows.append(Row(f"ofc fantasyland solver, {n} cards, mean of {len(hands)} random hands", 1,
                        float(seconds.mean() * 1e3), float(seconds.mean() * 1e3), "ms/hand", 1000 if n == 17 else None,
                        higher_is_better=False))
        rows.append(Row(f"ofc fantasyland solver, {n} cards, slowest of {len(hands)}", 1,
                        float(seconds.max() * 1e3), float(seconds.max() * 1e3), "ms/hand", None,
                        higher_is_better=False))
    threads = max(thread_counts(1, 2))
    samples = context.size(100_000, 5_000)
    rows.append(rate_row("ofc stay test, 17 cards", threads,
                         context.time(lambda: stay_chance(17, samples=samples), threads), samples, "k hands/s", 1e3))
    hands = context.size(2_000, 100)
    rows.append(rate_row("ofc heads-up hands, heuristic v heuristic", threads,
                         context.time(lambda: simulate_ofc("ofc-pineapple", ("heuristic", "heuristic"), hands),
                                      threads), hands, "hands/s"))
    rows.append(time_row("ofc place: 24 placements x 500 rollouts, heads-up", threads,
                         context.time(lambda: rank_placements("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s",
                                                              "Ah 2c 7d", samples=500), threads), 1, "s"))
    return rows


@benchmark("ofc-place")
def ofc_place(context):
    """``sapsam ofc place`` on the first street at its default samples (500): 232 placements of
    five cards in a race (issue 38: at most a second on 2 cores)."""
    from sapsam.ofc.measure.place import rank_placements

    threads = max(thread_counts(1, 2))
    return [time_row("ofc place first street: 232 placements, 500 samples, heads-up", threads,
                     context.time(lambda: rank_placements("ofc-pineapple", "", "As Kd 9h 9s 4c", samples=500),
                                  threads), 1, "s", target=1.0)]


# a whole simulation as a program runs it, from a new process: imports, rulesets, strategies,
# kernels from the cache, every block; not the report (the sapsam simulate row has that)
SIMULATE_SCRIPT = """
from sapsam.measure.simulate import Simulation, compile_simulation, run_blocks
sim = Simulation({ids!r}, 4, ("fitted",) * 4, {tables}, {seed}, block_size=500)
run_blocks(sim, compile_simulation(sim), range(sim.blocks))
"""


def process_seconds(command, repeats=1, env=None):
    """Wall seconds of each of ``repeats`` runs of ``command`` (a list: program and arguments)
    in a new process from the repository, its output piped and discarded.

    Returns
    -------
    ndarray(float64), shape (repeats,)

    Raises
    ------
    RuntimeError
        When a run fails, with its standard error.
    """
    seconds = np.empty(repeats)
    for i in range(repeats):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPOSITORY)
        seconds[i] = time.perf_counter() - start
        if result.returncode:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return seconds


def cli_seconds(arguments, repeats=1, env=None):
    """:func:`process_seconds` of the ``sapsam`` console script, as a user runs it, with
    ``arguments`` after ``sapsam``."""
    return process_seconds([str(SAPSAM), *arguments], repeats, env)


@benchmark("cli")
def cli(context):
    """``sapsam best`` and ``sapsam --version`` through the console script: the first run with an
    empty Numba cache (three times, each cache its own), warm runs, and the sampling cost alone; and
    ``sapsam compile`` from an empty cache (once: minutes)."""
    if not SAPSAM.is_file():
        print(f"skipped cli: no console script at {SAPSAM}", file=sys.stderr)
        return []

    def best_arguments(samples):
        return ["best", CLI_HAND, "--rules", "standard", "--samples", str(samples), "--quiet"]

    threads = numba.config.NUMBA_NUM_THREADS  # the CLI's default
    repeats = min(CLI_REPEATS, context.repeats)
    try:
        # NUMBA_CACHE_DIR comes before the cache beside the kernels' source, so an empty one
        # compiles every kernel afresh and leaves that cache as it is
        first = np.empty(FIRST_RUNS)
        for i in range(FIRST_RUNS):
            with tempfile.TemporaryDirectory(prefix="sapsam-numba-") as empty:
                first[i] = cli_seconds(best_arguments(10000), env={**os.environ, "NUMBA_CACHE_DIR": empty})[0]
        with tempfile.TemporaryDirectory(prefix="sapsam-numba-") as empty:
            compiled = cli_seconds(["compile", "--quiet"], env={**os.environ, "NUMBA_CACHE_DIR": empty})
        cli_seconds(best_arguments(10000))  # warm-up: loads (or compiles) the usual cache
        warm, fewer = np.empty(repeats), np.empty(repeats)
        for i in range(repeats):  # alternately, so that the machine's drift cancels in the pairs
            warm[i] = cli_seconds(best_arguments(10000))[0]
            fewer[i] = cli_seconds(best_arguments(1000))[0]
        version = cli_seconds(["--version"], repeats)
        with tempfile.TemporaryDirectory(prefix="sapsam-simulate-") as out:
            simulate = cli_seconds(["simulate", "--rules", "all", "--tables", "2000", "--out", out,
                                    "--fresh", "--quiet"], repeats)
    except RuntimeError as exc:
        print(f"skipped cli: {exc}", file=sys.stderr)
        return []
    paired = warm - fewer
    sampling = (paired.min(), np.median(paired))
    return [
        Row(f"sapsam best, first run, empty Numba cache ({FIRST_RUNS} runs)", threads, float(first.min()),
            float(np.median(first)), "s", 20, higher_is_better=False),
        Row(f"sapsam compile, every kernel, empty Numba cache (1 run, {len(os.sched_getaffinity(0))} processes)",
            threads, float(compiled[0]), float(compiled[0]), "s", 45, higher_is_better=False),
        time_row("sapsam best, warm cache", threads, warm, 1, "s"),
        Row("sapsam best, sampling alone (10,000 minus 1,000 samples)", threads, float(sampling[0]),
            float(sampling[1]), "s", 0.5, higher_is_better=False),
        time_row("sapsam --version", threads, version, 1, "s", target=0.5),
        time_row("sapsam simulate --rules all --tables 2000, the whole command (report included)",
                 threads, simulate, 1, "s"),
    ]


@benchmark("simulate")
def simulate(context):
    """4-player tables, fitted seats, scored under every named ruleset with a fitted strategy;
    and the share of that time spent setting hands (the rest is scoring, timed alone)."""
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
    from sapsam.game.score import settle_tables
    from sapsam.kernels.policies import play_hands
    from sapsam.measure.simulate import Simulation, compile_simulation, run_blocks
    from sapsam.play.seeds import CHUNKS, Stream
    from sapsam.play.strategy_files import strategy_path
    from sapsam.strategy.registry import make_policy

    ids = tuple(r for r in ruleset_ids() if strategy_path(r, 4).is_file())
    if not ids:
        print("skipped simulate: no fitted 4-player strategies", file=sys.stderr)
        return []
    tables = context.size(2000, 200)
    sim = Simulation(ids, 4, ("fitted",) * 4, tables, SEED, block_size=max(1, tables // 16))
    compiled = compile_simulation(sim)
    threads = max(thread_counts(1, 2))
    run_blocks(sim, compiled, [0])  # warm-up
    seconds = context.time(lambda: run_blocks(sim, compiled, range(sim.blocks)), threads)
    rows = [rate_row(f"simulate, {tables:,} tables x {len(ids)} rulesets (fitted seats)", threads,
                     seconds, tables, "tables/s")]
    # issue 14's measure: a table set and scored under one ruleset counts once, and the run
    # pays its own start-up (a new process: imports, loading the kernels and strategies)
    script = [sys.executable, "-c", SIMULATE_SCRIPT.format(ids=ids, tables=tables, seed=SEED)]
    process_seconds(script)  # warm-up: fills the Numba cache if need be
    fresh = process_seconds(script, min(CLI_REPEATS, context.repeats))
    rows.append(rate_row(f"simulate, {tables:,} tables x {len(ids)} rulesets, a new process "
                         "(start-up included)", threads, fresh, tables * len(ids),
                         "table-rulesets/s", target=20000))
    # one ruleset: the seats search rather than share one frontier among the rulesets
    one = Simulation(("standard",), 4, ("fitted",) * 4, tables, SEED, block_size=max(1, tables // 16))
    one_compiled = compile_simulation(one)
    one_seconds = context.time(lambda: run_blocks(one, one_compiled, range(one.blocks)), threads)
    rows.append(rate_row(f"simulate, {tables:,} tables x 1 ruleset, standard (fitted seats)", threads,
                         one_seconds, tables, "tables/s"))
    # scoring alone, timed on greedy settings of the same number of tables under every
    # ruleset; the rest of a table's time is dealing and setting hands
    basic = load_ruleset("basic")
    greedy = make_policy("greedy", basic, 4)
    hands = np.sort(random_hands(context.rng, tables * 4, 13), axis=1)
    settings, _, _, _ = play_hands(hands, greedy.arrays, basic.compile().arrays, 3,
                                   Stream(SEED, "field").states(CHUNKS))
    table_rows = settings.reshape(tables, 4, 3)
    score_seconds = np.median(context.time(
        lambda: [settle_tables(rid, table_rows) for rid in ids], threads))
    share = 1 - score_seconds / np.median(seconds)
    rows.append(Row(f"share of a table's time spent setting hands, {len(ids)} rulesets", threads,
                    100 * share, 100 * share, "%", None))
    return rows


@benchmark("web")
def web(context):
    """``POST /api/best`` (4,000 samples, 4 players, fitted opponents) over HTTP on localhost
    to the app of ``sapsam serve`` in this process: the median latency of one request at a
    time, and the throughput of 8 requests sent at once (each with its own seed)."""
    import json
    import socket
    import threading
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    import uvicorn

    from sapsam.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    samples = context.size(4000, 1000)

    def post(seed=0):
        body = json.dumps({"hand": CLI_HAND, "players": 4, "samples": samples, "seed": seed})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/best", body.encode(),
                                         {"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.read()

    def eight():
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(post, range(8)))

    threads = numba.config.NUMBA_NUM_THREADS  # the server's default
    try:
        one = context.time(post, threads)
        many = context.time(eight, threads)
    finally:
        server.should_exit = True
    return [time_row(f"POST /api/best, {samples:,} samples, 4 players, one at a time", threads,
                     one, 1, "s"),
            rate_row(f"POST /api/best, {samples:,} samples, 8 requests at once", threads, many,
                     8, "requests/s")]


def format_number(value):
    """A figure with about three significant digits and thousands separators."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def markdown_table(rows):
    """The rows as a Markdown table (benchmark, threads, best, median, unit, target, met)."""
    lines = ["| benchmark | threads | best | median | unit | target | met |",
             "|---|--:|--:|--:|---|---|---|"]
    for row in rows:
        met = {True: "yes", False: "no", None: ""}[row.met]
        lines.append(f"| {row.benchmark} | {row.threads} | {format_number(row.best)} "
                     f"| {format_number(row.median)} | {row.unit} | {row.target_text} | {met} |")
    return "\n".join(lines)


def cpu_model():
    """The CPU's model name from ``/proc/cpuinfo``, else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision():
    """Short hash of the checked-out commit, or ``"unknown"`` outside a git checkout."""
    try:
        result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPOSITORY,
                                capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def report(rows, command, repeats):
    """The Markdown document: provenance header, then the table of ``rows``."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = [
        "# sapsam benchmarks",
        "",
        f"- Date: {when}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical cores "
        f"(Numba threads available: {numba.config.NUMBA_NUM_THREADS})",
        f"- Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
        f"llvmlite {llvmlite.__version__}",
        f"- Git revision: {git_revision()}",
        f"- Command: `{command}`",
        f"- Method: best and median of {repeats} timed repeats after one untimed warm-up call "
        "(JIT compile or cache load, thread pool start); best is the fastest repeat (lowest "
        "time, highest rate); targets are judged on the median. Inputs from "
        f"`numpy.random.default_rng({SEED})`, re-seeded per benchmark; threads set with "
        "`numba.set_num_threads`. Per-deal times include the call from Python.",
        "- `sapsam` rows: wall time of the console script in a new process, output piped: "
        f"`sapsam best \"{CLI_HAND}\" --rules standard --samples 10000 --quiet` (fitted "
        "opponents, 4 players) includes process start, imports, loading the ruleset and the "
        "fitted strategy, and sampling, plus compiling every kernel it needs on the first run "
        f"({FIRST_RUNS} runs, `NUMBA_CACHE_DIR` set to an empty folder for each) or loading them from the cache when "
        f"warm (median of {min(CLI_REPEATS, repeats)} after an untimed run; best is the "
        "fastest). Sampling alone is the warm time minus that of `--samples 1000`, the two run "
        "alternately and the differences paired (best: the smallest); `--version` "
        "is process start and the CLI's imports. `sapsam simulate` deals 2,000 tables of fitted "
        "seats under every ruleset and writes the whole report (tables, plots, manifest). "
        "`sapsam compile` compiles every kernel of every command and game into another empty "
        "folder, one process per CPU, then loads them all in its own.",
        "- The new-process simulate row counts a table set and scored under one ruleset once "
        "(issue 14's measure) and includes interpreter start, imports and loading the rulesets, "
        "strategies and cached kernels; not the report.",
    ]
    return "\n".join(header) + "\n\n" + markdown_table(rows) + "\n"


def parse_arguments(argv):
    """Command-line options (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/bench.py",
                                     description="Benchmark sapsam's hot kernels.")
    parser.add_argument("--out", type=Path, help="also write the Markdown report to this file")
    parser.add_argument("--quick", action="store_true",
                        help="smaller inputs and fewer repeats (a smoke test)")
    parser.add_argument("--only", nargs="+", choices=list(BENCHMARKS), metavar="NAME",
                        help=f"run only these benchmarks ({', '.join(BENCHMARKS)})")
    return parser.parse_args(argv)


def main(argv=None):
    """Run the selected benchmarks, print the report, write ``--out``; returns exit status 0."""
    argv = sys.argv[1:] if argv is None else argv
    arguments = parse_arguments(argv)
    repeats = QUICK_REPEATS if arguments.quick else REPEATS
    rows = []
    selected = [name for name in BENCHMARKS if not arguments.only or name in arguments.only]
    for name in selected:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        context = Context(arguments.quick, repeats, np.random.default_rng(SEED))
        rows += BENCHMARKS[name](context)
    text = report(rows, " ".join(["python benchmarks/bench.py", *argv]), repeats)
    print(text, end="")
    if arguments.out:
        arguments.out.parent.mkdir(parents=True, exist_ok=True)
        arguments.out.write_text(text, encoding="utf-8")
    for row in rows:
        if row.met is False:
            print(f"warning: target missed: {row.benchmark} on {row.threads} thread(s): median "
                  f"{format_number(row.median)} {row.unit}, target {row.target_text}",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
