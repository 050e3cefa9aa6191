"""The best play's house edge to a hundredth of a point (issue 40, part 3): the pooled gains are
the exact gains when the pool is every dealer hand, the difference estimator lands within 3
standard errors of the exact best play on a deck small enough to count, even from a pool too
small to be right by itself, and the command resumes, refuses bad input and fits 80 columns."""

import json
from itertools import combinations

import numpy as np
import pytest
import terminal

import sapsam
from sapsam.paigow_poker.game import Rules, parse_hand
from sapsam.paigow_poker.measure import best_play as bp
from sapsam.paigow_poker.measure.exact import house_setting_of
from sapsam.paigow_poker.output.best_play import best_play_answer
from sapsam.paigow_poker.strategy import house_way
from tests.paigow_poker.test_chart import SMALL, exact_on_small_deck

DECK = parse_hand(SMALL, 15, "deck").tolist()


def every_hand_as_pool(way, rules):
    """Every hand of seven of :data:`SMALL`, set by the house way: the whole dealer side."""
    hands = np.array(list(combinations(sorted(DECK), 7)), dtype=np.uint8)
    masks = np.array([sum(1 << int(c) for c in h) for h in hands], dtype=np.uint64)
    settings = np.array([house_setting_of(h, way, rules) for h in hands], dtype=np.int16)
    return hands, (masks, settings[:, 0].copy(), settings[:, 1].copy())


@pytest.mark.parametrize("way, commission", [("foxwoods", 0.05), ("harrahs-reno", 0.0)])
def test_a_pool_of_every_hand_gives_the_exact_gains(way, commission):
    """With every hand of the deck in the pool, a hand meets exactly its dealer hands, so the
    bucketed counts must be the exact histogram's, banking and not, for every hand (a wrong
    bucket edge, a tie given to the wrong side, a setting left out would show)."""
    rules, chosen = Rules(commission=commission), house_way(way)
    hands, pool = every_hand_as_pool(chosen, rules)
    pooled = bp.pooled_gains(hands, pool, chosen, rules)
    exact = np.array([bp.exact_gains(h, chosen, rules, DECK) for h in hands[::20]])
    assert np.abs(pooled[::20] - exact).max() < 1e-12
    assert (exact > 0).mean() > 0.1  # many hands depart: the gains are not all zero


@pytest.mark.parametrize("banking", [False, True])
def test_the_estimate_against_the_exact_best_play_on_a_small_deck(banking):
    """Foxwoods on a 15-card deck, where the best play's edge is counted exactly: a pool of
    64 dealer hands meets a hand's 8 dealer hands about once in twelve hands, so the pooled gain
    alone is far off; the correction by 400 exact hands brings the estimate within 3 standard
    errors of the exact edge, and the interval is honest about the pool (wider than the
    pooled hands' own)."""
    way = house_way("foxwoods")
    exact_house, exact_best = exact_on_small_deck(way, banking)
    answer = best_play_answer([way], Rules(), hands=4000, exact_hands=400, pool=64, seed=2, deck=DECK)
    r = answer["house_ways"][0]["rows"][int(banking)]
    assert r["banking"] is banking and r["house_way_exact"]
    assert r["house_way_edge"] == pytest.approx(exact_house, abs=1e-12)
    se = r["half_width"] / 1.96
    assert abs(r["edge"] - exact_best) <= 3 * se, (r, exact_best)
    assert abs(exact_house - r["pooled_gain"] - exact_best) > 3 * se  # the pool alone is wrong
    assert r["correction_half_width"] > r["pooled_half_width"]
    assert exact_house - exact_best > 3 * se  # and the best play is measurably better


def test_a_good_pool_needs_little_correction():
    """A pool of 64,000 hands of the small deck (some 80 dealer hands met a hand): the pooled
    and exact gains correlate closely, so the correction is small and so is its interval."""
    way = house_way("foxwoods")
    answer = best_play_answer([way], Rules(), hands=4000, exact_hands=200, pool=64_000, seed=1, deck=DECK)
    r = answer["house_ways"][0]["rows"][0]
    assert r["correlation"] > 0.85
    assert abs(r["correction"]) < 0.02 and r["correction_half_width"] < 0.02


