"""What the command line writes, where, and what it refuses (issue 12, items 4 to 8): output
paths checked before any work, checkpoints that are never lost or silently replaced, one
writer per output folder, a clean line on Ctrl-C, and sizes checked before allocating."""

import json
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner
from terminal import HAND, in_terminal

from sapsam.cli import main
from sapsam.play.strategy_files import SHIPPED_STRATEGY_DIR, user_strategy_dir

SIM = ["simulate", "--rules", "standard", "--tables", "400", "--block-size", "100", "--quiet"]


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def one_error_line(result, *words):
    """Exit status 2 and one line on stderr, starting 'Error:' and holding every word."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error:"), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "Traceback" not in result.output


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    """The user's data folder, in a temporary place."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SAPSAM_DATA", str(folder))
    return folder


# ---- item 4: nothing written over a shipped strategy; strategy and manifest apart -------------

def test_fit_writes_into_the_user_data_folder(data_folder):
    shipped = {p.name: p.read_bytes() for p in SHIPPED_STRATEGY_DIR.iterdir()}
    result = run("fit", "--rules", "standard", "--players", "4", "--iterations", "1",
                 "--hands", "300", "--removal-rounds", "1", "--removal-tables", "1000", "--quiet")
    assert result.exit_code == 0, result.output
    assert user_strategy_dir() == data_folder / "strategies"
    mine = data_folder / "strategies" / "standard-4p.npz"
    assert mine.is_file() and mine.with_suffix(".json").is_file()
    assert {p.name: p.read_bytes() for p in SHIPPED_STRATEGY_DIR.iterdir()} == shipped
    # the user's own fit is the one used from now on
    from sapsam.strategy.registry import make_policy

    assert make_policy("fitted", "standard", 4).source == str(mine)


@pytest.mark.parametrize("name", ["s.json", "s", "strategy.npz.json"])
def test_fit_refuses_a_strategy_path_its_manifest_would_take(tmp_path, name):
    result = run("fit", "--rules", "basic", "--players", "2", "--iterations", "1", "--hands",
                 "200", "--out", str(tmp_path / name), "--quiet")
    one_error_line(result, ".npz", name)
    assert not any(tmp_path.iterdir())


def test_strategy_for_another_table_is_refused():
    path = SHIPPED_STRATEGY_DIR / "two-four-2p.npz"
    result = run("best", HAND, "--rules", "standard", "--strategy", str(path), "--samples", "100")
    one_error_line(result, str(path), "two-four with 2 players", "standard with 4 players")


@pytest.mark.parametrize("damage, words", [
    ("manifest a list", ["its manifest", "a JSON list, not an object"]),
    ("row_mass NaN", ["row_mass holds values that are not finite, non-negative numbers"]),
    ("row_mass zero", ["row_mass gives a row no hands"]),
    ("surrender_rate an array", ["surrender_rate must be one number from 0 to 1"]),
])
def test_a_damaged_strategy_file_is_refused(tmp_path, damage, words):
    """A strategy file whose manifest is not an object, or whose numbers are no distribution
    (NaN masses played every setting to the same EV and 0.00 win chances), is refused."""
    import shutil

    shipped = SHIPPED_STRATEGY_DIR / "standard-4p.npz"
    path = tmp_path / "s.npz"
    shutil.copy(shipped.with_suffix(".json"), path.with_suffix(".json"))
    arrays = dict(np.load(shipped))
    if damage == "manifest a list":
        path.with_suffix(".json").write_text("[]")
    elif damage == "row_mass NaN":
        arrays["row_mass"] = np.full_like(arrays["row_mass"], np.nan)
    elif damage == "row_mass zero":
        arrays["row_mass"] = np.zeros_like(arrays["row_mass"])
    else:
        arrays["surrender_rate"] = np.array([0.1, 0.2])
    np.savez(path, **arrays)
    one_error_line(run("best", HAND, "--strategy", str(path), "--samples", "100", "--quiet"), "s.npz", *words)


# ---- item 5: output paths checked before any work ---------------------------------------------

@pytest.fixture
def not_a_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    return blocker


