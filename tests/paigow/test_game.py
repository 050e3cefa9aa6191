"""Pai Gow tiles (issue 19): the seed page's worked examples, the kernel against a plain-Python
reference, the exact table's invariants, the published figures, the house way's rules and the
command line's answers to bad input."""

import json
import re
import subprocess
from itertools import combinations

import numpy as np
import pytest
import terminal

from sapsam.paigow import measure as exact
from sapsam.paigow.game import hand_text, parse_tiles
from sapsam.paigow.kernels import FACES, HANDS, MASKS, N_BANKER, N_HANDS, PAIR_BASE, strength
from sapsam.paigow.output import PUBLISHED
from sapsam.paigow.strategy import foxwoods, high_three
from tests.paigow import reference as ref


def s(text):
    """The strength of a two-tile hand written as text."""
    a, b = parse_tiles(text, count=2)
    return int(strength(a, b))


def points(text):
    value = s(text)
    return value // 16 if value < PAIR_BASE else None


# ---- the seed page's rules ("Chinese Gambling Game", shared/seeds/) ----------------------------

@pytest.mark.parametrize("hand, expected", [
    ("1-3 2-3", 9),   # four plus five is nine
    ("2-3 5-6", 6),   # sixteen drops the ten
    ("5-5 4-6", 0),   # twenty is zero
    ("1-1 3-5", 10), ("6-6 2-6", 10), ("6-6 4-4", 10),  # gong: a day or teen with an eight
    ("1-1 4-5", 11), ("6-6 3-6", 11),  # wong: with a nine
    ("1-1 5-5", 2), ("6-6 4-6", 2),    # with a ten only two, not twelve
    ("1-2 5-6", 7),   # Gee Joon counts 3 or 6, whichever scores more
    ("2-4 1-6", 3),
])
def test_points(hand, expected):
    assert points(hand) == expected


def test_pairs_beat_every_other_hand_and_rank_by_the_chart():
    assert s("1-2 2-4") > s("6-6 6-6") > s("1-1 1-1") > s("4-4 4-4")  # Gee Joon pair highest
    assert s("5-5 5-5") > s("2-2 2-2")  # the page's example
    assert s("1-4 2-3") > s("6-6 4-5")  # the lowest pair (mixed fives) beats a wong
    assert s("4-5 3-6") == s("4-5 3-6")
    assert hand_text(s("4-5 3-6")) == "nine pair"


def test_ties_go_by_the_highest_tile_and_copies_to_the_banker():
    # the page's example: 3-4 with 2-2 against 5-6 with 5-5, both one point; 5-5 outranks 2-2
    assert points("3-4 2-2") == points("5-6 5-5") == 1
    assert s("5-6 5-5") > s("3-4 2-2")
    # a true tie: the high tiles of one pair (the mixed nines alike) is a copy
    assert points("4-5 1-4") == points("3-6 2-3") == 4 and s("4-5 1-4") == s("3-6 2-3")
    # Gee Joon has no value in ties: 3-4 with Gee Joon makes 3, and loses to 1-4 with 2-6
    assert points("3-4 1-2") == points("1-4 2-6") == 3
    assert s("1-4 2-6") > s("3-4 1-2")
    # zero-zero goes to the banker, whatever the tiles
    assert s("5-5 4-6") == s("1-3 1-5") == 0


def test_the_kernel_agrees_with_the_reference_on_every_two_hands():
    faces = [tuple(sorted(int(x) for x in f)) for f in FACES]
    hands = list(combinations(range(32), 2))
    ours = np.array([int(strength(a, b)) for a, b in hands])
    for i, (a, b) in enumerate(hands):
        mine = (faces[a], faces[b])
        theirs = [ref.beats(mine, (faces[c], faces[d])) for c, d in hands]
        assert list(ours[i] > ours) == theirs, (faces[a], faces[b])


# ---- exact enumeration ------------------------------------------------------------------------

def test_the_hands_and_their_weights():
    reps, weights, rep_of = exact.distinct_hands()
    assert len(HANDS) == N_HANDS == 35960 and len(reps) == 3620  # as the literature counts
    assert weights.sum() == N_HANDS and (np.bincount(rep_of) == weights).all()


