"""First to 11 (issue 18, RULES.md A13, examples C8 and C9): a point per row, played as a
match; who wins matches, the chance of winning from a score, and the setting that wins most."""

import json

import naive
import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.game import score
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.settings import sorted_hand
from sapsam.kernels import match as KM
from sapsam.measure.best import candidates, simulate
from sapsam.measure.exploit import policy_candidate
from sapsam.measure.match import (
    deal_points,
    match_equity,
    match_setting,
    play_matches,
)
from sapsam.play.seeds import Stream
from sapsam.strategy.registry import make_policy

RULES = "first-to-11"
HAND = "As Ks Qs Js Ts 9h 9d 8c 7c 6d 5s 4h 3c"
# C8: East and South tie for the best front; North has the one best middle and back
C8 = ["9c 9d 2c | Kc Kd Kh 8s 7h | As Ad Ac 4c 4d",  # North: 99, KKK, aces full
      "Qs Qh 5d | Js Jh 6c 6d 2d | 8c 8d 8h 3d 3h",  # East: QQ5, JJ66, eights full
      "Qc Qd 5c | Ts Th 5s 5h 2s | 7c 7d 7s 3s 3c",  # South: QQ5 (as East), TT55, sevens full
      "Ah Ks 2h | Tc Td 4s 4h 6h | Jc Jd 9s 9h 6s"]  # West: AK high, TT44, JJ99
C8_SWEEP = ["Jh Jc 9d | 7d 6h 5s 4h 3d | Ac Kd Qs Js Th", "Kc 4d 4c | As Ad Jd 6d 2d | 7s 6s 5h 4s 3c",
            "5d 2h 2c | Ah Ks Ts 9s 9h | Qh Qc 8s 8d 3h", "7h 7c 2s | 9c 8h 8c 5c 3s | Kh Qd Td Tc 6c"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_c8_a_point_per_row_won_alone():
    result = score.score_showdown(RULES, C8, names=["North", "East", "South", "West"])
    assert result.status == ("set",) * 4
    assert result.totals == [2, 0, 0, 0]
    assert result.pairs() == []
    seats = [naive.Seat(*(tuple(naive.cards(p)) for p in t.split("|"))) for t in C8]
    assert naive.settle(load_ruleset(RULES), seats) == [2, 0, 0, 0]


def test_c8_a_sweep_scores_four_at_four_players_and_three_at_three():
    assert score.score_showdown(RULES, C8_SWEEP).totals == [4, 0, 0, 0]
    assert score.score_showdown(RULES, C8_SWEEP[:3]).totals == [3, 0, 0]


def test_c9_a_tie_at_the_target_is_played_on():
    """10-9, a deal of 1 and 2: 11 all, played on; then 1 and 0: North wins with 12."""
    state = np.array([10, 9, 0], np.int64)
    winners, lengths = np.zeros(2, np.int64), np.zeros(2, np.int64)
    assert KM.play_out(np.array([[1, 2], [1, 0]], np.int64), 11, state, winners, lengths, 0) == 1
    assert winners[0] == 0 and lengths[0] == 2 and state.tolist() == [0, 0, 0]


def test_c9_equity_of_a_fair_point_per_deal():
    pre, _ = KM.equity(np.array([[1, 0], [0, 1]], np.int64), np.array([0.5, 0.5]), 11)
    assert pre[10 * 11 + 9] == pytest.approx([0.75, 0.25], abs=1e-12)
    assert pre[0] == pytest.approx([0.5, 0.5], abs=1e-12)
    # ties at 11 are played on: with half the deals a point each, 10-9 wins 1/2 + 1/4 + 1/8
    pre, _ = KM.equity(np.array([[1, 1], [1, 0], [0, 1]], np.int64), np.array([0.5, 0.25, 0.25]), 11)
    assert pre[10 * 11 + 9, 0] == pytest.approx(0.875, abs=1e-12)


def test_equity_agrees_with_playing_matches_out():
    """The solved chance of winning from 0-0-0 against 60,000 matches played from a lopsided
    distribution of deals (ties and deals of no points included): within 4 standard errors."""
    outcomes = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [3, 0, 0], [0, 0, 0],
                         [0, 2, 1]], np.int64)
    probs = np.array([0.2, 0.25, 0.15, 0.1, 0.05, 0.15, 0.1])
    pre, _ = KM.equity(outcomes, probs, 11)
    rng = np.random.default_rng(11)
    matches = 60000
    points = outcomes[rng.choice(len(probs), size=matches * 40, p=probs)]
    winners, lengths = np.zeros(matches, np.int64), np.zeros(matches, np.int64)
    assert KM.play_out(points, 11, np.zeros(4, np.int64), winners, lengths, 0) == matches
    share = np.bincount(winners, minlength=3) / matches
    se = np.sqrt(pre[0] * (1 - pre[0]) / matches)
    assert np.all(np.abs(share - pre[0]) < 4 * se), (share, pre[0])
    assert pre[0].sum() == pytest.approx(1.0, abs=1e-12)


