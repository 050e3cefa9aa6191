"""Criss-cross (issue 18, RULES.md A14, example C7): heads-up, two hands each, every hand
against each of the opponent's two."""

import json

import naive
import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.game import score
from sapsam.game.cards import parse_cards
from sapsam.game.ruleset_files import RulesetError, load_ruleset
from sapsam.game.settings import pareto_frontier, sorted_hand
from sapsam.kernels import simulate as K
from sapsam.measure.best import best_setting, candidates, simulate, unseen_cards
from sapsam.measure.exploit import exploitability
from sapsam.measure.simulate import Simulation, compile_simulation, run_blocks
from sapsam.strategy.fit import fit_equilibrium
from sapsam.strategy.registry import make_policy

C7 = ["Kh Js 2h | Qc Td 8s 8h 8c | As Ah Ac 9d 9c", "Ad Kd 5d | 7s 6h 3h 2s 2d | Kc Jc 6c 4c 2c",
      "Jh 5s 5c | Ks 9s 9h 3d 3c | Qd Ts 7h 7d 7c", "8d 6s 6d | Qs Qh Jd 5h 3s | Th Tc 4s 4h 4d"]
HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_c7_each_hand_meets_both_of_the_opponents():
    """C7: Ann +1 +1 -1 -3 over her four pairs; her hands never meet each other."""
    result = score.score_showdown("criss-cross", C7, names=["A1", "A2", "B1", "B2"])
    units = {tuple(p["names"]): p["units"] for p in result.pairs()}
    assert units == {("A1", "B1"): 1, ("A1", "B2"): 1, ("A2", "B1"): -1, ("A2", "B2"): -3}
    assert result.player_totals == {"A1+A2": -2, "B1+B2": 2}
    assert result.totals == [2, -4, 0, 2]  # per hand


