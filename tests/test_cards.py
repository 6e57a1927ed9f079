"""Card encoding and PBN text (API.md "Formats"; R1, R2)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import analyser
from analyser.cards import CardError, card_name, parse_seat, parse_suit, suit_lengths
from kernels import cards as kc
from kernels.jit import njit


def test_r2_rank_order_and_card_ids():
    # card id = 13 * suit + rank; rank 12 = A, 0 = 2; suit 0 = spades
    assert analyser.parse_hand("A...") == 1 << 12
    assert analyser.parse_hand("...2") == 1 << 39
    assert analyser.parse_hand(".T..") == 1 << (13 + 8)
    assert analyser.parse_hand(".10..") == 1 << (13 + 8)


def test_parse_format_roundtrip_example():
    text = "AKQ.JT9.876.5432"
    mask = analyser.parse_hand(text)
    assert bin(mask).count("1") == 13
    assert analyser.format_hand(mask) == text
    assert analyser.format_hand(np.uint64(mask)) == text
    assert analyser.shape(mask) == "4-3-3-3"


@given(st.sets(st.integers(0, 51), max_size=52))
def test_hand_roundtrip_any_subset_of_at_most_13_cards(cards):
    mask = sum(1 << c for c in cards)
    if len(cards) <= 13:
        assert analyser.parse_hand(analyser.format_hand(mask)) == mask
    else:
        with pytest.raises(CardError, match=f"holds {len(cards)} cards"):
            analyser.parse_hand(analyser.format_hand(mask))


@pytest.mark.parametrize(
    "text, problem",
    [
        ("AKQ.JT9.876", "4 suits"),
        ("AKQX.JT9.876.5432", "unknown rank 'X'"),
        ("AKA.JT9.876.5432", "duplicate card"),
        ("AKQ.JT9.876.5432.", "4 suits"),
        ("AKQJT98765432.A..", "holds 14 cards; a hand holds at most 13"),
        ("AKQJ.AKQJ.AKQJ.AK", "holds 14 cards"),
    ],
)
def test_bad_hands_name_the_problem(text, problem):
    with pytest.raises(CardError, match=problem):
        analyser.parse_hand(text)


def test_deal_roundtrip_and_rotation():
    text = "N:AKQ2.KJ9.T87.654 J9.AQ2.KJ4.AKQ32 T876.T876.AQ.JT9 543.543.96532.87"
    deal = analyser.parse_deal(text)
    assert deal.dtype == np.uint64 and deal.shape == (4,)
    assert analyser.format_deal(deal) == text
    rotated = "E:" + text[2:]
    deal_e = analyser.parse_deal(rotated)
    assert np.array_equal(np.roll(deal, 1), deal_e)
    assert analyser.format_deal(deal_e, "E") == rotated


def test_deal_errors():
    with pytest.raises(CardError, match="4 hands"):
        analyser.parse_deal("N:AKQ2.KJ9.T87.654 J9.AQ2.KJ4.AKQ32")
    with pytest.raises(CardError, match="two hands"):
        analyser.parse_deal("N:A... A... K... Q...")
    with pytest.raises(CardError, match="unequal"):
        analyser.parse_deal("N:AK... Q... J... T...")
    with pytest.raises(CardError, match="seat"):
        analyser.parse_deal("X:A... K... Q... J...")


def test_endings_with_fewer_cards():
    assert analyser.parse_hand("AKQJT98765432...") == (1 << 13) - 1  # 13: a full hand
    assert analyser.parse_hand("A...") == 1 << 12 and analyser.parse_hand("...") == 0
    deal = analyser.parse_deal("S:A... K... Q... J...")
    assert [int(m).bit_count() for m in deal] == [1, 1, 1, 1]
    assert deal[2] == 1 << 12  # South holds the spade ace


def test_r1_seats_and_suits():
    assert [parse_seat(s) for s in "NESW"] == [0, 1, 2, 3]
    assert parse_seat(2) == 2
    for bad in (4, -1, "X", True, 1.0):
        with pytest.raises(CardError):
            parse_seat(bad)
    assert [parse_suit(s) for s in ("S", "H", "D", "C", "NT", -1, "♦")] == [0, 1, 2, 3, -1, -1, 2]


def test_shape_and_lengths():
    mask = analyser.parse_hand("AKQJT.98765.432.")
    assert suit_lengths(mask) == (5, 5, 3, 0)
    assert analyser.shape(mask) == "5-5-3-0"
    assert card_name(12) == "♠A" and card_name(13 + 8) == "♥10"


@njit
def _kernel_suit_lengths(hand):
    out = np.zeros(4, np.int64)
    for s in range(4):
        out[s] = kc.suit_length(hand, s)
    return out


@given(st.sets(st.integers(0, 51), max_size=52))
def test_kernel_card_helpers_match_python(cards):
    mask = np.uint64(sum(1 << c for c in cards))
    assert tuple(_kernel_suit_lengths(mask)) == suit_lengths(mask)
    assert kc.hand_size(mask) == len(cards)
    if cards:
        assert kc.lowest_card(mask) == min(cards)
        assert kc.highest_card(mask) == max(cards)
    for s in range(4):
        expected = sum(1 << (c - 13 * s) for c in cards if c // 13 == s)
        assert int(kc.suit_holding(mask, s)) == expected
    for c in (0, 12, 13, 51):
        assert kc.card_suit(c) == c // 13 and kc.card_rank(c) == c % 13
        assert int(kc.card_bit(c)) == 1 << c
