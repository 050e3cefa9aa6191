"""Provenance for every file under ``results/`` (STYLE.md item 11), and atomic writes."""

import json
import math
import os
import platform
import subprocess
import tempfile
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sapsam.base.arguments import in_api_call, option

REPOSITORY = Path(__file__).resolve().parents[2]


def git_revision():
    """Short git revision of the checkout, ``-dirty`` after it where the code (``analysis/``,
    ``kernels/``) differs from that commit, so that a result never names a commit without the
    code that made it; None outside a repository."""
    def git(*args):
        return subprocess.run(["git", *args], capture_output=True, text=True, cwd=REPOSITORY,
                              timeout=5).stdout.strip()

    try:
        revision = git("rev-parse", "--short", "HEAD")
        changed = revision and git("status", "--porcelain", "--untracked-files=no", "--", ":/analysis", ":/kernels")
    except OSError:
        return None
    return (revision + "-dirty" * bool(changed)) or None


def provenance(**what):
    """``what`` (ruleset, policies, samples, seed, ...) plus versions, git revision and date."""
    from importlib.metadata import version

    import numba
    import numpy as np

    return {**what, "sapsam": version("sapsam"), "numpy": np.__version__,
            "numba": numba.__version__, "python": platform.python_version(),
            "git": git_revision(), "date": datetime.now(UTC).isoformat(timespec="seconds")}


def unwritable(folder):
    """Why files cannot be written in ``folder``, or None if they can, found without making
    anything: a command that goes on to refuse its input leaves no empty folder behind.  No part
    of the path may be a file, and the nearest folder of it that exists (``folder`` itself, or
    the one to make it in) must take a new file; the writers make the folder when they write
    (:func:`write_atomic`, :func:`exclusive`)."""
    folder = Path(folder)
    existing = next((f for f in (folder, *folder.parents) if os.path.lexists(f)), None)
    if existing is None:  # a relative path from a working folder that is gone
        return "No such file or directory"
    if not existing.is_dir():
        return f"{existing} is {'a file' if existing.exists() else 'a broken link'}, not a folder"
    try:  # on Linux an unnamed file (O_TMPFILE): nothing shows in the folder, even for a moment
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def writable_folder(out, what=None):
    """Check that files can be written in the folder ``out`` (:func:`unwritable`: it is not
    made here, but by the first file written in it); a ``ValueError`` naming it (one line:
    ``what``, by default the option ``--out``, ``out`` in an API call) if not.  Returns its Path."""
    reason = unwritable(out)
    if reason:
        raise ValueError(f"cannot write to {what or option('out').removesuffix('=')} {out}: {reason}")
    return Path(out)


def checkpoint_beside(path, part=""):
    """The checkpoint of a run whose result is the file ``path``: ``.<stem>.partial.npz``
    beside it (``.<stem>.<part>.partial.npz`` for one of several parts of the run)."""
    stem = Path(path).stem + (f".{part}" if part else "")
    return Path(path).with_name(f".{stem}.partial.npz")


def lock_beside(path):
    """The lock (:func:`exclusive`) a run holds while it writes the file ``path`` and its
    checkpoints beside it."""
    return exclusive(checkpoint_beside(path).with_suffix(".lock"), path)


@contextmanager
def writing_result(path, resume=False, fresh=False):
    """Hold the lock of a run that writes its result to the file ``path`` (:func:`lock_beside`;
    nothing where ``path`` is None), first refusing (``ValueError``) to write over a result an
    earlier run finished there unless ``fresh`` says to replace it or ``resume`` to bring it up
    to date (continuing a checkpoint if one is left, else running afresh, as ``make exploits``
    does): a finished result is never replaced without being asked."""
    if not path:
        yield
        return
    with lock_beside(path):
        if Path(path).exists() and not (resume or fresh):
            again = "fresh=True" if in_api_call() else "--fresh (fresh=True)"
            raise ValueError(f"{path} holds the result of an earlier run: add {again} to replace it, or "
                             "write elsewhere")
        yield


