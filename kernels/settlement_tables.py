"""Settlement tables of R24 and R25, the one copy in the code base, with njit lookups.

Amounts are whole units per opponent, from the declarer's point of view (+ received from
each of the three opponents, - paid to each). Everything that settles money (the Ledger,
analyser/payments.py, kernels) reads these arrays; nobody copies them.

Kernels that need fractions of a unit (R26 thirds, R31 quarters) count in sub-units:
`SUB_UNIT` sub-units make one unit (R27). 12 is the least common multiple of 3 and 4,
so every amount the rules produce is a whole number of sub-units.

Indexing (no bounds checks in kernels: callers validate at the Python boundary):
- `MADE[n]`: made amount of contract n (5..13); 0 for n < 5.
- `FAILED[n, k]`: cost of contract n failed by k undertricks, k = 1..n; 0 elsewhere.
- `MISERE[kind]`: LM, GM, LS, GS as kinds 0..3 (`LITTLE_MISERE` ... `GRAND_SPREAD`).
"""

import numpy as np

from kernels.jit import njit

SUB_UNIT = 12  # sub-units per unit (R27): lcm(3, 4) covers R26's /m (m <= 3) and R31's /4
MIN_CONTRACT = 5
MAX_CONTRACT = 13

# R24, made row: contract 5..13
_MADE_ROW = (10, 15, 20, 25, 35, 45, 65, 105, 170)

# R24, failure rows: entry k-1 of row n is the cost of k undertricks
_FAILED_ROWS = {
    5: (10, 20, 30, 40, 50),
    6: (15, 25, 35, 45, 55, 65),
    7: (20, 30, 40, 50, 60, 70, 80),
    8: (25, 35, 45, 55, 70, 85, 100, 115),
    9: (35, 45, 55, 65, 80, 95, 110, 125, 140),
    10: (45, 55, 70, 80, 95, 110, 125, 140, 155, 170),
    11: (70, 80, 95, 110, 125, 140, 155, 170, 185, 200, 220),
    12: (120, 130, 145, 160, 180, 200, 220, 240, 260, 280, 300, 320),
    13: (180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 390, 420, 450),
}

MADE = np.zeros(MAX_CONTRACT + 1, dtype=np.int64)
MADE[MIN_CONTRACT:] = _MADE_ROW

FAILED = np.zeros((MAX_CONTRACT + 1, MAX_CONTRACT + 1), dtype=np.int64)
for _n, _row in _FAILED_ROWS.items():
    assert len(_row) == _n  # a contract n can fail by 1..n undertricks
    FAILED[_n, 1:_n + 1] = _row
del _n, _row

# R25: misère and spread kinds, in ladder order
LITTLE_MISERE, GRAND_MISERE, LITTLE_SPREAD, GRAND_SPREAD = 0, 1, 2, 3
MISERE = np.array([20, 40, 80, 160], dtype=np.int64)

MADE.setflags(write=False)
FAILED.setflags(write=False)
MISERE.setflags(write=False)


@njit
def numeric_payment(n, tricks):
    """Per-opponent payment in units for contract n (5..13) when the declarer took `tricks`."""
    if tricks >= n:
        return MADE[n]  # R24: overtricks pay nothing (R25)
    return -FAILED[n, n - tricks]


@njit
def misere_payment(kind, made):
    """Per-opponent payment in units for misère/spread `kind` (0..3), made or failed (R25)."""
    if made:
        return MISERE[kind]
    return -MISERE[kind]


@njit
def numeric_payment_sub(n, tricks):
    """`numeric_payment` in sub-units (R27), for kernels that also handle fractional amounts."""
    return numeric_payment(n, tricks) * SUB_UNIT


@njit
def misere_payment_sub(kind, made):
    """`misere_payment` in sub-units (R27)."""
    return misere_payment(kind, made) * SUB_UNIT


__all__ = [
    "SUB_UNIT", "MIN_CONTRACT", "MAX_CONTRACT", "MADE", "FAILED", "MISERE",
    "LITTLE_MISERE", "GRAND_MISERE", "LITTLE_SPREAD", "GRAND_SPREAD",
    "numeric_payment", "misere_payment", "numeric_payment_sub", "misere_payment_sub",
]