def test_an_interrupted_run_resumes_to_the_same_numbers(tmp_path):
    """Stopped after its pooled hands and one chunk of exact ones, the run continues from its
    checkpoint to the same answer as a run straight through; without resume it is refused."""
    way, rules = [house_way("foxwoods")], Rules()
    args = dict(hands=500, exact_hands=3 * bp.EXACT_CHUNK, pool=640, seed=4, deck=DECK)
    straight = best_play_answer(way, rules, **args)
    path = tmp_path / ".run.partial.npz"

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        best_play_answer(way, rules, **args, progress=stop, checkpoint=path)
    saved = np.load(path)
    assert np.isfinite(saved["foxwoods.pooled"]).all()
    assert np.isfinite(saved["foxwoods.exact"]).sum() == 2 * bp.EXACT_CHUNK
    with pytest.raises(ValueError, match="add --resume"):
        best_play_answer(way, rules, **args, checkpoint=path, resume=False)
    resumed = best_play_answer(way, rules, **args, checkpoint=path, resume=True)
    assert json.dumps(resumed) == json.dumps(straight)


def test_the_command_and_the_api_agree(tmp_path):
    out = tmp_path / "best-play.json"
    run = terminal.piped("paigow-poker", "best-play", "--hands", "300", "--exact-hands", "20", "--pool", "640",
                         "--seed", "3", "--deck", SMALL, "--house-way", "canterbury-park", "--json",
                         "--out", str(out))
    assert run.status == 0, run.err
    api = best_play_answer([house_way("canterbury-park")], Rules(), 300, 20, 640, 3, DECK)
    assert json.loads(run.out) == json.loads(json.dumps(api))
    written = json.loads(out.read_text())
    assert written["house_ways"] == json.loads(json.dumps(api["house_ways"])) and "provenance" in written
    assert not list(tmp_path.glob(".*.partial.npz"))  # the checkpoint goes once the answer is written
    again = terminal.piped("paigow-poker", "best-play", "--hands", "300", "--exact-hands", "20", "--pool", "640",
                           "--seed", "4", "--deck", SMALL, "--house-way", "canterbury-park", "--out", str(out))
    assert again.status == 2 and "add --fresh (fresh=True) to replace it" in again.err  # the finished answer is kept
    assert json.loads(out.read_text()) == written


@pytest.mark.parametrize("args, words", [
    (["--house-way", "nowhere"], "unknown house way 'nowhere'"),
    (["--hands", "1"], "--hands"),
    (["--exact-hands", "0"], "--exact-hands"),
    (["--pool", "10"], "--pool"),
    (["--deck", "Jk As Kd"], "a deck needs at least 14 cards"),
    (["--resume"], "--resume and --fresh need --out"),
])
def test_bad_input_is_one_line_and_status_2(args, words):
    run = terminal.piped("paigow-poker", "best-play", *args)
    assert run.status == 2, run.err
    assert words in run.err and "Traceback" not in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_the_api_refuses_bad_values():
    with pytest.raises(ValueError, match="unknown house way"):
        sapsam.paigow_poker.best_play("nowhere")
    with pytest.raises(ValueError, match="resume and fresh need out"):
        sapsam.paigow_poker.best_play(resume=True)
    with pytest.raises(ValueError, match="exact_hands must be at least 2"):
        best_play_answer([house_way()], Rules(), hands=10, exact_hands=1, deck=DECK)


def test_the_command_in_a_terminal_80_columns_wide():
    run = terminal.in_terminal("paigow-poker", "best-play", "--hands", "300", "--exact-hands", "20", "--pool",
                               "640", "--deck", SMALL, "--house-way", "all", columns=80)
    assert run.status == 0, run.out
    assert max(len(line) for line in run.out.splitlines()) <= 80, run.out
    assert "Canterbury Park" in run.out and "not banking" in run.out and "exact" in run.out