def finite(value):
    """JSON has no NaN or infinity: an undefined figure (one sample's spread, an interval of
    one block) is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def json_text(payload, **options):
    """``payload`` as JSON text (``json.dumps``'s ``options``), every figure JSON can hold: an
    undefined one null (:func:`finite`), never the ``NaN`` or ``Infinity`` that parsers refuse."""
    return json.dumps(finite(payload), allow_nan=False, **options)


def write_json(path, payload):
    """Write JSON atomically: a temporary file in the same folder, then a rename."""
    write_atomic(path, json_text(payload, indent=2) + "\n")


def write_atomic(path, data):
    """Replace ``path`` with ``data`` (str or bytes) so readers never see a half-written file:
    a temporary file in the same folder, then a rename; ordinary permissions (the umask's)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_npz(path, **arrays):
    """Write a compressed ``.npz`` atomically (see :func:`write_atomic`)."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    write_atomic(path, buffer.getvalue())


def load_npz(path, what, required=()):
    """The arrays of an ``.npz`` file, loaded whole; a ``ValueError`` naming the file, ``what``
    it should be and why it cannot be read (truncated, empty, not an .npz, keys missing)."""
    import zipfile
    import zlib

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile, zlib.error) as exc:
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise ValueError(f"{path} is not a readable {what} ({' '.join(reason.split())})") from None
    missing = [key for key in required if key not in arrays]
    if missing:
        raise ValueError(f"{path} is not a readable {what} (it lacks {', '.join(missing)})")
    return arrays


def load_json(path, what, kind=object):
    """The JSON document in ``path``, of Python type ``kind`` (``dict``: an object); a
    ``ValueError`` naming the file, ``what`` it should be and why it cannot be read (missing,
    not JSON, another kind)."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ValueError(f"{path} is not a readable {what} ({' '.join(reason.split())})") from None
    if not isinstance(document, kind):
        raise ValueError(f"{path} is not a readable {what} (a JSON {type(document).__name__}, not "
                         f"{'an object' if kind is dict else kind.__name__})")
    return document


def read_checkpoint(path, expected, resume=True, fresh=False):
    """Arrays of the checkpoint at ``path`` to continue from, or None to start from nothing.

    Finished work is never dropped silently: a checkpoint that exists is continued only with
    ``resume``, discarded only with ``fresh``, and otherwise refused; so is one that cannot be
    read or that was written for another run (``expected``: the run's settings, stored in it
    as ``run``).  Each refusal is a ``ValueError`` naming the file and what to do.
    """
    path = Path(path)
    if fresh:
        path.unlink(missing_ok=True)
        return None
    if not path.is_file():
        return None
    if not resume:
        raise ValueError(f"{path} holds the finished work of an earlier run: add {option('resume', True)} to "
                         f"continue it, or {option('fresh', True)} to discard it and start over")
    try:
        arrays = load_npz(path, "checkpoint", ("run",))
        stored = json.loads(str(arrays["run"]))
    except ValueError as exc:
        raise ValueError(f"{str(exc).rstrip('.')}; run with {option('fresh', True)} to discard it and "
                         "start over") from None
    expected = json.loads(json.dumps(expected))
    if stored != expected:
        raise ValueError(f"{path} is a checkpoint of another run ({_differences(stored, expected)}); run "
                         f"with {option('fresh', True)} to discard it and start over, or write elsewhere")
    return arrays


def _differences(stored, expected):
    """What a checkpoint's run settings ``stored`` and this run's ``expected`` (dicts) differ in,
    in words: ``rules standard, here basic; ...``."""
    if not (isinstance(stored, dict) and isinstance(expected, dict)):
        return f"{_short(stored)}, here {_short(expected)}"
    keys = [k for k in {**stored, **expected} if stored.get(k) != expected.get(k)]
    if keys == ["digest"]:  # the settings' own data (rulesets, strategies), where the rest agree
        return "the same settings, but their rulesets' or strategies' contents have changed since"
    return "; ".join(f"{k} {_short(stored.get(k, 'none'))}, here {_short(expected.get(k, 'none'))}"
                     for k in keys if k != "digest")


def _short(value, room=60):
    """A run setting as text, cut to ``room`` characters."""
    text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= room else text[:room - 3] + "..."


@contextmanager
def exclusive(path, what):
    """Hold a lock file ``path`` while one run writes ``what``; a second run that asks for it
    meanwhile is refused at once (``ValueError``) rather than corrupting the first's work.  The
    folders made for it are removed again if the run left them empty (it refused its input)."""
    from filelock import FileLock, Timeout

    path = Path(path)
    made = [f for f in (path.parent, *path.parent.parents) if not os.path.lexists(f)]  # deepest first
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(path)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise ValueError(f"another sapsam run is writing {what} (it holds {path}); wait for it "
                         "to finish or write elsewhere") from None
    try:
        yield
    finally:
        # removed while still held: a run that opened it before cannot lock it, and one that
        # comes after makes a new one (our work is done by then)
        try:
            path.unlink(missing_ok=True)
        except OSError:  # a system that cannot remove an open file keeps it
            pass
        lock.release()
        for folder in made:  # the folders made for the lock, where the run wrote nothing
            try:
                folder.rmdir()
            except OSError:  # not empty: the run's files (or another run's) are in it
                break
