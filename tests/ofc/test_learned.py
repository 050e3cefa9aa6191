"""The learned Open-Face policy (issue 38, item 2): its features held to a plain-Python
reference, its round 0 to the improved heuristic it starts from, its placements legal, the fit
recovering known weights, self-play's traces and duplicate decks, and the commands' errors."""

import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.kernels.evaluate import eval3, eval5
from sapsam.ofc.game import load_ofc_rules, ofc_rules_ids
from sapsam.ofc.kernels import learned as L
from sapsam.ofc.kernels.policies import H_EXPLORE, HEURISTIC, RANDOM, heuristic_choice, legal
from sapsam.ofc.kernels.selfplay import TRACE, selfplay_blocks
from sapsam.ofc.play import default_params, game_tables, improved_params
from sapsam.ofc.strategy.learn import fit, start_weights
from sapsam.play.seeds import Stream

RULES = load_ofc_rules("ofc-pineapple")
GAME = game_tables(RULES)
STARTS, SIZES = (0, 3, 8), (3, 5, 5)


def random_position(rng, placed):
    """A board of ``placed`` cards in random places, the 52-bit mask of the cards its seat has
    seen (its own and a few more) and the cards left: ``(board, counts, known, rest)``."""
    deck = rng.permutation(52).astype(np.uint8)
    slots = rng.permutation([0] * 3 + [1] * 5 + [2] * 5)[:placed]
    board = np.zeros(13, np.uint8)
    counts = np.zeros(3, np.int64)
    for card, row in zip(deck, slots):
        board[STARTS[row] + counts[row]] = card
        counts[row] += 1
    seen = deck[:placed + rng.integers(0, 8)]
    known = np.uint64(sum(1 << int(c) for c in seen))
    return board, counts, known, deck[len(seen):]


def groups(cards):
    """(kind, top rank) of a row's cards so far, as the kernel's ``groups`` defines them."""
    counts = sorted(((list(c >> 2 for c in cards).count(r), r) for r in range(13)), reverse=True)
    (first, top), (second, _) = counts[0], counts[1]
    if first == 4:
        return L.QUADS, top
    if first == 3:
        return (L.FULL_HOUSE if second >= 2 else L.TRIPS), top
    if first == 2:
        pairs = [r for n, r in counts if n == 2]
        return (L.TWO_PAIR if len(pairs) > 1 else L.PAIR), max(pairs)
    return L.NOTHING, -1


def row_reference(cards, known):
    """A middle's or back's ``ROW_FEATURES`` by the module doc, plainly."""
    out = np.zeros(L.ROW_FEATURES)
    kind, top = groups(cards)
    if kind:
        out[min(kind, L.FULL_HOUSE) - 1] = 1
        out[4] = top / 12
    n = len(cards)
    if n >= 2:
        suits = {c & 3 for c in cards}
        suit = next(iter(suits))
        live = sum(not known >> np.uint64(r * 4 + suit) & np.uint64(1) for r in range(13))
        if len(suits) == 1 and live >= 5 - n:
            out[5], out[6] = 1, n / 5
        ranks = {c >> 2 for c in cards}
        windows = [set(range(low, low + 5)) for low in range(9)] + [{12, 0, 1, 2, 3}]
        if len(ranks) == n and any(ranks <= w for w in windows):
            out[7] = n / 5
    return out


