"""``ofc place`` made fast (issue 38, item 3): the opponents' turns that cannot see where your
cards went played once a deal (the same numbers as once a placement), and the race that drops
the placements clearly worse than the leader (its top the best of a long run of every
placement, what it dropped said in the table and under it)."""

import json
from statistics import NormalDist

import pytest
from click.testing import CliRunner
from pandas.testing import assert_frame_equal

from sapsam.base.stats import Z95
from sapsam.cli import main
from sapsam.ofc.measure.place import rank_placements
from tests.ofc.test_endgame import position_args, random_position

# (name, rules, board, hand, opponents): the streets of a hand without opponents given (their
# boards dealt from the unseen cards), three players, an opponent in Fantasyland, classic
POSITIONS = {
    "first street": ("ofc-pineapple", "", "As Kd 9h 9s 4c", ()),
    "second street": ("ofc-pineapple", "As | 9h 9s | Kd 4c", "Qh 7d 2c", ()),
    "third street": ("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d", ()),
    "last street": ("ofc-pineapple", "As Ad Js | Kc Qc 5d 4d | 9h 9s 9c 8c", "Ah 2c 7d", ()),
    "three players": ("ofc-pineapple", "As | 9h 9s | Kd 4c", "Qh 7d 2c", ("", "7s 7c | Jd | 8d 8h")),
    "fantasyland": ("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d", ("fantasyland:14",)),
    "classic": ("ofc-classic", "As Ad | Kc Qc 5d | 9h 9s", "Ah", ()),
}


def ranked(name, **options):
    rules, board, hand, opponents = POSITIONS[name]
    return rank_placements(rules, board, hand, opponents=opponents, **options)


@pytest.mark.parametrize("name", POSITIONS)
def test_turns_played_once_a_deal_give_the_same_numbers(name):
    """The opponents' turns before yours (every street but their last where yours is over) are
    played once a deal for every placement: every placement's every rollout is what playing
    them once a placement gives, to the last bit."""
    shared = ranked(name, samples=32, race=False)
    alone = ranked(name, samples=32, race=False, share=False)
    assert shared.samples == alone.samples == 32 and not shared.dropped
    assert_frame_equal(shared.table, alone.table)


def test_a_race_is_its_rollouts_without_the_dropped():
    """A stream's deals do not depend on which placements are left: what ran to the end in the
    race has the numbers of a run without a race, and a dropped placement's are that run's
    first rollouts (the first deals of every stream)."""
    race = ranked("second street", samples=256)
    full = ranked("second street", samples=256, race=False)
    assert race.race and race.dropped and not full.dropped
    everyone = full.table.set_index("setting")
    for row in race.table.itertuples():
        if not row.dropped:
            assert row.rollouts == 256 and row.ev == pytest.approx(everyone.loc[row.setting, "ev"], abs=1e-12)
    assert race.table["dropped"].sum() == race.dropped
    assert (race.table["rollouts"][race.table["dropped"]] < 256).all()
    assert not race.table["dropped"].iloc[:len(race.table) - race.dropped].any()  # dropped listed last


# a long run of every placement (no race, another seed) against the race at the defaults
LONG = {"first street": 2048, "second street": 4096, "third street": 4096, "three players": 4096}


@pytest.mark.parametrize("name", [pytest.param("first street", marks=pytest.mark.slow),
                                  "second street", "third street", "three players"])
def test_the_race_picks_what_a_long_run_of_every_placement_picks(name):
    """The race's top placement at the default samples is the best of a long run that rolls out
    every placement (another seed): the long run's gap from its best to the race's top has a
    paired interval reaching 0 (Bonferroni's over the positions of this test: familywise 5%),
    and the race's EV of it is within the intervals of the long run's."""
    z = NormalDist().inv_cdf(1 - 0.05 / 2 / len(LONG))
    fast = ranked(name, samples=500)
    long = ranked(name, samples=LONG[name], seed=2, race=False)
    top = fast.table.iloc[0]
    assert not top.dropped and top.rollouts == fast.samples
    row = long.table.set_index("setting").loc[top.setting]
    se = (row.gap_high - row.gap) / Z95
    assert row.gap + z * se >= 0, (top.setting, long.table.iloc[0].setting, row.gap, se)
    both = ((top.ci_high - top.ci_low) ** 2 + (row.ci_high - row.ci_low) ** 2) ** 0.5 / 2 / Z95
    assert abs(top.ev - row.ev) <= z * both


def test_the_race_drops_only_what_is_clearly_worse():
    """On the first street most of the 232 placements are dropped, each worse than the best by
    more than its interval at the race's level (paired, on the deals it had), none of them the
    best; and at fewer rollouts than the samples."""
    race = ranked("first street", samples=500)
    assert len(race.table) == 232 and race.dropped > 150
    dropped = race.table[race.table["dropped"]]
    assert (dropped["gap_high"] < 0).all() and (dropped["rollouts"] < race.samples).all()
    assert (dropped["rollouts"] >= 64).all()


def test_the_command_says_what_it_dropped():
    runner = CliRunner()
    args = ["ofc", "place", "--hand", "As Kd 9h 9s 4c"]
    shown = runner.invoke(main, [*args, "--top", "3"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "rollouts a placement (" in shown.output and "dropped early" in shown.output
    assert "dropped after 64" in shown.output and "listed last with the EV, 95% CI and gap" in shown.output
    answer = json.loads(runner.invoke(main, [*args, "--json"]).output)
    assert answer["race"] and answer["dropped"] == sum(p["dropped"] for p in answer["placements"])
    last = answer["placements"][-1]
    assert last["dropped"] and last["rollouts"] < answer["samples"]
    every = json.loads(runner.invoke(main, [*args, "--json", "--no-race", "--samples", "32"]).output)
    assert not every["race"] and every["dropped"] == 0
    assert all(p["rollouts"] == 32 and not p["dropped"] for p in every["placements"])


def test_exact_rankings_do_not_race():
    board, theirs, hand, dead, _ = random_position(3, 9, 8)
    result = rank_placements(*position_args(board, theirs, hand, dead), samples=32)
    assert result.exact and not result.dropped
    assert (result.table["rollouts"] == 0).all() and not result.table["dropped"].any()
