"""Dealing (kernels/dealing.py, analyser/dealing.py): exact agreement with slow references,
uniformity (patterns, card-by-seat, exhaustive small cases), R4/R5 physical dealing, determinism."""

import math
from collections import Counter

import numba
import numpy as np
import pytest
from conftest import sized
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from test_rng import RefXoshiro, ref_stream_state

import analyser
from analyser.cards import CardError, parse_deal, parse_hand
from analyser.dealing import DealError, cut, deal_from_order, deal_known, deal_random, deal_with
from analyser.errors import UserError
from analyser.shapes import pattern_counts, pattern_probabilities
from kernels import dealing as K
from kernels.jit import njit
from kernels.rng import root_key, stream_state

FULL = (1 << 52) - 1
M64 = (1 << 64) - 1


# ---- slow references: the same algorithms on Python ints, from the same random words ----

def ref_pdep(x, mask):
    """Bit i of x placed on the i-th lowest set bit of mask."""
    out, i = 0, 0
    for card in range(64):
        if mask >> card & 1:
            out |= (x >> i & 1) << card
            i += 1
    return out


def ref_deal_random_block(root, block, count):
    """The first `count` deals of block `block`, as lists of 4 ints: per chunk, CHUNK halves
    (52 bits with 26 set), then 2 * CHUNK patterns (26-bit fields, low one first, 13 set)."""
    rng = RefXoshiro(ref_stream_state(root, block))
    deals = []
    while len(deals) < count:
        halves, patterns = [], []
        while len(halves) < K.CHUNK:
            half = rng.next() & FULL
            if half.bit_count() == 26:
                halves.append(half)
        while len(patterns) < 2 * K.CHUNK:
            word = rng.next()
            for field in (word & (2**26 - 1), word >> 26 & (2**26 - 1)):
                if field.bit_count() == 13:
                    patterns.append(field)
        for i, half in enumerate(halves):
            north = ref_pdep(patterns[2 * i], half)
            east = ref_pdep(patterns[2 * i + 1], FULL ^ half)
            deals.append([north, east, half ^ north, (FULL ^ half) ^ east])
    return deals[:count]


def ref_draw_cards(rng, deck, m, start, count):
    """Partial Fisher-Yates; each group of <= 8 ranges takes one accepted word, whose value
    floor(x * P / 2**64) is split into mixed-radix digits by division (first range most
    significant), independently of the kernel's multiply-and-peel."""
    picked = 0
    i, stop = start, start + count
    while i < stop:
        g = min(K.GROUP, stop - i)
        bounds = [m - i - t for t in range(g)]
        product = math.prod(bounds)
        while True:
            x = rng.next()
            if (x * product) & M64 >= (1 << 64) % product:
                break
        value = (x * product) >> 64
        digits = []
        for b in reversed(bounds):
            digits.append(value % b)
            value //= b
        digits.reverse()
        for t, d in enumerate(digits):
            j = i + t + d
            deck[i + t], deck[j] = deck[j], deck[i + t]
            picked |= deck[i + t]
        i += g
    return picked


def ref_deal_known_block(root, known, block, count):
    known = [int(k) for k in known]
    taken = known[0] | known[1] | known[2] | known[3]
    deck = [1 << c for c in range(52) if not taken >> c & 1]
    m = len(deck)
    rng = RefXoshiro(ref_stream_state(root, block))
    needy = [s for s in range(4) if known[s].bit_count() < 13]
    deals = []
    for _ in range(count):
        hands = list(known)
        start, dealt = 0, 0
        for s in needy[:-1]:
            need = 13 - known[s].bit_count()
            cards = ref_draw_cards(rng, deck, m, start, need)
            hands[s] |= cards
            dealt |= cards
            start += need
        if needy:
            hands[needy[-1]] |= (FULL & ~taken) & ~dealt
        deals.append(hands)
    return deals


def as_lists(deals):
    return [[int(h) for h in row] for row in deals]


