"""Scale-out backend of the table simulator: one ``dask.distributed`` task per block.

:func:`dask_compute` gives a backend for :func:`sapsam.measure.simulate.run` (``compute``), running
every block as its own task on a Dask cluster, streamed (every block submitted at once, each
result added and checkpointed as it comes back, so no worker waits for a round's slowest): an
existing scheduler (``tcp://HOST:PORT``) or a ``LocalCluster`` of worker processes on loopback
started (and shut down) here::

    with dask_compute(sim, workers=4) as backend:
        acc, hist, held = run(sim, out="results/sim", resume=True, compute=backend)

A task ships only the :class:`~sapsam.measure.simulate.Simulation` (a few hundred bytes) and a
block index; each worker process compiles the simulation itself (rulesets, policy tables) once
and keeps it, its threads running blocks side by side on that one copy (``threads``: a process
of several threads holds tens of MiB of tables once, not once a thread).  Block ``i``'s stream
depends only on ``(seed, i)`` and the totals are int64 sums, so the numbers are those of the
local backend, bit for bit.  To make sure the workers really run the same simulation (same
ruleset and strategy files, same policy tables), every task returns a digest of its compiled
arrays and the client refuses results whose digest differs from its own.  Rulesets and
strategies named by path must be readable at that path on every worker.

A script that starts a ``LocalCluster`` must guard its entry point with
``if __name__ == "__main__":`` (worker processes are spawned and import the main module).
"""


import threading
from contextlib import contextmanager

import numpy as np

from sapsam.base.arguments import whole
from sapsam.measure.simulate import (
    compile_simulation,
    empty_totals,
    fingerprint,
    run_blocks,
)

CONNECT_TIMEOUT = 10  # seconds to reach an existing scheduler

_COMPILED = {}  # per worker process: Simulation -> (Compiled, digest)
_COMPILING = threading.Lock()  # a worker of several threads compiles a simulation once


def _compiled(sim):
    """This process's compiled ``sim`` and its digest (compiled on first use, then kept, and
    shared by the worker's threads)."""
    entry = _COMPILED.get(sim)
    if entry is None:
        with _COMPILING:
            entry = _COMPILED.get(sim)
            if entry is None:
                compiled = compile_simulation(sim)
                entry = _COMPILED[sim] = (compiled, fingerprint(compiled))
    return entry


def _run_block(sim, block):
    """The task: totals of one block, computed on a worker, with the worker's digest."""
    compiled, digest = _compiled(sim)
    acc, hist, held = run_blocks(sim, compiled, [block])
    return digest, acc, hist, held


