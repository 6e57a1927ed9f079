"""Move generation and ordering for the double-dummy search.

Only one card of each run of equivalent cards is generated (`sequence_bottoms`): the rest
of a run cannot change the result. Moves are then ordered by cheap heuristics so that the
zero-window search meets a cut-off early; ordering never changes a result, only the time.

"Good" for the player to move is a set of seats whose winning the trick helps that player:
when the player maximises, the seats whose tricks count (`winmask`); otherwise the others.
In a numeric contract or a partnership the player's own side is good; in misère (R15) the
declarer wants anyone else to win and the defenders want the declarer to win, so no player
wants to win a trick itself.
"""

import numpy as np

from kernels.bits import highest_bit_index, leading_zeros, popcount, trailing_zeros
from kernels.dd.misere import ducking_gaps, top_of_each_suit
from kernels.dd.state import (
    SUIT_MASK,
    U0,
    U1,
    beats,
    current_winner_trump,
    legal_moves,
    lowest_bit,
    run_above,
    sequence_bottoms,
    suit_of,
)
from kernels.dd.tt import OWNER_BITS, owner_words
from kernels.jit import NO_REFCOUNT, njit


@njit(**NO_REFCOUNT)
def _higher_in_suit(card):
    """Mask of the cards of `card`'s suit ranked above it."""
    s = suit_of(card)
    above = ~((U1 << np.uint64(card + 1)) - U1)  # bits strictly above card
    return above & SUIT_MASK[s]


@njit(**NO_REFCOUNT)
def _tops(hand, led, trump):
    """(follow, ruff): for a hand playing later to a trick led in suit `led`, its highest
    card of that suit (-1 when void), and, void with a trump to ruff with, its highest
    trump (else -1)."""
    follow = hand & SUIT_MASK[led]
    if follow != U0:
        return 63 - leading_zeros(follow), -1
    if trump < 0 or trump == led:
        return -1, -1
    trumps = hand & SUIT_MASK[trump]
    if trumps == U0:
        return -1, -1
    return -1, 63 - leading_zeros(trumps)


@njit(**NO_REFCOUNT)
def _beats(follow, ruff, card, led, trump):
    """Whether a later hand with these `_tops` holds a card beating `card` (R19, R20): a
    higher card of the suit led when it follows (nothing beats a ruff then), or, void, any
    trump over a card not a trump, a higher one over a trump."""
    if follow >= 0:
        return suit_of(card) == led and follow > card
    if ruff >= 0:
        return suit_of(card) != trump or ruff > card
    return False


# Points a lead loses for each card an opponent may choose among in its suit (see
# `opponents_choice`), for the Boston defenders' leads in numeric contracts (bridge
# partnerships' leads are `partnership_leads`); not for misère leads, where it costs many
# times the nodes. Numeric contracts of seed-777 deals 0-11: 0.85 of the nodes.
LEAD_CHOICE_WEIGHT = 16
# A lone declarer's leads (a Boston numeric contract, R10): LONE_CHOICE_WEIGHT points a card
# of the opponents' choice instead, and LONE_ABOVE_WEIGHT points for each opponent's card
# above the lead (each can take a trick from the lead's run; the fewer, the sooner the
# run wins one). Scored by the opponents' choice alone, it led the H9 from KT95 (under AJ
# and Q; the defenders hold 9 hearts) before the CQ from KQ6 (under the ace; 10 clubs)
# where it needs one trick more. Numeric contracts of seed-777 deals 0-39: 0.76 of the
# nodes by the opponents' choice alone (16 and 8 the best of the pairs tried).
LONE_ABOVE_WEIGHT = 16
LONE_CHOICE_WEIGHT = 8
# Partnership leads (`partnership_leads`): the points the table's best lead (FIRST_POINTS)
# and the killer (KILLER_POINTS, the lead that last cut off at the same trick of the
# search) add, by the lead's kind: with trumps in play where the lead's side wins the
# trick, or not; without trumps in play, likewise (`_TRUMP_WIN` .. `_NT_LOSE`). DDS's
# values (its Moves.cpp), the table's lead always first (400 points).
_TRUMP_WIN = 0
_TRUMP_LOSE = 1
_NT_WIN = 2
_NT_LOSE = 3
FIRST_POINTS = (18, 0, 32, 19)
KILLER_POINTS = (55, 18, 126, 47)
# The killer in a numeric contract (R10: the lone declarer's and the defenders' leads) and
# at a misère defender's lead (R15: the lead that last forced the declarer):
# KILLER_BOSTON points, the table's best lead still first (400). 120 the best of 20 to 300
# points (numeric jobs of seed-777 deals 0-39: 0.919 of the time with it; misère of
# seed-777 deals 0-199: 0.944 of the nodes).
KILLER_BOSTON = 120


