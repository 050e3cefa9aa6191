"""The strategy chart (issue 40, part 4): every departure's cost is the exact gap ``best``
reports for that hand, the parts add up to each house way's cost, a known hand departs as
the plain-Python reference says, the files and the command; small decks, so that no house
way's table is needed (the slow tests use the whole deck)."""

import json

import click
import numpy as np
import pandas as pd
import pytest
import terminal

import sapsam
from sapsam.paigow_poker.game import Rules, parse_hand
from sapsam.paigow_poker.measure.exact import legal_settings
from sapsam.paigow_poker.output import chart_files
from sapsam.paigow_poker.output import departures as chart
from sapsam.paigow_poker.strategy import house_way
from tests.paigow_poker import reference as ref
from tests.paigow_poker.test_best import DECK, dealer_settings


@pytest.fixture(scope="module")
def answer():
    return chart.chart_answer("foxwoods,harrahs-reno", hands=30, seed=1, deck=DECK)


def test_every_departure_is_the_gap_best_reports(answer):
    """Each sampled hand again through ``best`` on the same deck: the chart's departing hands
    are exactly those whose house way gives something up, at the same cost."""
    hands = list(chart.sample_hands(30, seed=1, deck=parse_hand(DECK, 25, "deck")))
    for w in answer["house_ways"]:
        gaps = {}
        for hand in hands:
            one = sapsam.paigow_poker.best(chart.format_cards(hand),
                                           house_way=w["house_way"]["id"], deck=DECK)
            gaps[one.cards] = one.house_way_gives_up
        departing = {d["cards"]: d["cost"] for d in w["departing_hands"]}
        assert departing == {c: g for c, g in gaps.items() if g > 0}
        assert w["departures"] == len(departing) > 0  # the check is not empty
        assert all(d["cost"] > 0 and d["move"] for d in w["departing_hands"])


def test_the_parts_add_up_to_the_cost_per_hand(answer):
    for w in answer["house_ways"]:
        costs = [d["cost"] for d in w["departing_hands"]]
        assert w["cost_per_hand"] == pytest.approx(sum(costs) / w["hands"])
        assert sum(r["cost_per_hand"] for r in w["rows"]) == pytest.approx(w["cost_per_hand"])
        assert sum(r["departures"] for r in w["rows"]) == w["departures"]
        assert sum(g["hands"] for g in w["by_group"]) == w["hands"] == 30
        assert sum(g["cost_per_hand"] for g in w["by_group"]) == pytest.approx(w["cost_per_hand"])
        for r in w["rows"]:
            assert r["share_low"] <= r["share"] <= r["share_high"]
            assert r["cost_per_departure"] == pytest.approx(r["cost_per_hand"] * w["hands"] / r["departures"])
            assert r["example_cost"] >= r["cost_per_departure"]
        # the 95% half-width of the cost per hand: Student's t over all the hands (29 degrees
        # of freedom: 2.045 standard errors, not the normal's 1.96)
        padded = costs + [0.0] * (w["hands"] - len(costs))
        assert w["half_width"] == pytest.approx(2.04523 * np.std(padded, ddof=1) / np.sqrt(w["hands"]), rel=1e-5)


def test_a_known_departure_against_the_reference():
    """Two pair, kings and nines, with the joker and four diamonds: Foxwoods splits kings
    (one pair behind, nines in front); the best play keeps the joker's flush behind.  Both
    settings' values from meeting every dealer hand of the deck one at a time in plain Python."""
    rules, way = Rules(), house_way("foxwoods")
    hand, deck = parse_hand("Jk Kd Ks 9d 9h 8d 2d"), parse_hand(DECK, 25, "deck")
    d = chart.depart(hand, way, rules, deck=deck)
    assert d.group == "two pair, straight or flush, joker"
    assert d.house[2].startswith("one pair") and d.house[3] == "pair of nines"
    assert d.best[2].startswith("flush") and d.move.startswith("keeps the flush behind")
    dealer = dealer_settings(hand, deck, way, rules)
    settings, _ = legal_settings(hand, rules)
    worth = {}
    for high, low, high_cards, _ in settings:
        win, push, loss = ref.outcomes(high, low, dealer, False)
        worth[chart.format_cards(high_cards)] = (0.95 * win - loss) / len(dealer)
    assert d.cost == pytest.approx(max(worth.values()) - worth[d.house[0]], abs=1e-12) and d.cost > 0
    assert worth[d.best[0]] == max(worth.values())


