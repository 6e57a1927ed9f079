"""Zero-window target search: can the maximising seats make `winmask` take `need` more tricks?

One search core serves every mode. `maxmask` is the set of seats that choose their cards to
reach the target, the others try to stop it; `winmask` is the set of seats whose tricks
count. A numeric contract (R10) is maxmask = winmask = {declarer}; a bridge-style
partnership is maxmask = winmask = side; misère (R15, R21) asks whether the defenders
(maxmask) can make the declarer (winmask) take at least one trick, so the declarer's first
trick is an immediate cut-off. Play follows R19 (follow suit) and R20 (trick winner).

The exact value comes from repeated target searches stepped from a first guess; every
search shares one transposition table (kernels.dd.tt), which stores bounds at trick
boundaries, so each step reuses the previous steps' work.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount, trailing_zeros
from kernels.dd.band_game import band_game
from kernels.dd.misere import (
    MISERE_BUDGET,
    MISERE_MEMO,
    ducking_gaps,
    ducks_every_suit,
    misere_force,
    new_misere_work,
    top_of_each_suit,
)
from kernels.dd.moves import order_moves
from kernels.dd.ruff_game import RUFF_MEMO, new_ruff_work, ruff_cut, ruff_lower_bound
from kernels.dd.settle import second_hand_tricks, side_takes_trick
from kernels.dd.state import (
    FULL_DECK,
    SUIT_MASK,
    U0,
    U1,
    beats,
    bit,
    current_winner_trump,
    highest_rank,
    run_above,
    suit_of,
)
from kernels.dd.sure_tricks import quick_bounds
from kernels.dd.trump_game import TRUMP_GAME_BUDGET, TRUMP_MEMO, new_trump_work, trump_tricks
from kernels.dd.tt import (
    class_lookup,
    code_card,
    drop_sole_suits,
    exact_lookup,
    exact_store,
    full_ks,
    ks_from_relevance,
    move_code,
    position_key,
    position_words,
    relevance_from_ks,
    tt_store,
)
from kernels.jit import NO_REFCOUNT, njit

MAX_PLY = 56
MAX_TRICKS = 13
# Profiling only (`python -m tools.nodes`): with COUNT_NODES set when compiling, row
# STATS_ROW of the score buffer counts nodes [0], trick-boundary nodes [1], table cut-offs
# [2], quick-bound cut-offs [3], boundary nodes expanded [4], cut-offs by the lone seat's
# own games [5]; at the expanded leads of the maximising side, a cut-off by the first card
# tried [6], by a later one [7], none [8]; the same at the other side's leads [9..11]; and
# the nodes spent on the cards tried before a later card cut off at a lead [12], each node
# counted once (one such subtree inside another counts once). Per trick, row LEAD_ROW
# keeps the node count when its lead's current card was played, rows WASTE_ROW and
# WASTE_ROW - 1 that count [12] (as far as this search has it) when the lead's node was
# expanded and when its current card was played. No search uses these rows: order_moves
# writes rows 0-51 only.
COUNT_NODES = False
STATS_ROW = MAX_PLY - 1
LEAD_ROW = MAX_PLY - 2
WASTE_ROW = MAX_PLY - 3
MAX_MOVES = 13


def new_buffers():
    """Per-worker move and score buffers, one row per ply of a full deal."""
    return np.zeros((MAX_PLY, MAX_MOVES), np.int64), np.zeros((MAX_PLY, MAX_MOVES), np.int64)


_ENTER = 0
_CHILD = 1
_NEXT = 2
_DONE = 3
_DONE_NOSTORE = 4

# Probing (`search`): at the maximising side's nodes in the first PROBE_PLIES plies, each
# card is searched under a node budget (the search's `probe`, misère's PROBE_NODES), then
# PROBE_GROWTH times as many each round, until one cuts off or all but one are refuted.
# (16 plies, 2048 nodes, growth 4) the quickest of the settings tried on misère.
PROBE_PLIES = 16
PROBE_NODES = 2048
PROBE_GROWTH = 4
BAND_START = 1 << 20  # misère: the search's nodes before the band game's first turn
BAND_GROWTH = 8
BAND_MAX = 1 << 26  # the band game's last turn (its budget); past it the search goes alone
_NO_LIMIT = 1 << 62


@njit
def trick_relevance(row, winner_index):
    """The winning card of a complete trick when it won by rank (another card of its suit
    was played to the trick), else nothing: a relevance mask (kernels.dd.tt)."""
    wcard = row[winner_index]
    ws = suit_of(wcard)
    n = 0
    for i in range(4):
        if suit_of(row[i]) == ws:
            n += 1
    return bit(wcard) if n >= 2 else U0


@njit(inline="always", **NO_REFCOUNT)
def refuted_relevance(vrel, hand, c, gone):
    """The relevance `vrel` of a card c refuted at a node (c taken back into `hand`): c
    stood for its whole run of equivalent cards, and had another card of the run been
    played the roles would be swapped, so when the run matters (a card of it is
    relevant) its lowest card, c, matters too."""
    if vrel & run_above(hand, c, gone):
        return vrel | bit(c)
    return vrel


@njit(**NO_REFCOUNT)
def verdict(lower, upper, lower_rel, upper_rel, need):
    """(settled, value, relevance): whether bounds on the tricks to come settle a target
    (`need`), what they say, and the relevance (or k nibbles) of the bound that does."""
    if lower >= need:
        return True, True, lower_rel
    if upper < need:
        return True, False, upper_rel
    return False, False, U0


@njit(inline="always", **NO_REFCOUNT)
def quick_settle(hands, leader, trump, maxmask, winmask, need, mode, v, vrel, scores):
    """(mode, value, relevance) of a trick-boundary node after the quick bounds: settled
    (_DONE_NOSTORE) when they settle the target `need`, else as given."""
    lo, up, lo_rel, up_rel = quick_bounds(hands, leader, trump, maxmask, winmask, need)
    done, tv, tr = verdict(lo, up, lo_rel, up_rel, need)
    if done:
        if COUNT_NODES:
            scores[STATS_ROW, 3] += 1
        return _DONE_NOSTORE, tv, tr
    return mode, v, vrel


@njit
def lone_games(trump, maxmask, winmask):
    """(misère game, trump game): which game of its own a search asks of a lone seat whose
    tricks count: misère's one-suit games (the defenders maximise, no trump), or a
    numeric contract's trump and ruff games (the seat maximises, a trump suit)."""
    lone = (winmask & (winmask - 1)) == 0
    return lone and trump < 0 and maxmask != winmask, lone and trump >= 0 and maxmask == winmask


