"""Settlement (kernels/settle.py, analysis/game/score.py, ``sapsam score``) against tests/naive.py.

The worked examples of RULES.md part C, then the kernel against the plain-Python reference
scorer ``naive.settle`` on seeded random tables for every named ruleset (and for variants
built from the options the ruleset files list), then properties that hold whatever the rules:
zero sum, symmetry under swapping seats, a hand against itself, fouls.
"""

import json

import naive
import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SEED
from numba import njit

from sapsam.cli import main
from sapsam.game import score
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.game.settings import settled_rows
from sapsam.kernels import evaluate as ev
from sapsam.kernels import settle as S

RULESET_IDS = ("basic", "two-four", "one-six", "pagat-typical", "pagat-sweep", "pagat-middle",
               "pagat-overall", "pagat-extras", "pagat-surrender", "pagat-pool",
               "pusoy-single-winner", "house", "malayan", "vietnamese", "singapore",
               "hawaiian-gardens", "standard", "taiwanese", "low-middle", "criss-cross",
               "first-to-11")  # RULES.md part B
N_TABLES = 250  # random tables per (ruleset, number of players)

# Variants from the options the ruleset files document (and a few more combinations the
# schema allows), as TOML extending a named id: each is checked like a named ruleset.
VARIANTS = {
    "basic-wheel-second": ("basic", 'wheel_rank = "second"'),
    "pagat-sweep-3": ("pagat-sweep", "[scoring]\nsweep_bonus = 3"),
    "pagat-extras-no-overall": ("pagat-extras", "[scoring]\noverall_point = false"),
    "pagat-surrender-overall": ("pagat-surrender", "[scoring]\noverall_point = true"),
    "pagat-surrender-bank": ("pagat-surrender", '[scoring]\ngame = "bank"'),
    "pagat-pool-no-sweep": ("pagat-pool", "[pool]\nsweep_takes_all = false"),
    "pusoy-3-units": ("pusoy-single-winner", "[single_winner]\nunits = 3"),
    "singapore-home-run": ("singapore", "[scoring]\nhome_run_multiplier = 2"),
    "vietnamese-strict-order": ("vietnamese", """[naturals]
hands = [
  { kind = "three-straights", value = 3 },
  { kind = "three-flushes", value = 3 },
  { kind = "six-pairs", value = 3 },
  { kind = "five-pairs-trips", value = 6 },
  { kind = "dragon", value = 13 },
  { kind = "clean-dragon", value = 26 },
]"""),
    "hawaiian-aces": ("hawaiian-gardens", "[extras]\naces_bet = true"),
    "hawaiian-chips": ("hawaiian-gardens", "[extras]\nchip_limited = true"),
    "hawaiian-chips-aces": ("hawaiian-gardens", "[extras]\nchip_limited = true\naces_bet = true"),
    "hawaiian-overall": ("hawaiian-gardens", "[scoring]\noverall_point = true"),
    "standard-bank": ("standard", '[scoring]\ngame = "bank"'),
    "two-four-everything": ("two-four", "[scoring]\noverall_point = true\nsweep_bonus = 1\n"
                                        "scoop_multiplier = 2\nhome_run_multiplier = 3"),
    "one-six-sweep": ("one-six", "[scoring]\nsweep_bonus = 3\nscoop_multiplier = 2"),
    "two-four-doubled": ("two-four", "[scoring]\nscoop_multiplier = 2\nhome_run_multiplier = 2"),
    "basic-rake": ("basic", "[extras]\nrake = 1"),
    "low-middle-high-order": ("low-middle", '[middle]\norder = "high-order"'),
    "low-middle-two-four": ("low-middle", '[scoring]\nbase = "two-four"\nsweep_bonus = 2\n'
                                          'scoop_multiplier = 2\nhome_run_multiplier = 3'),
}


@pytest.fixture(scope="module")
def variant_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("variants")
    for name, (parent, body) in VARIANTS.items():
        (path / f"{name}.toml").write_text(
            f'id = "{name}"\nname = "{name}"\nsource = "test"\nextends = "{parent}"\n{body}\n')
    return path


def load_variant(variant_dir, name):
    return load_ruleset(variant_dir / f"{name}.toml")


def run_cli(*args):
    return CliRunner().invoke(main, list(args))


def seat_of(text):
    """naive.Seat from 'front | middle | back'."""
    front, middle, back = (tuple(naive.cards(part)) for part in text.split("|"))
    return naive.Seat(front, middle, back)


# ---- RULES.md part C: worked examples --------------------------------------------------------

C1 = ["6s 6h 6d | 4s 4h 4d 9s 9h | Ks Kh Kd 8s 8h",
      "Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h 5s Ad"]
C2 = ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",  # Amy
      "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"]  # Bob
# C3: hands built for the row winners of the seed page's table (per-row, four players):
# front North > South > West > East, middle West > North > South > East,
# back South > East > North > West.
C3 = ["Qc Qd 2c | Kc Kd 7c 7d 3c | 8s 9h Th Js Qs",  # North: QQ, K-K-7-7, straight
      "Ks 8d 3h | Ad Jh 9s 6s 5c | As 7s 5s 3s 2s",  # East: K high, A high, flush
      "9c 9d 4c | Jc Jd Ac 8h Qh | 6c 6d 6h 2d 2h",  # South: 99, JJ, full house
      "5d 5h 3d | 4d 4h 4s Kh 8c | Tc Td Ts Ah 7h"]  # West: 55, trips 4, trips T
