"""Double-dummy position state: hands as uint64 masks, the trick in progress, trick winner.

A search position is `hands` (4,) uint64 (cards still held, by seat), `trick` (4,) int64
(card ids played to the current trick, in play order), the trick's `leader`, how many cards
`nplayed` are on the table, and `gone`: the cards removed in completed tricks (plus any card
not in play at all, e.g. in an ending or after the little-misère discards). Make and undo
are in place: a card is one xor on its owner's hand.

Two cards of one hand are *equivalent* when every card ranked between them (same suit) is
either in that hand too or `gone`: whatever the rest of the play, swapping them changes
nothing. Cards on the table in the current trick are still in play and separate sequences
(a card between them may still be beaten or beat one of them in this trick).
"""

import numpy as np

from kernels.bits import leading_zeros, trailing_zeros
from kernels.jit import NO_REFCOUNT, njit

U0 = np.uint64(0)
U1 = np.uint64(1)
SUIT13 = np.uint64(0x1FFF)
FULL_DECK = np.uint64((1 << 52) - 1)
# bit of the ace of each suit: carries in `sequence_bottoms` must not cross into the next suit
ACES = np.uint64(sum(1 << (13 * s + 12) for s in range(4)))
SUIT_MASK = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.uint64)


@njit(**NO_REFCOUNT)
def bit(card):
    """One-card mask of a card id."""
    return U1 << np.uint64(card)


@njit(**NO_REFCOUNT)
def suit_of(card):
    """Suit 0..3 of a card id 0..51 (and -1 for -1, "no card", as `card // 13` gives).

    A multiply and a shift (79/1024 is within 1/4096 of 1/13, close enough for every id
    below 341) rather than `card // 13`: numba's floor division of a signed integer
    compiles to a high multiply, shifts and a sign correction, and the search divides a
    card id by 13 at every move it tries (the small-card skip, the trick's winner, the
    move ordering (numeric jobs 0.959 of the time)."""
    return (card * 79) >> 10


@njit(**NO_REFCOUNT)
def sequence_bottoms(cards, gone):
    """The lowest card of each run of equivalent cards in `cards` (one hand's cards).

    Cards above a card of `cards`, skipping `gone` cards, "land" on the next card still in
    play; a card of `cards` that something landed on is not the bottom of its run. The
    carry through runs of `gone` cards is one addition (at most one landing bit per run,
    since a card of `cards` itself breaks the run); aces are kept out of both operands so
    that no carry crosses into the next suit.
    """
    up = (cards & ~ACES) << U1
    g = gone & ~ACES
    carried = (g + (up & g)) & ~g
    landed = carried | (up & ~g)
    return cards & ~landed


@njit(**NO_REFCOUNT)
def run_above(hand, card, gone):
    """The cards of `hand` equivalent to `card` and ranked above it (its run, see above):
    from the card up, the unbroken stretch of the suit's cards held or gone (its length is
    the count of trailing ones above the card), less the gone ones."""
    m = (hand | gone) & SUIT_MASK[suit_of(card)]
    above = m >> np.uint64(card + 1)
    n = np.uint64(trailing_zeros(~above))
    return (((U1 << n) - U1) << np.uint64(card + 1)) & hand


@njit(**NO_REFCOUNT)
def trick_winner(trick, leader, trump):
    """Seat winning a complete trick `trick` (card ids in play order from `leader`), R20."""
    return (leader + current_winner_trump(trick, 4, trump)) & 3


@njit(inline="always", **NO_REFCOUNT)
def beats(card, wcard, trump):
    """Whether `card`, played after `wcard` (the card winning the trick so far), takes the
    lead in the trick with `trump` (R20): a higher card of its suit, or a trump on a card
    that is not one."""
    s = suit_of(card)
    ws = suit_of(wcard)
    return (s == ws and card > wcard) or (s == trump and ws != trump)


@njit(**NO_REFCOUNT)
def current_winner_trump(trick, nplayed, trump):
    """Index (in play order) of the card now winning a partial trick with `trump` (R20)."""
    best = 0
    best_card = trick[0]
    best_suit = suit_of(best_card)
    for i in range(1, nplayed):
        c = trick[i]
        s = suit_of(c)
        if s == best_suit:
            if c > best_card:
                best = i
                best_card = c
        elif s == trump:
            best = i
            best_card = c
            best_suit = s
    return best


@njit(**NO_REFCOUNT)
def legal_moves(hand, trick, nplayed):
    """Cards of `hand` that may be played now: follow the suit led if possible (R19)."""
    if nplayed == 0:
        return hand
    led = suit_of(trick[0])
    follow = hand & SUIT_MASK[led]
    if follow != U0:
        return follow
    return hand


@njit(**NO_REFCOUNT)
def lowest_bit(mask):
    """The lowest set bit of `mask` as a mask (0 for 0)."""
    return mask & (U0 - mask)


@njit(**NO_REFCOUNT)
def lowest(mask):
    """Card id of the lowest card in a non-empty mask."""
    return trailing_zeros(mask)


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
def split_bottoms(cards, others):
    """The lowest card of each run of `cards` that no card of `others` splits (every card
    in neither counts as out of play)."""
    return sequence_bottoms(cards, FULL_DECK & ~(cards | others))


@njit(**NO_REFCOUNT)
def others_of(hands, p):
    """All cards still in play outside `p`'s hand."""
    others = U0
    for q in range(4):
        if q != p:
            others |= hands[q]
    return others


@njit(**NO_REFCOUNT)
def highest_rank(cards):
    """The card of highest rank in a non-empty mask (of equal ranks, the lowest suit id)."""
    best = -1
    while cards:
        c = trailing_zeros(cards)
        cards &= cards - U1
        if best < 0 or c % 13 > best % 13:
            best = c
    return best
