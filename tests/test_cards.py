"""Cards and settings as text (analysis/game/cards.py)."""

import naive
import numpy as np
import pytest

from sapsam.game.cards import (
    format_card,
    format_cards,
    format_setting,
    parse_card,
    parse_cards,
    parse_hand,
    parse_setting,
)

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
SETTING = "Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h 5s Ad"


# ---- parsing and formatting -----------------------------------------------------------------

@pytest.mark.parametrize("token, code", [
    ("2c", 0), ("2d", 1), ("2h", 2), ("2s", 3), ("3c", 4), ("Tc", 32), ("Jd", 37),
    ("Qh", 42), ("Kd", 45), ("As", 51),
])
def test_parse_card_codes(token, code):
    assert parse_card(token) == code
    assert format_card(code) == token


@pytest.mark.parametrize("token", ["As", "as", "AS", "aS", "A♠", "a♠", "A♤", " As "])
def test_ace_of_spades_spellings(token):
    assert parse_card(token) == 51


@pytest.mark.parametrize("token, plain", [
    ("10h", "Th"), ("10H", "Th"), ("th", "Th"), ("T♥", "Th"), ("10♡", "Th"),
    ("K♦", "Kd"), ("k♢", "Kd"), ("7♣", "7c"), ("7♧", "7c"), ("q♠", "Qs"),
])
def test_aliases(token, plain):
    assert parse_card(token) == naive.card(plain)


def test_every_card_round_trips():
    text = format_cards(range(52))
    assert text.split() == [naive.card_text(c) for c in range(52)]
    assert parse_cards(text).tolist() == list(range(52))
    assert parse_cards(text.lower()).tolist() == list(range(52))


def test_parse_cards_keeps_order_and_dtype():
    codes = parse_cards("As Kd Th")
    assert codes.dtype == np.uint8
    assert codes.tolist() == [51, 45, 34]


@pytest.mark.parametrize("text", ["As,Kd,Th", "As, Kd, Th", "as kd 10h", "A♠ K♦ 10♥",
                                  "  As   Kd\tTh  ", "As ,Kd,  Th"])
def test_separators_case_and_symbols(text):
    assert parse_cards(text).tolist() == [51, 45, 34]


def test_parse_cards_from_tokens():
    assert parse_cards(["As", "kd", "10h"]).tolist() == [51, 45, 34]


def test_format_cards_descending():
    assert format_cards(parse_cards("as 10h 2♦")) == "As Th 2d"
    assert format_cards(parse_cards("2d as 10h"), descending=True) == "As Th 2d"


def test_parse_hand():
    hand = parse_hand(HAND)
    assert hand.shape == (13,) and hand.dtype == np.uint8
    assert hand.tolist() == naive.cards(HAND)


def test_setting_round_trip():
    front, middle, back = parse_setting(SETTING)
    assert [r.tolist() for r in (front, middle, back)] == [naive.cards(p) for p in SETTING.split("|")]
    assert format_setting(front, middle, back) == "Qs Qh 7c | Jh Jd Jc 2d 2c | Ad 5s 5h 5d 5c"
    assert [r.tolist() for r in parse_setting(format_setting(front, middle, back))] == [
        sorted(naive.cards(p), reverse=True) for p in SETTING.split("|")]


def test_format_setting_sorts_each_row_high_first():
    rows = parse_setting("7c qh qs | 2c 2d jc jd jh | 5c 5d 5h 5s ad")
    assert format_setting(*rows) == "Qs Qh 7c | Jh Jd Jc 2d 2c | Ad 5s 5h 5d 5c"


def test_format_card_rejects_out_of_range():
    with pytest.raises(ValueError, match="52"):
        format_card(52)
    with pytest.raises(ValueError, match="-1"):
        format_card(-1)


# ---- bad input: ValueError naming the offending token ---------------------------------------

@pytest.mark.parametrize("token", ["1s", "Xs", "Ax", "11h", "A", "10", "Ass", "0s", "A♔"])
def test_unknown_card_names_token(token):
    with pytest.raises(ValueError) as info:
        parse_cards(f"Kd {token} 2c")
    assert repr(token) in str(info.value)


def test_duplicate_card_names_token():
    with pytest.raises(ValueError) as info:
        parse_cards("As Kd as")
    message = str(info.value)
    assert "duplicate" in message and "'as'" in message and "'As'" in message


def test_duplicate_by_alias():
    with pytest.raises(ValueError, match="duplicate"):
        parse_cards("Th 10h")


def test_hand_needs_thirteen_cards():
    twelve = HAND.rsplit(" ", 1)[0]
    with pytest.raises(ValueError) as info:
        parse_hand(twelve)
    assert "13" in str(info.value) and "12" in str(info.value)
    with pytest.raises(ValueError, match="13"):
        parse_hand(HAND + " 7c")
    with pytest.raises(ValueError, match="13"):
        parse_hand("")


def test_hand_bad_token_is_named_before_count():
    with pytest.raises(ValueError, match="'Xs'"):
        parse_hand("As Kd Xs")


@pytest.mark.parametrize("text, row, wanted, got", [
    ("Qs Qh | Jc Jd Jh 2c 2d 7c | 5c 5d 5h 5s Ad", "front", 3, 2),
    ("Qs Qh 7c | Jc Jd Jh 2c | 5c 5d 5h 5s Ad 2d", "middle", 5, 4),
    ("Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h 5s", "back", 5, 4),
])
def test_setting_row_counts(text, row, wanted, got):
    with pytest.raises(ValueError) as info:
        parse_setting(text)
    message = str(info.value)
    assert row in message and str(wanted) in message and str(got) in message


@pytest.mark.parametrize("text", [
    "Qs Qh 7c Jc Jd Jh 2c 2d 5c 5d 5h 5s Ad",
    "Qs Qh 7c | Jc Jd Jh 2c 2d 5c 5d 5h 5s Ad",
    "Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h 5s | Ad",
])
def test_setting_needs_three_rows(text):
    with pytest.raises(ValueError, match="front"):
        parse_setting(text)


def test_card_in_two_rows():
    with pytest.raises(ValueError) as info:
        parse_setting("Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h Qs Ad")
    assert "Qs" in str(info.value)


def test_bad_card_in_setting_named():
    with pytest.raises(ValueError, match="'Xs'"):
        parse_setting("Qs Qh 7c | Jc Jd Jh 2c 2d | 5c 5d 5h Xs Ad")
