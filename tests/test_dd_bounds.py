"""kernels.dd_bounds: quick bounds never contradict the exact value (brute force)."""

import random

import numpy as np

from kernels.dd_bounds import (
    must_win_lead,
    quick_bounds,
    seat_count,
    sure_tricks,
    top_trumps,
    trump_length_tricks,
)
from tests.conftest import sized
from tests.test_dd_search import brute_value, random_ending


def test_quick_bounds_bracket_exact_values_all_modes():
    rng = random.Random(11)
    for _ in range(sized(150, 1500)):
        k = rng.randint(1, 4)
        hands = random_ending(rng, k)
        trump = rng.randint(-1, 3)
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 7])
        arr = np.array(hands, np.uint64)
        lo, up, _, _ = quick_bounds(arr, leader, trump, mask, mask)
        v = brute_value(hands, trump, leader, mask, mask)
        assert lo <= v <= up, (hands, trump, leader, mask, lo, v, up)
        d = rng.randint(0, 3)
        lo, up, _, _ = quick_bounds(arr, leader, -1, 15 ^ (1 << d), 1 << d)
        v = brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d)
        assert lo <= v <= up


def test_sure_tricks_cash_top_run_no_trump():
    # N holds SAK and HA, nobody else any higher card: 3 sure tricks on lead
    n = (1 << 12) | (1 << 11) | (1 << 25)
    e = (1 << 10) | (1 << 0) | (1 << 14)
    s = (1 << 9) | (1 << 1) | (1 << 15)
    w = (1 << 8) | (1 << 2) | (1 << 16)
    arr = np.array([n, e, s, w], np.uint64)
    assert sure_tricks(arr, 0, 1, -1)[0] == 3
    # clubs trump, W holds one spade, one club, one heart: W ruffs the second spade, so
    # only one side suit is cashed first, as far as W follows: one trick
    arr2 = np.array([n, e, s, (1 << 8) | (1 << 39) | (1 << 16)], np.uint64)
    assert sure_tricks(arr2, 0, 1, 3)[0] == 1
    assert seat_count(top_trumps(arr2, 3)[0], 3) == 1


def test_must_win_lead_in_misere():
    # declarer N holds only the spade ace; E, S, W hold lower spades: it must win
    arr = np.array([1 << 12, 1 << 0, 1 << 1, 1 << 2], np.uint64)
    assert must_win_lead(arr, 0)[0]
    arr = np.array([1 << 5, 1 << 12, 1 << 1, 1 << 2], np.uint64)
    assert not must_win_lead(arr, 0)[0]


def test_r20_lone_declarer_keeps_the_trumps_higher_opposing_trumps_cannot_all_beat():
    # spades trump: N holds S5432, the defenders one higher trump each (A, K, Q) and hearts.
    # Each opposing trump beats at most one of N's, so one of N's four trumps must win.
    s = lambda *r: sum(1 << x for x in r)  # noqa: E731
    hands = [s(3, 2, 1, 0), s(12, 14, 15, 16), s(11, 17, 18, 19), s(10, 20, 21, 22)]
    arr = np.array(hands, np.uint64)
    tricks, rel = trump_length_tricks(arr, 0, 0)
    assert tricks == 1 and rel == np.uint64(1)  # rests on the trumps down to N's S2
    assert quick_bounds(arr, 1, 0, 1, 1)[0] >= 1
    assert brute_value(hands, 0, 1, 1, 1) >= 1
    # give W a fourth spade above N's lowest (the S6 for a heart): the bound falls to 0
    hands[3] = s(10, 4, 21, 22)
    assert trump_length_tricks(np.array(hands, np.uint64), 0, 0)[0] == 0
