"""Rulesets as data (analysis/game/, analysis/game/rulesets/*.toml, ``sapsam rules``).

Every named ruleset of RULES.md part B loads, compiles, matches the facts the catalogue
gives for it, and shows in ``sapsam rules``; malformed files fail with a RulesetError naming
the file and the key (exit status 2 and one line from the command line); a user file
extending a named id works wherever an id does.
"""

import dataclasses
import json
import tomllib

import naive
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sapsam.cli import main
from sapsam.game import mechanisms, score
from sapsam.game.mechanisms import Category
from sapsam.game.ruleset_files import RulesetError, as_dict, load_ruleset, ruleset_ids
from sapsam.kernels import settle as ks
from sapsam.kernels.naturals import NATURAL_KINDS

RULESET_IDS = ("basic", "two-four", "one-six", "pagat-typical", "pagat-sweep", "pagat-middle",
               "pagat-overall", "pagat-extras", "pagat-surrender", "pagat-pool",
               "pusoy-single-winner", "house", "malayan", "vietnamese", "singapore",
               "hawaiian-gardens", "standard", "taiwanese", "low-middle", "criss-cross",
               "first-to-11")  # RULES.md part B
C2 = ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
      "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"]  # RULES.md C2: Amy wins 2 rows to 1


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---- the named rulesets ----------------------------------------------------------------------

def test_named_ids_in_catalogue_order():
    assert tuple(ruleset_ids()) == RULESET_IDS


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_named_ruleset_loads_and_compiles(rid):
    rules = load_ruleset(rid)
    assert rules.id == rid
    assert rules.name and rules.source and rules.defaults  # provenance (STYLE.md 11)
    compiled = rules.compile()
    assert compiled.params.dtype == np.int64 and compiled.params.shape == (ks.N_PARAMS,)
    assert compiled.royalty.dtype == np.int64 and compiled.royalty.shape == (3, 9)
    assert compiled.naturals.dtype == np.int64
    assert compiled.naturals.shape == (len(rules.naturals.hands), 4)
    tiers = compiled.naturals[:, 3]
    assert (np.diff(tiers) >= 0).all()  # ascending
    assert (np.diff(compiled.naturals[:, 2]) >= 0).all()  # values ascending too
    assert rules.describe()


ROYALTIES = {  # RULES.md part B: (mode, when, front, middle, back)
    "pagat-typical": ("instead", "winner", {"trips": 3}, {"full-house": 2, "quads": 4, "straight-flush": 5},
                      {"quads": 4, "straight-flush": 5}),
    "pagat-middle": ("instead", "winner", {"trips": 3}, {"full-house": 2, "quads": 5, "straight-flush": 6},
                     {"quads": 4, "straight-flush": 5}),
    "pagat-extras": ("extra", "always", {"trips": 2}, {"full-house": 1, "quads": 3, "straight-flush": 4},
                     {"quads": 3, "straight-flush": 4}),
    "malayan": ("extra", "always", {"trips": 2}, {"full-house": 2, "quads": 6, "straight-flush": 8},
                {"quads": 4, "straight-flush": 6}),
    "vietnamese": ("instead", "winner", {"trips": 3}, {"full-house": 2, "quads": 8, "straight-flush": 10},
                   {"quads": 4, "straight-flush": 5}),
    "singapore": ("instead", "winner", {"trips": 3}, {"full-house": 2, "quads": 8, "straight-flush": 14},
                  {"quads": 4, "straight-flush": 7}),
    "hawaiian-gardens": ("extra", "winner", {"trips": 3}, {"full-house": 2, "quads": 8, "straight-flush": 10},
                         {"quads": 4, "straight-flush": 5}),
    "standard": ("extra", "winner", {"trips": 3}, {"full-house": 1, "quads": 3, "straight-flush": 4},
                 {"quads": 2, "straight-flush": 3}),
}
ROYALTIES["pagat-sweep"] = ROYALTIES["pagat-overall"] = ROYALTIES["pagat-typical"]
ROYALTIES["pagat-surrender"] = ROYALTIES["pagat-typical"]
ROYALTIES["taiwanese"] = ROYALTIES["standard"]

PAGAT_NATURALS = ("higher-wins-full", [("six-pairs", 3), "<", ("three-straights", 3), "<",
                                       ("three-flushes", 3), "<", ("dragon", 13)])
STANDARD_NATURALS = ("higher-wins-full", [
    ("three-flushes", 3), "<", ("three-straights", 4), "<", ("six-pairs", 6), "<", ("four-trips", 8),
    "<", ("all-one-colour", 10), "<", ("small", 12), "=", ("big", 12), "<", ("three-quads", 20), "<",
    ("three-straight-flushes", 24), "<", ("twelve-royalties", 32), "<", ("dragon", 36), "<",
    ("clean-dragon", 108)])