def reference(board, counts, known, drawn):
    """:func:`learned.features` in plain Python: the fills scored by the evaluator, the rows'
    patterns by :func:`groups` and :func:`row_reference`."""
    out = np.zeros(L.N_FEATURES)
    out[L.F_BIAS] = 1
    rows = [[int(c) for c in board[s:s + n]] for s, n in zip(STARTS, counts)]
    for fill in drawn if len(drawn) else [[]]:
        rest = list(fill)
        full = [row + [rest.pop(0) for _ in range(size - len(row))] for row, size in zip(rows, SIZES)]
        f, m, b = eval3(*full[0]), eval5(*full[1]), eval5(*full[2])
        if not b >= m >= f:
            out[L.F_FOUL] += 1
            continue
        out[L.F_ROYALTY] += GAME.royalty[0, f] + GAME.royalty[1, m] + GAME.royalty[2, b]
        out[L.F_ENTRY] += GAME.entry[f] > 0
        out[L.F_ROWS] += 2 * (GAME.cdf[0, f] + GAME.cdf[1, m] + GAME.cdf[2, b]) - 3
    out[L.F_FOUL:L.F_ROWS + 1] /= max(len(drawn), 1)
    kind, top = groups(rows[0])
    if kind == L.TRIPS:
        out[L.F_FRONT + 5] = 1
    elif kind == L.PAIR:
        out[L.F_FRONT + (0 if top < 4 else 1 if top < 10 else top - 8)] = 1
    elif len(rows[0]) < 3:
        out[L.F_FRONT_DRAW] = sum(not known >> np.uint64(r * 4 + s) & np.uint64(1)
                                  for r in {c >> 2 for c in rows[0]} if r >= 10 for s in range(4)) / 3
    out[L.F_ROOM:L.F_ROOM + 3] = [(size - len(row)) / size for row, size in zip(rows, SIZES)]
    out[L.F_MIDDLE:L.F_MIDDLE + L.ROW_FEATURES] = row_reference(rows[1], known)
    out[L.F_BACK:L.F_BACK + L.ROW_FEATURES] = row_reference(rows[2], known)
    middle, back = groups(rows[1]), groups(rows[2])
    out[L.F_FRONT_OVER_MIDDLE] = kind != L.NOTHING and middle < (kind, top)
    out[L.F_MIDDLE_OVER_BACK] = middle[0] != L.NOTHING and back < middle
    enters = kind in (L.PAIR, L.TRIPS) and (kind == L.TRIPS or top >= 10)  # Pineapple: QQ or better
    if enters:
        out[L.F_FANTASY_FOUL] = out[L.F_FOUL]
        out[L.F_FANTASY_ROOM] = (10 - len(rows[1]) - len(rows[2])) / 10
        out[L.F_FANTASY_ROWS:] = out[L.F_MIDDLE:L.F_BACK + L.ROW_FEATURES]
    return out


@pytest.mark.parametrize("placed", [1, 3, 5, 7, 9, 11, 13])
def test_features_match_the_reference(placed):
    rng = np.random.default_rng(placed)
    for _ in range(150):
        board, counts, known, rest = random_position(rng, placed)
        need = 13 - placed
        drawn = np.array([rng.permutation(rest)[:need] for _ in range(5)] if need else np.zeros((0, 0)), np.uint8)
        out = np.zeros(L.N_FEATURES)
        L.features(board, counts, known, drawn, GAME, out)
        np.testing.assert_allclose(out, reference(board, counts, known, drawn), atol=1e-12)


def test_made_patterns_on_chosen_rows():
    """Patterns a random board rarely holds: trips and queens in front, a wheel draw, flushes."""
    from sapsam.game.cards import parse_cards

    def feats(front, middle, back):
        board = np.zeros(13, np.uint8)
        counts = np.zeros(3, np.int64)
        placed = []
        for r, text in enumerate((front, middle, back)):
            cards = parse_cards(text)
            board[STARTS[r]:STARTS[r] + len(cards)] = cards
            counts[r] = len(cards)
            placed += [int(c) for c in cards]
        fill = np.array([np.setdiff1d(np.arange(52), placed)[:13 - len(placed)]], np.uint8)
        out = np.zeros(L.N_FEATURES)
        L.features(board, counts, np.uint64(sum(1 << c for c in placed)), fill, GAME, out)
        return out

    out = feats("Qs Qh", "As 2d", "5c 4c 3c")
    assert out[L.F_FRONT + 2] == 1 and out[L.F_FANTASY_ROOM] == pytest.approx(0.5)
    assert out[L.F_FRONT_OVER_MIDDLE] == 1 and out[L.F_MIDDLE + 7] == pytest.approx(0.4)  # a wheel draw
    assert out[L.F_BACK + 5] == 1 and out[L.F_BACK + 7] == pytest.approx(0.6)
    assert out[L.F_FANTASY_ROWS + L.ROW_FEATURES + 5] == 1  # a queens front's back draw counted again
    out = feats("7s 7h 7d", "Kd Kc 2s 2h", "Ac Ad Ah")
    assert out[L.F_FRONT + 5] == 1 and out[L.F_MIDDLE + 1] == 1 and out[L.F_BACK + 2] == 1
    assert out[L.F_FRONT_OVER_MIDDLE] == 1 and out[L.F_MIDDLE_OVER_BACK] == 0