@njit
def search(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen, moves, scores,
           rmemo, probe):
    """True when the maximising seats can make `winmask` take >= `need` of the tricks left.

    The position is at a trick boundary with `leader` to lead; `gone` holds the cards out
    of play. The depth-first search runs on an explicit stack (one row per ply, one per
    trick) rather than by recursion: numba cannot reload a cached self-recursive function.
    `hands` is changed and restored in place.

    Every node's value comes with its *relevance* (kernels.dd.tt): the cards that won a
    trick by rank anywhere in the part of the tree the value rests on (the cut-off child's
    line, or every child when none cuts off), plus what bounds and table entries rested on.
    It is what the table stores, and within a node it prunes moves: once a card of a suit,
    below every relevant card of that suit, has been tried without a cut-off, every other
    such card of the suit in that hand gives the same value (the two positions agree on
    every card that matters) and is skipped.

    `rmemo` is the ruff game's memo (kernels.dd.ruff_game.new_ruff_memo), asked at a lone
    declarer's open trick boundaries with a trump suit; a memo of one entry leaves the ruff
    game out of the search.

    With `probe` > 0, a node of the maximising side in the first PROBE_PLIES plies with two
    cards or more tries them side by side (one such node at a time): each card is searched
    with at most `probe` nodes, then PROBE_GROWTH times as many each round; a card that
    cuts off answers at once, a refuted card is done (its relevance counts as usual), a
    card over budget is given up (its plays undone back to the node, nothing stored on
    that path; every subtree it finished is in the table) and tried again next round; the
    last open card is searched without a budget. So a wrong first card costs about what
    the right one does, not its whole refutation. Only the values of finished subtrees
    are used, so the answer is the same with any budget (0: no probing). Misère passes
    PROBE_NODES; the numeric searches pass None, which numba compiles as a search of its
    own with the probing code pruned away (the code present but idle costs the numeric
    jobs 3-6% of their time). Probing the lone declarer's leads costs more than it saves
    there (BENCHMARKS.md).

    This allocates the lone seat's game memo (`game_memo`), `search_memo` the stacks and
    scratch arrays, and `_search` does the work.
    """
    return search_memo(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen,
                       moves, scores, rmemo, game_memo(trump, maxmask, winmask), probe)


@njit
def game_memo(trump, maxmask, winmask):
    """An empty memo for a lone seat's own game in a search of this mode: misère's
    one-suit games, or a numeric contract's trump game (one entry when there is none).
    Its values are properties of the games' states alone, so one memo may serve every
    search of one solve."""
    misere_game, trump_game = lone_games(trump, maxmask, winmask)
    return np.zeros(MISERE_MEMO if misere_game else (TRUMP_MEMO if trump_game else 1),
                    np.uint64)


