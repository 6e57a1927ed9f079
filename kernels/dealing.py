"""Dealing kernels: exactly uniform random deals as uint64 hand masks, and R4/R5 physical dealing.

Full random deals (`deal_random_chunk`) build each deal from a uniform half of the deck and
two 13-of-26 patterns, all by rejection on fresh random bits, in chunks of CHUNK deals:
- halves: the 52 low bits of a random word, kept only if exactly 26 are set, are a uniform
  26-card half H (every 26-subset has probability 2**-52 per try; accepted about one try
  in 9.1). The half is the cards of seats 0 and 2, its complement those of seats 1 and 3.
- patterns: each random word holds two 26-bit candidates (bits 0-25 and 26-51); one with
  exactly 13 bits set is a uniform 13-of-26 pattern (accepted about one try in 6.4).
  `pdep(pattern, H)` puts the pattern's bit i on the i-th lowest card of H, a bijection
  from patterns onto the 13-card subsets of H, so North = pdep(p, H) is uniform within H,
  and East = pdep(p', complement of H) likewise.
Why exact: every candidate is made of random bits used for no other candidate, so the
candidates of a kind are i.i.d. uniform, and the accepted ones are i.i.d. uniform on the
accepted set however many tries each took. Deal i of a chunk takes half i and patterns
2i, 2i+1, which are independent, and (H, North, East) -> deal is a bijection between
(26-subset, 13-subset of it, 13-subset of its complement) and deals, so every deal has the
same probability. The 12 top bits of each word are not used; when a chunk's last pattern
comes from a word's low candidate, its high candidate is discarded.
Speed: the accept/reject step is branch-free (each candidate is written to the next slot
and the slot index advances only when it is accepted), so there is no mispredicted branch
per deal, and about 15.5 random words per deal instead of 22 for three branchy rejection
loops. The chunk is always drawn whole, so a deal depends only on the deals before it in
its block, never on how many deals were asked for.

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
on its length. `deal_batch` and `deal_known_batch` allocate their output with numpy, not
inside the kernel: numpy asks Linux for transparent huge pages for large arrays and numba's
allocator does not, and the first-touch page faults of a numba-allocated (n, 4) array cost
about 20 ns per deal here (measured), more than a random deal itself.
"""

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from kernels.bits import popcount
from kernels.cards import FULL_DECK, N_CARDS, N_SEATS
from kernels.jit import njit
from kernels.rng import STATE_WORDS, below, mul_hi, next_u64, stream_state, xoshiro_step

HAND_SIZE = 13
BLOCK_DEALS = 4096  # deals per RNG stream; fixed, so the output never depends on thread count
GROUP = 8  # indices drawn from one 64-bit word: 52**8 < 2**46
PACKETS = (4, 4, 5)  # R5: packets of 4, then 4, then 5 cards to each seat
CHUNK = 256  # full random deals drawn together (divides BLOCK_DEALS)
_PATTERN = np.uint64((1 << 26) - 1)  # one 26-bit pattern candidate
_HAS_PDEP = bool(llvm.get_host_cpu_features().get("bmi2", False))


@intrinsic
def _pdep_instruction(typingctx, x, mask):
    """x86 BMI2 `pdep`: bit i of x goes to the i-th lowest set bit of mask (one instruction)."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        a = context.cast(builder, args[0], x, types.uint64)
        b = context.cast(builder, args[1], mask, types.uint64)
        return builder.call(fn, [a, b])

    return types.uint64(x, mask), codegen


@njit
def _pdep_loop(x, mask):
    """Portable `pdep` for CPUs without BMI2: the same bits, one set bit of mask at a time."""
    out = np.uint64(0)
    bit = np.uint64(1)
    while mask:
        low = mask & (np.uint64(0) - mask)
        if x & bit:
            out |= low
        mask ^= low
        bit <<= np.uint64(1)
    return out


if _HAS_PDEP:
    @njit(inline='always')  # override: numba-level inlining, a call per deal would dominate
    def pdep(x, mask):
        """Scatter the low bits of x onto the set bits of mask, lowest first (BMI2 pdep)."""
        return _pdep_instruction(x, mask)
else:
    @njit(inline='always')  # override: as above
    def pdep(x, mask):
        """Scatter the low bits of x onto the set bits of mask, lowest first (portable)."""
        return _pdep_loop(x, mask)


@njit
def deal_random_chunk(state, halves, patterns, out, row, count):
    """Draw one chunk of CHUNK random deals from `state`; write the first `count` to out[row:].

    `halves` (CHUNK + 1) and `patterns` (2 * CHUNK + 2) are scratch uint64 arrays. The whole
    chunk is always drawn, so `state` ends the same whatever `count` is.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    k = 0
    while k < CHUNK:  # branch-free rejection: the slot advances only on a 26-card half
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        half = word & FULL_DECK
        halves[k] = half
        k += popcount(half) == 2 * HAND_SIZE
    k = 0
    while k < 2 * CHUNK:  # two independent 26-bit candidates per word
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        low = word & _PATTERN
        patterns[k] = low
        k += popcount(low) == HAND_SIZE
        high = (word >> np.uint64(26)) & _PATTERN
        patterns[k] = high
        k += popcount(high) == HAND_SIZE
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    for i in range(count):
        half = halves[i]  # seats 0 and 2
        other = FULL_DECK ^ half  # seats 1 and 3
        north = pdep(patterns[2 * i], half)
        east = pdep(patterns[2 * i + 1], other)
        out[row + i, 0] = north
        out[row + i, 1] = east
        out[row + i, 2] = half ^ north
        out[row + i, 3] = other ^ east


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
    halves = np.empty(CHUNK + 1, dtype=np.uint64)
    patterns = np.empty(2 * CHUNK + 2, dtype=np.uint64)
    start = block * BLOCK_DEALS
    stop = min(out.shape[0], start + BLOCK_DEALS)
    for row in range(start, stop, CHUNK):
        deal_random_chunk(state, halves, patterns, out, row, min(CHUNK, stop - row))


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
def deal_batch_into(root, out):
    """Fill out (n, 4) uint64 with independent, exactly uniform random full deals from `root`."""
    n_blocks = (out.shape[0] + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        deal_random_block(root, block, out)


@njit(parallel=True)  # override: as deal_batch_into
def deal_known_batch_into(root, known, out):
    """Fill out (n, 4) uint64 with deals in which seat s holds known[s], the rest uniform."""
    n_blocks = (out.shape[0] + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        deal_known_block(root, known, block, out)


def deal_batch(root, n):
    """n independent, exactly uniform random full deals, (n, 4) uint64, from root key `root`.

    Plain Python on purpose: numpy allocates the output (huge pages; see the module notes).
    """
    out = np.empty((n, N_SEATS), dtype=np.uint64)
    deal_batch_into(root, out)
    return out


def deal_known_batch(root, known, n):
    """n deals, (n, 4) uint64, in which seat s holds known[s] and the other cards are uniform.

    Plain Python on purpose, as deal_batch.
    """
    out = np.empty((n, N_SEATS), dtype=np.uint64)
    deal_known_batch_into(root, known, out)
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
    "HAND_SIZE", "BLOCK_DEALS", "GROUP", "PACKETS", "CHUNK", "pdep", "deal_random_chunk",
    "free_cards", "accepted_word", "draw_cards", "deal_known_into", "deal_random_block",
    "deal_known_block", "deal_batch_into", "deal_known_batch_into", "deal_batch",
    "deal_known_batch", "deal_from_order", "cut", "shuffle_order",
]