def test_round_zero_is_the_improved_heuristic():
    """With the start weights the learned value is the improved heuristic's, on the same fills:
    the same placement, position after position (ties aside, which float rounding may break
    either way: none is expected among random positions)."""
    weights = start_weights(RULES, 2)
    params = improved_params(RULES.id, 2)
    rng = np.random.default_rng(5)
    for _ in range(200):
        placed = int(rng.choice([0, 5, 7, 9]))
        board, counts, known, rest = random_position(rng, placed)
        nd, keep = (5, 5) if placed == 0 else (3, 2)
        dealt = rest[:nd].copy()
        known |= np.uint64(sum(1 << int(c) for c in dealt))
        state = np.array([rng.integers(1 << 62)], np.uint64)
        a = L.learned_choice(board, counts, dealt, nd, keep, known, state.copy(), GAME, params, weights)
        b = heuristic_choice(board, counts, dealt, nd, keep, known, state.copy(), GAME, params)
        assert a == b


def test_placements_are_legal_whatever_the_weights():
    rng = np.random.default_rng(9)
    params = default_params()
    for explore in (0.0, 0.5):
        params[H_EXPLORE] = explore
        for _ in range(200):
            placed = int(rng.choice([0, 5, 7, 9, 11]))
            board, counts, known, rest = random_position(rng, placed)
            nd, keep = (5, 5) if placed == 0 else (3, 2)
            weights = rng.normal(size=(L.N_PLACED, L.N_FEATURES))
            code = L.learned_choice(board, counts, rest[:nd].copy(), nd, keep, known,
                                    np.array([rng.integers(1 << 62)], np.uint64), GAME, params, weights)
            assert code >= 0 and legal(code, nd, keep, counts)


def test_fit_recovers_known_weights():
    rng = np.random.default_rng(2)
    x = np.column_stack([np.ones(20_000), rng.normal(size=(20_000, 6))])
    truth = rng.normal(size=7) * 3
    y = x @ truth + rng.normal(size=20_000)
    np.testing.assert_allclose(fit(x, y), truth, atol=0.05)


def test_selfplay_traces_and_duplicate_decks():
    """Self-play's traces: each decision's board as it was left (5, 7, 9, 11, 13 cards), every
    card one the seat had seen; and the same states deal the same decks with the seats
    swapped (a random and a heuristic seat, whose draws differ: seat 0's first street is the
    same 5 cards in every hand that nobody plays in Fantasyland)."""
    players, blocks, hands = 2, 4, 5
    tables = RULES.tables
    states = Stream(3, "ofc-learn").states(blocks)
    firsts = []
    for codes in ((RANDOM, HEURISTIC), (HEURISTIC, RANDOM)):
        traces = np.zeros((blocks, hands, players, L.N_PLACED, TRACE), np.uint64)
        targets = np.zeros((blocks, hands, players))
        selfplay_blocks(states, hands, np.array(codes, np.int64), np.tile(default_params(), (players, 1)),
                        np.zeros((players, L.N_PLACED, L.N_FEATURES)), GAME, tables.stay, tables.worth_milli,
                        RULES.fantasyland.stay_cards, tables.scores, traces, targets)
        built = ~np.isnan(targets)
        placed = traces[..., 13:16].sum(axis=-1)
        assert (placed[built][:, [5, 7, 9, 11, 13]] == [5, 7, 9, 11, 13]).all()
        assert (placed[~built] == 0).all()
        for row in traces[built][:, 13]:
            cards = row[:13].astype(np.int64)
            assert len(set(cards)) == 13 and all(row[16] >> np.uint64(c) & np.uint64(1) for c in cards)
        assert np.isfinite(targets[built]).all()
        firsts.append({(b, h): first_street(traces[b, h, 0, 5]) for b in range(blocks) for h in range(hands)
                       if built[b, h].all()})  # nobody in Fantasyland: seat 0's first 5 cards are the deck's
    common = firsts[0].keys() & firsts[1].keys()
    assert any(h > 0 for _, h in common)
    assert all(firsts[0][key] == firsts[1][key] for key in common)


