"""Every card's double-dummy value in a position that may start inside a trick.

A position is `hands` (4,) uint64 (the cards still held, by seat), the trick's `leader`,
and the `nplayed` (0..3) card ids of `trick` already played to it in order; the player
to move is seat (leader + nplayed) % 4 and it and the players after it in this trick
hold one card more than those who already played (R18, R19). `goal` is a trump 0..3,
NO_TRUMP (-1) for trick counting, or GOAL_MISERE for a declarer who must take no trick
(no trump, R15, R20, R21).

A card's value is, in a numeric goal, the most tricks the declarer can be sure to take
from the current trick (included) to the end once that card is played; in misère, 1
when the declarer can still be sure to take no trick, else 0. Cards that may not be
played (R19), and cards not held, score NO_CARD.

Every card is scored as DDS's `solutions=3` does: the position's value V first (target
searches stepped from a guess, as kernels.dd.search.solve_value), then each card with
zero-window searches starting where its value most likely lies: the player to move
maximising the declarer's tricks takes V with its best card, so a card of that seat is
asked first whether it reaches V (yes: its value is V); a minimising seat's card first
whether it reaches V + 1 (no: V). Only a card worse than the best steps further. Each
card of a run of equivalent cards (kernels.dd.state) takes its run's value from one
search, and a card below every card of its suit that a lower card's searches rested on
takes that card's value (`_same_value`). Every search shares the caller's transposition
table, so the cards' searches reuse the position's.

The searches start inside the trick (kernels.dd.search.search_memo's trick prefix); a
card that completes the trick starts them at the next trick boundary. The table stores
only at trick boundaries, so positions inside a trick are never stored, and its entries
are valid across every position of one trump and declarer (kernels.dd.tt): one table
may serve a whole batch of positions, one generation (`gen`) per batch of related
positions.

These kernels take plain arrays only (`new_score_work` makes the scratch buffers), so a
numba play policy can call `score_cards` or `score_cards_batch` directly.
"""

import numpy as np

from kernels.bits import popcount, trailing_zeros
from kernels.dd.ruff_game import ruff_lower_bound
from kernels.dd.search import (
    MAX_MOVES,
    MAX_PLY,
    PROBE_NODES,
    game_memo,
    gone_of,
    lone_games,
    refuted_relevance,
    search_memo,
    trick_relevance,
)
from kernels.dd.state import (
    FULL_DECK,
    SUIT_MASK,
    U0,
    U1,
    bit,
    current_winner_trump,
    legal_moves,
    run_above,
    sequence_bottoms,
    suit_of,
)
from kernels.dd.sure_tricks import quick_bounds
from kernels.jit import njit

NO_TRUMP = -1
GOAL_MISERE = 4  # the goal code of a misère declarer (trumps are 0..3, no trump -1)
NO_CARD = -1  # the score of a card that may not be played now
UNKNOWN = -2  # the score of a card whose searches ran over their budget (real play only)


def new_score_work():
    """Scratch buffers for `score_cards`: (moves, scores), one row per ply of a full deal
    (kernels.dd.search.new_buffers' shapes). One pair per thread."""
    return np.zeros((MAX_PLY, MAX_MOVES), np.int64), np.zeros((MAX_PLY, MAX_MOVES), np.int64)


@njit
def _reaches(hands, leader, prefix, k, gone, need, trump, maxmask, winmask, exact, classes,
             gen, moves, scores, rmemo, memo, misere, rel, budget=None):
    """Whether the maximising seats can make `winmask` take `need` tricks from the
    position with the first `k` (0..4) cards of `prefix` on the table, counting this
    trick (0: a trick boundary). A complete trick is settled here and the search starts
    at the next boundary; `hands` is left as it was. `rel[0]` receives the relevance of
    the answer (kernels.dd.search.search: the cards it rests on). A `budget` bounds the
    search (kernels.dd.search.search_memo; `budget[1]` set: the answer is to ignore)."""
    rel[0] = U0
    trel = U0
    if k == 4:
        wi = current_winner_trump(prefix, 4, trump)
        trel = trick_relevance(prefix, wi)
        w = (leader + wi) & 3
        need -= (winmask >> w) & 1
        gone = gone | bit(prefix[0]) | bit(prefix[1]) | bit(prefix[2]) | bit(prefix[3])
        leader = w
        k = 0
    if need <= 0:
        v = True
    elif need > popcount(hands[(leader + k) & 3]):  # the tricks left, this one included
        v = False
    elif misere:
        v = search_memo(hands, leader, gone, need, trump, maxmask, winmask, exact, classes,
                        gen, moves, scores, rmemo, memo, np.int64(PROBE_NODES), prefix, k, rel,
                        budget)
    else:
        v = search_memo(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen,
                        moves, scores, rmemo, memo, None, prefix, k, rel, budget)
    rel[0] |= trel
    return v