@njit
def search_memo(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen, moves,
                scores, rmemo, memo, probe, prefix=None, nprefix=0, root_rel=None, budget=None):
    """`search` with the lone seat's game memo given (`game_memo`), so that the
    searches of one solve share it.

    With `prefix` (int64 card ids), the search starts inside a trick: `leader` led it and
    its first `nprefix` cards (0..3) are on the table, out of their owners' hands and not
    in `gone`; `need` counts this trick (kernels.dd.scores). Without it (None) numba
    compiles the trick-boundary search alone. `root_rel` (uint64 (1,)), when given,
    receives the relevance of the answer (the cards it rests on, see `search`).

    `budget` (int64 (2,)), when given, bounds the search for real play, which can use an
    approximate answer but not a minute-long proof: after `budget[0]` nodes the search
    gives up, restores `hands`, sets `budget[1]` to 1 and returns False, a value to
    ignore. What it stored meanwhile are finished subtrees, valid as ever. Without it
    (None) numba compiles the search with no such test."""
    # per trick: leader, tricks still needed, the card that cut off at its lead, the node
    # count when it began, the lead that last cut off at this trick anywhere in the search
    # (the killer, kernels.dd.moves.order_moves), 1 when the class half of the table
    # matched nothing at its start (its store then skips its scan, kernels.dd.tt.class_lookup);
    # cards gone, the relevance of the completed trick and the table's keys; per ply: the
    # relevance gathered from the children tried so far, the cards tried, the number of
    # moves, the next one and the index of the card winning the trick so far (`winp`)
    per_trick = np.zeros((6, MAX_TRICKS + 2), np.int64)
    per_trick[2] = -1
    per_trick[4] = -1
    stacks = (np.zeros((MAX_TRICKS + 1, 4), np.int64), per_trick,
              np.zeros((8, MAX_TRICKS + 2), np.uint64), np.zeros((2, MAX_PLY), np.uint64),
              np.zeros((3, MAX_PLY), np.int64))
    games = (new_trump_work(), new_ruff_work(), new_misere_work())
    return _search(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen,
                   moves, scores, rmemo, memo, stacks, games, probe, prefix, nprefix, root_rel,
                   budget)


@njit(inline="always", **NO_REFCOUNT)
def _give_up_probe(hands, leaders, tricks, moves, nmov, idx, ply, pn_ply):
    """A probed card over its budget: undo the plays back to the probing node `pn_ply`,
    storing nothing on the way (every subtree finished meanwhile is in the table), and put
    the card last in the node's list; return the probing node's ply."""
    while ply > pn_ply:
        ply -= 1
        q = (leaders[ply >> 2] + (ply & 3)) & 3
        hands[q] ^= bit(tricks[ply >> 2, ply & 3])
    j = idx[ply] - 1
    c = moves[ply, j]
    for k in range(j, nmov[ply] - 1):
        moves[ply, k] = moves[ply, k + 1]
    moves[ply, nmov[ply] - 1] = c
    idx[ply] = j
    return ply


@njit(inline="always", **NO_REFCOUNT)
def _last_trick(hands, row, ld, trump, winmask, nd):
    """(value, relevance) of the last trick, every hand holding one card: whether the
    seats of `winmask` reach `nd` with it (R19, R20); the trick is written into `row`."""
    for i in range(4):
        row[i] = trailing_zeros(hands[(ld + i) & 3])
    wi = current_winner_trump(row, 4, trump)
    w = (ld + wi) & 3
    return ((winmask >> w) & 1) >= nd, trick_relevance(row, wi)


@njit(inline="always", **NO_REFCOUNT)
def _table_settle(hands, ld, trump, maxmask, winmask, nd, exact, classes, ut, kdist, kmeta,
                  kown1, kown2, kex1, kex2, fresh):
    """(settled, value, relevance, move code) of a trick-boundary position from the table:
    its exact half, then its class half while the exact bounds leave `nd` open. The
    position's key words are kept at trick `ut` for the store on the way back, and
    whether no class matched (`fresh`, kernels.dd.tt.tt_store)."""
    dist, meta, o1, o2 = position_words(hands, ld, trump, maxmask, winmask)
    k1, k2 = position_key(dist, meta, o1, o2)
    lo, up, klo, kup, code = exact_lookup(exact, k1, k2)
    kdist[ut] = dist
    kmeta[ut] = meta
    kown1[ut] = o1
    kown2[ut] = o2
    kex1[ut] = k1
    kex2[ut] = k2
    if lo < nd <= up:
        lo2, klo2, up2, kup2, code2, hit = class_lookup(classes, dist, meta, o1, o2, nd)
        fresh[ut] = 0 if hit else 1
        if lo2 > lo:
            lo = lo2
            klo = klo2
        if up2 < up:
            up = up2
            kup = kup2
        if code == 0:
            code = code2
    done, tv, kw = verdict(lo, up, klo, kup, nd)
    if done:
        return True, tv, relevance_from_ks(hands, kw), code
    return False, False, U0, code


@njit(inline="always", **NO_REFCOUNT)
def _lone_game_settle(hands, ld, trump, winmask, nd, trump_game, ruff_on, memo, rmemo,
                      trump_work, ruff_work, misere_work):
    """(won, relevance): whether a search of its own settles what the lone seat of
    `winmask` needs (stored like a search's result): the lone declarer's trump game, then
    its ruff game (memo `rmemo`, kept by the worker across solves), or in misère the
    defenders on lead leading one suit on and on."""
    d = trailing_zeros(np.uint64(winmask))
    won = False
    grel = U0
    if trump_game:
        won, grel = trump_tricks(hands, ld, trump, d, nd, TRUMP_GAME_BUDGET, memo, trump_work)
        if not won and ruff_on:
            won, grel = ruff_cut(hands, ld, trump, d, nd, rmemo, ruff_work)
    elif nd == 1 and d != ld:
        won, grel = misere_force(hands, ld, d, MISERE_BUDGET, memo, misere_work)
    return won, grel