NATURALS = {  # RULES.md part B: clash, ascending list with '<' (new tier) or '=' (same tier)
    "pagat-typical": PAGAT_NATURALS, "pagat-sweep": PAGAT_NATURALS, "pagat-middle": PAGAT_NATURALS,
    "pagat-overall": PAGAT_NATURALS, "pagat-extras": PAGAT_NATURALS, "pagat-surrender": PAGAT_NATURALS,
    "malayan": ("difference", [
        ("three-flushes", 3), "<", ("three-straights", 4), "<", ("six-pairs", 4), "<",
        ("five-pairs-trips", 5), "<", ("four-trips", 6), "<", ("all-one-colour", 10), "=",
        ("small", 10), "=", ("big", 10), "<", ("three-quads", 16), "<", ("three-straight-flushes", 18),
        "=", ("twelve-pictures", 18), "<", ("clean-dragon", 26)]),
    # vietnamese lists the 3-unit naturals unranked: its file puts them on one tier (a default)
    "vietnamese": ("higher-wins-full", [("three-straights", 3), "=", ("three-flushes", 3), "=",
                                        ("six-pairs", 3), "<", ("five-pairs-trips", 6), "<",
                                        ("dragon", 13), "<", ("clean-dragon", 26)]),
    "singapore": ("equal-tier-no-payment", [("six-pairs", 3), "=", ("three-straights", 3), "=",
                                            ("three-flushes", 3), "=", ("small", 3), "<", ("dragon", 13)]),
    "hawaiian-gardens": ("difference", [("three-straights", 4), "=", ("three-flushes", 4), "=",
                                        ("twelve-one-colour", 4), "=", ("six-pairs", 4), "<",
                                        ("all-one-colour", 6), "<", ("dragon", 13), "<",
                                        ("clean-dragon", 39)]),
    "standard": STANDARD_NATURALS, "taiwanese": STANDARD_NATURALS,
}
SCORING = {  # RULES.md part B: game, base and the modifiers that differ from the defaults
    "basic": ("pairwise", "per-row", {}),
    "two-four": ("pairwise", "two-four", {}),
    "one-six": ("pairwise", "one-six", {}),
    "pagat-typical": ("pairwise", "per-row", {}),
    "pagat-sweep": ("pairwise", "per-row", {"sweep_bonus": 1}),
    "pagat-middle": ("pairwise", "per-row", {}),
    "pagat-overall": ("pairwise", "per-row", {"overall_point": True}),
    "pagat-extras": ("pairwise", "per-row", {"overall_point": True}),
    "pagat-surrender": ("pairwise", "per-row", {}),
    "pagat-pool": ("pool", None, {}),
    "first-to-11": ("match", None, {}),
    "criss-cross": ("pairwise", "per-row", {}),
    "pusoy-single-winner": ("single-winner", None, {}),
    "house": ("bank", "per-row", {}),
    "malayan": ("bank", "per-row", {}),
    "vietnamese": ("pairwise", "per-row", {"scoop_multiplier": 2, "home_run_multiplier": 3}),
    "singapore": ("pairwise", "per-row", {}),
    "hawaiian-gardens": ("pairwise", "two-of-three", {"majority_units": 1, "sweep_units": 6,
                                                      "home_run_units": 9}),
    "standard": ("pairwise", "two-four", {}),
    "taiwanese": ("pairwise", "per-row", {"scoop_multiplier": 2, "home_run_multiplier": 4}),
    "low-middle": ("pairwise", "per-row", {}),
}
SURRENDER = {"pagat-surrender": ("two-rows", 0), "hawaiian-gardens": ("fixed", 3),
             "standard": ("two-rows", 0), "taiwanese": ("two-rows", 0)}
