"""Batch double-dummy solving: a list of jobs applied to every deal, in parallel over deals.

A job is a row (kind, seats, trump) of an int64 array:
- `JOB_TRICKS`: tricks taken by the seat mask `seats`, which plays together against the
  others (one declarer: a one-seat mask), with trump `trump` (R10, R20);
- `JOB_GRAND`: grand misère made by declarer seat `seats` (R15, R21), 1 or 0;
- `JOB_LITTLE`: little misère made by declarer seat `seats` with defender discard policy
  `trump` (R15, R17), 1 or 0.
All public solving goes through `solve_jobs` (serial) and `solve_jobs_parallel`, so the
search is compiled into as few entry points as possible (each entry point links and
optimises its own copy of the search, which is what numba compile time is made of).

Each worker owns one transposition table (row `t` of `keys`/`data`) and processes deals
`t, t + nt, t + 2 nt, ...`; the table is reused across every job of a deal (and across
deals: entries are properties of positions alone, see kernels.dd_tt), so results never
depend on the number of threads or on scheduling, only the time does. Each deal starts a
new table generation, so the replacement policy prefers evicting earlier deals' entries.
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

JOB_TRICKS = 0
JOB_GRAND = 1
JOB_LITTLE = 2


@njit
def solve_jobs(deals, first, step, leader, jobs, out, keys, data, gens, slot):
    """Run every job on deals first, first + step, ... with one table; results into `out`."""
    n = deals.shape[0]
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    scores = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    hands = np.zeros(4, np.uint64)
    last_value = np.full(16, -1, np.int64)  # per seat mask: previous answer, a first guess
    for i in range(first, n, step):
        gens[slot] += 1
        gen = gens[slot]
        for q in range(4):
            hands[q] = deals[i, q]
        last_value[:] = -1
        for j in range(jobs.shape[0]):
            kind = jobs[j, 0]
            seats = jobs[j, 1]
            arg = jobs[j, 2]
            if kind == JOB_TRICKS:
                guess = last_value[seats]
                if guess < 0:
                    guess = 4 if (seats & (seats - 1)) == 0 else 7
                v = solve_value(hands, leader, arg, seats, seats, guess, keys, data, gen,
                                moves, scores)
                last_value[seats] = v
                out[i, j] = v
            elif kind == JOB_GRAND:
                out[i, j] = solve_misere(hands, seats, leader, keys, data, gen, moves, scores)
            else:
                out[i, j] = solve_little_misere(hands, seats, leader, arg, keys, data, gen,
                                                moves, scores)


@njit(parallel=True)  # override: prange spreads deals over threads (one table per worker)
def solve_jobs_parallel(deals, leader, jobs, keys, data, gens):
    """(n, jobs) int8 results of every job on every deal; worker t uses table t."""
    n = deals.shape[0]
    nt = keys.shape[0]
    out = np.zeros((n, jobs.shape[0]), np.int8)
    for t in numba.prange(nt):
        solve_jobs(deals, t, nt, leader, jobs, out, keys[t], data[t], gens, t)
    return out
