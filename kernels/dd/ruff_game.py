"""How many tricks a lone declarer surely takes with its trumps and top cards: the ruff game.

`solve_value` (kernels.dd.search) asks it once per solve of a numeric contract with a
trump suit (R10, R18-R21), before any search (`ruff_lower_bound`), and the search asks it
again at each trick boundary it cannot settle otherwise (`ruff_cut`): every trick the
game proves is a trick the search need not prove. Where the trump game
(kernels.dd.trump_game) forgets the side suits, this game keeps, for each side suit, how
many cards every defender holds and how many of the declarer D's cards are top cards
(above every other card of the suit still in play) or not; the trumps are kept card by
card. So it sees what the quick bounds and the trump game cannot: a defender holding a
suit must follow it (R19) and so cannot ruff or overruff there, a suit led where D is void
gives D a ruff, and D's top cards win when nobody ruffs them.

The game, against a lone D (its right-hand opponent A, left-hand L, partner P):

- Each trick goes round the table from its leader as in play (R18-R20: D, L, P, A
  clockwise), and the leader leads a suit it holds. The winner leads the next trick.
- The side suits' ranks are forgotten except D's top cards. A side trick nobody trumped
  is D's when D played a top card of the suit led; otherwise it goes to one of the hands
  that played the suit led (D among them when it followed with another card, which might
  still win in play), and the defenders choose which. A discard never wins (R20). Once no
  defender holds a suit, D's cards of it are all top.
- A hand that holds the suit led follows it (one card fewer there); a void hand ruffs
  with a trump or discards a card of another suit (R19).
- A trick with a trump in it is D's when D's trump is the highest; when a defender's is,
  the defenders choose which wins it among the defenders whose trumps lie in the same
  gap between D's trumps (D's trumps at the trick's start, the one it played included)
  as the highest one: ranks within a gap are forgotten, not the gaps.

Every line of play maps to a line of the game with the same trick winners and so the
same leaders (the hand that wins a trick in play is always among the game's choices),
and the defenders have every choice they have in play and more, so D's tricks in the
game are tricks D makes in play: a lower bound. D's own choices may be restricted at
will (that only lowers the bound): D plays one trump of each run that no defender's
trump (nor the one to beat) splits, never underruffs but with its lowest trump, and
discards from a suit a non-top card when it holds one. The defenders' trump plays are
cut only to one trump of each run between D's trumps (D's trump played to the trick
among them once it is played): the game's value is the same for every arrangement of the
defenders' trumps within a gap between D's trumps (the winner is chosen among a gap, and
D's trumps compare with whole gaps), so the trumps of a gap are one choice. The game
sees the defenders' trumps only as they interleave with D's (with each hand's count of
them), which is what the search's stored relevance rests on (`ruff_cut`). A trumped
trick given to the highest defender's trump by its exact rank would be wrong with these
cuts (a trump's exact rank is not in the class the relevance names).

The defenders choose a trumped trick's winner within the highest gap holding one of
their trumps, so no defender's trump dominates another: overtaking a partner's trump
with a high one can keep a low trump that is worth more later, and a game cut to the
lowest trump and the lowest that takes or shares the trick claims a trick on a 4-card
ending where the declarer makes none (`tests/test_dd_ruff_game.py`).

At each trick start two quick bounds may settle the game without a search: D is sure of
its trumps less those a higher opposing trump can beat (each opposing trump is played to
one trick, where D plays one card, so it beats at most one of D's: a greedy matching,
lowest first), plus, on lead, the top cards it cashes in each side suit while every
defender holding a trump still follows (R19), or, when its top trumps are at least as many
as every defender's trumps (they draw them), all its trumps and top cards; and D takes at
most its cards less the most trumps one defender holds above all of D's (each wins a
trick of its own for the defenders, R20); they halve the games' nodes. The memo is read
once per trick start, on entering it; the bounds read are kept on the game's stack and
written back with the result on leaving it (a second read misses the cache as often as
the first).

The game's value depends on how many trumps each defender holds between two of D's
trumps (above its highest, below its lowest), every hand's side-suit lengths, D's top
cards and which hand leads, and not on the order of the side suits, so its memo is keyed
on those alone (`_canonical`, `_canonical_sides`): states reached in one game, or at
the start of another, by other lines share their entries (0.39 of the game nodes of a
memo keyed on every trump's owner and the side suits in their order).

An explicit stack, not recursion: numba cannot cache a self-recursive function.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount, prefetch_row, trailing_zeros
from kernels.dd.state import SUIT_MASK, U0, U1, lowest_bit, split_bottoms, top_run
from kernels.dd.trump_game import highest_first, stack_work
from kernels.dd.trump_rules import unbeaten_trumps
from kernels.dd.tt import aligned_zeros
from kernels.jit import NO_REFCOUNT, njit

RUFF_GAME_BUDGET = 1 << 18  # nodes (plays, choices, trick starts) of one game at most
RUFF_MEMO = 1 << 15  # entries (three words each) of the memo of one solve
# nodes of one game asked at a node of the search (`ruff_cut`; against 8,192, numeric
# jobs about 0.9 of the time, 2^16 and 2^20 no better)
RUFF_CUT_BUDGET = 1 << 18
RUFF_CUT_MEMO = 1 << 19  # entries of a worker's memo for those games (12 MiB)

# node kinds
_DEF = 0  # a defender on lead: which suit, or which trump (min)
_DLEAD = 1  # D on lead (max)
_PLAY = 2  # a defender plays to the trick (min)
_DPLAY = 3  # D plays to a trick a defender led (max)
_OUT = 4  # a trick's end: the defenders pick its winner among those who could win (min)

# D's card in the trick
_NOCARD = 0
_TOP = 1  # a top card of the side suit led
_LOW = 2  # another card of the side suit led
_OTHER = 3  # a trump or a discard

_TRUMP = 3  # the suit led is the trump (side suits are 0..2)

# option encodings: 0..2 a suit (lead or discard), 8 follow, 9 D's top card of the suit
# led, 10 D's low card of it, 16 + card a trump (card id in the compressed trump suit),
# 32 + j D's low card of side suit j (a lead), 40 + j D's top card (a lead), 48 + j a D
# discard of suit j; for _OUT the winner's role (0 D, 1 A, 2 L, 3 P)
_FOLLOW = 8
_DTOP = 9
_DLOW = 10

_ENTER = 0
_NEXT = 1
_RETURN = 2

_MAXLV = 96
_MAXOPT = 24


@njit(**NO_REFCOUNT)
def _len(ln, r, j):
    """Defender role r's (1..3) length in side suit j (0..2)."""
    return np.int64((ln >> np.uint64((r - 1) * 12 + j * 4)) & np.uint64(15))