NATURAL_OPTIONS = {  # (ruleset, kind): option fields RULES.md part B fixes
    ("malayan", "small"): {"max_rank": "8"}, ("malayan", "big"): {"min_rank": "8"},
    ("singapore", "small"): {"max_rank": "9"},
    ("standard", "small"): {"max_rank": "8"}, ("standard", "big"): {"min_rank": "8"},
}


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_named_ruleset_matches_rules_md_part_b(rid):
    rules = load_ruleset(rid)
    game, base, modifiers = SCORING[rid]
    s = rules.scoring
    assert str(s.game) == game
    if base:
        assert str(s.base) == base
    defaults = {"sweep_bonus": 0, "overall_point": False, "scoop_multiplier": 1, "home_run_multiplier": 1}
    for key, value in {**defaults, **modifiers}.items():
        assert getattr(s, key) == value, key
    if rid in ROYALTIES:
        mode, when, front, middle, back = ROYALTIES[rid]
        r = rules.royalties
        assert (str(r.mode), str(r.when)) == (mode, when)
        for table, want in ((r.front, front), (r.middle, middle), (r.back, back)):
            assert {str(k): v for k, v in table.items()} == want
    else:
        assert not (rules.royalties.front or rules.royalties.middle or rules.royalties.back)
    if rid in NATURALS:
        clash, listing = NATURALS[rid]
        assert str(rules.naturals.clash) == clash
        hands = rules.naturals.hands
        entries = listing[::2]
        assert [(str(h.kind), h.value) for h in hands] == entries
        assert [h.same_tier for h in hands[1:]] == [sign == "=" for sign in listing[1::2]]
        for h in hands:
            for field, value in NATURAL_OPTIONS.get((rid, str(h.kind)), {}).items():
                assert getattr(h, field) == value
    else:
        assert rules.naturals.hands == ()
    mode, units = SURRENDER.get(rid, ("none", 0))
    assert str(rules.surrender.mode) == mode
    if mode == "fixed":
        assert rules.surrender.units == units
    assert str(rules.fouls.mode) == "as-swept"  # no named ruleset forbids fouls
    if rid == "pagat-pool":
        assert (rules.pool.stake, rules.pool.sweep_takes_all, rules.pool.sweep_extra) == (3, True, 3)
    if rid == "pusoy-single-winner":
        assert rules.single_winner.units == 1
    if rid == "malayan":
        assert rules.players == 4  # three players and the bank
    assert str(rules.wheel_rank) == "ace-low"
    assert str(rules.middle.plays) == ("deuce-to-seven" if rid == "low-middle" else "high")
    assert str(rules.middle.order) == "back-over-front"
    assert rules.extras.rake == 0


def test_standard_natural_criteria():
    """Part B/A4 options the standard (and taiwanese) files choose, as their defaults say."""
    for rid in ("standard", "taiwanese"):
        hands = {str(h.kind): h for h in load_ruleset(rid).naturals.hands}
        assert hands["six-pairs"].six_pairs_counts == "any"
        assert hands["four-trips"].quads_as_trips is True
        assert hands["three-straights"].front_straight_ace == "low"


def test_equal_tiers_have_equal_values():
    """Same-tier naturals are worth the same (the clash rules read tiers)."""
    for rid in RULESET_IDS:
        compiled = load_ruleset(rid).compile()
        for tier in set(compiled.naturals[:, 3].tolist()):
            values = set(compiled.naturals[compiled.naturals[:, 3] == tier, 2].tolist())
            assert len(values) == 1, (rid, tier, values)


def test_compiled_params_follow_the_fields():
    """A few compiled scalars against the dataclass (the kernels read only these)."""
    hg = load_ruleset("hawaiian-gardens").compile().params
    assert hg[ks.P_SURRENDER_COST] == 3 and hg[ks.P_SURRENDER_ALLOWED] == 1
    assert (hg[ks.P_MAJORITY_UNITS], hg[ks.P_SWEEP_UNITS], hg[ks.P_HOME_RUN_UNITS]) == (1, 6, 9)
    for rid, cost in (("pagat-surrender", 1), ("standard", 2), ("taiwanese", 1)):
        rules = load_ruleset(rid)
        assert naive.surrender_cost(rules) == cost
    pool = load_ruleset("pagat-pool").compile().params
    assert pool[ks.P_SCALE] > 1
    for players in (2, 3, 4):  # every share of the pool is a whole number of 1/scale units
        for winners in range(1, players + 1):
            assert (pool[ks.P_SCALE] * 3 * players) % (3 * winners) == 0
    royalty = load_ruleset("pagat-middle").compile().royalty
    assert royalty[1, naive.CATEGORY_WORDS.index("quads")] == 5
    assert royalty[2, naive.CATEGORY_WORDS.index("quads")] == 4
    nat = load_ruleset("malayan").compile().naturals
    assert [NATURAL_KINDS[k] for k in nat[:, 0]][:3] == ["three-flushes", "three-straights", "six-pairs"]


# ---- sapsam rules ------------------------------------------------------------------------------