@pytest.mark.parametrize("args, option", [
    (["best", HAND, "--csv", "{bad}/ranked.csv"], "--csv"),
    (["fit", "--rules", "basic", "--out", "{bad}/s.npz"], "--out"),
    (["exploit", "--out", "{bad}/gap.json"], "--out"),
    (["simulate", "--rules", "standard", "--out", "{bad}/sim"], "--out"),
    (["chart", "rows", "--out", "{bad}/charts"], "--out"),
    (["houseway", "--out", "{bad}/hw"], "--out"),
])
def test_unwritable_output_is_refused_before_any_work(args, option, not_a_folder):
    start = time.perf_counter()
    result = run(*[a.format(bad=not_a_folder) for a in args])
    one_error_line(result, option, str(not_a_folder), "not a folder")
    assert time.perf_counter() - start < 10  # refused at once, not after the work (generous)


def test_csv_to_a_folder_is_refused(tmp_path):
    one_error_line(run("best", HAND, "--csv", str(tmp_path)), str(tmp_path), "folder")


@pytest.mark.parametrize("args, words", [
    (["houseway", HAND, "--rules", "standard,basic"], ["one ruleset"]),
    (["houseway", "2c 3d", "--rules", "standard"], ["2c 3d"]),
    (["houseway", "--rules", "nope"], ["unknown ruleset"]),
    (["chart", "rows", "--rules", "nope"], ["unknown ruleset"]),
])
def test_a_refusal_leaves_no_default_output_folder(args, words, tmp_path, monkeypatch):
    """The default --out (results/houseway, results/charts) is checked, not made, when the
    option is read: a command that refuses its input, or writes nothing there (houseway
    HAND), leaves no folder behind."""
    monkeypatch.chdir(tmp_path)
    one_error_line(run(*args), *words)
    assert not (tmp_path / "results").exists()


def test_a_hand_s_house_way_needs_no_writable_default_folder(tmp_path, monkeypatch):
    """``houseway HAND`` writes nothing, so the default --out (results/houseway) that it cannot
    write does not stop it; the house way's derivation, which writes there, is refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").write_text("")  # a file where the default folder would go
    review = run("houseway", HAND, "--samples", "200", "--quiet")
    assert review.exit_code == 0 and "house way" in review.output, review.output
    one_error_line(run("houseway", "--rules", "standard", "--tables", "100", "--quiet"),
                   "cannot write to --out results/houseway", "results is a file, not a folder")


@pytest.mark.parametrize("args, words", [
    (["simulate", "--rules", "nope", "--out", "{new}/sim"], ["unknown ruleset"]),
    (["simulate", "--rules", "standard", "--scheduler", "tcp://x:1", "--workers", "2", "--out", "{new}/sim"],
     ["--scheduler or --workers"]),
    (["simulate", "--rules", "standard", "--worker-threads", "4", "--out", "{new}/sim"], ["give --workers too"]),
    # refused after the run took its lock in --out (which made the folder): made, then removed
    (["simulate", "--rules", "standard", "--tables", "10000000000", "--block-size", "1", "--quiet",
      "--out", "{new}/sim"], ["memory"]),
    (["chart", "front", "--rules", "standard,basic", "--out", "{new}/charts"], ["one ruleset"]),
    (["houseway", "--rules", "standard", "--ship", "--seed", "1", "--out", "{new}/hw"], ["seed 0"]),
    (["paigow-poker", "chart", "--house-way", "nope", "--out", "{new}/pgp"], ["unknown house way"]),
    (["exploit", "--rules", "nope", "--out", "{new}/gap.json"], ["unknown ruleset"]),
    (["fit", "--rules", "nope", "--out", "{new}/s.npz"], ["unknown ruleset"]),
])
def test_a_refusal_leaves_no_new_output_folder(args, words, tmp_path):
    new = tmp_path / "new"
    one_error_line(run(*[a.format(new=new) for a in args]), *words)
    assert not new.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["simulate", "--rules", "nope", "--out", "{bad}/sim"],
    ["chart", "rows", "--rules", "nope", "--out", "{bad}/charts"],
    ["houseway", "--rules", "nope", "--out", "{bad}/hw"],
    ["paigow", "chart", "--out", "{bad}/paigow"],
    ["paigow-poker", "chart", "--house-way", "nope", "--out", "{bad}/pgp"],
])
def test_an_unwritable_out_is_told_before_the_other_input(args, not_a_folder):
    """The early check of --out stays: 'cannot write to' comes before any other refusal."""
    result = run(*[a.format(bad=not_a_folder) for a in args])
    one_error_line(result, "--out", "cannot write to", f"{not_a_folder} is a file, not a folder")
    assert not_a_folder.read_text() == ""


@pytest.mark.parametrize("command", ["improve", "learn"])
def test_open_face_tuning_checks_its_out_file_before_the_self_play(command, not_a_folder, data_folder):
    """ofc improve and learn write their weights at the end of a long self-play: an --out that
    cannot be written is told first (it was a traceback once the work was done)."""
    result = run("ofc", command, "--hands", "100", "--rounds", "1", "--out", f"{not_a_folder}/w.json")
    one_error_line(result, "--out", "cannot write", f"{not_a_folder} is a file, not a folder")
    assert not data_folder.exists()


@pytest.mark.parametrize("args", [
    ["simulate", "--rules", "standard", "--tables", "100", "--out", ""],
    ["chart", "front", "--out", " "],
    ["best", HAND, "--csv", ""],
    ["ofc", "improve", "--hands", "100", "--rounds", "1", "--out", ""],
    ["report", ""],
])
def test_an_empty_path_is_refused(args, tmp_path, monkeypatch, data_folder):
    """An empty --out is a slip, not the working folder (simulate wrote its report there) nor
    the default (ofc improve replaced the user's own weights)."""
    monkeypatch.chdir(tmp_path)
    one_error_line(run(*args), "an empty path")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["best", HAND, "--samples", "100", "--precision", "nan"],
    ["ofc", "learn", "--hands", "100", "--rounds", "1", "--worth", "nan"],
    ["paigow-poker", "edge", "--commission", "nan"],
])
def test_a_number_option_refuses_what_is_not_a_number(args, data_folder):
    """click's float ranges let NaN through (no comparison fails): best ran as if --precision
    were not given, ofc learn recorded a worth of null."""
    one_error_line(run(*args), "is not a number")