def first_street(trace):
    """The cards of a trace row's board, sorted."""
    return sorted(int(trace[STARTS[r] + i]) for r in range(3) for i in range(int(trace[13 + r])))


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def mine(tmp_path, monkeypatch):
    """A ruleset file of the user's own, extending Pineapple: no weights are shipped for it."""
    monkeypatch.setenv("SAPSAM_DATA", str(tmp_path))
    path = tmp_path / "mine.toml"
    path.write_text('id = "mine"\nname = "Mine"\nextends = "ofc-pineapple"\n')
    return path


@pytest.mark.parametrize("args, message", [
    (("ofc", "duel", "learned", "nobody"), "unknown OFC policy 'nobody'"),
    (("ofc", "duel", "learned", "improved", "--rules", "ofc-nowhere"), "ofc-nowhere"),
    (("ofc", "learn", "--rules", "ofc-nowhere"), "ofc-nowhere"),
    (("ofc", "simulate", "--rules", "MINE", "--seats", "learned,learned,learned"),
     "no learned OFC strategy for mine at 3"),
])
def test_bad_input_is_one_line_and_status_2(args, message, mine):
    result = run(*(str(mine) if arg == "MINE" else arg for arg in args))
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_learn_writes_weights_the_learned_policy_plays(tmp_path, monkeypatch):
    """`ofc learn` into the user's folder, then `ofc duel` and `ofc simulate` play by them."""
    import json

    from sapsam.ofc.play import learned_weights

    monkeypatch.setenv("SAPSAM_DATA", str(tmp_path))
    result = run("ofc", "learn", "--rounds", "2", "--hands", "200", "--quiet")
    assert result.exit_code == 0, result.output
    saved = json.loads(next(tmp_path.rglob("learned-ofc-pineapple-2p.json")).read_text())
    assert len(saved["history"]) == 2 and saved["history"][0]["streets"].keys() == {"5", "7", "9", "11"}
    weights = learned_weights("ofc-pineapple", 2)
    assert weights.shape == (L.N_PLACED, L.N_FEATURES) and (weights[[5, 7, 9, 11]] != 0).any()
    duel = run("ofc", "duel", "learned", "improved", "--hands", "100", "--json")
    assert duel.exit_code == 0, duel.output
    answer = json.loads(duel.output)
    first, second = (s["by_seat"] for s in answer["seatings"])
    assert answer["lead"] == pytest.approx((first[0]["points"] + second[1]["points"]) / 2)
    shown = run("ofc", "duel", "learned", "improved", "--hands", "100").output  # each seating's points with its CI
    seat = first[0]
    line = next(line for line in shown.splitlines() if f"{seat['points']:+.3f}" in line)
    assert f"[{seat['ci_low']:+.2f}, {seat['ci_high']:+.2f}]" in line, shown
    assert run("ofc", "simulate", "--seats", "learned,random", "--hands", "50").exit_code == 0


def test_place_rolls_out_with_the_learned_policy():
    """`ofc place --policy learned`: every legal placement ranked, the turns shared once a
    deal giving the same numbers as once a placement (as for the heuristic)."""
    from pandas.testing import assert_frame_equal

    from sapsam.ofc.measure.place import rank_placements

    args = ("ofc-pineapple", "As | 9h 9s | Kd 4c", "Qh 7d 2c")
    shared = rank_placements(*args, samples=32, race=False, policy="learned")
    alone = rank_placements(*args, samples=32, race=False, policy="learned", share=False)
    assert shared.policy == "learned" and len(shared.table) == 27  # 3 discards x 9 rows, every one legal
    assert_frame_equal(shared.table, alone.table)


def test_a_simulation_seats_the_strongest_policy_shipped_unless_told(mine):
    """Issue 38 item 3: the lookahead by default where the learned weights it shortlists by are
    shipped for every ruleset at the table size (every ruleset shipped, at 2 and 3 players),
    else improved, else the heuristic."""
    from sapsam.ofc.measure.simulate import default_seats

    for rules in ofc_rules_ids():
        assert default_seats([rules]) == ("lookahead", "lookahead")
        assert default_seats([rules], 3) == ("lookahead",) * 3
    # no weights of its own: the heuristic, alone or beside one that has
    assert default_seats([str(mine)]) == ("heuristic", "heuristic")
    assert default_seats(["ofc-pineapple", str(mine)], 3) == ("heuristic",) * 3