def test_cli_rules_lists_every_id():
    result = run("rules")
    assert result.exit_code == 0, result.output
    for rid in RULESET_IDS:
        assert rid in result.stdout
        assert load_ruleset(rid).name in result.stdout
    payload = json.loads(run("rules", "--json").stdout)
    assert list(payload) == list(RULESET_IDS)
    assert payload["hawaiian-gardens"] == load_ruleset("hawaiian-gardens").describe()


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_cli_rules_shows_one(rid, tmp_path):
    """``sapsam rules ID`` prints the ruleset in full as TOML, which loads back unchanged."""
    result = run("rules", rid)
    assert result.exit_code == 0, result.output
    data = tomllib.loads(result.stdout)
    assert data["id"] == rid
    path = tmp_path / "shown.toml"
    path.write_text(result.stdout)
    assert load_ruleset(path) == load_ruleset(rid)
    shown = json.loads(run("rules", rid, "--json").stdout)
    assert shown == as_dict(load_ruleset(rid))


def test_shown_toml_keeps_awkward_strings(tmp_path):
    """Quotes, backslashes, a newline and non-ASCII in a source survive ``sapsam rules`` and
    load back (written by tomli-w, not by hand)."""
    path = tmp_path / "odd.toml"
    path.write_text('id = "odd"\nname = "Odd \\"quoted\\" \\\\ name"\n'
                    'source = """two\nlines, Xáp Xám"""\nextends = "standard"\n', encoding="utf-8")
    rules = load_ruleset(path)
    assert "\n" in rules.source and '"' in rules.name
    shown = run("rules", str(path))
    assert shown.exit_code == 0, shown.output
    again = tmp_path / "again.toml"
    again.write_text(shown.stdout, encoding="utf-8")
    assert load_ruleset(again) == rules


def test_a_ruleset_is_immutable_hashable_and_compiled_once():
    a, b = load_ruleset("standard"), load_ruleset("standard")
    assert a == b and hash(a) == hash(b) and a != load_ruleset("two-four")
    assert a.compile() is b.compile()
    with pytest.raises(TypeError, match="cannot change"):
        a.royalties.back[Category.QUADS] = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.players = 3


# ---- malformed files ---------------------------------------------------------------------------

HEAD = 'id = "bad"\nname = "bad"\nsource = "test"\n'
MALFORMED = {  # name: (file text, key the message must name, further text it must hold)
    "unknown-key": (HEAD + 'extends = "basic"\n[scoring]\nsweeep_bonus = 1\n',
                    "scoring.sweeep_bonus", ["unknown key"]),
    "unknown-top-key": (HEAD + 'colour = "red"\n', "colour", ["unknown key"]),
    "wrong-type-int": (HEAD + 'players = "four"\n', "players", ["integer"]),
    "wrong-type-float": (HEAD + "[scoring]\nsweep_bonus = 1.5\n", "scoring.sweep_bonus", []),
    "wrong-type-table": (HEAD + "scoring = 3\n", "scoring", []),
    "wrong-type-list": (HEAD + '[naturals]\nhands = "dragon"\n', "naturals.hands", []),
    "wrong-type-string-bool": (HEAD + '[scoring]\noverall_point = "yes"\n', "scoring.overall_point", []),
    "wrong-type-string-int": (HEAD + 'players = "4"\n', "players", []),
    "out-of-range": (HEAD + "players = 5\n", "players", ["4"]),
    "unknown-enum": (HEAD + '[scoring]\nbase = "three-five"\n', "scoring.base",
                     ["per-row", "two-four", "one-six", "two-of-three"]),
    "unknown-game": (HEAD + '[scoring]\ngame = "tournament"\n', "scoring.game",
                     ["pairwise", "bank", "pool", "single-winner"]),
    "unknown-category": (HEAD + "[royalties]\nmiddle = { fullhouse = 2 }\n", "royalties.middle",
                         ["full-house", "straight-flush"]),
    "unknown-kind": (HEAD + '[naturals]\nhands = [{ kind = "dragonn", value = 3 }]\n',
                     "naturals.hands", ["dragon", "clean-dragon", "no-pictures"]),
    "unknown-option": (HEAD + '[naturals]\nhands = [{ kind = "six-pairs", value = 3, '
                              'six_pairs_counts = "some" }]\n', "naturals.hands",
                       ["six_pairs_counts", "strict", "quads-as-two", "any"]),
    "unknown-clash": (HEAD + '[naturals]\nclash = "winner-takes-all"\n', "naturals.clash",
                      ["higher-wins-full", "difference", "equal-tier-no-payment"]),
    "unknown-extends": (HEAD + 'extends = "no-such-ruleset"\n', "extends",
                        ["no-such-ruleset", "basic", "standard"]),
    "syntax": (HEAD + "[scoring]\nbase = per-row\n", "base", ["line 5"]),
    "missing-id": ('name = "n"\nsource = "s"\nextends = "basic"\n', "id", ["missing"]),
    # numbers out of range (issue 12, item 8): the value, the key and the range allowed
    "huge-royalty": (HEAD + "[royalties]\nback = { quads = 1e300 }\n", "royalties.back.quads",
                     ["= 1e+300 is out of range: use a whole number from 1 to 100"]),
    "huge-integer": (HEAD + "[pool]\nstake = 100000000000000000000\n", "pool.stake",
                     ["= 100000000000000000000 is out of range", "from 1 to 100"]),
    "negative-bonus": (HEAD + "[scoring]\nsweep_bonus = -1\n", "scoring.sweep_bonus",
                       ["= -1 is out of range: use a whole number from 0 to 100"]),
    "nan-natural": (HEAD + '[naturals]\nhands = [{ kind = "dragon", value = nan }]\n',
                    "naturals.hands.0.value", ["= nan is out of range", "from 0 to 1000"]),
    "huge-natural": (HEAD + '[naturals]\nhands = [{ kind = "dragon", value = 1001 }]\n',
                     "naturals.hands.0.value", ["= 1001 is out of range", "from 0 to 1000"]),
    "inf-multiplier": (HEAD + "[scoring]\nhome_run_multiplier = inf\n", "scoring.home_run_multiplier",
                       ["= inf is out of range: use a whole number from 1 to 10"]),
    "zero-multiplier": (HEAD + "[scoring]\nscoop_multiplier = 0\n", "scoring.scoop_multiplier",
                        ["from 1 to 10"]),
    "negative-surrender": (HEAD + '[surrender]\nmode = "fixed"\nunits = -inf\n', "surrender.units",
                           ["= -inf is out of range", "from 0 to 100"]),
    "huge-rake": (HEAD + "[extras]\nrake = 101\n", "extras.rake", ["101", "from 0 to 100"]),
    "huge-units": (HEAD + "[scoring]\nhome_run_units = 1e19\n", "scoring.home_run_units",
                   ["1e+19", "from 0 to 100"]),
    "bank-seat": (HEAD + "[bank]\nseat = 9\n", "bank.seat", ["= 9 is out of range", "from 0 to 3"]),
    "zero-single-units": (HEAD + '[single_winner]\nunits = 0\n', "single_winner.units",
                          ["from 1 to 100"]),
    "whole-float": (HEAD + "[pool]\nsweep_extra = 3.0\n", "pool.sweep_extra",
                    ["= 3.0 is not an integer: use a whole number from 0 to 100"]),
}


