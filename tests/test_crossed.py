"""Criss-cross's exact field (issue 37 item 2, sapsam.kernels.crossed): each player's settings
valued against the opponent's 26 cards, dealt and played."""

import dataclasses

import numpy as np
import pytest

from sapsam.game.cards import parse_cards
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as KP
from sapsam.kernels import removal as KR
from sapsam.kernels import value as KV
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.measure.best import candidates, simulate
from sapsam.measure.exploit import policy_candidate, policy_digest
from sapsam.play.policy import Policy, require_exact_field
from sapsam.play.seeds import Stream
from sapsam.play.strategy_files import fitted_policy, load_exact_field
from sapsam.strategy.fit import EXACT_BLEND, EXACT_ROUNDS, EXACT_SPLITS, exact_field_default, save_strategy

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
RULES = load_ruleset("criss-cross")
COMPILED = RULES.compile()


@pytest.fixture(scope="module")
def fitted():
    """The shipped fit without its exact field: the fitted field every exact one starts from."""
    return dataclasses.replace(fitted_policy(RULES, 2), exact=())


def _player(seed):
    deck = np.random.default_rng(seed).permutation(52).astype(np.uint8)
    return np.sort(deck[:26]), np.sort(deck[26:])


def _played_mass(policy, cards, splits, seed):
    """Row masses of the hands of ``splits`` random splits of ``cards``, each set by ``policy``
    knowing its other hand (an independent reference: NumPy's shuffles, the batch kernel)."""
    return _mass(_rows(policy, cards, splits, np.random.default_rng(seed)))


def test_without_rounds_the_field_is_the_fitted_play_of_the_opponents_cards(fitted):
    """No rounds: the tables are those of the opponent's cards dealt and set by the fitted
    policy.  Against 3,000 reference splits, each row's chance of beating the field (its CDF)
    agrees at every strength within 0.06: a two-sample Kolmogorov-Smirnov bound at 99.9%
    for 4,000 and 6,000 hands is 0.040."""
    own, theirs = _player(1)
    policy = dataclasses.replace(fitted, exact=(2000, 0, 1.0))
    tables = policy.crossed(RULES, own).tables
    reference = KV.ev_tables(_played_mass(fitted, theirs, 3000, 2), COMPILED.params, COMPILED.royalty, 0.0)
    gap = np.abs(tables[:, :N_STRENGTHS, KV.WIN] - reference[:, :N_STRENGTHS, KV.WIN]).max(axis=1)
    assert gap.max() < 0.06, gap
    # and not the field of the player's own cards: that is another distribution
    mine = KV.ev_tables(_played_mass(fitted, own, 3000, 3), COMPILED.params, COMPILED.royalty, 0.0)
    assert np.abs(tables[:, :N_STRENGTHS, KV.WIN] - mine[:, :N_STRENGTHS, KV.WIN]).max() > 0.1


def test_a_players_field_is_a_function_of_its_cards(fitted):
    own, theirs = _player(4)
    policy = dataclasses.replace(fitted, exact=(64, 3, 0.25))
    first = policy.crossed(RULES, own).tables
    assert np.array_equal(first, policy.crossed(RULES, own[::-1].copy()).tables)
    assert not np.array_equal(first, policy.crossed(RULES, theirs).tables)
    crossed = policy.crossed(RULES, own)
    assert crossed.exact == () and crossed.crossed(RULES, theirs) is crossed  # a concrete table policy
    assert fitted.crossed(RULES, own) is fitted  # no exact field: itself


def test_the_tables_value_settings_as_the_sampler_settles_them(fitted):
    """Each row pays its unit alone, so a setting's EV against the opponent's hands is twice
    the sum of its rows' gains in the tables of their field: the sampler's settlement of the
    same candidates against opponents set by the fitted policy agrees within 4 standard
    errors of the paired sample plus 0.06 for the tables' own 4,000 splits."""
    hand, other = np.sort(parse_cards(HAND)), np.sort(parse_cards(OTHER))
    cards = np.concatenate([hand, other])
    tables = dataclasses.replace(fitted, exact=(4000, 0, 1.0)).crossed(RULES, cards).tables
    cands = candidates(hand, RULES)[:12]
    unseen = np.setdiff1d(np.arange(52, dtype=np.uint8), cards)
    points, _ = simulate(hand, RULES, 2, fitted, cands, 6000, 5, unseen=unseen)
    for c, cand in enumerate(cands):
        model = 2 * sum(tables[k, cand.rows[k], KV.GAIN] for k in range(3))
        diff = points[c] - points[0]
        model_diff = model - 2 * sum(tables[k, cands[0].rows[k], KV.GAIN] for k in range(3))
        assert abs(points[c].mean() - model) < 4 * points[c].std() / np.sqrt(points.shape[1]) + 0.06
        assert abs(diff.mean() - model_diff) < 4 * diff.std() / np.sqrt(len(diff)) + 0.06


