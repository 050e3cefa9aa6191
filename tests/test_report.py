"""Exact natural probabilities (analysis/game/exact.py) and simulation reports (analysis/output/report.py).

1. Every exact count against a closed form, against the counts test_naturals.py proves over
   all rank and suit patterns (and its enumeration of three straight flushes), and the
   common naturals against their frequency in random deals (within 4 binomial standard
   errors).
2. A tiny simulation written as a report: every file, the CSV columns, Parquet equal to CSV,
   images, manifest; a re-render from the saved totals gives the same tables and summary;
   an interrupted run renders from its checkpoint; no temporary file is ever left behind.
"""

import json
import shutil
from math import comb, sqrt

import numba
import numpy as np
import pandas as pd
import pytest
import test_naturals as tn
from conftest import SEED, deal_hands

from sapsam.base.files import write_atomic
from sapsam.base.stats import wilson_interval
from sapsam.game import exact
from sapsam.kernels import naturals as kn
from sapsam.kernels import simulate as ks
from sapsam.measure.simulate import (
    CHECKPOINT,
    Simulation,
    compile_simulation,
    run,
    run_key,
)
from sapsam.output.plots import figure, log_share_axis, share_label
from sapsam.output.report import (
    NATURAL_COLUMNS,
    TOTALS,
    natural_label,
    render_report,
    report_files,
    write_report,
)
from sapsam.output.simulation_frames import EVENTS, event_interval

KINDS = kn.NATURAL_KINDS
N_HANDS = comb(52, 13)


# ---- 1. exact probabilities ---------------------------------------------------------------------

CLOSED_FORMS = {  # (kind, parameter): number of hands, written out independently
    ("dragon", 0): 4 ** 13,
    ("clean-dragon", 0): 4,
    ("six-pairs", 0): comb(13, 6) * 7 * comb(4, 2) ** 6 * 4,
    ("five-pairs-trips", 0): 13 * comb(12, 5) * comb(4, 3) * comb(4, 2) ** 5,
    ("four-trips", 0): comb(13, 4) * comb(4, 3) ** 4 * 36,
    ("three-quads", 0): comb(13, 3) * 40,
    ("all-one-colour", 0): 2 * comb(26, 13),
    ("twelve-one-colour", 0): 2 * comb(26, 12) * comb(26, 1),
    ("twelve-pictures", 0): 40,
    ("twelve-royalties", 0): comb(16, 13),
    ("no-pictures", 0): comb(40, 13),
    **{("small", p): comb(4 * (p + 1), 13) for p in range(13)},
    **{("big", p): comb(4 * (13 - p), 13) for p in range(13)},
}


@pytest.mark.parametrize("kind, parameter", sorted(CLOSED_FORMS))
def test_exact_count_equals_closed_form(kind, parameter):
    assert exact.natural_count(kind, parameter) == CLOSED_FORMS[kind, parameter]


def test_known_values():
    assert exact.natural_probability("dragon") == 4 ** 13 / N_HANDS
    assert round(1 / exact.natural_probability("dragon")) == 9462
    assert exact.natural_probability("clean-dragon") == 4 / N_HANDS
    assert exact.natural_probability("all-one-colour") == 2 * comb(26, 13) / N_HANDS
    assert exact.natural_probability(KINDS.index("dragon"), np.int64(0)) == 4 ** 13 / N_HANDS
    assert exact.natural_probability("small", 12) == 1.0 == exact.natural_probability("big", 0)
    assert exact.natural_probability("small", 1) == 0.0  # 8 cards cannot make 13
    # options widen a natural
    assert (exact.natural_count("six-pairs", 0) < exact.natural_count("six-pairs", 1)
            < exact.natural_count("six-pairs", 2))
    assert exact.natural_count("four-trips", 0) < exact.natural_count("four-trips", 1)
    both, low, high = (exact.natural_count("three-straights", o) for o in (0, 1, 2))
    assert max(low, high) < both < low + high
    assert 0 < exact.natural_count("three-straight-flushes") < exact.natural_count("three-flushes")


