"""Zero-window target search: can the maximising seats make `winmask` take `need` more tricks?

One search core serves every mode. `maxmask` is the set of seats that choose their cards to
reach the target, the others try to stop it; `winmask` is the set of seats whose tricks
count. A numeric contract (R10) is maxmask = winmask = {declarer}; a bridge-style
partnership is maxmask = winmask = side; misère (R15, R21) asks whether the defenders
(maxmask) can make the declarer (winmask) take at least one trick, so the declarer's first
trick is an immediate cut-off. Play follows R19 (follow suit) and R20 (trick winner).

The exact value comes from repeated target searches stepped from a first guess; every
search shares one transposition table (kernels.dd_tt), which stores bounds at trick
boundaries, so each step reuses the previous steps' work.
"""

import numpy as np

from kernels.bits import popcount, trailing_zeros
from kernels.dd_bounds import quick_bounds
from kernels.dd_moves import order_moves
from kernels.dd_state import FULL_DECK, U1, bit, sequence_bottoms, trick_winner
from kernels.dd_tt import code_card, move_code, position_key, tt_lookup, tt_store
from kernels.jit import njit

MAX_PLY = 56
MAX_TRICKS = 13
# Profiling only: with COUNT_NODES set before compiling, row STATS_ROW of the score buffer
# counts nodes [0], trick-boundary nodes [1], table cut-offs [2] and quick-trick cut-offs [3].
COUNT_NODES = False
STATS_ROW = MAX_PLY - 1
MAX_MOVES = 13


def new_buffers():
    """Per-worker move and score buffers, one row per ply of a full deal."""
    return np.zeros((MAX_PLY, MAX_MOVES), np.int64), np.zeros((MAX_PLY, MAX_MOVES), np.int64)


_ENTER = 0
_CHILD = 1
_NEXT = 2
_DONE = 3
_DONE_NOSTORE = 4


@njit
def search(hands, leader, gone, need, trump, maxmask, winmask, keys, data, gen, moves, scores):
    """True when the maximising seats can make `winmask` take >= `need` of the tricks left.

    The position is at a trick boundary with `leader` to lead; `gone` holds the cards out
    of play. The depth-first search runs on an explicit stack (one row per ply, one per
    trick) rather than by recursion: numba cannot reload a cached self-recursive function.
    `hands` is changed and restored in place.
    """
    tricks = np.zeros((MAX_TRICKS + 1, 4), np.int64)
    leaders = np.zeros(MAX_TRICKS + 2, np.int64)
    needs = np.zeros(MAX_TRICKS + 2, np.int64)
    gones = np.zeros(MAX_TRICKS + 2, np.uint64)
    k1s = np.zeros(MAX_TRICKS + 2, np.uint64)
    k2s = np.zeros(MAX_TRICKS + 2, np.uint64)
    nmov = np.zeros(MAX_PLY, np.int64)
    idx = np.zeros(MAX_PLY, np.int64)
    killers = np.full(MAX_PLY, -1, np.int64)  # last card that cut off at each ply
    best = np.full(MAX_TRICKS + 2, -1, np.int64)  # card that cut off at each trick's lead
    leaders[0] = leader
    needs[0] = need
    gones[0] = gone
    ply = 0
    mode = _ENTER
    v = False
    while True:
        ti = ply >> 2
        npl = ply & 3
        ld = leaders[ti]
        p = (ld + npl) & 3
        is_max = ((maxmask >> p) & 1) == 1
        if mode == _ENTER:
            mode = _NEXT
            first = -1
            if COUNT_NODES:
                scores[STATS_ROW, 0] += 1
            if npl == 0:
                if COUNT_NODES:
                    scores[STATS_ROW, 1] += 1
                nd = needs[ti]
                r = popcount(hands[ld])
                if nd <= 0:
                    v = True
                    mode = _DONE_NOSTORE
                elif nd > r:
                    v = False
                    mode = _DONE_NOSTORE
                elif r == 1:
                    row = tricks[ti]
                    for i in range(4):
                        row[i] = trailing_zeros(hands[(ld + i) & 3])
                    w = trick_winner(row, ld, trump)
                    v = ((winmask >> w) & 1) >= nd
                    mode = _DONE_NOSTORE
                else:
                    lo_q, up_q = quick_bounds(hands, ld, trump, maxmask, winmask)
                    if lo_q >= nd:
                        v = True
                        mode = _DONE_NOSTORE
                    elif up_q < nd:
                        v = False
                        mode = _DONE_NOSTORE
                    if COUNT_NODES and mode == _DONE_NOSTORE:
                        scores[STATS_ROW, 3] += 1
                    else:
                        k1, k2 = position_key(hands, ld, trump, maxmask, winmask)
                        k1s[ti] = k1
                        k2s[ti] = k2
                        lo, up, code = tt_lookup(keys, data, k1, k2)
                        first = code_card(hands, code)
                        if lo >= nd:
                            v = True
                            mode = _DONE_NOSTORE
                        elif up < nd:
                            v = False
                            mode = _DONE_NOSTORE
                        if COUNT_NODES and mode == _DONE_NOSTORE:
                            scores[STATS_ROW, 2] += 1
            if mode == _NEXT:
                nmov[ply] = order_moves(hands, tricks[ti], npl, ld, gones[ti], trump, maxmask,
                                        winmask, first, killers[ply], moves[ply], scores[ply])
                best[ti] = -1
                idx[ply] = 0
        elif mode == _CHILD:
            c = moves[ply, idx[ply] - 1]
            hands[p] ^= bit(c)
            if v == is_max:
                killers[ply] = c
                if npl == 0:
                    best[ti] = c
                mode = _DONE
            else:
                mode = _NEXT
        if mode == _NEXT:
            if idx[ply] >= nmov[ply]:
                v = not is_max
                mode = _DONE
            else:
                c = moves[ply, idx[ply]]
                idx[ply] += 1
                hands[p] ^= bit(c)
                tricks[ti, npl] = c
                if npl == 3:
                    row = tricks[ti]
                    w = trick_winner(row, ld, trump)
                    leaders[ti + 1] = w
                    needs[ti + 1] = needs[ti] - ((winmask >> w) & 1)
                    gones[ti + 1] = gones[ti] | bit(row[0]) | bit(row[1]) | bit(row[2]) | bit(c)
                ply += 1
                mode = _ENTER
                continue
        # mode is _DONE or _DONE_NOSTORE: the node at `ply` has value v
        if mode == _DONE and npl == 0:
            r = popcount(hands[ld])
            code = 0 if best[ti] < 0 else move_code(hands, best[ti])
            if v:
                tt_store(keys, data, k1s[ti], k2s[ti], r, needs[ti], r, code, gen)
            else:
                tt_store(keys, data, k1s[ti], k2s[ti], r, 0, needs[ti] - 1, code, gen)
        if ply == 0:
            return v
        ply -= 1
        mode = _CHILD