@njit(inline="always", **NO_REFCOUNT)  # inlined into order_moves (see there)
def partnership_leads(hands, p, cand, gone, trump, first, killer, left, moves, scores):
    """Write the leads `cand` of p into `moves` and their weights into `scores`, where p's
    side is p and its partner (bridge partnerships, R20); return the count.

    The weights follow DDS's lead ordering (Moves.cpp, WeightAllocTrump0 and NT0), written
    here on our masks: per suit, fewer cards for the opponents to choose among (a void one
    counts the tricks left + 1, as in `opponents_choice`) and who holds the suit's three top
    cards in play (a lead through the left-hand opponent's top card to the partner's next
    two, a lead that wins for the side or sets up its next round, the right-hand opponent's
    high cards avoided); with trumps in play, who can ruff (the partner: encouraged; an
    opponent: not) and whether the lead's side wins the trick; per card, its run's top card
    and relative rank (1 the highest card in play). `first` (the table's best lead) and
    `killer` (the lead that last cut off at this trick of the search) add FIRST_POINTS and
    KILLER_POINTS. `gone` holds the cards out of play, `left` is the tricks left.

    Against the numeric contracts' lead order (`LEAD_CHOICE_WEIGHT`), bridge 0.692 of the
    time.

    The seats of each suit's three highest cards come from the owner words of the
    table's key (kernels.dd.tt.owner_words, one gather per suit) rather than a search of
    the hands for each card (bridge 0.989 of the time).
    """
    lho = (p + 1) & 3
    part = (p + 2) & 3
    rho = (p + 3) & 3
    allc = hands[0] | hands[1] | hands[2] | hands[3]
    tm = SUIT_MASK[trump] if trump >= 0 else U0
    ftest = trump >= 0 and (allc & tm) != U0
    trL = popcount(hands[p] & tm)
    trLH = popcount(hands[lho] & tm)
    trRH = popcount(hands[rho] & tm)
    trP = popcount(hands[part] & tm)
    tLH = highest_bit_index(hands[lho] & tm)
    tRH = highest_bit_index(hands[rho] & tm)
    tP = highest_bit_index(hands[part] & tm)
    o01, o23 = owner_words(hands)  # each suit's owners, highest card first (kernels.dd.tt)
    n = 0
    for s in range(4):
        sm = SUIT_MASK[s]
        mine = cand & sm
        if mine == U0:
            continue
        alls = allc & sm
        w1 = highest_bit_index(alls)
        w2 = highest_bit_index(alls ^ (U1 << np.uint64(w1)))
        # the seats of the suit's three highest cards in play (-1: fewer cards)
        ow = (o01 if s < 2 else o23) >> (OWNER_BITS * np.uint64(s & 1))
        in_play = popcount(alls)
        wH = np.int64(ow & np.uint64(3))
        sH = np.int64((ow >> np.uint64(2)) & np.uint64(3)) if in_play >= 2 else -1
        tH = np.int64((ow >> np.uint64(4)) & np.uint64(3)) if in_play >= 3 else -1
        lenL = popcount(hands[p] & sm)
        lenLH = popcount(hands[lho] & sm)
        lenRH = popcount(hands[rho] & sm)
        lenP = popcount(hands[part] & sm)
        partner_wins = highest_bit_index(hands[part] & sm) > highest_bit_index(
            (hands[lho] | hands[rho]) & sm)
        countLH = (left + 1 if lenLH == 0 else lenLH) << 2
        countRH = (left + 1 if lenRH == 0 else lenRH) << 2
        if ftest:
            d = -(((countLH + countRH) << 5) // 13)
            if s != trump and ((lenLH == 0 and trLH > 0) or (lenRH == 0 and trRH > 0)):
                d -= 12
            if s != trump and lenP == 0 and trP > 0 and lenRH > 0:
                d += 17
            if wH == rho or sH == rho:
                if lenRH != 1:
                    d -= 12
            elif wH == lho and sH == part:
                if lenP != 1:
                    d += 27
            if s != trump and lenL == 1 and trL > 0 and lenP > 1 and wH == part:
                d += 19
            # whether the suit's lead wins (not counting the winner card itself)
            side_win = False
            if partner_wins:
                side_win = s == trump or ((lenLH != 0 or trLH == 0) and (lenRH != 0 or trRH == 0))
            elif s != trump and lenP == 0 and trP != 0:
                if lenLH == 0 and trLH != 0 and lenRH == 0 and trRH != 0:
                    side_win = tP > max(tLH, tRH)
                elif lenLH == 0 and trLH != 0:
                    side_win = tP > tLH
                elif lenRH == 0 and trRH != 0:
                    side_win = tP > tRH
                else:
                    side_win = True
            # and whether the lead of its top card (held by p) wins
            if s == trump:
                top_win = True
            elif lenP != 0 or trP == 0:
                top_win = (lenLH != 0 or trLH == 0) and (lenRH != 0 or trRH == 0)
            else:
                top_win = (lenLH != 0 or tP > tLH) and (lenRH != 0 or tP > tRH)
            dl = d
            if sH == part and tH == part:
                dl += 20
            elif lenP > 1 and ((sH == p and tH == part) or (sH == part and tH == p)):
                dl += 13
        else:
            d = -(((countLH + countRH) << 5) // 19)
            if lenP == 0:
                d -= 9
            dw = d
            if sH == rho:
                if lenRH != 1:
                    dw -= 1
            elif sH == lho:
                dw += 22 if lenLH != 1 else 16
            dl = d
            if wH == rho or sH == rho:
                if lenRH != 1:
                    dl -= 10
            elif wH == lho and sH == part:
                if lenP != 1:
                    dl += 31
            if sH == part and tH == part:
                dl += 35
            elif lenP > 1 and ((sH == p and tH == part) or (sH == part and tH == p)):
                dl += 25
        single_top = (lenLH == 1 and wH == lho) or (lenRH == 1 and wH == rho)
        while mine:
            c = trailing_zeros(mine)
            mine &= mine - U1
            # c's run (c is its lowest card): its top card
            run = run_above(hands[p], c, gone) | (U1 << np.uint64(c))
            top = highest_bit_index(run)
            seq = (run & (run - U1)) != U0
            rrank = popcount(alls & ~((U1 << np.uint64(top)) - U1))  # 1: the top card in play
            is_first = first >= 0 and (run & (U1 << np.uint64(first))) != U0
            is_killer = killer >= 0 and (run & (U1 << np.uint64(killer))) != U0
            if ftest:
                win = top_win if top == w1 else side_win
                if win:
                    if single_top:
                        w = d + 35 + rrank
                    elif wH == p:
                        if sH == part:
                            w = d + 48 + rrank
                        elif top == w1:
                            w = d + 31
                        else:
                            w = d - 3 + rrank
                    elif wH == part:
                        w = d + (42 if sH == p else 28) + rrank
                    elif seq and top == w2:
                        w = d + 40
                    elif seq:
                        w = d + 22 + rrank
                    else:
                        w = d + 11 + rrank
                    kind = _TRUMP_WIN
                else:
                    if single_top:
                        w = dl + rrank + 2
                    elif wH == p:
                        if sH == part:
                            w = dl + 33 + rrank
                        elif top == w1:
                            w = dl + 38
                        else:
                            w = dl - 14 + rrank
                    elif wH == part:
                        w = dl + 34 + rrank
                    elif seq and top == w2:
                        w = dl + 35
                    else:
                        w = dl + 17 - (top % 13 + 2)
                    kind = _TRUMP_LOSE
            elif top == w1 or partner_wins:
                if (sH != lho or lenLH == 1) and (sH != rho or lenRH == 1):
                    w = dw + 45 + rrank
                else:
                    w = dw + 18 + rrank
                kind = _NT_WIN
            else:
                if single_top:
                    w = dl + 28 + rrank
                elif wH == p:
                    w = dl - 17 + rrank
                elif not seq:
                    w = dl + 12 + rrank
                elif top == w2:
                    w = dl + 48
                else:
                    w = dl + 29 - rrank
                kind = _NT_LOSE
            if is_killer:
                w += KILLER_POINTS[kind]
            elif is_first:
                w += FIRST_POINTS[kind]
            moves[n] = c
            scores[n] = w
            n += 1
    return n


@njit(**NO_REFCOUNT)
def _rel_rank(alls, c):
    """Card c's relative rank among `alls` (the cards of its suit in play): 1 for the
    highest."""
    return popcount(alls & ~((U1 << np.uint64(c)) - U1))


@njit(inline="always", **NO_REFCOUNT)
def _second_hand_under(c, r2, hand, gone, lead_c, min3, minpd, alls_led, no_trump):
    """DDS's weight of a partnership's second-hand card that does not win the trick
    (`order_moves`), in no trump or with a trump suit: below the third hand's or the
    partner's cards, below the card led, splitting a sequence, or another (`r2`: c's rank
    as DDS counts, 2..14)."""
    if c < min3 or c < minpd:
        return (-3 if no_trump else -9) + _rel_rank(alls_led, c)
    if c < lead_c:
        return (-11 if no_trump else -16) + _rel_rank(alls_led, c)
    if run_above(hand, c, gone) != U0:
        return 10 + _rel_rank(alls_led, c) if no_trump else 22 - r2
    return (13 if no_trump else 10) - r2


@njit(**NO_REFCOUNT)
def _second_best_is(hands, extra, s, q):
    """Whether seat q holds the second-highest card in play of suit s, `extra` (cards
    of the trick in progress held by q a moment ago) counted as q's."""
    alls = (hands[0] | hands[1] | hands[2] | hands[3] | extra) & SUIT_MASK[s]
    top = highest_bit_index(alls)
    if top < 0:
        return False
    sb = highest_bit_index(alls ^ (U1 << np.uint64(top)))
    return sb >= 0 and ((hands[q] | extra) >> np.uint64(sb)) & U1 == U1


@njit(inline="always", **NO_REFCOUNT)
def _void_weight(hands, trick, nplayed, leader, p, c, trump, wi, wcard, good_now):
    """The weight of card c of seat p, a partnership's follower void in the suit led with a
    trump suit in play, as DDS weighs it (Moves.cpp, WeightAllocTrumpVoid1, 2 and 3):
    discards from long suits, not from a doubleton holding the suit's second-best card
    (its "Kx"), the partner's winner not ruffed, ruffs above the opponents'. DDS's ranks
    are 2..14, its relative ranks 1 for the highest card in play."""
    led = suit_of(trick[0])
    s = suit_of(c)
    hand = hands[p]
    tm = SUIT_MASK[trump]
    r2 = c - 13 * s + 2
    n = popcount(hand & SUIT_MASK[s])
    kx = n == 2 and _second_best_is(hands, U0, s, p)
    if nplayed == 1:
        p3 = (p + 1) & 3
        pp = (p + 2) & 3
        led_p = hands[pp] & SUIT_MASK[led]
        led_3 = hands[p3] & SUIT_MASK[led]
        tr_p = hands[pp] & tm
        tr_3 = hands[p3] & tm
        lead_bit = U1 << np.uint64(trick[0])
        pwins = led_p > (led_3 | lead_bit)
        if led == trump or s != trump:
            if led == trump:
                good_spot = pwins
            elif led_3 != U0:
                good_spot = pwins or (led_p == U0 and tr_p != U0)
            elif led_p == U0 and tr_p > tr_3:
                good_spot = True
            else:
                good_spot = tr_3 == U0 and led_p > lead_bit
            if good_spot:
                add = (60 if led != trump else 0) + (n << 6) // 44
            else:
                add = (-2 if led != trump else 0) + (n << 6) // 36 - (4 if kx else 0)
            return add - r2
        if led_3 != U0 or (led_p == U0 and tr_p != U0 and tr_p > tr_3):
            return 24 - r2 + (n << 6) // 44
        if c > highest_bit_index(tr_3):
            return 24 - r2 + (n << 6) // 44
        return 15 - r2 + (n << 6) // 36 - (4 if kx else 0)
    if nplayed == 2:
        q4 = (p + 1) & 3
        max4 = highest_bit_index(hands[q4] & SUIT_MASK[led])
        tr_4 = hands[q4] & tm
        if led == trump or s != trump:
            return -r2 + (n << 6) // 40
        if wi == 0 and trick[0] > max4 and (max4 >= 0 or tr_4 == U0):
            return -r2 - 50  # the partner's sure winner: no overruff
        add = (n << 6) // 50
        if suit_of(trick[1]) == trump and c < trick[1]:
            rr = _rel_rank((hands[0] | hands[1] | hands[2] | hands[3]) & tm, c)
            return -32 + rr + (n << 6) // 40  # no underruff
        if wi == 0:
            if max4 >= 0:
                lead_bit = U1 << np.uint64(trick[0])
                kq = _second_best_is(hands, lead_bit, led, leader)
                return (36 if kq else 48) - r2 + add
            return (48 if c > highest_bit_index(tr_4) else -12) - r2 + add
        if max4 >= 0:
            return 72 - r2 + add
        return (48 if c > highest_bit_index(tr_4) else 36) - r2 + add
    val = (n << 6) // 24 - (2 if kx else 0)
    if led == trump:
        return -r2 + val
    if good_now == 1:
        return (2 if s == trump else 25) - r2 + val
    if s == trump:
        rr = _rel_rank((hands[0] | hands[1] | hands[2] | hands[3]) & tm, c)
        if suit_of(wcard) == trump and c < wcard:
            return -13 + rr
        return 33 + rr
    return 14 - r2 + val


@njit(**NO_REFCOUNT)
def opponents_choice(hands, p, good, s, left):
    """How many cards the opponents of seat p (the seats not in `good`) choose among when p
    leads suit s: each one's cards of the suit, or, void, `left` + 1 (it may discard or ruff
    with anything). A lead's subtree is smaller when this is small: where p's side succeeds,
    the opponents' replies are the moves that must all be searched (DDS orders its leads
    the same way)."""
    n = 0
    for q in range(4):
        if q != p and ((good >> q) & 1) == 0:
            k = popcount(hands[q] & SUIT_MASK[s])
            n += k if k > 0 else left + 1
    return n


@njit(inline="always", **NO_REFCOUNT)
def _follow_facts(c, wcard, trump):
    """(suit, rank within it, whether it beats the trick's winning card `wcard`, R20) of a
    follower's card c."""
    s = suit_of(c)
    return s, c - 13 * s, beats(c, wcard, trump)


@njit(inline="always", **NO_REFCOUNT)
def _put(moves, scores, n, c, sc, first):
    """Write card c with weight sc (400 more when it is `first`) as the n-th candidate;
    return n + 1."""
    if c == first:
        sc += 400
    moves[n] = c
    scores[n] = sc
    return n + 1


@njit(inline="always", **NO_REFCOUNT)
def _lead_moves(hands, p, cand, gone, trump, good, self_good, others, first, killer, moves,
                scores):
    """`order_moves` for a lead other than a partnership's (a Boston declarer or its
    defenders, R10; misère, R15, R21): the weights of the leads `cand` of p into `moves`
    and `scores`, unsorted; return the count."""
    hand = hands[p]
    opp_cards = U0
    partner_cards = U0
    for q in range(4):
        if q != p:
            if ((good >> q) & 1) == 1:
                partner_cards |= hands[q]
            else:
                opp_cards |= hands[q]
    left = popcount(hand)
    lone_good = self_good == 1 and (good & (good - 1)) == 0
    choice_weight = LONE_CHOICE_WEIGHT if lone_good else LEAD_CHOICE_WEIGHT
    pen_suit = -1
    pen = 0
    n = 0
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        s = suit_of(c)
        rank = c - 13 * s
        higher = _higher_in_suit(c)
        if self_good == 1:
            if s != pen_suit:
                pen_suit = s
                pen = choice_weight * opponents_choice(hands, p, good, s, left)
            ruffable = False
            if trump >= 0 and s != trump:
                for q in range(4):
                    if ((good >> q) & 1) == 0 and q != p and (hands[q] & SUIT_MASK[s]) == U0 \
                            and (hands[q] & SUIT_MASK[trump]) != U0:
                        ruffable = True
            if (others & higher) == U0:
                sc = 90 + rank  # a winner: cash it
                if ruffable:
                    sc = 35
            elif (opp_cards & SUIT_MASK[s]) != U0 and (partner_cards & higher) != U0 and (
                (partner_cards & higher) > (opp_cards & SUIT_MASK[s])
            ):
                sc = 70 - rank  # low towards a partner's winner
                if ruffable:
                    sc = 30 - rank
            elif (hand & lowest_bit((others | hand) & higher)) != U0:
                sc = 50 + rank  # from a sequence: the card above is ours too
            else:
                sc = 30 - rank
                if ruffable:
                    sc -= 15
            if lone_good:
                sc -= LONE_ABOVE_WEIGHT * popcount(opp_cards & higher)
            sc -= pen
        else:
            # misère (R15, R21): lead low; a defender prefers suits the declarer must
            # follow, above all those where the declarer's lowest card is high (it has
            # the fewest cards to duck with there): 12 a rank of that card (the
            # slowest misères of seed-777 deals 0-39: 0.35 of the nodes)
            sc = 40 - rank
            for q in range(4):
                if ((good >> q) & 1) == 1 and q != p and (hands[q] & SUIT_MASK[s]) != U0:
                    sc += 20
                    if (good & (good - 1)) == 0:  # q is the misère declarer
                        sc += 12 * (trailing_zeros(hands[q] & SUIT_MASK[s]) - 13 * s)
                    break
        # (good one seat and p not in it: a misère defender, whose good is the declarer)
        if (self_good == 1 or (good & (good - 1)) == 0) and killer >= 0 and (
                (run_above(hand, c, gone) | (U1 << np.uint64(c))) >> np.uint64(killer)) & U1:
            sc += KILLER_BOSTON
        n = _put(moves, scores, n, c, sc, first)
    return n


@njit(inline="always", **NO_REFCOUNT)
def _third_hand_moves(hands, hand, q4, cand, led, gone, wcard, wsuit, good_now, first, moves,
                      scores):
    """`order_moves` for the third hand following suit where the fourth hand `q4` is an
    opponent, as DDS weighs it (Moves.cpp, WeightAllocTrumpNotvoid2 and NTNotvoid2,
    written again for any sides): all low when the trick is ruffed, when the side's card
    already beats the fourth hand's, or when the hand's cards are below the trick's winner
    or the fourth hand's lowest card; else the cards above `win_line` (they win the
    trick) first, cheapest first, then `force`, the cheapest card above the fourth hand's
    next card below its top run where that is above the trick's winner (it makes the
    fourth hand spend its top card), or, the opponents winning, above their card (as DDS
    does); then the rest from the lowest up (against every card above the trick's winner
    first, cheapest first: bridge 0.978 of the nodes). Unsorted; returns the count."""
    win_line = 99
    force = -1
    f4 = hands[q4] & SUIT_MASK[led]
    mine = hand & SUIT_MASK[led]
    my_top = highest_bit_index(mine)
    m4 = highest_bit_index(f4)
    min4 = trailing_zeros(f4) if f4 != U0 else -1
    if not (wsuit != led or (good_now == 1 and wcard > m4) or my_top < min4
            or my_top < wcard):
        if my_top > m4:
            win_line = max(m4, wcard)
        else:
            # the fourth hand's top run (through cards gone) and its next card:
            # below the highest card under its top that it does not hold and is
            # not gone (the cards of lower suits count as such)
            gap = highest_bit_index(((U1 << np.uint64(m4)) - U1) & ~(f4 | gone))
            next4 = -1 if gap < 0 else highest_bit_index(
                f4 & ((U1 << np.uint64(gap)) - U1))
            line = next4 if next4 > wcard else (wcard if good_now == 0 else -2)
            if line >= -1:
                above = mine & ~((U1 << np.uint64(line + 1)) - U1)
                if above != U0:
                    force = trailing_zeros(above)
    led_base = 13 * led  # the third hand's cards are of the suit led
    n = 0
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        rank = c - led_base
        if c > win_line:
            sc = 100 - rank
        elif c == force:
            sc = 50 - rank
        else:
            sc = 30 - rank
        n = _put(moves, scores, n, c, sc, first)
    return n


@njit(inline="always", **NO_REFCOUNT)
def _second_hand_moves(hands, hand, p, leader, cand, led, lead_c, trump, gone, others, first,
                       moves, scores):
    """`order_moves` for a partnership's second hand following suit, as DDS weighs it
    (Moves.cpp, WeightAllocNTNotvoid1 and TrumpNotvoid1; DDS's ranks are 2..14, `r2`, its
    relative ranks 1 for the highest card in play): in no trump all low when the partner,
    last, beats the card led and the third hand's cards, else a card beating both first,
    then a split of a sequence, then the cards below; with a trump suit, by whether the
    side can win the trick (the third hand's ruff and the partner's considered),
    covering, ducking or splitting as DDS scores them (against a card no opponent can
    beat first, then low when a partner still to play can win, else the cheapest card
    above the trick's winner: bridge 0.944 of the nodes). Unsorted; returns the count."""
    leader_over = False
    third_stops = False
    t3 = U0
    tp = U0
    f3 = hands[(p + 1) & 3] & SUIT_MASK[led]
    fp = hands[(p + 2) & 3] & SUIT_MASK[led]
    max3 = highest_bit_index(f3)
    min3 = trailing_zeros(f3) if f3 != U0 else -1
    maxpd = highest_bit_index(fp)
    minpd = trailing_zeros(fp) if fp != U0 else -1
    all_low2 = maxpd > lead_c and maxpd > max3
    alls_led = (others | hand) & SUIT_MASK[led]
    if trump >= 0:
        t3 = hands[(p + 1) & 3] & SUIT_MASK[trump]
        tp = hands[(p + 2) & 3] & SUIT_MASK[trump]
        third_stops = max3 >= 0 or t3 == U0  # the third hand cannot ruff
        leader_over = (hands[leader] & SUIT_MASK[led]) > fp
    led_base = 13 * led  # the second hand's cards are of the suit led
    n = 0
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        rank = c - led_base
        r2 = rank + 2  # DDS's rank
        if trump < 0:
            if all_low2:
                sc = -r2
            elif c > lead_c and c > max3:
                sc = 81 - r2
            else:
                sc = _second_hand_under(c, r2, hand, gone, lead_c, min3, minpd,
                                        alls_led, True)
        else:
            if led == trump:
                win = all_low2 or (c > lead_c and c > max3)
            elif c > lead_c and c > max3:
                win = third_stops or (maxpd < 0 and tp > t3)
            elif all_low2:
                win = third_stops
            elif lead_c > maxpd and lead_c > max3 and lead_c > c:
                win = maxpd < 0 and tp != U0 and (third_stops or tp > t3)
            else:
                win = maxpd < 0 and tp != U0
            if win:
                if min3 > c:
                    sc = 40 + _rel_rank(alls_led, c)
                elif maxpd > lead_c and leader_over:
                    sc = 41 + _rel_rank(alls_led, c)
                elif c > lead_c:
                    if c < maxpd:
                        sc = 78 - r2
                    elif c > max3:
                        sc = 73 - r2
                    elif run_above(hand, c, gone) != U0:
                        sc = 62 - r2
                    else:
                        sc = 49 - r2
                elif maxpd >= 0:
                    sc = 47 - r2
                else:
                    sc = 40 - r2
            else:
                sc = _second_hand_under(c, r2, hand, gone, lead_c, min3, minpd,
                                        alls_led, False)
        n = _put(moves, scores, n, c, sc, first)
    return n


@njit(inline="always", **NO_REFCOUNT)
def _own_follow_moves(hands, hand, p, nplayed, leader, cand, led, trump, good, wcard,
                      good_now, others, first, moves, scores):
    """`order_moves` for a follower of the side that wants the tricks, other than the
    third and second hands and the void partnership follower weighed as DDS weighs them:
    win cheaply where the trick is not the side's already, else duck. Unsorted; returns
    the count."""
    # does the card now winning survive the players still to come, and can a partner
    # still to play beat it? And the opponents still to play: the highest card of the
    # suit led among those who follow, and the highest trump among those who can ruff
    # (-1: none), against which a card of p is checked below
    winner_holds = True
    partner_later = False
    opp_follow_top = -1
    opp_ruff_top = -1
    for j in range(nplayed + 1, 4):
        q = (leader + j) & 3
        follow, ruff = _tops(hands[q], led, trump)
        if _beats(follow, ruff, wcard, led, trump):
            if ((good >> q) & 1) != good_now:
                winner_holds = False
            if (good >> q) & 1:
                partner_later = True
        if ((good >> q) & 1) == 0:
            opp_follow_top = max(opp_follow_top, follow)
            opp_ruff_top = max(opp_ruff_top, ruff)
    n = 0
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        s, rank, over = _follow_facts(c, wcard, trump)
        if over:
            # no opponent still to play beats c: a follower with a higher card of
            # the suit led (c of that suit), or a ruffer (c not a trump, or below
            # its highest trump)
            if s == led:
                holds = c > opp_follow_top and opp_ruff_top < 0
            else:  # c ruffs: only a higher trump of a void opponent beats it
                holds = c > opp_ruff_top
            if good_now == 1 and winner_holds:
                sc = 5 - rank  # no need to overtake a sure winner
            elif holds:
                sc = 100 - rank  # the cheapest sure winner
            else:
                sc = 50 - rank
            if s != led:
                sc -= 3  # a ruff costs a trump
        else:
            if good_now == 1:
                sc = (90 if winner_holds else 40) - rank
            elif partner_later:
                sc = 60 - rank  # second hand low: a partner still to play can win
            else:
                sc = 30 - rank
            if s != led and (others & SUIT_MASK[s] & _higher_in_suit(c)) == U0:
                sc -= 20  # do not throw a winner
            if s != led and trump < 0:
                # no trump: discard from the longest suit first (DDS's NT
                # discards weigh suit length too), and from a suit the seat
                # opposite is short in when it is on the same side (a bridge
                # partner, a fellow defender), 8 points for each of its cards
                # (the no-trump bridge jobs: 0.83 of the boundary nodes)
                sc += 10 * popcount(hand & SUIT_MASK[s])
                if (good >> ((p + 2) & 3)) & 1:
                    sc -= 8 * popcount(hands[(p + 2) & 3] & SUIT_MASK[s])
        n = _put(moves, scores, n, c, sc, first)
    return n


@njit(inline="always", **NO_REFCOUNT)
def _other_follow_moves(hands, p, nplayed, cand, led, trump, winmask, wcard, good_now, first,
                        moves, scores):
    """`order_moves` for a follower of the side that wants to lose the trick (a Boston
    declarer's defenders, or misère's declarer): stay under and shed a high card.
    Unsorted; returns the count. `hands` is changed during the call and restored."""
    n = 0
    while cand:
        c = trailing_zeros(cand)
        cand &= cand - U1
        s, rank, over = _follow_facts(c, wcard, trump)
        if over:
            sc = 10 - rank
        elif s != led or good_now == 1 or nplayed == 3:
            # stay under and shed a high card; a discard sheds one too (the low
            # cards are what later leads or follows go under with)
            sc = 50 + rank
            if s != led and ((winmask >> p) & 1) == 1:
                # the misère declarer's discard: 20 points a place it leaves the
                # declarer short of ducking every trick (kernels.dd.misere.
                # ducking_gaps; misère of seed-777 deals 0-199: 0.69 of the
                # time, 10 or 40 points a place slower)
                hands[p] ^= U1 << np.uint64(c)
                sc -= 20 * ducking_gaps(hands, p)
                hands[p] ^= U1 << np.uint64(c)
        else:
            sc = 50 - rank
        n = _put(moves, scores, n, c, sc, first)
    return n


@njit(inline="always", **NO_REFCOUNT)
def _sort_moves(moves, scores, n):
    """Insertion sort of the first n moves, best score first (n <= 13)."""
    for i in range(1, n):
        m = moves[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc


# Inlined into its one caller, the search's loop (numba's `inline="always"`, at numba's IR
# level), with its pieces and `partnership_leads`: as a call, each array argument goes
# over as seven words, those past the sixth argument on the stack (perf put 12% of
# `_search`'s samples on those pushes). Both inlined: bridge 0.904 of the time.
@njit(inline="always", **NO_REFCOUNT)
def order_moves(hands, trick, nplayed, leader, gone, trump, maxmask, winmask, first, moves,
                scores, killer=-1, wi=-1):
    """Write the candidate cards of the player to move into `moves`, best first; return count.

    `first` (the table's best lead, or -1, possibly a card of the same run as a candidate) is
    tried first, except in a partnership's lead (bridge, `partnership_leads`), where it
    adds points to its weight. `killer` (the lead that last cut off at the same trick of
    the search, or -1) adds points to a lead's weight where the player's side wants the
    tricks (KILLER_POINTS for partnerships, KILLER_BOSTON in numeric contracts), and at a
    misère defender's lead (KILLER_BOSTON), not at the misère declarer's.
    Only a weight: the card that last cut off at the same depth belongs to an unrelated
    position as often as not, and on full deals trying it first of all cost about five
    times the search time (BENCHMARKS.md). Followers have
    no killer. `wi`, for a follower, is the index in `trick` of the card now winning it
    when the caller keeps it (kernels.dd.search), else -1: worked out here.

    One piece per kind of player (the kind is fixed for the call), so that each loop has
    fewer values to keep live than one loop testing the kind at every card, and only the
    other side's loop (misère's declarer) holds the call that changes `hands` (against one
    loop: bridge 0.951 of the time, the median job 0.944).
    """
    p = (leader + nplayed) & 3
    hand = hands[p]
    cand = sequence_bottoms(legal_moves(hand, trick, nplayed), gone)
    if nplayed > 0 and winmask == (1 << p) and maxmask == 15 ^ winmask and trump < 0 and (
            hand & SUIT_MASK[suit_of(trick[0])]) == U0:
        # the misère declarer void in the suit led: its highest card of each suit alone
        # (kernels.dd.misere.top_of_each_suit; a subset of cand, and `&=` keeps its type)
        cand &= top_of_each_suit(cand)
    if (cand & (cand - U1)) == U0:
        # one run of equivalent cards (a singleton, or a sequence): nothing to order
        moves[0] = trailing_zeros(cand)
        scores[0] = 0
        return 1
    if (maxmask >> p) & 1:
        good = winmask
    else:
        good = (~winmask) & 15
    self_good = (good >> p) & 1
    partnership = good == ((1 << p) | (1 << ((p + 2) & 3)))  # p and its partner (bridge)
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    if nplayed == 0 and self_good == 1 and partnership:
        # a partnership's lead (bridge): DDS's weights
        n = partnership_leads(hands, p, cand, gone, trump, first, killer, popcount(hand), moves,
                              scores)
    elif nplayed == 0:
        n = _lead_moves(hands, p, cand, gone, trump, good, self_good, others, first, killer,
                        moves, scores)
    else:
        led = suit_of(trick[0])
        if wi < 0:
            wi = current_winner_trump(trick, nplayed, trump)
        wseat = (leader + wi) & 3
        wcard = trick[wi]
        good_now = (good >> wseat) & 1
        # the third hand (the fourth an opponent) and a partnership's second hand, when
        # they follow suit, and a partnership's follower void in the suit led with a trump
        # suit (`_void_weight`; bridge 0.962 of the nodes) are weighed as DDS weighs them
        q4 = (leader + 3) & 3
        follows = (hand & SUIT_MASK[led]) != U0
        if nplayed == 2 and self_good == 1 and ((good >> q4) & 1) == 0 and follows:
            n = _third_hand_moves(hands, hand, q4, cand, led, gone, wcard, suit_of(wcard),
                                  good_now, first, moves, scores)
        elif nplayed == 1 and self_good == 1 and follows and partnership:
            n = _second_hand_moves(hands, hand, p, leader, cand, led, trick[0], trump, gone,
                                   others, first, moves, scores)
        elif (not follows) and trump >= 0 and self_good == 1 and partnership:
            n = 0
            while cand:
                c = trailing_zeros(cand)
                cand &= cand - U1
                sc = _void_weight(hands, trick, nplayed, leader, p, c, trump, wi, wcard,
                                  good_now)
                n = _put(moves, scores, n, c, sc, first)
        elif self_good == 1:
            n = _own_follow_moves(hands, hand, p, nplayed, leader, cand, led, trump, good,
                                  wcard, good_now, others, first, moves, scores)
        else:
            n = _other_follow_moves(hands, p, nplayed, cand, led, trump, winmask, wcard,
                                    good_now, first, moves, scores)
    _sort_moves(moves, scores, n)
    return n