def test_a_hand_the_house_way_sets_best_does_not_depart():
    d = chart.depart(parse_hand("As Ah Kd Qs Jh 9d 8s"), house_way("foxwoods"), Rules(),
                     deck=parse_hand(DECK, 25, "deck"))
    assert d.cost == 0 and not d.departs and d.move == "" and d.best == d.house


def test_the_files(tmp_path, answer):
    path = chart_files.write_chart(answer, tmp_path)
    assert path == tmp_path / "chart.md"
    frame = pd.read_csv(tmp_path / "chart.csv")
    hands = pd.read_csv(tmp_path / "chart-departures.csv")
    for w in answer["house_ways"]:
        mine = frame[frame.house_way == w["house_way"]["id"]]
        assert mine.departures.sum() == w["departures"] == (hands.house_way == w["house_way"]["id"]).sum()
        assert mine.cost_per_hand_pts.sum() == pytest.approx(100 * w["cost_per_hand"], rel=1e-4)
    text = path.read_text()
    assert "| Foxwoods | 30 |" in text and "| Harrah's Reno | 30 |" in text
    saved = json.loads((tmp_path / "chart.json").read_text())
    assert saved["provenance"]["hands"] == 30 and (tmp_path / "chart.png").stat().st_size > 1000


def test_the_command_and_the_api_agree():
    run = terminal.piped("paigow-poker", "chart", "--hands", "6", "--seed", "2", "--deck", DECK,
                         "--house-way", "canterbury-park", "--banking", "--json")
    assert run.status == 0, run.err
    api = chart.chart_answer("canterbury-park", hands=6, seed=2, banking=True, deck=DECK)
    assert json.loads(run.out) == json.loads(json.dumps(api))


@pytest.mark.parametrize("args, words", [
    (["--house-way", "nowhere"], "unknown house way 'nowhere'"),
    (["--house-way", "foxwoods,,harrahs-reno"], "an empty name"),
    (["--hands", "1"], "Invalid value for '--hands': 1 is not in the range 2<=x<=1000000"),  # no interval
    (["--hands", "-3"], "Invalid value for '--hands': -3 is not in the range 2<=x<=1000000"),
    (["--deck", "Jk As Kd"], "a deck needs at least 14 cards"),
    (["--commission", "2"], "--commission"),
])
def test_bad_input_is_one_line_and_status_2(args, words):
    run = terminal.piped("paigow-poker", "chart", *args)
    assert run.status == 2, run.err
    assert words in run.err and "Traceback" not in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_hands_as_cost_and_best_play_take_them():
    """At least two hands (one hand's cost has no interval), the type of ``cost``'s --hands,
    its range shown in --help as theirs is."""
    from sapsam.paigow_poker.cli import paigow_poker_command

    def hands(command):
        return next(p.type for p in paigow_poker_command.commands[command].params if p.name == "hands")

    assert isinstance(hands("chart"), click.IntRange) and hands("chart").to_info_dict() == hands("cost").to_info_dict()
    assert hands("chart").min == hands("best-play").min == 2
    run = terminal.piped("paigow-poker", "chart", "--help")
    assert "[default: 600; 2<=x<=1000000]" in " ".join(run.out.split()), run.out


def test_the_api_refuses_no_hands():
    with pytest.raises(ValueError, match="hands must be at least 1"):
        sapsam.paigow_poker.chart(hands=0)
    with pytest.raises(ValueError, match="unknown house way"):
        sapsam.paigow_poker.chart("nowhere", hands=1)


def test_the_chart_in_a_terminal_80_columns_wide():
    run = terminal.in_terminal("paigow-poker", "chart", "--hands", "30", "--seed", "1", "--deck", DECK,
                               columns=80)
    assert run.status == 0, run.out
    assert max(len(line) for line in run.out.splitlines()) <= 80, run.out
    assert "Foxwoods: the best play departs" in run.out


@pytest.mark.slow
def test_the_whole_deck_the_same_hands_as_cost():
    """On the whole deck (the house way's table): the chart's cost per hand is ``cost``'s mean
    gap on the same seed, and the Foxwoods pair exception's known departure (an ace and jacks
    beside a flush: the house way breaks the flush) is found."""
    answer = sapsam.paigow_poker.chart(hands=8, seed=5)
    cost = sapsam.paigow_poker.house_way_cost(hands=8, seed=5)
    w = answer["house_ways"][0]
    assert w["cost_per_hand"] == pytest.approx(cost["mean_gap"], abs=1e-12)
    d = chart.depart(parse_hand("As Qd Js Jd 9d 4d 2d"), house_way("foxwoods"), Rules())
    assert d.group == "one pair, straight or flush" and d.cost > 0
    assert d.move.startswith("keeps the flush behind") and d.house[3] == "A-Q"


