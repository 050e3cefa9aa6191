"""Parallel loops of compiled kernels on Python threads.

A kernel compiled with ``nogil=True`` runs on several Python threads at once.  For a loop whose
body calls deep kernels this compiles far sooner than Numba's ``prange``: a ``parallel=True``
function is linked, optimised and turned into machine code four times over (the parallel
ufunc of its loop body, two wrappers, the function itself), each time together with every
kernel the body calls.  For the Monte Carlo sampler that was 7 s of a first ``sapsam best``'s
29 s; a thread pool runs the same kernel as fast (``make bench``'s ``best``).
"""

import itertools
import os
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

from numba import config, get_num_threads, types
from numba.extending import intrinsic

_pool = None  # the process's kernel threads, started when first needed
_starting = threading.Lock()


def _cpus():
    """The CPUs this process may run on (its affinity; all of them where that is unknown)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# More kernel threads than CPUs only take turns on them, each turn evicting the others' tables
# from the caches: 16 threads on 2 CPUs simulated 27% slower than 2 (benchmarks/simulate_account.py).
CPUS = _cpus()


def _threads():
    global _pool
    with _starting:  # the web app's request threads may all ask first at once: one pool
        if _pool is None:
            _pool = ThreadPoolExecutor(config.NUMBA_NUM_THREADS, thread_name_prefix="sapsam-kernel")
    return _pool


def _forget_threads():
    global _pool, _starting
    _pool = None  # a forked child has none of its parent's threads
    _starting = threading.Lock()  # nor a lock one of them held


os.register_at_fork(after_in_child=_forget_threads)


def parallel_for(task, indices):
    """Call ``task(i)`` for each ``i`` of ``indices`` (a range), on ``numba.get_num_threads()``
    threads (at most one a CPU this process may use, :data:`CPUS`), each taking the next index
    as it finishes one.

    ``task`` should spend its time in a ``nogil`` kernel and must not call ``parallel_for``; the
    calls may run in any order, so each writes its own part of the output.  An exception (a
    ``KeyboardInterrupt`` too) stops the threads taking indices, waits for the calls running,
    and propagates.
    """
    threads = min(get_num_threads(), len(indices), CPUS)
    if threads <= 1:
        for i in indices:
            task(i)
        return
    taken = itertools.count()  # shared: under the GIL each position goes to one thread
    stop = []

    def work():
        for k in taken:
            if k >= len(indices) or stop:
                return
            task(indices[k])

    running = [_threads().submit(work) for _ in range(threads)]
    try:
        wait(running, return_when=FIRST_EXCEPTION)
    finally:
        stop.append(True)  # after a failure, or an interrupt of the calling thread
        wait(running)
    for future in running:
        future.result()


def parallel_ranges(task, n, chunks=64, parallel=True):
    """Call ``task(first, last)`` on each of ``min(n, chunks)`` (at least one) consecutive,
    near-equal ranges that cover ``0 .. n``: on the threads as :func:`parallel_for` runs them, or
    one after another in this thread when not ``parallel``.  The ranges depend on ``n`` and
    ``chunks`` alone, never on the threads."""
    parts = max(1, min(n, chunks))

    def part(c):
        task(c * n // parts, (c + 1) * n // parts)

    if parallel:
        parallel_for(part, range(parts))
    else:
        for c in range(parts):
            part(c)


@intrinsic
def borrowed(typingctx, array):
    """A view of ``array`` without a reference count, for a ``nogil`` kernel's arguments.

    Numba counts references to an array at every call that takes it, an atomic operation; an
    array without a reference count (as a ``prange`` loop's arrays are) skips them.  A kernel
    that decides hands passes its arguments on at dozens of calls a hand: borrowing them saves
    0.25 µs a hand, over a quarter of the random policy's time.  Only for arrays that outlive the
    call, as a kernel's arguments do (never for an array the kernel allocates).
    """
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, arguments):
        source = context.make_array(signature.args[0])(context, builder, arguments[0])
        view = context.make_array(signature.return_type)(context, builder)
        context.populate_array(view, data=source.data, shape=source.shape, strides=source.strides,
                               itemsize=source.itemsize, meminfo=None, parent=None)
        return view._getvalue()

    return array(array), codegen