def test_a_deal_of_criss_cross_is_four_settings():
    with pytest.raises(ValueError, match="give four settings"):
        score.score_showdown("criss-cross", C7[:2])
    result = run("score", "--rules", "criss-cross", *C7[:3])
    assert result.exit_code == 2 and "give four settings" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_settlement_is_the_sum_of_basic_pairs_on_random_deals():
    """Settling random criss-cross deals (whole decks, frontier settings) gives each hand the
    sum of its two basic pairs with the opponent's hands, as the naive reference does."""
    rng = np.random.default_rng(18)
    for _ in range(100):
        deck = rng.permutation(52).astype(np.uint8)
        texts = []
        for i in range(4):
            members = pareto_frontier(np.sort(deck[13 * i:13 * i + 13])).members
            texts.append(members[int(rng.integers(len(members)))].text)
        got = score.score_showdown("criss-cross", texts).totals
        pair = {(i, j): score.score_showdown("basic", [texts[i], texts[j]]).totals[0]
                for i in range(4) for j in range(4) if i // 2 != j // 2}
        assert got == [pair[i, 2 - 2 * (i // 2)] + pair[i, 3 - 2 * (i // 2)] for i in range(4)]
        seats = [naive.Seat(*(tuple(naive.cards(p)) for p in t.split("|"))) for t in texts]
        assert naive.settle(load_ruleset("criss-cross"), seats) == got


def test_ruleset_files_that_break_criss_cross_are_refused(tmp_path):
    for body, key in (("players = 4", "players"),
                      ("[scoring]\nhome_run_multiplier = 2", "home_run_multiplier"),
                      ("[extras]\nchip_limited = true", "chip_limited"),
                      ('[scoring]\ngame = "pool"', "scoring.game")):
        path = tmp_path / "x.toml"
        path.write_text(f'extends = "criss-cross"\nid = "x"\nname = "x"\nsource = "x"\n{body}\n')
        with pytest.raises(RulesetError, match=key):
            load_ruleset(path)


def test_the_opponent_is_dealt_exactly_the_other_26_cards():
    rules = load_ruleset("criss-cross")
    unseen = unseen_cards(sorted_hand(HAND), rules, OTHER)
    assert len(unseen) == 26
    assert not set(unseen) & (set(parse_cards(HAND)) | set(parse_cards(OTHER)))
    with pytest.raises(ValueError, match="give your other hand"):
        unseen_cards(sorted_hand(HAND), rules)
    with pytest.raises(ValueError, match="share"):
        unseen_cards(sorted_hand(HAND), rules, HAND)
    with pytest.raises(ValueError, match="give no other hand"):
        unseen_cards(sorted_hand(HAND), load_ruleset("basic"), OTHER)
    with pytest.raises(ValueError, match="heads-up"):
        best_setting(HAND, rules, 4, "greedy", samples=10, other=OTHER)


def test_a_hand_meets_the_two_opposing_hands_as_basic_at_three():
    """A hand's points in criss-cross, against the opponent's two hands dealt from the 26 cards,
    are those of basic at a table of three dealt from the same 26: the pair of opposing hands
    is never settled, and in basic it does not touch the hand's points."""
    policy = make_policy("balanced", "basic", 3)
    hand = sorted_hand(HAND)
    unseen = unseen_cards(hand, load_ruleset("criss-cross"), OTHER)
    cands = candidates(hand, load_ruleset("basic"))
    crossed, _ = simulate(hand, load_ruleset("criss-cross"), 2, policy, cands, 300, 4, unseen=unseen)
    basic, _ = simulate(hand, load_ruleset("basic"), 3, policy, cands, 300, 4, unseen=unseen)
    assert np.array_equal(crossed, basic) and crossed.any()


def test_simulated_players_are_zero_sum_and_own_both_hands():
    sim = Simulation(("criss-cross",), 2, ("fitted", "greedy"), tables=60, seed=3, block_size=20)
    acc, hist, _ = run_blocks(sim, compile_simulation(sim), range(sim.blocks))
    assert acc.shape[1] == 2 and (acc[0, :, K.A_HANDS] == 60).all()
    assert acc[0, :, K.A_SUM].sum() == 0
    assert hist[0].sum() == 120
    with pytest.raises(ValueError, match="criss-cross deals two hands to each player: simulate it on its own"):
        compile_simulation(Simulation(("criss-cross", "basic"), 2, ("greedy",) * 2, tables=1))
    with pytest.raises(ValueError, match="heads-up"):
        compile_simulation(Simulation(("criss-cross",), 4, ("greedy",) * 4, tables=1))


def test_fit_and_exploit_run_heads_up_only():
    field, _, history = fit_equilibrium("criss-cross", 2, iterations=1, hands=300)
    assert field.shape[0] == 3 and len(history) == 1
    with pytest.raises(ValueError, match="heads-up"):
        fit_equilibrium("criss-cross", 3, iterations=1, hands=300)
    result = exploitability("criss-cross", 2, "greedy", deals=1, samples=40)
    assert len(result.gaps) == 4  # every hand of the deal, each with its teammate's cards known


def test_best_ranks_both_hands_each_knowing_the_other():
    result = run("best", HAND, "--other", OTHER, "--rules", "criss-cross", "--opponents",
                 "balanced", "--samples", "200", "--json")
    assert result.exit_code == 0, result.output
    first, second = json.loads(result.stdout)["hands"]
    assert first["players"] == second["players"] == 2
    assert sorted_hand(first["hand"]).tolist() == sorted_hand(second["other_hand"]).tolist()
    assert first["candidates"][0]["ev"] >= first["candidates"][-1]["ev"]


@pytest.mark.parametrize("args, message", [
    (["best", HAND, "--rules", "criss-cross"], "give your other hand"),
    (["best", HAND, "--rules", "criss-cross", "--other", OTHER, "--players", "3"], "heads-up"),
    (["best", HAND, "--rules", "basic", "--other", OTHER], "give no other hand"),
    (["best", HAND, "--rules", "criss-cross", "--other", HAND], "share"),
    (["best", HAND, "--rules", "criss-cross", "--other", "As Kd"], "13"),
    (["review", HAND, "9s 9h 2c | As Kd Qh Jc Ts | 5c 5d 4h 3s 2d", "--rules", "criss-cross"],
     "give your other hand"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output