@njit
def _window(hands, leader, prefix, nplayed, trump, maxmask, winmask, rmemo):
    """(lo, hi, guess) for the position's value: at a trick boundary the quick bounds
    (and a lone declarer's ruff game, kernels.dd.search.solve_value) and a guess inside
    them; inside a trick 0 and the tricks left, and as the guess the middle of the quick
    bounds of the trick's start (the cards played so far taken back)."""
    left = popcount(hands[(leader + nplayed) & 3])
    if nplayed == 0:
        lo, hi, _, _ = quick_bounds(hands, leader, trump, maxmask, winmask, np.int64(0))
        _, lone_trump = lone_games(trump, maxmask, winmask)
        if lone_trump and rmemo.shape[0] > 1 and lo < hi:
            lo = ruff_lower_bound(hands, leader, trump, trailing_zeros(np.uint64(winmask)), lo,
                                  hi, rmemo)
            return lo, hi, lo + 1
        return lo, hi, (lo + hi + 1) // 2
    h = hands.copy()
    for i in range(nplayed):
        h[(leader + i) & 3] |= bit(prefix[i])
    lo0, hi0, _, _ = quick_bounds(h, leader, trump, maxmask, winmask, np.int64(0))
    return 0, left, min((lo0 + hi0 + 1) // 2, left)


@njit
def _setup(hands, trick, nplayed, declarer, goal):
    """(misère, trump, maxmask, winmask, prefix, gone) of a position: the search's seat
    masks (kernels.dd.search.search), the trick's cards as a (4,) int64 prefix, and the
    cards out of play: neither held nor on the table (cards on the table still split
    runs of equivalent cards)."""
    misere = goal == GOAL_MISERE
    trump = NO_TRUMP if misere else goal
    winmask = 1 << declarer
    maxmask = (15 ^ winmask) if misere else winmask
    prefix = np.zeros(4, np.int64)
    on_table = U0
    for i in range(nplayed):
        prefix[i] = trick[i]
        on_table |= bit(trick[i])
    return misere, trump, maxmask, winmask, prefix, gone_of(hands) & ~on_table & FULL_DECK


@njit
def _same_value(legal, gone, c, d, crel):
    """Whether card d, of the suit of card c (searched, its searches resting on `crel`),
    has c's value without a search: both lie below every card of the suit that `crel`
    names and no card of d's run is named, so the positions after either card agree on
    every card the value rests on (the search's own skip, kernels.dd.search._next_card;
    a value is fixed by the answers at two targets, which agree)."""
    sm = SUIT_MASK[suit_of(c)]
    rs = crel & sm
    small = sm if rs == U0 else ((rs & (U0 - rs)) - U1) & sm
    return (bit(c) & small) != U0 and (bit(d) & small) != U0 and (
        crel & run_above(legal, d, gone)) == U0


@njit
def _fill_run(out, legal, gone, c, val):
    """Score `val` for card c and the legal cards equivalent to it above it (its run)."""
    out[c] = val
    rest = run_above(legal, c, gone)
    while rest != U0:
        x = trailing_zeros(rest)
        rest ^= bit(x)
        out[x] = val


@njit
def _value(hands, leader, prefix, nplayed, gone, trump, maxmask, winmask, exact, classes, gen,
           moves, scores, rmemo, memo, budget=None, cap=None):
    """The declarer's tricks from a position (numeric goal): target searches stepped from
    `_window`'s guess, up after a yes, down after a no; at most `cap` when given."""
    lo, hi, guess = _window(hands, leader, prefix, nplayed, trump, maxmask, winmask, rmemo)
    if cap is not None:
        hi = min(hi, cap)
        lo = min(lo, hi)
    return _stepped(hands, leader, prefix, nplayed, gone, lo, hi, guess, trump, maxmask, winmask,
                    exact, classes, gen, moves, scores, rmemo, memo, np.zeros(1, np.uint64),
                    budget)


@njit
def _stepped(hands, leader, prefix, k, gone, lo, hi, t, trump, maxmask, winmask, exact,
             classes, gen, moves, scores, rmemo, memo, rel, budget=None):
    """The declarer's tricks (numeric goal) from the position of `_reaches`, known to lie
    in [lo, hi]: target searches from `t` (clamped into the window), up after a yes, down
    after a no. `rel[0]` receives the union of their relevance. A search over its
    `budget` ends the steps (the answer is then to ignore)."""
    t = min(max(t, lo + 1), hi)
    crel = U0
    while lo < hi:
        yes = _reaches(hands, leader, prefix, k, gone, t, trump, maxmask, winmask, exact,
                       classes, gen, moves, scores, rmemo, memo, False, rel, budget)
        if budget is not None and budget[1] != 0:
            break
        if yes:
            lo = t
            t = lo + 1
        else:
            hi = t - 1
            t = hi
        crel |= rel[0]
    rel[0] = crel
    return lo


@njit
def position_value(hands, leader, trick, nplayed, declarer, goal, exact, classes, gen, moves,
                   scores, rmemo):
    """The position's value alone, as `score_cards` returns it (its best card's score),
    without scoring each card; the arguments as `score_cards`'s."""
    if hands[(leader + nplayed) & 3] == U0:
        return -1
    misere, trump, maxmask, winmask, prefix, gone = _setup(hands, trick, nplayed, declarer,
                                                           goal)
    memo = game_memo(trump, maxmask, winmask)
    if misere:
        return 0 if _reaches(hands, leader, prefix, nplayed, gone, np.int64(1), trump, maxmask,
                             winmask, exact, classes, gen, moves, scores, rmemo, memo, True,
                             np.zeros(1, np.uint64)) else 1
    return _value(hands, leader, prefix, nplayed, gone, trump, maxmask, winmask, exact, classes,
                  gen, moves, scores, rmemo, memo)


@njit
def score_cards(hands, leader, trick, nplayed, declarer, goal, exact, classes, gen, moves,
                scores, rmemo, out, budget=None, cap=None):
    """Score every card of the player to move into `out` (52,) (any integer dtype): its
    value (the module doc) for each legal card, NO_CARD for every other card.

    hands (4,) uint64: the remaining hands, changed during the call and restored;
    leader: the seat that led the current trick; trick: int64 card ids, the first
    `nplayed` (0..3) of them played to it in order; declarer: seat 0..3; goal: trump
    0..3, NO_TRUMP or GOAL_MISERE; exact, classes: a transposition table
    (kernels.dd.tt.new_table); gen: its generation (kernels.dd.tt: bump it between
    unrelated batches; entries stay valid across positions, only the replacement policy
    uses it); moves, scores: `new_score_work()`; rmemo: a ruff-game memo
    (kernels.dd.ruff_game.new_ruff_memo; one entry leaves the ruff game out).

    Returns the position's value: the best card's score for the player to move (the
    declarer's tricks, or 1 when the misère is still sure to be made), -1 when the
    player to move holds no card.

    `budget` (int64 (2,): a node limit per search, and a flag), when given, bounds every
    search (kernels.dd.search.search_memo): a card whose search runs over it scores
    UNKNOWN, and so does every legal card when the position's own value does (numeric
    goals); the value returned is then UNKNOWN unless a known card settles it. `cap`
    (numeric goals), when given, scores min(value, cap): real play needs no value above
    the tricks its contract still needs (extra tricks pay nothing, R21), and a capped
    value is found with fewer searches. Real play uses both; every other caller leaves
    them out and gets exact values."""
    for c in range(52):
        out[c] = NO_CARD
    p = (leader + nplayed) & 3
    if hands[p] == U0:
        return -1
    misere, trump, maxmask, winmask, prefix, gone = _setup(hands, trick, nplayed, declarer,
                                                           goal)
    legal = legal_moves(hands[p], prefix, nplayed)
    runs = sequence_bottoms(legal, gone)
    memo = game_memo(trump, maxmask, winmask)
    # the player to move wants the searches' answers yes (the maximising seats)
    p_max = ((maxmask >> p) & 1) == 1
    value = -1  # misère: the best card's, found below
    if not misere:
        value = _value(hands, leader, prefix, nplayed, gone, trump, maxmask, winmask, exact,
                       classes, gen, moves, scores, rmemo, memo, budget, cap)
        if budget is not None and budget[1] != 0:
            budget[1] = 0
            rest = legal
            while rest != U0:
                c = trailing_zeros(rest)
                rest ^= bit(c)
                out[c] = UNKNOWN
            return UNKNOWN
    left = popcount(hands[p])
    if cap is not None:
        left = min(left, cap)
    k = nplayed + 1
    rel = np.zeros(1, np.uint64)
    # per suit: the last card searched, its value and the relevance of its searches
    last = np.full(4, -1, np.int64)
    last_val = np.zeros(4, np.int64)
    last_rel = np.zeros(4, np.uint64)
    rest = runs
    while rest != U0:
        c = trailing_zeros(rest)  # lowest first, so that small cards meet a lower one
        rest ^= bit(c)
        s = suit_of(c)
        if last[s] >= 0 and _same_value(legal, gone, last[s], c, last_rel[s]):
            _fill_run(out, legal, gone, c, last_val[s])
            continue
        hands[p] ^= bit(c)
        prefix[nplayed] = c
        crel = U0
        if misere:
            # can the defenders force a trick on the declarer?
            forced = _reaches(hands, leader, prefix, k, gone, np.int64(1), trump, maxmask,
                              winmask, exact, classes, gen, moves, scores, rmemo, memo, True,
                              rel, budget)
            crel = rel[0]
            val = 0 if forced else 1
        else:
            # the card's value lies at most at the position's for the maximising seat,
            # at least at it for the other side; the first target is where it most
            # likely lies
            if p_max:
                val = _stepped(hands, leader, prefix, k, gone, 0, value, value, trump, maxmask,
                               winmask, exact, classes, gen, moves, scores, rmemo, memo, rel,
                               budget)
            else:
                val = _stepped(hands, leader, prefix, k, gone, value, left, value + 1, trump,
                               maxmask, winmask, exact, classes, gen, moves, scores, rmemo,
                               memo, rel, budget)
            crel = rel[0]
        hands[p] ^= bit(c)
        if budget is not None and budget[1] != 0:
            budget[1] = 0
            _fill_run(out, legal, gone, c, UNKNOWN)
            last[s] = -1  # nothing to lend the cards below it
            continue
        _fill_run(out, legal, gone, c, val)
        last[s] = c
        last_val[s] = val
        last_rel[s] = refuted_relevance(crel, legal, c, gone)
    if misere:
        # the best card's for the player to move: the declarer keeps the misère with one
        # good card, the defenders beat it with one
        value = 1 if p_max else 0
        unknown = False
        rest = runs
        while rest != U0:
            c = trailing_zeros(rest)
            rest ^= bit(c)
            if out[c] == UNKNOWN:
                unknown = True
            else:
                value = min(value, out[c]) if p_max else max(value, out[c])
        if unknown and value == (1 if p_max else 0):
            value = UNKNOWN  # no known card settles it
    return value


@njit
def score_cards_batch(hands, leader, trick, nplayed, declarer, goal, exact, classes, gen, moves,
                      scores, rmemo, out, values, budget=None, cap=None):
    """`score_cards` for n positions with one trick on the table (one position per
    sampled world): hands (n, 4) uint64, read only; out (n, 52) and values (n,), any
    integer dtype, filled row by row (values: each position's value, as `score_cards`
    returns). The other arguments are `score_cards`'s; every position shares the table
    and its generation `gen`, each search the node limit of `budget`, each value `cap`."""
    h = np.empty(4, np.uint64)
    for i in range(hands.shape[0]):
        for q in range(4):
            h[q] = hands[i, q]
        values[i] = score_cards(h, leader, trick, nplayed, declarer, goal, exact, classes, gen,
                                moves, scores, rmemo, out[i], budget, cap)


@njit
def reach_position(hands, leader, trick, nplayed, declarer, goal, target, exact, classes, gen,
                   moves, scores, rmemo):
    """Whether the declarer can be sure of at least `target` more tricks, the current
    one included (numeric goal), or of taking no trick (GOAL_MISERE, `target` unused),
    from the position; the arguments as `score_cards`'s."""
    misere, trump, maxmask, winmask, prefix, gone = _setup(hands, trick, nplayed, declarer,
                                                           goal)
    memo = game_memo(trump, maxmask, winmask)
    if misere:
        return not _reaches(hands, leader, prefix, nplayed, gone, np.int64(1), trump, maxmask,
                            winmask, exact, classes, gen, moves, scores, rmemo, memo, True,
                            np.zeros(1, np.uint64))
    return _reaches(hands, leader, prefix, nplayed, gone, np.int64(target), trump, maxmask,
                    winmask, exact, classes, gen, moves, scores, rmemo, memo, False,
                    np.zeros(1, np.uint64))
