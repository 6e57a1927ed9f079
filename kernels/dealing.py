"""Dealing kernels: exactly uniform random deals as uint64 hand masks, and R4/R5 physical dealing.

Full random deals (`deal_random_into`) split the deck twice by rejection on random bits:
the 52 low bits of a random word, kept only if exactly 26 are set, are a uniform 26-card
half of the deck (each 26-subset has probability 2**-52 per try, accepted about one try in
9); the same test with 13 inside each half splits it into two hands (about one try in 6.5).
Every step is exact, so the deal is exactly uniform; it costs about 22 random words and no
memory traffic.

Deals with known cards (`deal_known_into`) top up each seat by a partial Fisher-Yates
shuffle of the free cards, drawing up to GROUP indices from one 64-bit word exactly: for
ranges b1..bk with product P, the word x is accepted by Lemire's multiply-and-reject test
on P (x * P mod 2**64 >= 2**64 mod P), and then x * b1 = d1 * 2**64 + x1, x1 * b2 = d2 *
2**64 + x2, ... peels off digits d1..dk whose mixed-radix number is floor(x * P / 2**64),
uniform on 0..P-1 (Brackett-Rozinsky and Lemire, "Batched ranged random integer
generation", 2024). With ranges <= 52 and GROUP = 8, P < 2**46, so a word is rejected with
probability < 2**-18. The free-card deck is never reset between deals: a uniform selection
from any arrangement of the free cards is uniform, so each block keeps shuffling its deck.

Batches are cut into blocks of BLOCK_DEALS deals, block b drawing from stream b of the root
key, so a batch is the same for any number of threads, and its first k deals do not depend
on its length.
"""

import numpy as np
from numba import prange

from kernels.bits import popcount
from kernels.cards import FULL_DECK, N_CARDS, N_SEATS
from kernels.jit import njit
from kernels.rng import STATE_WORDS, below, mul_hi, next_u64, stream_state, xoshiro_step

HAND_SIZE = 13
BLOCK_DEALS = 4096  # deals per RNG stream; fixed, so the output never depends on thread count
GROUP = 8  # indices drawn from one 64-bit word: 52**8 < 2**46
PACKETS = (4, 4, 5)  # R5: packets of 4, then 4, then 5 cards to each seat


@njit
def random_subset(s0, s1, s2, s3, cards, k):
    """A uniformly random k-card subset of `cards` (random bits, kept if exactly k are set).

    The xoshiro256** state comes and goes as four scalars: (subset, s0, s1, s2, s3).
    """
    while True:
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        subset = word & cards
        if popcount(subset) == k:
            return subset, s0, s1, s2, s3


@njit
def deal_random_into(state, out, row):
    """Deal out[row]: a uniformly random full deal (two exact halvings of the deck)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    half, s0, s1, s2, s3 = random_subset(s0, s1, s2, s3, FULL_DECK, 2 * HAND_SIZE)  # seats 0, 2
    other = FULL_DECK ^ half  # seats 1 and 3
    north, s0, s1, s2, s3 = random_subset(s0, s1, s2, s3, half, HAND_SIZE)
    east, s0, s1, s2, s3 = random_subset(s0, s1, s2, s3, other, HAND_SIZE)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    out[row, 0] = north
    out[row, 1] = east
    out[row, 2] = half ^ north
    out[row, 3] = other ^ east


@njit
def free_cards(known, deck):
    """Write the one-card masks of the cards outside `known` into `deck`; return their count."""
    taken = known[0] | known[1] | known[2] | known[3]
    m = 0
    for card in range(N_CARDS):
        bit = np.uint64(1) << np.uint64(card)
        if not taken & bit:
            deck[m] = bit
            m += 1
    return m


# inline='always' (numba-level inlining) here and on draw_cards: numba compiles each callee
# separately and LLVM does not inline it, and a call per group of draws doubled the time
@njit(inline='always')
def accepted_word(state, product):
    """A random word whose digits for ranges of product `product` are exactly uniform (Lemire)."""
    x = next_u64(state)
    low = x * product
    if low < product:  # only then can x lie in the rejected zone; skip the division otherwise
        threshold = (np.uint64(0) - product) % product  # 2**64 mod product
        while low < threshold:
            x = next_u64(state)
            low = x * product
    return x


@njit(inline='always')
def draw_cards(state, deck, m, start, count):
    """Fill deck[start:start+count] with uniform picks from deck[start:m] (partial Fisher-Yates).

    `deck` holds one-card masks; the result is the mask of the `count` cards picked.
    Called with constant arguments, numba compiles a specialised copy whose loops LLVM
    unrolls, about twice as fast as the general one.
    """
    picked = np.uint64(0)
    i = start
    stop = start + count
    while i < stop:
        g = min(GROUP, stop - i)
        product = np.uint64(1)
        for t in range(g):
            product *= np.uint64(m - i - t)
        x = accepted_word(state, product)
        for t in range(g):
            bound = np.uint64(m - i - t)
            j = i + t + np.int64(mul_hi(x, bound))  # the next mixed-radix digit, 0..bound-1
            x = x * bound
            chosen = deck[j]
            deck[j] = deck[i + t]
            deck[i + t] = chosen
            picked |= chosen
        i += g
    return picked


@njit
def deal_known_into(state, deck, m, known, out, row):
    """Deal out[row]: seat s keeps known[s] and is filled up to 13 cards uniformly from deck[:m].

    `deck[:m]` must hold exactly the one-card masks of the cards outside `known` (see
    `free_cards`), in any order; `known` must be disjoint hands of at most 13 cards each.
    Seats take their missing cards in seat order; the last seat that needs any takes the rest.
    """
    last = -1
    for seat in range(N_SEATS):
        if popcount(known[seat]) < HAND_SIZE:
            last = seat
    for seat in range(N_SEATS):
        out[row, seat] = known[seat]
    if last < 0:
        return
    start = 0
    dealt = np.uint64(0)
    for seat in range(last):
        need = HAND_SIZE - popcount(known[seat])
        if need > 0:
            # deal_with's case (39 free cards, 13 to each other seat): constant arguments
            # select the unrolled copy of draw_cards; it draws exactly as the general one
            # (plain literals: numba types them as Literal[int] and compiles a copy for them)
            if m == 39 and need == 13 and start == 0:
                cards = draw_cards(state, deck, 39, 0, 13)
            elif m == 39 and need == 13 and start == 13:
                cards = draw_cards(state, deck, 39, 13, 13)
            else:
                cards = draw_cards(state, deck, m, start, need)
            out[row, seat] |= cards
            dealt |= cards
            start += need
    free = FULL_DECK & ~(known[0] | known[1] | known[2] | known[3])
    out[row, last] |= free & ~dealt


@njit
def deal_random_block(root, block, out):
    """Fill block `block` of `out` (rows from block * BLOCK_DEALS) from stream `block` of `root`."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    stream_state(root, block, state)
    start = block * BLOCK_DEALS
    stop = min(out.shape[0], start + BLOCK_DEALS)
    for row in range(start, stop):
        deal_random_into(state, out, row)


