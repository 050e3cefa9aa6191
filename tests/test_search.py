"""The search (sapsam.kernels.search) makes the same decisions as the whole frontier did, bit for bit.

The reference is the decision as made before the search (tests/reference_decide.py).  The
default run compares 20,000 hands per policy and table, and the paths a search can take
(a policy that is not monotone, a hand whose near-best settings overflow the candidates);
``make test-slow`` compares a million hands per policy.
"""

import numpy as np
import pytest
from numba import njit
from reference_decide import reference_decisions

from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as KP
from sapsam.kernels import settings as KS
from sapsam.kernels import settle
from sapsam.kernels import value as KV
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.kernels.search import CANDIDATE_ROOM, FIVE_CLASSES
from sapsam.play.deal import deal_sorted_hands
from sapsam.play.policy import Policy
from sapsam.play.seeds import Stream
from sapsam.strategy.registry import make_policy


@njit(cache=True)  # one thread: under pytest-xdist each CPU runs tests, and a parallel loop compiles 4x longer
def kernel_decisions(hands, policy, tables, points, removal, params, naturals, opponents, search, out):
    """``out`` int64 (n, 4): sapsam.kernels.policies.decide for each hand."""
    scratch = KP.policy_scratch()
    state = np.zeros(1, np.uint64)
    for i in range(hands.shape[0]):
        split, natural, key, surrender = KP.decide(hands[i], hands[i, :0], policy, tables, points, removal, params,
                                                   naturals, opponents, search, state, scratch)
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = split, natural, key, surrender


def compare(policy, rules, players, hands, general=False):
    """Decisions of the kernels (searching) and of the reference, and whether it searched.

    The kernels take the route ``best`` and ``fit`` take (``search_mode``: the search alone
    under a high middle), or with ``general`` the route every policy and ruleset can take.
    The reference is the frozen frontier scan, or for a policy with a card-removal model the
    kernels' own frontier route (tests/test_removal.py holds that to an explicit reference)."""
    compiled = rules.compile()
    args = (*policy.arrays, compiled.params, compiled.naturals, players - 1)
    search = KP.searchable(*args[:5])
    got = np.empty((len(hands), 4), np.int64)
    kernel_decisions(hands, *args, search if general else KP.search_mode(*args[:5]), got)
    want = np.empty((len(hands), 4), np.int64)
    if policy.removal.xmean.size:
        kernel_decisions(hands, *args, False, want)
    else:
        reference_decisions(hands, policy.code, policy.tables, policy.points, *args[4:], want)
    return got, want, search


# every kind of value: rows and extras (standard), closed forms (pool, single winner), a sweep
# multiplier (taiwanese, vietnamese), heads-up (two-four), wheel ranked second (malayan)
CASES = [("standard", 4, name) for name in ("fitted", "table", "balanced", "houseway")] + [
    ("two-four", 2, "fitted"), ("taiwanese", 4, "fitted"), ("vietnamese", 4, "fitted"),
    ("pagat-pool", 4, "fitted"), ("pusoy-single-winner", 4, "fitted"), ("malayan", 4, "fitted"),
    ("basic", 4, "houseway")]


@pytest.mark.parametrize("rules_id, players, name", CASES)
def test_search_decides_as_the_frontier(rules_id, players, name):
    rules = load_ruleset(rules_id)
    hands = deal_sorted_hands(20_000, Stream(2026, "hands", (players,)))
    got, want, search = compare(make_policy(name, rules, players), rules, players, hands)
    assert search, "the shipped policies are monotone: they search"
    mismatched = np.flatnonzero((got != want).any(axis=1))
    assert mismatched.size == 0, f"{mismatched.size} of {len(hands)} decisions differ, first hand {mismatched[:1]}"


@pytest.mark.parametrize("name", ["fitted", "houseway"])
def test_the_general_route_decides_as_the_search_alone(name):
    """What simulate's kernel compiles (every policy, every middle, chosen at run time) and
    what best's compiles (the search alone, the other routes pruned) decide alike."""
    rules = load_ruleset("standard")
    policy = make_policy(name, rules, 4)
    assert KP.search_mode(*policy.arrays, rules.compile().params) is KP.SEARCH_ONLY
    hands = deal_sorted_hands(5_000, Stream(2028, "hands"))
    alone, want, _ = compare(policy, rules, 4, hands)
    general, _, _ = compare(policy, rules, 4, hands, general=True)
    assert np.array_equal(alone, want) and np.array_equal(general, want)


def test_search_mode_names_the_route():
    standard, low = load_ruleset("standard"), load_ruleset("low-middle")
    for rules, name, mode in [(standard, "fitted", KP.SEARCH_ONLY), (standard, "random", False),
                              (standard, "greedy", False), (low, "fitted", True)]:
        p = make_policy(name, rules, 4)
        assert KP.search_mode(*p.arrays, rules.compile().params) is mode, name


