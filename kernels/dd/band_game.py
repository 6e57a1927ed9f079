"""The band game: a coarser misère game whose "made" is a proof of the misère (R15, R21).

Misère is won or lost on one question per trick: is the declarer's card the highest of
the suit led (no trump, R20)? That compares the declarer's cards with the defenders'
only. Between two consecutive cards of the declarer in a suit (and below its lowest,
above its highest) lies a *band* of defenders' cards; any two cards of one band compare
alike with every card of the declarer. What the bands do not fix is which defender wins
a trick the declarer ducks (who leads next): within a band the defenders' cards may lie
in any order. So the band game lets the defenders choose the trick's winner among the
defenders who played to it a card of the suit led in the band of its highest card (one
of them holds the highest card whatever the order). Everything else is play: R19, the
declarer's duck or win by the real comparison.

In the band game the defenders have every strategy they have in play and more, so when
the declarer never wins a trick there, it never wins one in play: the misère is made.
The converse fails (a band game the defenders force may be a made misère). Its value
depends on each defender's count of cards per band and on nothing else in the suit, so
one card per band stands for a defender's choices, and the positions of a class share
one entry of the game's table (`band_key`), which is what makes the game small: the
made misères that take the search hundreds of millions of nodes take it millions.

`band_game` searches it within a node budget on an explicit stack (numba cannot cache a
self-recursive function), with the sure rules of kernels.dd.misere at trick boundaries:
`ducks_every_suit` (made), `must_win_lead` and `misere_force` (forced, which hold in
the band game too: there the defenders can play as in play).
"""

import numpy as np

from kernels.bits import highest_bit_index, popcount, trailing_zeros
from kernels.dd.misere import (
    MISERE_BUDGET,
    ducks_every_suit,
    misere_force,
    must_win_lead,
    new_misere_work,
)
from kernels.dd.state import SUIT_MASK, U0, U1, bit, highest_rank, suit_of
from kernels.jit import NO_REFCOUNT, njit

BAND_BITS = 20  # entries of the band game's table: 2 ** BAND_BITS (17 bytes each)
_LEVELS = 13 * 5 + 1  # per trick: four cards and the choice of its winner
_FORCED = 1
_MADE = 0
_OVER = -1
_LOW = 0
_HIGH = 1
_RANK = 2


@njit
def new_band_work(table=True):
    """The band game's table (keys and values, kept across games: entries are
    properties of positions), its scratch arrays and the last game's node count. Without
    `table` the table has one entry: a batch with no misère job never plays the game, and
    the full table, zeroed, costs about 0.4 ms, 3% of a median bridge solve."""
    n = 1 << BAND_BITS if table else 1
    return (np.zeros((2, n), np.uint64), np.zeros(n, np.int8),
            np.zeros((2, _LEVELS), np.uint64), np.zeros((3, _LEVELS), np.int64),
            np.zeros((14, 4), np.int64), np.zeros(4, np.uint64), new_misere_work(),
            np.zeros(4096, np.uint64), np.zeros(1, np.int64))


@njit(**NO_REFCOUNT)
def band_key(hands, leader, d):
    """(k1, k2): the band game's position, exactly: per suit from its lowest card up, the
    declarer's cards in place and each band's defenders' cards in seat order (2 bits a
    card, the count in 4 bits), the leader and the declarer."""
    k1 = np.uint64(leader)
    k2 = np.uint64(d) << np.uint64(60)
    for s in range(4):
        sm = SUIT_MASK[s]
        mine = hands[d] & sm
        word = U0
        pos = 0
        lo = U0  # the band's floor: cards below it are coded
        rest = mine
        while True:
            if rest != U0:
                top = rest & (U0 - rest)  # the declarer's next card up: the band's roof
                roof = top - U1
            else:
                top = U0
                roof = sm
            for q in range(4):
                if q != d:
                    n = popcount(hands[q] & sm & roof & ~lo)
                    for _ in range(n):
                        word |= np.uint64(q) << np.uint64(2 * pos)
                        pos += 1
            if top == U0:
                break
            word |= np.uint64(d) << np.uint64(2 * pos)
            pos += 1
            lo = roof | top
            rest ^= top
        word |= np.uint64(pos) << np.uint64(26)
        if s < 2:
            k1 |= word << np.uint64(2 + 30 * s)
        else:
            k2 |= word << np.uint64(30 * (s - 2))
    return k1, k2


