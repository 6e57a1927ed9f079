"""Misère rules (R15, R21: no trump; the declarer must lose every trick).

The declarer on lead must take the trick when each of its suits' lowest card is above
every other card of that suit (`must_win_lead`). Conversely a declarer holding, in every
suit, only cards below all the others' cards of that suit never wins a trick it does not
lead (whoever follows suit beats it; a discard never wins), and it leads only once, to
the first trick, where it can lose by leading a suit someone else still holds: the
property survives every trick, so such a declarer takes nothing (`holds_bottom_cards`,
`can_lead_loser`). With a defender on lead, less is enough: in each suit the declarer's
i-th lowest card below the defenders' i-th lowest, for as many rounds as the suit can
still be led (`ducks_every_suit`; `ducking_gaps` counts how far a hand is from it, to
order little misère's discards). And the defenders on lead may force the declarer's
trick by leading one suit on and on (`misere_suit_game`, searched within a budget and
asked by the search itself through `misere_force`). A declarer void in the suit led need
try only its highest card of each suit (`top_of_each_suit`).
"""

import numpy as np

from kernels.bits import highest_bit_index, leading_zeros, popcount
from kernels.dd.state import SUIT_MASK, U0, U1, others_of, split_bottoms
from kernels.jit import NO_REFCOUNT, njit

MISERE_BUDGET = 256  # nodes of `misere_suit_game` per suit and trick boundary at most


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
    from every hand holding the suit, R19, and only a defender can lead it).

    The comparison rests on the suit lengths, on which side holds each card, and on
    nothing else: which defender holds a card does not matter. So in each suit held by
    both sides the relevance (kernels.dd.tt: the owners from the top down to it are
    fixed, only the counts below it) is the higher of the two sides' lowest cards: when
    the declarer holds the suit's lowest cards, the defenders' lowest (below it lie only
    the declarer's cards, as many as its length leaves), else the declarer's lowest
    (below it only defenders' cards, whoever holds them): every position of that class
    has the same two sides' cards in the same order.

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
    side's holding, clears more declarers (misère about 20% faster). It extends
    `holds_bottom_cards`.
    """
    others = others_of(hands, d)
    rel = U0
    for s in range(4):
        mine = hands[d] & SUIT_MASK[s]
        theirs = others & SUIT_MASK[s]
        if mine == U0 or theirs == U0:
            continue
        rel |= max(mine & (U0 - mine), theirs & (U0 - theirs))
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
    this order, fewest first (kernels.dd.search.solve_little_misere): a heuristic only."""
    others = others_of(hands, d)
    gaps = 0
    for s in range(4):
        gaps += _suit_gaps(hands, d, s, others & SUIT_MASK[s], False)
    return gaps


@njit(**NO_REFCOUNT)
def top_of_each_suit(cand):
    """The highest card of each suit in `cand`: the misère declarer's discards worth
    trying (R15, R21, no trump), from the candidates of a declarer void in the suit led.

    Discarding a suit's highest card is never worse for the declarer than discarding a
    lower one of that suit: keeping the lower card, it plays it wherever it would have
    played the higher one (same suit, so the same plays are legal, R19), and every card
    that beat the higher one beats the lower one too (no trump, R20), so every trick it
    would have lost it still loses, to the same hand, and play goes on alike. `cand`
    holds one card per run of equivalent cards, so its highest card of a suit stands for
    the suit's top run."""
    out = U0
    for s in range(4):
        x = cand & SUIT_MASK[s]
        if x != U0:
            out |= U1 << np.uint64(highest_bit_index(x))
    return out


@njit(**NO_REFCOUNT)
def can_lead_loser(hands, p):
    """Whether `p` holds a card of a suit someone else still holds."""
    others = others_of(hands, p)
    for s in range(4):
        if (hands[p] & SUIT_MASK[s]) != U0 and (others & SUIT_MASK[s]) != U0:
            return True
    return False