@pytest.mark.parametrize("text", ["6-6 1-1 4-2 5-3", "1-2 2-4 5-6 4-6", "3-4 2-5 1-5 1-4"])
def test_exact_counts_agree_with_the_reference(text):
    """Every banker hand of the 28 tiles left, compared by the reference's rules."""
    tiles = parse_tiles(text)
    faces = [tuple(sorted(int(x) for x in f)) for f in FACES]
    house = exact.house_way()
    counts = np.zeros((3, 3), int)
    mine = [ref.ordered(x) for x in ref.settings([faces[t] for t in tiles])]
    used = sum(1 << t for t in tiles)
    for j in np.flatnonzero((MASKS & used) == 0):
        banker = ref.ordered(ref.settings([faces[t] for t in HANDS[j]])[house[j]])
        for k, (lo, hi) in enumerate(mine):
            won = ref.beats(lo, banker[0]) + ref.beats(hi, banker[1])
            counts[k, 2 - won] += 1
    assert counts.sum() == 3 * N_BANKER
    got = {(c.win, c.push, c.loss) for c in exact.best(tiles)}
    want = {tuple(row / N_BANKER) for row in counts}
    assert got <= want and len(got) >= 2


def test_the_table_adds_up_and_banking_mirrors_not_banking():
    rows = {(r.strategy, r.banking, r.commission): r for r in exact.house_edge_table()}
    for r in rows.values():
        assert r.win + r.push + r.loss == pytest.approx(1, abs=1e-12)
    plain, bank = rows[("house way", False, 0.05)], rows[("house way", True, 0.05)]
    # both sides play the house way: banking swaps the winner of everything but the copies
    assert bank.win >= plain.loss and bank.loss <= plain.win
    assert bank.win - plain.loss == pytest.approx(plain.win - bank.loss, abs=1e-12)
    for banking in (False, True):  # the best strategy is at least as good as the house way
        best, house = rows[("optimal", banking, 0.05)], rows[("house way", banking, 0.05)]
        assert best.house_edge < house.house_edge


def test_the_published_figures():
    """Wizard of Odds' table (house way against house way, and optimal against it).  With the
    booklet's line for "lower than a high 3" (a 3 topped by a high 6), the house way's edge
    agrees to 0.03 points and its push rate is 0.36 lower; drawn between the gor and the yun,
    every house-way figure agrees to 0.015 points, which is where the published program
    draws it.  The best strategy's edge stays about 0.1 below the published one (README,
    "Pai Gow tiles").  The tolerances are the measured gaps, rounded up."""
    rows = {(r.strategy, r.banking, r.commission): r for r in exact.house_edge_table()}
    house = rows[("house way", False, 0.05)]
    assert 100 * house.house_edge == pytest.approx(2.44, abs=0.03)
    assert 100 * rows[("house way", True, 0.05)].house_edge == pytest.approx(0.53, abs=0.05)
    assert 100 * house.push == pytest.approx(40.61, abs=0.4)
    assert 100 * rows[("optimal", False, 0.05)].house_edge == pytest.approx(1.67, abs=0.15)
    assert 100 * rows[("optimal", True, 0.05)].house_edge == pytest.approx(-0.20, abs=0.15)
    line = exact.house_edge_table("yun")  # a 3 topped by the yun or better is a high 3
    published = {(r.strategy, r.banking, r.commission): r for r in line}
    for banking, win, loss, push, edge in ((False, 29.21, 30.18, 40.61, 2.44),
                                           (True, 30.18, 29.21, 40.61, 0.53)):
        r = published[("house way", banking, 0.05)]
        got = 100 * np.array([r.win, r.loss, r.push, r.house_edge])
        assert np.abs(got - [win, loss, push, edge]).max() < 0.015, got
    assert 100 * published[("optimal", False, 0.05)].house_edge == pytest.approx(1.67, abs=0.1)


def gaps(high_three):
    """{(strategy, banking, commission): ours - published, percentage points, as (win, loss,
    push, house edge)} for the house way's high 3 topped by ``high_three``."""
    out = {}
    for r in exact.house_edge_table(high_three):
        key = (r.strategy, r.banking, r.commission)
        out[key] = 100 * np.array([r.win, r.loss, r.push, r.house_edge]) - PUBLISHED[key]
    return out


