"""One hand, exactly (issue 40, part 3): the dealer histogram and its cumulative sums against
a plain-Python meeting of every dealer hand, on small decks; the API, the command line and its
bad input; the house way's table against setting every hand now (slow: the table)."""

import json
import re
from itertools import combinations

import numpy as np
import pytest
import terminal

import sapsam
from sapsam.paigow_poker.game import Rules, format_cards, parse_hand, tables
from sapsam.paigow_poker.kernels.exact import set_hand
from sapsam.paigow_poker.measure import exact as measure
from sapsam.paigow_poker.strategy import house_way
from tests.paigow_poker import reference as ref

# 25 cards: aces to eights in three suits, three deuces and the joker
DECK = "Jk " + " ".join(r + s for r in "AKQJT98" for s in "shd") + " 2s 2h 2d"


def dealer_settings(hand, deck, way, rules):
    """The house way's (high, low) of every dealer hand of the deck's other cards, one by one."""
    scale, joker = tables(rules)
    rest = measure.remaining_cards(hand, deck)
    out = []
    for cards in combinations(rest.tolist(), 7):
        _, high, low = set_hand(np.array(cards, dtype=np.uint8), way.arrays, scale, joker)
        out.append((int(high), int(low)))
    return out


@pytest.mark.parametrize("cards, way, wheel_second", [
    ("Jk As Kd Th 9s 2d 2h", "foxwoods", True),
    ("Ah Ad Kh Kd Qs 8h 8d", "canterbury-park", True),
    ("Ts 9s 8s Jd Qh 2s 2d", "harrahs-reno", False),
])
def test_every_setting_counts_as_meeting_each_dealer_hand(cards, way, wheel_second):
    rules, way = Rules(wheel_second=wheel_second), house_way(way)
    hand, deck = parse_hand(cards), parse_hand(DECK, 25, "deck")
    dealer = dealer_settings(hand, deck, way, rules)
    for banking in (False, True):
        ranked, house, fouls, deals = measure.rank_settings(hand, way, rules, banking, deck)
        assert deals == len(dealer) == 31_824
        for s in ranked:
            assert (s.win, s.push, s.loss) == ref.outcomes(s.high, s.low, dealer, banking)
        assert len(ranked) + fouls >= 1 and house in {(s.high, s.low) for s in ranked}


def test_the_settings_listed_are_every_legal_one_once():
    """21 ways to set seven cards; the foul ones (low above high, by the reference's keys)
    dropped and equal ones (same strengths) merged."""
    hand = parse_hand("Ah Ad Kh Kd Qs 8h 3d")  # no straight or flush: ranks decide fouls
    settings, fouls = measure.legal_settings(hand, Rules())
    distinct, foul = set(), 0
    for low in combinations(hand.tolist(), 2):
        high = [c for c in hand.tolist() if c not in low]
        ranks = sorted((c >> 2 for c in high), reverse=True)
        pairs = sorted((r for r in set(ranks) if ranks.count(r) == 2), reverse=True)
        lk = ref.low_key(*low)
        if len(pairs) >= 2:
            is_foul = False
        elif pairs:
            is_foul = lk[0] and lk[1] > pairs[0]
        else:
            is_foul = lk[0] or (ranks[0], ranks[1]) < lk[1:]
        foul += is_foul
        if not is_foul:
            distinct.add((ref.high_key(high), lk))
    assert (len(settings), fouls) == (len(distinct), foul)


def test_the_api_gives_the_commands_json():
    args = ("Jk As Kd Th 9s 2d 2h",)
    hand = sapsam.paigow_poker.best(*args, house_way="harrahs-reno", banking=True, deck=DECK)
    run = terminal.piped("paigow-poker", "best", *args, "--house-way", "harrahs-reno", "--banking",
                         "--deck", DECK, "--json")
    assert run.status == 0, run.err
    assert json.loads(run.out) == json.loads(json.dumps(hand.to_dict()))
    values = [s["value"] for s in hand.settings]
    assert values == sorted(values, reverse=True) and hand.settings[0]["best"]
    assert sum(s["house_way"] for s in hand.settings) == 1
    assert hand.house_way_gives_up == pytest.approx(hand.best_value - hand.house_way_value)
    assert list(hand.to_frame().columns[:4]) == ["high", "low", "high_hand", "low_hand"]
    assert [w["id"] for w in sapsam.paigow_poker.house_ways()] == ["foxwoods", "canterbury-park", "harrahs-reno"]