def assert_partitions(deals, known=(0, 0, 0, 0)):
    """Every row is a partition of the deck into four 13-card hands holding the known cards."""
    deals = np.asarray(deals, dtype=np.uint64)
    assert deals.dtype == np.uint64 and deals.ndim == 2 and deals.shape[1] == 4
    assert (np.bitwise_count(deals) == 13).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == np.uint64(FULL)).all()
    for s in range(4):
        assert ((deals[:, s] & np.uint64(known[s])) == np.uint64(known[s])).all()


def card_seat_counts(deals):
    """(52, 4) table: how often each card id was held by each seat."""
    deals = np.ascontiguousarray(deals, dtype=np.uint64)
    counts = np.zeros((4, 64), dtype=np.int64)
    for start in range(0, deals.shape[0], 65536):
        chunk = deals[start:start + 65536]
        bits = np.unpackbits(chunk.view(np.uint8).reshape(-1, 4, 8), axis=2, bitorder="little")
        counts += bits.sum(axis=0, dtype=np.int64)
    return counts[:, :52].T


def uniform_table_pvalue(table, free_cards, needs):
    """p-value that each free card sits at each needy seat with probability need/m.

    A deal fixes both margins (each card in one seat, each seat `need` cards), so the Pearson
    statistic is about m/(m-1) times a chi-square with (m-1)(k-1) degrees of freedom.
    """
    n = table[free_cards[0]].sum()
    m = len(free_cards)
    seats = [s for s in range(4) if needs[s] > 0]
    observed = table[np.ix_(free_cards, seats)]
    expected = n * np.array([needs[s] for s in seats]) / m
    statistic = ((observed - expected) ** 2 / expected).sum() * (m - 1) / m
    return stats.chi2.sf(statistic, (m - 1) * (len(seats) - 1))


# ---- agreement with the references ----

def test_deal_batch_matches_reference_in_two_blocks():
    root = root_key(99)
    deals = K.deal_batch(root, K.BLOCK_DEALS + K.CHUNK + 30)
    # two chunks of block 0, and block 1 past its first chunk
    assert as_lists(deals[:K.CHUNK + 40]) == ref_deal_random_block(root, 0, K.CHUNK + 40)
    assert as_lists(deals[K.BLOCK_DEALS:]) == ref_deal_random_block(root, 1, K.CHUNK + 30)


@given(x=st.integers(0, M64), mask=st.integers(0, M64))
def test_pdep_matches_reference(x, mask):
    want = ref_pdep(x, mask)
    assert int(K.pdep(np.uint64(x), np.uint64(mask))) == want
    assert int(K._pdep_loop(np.uint64(x), np.uint64(mask))) == want  # the portable fallback


@pytest.mark.parametrize("known_text", [
    "N:AKQJT98765432... - - -",  # deal_with's case: unrolled copy, starting at position 0
    "N:- - .AKQJT98765432.. -",  # deal_with's case with the needy seats N, E, W
    "N:- AK.Q.J.T - 2.3.4.5",  # general case
    "N:A... K... Q... J...",  # one known card each
])
def test_deal_known_matches_reference(known_text):
    first, _, rest = known_text.partition(":")
    known = np.array([0 if h == "-" else parse_hand(h) for h in rest.split()], dtype=np.uint64)
    root = root_key(5)
    deals = K.deal_known_batch(root, known, K.BLOCK_DEALS + 20)
    assert as_lists(deals[:40]) == ref_deal_known_block(root, known, 0, 40)
    assert as_lists(deals[K.BLOCK_DEALS:]) == ref_deal_known_block(root, known, 1, 20)
    assert_partitions(deals, known)


def test_deal_known_matches_reference_when_the_last_seat_is_full():
    # W fully known: S is the last seat that needs cards and takes the rest
    known = np.array([0, parse_hand("A..."), 0, parse_hand("KQJT98765432.A..")], dtype=np.uint64)
    root = root_key(6)
    deals = K.deal_known_batch(root, known, 50)
    assert as_lists(deals) == ref_deal_known_block(root, known, 0, 50)