def test_clipping_a_tie_changes_no_equity_of_first_to_11():
    """A player more than CLIP points behind in a tie is taken as CLIP behind: against 20,
    no equity of first-to-11's fitted field of three moves by 1e-9.  (A field that ties most
    deals moves more: 1e-4 with four deals in five shared, the kernel's doc says so.)"""
    rules = load_ruleset(RULES)
    field = match_equity(rules, 3, make_policy("fitted", rules, 3))
    pre_far, _ = KM.equity(field.outcomes, field.probs, 11, 20)
    assert np.abs(field.pre - pre_far).max() < 1e-9
    outcomes = np.array([[1, 1, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0], [0, 0, 4]], np.int64)
    probs = np.array([0.3, 0.3, 0.2, 0.1, 0.1])
    gap = np.abs(KM.equity(outcomes, probs, 11)[0] - KM.equity(outcomes, probs, 11, 20)[0]).max()
    assert 1e-6 < gap < 1e-3


def test_fitted_beats_random_over_matches():
    result = play_matches(RULES, ["fitted", "random"], matches=300, seed=2)
    frame = result.frame()
    assert result.matches == 300 and frame["wins"].sum() == 300
    assert frame.loc[0, "ci_low"] > 0.5  # the Wilson interval excludes an even match
    assert frame.loc[0, "points_per_deal"] > frame.loc[1, "points_per_deal"]
    again = play_matches(RULES, ["fitted", "random"], matches=300, seed=2)
    assert again.wins.tolist() == result.wins.tolist()  # its seed fixes it


def test_match_setting_win_chances_agree_with_playing_the_match_out():
    """The chance of winning the match after each setting (sampled deals, then the solved
    equity) against the deals played out: the hand's deal with that setting, then whole matches
    of the field's deals to the end.  Within 4 standard errors of the two together."""
    rules = load_ruleset(RULES)
    policy = make_policy("fitted", rules, 2)
    scores = [8, 9]
    decision = match_setting(HAND, rules, scores, policy, samples=3000, seed=1)
    top = decision.table.iloc[0]
    assert top["win"] >= decision.table["win"].max() - 1e-12
    # play it out: the hand's deal gives the points its best setting scored, then field deals
    cards = sorted_hand(HAND)
    cands = [c for c in candidates(cards, rules) if c.label == top["setting"]]
    codes, _ = simulate(cards, rules, 2, policy, cands, 3000, Stream(7, "opponents"), packed=True)
    field = deal_points(rules, [policy, policy], 40000, Stream(3, "match"))
    wins, used = 0, 0
    for code in codes[0]:
        state = np.array([scores[0] + (code & 7), scores[1] + ((code >> 3) & 7), 0], np.int64)
        if max(state[:2]) >= 11 and state[0] != state[1]:
            wins += state[0] > state[1]
            continue
        winner, length = np.zeros(1, np.int64), np.zeros(1, np.int64)
        rest = field[used:used + 60]
        assert KM.play_out(rest, 11, state, winner, length, 0) == 1
        used += int(length[0])
        wins += winner[0] == 0
    played = wins / len(codes[0])
    se = np.sqrt(played * (1 - played) / len(codes[0]) + ((top["win_ci_high"] - top["win"]) / 1.96) ** 2)
    assert abs(played - top["win"]) < 4 * se, (played, top["win"], se)


def test_equity_of_a_field_is_symmetric():
    rules = load_ruleset(RULES)
    equity = match_equity(rules, 3, make_policy("fitted", rules, 3))
    assert equity.of([0, 0, 0]) == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert equity.of([10, 3, 3])[0] > 0.5 > equity.of([3, 10, 3])[0]


