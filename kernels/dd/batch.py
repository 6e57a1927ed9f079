"""Batch double-dummy solving: a list of jobs applied to every deal.

A job is a row (kind, seats, trump) of an int64 array:
- `JOB_TRICKS`: tricks taken by the seat mask `seats`, which plays together against the
  others (one declarer: a one-seat mask), with trump `trump` (R10, R20);
- `JOB_GRAND`: grand misère made by declarer seat `seats` (R15, R21), 1 or 0;
- `JOB_LITTLE`: little misère made by declarer seat `seats` with defender discard policy
  `trump` (R15, R17), 1 or 0.
All public solving goes through `solve_jobs`, so the search is compiled into one entry
point (each entry point links and optimises its own copy of the search, which is what
numba compile time is made of). It releases the GIL: analyser.solver runs it on several
Python threads at once, each with its own transposition table, handing deals out as the
threads finish earlier ones.

The table is reused across every job of a deal (and across deals: entries are properties
of positions alone, see kernels.dd.tt), so results never depend on the number of threads
or on which thread solved which deal, only the time does. Each deal starts a new table
generation, so the replacement policy prefers evicting earlier deals' entries.
"""

import numpy as np

from kernels.dd.band_game import new_band_work
from kernels.dd.search import (
    BAND_START,
    MAX_MOVES,
    MAX_PLY,
    PROBE_NODES,
    solve_little_misere,
    solve_misere,
    solve_value,
)
from kernels.jit import njit

JOB_TRICKS = 0
JOB_GRAND = 1
JOB_LITTLE = 2
GUESS_UP = 1


@njit
def partnership_guess(hands, seats, trump):
    """A first target for a partnership's tricks (`seats`, two seats): a linear estimate
    from the side's high-card points (ace 4, king 3, queen 2, jack 1) and, with a trump
    suit, its trumps, plus GUESS_UP, within 1..13 (kernels.dd.search.solve_value steps
    from it).

    Least squares on the solver bench's 500 bridge jobs: no trump, tricks = 0.499 hcp -
    4.02 (root-mean-square error 1.24 tricks); a trump suit, 0.365 hcp + 1.094 trumps -
    8.03 (1.13); written here as hcp / 2 - 4 and (4 hcp + 12 trumps - 88) / 11. With the
    value itself as the first target the bench's jobs take 0.951 of the nodes of a fixed
    first target of 7, with one above it 0.919, one below 1.048: a search that fails
    costs less than one that succeeds, so the guess aims one high (GUESS_UP)."""
    hcp = 0
    trumps = 0
    for q in range(4):
        if (seats >> q) & 1:
            h = hands[q]
            for c in range(52):
                if (h >> np.uint64(c)) & np.uint64(1):
                    hcp += max(0, c % 13 - 8)
                    if c // 13 == trump:
                        trumps += 1
    if trump < 0:
        est = (hcp - 8 + 1) // 2  # about hcp / 2 - 4, rounded
    else:
        est = (4 * hcp + 12 * trumps - 88 + 5) // 11
    return min(max(est + GUESS_UP, 1), 13)


@njit
def solve_jobs(deals, first, step, leader, jobs, out, exact, classes, gens, slot, rmemo,
               stats=None):
    """Run every job on deals first, first + step, ... with one table and one ruff-game memo
    (`rmemo`, kernels.dd.search.search); results into `out`. `stats`, when given, is the
    search's score buffer (kernels.dd.search.new_buffers), kept by the caller so that it
    can read the profiling rows after (`python -m tools.nodes`); numba compiles the call
    without it with the test pruned away."""
    n = deals.shape[0]
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    if stats is None:
        scores = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    else:
        scores = stats
    hands = np.zeros(4, np.uint64)
    misere = False
    for j in range(jobs.shape[0]):
        misere |= jobs[j, 0] != JOB_TRICKS
    band = new_band_work(misere)
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
                    guess = 4 if (seats & (seats - 1)) == 0 else partnership_guess(hands, seats,
                                                                                    arg)
                v = solve_value(hands, leader, arg, seats, seats, guess, exact, classes, gen,
                                moves, scores, rmemo)
                last_value[seats] = v
                out[i, j] = v
            elif kind == JOB_GRAND:
                out[i, j] = solve_misere(hands, seats, leader, exact, classes, gen, moves, scores,
                                         PROBE_NODES, band, BAND_START)
            else:
                out[i, j] = solve_little_misere(hands, seats, leader, arg, exact, classes, gen,
                                                moves, scores, PROBE_NODES, band, BAND_START)