@pytest.mark.parametrize("args, words", [
    (["match", "--seats", "fitted"], ["--seats", "a policy a seat: 1 given"]),
    (["best", HAND, "--rules", "first-to-11", "--score", "8"], ["scores are one a player, yours first: 1 given"]),
    (["match", "--seats", "random,random", "--strategy", "{fit}"], ["for fitted seats", "random,random"]),
    (["exploit", "--policy", "random", "--deals", "1", "--strategy", "{fit}"], ["for the fitted policy", "random"]),
    (["ofc", "stay", "--cards", "13,13"], ["--cards", "13 given twice"]),
])
def test_an_option_that_cannot_serve_is_named(args, words):
    """Options refused by name, where they were told as the table's size or silently ignored."""
    fit = str(SHIPPED_STRATEGY_DIR / "standard-4p.npz")
    one_error_line(run(*[a.format(fit=fit) for a in args]), *words)


def test_an_open_face_deal_larger_than_the_deck_is_refused_on_reading(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text('id = "big"\nname = "big"\nextends = "ofc-pineapple"\n[deal]\nfirst = 3\nrounds = 10\n'
                    'draw = 3\nkeep = 1\n')
    one_error_line(run("ofc", "stay", "--rules", str(path), "--samples", "100"), str(path),
                   "each player sees 33 cards", "more than the deck's 52")


# ---- item 6: checkpoints ----------------------------------------------------------------------

@pytest.mark.parametrize("content", [b"", b"PK\x03\x04truncated", b"not a checkpoint at all"],
                         ids=["empty", "truncated", "garbage"])
def test_unreadable_checkpoint_names_the_file_and_the_way_out(tmp_path, content):
    out = tmp_path / "sim"
    out.mkdir()
    (out / "checkpoint.npz").write_bytes(content)
    result = run(*SIM, "--out", str(out), "--resume")
    one_error_line(result, str(out / "checkpoint.npz"), "--fresh")
    assert (out / "checkpoint.npz").read_bytes() == content  # still there to look at
    assert run(*SIM, "--out", str(out), "--fresh").exit_code == 0


def test_truncated_real_checkpoint(tmp_path):
    out = tmp_path / "sim"
    assert run(*SIM, "--out", str(out)).exit_code == 0
    data = (out / "checkpoint.npz").read_bytes()
    (out / "checkpoint.npz").write_bytes(data[:len(data) // 2])
    one_error_line(run(*SIM, "--out", str(out), "--resume"), "checkpoint.npz", "--fresh")


def test_finished_work_is_never_replaced_silently(tmp_path):
    out = tmp_path / "sim"
    assert run(*SIM, "--out", str(out)).exit_code == 0
    before = (out / "checkpoint.npz").read_bytes()
    one_error_line(run(*SIM, "--out", str(out)), str(out / "checkpoint.npz"), "--resume",
                   "--fresh")
    assert (out / "checkpoint.npz").read_bytes() == before
    assert run(*SIM, "--out", str(out), "--resume").exit_code == 0


def test_a_second_run_on_the_same_folder_is_refused(tmp_path):
    from filelock import FileLock

    out = tmp_path / "sim"
    out.mkdir()
    with FileLock(out / ".sapsam.lock"):  # as a first run holds it
        result = run(*SIM, "--out", str(out))
    one_error_line(result, "another sapsam run", str(out))
    assert not (out / "checkpoint.npz").exists()


def test_resumed_run_reports_the_time_of_all_sessions(tmp_path):
    from sapsam.measure.simulate import Simulation, elapsed
    from sapsam.measure.simulate import run as simulate

    out = tmp_path / "sim"
    sim = Simulation(("standard",), 4, ("fitted",) * 4, 400, 0, 100)

    def stop(done, total):
        if done > 100:  # after a second round: the first session took a while
            raise KeyboardInterrupt
        time.sleep(1.0)

    with pytest.raises(KeyboardInterrupt):
        simulate(sim, out, progress=stop, round_blocks=1)
    first = elapsed(out)
    assert 1.0 <= first < 60
    start = time.perf_counter()
    result = run(*SIM, "--out", str(out), "--resume")
    second = time.perf_counter() - start
    assert result.exit_code == 0, result.output
    assert "over all sessions" in result.stdout
    assert first < elapsed(out) < first + second
    manifest = json.loads((out / "manifest.json").read_text())
    assert first <= manifest["seconds"] < first + second


# ---- item 7: interrupts -----------------------------------------------------------------------

def _interrupt(args, after, tmp_path):
    """Start ``sapsam ARGS`` in a terminal, press Ctrl-C once ``after`` shows; the screen."""
    from terminal import ANSI, spawn

    child = spawn(*args, timeout=300)
    child.expect(after)
    time.sleep(1.0)
    child.sendintr()
    rest = child.read()
    child.close()
    return child.exitstatus, ANSI.sub("", rest).replace("\r", "\n")


def test_an_interrupt_before_the_first_checkpoint_says_nothing_was_saved(tmp_path, monkeypatch):
    """Told to resume with nothing saved, a user would wait for a run that starts from the
    beginning anyway: the line says to resume only once a checkpoint is written."""
    from sapsam.cli import common

    monkeypatch.setattr(common, "_RESUME", {})
    monkeypatch.setattr(sys, "argv", ["sapsam", "ofc", "simulate", "--out", "r.json", "--fresh"])
    checkpoint = tmp_path / ".r.partial.npz"
    common.resumable(saved=[checkpoint])
    assert common.interrupted_line() == "interrupted before the first checkpoint: nothing was saved"
    checkpoint.write_bytes(b"")
    assert common.interrupted_line() == "interrupted; resume with: sapsam ofc simulate --out r.json --resume"
    common.resumable()  # a command without checkpoint files of its own to look at
    assert common.interrupted_line().startswith("interrupted; resume with:")


@pytest.mark.parametrize("workers", [None, 2], ids=["local", "dask-2-workers"])
def test_ctrl_c_leaves_one_line_and_the_finished_blocks(tmp_path, workers):
    out = tmp_path / "sim"
    args = ["simulate", "--rules", "all", "--tables", "400000", "--block-size", "200",
            "--out", str(out)] + (["--workers", str(workers)] if workers else [])
    status, screen = _interrupt(args, r" [1-9]\d*/400000", tmp_path)  # a round is done
    assert status == 130, screen
    assert "Traceback" not in screen and "Error" not in screen, screen
    said = [line for line in screen.splitlines() if "interrupted" in line]
    assert len(said) == 1 and "resume with: sapsam simulate" in said[0], screen
    assert said[0].rstrip().endswith("--resume")
    bar = ("━", " left", "/400000")  # pieces of the progress bar's frames
    others = [line for line in screen.splitlines()
              if line.strip() and line not in said and not any(b in line for b in bar)]
    assert not others, screen
    with np.load(out / "checkpoint.npz") as data:
        assert data["done"].any()  # finished blocks kept


# ---- item 8: sizes and lists checked at the start ---------------------------------------------

def test_samples_beyond_memory_are_refused():
    one_error_line(run("best", HAND, "--samples", "1000000000000"), "1,000,000,000,000",
                   "memory")


def test_same_ruleset_twice_is_refused(tmp_path):
    one_error_line(run("simulate", "--rules", "basic,basic", "--tables", "10", "--out",
                       str(tmp_path / "sim")), "basic", "twice")
    assert not (tmp_path / "sim" / "checkpoint.npz").exists()


def test_bad_input_in_a_terminal_is_one_line_exit_2():
    result = in_terminal("best", HAND.replace("2d", "2c"))
    assert result.status == 2
    lines = [line for line in result.out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and "2c" in lines[0], result.out


def test_compile_notice_only_when_kernels_are_not_cached(monkeypatch):
    import sapsam.base.jit

    monkeypatch.setattr(sapsam.base.jit, "cached", lambda dispatchers, **arguments: False)
    result = run("best", HAND, "--samples", "100", "--quiet")
    assert result.exit_code == 0
    assert "first run only" not in result.stderr  # --quiet
    result = run("best", HAND, "--samples", "100")
    assert result.stderr.count("compiling kernels, first run only") == 1
    monkeypatch.setattr(sapsam.base.jit, "cached", lambda dispatchers, **arguments: True)
    assert "first run only" not in run("best", HAND, "--samples", "100").stderr


@pytest.mark.parametrize("options", [["--opponents", "greedy"], ["--opponents", "random"],
                                     ["--rules", "low-middle"], ["--opponents", "balanced"]])
def test_a_second_run_says_nothing_of_compiling(options):
    """Once a command has run, its kernels are cached and it says so no more (each such notice
    also started a compile beside it): the check asks only for the kernels these opponents and
    this ruleset compile, not criss-cross's exact field, which fitted opponents of criss-cross
    alone use."""
    run("best", HAND, "--samples", "100", "--quiet", *options)
    assert "first run only" not in run("best", HAND, "--samples", "100", *options).stderr


def test_only_fitted_criss_cross_opponents_ask_for_the_exact_field():
    from sapsam.compile import best_kernels
    from sapsam.kernels import crossed

    assert crossed.crossed_field not in best_kernels("standard", "fitted")
    assert crossed.crossed_field not in best_kernels("criss-cross", "greedy")
    assert crossed.crossed_field in best_kernels("criss-cross", "fitted") and crossed.crossed_field in best_kernels()


def test_cache_check_sees_a_kernel_compiled_or_not(tmp_path, monkeypatch):
    """:func:`sapsam.base.jit.cached` on a kernel of its own: not cached, then cached."""
    import importlib
    import sys

    from sapsam.base.jit import cached

    (tmp_path / "fresh_kernel.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x, route):\n"
        "    return 2 * x if route is None else 3 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("fresh_kernel")
    try:
        assert not cached([module.twice])
        assert module.twice(21, None) == 42
        assert cached([module.twice]) and cached([module.twice], route=None)
        assert not cached([module.twice], route=True)  # compiled for None, not for a bool
        assert cached([module.twice], other=True)  # a parameter it does not take
        assert module.twice(21, True) == 63
        assert cached([module.twice], route=False)
    finally:
        sys.modules.pop("fresh_kernel", None)


def test_a_changed_kernel_source_drops_the_whole_cache(tmp_path, monkeypatch):
    """Numba keys a cache entry on its own file, but kernels compile their callees from other
    files into themselves: an edit to any kernel source drops every cached kernel beside the
    sources (:func:`sapsam.base.jit.forget_stale`), once, and an unchanged tree keeps them."""
    from sapsam.base.jit import forget_stale

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package, kernels = tmp_path / "sapsam", tmp_path / "kernels"
    game = package / "ofc" / "kernels"
    for folder in (kernels, game):
        (folder / "__pycache__").mkdir(parents=True)
    (kernels / "removal.py").write_text("N_FEATURES = 16\n")
    (game / "board.py").write_text("from sapsam.kernels.removal import N_FEATURES\n")
    (package / "cli.py").write_text("# not a kernel\n")

    def entries():
        for folder in (kernels, game):
            for name in ("f-1.py311.nbi", "f-1.py311.1.nbc"):
                (folder / "__pycache__" / name).write_bytes(b"machine code")

    entries()
    assert forget_stale(package, kernels) == 4  # no digest yet: nothing can be trusted
    entries()
    assert forget_stale(package, kernels) == 0
    (package / "cli.py").write_text("# edited, still not a kernel\n")
    assert forget_stale(package, kernels) == 0
    (kernels / "removal.py").write_text("N_FEATURES = 61\n")
    assert forget_stale(package, kernels) == 4
    assert not list(game.glob("__pycache__/*.nb*")) and not list(kernels.glob("__pycache__/*.nb*"))


def test_the_cache_folder_is_numba_s_own():
    """Where forget_stale looks is where Numba keeps a kernel's cache (here beside the sources,
    found without asking Numba)."""
    from pathlib import Path

    from sapsam.base.jit import _cache_folder
    from sapsam.kernels import settle

    assert _cache_folder(Path(settle.__file__)) == Path(settle.settle_into._cache._cache_path)


@pytest.mark.parametrize("where", ["NUMBA_CACHE_DIR", "read-only install", ".numba_config.yaml"])
def test_a_cache_elsewhere_is_dropped_when_a_kernel_changes(tmp_path, monkeypatch, where):
    """Where Numba caches away from the sources (``NUMBA_CACHE_DIR``, or the user's cache folder
    beside a read-only install), an upgrade's changed kernels drop the cached ones there too,
    as beside the sources: the digest is kept where the cache is."""
    from numba.core import config
    from numba.core.caching import InTreeCacheLocator

    import sapsam.base.jit
    from sapsam.base.jit import _cache_folder, forget_stale

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    if where == "NUMBA_CACHE_DIR":  # as set before the process started (Numba reads it once)
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    elif where == ".numba_config.yaml":  # Numba's settings file in the working folder
        monkeypatch.chdir(tmp_path)
        (tmp_path / ".numba_config.yaml").write_text(f"cache_dir: {tmp_path / 'cache'}\n")
        monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))  # as Numba read it
    else:  # the package's folders cannot be written (tests run as root: said so to both)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setattr(config, "CACHE_DIR", "")
        monkeypatch.setattr(sapsam.base.jit, "_writable", lambda folder: False)
        monkeypatch.setattr(InTreeCacheLocator, "from_function", classmethod(lambda cls, *args: None))
    package, kernels = tmp_path / "site" / "sapsam", tmp_path / "site" / "kernels"
    game = package / "ofc" / "kernels"
    for folder in (kernels, game):
        folder.mkdir(parents=True)
    (kernels / "removal.py").write_text("N_FEATURES = 16\n")
    (game / "board.py").write_text("from sapsam.kernels.removal import N_FEATURES\n")
    folders = [_cache_folder(kernels / "removal.py"), _cache_folder(game / "board.py")]
    assert all(folder.is_relative_to(tmp_path / "cache") for folder in folders) and len(set(folders)) == 2

    def entries():
        for folder in folders:
            for name in ("f-1.py311.nbi", "f-1.py311.1.nbc"):
                (folder / name).write_bytes(b"machine code")

    entries()
    assert forget_stale(package, kernels) == 4  # no digest yet
    entries()
    assert forget_stale(package, kernels) == 0
    (kernels / "removal.py").write_text("N_FEATURES = 61\n")
    assert forget_stale(package, kernels) == 4
    assert not [entry for folder in folders for entry in folder.glob("*.nb*")]
    assert not list(tmp_path.glob("site/**/__pycache__"))  # nothing written beside the sources


def test_provenance_names_a_commit_only_with_its_code(tmp_path, monkeypatch):
    """A result made by code that differs from its commit says so (``-dirty``), so that no file
    names a commit without the code that made it; results and untracked files do not count."""
    import subprocess

    from sapsam.base import files

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "code.py").write_text("x = 1\n")
    (tmp_path / "results.json").write_text("{}")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    monkeypatch.setattr(files, "REPOSITORY", tmp_path)
    clean = files.git_revision()
    assert clean and not clean.endswith("-dirty")
    (tmp_path / "results.json").write_text('{"a": 1}')  # a result rewritten: still the commit's code
    (tmp_path / "analysis" / "new.py").write_text("")  # untracked
    assert files.git_revision() == clean
    (tmp_path / "analysis" / "code.py").write_text("x = 2\n")
    assert files.git_revision() == clean + "-dirty"
    monkeypatch.setattr(files, "REPOSITORY", tmp_path / "analysis")  # still inside the repository
    assert files.git_revision() == clean + "-dirty"