@njit(**NO_REFCOUNT)
def _dtop(ln, j):
    return np.int64((ln >> np.uint64(36 + j * 4)) & np.uint64(15))


@njit(**NO_REFCOUNT)
def _dlow(ln, j):
    return np.int64((ln >> np.uint64(48 + j * 4)) & np.uint64(15))


@njit(**NO_REFCOUNT)
def _dec(ln, shift):
    return ln - (U1 << np.uint64(shift))


@njit(**NO_REFCOUNT)
def _normalise(ln):
    """D's cards of a side suit no defender holds are all top cards."""
    for j in range(3):
        if _len(ln, 1, j) + _len(ln, 2, j) + _len(ln, 3, j) == 0:
            low = _dlow(ln, j)
            if low > 0:
                ln = (ln - (np.uint64(low) << np.uint64(48 + j * 4))
                      + (np.uint64(low) << np.uint64(36 + j * 4)))
    return ln


@njit(**NO_REFCOUNT)
def _d_cards(t0, ln):
    n = popcount(t0)
    for j in range(3):
        n += _dtop(ln, j) + _dlow(ln, j)
    return n


@njit(**NO_REFCOUNT)
def _sure(t0, t1, t2, t3, ln, d_leads):
    """Tricks D is sure of in the game: each defender's trump beats at most one of D's
    (kernels.dd.trump_rules.unbeaten_trumps); on lead, D first cashes in each side suit its top
    cards while every defender holding a trump still follows, or, when its top trumps
    are at least as many as every defender's trumps, all its trumps and top cards."""
    theirs = t1 | t2 | t3
    if d_leads:
        k = popcount(top_run(t0, theirs))
        if k >= popcount(t1) and k >= popcount(t2) and k >= popcount(t3):
            # D's top trumps draw every defender's (R19): then all its trumps and top
            # cards win, nobody left to ruff
            n = popcount(t0)
            for j in range(3):
                n += _dtop(ln, j)
            return n
    n = unbeaten_trumps(t0, theirs)
    if d_leads:
        for j in range(3):
            cap = _dtop(ln, j)
            if t1 != U0:
                cap = min(cap, _len(ln, 1, j))
            if t2 != U0:
                cap = min(cap, _len(ln, 2, j))
            if t3 != U0:
                cap = min(cap, _len(ln, 3, j))
            n += cap
    return n


@njit(**NO_REFCOUNT)
def _beyond(t0, t1, t2, t3):
    """The most trumps one defender holds above all of D's: each wins a trick of its own
    for the defenders."""
    above = ~U0 if t0 == U0 else ~((U1 << np.uint64(64 - leading_zeros(t0))) - U1)
    return max(popcount(t1 & above), popcount(t2 & above), popcount(t3 & above))