@contextmanager
def _workers_ignore_ctrl_c():
    """Start worker processes with Ctrl-C ignored (a process inherits it, and Python keeps a
    SIGINT it was started ignoring ignored).  Ctrl-C in a terminal reaches every process of
    the foreground group; this way only the client hears it and shuts the workers down,
    instead of each worker printing its own traceback."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet_shutdown():
    """After Ctrl-C, the client's event loop and the workers report the cancelled gathers and
    closed connections as errors on their way down: nothing the user needs to read."""
    import logging

    for name in ("asyncio", "distributed", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _one_line(exc, limit=200):
    return (" ".join(str(exc).split()) or type(exc).__name__)[:limit]


def _cached_simulations():
    """How many simulations this worker process has compiled (for tests)."""
    return len(_COMPILED)


class DaskCompute:
    """``compute(blocks) -> (acc, hist, held)`` on a Dask cluster; see :func:`dask_compute`.

    Use it as a context manager (or call :meth:`close`): it closes its client and, if it
    started one, its ``LocalCluster``.
    """

    def __init__(self, sim, scheduler=None, workers=None, connect_timeout=CONNECT_TIMEOUT, threads=1):
        from dask.base import tokenize

        if scheduler is not None and workers is not None:
            raise ValueError("give a scheduler address or a number of workers, not both "
                             "(an existing cluster has its own workers)")
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        threads = whole("threads", threads, 1)
        if scheduler is not None and threads != 1:
            raise ValueError("an existing cluster's workers have their own threads: give a "
                             "scheduler address or threads, not both")
        self.sim = sim
        self.compiled = compile_simulation(sim)  # shapes, and the digest workers must match
        self.digest = fingerprint(self.compiled)
        self._token = tokenize(sim.describe())
        self.cluster = None
        self.client = None
        try:
            if scheduler is None:
                self._start_local(workers, threads)
            else:
                self._connect(str(scheduler), connect_timeout)
        except BaseException:
            self.close()
            raise

    def _start_local(self, workers, threads):
        import logging
        import os

        from distributed import Client, LocalCluster

        n = workers if workers is not None else max(1, (os.cpu_count() or 1) // threads)
        with _workers_ignore_ctrl_c():
            # the workers' own log lines stay off the user's terminal: a task's exception comes
            # back to the client (which reports it in one line), and the rest is Dask's
            # housekeeping, racy on shutdown (a worker still busy in a block when Ctrl-C closes
            # the scheduler logs its next heartbeat's failure as an ERROR with two tracebacks)
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=threads, processes=True,
                                        host="127.0.0.1", dashboard_address=None,
                                        silence_logs=logging.CRITICAL)
        self.client = Client(self.cluster)

    def _connect(self, address, timeout):
        from distributed import Client

        try:
            self.client = Client(address, timeout=timeout)
        except OSError as exc:  # refused, unknown host, timed out (TimeoutError is an OSError)
            raise ValueError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                             f"({_one_line(exc)})") from None
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{address!r} is not a Dask scheduler address, expected "
                             f"tcp://HOST:PORT ({_one_line(exc)})") from None

    @property
    def workers(self):
        """Workers the cluster has now (at least 1)."""
        return max(1, len(self.client.nthreads())) if self.client else 1

    @property
    def threads(self):
        """Threads the cluster's workers have now, together (at least 1): the blocks it runs
        at once."""
        return max(1, sum(self.client.nthreads().values())) if self.client else 1

    def stream(self, blocks, finished):
        """Run ``blocks``, one task each, all submitted at once (a worker takes the next as it
        finishes one); ``finished(block, acc, hist, held, None, None)`` as each result comes
        back, in the order they finish (the signature of
        :func:`sapsam.measure.simulate.stream_blocks`, without the kernel's times)."""
        from distributed import as_completed

        if self.client is None:
            raise RuntimeError("this Dask backend is closed")
        blocks = sorted(int(b) for b in np.asarray(blocks, np.int64).ravel())
        futures = {self.client.submit(_run_block, self.sim, b, key=f"sapsam-block-{b}-{self._token}"): b
                   for b in blocks}
        try:
            for future in as_completed(futures):
                digest, acc, hist, held = future.result()
                if digest != self.digest:
                    raise RuntimeError(
                        f"block {futures[future]}: a worker compiled this simulation differently from "
                        "the client (other ruleset or strategy files, or another sapsam version): "
                        "its numbers would not match")
                finished(futures[future], acc, hist, held, None, None)
        except KeyboardInterrupt:
            _quiet_shutdown()  # closing the cluster stops its tasks; cancelling them is noise
            raise
        except BaseException:
            self.client.cancel(list(futures))
            raise

    def __call__(self, blocks):
        """Totals of ``blocks``: (acc, hist, held), int64 (:meth:`stream`, summed)."""
        acc, hist, held = empty_totals(self.sim, self.compiled)

        def add(block, a, h, n, *_):
            acc[...] += a
            hist[...] += h
            held[...] += n

        self.stream(blocks, add)
        return acc, hist, held

    def close(self):
        """Close the client, and the LocalCluster if this backend started it."""
        client, cluster = self.client, self.cluster
        self.client = self.cluster = None
        try:
            if client is not None:
                client.close()
        finally:
            if cluster is not None:
                cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        where = self.client.scheduler.address if self.client is not None else "closed"
        return f"DaskCompute({where}, blocks={self.sim.blocks})"


def check_layout(scheduler, workers, threads, options=False):
    """A run's Dask arguments (``sapsam.simulate``'s, or ``sapsam simulate``'s ``options``,
    named so): a scheduler or a local cluster's ``workers``, and ``threads`` (a worker's) only
    with ``workers``."""
    names = ("--scheduler", "--workers", "--worker-threads") if options else ("scheduler", "workers", "worker_threads")
    if scheduler and workers:
        raise ValueError(f"give {names[0]} or {names[1]}, not both")
    if whole(names[2], threads, 1) != 1 and not workers:
        raise ValueError(f"{names[2]} are those of a local cluster's workers: give {names[1]} too "
                         "(a scheduler's workers have their own, dask worker --nthreads)")


def local_cluster(workers, threads=1):
    """How a run names a LocalCluster of ``workers`` x ``threads`` (its manifest's backend)."""
    return f"LocalCluster({workers} workers" + (f" x {threads} threads)" if threads > 1 else ")")


def dask_compute(sim, scheduler=None, workers=None, connect_timeout=CONNECT_TIMEOUT, threads=1):
    """A Dask backend for ``run(sim, ..., compute=backend)``: one task per block.

    Parameters
    ----------
    sim : Simulation
        The run; the backend only computes blocks of this simulation.
    scheduler : str, optional
        Address of a running scheduler (``tcp://HOST:PORT``).  Default: start a
        ``LocalCluster`` of worker processes on 127.0.0.1, no dashboard.
    workers : int, optional
        Worker processes of the LocalCluster (default: the number of CPUs over ``threads``).
    connect_timeout : float
        Seconds to reach ``scheduler`` before giving up with a ValueError naming it.
    threads : int
        Threads of each LocalCluster worker, each running a block at a time; a worker's threads
        share its compiled simulation (a fitted simulation's tables are tens of MiB a process).

    Returns
    -------
    DaskCompute
        Callable ``compute(blocks) -> (acc, hist, held)`` (int64 totals), with
        ``stream(blocks, finished)`` (what ``run`` calls: each block's totals as it finishes),
        and a context manager that shuts down what it started.
    """
    return DaskCompute(sim, scheduler=scheduler, workers=workers, connect_timeout=connect_timeout,
                       threads=threads)