@njit
def gone_of(hands):
    """Cards out of play in a position: those in no hand."""
    return FULL_DECK & ~(hands[0] | hands[1] | hands[2] | hands[3])


@njit
def solve_value(hands, leader, trump, maxmask, winmask, guess, keys, data, gen, moves, scores):
    """Exact tricks of `winmask` from a trick-boundary position.

    The window starts at the quick bounds; the first target is `guess` (clamped into the
    window), later ones bisect it (on 11-card endings this took about 15% fewer nodes in
    all than stepping one trick at a time from the guess, whose far-off False searches can
    each cost nearly as much as the final ones).
    """
    gone = gone_of(hands)
    lo, hi = quick_bounds(hands, leader, trump, maxmask, winmask)
    t = min(max(guess, lo + 1), hi)
    while lo < hi:
        if search(hands, leader, gone, t, trump, maxmask, winmask, keys, data, gen, moves,
                  scores):
            lo = t
        else:
            hi = t - 1
        t = (lo + hi + 1) // 2
    return lo


@njit
def solve_misere(hands, declarer, leader, keys, data, gen, moves, scores):
    """True when the declarer can be sure to take no trick, no trump (R15, R20, R21)."""
    if popcount(hands[leader]) == 0:
        return True
    winmask = 1 << declarer
    return not search(hands, leader, gone_of(hands), 1, -1, 15 ^ winmask, winmask,
                      keys, data, gen, moves, scores)


DISCARD_HIGHEST = 0


@njit
def defender_discard(hand, policy):
    """The card a defender discards in little misère under `policy` (R17)."""
    # policy 0 ("highest"): its highest-ranked card, ties broken by suit order S H D C
    for rank in range(12, -1, -1):
        for s in range(4):
            c = 13 * s + rank
            if hand & bit(c):
                return c
    return -1


@njit
def solve_little_misere(hands, declarer, leader, policy, keys, data, gen, moves, scores):
    """Little misère (R15, R17): all discard one card, then misère over the rest."""
    h = hands.copy()
    k = popcount(h[declarer])
    for q in range(4):
        if q != declarer:
            h[q] ^= bit(defender_discard(h[q], policy))
    if k <= 1:
        return True  # nothing left to play: no trick can be taken
    gone = gone_of(h)
    # the declarer's discard, one card of each run of equivalent cards (R17: optimal)
    cand = sequence_bottoms(h[declarer], gone)
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        h[declarer] ^= bit(c)
        ok = solve_misere(h, declarer, leader, keys, data, gen, moves, scores)
        h[declarer] ^= bit(c)
        if ok:
            return True
    return False