def write(tmp_path, name, text):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_file_names_file_and_key(tmp_path, case):
    text, key, more = MALFORMED[case]
    path = write(tmp_path, case, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    message = str(info.value)
    assert str(path) in message
    assert key in message, message
    for fragment in more:
        assert fragment in message, message


def test_out_of_range_message_is_one_line(tmp_path):
    """The whole message for a number out of range: file, key, value, what is allowed."""
    path = write(tmp_path, "huge", HEAD + 'extends = "standard"\n[royalties]\nback = { quads = 1e300 }\n')
    with pytest.raises(ValueError) as info:
        load_ruleset(path)
    assert str(info.value) == (f"{path}: key 'royalties.back.quads' = 1e+300 is out of range: "
                               "use a whole number from 1 to 100")


def test_cycle_of_extends(tmp_path):
    a = write(tmp_path, "a", 'id = "a"\nname = "a"\nsource = "s"\nextends = "b.toml"\n')
    write(tmp_path, "b", 'id = "b"\nname = "b"\nsource = "s"\nextends = "a.toml"\n')
    with pytest.raises(RulesetError) as info:
        load_ruleset(a)
    message = str(info.value)
    assert "extends" in message and "cycle" in message
    assert "a.toml" in message and "b.toml" in message
    selfish = write(tmp_path, "self", 'id = "s"\nname = "s"\nsource = "s"\nextends = "self.toml"\n')
    with pytest.raises(RulesetError, match="cycle"):
        load_ruleset(selfish)


def test_unknown_ruleset_id():
    with pytest.raises(RulesetError) as info:
        load_ruleset("no-such-ruleset")
    assert "no-such-ruleset" in str(info.value) and "standard" in str(info.value)


def test_inconsistent_ruleset(tmp_path):
    """Cross-field checks name what is wrong: a pool game with naturals."""
    path = write(tmp_path, "pool-naturals", HEAD + 'extends = "pagat-typical"\n[scoring]\ngame = "pool"\n')
    with pytest.raises(RulesetError, match="naturals"):
        load_ruleset(path)


@pytest.mark.parametrize("case", [c for c in sorted(MALFORMED) if "string" not in c] + ["cycle"])
def test_cli_bad_ruleset_file_exits_2_with_one_line(tmp_path, case):
    if case == "cycle":
        path = write(tmp_path, "a", 'id = "a"\nname = "a"\nsource = "s"\nextends = "b.toml"\n')
        write(tmp_path, "b", 'id = "b"\nname = "b"\nsource = "s"\nextends = "a.toml"\n')
    else:
        path = write(tmp_path, case, MALFORMED[case][0])
    result = run("score", "--rules", path, *C2)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    assert path.name in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "binary.toml").write_bytes(b"\xff\xfe garbage") and d / "binary.toml", "UTF-8"),
    (lambda d: (d / "folder.toml").mkdir() or d / "folder.toml", "it is a folder"),
    (lambda d: d / "missing.toml", "it does not exist"),
])
def test_cli_a_ruleset_file_that_is_not_one_is_named(tmp_path, make, words):
    """Not UTF-8, a folder, or no such file: one line naming the file and what is wrong with it
    (not "unknown ruleset", not Python's codec message)."""
    path = make(tmp_path)
    result = run("score", "--rules", str(path), *C2)
    assert result.exit_code == 2 and words in result.stderr and path.name in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_two_mistakes_still_one_line(tmp_path):
    """The command line's contract: bad input prints one line, however many mistakes."""
    path = write(tmp_path, "two", HEAD + 'colour = "red"\n[scoring]\nbase = "three-five"\n')
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert "colour" in str(info.value) and "scoring.base" in str(info.value)
    result = run("score", "--rules", path, *C2)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_cli_unknown_ruleset_id():
    result = run("score", "--rules", "no-such-ruleset", *C2)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "no-such-ruleset" in result.stderr
    result = run("rules", "no-such-ruleset")
    assert result.exit_code == 2


