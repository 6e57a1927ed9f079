"""R6 preference suits (kernels/preference.py, analyser.dealing.preference_suits)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser.cards import CardError
from analyser.dealing import cut, preference_suits
from kernels import preference as P
from kernels.jit import njit

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
# R6: the other suit of the same colour
SAME_COLOUR = {SPADES: CLUBS, CLUBS: SPADES, HEARTS: DIAMONDS, DIAMONDS: HEARTS}


@pytest.mark.parametrize("card", range(52))
def test_r6_preference_pairs_every_card(card):
    first, second = preference_suits(card)
    assert first == card // 13
    assert second == SAME_COLOUR[first]
    assert P.preference_suits(card) == (first, second)


@pytest.mark.parametrize("name, expect", [
    ("SA", (SPADES, CLUBS)), ("C2", (CLUBS, SPADES)), ("H10", (HEARTS, DIAMONDS)),
    ("♦7", (DIAMONDS, HEARTS)), ("hq", (HEARTS, DIAMONDS)), ("DT", (DIAMONDS, HEARTS)),
])
def test_r6_preference_from_card_names(name, expect):
    assert preference_suits(name) == expect


def test_r6_plain_suits_are_the_other_colour():
    for first in range(4):
        plain = [s for s in range(4) if P.is_plain_suit(s, first)]
        assert plain == sorted(set(range(4)) - {first, SAME_COLOUR[first]})
        assert len(plain) == 2


@njit
def _pairs_inside_njit(cards):
    out = np.empty((cards.shape[0], 2), dtype=np.int64)
    for i in range(cards.shape[0]):
        first, second = P.preference_suits(cards[i])
        out[i, 0] = first
        out[i, 1] = second
    return out


def test_r6_preference_kernel_inside_njit():
    pairs = _pairs_inside_njit(np.arange(52))
    assert [tuple(p) for p in pairs.tolist()] == [preference_suits(c) for c in range(52)]


@given(order=st.permutations(range(52)), point=st.integers(0, 52))
def test_r6_turned_card_is_the_top_after_the_cut(order, point):
    deck = np.array(order, dtype=np.int8)
    assert P.turned_card(deck, point) == cut(deck, point)[0]


@pytest.mark.parametrize("bad", [-1, 52, "X9", "S1", "", 3.0, True])
def test_bad_turned_card(bad):
    with pytest.raises(CardError):
        preference_suits(bad)