C3_NAMES = ("North", "East", "South", "West")
# C4: A sweeps B, C sweeps A (and B); A beats D 2-1, D beats B 2-1, C beats D 2-1.
# front C > A > B > D, middle C > A > D > B, back D > C > A > B; no royalty hands.
C4 = ["8c 8d 2c | Kc Kd 5c 5d 3c | 7c 7d 7h 4s 2s",  # A, the dealer
      "Ks Jh 5s | Ad Qh 9h 8s 5h | Th Ts 9d 6s 3s",  # B
      "Qs Qd 9c | As Ah 4c 4d 2h | 9s Tc Jc Qc Kh",  # C
      "Js 7s 3h | 6c 6h Ac 8h 4h | 2d 3d 6d Td Jd"]  # D
C4_CHIPS = (8, 10, 10, 10)


def test_c1_pagat_typical_royalties():
    result = score.score_showdown("pagat-typical", C1)
    assert result.totals == [-3, 3]  # A: +3 (front trips) - 2 (middle full house) - 4 (back quads)
    assert result.status == ("set", "set")
    (pair,) = result.pairs()
    assert pair["rows"] == {"front": "P1", "middle": "P2", "back": "P2"}
    assert pair["breakdown"]["rows"] + pair["breakdown"]["royalties"] == -3
    assert naive.settle(load_ruleset("pagat-typical"), [seat_of(t) for t in C1]) == [-3, 3]


@pytest.mark.parametrize("rules, amy", [("two-four", 2), ("one-six", 1)])
def test_c2_two_four_and_one_six(rules, amy):
    result = score.score_showdown(rules, C2, names=["Amy", "Bob"])
    assert result.totals == [amy, -amy]
    (pair,) = result.pairs()
    assert pair["rows"] == {"front": "Amy", "middle": "Bob", "back": "Amy"}
    assert naive.settle(load_ruleset(rules), [seat_of(t) for t in C2]) == [amy, -amy]


def test_c3_four_player_table():
    result = score.score_showdown("basic", C3, names=C3_NAMES)
    assert result.totals == [3, -5, 3, -1]
    assert sum(result.totals) == 0
    assert len(result.pairs()) == 6
    assert naive.settle(load_ruleset("basic"), [seat_of(t) for t in C3]) == [3, -5, 3, -1]


def test_c4_hawaiian_gardens_chip_limit():
    result = score.score_showdown("hawaiian-gardens", C4, chips=C4_CHIPS, names="ABCD")
    pairs = {tuple(p["names"]): p for p in result.pairs()}
    assert pairs["A", "B"]["units"] == 6  # A sweeps B: B pays 6
    assert pairs["A", "C"]["breakdown"]["total"] == -6  # C sweeps A: 6 owed ...
    assert pairs["A", "C"]["units"] == -2  # ... A pays only the 2 chips it has left
    assert pairs["A", "D"]["units"] == 0  # A has nothing left at risk
    assert C4_CHIPS[0] + result.totals[0] == 12  # A ends with 12 chips
    # the rest, settled by hand: B-C 6 owed, B has 4 left; B-D 1 owed, B has 0; C-D 1.
    assert result.totals == [4, -10, 7, -1]
    rules = load_ruleset("hawaiian-gardens")
    assert naive.settle(rules, [seat_of(t) for t in C4], chips=list(C4_CHIPS)) == [4, -10, 7, -1]
    unlimited = score.score_showdown("hawaiian-gardens", C4)  # the same table without chips
    assert unlimited.totals == [6 - 6 + 1, -6 - 6 - 1, 6 + 6 + 1, -1 - 1 + 1]


def cli_totals(*args):
    result = run_cli("score", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_c1():
    payload = cli_totals("--rules", "pagat-typical", *C1)
    assert payload["rules"] == "pagat-typical"
    assert payload["totals"] == [-3, 3]
    assert payload["status"] == ["set", "set"]


@pytest.mark.parametrize("rules, amy", [("two-four", 2), ("one-six", 1)])
def test_cli_c2(rules, amy):
    payload = cli_totals("--rules", rules, "--names", "Amy,Bob", *C2)
    assert payload["totals"] == [amy, -amy]
    assert payload["pairs"][0]["rows"] == {"front": "Amy", "middle": "Bob", "back": "Amy"}


def test_cli_c3():
    payload = cli_totals("--rules", "basic", "--names", ",".join(C3_NAMES), *C3)
    assert payload["names"] == list(C3_NAMES)
    assert dict(zip(payload["names"], payload["totals"])) == {
        "North": 3, "East": -5, "South": 3, "West": -1}
    text = run_cli("score", "--rules", "basic", "--names", ",".join(C3_NAMES), *C3)
    assert text.exit_code == 0, text.output
    assert "North +3, East -5, South +3, West -1" in text.stdout


def test_cli_c4():
    payload = cli_totals("--rules", "hawaiian-gardens", "--names", "A,B,C,D",
                         "--chips", ",".join(map(str, C4_CHIPS)), *C4)
    assert payload["totals"] == [4, -10, 7, -1]
    assert C4_CHIPS[0] + payload["totals"][0] == 12


# ---- random tables ----------------------------------------------------------------------------

TEMPLATES5 = ("straight-flush", "quads", "full-house", "flush", "straight", "trips", "two-pair",
              "pair", "high-card")
WEIGHTS5 = np.array([1, 2, 3, 2, 2, 2, 1, 1, 1], float)
TEMPLATES3 = ("trips", "pair", "high-card")


def _run(top):
    return [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))


