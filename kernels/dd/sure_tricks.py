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
cashes are capped by each such partner's non-trump cards. The leader may also first cross
to a partner holding a suit's top card (`sure_tricks`).

When the maximising side leads, its cashing tricks are a lower bound on its tricks; when
the other side leads, r minus that side's sure tricks is an upper bound (asked in
partnerships only: against a lone declarer the table nearly always knows it first).
Both hold only where the maximising seats are the seats whose tricks count (numeric
contracts, partnerships). With no trumps in play, the side on lead cannot take every
trick when the other side holds a suit's top card and the side's own suits are too short
(`cannot_take_all`).

`quick_bounds` combines these with the trump rules (kernels.dd.trump_rules) and the
misère rules (kernels.dd.misere) into the bounds the search asks at a trick boundary.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount, trailing_zeros
from kernels.dd.misere import can_lead_loser, ducks_every_suit, holds_bottom_cards, must_win_lead
from kernels.dd.state import SUIT_MASK, U0, U1, others_of, outside, top_run
from kernels.dd.trump_rules import (
    guarded_behind,
    seat_count,
    top_trumps,
    top_two_split,
    trump_challenge,
    trump_length_tricks,
)
from kernels.jit import NO_REFCOUNT, njit

_FF = np.uint64(0xFF)


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
def cash_runs(hands, p, side, trump, want):
    """(cashed, extra, relevance, drawn, enough, enough relevance): the tricks p cashes from
    its top runs, keeping the lead (`cash_runs`); the tricks one more suit no opponent
    holds adds when cashed last; the cards the count rests on; whether no opponent keeps a
    trump after p's top trumps; and, when `cashed` reaches `want`, a count of at least
    `want` from fewer suits with the cards it rests on (else `cashed` + `extra` and the
    same relevance).

    Each suit's tricks rest on its own run (and the suit lengths), and cashing some of the
    suits keeps the lead as cashing all does, so the trump run and the side suits giving
    the most tricks, taken until they reach `want`, are a bound of their own on fewer
    cards: a position that keeps those runs but not the others' still reaches it. The
    search passes that relevance up, so its table entries cover more positions."""
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


# Inlined into its one caller, `quick_bounds` (numba's `inline="always"`): bridge 0.984
# of the time, and a shorter cold compile.
@njit(inline="always", **NO_REFCOUNT)
def sure_tricks(hands, p, side, trump, want):
    """(tricks, relevance): tricks the side `side` (seat mask, containing p) is sure to take
    with `p` on lead now: the best of p cashing its own top runs (`cash_runs`), of
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
    cashed, extra, cash_rel, drawn, enough, enough_rel = cash_runs(hands, p, side, trump, want)
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
            qcashed, qextra, qrel, qdrawn, qenough, qenough_rel = cash_runs(hands, q, side, trump,
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
                _, _, _, _, n2, nrel2 = cash_runs(hands, p, side, trump, want - 2)
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
    (`cashed` tricks resting on `cash_rel`, from `cash_runs`), then crossing to a partner q
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
# result back (bridge 0.950 of the time inlined). `cash_runs` stays a call (four call
# sites): inlined, bridge 0.979 of the time, but 25 s more cold compile.
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
def _settles(lower, upper, need):
    """Whether bounds already settle a target of `need` tricks (never when need <= 0)."""
    return need > 0 and (lower >= need or upper < need)


@njit(inline="always", **NO_REFCOUNT)
def _misere_bounds(hands, leader, trump, winmask, r):
    """`quick_bounds` where the maximising seats' own tricks do not count (misère, R15,
    R21: the declarer `winmask` alone, no trump): the misère rules (kernels.dd.misere),
    else (0, r) resting on nothing."""
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


@njit(inline="always", **NO_REFCOUNT)
def _trump_bounds(hands, trump, maxmask, need, r, lone, on_lead):
    """`quick_bounds`'s trump rules (kernels.dd.trump_rules), `trump` >= 0: (settled,
    lower, upper, lower relevance, upper relevance), settled as soon as the bounds settle
    the target `need`."""
    lower = 0
    upper = r
    lo_rel = U0
    up_rel = U0
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
        return True, lower, upper, lo_rel, up_rel
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
        return True, lower, upper, lo_rel, up_rel
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
                return True, lower, upper, lo_rel, up_rel
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
            return True, lower, upper, lo_rel, up_rel
    if lone:
        long_t, lrel = trump_length_tricks(hands, trailing_zeros(np.uint64(maxmask)), trump,
                                           maxmask, need if need > 0 else 99)
        if long_t > lower:
            lower = long_t
            lo_rel = lrel
    else:
        # partnerships (bridge): each hand's trumps that the other side's cannot all
        # beat, a lower bound for the maximising side, an upper one against the other
        # (for the lone declarer's defenders only 0.1% of the nodes, BENCHMARKS.md;
        # bridge 0.925 of the time). With a target, only a hand holding enough
        # trumps to settle it.
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
        return True, lower, upper, lo_rel, up_rel
    return False, lower, upper, lo_rel, up_rel


@njit(**NO_REFCOUNT)
def quick_bounds(hands, leader, trump, maxmask, winmask, need):
    """(lower, upper, lower relevance, upper relevance): bounds on the tricks `winmask`
    takes from here (trick boundary), and for each the cards whose owners it rests on
    (with every hand's suit lengths): only the bound that gives the value, so that a
    cut-off's stored result covers as many positions as it can.

    With `need` >= 1 (the search's target) it returns as soon as one bound settles the
    target (lower >= need or upper < need) and skips the rules that cannot; with need
    <= 0 every rule is applied.

    Relevance follows kernels.dd.tt: per suit, the cards from the top down to the lowest
    card of the mask; positions that agree on those owners and on all suit lengths get
    bounds at least as tight (lower bounds never smaller, upper bounds never larger).
    """
    r = popcount(hands[leader])
    if maxmask != winmask:
        return _misere_bounds(hands, leader, trump, winmask, r)
    lower = 0
    upper = r
    lo_rel = U0
    up_rel = U0
    lone = (maxmask & (maxmask - 1)) == 0  # one seat alone (a Boston declarer)
    on_lead = maxmask if (maxmask >> leader) & 1 else 15 ^ maxmask
    if trump >= 0:
        settled, lower, upper, lo_rel, up_rel = _trump_bounds(hands, trump, maxmask, need, r,
                                                              lone, on_lead)
        if settled:
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
