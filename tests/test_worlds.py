"""Hidden-card worlds (kernels/worlds.py): exact counts, exact uniformity, consistency.

The reference (tests/reference_pimc.py) enumerates every assignment of the hidden cards
to the slots in plain Python, honouring each slot's size and its voids (R19: a seat that
did not follow is void in the suit led; a little-misère discard, R15, has no void).
"""

import math
import random
from collections import Counter
from math import factorial

import numpy as np
import pytest
from reference_pimc import consistent_worlds
from scipy.stats import chisquare

from kernels import worlds
from kernels.jit import njit
from kernels.rng import root_key, stream_state


def brute_worlds(hidden, need, void):
    """Every consistent world as a tuple of 8 slot masks (the reference's enumeration)."""
    voids = [{suit for suit in range(4) if void[seat] >> suit & 1} for seat in range(4)]
    discards = [seat for seat in range(4) if need[worlds.DISCARD_SLOT + seat]]
    assert all(need[worlds.DISCARD_SLOT + seat] == 1 for seat in discards)
    found = consistent_worlds(hidden, need[:4], voids, discards)
    return [tuple(w.get(j, 0) for j in range(8)) for w in found]


def random_view(rng, n_hidden, n_suits=3):
    """A random small view: hidden cards from a few suits, 2-3 hands, maybe discards, voids."""
    suits = rng.sample(range(4), n_suits)
    pool = [13 * s + r for s in suits for r in range(13)]
    cards = rng.sample(pool, n_hidden)
    hidden = sum(1 << c for c in cards)
    need = [0] * 8
    void = [0] * 8
    seats = rng.sample(range(4), rng.choice([2, 3]))
    discards = rng.choice([0, 0, len(seats)])  # little misère: one discard per seat
    left = n_hidden - discards
    for j, seat in enumerate(seats):
        need[seat] = left // len(seats) + (1 if j < left % len(seats) else 0)
        if discards:
            need[worlds.DISCARD_SLOT + seat] = 1
        if rng.random() < 0.5:
            void[seat] = 1 << rng.choice(suits)
    return hidden, need, void


def as_arrays(need, void):
    return np.array(need, dtype=np.int64), np.array(void, dtype=np.int64)


def count(hidden, need, void):
    need_a, void_a = as_arrays(need, void)
    table, strides = worlds.world_space(np.uint64(hidden), need_a, void_a)
    return worlds.count_worlds(table, need_a, strides)


def test_counts_match_enumeration():
    """The dynamic programme counts exactly the worlds that plain enumeration finds."""
    rng = random.Random(67)
    seen_voids = 0
    for _ in range(60):
        hidden, need, void = random_view(rng, rng.randint(3, 9))
        expected = len(brute_worlds(hidden, need, void))
        assert count(hidden, need, void) == expected
        seen_voids += any(void)
    assert seen_voids > 10  # the voids were exercised


def test_enumeration_lists_every_world_once():
    rng = random.Random(5)
    for _ in range(30):
        hidden, need, void = random_view(rng, rng.randint(3, 8))
        expected = brute_worlds(hidden, need, void)
        need_a, void_a = as_arrays(need, void)
        if not expected:
            with pytest.raises(ValueError, match="no consistent world"):
                worlds.enumerate_worlds(np.uint64(hidden), need_a, void_a, 10**6)
            continue
        got = worlds.enumerate_worlds(np.uint64(hidden), need_a, void_a, 10**6)
        listed = [tuple(int(x) for x in row) for row in got]
        assert len(listed) == len(set(listed)) == len(expected)
        assert set(listed) == set(expected)


def test_enumeration_refuses_beyond_its_limit():
    hidden, need, void = (1 << 9) - 1, [0, 3, 3, 3, 0, 0, 0, 0], [0] * 8
    need_a, void_a = as_arrays(need, void)
    assert worlds.enumerate_worlds(np.uint64(hidden), need_a, void_a, 100).shape == (0, 8)
    assert worlds.enumerate_worlds(np.uint64(hidden), need_a, void_a, 1680).shape == (1680, 8)


def test_draw_worlds_enumerates_or_samples():
    """One count decides: every world up to the limit, else n draws as sample_worlds."""
    hidden, need, void = (1 << 9) - 1, [0, 3, 3, 3, 0, 0, 0, 0], [0] * 8
    need_a, void_a = as_arrays(need, void)
    every, enumerated = worlds.draw_worlds(np.uint64(hidden), need_a, void_a, 1680, 5, _state(4))
    assert enumerated and every.shape == (1680, 8)
    drawn, enumerated = worlds.draw_worlds(np.uint64(hidden), need_a, void_a, 1679, 5, _state(4))
    sampled = np.zeros((5, 8), dtype=np.uint64)
    worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 5, _state(4), sampled)
    assert not enumerated and np.array_equal(drawn, sampled)


