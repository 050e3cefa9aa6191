"""Which fitted strategy a ruleset and table size play (analysis/play/strategy_files.py,
analysis/strategy/fit.py): the shipped fits cover every named ruleset at 2, 3 and 4 players,
each is used only for the rules it was fitted for (their digest), and any other ruleset or
table is fitted on demand once, cached under its digest, and fitted anew when its file changes
(issue 15)."""

import sys

import numpy as np
import pytest
from click.testing import CliRunner
from terminal import HAND, environment, in_terminal, piped

from sapsam.cli import main
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.play import strategy_files as files
from sapsam.strategy import fit
from sapsam.strategy.registry import make_policy

MINE = '''extends = "standard"
id = "mine"
name = "Mine: standard with a bigger sweep bonus"
source = "a test"

[scoring]
sweep_bonus = {bonus}
'''


# fits on demand in these tests: what they test is where a fit goes and when one is made
SMALL_FITS = {"iterations": 2, "hands": 500, "removal_rounds": 1, "removal_tables": 1000}


def _mine(folder, bonus=4):
    path = folder / "mine.toml"
    path.write_text(MINE.format(bonus=bonus))
    return path


@pytest.fixture
def data(tmp_path, monkeypatch):
    """An empty user data folder, and fits on demand small enough for a test."""
    monkeypatch.setenv("SAPSAM_DATA", str(tmp_path / "data"))
    for key, value in SMALL_FITS.items():
        monkeypatch.setitem(fit.ON_DEMAND, key, value)
    return tmp_path / "data" / "strategies"


def _small_fits(folder):
    """The ``sapsam`` command with fits on demand as small as the ``data`` fixture's (what a
    terminal shows of one is the point, not the fit), as a program for a pseudo-terminal."""
    program = folder / "sapsam-small-fits"
    program.write_text(f"#!{sys.executable}\nfrom sapsam.strategy import fit\n\n"
                       f"fit.ON_DEMAND.update({SMALL_FITS!r})\nfrom sapsam.cli import run\n\nrun()\n")
    program.chmod(0o755)
    return str(program)


def test_the_digest_is_what_the_rules_play(tmp_path):
    standard = load_ruleset("standard")
    renamed = tmp_path / "renamed.toml"
    renamed.write_text('extends = "standard"\nid = "renamed"\nname = "x"\nsource = "y"\n')
    assert load_ruleset(renamed).digest() == standard.digest()  # id, name, source: not played
    assert load_ruleset(_mine(tmp_path)).digest() != standard.digest()
    assert load_ruleset(_mine(tmp_path, 5)).digest() != load_ruleset(_mine(tmp_path, 4)).digest()
    assert len({load_ruleset(r).digest() for r in ruleset_ids()}) == len(ruleset_ids())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_named_ruleset_ships_a_fit_for_its_rules(players):
    """Every named ruleset has a shipped fit at each of 2, 3 and 4 players it is played at
    (criss-cross: 2), made for the rules as they are now (a changed ruleset file needs
    `make strategies`)."""
    for rid in ruleset_ids():
        rules = load_ruleset(rid)
        if players not in rules.tables:
            continue
        path = files.SHIPPED_STRATEGY_DIR / files.strategy_name(rid, players)
        assert path.is_file(), f"no shipped fit {path.name}: run make strategies"
        made = files.manifest(path)
        assert (made["ruleset"], made["players"]) == (rid, players)
        assert made["ruleset_digest"] == rules.digest(), f"{path.name} is for older rules"
        assert files.find_strategy(rules, players) == path
        # make strategies refits each with the features it reads (its manifest says which)
        gamma = files.load_removal(path)[0]
        assert files.shipped_features(rid, players) == gamma.shape[2] in (16, 61), path.name


def test_a_named_ruleset_under_another_id_plays_its_shipped_fit(data, tmp_path):
    renamed = tmp_path / "renamed.toml"
    renamed.write_text('extends = "taiwanese"\nid = "renamed"\nname = "x"\nsource = "y"\n')
    path = fit.fitted_strategy(load_ruleset(renamed), 3)
    assert path == files.SHIPPED_STRATEGY_DIR / "taiwanese-3p.npz"
    assert not (data / "on-demand").exists()


