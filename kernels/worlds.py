"""Hidden-card worlds: count, rank, sample and enumerate the deals consistent with a view.

A player's view (API.md "Real play") leaves some cards `hidden`: not in its hand, not
played, not otherwise known (an exposed spread hand, R16; its own discard, R15). A world
places every hidden card in one of eight slots: slots 0..3 are the seats' remaining
hands, slots 4..7 the seats' unknown little-misère discards (R15). Slot j must receive
exactly `need[j]` cards, and may receive no card of a suit in `void[j]` (a 4-bit suit
mask: a seat that did not follow suit is void in the suit led, R19; a discard was made
before the play, so no void applies to it).

Counting (after hnnng-w/skat-ai's "count, then sample without reject-and-retry"): cards
of one suit are interchangeable as far as the constraints go, so the worlds are counted
by a dynamic programme whose state is the vector of cards each slot has received so far,
in mixed radix (`need[j] + 1` values per slot). It deals suit by suit and, within a suit,
slot by slot: slot j takes x of the r cards of the suit still unplaced (C(r, x) ways, x = 0
when it is void in the suit), and the last slot takes what is left. Row 8 * suit + j of
the table counts the ways to reach each vector before that step; the last row at `need`
is the number of consistent worlds. Slot by slot, a step costs (states x cards) rather
than (states x every split of the suit over eight slots).

Ranking: worlds are numbered by those steps backwards (`unrank_world`), so drawing a
uniform number and unranking it gives an exactly uniform world (no retries), and
enumerating 0..total-1 lists every world once.

Counts are float64: exact below 2**53 (every ending, and any view with a few cards
dealt), otherwise exact to double rounding (a relative 1e-16, the largest counts, about
2e20, arising only at the first tricks of a little misère).
"""

import numpy as np

from kernels.bits import popcount
from kernels.jit import njit
from kernels.rng import below, next_u64

N_SLOTS = 8  # 4 remaining hands, then 4 little-misère discards (slot 4 + seat)
DISCARD_SLOT = 4
EXACT_LIMIT = float(1 << 53)  # counts below this are exact integers in float64


def _binomial_table():
    """BINOMIAL[n, k] = C(n, k) for 0 <= k <= n <= 52, exact in float64 (C(52, 26) < 2**53)."""
    table = np.zeros((53, 53), dtype=np.float64)
    for n in range(53):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


BINOMIAL = _binomial_table()


@njit
def _suit_cards(hidden, suit, cards):
    """Write the hidden cards of `suit`, lowest first, to `cards`; return how many."""
    n = 0
    for r in range(13):
        c = 13 * suit + r
        if hidden >> np.uint64(c) & np.uint64(1):
            cards[n] = c
            n += 1
    return n


@njit
def _suit_sizes(hidden):
    """(sizes (4,), before (4,)): hidden cards of each suit, and of the suits below it."""
    sizes = np.zeros(4, dtype=np.int64)
    before = np.zeros(4, dtype=np.int64)
    for suit in range(4):
        sizes[suit] = popcount((np.uint64(hidden) >> np.uint64(13 * suit)) & np.uint64(0x1FFF))
        if suit > 0:
            before[suit] = before[suit - 1] + sizes[suit - 1]
    return sizes, before