def _state(seed, stream=0):
    state = np.empty(4, dtype=np.uint64)
    stream_state(root_key(seed), stream, state)
    return state


def test_sampling_is_exactly_uniform():
    """Chi-square against the uniform law over every consistent world (voids and discards)."""
    hidden = sum(1 << c for c in (0, 3, 7, 11, 13, 15, 20, 26))  # 4 spades, 3 hearts, 1 diamond
    need = [0, 3, 0, 3, 0, 1, 0, 1]  # E and W hold 3 each and discarded one each
    void = [0, 1 << 1, 0, 0, 0, 0, 0, 0]  # E showed out of hearts
    expected = brute_worlds(hidden, need, void)
    assert 50 < len(expected) < 400
    need_a, void_a = as_arrays(need, void)
    n = 200 * len(expected)
    out = np.zeros((n, 8), dtype=np.uint64)
    total = worlds.sample_worlds(np.uint64(hidden), need_a, void_a, n, _state(1), out)
    assert total == len(expected)
    tally = Counter(tuple(int(x) for x in row) for row in out)
    assert set(tally) == set(expected)  # every world reachable, none inconsistent
    assert chisquare([tally[w] for w in expected]).pvalue > 1e-4


def test_sampling_every_world_consistent_at_full_size():
    """Opening-lead views of a full deal, with a void and with little-misère discards."""
    rng = random.Random(3)
    for trial in range(4):
        cards = rng.sample(range(52), 52)
        own = sum(1 << c for c in cards[:13])
        hidden = ((1 << 52) - 1) ^ own
        little = trial % 2 == 1
        per = 12 if little else 13
        need = [per, per, per, 0, 1, 1, 1, 0] if little else [13, 13, 13, 0, 0, 0, 0, 0]
        void = [0] * 8
        need_a, void_a = as_arrays(need, void)
        out = np.zeros((50, 8), dtype=np.uint64)
        total = worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 50, _state(trial), out)
        exact = factorial(39) // (factorial(per) ** 3)
        assert math.isclose(total, exact, rel_tol=1e-12)
        for row in out:
            assert worlds.world_is_consistent(row, np.uint64(hidden), need_a, void_a)


def test_count_with_voids_at_full_size():
    """39 hidden cards, E void in spades (13 spades hidden among N and W only)."""
    own = sum(1 << c for c in range(13, 26))  # S holds all the hearts
    hidden = ((1 << 52) - 1) ^ own
    need = [13, 13, 0, 13, 0, 0, 0, 0]
    void = [0, 1, 0, 0, 0, 0, 0, 0]  # E void in spades
    # spades split N/W (a, 13 - a); the 26 other cards fill E's 13 and the rest
    exact = sum(math.comb(13, a) * math.comb(26, 13) * math.comb(13, 13 - a)
                for a in range(14))
    assert math.isclose(count(hidden, need, void), exact, rel_tol=1e-12)


def test_same_state_same_worlds():
    hidden, need, void = ((1 << 20) - 1) << 13, [0, 7, 7, 6, 0, 0, 0, 0], [0] * 8
    need_a, void_a = as_arrays(need, void)
    a = np.zeros((20, 8), dtype=np.uint64)
    b = np.zeros((20, 8), dtype=np.uint64)
    c = np.zeros((20, 8), dtype=np.uint64)
    worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 20, _state(9), a)
    worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 20, _state(9), b)
    worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 20, _state(10), c)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_no_consistent_world_raises():
    hidden = (1 << 3) - 1  # three spades
    need_a, void_a = as_arrays([0, 3, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0])
    out = np.zeros((1, 8), dtype=np.uint64)
    with pytest.raises(ValueError, match="no consistent world"):
        worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 1, _state(0), out)


@njit
def _sample_in_kernel(hidden, need, void, n, state):
    out = np.zeros((n, 8), dtype=np.uint64)
    worlds.sample_worlds(hidden, need, void, n, state, out)
    return out


def test_callable_from_a_kernel():
    hidden, need, void = (1 << 12) - 1, [0, 4, 4, 4, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0, 0, 0]
    need_a, void_a = as_arrays(need, void)
    out = _sample_in_kernel(np.uint64(hidden), need_a, void_a, 5, _state(2))
    direct = np.zeros((5, 8), dtype=np.uint64)
    worlds.sample_worlds(np.uint64(hidden), need_a, void_a, 5, _state(2), direct)
    assert np.array_equal(out, direct)
