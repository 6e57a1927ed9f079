"""Transposition table for the double-dummy search: bounds on the tricks still to come.

Positions are stored only at trick boundaries, keyed on *relative* ranks: in each suit
the cards still in play are listed from the lowest up and only their owners are kept
(2 bits each), so positions that differ only by which low cards were already played
collide, as they must (they are the same game). The key also holds the leader, the trump
and the two seat masks of the search (who maximises, whose tricks count), so an entry is a
property of the position alone: it stays valid across trumps, declarers, modes and even
deals, and no result depends on what the table holds or on thread scheduling; the table
only saves time.

Layout: `keys` (size, 2) uint64 and `data` (size,) uint64 with the lower bound in bits
0..7, the upper bound in 8..15, the tricks left (depth) in 16..23, the best lead in 24..31
(`move_code`: 0 for none, else 0x80 | suit << 4 | relative rank) and the generation in
32..63. The best lead is only a hint for move ordering. Buckets of `WAYS` consecutive
entries; a miss replaces an entry of an older generation first, else the shallowest one
(cheapest to recompute).
"""

import numpy as np

from kernels.bits import popcount, trailing_zeros
from kernels.dd_state import SUIT_MASK, U0, U1
from kernels.jit import njit

WAYS = 4
ENTRY_BYTES = 24
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_FF = np.uint64(0xFF)


def entries_for(mib):
    """Number of entries (a power of two, at least one bucket) that fit in `mib` MiB."""
    n = max(WAYS, int(mib * (1 << 20)) // ENTRY_BYTES)
    return 1 << (n.bit_length() - 1)


def new_table(mib):
    """A fresh empty table of about `mib` MiB: (keys, data)."""
    n = entries_for(mib)
    return np.zeros((n, 2), dtype=np.uint64), np.zeros(n, dtype=np.uint64)


@njit
def _suit_code(hands, suit):
    """Owners of the cards of `suit` still in play, lowest first, 2 bits each, plus a sentinel."""
    shift = np.uint64(13 * suit)
    h0 = (hands[0] >> shift) & np.uint64(0x1FFF)
    h1 = (hands[1] >> shift) & np.uint64(0x1FFF)
    h2 = (hands[2] >> shift) & np.uint64(0x1FFF)
    h3 = (hands[3] >> shift) & np.uint64(0x1FFF)
    present = h0 | h1 | h2 | h3
    lo = U0  # owner bit 0 (seats 1, 3)
    hi = U0  # owner bit 1 (seats 2, 3)
    i = np.uint64(0)
    odd = h1 | h3
    upper = h2 | h3
    while present:
        b = present & (U0 - present)
        present ^= b
        if odd & b:
            lo |= U1 << i
        if upper & b:
            hi |= U1 << i
        i += U1
    return lo | (hi << i) | (U1 << (i + i))


@njit
def position_key(hands, leader, trump, maxmask, winmask):
    """The two key words of a trick-boundary position (relative ranks, see module doc)."""
    k1 = (
        _suit_code(hands, 0)
        | (_suit_code(hands, 1) << np.uint64(27))
        | (np.uint64(leader) << np.uint64(54))
        | (np.uint64(trump + 1) << np.uint64(56))
    )
    k2 = (
        _suit_code(hands, 2)
        | (_suit_code(hands, 3) << np.uint64(27))
        | (np.uint64(maxmask) << np.uint64(54))
        | (np.uint64(winmask) << np.uint64(58))
    )
    return k1, k2


@njit
def _bucket(keys, k1, k2):
    """First entry index of the bucket of a key."""
    h = (k1 * _M1) ^ ((k2 ^ (k2 >> np.uint64(29))) * _M2)
    h ^= h >> np.uint64(32)
    nb = np.uint64(keys.shape[0] // WAYS)
    return np.int64(h & (nb - U1)) * WAYS


@njit
def move_code(hands, card):
    """Relative code of a card still in play: its suit and rank among the suit's cards left."""
    s = card // 13
    present = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[s]
    below = present & ((U1 << np.uint64(card)) - U1)
    return 0x80 | (s << 4) | popcount(below)


@njit
def code_card(hands, code):
    """The card id a `move_code` stands for in `hands` (-1 for no code)."""
    if code == 0:
        return -1
    s = (code >> 4) & 3
    k = code & 15
    present = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[s]
    for _ in range(k):
        present &= present - U1
    if present == U0:
        return -1
    return trailing_zeros(present)


@njit
def tt_lookup(keys, data, k1, k2):
    """(lower, upper, move code) stored for the key, or (0, 13, 0) when absent."""
    base = _bucket(keys, k1, k2)
    for w in range(WAYS):
        i = base + w
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            d = data[i]
            return (np.int64(d & _FF), np.int64((d >> np.uint64(8)) & _FF),
                    np.int64((d >> np.uint64(24)) & _FF))
    return 0, 13, 0


@njit
def tt_store(keys, data, k1, k2, depth, lower, upper, move, gen):
    """Merge bounds (lower, upper) and a best-move code (0: keep) into the table."""
    base = _bucket(keys, k1, k2)
    g = np.uint64(gen)
    victim = base
    victim_cost = 1 << 40
    for w in range(WAYS):
        i = base + w
        d = data[i]
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            lo = max(np.int64(d & _FF), lower)
            up = min(np.int64((d >> np.uint64(8)) & _FF), upper)
            mv = move if move != 0 else np.int64((d >> np.uint64(24)) & _FF)
            data[i] = (
                np.uint64(lo)
                | (np.uint64(up) << np.uint64(8))
                | (np.uint64(depth) << np.uint64(16))
                | (np.uint64(mv) << np.uint64(24))
                | (g << np.uint64(32))
            )
            return
        # cost of losing this entry: empty < older generation < shallow < deep
        if keys[i, 0] == U0:
            cost = -1
        elif (d >> np.uint64(32)) != g:
            cost = np.int64((d >> np.uint64(16)) & _FF)
        else:
            cost = 64 + np.int64((d >> np.uint64(16)) & _FF)
        if cost < victim_cost:
            victim_cost = cost
            victim = base + w
    keys[victim, 0] = k1
    keys[victim, 1] = k2
    data[victim] = (
        np.uint64(lower)
        | (np.uint64(upper) << np.uint64(8))
        | (np.uint64(depth) << np.uint64(16))
        | (np.uint64(move) << np.uint64(24))
        | (g << np.uint64(32))
    )
