"""Provenance for every file under ``results/`` (STYLE.md item 11), and atomic writes."""

import json
import os
import platform
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def git_revision():
    """Short git revision of the checkout, or None outside a repository."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=REPOSITORY, timeout=5)
    except OSError:
        return None
    return out.stdout.strip() or None


def provenance(**what):
    """``what`` (ruleset, policies, samples, seed, ...) plus versions, git revision and date."""
    import numba
    import numpy as np

    import analysis

    return {**what, "sapsam": analysis.__version__, "numpy": np.__version__,
            "numba": numba.__version__, "python": platform.python_version(),
            "git": git_revision(), "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def writable_folder(out, what="--out"):
    """Create the folder ``out`` and check a file can be written in it; a ``ValueError``
    naming it (one line) if not.  Returns its Path."""
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"cannot write to {what} {out}: {exc.strerror or exc}") from None
    return folder


def write_json(path, payload):
    """Write JSON atomically: a temporary file in the same folder, then a rename."""
    write_atomic(path, json.dumps(payload, indent=2) + "\n")


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


def read_checkpoint(path, expected):
    """Arrays of a checkpoint written by :func:`write_npz`, if it exists and was written for
    the same run (``expected``: the run's settings, stored in it as ``run``); else None."""
    import numpy as np

    path = Path(path)
    if not path.is_file():
        return None
    with np.load(path) as data:
        stored = json.loads(str(data["run"]))
        if stored != json.loads(json.dumps(expected)):
            raise ValueError(f"{path} is a checkpoint of another run ({stored}); "
                             "delete it or run without --resume")
        return {key: data[key] for key in data.files}
