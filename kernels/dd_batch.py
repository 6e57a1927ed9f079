"""Batch double-dummy solving over many deals, in parallel over numba threads.

Each worker owns one transposition table (row `t` of `keys`/`data`) and processes deals
`t, t + nt, t + 2 nt, ...`; the table is reused across every declarer, trump and mode of a
deal (and across deals: entries are properties of positions alone, see kernels.dd_tt), so
results never depend on the number of threads or on scheduling, only the time does.
Each deal starts a new table generation, so the replacement policy prefers to evict
entries of earlier deals.
"""

import numba
import numpy as np

from kernels.dd_search import (
    MAX_MOVES,
    MAX_PLY,
    solve_little_misere,
    solve_misere,
    solve_value,
)
from kernels.jit import njit


@njit(parallel=True)  # override: prange spreads deals over threads (one table per worker)
def solve_declarer_batch(deals, declarer, leader, policy, keys, data, gens):
    """Per deal: declarer's tricks with each trump 0..3, grand and little misère (R15)."""
    n = deals.shape[0]
    nt = keys.shape[0]
    tricks = np.zeros((n, 4), np.int8)
    grand = np.zeros(n, np.bool_)
    little = np.zeros(n, np.bool_)
    for t in numba.prange(nt):
        moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        scores = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        hands = np.zeros(4, np.uint64)
        for i in range(t, n, nt):
            gens[t] += 1
            gen = gens[t]
            for q in range(4):
                hands[q] = deals[i, q]
            guess = 4
            me = 1 << declarer
            for trump in range(4):
                v = solve_value(hands, leader, trump, me, me, guess, keys[t], data[t], gen,
                                moves, scores)
                tricks[i, trump] = v
                guess = v
            grand[i] = solve_misere(hands, declarer, leader, keys[t], data[t], gen, moves, scores)
            little[i] = solve_little_misere(hands, declarer, leader, policy, keys[t], data[t],
                                            gen, moves, scores)
    return tricks, grand, little


@njit(parallel=True)  # override: prange spreads deals over threads (one table per worker)
def dd_table_batch(deals, leader, keys, data, gens):
    """(n, 4, 4) int8: tricks for each declarer seat and each trump suit 0..3."""
    n = deals.shape[0]
    nt = keys.shape[0]
    out = np.zeros((n, 4, 4), np.int8)
    for t in numba.prange(nt):
        moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        scores = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        hands = np.zeros(4, np.uint64)
        for i in range(t, n, nt):
            gens[t] += 1
            gen = gens[t]
            for q in range(4):
                hands[q] = deals[i, q]
            for d in range(4):
                guess = 4
                me = 1 << d
                for trump in range(4):
                    v = solve_value(hands, leader, trump, me, me, guess, keys[t], data[t], gen,
                                    moves, scores)
                    out[i, d, trump] = v
                    guess = v
    return out


@njit(parallel=True)  # override: prange spreads deals over threads (one table per worker)
def dd_misere_table_batch(deals, leader, policy, keys, data, gens):
    """(n, 4, 2) bool: for each declarer seat, [grand misère, little misère] made."""
    n = deals.shape[0]
    nt = keys.shape[0]
    out = np.zeros((n, 4, 2), np.bool_)
    for t in numba.prange(nt):
        moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        scores = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
        hands = np.zeros(4, np.uint64)
        for i in range(t, n, nt):
            gens[t] += 1
            gen = gens[t]
            for q in range(4):
                hands[q] = deals[i, q]
            for d in range(4):
                out[i, d, 0] = solve_misere(hands, d, leader, keys[t], data[t], gen, moves,
                                            scores)
                out[i, d, 1] = solve_little_misere(hands, d, leader, policy, keys[t], data[t],
                                                   gen, moves, scores)
    return out
