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


def _writable(folder):
    """Whether Numba would cache in ``folder``: it can be made and written (Numba's own test)."""
    import tempfile

    try:
        folder.mkdir(exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _cache_folder(source):
    """The folder Numba caches the kernels of ``source`` (a Path) in, as it chooses one; None
    where it caches nowhere.  Beside the source (``__pycache__``) where that can be written
    and nothing chooses otherwise, found without importing Numba (a third of a second); else
    Numba's own choice for a function of that file (``NUMBA_CACHE_DIR``, a
    ``.numba_config.yaml`` here, ``NUMBA_CACHE_LOCATOR_CLASSES``, or the user's cache folder
    beside a read-only install), which makes the folder."""
    import os
    from pathlib import Path

    beside = source.parent / "__pycache__"
    chosen = (os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES")
              or Path(".numba_config.yaml").exists())
    if not chosen and _writable(beside):
        return beside
    from numba.core import caching

    namespace = {}
    exec(compile("def probe(): pass", str(source), "exec"), namespace)  # a function of that file
    try:
        return Path(caching.CompileResultCacheImpl(namespace["probe"])._locator.get_cache_path())
    except (RuntimeError, AttributeError):  # no locator takes the file; or Numba's internals moved
        return None


def forget_stale(package, kernels):
    """Drop Numba's cached kernels when any kernel's source has changed.

    Numba keys a cached kernel on its own file only, yet compiles the kernels it calls from
    other files into it: after an edit to one file (or an upgrade over an old cache), another
    file's cached kernel can still hold the old code of its callees, and give old answers,
    or crash when an array it allocates has changed size.  So the cache carries a digest of
    every kernel source (``sources.sha256`` beside the 13-card kernels' cache); when it
    differs, every cached kernel of those sources is deleted and compiles afresh on first use
    (``sapsam compile``).  The cache is where Numba keeps it (:func:`_cache_folder`):
    ``__pycache__`` beside the sources, ``NUMBA_CACHE_DIR`` where that is set, or the user's
    cache folder beside a read-only install (where finding it imports Numba).  Two versions
    installed at one path and sharing one ``NUMBA_CACHE_DIR`` (containers on one volume) drop
    each other's kernels: give each version a folder of its own.  Returns how many cached
    files were deleted."""
    import os
    import secrets
    from pathlib import Path

    sources = _kernel_sources(package, kernels)
    digest = sources_digest(sources)
    folders = {}  # a source's folder -> Numba's cache folder for it
    for path in sources:
        if path.parent not in folders:
            folders[path.parent] = _cache_folder(path)
    home = folders.get(Path(kernels))
    if home is None:  # nowhere to cache: Numba compiles afresh in every process
        return 0
    stamp = home / "sources.sha256"
    try:
        if stamp.read_text() == digest:
            return 0
    except OSError:
        pass
    deleted = 0
    try:
        for folder in {folder for folder in folders.values() if folder is not None}:
            for entry in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                entry.unlink(missing_ok=True)
                deleted += 1
        temporary = stamp.with_suffix(f".{os.getpid()}-{secrets.token_hex(4)}")  # pids repeat across containers
        temporary.write_text(digest)
        temporary.replace(stamp)
    except OSError:  # another process's files, or a folder gone read-only: Numba copes
        pass
    return deleted