def _template_row(rng, category, size):
    """Cards of a random row of about ``category`` (it may come out stronger; no matter)."""
    if category in ("straight-flush", "straight"):
        top = int(rng.integers(3, 13))
        suit = int(rng.integers(4))
        return [r * 4 + (suit if category == "straight-flush" else int(rng.integers(4)))
                for r in _run(top)]
    if category == "flush":
        suit = int(rng.integers(4))
        return [int(r) * 4 + suit for r in rng.choice(13, 5, replace=False)]
    shapes = {"quads": [4, 1], "full-house": [3, 2], "trips": [3] + [1] * (size - 3),
              "two-pair": [2, 2, 1], "pair": [2] + [1] * (size - 2), "high-card": [1] * size}
    shape = shapes[category]
    ranks = rng.choice(13, len(shape), replace=False).tolist()
    return [r * 4 + int(s) for r, k in zip(ranks, shape) for s in rng.choice(4, k, replace=False)]


def rich_setting(rng, others):
    """(front, middle, back) built from row templates (royalty hands often), 13 distinct
    cards; a row may copy the same row of an earlier seat (``others``) to make ties."""
    while True:
        rows = []
        for size in (3, 5, 5):
            if others and rng.random() < 0.2:
                rows.append(list(others[int(rng.integers(len(others)))][len(rows)]))
            elif size == 3:
                rows.append(_template_row(rng, TEMPLATES3[int(rng.integers(3))], 3))
            else:
                category = TEMPLATES5[rng.choice(len(TEMPLATES5), p=WEIGHTS5 / WEIGHTS5.sum())]
                rows.append(_template_row(rng, category, 5))
        if len({c for row in rows for c in row}) == 13:
            return rows


def arrange(rng, rows, wheel_second, want_legal):
    """Order the two five-card rows, stronger at the back unless a foul is wanted; returns
    (front, middle, back) or None if a legal setting was wanted and this is a foul."""
    front, x, y = rows
    if want_legal or rng.random() < 0.5:
        if naive.hand_key(x, wheel_second) > naive.hand_key(y, wheel_second):
            x, y = y, x
    keys = [naive.hand_key(r, wheel_second) for r in (front, x, y)]
    if want_legal and not naive.is_legal(keys):
        return None
    return tuple(front), tuple(x), tuple(y)


def dealing_rules(rules):
    """All that :func:`random_table` reads of a ruleset: the wheel ranked second, fouls paid as
    sweeps, each natural's tier, surrender, a bank game, chip limits."""
    return (str(rules.wheel_rank) == "second", str(rules.fouls.mode) == "as-swept", tuple(naive._tiers(rules)),
            str(rules.surrender.mode) != "none", str(rules.scoring.game) == "bank", rules.extras.chip_limited)


def random_table(rng, rules, n):
    """Seats for one random table: naive.Seat list, bank seat, chip stacks."""
    wheel_second, fouls, tiers, can_surrender, bank_game, chip_limited = dealing_rules(rules)
    deck = rng.permutation(52).tolist()
    style = rng.random()
    seats, settings = [], []
    for i in range(n):
        want_legal = not fouls or rng.random() < 0.85
        setting = None
        if settings and rng.random() < 0.1:  # the very same setting as an earlier seat
            setting = settings[int(rng.integers(len(settings)))]
        while setting is None:
            if style < 0.5:  # a real deal, split at random
                hand = deck[13 * i: 13 * i + 13]
                order = rng.permutation(13)
                rows = [[hand[k] for k in order[:3]], [hand[k] for k in order[3:8]],
                        [hand[k] for k in order[8:]]]
            else:  # strong rows from templates, cards not exclusive between seats
                rows = rich_setting(rng, settings)
            setting = arrange(rng, rows, wheel_second, want_legal)
        settings.append(setting)
        seat = naive.Seat(*setting)
        r = rng.random()
        if tiers and r < 0.2:
            declared = [s.natural for s in seats if s.natural >= 0]
            if declared and rng.random() < 0.3:  # the same natural as another seat: a clash
                seat.natural = declared[int(rng.integers(len(declared)))]
            elif declared and rng.random() < 0.3:  # one of the same tier (maybe another kind)
                tier = tiers[declared[int(rng.integers(len(declared)))]]
                same = [k for k, t in enumerate(tiers) if t == tier]
                seat.natural = same[int(rng.integers(len(same)))]
            else:
                seat.natural = int(rng.integers(len(tiers)))
            seat.natural_key = int(rng.integers(3))
        elif can_surrender and r < 0.3:
            seat.surrender = True
        seats.append(seat)
    bank = int(rng.integers(n)) if bank_game else -1
    chips = None
    if chip_limited:
        chips = [int(c) if rng.random() < 0.85 else -1 for c in rng.integers(0, 14, n)]
    return seats, bank, chips