@njit(inline="always", **NO_REFCOUNT)
def _in_trick_settle(hands, row, npl, ld, trump, winmask, nd, wi):
    """(settled, value, relevance) inside a trick, `npl` cards played (`wi` the index of
    the card now winning it): when one more trick decides the target, a side sure to win
    this one settles it (R20); in no trump, the second hand's side winning this trick and
    cashing enough."""
    if nd == 1:
        won, grel = side_takes_trick(hands, row, npl, ld, trump, winmask, wi)
        if won:
            return True, True, grel
    elif nd == popcount(hands[(ld + 3) & 3]):
        won, grel = side_takes_trick(hands, row, npl, ld, trump, 15 ^ winmask, wi)
        if won:
            return True, False, grel
    elif npl == 1 and trump < 0:
        won, v, grel = second_hand_tricks(hands, row, ld, trump, winmask, nd)
        if won:
            return True, v, grel
    return False, False, U0


@njit(inline="always", **NO_REFCOUNT)
def _misere_in_trick(hands, row, npl, ld, winmask, nd, wi):
    """(settled, value, relevance) inside a misère trick (no trump), `npl` cards played
    (`wi` the index of the card now winning it), once the declarer has played to it;
    `nd`: the declarer's tricks the defenders still need (1 in a misère search):

    - its card wins the trick when it is winning now and no defender still to play holds
      a higher card of the suit led (R19, R20): with `nd` 1 the defenders reach their
      goal; the relevance is that card;
    - it cannot win the trick when it is not winning now (a lower card of the suit led,
      or a discard), or when a defender still to play holds only higher cards of the suit
      led (it must follow, R19); then if the declarer, with the cards still in hand,
      ducks every trick to come (`ducks_every_suit`) the misère is made (R15, R21): a
      defender wins this trick and leads, and the defenders' cards still to come to it
      only leave their hands, which keeps the ducking rule true (its proof). The
      relevance: the rule's, and the card that beats the declarer's (the one now winning
      when the declarer followed suit; the lowest card of a defender to come that holds
      only higher ones: the owners of the cards from it up and the suit lengths fix
      that it holds no lower card, and the declarer played one below it)."""
    d = trailing_zeros(np.uint64(winmask))
    di = (d - ld) & 3
    if di >= npl:
        return False, False, U0
    if di == wi:
        c = row[di]
        sm = SUIT_MASK[suit_of(c)]
        above = False  # a defender still to play holds a higher card of the suit
        wrel = U0  # the lowest card of one that holds only higher ones: it must beat c
        for j in range(npl, 4):
            f = hands[(ld + j) & 3] & sm
            if f > bit(c):
                above = True
                if (f & (U0 - f)) > bit(c):
                    wrel = f & (U0 - f)
        if not above:
            return nd == 1, True, bit(c)
        if wrel == U0:
            return False, False, U0
    else:
        wrel = bit(row[wi]) if suit_of(row[di]) == suit_of(row[0]) else U0
    ok, rel = ducks_every_suit(hands, d)
    if not ok:
        return False, False, U0
    return True, False, rel | wrel


@njit(inline="always", **NO_REFCOUNT)
def _next_card(hand, moves_here, nmov_here, idx, rels_here, tried_here, gone, uy):
    """The next card to try at the node at ply `uy` (its index advanced), or -1: a card
    below every relevant card of its suit is skipped once another such card of the suit
    was tried here (same value, see `search`), unless its own run reaches a relevant card
    (then the run's bottom matters)."""
    while idx[uy] < nmov_here:
        c = moves_here[np.uint64(idx[uy])]
        idx[uy] += 1
        sm = SUIT_MASK[suit_of(c)]
        rs = rels_here & sm
        small = sm if rs == U0 else ((rs & (U0 - rs)) - U1) & sm
        if (bit(c) & small) != U0 and (tried_here & small) != U0 and (
                rels_here & run_above(hand, c, gone)) == U0:
            continue
        return c
    return -1


@njit(inline="always", **NO_REFCOUNT)
def _store_result(hands, ld, exact, classes, gen, v, vrel, nd, best_card, spent, k1, k2,
                  dist, meta, o1, o2, fresh):
    """Store a trick-boundary node's result (value `v` for target `nd`, resting on
    `vrel`; `ld` on lead) in both halves of the table, its replacement priority the bit
    length of the `spent` nodes, its best lead `best_card` (-1: none); a class naming every card is
    the exact entry alone."""
    r = popcount(hands[ld])
    code = 0 if best_card < 0 else move_code(hands, best_card)
    kw = ks_from_relevance(hands, vrel)
    lo = nd if v else 0
    up = r if v else nd - 1
    cost = 64 - leading_zeros(np.uint64(spent))
    exact_store(exact, k1, k2, kw if v else U0, U0 if v else kw, cost, lo, up, code, gen)
    if kw != full_ks(hands):
        # (a key's classes beyond its bucket chain into a run of the pool:
        # kernels.dd.tt, tt_store)
        tt_store(classes, dist, meta, o1, o2, kw, cost, lo, up, code, gen, fresh)


