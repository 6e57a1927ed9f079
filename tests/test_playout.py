"""Playouts (R18-R20): the kernels against a slow pure-Python playout, rule properties of
recorded play, endings, determinism across thread counts, and the public `playout`."""

import numba
import numpy as np
import pytest
from conftest import sized
from hypothesis import given
from hypothesis import strategies as st

import analyser
from analyser.rules import playout
from kernels import playout as kplayout
from kernels.jit import njit
from kernels.rng import below, root_key, stream_state


def make_deals(n, seed, size=13):
    """n random deals whose hands hold `size` cards each (an ending when size < 13)."""
    rng = np.random.default_rng(seed)
    deals = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        perm = rng.permutation(52)[: 4 * size]
        for s in range(4):
            deals[i, s] = sum(1 << int(c) for c in perm[s * size:(s + 1) * size])
    return deals


def cards_of(mask):
    return [c for c in range(52) if int(mask) >> c & 1]


# --- slow reference: the random-legal playout written out plainly ---

def ref_playout(deals, trumps, leaders, seed):
    """Random-legal play of each deal, drawing from the same RNG streams as the kernel:
    block b = deals b*BLOCK.. uses sub-stream b; each card is the k-th lowest legal card,
    k = below(state, number of legal cards). Returns tricks, plays, winners as lists."""
    root = root_key(seed)
    state = np.empty(4, dtype=np.uint64)
    out = []
    for i, deal in enumerate(deals):
        if i % kplayout.BLOCK == 0:
            stream_state(root, i // kplayout.BLOCK, state)
        hands = [cards_of(h) for h in deal]
        leader, trump = int(leaders[i]), int(trumps[i])
        tricks, plays, winners = [0] * 4, [], []
        for _ in range(len(hands[leader])):
            trick = []
            for pos in range(4):
                seat = (leader + pos) % 4
                led = [c for c in hands[seat] if trick and c // 13 == trick[0] // 13]
                legal = sorted(led or hands[seat])  # R19
                card = legal[below(state, len(legal))]
                hands[seat].remove(card)
                trick.append(card)
            # R20: highest trump, else highest card of the suit led
            trumped = [p for p in range(4) if trick[p] // 13 == trump]
            followed = [p for p in range(4) if trick[p] // 13 == trick[0] // 13]
            pos = max(trumped or followed, key=lambda p: trick[p])
            leader = (leader + pos) % 4
            tricks[leader] += 1
            plays += trick
            winners.append(leader)
        out.append((tricks, plays, winners))
    return out


def run_record(deals, trumps, leaders, seed):
    n = len(deals)
    tricks = np.zeros((n, 4), dtype=np.int8)
    plays = np.full((n, 52), -1, dtype=np.int8)
    winners = np.full((n, 13), -1, dtype=np.int8)
    kplayout.playout_record(deals, np.asarray(trumps, dtype=np.int64),
                            np.asarray(leaders, dtype=np.int64), np.full(n, -1, dtype=np.int64),
                            0, root_key(seed), tricks, plays, winners)
    return tricks, plays, winners


def check_rules(deal, trump, leader, tricks, plays, winners):
    """R18-R20 on one recorded hand: every card legal for the hand it came from, every trick
    won by its R20 winner who leads next, each card played once, tricks summing up."""
    size = bin(int(deal[0])).count("1")
    hands = [set(cards_of(h)) for h in deal]
    plays = [int(c) for c in plays]
    assert plays[4 * size:] == [-1] * (52 - 4 * size)
    assert sorted(plays[: 4 * size]) == sorted(c for h in hands for c in h)  # each card once
    counts = [0] * 4
    for t in range(size):
        trick = plays[4 * t: 4 * t + 4]
        for pos, card in enumerate(trick):
            seat = (leader + pos) % 4
            assert card in hands[seat]
            if pos > 0 and any(c // 13 == trick[0] // 13 for c in hands[seat]):
                assert card // 13 == trick[0] // 13  # R19: followed suit when able
            hands[seat].remove(card)
        best = max(range(4), key=lambda p: (trick[p] // 13 == trump,
                                            trick[p] // 13 == trick[0] // 13, trick[p] % 13))
        assert winners[t] == (leader + best) % 4  # R20: exactly this seat wins
        leader = int(winners[t])  # R20: and leads next
        counts[leader] += 1
    assert list(winners[size:]) == [-1] * (13 - size)
    assert list(tricks) == counts and sum(counts) == size


# --- kernels against the reference ---

def test_r20_kernel_matches_reference_playout():
    n = sized(40, 400)
    deals = make_deals(n, 1)
    trumps = np.arange(n) % 5 - 1  # every trump, no trump (R20 misère) included
    leaders = np.arange(n) % 4
    tricks, plays, winners = run_record(deals, trumps, leaders, seed=11)
    for i, (r_tricks, r_plays, r_winners) in enumerate(ref_playout(deals, trumps, leaders, 11)):
        assert tricks[i].tolist() == r_tricks
        assert plays[i].tolist() == r_plays
        assert winners[i].tolist() == r_winners


def test_reference_spans_blocks():
    # deals BLOCK-1 and BLOCK start streams at different blocks; compare around the boundary
    n = kplayout.BLOCK + 3
    deals = np.repeat(make_deals(1, 2), n, axis=0)
    trumps, leaders = np.full(n, 2), np.zeros(n, dtype=np.int64)
    tricks, plays, _ = run_record(deals, trumps, leaders, seed=5)
    ref = ref_playout(deals[: kplayout.BLOCK + 2], trumps, leaders, 5)
    for i in (0, kplayout.BLOCK - 1, kplayout.BLOCK, kplayout.BLOCK + 1):
        assert plays[i].tolist() == ref[i][1]
    assert plays[0].tolist() != plays[kplayout.BLOCK].tolist()  # a fresh stream, not a replay


@given(st.integers(0, 2**32), st.integers(1, 13), st.integers(-1, 3), st.integers(0, 3),
       st.integers(0, 2**32))
def test_r19_r20_random_play_properties(deal_seed, size, trump, leader, seed):
    deals = make_deals(3, deal_seed, size)
    tricks, plays, winners = run_record(deals, np.full(3, trump), np.full(3, leader), seed)
    for i in range(3):
        check_rules(deals[i], trump, leader, tricks[i], plays[i], winners[i])


@pytest.mark.parametrize("size", [1, 2, 5, 12])
def test_endings_play_size_tricks(size):
    deals = make_deals(50, size, size)
    tricks = playout(deals, "S", "N", seed=size)
    assert (tricks.sum(axis=1) == size).all()
    tricks2, plays, winners = playout(deals, "S", "N", seed=size, record=True)
    assert plays.shape == (50, 4 * size) and winners.shape == (50, size)
    assert np.array_equal(tricks, tricks2)


def test_record_and_counts_agree():
    deals = make_deals(300, 3)
    tricks = playout(deals, 1, 0, seed=9)
    tricks2, plays, winners = playout(deals, 1, 0, seed=9, record=True)
    assert np.array_equal(tricks, tricks2)
    for s in range(4):
        assert np.array_equal(tricks[:, s], (winners == s).sum(axis=1))


# --- determinism (same seed, any number of threads) ---

def test_same_result_with_1_and_2_threads():
    deals = np.repeat(make_deals(8, 4), sized(600, 6000), axis=0)  # several blocks
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = playout(deals, -1, "E", seed=123, record=True)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = playout(deals, -1, "E", seed=123, record=True)
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)


def test_seed_changes_the_play():
    deals = make_deals(200, 5)
    a = playout(deals, 0, 0, seed=1, record=True)[1]
    b = playout(deals, 0, 0, seed=2, record=True)[1]
    assert np.array_equal(a, playout(deals, 0, 0, seed=1, record=True)[1])
    assert not np.array_equal(a, b)


# --- called from inside another @njit function ---

@njit
def _play_some(deals, trump, leader, root, stop):
    n = deals.shape[0]
    state = np.empty(4, dtype=np.uint64)
    stream_state(root, 0, state)
    tricks = np.zeros((n, 4), dtype=np.int8)
    plays = np.full((n, 52), -1, dtype=np.int8)
    winners = np.full((n, 13), -1, dtype=np.int8)
    kplayout.play_deals(deals, np.full(n, trump), np.full(n, leader), np.full(n, -1), 0, state,
                        0, stop, tricks, plays, winners, True)
    return tricks, plays, winners


@njit
def _tricks_in_kernel(deals, trumps, leaders, root):
    n = deals.shape[0]
    tricks = np.zeros((n, 4), dtype=np.int8)
    kplayout.playout_tricks(deals, trumps, leaders, np.full(n, -1, dtype=np.int64), 0, root,
                            tricks)
    return tricks


def test_kernels_inside_njit():
    deals = make_deals(20, 6)
    trumps, leaders = np.full(20, 3, dtype=np.int64), np.full(20, 2, dtype=np.int64)
    root = root_key(17)
    expected = playout(deals, 3, 2, seed=17, record=True)
    assert np.array_equal(_tricks_in_kernel(deals, trumps, leaders, root), expected[0])
    got = _play_some(deals, 3, 2, root, 5)  # deals 0..4 come first in block 0's stream
    for x, y in zip(got, expected, strict=True):
        assert np.array_equal(x[:5], y[:5])
    assert (got[1][5:] == -1).all() and (got[0][5:] == 0).all()  # deals past `stop` untouched


# --- the public API ---

def test_playout_exported():
    assert analyser.playout is playout


def test_per_deal_trump_and_leader_match_scalars():
    deals = make_deals(30, 7)
    a = playout(deals, "H", "S", seed=4, record=True)
    b = playout(deals, [1] * 30, ["S"] * 30, seed=4, record=True)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)


def test_playout_leader_letters():
    deals = make_deals(10, 8)
    assert np.array_equal(playout(deals, 0, "W", seed=1), playout(deals, 0, 3, seed=1))


def test_playout_unknown_policy_lists_known():
    with pytest.raises(ValueError, match="random-legal"):
        playout(make_deals(1, 0), 0, 0, policy="greedy")


@pytest.mark.parametrize(
    "deals, field",
    [
        (np.zeros((2, 3), dtype=np.uint64), "shape"),
        (np.array([[1, 1, 2, 4]], dtype=np.uint64), "two hands"),
        (np.array([[1, 2, 4, 24]], dtype=np.uint64), "unequal"),
        (np.array([[1 << 52, 2, 4, 8]], dtype=np.uint64), "outside"),
        (np.array([[-1, 2, 4, 8]], dtype=np.int64), "uint64"),
    ],
)
def test_playout_rejects_bad_deals(deals, field):
    with pytest.raises(ValueError, match=field):
        playout(deals, 0, 0)


def test_playout_rejects_bad_trump_leader_seed():
    deals = make_deals(2, 0)
    with pytest.raises(ValueError, match="suit"):
        playout(deals, 7, 0)
    with pytest.raises(ValueError, match="seat"):
        playout(deals, 0, "X")
    with pytest.raises(ValueError, match="leader"):
        playout(deals, 0, [0, 1, 2])
    with pytest.raises(ValueError, match="seed"):
        playout(deals, 0, 0, seed=-1)
    with pytest.raises(ValueError, match="trump"):
        playout(deals, 1.5, 0)


def test_playout_empty_batch():
    tricks = playout(np.zeros((0, 4), dtype=np.uint64), 0, 0)
    assert tricks.shape == (0, 4) and tricks.dtype == np.int8
