"""Deal many tables and measure what each ruleset and each seat's policy is worth.

:class:`Simulation` fixes a run: rulesets, table size, one policy per seat, tables, seed and
block size.  Block ``i`` (tables ``i * block_size`` onwards) has its own random stream
(:mod:`sapsam.play.seeds`), so the totals do not depend on threads, machines, or on whether
the run was interrupted and resumed.  Totals are exact integers:

- ``acc`` int64 (R, P, sapsam.kernels.simulate.N_ACC): per ruleset and seat (a player: in
  criss-cross a seat deals two hands, and a "hand" below is a deal of both), hands, sum and sum of
  squares of points, fouls, surrenders, naturals declared, sweeps given and taken, home runs,
  hands as the bank;
- ``hist`` int64 (R, P, N_HIST): points per hand in whole units, clipped to +-200;
- ``held`` int64 (R, K): hands holding each natural of each ruleset.

:func:`run` computes them block by block, checkpointing finished blocks atomically in the
output folder; ``resume=True`` continues an interrupted run.  :mod:`sapsam.output.simulation_frames`
turns totals into tidy DataFrames.
"""

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property

import numpy as np

from sapsam.base.arguments import option
from sapsam.base.files import load_npz, read_checkpoint, write_npz
from sapsam.base.memory import require_memory
from sapsam.game.mechanisms import BankRotation, Game
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as _kp
from sapsam.kernels import removal as _kr
from sapsam.kernels import simulate as _ks
from sapsam.kernels.naturals import NAT_COLUMNS, NAT_KIND, NAT_PARAMETER
from sapsam.kernels.settle import N_PARAMS, Rules
from sapsam.play.names import POLICY_NAMES
from sapsam.play.seeds import SCHEME, Stream
from sapsam.strategy.registry import make_policy

CHECKPOINT = "checkpoint.npz"