@njit(**NO_REFCOUNT)
def _slot(k1, k2):
    h = (k1 * np.uint64(0x9E3779B97F4A7C15)) ^ (k2 * np.uint64(0xC2B2AE3D27D4EB4F))
    return h >> np.uint64(64 - BAND_BITS)


@njit(**NO_REFCOUNT)
def band_bottoms(cards, splitters):
    """The lowest card of each run of `cards` (one hand's, any suits) that no card of
    `splitters` splits: for a defender, one card per band (`splitters`: the declarer's
    cards, the one it played to the trick included); for the declarer, one card per run
    of cards that compare alike with every other card in play (`splitters`: the other
    hands' cards and the table's)."""
    out = U0
    for s in range(4):
        x = cards & SUIT_MASK[s]
        while x != U0:
            c = x & (U0 - x)
            out |= c
            above = splitters & SUIT_MASK[s] & ~(c | (c - U1))
            if above == U0:
                break
            x &= ~((above & (U0 - above)) - U1)  # drop the rest of c's run
    return out


@njit(**NO_REFCOUNT)
def band_game(hands, leader, d, budget, work):
    """1 when the defenders force the misère declarer `d` (no trump) to win a trick in the
    band game, 0 when they cannot (then the misère is made in play, R15, R21), -1 when
    the search would need more than `budget` nodes. `hands` is not changed. `work`:
    `new_band_work()` (its table keeps what earlier games found)."""
    keys, vals, masks, ints, tricks, hs, mwork, mmemo, count = work
    first, second = masks[0], masks[1]  # per level: options to try, in two phases
    lead = ints[0]  # per level: the trick's leader
    acc = ints[1]  # per level: the card (or winner) being tried
    order = ints[2]  # per level: the first phase's order (_LOW, _HIGH, _RANK first)
    for q in range(4):
        hs[q] = hands[q]
    mmemo[:] = U0
    nodes = 0
    lv = 0
    lead[0] = leader
    enter = True
    res = 0
    while True:
        ti = lv // 5
        k = lv - 5 * ti
        ld = lead[lv]
        p = (ld + k) & 3
        if enter:
            enter = False
            nodes += 1
            count[0] = nodes
            if nodes > budget:
                return _OVER
            settled = -1
            if k == 0:
                if hs[d] == U0:
                    settled = _MADE
                elif ld != d:
                    ok, _ = ducks_every_suit(hs, d)
                    if ok:
                        settled = _MADE
                    else:
                        won, _ = misere_force(hs, ld, d, MISERE_BUDGET, mmemo, mwork)
                        if won:
                            settled = _FORCED
                else:
                    won, _ = must_win_lead(hs, d)
                    if won:
                        settled = _FORCED
                if settled < 0:
                    k1, k2 = band_key(hs, ld, d)
                    sl = _slot(k1, k2)
                    if vals[sl] != 0 and keys[0, sl] == k1 and keys[1, sl] == k2:
                        settled = vals[sl] - 1
                if settled < 0:
                    if p != d:
                        first[lv] = band_bottoms(hs[p], hs[d])
                    else:
                        rest = (hs[0] | hs[1] | hs[2] | hs[3]) & ~hs[d]
                        first[lv] = band_bottoms(hs[d], rest)
                    second[lv] = U0
                    order[lv] = _LOW
            elif k < 4:
                s0 = suit_of(tricks[ti, 0])
                h = hs[p]
                follow = h & SUIT_MASK[s0]
                cand = follow if follow != U0 else h
                table = U0
                for j in range(k):
                    table |= bit(tricks[ti, j])
                if p == d:
                    opts = band_bottoms(cand, (hs[0] | hs[1] | hs[2] | hs[3] | table) & ~h)
                    if follow != U0:
                        # the highest card under the trick's top first (a duck that keeps
                        # the low cards), then the others from the lowest
                        topc = U0
                        for j in range(k):
                            c = tricks[ti, j]
                            if suit_of(c) == s0 and bit(c) > topc:
                                topc = bit(c)
                        first[lv] = opts & (topc - U1)
                        second[lv] = opts & ~(topc - U1)
                        order[lv] = _HIGH
                    else:
                        first[lv] = opts  # a discard: the highest ranks first
                        second[lv] = U0
                        order[lv] = _RANK
                else:
                    dtab = hs[d]
                    di = (d - ld) & 3
                    if di < k:
                        dtab |= bit(tricks[ti, di])
                    first[lv] = band_bottoms(cand, dtab)
                    second[lv] = U0
                    # low cards first following suit, high ones first discarding (the low
                    # cards kept are the leads that catch the declarer)
                    order[lv] = _LOW if follow != U0 else _RANK
            else:
                # the trick is complete: the declarer's card highest of the suit led wins
                # it (R20); else the defenders pick its winner in the top card's band
                s0 = suit_of(tricks[ti, 0])
                di = (d - ld) & 3
                cdd = tricks[ti, di]
                top = -1
                for j in range(4):
                    c = tricks[ti, j]
                    if j != di and suit_of(c) == s0 and c > top:
                        top = c
                if suit_of(cdd) == s0 and cdd > top:
                    settled = _FORCED
                else:
                    dt = hs[d] & SUIT_MASK[s0]
                    if suit_of(cdd) == s0:
                        dt |= bit(cdd)
                    above = dt & ~(bit(top) | (bit(top) - U1))
                    roof = (above & (U0 - above)) - U1 if above != U0 else SUIT_MASK[s0]
                    below = dt & (bit(top) - U1)
                    floor = U0
                    if below != U0:
                        hb = U1 << np.uint64(highest_bit_index(below))
                        floor = hb | (hb - U1)
                    wins = U0
                    for j in range(4):
                        c = tricks[ti, j]
                        if j != di and suit_of(c) == s0 and (bit(c) & roof & ~floor) != U0:
                            wins |= U1 << np.uint64((ld + j) & 3)
                    first[lv] = wins
                    second[lv] = U0
                    order[lv] = _LOW
            if settled >= 0:
                res = settled
                lv -= 1
                if lv < 0:
                    return res
                continue
            cut = False
        else:
            # a child's value `res` came back: undo the move tried here; the mover has
            # what it wants when it is the defenders' forcing value or the declarer's made
            if k < 4:
                hs[p] ^= bit(acc[lv])
            cut = (k == 4 or p != d) == (res == _FORCED)
        b = U0
        if not cut:
            # the next option
            if first[lv] != U0:
                if order[lv] == _HIGH:
                    b = U1 << np.uint64(highest_bit_index(first[lv]))
                elif order[lv] == _RANK:
                    b = U1 << np.uint64(highest_rank(first[lv]))
                else:
                    b = first[lv] & (U0 - first[lv])
                first[lv] ^= b
            elif second[lv] != U0:
                b = second[lv] & (U0 - second[lv])
                second[lv] ^= b
            else:
                # every option failed the mover
                res = _MADE if (k == 4 or p != d) else _FORCED
        if b == U0:
            if k == 0:
                _store(hs, ld, d, res, keys, vals)
            lv -= 1
            if lv < 0:
                return res
            continue
        x = trailing_zeros(b)
        acc[lv] = x
        if k < 4:
            hs[p] ^= b
            tricks[ti, k] = x
            lead[lv + 1] = ld
        else:
            lead[lv + 1] = x
        lv += 1
        enter = True


@njit(**NO_REFCOUNT)
def _store(hs, ld, d, res, keys, vals):
    k1, k2 = band_key(hs, ld, d)
    sl = _slot(k1, k2)
    keys[0, sl] = k1
    keys[1, sl] = k2
    vals[sl] = res + 1
