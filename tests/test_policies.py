"""Play policies: bit selection, the random-legal policy (R19) and the id dispatcher."""

import numpy as np
import pytest
from conftest import sized
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import chisquare

from kernels import policies
from kernels.jit import njit
from kernels.rng import root_key, stream_state


def ref_select(mask, k):
    """The k-th lowest set bit, by listing the bits."""
    return [i for i in range(64) if mask >> i & 1][k]


@njit
def _select_in_kernel(mask, k):
    return policies.select_bit(mask, k)


@njit
def _select_portable(mask, k):
    return policies.select_bit_portable(mask, k)


@njit
def _select_pdep(mask, k):
    return policies.select_bit_pdep(mask, k)


SELECTS = [_select_in_kernel, _select_portable] + ([_select_pdep] if policies.FAST_PDEP else [])


@njit
def _draw_many(legal, n, state):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = policies.random_legal_card(legal, state)
    return out


@njit
def _choose_in_kernel(policy, legal, state):
    trick = np.zeros(4, dtype=np.int64)
    taken = np.zeros(4, dtype=np.int64)
    return policies.choose_card(policy, 0, legal, legal, trick, 0, -1, -1, np.uint64(0), taken,
                                state)


def _state(seed, stream=0):
    state = np.empty(4, dtype=np.uint64)
    stream_state(root_key(seed), stream, state)
    return state


def test_select_in_byte_table_exhaustive():
    for byte in range(256):
        for k in range(bin(byte).count("1")):
            assert policies.SELECT_IN_BYTE[8 * byte + k] == ref_select(byte, k)


@given(st.integers(1, (1 << 64) - 1), st.data())
def test_select_bit_matches_reference(mask, data):
    k = data.draw(st.integers(0, bin(mask).count("1") - 1))
    assert policies.select_bit(np.uint64(mask), k) == ref_select(mask, k)
    for select in SELECTS:  # the host's choice, the portable one, PDEP where the CPU has it
        assert select(np.uint64(mask), k) == ref_select(mask, k)


def test_select_bit_every_position_of_full_deck():
    full = np.uint64((1 << 52) - 1)
    for select in SELECTS:
        assert [select(full, k) for k in range(52)] == list(range(52))
        assert select(np.uint64(1 << 63), 0) == 63


def test_select_bit_is_one_of_the_two():
    expected = policies.select_bit_pdep if policies.FAST_PDEP else policies.select_bit_portable
    assert policies.select_bit is expected


@given(st.integers(1, (1 << 52) - 1), st.integers(0, 2**32))
def test_r19_random_legal_card_is_legal(legal, seed):
    cards = _draw_many(np.uint64(legal), 50, _state(seed))
    assert all(legal >> int(c) & 1 for c in cards)


@pytest.mark.parametrize("legal", [0b1, 0b1011, (1 << 13) - 1, 0x8000_0000_0001, (1 << 52) - 1])
def test_random_legal_card_is_uniform(legal):
    # fixed seed: the chi-square p-value is a fixed number, so this cannot flake
    held = [i for i in range(64) if legal >> i & 1]
    n = sized(20_000, 400_000) * len(held)
    cards = _draw_many(np.uint64(legal), n, _state(7))
    counts = np.array([(cards == c).sum() for c in held])
    assert counts.sum() == n
    if len(held) > 1:
        assert chisquare(counts).pvalue > 1e-4


def test_choose_card_dispatches_random_legal():
    legal = np.uint64(0x0F0F_0000_F0F0)
    a, b = _state(3), _state(3)
    expected = _draw_many(legal, 20, a)
    got = [_choose_in_kernel(policies.RANDOM_LEGAL, legal, b) for _ in range(20)]
    assert got == expected.tolist()
    assert np.array_equal(a, b)  # the same random numbers were consumed


def test_choose_card_rejects_unknown_policy():
    with pytest.raises(ValueError, match="policy"):
        _choose_in_kernel(policies.N_POLICIES, np.uint64(1), _state(0))


def test_policy_names_map_to_distinct_ids():
    ids = list(policies.POLICY_IDS.values())
    assert policies.POLICY_IDS["random-legal"] == policies.RANDOM_LEGAL == 0
    assert sorted(ids) == list(range(policies.N_POLICIES))
