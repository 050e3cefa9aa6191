"""The package list, read from the folders: pyproject.toml's ``package-dir`` maps analysis/ to
sapsam, kernels/ to sapsam.kernels and results/charts/ to sapsam.web.charts, and every folder
below them that holds a file is a package of code or of data.  A new game's package needs no
line here (ARCHITECTURE.md, "Where to add")."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
FOLDERS = {"sapsam": "analysis", "sapsam.kernels": "kernels", "sapsam.web.charts": "results/charts"}
CACHE = (".pyc", ".nbi", ".nbc")


def packages():
    found = []
    for name, folder in FOLDERS.items():
        top = ROOT / folder
        for path in [top, *sorted(p for p in top.rglob("*") if p.is_dir())]:
            if "__pycache__" in path.parts or not any(f.is_file() and f.suffix not in CACHE
                                                      for f in path.iterdir()):
                continue
            found.append(".".join((name, *path.relative_to(top).parts)))
    return found


setup(packages=packages())