def kernel_rows(seats, wheel_second, rules=None):
    """Strength triples (T, P, 3) of the seats' settings with the kernel evaluator (a low
    middle's by :func:`sapsam.game.settings.settled_rows`, a foul it alone cannot show
    made visible)."""
    t, p = len(seats), len(seats[0])
    if rules is not None and rules.low_middle:
        return np.array([[settled_rows(np.array(s.front, np.uint8), np.array(s.middle, np.uint8),
                                       np.array(s.back, np.uint8), rules)[0] for s in table]
                         for table in seats], np.int16)
    fronts = np.array([[s.front for s in table] for table in seats], np.uint8).reshape(-1, 3)
    middles = np.array([[s.middle for s in table] for table in seats], np.uint8).reshape(-1, 5)
    backs = np.array([[s.back for s in table] for table in seats], np.uint8).reshape(-1, 5)
    rows = np.stack([ev.rank3(fronts), ev.rank5(middles), ev.rank5(backs)], axis=1)
    if wheel_second:
        rows[:, 1:] = ev.WHEEL_SECOND[rows[:, 1:]]
    return rows.reshape(t, p, 3)


def kernel_settle(rules, tables, parallel=True):
    """Settle naive tables [(seats, bank, chips)] with sapsam.game.score.settle_tables."""
    seats = [s for s, _, _ in tables]
    rows = kernel_rows(seats, str(rules.wheel_rank) == "second", rules)
    natural = np.array([[s.natural for s in t] for t in seats], np.int64)
    key = np.array([[s.natural_key for s in t] for t in seats], np.int64)
    surrender = np.array([[s.surrender for s in t] for t in seats], np.bool_)
    aces = np.array([[s.ace_count() for s in t] for t in seats], np.int64)
    bank = np.array([max(b, 0) for _, b, _ in tables], np.int64)
    chips = np.array([[-1] * len(s) if c is None else c for s, _, c in tables], np.int64)
    return score.settle_tables(rules, rows, natural, key, surrender, aces, bank, chips,
                               parallel=parallel)


def describe_table(rules, seats, bank, chips):
    lines = [f"ruleset {rules.id}, bank {bank}, chips {chips}"]
    for s in seats:
        what = (f"natural {s.natural} ({rules.naturals.hands[s.natural].kind}) key {s.natural_key}"
                if s.natural >= 0 else "surrender" if s.surrender else "")
        rows = " | ".join(" ".join(map(naive.card_text, r)) for r in (s.front, s.middle, s.back))
        lines.append(f"  {rows}  {what}")
    return "\n".join(lines)


def check_against_naive(rules, seed, n, count=N_TABLES):
    rng = np.random.default_rng([seed, n])
    tables = [random_table(rng, rules, n) for _ in range(count)]
    got = kernel_settle(rules, tables)
    want = [naive.settle(rules, seats, bank, chips) for seats, bank, chips in tables]
    if rules.extras.rake == 0 and str(rules.scoring.game) != "match":  # a match scores points
        assert all(sum(w) == 0 for w in want)
    bad = [t for t in range(count) if got[t].tolist() != want[t]]
    assert not bad, "\n".join(f"kernel {got[t].tolist()} naive {want[t]}\n"
                              + describe_table(rules, *tables[t]) for t in bad[:5])
    return tables, got


def naive_best_natural(rules, hand):
    """(index, key) of the natural a hand declares: the highest by tier then value (the
    first listed among equals), by the naive detectors; (-1, None) for none."""
    tiers = naive._tiers(rules)
    best, best_key = -1, None
    for i, h in enumerate(rules.naturals.hands):
        key = naive.natural_key(hand, *naive.natural_option(h))
        if key is None:
            continue
        if best < 0 or (tiers[i], h.value) > (tiers[best], rules.naturals.hands[best].value):
            best, best_key = i, key
    return best, best_key


def dealt_table(rng, rules, n):
    """A real deal (no card twice) as text declarations and the matching naive seats; the
    first two seats are often dealt one of the ruleset's naturals, and declare it."""
    from test_naturals import built_hand

    kinds = [str(h.kind) for h in rules.naturals.hands]
    wheel_second = str(rules.wheel_rank) == "second"
    can_surrender = str(rules.surrender.mode) != "none"
    hands, used = [], set()
    for i in range(n):
        hand = None
        if kinds and i < 2 and rng.random() < 0.5:
            candidate = built_hand(rng, kinds[int(rng.integers(len(kinds)))])
            if not used & set(candidate):
                hand = candidate
        if hand is None:
            rest = [c for c in range(52) if c not in used]
            hand = rng.choice(rest, 13, replace=False).tolist()
        hands.append(hand)
        used |= set(hand)
    texts, seats = [], []
    for hand in hands:
        index, key = naive_best_natural(rules, hand) if kinds else (-1, None)
        words = " ".join(map(naive.card_text, hand))
        if index >= 0 and rng.random() < 0.85:
            texts.append("natural:" + words)
            seats.append(naive.Seat(natural=index, natural_key=key,
                                    aces=sum(naive.rank_of(c) == naive.ACE for c in hand)))
            continue
        if can_surrender and rng.random() < 0.1:
            texts.append("surrender:" + words)
            seats.append(naive.Seat(surrender=True, aces=sum(naive.rank_of(c) == naive.ACE for c in hand)))
            continue
        setting = None
        want_legal = rng.random() < 0.85
        while setting is None:
            order = rng.permutation(13)
            setting = arrange(rng, [[hand[k] for k in order[:3]], [hand[k] for k in order[3:8]],
                                    [hand[k] for k in order[8:]]], wheel_second, want_legal)
        texts.append(" | ".join(" ".join(map(naive.card_text, row)) for row in setting))
        seats.append(naive.Seat(*setting))
    bank = int(rng.integers(n)) if str(rules.scoring.game) == "bank" else -1
    return texts, seats, bank


