"""A night's hands reviewed from a CSV file: ``sapsam review --file`` and ``sapsam.review(file=)``
(analysis/measure/review.py: read_played, review_played, review_total).

Each hand is the one-hand review with the seed plus its line's number, so the hands'
estimates are independent and the total's half-width is the root of the sum of their squares.
"""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

import sapsam
from sapsam.cli import main
from sapsam.measure.review import read_played

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
PLAYED = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"
BEST = "9s 9h 4h | 5d 5c 3s 2d 2c | As Kd Qh Jc Ts"
GREEDY_THIRD = "4h 2d 2c | 9s 9h 5d 5c 3s | As Kd Qh Jc Ts"  # against greedy opponents PLAYED is the best
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
SMALL = ["--opponents", "greedy", "--samples", "400"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def night(tmp_path, text, name="night.csv"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_each_hand_is_its_own_review_and_the_total_adds_variances(tmp_path):
    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\n{HAND},{BEST}\n{HAND},{PLAYED}\n")
    result = run("review", "--file", path, *SMALL, "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert [h["line"] for h in answer["hands"]] == [2, 3, 4]
    for hand in answer["hands"]:  # the one-hand review, seeded 7 plus the hand's line, measured apart too
        alone = sapsam.review(HAND, hand["setting"], opponents="greedy", samples=400, seed=7 + hand["line"])
        assert {k: v for k, v in hand.items() if k not in ("line", "hand", "other")} == alone.to_dict()
    first, _, again = answer["hands"]
    assert first["ev"] != again["ev"]  # the same play on two lines: two seeds, two estimates
    total = answer["total"]
    losses = [h["loss"] for h in answer["hands"]]
    half = math.hypot(*((h["loss_ci"][1] - h["loss_ci"][0]) / 2 for h in answer["hands"]))
    assert total["hands"] == 3 and total["refused"] == 0
    assert total["loss"] == pytest.approx(sum(losses), abs=1e-12)
    assert total["loss_ci"] == pytest.approx([sum(losses) - half, sum(losses) + half], abs=1e-12)
    assert total["per_hand_ci"] == pytest.approx([(sum(losses) - half) / 3, (sum(losses) + half) / 3], abs=1e-12)
    apart = [h["held_out_loss"] for h in answer["hands"]]
    apart_half = math.hypot(*((h["held_out_ci"][1] - h["held_out_ci"][0]) / 2 for h in answer["hands"]))
    assert total["held_out_loss"] == pytest.approx(sum(apart), abs=1e-12)
    assert total["held_out_ci"] == pytest.approx([sum(apart) - apart_half, sum(apart) + apart_half], abs=1e-12)
    assert total["held_out_per_hand"] == pytest.approx(sum(apart) / 3, abs=1e-12)


def test_a_refused_hand_is_told_and_the_others_reviewed(tmp_path):
    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\nAs As Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d,{PLAYED}\n"
                           f"{HAND},{PLAYED.replace('As', '7d')}\n")
    result = run("review", "--file", path, *SMALL)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "line 3 refused: duplicate card 'As'" in result.stderr
    assert "line 4 refused: the setting must use exactly the 13 cards of the hand" in result.stderr
    assert "1 hand, 2 refused" in result.stdout and PLAYED in result.stdout and "Lost in all" in result.stdout


@pytest.mark.parametrize("text, said", [
    ("a,b\n1,2\n", "the first line must name the columns hand and setting"),
    ("hand,setting\n\n", "no hands after the header line"),
    ("", "the first line must name the columns hand and setting (and other, your other hand, in "
         "criss-cross), got nothing"),
])
def test_a_file_without_hands_is_refused_naming_it(tmp_path, text, said):
    path = night(tmp_path, text)
    result = run("review", "--file", path, *SMALL)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{path}: {said}" in result.stderr


def test_an_unreadable_file_is_refused(tmp_path):
    path = tmp_path / "night.csv"
    path.write_bytes(b"\xff\xfe\x00hand")  # a UTF-16 mark, then no header of this kind
    result = run("review", "--file", str(path), *SMALL)
    assert result.exit_code == 2 and f"{path}: the first line must name the columns" in result.stderr
    assert run("review", "--file", str(tmp_path / "none.csv")).exit_code == 2
    with pytest.raises(ValueError, match=f"{tmp_path}: cannot be read"):
        read_played(tmp_path)  # a folder


@pytest.mark.parametrize("args, said", [
    (["--file", "{path}", HAND], "give HAND and SETTING, or --file, not both"),
    (["--file", "{path}", "--other", OTHER], "give HAND and SETTING, or --file, not both"),
    ([HAND], "give HAND and SETTING (the 13 cards and how they were set), or --file"),
    ([], "give HAND and SETTING (the 13 cards and how they were set), or --file"),
])
def test_a_hand_or_a_file(tmp_path, args, said):
    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\n")
    result = run("review", *[a.format(path=path) for a in args], *SMALL)
    assert result.exit_code == 2 and said in result.stderr


def test_the_header_in_any_order_and_case_with_a_bom_blank_lines_and_other_columns(tmp_path):
    path = tmp_path / "night.csv"
    path.write_text(f'\ufeffNote,Setting,HAND\nfirst,"{PLAYED}",{HAND}\n\n,{BEST},"{HAND}"\n', encoding="utf-8")
    assert read_played(path) == [(2, HAND, PLAYED, None), (4, HAND, BEST, None)]


@pytest.mark.parametrize("delimiter, encoding", [(";", "utf-8"), ("\t", "utf-16"), (",", "utf-8-sig"),
                                                 ("\t", "utf-16-le"), (";", "utf-16-be")])
def test_a_spreadsheet_s_csv_with_semicolons_or_its_unicode_text_with_tabs(tmp_path, delimiter, encoding):
    path = tmp_path / "night.csv"
    path.write_text(f"hand{delimiter}setting\r\n{HAND}{delimiter}{PLAYED}\r\n", encoding=encoding)
    assert read_played(path) == [(2, HAND, PLAYED, None)]


def test_a_column_named_twice_is_refused(tmp_path):
    path = tmp_path / "night.csv"
    path.write_text(f"hand,setting,Hand\n{HAND},{PLAYED},{OTHER}\n")
    with pytest.raises(ValueError, match="names the column hand 2 times"):
        read_played(path)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_unicode_text_without_its_mark_whose_first_column_is_not_ascii(tmp_path, encoding):
    """UTF-16 without a byte-order mark is told by its ASCII's zero bytes, not its first
    character: a first column named "№" (as Russian spreadsheets have it)."""
    path = tmp_path / "night.csv"
    path.write_text(f"№\thand\tsetting\r\n1\t{HAND}\t{PLAYED}\r\n", encoding=encoding)
    assert read_played(path) == [(2, HAND, PLAYED, None)]


def test_criss_cross_reads_the_other_hands(tmp_path):
    path = night(tmp_path, f"hand,other,setting\n{HAND},{OTHER},{PLAYED}\n{HAND},,{PLAYED}\n")
    reviewed = sapsam.review(file=path, rules="criss-cross", opponents="greedy", samples=300)
    good, bad = reviewed.hands
    alone = sapsam.review(HAND, PLAYED, rules="criss-cross", opponents="greedy", samples=300, seed=2, other=OTHER)
    assert good["loss"] == alone.loss and good["rank"] == alone.rank
    assert good["held_out_loss"] == alone.held_out_loss and good["held_out_ci"] == alone.held_out_ci
    assert bad["line"] == 3 and "give your other hand too" in bad["error"]
    assert reviewed.refused == [bad] and reviewed.total["hands"] == 1
    frame = reviewed.to_frame()
    assert list(frame.index) == [2, 3] and frame.loc[2, "loss"] == alone.loss


def test_the_api_refuses_a_hand_and_a_file_together(tmp_path):
    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\n")
    with pytest.raises(ValueError, match="not both"):
        sapsam.review(HAND, PLAYED, file=path)
    with pytest.raises(ValueError, match=r"give a hand and its setting, or file="):
        sapsam.review(HAND)
    with pytest.raises(ValueError, match="samples"):
        sapsam.review(file=path, samples=0)


def test_an_interrupted_review_shows_the_hands_it_had_done(tmp_path, monkeypatch):
    import sapsam.measure.best as best_module

    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\n{HAND},{BEST}\n{HAND},{PLAYED}\n")
    calls = []
    real = best_module.best_setting

    def stopped_at_the_second(*args, **kwargs):  # Ctrl-C while the second hand is sampled
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(best_module, "best_setting", stopped_at_the_second)
    result = run("review", "--file", path, *SMALL)
    assert result.exit_code == 130, result.output
    assert "1 hand (interrupted after line 2)" in result.stdout and "Lost in all" in result.stdout
    assert "interrupted" in result.stderr
    calls.clear()
    answer = json.loads(run("review", "--file", path, *SMALL, "--json").stdout)
    assert answer["interrupted"] and [h["line"] for h in answer["hands"]] == [2]
    calls.clear()
    with pytest.raises(KeyboardInterrupt):  # the API's caller is interrupted as it asked
        sapsam.review(file=path, opponents="greedy", samples=400)


def test_csv_writes_a_row_a_hand_or_the_hand_s_candidates(tmp_path):
    import pandas as pd

    path = night(tmp_path, f"hand,setting\n{HAND},{PLAYED}\nAs As Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d,{PLAYED}\n")
    out = tmp_path / "out" / "reviewed.csv"
    result = run("review", "--file", path, *SMALL, "--csv", str(out))
    assert result.exit_code == 2  # a hand refused: its row holds the error, the file is written
    table = pd.read_csv(out, index_col="line")
    assert list(table.index) == [2, 3] and table.loc[2, "setting"] == PLAYED and "duplicate" in table.loc[3, "error"]
    one = tmp_path / "one.csv"
    assert run("review", HAND, PLAYED, *SMALL, "--csv", str(one)).exit_code == 0
    ranking = pd.read_csv(one)
    assert PLAYED in set(ranking["setting"]) and len(ranking) == json.loads(
        run("review", HAND, PLAYED, *SMALL, "--json").stdout)["candidates"]


def test_a_loss_measured_apart_is_the_chosen_best_s_gap_without_the_ranking_s_lean():
    """Measured apart (held_out), a loss is an unbiased estimate of the gap between the best the
    ranking chose and the played setting: over 40 seeds at 300 tables each, its mean is within
    4 standard errors of that gap measured on 40,000 tables; and a played best loses nothing."""
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.measure.best import best_setting
    from sapsam.measure.review import held_out, played_setting
    from sapsam.strategy.registry import make_policy

    rules = load_ruleset("standard")
    policy = make_policy("greedy", rules, 4)
    cards, rows = played_setting(HAND, GREEDY_THIRD)
    chosen, apart = set(), []
    for seed in range(40):
        result = best_setting(cards, rules, 4, policy, 300, seed, extra=[rows])
        chosen.add(result.table["setting"].iloc[0])
        apart.append(held_out(result, rows, policy, 300, seed)[0])
    assert len(chosen) == 1  # the same best every time: one gap to estimate
    best = chosen.pop()
    truth = best_setting(cards, rules, 4, policy, 40000, 1000, extra=[rows]).table.set_index("setting")
    gap = truth.loc[best, "ev"] - truth.loc[GREEDY_THIRD, "ev"]
    assert gap > 0.2  # a loss to measure
    se = float(np.std(apart, ddof=1) / np.sqrt(len(apart)))
    assert abs(np.mean(apart) - gap) < 4 * se + 0.01, (np.mean(apart), gap, se)  # 0.01: truth's own error
    _, best_rows = played_setting(HAND, best)
    best_played = best_setting(cards, rules, 4, policy, 300, 0, extra=[best_rows])
    assert best_played.table["setting"].iloc[0] == best
    assert held_out(best_played, best_rows, policy, 300, 0) == (0.0, [0.0, 0.0])


def test_a_leading_blank_line_cp1252_and_other_hands_a_game_of_one_hand_does_not_deal(tmp_path):
    from sapsam.game.ruleset_files import load_ruleset

    path = tmp_path / "night.csv"
    path.write_bytes(f"\r\n\nhand,setting,note\n{HAND},{PLAYED},caf\xe9\n".encode("cp1252"))
    assert read_played(path) == [(4, HAND, PLAYED, None)]
    path.write_text(f"hand,setting,other\n{HAND},{PLAYED},{OTHER}\n")
    with pytest.raises(ValueError, match="only criss-cross deals"):
        read_played(path, load_ruleset("standard"))


def test_a_loss_measured_apart_in_steps_is_the_same_and_counts_its_tables():
    """With a progress callback the held-out tables are sampled in steps of whole blocks, each
    drawing its own opponents: the same loss, bit for bit, and the count reaches every table."""
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.measure.best import best_setting
    from sapsam.measure.review import held_out, played_setting
    from sapsam.strategy.registry import make_policy

    rules = load_ruleset("standard")
    policy = make_policy("greedy", rules, 4)
    cards, rows = played_setting(HAND, GREEDY_THIRD)
    result = best_setting(cards, rules, 4, policy, 300, 0, extra=[rows])
    assert result.table["setting"].iloc[0] != GREEDY_THIRD  # something to measure
    calls = []
    stepped = held_out(result, rows, policy, 2550, 5, progress=lambda done, total: calls.append((done, total)))
    assert stepped == held_out(result, rows, policy, 2550, 5)  # 2,550 tables: 25 whole blocks and a half
    assert len(calls) > 1 and calls[-1] == (2550, 2550) and [d for d, _ in calls] == sorted({d for d, _ in calls})


def test_a_surrender_or_a_declared_natural_is_reviewed_as_the_candidate_it_is():
    """A player who surrendered or declared a natural reviews that choice: its rank and loss are
    those of the ranking's own surrender or natural row (the same tables), measured apart too;
    a ruleset without surrender, or a hand without a natural, is refused by name."""
    ranked = sapsam.best(HAND, opponents="greedy", samples=400, seed=3).to_frame().set_index("setting")
    surrendered = sapsam.review(HAND, "Surrender", opponents="greedy", samples=400, seed=3)
    assert surrendered.setting == "surrender" and surrendered.legal
    assert surrendered.ev == ranked.loc["surrender", "ev"] and surrendered.loss == -ranked.loc["surrender", "gap"]
    assert surrendered.held_out_ci[0] > 0  # surrendering this hand costs, measured apart too
    pairs = "As Ad Ks Kd Qs Qd Js Jd Ts Td 9s 9d 2c"  # six pairs
    declared = sapsam.review(pairs, "natural", opponents="greedy", samples=400, seed=3)
    assert declared.setting == "natural (six-pairs)" and declared.rank >= 1
    with pytest.raises(ValueError, match="the hand holds no natural under standard"):
        sapsam.review(HAND, "natural", opponents="greedy", samples=100)
    with pytest.raises(ValueError, match="two-four has no surrender"):
        sapsam.review(HAND, "surrender", rules="two-four", opponents="greedy", samples=100)


def test_an_impossible_declaration_is_refused_before_any_table_is_sampled():
    # 10**12 tables would be refused for their memory, or take days, were they sampled first
    with pytest.raises(ValueError, match="two-four has no surrender"):
        sapsam.review(HAND, "surrender", rules="two-four", opponents="greedy", samples=10**12)
    with pytest.raises(ValueError, match="the hand holds no natural under standard"):
        sapsam.review(HAND, "natural", opponents="greedy", samples=10**12)
    refused = run("review", HAND, "surrender", "--rules", "two-four", "--opponents", "greedy",
                  "--samples", str(10**12))
    assert refused.exit_code == 2 and "two-four has no surrender" in refused.output, refused.output


def test_a_night_s_file_holds_surrenders_too(tmp_path):
    path = night(tmp_path, f"hand,setting\n{HAND},surrender\n{HAND},{PLAYED}\n")
    reviewed = sapsam.review(file=path, opponents="greedy", samples=300)
    first, second = reviewed.hands
    assert first["setting"] == "surrender" and "error" not in first and first["loss"] > 0
    assert reviewed.total["hands"] == 2