@njit(inline="always", **NO_REFCOUNT)
def _pop_forced(hands, leaders, moves, nmov, trels, gones, maxmask, ply, v, vrel, root):
    """(ply, relevance) after popping the forced followers above `ply` (one candidate,
    nmov 1 at plies 1-3 of a trick: R19 left it one card, or one run of equivalent
    cards): each takes its child's value without a pass of the search's loop, whose
    _CHILD, _NEXT and _DONE would do no more (forced followers are 23% of the nodes;
    bridge 0.989 of the time; popping so every follower its child settles is slower).
    The search's root, at ply `root`, is never popped."""
    while (ply & 3) != 0 and ply > root and nmov[np.uint64(ply)] == 1:
        uf = np.uint64(ply)
        tf = np.uint64(ply >> 2)
        q = (leaders[tf] + (ply & 3)) & 3
        c = moves[uf, 0]
        hands[q] ^= bit(c)
        if (ply & 3) == 3:
            vrel |= trels[tf]
        if v != (((maxmask >> q) & 1) == 1):
            vrel = refuted_relevance(vrel, hands[q], c, gones[tf])
        ply -= 1
    return ply, vrel


@njit(**NO_REFCOUNT)  # the hot loop: no atomic reference counts (kernels.jit)
def _search(hands, leader, gone, need, trump, maxmask, winmask, exact, classes, gen, moves,
            scores, rmemo, memo, stacks, games, probe, prefix, nprefix, root_rel, budget):
    """`search` on the arrays it allocated: the game's `memo`, the search's `stacks`
    and the games' scratch arrays (`games`); a trick `prefix`, `root_rel` and `budget` as
    in `search_memo`."""
    tricks, per_trick, keys, per_ply, moves_at = stacks
    leaders, needs, best, started = per_trick[0], per_trick[1], per_trick[2], per_trick[3]
    killers = per_trick[4]
    fresh = per_trick[5]  # no class-half entry matched the position (tt.class_lookup)
    gones, trels = keys[0], keys[1]
    kdist, kmeta, kown1, kown2, kex1, kex2 = keys[2], keys[3], keys[4], keys[5], keys[6], keys[7]
    rels, tried = per_ply[0], per_ply[1]
    nmov, idx, winp = moves_at[0], moves_at[1], moves_at[2]
    trump_work, ruff_work, misere_work = games
    nodes = 0
    wasted = 0  # profiling (COUNT_NODES): nodes before a later cutting lead, so far
    misere_game, trump_game = lone_games(trump, maxmask, winmask)
    plain = maxmask == winmask  # the maximising seats' own tricks count (not misère)
    # probing (see `search`): the node trying its cards under budgets (-1: none), the node
    # count at which the card searched there is given up, the budget of this round and
    # the cards still to start in it
    pn_ply = -1
    pn_limit = _NO_LIMIT
    pn_budget = 0
    pn_left = 0
    ruff_on = trump_game and rmemo.shape[0] > 1  # the ruff game too, unless no memo is given
    leaders[0] = leader
    needs[0] = need
    gones[0] = gone
    ply = 0
    root = 0  # the root's ply: the cards of a trick prefix lie below it
    if prefix is not None:  # (tested alone, so that numba prunes it when None)
        if nprefix > 0:
            for i in range(nprefix):
                tricks[0, i] = prefix[i]
            root = nprefix
            ply = root
            winp[root] = current_winner_trump(tricks[0], nprefix, trump)
    mode = _ENTER
    v = False
    vrel = U0
    while True:
        ti = ply >> 2
        npl = ply & 3
        # unsigned indices: numba wraps a signed index that is negative (a test, a mask
        # and a load of the array's shape at every access)
        uy = np.uint64(ply)
        ut = np.uint64(ti)
        ld = leaders[ut]
        p = (ld + npl) & 3
        is_max = ((maxmask >> p) & 1) == 1
        if mode == _ENTER:
            nodes += 1
            if budget is not None and nodes > budget[0]:
                # given up: every play above the root taken back, nothing stored
                while ply > root:
                    ply -= 1
                    hands[(leaders[ply >> 2] + (ply & 3)) & 3] ^= bit(tricks[ply >> 2, ply & 3])
                budget[1] = 1
                return False
            if probe is not None and nodes > pn_limit:
                # over budget: back to the probing node, on with its next card
                ply = _give_up_probe(hands, leaders, tricks, moves, nmov, idx, ply, pn_ply)
                mode = _NEXT
                continue
            mode = _NEXT
            first = -1
            if COUNT_NODES:
                scores[STATS_ROW, 0] += 1
            if npl == 0:
                if COUNT_NODES:
                    scores[STATS_ROW, 1] += 1
                started[ut] = nodes
                nd = needs[ut]
                r = popcount(hands[ld])
                if nd <= 0:
                    v = True
                    vrel = U0
                    mode = _DONE_NOSTORE
                elif nd > r:
                    v = False
                    vrel = U0
                    mode = _DONE_NOSTORE
                elif r == 1:
                    v, vrel = _last_trick(hands, tricks[ut], ld, trump, winmask, nd)
                    mode = _DONE_NOSTORE
                else:
                    # the table first, its exact half then its class half, and the quick
                    # bounds only for a position neither settles: the table settles
                    # about as many boundary nodes as the quick bounds do and costs
                    # about half as many instructions (valgrind's counts; against the
                    # quick bounds first, bridge 0.944 of the time). Not in the
                    # probing (misère) searches, whose quick bounds settle nearly half
                    # these nodes (there a prefetch of the exact bucket while they run
                    # costs 1.115 of the time). Tested on `probe`, not on the
                    # mode, so that numba prunes the other order from each compiled
                    # search
                    if probe is not None:
                        mode, v, vrel = quick_settle(hands, ld, trump, maxmask, winmask, nd,
                                                     mode, v, vrel, scores)
                    if mode == _NEXT:
                        done, tv, trel, code = _table_settle(
                            hands, ld, trump, maxmask, winmask, nd, exact, classes, ut, kdist,
                            kmeta, kown1, kown2, kex1, kex2, fresh)
                        if done:
                            v = tv
                            vrel = trel
                            mode = _DONE_NOSTORE
                            if COUNT_NODES:
                                scores[STATS_ROW, 2] += 1
                    if probe is None and mode == _NEXT:
                        mode, v, vrel = quick_settle(hands, ld, trump, maxmask, winmask, nd,
                                                     mode, v, vrel, scores)
                    if mode == _NEXT and (trump_game or misere_game):
                        won, grel = _lone_game_settle(hands, ld, trump, winmask, nd,
                                                      trump_game, ruff_on, memo, rmemo,
                                                      trump_work, ruff_work, misere_work)
                        if won:
                            v = True
                            vrel = grel
                            best[ut] = -1
                            mode = _DONE
                            if COUNT_NODES:
                                scores[STATS_ROW, 5] += 1
            elif plain:
                done, tv, trel = _in_trick_settle(hands, tricks[ut], npl, ld, trump, winmask,
                                                  needs[ut], winp[uy])
                if done:
                    v = tv
                    vrel = trel
                    mode = _DONE_NOSTORE
            elif misere_game:
                done, tv, trel = _misere_in_trick(hands, tricks[ut], npl, ld, winmask,
                                                  needs[ut], winp[uy])
                if done:
                    v = tv
                    vrel = trel
                    mode = _DONE_NOSTORE
            if mode == _NEXT:
                if npl == 0:
                    first = code_card(hands, code)  # the table's best lead, tried first
                nmov[uy] = order_moves(hands, tricks[ut], npl, ld, gones[ut], trump, maxmask,
                                       winmask, first, moves[uy], scores[uy],
                                       killers[ut] if npl == 0 else -1, winp[uy])
                best[ut] = -1
                idx[uy] = 0
                rels[uy] = U0
                if COUNT_NODES and npl == 0:
                    scores[STATS_ROW, 4] += 1
                    scores[WASTE_ROW, ti] = wasted
                tried[uy] = U0
                if probe is not None and probe > 0 and is_max and pn_ply < 0 and \
                        ply < PROBE_PLIES and nmov[uy] >= 2:
                    pn_ply = ply
                    pn_budget = probe
                    pn_left = nmov[uy]
        elif mode == _CHILD:
            c = moves[uy, np.uint64(idx[uy] - 1)]
            hands[p] ^= bit(c)
            if npl == 3:
                vrel |= trels[ut]
            if COUNT_NODES and npl == 0 and v == is_max:
                col = 6 if is_max else 9
                if idx[uy] == 1:
                    scores[STATS_ROW, col] += 1
                else:
                    scores[STATS_ROW, col + 1] += 1
                    # the nodes of the cards tried before, less those already counted
                    # inside them
                    wasted += (scores[LEAD_ROW, ti] - started[ti]) - (
                        scores[WASTE_ROW - 1, ti] - scores[WASTE_ROW, ti])
            if v == is_max:
                if npl == 0:
                    best[ut] = c
                    killers[ut] = c
                if pn_ply == ply:
                    pn_ply = -1
                    pn_limit = _NO_LIMIT
                mode = _DONE
            else:
                vrel = refuted_relevance(vrel, hands[p], c, gones[ut])
                rels[uy] |= vrel
                tried[uy] |= bit(c)
                mode = _NEXT
        if mode == _NEXT:
            c = _next_card(hands[p], moves[uy], nmov[uy], idx, rels[uy], tried[uy], gones[ut],
                           uy)
            if c < 0:
                if COUNT_NODES and npl == 0:
                    scores[STATS_ROW, 8 if is_max else 11] += 1
                if pn_ply == ply:
                    pn_ply = -1
                    pn_limit = _NO_LIMIT
                v = not is_max
                vrel = rels[uy]
                mode = _DONE
            else:
                hands[p] ^= bit(c)
                tricks[ut, np.uint64(npl)] = c
                if COUNT_NODES and npl == 0:
                    scores[LEAD_ROW, ti] = nodes
                    scores[WASTE_ROW - 1, ti] = wasted
                if probe is not None and pn_ply == ply:
                    if idx[uy] == nmov[uy]:
                        # the last card still open: no budget
                        pn_ply = -1
                        pn_limit = _NO_LIMIT
                    else:
                        if pn_left == 0:  # a new round: every open card once more
                            pn_budget *= PROBE_GROWTH
                            pn_left = nmov[uy] - idx[uy] + 1
                        pn_left -= 1
                        pn_limit = nodes + pn_budget
                # the card now winning the trick (R20), kept per ply as cards are played
                # (`winp`: for the node at a ply, the index of the winning card of those
                # before it), so that the followers' move ordering, `side_takes_trick` and
                # the trick's end do not work it out again from the cards (bridge 0.984
                # of the time)
                if npl == 0:
                    wi = 0
                else:
                    wi = winp[uy]
                    if beats(c, tricks[ut, np.uint64(wi)], trump):
                        wi = npl
                if npl != 3:
                    winp[uy + U1] = wi
                else:
                    row = tricks[ut]
                    w = (ld + wi) & 3
                    trels[ut] = trick_relevance(row, wi)
                    leaders[ut + U1] = w
                    needs[ut + U1] = needs[ut] - ((winmask >> w) & 1)
                    gones[ut + U1] = gones[ut] | bit(row[0]) | bit(row[1]) | bit(row[2]) | bit(c)
                ply += 1
                mode = _ENTER
                continue
        # mode is _DONE or _DONE_NOSTORE: the node at `ply` has value v, relevance vrel
        if npl == 0 and vrel != U0:
            # a suit one hand holds alone is owned as the suit lengths say: naming its
            # cards would only narrow the classes stored here and above
            vrel = drop_sole_suits(hands, vrel)
        if mode == _DONE and npl == 0:
            _store_result(hands, ld, exact, classes, gen, v, vrel, needs[ut], best[ut],
                          nodes - started[ut], kex1[ut], kex2[ut], kdist[ut], kmeta[ut],
                          kown1[ut], kown2[ut], fresh[ut] == 1)
        if ply == root:
            if COUNT_NODES:
                scores[STATS_ROW, 12] += wasted
            if root_rel is not None:
                root_rel[0] = vrel
            return v
        mode = _CHILD
        ply, vrel = _pop_forced(hands, leaders, moves, nmov, trels, gones, maxmask, ply - 1, v,
                                vrel, root)


