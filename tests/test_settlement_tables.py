"""R24/R25 tables and their njit lookups, from Python and from inside another @njit function."""

import numpy as np
import pytest
from rules_tables import R24_FAILED, R24_MADE

from kernels.jit import njit
from kernels.settlement_tables import (
    FAILED,
    GRAND_MISERE,
    GRAND_SPREAD,
    LITTLE_MISERE,
    LITTLE_SPREAD,
    MADE,
    MISERE,
    SUB_UNIT,
    misere_payment,
    misere_payment_sub,
    numeric_payment,
    numeric_payment_sub,
)

R25 = {LITTLE_MISERE: 20, GRAND_MISERE: 40, LITTLE_SPREAD: 80, GRAND_SPREAD: 160}

R24_CASES = [(n, t) for n in range(5, 14) for t in range(14)]


def r24_reference(n, tricks):
    return R24_MADE[n] if tricks >= n else -R24_FAILED[n][n - tricks - 1]


@njit
def _numeric_inside(n, tricks):
    return numeric_payment(n, tricks)


@njit
def _misere_inside(kind, made):
    return misere_payment(kind, made)


@njit
def _sum_all_numeric():
    # a kernel that walks the whole of R24 through the lookup, as a later kernel would
    total = 0
    for n in range(5, 14):
        for t in range(14):
            total += numeric_payment(n, t)
    return total


@pytest.mark.parametrize("n,tricks", R24_CASES)
def test_r24_every_entry_from_python(n, tricks):
    assert numeric_payment(n, tricks) == r24_reference(n, tricks)


@pytest.mark.parametrize("n,tricks", R24_CASES)
def test_r24_every_entry_inside_njit(n, tricks):
    assert _numeric_inside(n, tricks) == r24_reference(n, tricks)


def test_r24_whole_table_walked_inside_njit():
    expected = sum(r24_reference(n, t) for n in range(5, 14) for t in range(14))
    assert _sum_all_numeric() == expected


def test_r24_tables_have_one_entry_per_undertrick():
    for n in range(5, 14):
        assert MADE[n] == R24_MADE[n]
        assert list(FAILED[n, 1:n + 1]) == R24_FAILED[n]
        assert FAILED[n, 0] == 0 and (FAILED[n, n + 1:] == 0).all()
    assert (MADE[:5] == 0).all() and (FAILED[:5] == 0).all()


def test_r24_failure_rows_increase_with_undertricks():
    for n in range(5, 14):
        assert (np.diff(FAILED[n, 1:n + 1]) > 0).all()


@pytest.mark.parametrize("kind", sorted(R25))
def test_r25_misere_and_spread_amounts(kind):
    assert misere_payment(kind, True) == R25[kind]
    assert misere_payment(kind, False) == -R25[kind]
    assert _misere_inside(kind, True) == R25[kind]
    assert _misere_inside(kind, False) == -R25[kind]
    assert MISERE[kind] == R25[kind]


def test_r27_sub_unit_holds_thirds_and_quarters():
    assert SUB_UNIT % 3 == 0 and SUB_UNIT % 4 == 0
    assert numeric_payment_sub(8, 6) == -35 * SUB_UNIT
    assert misere_payment_sub(GRAND_SPREAD, True) == 160 * SUB_UNIT


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        MADE[5] = 11
    with pytest.raises(ValueError):
        FAILED[5, 1] = 11
