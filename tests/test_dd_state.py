"""kernels.dd.state: equivalent cards, trick winner (R20), legal moves (R19), validation."""

import random

import numpy as np

from kernels.dd.state import (
    legal_moves,
    run_above,
    sequence_bottoms,
    suit_of,
    trick_winner,
)
from kernels.jit import njit
from tests.conftest import sized


def brute_bottoms(cards, gone):
    """Lowest card of each run: a card is dropped when the next card in play above it
    (same suit, skipping gone cards) is ours too."""
    out = 0
    for c in range(52):
        if not cards >> c & 1:
            continue
        s, r = divmod(c, 13)
        above = None
        for rr in range(r + 1, 13):
            cc = 13 * s + rr
            if gone >> cc & 1:
                continue
            above = cc
            break
        if above is None or not cards >> above & 1:
            out |= 1 << c
        # else: c is equivalent to `above` and not the bottom of its run
    # the rule above keeps the TOP of each run; the kernel keeps the bottom: compare runs
    return out


def runs(cards, gone):
    """The runs of equivalent cards of `cards` as a set of frozensets."""
    result = []
    for s in range(4):
        run = []
        for r in range(13):
            c = 13 * s + r
            if gone >> c & 1:
                continue
            if cards >> c & 1:
                run.append(c)
            elif run:
                result.append(frozenset(run))
                run = []
        if run:
            result.append(frozenset(run))
    return set(result)


@njit
def _bottoms_inside(cards, gone):
    return sequence_bottoms(cards, gone)


def test_sequence_bottoms_one_card_per_run_of_equivalent_cards():
    rng = random.Random(3)
    for _ in range(sized(2000, 20000)):
        gone = rng.getrandbits(52) & rng.getrandbits(52)
        cards = rng.getrandbits(52) & ~gone
        got = int(sequence_bottoms(np.uint64(cards), np.uint64(gone)))
        assert got == int(_bottoms_inside(np.uint64(cards), np.uint64(gone)))
        rs = runs(cards, gone)
        assert got & ~cards == 0
        assert len(rs) == got.bit_count() == brute_bottoms(cards, gone).bit_count()
        for run in rs:
            assert sum(got >> c & 1 for c in run) == 1
            assert min(run) == next(c for c in run if got >> c & 1)


def test_sequence_bottoms_does_not_carry_across_suits():
    # spade K held, spade A gone; heart 2 held: both are bottoms of their runs
    k_spades, a_spades, two_hearts = 11, 12, 13
    cards = (1 << k_spades) | (1 << two_hearts)
    got = int(sequence_bottoms(np.uint64(cards), np.uint64(1 << a_spades)))
    assert got == cards


def test_r2_suit_of_is_floor_division_by_13_for_every_card_id():
    # card id 13 * suit + rank (API.md; R2: 13 ranks a suit); -1 ("no card") stays -1
    for card in range(-1, 52):
        assert suit_of(np.int64(card)) == card // 13
    assert suit_of.py_func(51) == 3


def test_run_above_matches_a_card_by_card_walk():
    # from the card up its suit: the hand's cards, skipping gone ones, until a card in play
    # elsewhere (or the suit's end)
    rng = random.Random(5)
    for _ in range(sized(3000, 30000)):
        owner = [rng.choice("hhgo") for _ in range(52)]  # hand, gone, someone else's
        hand = sum(1 << c for c in range(52) if owner[c] == "h")
        gone = sum(1 << c for c in range(52) if owner[c] == "g")
        card = rng.choice([c for c in range(52) if owner[c] == "h"] or [0])
        want = 0
        for c in range(card + 1, card // 13 * 13 + 13):
            if owner[c] == "o":
                break
            if owner[c] == "h":
                want |= 1 << c
        assert int(run_above(np.uint64(hand), card, np.uint64(gone))) == want


def test_e2_r20_trump_beats_higher_card_of_suit_led():
    # E2: hearts trump; A leads 2C, B plays KC, C ruffs with 3H, D plays AC: C wins
    two_c, king_c, three_h, ace_c = 39 + 0, 39 + 11, 13 + 1, 39 + 12
    trick = np.array([two_c, king_c, three_h, ace_c], np.int64)
    assert trick_winner(trick, 0, 1) == 2
    assert trick_winner(trick, 3, 1) == 1  # same trick led by seat 3
    assert trick_winner(trick, 0, -1) == 3  # no trump: the club ace


def test_r19_must_follow_suit_if_able():
    hand = np.uint64((1 << 5) | (1 << 20))  # a spade and a heart
    trick = np.array([13 + 3, 0, 0, 0], np.int64)  # heart led
    assert legal_moves(hand, trick, 1) == np.uint64(1 << 20)
    trick[0] = 26  # diamond led: anything goes
    assert legal_moves(hand, trick, 1) == hand
    assert legal_moves(hand, trick, 0) == hand
