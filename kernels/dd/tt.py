"""Transposition table for the double-dummy search: bounds keyed on the ranks that mattered.

Positions are stored at trick boundaries. A stored result is a property of a whole class
of positions (partition search, Ginsberg 1996; DDS's "winning ranks"): while solving a
position the search records which cards decided a trick *by rank* (kernels.dd.search),
and, per suit, only the cards from the top down to the lowest such card must be owned by
the same hands for the result to carry over. Below that threshold only how many cards of
the suit each hand holds matters. So an entry holds

- `dist`: the suit lengths of every hand (one nibble per hand and suit),
- `meta`: the leader, the trump and the two seat masks of the search (who maximises,
  whose tricks count), and `k`, for each suit, how many of its top cards are relevant,
- the owners (2 bits each) of those top-k cards of each suit, listed from the highest
  card still in play down (*relative* ranks: cards already played are skipped),

and a position matches it when its suit lengths, leader, trump and masks are equal and its
owners of the top k cards of every suit are the same. A result is thus a property of the
position class alone: it stays valid across trumps, declarers, modes and deals, and no
answer depends on what the table holds or on thread scheduling; the table only saves time.

Relevance travels through the search as a card mask whose lowest card in each suit is the
threshold (`ks_from_relevance` and `relevance_from_ks` convert at the table boundary).

The table has two halves of equal size, probed in turn:
- the *exact* half: one entry per position (relative ranks), keyed by every owner code
  with each suit's length (`position_key`), holding the bounds and, for each, the
  relevance it rests on (so a hit there still passes a fine relevance up the search);
- the *class* half: entries keyed as above, (dist, meta with the k nibbles, owners of the
  top-k cards of suits 0-1, of suits 2-3).
The class half alone is not enough: all classes of one (dist, leader, trump, masks) share
one bucket and, on deep searches, would evict each other.

Layout: two arrays of 32-byte entries, (size, 4) uint64 each, starting on a cache line,
so that an entry, its key and its bounds, is one memory access:
- `exact`: two key words, the k nibbles of the lower bound and (bits 16..31) of the upper
  bound, and the data word;
- `classes`: dist, the owner words of suits 0-1 and 2-3 (masked to the top-k cards), and
  the data word, which holds the rest of the key (meta and the k nibbles).
The data word: the lower bound in bits 0..3, the upper bound in 4..7, its cost (the bit
length of the number of nodes the search spent on it, `depth` in the code) in 8..14, the
best lead in 15..22 (`move_code`: 0 for none, else 0x80 | suit << 4 | relative rank),
the class key's meta in 23..35 and k nibbles in 36..51, and the generation (modulo
4096) in 52..63. The best lead is only a hint for move ordering.

Buckets hold `WAYS` (4) consecutive entries in the exact half (a miss reads two cache
lines; against 8 ways, bridge 0.976 of the time, d23d777), `CLASS_WAYS` (2) in the class
half. A store replaces an empty entry first, then one of an older generation, else the
one that cost least to find (the cheapest to recompute).

A class key whose bucket holds only entries of the current generation *chains*: its
further classes go into a run of consecutive rows in the class half's upper half, the
*pool*, reached through a pointer entry in the bucket (keyed like the key's classes, its
lower bound field 15, which no bound has; the run's start and its capacity and count in
the owner words). A run starts at CHAIN_MIN entries (with the bucket way its pointer
replaced, if it was the key's), moves into one twice as long when full, up to CHAIN_MAX,
then replaces its cheapest entry. The pool is filled from its start in each generation
(a new deal), so only a pointer of the current generation is followed. A lookup scans the
key's bucket, then its run: the run holds the key's classes alone, so a heavy key's
lookups read no other key's entries (DDS keeps a list per suit-length pattern). A bucket
therefore need hold little: a lookup or a store reads a line of it and then the key's own
entries (runs against spilling into the next buckets: bridge 0.958 of the time, 39b9791).

Each half is used through a *window*, its first `window` entries (the bucket count a key
is hashed into; the header after the buckets holds it, `new_tables`). A store under a new
generation (a new deal, kernels.dd.batch) sets it back to WINDOW_MIN entries, and once
the entries placed in the generation reach half the window, it doubles, up to the whole
half (half of it in the class half, whose upper half is the pool of runs: `_most`), each
entry whose bucket now lies in the upper part moving there (`_grow`). A small deal's
entries thus sit in a few megabytes that stay in the caches, while a large search grows
the window and keeps the whole table (against the whole table every time: bridge 0.877
of the time).

The scans index the halves with unsigned row numbers (`np.uint64(base + w)`): numba
wraps a signed index that is negative (a test and an add at every step), which keeps
LLVM from turning the row number times the row stride into a pointer stepping along the
bucket; unsigned, the class scan's loop is five instructions (bridge 0.971, ce09ffb).
"""