@njit
def deal_known_block(root, known, block, out):
    """Fill block `block` of `out` (rows from block * BLOCK_DEALS) from stream `block` of `root`."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    stream_state(root, block, state)
    deck = np.empty(N_CARDS, dtype=np.uint64)
    m = free_cards(known, deck)
    start = block * BLOCK_DEALS
    stop = min(out.shape[0], start + BLOCK_DEALS)
    for row in range(start, stop):
        deal_known_into(state, deck, m, known, out, row)


# override: blocks run on all numba threads; per-block streams keep the result deterministic
@njit(parallel=True)
def deal_batch(root, n):
    """n independent, exactly uniform random full deals, (n, 4) uint64, from root key `root`."""
    out = np.empty((n, N_SEATS), dtype=np.uint64)
    n_blocks = (n + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        deal_random_block(root, block, out)
    return out


@njit(parallel=True)  # override: as deal_batch
def deal_known_batch(root, known, n):
    """n deals, (n, 4) uint64, in which seat s holds known[s] and the other cards are uniform."""
    out = np.empty((n, N_SEATS), dtype=np.uint64)
    n_blocks = (n + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        deal_known_block(root, known, block, out)
    return out


@njit
def deal_from_order(order, dealer):
    """The deal (4,) uint64 of a deck whose cards, top first, are `order` (52 card ids), by R5.

    Cards go clockwise from the dealer's left in packets of 4, then 4, then 5, so the
    dealer receives the last packet of each round.
    """
    out = np.zeros(N_SEATS, dtype=np.uint64)
    pos = 0
    for packet in PACKETS:
        for k in range(1, N_SEATS + 1):
            seat = (dealer + k) % N_SEATS
            for _ in range(packet):
                out[seat] |= np.uint64(1) << np.uint64(order[pos])
                pos += 1
    return out


@njit
def cut(order, point):
    """The deck `order` (top first) cut at `point` (0..52): its top `point` cards go under."""
    size = order.shape[0]
    out = np.empty_like(order)
    for i in range(size):
        out[i] = order[(i + point) % size]
    return out


@njit
def shuffle_order(state, order):
    """Shuffle `order` in place uniformly (textbook Fisher-Yates; R4's session shuffle)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = below(state, i + 1)
        card = order[i]
        order[i] = order[j]
        order[j] = card


__all__ = [
    "HAND_SIZE", "BLOCK_DEALS", "GROUP", "PACKETS", "random_subset", "deal_random_into",
    "free_cards", "accepted_word", "draw_cards", "deal_known_into", "deal_random_block",
    "deal_known_block", "deal_batch", "deal_known_batch", "deal_from_order", "cut",
    "shuffle_order",
]
