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


def write_json(path, payload):
    """Write JSON atomically: a temporary file in the same folder, then a rename."""
    write_atomic(path, json.dumps(payload, indent=2) + "\n")


def write_atomic(path, text):
    """Replace ``path`` with ``text`` so readers never see a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
