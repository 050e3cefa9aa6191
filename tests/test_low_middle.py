"""Low in the middle (issue 18, RULES.md A12, examples C5 and C6): the middle row plays as a
2-7 low through every layer: its worked examples settled, legality under both orders, a
policy's decision against brute force over every legal split, the commands, and bad input.
"""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.game import score
from sapsam.game.cards import parse_hand
from sapsam.game.hands import describe_low, rank5_low
from sapsam.game.ruleset_files import RulesetError, load_ruleset
from sapsam.game.settings import legal_splits, pareto_frontier, scales, split_strengths
from sapsam.kernels import policies as KP
from sapsam.kernels import value as KV
from sapsam.kernels.low_settings import low_split_strengths
from sapsam.kernels.removal import prepare
from sapsam.strategy.registry import make_policy

C5 = ["Ah Ad Qc | 7s 5d 4h 3c 2s | Kc Kd Ks 8d 6h",
      "As Kh Qd | 8c 6c 4d 3d 2h | Js Jh Jd Jc 9s"]
C6_LEGAL = "Jc 8d 2h | Qs Qh 9s 6s 3s | Ts Th 8c 7h 4d"  # fouls only in the usual order
C6_FOUL = "As Ah Kd | 7s 5d 4h 3c 2s | Qc Qd 8h 6h 5c"  # a front above its back: a foul anyway
HAND = "7s 5d 4h 3c 2s 8d 6h Kc Kd Ks Ah Ad Qc"


@pytest.fixture(scope="module")
def high_order_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "high-order.toml"
    path.write_text('id = "high-order"\nname = "n"\nsource = "s"\nextends = "low-middle"\n'
                    '[middle]\norder = "high-order"\n')
    return path


@pytest.fixture(scope="module")
def high_order(high_order_file):
    return load_ruleset(high_order_file)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_c5_the_lower_middle_wins():
    """C5: A's aces beat ace-king in front, her 7-5 low beats his 8-6, his quads take the back."""
    result = score.score_showdown("low-middle", C5)
    assert result.pairs()[0]["rows"] == {"front": "P1", "middle": "P1", "back": "P2"}
    assert result.totals == [1, -1]
    assert score.score_showdown("basic", C5).status == ("foul", "foul")  # a middle below its front


@pytest.mark.parametrize("low, high, name", [
    ("7s 5d 4h 3c 2s", "8c 6c 4d 3d 2h", "7-5-4-3-2 low"),  # the best low beats an 8
    ("Ks Qd Jh Tc 8s", "As 5d 4h 3c 2s", "K-Q-J-T-8 low"),  # A-5-4-3-2 is ace high, no straight
    ("As 5d 4h 3c 2s", "6h 5s 4c 3d 2c", "A-5-4-3-2 low"),  # a straight counts against
    ("9h 7s 5c 4d 2c", "9s 7s 5s 4s 2s", "9-7-5-4-2 low"),  # and so does a flush
    ("7h 7d 5c 4s 2s", "Kh Kd 8c 6s 2d", "Pair of sevens, five-four-two kickers (as a low)"),
])
def test_a_low_ranks_as_2_7(low, high, name):
    assert rank5_low(low)[0] > rank5_low(high)[0]
    assert describe_low(rank5_low(low)[0]) == name


def test_c6_what_a_foul_is(high_order):
    """C6: the back at least the front is all the default asks; high-order reads the middle
    as a high hand too; a front above its back fouls under both."""
    rules = load_ruleset("low-middle")
    other = "Jd 3h 2c | 9c 9h 7d 4s 3d | Ks Kh Kc Ad Ac"  # legal in either order
    assert score.score_showdown(rules, [C6_LEGAL, other]).status == ("set", "set")
    assert score.score_showdown(high_order, [C6_LEGAL, other]).status == ("foul", "set")
    assert score.score_showdown(rules, [C6_FOUL, other]).status == ("foul", "set")
    fouled = score.score_showdown(high_order, [C6_LEGAL, other])
    assert fouled.pairs()[0]["rows"] == {"front": "P2", "middle": "P2", "back": "P2"}
    assert fouled.totals == [-3, 3]


@pytest.mark.parametrize("order", ["back-over-front", "high-order"])
def test_legal_splits_and_frontier_follow_the_order(order):
    kw = {"middle": "deuce-to-seven", "order": order}
    cards = np.sort(parse_hand(HAND))
    rows, legal = low_split_strengths(cards, False, order == "high-order")
    assert (legal_splits(HAND, **kw) == np.flatnonzero(legal)).all()
    assert (split_strengths(HAND, **kw) == rows).all()
    frontier = pareto_frontier(HAND, **kw)
    assert frontier.legal == legal.sum()
    assert sum(m.equivalent for m in frontier.members) <= frontier.legal
    # 7-5-4-3-2 is a 7-high hand, below any front these cards leave: high-order forbids it
    assert any(m.describe()[1] == "7-5-4-3-2 low" for m in frontier.members) == (
        order == "back-over-front")


def test_scales_of_a_ruleset(high_order):
    assert scales(load_ruleset("basic")) == {"wheel_rank": "ace-low", "middle": "high",
                                              "order": "back-over-front"}
    assert scales(high_order)["order"] == "high-order"


