"""The lookahead Open-Face policy (issue 38): its shortlist is the learned value's best
placements, its rollouts are the rollout policy's over them, its fourth street the best on
average over every deal of the last and its last street the best finished board (both by brute
force), and a table of lookahead seats plays legal, finished hands from the command line and
the Python API."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels import rollout as R
from sapsam.ofc.kernels.learned import learned_choice, learned_values
from sapsam.ofc.kernels.policies import (
    H_FANTASY,
    H_HALVING,
    H_LATE_FANTASY,
    H_ROLLOUTS,
    H_SHORTLIST,
    finished_value,
    legal,
    legal_codes,
    place,
)
from sapsam.ofc.measure.simulate import default_seats, simulate_ofc
from sapsam.ofc.play import LOOKAHEAD_PARAMS, game_tables, learned_weights, seat_arrays
from sapsam.play.seeds import Stream

from .test_learned import random_position

RULES = load_ofc_rules("ofc-pineapple")
GAME = game_tables(RULES)
WEIGHTS = learned_weights("ofc-pineapple", 2)
PARAMS = seat_arrays(["lookahead"], RULES, 2)[1][0]


def positions(seed, count, placed_choices=(0, 5, 7, 9)):
    """``count`` random positions with three cards dealt (five on an empty board)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        placed = int(rng.choice(placed_choices))
        board, counts, known, rest = random_position(rng, placed)
        nd, keep = (5, 5) if placed == 0 else (3, 2)
        dealt = rest[:nd].copy()
        for c in dealt:
            known |= np.uint64(1) << np.uint64(int(c))
        yield board, counts, dealt, nd, keep, known


def state(seed):
    return Stream(seed, "ofc-play").states(1)


def test_learned_values_rank_as_learned_choice_decides():
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(1, 12)):
        codes = legal_codes(nd, keep, counts)
        assert all(legal(c, nd, keep, counts) for c in codes)
        assert len(codes) == sum(legal(c, nd, keep, counts) for c in range(1 << (2 * nd)))
        values = learned_values(board, counts, dealt, nd, keep, known, state(i), GAME, PARAMS, WEIGHTS, codes)
        chosen = learned_choice(board, counts, dealt, nd, keep, known, state(i), GAME, PARAMS, WEIGHTS)
        assert chosen == codes[np.argmax(values)]


def test_a_shortlist_of_one_is_the_learned_choice():
    params = PARAMS.copy()
    params[H_SHORTLIST] = 1
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(2, 8)):
        chosen = R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, params, WEIGHTS)
        assert chosen == learned_choice(board, counts, dealt, nd, keep, known, state(i), GAME, params, WEIGHTS)


def test_a_shortlist_of_every_placement_is_the_rollout_policy():
    """Before the fourth street (from which the lookahead rolls nothing out: below)."""
    params = PARAMS.copy()
    params[H_SHORTLIST] = 300  # more than a first street's 232 placements
    params[H_ROLLOUTS] = 4
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(3, 6, (0, 5, 7))):
        lookahead = R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, params, WEIGHTS)
        rollout = R.decide(board, counts, dealt, nd, keep, known, 2, params, state(i), GAME, WEIGHTS)
        assert lookahead == rollout


def test_the_last_street_is_the_best_finished_board():
    """Nothing is left to roll out: the placement worth most finished (Fantasyland at its late
    weight), by brute force."""
    late = PARAMS.copy()
    late[H_FANTASY] = PARAMS[H_LATE_FANTASY]
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(4, 10, (11,))):
        best, best_value = None, -np.inf
        for code in range(1 << (2 * nd)):
            if legal(code, nd, keep, counts):
                trial, trial_counts = board.copy(), counts.copy()
                place(trial, trial_counts, dealt, nd, code)
                value = finished_value(trial, GAME, late)
                if value > best_value:
                    best, best_value = code, value
        assert R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, PARAMS, WEIGHTS) == best


def test_fantasyland_counts_a_weight_falling_street_by_street():
    """The lookahead decides as one that counts Fantasyland ``H_FANTASY`` times on an empty
    board and ``H_LATE_FANTASY`` times from ``R.LATE`` cards on, in a straight line between,
    everywhere (its rollouts' play and their boards' value)."""
    params = PARAMS.copy()
    params[H_ROLLOUTS] = 8
    params[H_FANTASY], params[H_LATE_FANTASY] = 1.0, 6.0
    assert R.LATE == 9  # Pineapple's fourth street, its last rolled out
    changed = 0
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(9, 40, (0, 5, 7, 9))):
        placed = counts.sum()
        weight = 6.0 if placed >= 9 else 1.0 + 5.0 * placed / 9
        assert R.fantasy_weight(counts, params) == weight
        fixed = params.copy()
        fixed[H_FANTASY] = fixed[H_LATE_FANTASY] = weight
        chosen = R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, params, WEIGHTS)
        assert chosen == R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, fixed, WEIGHTS)
        if placed:
            flat = params.copy()
            flat[H_LATE_FANTASY] = 1.0
            changed += chosen != R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, flat,
                                                    WEIGHTS)
    assert changed > 0  # the weight decides some placements


