"""Numba's cache of compiled kernels, as a user meets it: is it warm for a command's kernels.

Kernels compile on first use (one to three minutes for all of them on 2 cores) and Numba
caches the machine code: beside the kernels' source (``kernels/__pycache__``) where the
package folder can be written, as in a virtual environment, and in the user's cache folder
where it cannot (a system-wide install; ``NUMBA_CACHE_DIR`` chooses another place).  Later
runs load it in about a second.  :func:`sapsam.compile.warm` compiles everything the commands use,
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


def loaded(dispatcher, *args):
    """``dispatcher`` with its machine code for these arguments' types in hand (compiled, or
    loaded from the cache: the first call in a process otherwise does it, ~0.3 s), so that
    timing the call after it times the work alone."""
    dispatcher.compile(tuple(dispatcher.typeof_pyval(a) for a in args))
    return dispatcher


def _kernel_sources(package, kernels):
    """The kernel source files: every ``.py`` of the 13-card kernels (``kernels``, the folder
    of sapsam.kernels) and of each game's (``package``'s ``*/kernels/`` and ``*/kernels.py``)."""
    from pathlib import Path

    package, kernels = Path(package), Path(kernels)
    return sorted({*kernels.glob("*.py"), *package.glob("*/kernels/*.py"), *package.glob("*/kernels.py")})


def sources_digest(sources):
    """SHA-256 (hex) of source files' names and contents, in the order given."""
    import hashlib

    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def forget_stale(package, kernels):
    """Drop Numba's cache beside the kernels when any kernel's source has changed.

    Numba keys a cached kernel on its own file only, yet compiles the kernels it calls from
    other files into it: after an edit to one file (or an upgrade over an old cache), another
    file's cached kernel can still hold the old code of its callees, and give old answers,
    or crash when an array it allocates has changed size.  So the cache carries a digest of
    every kernel source (``kernels/__pycache__/sources.sha256``); when it differs, every
    cached kernel beside the sources is deleted and compiles afresh on first use
    (``sapsam compile``).  A cache elsewhere (``NUMBA_CACHE_DIR``, or a user-wide one beside a
    read-only install) is left alone: nothing here can tell its age.  Returns how many cached
    files were deleted."""
    import os
    from pathlib import Path

    if os.environ.get("NUMBA_CACHE_DIR"):
        return 0
    sources = _kernel_sources(package, kernels)
    digest = sources_digest(sources)
    stamp = Path(kernels) / "__pycache__" / "sources.sha256"
    try:
        if stamp.read_text() == digest:
            return 0
    except OSError:
        pass
    deleted = 0
    try:
        for folder in {path.parent / "__pycache__" for path in sources}:
            for entry in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                entry.unlink(missing_ok=True)
                deleted += 1
        stamp.parent.mkdir(exist_ok=True)
        temporary = stamp.with_suffix(f".{os.getpid()}")
        temporary.write_text(digest)
        temporary.replace(stamp)
    except OSError:  # a read-only install: Numba caches elsewhere
        pass
    return deleted
