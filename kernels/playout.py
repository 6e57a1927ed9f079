"""Whole hands played out at scale under a play policy (R18-R20), in parallel and replayable.

Deals are split into fixed blocks of `BLOCK` deals; block b draws its random numbers from
sub-stream b of the root key (kernels/rng.py), so the result of every deal depends only on
the seed and its position, never on the number of threads. Hands of any equal size
k <= 13 (endings) are played to the end: k tricks.
"""

import numpy as np
from numba import prange

from kernels.bits import popcount
from kernels.cards import SUIT_MASKS
from kernels.jit import njit
from kernels.policies import N_POLICIES, choose_card
from kernels.rng import STATE_WORDS, stream_state

# deals per RNG stream: fixed, because results must not depend on threads; small enough
# to spread 10,000 deals over 16+ threads, large enough that a block's setup (~0.1 us) is
# lost in its ~100 us of play
BLOCK = 256


# CARD_SUIT_MASK[card]: the 52-bit mask of the card's suit (a load instead of a division)
CARD_SUIT_MASK = np.array([0x1FFF << (13 * (c // 13)) for c in range(52)], dtype=np.uint64)


@njit
def play_deals(deals, trumps, leaders, declarers, policy, state, start, stop, tricks, plays,
               winners, record):
    """Play out deals start..stop-1 in turn, drawing from `state`; each seat's tricks to `tricks`.

    One call plays many hands, so array arguments are passed (and reference-counted) once
    per block rather than once per hand. When `record` is true the card ids go to
    `plays[i]` in play order (trick by trick, leader first) and each trick's winning seat to
    `winners[i]`.
    """
    hands = np.empty(4, dtype=np.uint64)
    trick = np.empty(4, dtype=np.int64)
    taken = np.empty(4, dtype=np.int64)
    zero = np.uint64(0)
    for i in range(start, stop):
        for s in range(4):
            hands[s] = deals[i, s]
            taken[s] = 0
        trump = trumps[i]
        declarer = declarers[i]
        leader = leaders[i]  # R18: the dealer's left leads to the first trick
        trump_mask = SUIT_MASKS[trump] if trump >= 0 else zero  # R20: -1 = no trump
        played = zero
        n_tricks = popcount(hands[leader])
        for t in range(n_tricks):
            hand = hands[leader]
            card = choose_card(policy, leader, hand, hand, trick, 0, trump, declarer, played,
                               taken, state)
            bit = np.uint64(1) << np.uint64(card)
            hands[leader] = hand ^ bit
            played |= bit
            trick[0] = card
            led_mask = CARD_SUIT_MASK[card]
            best = card
            best_pos = 0
            best_suit_mask = led_mask  # the suit of the winning card so far: led suit or trump
            for pos in range(1, 4):
                seat = (leader + pos) & 3
                hand = hands[seat]
                follow = hand & led_mask
                legal = follow if follow != zero else hand  # R19
                card = choose_card(policy, seat, hand, legal, trick, pos, trump, declarer,
                                   played, taken, state)
                bit = np.uint64(1) << np.uint64(card)
                hands[seat] = hand ^ bit
                played |= bit
                trick[pos] = card
                # R20 (as kernels.rules.beats, with masks): a higher card of the winning
                # card's suit, or the first trump onto non-trumps, takes the lead
                is_trump = (bit & trump_mask) != zero
                higher = ((bit & best_suit_mask) != zero) & (card > best)
                trumps_in = is_trump & ((best_suit_mask & trump_mask) == zero)
                wins = higher | trumps_in
                best = card if wins else best
                best_pos = pos if wins else best_pos
                best_suit_mask = trump_mask if trumps_in else best_suit_mask
            winner = (leader + best_pos) & 3
            taken[winner] += 1
            if record:
                for pos in range(4):
                    plays[i, 4 * t + pos] = trick[pos]
                winners[i, t] = winner
            leader = winner  # R20: the winner leads next
        for s in range(4):
            tricks[i, s] = taken[s]


@njit
def _check_policy(policy):
    """Reject an unknown policy id before any thread starts."""
    if policy < 0 or policy >= N_POLICIES:
        raise ValueError("unknown play policy id")


@njit
def _play_block(deals, trumps, leaders, declarers, policy, root, block, tricks, plays, winners,
                record):
    """Play deals block*BLOCK .. up to (block+1)*BLOCK from the block's own RNG stream."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    stream_state(root, block, state)
    start = block * BLOCK
    stop = min(start + BLOCK, deals.shape[0])
    play_deals(deals, trumps, leaders, declarers, policy, state, start, stop, tricks, plays,
               winners, record)


# parallel=True (not a project default): blocks are independent and run on all threads
@njit(parallel=True)
def playout_tricks(deals, trumps, leaders, declarers, policy, root, tricks):
    """Fill `tricks` (n, 4) int8 with each seat's tricks when every deal is played out.

    `deals` (n, 4) uint64 with equal hand sizes; `trumps`, `leaders`, `declarers` (n,)
    per deal (trump -1: none, declarer -1: none); `root` the 4-word RNG root key.
    """
    _check_policy(policy)
    n = deals.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    no_plays = np.empty((0, 0), dtype=np.int8)  # never written: record is False
    for block in prange(n_blocks):
        _play_block(deals, trumps, leaders, declarers, policy, root, block, tricks, no_plays,
                    no_plays, False)


# parallel=True (not a project default): blocks are independent and run on all threads
@njit(parallel=True)
def playout_record(deals, trumps, leaders, declarers, policy, root, tricks, plays, winners):
    """As `playout_tricks`, also recording the play: `plays` (n, 52) card ids in play order
    (trick by trick, leader first) and `winners` (n, 13) each trick's winning seat.

    Slots past a deal's last card/trick are left untouched (callers pre-fill them, e.g. -1).
    The same seed gives the same play as `playout_tricks`.
    """
    _check_policy(policy)
    n = deals.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for block in prange(n_blocks):
        _play_block(deals, trumps, leaders, declarers, policy, root, block, tricks, plays,
                    winners, True)


__all__ = ["BLOCK", "CARD_SUIT_MASK", "play_deals", "playout_tricks", "playout_record"]
