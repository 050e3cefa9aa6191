"""The table simulator gives the same integers whatever runs its blocks: one process with 1 or
2 Numba threads, a Dask cluster of worker processes (sapsam.measure.cluster), or a run interrupted
(even killed) and resumed from its checkpoint."""

import json
import logging
import signal
import socket
import subprocess
import sys
import time

import numba
import numpy as np
import pytest

import sapsam
from sapsam.kernels import simulate as ks
from sapsam.measure.cluster import _cached_simulations, check_layout, dask_compute, local_cluster
from sapsam.measure.simulate import (
    CHECKPOINT,
    Simulation,
    compile_simulation,
    run,
    run_key,
)

SIM = Simulation(rules=("basic", "standard"), players=4,
                 seats=("greedy", "balanced", "random", "greedy"), tables=120, block_size=20,
                 seed=3)
# the killed run: 200 blocks, one per round, so it is still running when killed
BIG = Simulation(rules=("basic", "standard"), players=4,
                 seats=("greedy", "balanced", "random", "greedy"), tables=4000, block_size=20,
                 seed=11)


def assert_same(got, want):
    for name, g, w in zip(("acc", "hist", "held"), got, want):
        assert g.dtype == np.int64, name
        assert np.array_equal(g, w), f"{name} differs"


class Interrupt:
    """A compute wrapper that lets ``rounds`` rounds through, then raises KeyboardInterrupt."""

    def __init__(self, compute, rounds):
        self.compute, self.rounds, self.calls = compute, rounds, 0

    def __call__(self, blocks):
        if self.calls == self.rounds:
            raise KeyboardInterrupt
        self.calls += 1
        return self.compute(blocks)


def interrupted(sim, out, rounds, round_blocks):
    """Run ``sim`` into ``out`` and stop it after ``rounds`` rounds (checkpoint left behind)."""
    from sapsam.measure.simulate import compile_simulation, run_blocks

    compiled = compile_simulation(sim)
    stop = Interrupt(lambda blocks: run_blocks(sim, compiled, blocks), rounds)
    with pytest.raises(KeyboardInterrupt):
        run(sim, out=out, round_blocks=round_blocks, compute=stop)
    with np.load(out / CHECKPOINT) as data:
        assert data["done"].sum() == rounds * round_blocks


@pytest.fixture(scope="module")
def local():
    """Totals of SIM in this process (also compiles or loads the kernel before any worker
    process or subprocess starts, so they load it from the Numba cache)."""
    return run(SIM)


def test_totals_are_sane(local):
    acc, hist, held = local
    assert (acc[:, :, ks.A_HANDS] == SIM.tables).all()
    assert (hist.sum(axis=2) == SIM.tables).all()
    assert (acc[:, :, ks.A_SUMSQ] > 0).all()
    assert held.shape[0] == len(SIM.rules) and (held >= 0).all()


def test_threads_do_not_change_totals(local, restore_threads):
    for threads in (1, 2):
        numba.set_num_threads(threads)
        assert_same(run(SIM, round_blocks=SIM.blocks), local)


def test_interrupted_run_resumes_to_same_totals(local, tmp_path):
    interrupted(SIM, tmp_path, rounds=2, round_blocks=2)
    assert_same(run(SIM, out=tmp_path, resume=True, round_blocks=2), local)


def test_dask_local_cluster_gives_same_totals(local, tmp_path):
    with dask_compute(SIM, workers=2) as backend:
        assert backend.cluster is not None
        assert_same(run(SIM, round_blocks=4, compute=backend), local)
        # interrupted on the local backend, finished on the cluster
        interrupted(SIM, tmp_path, rounds=1, round_blocks=3)
        assert_same(run(SIM, out=tmp_path, resume=True, round_blocks=2, compute=backend), local)
        assert_same(backend([]), tuple(np.zeros_like(x) for x in local))
        assert_same(backend([5, 0]), backend([0, 5]))
        # each worker compiled the simulation once, however many blocks it ran
        cached = backend.client.run(_cached_simulations)
        assert len(cached) == 2 and set(cached.values()) <= {0, 1} and sum(cached.values()) >= 1
        # the workers' log lines stay off the user's terminal (a worker's heartbeat failing
        # while Ctrl-C closed the scheduler printed two tracebacks under the progress bar)
        levels = backend.client.run(lambda: [h.level for h in logging.getLogger("distributed").handlers
                                             if isinstance(h, logging.StreamHandler)])
        assert len(levels) == 2 and all(levels.values())
        assert {level for each in levels.values() for level in each} == {logging.CRITICAL}
        # results from workers that compiled something else are refused
        backend.digest = "0" * 64
        with pytest.raises(RuntimeError, match="compiled this simulation differently"):
            backend([0])
        cluster = backend.cluster
    assert backend.client is None and cluster.status.name == "closed"