@njit
def world_space(hidden, need, void):
    """The counting table of a view: (table (33, size) float64, strides (8,) int64).

    `hidden` the uint64 mask of the hidden cards, `need` (8,) int64 cards per slot (their
    sum must equal the number of hidden cards), `void` (8,) int64 suit masks. Slot
    vectors are indexed in mixed radix: index = sum(c[j] * strides[j]); row 8 * suit + j
    holds the ways to reach each vector before slot j receives its cards of `suit`.
    """
    strides = np.zeros(N_SLOTS, dtype=np.int64)
    size = 1
    for j in range(N_SLOTS):
        strides[j] = size
        size *= need[j] + 1
    dealt = np.zeros(size, dtype=np.int64)  # cards in the slot vector of each index
    for j in range(N_SLOTS):
        for index in range(size):
            dealt[index] += (index // strides[j]) % (need[j] + 1)
    sizes, before = _suit_sizes(hidden)
    table = np.zeros((4 * N_SLOTS + 1, size), dtype=np.float64)
    table[0, 0] = 1.0
    for suit in range(4):
        for j in range(N_SLOTS):
            step = N_SLOTS * suit + j
            src, dst = table[step], table[step + 1]
            open_slot = (void[j] >> suit) & 1 == 0
            for index in range(size):
                ways = src[index]
                if ways == 0.0:
                    continue
                left = sizes[suit] - (dealt[index] - before[suit])  # cards of the suit to place
                room = need[j] - (index // strides[j]) % (need[j] + 1)
                top = min(left, room) if open_slot else 0
                low = left if j == N_SLOTS - 1 else 0  # the last slot takes what is left
                for x in range(low, top + 1):
                    dst[index + x * strides[j]] += ways * BINOMIAL[left, x]
    return table, strides


@njit
def count_worlds(table, need, strides):
    """Number of consistent worlds (float64; exact below 2**53)."""
    full = 0
    for j in range(N_SLOTS):
        full += need[j] * strides[j]
    return table[4 * N_SLOTS, full]


@njit
def _unrank_subset(k, cards, n, r, taken, slot, out):
    """Give slot `slot` the k-th (lexicographic) r-subset of the cards not yet `taken`."""
    m = 0
    for i in range(n):
        if not taken[i]:
            m += 1
    for i in range(n):
        if r == 0:
            break
        if taken[i]:
            continue
        m -= 1
        with_it = BINOMIAL[m, r - 1]  # subsets whose first free card is this one
        if k < with_it:
            taken[i] = True
            out[slot] |= np.uint64(1) << np.uint64(cards[i])
            r -= 1
        else:
            k -= with_it


@njit
def unrank_world(k, hidden, need, void, table, strides, out):
    """Write world number `k` (0 <= k < count_worlds, a float64 integer) to `out` (8,) uint64.

    Worlds are numbered by the table's steps backwards (suit 3's last slot first): at each
    step the worlds split into blocks by the number of cards x the slot takes, and within
    a block by which x of the suit's remaining cards (the subset index) and the worlds of
    the earlier steps. The subsets are chosen once a suit's counts are all known.
    """
    for j in range(N_SLOTS):
        out[j] = np.uint64(0)
    sizes, before = _suit_sizes(hidden)
    index = 0
    dealt = 0
    for j in range(N_SLOTS):
        index += need[j] * strides[j]
        dealt += need[j]
    cards = np.empty(13, dtype=np.int64)
    taken = np.zeros(13, dtype=np.bool_)
    xs = np.zeros(N_SLOTS, dtype=np.int64)
    subsets = np.zeros(N_SLOTS, dtype=np.float64)
    for suit in range(3, -1, -1):
        for j in range(N_SLOTS - 1, -1, -1):
            prev = table[N_SLOTS * suit + j]
            after = sizes[suit] - (dealt - before[suit])  # suit cards left after slot j
            held = (index // strides[j]) % (need[j] + 1)
            chosen = -1
            chosen_block = 0.0
            for x in range(0, held + 1):
                block = prev[index - x * strides[j]] * BINOMIAL[after + x, x]
                if block == 0.0:
                    continue
                chosen = x
                chosen_block = block
                if k < block:
                    break
                k -= block
            if chosen < 0:
                raise ValueError("no consistent world")
            if k >= chosen_block:  # rounding in a count beyond 2**53: stay in the last block
                k = chosen_block - 1.0
            ways = BINOMIAL[after + chosen, chosen]
            subsets[j] = np.fmod(k, ways)
            k = np.floor(k / ways)
            xs[j] = chosen
            index -= chosen * strides[j]
            dealt -= chosen
        n = _suit_cards(np.uint64(hidden), suit, cards)
        for i in range(n):
            taken[i] = False
        for j in range(N_SLOTS):
            if xs[j] > 0:
                _unrank_subset(subsets[j], cards, n, xs[j], taken, j, out)


@njit
def uniform_index(total, state):
    """A uniformly random world number in 0..total-1 (exact while total < 2**53)."""
    if total < EXACT_LIMIT:
        return float(below(state, np.int64(total)))
    u = float(next_u64(state) >> np.uint64(11)) * (1.0 / EXACT_LIMIT)
    return np.floor(u * total)


@njit
def _space_and_count(hidden, need, void):
    """(table, strides, count) of a view; raises when no world is consistent with it."""
    table, strides = world_space(hidden, need, void)
    total = count_worlds(table, need, strides)
    if total == 0.0:
        raise ValueError("no consistent world")
    return table, strides, total


@njit
def _sample_into(hidden, need, void, table, strides, total, state, out):
    for i in range(out.shape[0]):
        unrank_world(uniform_index(total, state), hidden, need, void, table, strides, out[i])


@njit
def _every_world(hidden, need, void, table, strides, total):
    n = np.int64(total)
    out = np.zeros((n, N_SLOTS), dtype=np.uint64)
    for i in range(n):
        unrank_world(float(i), hidden, need, void, table, strides, out[i])
    return out


@njit
def sample_worlds(hidden, need, void, n, state, out):
    """Fill `out` (n, 8) uint64 with n independent uniform consistent worlds; return the count.

    Draws from `state` (kernels/rng.py) only, so the same state gives the same worlds.
    """
    table, strides, total = _space_and_count(hidden, need, void)
    _sample_into(hidden, need, void, table, strides, total, state, out[:n])
    return total


@njit
def enumerate_worlds(hidden, need, void, limit):
    """Every consistent world, in rank order, as (count, 8) uint64, when count <= limit;
    otherwise an empty (0, 8) array (the caller samples instead)."""
    table, strides, total = _space_and_count(hidden, need, void)
    if total > limit:
        return np.zeros((0, N_SLOTS), dtype=np.uint64)
    return _every_world(hidden, need, void, table, strides, total)


@njit
def draw_worlds(hidden, need, void, limit, n, state):
    """The worlds of one decision, counted once: (worlds, enumerated). Every consistent
    world when there are at most `limit` (enumerated true, `state` untouched), else `n`
    uniform draws from `state`."""
    table, strides, total = _space_and_count(hidden, need, void)
    if total <= limit:
        return _every_world(hidden, need, void, table, strides, total), True
    out = np.zeros((n, N_SLOTS), dtype=np.uint64)
    _sample_into(hidden, need, void, table, strides, total, state, out)
    return out, False


@njit
def world_is_consistent(world, hidden, need, void):
    """Whether `world` (8,) deals exactly the hidden cards, need[j] to slot j, no void broken."""
    seen = np.uint64(0)
    for j in range(N_SLOTS):
        w = world[j]
        if seen & w:
            return False
        seen |= w
        if popcount(w) != need[j]:
            return False
        for suit in range(4):
            if (void[j] >> suit) & 1 and (w >> np.uint64(13 * suit)) & np.uint64(0x1FFF):
                return False
    return seen == np.uint64(hidden)


__all__ = ["N_SLOTS", "DISCARD_SLOT", "EXACT_LIMIT", "BINOMIAL", "world_space", "count_worlds",
           "unrank_world", "uniform_index", "sample_worlds", "enumerate_worlds", "draw_worlds",
           "world_is_consistent"]