@pytest.mark.parametrize("rules_id", RULESET_IDS)
def test_score_showdown_equals_naive_on_dealt_tables(rules_id):
    """The whole path: text declarations, the kernel's natural detection (best natural of
    the hand), evaluation and settlement, against naive detection and scoring."""
    rules = load_ruleset(rules_id)
    rng = np.random.default_rng([SEED, 17, RULESET_IDS.index(rules_id)])
    declared = 0
    for _ in range(30):
        n = 4 if rules.hands == 2 else int(rng.integers(2, 5))  # criss-cross: a whole deal
        texts, seats, bank = dealt_table(rng, rules, n)
        result = score.score_showdown(rules, texts, bank=bank if bank >= 0 else None)
        want = naive.settle(rules, seats, bank)
        assert result.points.tolist() == want, "\n".join(texts)
        for st, seat in zip(result.status, seats):
            if seat.natural >= 0:
                assert st == "natural: " + str(rules.naturals.hands[seat.natural].kind)
                declared += 1
            elif seat.surrender:
                assert st == "surrender"
            else:
                keys = naive._setting_keys(seat, False, rules.low_middle)
                assert st == ("set" if naive._legal(rules, seat, keys) else "foul")
    if rules.naturals.hands:
        assert declared >= 5


def test_every_named_ruleset_is_covered():
    assert set(ruleset_ids()) == set(RULESET_IDS)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("rules_id", RULESET_IDS)
def test_kernel_equals_naive(rules_id, n):
    rules = load_ruleset(rules_id)
    tables, got = check_against_naive(rules, SEED + RULESET_IDS.index(rules_id), n)
    if str(rules.scoring.game) == "match":  # points, not payments: at most three rows and a sweep
        assert ((got.sum(axis=1) <= 3 + (n >= 4)) & (got >= 0).all(axis=1)).all()
    elif rules.extras.rake == 0:  # zero-sum at every table, kernel and reference alike
        assert (got.sum(axis=1) == 0).all()


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_kernel_equals_naive(variant_dir, name, n):
    rules = load_variant(variant_dir, name)
    tables, got = check_against_naive(rules, SEED + 100 + sorted(VARIANTS).index(name), n)
    if rules.extras.rake == 0:
        assert (got.sum(axis=1) == 0).all()
    else:
        assert (got.sum(axis=1) == -n * rules.extras.rake).all()


@njit
def _settle_each(rules, table, only):
    """Every table of a batch by the sampler's route (detailed, one seat's pairs or all)."""
    count, n = table.rows.shape[0], table.rows.shape[1]
    net = np.zeros((count, n), np.int64)
    detail = np.zeros((count, n, n, S.N_DETAIL), np.int64)
    results = np.zeros((count, n, n, 3), np.int8)
    work = S.new_work()
    for t in range(count):
        S.settle_into_inline(rules, table, net, t, work, detail[t], results[t], True, only)
    return net, detail, results


_TABLES = {}


def _random_tables(seed, n, rules):
    """:data:`N_TABLES` of :func:`random_table`, dealt once for all rulesets alike in what it reads
    (:func:`dealing_rules`; most are: the deals take a minute of Python for all of them)."""
    key = (seed, n, dealing_rules(rules))
    if key not in _TABLES:
        rng = np.random.default_rng([seed, n, 1])
        _TABLES[key] = [random_table(rng, rules, n) for _ in range(N_TABLES)]
    return _TABLES[key]


def check_one_seat(rules, seed, n):
    """Where :func:`seat_alone` says so, settling one seat's pairs gives that seat's points
    and its pairs' breakdown and row results exactly as settling the whole table does.
    Returns whether it said so."""
    compiled = rules.compile()
    if not S.seat_alone(compiled.params, n):
        return False
    tables = _random_tables(seed, n, rules)
    seats = [s for s, _, _ in tables]
    table = S.Table(kernel_rows(seats, str(rules.wheel_rank) == "second", rules),
                    np.array([[s.natural for s in t] for t in seats], np.int64),
                    np.array([[s.natural_key for s in t] for t in seats], np.int64),
                    np.array([[s.surrender for s in t] for t in seats], np.bool_),
                    np.array([[s.ace_count() for s in t] for t in seats], np.int64),
                    np.array([max(b, 0) for _, b, _ in tables], np.int64),
                    np.array([[-1] * n if c is None else c for _, _, c in tables], np.int64))
    net, detail, results = _settle_each(compiled.arrays, table, np.int64(-1))
    for seat in range(n):
        one = _settle_each(compiled.arrays, table, np.int64(seat))
        assert np.array_equal(one[0][:, seat], net[:, seat]), (rules.id, n, seat)
        for got, want in zip(one[1:], (detail, results)):
            assert np.array_equal(got[:, seat], want[:, seat]), (rules.id, n, seat)
            assert np.array_equal(got[:, :, seat], want[:, :, seat]), (rules.id, n, seat)
    return True


