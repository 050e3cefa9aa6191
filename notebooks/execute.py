"""Execute the notebooks in place and save their outputs (``make notebooks``).

Each notebook runs top to bottom in a fresh ``python3`` kernel of this interpreter, with the
notebooks folder as its working directory (as Jupyter opens it), and is written back with its
outputs.  Cell timing metadata is not recorded, so re-running unchanged notebooks changes only
what the analyses print.

The notebooks read their sample budget from ``SAPSAM_SAMPLES``.  This script removes that
variable from the kernel's environment, so the committed outputs come from each notebook's full
default budget, unless ``--samples N`` asks for another (for a quick look, not for committing).

Usage::

    python notebooks/execute.py                      # every notebooks/*.ipynb
    python notebooks/execute.py notebooks/01-which-setting.ipynb --samples 500
"""

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent
TIMEOUT = 1800  # seconds per cell


def execute(path, samples=None, timeout=TIMEOUT):
    """Run one notebook and write it back with its outputs; returns the wall time in seconds."""
    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    env = {k: v for k, v in os.environ.items() if k != "SAPSAM_SAMPLES"}
    if samples is not None:
        env["SAPSAM_SAMPLES"] = str(samples)
    start = time.perf_counter()
    NotebookClient(notebook, timeout=timeout, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute(env=env)
    seconds = time.perf_counter() - start
    nbformat.write(notebook, path)
    return seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to run (default: every notebooks/*.ipynb)")
    parser.add_argument("--samples", type=int, help="sample budget (default: each notebook's own)")
    args = parser.parse_args(argv)
    for path in args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb")):
        print(f"{path.name}: running ...", flush=True)
        print(f"{path.name}: {execute(path, args.samples):.1f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