import ctypes

import numpy as np

from kernels.bits import (
    HAS_BMI2,
    bit_reverse,
    leading_zeros,
    pdep,
    pext,
    popcount,
    trailing_zeros,
)
from kernels.dd.state import SUIT13, SUIT_MASK, U0, U1, suit_of
from kernels.jit import NO_REFCOUNT, njit

WAYS = 4  # an exact bucket (one entry a position)
CLASS_WAYS = 2  # a class bucket: a key's further classes chain into a run (`tt_store`)
ENTRY_BYTES = 32
HEADER_ROWS = 2  # after each half's entries: its window (see the module doc), one line
CHAIN_MIN = 16  # entries of a key's first run in the class half's pool (`tt_store`'s chain)
CHAIN_MAX = 256  # a run grows by doubling up to this many entries
_PTR_LOWER = 15  # the lower bound field of a run's pointer entry (no bound is above 13)
_LOW32 = np.uint64(0xFFFFFFFF)
WINDOW_MIN = 1 << 14  # entries of a half's window when a generation starts (512 KiB)
META_MASK = np.uint64(0x1FFF)  # leader, trump, maxmask, winmask; the k nibbles sit above
OWNER_BITS = np.uint64(26)  # 13 cards x 2 bits per suit
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_FF = np.uint64(0xFF)
_GEN = np.uint64(0xFFF)
_EXTRA_SHIFT = np.uint64(23)
_EXTRA_MASK = np.uint64((1 << 29) - 1)  # the class key's meta (13 bits) and k nibbles
_META_BITS = np.uint64(13)
_K16 = np.uint64(0xFFFF)  # the four k nibbles of a class, or of one exact bound
_GEN_SHIFT = np.uint64(52)
_F = np.uint64(0xF)