# ---- structure ----

@given(
    seed=st.integers(0, 2**64 - 1),
    order=st.permutations(range(52)),
    counts=st.lists(st.integers(0, 13), min_size=4, max_size=4),
)
def test_deal_known_is_a_partition_keeping_known_cards(seed, order, counts):
    known = [sum(1 << c for c in order[13 * s:13 * s + counts[s]]) for s in range(4)]
    deals = deal_known(known, 40, seed)
    assert_partitions(deals, known)


def test_deal_random_is_a_partition_and_deterministic():
    deals = deal_random(10_000, 17)
    assert deals.shape == (10_000, 4)
    assert_partitions(deals)
    assert np.array_equal(deals, deal_random(10_000, 17))
    assert not np.array_equal(deals, deal_random(10_000, 18))
    assert np.array_equal(deals[:5000], deal_random(5000, 17))  # a prefix does not depend on n
    assert np.array_equal(deal_random(3, np.random.SeedSequence(17)), deals[:3])


def test_zero_deals():
    assert deal_random(0, 1).shape == (0, 4)
    assert deal_with(parse_hand("AKQJT98765432..."), 0, 0, 1).shape == (0, 4)


def test_public_api_names():
    assert analyser.deal_random is deal_random
    assert analyser.deal_with is deal_with


def test_same_deals_with_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here")
    n = 3 * K.BLOCK_DEALS + 123
    known = {"E": "AKQ.AKQ.AKQ.AKQ2"}
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = deal_random(n, 4), deal_known(known, n, 4)
        numba.set_num_threads(2)
        two = deal_random(n, 4), deal_known(known, n, 4)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one[0], two[0])
    assert np.array_equal(one[1], two[1])


@njit
def _deal_inside_njit(root, known, n):
    """Kernels called from another njit function: one stream, chunk by chunk / deal by deal."""
    out = np.empty((2 * n, 4), dtype=np.uint64)
    state = np.empty(4, dtype=np.uint64)
    stream_state(root, 0, state)
    halves = np.empty(K.CHUNK + 1, dtype=np.uint64)
    patterns = np.empty(2 * K.CHUNK + 2, dtype=np.uint64)
    for row in range(0, n, K.CHUNK):
        K.deal_random_chunk(state, halves, patterns, out, row, min(K.CHUNK, n - row))
    stream_state(root, 0, state)
    deck = np.empty(52, dtype=np.uint64)
    m = K.free_cards(known, deck)
    for row in range(n, 2 * n):
        K.deal_known_into(state, deck, m, known, out, row)
    batch = np.empty((n, 4), dtype=np.uint64)
    K.deal_batch_into(root, batch)
    known_batch = np.empty((n, 4), dtype=np.uint64)
    K.deal_known_batch_into(root, known, known_batch)
    return out, batch, known_batch


def test_kernels_from_inside_njit_match_python_calls():
    root = root_key(8)
    known = np.array([0, 0, parse_hand("AKQJ.AKQ.AKQ.AKQ"), 0], dtype=np.uint64)
    n = K.CHUNK + 100  # a whole chunk, then a part of one
    out, batch, known_batch = _deal_inside_njit(root, known, n)
    assert np.array_equal(out[:n], K.deal_batch(root, n))
    assert np.array_equal(batch, out[:n])
    assert np.array_equal(out[n:], K.deal_known_batch(root, known, n))
    assert np.array_equal(known_batch, out[n:])


# ---- uniformity ----

