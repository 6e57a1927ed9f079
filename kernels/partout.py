"""Misère partout played out (R14, R26): every player tries to take few tricks, no trump.

Partout has no double-dummy value (four players, four goals), so sessions play it by a
fixed rule-based policy (R26 Decision) in which each player uses only its own hand and
the cards of the current trick:
- leading: its lowest-ranked card (ties between suits: suit order S H D C);
- following suit: the highest card that stays below the trick's best card, so that it
  does not win; when every card it holds in the suit is higher, the highest if it plays
  last (the trick is its own anyway, so it sheds its most dangerous card), else the
  lowest (a later player may still overtake);
- void in the suit led: its highest-ranked card (ties between suits: S H D C), the card
  most likely to win a later trick.
No trump (R20), every trick played (R26): the four trick counts sum to the hand size.
"""

import numpy as np

from kernels.bits import highest_bit_index, lowest_bit_index
from kernels.cards import N_RANKS, N_SUITS, SUIT_BITS, SUIT_MASKS
from kernels.jit import njit


@njit
def _extreme_rank_card(hand, highest):
    """The card of `hand` with the highest (or lowest) rank; ties to the first suit S H D C."""
    best_card = -1
    best_rank = -1 if highest else N_RANKS
    for suit in range(N_SUITS):
        holding = (hand >> np.uint64(N_RANKS * suit)) & SUIT_BITS
        if holding == np.uint64(0):
            continue
        rank = highest_bit_index(holding) if highest else lowest_bit_index(holding)
        if (highest and rank > best_rank) or (not highest and rank < best_rank):
            best_rank = rank
            best_card = N_RANKS * suit + rank
    return best_card


@njit
def partout_card(hand, trick, n_in_trick):
    """The card the partout policy plays from `hand` after `trick[:n_in_trick]` (R19, R26)."""
    if n_in_trick == 0:
        return _extreme_rank_card(hand, False)
    led = trick[0]
    follow = hand & SUIT_MASKS[led // N_RANKS]
    if follow == np.uint64(0):
        return _extreme_rank_card(hand, True)  # R19: void, any card; shed the highest
    best = led
    for pos in range(1, n_in_trick):
        if trick[pos] // N_RANKS == led // N_RANKS and trick[pos] > best:
            best = trick[pos]
    below = follow & ((np.uint64(1) << np.uint64(best)) - np.uint64(1))
    if below != np.uint64(0):
        return highest_bit_index(below)
    if n_in_trick == 3:
        return highest_bit_index(follow)
    return lowest_bit_index(follow)


@njit
def play_partout(deal, leader, cards, winners, taken):
    """Play a misère partout from `deal` (4 hands of equal size), `leader` leading (R18).

    Writes the card ids in play order (trick by trick, leader first) to `cards`, each
    trick's winning seat to `winners` and the tricks taken by seat to `taken`.
    """
    hands = deal.copy()
    trick = np.empty(4, dtype=np.int64)
    for s in range(4):
        taken[s] = 0
    t = 0
    while hands[leader] != np.uint64(0):
        best_pos = 0
        for pos in range(4):
            seat = (leader + pos) & 3
            card = partout_card(hands[seat], trick, pos)
            hands[seat] ^= np.uint64(1) << np.uint64(card)
            trick[pos] = card
            cards[4 * t + pos] = card
            # R20 without trump: the highest card of the suit led wins
            if pos > 0 and card // N_RANKS == trick[0] // N_RANKS and card > trick[best_pos]:
                best_pos = pos
        leader = (leader + best_pos) & 3
        winners[t] = leader
        taken[leader] += 1
        t += 1
    return t


@njit
def play_partout_batch(deals, leaders, cards, winners, taken):
    """`play_partout` for each row of `deals` (n, 4) with its leader."""
    for i in range(deals.shape[0]):
        play_partout(deals[i], leaders[i], cards[i], winners[i], taken[i])


__all__ = ["partout_card", "play_partout", "play_partout_batch"]
