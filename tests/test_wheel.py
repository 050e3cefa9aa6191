"""The install is whole: the wheel built from this checkout, installed in a fresh virtual
environment outside the checkout, runs ``sapsam best`` for every shipped ruleset.

Every command runs with its working folder in a temporary folder outside the checkout,
without PYTHONPATH, and with SAPSAM_DATA (the user's data folder) pointing at an empty
temporary folder, so neither the checkout nor the user's own fits can stand in for what the
wheel ships.  The dependencies come through pip's configured index (its cache makes it quick).

Costs (seconds, a 2-core machine): build ~5, venv + install ~25, the first ``best`` ~90 (Numba
compiles the kernels into the new environment's cache), a later command ~3; ``best`` for the
other rulesets runs in one process of the installed package (~1 each).  The timings
of a run are printed at the end of the module (``pytest -s`` shows them).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER_HAND = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"  # criss-cross's second hand
SAMPLES = "300"
TABLES = (2, 3, 4)  # every named ruleset ships a fitted strategy at each table size
FIRST = "standard"  # the default ruleset: its run compiles the kernels

TIMINGS = {}  # label -> [seconds, runs]


def _timed(label, args, timeout, **kwargs):
    start = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)
    seconds = time.perf_counter() - start
    total = TIMINGS.setdefault(label, [0.0, 0])
    total[0] += seconds
    total[1] += 1
    return result


def _shown(result):
    return (f"$ {' '.join(map(str, result.args))}\nexit {result.returncode}\n"
            f"--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}")


def _check(result):
    assert result.returncode == 0, _shown(result)
    return result


def _print_timings():
    print("\n\nwheel test timings (seconds):")
    for label, (seconds, runs) in TIMINGS.items():
        each = f"  ({runs} runs, {seconds / runs:.1f} each)" if runs > 1 else ""
        print(f"  {label:<28} {seconds:7.1f}{each}")
    print(f"  {'total':<28} {sum(s for s, _ in TIMINGS.values()):7.1f}")


@pytest.fixture(scope="module")
def tmp():
    """A temporary folder outside the checkout (a venv is ~0.6 GB: removed at the end)."""
    folder = Path(tempfile.mkdtemp(prefix="sapsam-wheel-")).resolve()
    assert not folder.is_relative_to(ROOT), f"temporary folder {folder} is inside the checkout"
    TIMINGS.clear()
    yield folder
    _print_timings()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def clean_env(tmp):
    """The environment every command runs in: no path into the checkout, no user data."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "NUMBA_CACHE_DIR",
                 "PYTHONDONTWRITEBYTECODE"):  # the install skips byte-compiling: let runs do it
        env.pop(name, None)
    env["PYTHONNOUSERSITE"] = "1"
    env["SAPSAM_DATA"] = str(tmp / "data")
    (tmp / "data").mkdir()
    (tmp / "cwd").mkdir()
    return env