@pytest.mark.parametrize("kind, parameter", sorted(tn.EXACT_RANK_COUNTS) + sorted(tn.EXACT_SUIT_COUNTS))
def test_exact_count_equals_test_naturals(kind, parameter):
    """test_naturals.py proves these counts by running the kernel over every rank (suit)
    pattern of all C(52, 13) hands."""
    counts = {**tn.EXACT_RANK_COUNTS, **tn.EXACT_SUIT_COUNTS}
    assert exact.natural_count(kind, parameter) == counts[kind, parameter]


def test_three_straight_flushes_equal_test_naturals_and_kernel():
    masks = exact.three_straight_flush_masks()
    assert exact.natural_count("three-straight-flushes") == len(masks) == tn.count_three_straight_flushes()
    hands = np.array([[c for c in range(52) if m >> c & 1] for m in masks], np.uint8)
    assert hands.shape == (len(masks), 13)
    naturals = np.array([[KINDS.index("three-straight-flushes"), 0, 1, 0]], np.int64)
    index, _ = kn.best_naturals(hands, naturals)
    assert (index == 0).all()


def test_patterns_cover_every_hand_once():
    profiles, suits = exact.count_profiles(), exact.suit_patterns()
    assert len(profiles) == 39 and sum(w for _, w in profiles) == N_HANDS
    assert len(suits) == 560 and sum(w for _, w in suits) == N_HANDS
    for hand, _ in profiles + suits:
        assert hand.dtype == np.uint8 and len(set(hand.tolist())) == 13
        assert (np.diff(hand.astype(int)) > 0).all()


def test_every_kind_is_exact_and_finite():
    for code, kind in enumerate(KINDS):
        for parameter in exact.PARAMETERS.get(code, range(1)):
            p = exact.natural_probability(code, parameter)
            assert 0.0 <= p <= 1.0, (kind, parameter)


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown natural"):
        exact.natural_probability("seven-pairs")
    with pytest.raises(ValueError, match="natural code"):
        exact.natural_probability(len(KINDS))
    with pytest.raises(ValueError, match="parameter"):
        exact.natural_probability("six-pairs", 3)
    with pytest.raises(ValueError, match="parameter"):
        exact.natural_probability("dragon", 1)


N_DEALS = 300_000
# (kind, parameter) with at least ~10 expected holders in N_DEALS hands
MEASURABLE = [("dragon", 0), ("six-pairs", 0), ("six-pairs", 1), ("six-pairs", 2),
              ("three-straights", 0), ("three-straights", 1), ("three-straights", 2),
              ("three-flushes", 0), ("five-pairs-trips", 0), ("twelve-one-colour", 0),
              ("small", 6), ("small", 7), ("small", 8), ("big", 5), ("big", 6),
              ("no-pictures", 0)]


@pytest.fixture(scope="module")
def random_deals():
    return deal_hands(np.random.default_rng(SEED + 11), N_DEALS)


@pytest.mark.parametrize("kind, parameter", MEASURABLE)
def test_exact_probability_against_random_deals(random_deals, kind, parameter):
    """Observed holders within 4 binomial standard errors of n p."""
    naturals = np.array([[KINDS.index(kind), parameter, 1, 0]], np.int64)
    index, _ = kn.best_naturals(random_deals, naturals)
    observed = int((index >= 0).sum())
    p = exact.natural_probability(kind, parameter)
    expected, se = N_DEALS * p, sqrt(N_DEALS * p * (1 - p))
    assert expected >= 10
    assert abs(observed - expected) <= 4 * se, (observed, expected, se)


def test_wilson_interval_and_labels():
    assert all(type(x) is float for x in wilson_interval(3, 10))  # numbers in, numbers out
    low, high = wilson_interval(np.array([0, 5, 100]), np.array([100, 100, 100]))
    assert low[0] == 0.0 and 0 < high[0] < 0.05
    assert low[1] < 0.05 < high[1]
    assert high[2] == 1.0 and low[2] > 0.95
    assert natural_label(KINDS.index("small"), 6) == "small (2-8)"
    assert natural_label(KINDS.index("big"), 6) == "big (8-A)"
    assert natural_label(KINDS.index("dragon"), 0) == "dragon"


# ---- 2. reports ------------------------------------------------------------------------------

SIM = Simulation(("basic", "standard"), 4, ("greedy",) * 4, 200, seed=1, block_size=50)
SEAT_COLUMNS = ["ruleset", "seat", "policy", "hands", "total_units", "mean", "sd", "ci_low",
                "ci_high", "fouls", "surrenders", "naturals", "sweeps_given", "sweeps_taken", "home_runs",
                "bank_hands", *(f"{e}_{end}" for e in EVENTS for end in ("low", "high"))]
