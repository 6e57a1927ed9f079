"""Preference suits (R6): the turned card of the resting deck fixes the first and second preference.

The first preference is the turned card's suit; the second is the other suit of the same
colour. With suits numbered S=0, H=1, D=2, C=3, the pairs S<->C and H<->D are exactly
`suit <-> 3 - suit`, so no table is needed.
"""

import numpy as np

from kernels.cards import N_RANKS, N_SUITS
from kernels.jit import njit


@njit
def same_colour_suit(suit):
    """R6: the other suit of the same colour (spades <-> clubs, hearts <-> diamonds)."""
    return N_SUITS - 1 - suit


@njit
def preference_suits(turned_card):
    """R6: (first preference, second preference) suits for the resting deck's turned card id."""
    first = turned_card // N_RANKS
    return first, same_colour_suit(first)


@njit
def is_plain_suit(suit, first):
    """R6: whether `suit` is one of the two plain suits when `first` is the first preference."""
    return suit != first and suit != same_colour_suit(first)


@njit
def turned_card(order, point):
    """R6: the card turned from the resting deck `order` (top first) after a cut at `point`."""
    return np.int64(order[point % order.shape[0]])


__all__ = ["same_colour_suit", "preference_suits", "is_plain_suit", "turned_card"]
