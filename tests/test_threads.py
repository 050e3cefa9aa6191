"""sapsam.kernels.threads.parallel_for: every index once, on any number of threads; a failure stops
the loop and reaches the caller."""

import threading
import time

import numba
import numpy as np
import pytest

from sapsam.kernels.threads import parallel_for, parallel_ranges


@pytest.mark.parametrize("threads", [1, 2])
def test_every_index_runs_once(threads, restore_threads):
    numba.set_num_threads(threads)
    calls = np.zeros(57, np.int64)
    names = set()

    def task(i):
        calls[i] += 1
        names.add(threading.current_thread().name)

    parallel_for(task, range(len(calls)))
    assert (calls == 1).all()
    assert len(names) <= threads


def test_no_indices_no_calls(restore_threads):
    numba.set_num_threads(2)
    parallel_for(lambda i: pytest.fail("called"), range(0))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_failure_propagates_and_stops_every_thread(threads, restore_threads):
    """Index 3 fails, or with 2 threads any index from 3 on taken by the thread that did not
    take index 0: the other thread must stop too."""
    numba.set_num_threads(threads)
    started, first = [], []

    def task(i):
        me = threading.current_thread().name
        if i == 0:
            first.append(me)
        started.append(i)
        if i == 3 if threads == 1 else (i >= 3 and first and me != first[0]):
            raise KeyboardInterrupt
        time.sleep(0.002)

    with pytest.raises(KeyboardInterrupt):
        parallel_for(task, range(1000))
    finished = len(started)
    time.sleep(0.05)
    assert len(started) == finished  # nothing runs on after the call returned
    assert finished < 100  # at 2 ms a call, 1000 would take a second or more


@pytest.mark.parametrize("parallel", [True, False])
@pytest.mark.parametrize(("n", "chunks"), [(0, 64), (5, 64), (130, 64), (7, 3)])
def test_ranges_cover_every_index_once_whatever_the_threads(n, chunks, parallel):
    seen, lock = [], threading.Lock()

    def task(first, last):
        with lock:
            seen.append((first, last))

    parallel_ranges(task, n, chunks, parallel=parallel)
    ranges = sorted(seen)
    assert len(ranges) == max(1, min(n, chunks))
    assert [i for first, last in ranges for i in range(first, last)] == list(range(n))
    assert max(last - first for first, last in ranges) - min(last - first for first, last in ranges) <= 1


def test_threads_asking_first_at_once_start_one_pool(monkeypatch):
    # the web app's request threads may all run a first kernel loop at once
    from sapsam.kernels import threads as kt

    made, start = [], threading.Barrier(8)

    class Slow(kt.ThreadPoolExecutor):  # a wide window between the check and the assignment
        def __init__(self, *args, **kwargs):
            made.append(self)
            time.sleep(0.2)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(kt, "_pool", None)
    monkeypatch.setattr(kt, "ThreadPoolExecutor", Slow)
    got = []

    def ask():
        start.wait()
        got.append(kt._threads())

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert len(made) == 1 and all(pool is made[0] for pool in got)
    made[0].shutdown()