@njit
def gone_of(hands):
    """Cards out of play in a position: those in no hand."""
    return FULL_DECK & ~(hands[0] | hands[1] | hands[2] | hands[3])


@njit
def solve_value(hands, leader, trump, maxmask, winmask, guess, exact, classes, gen, moves, scores,
                rmemo):
    """Exact tricks of `winmask` from a trick-boundary position.

    The window starts at the quick bounds. Otherwise the first target is `guess`
    (clamped into the window) and later ones step one trick at a time from it, up after
    a search that reached its target, down after one that did not, as DDS steps (against
    bisecting the window, bridge 0.974 of the nodes).

    For a lone declarer with a trump suit the window's lower end is raised to the tricks
    it makes in the ruff game (kernels.dd.ruff_game), and the targets step up from there
    one trick at a time, `guess` unused: that bound is nearly always the value or one
    short of it (seed-777 deals 0-39, numeric: the value in 512 of 640 solves, one short
    in 106), so a guess above it mostly buys a far-off False search (numeric jobs 6-9%
    less time so).

    The searches share one memo of the trump game (`game_memo`). The root's ruff game
    uses the worker's ruff memo `rmemo`, which the searches' ruff games use too: no
    fresh 768 KiB of zeroed pages each solve, and values shared across solves (numeric
    jobs 0.87 of the searches' game nodes).
    """
    gone = gone_of(hands)
    # np.int64, not a bare constant: numba compiles a callee once more for a literal
    # argument (see solve_misere)
    lo, hi, _, _ = quick_bounds(hands, leader, trump, maxmask, winmask, np.int64(0))
    _, step = lone_games(trump, maxmask, winmask)  # a lone declarer with a trump suit
    if step:
        # a lone declarer's tricks in the ruff game are tricks it makes in play: they
        # need no search
        lo = ruff_lower_bound(hands, leader, trump, trailing_zeros(np.uint64(winmask)), lo, hi,
                              rmemo if rmemo.shape[0] > 1 else np.zeros((RUFF_MEMO, 3), np.uint64))
        guess = lo + 1
    if lo >= hi:
        return lo
    t = min(max(guess, lo + 1), hi)
    memo = game_memo(trump, maxmask, winmask)
    while lo < hi:
        if search_memo(hands, leader, gone, t, trump, maxmask, winmask, exact, classes, gen,
                       moves, scores, rmemo, memo, None):
            lo = t
            t = lo + 1
        else:
            hi = t - 1
            t = hi
    return lo


