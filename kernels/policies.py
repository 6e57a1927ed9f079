"""Card-play policies chosen by integer id: kernels take no callbacks (STYLE.md).

`choose_card(policy, ...)` is the one dispatcher every playout calls. It receives what a
player may know at the table (own hand, the cards already played, the trick so far,
trump, declarer, tricks taken) plus the RNG state, so imperfect-information policies for
declarer and defenders slot in as new ids and new branches without changing callers.
Names map to ids only at the Python boundary (`POLICY_IDS`).
"""

import numpy as np

from kernels.bits import popcount
from kernels.jit import njit
from kernels.rng import below

RANDOM_LEGAL = 0  # a uniformly random legal card (R19)
N_POLICIES = 1

POLICY_IDS = {"random-legal": RANDOM_LEGAL}

_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_LOW8 = np.uint64(0xFF)


def _select_in_byte_table():
    """SELECT_IN_BYTE[8 * b + k]: index of the k-th lowest set bit of the byte b."""
    table = np.zeros(256 * 8, dtype=np.uint8)
    for b in range(256):
        for k, i in enumerate(i for i in range(8) if b >> i & 1):
            table[8 * b + k] = i
    return table


SELECT_IN_BYTE = _select_in_byte_table()


# inline='always' (numba-level inlining): on the per-card hot path a call costs as much as
# the work; LLVM does not inline across numba's separately compiled functions
@njit(inline='always')
def select_bit(mask, k):
    """Index of the k-th lowest set bit of `mask` (k = 0 is the lowest; k < popcount(mask))."""
    # Narrow to the byte holding the answer by popcounts of low halves, then look the bit
    # up in a 2 KB table: no loop, and the selects compile to conditional moves, because a
    # branch on a random k would be mispredicted about every other card.
    m = np.uint64(mask)
    k = np.int64(k)
    c = popcount(m & _LOW32)
    up = k >= c
    k = k - c if up else k
    shift = np.int64(32) if up else np.int64(0)
    c = popcount((m >> np.uint64(shift)) & _LOW16)
    up = k >= c
    k = k - c if up else k
    shift += 16 if up else 0
    c = popcount((m >> np.uint64(shift)) & _LOW8)
    up = k >= c
    k = k - c if up else k
    shift += 8 if up else 0
    byte = np.int64((m >> np.uint64(shift)) & _LOW8)
    return shift + np.int64(SELECT_IN_BYTE[8 * byte + k])


@njit(inline='always')  # hot path, see select_bit
def random_legal_card(legal, state):
    """A card drawn uniformly from the non-empty mask `legal`."""
    return select_bit(legal, below(state, popcount(legal)))


@njit(inline='always')  # hot path, see select_bit
def choose_card(policy, seat, hand, legal, trick, n_in_trick, trump, declarer, played, taken,
                state):
    """Card id that `seat` plays under policy id `policy`.

    `hand` is the seat's hand and `legal` its legal cards (R19, non-empty); `trick[:n_in_trick]`
    the cards already in the current trick in play order; `played` the mask of every card
    played before (the current trick included); `taken` the tricks taken so far by seat;
    `declarer` the declarer's seat or -1 (misère partout, R14); `state` the RNG state.
    """
    if policy == RANDOM_LEGAL:
        return random_legal_card(legal, state)
    raise ValueError("unknown play policy id")


__all__ = ["RANDOM_LEGAL", "N_POLICIES", "POLICY_IDS", "SELECT_IN_BYTE", "select_bit",
           "random_legal_card", "choose_card"]