def test_cli_match_and_best_score():
    result = run("match", "--seats", "fitted,greedy", "--matches", "50", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["matches"] == 50 and len(payload["seats"]) == 2
    # the table: points a deal with the half-width of its 95% interval, over every table dealt
    table = run("match", "--seats", "fitted,greedy", "--matches", "50")
    half = (payload["seats"][0]["points_ci_high"] - payload["seats"][0]["points_ci_low"]) / 2
    assert "±95%" in table.stdout and f"{half:.3f}" in table.stdout
    assert f"over all {payload['deals']:,} tables dealt" in " ".join(table.stdout.split())
    result = run("best", HAND, "--rules", RULES, "--score", "8,10,3,6", "--samples", "400",
                 "--opponents", "balanced")
    assert result.exit_code == 0, result.output
    assert "win match" in result.output and "8,10,3,6" in result.output
    ranked = json.loads(run("best", HAND, "--rules", RULES, "--score", "8,10,3,6", "--samples", "400",
                            "--opponents", "balanced", "--json").stdout)["candidates"]
    # a gap whose interval cannot tell it from the best's is marked, as best marks it
    marked = [line for line in result.output.splitlines() if "% ~" in line]
    assert len(marked) == sum(c["win_gap_ci_high"] >= 0 for c in ranked[1:]) > 0, (marked, ranked)
    result = run("best", HAND, "--rules", RULES, "--score", "8,10", "--samples", "400", "--json")
    payload = json.loads(result.stdout)
    assert payload["scores"] == [8, 10] and 0 < payload["win_now"] < 0.5
    assert payload["points_best"] in [c["setting"] for c in payload["candidates"]]


@pytest.mark.parametrize("args, message", [
    (["best", HAND, "--rules", "basic", "--score", "3,4"], "not played as a match"),
    (["best", HAND, "--rules", RULES, "--score", "11,3"], "the match is over"),
    (["best", HAND, "--rules", RULES, "--score", "1,2,3,4,5"], "players must be 2, 3 or 4"),
    (["best", HAND, "--rules", RULES, "--score", "1,x"], "whole numbers"),
    (["best", HAND, "--rules", RULES, "--score", "1,2", "--players", "4"], "--players 4"),
    (["match", "--rules", "standard", "--seats", "fitted,fitted"], "not played as a match"),
    (["match", "--seats", "fitted"], "players must be 2, 3 or 4"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_decision_differences_by_score():
    """The chart's data: where the settings differ, the held-out gain is a real number with an
    interval; at the first deal (0-0) the gain is small against the end of a match."""
    from sapsam.measure.match import decision_differences

    frame = decision_differences(RULES, 2, hands=6, samples=400, seed=3)
    assert len(frame) == 121 and (frame.hands == 6).all()
    assert ((frame.share_ci_low <= frame.share_differ) & (frame.share_differ <= frame.share_ci_high)).all()
    assert frame.gain.abs().max() < 0.2
    with pytest.raises(ValueError, match="not played as a match"):
        decision_differences("basic", 2, hands=2, samples=4)


def test_match_and_best_score_in_a_terminal_at_80_columns_and_piped():
    """As a person runs them: a progress bar only on a terminal, tables that fit 80 columns."""
    from terminal import in_terminal, piped

    shown = in_terminal("match", "--seats", "fitted,greedy", "--matches", "30")
    assert shown.status == 0, shown.out
    assert "fitted" in shown.out and max(map(len, shown.out.splitlines())) <= 80
    quiet = piped("match", "--seats", "fitted,greedy", "--matches", "30")
    assert quiet.status == 0 and "\r" not in quiet.err and "seat" in quiet.out
    best = in_terminal("best", HAND, "--rules", RULES, "--score", "8,10", "--samples", "300",
                       "--opponents", "greedy")
    assert best.status == 0, best.out
    assert "win" in best.out and "Traceback" not in best.out
    assert max(map(len, best.out.splitlines())) <= 80


def test_the_sampler_scores_every_sample_with_the_fitted_opponents():
    """Heads-up with exactly the opponent's 13 cards left unseen, every sample deals the same
    hand: each of its 300 samples (three blocks) must score what the fitted policy's own
    decisions score, settled directly, on each of forty decks.  (The packed points once took
    the name of the opponents' policy code, so after a block's first sample the opponent
    played another policy: nine of these decks scored differently.)"""
    rules = load_ruleset(RULES)
    policy = make_policy("fitted", rules, 2)
    state = np.ones(1, np.uint64)  # the fitted policy draws nothing
    for seed in range(40):
        deck = np.random.default_rng(seed).permutation(52).astype(np.uint8)
        cards, unseen = np.sort(deck[:13]), np.sort(deck[13:26])
        own = policy_candidate(cards, policy, rules, 2, state)
        rows = np.array([[own.rows, policy_candidate(unseen, policy, rules, 2, state).rows]], np.int16)
        expected = score.settle_tables(rules, rows)[0]
        codes, _ = simulate(cards, rules, 2, policy, [own], 300, Stream(seed, "opponents"),
                            unseen=unseen, packed=True)
        assert (codes[0] & 7 == expected[0]).all(), seed
        assert (codes[0] >> 3 & 7 == expected[1]).all(), seed