@njit
def solve_misere(hands, declarer, leader, exact, classes, gen, moves, scores, probe, band,
                 band_start):
    """True when the declarer can be sure to take no trick, no trump (R15, R20, R21).

    The defenders' cards near the top are probed (`search`'s `probe`: PROBE_NODES in the
    batch, a few nodes in the tests that exercise the budgets): where they can force a
    trick, the card that does it is often not the first the ordering tries, and the first
    one's refutation can cost thousands of times more: in seed-777 deal 136, East's grand
    misère, refuting North's duck at the first trick takes 20.9 million nodes, where
    overtaking forces the trick in 3,387 (misère of deals 0-199: 0.64 of the time
    with probing).

    A search that runs past `band_start` nodes (BAND_START in the batch) takes turns with
    the band game (kernels.dd.band_game, its work `band`), each with the same node budget,
    eight times larger every round. The band game proves a made misère in far fewer
    nodes than the search where it can (it gives the defenders more than play does): its
    "made" is the answer; its "forced" says nothing, and the search then goes on alone,
    as it does after the band game's turn at BAND_MAX nodes (where the band game gives the
    defenders too much its proof can be far larger than the search's: West's grand misère
    in the slowest deal of tests/data/hard_boston.json runs past 10^10 band-game nodes).
    The search's turns keep what they finished in the table, so each round goes on from
    the last."""
    if popcount(hands[leader]) == 0:
        return True
    winmask = 1 << declarer
    # need and trump as np.int64, not bare constants: numba typed them Literal[int](1)
    # and Literal[int](-1), and compiled a second copy of every callee taking the trump
    # (quick_bounds, sure_tricks, cash_runs, side_takes_trick, the ruff game's entry):
    # 4 s of cold compile
    trump = np.int64(-1)
    maxmask = 15 ^ winmask
    gone = gone_of(hands)
    rmemo = np.zeros((1, 3), np.uint64)
    memo = game_memo(trump, maxmask, winmask)
    prefix = np.zeros(4, np.int64)
    rel = np.zeros(1, np.uint64)
    budget = np.zeros(2, np.int64)
    limit = band_start
    band_open = True
    while True:
        budget[0] = limit if band_open else _NO_LIMIT
        budget[1] = 0
        v = search_memo(hands, leader, gone, np.int64(1), trump, maxmask, winmask, exact,
                        classes, gen, moves, scores, rmemo, memo, np.int64(probe), prefix,
                        np.int64(0), rel, budget)
        if budget[1] == 0:
            return not v
        r = band_game(hands, leader, declarer, limit, band)
        if r == 0:
            return True
        if r == 1 or limit >= BAND_MAX:
            band_open = False
        limit *= BAND_GROWTH