def test_the_high_three_line_reads_either_tile():
    """The booklet's "High 6" as the chong (3-3) or the teen (6-6): the lines at a 3 topped
    by each, by any of its names; the two house ways differ only on hands whose best low is a
    3 topped by a tile from the chong to the day."""
    assert high_three() == high_three("chong") == high_three("3-3") == high_three("high-six")
    assert high_three("teen") == high_three("6-6") == high_three() + 5
    booklet, teen = exact.house_way(), exact.house_way("teen")
    moved = np.flatnonzero(booklet != teen)
    assert 0 < len(moved) < N_HANDS // 10
    low = exact.strengths()[np.arange(N_HANDS), :, 0].max(axis=1)[moved]
    assert ((low >= high_three()) & (low < high_three("teen"))).all()
    with pytest.raises(ValueError, match="unknown tile 'dragon'"):
        exact.house_edge_table("dragon")


def test_the_teen_reading_against_the_published_table():
    """Issue 40 (item 5) reports that an independent computation reproduces all eight
    published rows to 0.01 points when the "High 6" is the teen.  sapsam's engine does not:
    with the teen, every house-way edge agrees to 0.015 points, but its push rate is 0.12
    above the published one (the line moves too many hands to the high hand), and the best
    strategy's edge stays 0.08 to 0.09 below it (1.59% against 1.67% not banking).  The booklet's
    chong is further off on the house way (push 0.36 below), the yun line between them
    nearest (0.015 on every house-way figure).  What is left is the best strategy's edge,
    whichever line: RULES.md, D4.  The tolerances are the measured gaps, rounded up."""
    teen, chong, yun = gaps("teen"), gaps("chong"), gaps("yun")
    house = [key for key in teen if key[0] == "house way"]
    best = [key for key in teen if key[0] == "optimal"]
    assert max(abs(teen[key][3]) for key in house) < 0.015
    assert all(0.11 < teen[key][2] < 0.13 for key in house)
    assert all(-0.1 < teen[key][3] < -0.07 for key in best)
    worst = {name: max(np.abs(g[key]).max() for key in g)
             for name, g in (("teen", teen), ("chong", chong), ("yun", yun))}
    assert 0.2 < worst["teen"] < 0.22 and worst["yun"] < worst["teen"] < worst["chong"]
    assert max(np.abs(yun[key]).max() for key in house) < 0.015


def test_the_pair_chart_agrees_with_the_booklet_where_it_should():
    """The best play never splits 4s, 10s or 11s (the booklet's rule A), and splits the teen
    pair from 6/8 up (its rule C), as the one-line rules of the strategy chart say."""
    from sapsam.paigow.output import hands_frame, pair_chart

    rules = {row["pair"]: row for row in pair_chart(hands_frame())}
    for never in ("gor", "bon", "mooy", "ping", "foo"):
        assert rules[never]["split to make"] == "" and rules[never]["cost"] == 0
    assert "6/8" in rules["teen"]["split to make"]
    assert sum(row["share"] for row in rules.values()) < 0.5


def test_the_wong_gong_chart():
    """A wong, gong or high nine that leaves a low of 0, 1, 8 or 9 points is always made; one
    that leaves 4 points is mostly not: balancing pays there."""
    from sapsam.paigow.output import hands_frame, special_table

    table = {low: (share, made) for low, share, made in special_table(hands_frame())}
    assert all(table[low][1] == 1 for low in (0, 1, 8, 9))
    assert table[4][1] < 0.5
    assert 0.2 < sum(share for share, _ in table.values()) < 0.35  # hands with a 2/12 and 7-9


# ---- the Foxwoods house way ---------------------------------------------------------------------

def chosen(text):
    """The house way's (low, high) hands of four tiles, as strengths."""
    tiles = parse_tiles(text)
    k, rule = foxwoods(tiles)
    low, high = exact.strengths()[list(map(tuple, HANDS)).index(tuple(tiles))][k]
    return hand_text(low), hand_text(high), rule