def test_cli_an_open_face_ruleset_is_refused_as_one(tmp_path):
    """An Open-Face ruleset where a 13-card one is wanted, by its id, by a file extending it or
    by a copy of its file: one line saying whose it is and where it goes (not 'unknown ruleset'
    with the 13-card ids, nor every key listed as unknown)."""
    from sapsam.ofc.game import OFC_DIR

    copy = tmp_path / "copy.toml"
    copy.write_text((OFC_DIR / "ofc-pineapple.toml").read_text())
    extending = write(tmp_path, "mine", 'extends = "ofc-pineapple"\n')
    for name in ("ofc-pineapple", str(extending), str(copy)):
        result = run("score", "--rules", name, *C2)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1, result.stderr
        assert "'ofc-pineapple' is a ruleset of Open-Face Chinese Poker: use it with 'sapsam ofc'" in lines[0]


# ---- user files extending a named id -------------------------------------------------------

USER = ('id = "my-two-four"\nname = "2-4 with the overall point"\nsource = "house rules"\n'
        'extends = "two-four"\n[scoring]\noverall_point = true\n')


def test_user_file_extends_named_id(tmp_path):
    path = write(tmp_path, "mine", USER)
    rules = load_ruleset(path)
    base = load_ruleset("two-four")
    assert rules.id == "my-two-four" and rules.name == "2-4 with the overall point"
    assert rules.scoring.base == base.scoring.base and rules.scoring.overall_point
    assert rules.defaults == ()  # provenance is not inherited
    assert rules.players == base.players and rules.fouls == base.fouls
    compiled = rules.compile()
    assert compiled.params[ks.P_OVERALL_POINT] == 1


def test_user_file_scores_like_an_id(tmp_path):
    """C2 under 2-4 pays 2; with the overall point 3 (load, API, array API and CLI)."""
    path = write(tmp_path, "mine", USER)
    assert score.score_showdown("two-four", C2).totals == [2, -2]
    assert score.score_showdown(str(path), C2).totals == [3, -3]
    assert score.score_showdown(path, C2).totals == [3, -3]
    assert score.score_showdown(load_ruleset(path), C2).totals == [3, -3]
    rows = np.array([[score.Declaration.parse(d).rows() for d in C2]], np.int16)
    assert score.settle_tables(str(path), rows).tolist() == [[3, -3]]
    assert score.points_scale(str(path)) == 1
    result = run("score", "--json", "--rules", path, *C2)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["rules"] == "my-two-four" and payload["totals"] == [3, -3]
    shown = run("rules", path)
    assert shown.exit_code == 0 and 'id = "my-two-four"' in shown.stdout
    assert "overall_point = true" in shown.stdout


