"""Quick sure-trick bounds at a trick boundary, for early cut-offs in the target search.

The side on lead can be sure of the tricks its leader cashes from the top: in each suit,
the leader's cards ranked above every other card of that suit still in play (its top run).
Every such card wins its trick (R20) and keeps the lead; and when the run is at least as
long as every other hand's holding of the suit, the others are out of it once the run is
played (R19), so all the leader's cards of the suit win. With a trump suit, side-suit
winners are sure only once the opponents cannot ruff: after the leader's top trumps have
drawn all the opponents' trumps, or, for the single side suit cashed first, as long as
every opponent still holding a trump also still follows suit. A partner who is void could
be forced to ruff (and take the lead) only when it has nothing but trumps, so side-suit
cashes are capped by each such partner's non-trump cards.

Whoever leads, a hand's top trumps (those above every other trump still in play) are sure
tricks: every card is played some time, and the highest trump left wins the trick it is
played to (R20), so each of them wins one trick. Only one hand's top run counts for a side
(two partners' top trumps may fall on the same trick).

When the maximising side leads, its cashing tricks are a lower bound on its tricks; when
the other side leads, r minus that side's sure tricks is an upper bound (asked in
partnerships only: against a lone declarer the table nearly always knows it first).
Both hold only where the maximising seats are the seats whose tricks count (numeric
contracts, partnerships);
in misère (no trump) the declarer on lead must take the trick when each of its suits'
lowest card is above every other card of that suit. Conversely a declarer holding, in
every suit, only cards below all the others' cards of that suit never wins a trick it
does not lead (whoever follows suit beats it; a discard never wins), and it leads only
once, to the first trick, where it can lose by leading a suit someone else still holds:
the property survives every trick, so such a declarer takes nothing (upper bound 0).
With a defender on lead, less is enough: in each suit the declarer's i-th lowest card
below the defenders' i-th lowest, for as many rounds as the suit can still be led
(`ducks_every_suit`). And the defenders on lead may
force the declarer's trick by leading one suit on and on (`misere_suit_game`, searched
within a budget and asked by the search itself through `misere_force`).

More rules (each function's docstring gives its argument): the leader may first cross
to a partner holding a suit's top card (`sure_tricks`); a maximising seat's highest
trump, with every higher trump held by its right-hand opponent and enough lower trumps
to play under them, takes a trick while the other side leads (`guarded_behind`); a lone
declarer's trumps take a trick while the defenders lead when it wins the trump game
played by its trumps against the right-hand opponent's (played before it) and the
others' (covering after it): one line of play in closed form (`trump_challenge`); and
with no trumps in play, the side on lead cannot take every trick when the other side
holds a suit's top card and the side's own suits are too short (`cannot_take_all`).
How many tricks a lone declarer's trumps take, the whole trump game searched within a
budget, is kernels.dd_trump_game, asked by the search itself.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount, trailing_zeros
from kernels.dd_state import (
    FULL_DECK,
    SUIT_MASK,
    U0,
    U1,
    current_winner_trump,
    sequence_bottoms,
    suit_of,
)
from kernels.jit import NO_REFCOUNT, njit

_FF = np.uint64(0xFF)
MISERE_BUDGET = 256  # nodes of `misere_suit_game` per suit and trick boundary at most


@njit(**NO_REFCOUNT)
def top_run(mine, others):
    """Mask of the cards of `mine` ranked above every card of `others` (one suit's masks)."""
    if others == U0:
        return mine
    top_other = np.uint64(63) - np.uint64(leading_zeros(others))
    above = ~((U1 << (top_other + U1)) - U1)
    return mine & above


@njit(inline="always", **NO_REFCOUNT)
def outside(hands, side):
    """All the cards in play of the seats not in `side` (a seat mask)."""
    theirs = U0
    for q in range(4):
        if ((side >> q) & 1) == 0:
            theirs |= hands[q]
    return theirs


@njit(**NO_REFCOUNT)
def _run_tricks(hands, p, s, run):
    """Tricks p takes in suit s by leading its top run `run` there (its cards above every
    other card of s): the run, or every card p holds of s when the run outlasts every
    other hand's holding of s (those hands follow suit under the run, R19, and are then
    out of the suit, so p's lower cards win too, R20). The count rests on the run's
    owners and the suit lengths."""
    n = popcount(run)
    if n == 0:
        return 0
    sm = SUIT_MASK[s]
    for q in range(4):
        if q != p and popcount(hands[q] & sm) > n:
            return n
    return popcount(hands[p] & sm)


@njit(**NO_REFCOUNT)
def _cash(hands, p, side, trump, want):
    """(cashed, extra, relevance, drawn, enough, enough relevance): the tricks p cashes from
    its top runs, keeping the lead (`cash_tricks`); the tricks one more suit no opponent
    holds adds when cashed last; the cards the count rests on; whether no opponent keeps a
    trump after p's top trumps; and, when `cashed` reaches `want`, a count of at least
    `want` from fewer suits with the cards it rests on (else `cashed` + `extra` and the
    same relevance).

    Each suit's tricks rest on its own run (and the suit lengths), and cashing some of the
    suits keeps the lead as cashing all does, so the trump run and the side suits giving
    the most tricks, taken until they reach `want`, are a bound of their own on fewer
    cards: a position that keeps those runs but not the others' still reaches it. The
    search passes that relevance up, so its table entries cover more positions (a small
    gain: bench bridge job 76, no trump, 996,537 -> 973,318 boundary nodes)."""
    r = popcount(hands[p])
    others = others_of(hands, p)
    rel = U0
    trel = U0
    run_t = 0
    if trump >= 0:
        run = top_run(hands[p] & SUIT_MASK[trump], others & SUIT_MASK[trump])
        rel |= run
        trel = run
        run_t = _run_tricks(hands, p, trump, run)
    tm = SUIT_MASK[trump] if trump >= 0 else U0
    # opponents who keep a trump after the top trumps are cashed (none without trumps)
    undrawn = U0
    for q in range(4):
        if ((side >> q) & 1) == 0 and popcount(hands[q] & tm) > run_t:
            undrawn |= U1 << np.uint64(q)
    side_total = 0
    side_best = 0
    best_s = -1
    counts = U0  # each side suit's tricks, a byte at bit 8s (scalars only: no array)
    for s in range(4):
        if s == trump:
            continue
        sm = SUIT_MASK[s]
        mine = hands[p] & sm
        if mine == U0:
            continue
        run = top_run(mine, others & sm)
        rel |= run
        n = _run_tricks(hands, p, s, run)
        side_total += n
        # with opponents left holding trumps, one side suit is cashed while they follow
        cash = n
        for q in range(4):
            if (undrawn >> np.uint64(q)) & U1:
                cash = min(cash, popcount(hands[q] & sm))
        if cash > side_best:
            side_best = cash
            best_s = s
        counts |= np.uint64(n) << np.uint64(8 * s)
    side_cash = side_total if undrawn == U0 else side_best
    extra = 0
    if undrawn == U0:
        # a suit no opponent holds (nor can ruff, trumps drawn) wins for the side on every
        # lead: cashed last, the first card below the top run still wins one more trick,
        # though maybe a partner's (whose lead it then is: only one trick counts)
        theirs = outside(hands, side)
        for s in range(4):
            sm = SUIT_MASK[s]
            mine = hands[p] & sm
            if mine == U0 or (theirs & sm) != U0:
                continue
            if s == trump:
                ran = run_t
            else:
                ran = _run_tricks(hands, p, s, top_run(mine, others & sm))
            extra = max(extra, min(1, popcount(mine) - ran))
    # a partner left with trumps only would have to ruff a side-suit winner and take the lead
    if trump >= 0:
        for q in range(4):
            if q != p and ((side >> q) & 1) == 1 and popcount(hands[q] & tm) > run_t:
                cap = popcount(hands[q] & ~tm)
                extra = max(0, min(side_cash + extra, cap) - min(side_cash, cap))
                side_cash = min(side_cash, cap)
    cashed = min(run_t + side_cash, r)
    extra = min(extra, r - cashed)
    if want > cashed:
        return cashed, extra, rel, undrawn == U0, cashed + extra, rel
    # enough from fewer suits: the trump run, then the side suits by their tricks
    # (with opponents keeping trumps, the one suit cashed while they follow)
    got = run_t
    wrel = trel
    if undrawn != U0:
        if got < want:
            got += side_best
            wrel |= rel & SUIT_MASK[best_s]
    else:
        while got < want:
            top_n = 0
            top_s = 0
            for s in range(4):
                n = np.int64((counts >> np.uint64(8 * s)) & _FF)
                if n > top_n:
                    top_n = n
                    top_s = s
            counts &= ~(_FF << np.uint64(8 * top_s))
            got += top_n
            wrel |= rel & SUIT_MASK[top_s]
    return cashed, extra, rel, undrawn == U0, min(got, cashed), wrel


@njit(**NO_REFCOUNT)
def cash_tricks(hands, p, side, trump):
    """(tricks, relevance): tricks the side `side` (seat mask, containing p) is sure to take
    by `p` cashing its own top runs from the lead now, and the cards the count rests on.

    The count never decreases when the top runs grow and every hand keeps its suit
    lengths, so the runs are all a transposition-table entry needs to hold (kernels.dd_tt);
    the one more trick of a suit no opponent holds depends on lengths and the runs only.
    The search asks `sure_tricks`, which works from `_cash` (scalars only, no arrays: it
    runs at trick boundaries) with its target; this is the whole count.
    """
    cashed, extra, rel, _, _, _ = _cash(hands, p, side, trump, 99)
    return cashed + extra, rel


# Inlined into its one caller, `quick_bounds` (numba's `inline="always"`). Fifty-fifth
# session, `python -m bench.ab`, the 500 bridge jobs, three runs of 3 rounds: 0.932, 0.995
# and 0.984 of the time (the median job 0.912, 0.992, 0.989), nodes and answers the same;
# cold compile 122-126 s against 141-143 s for the parent on the same loaded machine. The
# thirty-eighth session had measured 0.962 (bridge jobs 0-199) and not kept it.
@njit(inline="always", **NO_REFCOUNT)
def sure_tricks(hands, p, side, trump, want):
    """(tricks, relevance): tricks the side `side` (seat mask, containing p) is sure to take
    with `p` on lead now: the best of p cashing its own top runs (`cash_tricks`), of
    cashing and then crossing to a partner (`_cash_then_cross`), and of crossing first:
    then the partner cashes, or cashes and crosses back, or crosses straight back to p,
    who cashes. The count stops as soon as it reaches `want` (the search asks for no more
    than settles its target).

    Crossing: p leads its lowest card of a suit whose top card a partner q holds; q wins
    with it (nobody can ruff: every opponent follows or holds no trump, every other
    partner follows) and then cashes its own top runs. The followers play their lowest
    card of the suit; an opponent's choice cannot matter (it keeps its higher cards, and
    its suit lengths fall by one whichever card it plays), and a discard by a void hand
    without trumps, left out, can only make the count smaller (no trump, no ruff; fewer
    cards elsewhere only lengthen q's top runs). The count then rests on q's top card of
    the suit and on what q's cashing rests on: positions that agree on those owners and on
    the suit lengths remove the same cards above them. Crossing back is the same from q
    to p (p led the first crossing, so no card it holds was left out: its count is
    exact); so are q's cashing and crossing back (`_cash_then_cross`, from q).
    `hands` is changed during the call and restored.
    """
    r = popcount(hands[p])
    want = min(want, r)
    cashed, extra, cash_rel, drawn, enough, enough_rel = _cash(hands, p, side, trump, want)
    if enough >= want:
        return enough, enough_rel
    best, best_rel = _cash_then_cross(hands, p, side, trump, cashed, cash_rel, drawn,
                                      cashed + extra, cash_rel, r, -1)
    if best >= want:
        return best, best_rel
    for q in range(4):
        if q == p or ((side >> q) & 1) == 0:
            continue
        for s in range(4):
            top = _crossing_top(hands, p, q, s, trump)
            if top == U0:
                continue
            saved0, saved1, saved2, saved3 = hands[0], hands[1], hands[2], hands[3]
            _play_crossing(hands, q, SUIT_MASK[s], top)
            # q cashes (naming only the suits it needs), or cashes and crosses back (one
            # trick gone: r - 1 left)
            qcashed, qextra, qrel, qdrawn, qenough, qenough_rel = _cash(hands, q, side, trump,
                                                                        want - 1)
            if qenough >= want - 1:
                hands[0], hands[1], hands[2], hands[3] = saved0, saved1, saved2, saved3
                return 1 + qenough, qenough_rel | top
            n, rel = _cash_then_cross(hands, q, side, trump, qcashed, qrel, qdrawn,
                                      qcashed + qextra, qrel, r - 1, p)
            if 1 + n > best:
                best = 1 + n
                best_rel = rel | top
            # or crosses straight back to p, who cashes
            for s2 in range(4):
                if best >= want:
                    break
                top2 = _crossing_top(hands, q, p, s2, trump)
                if top2 == U0:
                    continue
                inner0, inner1, inner2, inner3 = hands[0], hands[1], hands[2], hands[3]
                _play_crossing(hands, p, SUIT_MASK[s2], top2)
                _, _, _, _, n2, nrel2 = _cash(hands, p, side, trump, want - 2)
                hands[0], hands[1], hands[2], hands[3] = inner0, inner1, inner2, inner3
                if 2 + n2 > best:
                    best = min(2 + n2, r)
                    best_rel = nrel2 | top | top2
            hands[0], hands[1], hands[2], hands[3] = saved0, saved1, saved2, saved3
            if best >= want:
                return best, best_rel
    return best, best_rel


@njit(inline="always", **NO_REFCOUNT)  # see sure_cap
def _cash_then_cross(hands, p, side, trump, cashed, cash_rel, drawn, best, best_rel, r, to):
    """(tricks, relevance): the better of (best, best_rel) and p cashing its top runs
    (`cashed` tricks resting on `cash_rel`, from `_cash`), then crossing to a partner q
    (`_crossing_top`) who cashes what it kept: without trumps, its top runs in the suits
    where p has no top run (`_kept_runs`); with a trump suit, once p's top trumps leave the
    opponents none (`drawn`: nobody can ruff the crossing later), the crossing trick
    alone (a partner void in a suit q leads next might have to ruff), when q holds a card
    besides its crossing card for each of p's tricks. `r` is the tricks left; `to` >= 0
    names the only partner to cross to."""
    if cashed == 0 or (trump >= 0 and not drawn):
        return best, best_rel
    for q in range(4):
        if q == p or ((side >> q) & 1) == 0 or (to >= 0 and q != to):
            continue
        top = U0
        for s in range(4):
            top = _crossing_top(hands, p, q, s, trump)
            if top != U0:
                break
        if top == U0:
            continue
        if trump >= 0:
            k = 1 if popcount(hands[q]) - 1 >= cashed else 0
            qrel = top
        else:
            k, qrel = _kept_runs(hands, p, q, cashed)
        if k > 0 and cashed + k > best:
            best = min(cashed + k, r)
            best_rel = cash_rel | qrel
    return best, best_rel


@njit(**NO_REFCOUNT)
def _kept_runs(hands, p, q, cashed):
    """(tricks, relevance), no trump: the tricks q's top runs take in the suits where p,
    on lead, has no top run (it may hold lower cards there, the crossing suit among
    them), when q cashes them after p has cashed `cashed` tricks of its own runs and
    crossed to q (`_cash_then_cross`; 0 when q cannot keep a card).

    q follows p's suits with its cards of them and discards as it likes, so it keeps all
    but `cashed` of its cards: all those runs' cards when it holds that many (each run
    counted by `_run_tricks`, whose count can only grow: nothing p plays is in those
    suits but its crossing card), else as many of their top cards (each above every
    other card of its suit) as it has room for, the crossing card among them. It rests
    on q's runs."""
    others = others_of(hands, q)
    pothers = others_of(hands, p)
    full = 0
    tops = 0
    rel = U0
    for t in range(4):
        sm = SUIT_MASK[t]
        if top_run(hands[p] & sm, pothers & sm) != U0:
            continue
        run = top_run(hands[q] & sm, others & sm)
        if run != U0:
            full += _run_tricks(hands, q, t, run)
            tops += popcount(run)
            rel |= run
    room = popcount(hands[q]) - cashed
    if room >= full:
        return full, rel
    return max(0, min(room, tops)), rel


@njit(inline="always", **NO_REFCOUNT)  # see sure_cap
def _crossing_top(hands, p, q, s, trump):
    """The top card of suit s in play (a mask) when p, on lead, can cross to q with it:
    both hold the suit, q holds its top card, and nobody can ruff the trick (no void hand
    but p and q holds a trump: an opponent might ruff, a partner might have to); else 0."""
    sm = SUIT_MASK[s]
    if (hands[p] & sm) == U0 or (hands[q] & sm) == U0:
        return U0
    top = U1 << np.uint64(63 - leading_zeros((hands[0] | hands[1] | hands[2] | hands[3]) & sm))
    if (hands[q] & top) == U0:
        return U0
    if trump >= 0 and s != trump:
        tm = SUIT_MASK[trump]
        for x in range(4):
            if x != p and x != q and (hands[x] & sm) == U0 and (hands[x] & tm) != U0:
                return U0
    return top


@njit(**NO_REFCOUNT)
def _play_crossing(hands, q, sm, top):
    """Play a crossing trick in place (`_crossing_top`): q wins with `top`, every other
    hand holding the suit (`sm` its mask) gives its lowest card of it."""
    for x in range(4):
        if x == q:
            hands[x] ^= top
        elif (hands[x] & sm) != U0:
            low = hands[x] & sm
            hands[x] ^= low & (U0 - low)


@njit(inline="always", **NO_REFCOUNT)  # inlined into quick_bounds: a call cost as much
def length_tricks(hands, p, side, trump):
    """Tricks the side `side` (seat mask, containing p) takes with p on lead from the suit
    lengths alone, where no opponent holds a trump (or there are none): each suit only p
    holds, led in turn (no one else follows: p keeps the lead), then one suit no opponent
    holds, led while every seat of the side holding it follows (the least of their
    lengths: whichever of them wins, it leads the suit again). A seat of the side void in
    a suit discards (or ruffs when it holds trumps only; then every trick left is its
    own). It rests on no card's owner (DDS's QuickTricks counts these tricks so too)."""
    theirs = outside(hands, side)
    if trump >= 0 and (theirs & SUIT_MASK[trump]) != U0:
        return 0
    alone = 0
    split = 0
    for s in range(4):
        sm = SUIT_MASK[s]
        n = popcount(hands[p] & sm)
        if n == 0 or (theirs & sm) != U0:
            continue
        m = n
        for q in range(4):
            if q != p and (side >> q) & 1:
                k = popcount(hands[q] & sm)
                if k > 0:
                    m = min(m, k)
                    n = 0
        if n > 0:
            alone += n
        else:
            split = max(split, m)
    return alone + split


# sure_cap, _crossing_top and _cash_then_cross are inlined into their callers (numba's
# `inline="always"`): numba passes an array as seven words, most of them on the stack, and
# perf put 30% of `sure_tricks`'s samples on its prologue and on reading a callee's
# result back (`python -m bench.perfmap --function dd_bounds.sure_tricks`). Thirty-eighth
# session, `python -m bench.ab`: bridge jobs 0-199 0.950 of the time, numeric jobs of
# deals 0-39 1.017 (noise), cold compile unchanged (88.8 s against 89.9 s). `_cash`
# inlined too (four call sites): bridge 0.979 more, but 25 s more cold compile; not kept.
@njit(inline="always", **NO_REFCOUNT)
def sure_cap(hands, p, side):
    """A cap on `sure_tricks(hands, p, side, ..)` in a few instructions per suit (the
    search skips that call, hundreds of cycles, when the cap cannot reach its target).

    Every trick it counts is won by a different card of the side ranked above all the
    opponents' cards of its suit (a top run, a card of a suit no opponent holds), except
    where a top run outlasts every other hand's holding of its suit (then all the
    cashing hand's cards of the suit count, so the suit gives at most the side's longest
    holding of it), and after crossing to the partner q holding the top card of a suit s
    p also holds: the crossing trick takes the opponents' lowest cards of s, which may
    lift q's lower cards of s, so s then gives at most all of q's cards of s. The cap is
    the count of such cards over the suits, plus the most the crossing can add to one
    suit.
    """
    mine = U0
    theirs = U0
    for q in range(4):
        if (side >> q) & 1:
            mine |= hands[q]
        else:
            theirs |= hands[q]
    n = 0
    gain = 0
    gain2 = 0
    for s in range(4):
        sm = SUIT_MASK[s]
        t = theirs & sm
        m = mine & sm
        if t != U0:
            m &= ~((U1 << np.uint64(64 - leading_zeros(t))) - U1)
        k = popcount(m)
        longest = 0
        outlasted = k > 0
        for q in range(4):
            held = popcount(hands[q] & sm)
            if (side >> q) & 1:
                longest = max(longest, held)
            elif held > k:
                outlasted = False
        n += max(k, longest) if outlasted else k
        if k > 0 and not outlasted:
            g = longest - k
            if g > gain:
                gain, gain2 = g, gain
            elif g > gain2:
                gain2 = g
    return n + gain + gain2


@njit(**NO_REFCOUNT)
def top_trumps(hands, trump):
    """(counts, relevance): for each hand q, how many of its trumps rank above all other
    trumps in play, packed as a nibble at bit 4q (read with `seat_count`); and those trumps
    (the cards the counts rest on). A packed word, not an array: no allocation per call."""
    out = U0
    rel = U0
    if trump < 0:
        return out, rel
    tm = SUIT_MASK[trump]
    for q in range(4):
        mine = hands[q] & tm
        if mine == U0:
            continue
        run = top_run(mine, others_of(hands, q) & tm)
        rel |= run
        out |= np.uint64(popcount(run)) << np.uint64(4 * q)
    return out, rel


@njit(**NO_REFCOUNT)
def seat_count(packed, q):
    """Seat q's count in a word of per-seat nibbles (as `top_trumps` returns)."""
    return np.int64((packed >> np.uint64(4 * q)) & np.uint64(15))


@njit(**NO_REFCOUNT)
def trump_length_tricks(hands, d, trump, side, want=99):
    """(tricks, relevance): trump tricks that seat `d`'s trumps take for its side `side`
    (a seat mask holding d: d alone, or d and its partner) whatever happens.

    Each of d's trumps is played some time and then loses only to a higher opposing trump
    in the same trick (R20: led in trumps, a ruff, or a lead; a partner's higher trump
    wins the trick for the side all the same); each opposing trump is played to one
    trick, where d plays one card, so it beats at most one of d's trumps. d's side thus
    takes at least d's trump count minus the largest matching of opposing trumps to
    lower trumps of d (found greedily: each opposing trump, lowest first, takes d's
    lowest trump still unmatched below it), each in a trick of its own. It rests on the
    owners of the trumps from the top down to d's lowest one; lower trumps beat none of
    d's. When the other side holds no trump it rests on the suit lengths alone: every
    trump of d's wins a trick, whoever holds which (DDS's LaterTricks names no card). So
    does the count less every opposing trump (each beats at most one of d's), taken
    where it is as large or reaches `want`.
    """
    tm = SUIT_MASK[trump]
    mine = hands[d] & tm
    if mine == U0:
        return 0, U0
    theirs = outside(hands, side)
    if (theirs & tm) == U0:
        return popcount(mine), U0  # nothing to beat them: the lengths decide
    n = unbeaten_trumps(mine, theirs & tm)
    free = popcount(mine) - popcount(theirs & tm)
    if free >= n or free >= want:
        return free, U0
    return n, mine & (U0 - mine)


@njit(**NO_REFCOUNT)
def unbeaten_trumps(mine, theirs):
    """How many of the trumps `mine` no trump of `theirs` can beat, each of theirs beating at
    most one (`trump_length_tricks`): the count less the largest matching of their trumps
    to lower ones of mine, found greedily (each of theirs, lowest first, takes the lowest
    of mine still unmatched below it). Masks of one suit, in any bit numbering that keeps
    the ranks' order."""
    unmatched = mine
    m = 0
    while theirs != U0 and unmatched != U0:
        h = theirs & (U0 - theirs)
        theirs ^= h
        c = unmatched & (U0 - unmatched)
        if h > c:
            m += 1
            unmatched ^= c
    return popcount(mine) - m


@njit(**NO_REFCOUNT)
def guarded_behind(hands, q, trump):
    """(bool, relevance): whether seat q's highest trump X is sure to win a trick while the
    other side leads, because every higher trump sits with q's right-hand opponent and q
    holds at least as many lower trumps as that opponent holds higher ones.

    When the other side leads, the right-hand opponent plays to every trick before q
    (R19 order). Each time it plays a higher trump, q keeps X and plays a lower trump (or a
    card of the suit led, or a discard), so q's lower trumps never run out before its
    higher ones; any other time q may play X (following a trump lead or ruffing), and
    nobody after q holds a higher trump (R20). The relevance is X: the owners of the
    trumps from the top down to X, with the suit lengths, decide it.
    """
    tm = SUIT_MASK[trump]
    mine = hands[q] & tm
    if mine == U0:
        return False, U0
    x = U1 << np.uint64(63 - leading_zeros(mine))
    above = others_of(hands, q) & tm & ~((x << U1) - U1)
    if above == U0 or (above & ~hands[(q + 3) & 3]) != U0:
        return False, U0
    return popcount(mine) - 1 >= popcount(above), x


@njit(**NO_REFCOUNT)
def top_two_split(hands, trump):
    """(seat of the highest trump, seat of the second, relevance) when those are two
    different hands not both holding one trump only, else (-1, -1, 0).

    Such a pair takes two tricks for its side whoever leads: the first trick in which
    either plays a trump can hold only one of the two (a hand with two trumps or more
    has not yet played one, and plays a lower one when the other must play its top
    trump; played alone, a top trump wins, R20), and the other is then the highest
    trump left. It rests on the owners of the two (the trumps down to the second)."""
    tm = SUIT_MASK[trump]
    t = (hands[0] | hands[1] | hands[2] | hands[3]) & tm
    if popcount(t) < 2:
        return -1, -1, U0
    a = U1 << np.uint64(63 - leading_zeros(t))
    k = U1 << np.uint64(63 - leading_zeros(t ^ a))
    sa = -1
    sk = -1
    for q in range(4):
        if hands[q] & a:
            sa = q
        if hands[q] & k:
            sk = q
    if sa == sk or (popcount(hands[sa] & tm) == 1 and popcount(hands[sk] & tm) == 1):
        return -1, -1, U0
    return sa, sk, k


@njit(**NO_REFCOUNT)
def _trump_seats(hands, d, trump):
    """The trumps of seat d, of its right-hand opponent (who plays before it whenever a
    defender leads), and of the two others together (who may cover after it)."""
    tm = SUIT_MASK[trump]
    return (hands[d] & tm, hands[(d + 3) & 3] & tm,
            (hands[(d + 1) & 3] | hands[(d + 2) & 3]) & tm)


@njit(**NO_REFCOUNT)
def trump_challenge(hands, d, trump):
    """(bool, relevance): whether seat `d`, alone against three with the defenders on
    lead, is sure to win a trick with its trumps by always playing its highest trump,
    except its lowest when its right-hand opponent has already played a higher one.

    The declarer plays a trump only when trumps are led or it holds nothing else (it
    follows suit or discards otherwise), and each such trick needs a defender's higher
    trump (R20): one from its right-hand opponent, who plays before it (R19 order), or a
    cover from one of the two who may play after it. Trumps the defenders spend on other
    tricks only leave them fewer. Against that play, covering the declarer's top y trumps
    (each by a distinct higher trump of the two behind it) and killing the other t - y
    with right-hand trumps above the highest of them (played before the declarer's, so
    it plays its lowest) is all the defence can do, best with the covers first: if no y
    allows it, a trick is the declarer's. It rests on the owners of the trumps down to
    the declarer's lowest one.
    """
    mine, ahead, behind = _trump_seats(hands, d, trump)
    if mine == U0:
        return False, U0
    t = popcount(mine)
    rest = mine
    for y in range(t):
        # the top y trumps are covered; the highest of the rest is d_(y+1)
        top = U1 << np.uint64(63 - leading_zeros(rest))
        above = ~((top << U1) - U1)
        if popcount(ahead & above) >= t - y:
            return False, U0  # the rest fall under right-hand trumps
        if popcount(behind & above) < y + 1:
            return True, mine & (U0 - mine)  # d_(y+1) cannot be covered too
        rest ^= top
    return False, U0  # every trump covered


@njit(**NO_REFCOUNT)
def split_bottoms(cards, others):
    """The lowest card of each run of `cards` that no card of `others` splits (every card
    in neither counts as out of play)."""
    return sequence_bottoms(cards, FULL_DECK & ~(cards | others))


_MP = 4 * 13 + 1  # plies of a one-suit game at most


@njit
def new_misere_work():
    """Scratch arrays for `misere_force` and `misere_suit_game` (the suit's cards, the
    game's explicit stack), reused game after game: the search allocates them once (it
    runs without numba's reference counting and so allocates nothing itself,
    kernels.jit)."""
    return (np.empty(4, np.uint64), np.empty((_MP, 4), np.uint64), np.empty((2, _MP), np.uint64),
            np.empty((4, _MP), np.int64))


@njit(**NO_REFCOUNT)
def misere_suit_game(suit_cards, leader, d, budget, work):
    """1 when the defenders, on lead, force the misère declarer `d` (R15, R21: no trump)
    to win a trick of one suit by leading it on and on; 0 when they cannot in this game;
    -1 when the search would need more than `budget` nodes. `suit_cards[q]`: seat q's
    cards of the suit.

    The game: each trick a defender holding the suit leads one of its cards; every other
    player in turn plays one of its cards of the suit, a defender void in it discards
    (a discard never wins with no trump, R20); the highest card wins (R20). The game is
    won when the declarer wins a trick, lost when it holds none of the suit or the
    defender who won the last trick holds none (it would have to lead another suit).
    Whoever holds the suit must follow (R19), so the declarer's choices are the same as
    in play; the defenders' are fewer (they never lead or discard another suit while the
    game goes on), so a win here is a win in play: a trick the declarer cannot avoid.
    Only the suit's cards matter to the game, so one card of each run of a hand's cards
    (runs that no other hand's card of the suit, nor the card to beat, splits) stands
    for the run. An explicit stack: numba cannot cache a self-recursive function.
    `work`: `new_misere_work()`.
    """
    _, hs, us, js = work
    # per ply: each seat's cards (hs), cards left to try, the highest card of the trick
    # so far and its seat, whether the mover is void (its one choice a discard), who
    # led the trick and the place in it (0..3); every level is written before it is read
    opt, top = us[0], us[1]
    void, tops, lead, k = js[0], js[1], js[2], js[3]
    for q in range(4):
        hs[0, q] = suit_cards[q]
    lead[0] = leader
    k[0] = 0
    top[0] = U0
    tops[0] = -1
    lv = 0
    nodes = 0
    res = 0
    enter = True
    while True:
        p = (lead[lv] + k[lv]) & 3
        if enter:
            enter = False
            nodes += 1
            if nodes > budget:
                return -1
            if k[lv] == 0 and (hs[lv, d] == U0 or hs[lv, p] == U0):
                res = 0  # the declarer is out of the suit, or the leader is
                lv -= 1
                if lv < 0:
                    return res
                continue
            mine = hs[lv, p]
            if mine == U0:
                opt[lv] = U0
                void[lv] = 1
            else:
                rest = top[lv]  # the card to beat splits runs too
                for q in range(4):
                    if q != p:
                        rest |= hs[lv, q]
                opt[lv] = split_bottoms(mine, rest)
                void[lv] = 0
        else:
            # a child's value `res` came back
            if (p == d) == (res == 0):
                lv -= 1  # the mover got what it wants: the node has the value res
                if lv < 0:
                    return res
                continue
        # the next choice, lowest card first
        if void[lv] == 1:
            void[lv] = 0
            c = U0
        elif opt[lv] != U0:
            c = opt[lv] & (U0 - opt[lv])
            opt[lv] ^= c
        else:
            res = 1 if p == d else 0  # every choice of the mover failed it
            lv -= 1
            if lv < 0:
                return res
            continue
        t = top[lv]
        ts = tops[lv]
        if c > t:
            t = c
            ts = p
        if k[lv] == 3 and ts == d:
            res = 1  # the declarer wins this trick
            continue
        n = lv + 1
        for q in range(4):
            hs[n, q] = hs[lv, q]
        hs[n, p] ^= c
        if k[lv] == 3:
            lead[n] = ts
            k[n] = 0
            top[n] = U0
            tops[n] = -1
        else:
            lead[n] = lead[lv]
            k[n] = k[lv] + 1
            top[n] = t
            tops[n] = ts
        lv = n
        enter = True


MISERE_MEMO = 4096  # entries of the per-search memo of `misere_suit_game` results


@njit(**NO_REFCOUNT)
def misere_force(hands, leader, d, budget, memo, work):
    """(bool, relevance): whether the defenders, on lead, force the misère declarer `d`
    to win a trick in one suit (`misere_suit_game`, within `budget` nodes for each suit
    that both the leader and the declarer hold, and in which some card of the declarer
    is above some other player's). It rests on the owners of every card of that suit.

    The game's value depends on the suit's cards, the leader and the declarer alone, and
    the same suit recurs under many positions, so values are kept in `memo` (MISERE_MEMO
    words, zeroed by the caller): direct-mapped, each word the whole key (the suit's 13
    bits of each seat, leader, declarer, a used bit) and the value in its top bit.
    `work`: `new_misere_work()`.
    """
    for s in range(4):
        sm = SUIT_MASK[s]
        mine = hands[d] & sm
        if mine == U0 or (hands[leader] & sm) == U0:
            continue
        present = (hands[0] | hands[1] | hands[2] | hands[3]) & sm
        theirs = present & ~mine
        if mine < (theirs & (U0 - theirs)):
            continue  # all the declarer's cards of the suit are below all the others'
        key = (np.uint64(leader) << np.uint64(52)) | (np.uint64(d) << np.uint64(54)) | \
            (U1 << np.uint64(62))
        for q in range(4):
            key |= ((hands[q] & sm) >> np.uint64(13 * s)) << np.uint64(13 * q)
        slot = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(52)
        slot &= np.uint64(MISERE_MEMO - 1)
        word = memo[slot]
        if (word & ~(U1 << np.uint64(63))) == key:
            won = (word >> np.uint64(63)) == U1
        else:
            cards = work[0]
            for q in range(4):
                cards[q] = hands[q] & sm
            won = misere_suit_game(cards, leader, d, budget, work) == 1
            memo[slot] = key | ((U1 if won else U0) << np.uint64(63))
        if won:
            return True, present & (U0 - present)
    return False, U0


@njit(**NO_REFCOUNT)
def cannot_take_all(hands, side, r):
    """(bool, relevance): whether the side `side`, on lead with r tricks left and no trumps
    in play, cannot take every one of them, because the other side holds the top card of
    some suit and the side's own suits are too short.

    To take every trick the side must lead every trick, each time in a suit it holds the
    top card of: a lead of a suit whose top card an opponent holds loses to it (R20).
    Each lead of a suit takes a card of it from every hand of the side still holding one,
    so a suit is led at most as often as its longest holding in the side. An opponent
    keeps its top card by discarding other cards, and it is never squeezed out of a
    suit's top card while it must also keep another's: with two cards left, both top
    cards of different suits, it discards after seeing the lead, and the side's last
    leader, fixed by the cards then, cannot hold both threats. So the sum over the side's
    suits of their longest holdings bounds its tricks. It rests on the top cards the other
    side holds (their owners): a position where the side holds fewer suits' top cards has
    a smaller sum (DDS's LaterTricks names the same cards).
    """
    rel = U0
    total = 0
    theirs = False
    for s in range(4):
        sm = SUIT_MASK[s]
        present = (hands[0] | hands[1] | hands[2] | hands[3]) & sm
        if present == U0:
            continue
        top = U1 << np.uint64(63 - leading_zeros(present))
        longest = 0
        mine = False
        for q in range(4):
            if (side >> q) & 1:
                longest = max(longest, popcount(hands[q] & sm))
                if hands[q] & top:
                    mine = True
        if mine:
            total += longest
        else:
            theirs = True
            if longest > 0:  # (a suit the side holds none of is theirs by the lengths)
                rel |= top
    return theirs and total < r, rel


@njit(**NO_REFCOUNT)
def others_of(hands, p):
    """All cards still in play outside `p`'s hand."""
    others = U0
    for q in range(4):
        if q != p:
            others |= hands[q]
    return others


@njit(**NO_REFCOUNT)
def must_win_lead(hands, p):
    """(bool, relevance): whether every card `p` could lead wins the trick, no trump: each
    of its suits' lowest card is above all other cards of that suit still in play (R20);
    the relevance is p's lowest card of each suit that someone else also holds."""
    others = others_of(hands, p)
    rel = U0
    for s in range(4):
        mine = hands[p] & SUIT_MASK[s]
        if mine == U0:
            continue
        theirs = others & SUIT_MASK[s]
        if theirs == U0:
            continue
        low = mine & (U0 - mine)
        if theirs > low:
            return False, U0
        rel |= low
    return True, rel


@njit(**NO_REFCOUNT)
def holds_bottom_cards(hands, p):
    """(bool, relevance): whether in each suit all of `p`'s cards rank below all other
    cards still in play; the relevance is p's highest card of each suit others hold too."""
    others = others_of(hands, p)
    rel = U0
    for s in range(4):
        mine = hands[p] & SUIT_MASK[s]
        theirs = others & SUIT_MASK[s]
        if mine != U0 and theirs != U0:
            if mine > (theirs & (U0 - theirs)):
                return False, U0
            rel |= U1 << np.uint64(63 - leading_zeros(mine))
    return True, rel


@njit(**NO_REFCOUNT)
def ducks_every_suit(hands, d):
    """(bool, relevance): whether the misère declarer `d` (no trump), with a defender on
    lead, can duck every trick: in each suit its i-th lowest card is below the defenders'
    i-th lowest (their cards of the suit pooled), for every i up to the rounds the suit
    can still be led, the most cards one defender holds in it (each round takes a card
    from every hand holding the suit, R19, and only a defender can lead it). The
    relevance is the lowest card of each suit held by both sides (the comparison rests on
    the whole suit and every hand's length of it).

    Then the declarer takes no trick (R15, R21). When a suit is led, the highest card M a
    defender has played to it before the declarer's turn (the leader's card, at least) is
    above the declarer's lowest card (i = 1), and the declarer plays its highest card below
    M, its k-th lowest. With m rounds left before, m - 1 are left after (every defender
    holding the suit followed), and the property holds up to m - 1: below k the
    declarer's cards keep their places and the defenders' only move up, as cards only
    leave; from k on, the declarer's (i+1)-th lowest card C (above M) becomes its i-th,
    and of the defenders' cards at most i lie below C (their (i+1)-th lowest is above
    it), M among them, which has left, so their new i-th lowest is above C. A defender's
    discard only moves the defenders' cards up and the rounds down; the declarer
    discarding its highest card of a suit keeps its other cards' places; with no trump a
    discard never wins (R20). So the property holds to the end, and the declarer, never
    winning a trick, never leads. Bounding i by the rounds left, not by the shorter
    side's holding, made misère of seed-777 deals 0-39 about 20% faster (4.62, 3.93,
    3.75 -> 3.50, 3.15, 3.08 s side by side; 200 deals 20.2 -> 16.6 s). It extends
    `holds_bottom_cards`.
    """
    others = others_of(hands, d)
    rel = U0
    for s in range(4):
        mine = hands[d] & SUIT_MASK[s]
        theirs = others & SUIT_MASK[s]
        if mine == U0 or theirs == U0:
            continue
        rel |= (mine | theirs) & (U0 - (mine | theirs))
        if _suit_gaps(hands, d, s, theirs, True) > 0:
            return False, U0
    return True, rel


@njit(**NO_REFCOUNT)
def _suit_gaps(hands, d, s, theirs, first):
    """The places i of suit s, up to the rounds it can still be led (the longest
    defender's holding), where the declarer d's i-th lowest card is above the defenders'
    i-th lowest (`theirs`: their cards of s); with `first`, 1 at the first such place."""
    mine = hands[d] & SUIT_MASK[s]
    rounds = 0
    for q in range(4):
        if q != d:
            rounds = max(rounds, popcount(hands[q] & SUIT_MASK[s]))
    gaps = 0
    while mine != U0 and rounds > 0:
        lm = mine & (U0 - mine)
        lt = theirs & (U0 - theirs)
        if lm > lt:
            gaps += 1
            if first:
                return gaps
        mine ^= lm
        theirs ^= lt
        rounds -= 1
    return gaps


@njit(**NO_REFCOUNT)
def ducking_gaps(hands, d):
    """How far the misère declarer `d` is from `ducks_every_suit`: the places (suit, i)
    within the rounds left where its i-th lowest card is above the defenders' i-th lowest
    (0 exactly when that rule clears it). Little misère tries the declarer's discards in
    this order, fewest first (kernels.dd_search.solve_little_misere): a heuristic only."""
    others = others_of(hands, d)
    gaps = 0
    for s in range(4):
        gaps += _suit_gaps(hands, d, s, others & SUIT_MASK[s], False)
    return gaps


@njit(**NO_REFCOUNT)
def can_lead_loser(hands, p):
    """Whether `p` holds a card of a suit someone else still holds."""
    others = others_of(hands, p)
    for s in range(4):
        if (hands[p] & SUIT_MASK[s]) != U0 and (others & SUIT_MASK[s]) != U0:
            return True
    return False


@njit(**NO_REFCOUNT)
def _settles(lower, upper, need):
    """Whether bounds already settle a target of `need` tricks (never when need <= 0)."""
    return need > 0 and (lower >= need or upper < need)


@njit(**NO_REFCOUNT)
def quick_bounds(hands, leader, trump, maxmask, winmask, need):
    """(lower, upper, lower relevance, upper relevance): bounds on the tricks `winmask`
    takes from here (trick boundary), and for each the cards whose owners it rests on
    (with every hand's suit lengths): only the bound that gives the value, so that a
    cut-off's stored result covers as many positions as it can.

    With `need` >= 1 (the search's target) it returns as soon as one bound settles the
    target (lower >= need or upper < need) and skips the rules that cannot; with need
    <= 0 every rule is applied.

    Relevance follows kernels.dd_tt: per suit, the cards from the top down to the lowest
    card of the mask; positions that agree on those owners and on all suit lengths get
    bounds at least as tight (lower bounds never smaller, upper bounds never larger).
    """
    r = popcount(hands[leader])
    if maxmask != winmask:
        if trump < 0 and (winmask & (winmask - 1)) == 0:
            declarer = trailing_zeros(np.uint64(winmask))
            if declarer == leader:
                must, rel = must_win_lead(hands, leader)
                if must:
                    return 1, r, rel, U0  # misère: the declarer on lead cannot avoid this trick
            if declarer != leader:
                safe, rel = ducks_every_suit(hands, declarer)
                if safe:
                    return 0, 0, U0, rel  # misère: the declarer ducks every trick
            else:
                bottom, rel = holds_bottom_cards(hands, declarer)
                if bottom and can_lead_loser(hands, declarer):
                    return 0, 0, U0, rel  # misère: the declarer can never be made to win
        return 0, r, U0, U0
    lower = 0
    upper = r
    lo_rel = U0
    up_rel = U0
    lone = (maxmask & (maxmask - 1)) == 0  # one seat alone (a Boston declarer)
    on_lead = maxmask if (maxmask >> leader) & 1 else 15 ^ maxmask
    if trump >= 0:
        tm = SUIT_MASK[trump]
        # a side whose opponents hold no trump takes a trick with each trump of its hand
        # longest in trumps, whoever holds which: bounds resting on the suit lengths alone
        # (DDS's LaterTricks)
        most_max = 0
        most_min = 0
        for q in range(4):
            n = popcount(hands[q] & tm)
            if (maxmask >> q) & 1:
                most_max = max(most_max, n)
            else:
                most_min = max(most_min, n)
        if most_min == 0:
            lower = most_max
        elif most_max == 0:
            upper = r - most_min
        if _settles(lower, upper, need):
            return lower, upper, lo_rel, up_rel
        # only the holder of the highest trump has top trumps: its run is their relevance
        tops, trel = top_trumps(hands, trump)
        for q in range(4):
            n = seat_count(tops, q)
            if n == 0:
                continue
            if (maxmask >> q) & 1:
                if n > lower:
                    lower = n
                    lo_rel = trel
            elif r - n < upper:
                upper = r - n
                up_rel = trel
        if _settles(lower, upper, need):
            return lower, upper, lo_rel, up_rel
        if need <= 2 or need >= r - 1:
            # the two highest trumps with one side, in two hands not both singletons
            sa, sk, krel = top_two_split(hands, trump)
            if sa >= 0 and ((maxmask >> sa) & 1) == ((maxmask >> sk) & 1):
                if (maxmask >> sa) & 1:
                    if min(2, r) > lower:
                        lower = min(2, r)
                        lo_rel = krel
                elif r - 2 < upper:
                    upper = max(r - 2, 0)
                    up_rel = krel
                if _settles(lower, upper, need):
                    return lower, upper, lo_rel, up_rel
        if r >= 1 and (need <= 1 or need == r):
            # a trump guarded behind the higher ones wins a trick while the other side
            # leads (`guarded_behind`): for the maximising side when the other leads, or
            # when a lone declarer on lead can first lead a side card (winning, or handing
            # the lead on); for the other side when the maximising side leads and needs
            # every trick (to take them all it must keep the lead)
            on_max = on_lead == maxmask
            for q in range(4):
                if (maxmask >> q) & 1:
                    if lower > 0 or need > 1 or (on_max and not (
                            lone and (hands[q] & ~tm) != U0)):
                        continue
                    ok, grel = guarded_behind(hands, q, trump)
                    if not ok and lone:
                        ok, grel = trump_challenge(hands, q, trump)
                    if ok:
                        lower = 1
                        lo_rel = grel
                        break
                elif on_max and upper == r and (need <= 0 or need == r):
                    ok, grel = guarded_behind(hands, q, trump)
                    if ok:
                        upper = r - 1
                        up_rel = grel
                        break
            if _settles(lower, upper, need):
                return lower, upper, lo_rel, up_rel
        if lone:
            long_t, lrel = trump_length_tricks(hands, trailing_zeros(np.uint64(maxmask)), trump,
                                               maxmask, need if need > 0 else 99)
            if long_t > lower:
                lower = long_t
                lo_rel = lrel
        else:
            # partnerships (bridge): each hand's trumps that the other side's cannot all
            # beat, a lower bound for the maximising side, an upper one against the other
            # (for the lone declarer's defenders it saved 0.1% of the nodes, BENCHMARKS.md,
            # twenty-ninth session). With a target, only a hand holding enough trumps to
            # settle it.
            # Thirtieth session, the bench's 100 bridge deals side by side: 0.925 of the
            # time (median per solve 0.941); seed-777 deals 0-19, both sides declaring
            # each strain: 122.56 -> 113.73 million nodes
            for q in range(4):
                ours = (maxmask >> q) & 1
                want_q = 99 if need <= 0 else (need if ours else r - need + 1)
                if need > 0 and popcount(hands[q] & tm) < want_q:
                    continue
                n, qrel = trump_length_tricks(hands, q, trump, maxmask if ours else 15 ^ maxmask,
                                              want_q)
                if ours:
                    if n > lower:
                        lower = n
                        lo_rel = qrel
                elif r - n < upper:
                    upper = r - n
                    up_rel = qrel
        if _settles(lower, upper, need):
            return lower, upper, lo_rel, up_rel
    # what the side on lead takes on the suit lengths alone (`length_tricks`): a bound
    # naming no card, taken over an equal one that names some
    lt = length_tricks(hands, leader, on_lead, trump)
    if lt > 0:
        if on_lead == maxmask:
            if lt >= lower:
                lower = lt
                lo_rel = U0
        elif r - lt <= upper:
            upper = r - lt
            up_rel = U0
        if _settles(lower, upper, need):
            return lower, upper, lo_rel, up_rel
    if (need <= 0 or need == 1 or need == r) and (
            trump < 0 or ((hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[trump]) == U0):
        # the side on lead needs every trick left to beat the other side's top card (it
        # gives an upper bound of r - 1 or a lower bound of 1: nothing else can settle)
        short, crel = cannot_take_all(hands, on_lead, r)
        if short:
            if on_lead == maxmask:
                if r - 1 < upper:
                    upper = r - 1
                    up_rel = crel
            elif lower < 1:
                lower = 1
                lo_rel = crel
        if _settles(lower, upper, need):
            return lower, upper, lo_rel, up_rel
    # the side on lead's sure tricks: a lower bound for the maximising side, else an upper
    # bound r - sure; with a target, only when they can reach what settles it. Not the
    # three defenders' against a lone declarer: they settle a target only when the
    # defenders can cash all but need - 1 of the tricks left in a row, which the table
    # already knows nearly every time (measured on numeric solves: 0.1% more nodes without
    # them, a quarter of the search's time saved)
    if lone and on_lead != maxmask:
        return lower, upper, lo_rel, up_rel
    want = r if need <= 0 else (need if on_lead == maxmask else r - need + 1)
    if need > 0 and sure_cap(hands, leader, on_lead) < want:
        return lower, upper, lo_rel, up_rel
    sure, srel = sure_tricks(hands, leader, on_lead, trump, want)
    if on_lead == maxmask:
        if sure > lower:
            lower = sure
            lo_rel = srel
    elif r - sure < upper:
        upper = r - sure
        up_rel = srel
    return lower, upper, lo_rel, up_rel


@njit(**NO_REFCOUNT)
def side_takes_trick(hands, trick, nplayed, leader, trump, side, wi=-1):
    """(bool, relevance): whether the seats of `side` (a seat mask) can be sure to win the
    trick in progress, `nplayed` (1 to 3) cards played to it (R19, R20).

    Sure when nothing has been ruffed yet, no opponent still to play can ruff, and either a
    seat of the side still to play is void in the suit led with a trump to ruff with
    (whatever the others play, the ruff wins), or the side's best card of the suit led (the
    card now winning when it is the side's, and the cards of its seats still to play) ranks
    above the opponents' (the card now winning when it is theirs, and their cards of the
    suit still to play): the relevance is that card. DDS asks the same of the second hand
    (QuickTricksSecondHand). `wi`: the index in `trick` of the card now winning it when
    the caller keeps it (kernels.dd_search), else -1 (worked out here).
    """
    led = suit_of(trick[0])
    if wi < 0:
        wi = current_winner_trump(trick, nplayed, trump)
    wcard = trick[wi]
    if suit_of(wcard) != led:
        return False, U0  # ruffed already: left to the search
    sm = SUIT_MASK[led]
    own = U0
    opp = U0
    own_ruff = False
    ruffing = trump >= 0 and trump != led
    for j in range(nplayed, 4):
        q = (leader + j) & 3
        f = hands[q] & sm
        ruffs = f == U0 and ruffing and (hands[q] & SUIT_MASK[trump]) != U0
        if (side >> q) & 1:
            own |= f
            own_ruff |= ruffs
        elif ruffs:
            return False, U0
        else:
            opp |= f
    if (side >> ((leader + wi) & 3)) & 1:
        own |= U1 << np.uint64(wcard)
    else:
        opp |= U1 << np.uint64(wcard)
    if own_ruff:
        return True, U0
    if own == U0:
        return False, U0
    top = U1 << np.uint64(63 - leading_zeros(own))
    if top > opp:  # opp holds only cards of the suit led: above them all
        return True, top
    return False, U0


@njit(**NO_REFCOUNT)
def second_hand_tricks(hands, trick, leader, trump, winmask, need):
    """(settled, value, relevance): whether the second hand's side reaches its goal for
    sure, one card led to the trick in progress, in no trump (R19, R20): its side wins this
    trick with its best card of the suit led (`side_takes_trick`), and the seat holding that
    card, on lead next, cashes its top runs (`_cash`) to the rest of what the side needs.
    `need` is what the seats of `winmask` still need, this trick included; the other side
    needs the tricks left less `need`, plus one. `value`: whether `winmask` reaches `need`.

    The cash is counted with the winning card out of its holder's hand (it may be the card
    led, when the leader is on the same side) and every other seat's cards still in hand:
    the cards they play to this trick only shorten their holdings, which never lowers the
    count without trumps (with trumps, a partner's discard could leave it trumps only,
    forced to ruff: not asked there). Counted with the winning card still in hand, West's
    ten led from Q-J-T into North's A-K-5-4 gave four spade tricks where North-South
    have two (the A-K "outlasting" West's two spades left).

    DDS asks the same of its second hand (QuickTricksSecondHand, one top card a suit).
    Fortieth session, the solver bench's 100 no-trump bridge jobs: 32.43 -> 25.70
    million nodes, 10.75 -> 8.37 million at trick boundaries (DDS's own count 5.73),
    answers the same; time 0.94 (`python -m bench.ab`, 3 rounds)."""
    p = (leader + 1) & 3
    if (winmask >> p) & 1:
        side = winmask
        want = need
    else:
        side = 15 ^ winmask
        want = popcount(hands[(leader + 3) & 3]) - need + 1
    won, top = side_takes_trick(hands, trick, 1, leader, trump, side)
    if not won or top == U0:
        return False, False, U0
    # the seat that wins the trick, and leads next: the one holding `top`, or the leader
    # when `top` is its card led. Any seat is looked at: until the forty-first session
    # only the second and fourth hands were, and against a lone seat the third hand's
    # card can win for the second hand's side (it was counted cashing from another hand)
    hh = leader
    for q in range(4):
        if (hands[q] & top) != U0:
            hh = q
    held = hands[hh] & top
    hands[hh] ^= held
    _, _, _, _, enough, rel = _cash(hands, hh, side, trump, want - 1)
    hands[hh] ^= held
    if 1 + enough >= want:
        return True, side == winmask, rel | top
    return False, False, U0