def test_one_seat_settles_as_the_whole_table(variant_dir):
    """The sampler settles each candidate's pairs only (``settle_into(..., only=0)``): for every
    ruleset and variant and table size that allows it, exactly as the whole table; and
    :func:`seat_alone` refuses where it must (chip limits, home runs, whole-table games)."""
    alone = {}
    for name in RULESET_IDS + tuple(sorted(VARIANTS)):
        rules = load_ruleset(name) if name in RULESET_IDS else load_variant(variant_dir, name)
        for n in (2, 3, 4):
            alone[name, n] = check_one_seat(rules, SEED + 300, n)
    assert alone["standard", 4] and alone["two-four-doubled", 4] and alone["standard-bank", 4]
    assert alone["one-six-sweep", 2] and not alone["one-six-sweep", 3]  # a home run undoes the scoop's x2
    assert not alone["hawaiian-chips", 2] and not alone["singapore-home-run", 3]
    assert not alone["pagat-pool", 2] and not alone["first-to-11", 4]
    # the named rulesets that settle the whole table for every candidate: whole-table games,
    # and home runs (Vietnamese and Taiwanese multipliers, Hawaiian Gardens' two of three)
    assert {name for name in RULESET_IDS if not alone[name, 4]} == {
        "pagat-pool", "pusoy-single-winner", "first-to-11", "vietnamese", "taiwanese", "hawaiian-gardens"}


def test_random_tables_exercise_every_path():
    """The generator reaches the cases the comparison is meant to cover (so it can fail)."""
    rules = load_ruleset("standard")
    rng = np.random.default_rng(SEED)
    tables = [random_table(rng, rules, 4) for _ in range(N_TABLES)]
    seats = [s for t, _, _ in tables for s in t]
    keys = [naive._setting_keys(s, False) for s in seats]
    categories = {naive.category_of_key(k[2]) for k in keys} | {naive.category_of_key(k[1]) for k in keys}
    assert {naive.QUADS, naive.STRAIGHT_FLUSH, naive.FULL_HOUSE} <= categories
    assert any(naive.category_of_key(k[0]) == naive.TRIPS for k in keys)
    assert any(not naive.is_legal(k) for k in keys)  # fouls
    assert any(s.surrender for s in seats)
    clashes = sum(sum(s.natural >= 0 for s in t) >= 2 for t, _, _ in tables)
    same_kind = sum(len({s.natural for s in t if s.natural >= 0}) < sum(s.natural >= 0 for s in t)
                    for t, _, _ in tables)
    assert clashes >= 10 and same_kind >= 3
    tied_rows = sum(keys[a][k] == keys[b][k] for t in range(len(tables))
                    for a in range(4 * t, 4 * t + 4) for b in range(a + 1, 4 * t + 4) for k in range(3))
    assert tied_rows >= 20


def test_serial_equals_parallel():
    rules = load_ruleset("standard")
    rng = np.random.default_rng(SEED)
    tables = [random_table(rng, rules, 4) for _ in range(200)]
    assert np.array_equal(kernel_settle(rules, tables, parallel=False),
                          kernel_settle(rules, tables, parallel=True))


# ---- properties -------------------------------------------------------------------------------

def swap(seq, a, b):
    out = list(seq)
    out[a], out[b] = out[b], out[a]
    return out