# 15 cards with the joker, straights and flushes: 6,435 hands of seven, each against 8 dealer hands
SMALL = "Jk As Ks Qs Js Ts Ah Kh Qh 9h Ad Kd 8d 5c 4c"


def exact_on_small_deck(way, banking):
    """The house way against itself and the best play against it on :data:`SMALL`, exactly:
    every hand of seven, every legal setting valued against every dealer hand of the 8 cards
    left, each met one at a time in plain Python (the reference's outcomes).  Returns both
    house edges."""
    from itertools import combinations

    from sapsam.paigow_poker.measure.exact import house_setting_of

    rules, deck = Rules(), parse_hand(SMALL, 15, "deck").tolist()
    house = {h: house_setting_of(np.array(h, dtype=np.uint8), way, rules) for h in combinations(deck, 7)}
    as_house, as_best = [], []
    for hand, setting in house.items():
        dealer = [house[d] for d in combinations([c for c in deck if c not in hand], 7)]
        worth = {}
        for high, low, _, _ in legal_settings(np.array(hand, dtype=np.uint8), rules)[0]:
            win, _, loss = ref.outcomes(high, low, dealer, banking)
            worth[high, low] = (0.95 * win - loss) / len(dealer)
        as_house.append(worth[setting])
        as_best.append(max(worth.values()))
    return -np.mean(as_house), -np.mean(as_best)


@pytest.mark.parametrize("way, banking", [("foxwoods", False), ("harrahs-reno", True)])
def test_the_best_play_against_the_house_way_on_a_small_deck(way, banking):
    """Issue 40, part 3, on a 15-card deck where both figures can be counted exactly: the
    chart's house way against itself is the exact count, and its best play (that edge less
    the sampled cost per hand) is within 3 standard errors of the exact best play, which is
    itself further than that from the house way's edge, so a chart that left the cost out
    (or added it, or took it from the other side of the bet) would fail."""
    exact_house, exact_best = exact_on_small_deck(house_way(way), banking)
    answer = chart.chart_answer(way, hands=400, seed=3, banking=banking, deck=SMALL)
    b = answer["house_ways"][0]["best_play"]
    assert b["house_way_exact"] and b["house_way_half_width"] == 0
    assert b["house_way_edge"] == pytest.approx(exact_house, abs=1e-12)
    three_se = 3 * b["half_width"] / 1.96
    assert abs(b["edge"] - exact_best) <= three_se, (b, exact_best)
    assert exact_house - exact_best > three_se > 0  # the best play is worth more, measurably
    other = chart.chart_answer(way, hands=400, seed=3, banking=not banking, deck=SMALL)
    assert abs(other["house_ways"][0]["best_play"]["edge"] - exact_best) > three_se
    assert answer["published"] is None


def test_the_best_play_in_the_files_and_the_command(tmp_path):
    answer = chart.chart_answer("foxwoods", hands=40, seed=1, deck=SMALL)
    b = answer["house_ways"][0]["best_play"]
    text = chart_files.chart_markdown(answer)
    assert "## The house edge: the house way against itself, and the best play against it" in text
    assert f"| Foxwoods | {100 * b['house_way_edge']:.4f}% | exact | {100 * b['edge']:.3f}% |" in text
    run = terminal.piped("paigow-poker", "chart", "--hands", "40", "--seed", "1", "--deck", SMALL)
    assert run.status == 0, run.err
    assert (f"Foxwoods: house way against itself {100 * b['house_way_edge']:.4f}% exact; best play "
            f"{100 * b['edge']:.3f}% ± {100 * b['half_width']:.3f}") in run.out
    big = chart.chart_answer("foxwoods", hands=3, seed=1, deck=DECK)  # 25 cards: not counted
    assert big["house_ways"][0]["best_play"] is None and "## The house edge" not in chart_files.chart_markdown(big)


def test_the_published_best_play_beside_foxwoods():
    from sapsam.paigow_poker.output import published_edge

    way = [house_way("foxwoods")]
    p = chart.published_best_play(0.05, False, None, way)
    assert p["house_way_edge"] == pytest.approx(0.027212, abs=5e-7)
    assert p["house_way_edge"] - p["best_play_edge"] == pytest.approx(0.0021)
    assert p["house_way_edge"] == published_edge(0.05)["edge"]
    assert chart.published_best_play(0.05, True, None, way) is None  # banking: nothing published
    assert chart.published_best_play(0.05, False, None, [house_way("harrahs-reno")]) is None