@pytest.mark.parametrize("text, low, high, rule", [
    ("1-3 1-3 6-6 4-5", "wong (teen)", "gor pair", "pair rule A"),
    ("1-2 2-4 4-6 5-6", "6 (high ping)", "7 (high foo)", "pair rule B"),
    ("6-6 6-6 4-5 5-6", "3 (high teen)", "wong (teen)", "pair rule C"),
    ("4-5 3-6 6-6 5-5", "9 (high mooy)", "wong (teen)", "pair rule D"),
    ("6-6 1-6 4-5 1-5", "5 (high look)", "9 (high teen)", "high nine over gong over wong"),
    ("6-6 1-6 4-5 5-6", "8 (high foo)", "wong (teen)", "the fourth tile is an 11"),
    ("6-6 2-6 4-5 1-3", "3 (high gor)", "gong (teen)", "gong over high nine"),
])
def test_house_way_rules(text, low, high, rule):
    got_low, got_high, why = chosen(text)
    assert rule in why
    assert (got_low, got_high) == (low, high)


# ---- the command line ---------------------------------------------------------------------------

def sapsam(*args):
    return subprocess.run([terminal.sapsam(), "paigow", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args, words", [
    (["best", "6-6 6-6 6-6 1-1"], "more times than the set"),
    (["best", "6-6 1-1 4-2"], "3 tiles given"),
    (["best", "6-6 1-1 4-2 7-1"], "unknown tile '7-1'"),
    (["best", "teen day dragon nine"], "unknown tile 'dragon'"),
    (["best", "teen nine nine nine"], "more times"),
    (["best", "6-6 1-1 2-1 2-1 2-1"], "5 tiles given"),  # the size first, then the tiles
    (["best", "teen day nine eight", "--commission", "1.5"], "--commission"),
    (["table", "--high-three", "dragon"], "unknown tile 'dragon' for the house way's high 3"),
])
def test_bad_input_is_one_line_and_status_2(args, words):
    run = sapsam(*args)
    assert run.returncode == 2, run.stderr
    assert words in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_best_and_table_as_json():
    best = json.loads(sapsam("best", "teen day gee joon eight", "--json").stdout)
    assert [x["tiles"] for x in (best["settings"][0]["low"], best["settings"][0]["high"])] \
        == [["1-1", "2-1"], ["6-6", "5-3"]]  # "gee joon" is the first free one, 1-2
    assert best["settings"][0]["best"] and best["settings"][0]["house_way"]
    values = [x["value"] for x in best["settings"]]
    assert values == sorted(values, reverse=True) and len(values) == 3
    table = json.loads(sapsam("table", "--json").stdout)
    assert len(table["rows"]) == 8 and "wizardofodds" in table["source"]
    assert table["high_three"] == "chong"
    teen = json.loads(sapsam("table", "--high-three", "6-6", "--json").stdout)
    assert teen["high_three"] == "teen"
    assert [r["push"] for r in teen["rows"]] == [r.push for r in exact.house_edge_table("teen")]


@pytest.mark.parametrize("tiles, columns, marks, note", [
    ("6-6 1-1 4-2 5-3", 80, ["best, house way"], None),  # short names: the whole table fits
    ("2-1 4-2 6-6 1-1", 80, ["best, house way"], "the hands' names in a wider terminal"),
    ("2-1 4-2 6-6 1-1", 60, ["b, h"], "b: the best setting, h: the house way's; the hands' names and push %"),
])
def test_best_in_a_terminal_gives_up_only_what_it_must(tiles, columns, marks, note):
    """``paigow best`` gives up the hands' names first (their words, then all), then the marks'
    words (b, h), then push %, as the terminal's width asks: nothing cut to an ellipsis at 80 or
    60 columns (a gee-joon pair's long name cut every cell at 80)."""
    run = terminal.in_terminal("paigow", "best", tiles, columns=columns)
    assert run.status == 0, run.out
    lines = run.out.strip().splitlines()
    assert max(len(line) for line in lines) <= columns and "…" not in run.out, run.out
    rows = [line.rstrip() for line in lines if re.match(r"\d-\d \d-\d", line)]
    assert [row.rsplit("   ", 1)[1] for row in rows if not row[-1].isdigit()] == marks, run.out
    text = " ".join(run.out.split())
    assert (note in text) if note else ("wider terminal" not in text), run.out
