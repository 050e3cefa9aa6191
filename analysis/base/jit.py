"""Numba's cache of compiled kernels, as a user meets it: is it warm for a command's kernels.

Kernels compile on first use (a minute or two for all of them) and Numba caches the machine
code: beside the kernels' source (``kernels/__pycache__``) where the package folder can be
written, as in a virtual environment, and in the user's cache folder where it cannot (a
system-wide install; ``NUMBA_CACHE_DIR`` chooses another place).  Later runs load it in
about a second.  :func:`sapsam.compile.warm` compiles everything the commands use,
once, so that no command pays for it (``sapsam compile``; ``make demo`` and ``make test`` run
it).
"""


def cached(dispatchers, **arguments):
    """Whether every Numba dispatcher given has machine code in its cache for this source.

    With ``arguments`` (a parameter's name and a value), machine code for that value's type,
    in the dispatchers that take that parameter: a kernel is compiled once per type of such an
    argument (``search``, :func:`sapsam.kernels.policies.search_mode`), and one may be cached without
    the other."""
    import inspect

    for dispatcher in dispatchers:
        try:
            index = dispatcher._cache._cache_file._load_index()
            names = list(inspect.signature(dispatcher.py_func).parameters)
            wanted = {names.index(name): dispatcher.typeof_pyval(value)
                      for name, value in arguments.items() if name in names}
            # an index key starts with the argument types it was compiled for
            if not any(all(key[0][i] == kind for i, kind in wanted.items()) for key in index):
                return False
        except (AttributeError, OSError, EOFError, ValueError, IndexError, TypeError):
            return True  # Numba's internals moved: say nothing rather than something wrong
    return True