@pytest.mark.parametrize("args, words", [
    (["best", "Jk As Kd Th 9s 2d"], "hand needs 7 cards, got 6"),
    (["best", "Jk As Kd Th 9s 2d 2d"], "duplicate card '2d'"),
    (["best", "Jk As Kd Th 9s 2d Zz"], "unknown card 'Zz'"),
    (["best", "Jk As Kd Th 9s 2d 2h", "--house-way", "nowhere"], "unknown house way 'nowhere'"),
    (["best", "Jk As Kd Th 9s 2d 2h", "--commission", "1.5"], "--commission"),
    (["best", "Jk As Kd Th 9s 2d 2h", "--wheel", "top"], "--wheel"),
    (["best", "Jk As Kd Th 9s 2d 2h", "--deck", "Jk As Kd Th 9s 2d 2h Qs"], "at least 14 cards"),
    (["best", "Jk As Kd Th 9s 2d 2h", "--deck", DECK.replace("2h", "3h")], "the deck lacks the hand's 2h"),
])
def test_bad_input_is_one_line_and_status_2(args, words):
    run = terminal.piped("paigow-poker", *args)
    assert run.status == 2, run.err
    assert words in run.err and "Traceback" not in run.err
    assert len(run.err.strip().splitlines()) == 1


# the house way's setting the best (both marks on its row: the widest marks), and not
SAME, APART = "Jk As Kd Th 9s 2d 2h", "2s 8d Jh Ah Th 9s Ad"


@pytest.mark.parametrize("cards, columns, marks, note", [
    (SAME, 80, ["best, house way"], "the hands' names in a wider terminal"),
    (APART, 80, ["best", "house way"], "the hands' names in a wider terminal"),
    (APART, 60, ["b", "h"], "b: the best setting, h: the house way's; the hands' names and push % in a wider"),
], ids=["80-same", "80-apart", "60-apart"])
def test_best_in_a_terminal_gives_up_only_what_it_must(cards, columns, marks, note):
    """The table gives up the hands' names first, then the marks' words (b, h), then push %, as
    the terminal's width asks: its marks in full at 80 columns, and no number or mark cut to an
    ellipsis at 60."""
    run = terminal.in_terminal("paigow-poker", "best", cards, "--deck", DECK, columns=columns)
    assert run.status == 0, run.out
    lines = run.out.strip().splitlines()
    assert max(len(line) for line in lines) <= columns and "…" not in run.out, run.out
    rows = [line.rstrip() for line in lines if re.match(r"(Jk|[2-9TJQKA][shdc]) ", line)]
    assert [row.rsplit("   ", 1)[1] for row in rows if not row[-1].isdigit()] == marks, run.out
    assert note in " ".join(run.out.split()) and "31,824 dealer hands" in run.out


def test_house_ways_command():
    run = terminal.piped("paigow-poker", "house-ways", "--json")
    ways = json.loads(run.out)["house_ways"]
    assert run.status == 0 and ways[0]["source"].startswith("https://wizardofodds.com")


@pytest.mark.slow
def test_the_table_gives_what_setting_each_hand_now_gives():
    """The house way's table of all 154,143,080 hands (built once, a minute or two) read for a
    26-card part of the deck, against setting each of its hands now."""
    rules, way = Rules(), house_way("foxwoods")
    cards = np.array(sorted(np.random.default_rng(40).choice(53, 26, replace=False)), dtype=np.uint8)
    hand = cards[:7]
    direct = measure.dealer_histogram(cards[7:], way, rules, direct=True)
    table = measure.dealer_histogram(cards[7:], way, rules)
    assert direct.sum() == 50_388 and (direct == table).all(), format_cards(hand)


@pytest.mark.slow
def test_one_hand_against_every_dealer_hand_of_the_46_left():
    hand = sapsam.paigow_poker.best("Ah Ad Kc Kd 7s 4h 2c")
    assert hand.dealer_hands == 53_524_680
    assert hand.settings[0]["low"]["hand"] == "pair of kings" and hand.settings[0]["house_way"]
    assert sum(hand.settings[0][k] for k in ("win", "push", "loss")) == 53_524_680


@pytest.mark.parametrize("args", [
    ["house-ways"],
    ["best", "Jk As Kd Th 9s 2d 2h", "--deck", DECK, "--banking"],
    pytest.param(["edge", "--deals", "64000"], marks=pytest.mark.slow),
    pytest.param(["cost", "--hands", "3"], marks=pytest.mark.slow),
    pytest.param(["side-bets"], marks=pytest.mark.slow),
], ids=["house-ways", "best", "edge", "cost", "side-bets"])
def test_every_command_fits_80_columns(args):
    run = terminal.in_terminal("paigow-poker", *args, columns=80)
    assert run.status == 0, run.out
    assert max(len(line) for line in run.out.splitlines()) <= 80, run.out
