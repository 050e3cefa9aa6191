"""The notebooks in ``notebooks/`` run from top to bottom with a small sample budget.

Each notebook runs in a fresh ``python3`` kernel (ipykernel; jupyter_client starts a kernelspec
whose command is ``python`` with ``sys.executable``, and the test checks that the kernel ran in
this environment), with the notebooks folder as its working directory, as Jupyter and
``make notebooks`` (``notebooks/execute.py``) run it.  ``SAPSAM_SAMPLES`` is set small, so a
notebook takes seconds; the numbers are then noise, and only errors are tested.  The executed
copy stays in memory: the committed notebooks, with their full-budget outputs, are never
rewritten here.

Every notebook runs and must pass: nothing here is skipped.  The runners (nbformat, nbclient,
ipykernel) are test dependencies (pyproject.toml), imported plainly, and a module a notebook
imports that is missing or broken fails the notebook like any other error.
"""

import re
import sys
from pathlib import Path

import ipykernel  # noqa: F401  (the notebooks' kernel: a missing one is an error, not a skip)
import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SAMPLES = 200  # tables or sampled hands per analysis
TIMEOUT = 600  # seconds per cell: generous, for a cold Numba cache on a busy machine
CHECK_KERNEL = "import sys; print(sys.prefix)"  # the kernel's environment


def notebook_paths():
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def test_notebooks_are_found():
    assert notebook_paths(), f"no notebooks in {NOTEBOOKS}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(CHECK_KERNEL))  # the in-memory copy only
    monkeypatch.setenv("SAPSAM_SAMPLES", str(SAMPLES))
    client = NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                            record_timing=False, resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:
        client.execute()
    except CellExecutionError as error:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # IPython colours the traceback
        pytest.fail(f"{path.name} failed with SAPSAM_SAMPLES={SAMPLES}:\n{plain}", pytrace=False)

    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert f"Sample budget: {SAMPLES:,} " in _text(first), "the first code cell states the budget"
    prefix = _text(notebook.cells[-1]).strip()
    assert prefix == sys.prefix, f"the kernel ran in {prefix}, not in this environment {sys.prefix}"


def _text(cell):
    """What a code cell printed."""
    return "".join(output.get("text", "") for output in cell.outputs)