def test_rounds_leave_less_for_a_best_response(fitted):
    """The exact field with its rounds, against the fitted field: on 8 deals (16 players),
    what a best response gains from the opponent's actual rows (the tables of 2,048 of its
    splits, its hands set as it plays them), choosing among each hand's frontier on one half
    and measured on the other.  Pinned: the exact field leaves a best response less, paired
    over the same hands; the run of 80 players that chose the defaults measured 0.0011 +-
    0.0011 units a hand against 0.0105 +- 0.0024 for the fitted field."""
    exact = dataclasses.replace(fitted, exact=(EXACT_SPLITS, EXACT_ROUNDS, EXACT_BLEND))
    gains = {0: [], 1: []}
    for deal in range(8):
        sides = _player(100 + deal)
        for side in range(2):
            hero, opponent = sides[side], sides[1 - side]
            for which, policy in enumerate((fitted, exact)):
                rng = np.random.default_rng(deal)
                theirs = _rows(policy.crossed(RULES, opponent), opponent, 2048, rng)
                halves = [KV.ev_tables(_mass(part), COMPILED.params, COMPILED.royalty, 0.0)
                          for part in (theirs[:2048], theirs[2048:])]
                hands = np.sort(np.stack([rng.permutation(hero).reshape(2, 13) for _ in range(32)]), axis=2)
                hands = hands.reshape(-1, 13).astype(np.uint8)
                own = _rows(policy.crossed(RULES, hero), hands=hands)
                best = _rows(_table(fitted, halves[0]), hands=hands)
                gains[which].append((_value(halves[1], best) - _value(halves[1], own)).mean())
    fitted_gain, exact_gain = np.array(gains[0]), np.array(gains[1])
    assert exact_gain.mean() < fitted_gain.mean(), (exact_gain.mean(), fitted_gain.mean())


def _rows(policy, cards=None, splits=0, rng=None, hands=None):
    if hands is None:
        hands = np.sort(np.stack([rng.permutation(cards).reshape(2, 13) for _ in range(splits)]), axis=2)
        hands = hands.reshape(-1, 13).astype(np.uint8)
    return KP.play_hands(hands, policy.arrays, COMPILED.arrays, 2, Stream(0, "field").states(8), paired=True)[0]


def _mass(rows):
    mass = np.zeros((3, N_STRENGTHS))
    for k in range(3):
        np.add.at(mass[k], rows[:, k], 1.0)
    return mass / len(rows)


def _table(policy, tables):
    return dataclasses.replace(policy, tables=tables, removal=KR.no_removal())


def _value(tables, rows):
    return 2 * sum(tables[k, rows[:, k], KV.GAIN] for k in range(3))


def test_exploit_and_best_play_the_players_exact_field(fitted):
    """The policy's own decision for a hand is the table policy of its player's field, and
    the digest that guards an exploit checkpoint tells exact fields apart."""
    hand, other = np.sort(parse_cards(HAND)), np.sort(parse_cards(OTHER))
    exact = dataclasses.replace(fitted, exact=(256, 4, 0.25))
    own = policy_candidate(hand, exact, RULES, 2, np.zeros(1, np.uint64), other)
    table = exact.crossed(RULES, np.concatenate([hand, other]))
    assert own == policy_candidate(hand, table, RULES, 2, np.zeros(1, np.uint64), other)
    other_rounds = dataclasses.replace(exact, exact=(256, 5, 0.25))
    assert policy_digest(exact) != policy_digest(fitted) != policy_digest(other_rounds)


def test_an_exact_field_is_refused_where_it_does_not_apply(tmp_path):
    with pytest.raises(ValueError, match="two hands each"):
        require_exact_field(load_ruleset("basic"), (512, 12, 0.25))
    ruleset = tmp_path / "crossed-standard.toml"
    ruleset.write_text('extends = "standard"\nid = "x"\nname = "x"\nsource = "x"\nplayers = 2\n'
                       '[table]\nhands = 2\n')
    with pytest.raises(ValueError, match="royalties, naturals or surrender"):
        require_exact_field(load_ruleset(ruleset), (512, 12, 0.25))
    for bad in ((0, 12, 0.25), (512, -1, 0.25), (512, 12, 0.0), (512.5, 12, 0.25)):
        with pytest.raises(ValueError, match="splits 1-100,000"):
            require_exact_field(RULES, bad)
    assert exact_field_default(RULES) == (EXACT_SPLITS, EXACT_ROUNDS, EXACT_BLEND)
    assert exact_field_default(RULES, 0) == () == exact_field_default(load_ruleset("basic"))
    with pytest.raises(ValueError, match="two hands each"):
        exact_field_default(load_ruleset("basic"), 512)


def test_a_fit_carries_its_exact_field(tmp_path, fitted):
    path = tmp_path / "criss-cross-2p.npz"
    mass = np.full((3, N_STRENGTHS), 1.0 / N_STRENGTHS)
    save_strategy(path, mass, 0.0, RULES, 2, [0.1], 100, 0, 1.0, exact=(300, 6, 0.5))
    assert load_exact_field(path) == (300, 6, 0.5)
    policy = fitted_policy(RULES, 2, path)
    assert isinstance(policy, Policy) and policy.exact == (300, 6, 0.5)
    np.savez(path, row_mass=mass, exact_field=np.zeros(2))
    with pytest.raises(ValueError, match=r"criss-cross-2p.npz: exact_field has shape \(2,\)"):
        load_exact_field(path)


def test_the_shipped_criss_cross_fit_plays_the_exact_field():
    assert fitted_policy(RULES, 2).exact == (EXACT_SPLITS, EXACT_ROUNDS, EXACT_BLEND)