MANIFEST_KEYS = {"run", "rulesets", "players", "policies", "tables", "seed", "block_size",
                 "blocks", "blocks_done", "tables_done", "complete", "seconds", "backend",
                 "files", "sapsam", "numpy", "numba", "python", "git", "date", "pandas",
                 "matplotlib", "pyarrow"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A finished tiny run with its report: (folder, totals)."""
    folder = tmp_path_factory.mktemp("report")
    totals = run(SIM, out=folder)
    write_report(folder, SIM, compile_simulation(SIM), totals, 1.25, "local")
    return folder, totals


def leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith(".") or p.name.endswith(".tmp")]


def test_report_writes_every_file(report):
    folder, _ = report
    for name in report_files():
        assert (folder / name).stat().st_size > 0, name
    assert sorted(p.name for p in folder.iterdir()) == sorted(report_files() + [CHECKPOINT])
    assert leftovers(folder) == []


def test_report_tables(report):
    folder, _ = report
    seats = pd.read_csv(folder / "seats.csv")
    assert list(seats.columns[:len(SEAT_COLUMNS)]) == SEAT_COLUMNS
    assert (seats.hands == SIM.tables).all() and len(seats) == 2 * SIM.players
    assert ((seats.ci_low < seats["mean"]) & (seats["mean"] < seats.ci_high)).all()
    naturals = pd.read_csv(folder / "naturals.csv")
    assert list(naturals.columns) == NATURAL_COLUMNS
    assert list(naturals.columns[:6]) == ["ruleset", "natural", "count", "hands", "frequency", "exact"]
    assert set(naturals.ruleset) == {"standard"} and len(naturals) == 12  # basic has none
    assert (naturals.hands == SIM.tables * SIM.players).all()
    assert naturals.exact.notna().all()
    dragon = naturals[naturals.natural == "dragon"].iloc[0]
    assert dragon.exact == pytest.approx(4 ** 13 / N_HANDS, rel=1e-15)
    points = pd.read_csv(folder / "points.csv")
    assert list(points.columns) == ["ruleset", "seat", "units", "count"]
    assert (points.groupby(["ruleset", "seat"])["count"].sum() == SIM.tables).all()
    for name, frame in (("seats", seats), ("naturals", naturals), ("points", points)):
        pd.testing.assert_frame_equal(pd.read_parquet(folder / f"{name}.parquet"), frame,
                                      check_dtype=False)


def test_event_rates_have_their_intervals(report):
    """Each event's rate per hand comes with its 95% interval: Wilson's for an event once a hand
    (naturals, home runs), and for sweeps, of which a hand gives up to three at four players,
    Wilson's on the share of the three scaled back, which holds its level where the sweeps of a
    hand go together."""
    folder, _ = report
    seats = pd.read_csv(folder / "seats.csv")
    assert seats.sweeps_given.min() > 0  # the check is not empty
    for row in seats.itertuples():
        for event, most in (("naturals", 1), ("home_runs", 1), ("sweeps_given", 3), ("sweeps_taken", 3)):
            low, high = wilson_interval(getattr(row, event) / most, row.hands)
            assert (getattr(row, f"{event}_low"), getattr(row, f"{event}_high")) == pytest.approx(
                (most * float(low), most * float(high))), event
            assert most * low <= getattr(row, event) / row.hands <= most * high
    summary = (folder / "summary.md").read_text()
    row = seats[seats.ruleset == "standard"].iloc[0]
    assert (f"| {100 * row.sweeps_given / row.hands:.2f} [{100 * row.sweeps_given_low:.2f}, "
            f"{100 * row.sweeps_given_high:.2f}] |") in summary
    # the worst case for a hand's sweeps: all three or none (rate 0.6 a hand, 200 hands a sample)
    rng = np.random.default_rng(SEED)
    held = naive = 0
    for _ in range(400):
        count = 3 * int((rng.random(200) < 0.2).sum())
        low, high = event_interval(count, 200, most=3)
        held += low <= 0.6 <= high
        low, high = wilson_interval(count, 3 * 200)  # as if a hand's sweeps were independent
        naive += 3 * low <= 0.6 <= 3 * high
    assert held >= 0.93 * 400 and naive < 0.85 * 400, (held, naive)  # the naive one: about 3 in 4


def test_report_totals_images_summary_manifest(report):
    folder, totals = report
    with np.load(folder / TOTALS) as saved:
        for name, array in zip(("acc", "hist", "held"), totals):
            assert saved[name].dtype == np.int64
            np.testing.assert_array_equal(saved[name], array)
        assert saved["done"].all() and json.loads(str(saved["run"])) == run_key(SIM, compile_simulation(SIM))
    for stem in ("ev_by_ruleset", "points_distribution", "naturals"):
        assert (folder / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (folder / f"{stem}.svg").read_bytes()[:1000]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert MANIFEST_KEYS <= set(manifest)
    assert manifest["run"] == run_key(SIM, compile_simulation(SIM))
    assert (manifest["blocks"], manifest["block_size"], manifest["tables"]) == (4, 50, 200)
    assert manifest["rulesets"] == ["basic", "standard"] and manifest["policies"] == ["greedy"] * 4
    assert manifest["complete"] and manifest["tables_done"] == 200
    assert (manifest["seconds"], manifest["backend"]) == (1.25, "local")
    summary = (folder / "summary.md").read_text()
    assert "## basic" in summary and "## standard" in summary
    assert "| three-straights (front A-2-3) |" in summary and "No naturals in this ruleset." in summary


def test_render_reproduces_the_report(report, tmp_path):
    folder, _ = report
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (copy / CHECKPOINT).unlink()  # renders from totals.npz + manifest.json alone
    for name in ("seats.csv", "naturals.csv", "points.csv", "summary.md"):
        (copy / name).unlink()
    before = json.loads((folder / "manifest.json").read_text())
    render_report(copy)
    for name in ("seats.csv", "naturals.csv", "points.csv", "summary.md"):
        assert (copy / name).read_bytes() == (folder / name).read_bytes(), name
    after = json.loads((copy / "manifest.json").read_text())
    assert {k: after[k] for k in ("git", "date", "seconds", "backend")} == \
        {k: before[k] for k in ("git", "date", "seconds", "backend")}
    assert "rendered" in after
    assert leftovers(copy) == []


def test_a_rerender_keeps_the_run_key_its_totals_were_made_under(report, tmp_path):
    """A folder simulated before the rulesets' compiled form changed (its digest differs from
    today's) re-renders, and re-renders again: the totals keep the key they share with the
    run's checkpoint rather than taking today's."""
    folder, _ = report
    copy = tmp_path / "old"
    shutil.copytree(folder, copy)
    for name in (TOTALS, CHECKPOINT):  # as an older sapsam would have written them
        with np.load(copy / name) as saved:
            arrays = dict(saved)
        key = json.loads(str(arrays["run"]))
        arrays["run"] = json.dumps({**key, "digest": "an older compiled form"})
        np.savez(copy / name, **arrays)
    render_report(copy)
    render_report(copy)  # refused before: the totals had today's digest, the checkpoint the old
    with np.load(copy / TOTALS) as saved:
        assert json.loads(str(saved["run"]))["digest"] == "an older compiled form"
    assert json.loads((copy / "manifest.json").read_text())["run"]["digest"] == "an older compiled form"


def test_render_an_interrupted_run_from_its_checkpoint(tmp_path):
    def stop(done, tables):
        raise KeyboardInterrupt

    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # one block at a time, so the run stops after exactly one
    try:
        with pytest.raises(KeyboardInterrupt):
            run(SIM, out=tmp_path, progress=stop, round_blocks=1)
    finally:
        numba.set_num_threads(threads)
    render_report(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert not manifest["complete"] and (manifest["blocks_done"], manifest["tables_done"]) == (1, 50)
    assert manifest["seconds"] is None
    seats = pd.read_csv(tmp_path / "seats.csv")
    assert (seats.hands == 50).all()
    naturals = pd.read_csv(tmp_path / "naturals.csv")
    assert (naturals.hands == 200).all()
    assert "partial run" in (tmp_path / "summary.md").read_text()
    assert leftovers(tmp_path) == []


def test_bad_report_input(tmp_path):
    compiled = compile_simulation(SIM)
    with pytest.raises(ValueError, match="holds no simulation"):
        render_report(tmp_path)
    acc = np.zeros((2, 4, ks.N_ACC), np.float64)
    hist = np.zeros((2, 4, ks.N_HIST), np.int64)
    held = np.zeros(compiled.naturals.shape[:2], np.int64)
    with pytest.raises(TypeError, match="integers"):
        write_report(tmp_path, SIM, compiled, (acc, hist, held), None, None)
    with pytest.raises(ValueError, match="shape"):
        write_report(tmp_path, SIM, compiled, (acc.astype(np.int64)[:1], hist, held), None, None)
    with pytest.raises(ValueError, match="no hands"):
        write_report(tmp_path, SIM, compiled, (acc.astype(np.int64), hist, held), None, None)


def test_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(TypeError):
        write_atomic(tmp_path / "x.csv", 12345)  # neither text nor bytes: fails mid-write
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("share, label", [(0.5, "50%"), (0.02, "2%"), (0.001, "0.1%"), (1e-4, "0.01%"),
                                          (5e-5, "1 in 20k"), (1e-6, "1 in 1M"), (2e-7, "1 in 5M"),
                                          (1e-10, "1 in 10B"), (0.002, "0.2%")])
def test_probability_tick_labels(share, label):
    """Log-scaled probability axes read as percentages, and as odds below 0.01%."""
    assert share_label(share) == label


def test_probability_axis_labels_a_range_within_one_decade():
    """A share axis from 14% to 65% (as pusoy-single-winner's points have) still gets labels."""
    fig = figure(4.0, 3.0)
    axes = fig.add_subplot()
    axes.plot([0, 1, 2], [0.14, 0.65, 0.2])
    log_share_axis(axes, "y")
    fig.canvas.draw()
    labels = [t.get_text() for t in axes.get_yticklabels() if t.get_visible() and t.get_text()]
    assert "20%" in labels and "50%" in labels


def test_t95_is_student_s_quantile():
    from sapsam.base.stats import Z95, t95

    assert t95(1) == 12.706205 and abs(t95(10) - 2.228139) < 1e-5 and abs(t95(30) - 2.042272) < 1e-5
    assert abs(t95(10**6) - Z95) < 1e-5 and all(t95(d) > t95(d + 1) for d in range(1, 200))


@pytest.mark.parametrize("n", [2, 4, 10])
def test_a_mean_s_interval_holds_95_percent_of_small_samples(n):
    """The interval of a mean of ``n`` normal values holds the true mean 95% of the time:
    20,000 samples, so the coverage is within 0.6 points of 95% (three standard errors of
    0.15); the normal's 1.96 held 70% at n = 2 and 86% at 4."""
    from sapsam.base.stats import mean_interval

    rng = np.random.default_rng(1)
    held = [low <= 0.0 <= high for _, _, low, high in map(mean_interval, rng.normal(size=(20000, n)))]
    assert abs(np.mean(held) - 0.95) < 0.006


@pytest.mark.parametrize("n_a, n_b", [(2, 2000), (3, 2000), (50, 50)])
def test_a_difference_s_interval_holds_95_percent_with_few_values_on_one_side(n_a, n_b):
    """Welch's interval of a difference of means (Open-Face's Fantasyland worth: a few
    Fantasyland hands beside thousands of normal ones) holds the true difference 95% of the
    time: 20,000 pairs of normal samples of unequal spread, so within 0.6 points of 95% (three
    standard errors); the normal's 1.96 held 70% at 2 values and 81% at 3."""
    from sapsam.base.stats import difference_interval

    rng = np.random.default_rng(2)
    held = 0
    for _ in range(20000):
        a, b = rng.normal(15.0, 20.0, n_a), rng.normal(0.0, 10.0, n_b)
        difference, half = difference_interval(a.sum(), a @ a, n_a, b.sum(), b @ b, n_b)
        held += abs(difference - 15.0) <= half
    assert abs(held / 20000 - 0.95) < 0.006
    assert np.isnan(difference_interval(1.0, 1.0, 1, 0.0, 0.0, 5)[1])  # one value: no interval
    assert difference_interval(6.0, 18.0, 2, 0.0, 0.0, 3) == (3.0, 0.0)  # no spread: none either