DISCARD_HIGHEST = 0


@njit
def defender_discard(hand, policy):
    """The card a defender discards in little misère under `policy` (R17)."""
    # policy 0 ("highest"): its highest-ranked card, ties broken by suit order S H D C
    return highest_rank(hand)


@njit
def solve_little_misere(hands, declarer, leader, policy, exact, classes, gen, moves, scores,
                        probe, band, band_start):
    """Little misère (R15, R17): all discard one card, then misère over the rest
    (`solve_misere`, `probe`, `band` and `band_start` as there)."""
    h = hands.copy()
    k = popcount(h[declarer])
    for q in range(4):
        if q != declarer:
            h[q] ^= bit(defender_discard(h[q], policy))
    if k <= 1:
        return True  # nothing left to play: no trick can be taken
    # the declarer's discard (R17: optimal), its highest card of some suit (kernels.dd.
    # misere.top_of_each_suit: against one card of each run of equivalent cards, misère
    # of seed-777 deals 0-39 0.69 of the nodes): first the one
    # that leaves it fewest places short of ducking every trick (kernels.dd.misere.
    # ducking_gaps), of those the highest rank (highest ranks alone try seed-777 deal 30
    # South's three failing discards before its one good one; misère of 200 deals: 0.87
    # of the time with the gaps first)
    cand = top_of_each_suit(h[declarer])
    while cand:
        c = -1
        bestg = 99
        rest = cand
        while rest:
            x = highest_rank(rest)
            rest ^= bit(x)
            h[declarer] ^= bit(x)
            g = ducking_gaps(h, declarer)
            h[declarer] ^= bit(x)
            if g < bestg:
                bestg = g
                c = x
        cand ^= bit(c)
        h[declarer] ^= bit(c)
        ok = solve_misere(h, declarer, leader, exact, classes, gen, moves, scores, probe, band,
                          band_start)
        h[declarer] ^= bit(c)
        if ok:
            return True
    return False