def test_worker_threads_share_one_compiled_simulation(local):
    # one worker process of two threads: blocks run side by side in it (the kernel releases
    # the GIL), on the one compiled simulation, with the same totals
    with dask_compute(SIM, workers=1, threads=2) as backend:
        assert backend.threads == 2
        assert_same(run(SIM, round_blocks=4, compute=backend), local)
        assert list(backend.client.nthreads().values()) == [2]
        assert list(backend.client.run(_cached_simulations).values()) == [1]


def test_a_worker_compiles_a_simulation_once_however_many_threads_ask(monkeypatch):
    import threading

    from sapsam.measure import cluster

    calls, start = [], threading.Barrier(8)

    def slow(sim):  # wide enough a window that threads would race to compile without the lock
        calls.append(sim)
        time.sleep(0.2)
        return compile_simulation(sim)

    monkeypatch.setattr(cluster, "_COMPILED", {})
    monkeypatch.setattr(cluster, "compile_simulation", slow)

    def ask():
        start.wait()
        cluster._compiled(SIM)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(cluster._COMPILED) == 1


def test_layout_errors_name_what_to_give():
    with pytest.raises(ValueError, match="threads must be at least 1"):
        dask_compute(SIM, workers=1, threads=0)
    with pytest.raises(ValueError, match="threads must be a whole number"):
        dask_compute(SIM, workers=1, threads=2.5)
    with pytest.raises(ValueError, match="have their own threads"):
        dask_compute(SIM, scheduler="tcp://127.0.0.1:1", threads=2)
    with pytest.raises(ValueError, match="give workers too"):
        check_layout(None, None, 4)
    with pytest.raises(ValueError, match="not both"):
        check_layout("tcp://127.0.0.1:1", 2, 1)
    check_layout(None, 2, 4)
    with pytest.raises(ValueError, match="give workers too"):
        sapsam.simulate("standard", tables=10, worker_threads=2)
    check_layout("tcp://127.0.0.1:1", None, 1)
    assert local_cluster(2) == "LocalCluster(2 workers)"
    assert local_cluster(2, 8) == "LocalCluster(2 workers x 8 threads)"


def test_unreachable_scheduler_is_a_quick_clear_error():
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    start = time.monotonic()
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at " + address) as err:
        dask_compute(SIM, scheduler=address, connect_timeout=2)
    assert time.monotonic() - start < 8
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="not a Dask scheduler address"):
        dask_compute(SIM, scheduler="nonsense")
    with pytest.raises(ValueError, match="not both"):
        dask_compute(SIM, scheduler=address, workers=2)


def test_killed_run_resumes_and_checkpoint_is_always_whole(local, tmp_path):
    checkpoint = tmp_path / CHECKPOINT
    code = ("from sapsam.measure.simulate import Simulation, run; "
            f"run({BIG!r}, out={str(tmp_path)!r}, round_blocks=1)")
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    loads = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if checkpoint.exists():
                with np.load(checkpoint) as data:  # never half-written
                    done, acc = data["done"], data["acc"]
                    assert json.loads(str(data["run"])) == run_key(BIG, compile_simulation(BIG))
                tables = int(np.minimum(BIG.block_size,
                                        BIG.tables - np.flatnonzero(done) * BIG.block_size).sum())
                assert (acc[:, :, ks.A_HANDS] == tables).all()  # totals match the done blocks
                loads += 1
                if done.sum() >= 5:
                    break
            time.sleep(0.005)
        assert proc.poll() is None, "the run ended before it could be killed: " \
            + proc.stderr.read().decode()[-2000:]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL and loads >= 1
    with np.load(checkpoint) as data:
        assert 0 < data["done"].sum() < BIG.blocks
    resumed = run(BIG, out=tmp_path, resume=True, round_blocks=50)
    assert_same(resumed, run(BIG, round_blocks=50))
