"""House ways as data (issue 40, part 2): every shipped file loads, bad files fail naming the
file, the key and what is allowed, and the setter plays the Foxwoods text's rules."""

import pytest

from sapsam.paigow_poker.game import Rules, format_cards, low_words, parse_hand
from sapsam.paigow_poker.measure.exact import house_setting_of
from sapsam.paigow_poker.strategy import HouseWayError, house_way, house_way_ids, read_house_way


def front(text, way="foxwoods"):
    """The low hand the house way plays, in words."""
    return low_words(house_setting_of(parse_hand(text), house_way(way), Rules())[1])


@pytest.mark.parametrize("hand, expected", [
    ("Ah Kd 9c 7s 5h 3d 2c", "K-9"),       # no pair: the second and third highest
    ("Qh Qd Ac 9s 7h 4d 2c", "A-9"),       # one pair: pair in back, two highest in front
    ("Jh Jd 4c 4s Ah 8d 2c", "pair of fours"),   # big pair J+: the small pair in front
    ("9h 9d 4c 4s Ah 8d 2c", "A-8"),       # big pair 7-10: both in back with an ace in front
    ("9h 9d 4c 4s Kh 8d 2c", "pair of fours"),   # ... else split
    ("6h 6d 3c 3s Kh 8d 2c", "K-8"),       # big pair 3-6: together with a king or better
    ("6h 6d 3c 3s Qh 8d 2c", "pair of threes"),
    ("Kh Kd 7c 7s 4h 4d 2c", "pair of kings"),   # three pair: the high pair in front
    ("Ah Ad Ac Ks 9h 5d 2c", "A-K"),       # three aces: an ace and the next highest in front
    ("Kh Kd Kc 9s 7h 5d 2c", "9-7"),       # other trips stay in back
    ("Kh Kd Kc 7s 7h 7d 2c", "pair of kings"),   # two sets: a pair of the higher in front
    ("Kh Kd Kc 7s 7h 9d 2c", "pair of sevens"),  # full house: the pair in front
    ("Kh Kd Kc 7s 7h 9d 9c", "pair of nines"),   # ... the highest pair
    ("Jh Jd Jc Js 9h 5d 2c", "pair of jacks"),   # quads J-A: split
    ("9h 9d 9c 9s Kh 5d 2c", "K-5"),       # quads 7-10: together with a king in front
    ("9h 9d 9c 9s Qh 5d 2c", "pair of nines"),
    ("5h 5d 5c 5s 9h 8d 2c", "9-8"),       # quads 2-6: never split
    ("5h 5d 5c 5s 9h 9d 2c", "pair of nines"),   # quads and a pair: the pair in front
    ("Jk Ah Ad Ac As Kd Kc", "pair of kings"),   # five aces with kings: kings in front
    ("Jk Ah Ad Ac As Qd 2c", "pair of aces"),    # ... else a pair of aces
    ("Jk Ah Ad Ac Qd Qc 2s", "pair of queens"),  # four aces (the joker one) and a pair
    ("9h 8d 7c 6s 5h Kd Qc", "K-Q"),       # straight, no pair: two highest leaving it
    ("Th 9h 8d 7c 6s 5h 2c", "T-2"),
    ("Kh Kd 8c 7s 6h 5d 4c", "pair of kings"),   # straight and a pair: the pair in front
    ("9h 9d 8c 7s 6h 5d 2c", "9-2"),       # ... or the highest two that leave the straight
    ("Kh Kd Qc Js Th Ah 2c", "A-Q"),       # the exception: an ace and kings, front improves
    ("Jk Kh 9h 7h 4h Qd Qc", "pair of queens"),  # a flush with the joker, the pair in front
    ("9h 9d 4c 4s Ah 8h 2h", "A-8"),       # two pair rule beats a flush (none here)
])
def test_foxwoods_plays_its_published_rules(hand, expected):
    assert front(hand) == expected


def test_the_house_ways_differ_where_their_texts_do():
    hand = "9h 9d 4c 4s Kh 8d 2c"  # medium and low pair with a king
    assert front(hand, "foxwoods") == "pair of fours"
    assert front(hand, "canterbury-park") == "K-8"
    assert front(hand, "harrahs-reno") == "pair of fours"
    assert front("9h 9d 7c 7s Ah Jd 2c", "canterbury-park") == "A-J"  # an ace with a face
    assert front("9h 9d 7c 7s Ah Td 2c", "canterbury-park") == "pair of sevens"
    assert front("5h 5d 3c 3s Ah Td 2c", "harrahs-reno") == "A-T"