def test_user_file_chain_and_relative_extends(tmp_path):
    """A file extending another file (path relative to it), which extends a named id;
    tables merge key by key, arrays are replaced whole."""
    sub = tmp_path / "sub"
    sub.mkdir()
    write(sub, "mine", USER)
    path = write(sub, "more", 'id = "more"\nname = "m"\nsource = "s"\nextends = "mine.toml"\n'
                              '[scoring]\nsweep_bonus = 2\n'
                              '[naturals]\nhands = [{ kind = "dragon", value = 13 }]\n')
    rules = load_ruleset(path)
    assert rules.scoring.overall_point and rules.scoring.sweep_bonus == 2
    assert str(rules.scoring.base) == "two-four"
    assert [str(h.kind) for h in rules.naturals.hands] == ["dragon"]
    extra = write(sub, "extra", 'id = "x"\nname = "x"\nsource = "s"\nextends = "standard"\n'
                                '[naturals]\nhands = [{ kind = "no-pictures", value = 3 }]\n'
                                '[royalties]\nfront = { pair = 1 }\n')
    rules = load_ruleset(extra)
    assert [str(h.kind) for h in rules.naturals.hands] == ["no-pictures"]
    assert {str(k): v for k, v in rules.royalties.front.items()} == {"trips": 3, "pair": 1}
    assert str(rules.naturals.clash) == "higher-wins-full"


# ---- bounds: no legal ruleset overflows the int64 sums ------------------------------------------

def test_bounds_keep_int64_sums_exact():
    """The worst points of a seat in one hand, squared, over 1e10 hands, fit in an int64 (with
    room to spare); every named ruleset is well inside the bounds."""
    assert mechanisms.WORST_POINTS ** 2 * 10 ** 10 < 2 ** 62
    assert mechanisms.VALUE_MAX == 100 and mechanisms.NATURAL_MAX == 1000
    assert mechanisms.MULTIPLIER_MAX == 10
    for rid in RULESET_IDS:
        compiled = load_ruleset(rid).compile()
        assert compiled.royalty.max() <= mechanisms.VALUE_MAX
        assert compiled.naturals[:, 2].max(initial=0) <= mechanisms.NATURAL_MAX


ROYALTY_CATEGORIES = ("high-card", "pair", "two-pair", "trips", "straight", "flush", "full-house",
                      "quads", "straight-flush")


def extreme_toml(game="pairwise", base="per-row", mode="extra", when="winner", overall=True,
                 clash="difference", surrender="fixed", aces=True, chips=False, rake=0):
    """A ruleset with every number at its bound (multipliers, units, royalties of every row
    and category, naturals, stakes), the switches as given."""
    v, m, nat = mechanisms.VALUE_MAX, mechanisms.MULTIPLIER_MAX, mechanisms.NATURAL_MAX
    rows_only = game in ("pool", "single-winner")  # these games take no royalties, naturals...
    text = (HEAD + f'players = 4\n[scoring]\ngame = "{game}"\nbase = "{base}"\n'
            f"sweep_bonus = {v}\noverall_point = {str(overall).lower()}\n"
            f"scoop_multiplier = {m}\nhome_run_multiplier = {m}\n"
            f"majority_units = {v}\nsweep_units = {v}\nhome_run_units = {v}\n"
            f"[pool]\nstake = {v}\nsweep_takes_all = true\nsweep_extra = {v}\n"
            f"[single_winner]\nunits = {v}\n"
            f"[extras]\nrake = {rake}\naces_bet = {str(aces and not rows_only).lower()}\n"
            f"chip_limited = {str(chips and not rows_only).lower()}\n")
    if rows_only:
        return text
    tables = {row: ", ".join(f"{c} = {v}" for c in ROYALTY_CATEGORIES
                             if row != "front" or c in ("high-card", "pair", "trips"))
              for row in ("front", "middle", "back")}
    hands = ", ".join(f'{{ kind = "{k}", value = {nat} }}' for k in NATURAL_KINDS)
    return (text + f'[royalties]\nmode = "{mode}"\nwhen = "{when}"\n'
            + "".join(f"{row} = {{ {t} }}\n" for row, t in tables.items())
            + f'[naturals]\nclash = "{clash}"\nhands = [{hands}]\n'
            + f'[surrender]\nmode = "{surrender}"\nunits = {v if surrender == "fixed" else 0}\n')


@pytest.fixture(scope="module")
def extreme_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("extreme")


def load_extreme(directory, **switches):
    path = directory / ("x-" + "-".join(f"{k}{v}" for k, v in sorted(switches.items())) + ".toml")
    path.write_text(extreme_toml(**switches))
    return load_ruleset(path)


