"""Trick rules (R19, R20): kernels and the public API against slow, obviously correct references."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import analyser
from analyser.rules import legal_cards, trick_winner
from kernels import rules as krules
from kernels.jit import njit


def C(text):
    """Card id of 'AS', '10H', '2C' style text (rank then suit letter)."""
    rank, suit = text[:-1], text[-1]
    return 13 * "SHDC".index(suit) + "23456789TJQKA".index("T" if rank == "10" else rank)


def mask(*cards):
    return sum(1 << C(c) for c in cards)


# --- slow references: loop over the 52 cards, read straight from R19 and R20 ---

def ref_legal(hand, led_suit):
    """R19: the cards of the led suit if any are held, otherwise every card held."""
    held = [c for c in range(52) if hand >> c & 1]
    if led_suit == -1:
        return sum(1 << c for c in held)
    following = [c for c in held if c // 13 == led_suit]
    return sum(1 << c for c in (following or held))


def ref_winner(cards, leader, trump):
    """R20: the highest trump, else the highest card of the suit led; returns the seat."""
    trumps = [i for i, c in enumerate(cards) if c // 13 == trump]
    led = [i for i, c in enumerate(cards) if c // 13 == cards[0] // 13]
    pool = trumps or led
    pos = max(pool, key=lambda i: cards[i] % 13)
    return (leader + pos) % 4


@njit
def _legal_in_kernel(hand, led_suit):
    return krules.legal_cards(hand, led_suit)


@njit
def _winner_in_kernel(cards, leader, trump):
    return krules.trick_winner(cards, leader, trump)


hands = st.integers(min_value=0, max_value=(1 << 52) - 1)
suits = st.integers(min_value=-1, max_value=3)


@st.composite
def tricks(draw):
    cards = draw(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True))
    return cards, draw(st.integers(0, 3)), draw(suits)


# --- R19 ---

def test_r19_must_follow_suit():
    hand = mask("AS", "2S", "KH", "3D")
    assert legal_cards(hand, 0) == mask("AS", "2S")
    assert legal_cards(hand, 1) == mask("KH")


def test_r19_void_in_led_suit_any_card():
    hand = mask("AS", "2S", "KH", "3D")
    assert legal_cards(hand, 3) == hand  # no clubs: trumping is not compulsory, any card


def test_r19_leader_any_card():
    hand = mask("AS", "KH", "3D", "4C")
    assert legal_cards(hand, -1) == hand
    assert legal_cards(0, -1) == 0


@given(hands, suits)
def test_r19_kernel_matches_reference(hand, led_suit):
    expected = ref_legal(hand, led_suit)
    assert int(krules.legal_cards(np.uint64(hand), led_suit)) == expected
    assert int(_legal_in_kernel(np.uint64(hand), led_suit)) == expected
    assert legal_cards(hand, led_suit) == expected


def test_r19_public_accepts_numpy_and_suit_letters():
    hand = mask("AS", "2S", "KH")
    assert legal_cards(np.uint64(hand), "S") == mask("AS", "2S")
    assert legal_cards(hand, "♥") == mask("KH")


# --- R20 and E2 ---

def test_e2_trump_beats_ace():
    # Hearts trump. A leads 2C, B plays KC, C (no clubs) plays 3H, D must follow with AC.
    d_hand = mask("AC", "5S", "9H")
    assert legal_cards(d_hand, 3) == mask("AC")  # R19: D must follow with its ace
    c_hand = mask("3H", "7S", "QD")
    assert legal_cards(c_hand, 3) == c_hand  # C has no clubs: any card, trumping allowed
    cards = [C("2C"), C("KC"), C("3H"), C("AC")]
    for leader in range(4):
        assert trick_winner(cards, leader, 1) == (leader + 2) % 4  # C wins with the trump


def test_r20_highest_card_of_led_suit_wins():
    cards = [C("10D"), C("QD"), C("AS"), C("3D")]  # spades played off-suit, no trump
    assert trick_winner(cards, 0, -1) == 1
    assert trick_winner(cards, 0, 3) == 1  # clubs trump, none played


def test_r20_higher_off_suit_card_never_wins():
    cards = [C("2H"), C("AS"), C("AD"), C("AC")]
    assert trick_winner(cards, "W", -1) == 3  # the lead 2H holds: no card of the led suit beats it


def test_r20_highest_trump_wins():
    cards = [C("AH"), C("3S"), C("KH"), C("10S")]
    assert trick_winner(cards, 1, 0) == 0  # 10S is the highest trump, played by seat (1 + 3) % 4


def test_r20_trump_led_is_just_the_led_suit():
    cards = [C("4S"), C("2S"), C("AH"), C("5S")]
    assert trick_winner(cards, 2, 0) == 1  # 5S by seat (2 + 3) % 4


def test_r20_no_trump_for_misere():
    cards = [C("7D"), C("2S"), C("9D"), C("AS")]
    assert trick_winner(cards, 0, -1) == 2  # misère: no suit is trump, 9D wins


@given(tricks())
def test_r20_kernel_matches_reference(trick):
    cards, leader, trump = trick
    expected = ref_winner(cards, leader, trump)
    arr = np.array(cards, dtype=np.int64)
    assert krules.trick_winner(arr, leader, trump) == expected
    assert _winner_in_kernel(arr, leader, trump) == expected
    assert trick_winner(cards, leader, trump) == expected


@given(tricks())
def test_r20_exactly_one_winner_each_trick(trick):
    # Exactly one card beats all three others (by the kernel's pairwise `beats`, each
    # other card taken as the best so far), and trick_winner names the seat that played it.
    cards, leader, trump = trick
    led_suit = cards[0] // 13

    def outranks(a, b):  # R20 as a pairwise order on cards of this trick
        def key(c):
            return (c // 13 == trump, c // 13 == led_suit, c % 13)
        return key(a) > key(b)

    unbeaten = [p for p in range(4)
                if all(outranks(cards[p], cards[q]) for q in range(4) if q != p)]
    assert len(unbeaten) == 1
    assert trick_winner(cards, leader, trump) == (leader + unbeaten[0]) % 4
    for q in range(4):
        if q != unbeaten[0] and (cards[q] // 13 in (led_suit, trump)):
            assert krules.beats(cards[unbeaten[0]], cards[q], trump)


# --- the public API: seat letters and validation ---

def test_public_names_exported():
    assert analyser.legal_cards is legal_cards
    assert analyser.trick_winner is trick_winner


def test_seat_letters_accepted():
    cards = [C("2C"), C("KC"), C("3H"), C("AC")]
    assert [trick_winner(cards, s, "H") for s in "NESW"] == [2, 3, 0, 1]


@pytest.mark.parametrize(
    "cards, leader, trump, field",
    [
        ([1, 2, 3], 0, -1, "cards"),
        ([1, 2, 3, 4, 5], 0, -1, "cards"),
        ([1, 2, 52, 4], 0, -1, "cards[2]"),
        ([-1, 2, 3, 4], 0, -1, "cards[0]"),
        ([1, 2, 2, 4], 0, -1, "twice"),
        ([1, 2, 3, 4], 4, -1, "seat"),
        ([1, 2, 3, 4], "X", -1, "seat"),
        ([1, 2, 3, 4], 0, 4, "suit"),
        (5, 0, -1, "cards"),
    ],
)
def test_trick_winner_rejects_bad_input(cards, leader, trump, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        trick_winner(cards, leader, trump)


@pytest.mark.parametrize(
    "hand, led_suit, field",
    [(1 << 52, 0, "hand"), (-1, 0, "hand"), ("AKQ...", 0, "hand"), (1, 5, "suit")],
)
def test_legal_cards_rejects_bad_input(hand, led_suit, field):
    with pytest.raises(ValueError, match=field):
        legal_cards(hand, led_suit)