def _brute_force(hand, policy, compiled, opponents, high_order=False):
    """The split of highest value over every legal split, ties to the stronger back, middle,
    front, then the smaller split (kernels/low_search.py's rule), valued in bulk; a fit's
    values corrected for the hand's cards (its card-removal model, the middle's lows too)."""
    rows, legal = low_split_strengths(hand, False, high_order)
    values = np.zeros(KV.N_VALUES)
    if policy.code == KP.TABLE:
        KV.outcome_values(compiled.params, values)
    kind = KV.value_kind(policy.code != KP.TABLE, compiled.params, values)
    prepared = KP.policy_scratch()[-1]
    if policy.code == KP.TABLE and policy.removal.xmean.size:
        prepare(hand, hand[:0], policy.removal, prepared)
        kind += KV.REMOVED
    splits = np.flatnonzero(legal)
    worth = np.array([KV.value(kind, np.uint16(r[0]), np.uint16(r[1]), np.uint16(r[2]),
                               policy.tables, values, policy.points, policy.removal,
                               prepared, compiled.params, opponents)
                      for r in rows[splits]])
    best = splits[worth == worth.max()]
    return min(best, key=lambda s: (-rows[s, 2], -rows[s, 1], -rows[s, 0], s))


@pytest.mark.parametrize("name, players", [("fitted", 4), ("fitted", 2), ("balanced", 4),
                                           ("table", 3)])
def test_decisions_are_the_best_legal_setting(name, players):
    """A valued policy's low-middle decision, pruned or exhaustive, is the legal split of
    highest value by brute force over all 72,072 (a fit's with its card-removal model)."""
    rules = load_ruleset("low-middle")
    compiled = rules.compile()
    policy = make_policy(name, rules, players)
    assert (name == "fitted") == bool(policy.removal.xmean.size)
    search = KP.searchable(*policy.arrays, compiled.params)
    assert search  # the shipped values are monotone: the search prunes
    rng = np.random.default_rng(players)
    scratch, state = KP.policy_scratch(), np.zeros(1, np.uint64)
    for _ in range(6):
        hand = np.sort(rng.permutation(52)[:13]).astype(np.uint8)
        want = _brute_force(hand, policy, compiled, players - 1)
        for prune in (True, False):
            split = KP.decide(hand, hand[:0], *policy.arrays, compiled.params, compiled.naturals, players - 1, prune,
                              state, scratch)[0]
            assert split == want


def test_greedy_and_random_set_legal_hands(high_order):
    for rules in (load_ruleset("low-middle"), high_order):
        compiled = rules.compile()
        rng = np.random.default_rng(3)
        for name in ("greedy", "random"):
            policy = make_policy(name, rules, 4)
            for _ in range(20):
                hand = np.sort(rng.permutation(52)[:13]).astype(np.uint8)
                split = KP.decide(hand, hand[:0], *policy.arrays, compiled.params, compiled.naturals, 3, False,
                                  np.array([7], np.uint64), KP.policy_scratch())[0]
                assert KP.split_legal(hand, split, compiled.params)


def test_best_plays_the_low_and_review_calls_the_foul(high_order_file):
    """``best`` ranks low-middle settings (the 7-5 low in the middle at the top) and ``review``
    of a setting fouled only by the high order says it is not legal."""
    result = run("best", HAND, "--rules", "low-middle", "--players", "2", "--samples", "2000",
                 "--json")
    assert result.exit_code == 0, result.output
    best = json.loads(result.output)["candidates"][0]
    assert "7s 5d 4h 3c 2s" in best["setting"]
    hand = "Jc 8d 2h Qs Qh 9s 6s 3s Ts Th 8c 7h 4d"
    legal = []
    for rules in ("low-middle", high_order_file):  # greedy: fitted would fit the file's rules first (4 min)
        out = run("review", hand, C6_LEGAL, "--rules", rules, "--players", "2", "--opponents", "greedy",
                  "--samples", "500", "--json")
        assert out.exit_code == 0, out.output
        legal.append(json.loads(out.output)["legal"])
    assert legal == [True, False]


def test_settings_under_a_ruleset():
    result = run("settings", HAND, "--rules", "low-middle", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["frontier"][0][1] == "7s 5d 4h 3c 2s"
    assert answer["details"][0]["rows"][1] == "7-5-4-3-2 low"
    both = run("settings", HAND, "--rules", "low-middle", "--wheel-rank", "second")
    assert both.exit_code == 2 and "not both" in both.output


def test_no_house_way_for_a_low_middle():
    result = run("best", HAND, "--rules", "low-middle", "--opponents", "houseway",
                 "--samples", "100")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("Error: low-middle plays the middle")


@pytest.mark.parametrize("text, key", [
    ('[middle]\nplays = "lowball"\n', "middle.plays"),
    ('[middle]\norder = "middle-first"\n', "middle.order"),
    ('[royalties]\nmiddle = { full-house = 2 }\n', "royalties.middle"),
])
def test_bad_middle_is_named(tmp_path, text, key):
    path = tmp_path / "bad.toml"
    path.write_text('id = "bad"\nname = "n"\nsource = "s"\nextends = "low-middle"\n' + text)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert str(path) in str(info.value) and key in str(info.value)
