"""Paired policy comparison (analysis/measure/compare.py)."""

import json
import math

import numba
import numpy as np
import pytest

from sapsam.base.stats import t95
from sapsam.game.ruleset_files import load_ruleset
from sapsam.measure.compare import Gap, policy_gap, policy_gaps
from sapsam.measure.simulate import Simulation, compile_simulation, run
from sapsam.output.simulation_frames import seats_frame
from sapsam.play.deal import deal_tables, table_setup
from sapsam.play.seeds import Stream


def test_fitted_against_itself_is_exactly_zero():
    gap = policy_gap("standard", 4, "fitted", tables=300, seed=3)
    assert isinstance(gap, Gap)
    assert gap.ev == gap.ev_baseline
    assert (gap.ev_ci_low, gap.ev_ci_high) == (gap.ev_baseline_ci_low, gap.ev_baseline_ci_high)
    assert gap.gap == 0.0 and gap.sd == 0.0 and gap.ci_low == 0.0 and gap.ci_high == 0.0
    assert (gap.rules, gap.players, gap.policy, gap.baseline, gap.tables, gap.seed) == (
        "standard", 4, "fitted", "fitted", 300, 3)


def test_reproducible_from_the_seed():
    first = policy_gaps("standard", 4, ("greedy", "random"), tables=300, seed=5)
    again = policy_gaps("standard", 4, ("greedy", "random"), tables=300, seed=5)
    other = policy_gaps("standard", 4, ("greedy", "random"), tables=300, seed=6)
    assert first == again
    assert first != other
    # one policy alone gives the numbers it gets beside others (the same deal and streams)
    assert policy_gap("standard", 4, "random", tables=300, seed=5) == first[1]


def test_greedy_loses_to_fitted():
    # Fitted beats greedy by about 3.5 units per hand under standard at 4 players (20,000
    # tables, seed 0: -3.66, 95% CI [-3.72, -3.60]).  The per-table differences have an SD
    # of about 4.5 units, so with 2,000 tables the gap's standard error is about 0.1: its CI
    # excludes 0 with some 30 standard errors to spare, and [-5, -2] is the estimate +-15 SE
    # (room for refits of the strategy, not for a sign or scale error).
    gap = policy_gap("standard", 4, "greedy", tables=2000, seed=11)
    assert gap.ci_high < 0
    assert -5.0 < gap.gap < -2.0
    assert gap.gap == gap.ev - gap.ev_baseline
    half = t95(gap.tables - 1) * gap.sd / math.sqrt(gap.tables)  # Student's t: at 2,000 tables 1.961
    assert gap.ci_low == pytest.approx(gap.gap - half)
    assert gap.ci_high == pytest.approx(gap.gap + half)
    # pairing pays: the gap's interval is much narrower than the EV's
    assert gap.ci_high - gap.ci_low < 0.8 * (gap.ev_ci_high - gap.ev_ci_low)


def test_same_numbers_with_one_or_two_threads(restore_threads):
    numba.set_num_threads(1)
    one = policy_gaps("pagat-surrender", 4, ("random", "balanced"), tables=200, seed=2)
    numba.set_num_threads(2)
    two = policy_gaps("pagat-surrender", 4, ("random", "balanced"), tables=200, seed=2)
    assert one == two


def test_to_dict_is_plain_data():
    gap = policy_gap("basic", 4, "greedy", tables=50)
    data = gap.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["policy"] == "greedy" and data["tables"] == 50
    assert all(type(data[k]) is float for k in ("ev", "gap", "sd", "ci_low", "ci_high"))


@pytest.mark.parametrize("args, message", [
    (("standard", 4, "bogus"), "unknown policy 'bogus'"),
    (("nope", 4, "greedy"), "unknown ruleset 'nope'"),
    (("standard", 5, "greedy", "random"), "players must be 2, 3 or 4"),
    (("standard", 4, "greedy", "random", 0), "tables must be a whole number >= 1"),
    (("standard", 4, "greedy", "random", 10, -1), "seed must be a whole number >= 0"),
])
def test_bad_input_raises_value_error(args, message):
    with pytest.raises(ValueError, match=message):
        policy_gap(*args)


def test_tables_are_dealt_and_set_up_as_the_simulator_does():
    hands = deal_tables(500, 4, Stream(1, "tables"))
    assert hands.dtype == np.uint8 and hands.shape == (500, 4, 13)
    flat = hands.reshape(500, 52)
    assert all(len(set(row)) == 52 for row in flat.tolist())  # one pack per table
    assert (np.diff(hands.astype(int), axis=2) > 0).all()  # each hand sorted
    np.testing.assert_array_equal(deal_tables(500, 4, Stream(1, "tables")), hands)

    aces, bank = table_setup(load_ruleset("house"), hands)
    expected = np.array([[sum(c // 4 == 12 for c in hand) for hand in table]
                         for table in hands.tolist()])
    np.testing.assert_array_equal(aces, expected)
    assert aces.sum() == 4 * 500  # a full pack has four aces
    np.testing.assert_array_equal(bank, np.arange(500) % 4)  # the bank rotates with the deal
    assert (table_setup(load_ruleset("standard"), hands)[1] == -1).all()  # no bank


def test_seat_ev_agrees_with_the_simulator():
    # A bank game (house: the bank rotates and wins ties) with greedy at seat 0 and fitted
    # elsewhere: policy_gap's EV and the kernel simulator's seat-1 mean estimate the same
    # number from independent deals.  Tolerance: 4 standard errors of the difference.
    tables = 3000
    gap = policy_gap("house", 4, "greedy", tables=tables, seed=7)
    sim = Simulation(("house",), 4, ("greedy", "fitted", "fitted", "fitted"), tables, seed=8)
    seat = seats_frame(sim, compile_simulation(sim), run(sim)[0]).iloc[0]
    se_gap = (gap.ev_ci_high - gap.ev_ci_low) / (2 * t95(tables - 1))
    se_sim = seat.sd / math.sqrt(seat.hands)
    assert abs(gap.ev - seat["mean"]) < 4 * math.hypot(se_gap, se_sim)
