"""Bit intrinsics against Python's own integer operations."""

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.bits import (
    HAS_BMI2,
    bit_reverse,
    highest_bit_index,
    leading_zeros,
    lowest_bit_index,
    pdep,
    pext,
    popcount,
    prefetch_row,
    trailing_zeros,
)
from kernels.jit import njit


@njit
def _all(mask):
    return popcount(mask), trailing_zeros(mask), leading_zeros(mask)


@given(st.integers(0, 2**64 - 1))
def test_intrinsics_match_python(x):
    pc, tz, lz = _all(np.uint64(x))
    assert pc == x.bit_count()
    assert tz == ((x & -x).bit_length() - 1 if x else 64)
    assert lz == 64 - x.bit_length()
    if x:
        assert lowest_bit_index(np.uint64(x)) == tz
        assert highest_bit_index(np.uint64(x)) == x.bit_length() - 1


def test_intrinsics_on_narrow_ints():
    # intrinsics exist only inside kernels; narrow integer types are widened to 64 bits
    assert _all(np.int32(7))[0] == 3
    assert _all(np.uint16(8))[1] == 3


@njit
def _reverse(x):
    return bit_reverse(x)


@given(st.integers(0, 2**64 - 1))
def test_bit_reverse_matches_python(x):
    assert int(_reverse(np.uint64(x))) == int(f"{x:064b}"[::-1], 2)


@njit
def _gather_scatter(x, m):
    return pext(x, m), pdep(x, m)


def _gather_scatter_reference(x, m):
    """(pext, pdep) of x and m bit by bit: x's bits at m's set bits packed from bit 0, and
    x's low bits placed at m's set bits."""
    places = [i for i in range(64) if m >> i & 1]
    gathered = sum((x >> i & 1) << k for k, i in enumerate(places))
    scattered = sum((x >> k & 1) << i for k, i in enumerate(places))
    return gathered, scattered


@pytest.mark.skipif(not HAS_BMI2, reason="the processor has no BMI2 (pext, pdep)")
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_pext_and_pdep_match_python(x, m):
    got = _gather_scatter(np.uint64(x), np.uint64(m))
    assert (int(got[0]), int(got[1])) == _gather_scatter_reference(x, m)


@numba.njit(cache=False)  # not cached: the test reads the machine code it compiles to
def _sum_with_prefetch(table):
    total = np.uint64(0)
    n = table.shape[0]
    for i in range(n):
        prefetch_row(table, (i * 7 + 3) % n)  # a hint only: never changes what is read
        total += table[i, 0] + table[i, 3]
    return total


def test_prefetch_row_compiles_to_a_prefetch_and_changes_nothing():
    table = np.arange(64 * 4, dtype=np.uint64).reshape(64, 4)
    before = table.copy()
    assert _sum_with_prefetch(table) == table[:, 0].sum() + table[:, 3].sum()
    assert (table == before).all()
    asm = "".join(_sum_with_prefetch.inspect_asm().values())
    assert "prefetch" in asm or "prfm" in asm  # x86, ARM