def patterns_pvalue(n, seed, seat):
    """Chi-square p-value of the patterns of one seat's hands in n deals (independent hands)."""
    deals = deal_random(n, seed)
    counts = pattern_counts(deals[:, seat])
    probs = np.array([float(p) for p in pattern_probabilities().values()])
    keep = probs * n >= 5  # pool the patterns too rare to expect 5 hands
    observed = np.append(counts[keep], counts[~keep].sum())
    expected = np.append(probs[keep], probs[~keep].sum()) * n
    return stats.chisquare(observed, expected).pvalue


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_patterns_match_exact_probabilities(seat):
    # one hand per deal, so the hands are independent; 1,000,000 hands per seat
    assert patterns_pvalue(sized(1_000_000, 4_000_000), 2026 + seat, seat) > 0.001


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_patterns_match_exact_probabilities_full_size(seat):
    assert patterns_pvalue(sized(2_000_000, 20_000_000), 3026 + seat, seat) > 0.001


def test_every_card_equally_likely_at_every_seat():
    deals = deal_random(sized(200_000, 2_000_000), 31)
    table = card_seat_counts(deals)
    assert (table.sum(axis=1) == deals.shape[0]).all()
    assert uniform_table_pvalue(table, list(range(52)), [13, 13, 13, 13]) > 0.001


@pytest.mark.slow
def test_every_card_equally_likely_at_every_seat_full_size():
    deals = deal_random(sized(1_000_000, 10_000_000), 32)
    assert uniform_table_pvalue(card_seat_counts(deals), list(range(52)), [13] * 4) > 0.001


def test_deal_known_all_cards_known_returns_the_deal():
    deal = deal_random(1, 3)[0]
    assert (deal_known(list(deal), 5, 0) == deal).all()


@pytest.mark.parametrize("seat", [0, 3])
def test_deal_with_keeps_hand_and_other_cards_uniform(seat):
    hand = parse_hand("AQ83.K742.95.JT6")
    deals = deal_with(hand, "NESW"[seat], sized(150_000, 1_500_000), 77)
    assert (deals[:, seat] == np.uint64(hand)).all()
    assert_partitions(deals)
    table = card_seat_counts(deals)
    free = [c for c in range(52) if not hand >> c & 1]
    needs = [0 if s == seat else 13 for s in range(4)]
    assert uniform_table_pvalue(table, free, needs) > 0.001


def test_deal_known_partial_keeps_cards_and_rest_uniform():
    known = {"N": "AK.Q..", "E": "2.2.2.2", "S": "..JT98765.", "W": "..."}
    masks = [parse_hand(known[s]) for s in "NESW"]
    deals = deal_known(known, sized(150_000, 1_500_000), 78)
    assert_partitions(deals, masks)
    taken = masks[0] | masks[1] | masks[2] | masks[3]
    free = [c for c in range(52) if not taken >> c & 1]
    needs = [13 - m.bit_count() for m in masks]
    assert uniform_table_pvalue(card_seat_counts(deals), free, needs) > 0.001


@pytest.mark.parametrize("missing, outcomes", [(1, 24), (2, 2520)])
def test_deal_known_exhaustive_small_case_uniform(missing, outcomes):
    # each seat misses `missing` cards of a fixed deal: every possible completion must be
    # dealt, and equally often
    deal = parse_deal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    known = []
    for hand in deal:
        hand = int(hand)
        for _ in range(missing):
            hand &= hand - 1  # drop the lowest card
        known.append(hand)
    n = 100 * outcomes
    deals = deal_known(known, n, 5150)
    counts = Counter(map(tuple, deals.tolist()))
    assert len(counts) == outcomes
    assert stats.chisquare(list(counts.values())).pvalue > 0.001


# ---- R4 / R5 physical dealing ----

def ref_deal_from_order(order, dealer):
    hands = [0, 0, 0, 0]
    pos = 0
    for packet in (4, 4, 5):
        for k in range(1, 5):
            for _ in range(packet):
                hands[(dealer + k) % 4] |= 1 << int(order[pos])
                pos += 1
    return hands