def test_at_least_three_house_ways_ship_with_their_sources():
    ids = house_way_ids()
    assert ids[0] == "foxwoods" and len(ids) >= 3
    for ident in ids:
        way = house_way(ident)
        assert way.source.startswith("http") and way.casino and way.note
    assert house_way("foxwoods").unstated == ()


def write(tmp_path, text):
    base = (house_way("foxwoods").id, )
    path = tmp_path / "mine.toml"
    from importlib.resources import files

    original = files("sapsam.paigow_poker").joinpath("houseways", f"{base[0]}.toml").read_text()
    path.write_text(text(original))
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('if_front = "A" }', 'if_front = "Z" }'),
     r"mine.toml: two_pair.rules\[1\].if_front: 'Z' is not a front; allowed: one or two ranks"),
    (lambda t: t.replace('{ big = "6 5 4 3", play = "together", if_front = "K" },', ""),
     r"mine.toml: two_pair.rules: no rule for two pair, 3s and 2s; allowed: rules that cover"),
    (lambda t: t.replace("[full_house]", "[full_house]\nkeep = 1"),
     r"mine.toml: full_house.keep: unknown key; allowed: rules"),
    (lambda t: t.replace('play = "split" }', 'play = "apart" }', 1),
     r"mine.toml: two_pair.rules\[0\].play: 'apart'; allowed: 'split' or 'together'"),
    (lambda t: t.replace('split = "A"', 'split = "A 1"'),
     r"mine.toml: three_of_a_kind.split: '1' is not a rank; allowed: ranks of 23456789TJQKA"),
    (lambda t: t.replace('split = "A"', 'split = "A K a"'),
     r"mine.toml: three_of_a_kind.split: 'a' is given twice; allowed: each rank once"),
    (lambda t: t.replace("[five_aces]", "[five_ace]"),
     r"mine.toml: five_ace: unknown key; allowed: name, casino"),
    (lambda t: t.replace("unstated = []", 'unstated = ["flushes"]'),
     r"mine.toml: unstated: \['flushes'\]; allowed: a list of sections"),
])
def test_a_bad_house_way_names_the_file_the_key_and_what_is_allowed(tmp_path, edit, message):
    path = write(tmp_path, edit)
    with pytest.raises(HouseWayError, match=message):
        read_house_way(path)


def test_a_house_way_may_be_a_file_of_ones_own(tmp_path):
    path = write(tmp_path, lambda t: t.replace('name = "Foxwoods"', 'name = "Mine"'))
    assert house_way(str(path)).name == "Mine"
    with pytest.raises(HouseWayError, match="unknown house way 'nowhere'; allowed: foxwoods"):
        house_way("nowhere")


@pytest.mark.parametrize("way", ["foxwoods", "canterbury-park", "harrahs-reno"])
def test_the_setter_plays_as_the_reference_on_random_hands(way):
    """Random hands, and hands rich in pairs, straights and flushes: the kernel's setting has
    the high and low hands (by the reference's keys) that the plain-Python house way picks."""
    import numpy as np

    from sapsam.paigow_poker.game import tables
    from sapsam.paigow_poker.kernels.exact import set_hand
    from sapsam.paigow_poker.kernels.houseway import PAIRS
    from tests.paigow_poker import reference as ref

    chosen, (scale, joker) = house_way(way), tables(Rules())
    rng = np.random.default_rng(42)
    hands = [rng.choice(53, 7, replace=False) for _ in range(600)]
    hands += [rng.choice(np.r_[np.arange(24, 53)], 7, replace=False) for _ in range(300)]  # 8s and up
    hands += [rng.choice(np.r_[np.arange(0, 52, 4), np.arange(1, 52, 4)[:6], 52], 7, replace=False)
              for _ in range(300)]  # clubs: flushes and straight flushes
    for hand in hands:
        h = np.array(sorted(hand.tolist()), dtype=np.uint8)
        k, _, _ = set_hand(h, chosen.arrays, scale, joker)
        i, j = PAIRS[k]
        low = (int(h[i]), int(h[j]))
        high = [int(c) for c in h if int(c) not in low]
        assert (ref.high_key(high), ref.low_key(*low)) == ref.house_setting(h.tolist(), chosen.arrays), \
            format_cards(h)
