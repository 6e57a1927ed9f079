"""Card encoding shared by every kernel: the exchange format of API.md.

A card id is `13 * suit + rank` (suit 0..3 = S H D C, rank 0..12 = 2..A), and a hand
is a uint64 with bit `card id` set. Suit `s` therefore occupies bits 13s..13s+12, and
the holding of a suit is `(hand >> 13s) & 0x1FFF` with the ace as bit 12. Kernels use
this format directly: extracting a suit costs one shift and one mask, as a padded
16-bit lane would, and nothing needs converting at the Python boundary.
"""

import numpy as np

from kernels.bits import highest_bit_index, lowest_bit_index, popcount
from kernels.jit import njit

N_SUITS = 4
N_RANKS = 13
N_CARDS = 52
N_SEATS = 4
NO_TRUMP = -1

SUIT_BITS = np.uint64(0x1FFF)
FULL_DECK = np.uint64((1 << 52) - 1)
SUIT_MASKS = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.uint64)


@njit
def card_suit(card):
    """Suit 0..3 of a card id."""
    return card // 13


@njit
def card_rank(card):
    """Rank 0..12 of a card id."""
    return card % 13


@njit
def card_bit(card):
    """The one-card mask of a card id."""
    return np.uint64(1) << np.uint64(card)


@njit
def suit_holding(hand, suit):
    """The 13-bit holding of `suit` in `hand` (bit r set for rank r)."""
    return (np.uint64(hand) >> np.uint64(13 * suit)) & SUIT_BITS


@njit
def suit_cards(hand, suit):
    """The cards of `suit` in `hand`, still as a 52-bit mask."""
    return np.uint64(hand) & SUIT_MASKS[suit]


@njit
def suit_length(hand, suit):
    """Number of cards of `suit` in `hand`."""
    return popcount(np.uint64(hand) & SUIT_MASKS[suit])


@njit
def hand_size(hand):
    """Number of cards in `hand`."""
    return popcount(np.uint64(hand))


@njit
def lowest_card(mask):
    """Card id of the lowest set bit (lowest suit index first, then lowest rank)."""
    return lowest_bit_index(np.uint64(mask))


@njit
def highest_card(mask):
    """Card id of the highest set bit."""
    return highest_bit_index(np.uint64(mask))


__all__ = [
    "N_SUITS", "N_RANKS", "N_CARDS", "N_SEATS", "NO_TRUMP", "SUIT_BITS", "FULL_DECK",
    "SUIT_MASKS", "card_suit", "card_rank", "card_bit", "suit_holding", "suit_cards",
    "suit_length", "hand_size", "lowest_card", "highest_card", "popcount",
]