@dataclass(frozen=True)
class Simulation:
    """What a simulation run is: everything its numbers depend on."""

    rules: tuple  # ruleset ids or TOML paths
    players: int
    seats: tuple  # a policy name per seat
    tables: int
    seed: int = 0
    block_size: int = 500
    strategies: tuple = field(default=())  # optional (ruleset, path) pairs for fitted seats

    def __post_init__(self):
        if not self.rules:
            raise ValueError("name at least one ruleset")
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {self.players}")
        if len(self.seats) != self.players:
            raise ValueError(f"give one policy per seat ({self.players}) or one for all, "
                             f"got {len(self.seats)}")
        for name in self.seats:
            if name not in POLICY_NAMES:
                raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
        if self.tables < 1:
            raise ValueError(f"tables must be at least 1, got {self.tables}")
        if self.block_size < 1:
            raise ValueError(f"block size must be at least 1, got {self.block_size}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")

    @property
    def blocks(self):
        return -(-self.tables // self.block_size)

    @property
    def blocks_text(self):
        """How the tables were cut: "400 blocks of 500 tables", the last block's size where it is
        short ("1 block of 200 tables" for 200 tables in blocks of 500)."""
        last = self.tables - (self.blocks - 1) * self.block_size
        if self.blocks == 1:
            return f"1 block of {last:,} tables"
        return f"{self.blocks} blocks of {self.block_size} tables" + (f" (the last {last:,})" if last < self.block_size
                                                                     else "")

    def describe(self):
        """The run as plain data (for manifests and checkpoints)."""
        data = asdict(self)
        data["rules"] = list(self.rules)
        data["seats"] = list(self.seats)
        data["strategies"] = [list(s) for s in self.strategies]
        return data

    @classmethod
    def from_description(cls, run):
        """The simulation that :meth:`describe` (or a stored run key) describes."""
        return cls(rules=tuple(run["rules"]), players=int(run["players"]), seats=tuple(run["seats"]),
                   tables=int(run["tables"]), seed=int(run["seed"]), block_size=int(run["block_size"]),
                   strategies=tuple(tuple(s) for s in run.get("strategies", ())))


@dataclass(frozen=True)
class Compiled:
    """A :class:`Simulation` as kernel arrays."""

    rulesets: tuple
    seat_policy: np.ndarray
    tables: np.ndarray  # float64 (M,) + sapsam.kernels.policies.TABLE_SHAPE: the distinct models'
    points: np.ndarray  # float64 (M,) + sapsam.kernels.policies.POINTS_SHAPE: ... and their points
    seat_model: np.ndarray  # int64 (R, P): which model each seat uses under each ruleset
    removal: tuple  # sapsam.kernels.removal.Removal of the models' card-removal models, stacked (M, ...)
    removal_features: np.ndarray  # int64 (M,): each model's features (0: it has none)
    params: np.ndarray
    royalty: np.ndarray
    naturals: np.ndarray
    n_naturals: np.ndarray
    natural_kinds: np.ndarray
    natural_index: np.ndarray
    bank_mode: np.ndarray
    bank_seat: np.ndarray

    @cached_property
    def seat_search(self):
        """bool (R, P): whether each seat may search for its setting under each ruleset
        (sapsam.kernels.policies.searchable); derived from the arrays above, so not fingerprinted."""
        return np.array([[_kp.searchable(code, self.tables[model], self.points[model],
                                         _kr.no_removal() if not self.removal_features[model] else
                                         _kr.Removal(*(a[model] for a in self.removal)), params)
                          for code, model in zip(self.seat_policy, models)]
                         for params, models in zip(self.params, self.seat_model)], np.bool_)


def natural_kind(row):
    """(kind, parameter) of a row of a naturals table, as ints."""
    return int(row[NAT_KIND]), int(row[NAT_PARAMETER])


def compile_simulation(sim):
    """Load the rulesets and policies of a run and flatten them for the kernel."""
    rulesets = tuple(load_ruleset(r) for r in sim.rules)
    n_rules, players = len(rulesets), sim.players
    hands = table_hands(rulesets, players)
    compiled = [r.compile() for r in rulesets]
    k_max = max(1, max(len(c.naturals) for c in compiled))
    naturals = np.zeros((n_rules, k_max, NAT_COLUMNS), np.int64)
    n_naturals = np.zeros(n_rules, np.int64)
    kinds = sorted({natural_kind(row) for c in compiled for row in c.naturals}) or [(0, 0)]
    natural_index = np.zeros((n_rules, k_max), np.int64)
    for r, c in enumerate(compiled):
        n_naturals[r] = len(c.naturals)
        naturals[r, :len(c.naturals)] = c.naturals
        for k, row in enumerate(c.naturals):
            natural_index[r, k] = kinds.index(natural_kind(row))
    strategies = dict(sim.strategies)
    # each distinct model (EV table and points) once, seats sharing a policy share it: the
    # tables of a run are the simulator's working set, and 4 copies of 18 rulesets' tables
    # overflow the caches
    tables, points, removals, index = [], [], [], {}
    seat_model = np.zeros((n_rules, players * hands), np.int64)  # per hand dealt
    seat_policy = np.zeros(players * hands, np.int64)
    for r, rules in enumerate(rulesets):
        for p, name in enumerate(sim.seats):
            policy = make_policy(name, rules, players, strategies.get(rules.id))
            key = (rules.id, name) if name in ("table", "fitted", "houseway") else name
            if key not in index:
                index[key] = len(tables)
                tables.append(policy.tables)
                points.append(policy.points)
                removals.append(policy.removal)
            seat_policy[p * hands:(p + 1) * hands] = policy.code  # a player's hands
            seat_model[r, p * hands:(p + 1) * hands] = index[key]
    bank_mode = np.array([_bank_mode(r) for r in rulesets], np.int64)
    bank_seat = np.array([min(r.bank.seat, players - 1) for r in rulesets], np.int64)
    removal, removal_features = _kr.stack_removals(removals)
    return Compiled(rulesets, seat_policy, np.stack(tables), np.stack(points), seat_model,
                    removal, removal_features,
                    np.stack([c.params for c in compiled]).reshape(n_rules, N_PARAMS),
                    np.stack([c.royalty for c in compiled]), naturals, n_naturals,
                    np.array(kinds, np.int64), natural_index, bank_mode, bank_seat)


def table_hands(rulesets, players):
    """Hands each player is dealt in a run: one, or two when every ruleset is criss-cross
    (which is heads-up); a run cannot mix the two, as its tables are dealt once for all."""
    hands = {r.hands for r in rulesets}
    if len(hands) > 1:
        crossed = [r.id for r in rulesets if r.hands == 2]
        one = len(crossed) == 1
        raise ValueError(f"{', '.join(crossed)} deal{'s' if one else ''} two hands to each player: simulate "
                         f"{'it' if one else 'them'} on {'its' if one else 'their'} own, not beside rulesets "
                         "of one hand")
    hands = hands.pop()
    if hands == 2 and players != 2:
        raise ValueError(f"criss-cross is heads-up: use {option('players', 2)} (got {players})")
    return hands


def fingerprint(compiled):
    """SHA-256 of the kernel arrays of a :class:`~sapsam.measure.simulate.Compiled` (hex)."""
    digest = hashlib.sha256()
    for f in fields(Compiled):
        value = getattr(compiled, f.name)
        named = (zip(value._fields, value) if f.name == "removal" else
                 [(f.name, value)] if isinstance(value, np.ndarray) else [])
        for name, array in named:
            array = np.ascontiguousarray(array)
            digest.update(f"{name}:{array.dtype.str}:{array.shape}:".encode())
            digest.update(array.tobytes())
    return digest.hexdigest()


def run_key(sim, compiled):
    """What identifies a run's totals: its settings and the digest of the ruleset and strategy
    arrays it ran with (:func:`fingerprint`), so that a run resumed after a refit or a ruleset
    edit is refused rather than silently mixed."""
    return {**sim.describe(), "digest": fingerprint(compiled), "seeds": SCHEME}


def _bank_mode(rules):
    if rules.scoring.game != Game.BANK:
        return _ks.BANK_NONE
    return _ks.BANK_ROTATE if rules.bank.rotation == BankRotation.ROTATE else _ks.BANK_FIXED


def empty_totals(sim, compiled):
    """Zeroed (acc, hist, held) for a run."""
    n_rules, k_max = compiled.naturals.shape[:2]
    return (np.zeros((n_rules, sim.players, _ks.N_ACC), np.int64),
            np.zeros((n_rules, sim.players, _ks.N_HIST), np.int64),
            np.zeros((n_rules, k_max), np.int64))


def block_totals(sim, compiled):
    """A function of a block's index: the block's totals (acc, hist, held), simulated on the
    calling thread.  Its kernel releases the GIL, so threads run blocks side by side."""
    stream = Stream(sim.seed, "simulate")
    n_rules, k_max = compiled.naturals.shape[:2]
    seats = _ks.Seats(compiled.seat_policy, compiled.tables, compiled.points, compiled.seat_model,
                      compiled.seat_search, compiled.removal, compiled.removal_features)
    rules = Rules(compiled.params, compiled.royalty, compiled.naturals)

    def one(block):
        first = np.array([block * sim.block_size], np.int64)
        counts = np.minimum(sim.block_size, sim.tables - first)
        acc = np.zeros((1, n_rules, sim.players, _ks.N_ACC), np.int64)
        hist = np.zeros((1, n_rules, sim.players, _ks.N_HIST), np.int64)
        held = np.zeros((1, n_rules, k_max), np.int64)
        _ks.simulate_block(stream.states(1, block), first, counts, len(compiled.seat_policy), seats, rules,
                           compiled.n_naturals, compiled.natural_kinds, compiled.natural_index,
                           compiled.bank_mode, compiled.bank_seat, acc, hist, held, 0)
        return acc[0], hist[0], held[0]

    return one


def stream_blocks(sim, compiled, blocks, finished):
    """Simulate ``blocks`` on ``numba.get_num_threads()`` threads, each thread taking the next
    block as soon as it finishes one (nothing waits for a slowest block but the last few).
    ``finished(block, acc, hist, held, start, seconds)`` is called as each block ends, from
    the thread that ran it, one call at a time (under a lock): its totals, and when and for how
    long (``time.perf_counter`` seconds) its kernel ran."""
    import threading
    import time

    from sapsam.kernels.threads import parallel_for

    one, lock = block_totals(sim, compiled), threading.Lock()
    blocks = [int(b) for b in blocks]

    def task(i):
        start = time.perf_counter()
        totals = one(blocks[i])
        seconds = time.perf_counter() - start
        with lock:
            finished(blocks[i], *totals, start, seconds)

    parallel_for(task, range(len(blocks)))


def run_blocks(sim, compiled, blocks):
    """Totals of the given blocks (any subset, in any order): (acc, hist, held), int64."""
    acc, hist, held = empty_totals(sim, compiled)

    def add(block, a, h, n, start, seconds):
        acc[...] += a
        hist[...] += h
        held[...] += n

    stream_blocks(sim, compiled, blocks, add)
    return acc, hist, held


def run(sim, out=None, resume=False, progress=None, round_blocks=8, compute=None, fresh=False,
        timeline=None):
    """Run a simulation; returns its totals (acc, hist, held).

    Parameters
    ----------
    sim : Simulation
    out : path, optional
        Folder for the checkpoint (``checkpoint.npz``, rewritten atomically after every
        ``round_blocks`` finished blocks, and with every finished block when the run stops).
    resume : bool
        Continue from the checkpoint in ``out`` (refused if it belongs to another run).  An
        existing checkpoint is never overwritten without ``resume`` or ``fresh``
        (:func:`sapsam.base.files.read_checkpoint`).
    progress : callable, optional
        ``progress(tables_done, tables)`` after every block (``compute``: every round).
    round_blocks : int
        Blocks between checkpoints.  Streamed (:func:`stream_blocks`, a Dask backend), a
        checkpoint never makes a thread or a worker wait.
    compute : callable, optional
        ``compute(blocks) -> (acc, hist, held)``, called on rounds of ``round_blocks`` blocks;
        or a backend with ``stream(blocks, finished)`` as :func:`stream_blocks` takes them (a
        Dask backend, :func:`sapsam.measure.cluster.dask_compute`); default: the blocks
        streamed through this process's threads.
    fresh : bool
        Discard a checkpoint in ``out`` and start over.
    timeline : list, optional
        Gets ``("start", t)``, then per block streamed ``(block, thread name, start,
        seconds)`` (its kernel's run), then ``("end", t)`` (``time.perf_counter``): where
        the wall time went (``benchmarks/simulate_account.py``).

    The checkpoint also keeps the wall time of all the sessions of the run
    (:func:`elapsed`).
    """
    import threading
    import time
    from pathlib import Path

    start = time.perf_counter()
    if timeline is not None:
        timeline.append(("start", start))
    require_memory(sim.blocks * 24, f"{sim.tables:,} tables in blocks of {sim.block_size:,}")
    compiled = compile_simulation(sim)
    checkpoint = Path(out) / CHECKPOINT if out else None
    key = run_key(sim, compiled)
    acc, hist, held = empty_totals(sim, compiled)
    done = np.zeros(sim.blocks, np.bool_)
    before = 0.0  # seconds of earlier sessions
    if resume and checkpoint is None:
        raise ValueError(f"{option('resume', True)} needs {option('out')}: the checkpoint lives in the output folder")
    saved = read_checkpoint(checkpoint, key, resume, fresh) if checkpoint else None
    if saved is not None:
        acc, hist, held, done = saved["acc"], saved["hist"], saved["held"], saved["done"]
        before = float(saved.get("seconds", 0.0))
    unsaved = [0]  # blocks finished since the last checkpoint

    def save():
        if checkpoint is not None and unsaved[0]:
            write_npz(checkpoint, acc=acc, hist=hist, held=held, done=done,
                      seconds=before + time.perf_counter() - start, run=json.dumps(key))
        unsaved[0] = 0

    def finished(block, a, h, n, begun, seconds):
        if timeline is not None and begun is not None:
            timeline.append((block, threading.current_thread().name, begun, seconds))
        add(block, a, h, n)

    def add(blocks, a, h, n):
        acc[...] += a
        hist[...] += h
        held[...] += n
        done[blocks] = True
        unsaved[0] += np.size(blocks)
        if unsaved[0] >= round_blocks:
            save()
        if progress is not None:
            progress(int(min(done.sum() * sim.block_size, sim.tables)), sim.tables)

    todo = np.flatnonzero(~done)
    try:
        if compute is None:
            stream_blocks(sim, compiled, todo, finished)
        elif hasattr(compute, "stream"):
            compute.stream(todo, finished)
        else:
            for first in range(0, len(todo), round_blocks):
                add(todo[first:first + round_blocks], *compute(todo[first:first + round_blocks]))
    finally:
        save()  # every finished block, also when the run is interrupted
        if timeline is not None:
            timeline.append(("end", time.perf_counter()))
    return acc, hist, held


def elapsed(out):
    """Wall seconds of all the sessions of the run checkpointed in folder ``out`` (0 if none)."""
    from pathlib import Path

    path = Path(out) / CHECKPOINT
    if not path.is_file():
        return 0.0
    return float(load_npz(path, "checkpoint").get("seconds", 0.0))
