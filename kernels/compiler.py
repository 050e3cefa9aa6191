"""The decorator every kernel is compiled with: Numba's ``njit``, less the C-callable wrapper.

For each compiled function Numba also makes a wrapper with the C calling convention, for
``cfunc``-style use (a function's address handed to C, or a first-class function value).
Nothing in sapsam takes a kernel's address, so that wrapper is only compile time: left out,
every warm-up step one after another from an empty cache took 161.0-161.1 s against
167.8-168.6 (Intel VM, two runs side by side, 2026-12-03), the machine code the kernels run
unchanged.  Each kernel module imports ``njit`` from here instead of from Numba; the options are
Numba's own, and a kernel may still ask for the wrapper (``no_cfunc_wrapper=False``).
"""

import numba


def njit(*args, **options):
    """:func:`numba.njit` with ``no_cfunc_wrapper=True`` unless given: as a decorator, bare or
    with options, or called on a function."""
    options.setdefault("no_cfunc_wrapper", True)
    return numba.njit(*args, **options)