@njit(**NO_REFCOUNT)
def _slot(memo, w1, w2):
    h = (w1 * np.uint64(0x9E3779B97F4A7C15)) ^ (w2 * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return np.int64(h >> np.uint64(64 - trailing_zeros(np.uint64(memo.shape[0]))))


@njit(**NO_REFCOUNT)
def _memo_get(memo, s, w1, w2):
    """(proven, refuted): the bounds on the tricks still needed kept for a state (0 and
    255 when its slot holds another state)."""
    u = np.uint64(s)  # unsigned: no wraparound test on the index
    if memo[u, 0] == w1 and memo[u, 1] == w2:
        b = memo[u, 2]
        return np.int64(b & np.uint64(255)), np.int64((b >> np.uint64(8)) & np.uint64(255))
    return 0, 255


@njit(**NO_REFCOUNT)
def _memo_put(memo, s, w1, w2, proven, refuted):
    u = np.uint64(s)  # unsigned: no wraparound test (kernels.dd.tt)
    memo[u, 0] = w1
    memo[u, 1] = w2
    memo[u, 2] = np.uint64(proven) | (np.uint64(refuted) << np.uint64(8))


@njit(**NO_REFCOUNT)
def _canonical(t0, t1, t2, t3):
    """The trumps by role in the form the memo keys on: relative ranks (the trumps played
    in the game leave no gaps) and, between two of D's trumps (above its highest, below
    its lowest), the right-hand opponent's first, then the left-hand opponent's, then the
    partner's. The game's value is the same for every arrangement of the defenders'
    trumps between two of D's: it compares a trump only with D's (a defender's trumps of
    one such gap are one choice, its lowest, or the lowest above D's; the defenders
    choose among themselves who wins a trick their trump took; the quick bounds count
    trumps above D's), so states that differ only there share one memo entry."""
    pos = popcount(t0 | t1 | t2 | t3)
    upper = t0 | t1 | t2 | t3  # the trumps not yet placed: those below the last D trump
    rest = t0
    c0 = U0
    c1 = U0
    c2 = U0
    c3 = U0
    while True:
        b = U0 if rest == U0 else U1 << np.uint64(63 - leading_zeros(rest))
        gap = upper & ~((b << U1) - U1) if b != U0 else upper
        k = popcount(gap & t1)
        pos -= k
        c1 |= ((U1 << np.uint64(k)) - U1) << np.uint64(pos)
        k = popcount(gap & t2)
        pos -= k
        c2 |= ((U1 << np.uint64(k)) - U1) << np.uint64(pos)
        k = popcount(gap & t3)
        pos -= k
        c3 |= ((U1 << np.uint64(k)) - U1) << np.uint64(pos)
        if b == U0:
            return c0, c1, c2, c3
        pos -= 1
        c0 |= U1 << np.uint64(pos)
        upper &= b - U1
        rest ^= b


# the nibbles of side suit 0 in a packed side-suit word: the three defenders' lengths,
# D's top cards, D's other cards (suit j's are these shifted up by 4 j bits)
_SUIT0 = np.uint64(0x000F00F00F00F00F)


@njit(**NO_REFCOUNT)
def _canonical_sides(ln):
    """The packed side-suit word with its three side suits sorted (the memo's second key
    word): the game treats the side suits alike, so its value does not depend on their
    order. Each suit's nibbles are masked in place, compared as one number and put back
    in sorted order, a few instructions in all."""
    a = ln & _SUIT0
    b = (ln >> np.uint64(4)) & _SUIT0
    c = (ln >> np.uint64(8)) & _SUIT0
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return a | (b << np.uint64(4)) | (c << np.uint64(8))


@njit(**NO_REFCOUNT)
def _w1(t0, t1, t2, t3, lead):
    """The memo's first key word: the trumps by role (`_canonical`) and the role on
    lead."""
    c0, c1, c2, c3 = _canonical(t0, t1, t2, t3)
    return (c0 | (c1 << np.uint64(13)) | (c2 << np.uint64(26)) | (c3 << np.uint64(39))
            | (np.uint64(lead) << np.uint64(52)) | (U1 << np.uint64(54)))


@njit(**NO_REFCOUNT)
def _above(m, hi):
    """Cards of m above the one-bit mask hi (all of m when hi is 0)."""
    if hi == U0:
        return m
    return m & ~((hi << U1) - U1)


@njit(**NO_REFCOUNT)
def _seps(t0, dcard):
    """D's trumps that part the defenders' trumps into gaps during a trick: those it
    holds and the one it played to the trick (`dcard` 16 + its id), if any."""
    return t0 | (U1 << np.uint64(dcard - 16) if dcard >= 16 else U0)


@njit(**NO_REFCOUNT)
def _same_gap(a, b, seps):
    """Whether no card of `seps` lies between the one-bit masks a and b."""
    lo = a if a < b else b
    hi = b if a < b else a
    return (seps & (hi - U1) & ~((lo << U1) - U1)) == U0


@njit(**NO_REFCOUNT)
def _gap_floor(hi, seps):
    """The cards above the highest card of `seps` below the one-bit mask hi: hi's gap
    and everything above it."""
    below = seps & (hi - U1)
    if below == U0:
        return ~U0
    return ~((U1 << np.uint64(64 - leading_zeros(below))) - U1)


@njit(**NO_REFCOUNT)
def _after(r):
    """The role that plays after role r (seats clockwise: D, L, P, A)."""
    return 2 if r == 0 else (3 if r == 2 else (1 if r == 3 else 0))


@njit(**NO_REFCOUNT)
def _trumps_of(t1, t2, t3, r):
    """The trumps of defender role r (1 A, 2 L, 3 P)."""
    return t1 if r == 1 else (t2 if r == 2 else t3)


@njit(**NO_REFCOUNT)
def _played(t1, t2, t3, r, b):
    """The defenders' trumps after defender role r played trump b."""
    if r == 1:
        return t1 ^ b, t2, t3
    if r == 2:
        return t1, t2 ^ b, t3
    return t1, t2, t3 ^ b


@njit(**NO_REFCOUNT)
def _followed(t1, t2, t3, ln, j):
    """Whether every defender holding a trump holds side suit j (none can ruff it)."""
    return ((t1 == U0 or _len(ln, 1, j) > 0) and (t2 == U0 or _len(ln, 2, j) > 0)
            and (t3 == U0 or _len(ln, 3, j) > 0))


@njit(**NO_REFCOUNT)
def _lowest_first(ch, base, out, n):
    """Append base + card id of each card of `ch`, lowest first, to `out` from n on."""
    while ch != U0:
        b = lowest_bit(ch)
        ch ^= b
        out[n] = base + trailing_zeros(b)
        n += 1
    return n


@njit(**NO_REFCOUNT)
def _options(kd, role, led, ldr, dcard, hir, t0, t1, t2, t3, ln, hi, out):
    """Write a node's options into `out` (encodings above); return their count."""
    n = 0
    if kd == _DEF:
        # the defender on lead (role ldr) leads a suit it holds; likely refutations
        # first: suits where D follows with a low card, trumps, suits where D holds a top
        # card, suits D may ruff
        m = _trumps_of(t1, t2, t3, ldr)
        for rank in range(4):
            if rank == 1:
                if m != U0:
                    n = highest_first(split_bottoms(m, t0), 16, out, n)
                continue
            for j in range(3):
                if _len(ln, ldr, j) == 0:
                    continue
                held = _dtop(ln, j) + _dlow(ln, j) > 0
                r = 3 if not held else (2 if _dtop(ln, j) > 0 else 0)
                if r == rank:
                    out[n] = j
                    n += 1
    elif kd == _DLEAD:
        defs = t1 | t2 | t3
        # top cards nobody can ruff, then trumps, then the other top cards, low cards last
        for j in range(3):
            if _dtop(ln, j) > 0 and _followed(t1, t2, t3, ln, j):
                out[n] = 40 + j
                n += 1
        n = highest_first(split_bottoms(t0, defs), 16, out, n)
        for j in range(3):
            if _dtop(ln, j) > 0 and not _followed(t1, t2, t3, ln, j):
                out[n] = 40 + j
                n += 1
        for j in range(3):
            if _dlow(ln, j) > 0:
                out[n] = 32 + j
                n += 1
    elif kd == _PLAY:
        m = _trumps_of(t1, t2, t3, role)
        if led != _TRUMP and _len(ln, role, led) > 0:
            out[0] = _FOLLOW
            return 1
        if led != _TRUMP or m == U0:
            # a discard before a ruff (the option orders here and below: 0.82 of the
            # game nodes, e1c5976)
            for j in range(3):
                if j != led and _len(ln, role, j) > 0:
                    out[n] = j
                    n += 1
        if m != U0:
            if dcard == _NOCARD:
                # before D: one trump of each run between D's trumps
                n = highest_first(split_bottoms(m, t0), 16, out, n)
            else:
                # after D: one trump of each run between D's trumps (the one it played
                # among them), as before D; first the lowest that takes the trick or joins
                # the gap of the defender's trump to beat, then the lowest of all
                seps = _seps(t0, dcard)
                rest = split_bottoms(m, seps)
                cov = U0
                if hir == 0:
                    cov = lowest_bit(_above(m, hi))
                elif hir > 0:
                    cov = lowest_bit(m & _gap_floor(hi, seps))
                low = lowest_bit(m)
                if cov != U0:
                    out[n] = 16 + trailing_zeros(cov)
                    n += 1
                    rest &= ~cov
                if low != cov:
                    out[n] = 16 + trailing_zeros(low)
                    n += 1
                    rest &= ~low
                n = highest_first(rest, 16, out, n)
    elif kd == _DPLAY:
        defs = t1 | t2 | t3
        if led != _TRUMP and _dtop(ln, led) + _dlow(ln, led) > 0:
            if _dtop(ln, led) > 0:
                out[n] = _DTOP
                n += 1
            if _dlow(ln, led) > 0:
                out[n] = _DLOW
                n += 1
            return n
        if t0 != U0:
            # ruffs (or trumps followed) that beat the card to beat, one per run, the
            # lowest first
            n = _lowest_first(split_bottoms(_above(t0, hi), defs | hi), 16, out, n)
        if led != _TRUMP or t0 == U0:
            for j in range(3):
                if _dtop(ln, j) + _dlow(ln, j) > 0:
                    out[n] = 48 + j
                    n += 1
            if t0 != U0 and lowest_bit(t0) < hi:
                out[n] = 16 + trailing_zeros(lowest_bit(t0))  # an underruff
                n += 1
        elif lowest_bit(t0) < hi:
            out[n] = 16 + trailing_zeros(lowest_bit(t0))  # a trump under the one to beat
            n += 1
    else:  # _OUT: the defenders choose the trick's winner among `role` (a role mask)
        for r in (1, 2, 3, 0):
            if (role >> r) & 1:
                out[n] = r
                n += 1
    return n


@njit
def new_ruff_work():
    """Scratch arrays for `ruff_game_wins` (kernels.dd.trump_game.stack_work)."""
    return stack_work(8, 13, _MAXLV, _MAXOPT)


@njit(inline="always", **NO_REFCOUNT)
def _start_value(t0, t1, t2, t3, ln, ldr, need, memo):
    """(value, memo key words, memo bounds) of a trick start where D still needs `need`
    tricks: 1 or 0 when its cards, its sure tricks or the memo's bounds settle it, else
    -1 (the key and the bounds read are kept for the store on leaving the node; an upper
    bound of -1: the memo was not read)."""
    if need <= 0:
        return 1, U0, U0, 0, -1
    if _d_cards(t0, ln) - _beyond(t0, t1, t2, t3) < need:
        return 0, U0, U0, 0, -1
    if _sure(t0, t1, t2, t3, ln, ldr == 0) >= need:
        return 1, U0, U0, 0, -1
    w1 = _w1(t0, t1, t2, t3, ldr)
    w2 = _canonical_sides(ln)
    lo, up = _memo_get(memo, _slot(memo, w1, w2), w1, w2)
    if need <= lo:
        return 1, w1, w2, lo, up
    if need >= up:
        return 0, w1, w2, lo, up
    return -1, w1, w2, lo, up


@njit(inline="always", **NO_REFCOUNT)
def _play(kd, o, who, x0, x1, x2, x3, xln, xhi, xhir, xled, xldr, xd, xfol, xtpl):
    """Play option `o` of a node of kind `kd` (`who` the role to play at a defender's
    play), then every play with no choice after it: a defender holding the side suit led
    follows it (R19); D holding only top cards of it, or only others, plays one of those.
    Returns the state after (trumps by role, side-suit word, highest trump of the trick
    and its role, suit led, leader, D's card, roles that followed, roles that trumped),
    the trick's winner role (-1: the trick goes on; -2: the defenders choose among
    `choice`), `choice` and the role to play next (-1: the trick is complete)."""
    won = -1
    choice = 0
    nxt = -1
    pk = kd  # the kind of node whose option `o` is played
    while True:
        if pk == _DEF:
            who = xldr
            xd = _NOCARD
            if o >= 16:
                b = U1 << np.uint64(o - 16)
                x1, x2, x3 = _played(x1, x2, x3, who, b)
                xled = _TRUMP
                xhi = b
                xhir = who
                xtpl = 1 << who
            else:
                xled = o
                xln = _dec(xln, (who - 1) * 12 + o * 4)
                xfol = 1 << who
        elif pk == _DLEAD:
            who = 0
            if o >= 40:
                xled = o - 40
                xln = _dec(xln, 36 + xled * 4)
                xd = _TOP
            elif o >= 32:
                xled = o - 32
                xln = _dec(xln, 48 + xled * 4)
                xd = _LOW
            else:
                xled = _TRUMP
                xhi = U1 << np.uint64(o - 16)
                x0 ^= xhi
                xhir = 0
                xd = o
        elif pk == _PLAY:
            if o == _FOLLOW:
                xln = _dec(xln, (who - 1) * 12 + xled * 4)
                xfol |= 1 << who
            elif o >= 16:
                b = U1 << np.uint64(o - 16)
                x1, x2, x3 = _played(x1, x2, x3, who, b)
                # the defenders who may take the trick: those whose trumps share
                # the highest one's gap between D's trumps
                joins = xhir > 0 and _same_gap(b, xhi, _seps(x0, xd))
                if b > xhi:
                    xtpl = (xtpl | (1 << who)) if joins else (1 << who)
                    xhi = b
                    xhir = who
                elif joins:
                    xtpl |= 1 << who
            else:
                xln = _dec(xln, (who - 1) * 12 + o * 4)
        elif pk == _DPLAY:
            who = 0
            if o == _DTOP:
                xln = _dec(xln, 36 + xled * 4)
                xd = _TOP
            elif o == _DLOW:
                xln = _dec(xln, 48 + xled * 4)
                xd = _LOW
            elif o >= 48:
                j = o - 48
                xln = _dec(xln, (48 if _dlow(xln, j) > 0 else 36) + j * 4)
                xd = _OTHER
            else:
                b = U1 << np.uint64(o - 16)
                x0 ^= b
                if b > xhi:
                    xhi = b
                    xhir = 0
                xd = o
        else:  # _OUT
            won = o
            break
        nxt = _after(who)
        if nxt == xldr:
            nxt = -1
            # the trick is complete (R20): the highest trump; else D's top card of the
            # suit led; else one of those who followed it (the ranks are forgotten),
            # D too when it followed with a lower card: the defenders choose
            if xhi != U0:
                if xhir == 0:
                    won = 0
                else:
                    choice = xtpl  # ranks within a gap between D's trumps are theirs
            elif xd == _TOP:
                won = 0
            else:
                choice = xfol | (1 if xd == _LOW else 0)
            if won < 0:
                if (choice & (choice - 1)) == 0:
                    won = trailing_zeros(np.uint64(choice))
                else:
                    won = -2
            break
        if xled == _TRUMP:
            break
        if nxt == 0:
            top_n = _dtop(xln, xled)
            low_n = _dlow(xln, xled)
            if (top_n > 0) == (low_n > 0):
                break
            pk = _DPLAY
            o = _DTOP if top_n > 0 else _DLOW
        else:
            if _len(xln, nxt, xled) == 0:
                break
            pk = _PLAY
            who = nxt
            o = _FOLLOW
    return (x0, x1, x2, x3, xln, xhi, xhir, xled, xldr, xd, xfol, xtpl, won, choice, nxt)


@njit(inline="always", **NO_REFCOUNT)
def _prefetch_choices(memo, x0, x1, x2, x3, xln, choice):
    """Request the memo lines of the trick starts the defenders may choose among
    (`choice`), so that the reads overlap. A trick start's memo read is the game's
    costliest instruction (43% of its samples, a miss in the cache), and more than half
    the reads follow such a choice (all jobs about 0.93 of the time). Requesting also the
    lines after the last card of a trick (computing every option's trick start) costs
    more than it saves."""
    nl = _canonical_sides(_normalise(xln))
    w0 = _w1(x0, x1, x2, x3, 0)
    for r in range(4):
        if (choice >> r) & 1:
            prefetch_row(memo, _slot(memo, w0 | (np.uint64(r) << np.uint64(52)), nl))


@njit(**NO_REFCOUNT)
def ruff_game_wins(t0, t1, t2, t3, ln, lead, k, budget, memo, work):
    """1 when the lone declarer makes `k` tricks in the ruff game above whatever the
    defenders do, 0 when it cannot, -1 when the search would need more than `budget`
    nodes (plays with a choice, the defenders' choices of a trick's winner, and trick
    starts; a play with no choice, a defender following the side suit led or D holding
    only top cards of it or only others, is made with the play before it: a fifth of the
    game's nodes). Trumps by role (t0 D, t1 A, t2 L, t3 P) in
    bits 0..12; `ln` packs the defenders' side-suit lengths (4 bits per role 1..3 and side
    suit, from bit 0), D's top cards (from bit 36) and other cards (from bit 48) of each
    side suit; `lead` is the role on lead. Trick-start values are kept in `memo` ((size,
    3) words: the two key words and the bounds on the tricks still needed, low byte
    proven, next byte refuted). `work`: `new_ruff_work()`."""
    ut, it, opts = work
    a0, a1, a2, a3, aln, ahi, key, key2 = ut[0], ut[1], ut[2], ut[3], ut[4], ut[5], ut[6], ut[7]
    wins, kind, role, led, ldr, dcard = it[0], it[1], it[2], it[3], it[4], it[5]
    hir, nopt, idx = it[6], it[7], it[8]
    # the memo's bounds on a trick start's state as read on entering it (-1: not read),
    # updated on leaving it without reading the memo again (a cache miss each time)
    mlo, mup = it[9], it[10]
    fol, tpl = it[11], it[12]  # roles that followed the side suit led, that played a trump
    a0[0] = t0
    a1[0] = t1
    a2[0] = t2
    a3[0] = t3
    aln[0] = _normalise(ln)
    ahi[0] = U0
    wins[0] = 0
    kind[0] = _DLEAD if lead == 0 else _DEF
    ldr[0] = lead
    lv = 0
    nodes = 0
    mode = _ENTER
    res = 0
    while True:
        kd = kind[lv]
        start = kd == _DEF or kd == _DLEAD
        if mode == _ENTER:
            mode = _NEXT
            nodes += 1
            if nodes > budget:
                return -1
            mup[lv] = -1
            if start:
                val, w1, w2, lo, up = _start_value(a0[lv], a1[lv], a2[lv], a3[lv], aln[lv],
                                                   ldr[lv], k - wins[lv], memo)
                if up >= 0:
                    key[lv] = w1
                    key2[lv] = w2
                    mlo[lv] = lo
                    mup[lv] = up
                if val >= 0:
                    res = val
                    mode = _RETURN
            if mode == _NEXT:
                nopt[lv] = _options(kd, role[lv], led[lv], ldr[lv], dcard[lv], hir[lv],
                                    a0[lv], a1[lv], a2[lv], a3[lv], aln[lv], ahi[lv],
                                    opts[lv])
                idx[lv] = 0
            continue
        if mode == _RETURN:
            if mup[lv] >= 0:
                need = k - wins[lv]
                if need > mlo[lv] and need < mup[lv]:
                    w1 = key[lv]
                    w2 = key2[lv]
                    s = _slot(memo, w1, w2)
                    lo, up = mlo[lv], mup[lv]
                    if res == 1:
                        lo = max(lo, need)
                    else:
                        up = min(up, need)
                    _memo_put(memo, s, w1, w2, lo, up)
            if lv == 0:
                return res
            lv -= 1
            kd = kind[lv]
            is_max = kd == _DLEAD or kd == _DPLAY
            mode = _RETURN if (res == 1) == is_max else _NEXT  # a cut-off ends the node
            continue
        # mode == _NEXT
        if idx[lv] >= nopt[lv]:
            res = 0 if (kd == _DLEAD or kd == _DPLAY) else 1
            mode = _RETURN
            continue
        o = opts[lv, idx[lv]]
        idx[lv] += 1
        c = lv + 1
        x0, x1, x2, x3 = a0[lv], a1[lv], a2[lv], a3[lv]
        xln, xhi, xhir = aln[lv], ahi[lv], hir[lv]
        xled, xldr, xd = led[lv], ldr[lv], dcard[lv]
        xfol, xtpl = fol[lv], tpl[lv]
        if start:  # a new trick: nothing played to it yet
            xhi = U0
            xhir = -1
            xfol = 0
            xtpl = 0
        (x0, x1, x2, x3, xln, xhi, xhir, xled, xldr, xd, xfol, xtpl, won, choice,
         nxt) = _play(kd, o, role[lv] if kd == _PLAY else 0, x0, x1, x2, x3, xln, xhi, xhir,
                      xled, xldr, xd, xfol, xtpl)
        a0[c], a1[c], a2[c], a3[c] = x0, x1, x2, x3
        aln[c] = xln
        ahi[c] = xhi
        hir[c] = xhir
        led[c] = xled
        ldr[c] = xldr
        dcard[c] = xd
        fol[c] = xfol
        tpl[c] = xtpl
        wins[c] = wins[lv]
        if won == -2:
            kind[c] = _OUT
            role[c] = choice
            _prefetch_choices(memo, x0, x1, x2, x3, xln, choice)
        elif won >= 0:
            if won == 0:
                wins[c] += 1
            aln[c] = _normalise(xln)
            kind[c] = _DLEAD if won == 0 else _DEF
            ldr[c] = won
        elif nxt == 0:
            kind[c] = _DPLAY
        else:
            kind[c] = _PLAY
            role[c] = nxt
        lv = c
        mode = _ENTER


@njit(**NO_REFCOUNT)
def _seat(d, r):
    """The seat of role r (0 D, 1 its right-hand opponent, 2 left-hand, 3 partner)."""
    return (d + (0 if r == 0 else (3 if r == 1 else r - 1))) & 3


@njit(**NO_REFCOUNT)
def _role(d, seat):
    """The role (0 D, 1 A, 2 L, 3 P) of `seat` against declarer d."""
    x = (seat - d) & 3
    return 0 if x == 0 else (2 if x == 1 else (3 if x == 2 else 1))


@njit(**NO_REFCOUNT)
def _squeeze(m, inplay):
    """The bits of m (a subset of inplay) renumbered by rank among inplay: bits 0..12."""
    out = U0
    i = 0
    while inplay != U0:
        b = lowest_bit(inplay)
        inplay ^= b
        if m & b:
            out |= U1 << np.uint64(i)
        i += 1
    return out


@njit(**NO_REFCOUNT)
def _start(hands, trump, d):
    """The game's start state of a position: the trumps by role (bits 0..12, relative
    ranks) and the packed side-suit word (`ruff_game_wins`)."""
    tm = SUIT_MASK[trump]
    inplay = (hands[0] | hands[1] | hands[2] | hands[3]) & tm
    t0 = _squeeze(hands[d] & tm, inplay)
    t1 = _squeeze(hands[_seat(d, 1)] & tm, inplay)
    t2 = _squeeze(hands[_seat(d, 2)] & tm, inplay)
    t3 = _squeeze(hands[_seat(d, 3)] & tm, inplay)
    ln = U0
    j = 0
    for s in range(4):
        if s == trump:
            continue
        sm = SUIT_MASK[s]
        for r in range(1, 4):
            ln |= (np.uint64(popcount(hands[_seat(d, r)] & sm))
                   << np.uint64((r - 1) * 12 + j * 4))
        mine = hands[d] & sm
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & sm & ~mine
        top = top_run(mine, others)
        ln |= np.uint64(popcount(top)) << np.uint64(36 + j * 4)
        ln |= np.uint64(popcount(mine) - popcount(top)) << np.uint64(48 + j * 4)
        j += 1
    return t0, t1, t2, t3, _normalise(ln)


@njit(**NO_REFCOUNT)
def _wins(t0, t1, t2, t3, ln, lead, k, budget, memo, work):
    """`ruff_game_wins` as a bool; a game out of budget counts as lost and is remembered
    so (never claiming a trick), not searched again for k or more."""
    res = ruff_game_wins(t0, t1, t2, t3, ln, lead, k, budget, memo, work)
    if res < 0:
        w1 = _w1(t0, t1, t2, t3, lead)
        w2 = _canonical_sides(ln)
        s = _slot(memo, w1, w2)
        lo, _ = _memo_get(memo, s, w1, w2)
        _memo_put(memo, s, w1, w2, min(lo, k - 1), k)
    return res == 1


@njit(**NO_REFCOUNT)
def ruff_cut(hands, leader, trump, d, k, memo, work):
    """(bool, relevance): whether the lone declarer `d` surely makes `k` of the tricks
    left by the ruff game (within `RUFF_CUT_BUDGET` nodes), for a trick-boundary node of
    the search, with the cards the answer rests on (kernels.dd.tt): D's lowest trump (the
    game sees only how the trumps interleave with D's; lower ones are told apart by their
    hands' lengths alone) and, in each side suit where D holds top cards, its lowest top
    card, so that D holds at least as many top cards in every position of the class (more
    top cards never cost D a trick in the game: with a lower card the defenders choose
    the trick's winner, and D is one of their choices). The game's values depend on its
    abstract state alone, not on the deal, so `memo` may serve every deal a worker
    solves; an out-of-budget game is remembered as lost. `work`: `new_ruff_work()`.
    """
    t0, t1, t2, t3, ln = _start(hands, trump, d)
    if not _wins(t0, t1, t2, t3, ln, _role(d, leader), k, RUFF_CUT_BUDGET, memo, work):
        return False, U0
    rel = lowest_bit(hands[d] & SUIT_MASK[trump])
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[d]
    j = 0
    for s in range(4):
        if s == trump:
            continue
        o = others & SUIT_MASK[s]
        if _dtop(ln, j) > 0 and o != U0:
            rel |= lowest_bit(top_run(hands[d] & SUIT_MASK[s], o))
        j += 1
    return True, rel


@njit
def ruff_lower_bound(hands, leader, trump, d, lo, hi, memo):
    """The most tricks, from lo up to hi, that the lone declarer `d` makes in the ruff
    game (lo when it makes no more), each target within `RUFF_GAME_BUDGET` nodes, values
    memoised in `memo` (`new_ruff_memo`: the game's values are properties of its states
    alone, so one memo may serve every solve of a worker)."""
    work = new_ruff_work()
    t0, t1, t2, t3, ln = _start(hands, trump, d)
    lead = _role(d, leader)
    while lo < hi and _wins(t0, t1, t2, t3, ln, lead, lo + 1, RUFF_GAME_BUDGET, memo, work):
        lo += 1
    return lo


def new_ruff_memo(entries=RUFF_MEMO):
    """An empty memo for `ruff_cut` or `ruff_lower_bound` (`entries` a power of two)."""
    if entries < 2 or entries & (entries - 1):
        raise ValueError(f"memo entries must be a power of two >= 2, not {entries}")
    return aligned_zeros((entries, 3))