def test_lookahead_seats_play_finished_hands():
    assert LOOKAHEAD_PARAMS[H_SHORTLIST] < 232  # a first street is shortlisted
    run = simulate_ofc("ofc-pineapple", ("lookahead", "learned"), 50, seed=2)
    frame = run.frame()
    assert frame["points"].sum() == pytest.approx(0)  # zero-sum
    assert run.hands == 50
    # 50 hands: fouls and entries are rates, not a test of strength (docs/ofc.md has those)
    assert 0 <= frame["fouls"][0] <= 1 and 0 <= frame["entries"][0] <= 1
    assert default_seats(["ofc-pineapple"]) == ("lookahead", "lookahead")


def test_the_cli_names_the_lookahead():
    result = CliRunner().invoke(main, ["ofc", "simulate", "--seats", "lookahead,improved", "--hands", "50",
                                       "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    assert [r["policy"] for r in json.loads(result.output)["runs"][0]["by_seat"]] == ["lookahead", "improved"]
    bad = CliRunner().invoke(main, ["ofc", "simulate", "--seats", "lookahed,improved", "--quiet"])
    assert bad.exit_code == 2 and "lookahead" in bad.output


def test_sequential_halving_spends_the_rollouts_in_halving_rounds():
    """The kernel's halving against its schedule written out here: each round's rollouts shared
    among the placements still in (one roll_deal a rollout), the better half kept by total."""
    params = PARAMS.copy()
    params[H_HALVING] = 1
    params[H_ROLLOUTS] = 6
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(8, 5, (5, 7))):
        codes = legal_codes(nd, keep, counts)
        pool = np.array([c for c in range(52) if not (int(known) >> c) & 1], np.uint8)
        s, totals, alive = state(i), np.zeros(len(codes)), np.arange(len(codes))
        rounds = int(np.ceil(np.log2(len(codes))))
        while len(alive) > 1:
            for _ in range(max(6 * len(codes) // (len(alive) * rounds), 1)):
                R.roll_deal(board, counts, dealt, nd, codes, alive, known, pool, len(pool), s, GAME, params, totals)
            alive = np.sort(alive[np.argsort(-totals[alive], kind="stable")[:(len(alive) + 1) // 2]])
        assert R.rolled_out(board, counts, dealt, nd, codes, known, state(i), GAME, params) == codes[alive[0]]


def test_the_second_to_last_street_is_exact_over_every_deal_of_the_last():
    """On the fourth street the lookahead rolls nothing out: each placement is worth the mean,
    over every deal of the last street's three cards from those it has not seen, of the best
    finished board (Fantasyland at its late weight), by brute force here on positions where all
    but a few cards are seen (every deal of 9 unseen cards: 84)."""
    import itertools

    late = PARAMS.copy()
    late[H_FANTASY] = PARAMS[H_LATE_FANTASY]
    checked = 0
    for i, (board, counts, dealt, nd, keep, known) in enumerate(positions(10, 12, (9,))):
        pool = [c for c in range(52) if not (int(known) >> c) & 1][:9]
        known = np.uint64(sum(1 << c for c in range(52) if c not in pool))
        best, best_value = None, -np.inf
        for code in legal_codes(nd, keep, counts):
            after, after_counts = board.copy(), counts.copy()
            place(after, after_counts, dealt, nd, code)
            total = 0.0
            for deal in itertools.combinations(pool, 3):
                deal = np.array(deal, np.uint8)
                values = []
                for last in legal_codes(3, 2, after_counts):
                    trial, trial_counts = after.copy(), after_counts.copy()
                    place(trial, trial_counts, deal, 3, last)
                    values.append(finished_value(trial, GAME, late))
                total += max(values)
            if total > best_value:
                best, best_value = code, total
        assert R.one_street_left(counts, keep, GAME)
        assert R.lookahead_choice(board, counts, dealt, nd, keep, known, state(i), GAME, PARAMS, WEIGHTS) == best
        checked += 1
    assert checked == 12