def entries_for(mib):
    """Number of entries (a power of two, at least two buckets per half) that fit in `mib`
    MiB."""
    n = max(4 * max(WAYS, CLASS_WAYS), int(mib * (1 << 20)) // ENTRY_BYTES)
    return 1 << (n.bit_length() - 1)


_HUGE_PAGE = 1 << 21  # bytes of a transparent huge page (x86-64, arm64 with 4 KiB pages)
_MADV_HUGEPAGE = 14  # Linux


def _advise_huge_pages(arr):
    """Ask Linux to back `arr` with transparent huge pages (`madvise(MADV_HUGEPAGE)`); a
    no-op where there is no such call, or where the system refuses."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise(ctypes.c_void_p(arr.ctypes.data), ctypes.c_size_t(arr.nbytes),
                     _MADV_HUGEPAGE)
    except (OSError, AttributeError):
        pass


def aligned_zeros(shape):
    """A zeroed uint64 array starting on a 64-byte boundary (numpy's large arrays start 16
    bytes into a cache line), so that no 32-byte entry straddles two lines.

    An array of 2 MiB or more starts on a 2 MiB boundary instead and is backed by
    transparent huge pages where the system allows (THP on for memory that asks for it):
    every probe of a table or memo is a random access, and with 4 KiB pages each one also
    misses the TLB (numeric solves 0.935 of the time with the tables and ruff memos so)."""
    n = int(np.prod(shape))
    align = _HUGE_PAGE if 8 * n >= _HUGE_PAGE else 64
    raw = np.zeros(n + align // 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % align) // 8
    out = raw[skip:skip + n].reshape(shape)
    if align == _HUGE_PAGE:
        _advise_huge_pages(out)
    return out


def new_tables(mib, count):
    """`count` fresh empty tables of about `mib` MiB each, as two stacked arrays
    (exact halves, class halves): table t is (exact[t], classes[t]).

    Each half is its entries (a power of two; the class half's upper half is its pool of
    runs, `tt_store`), then HEADER_ROWS rows of header, one cache line, which hold its
    window (the module doc): the entries in use, the entries placed in the window's
    generation, that generation, and in the class half the pool rows its runs use. So
    every table of the stack starts on a cache line; only the first starts on a huge page
    (the others inside pages the stack is backed with)."""
    half = entries_for(mib) // 2
    rows = half + HEADER_ROWS
    return aligned_zeros((count, rows, 4)), aligned_zeros((count, rows, 4))


def new_table(mib):
    """A fresh empty table of about `mib` MiB: (exact, classes)."""
    exact, classes = new_tables(mib, 1)
    return exact[0], classes[0]


def _top_first_table():
    """[p, x] for 7-bit chunks: bit i is x's bit at the i-th highest set bit of p."""
    t = np.zeros((128, 128), dtype=np.uint16)
    xs = np.arange(128, dtype=np.uint16)
    for p in range(1, 128):
        b = p.bit_length() - 1  # p's highest bit comes first, then the rest of p's
        t[p] = ((xs >> b) & 1) | (t[p ^ (1 << b)] << 1)
    return t


# owner codes by table lookups rather than a loop over the cards (3x faster per position);
# the portable form of `owner_words` since BMI2's gather and scatter do it where present
_TOP_FIRST = _top_first_table()
# [x] for 7 bits: bit i moved to bit 2i (an owner bit into its 2-bit code)
_SPREAD = np.array([sum(1 << (2 * i) for i in range(7) if x >> i & 1) for x in range(128)],
                   dtype=np.uint32)
# [x, k] for 7 bits: the index of the k-th highest set bit of x (k = 1..7)
_KTH_HIGHEST = np.array([[([b for b in range(6, -1, -1) if x >> b & 1] + [0] * 8)[max(k - 1, 0)]
                          for k in range(8)] for x in range(128)], dtype=np.uint8)
_LOW6 = np.uint64(63)
_LOW7 = np.uint64(127)


@njit(**NO_REFCOUNT)
def _compress(p, x):
    """The bits of 13-bit `x` at the set bits of `p`, highest first (bit 0: the highest)."""
    ph = p >> np.uint64(6)
    pl = p & _LOW6
    return (np.uint64(_TOP_FIRST[ph, x >> np.uint64(6)])
            | (np.uint64(_TOP_FIRST[pl, x & _LOW6]) << np.uint64(popcount(ph))))


@njit(**NO_REFCOUNT)
def _spread(c):
    """13 bits moved to the even bits 0, 2, .., 24."""
    return np.uint64(_SPREAD[c & _LOW7]) | (np.uint64(_SPREAD[c >> np.uint64(7)]) << np.uint64(14))


@njit(**NO_REFCOUNT)
def _suit_owners(hands, suit):
    """Owners of the cards of `suit` still in play, highest first, 2 bits each."""
    sh = np.uint64(13 * suit)
    h1 = (hands[1] >> sh) & SUIT13
    h2 = (hands[2] >> sh) & SUIT13
    h3 = (hands[3] >> sh) & SUIT13
    present = ((hands[0] >> sh) & SUIT13) | h1 | h2 | h3
    odd = _compress(present, h1 | h3)  # owner bit 0: seats 1, 3
    upper = _compress(present, h2 | h3)  # owner bit 1: seats 2, 3
    return _spread(odd) | (_spread(upper) << U1)


# position_words, position_key and exact_lookup are inlined into the search (numba's
# `inline="always"`): no array passed as seven words at each trick boundary (valgrind:
# 0.989 of the kernels' instructions on bridge jobs 0-39)
@njit(inline="always", **NO_REFCOUNT)
def position_words(hands, leader, trump, maxmask, winmask):
    """(dist, meta, owners01, owners23) of a trick-boundary position (see module doc)."""
    dist = U0
    for q in range(4):
        for s in range(4):
            n = np.uint64(popcount(hands[q] & SUIT_MASK[s]))
            dist |= n << np.uint64(16 * q + 4 * s)
    meta = (np.uint64(leader) | (np.uint64(trump + 1) << np.uint64(2))
            | (np.uint64(maxmask) << np.uint64(5)) | (np.uint64(winmask) << np.uint64(9)))
    o1, o2 = owner_words(hands)
    return dist, meta, o1, o2


@njit(**NO_REFCOUNT)
def _owner_words_tables(hands):
    """(owners of suits 0-1, of suits 2-3): each suit's `_suit_owners`, suit 1's and 3's
    OWNER_BITS up. The portable form of `owner_words`."""
    o1 = _suit_owners(hands, 0) | (_suit_owners(hands, 1) << OWNER_BITS)
    o2 = _suit_owners(hands, 2) | (_suit_owners(hands, 3) << OWNER_BITS)
    return o1, o2


_EVEN52 = np.uint64(0x5555555555555)  # the even bits 0, 2, .., 50
_ODD52 = np.uint64(0xAAAAAAAAAAAAA)  # the odd bits 1, 3, .., 51


@njit(inline="always", **NO_REFCOUNT)
def _owner_words_bmi2(hands):
    """`_owner_words_tables` with BMI2's bit gather and scatter: in the bit-reversed
    words each suit's cards run from its highest card up, so gathering (`pext`) the owner
    bits at the cards in play lists them highest first; scattering (`pdep`) two suits'
    lists onto the even and the odd bits makes their 2-bit codes (with the store's
    `fresh`, bridge 0.905 of the time of the table form without it)."""
    present = bit_reverse(hands[0] | hands[1] | hands[2] | hands[3])
    odd = bit_reverse(hands[1] | hands[3])  # owner bit 0: seats 1, 3
    upper = bit_reverse(hands[2] | hands[3])  # owner bit 1: seats 2, 3
    odds = U0
    uppers = U0
    for s in range(4):
        sh = np.uint64(51 - 13 * s)  # suit s's ace, reversed
        p = (present >> sh) & SUIT13
        # suits 0 and 2 at bit 0, 1 and 3 at bit 13 of their halves (32 bits apart)
        at = np.uint64(13 * (s & 1) + 32 * (s >> 1))
        odds |= pext(odd >> sh, p) << at
        uppers |= pext(upper >> sh, p) << at
    lo26 = np.uint64((1 << 26) - 1)
    o1 = pdep(odds & lo26, _EVEN52) | pdep(uppers & lo26, _ODD52)
    o2 = pdep(odds >> np.uint64(32), _EVEN52) | pdep(uppers >> np.uint64(32), _ODD52)
    return o1, o2


owner_words = _owner_words_bmi2 if HAS_BMI2 else _owner_words_tables


@njit(**NO_REFCOUNT)
def ks_from_relevance(hands, rel):
    """k nibbles: per suit, the cards in play at or above the lowest relevant card of `rel`."""
    present = hands[0] | hands[1] | hands[2] | hands[3]
    kw = U0
    for s in range(4):
        r = rel & SUIT_MASK[s]
        if r != U0:
            low = r & (U0 - r)
            k = popcount(present & SUIT_MASK[s] & ~(low - U1))
            kw |= np.uint64(k) << np.uint64(4 * s)
    return kw


@njit(inline="always", **NO_REFCOUNT)  # a few instructions, at every trick boundary
def drop_sole_suits(hands, rel):
    """`rel` less every suit whose cards in play one hand holds alone: the suit lengths,
    part of every key, already say who holds each of its cards, so naming them only
    narrows the class."""
    for s in range(4):
        sm = SUIT_MASK[s]
        if (rel & sm) != U0:
            n = 0
            for q in range(4):
                if (hands[q] & sm) != U0:
                    n += 1
            if n <= 1:
                rel &= ~sm
    return rel


@njit(**NO_REFCOUNT)
def full_ks(hands):
    """k nibbles with every card in play relevant (the class is the exact position)."""
    kw = U0
    for s in range(4):
        n = popcount((hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[s])
        kw |= np.uint64(n) << np.uint64(4 * s)
    return kw


@njit(**NO_REFCOUNT)
def _relevance_from_ks_bmi2(hands, kw):
    """`_relevance_from_ks_tables` with one BMI2 scatter: the k-th highest card in play
    of a suit holding n is its (n - k)-th lowest, so a bit at that place among all the
    cards in play, suit by suit, scattered (`pdep`) onto them is the mask (bridge 0.983
    of the time of the table form)."""
    present = hands[0] | hands[1] | hands[2] | hands[3]
    sel = U0
    off = 0
    for s in range(4):
        n = popcount(present & SUIT_MASK[s])
        k = np.int64((kw >> np.uint64(4 * s)) & _F)
        sel |= np.uint64(k > 0) << np.uint64(off + n - k)  # nothing where k is 0
        off += n
    return pdep(sel, present)


@njit(**NO_REFCOUNT)
def _relevance_from_ks_tables(hands, kw):
    """Relevance mask of k nibbles: per suit, the k-th highest card still in play."""
    present = hands[0] | hands[1] | hands[2] | hands[3]
    rel = U0
    for s in range(4):
        k = np.int64((kw >> np.uint64(4 * s)) & _F)
        if k == 0:
            continue
        sh = np.uint64(13 * s)
        m = (present >> sh) & SUIT13
        high = m >> np.uint64(6)
        nh = popcount(high)
        if k <= nh:
            rel |= U1 << (sh + np.uint64(6 + _KTH_HIGHEST[high, k]))
        else:
            rel |= U1 << (sh + np.uint64(_KTH_HIGHEST[m & _LOW6, k - nh]))
    return rel


relevance_from_ks = _relevance_from_ks_bmi2 if HAS_BMI2 else _relevance_from_ks_tables


# [two k nibbles]: the owner-word mask of the top-k cards of two suits (`_owner_masks`)
_OWNER_MASKS = np.array([((1 << 2 * (b & 15)) - 1)
                         | (((1 << 2 * (b >> 4)) - 1) << int(OWNER_BITS))
                         for b in range(256)], dtype=np.uint64)


@njit(**NO_REFCOUNT)
def _owner_masks(kw):
    """Masks of the owner bits of the top-k cards of each suit, for both owner words.

    Two loads from a 2 KiB table rather than shifts on each nibble: a class lookup works
    these out for ~20 entries of its (dist, meta), of which ~0.8 match (the bench's
    bridge jobs 0-99); about 1% of the time, within the noise."""
    return _OWNER_MASKS[kw & _FF], _OWNER_MASKS[(kw >> np.uint64(8)) & _FF]


@njit(**NO_REFCOUNT)
def half_entries(table):
    """Entries (bucket rows) of a half: the rows above its header (`new_tables`)."""
    return np.int64(1) << (63 - leading_zeros(np.uint64(table.shape[0] - HEADER_ROWS)))


@njit(**NO_REFCOUNT)
def _header(table):
    """Row index of a half's header (see `new_tables`)."""
    return np.uint64(table.shape[0] - HEADER_ROWS)


@njit(**NO_REFCOUNT)
def _window(table):
    """Entries of the half in use now: its header's window, or every bucket row when the
    half has none yet (no store under a generation)."""
    w = np.int64(table[_header(table), 0])
    return w if w > 0 else half_entries(table)


@njit(**NO_REFCOUNT)
def _most(table, cls):
    """The largest window of a half: all of the exact half, the lower half of the class
    half (`cls`; its upper half is the pool of runs, `tt_store`)."""
    return half_entries(table) // 2 if cls else half_entries(table)


@njit(**NO_REFCOUNT)
def _start(table, gen, cls):
    """Before a store: a new generation (a new deal in kernels.dd.batch) starts from the
    smallest window, in the class half (`cls`) with an empty pool."""
    hd = _header(table)
    if table[hd, 2] != np.uint64(gen):
        w = min(WINDOW_MIN, _most(table, cls))
        table[hd, 0] = np.uint64(w)
        table[hd, 1] = U0
        table[hd, 2] = np.uint64(gen)
        if cls:
            table[hd, 3] = U0  # the pool's runs: none yet


@njit(**NO_REFCOUNT)
def _placed(table, cls):
    """After a new entry is placed: count it, and double the window once the entries
    placed in this generation reach half of it (so no window is more than half full)."""
    hd = _header(table)
    n = table[hd, 1] + U1
    table[hd, 1] = n
    w = np.int64(table[hd, 0])
    if 0 < w < _most(table, cls) and 2 * np.int64(n) >= w:
        _grow(table, cls)


@njit(**NO_REFCOUNT)
def _grow(table, cls):
    """Double the window: bucket b of the old window splits into buckets b and b + its
    bucket count, so each entry whose key now hashes to the upper one moves there, to the
    same place in the bucket (a run's pointer entry with its key's classes; the runs
    themselves, in the pool, do not move). The upper part may hold
    entries of earlier generations: an entry is valid wherever it lies (its key is a
    whole position or class), so those left there give only true bounds if found (one may
    shadow a moved entry of the same key, which only loses that entry's bounds), and
    being older they are the first replaced."""
    hd = _header(table)
    w = np.int64(table[hd, 0])
    table[hd, 0] = np.uint64(2 * w)
    for i in range(w):
        r = np.uint64(i)
        d = table[r, 3]
        if d == U0:
            continue
        # a class entry's key: dist, and meta in its data word
        k2 = _extra(d) & META_MASK if cls else table[r, 1]
        ways = _ways(cls)
        if _bucket(table, table[r, 0], k2, ways) == i - i % ways + w:
            t = np.uint64(i + w)
            for k in range(4):
                table[t, k] = table[r, k]
                table[r, k] = U0


@njit(**NO_REFCOUNT)
def _ways(cls):
    """Ways of a bucket of the class half (`cls`) or of the exact half."""
    return CLASS_WAYS if cls else WAYS


@njit(**NO_REFCOUNT)
def _hash(a, b):
    """The hash of key words (a, b); its low bits choose a bucket."""
    h = (a * _M1) ^ ((b ^ (b >> np.uint64(29))) * _M2)
    h ^= h >> np.uint64(29)
    h *= _M1
    return h ^ (h >> np.uint64(32))


@njit(**NO_REFCOUNT)
def _bucket(table, a, b, ways):
    """First entry index of the bucket (`ways` entries) of key words (a, b) in one half
    of the table."""
    nb = np.uint64(_window(table)) // np.uint64(ways)  # unsigned: a shift
    return np.int64(_hash(a, b) & (nb - U1)) * ways


@njit(**NO_REFCOUNT)
def _home(classes, dist, meta):
    """First row of a class key's bucket in the window: its entries lie in that bucket,
    and in its run in the pool (`tt_store`)."""
    return _bucket(classes, dist, meta, CLASS_WAYS)


@njit(**NO_REFCOUNT)
def _current(d, g):
    """Whether data word d was stored under generation g (modulo 4096)."""
    return (d >> _GEN_SHIFT) == (np.uint64(g) & _GEN)


@njit(**NO_REFCOUNT)
def _pack(lower, upper, depth, move, extra, gen):
    """A data word (see the module doc); `extra` is the class key's meta | k << 13
    (`_class_extra`), 0 in the exact half."""
    return (np.uint64(lower) | (np.uint64(upper) << np.uint64(4))
            | (np.uint64(depth) << np.uint64(8)) | (np.uint64(move) << np.uint64(15))
            | (np.uint64(extra) << _EXTRA_SHIFT) | ((np.uint64(gen) & _GEN) << _GEN_SHIFT))


@njit(**NO_REFCOUNT)
def _lower(d):
    """The lower bound of a data word."""
    return np.int64(d & _F)


@njit(**NO_REFCOUNT)
def _upper(d):
    """The upper bound of a data word."""
    return np.int64((d >> np.uint64(4)) & _F)


@njit(**NO_REFCOUNT)
def _move(d):
    """The best-lead code of a data word."""
    return np.int64((d >> np.uint64(15)) & _FF)


@njit(**NO_REFCOUNT)
def _cost(d):
    """The cost (replacement priority) of a data word."""
    return np.int64((d >> np.uint64(8)) & np.uint64(0x7F))


@njit(**NO_REFCOUNT)
def _extra(d):
    """The class key part of a data word: meta | k nibbles << 13."""
    return (d >> _EXTRA_SHIFT) & _EXTRA_MASK


@njit(**NO_REFCOUNT)
def _class_extra(meta, kw):
    """The class key part of a data word from meta and k nibbles (see `_extra`)."""
    return meta | (kw << _META_BITS)


@njit(**NO_REFCOUNT)
def _merged(d, lower, upper, depth, move, g):
    """Data word `d` tightened by new bounds, with a new best-move code (0: keep the stored
    one), depth and generation (its class key kept)."""
    lo = max(_lower(d), lower)
    up = min(_upper(d), upper)
    mv = move if move != 0 else _move(d)
    return _pack(lo, up, depth, mv, _extra(d), g)


@njit(**NO_REFCOUNT)
def _victim(table, base, ways, g):
    """Entry of a bucket to overwrite: empty, else an older generation, else the cheapest
    (the lowest cost, see the module doc)."""
    victim = base
    victim_cost = 1 << 40
    for w in range(ways):
        i = base + w
        d = table[np.uint64(i), 3]
        if d == U0:
            return i
        cost = _cost(d)
        if _current(d, g):
            cost += 128
        if cost < victim_cost:
            victim_cost = cost
            victim = i
    return victim


@njit(**NO_REFCOUNT)
def _write(table, i, w0, w1, w2, word, cls):
    """Write a new entry (three key words and the data word) at row i of a half (the
    class half: `cls`) and count it."""
    r = np.uint64(i)
    table[r, 0] = w0
    table[r, 1] = w1
    table[r, 2] = w2
    table[r, 3] = word
    _placed(table, cls)


@njit(**NO_REFCOUNT)
def _place(table, base, g, w0, w1, w2, word, cls):
    """Write a new entry (three key words and the data word) over the victim of the
    bucket at `base` of a half (the class half: `cls`)."""
    _write(table, _victim(table, base, _ways(cls), g), w0, w1, w2, word, cls)


@njit(inline="always", **NO_REFCOUNT)  # see position_words
def position_key(dist, meta, o1, o2):
    """The two key words of one exact position (relative ranks) for the exact half: each
    suit's owner code with a sentinel bit above it (so its length is part of it), then the
    leader, trump and seat masks."""
    # cards per suit: the four hands' nibbles of each suit added (sums stay below 16)
    per_suit = (dist & np.uint64(0xFFFF)) + ((dist >> np.uint64(16)) & np.uint64(0xFFFF)) \
        + ((dist >> np.uint64(32)) & np.uint64(0xFFFF)) + (dist >> np.uint64(48))
    n0 = per_suit & _F
    n1 = (per_suit >> np.uint64(4)) & _F
    n2 = (per_suit >> np.uint64(8)) & _F
    n3 = (per_suit >> np.uint64(12)) & _F
    low26 = np.uint64((1 << 26) - 1)
    c0 = (o1 & low26) | (U1 << (n0 + n0))
    c1 = (o1 >> OWNER_BITS) | (U1 << (n1 + n1))
    c2 = (o2 & low26) | (U1 << (n2 + n2))
    c3 = (o2 >> OWNER_BITS) | (U1 << (n3 + n3))
    k1 = c0 | (c1 << np.uint64(27)) | ((meta & np.uint64(0x1F)) << np.uint64(54))
    k2 = c2 | (c3 << np.uint64(27)) | ((meta >> np.uint64(5)) << np.uint64(54))
    return k1, k2


@njit(inline="always", **NO_REFCOUNT)  # see position_words
def exact_lookup(exact, k1, k2):
    """(lower, upper, k nibbles of the lower bound, of the upper bound, move code) of an
    exact position; (0, 13, 0, 0, 0) if absent."""
    base = _bucket(exact, k1, k2, WAYS)
    for w in range(WAYS):
        i = np.uint64(base + w)
        if exact[i, 0] == k1 and exact[i, 1] == k2:
            d = exact[i, 3]
            kk = exact[i, 2]
            return _lower(d), _upper(d), kk & _K16, kk >> np.uint64(16), _move(d)
    return 0, 13, U0, U0, 0


@njit(**NO_REFCOUNT)
def exact_store(exact, k1, k2, klo, kup, depth, lower, upper, move, gen):
    """Merge bounds, each with its own relevance (`klo`, `kup`: k nibbles; a bound that
    does not tighten the stored one leaves it and its relevance), and a best-move code
    (0: keep) into the exact entry of a position."""
    _start(exact, gen, False)
    base = _bucket(exact, k1, k2, WAYS)
    for w in range(WAYS):
        i = np.uint64(base + w)
        if exact[i, 0] == k1 and exact[i, 1] == k2:
            d = exact[i, 3]
            kk = exact[i, 2]
            if lower > _lower(d):
                kk = (kk & ~_K16) | klo
            if upper < _upper(d):
                kk = (kk & _K16) | (kup << np.uint64(16))
            exact[i, 2] = kk
            exact[i, 3] = _merged(d, lower, upper, depth, move, gen)
            return
    _place(exact, base, gen, k1, k2, klo | (kup << np.uint64(16)),
           _pack(lower, upper, depth, move, U0, gen), False)


@njit(**NO_REFCOUNT)
def move_code(hands, card):
    """Relative code of a card still in play: its suit and rank among the suit's cards left."""
    s = suit_of(card)
    present = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[s]
    below = present & ((U1 << np.uint64(card)) - U1)
    return 0x80 | (s << 4) | popcount(below)


@njit(**NO_REFCOUNT)
def code_card(hands, code):
    """The card id a `move_code` stands for in `hands` (-1 for no code)."""
    if code == 0:
        return -1
    s = (code >> 4) & 3
    k = code & 15
    present = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[s]
    for _ in range(k):
        present &= present - U1
    if present == U0:
        return -1
    return trailing_zeros(present)


@njit(**NO_REFCOUNT)
def class_lookup(classes, dist, meta, o1, o2, need):
    """Best bounds over the entries matching a position, and whether any matched:
    (lower, k of lower, upper, k of upper, move code, matched); (0, 0, 13, 0, 0, False)
    when none matches. With `need` >= 1 (a search's target), the first bound found that
    settles it (lower >= need, upper < need) is returned at once, with the other bound
    left open (0 or 13): scanning on for the settling bound resting on the fewest cards
    costs more than its narrower classes save (stopping at the first: bridge 1.013 of the
    nodes, 0.961 of the time).

    When no entry matched, no class holding the position is in the half, nor can one be
    stored before the search stores the position's own result (every position its search
    stores first has fewer cards, so other suit lengths), so that store is told to skip
    its scan for the class (`tt_store`'s `fresh`)."""
    first = _home(classes, dist, meta)
    lo = 0
    klo = U0
    up = 13
    kup = U0
    code = 0
    matched = False
    run = -1  # the key's run in the pool (`tt_store`), once its pointer is read
    count = 0
    n = CLASS_WAYS
    while True:  # the key's bucket, then its run (whose entries all hold the key)
        for w in range(n):
            i = np.uint64(first + w)  # unsigned: no wraparound test on the index
            if classes[i, 0] != dist:
                continue
            d = classes[i, 3]
            extra = _extra(d)
            if (extra & META_MASK) != meta:
                continue
            if _lower(d) == _PTR_LOWER:  # the run's pointer
                if _current(d, classes[_header(classes), 2]):
                    run = _pool_base(classes) + np.int64(classes[i, 1])
                    count = np.int64(classes[i, 2] >> np.uint64(32))
                continue
            kw = extra >> _META_BITS
            m1, m2 = _owner_masks(kw)
            if (o1 & m1) != classes[i, 1] or (o2 & m2) != classes[i, 2]:
                continue
            matched = True
            elo = _lower(d)
            eup = _upper(d)
            if need > 0 and elo >= need:
                return elo, kw, 13, U0, _move(d), True
            if need > 0 and eup < need:
                return 0, U0, eup, kw, _move(d), True
            if elo > lo:
                lo = elo
                klo = kw
            if eup < up:
                up = eup
                kup = kw
            mv = _move(d)
            if mv != 0:
                code = mv
        if run < 0 or first == run:
            break
        first = run
        n = count
    return lo, klo, up, kup, code, matched


@njit(**NO_REFCOUNT)
def _pool_base(classes):
    """First row of the class half's pool of runs, and its size: the half's upper half
    (the window stays in the lower one, `_most`)."""
    return _most(classes, True)


@njit(**NO_REFCOUNT)
def _pool_alloc(classes, n):
    """Start (pool-relative) of n fresh pool rows for this generation, or -1 when full."""
    hd = _header(classes)
    used = np.int64(classes[hd, 3])
    if used + n > _pool_base(classes):  # the pool is as large as its base row
        return -1
    classes[hd, 3] = np.uint64(used + n)
    return used


@njit(**NO_REFCOUNT)
def tt_store(classes, dist, meta, o1, o2, kw, depth, lower, upper, move, gen, fresh=False):
    """Merge bounds (lower, upper) and a best-move code (0: keep) for the class of positions
    sharing (dist, meta) and the owners of the top-k cards (`kw`) of each suit.

    A new class goes into its key's bucket where a way there is empty or of an older
    generation; else into the key's run in the pool (the module doc): appended, the run
    moved into one twice as long when full (up to CHAIN_MAX entries, then over its
    cheapest entry), or a new run of CHAIN_MIN entries begun, its pointer entry over the
    bucket's cheapest way (a way of the key moving into the run); when the pool is full,
    over the bucket's cheapest entry. With `fresh`
    (no entry matched the position when the search looked it up, `class_lookup`) the
    class cannot be in the half: the scan only looks for a free way and the key's run,
    not for the class, so the table ends the same either way (bridge 0.945 of the time)."""
    _start(classes, gen, True)
    base = _home(classes, dist, meta)
    m1, m2 = _owner_masks(kw)
    e1 = o1 & m1
    e2 = o2 & m2
    extra = _class_extra(meta, kw)
    free = -1  # the bucket's first way that is empty or of an older generation
    ptr = np.uint64(0)  # the key's run's pointer entry, when `has_ptr`
    has_ptr = False
    for w in range(CLASS_WAYS):
        i = np.uint64(base + w)
        d = classes[i, 3]
        if classes[i, 0] == dist:
            x = _extra(d)
            ptr_word = _lower(d) == _PTR_LOWER
            if (x == extra and not fresh and classes[i, 1] == e1 and classes[i, 2] == e2
                    and not ptr_word):
                classes[i, 3] = _merged(d, lower, upper, depth, move, gen)
                return
            if ptr_word and x == meta and _current(d, gen):
                ptr = i
                has_ptr = True
        if free < 0 and (d == U0 or not _current(d, gen)):
            free = base + w
    word = _pack(lower, upper, depth, move, extra, gen)
    pool = _pool_base(classes)
    if has_ptr:
        start = np.int64(classes[ptr, 1])
        cap = np.int64(classes[ptr, 2] & _LOW32)
        count = np.int64(classes[ptr, 2] >> np.uint64(32))
        if not fresh:
            for j in range(count):
                i = np.uint64(pool + start + j)
                d = classes[i, 3]
                if classes[i, 1] == e1 and classes[i, 2] == e2 and _extra(d) == extra:
                    classes[i, 3] = _merged(d, lower, upper, depth, move, gen)
                    return
        if free >= 0:
            _write(classes, free, dist, e1, e2, word, True)
            return
        # (the pointer is updated before the entry is written: a write may double the
        # window, `_placed`, and move the pointer with its key)
        if count < cap:
            classes[ptr, 2] = np.uint64(cap) | (np.uint64(count + 1) << np.uint64(32))
            _write(classes, pool + start + count, dist, e1, e2, word, True)
            return
        new = _pool_alloc(classes, 2 * cap) if cap < CHAIN_MAX else -1
        if new >= 0:
            for j in range(count):
                src = np.uint64(pool + start + j)
                dst = np.uint64(pool + new + j)
                for k in range(4):
                    classes[dst, k] = classes[src, k]
            classes[ptr, 1] = np.uint64(new)
            classes[ptr, 2] = np.uint64(2 * cap) | (np.uint64(count + 1) << np.uint64(32))
            _write(classes, pool + new + count, dist, e1, e2, word, True)
            return
        # the run is full: over its cheapest entry
        _write(classes, _victim(classes, pool + start, cap, gen), dist, e1, e2, word, True)
        return
    if free >= 0:
        _write(classes, free, dist, e1, e2, word, True)
        return
    new = _pool_alloc(classes, CHAIN_MIN)
    if new >= 0:
        # the key's run begins, its pointer over the bucket's cheapest way (a pointer costs
        # the most: it is replaced last); a way of the key moves into the run
        v = np.uint64(_victim(classes, base, CLASS_WAYS, gen))
        d = classes[v, 3]
        n = 0
        if classes[v, 0] == dist and (_extra(d) & META_MASK) == meta and _current(d, gen):
            for k in range(4):
                classes[np.uint64(pool + new), k] = classes[v, k]
            n = 1
        classes[v, 0] = dist
        classes[v, 1] = np.uint64(new)
        classes[v, 2] = np.uint64(CHAIN_MIN) | (np.uint64(n + 1) << np.uint64(32))
        classes[v, 3] = _pack(_PTR_LOWER, 0, 127, 0, meta, gen)
        _write(classes, pool + new + n, dist, e1, e2, word, True)
        return
    _place(classes, base, gen, dist, e1, e2, word, True)