@pytest.mark.parametrize("rules_id", RULESET_IDS)
def test_swapping_two_seats_swaps_results(rules_id):
    """Without chip limits, seat order does not matter: swapping two seats swaps their
    results (in bank games, two players other than the bank)."""
    rules = load_ruleset(rules_id)
    rng = np.random.default_rng(SEED + 7)
    tables, swapped, pairs = [], [], []
    for _ in range(N_TABLES):
        n = int(rng.integers(2 if str(rules.scoring.game) != "bank" else 3, 5))
        seats, bank, chips = random_table(rng, rules, n)
        a, b = rng.choice([i for i in range(n) if i != bank], 2, replace=False)
        if rules.hands == 2:  # criss-cross: one player's two hands (naive.settle's seats)
            a, b = {2: (0, 1), 3: (1, 2), 4: (2 * (a // 2), 2 * (a // 2) + 1)}[n]
        tables.append((seats, bank, chips))
        swapped.append((swap(seats, a, b), bank, chips))
        pairs.append((a, b))
    for n in (2, 3, 4):  # settle_tables takes one table size at a time
        idx = [t for t in range(len(tables)) if len(tables[t][0]) == n]
        if not idx:
            continue
        got = kernel_settle(rules, [tables[t] for t in idx])
        got_swapped = kernel_settle(rules, [swapped[t] for t in idx])
        for row, t in enumerate(idx):
            a, b = pairs[t]
            assert got_swapped[row].tolist() == swap(got[row].tolist(), a, b), \
                describe_table(rules, *tables[t])
            assert naive.settle(rules, *swapped[t]) == swap(naive.settle(rules, *tables[t]), a, b)


@pytest.mark.parametrize("rules_id", RULESET_IDS)
def test_hand_against_itself(rules_id):
    """Equal strength triples at every seat: nothing changes hands, except that in a bank
    game the bank wins every tied row, so it sweeps each player (RULES.md A7)."""
    rules = load_ruleset(rules_id)
    rng = np.random.default_rng(SEED + 11)
    for n in (2, 3, 4):
        tables = []
        for _ in range(40):
            seats, bank, chips = random_table(rng, rules, 1)
            seat = naive.Seat(seats[0].front, seats[0].middle, seats[0].back)
            tables.append(([seat] * n, int(rng.integers(n)), None))
        got = kernel_settle(rules, tables)
        for row, (seats, bank, _) in enumerate(tables):
            want = naive.settle(rules, seats, bank)
            assert got[row].tolist() == want
            if str(rules.scoring.game) != "bank":
                assert want == [0] * n
            else:
                keys = naive._setting_keys(seats[0], False)
                fouled = not naive.is_legal(keys)
                roy = [naive._royalty(rules, k, keys[k], fouled) for k in range(3)]
                sweep = naive.showdown_amount(rules, (1, 1, 1), roy, roy,
                                              home_run_i=n >= 3 and not fouled)
                player = 0 if fouled else -sweep
                assert want == [-player * (n - 1) if i == bank else player for i in range(n)]
    if rules_id == "house":  # bank sweeps with per-row scoring: 3 from each player
        assert naive.showdown_amount(rules, (1, 1, 1)) == 3


FOUL = "As Ad Ac | Kh Qh 9d 5c 3c | 2h 4d 6s 8c Tc"  # trips in front over a king-high middle
PLAIN = "2c 3d 4h | 5d 6d 7h 8d Jd | 9c 9h 9s Ts Jh"  # legal, no royalty hand
ROYAL = "Kc Kd Ks | 5s 5h 5d 2d 2s | 7c 7d 7s 7h 3s"  # front trips, middle full house, back quads


@pytest.mark.parametrize("rules_id, want", [
    ("basic", 3), ("two-four", 4), ("one-six", 6), ("pagat-sweep", 4), ("pagat-overall", 4),
    ("vietnamese", 6), ("taiwanese", 6), ("singapore", 3), ("hawaiian-gardens", 6),
    ("standard", 4), ("pagat-typical", 3)])
def test_foul_pays_as_swept(rules_id, want):
    """A6: a fouled hand pays the opponent as if swept: basic 3, 2-4 4, 1-6 6, sweep bonus +1,
    overall point +1, scoop x2, two-of-three 6.  Flagged 'foul' in the status."""
    result = score.score_showdown(rules_id, [PLAIN, FOUL])
    assert result.status == ("set", "foul")
    assert result.totals == [want, -want]
    rules = load_ruleset(rules_id)
    assert naive.settle(rules, [seat_of(PLAIN), seat_of(FOUL)]) == [want, -want]


@pytest.mark.parametrize("rules_id, royalties", [
    ("pagat-typical", 3 + 2 + 4), ("vietnamese", 2 * (3 + 2 + 4)), ("standard", 4 + 3 + 1 + 2),
    ("pagat-extras", 3 + 2 + 1 + 3 + 1), ("hawaiian-gardens", 6 + 3 + 2 + 4)])
def test_foul_pays_the_opponents_royalties(rules_id, royalties):
    """A6: '... the opponent's royalties are paid as well'; the foul's own count for nothing
    (its front trips of aces would otherwise be a royalty).  Hand-computed units:
    pagat-typical instead of the rows 3 + 2 + 4; vietnamese the same, scooped x2; standard
    3 rows + 1 overall + extras 3 + 1 + 2; pagat-extras 3 rows + extras 2 + 1 + 3 + the
    overall point; hawaiian-gardens sweep 6 + extras 3 + 2 + 4."""
    result = score.score_showdown(rules_id, [ROYAL, FOUL])
    assert result.status == ("set", "foul")
    assert result.totals == [royalties, -royalties]


def test_two_fouls_are_even():
    other_foul = "Ks Kd Kc | Qc Js 9c 5d 3d | 2s 4s 6h 8d Th"
    for rules_id in ("basic", "standard", "pagat-extras", "hawaiian-gardens", "vietnamese"):
        result = score.score_showdown(rules_id, [FOUL, other_foul])
        assert result.status == ("foul", "foul")
        assert result.totals == [0, 0]


def test_foul_flagged_in_cli():
    result = run_cli("score", "--rules", "basic", PLAIN, FOUL)
    assert result.exit_code == 0, result.output
    assert "FOUL" in result.stdout
    assert "P1 +3, P2 -3" in result.stdout
    payload = cli_totals("--rules", "basic", PLAIN, FOUL)
    assert payload["status"] == ["set", "foul"]


def test_foul_rejected_where_not_allowed(tmp_path):
    path = tmp_path / "strict.toml"
    path.write_text('id = "strict"\nname = "s"\nsource = "t"\nextends = "basic"\n'
                    '[fouls]\nmode = "not-allowed"\n')
    with pytest.raises(ValueError, match="foul"):
        score.score_showdown(path, [PLAIN, FOUL])
    result = run_cli("score", "--rules", str(path), PLAIN, FOUL)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("Error:") and len(result.stderr.strip().splitlines()) == 1


# ---- naturals, surrender, bank: small hand-computed cases -----------------------------------

DRAGON = "natural:Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"
SIX_PAIRS = "natural:Ad As Kd Kh 2s 2h 3c 3s 4c 4h 6c 6h 9s"


def test_natural_paid_its_value_and_never_multiplied():
    """A4/A2: a dragon is paid 13 by each opponent under vietnamese (scoop x2, home run x3),
    though it 'beats' both: naturals are never multiplied."""
    x = "5s 5d 2c | 8h 8d 8c 4d 3d | Qh Qd Qc Ks Ah"
    y = "5h 6s 7s | Ts Th Tc 7d 7c | Js Jd Jc 9h 9d"
    result = score.score_showdown("vietnamese", [DRAGON, x, y])
    assert result.status == ("natural: dragon", "set", "set")
    assert result.totals[0] == 26
    want = naive.settle(load_ruleset("vietnamese"),
                        [naive.Seat(natural=4, natural_key=()), seat_of(x), seat_of(y)])
    assert result.totals == want


def test_natural_clash_rules():
    """A dragon (13) against six pairs (3 or 4): higher-wins-full pays 13, difference 13 - 4."""
    higher = score.score_showdown("pagat-typical", [DRAGON, SIX_PAIRS])
    assert higher.status == ("natural: dragon", "natural: six-pairs")
    assert higher.totals == [13, -13]
    diff = score.score_showdown("hawaiian-gardens", [DRAGON, SIX_PAIRS])
    assert diff.totals == [13 - 4, -(13 - 4)]


PLAIN2 = "4s 3h 2c | 8s 8h 6h 6d Ts | Jh Jd 9s 9h Qs"  # disjoint from ROYAL


@pytest.mark.parametrize("rules_id, cost", [("pagat-surrender", 1), ("standard", 2),
                                            ("taiwanese", 1), ("hawaiian-gardens", 3)])
def test_surrender_costs(rules_id, cost):
    """A5: two rows lost = 1 unit under per-row, 2 under 2-4 (2 rows to 1 pays 2); Hawaiian 3.
    The surrendering hand's royalties (trips, full house, quads) are not paid."""
    result = score.score_showdown(rules_id, [PLAIN2, "surrender:" + ROYAL.replace("|", "")])
    assert result.status == ("set", "surrender")
    assert result.totals == [cost, -cost]


def test_surrender_where_not_allowed():
    with pytest.raises(ValueError, match="surrender"):
        score.score_showdown("basic", [PLAIN2, "surrender:" + ROYAL.replace("|", "")])


def test_bank_compares_players_with_the_bank_only():
    """A7, house: the bank (seat 2) wins the tied rows; players never settle together."""
    tables = [([seat_of(C3[0]), seat_of(C3[1]), seat_of(C3[2]), seat_of(C3[3])], 2, None)]
    rules = load_ruleset("house")
    got = kernel_settle(rules, tables)[0].tolist()
    # South (the bank) loses 1 to North, takes 3 from East and 1 from West (the C3 pairs)
    assert got == [1, -3, 3, -1]
    assert naive.settle(rules, *tables[0]) == got
    result = score.score_showdown("house", C3, bank=2, names=C3_NAMES)
    assert result.totals == got
    assert len(result.pairs()) == 3
    payload = cli_totals("--rules", "house", "--bank", "3", *C3)  # seats from 1 on the command line
    assert payload["totals"] == got


# ---- library gaps found while writing the reference --------------------------------------

@pytest.mark.parametrize("parent", ["pagat-pool", "pusoy-single-winner"])
def test_rake_charged_in_every_game(tmp_path, parent):
    """A11: the rake is a charge 'per hand per player'; the schema accepts it with the pool
    and single-winner games, so it must be charged there too (or be rejected)."""
    path = tmp_path / f"{parent}-rake.toml"
    path.write_text(f'id = "r"\nname = "r"\nsource = "t"\nextends = "{parent}"\n[extras]\nrake = 1\n')
    rules = load_ruleset(path)  # accepted by the schema
    got = score.score_showdown(rules, C3)
    want = naive.settle(rules, [seat_of(t) for t in C3])
    assert sum(want) == -4 * got.scale
    assert got.points.tolist() == want, f"{parent}: rake not charged"


def test_two_of_three_home_run_counts_in_overall_point(tmp_path):
    """kernels/settle.py docstring: the scoring base's extras (two-of-three: 9 for a home run)
    come before the overall point.  A sweeps B and C (a home run, 9 from each), but B holds a
    middle full house paid 7 'always': A - B = 9 - 7 = +2, the overall point +1: 3.
    A - C = 9 + 1 = 10; B sweeps C: 6 + 7 + 1 = 14."""
    path = tmp_path / "hg.toml"
    path.write_text('id = "hg"\nname = "h"\nsource = "t"\nextends = "basic"\n'
                    '[scoring]\nbase = "two-of-three"\noverall_point = true\n'
                    '[royalties]\nmode = "extra"\nwhen = "always"\nmiddle = { full-house = 7 }\n')
    a = "Ac Ad 2c | Kc Kd Kh Ks 3c | 5s 6s 7s 8s 9s"  # aces, quads, straight flush
    b = "Qc Qd 5d | 4c 4d 4h 2d 2h | Jc Jd Jh 3d 3h"  # queens, fours full, jacks full
    c = "2s 3s 4s | 5c 6c 7d 8d Tc | 9c 9d Td Th Qs"  # four high, ten high, two pair
    rules = load_ruleset(path)
    want = naive.settle(rules, [seat_of(x) for x in (a, b, c)])
    assert want == [3 + 10, -3 + 14, -10 - 14]
    got = score.score_showdown(path, [a, b, c])
    assert got.totals == want