def test_a_new_ruleset_is_fitted_once_then_reused(data, tmp_path):
    rules = load_ruleset(_mine(tmp_path))
    assert files.find_strategy(rules, 3) is None
    with pytest.raises(files.MissingStrategy, match="sapsam fit --rules mine --players 3"):
        files.fitted_policy(rules, 3)
    labels = []

    def stage(label, total, unit):
        labels.append((label, total, unit))
        return lambda done, total=None: None

    path = fit.fitted_strategy(rules, 3, stage)
    assert path == files.on_demand_path(rules, 3) and path.parent == data / "on-demand"
    assert labels == [("fitting mine for 3 players (once: kept for next time)", 2, "rounds")]
    made = files.manifest(path)
    assert (made["ruleset"], made["players"], made["ruleset_digest"]) == ("mine", 3, rules.digest())
    stamp = path.stat().st_mtime_ns
    assert fit.fitted_strategy(rules, 3, stage) == path and len(labels) == 1  # reused
    assert path.stat().st_mtime_ns == stamp
    policy = make_policy("fitted", rules, 3)
    assert policy.source == str(path)
    np.testing.assert_allclose(files.load_strategy(path)[0].sum(axis=1), [1, 1, 1], rtol=0, atol=1e-12)


def test_a_changed_ruleset_file_is_fitted_anew(data, tmp_path):
    first = fit.fitted_strategy(load_ruleset(_mine(tmp_path, 4)), 2)
    second = fit.fitted_strategy(load_ruleset(_mine(tmp_path, 5)), 2)
    assert first != second and first.is_file() and second.is_file()


def test_a_users_fit_of_other_rules_under_a_named_id_is_not_played(data, tmp_path):
    """A fit in the user's folder named standard-4p but made for other rules (a file with
    id = "standard" and a change) is passed over: the shipped fit of standard is played."""
    edited = tmp_path / "standard.toml"
    edited.write_text(MINE.format(bonus=4).replace('id = "mine"', 'id = "standard"'))
    own = data / "standard-4p.npz"
    fit.fit_and_save(load_ruleset(edited), 4, own, iterations=1, hands=200, removal_rounds=1, removal_tables=1000)
    standard = load_ruleset("standard")
    assert files.find_strategy(standard, 4) == files.SHIPPED_STRATEGY_DIR / "standard-4p.npz"
    assert files.find_strategy(load_ruleset(edited), 4) == own
    with pytest.raises(ValueError, match=r"fitted for standard with 4 players \(the ruleset "
                                         r"changed since it was fitted\), not standard with 4"):
        make_policy("fitted", standard, 4, strategy=own)


def test_the_command_line_fits_on_demand_and_says_so(data, tmp_path):
    mine = _mine(tmp_path)
    args = ["best", HAND, "--rules", str(mine), "--players", "3", "--samples", "200"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "fitting mine for 3 players (once: kept for next time)..." in first.output
    assert "mine, 3 players, fitted opponents" in first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and "fitting" not in again.output
    assert again.output == first.output.split("...\n", 1)[1]  # the same answer, from the cache


def test_a_fit_on_demand_shows_progress_in_a_terminal(tmp_path):
    """As a person meets it: a bar while the new ruleset is fitted, nothing the next time."""
    mine = _mine(tmp_path)
    env = environment(SAPSAM_DATA=str(tmp_path / "data"))
    args = ["best", HAND, "--rules", str(mine), "--players", "2", "--samples", "500"]
    first = in_terminal(*args, env=env, program=_small_fits(tmp_path))
    assert first.status == 0, first.out
    assert "fitting mine for 2 players" in first.out and "━" in first.raw
    assert "Traceback" not in first.out
    cached = list((tmp_path / "data" / "strategies" / "on-demand").glob("*-2p.npz"))
    assert len(cached) == 1
    again = piped(*args, env=env)
    assert again.status == 0 and "fitting" not in again.err, again.err
    assert "mine, 2 players, fitted opponents" in again.out