@pytest.fixture(scope="module")
def wheel(tmp, clean_env):
    """The wheel built from the checkout."""
    dist = tmp / "dist"
    _check(_timed("build wheel", [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                                  "-w", str(dist), str(ROOT)],
                  timeout=600, cwd=tmp / "cwd", env=clean_env))
    wheels = list(dist.glob("sapsam-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(tmp, clean_env, wheel):
    """A fresh venv (no system site-packages) with the wheel and its dependencies installed.
    Made without its own pip: the checkout's pip installs into it (``pip --python``), which
    saves seeding pip into every new venv."""
    root = tmp / "venv"
    _check(_timed("create venv", [sys.executable, "-m", "venv", "--without-pip", str(root)],
                  timeout=300, cwd=tmp / "cwd", env=clean_env))
    python = root / "bin" / "python"
    _check(_timed("pip install wheel + deps",
                  [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                   "--no-compile", str(wheel)],
                  timeout=1800, cwd=tmp / "cwd", env=clean_env))
    env = dict(clean_env, PATH=f"{root / 'bin'}{os.pathsep}{clean_env.get('PATH', '')}")
    purelib = _check(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, timeout=60, cwd=tmp / "cwd", env=env)).stdout.strip()
    return {"root": root, "python": python, "sapsam": root / "bin" / "sapsam", "env": env,
            "cwd": tmp / "cwd", "purelib": Path(purelib).resolve()}


def _sapsam(venv, label, *args, timeout=300):
    return _timed(label, [str(venv["sapsam"]), *args], timeout=timeout, cwd=venv["cwd"],
                  env=venv["env"])


def _clean_output(result):
    _check(result)
    for word in ("Traceback", "Error"):
        assert word not in result.stdout + result.stderr, _shown(result)
    return result


def _wheel_name(path):
    """Where a file of the checkout goes in the wheel (pyproject.toml's ``package-dir``)."""
    for folder, package in (("kernels/", "sapsam/kernels/"), ("results/charts/", "sapsam/web/charts/"),
                            ("analysis/", "sapsam/")):
        if path.startswith(folder):
            return package + path[len(folder):]
    return None


def test_wheel_ships_one_import_name_and_every_file(wheel):
    """The wheel installs exactly one top-level name, ``sapsam``, holding every file of the
    checkout's analysis/ and kernels/ (code, strategies, rulesets, each game's data, the page)
    and the shipped charts; no machine's compile cache."""
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    assert tops == {"sapsam"}, f"top-level names other than sapsam: {sorted(tops - {'sapsam'})}"
    tracked = subprocess.run(["git", "ls-files", "analysis", "kernels", "results/charts"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    assert len(tracked) > 100 and any(t.endswith(".npz") for t in tracked)
    assert [t for t in tracked if _wheel_name(t) not in names] == []
    assert not [n for n in names if n.endswith((".nbi", ".nbc", ".pyc"))]  # no machine's cache
    assert {"sapsam/__init__.py", "sapsam/__main__.py", "sapsam/kernels/__init__.py",
            "sapsam/games.py", "sapsam/ofc/kernels/board.py", "sapsam/paigow/kernels.py"} <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "sapsam = sapsam.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_venv_is_fresh_and_outside_the_checkout(venv):
    config = (venv["root"] / "pyvenv.cfg").read_text()
    assert re.search(r"include-system-site-packages\s*=\s*false", config), config
    result = _check(subprocess.run(
        [str(venv["python"]), "-c",
         "import sys, sapsam, sapsam.kernels; print(sapsam.__file__); print(sapsam.kernels.__file__);"
         "print('\\n'.join(sys.path))"],
        capture_output=True, text=True, timeout=120, cwd=venv["cwd"], env=venv["env"]))
    analysis_file, kernels_file, *path = result.stdout.splitlines()
    for file in (analysis_file, kernels_file):
        assert Path(file).resolve().is_relative_to(venv["purelib"]), result.stdout
    assert not any(p and Path(p).resolve().is_relative_to(ROOT) for p in path), result.stdout


def test_version(venv):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = _clean_output(_sapsam(venv, "sapsam --version", "--version"))
    assert version in result.stdout
    module = _clean_output(_timed("python -m sapsam --version", [str(venv["python"]), "-m", "sapsam", "--version"],
                                  timeout=120, cwd=venv["cwd"], env=venv["env"]))
    assert module.stdout == result.stdout


def test_best_runs_for_every_shipped_ruleset(venv):
    """``best`` with fitted opponents (the default) for every ruleset id the installed package
    names at 2, 3 and 4 players, each answered from the shipped fit (none fitted on demand)."""
    ids = list(json.loads(_clean_output(_sapsam(venv, "sapsam rules --json", "rules",
                                                "--json")).stdout))
    package = venv["purelib"] / "sapsam"
    assert sorted(ids) == sorted(p.stem for p in (package / "game" / "rulesets").glob("*.toml"))
    shipped = sorted((p.stem.rpartition("-")[0], int(p.stem.rpartition("-")[2][:-1]))
                     for p in (package / "play" / "strategies").glob("*-*p.npz"))
    for rid, players in shipped:
        assert rid in ids, f"strategy {rid}-{players}p.npz for an unknown ruleset"
        assert (package / "play" / "strategies" / f"{rid}-{players}p.json").is_file()
    missing = [(rid, n) for rid in ids for n in TABLES if (rid, n) not in shipped
               and not (rid == "criss-cross" and n != 2)]  # heads-up only
    assert missing == [], f"no fitted strategy shipped for {missing}"

    first = (FIRST, 4) if FIRST in ids else (ids[0], 4)
    runs = [first] + [run for run in shipped if run != first]
    # the first through the console script (it compiles the kernels); the others through the
    # same command group in one process of the installed package (a process start is ~3 s)
    result = _sapsam(venv, "best (first: compiles)", *_best_args(*first), timeout=1200)
    outputs = [(first, result.returncode, result.stdout + result.stderr)]
    script = ("import json, sys\nfrom click.testing import CliRunner\n"
              "from sapsam.cli import main\n"
              "for args in json.loads(sys.argv[1]):\n"
              "    r = CliRunner().invoke(main, args)\n"
              "    print(json.dumps([r.exit_code, r.output]))\n")
    rest = _check(_timed("best (the others, one process)",
                         [str(venv["python"]), "-c", script,
                          json.dumps([_best_args(*run) for run in runs[1:]])],
                         timeout=1200, cwd=venv["cwd"], env=venv["env"]))
    outputs += [(run, *json.loads(line)) for run, line in zip(runs[1:], rest.stdout.splitlines())]
    assert len(outputs) == len(runs), _shown(rest)
    failures = [f"{rid} ({players} players): exit {code}\n{text[-3000:]}"
                for (rid, players), code, text in outputs
                if not (code == 0 and "Traceback" not in text and "Error" not in text
                        and f"{rid}, {players} players, fitted opponents" in text
                        and re.search(r"^\s*1\s.*\bbest\b", text, re.MULTILINE))]
    assert failures == [], "\n\n".join(failures)
    fitted_here = Path(venv["env"]["SAPSAM_DATA"]) / "strategies" / "on-demand"
    assert not fitted_here.exists(), f"fitted on demand: {sorted(fitted_here.iterdir())}"


def _best_args(rid, players):
    other = ["--other", OTHER_HAND] if rid == "criss-cross" else []  # two hands each
    return ["best", HAND, "--rules", rid, "--players", str(players), "--samples", SAMPLES,
            "--quiet", *other]


def test_settings(venv):
    result = _clean_output(_sapsam(venv, "sapsam settings", "settings", HAND))
    assert "frontier" in result.stdout and re.search(r"^\s*1\s", result.stdout, re.MULTILINE)


def test_paigow_from_the_wheel(venv):
    """Pai Gow tiles from the installed package: a hand ranked exactly, the table as JSON."""
    best = _clean_output(_sapsam(venv, "sapsam paigow best", "paigow", "best", "teen day 4-2 5-3"))
    assert "best, house way" in best.stdout and "gong" in best.stdout
    table = json.loads(_clean_output(_sapsam(venv, "sapsam paigow table", "paigow", "table",
                                             "--json")).stdout)
    assert len(table["rows"]) == 8


def test_paigow_poker_from_the_wheel(venv):
    """Pai Gow Poker from the installed package: its house ways and pay tables (package data),
    one hand ranked exactly against a small deck."""
    ways = json.loads(_clean_output(_sapsam(venv, "sapsam paigow-poker house-ways", "paigow-poker",
                                            "house-ways", "--json")).stdout)
    assert [w["id"] for w in ways["house_ways"]][0] == "foxwoods"
    deck = "Jk " + " ".join(r + s for r in "AKQJT98" for s in "shd") + " 2s 2h 2d"
    best = json.loads(_clean_output(_sapsam(venv, "sapsam paigow-poker best", "paigow-poker", "best",
                                            "Jk As Kd Th 9s 2d 2h", "--deck", deck, "--json")).stdout)
    assert best["dealer_hands"] == 31_824 and best["settings"][0]["best"]


def test_ofc_from_the_wheel(venv):
    """Open-Face from the installed package: its rulesets, and the shipped improved weights."""
    best = json.loads(_clean_output(_sapsam(venv, "sapsam ofc fantasyland", "ofc", "fantasyland",
                                            "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h", "--json")).stdout)
    assert best["setting"] == "Kh Kd 3h | As Ad Ac Qs Qh | Jc Tc 9c 8c 7c" and best["stays"]
    run = json.loads(_clean_output(_sapsam(venv, "sapsam ofc simulate", "ofc", "simulate", "--seats",
                                           "improved,heuristic", "--hands", "100", "--json")).stdout)
    run = run["runs"][0]
    assert run["hands"] == 100 and [s["policy"] for s in run["by_seat"]] == ["improved", "heuristic"]


def test_serve_from_the_wheel(venv):
    """``sapsam serve`` of the installed package: the page, its scripts, the API's docs and the
    shipped charts all come from the wheel (nothing from the checkout or the internet)."""
    import signal
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([str(venv["sapsam"]), "serve", "--port", str(port), "--quiet"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=venv["cwd"], env=venv["env"])
    try:
        line = server.stdout.readline()
        assert f"localhost:{port}/" in line, line + server.stderr.read()
        base = f"http://127.0.0.1:{port}"

        def get(path):
            with urllib.request.urlopen(base + path, timeout=120) as response:
                assert response.status == 200, path
                return response.read()

        page = get("/").decode()
        assert "sapsam" in page and "https://" not in page
        for path in ("/static/app.js", "/static/style.css", "/games/ofc.js", "/games/paigow.js",
                     "/games/paigow_poker.js", "/docs",
                     "/docs-static/swagger-ui-bundle.js"):
            get(path)
        charts = json.loads(get("/api/charts"))
        assert any(c["name"] == "rulesets-all-4p" for c in charts), charts
        assert get(charts[0]["url"])[:4] == b"\x89PNG"
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0 and "Traceback" not in out + err, out + err
