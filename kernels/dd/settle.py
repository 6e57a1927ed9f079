"""Settles inside a trick: whether a side is sure to win the trick in progress.

`side_takes_trick` answers for any side once some cards are on the table (a ruff or the
side's best card of the suit led above the opponents', R19, R20); `second_hand_tricks`
adds, after the lead, the tricks the trick's winner then cashes from its top runs
(kernels.dd.sure_tricks.cash_runs), which settles the search's target for the second
hand's side, as DDS's QuickTricksSecondHand does.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount
from kernels.dd.state import SUIT_MASK, U0, U1, current_winner_trump, suit_of
from kernels.dd.sure_tricks import cash_runs
from kernels.jit import NO_REFCOUNT, njit


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
    the caller keeps it (kernels.dd.search), else -1 (worked out here).
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
    card, on lead next, cashes its top runs (`cash_runs`) to the rest of what the side needs.
    `need` is what the seats of `winmask` still need, this trick included; the other side
    needs the tricks left less `need`, plus one. `value`: whether `winmask` reaches `need`.

    The cash is counted with the winning card out of its holder's hand (it may be the card
    led, when the leader is on the same side) and every other seat's cards still in hand:
    the cards they play to this trick only shorten their holdings, which never lowers the
    count without trumps (with trumps, a partner's discard could leave it trumps only,
    forced to ruff: not asked there). Counted with the winning card still in hand, West's
    ten led from Q-J-T into North's A-K-5-4 gave four spade tricks where North-South
    have two (the A-K "outlasting" West's two spades left).

    DDS asks the same of its second hand (QuickTricksSecondHand, one top card a suit);
    the no-trump bridge jobs take 0.79 of the nodes with it."""
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
    # when `top` is its card led. Any seat is looked at: against a lone seat the third
    # hand's card can win for the second hand's side
    hh = leader
    for q in range(4):
        if (hands[q] & top) != U0:
            hh = q
    held = hands[hh] & top
    hands[hh] ^= held
    _, _, _, _, enough, rel = cash_runs(hands, hh, side, trump, want - 1)
    hands[hh] ^= held
    if 1 + enough >= want:
        return True, side == winmask, rel | top
    return False, False, U0