@pytest.mark.slow
@pytest.mark.parametrize("rules_id, players, name", CASES[:5])
def test_search_decides_as_the_frontier_on_a_million_hands(rules_id, players, name):
    rules = load_ruleset(rules_id)
    policy = make_policy(name, rules, players)
    for part in range(10):  # 100,000 hands at a time, a million in all
        hands = deal_sorted_hands(100_000, Stream(2027, "hands", (players, part)))
        got, want, _ = compare(policy, rules, players, hands)
        assert np.array_equal(got, want), f"part {part}: {(got != want).any(axis=1).sum()} decisions differ"


def test_a_policy_that_is_not_monotone_builds_the_frontier():
    rules = load_ruleset("standard")
    points = make_policy("balanced", rules, 4).points.copy()
    points[2, :N_STRENGTHS] = points[2, :N_STRENGTHS][::-1]  # a back scores less the stronger it is
    policy = Policy("balanced", KP.BALANCED, np.zeros(KV.TABLE_SHAPE), points, "")
    got, want, search = compare(policy, rules, 4, deal_sorted_hands(2000, Stream(3, "hands")))
    assert not search
    assert np.array_equal(got, want)


def test_flat_values_overflow_the_candidates_and_build_the_frontier():
    """With every row worth nothing, every legal setting ties for best: far more than the
    search keeps, so it gives up and the frontier decides (the smallest split of it)."""
    rules = load_ruleset("standard")
    policy = Policy("balanced", KP.BALANCED, np.zeros(KV.TABLE_SHAPE), np.zeros(KP.POINTS_SHAPE), "")
    hands = deal_sorted_hands(500, Stream(4, "hands"))
    got, want, search = compare(policy, rules, 4, hands)
    assert search and CANDIDATE_ROOM < 17_000  # a hand has thousands of legal settings
    assert np.array_equal(got, want)


def test_monotone_refuses_what_the_search_cannot_bound():
    rules = load_ruleset("taiwanese")
    compiled = rules.compile()
    policy = make_policy("fitted", rules, 4)
    assert KP.searchable(*policy.arrays, compiled.params)
    params = compiled.params.copy()
    params[settle.P_SCOOP_MULT] = 3  # a sweep tripling the rows' units may cost a row its gain
    assert not KP.searchable(*policy.arrays, params)
    tables = policy.tables.copy()
    tables[1, FIVE_CLASSES[4000], KV.GAIN] += 10  # a middle that earns more than the next stronger one
    assert not KP.searchable(policy.code, tables, policy.points, policy.removal, compiled.params)


@njit(cache=True)
def _both_picks(hands, kind, houseway, tables, values, points, removal, params, opponents, out):
    """``out`` (n, 4): the split and value of each hand's frontier member as
    ``_best_on_frontier`` and as the fallback ``_best_valued`` pick it."""
    scratch = KP.policy_scratch()
    frontier, splits, rows = scratch[0], scratch[1], scratch[2]
    for i in range(hands.shape[0]):
        _, size = KS._frontier(hands[i], params[settle.P_WHEEL_SECOND] != 0, frontier, splits, rows)
        out[i, 0], out[i, 1] = KP._best_on_frontier(kind, houseway, tables, values, points, params,
                                                    opponents, size, splits, rows, removal, scratch[-1])
        out[i, 2], out[i, 3] = KP._best_valued(kind, houseway, tables, values, points, removal,
                                               scratch[-1], params, opponents, size, splits, rows)


@pytest.mark.parametrize("rules_id, name, kind", [
    ("standard", "fitted", KV.SUMMED), ("pagat-pool", "fitted", KV.CLOSED_FORM),
    ("pusoy-single-winner", "fitted", KV.CLOSED_FORM), ("basic", "balanced", KV.POINTS),
    ("malayan", "table", KV.ROWS_ONLY)])
def test_the_fallback_picks_as_the_frontier_scan(rules_id, name, kind):
    """The search's fallback under SEARCH_ONLY (value() per member) picks the member and value
    the frontier's per-kind loops pick, bit for bit, on whole frontiers.  (The house way's
    frontier is that fallback itself; the reference holds its ties, above.)"""
    rules = load_ruleset(rules_id)
    compiled = rules.compile()
    policy = make_policy(name, rules, 4)
    values = np.zeros(KV.N_VALUES)
    if policy.code == KP.TABLE:
        KV.outcome_values(compiled.params, values)
    assert KV.value_kind(policy.code != KP.TABLE, compiled.params, values) == kind
    hands = deal_sorted_hands(300, Stream(2029, "hands"))
    out = np.empty((len(hands), 4))
    _both_picks(hands, kind, policy.code == KP.HOUSEWAY, policy.tables, values, policy.points,
                policy.removal, compiled.params, 3, out)
    assert np.array_equal(out[:, :2], out[:, 2:])