def seat_of(text):
    """naive.Seat from 'front | middle | back'."""
    front, middle, back = (tuple(naive.cards(part)) for part in text.split("|"))
    return naive.Seat(front, middle, back)


HOME_RUN = ["As Ah Ad | 9s 8s 7s 6s 5s | Kh Qh Jh Th 9h",  # trips, two straight flushes, 3 aces
            "2c 3d 4c | 5c 6d 7c 8d Tc | Jc Jd Qc Qd 2d",
            "2h 3h 4d | 5d 6h 7d 8h Td | Kc Kd 3c 4s 2s",
            "Ac 5h 4h | 9c 9d 8c 7h 6c | Ks Qs Js Ts 3s"]


@pytest.mark.parametrize("base", ["per-row", "two-four", "one-six", "two-of-three"])
def test_home_run_at_the_bounds_is_zero_sum_and_within_the_worst(extreme_dir, base):
    """Close to the worst hand the bounds allow: a home run with three royalty rows and every
    multiplier, unit and royalty at its maximum.  Exact (as naive Python integers), zero-sum,
    and within WORST_POINTS."""
    rules = load_extreme(extreme_dir, base=base)
    result = score.score_showdown(rules, HOME_RUN)
    v, m = mechanisms.VALUE_MAX, mechanisms.MULTIPLIER_MAX
    rows = v if base == "two-of-three" else 3 + {"two-four": 1, "one-six": 3}.get(base, 0)
    per_opponent = m * (rows + 3 * v + v + 1)  # rows, royalties, sweep bonus, overall point
    aces = 3 * 6 - 2 * 0 - 1  # 3 aces (6) against 0, 0 and 1 ace (1)
    assert result.totals[0] == 3 * per_opponent + aces
    assert sum(result.totals) == 0
    assert max(map(abs, result.totals)) <= mechanisms.WORST_POINTS
    if base == "two-of-three":
        assert result.totals[0] > 0.99 * mechanisms.WORST_POINTS  # the bound is not loose
    assert naive.settle(rules, [seat_of(t) for t in HOME_RUN]) == result.points.tolist()


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["pairwise", "bank", "pool", "single-winner"]),
       base=st.sampled_from(["per-row", "two-four", "one-six", "two-of-three"]),
       royalties=st.sampled_from([("extra", "winner"), ("extra", "always"), ("instead", "winner")]),
       overall=st.booleans(), clash=st.sampled_from(["higher-wins-full", "difference",
                                                     "equal-tier-no-payment"]),
       surrender=st.sampled_from(["none", "two-rows", "fixed"]), aces=st.booleans(),
       chips=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_rulesets_at_the_bounds_stay_zero_sum(extreme_dir, game, base, royalties, overall, clash,
                                              surrender, aces, chips, seed):
    """Any ruleset with its numbers at the bounds, on random tables (royalty rows, naturals,
    surrenders, fouls, 2-4 players): the kernel's int64 points equal the naive scorer's Python
    integers, every table sums to zero and no seat passes WORST_POINTS."""
    from test_settle import kernel_settle, random_table

    mode, when = royalties
    if base == "two-of-three" and mode == "instead":
        mode = "extra"  # two-of-three pays no unit per row for a royalty to replace
    rules = load_extreme(extreme_dir, game=game, base=base, mode=mode, when=when, overall=overall,
                         clash=clash, surrender=surrender, aces=aces, chips=chips)
    rng = np.random.default_rng(seed)
    for n in (2, 3, 4):
        tables = [random_table(rng, rules, n) for _ in range(20)]
        got = kernel_settle(rules, tables, parallel=False)
        for t, (seats, bank, stacks) in enumerate(tables):
            want = naive.settle(rules, seats, bank, stacks)
            assert got[t].tolist() == want
            assert sum(want) == 0
            assert max(map(abs, want)) <= mechanisms.WORST_POINTS


def test_rake_is_the_only_leak(extreme_dir):
    """With a rake at its bound the seats pay exactly players x rake to the house."""
    rules = load_extreme(extreme_dir, rake=mechanisms.VALUE_MAX)
    result = score.score_showdown(rules, HOME_RUN)
    assert sum(result.totals) == -4 * mechanisms.VALUE_MAX
    assert max(map(abs, result.totals)) <= mechanisms.WORST_POINTS


def test_chip_stacks_are_bounded():
    with pytest.raises(ValueError, match="from 0 to 1000000000"):
        score.score_showdown("basic", C2, chips=[10 ** 30, 5])
    assert score.score_showdown("basic", C2, chips=[score.CHIPS_MAX, 0]).totals == [0, 0]
