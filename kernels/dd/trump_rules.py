"""Trump rules for the quick bounds (kernels.dd.sure_tricks.quick_bounds).

Whoever leads, a hand's top trumps (those above every other trump still in play) are sure
tricks: every card is played some time, and the highest trump left wins the trick it is
played to (R20), so each of them wins one trick (`top_trumps`). Only one hand's top run
counts for a side (two partners' top trumps may fall on the same trick); the two highest
trumps in two hands of one side, not both singletons, take two tricks (`top_two_split`).

A seat's trumps take at least their count less the largest matching of opposing trumps
to lower ones (`trump_length_tricks`, `unbeaten_trumps`). A maximising seat's highest
trump, with every higher trump held by its right-hand opponent and enough lower trumps to
play under them, takes a trick while the other side leads (`guarded_behind`); a lone
declarer's trumps take a trick while the defenders lead when it wins the trump game
played by its trumps against the right-hand opponent's (played before it) and the
others' (covering after it): one line of play in closed form (`trump_challenge`). How
many tricks a lone declarer's trumps take, the whole trump game searched within a
budget, is kernels.dd.trump_game, asked by the search itself.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount
from kernels.dd.state import SUIT_MASK, U0, U1, others_of, outside, top_run
from kernels.jit import NO_REFCOUNT, njit


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
