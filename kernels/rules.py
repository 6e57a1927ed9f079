"""Trick-play rules as kernels: which cards are legal (R19) and who wins a trick (R20).

Hands are 52-bit masks (kernels/cards.py), so following suit is one AND with the led
suit's mask, and comparing two cards needs only their suits and ids: within one suit a
higher card id is a higher rank.
"""

import numpy as np

from kernels.cards import SUIT_MASKS
from kernels.jit import njit


@njit
def legal_cards(hand, led_suit):
    """Mask of the cards of `hand` that may be played when `led_suit` was led (-1: leading)."""
    hand = np.uint64(hand)
    if led_suit < 0:
        return hand  # the leader may lead anything
    follow = hand & SUIT_MASKS[led_suit]
    # R19: follow suit if able; a void in the led suit frees every card (no duty to trump)
    return follow if follow != np.uint64(0) else hand


@njit
def beats(card, best, trump):
    """Whether `card`, played later in the trick, beats the card `best` that leads it so far."""
    suit = card // 13
    best_suit = best // 13
    # R20: the best card so far is of the led suit or a trump, so a card wins exactly when
    # it is a higher card of the same suit, or the first trump played onto a non-trump.
    same_suit_higher = (suit == best_suit) & (card > best)
    first_trump = (suit == trump) & (best_suit != trump)
    return same_suit_higher | first_trump


@njit
def trick_winner(cards, leader, trump):
    """Seat that wins a trick whose 4 card ids are given in play order starting with `leader`."""
    best = cards[0]
    best_pos = 0
    for pos in range(1, 4):
        if beats(cards[pos], best, trump):
            best = cards[pos]
            best_pos = pos
    return (leader + best_pos) & 3  # R1: seats run clockwise from the leader


__all__ = ["legal_cards", "beats", "trick_winner"]