def test_r5_packets_4_4_5():
    order = np.arange(52, dtype=np.int8)
    deal = deal_from_order(order, 0)
    # dealer N: E gets cards 0-3, 16-19, 32-36; S 4-7, 20-23, 37-41; W ...; N last of each round
    expect = {1: [*range(0, 4), *range(16, 20), *range(32, 37)],
              2: [*range(4, 8), *range(20, 24), *range(37, 42)],
              3: [*range(8, 12), *range(24, 28), *range(42, 47)],
              0: [*range(12, 16), *range(28, 32), *range(47, 52)]}
    for seat, cards in expect.items():
        assert int(deal[seat]) == sum(1 << c for c in cards)


@given(order=st.permutations(range(52)), dealer=st.integers(0, 3))
def test_r5_deal_from_order_matches_reference(order, dealer):
    deal = deal_from_order(np.array(order, dtype=np.int8), "NESW"[dealer])
    assert [int(h) for h in deal] == ref_deal_from_order(order, dealer)
    assert_partitions(deal[None, :])


@given(order=st.permutations(range(52)), point=st.integers(0, 52))
def test_r4_cut_moves_top_cards_under(order, point):
    got = cut(np.array(order, dtype=np.int8), point)
    assert got.tolist() == order[point:] + order[:point]


@njit
def _shuffled_tops(seed_state, n):
    state = seed_state.copy()
    order = np.arange(52).astype(np.int8)
    tops = np.zeros(52, dtype=np.int64)
    for _ in range(n):
        K.shuffle_order(state, order)
        tops[order[0]] += 1
    return tops, order


def test_r4_shuffle_order_is_a_uniform_permutation():
    state = np.empty(4, dtype=np.uint64)
    stream_state(root_key(1), 0, state)
    tops, order = _shuffled_tops(state, 104_000)
    assert sorted(order.tolist()) == list(range(52))
    assert stats.chisquare(tops).pvalue > 0.001


# ---- input errors ----

@pytest.mark.parametrize("call, error, words", [
    (lambda: deal_random(-1, 0), DealError, "n"),
    (lambda: deal_random(2.0, 0), DealError, "n"),
    (lambda: deal_random(1, -5), DealError, "seed"),
    (lambda: deal_random(1, "x"), DealError, "seed"),
    (lambda: deal_with(parse_hand("AKQ..."), 0, 1, 0), CardError, "3 cards"),
    (lambda: deal_with((1 << 14) - 1, 0, 1, 0), CardError, "14 cards"),
    (lambda: deal_with("AKQJT98765432.A..", 0, 1, 0), CardError, "holds 14 cards"),
    (lambda: deal_with(parse_hand("AKQJT98765432..."), "X", 1, 0), CardError, "seat"),
    (lambda: deal_with(1 << 60, 0, 1, 0), CardError, "outside"),
    (lambda: deal_known({0: "A...", "E": "A..."}, 1, 0), CardError, "two seats"),
    (lambda: deal_known({"S": (1 << 14) - 1}, 1, 0), CardError, "14 known"),
    (lambda: deal_known({"S": "AKQJT98765432.A.."}, 1, 0), CardError, "holds 14 cards"),
    (lambda: deal_known([0, 0, 0], 1, 0), CardError, "4 masks"),
    (lambda: cut(np.arange(52), 53), DealError, "cut point"),
    (lambda: deal_from_order(np.zeros(52, dtype=np.int8), 0), CardError, "exactly once"),
])
def test_bad_input_raises_clear_error(call, error, words):
    with pytest.raises(error, match=words) as info:
        call()
    assert isinstance(info.value, UserError) and isinstance(info.value, ValueError)


def test_deal_with_accepts_text_and_seat_letters():
    text = "AKQJ.T98.765.432"
    a = deal_with(text, "W", 20, 3)
    b = deal_with(parse_hand(text), 3, 20, 3)
    assert np.array_equal(a, b)
    assert (a[:, 3] == np.uint64(parse_hand(text))).all()
