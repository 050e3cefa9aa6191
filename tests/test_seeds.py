"""The one seeding scheme: a stream per (seed, purpose, key), reproducible piece by piece."""

import numpy as np
import pytest

from sapsam.play.seeds import PURPOSES, Stream


def test_purpose_codes_are_distinct():
    assert len(set(PURPOSES.values())) == len(PURPOSES)


def test_a_stream_is_reproducible_and_its_blocks_independent_of_the_range_asked():
    whole = Stream(7, "simulate").states(10)
    np.testing.assert_array_equal(Stream(7, "simulate").states(10), whole)
    np.testing.assert_array_equal(Stream(7, "simulate").states(4, first=6), whole[6:])
    assert len(set(whole.tolist())) == 10


@pytest.mark.parametrize("other", [Stream(8, "simulate"), Stream(7, "opponents"),
                                   Stream(7, "simulate", (0,))])
def test_seed_purpose_and_key_each_change_the_numbers(other):
    mine = Stream(7, "simulate")
    assert not set(mine.states(50).tolist()) & set(other.states(50).tolist())
    assert not np.array_equal(mine.generator().permutation(52), other.generator().permutation(52))


def test_child_extends_the_key():
    assert Stream(1, "exploit", (3,)).child(2, 1) == Stream(1, "exploit", (3, 2, 1))


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True])
def test_a_seed_must_be_a_whole_number(seed):
    with pytest.raises(ValueError, match="seed must be a whole number"):
        Stream(seed, "fit")


def test_an_unknown_purpose_is_refused():
    with pytest.raises(ValueError, match="unknown purpose 'deals'"):
        Stream(1, "deals")
