"""Exact payments and expected payments of a contract: the one implementation every analysis uses.

Money is exact (R27): results are `fractions.Fraction`, sums over many deals are done on
integer counts, never on floats. Amounts come from kernels/settlement_tables.py (R24, R25).

Sign convention: everything is from the declarer's point of view, in units.
- per opponent: what each of the three opponents pays the declarer (negative: the declarer
  pays each of them);
- payments: 3 x per opponent, the net expected payment from the three opponents (R24, R25:
  each payment goes to or from each of the 3 opponents);
- pool term: the change of the declarer's balance through the pools (R28-R30), exactly as
  `analyser.ledger.Ledger.settle` makes it. The pool state is the active pool P and
  `other_pools`, the money in the pools behind it (full pools set aside and the partial
  pool, R30), which is 0 in the model of `hand` and `run` (see below):
  - a made 7 or higher, misère or spread wins P; when that empties every pool
    (`other_pools` 0), every player pays the ante of 10 again (R30), the declarer
    included, so the term is P - 10;
  - any failure costs P (R29: the declarer adds as much as the active pool holds);
  - a made 5 or 6 is conceded by defenders who know it is made (R28), so its term is 0
    (`defenders_concede=False` makes it win the pool instead);
  - P = 0 leaves the pool out of the analysis: the term is 0 whatever the outcome;
- total: payments + pool term, the declarer's whole expected result (`ev_total` in every
  table and report), equal to the Ledger's change of the declarer's balance for the hand.

The pool model of `hand` and `run`: "pool" is the active pool P with no full pool and no
other money in the pools, the common state of a session (a partial pool of 40 at its
start, R7); a winner takes P and re-antes 10 with the others (R30). With full pools set
aside (`other_pools` > 0, so P is a full pool of 250) a win leaves money in the pools and
there is no re-ante.

Outcomes of many deals are first reduced to counts (`outcome_counts`): for a numeric
contract the histogram of declarer tricks 0..13, for a misère or spread [failed, made].
Counts from separate chunks add up, so a pipeline can merge them before `expected_payment`.
"""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyser.constants import ANTE, DEFAULT_POOL, MAX_POOL
from analyser.contracts import Contract, as_contract
from kernels.settlement_tables import FAILED, MADE, MAX_CONTRACT, MISERE

N_TRICK_COUNTS = MAX_CONTRACT + 1  # a declarer takes 0..13 tricks


@dataclass(frozen=True)
class ExpectedPayment:
    """Exact expected payment of one contract over a set of deals (all money in units)."""

    contract: str
    deals: int  # number of deals summarised
    made: int  # deals on which the contract is made
    p_make: Fraction  # made / deals
    per_opponent: Fraction  # mean payment from each opponent to the declarer (R24, R25)
    payments: Fraction  # 3 x per_opponent: the net expected payment from the three opponents
    pool_term: Fraction  # mean pool gain (P won, less the re-ante; -P failed; 0 conceded)
    total: Fraction  # payments + pool_term: the declarer's whole expected result
    mean_undertricks: Fraction | None  # mean undertricks over failing deals (numeric only)
    undertricks: tuple  # undertricks[k] = deals failed by k (numeric; k = 0 unused), else ()


def _check_money(value, field):
    """Accept an exact amount (int, numpy integer, Fraction) and return it as a Fraction."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, Fraction)):
        raise ValueError(
            f"{field}: {value!r} is not an exact amount (int or Fraction; no floats, R27)"
        )
    return Fraction(value)


def _check_tricks_array(tricks):
    """Tricks as an int64 array with every value in 0..13, or ValueError naming `tricks`."""
    arr = np.asarray(tricks)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"tricks: expected integer trick counts, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() > MAX_CONTRACT):
        raise ValueError(f"tricks: trick counts must be 0..13, found {arr.min()}..{arr.max()}")
    return arr


def _check_made_array(made):
    """Made flags as a bool array (bools or 0/1 integers), or ValueError naming `made`."""
    arr = np.asarray(made)
    if arr.dtype != bool:
        integral = np.issubdtype(arr.dtype, np.integer)
        if not integral or (arr.size and not np.isin(arr, (0, 1)).all()):
            raise ValueError(f"made: expected booleans (or 0/1), got dtype {arr.dtype}")
        arr = arr.astype(bool)
    return arr


def _outcome_args(contract, tricks, made) -> Contract:
    """The contract, read once, after checking which of `tricks`/`made` it takes: numeric
    -> tricks, misère or spread -> made."""
    contract = as_contract(contract)
    if contract.is_numeric:
        if tricks is None:
            raise ValueError(f"tricks: contract {contract} needs the tricks taken")
        if made is not None:
            raise ValueError(f"made: contract {contract} is numeric; give tricks, not made")
    else:
        if made is None:
            raise ValueError(f"made: contract {contract} needs made=True/False")
        if tricks is not None:
            raise ValueError(f"tricks: contract {contract} is settled on made, not tricks")
    return contract


def trick_histogram(tricks) -> np.ndarray:
    """Counts of 0..13 declarer tricks in an array of trick counts: int64 array of length 14."""
    arr = _check_tricks_array(tricks)
    return np.bincount(arr.ravel(), minlength=N_TRICK_COUNTS).astype(np.int64)


def made_and_undertricks(contract, tricks=None, counts=None):
    """(made count, undertrick histogram) of a numeric contract over many deals.

    Give `tricks` (an array of trick counts) or `counts` (a trick histogram, length 14).
    The histogram has length n + 1; entry k counts deals failed by k undertricks (entry 0
    is always 0).
    """
    contract = as_contract(contract)
    if not contract.is_numeric:
        raise ValueError(f"contract: {contract} is not numeric; it has no undertricks")
    hist = _trick_counts(tricks, counts)
    n = contract.tricks_needed
    undertricks = np.zeros(n + 1, dtype=np.int64)
    undertricks[1:] = hist[:n][::-1]  # t tricks -> n - t undertricks
    return int(hist[n:].sum()), undertricks


def _trick_counts(tricks, counts):
    if (tricks is None) == (counts is None):
        raise ValueError("tricks: give exactly one of tricks or counts")
    if tricks is not None:
        return trick_histogram(tricks)
    hist = np.asarray(counts)
    integral = np.issubdtype(hist.dtype, np.integer)
    if hist.shape != (N_TRICK_COUNTS,) or not integral or (hist < 0).any():
        raise ValueError(f"counts: expected 14 non-negative integer counts, got shape {hist.shape}")
    return hist.astype(np.int64)


def outcome_counts(contract, tricks=None, made=None) -> np.ndarray:
    """Counts of outcomes over many deals: the trick histogram (length 14) for a numeric
    contract, [failed, made] for a misère or spread. Counts of chunks can be added."""
    contract = _outcome_args(contract, tricks, made)
    if contract.is_numeric:
        return trick_histogram(tricks)
    flags = _check_made_array(made).ravel()
    n_made = int(flags.sum())
    return np.array([flags.size - n_made, n_made], dtype=np.int64)


def _per_opponent_values(contract: Contract) -> np.ndarray:
    """Per-opponent payment in units for each outcome index of `outcome_counts` (R24, R25)."""
    if contract.is_numeric:
        n = contract.tricks_needed
        values = np.empty(N_TRICK_COUNTS, dtype=np.int64)
        values[n:] = MADE[n]
        values[:n] = -FAILED[n, n - np.arange(n)]
        return values
    amount = MISERE[contract.misere_kind]
    return np.array([-amount, amount], dtype=np.int64)


def _pool_state(pool, other_pools):
    """(P, other pools) as Fractions, or ValueError naming the field: both exact and
    non-negative, and money behind the active pool only when it is a full pool (R30)."""
    pool = _check_money(pool, "pool")
    other_pools = _check_money(other_pools, "other_pools")
    if pool < 0:
        raise ValueError(f"pool: {pool} is negative")
    if other_pools < 0:
        raise ValueError(f"other_pools: {other_pools} is negative")
    if other_pools and pool != MAX_POOL:
        raise ValueError(
            f"other_pools: with {other_pools} in other pools the active pool is a full pool "
            f"of {MAX_POOL}, not {pool} (R30)"
        )
    return pool, other_pools


def _pool_values(contract: Contract, defenders_concede, pool, other_pools) -> list:
    """The declarer's pool term (Fraction) for each outcome index of `outcome_counts`:
    won P (less the re-ante when no pool is left, R30), -P doubled (R29), 0 conceded (R28)."""
    if pool == 0:
        won = lost = Fraction(0)
    else:
        won = pool - (ANTE if other_pools == 0 else 0)
        lost = -pool
    made = won if contract.wins_pool(True, conceded=defenders_concede) else Fraction(0)
    if contract.is_numeric:
        n = contract.tricks_needed
        return [lost] * n + [made] * (N_TRICK_COUNTS - n)
    return [lost, made]


def payments(contract, tricks=None, made=None) -> np.ndarray:
    """Per-opponent payment in whole units for each deal (int64 array shaped like the input)."""
    contract = _outcome_args(contract, tricks, made)
    values = _per_opponent_values(contract)
    if contract.is_numeric:
        return values[_check_tricks_array(tricks)]
    return values[_check_made_array(made).astype(np.int64)]


def payment(contract, tricks=None, made=None) -> Fraction:
    """Per-opponent payment of one hand: + made amount, - failure entry (R24, R25)."""
    return _outcome_value(contract, tricks, made, _per_opponent_values)


def declarer_total(contract, tricks=None, made=None) -> Fraction:
    """The declarer's total from the three opponents for one hand: 3 x `payment` (R24, R25)."""
    return 3 * _outcome_value(contract, tricks, made, _per_opponent_values)


def pool_term(
    contract, tricks=None, made=None, pool=DEFAULT_POOL, defenders_concede=True,
    other_pools=0,
) -> Fraction:
    """The declarer's pool gain for one hand with an active pool of `pool` units and
    `other_pools` behind it (R28-R30, the module docstring)."""
    contract = as_contract(contract)
    pool, other_pools = _pool_state(pool, other_pools)
    values = _pool_values(contract, defenders_concede, pool, other_pools)
    return values[_outcome_index(contract, tricks, made)]


def outcome_value(
    contract, tricks=None, made=None, pool=DEFAULT_POOL, defenders_concede=True,
    other_pools=0,
) -> Fraction:
    """The declarer's whole result for one hand: `declarer_total` + `pool_term`, the
    Ledger's change of the declarer's balance (R24-R30)."""
    contract = as_contract(contract)
    return declarer_total(contract, tricks, made) + pool_term(
        contract, tricks, made, pool, defenders_concede, other_pools
    )


def _outcome_index(contract, tricks, made) -> int:
    """The index of one outcome (a scalar `tricks` or `made`) in a per-outcome table."""
    contract = _outcome_args(contract, tricks, made)
    if contract.is_numeric:
        if isinstance(tricks, bool) or not isinstance(tricks, (int, np.integer)):
            raise ValueError(f"tricks: {tricks!r} is not a whole number of tricks")
        if not 0 <= tricks <= MAX_CONTRACT:
            raise ValueError(f"tricks: {tricks} is not 0..13")
        return int(tricks)
    if not isinstance(made, (bool, np.bool_)):
        raise ValueError(f"made: {made!r} is not True or False")
    return int(bool(made))


def _outcome_value(contract, tricks, made, table):
    """Look up one outcome (a scalar `tricks` or `made`) in a per-outcome table."""
    contract = as_contract(contract)
    return Fraction(int(table(contract)[_outcome_index(contract, tricks, made)]))


def expected_payment(
    contract,
    tricks=None,
    made=None,
    pool=DEFAULT_POOL,
    counts=None,
    defenders_concede=True,
    other_pools=0,
) -> ExpectedPayment:
    """Exact expected payment of `contract` over many deals.

    Give the outcomes as `tricks` (array of declarer tricks, numeric contracts), `made`
    (array of booleans, misères and spreads) or `counts` (from `outcome_counts`, possibly
    summed over chunks). `pool` is the active pool P in units and `other_pools` the money
    behind it (R28-R30 as the module docstring says).
    """
    contract = as_contract(contract)
    pool, other_pools = _pool_state(pool, other_pools)
    if counts is None:
        counts = outcome_counts(contract, tricks, made)
    else:
        if tricks is not None or made is not None:
            raise ValueError("counts: give counts or tricks/made, not both")
        counts = np.asarray(counts)
        expected_len = N_TRICK_COUNTS if contract.is_numeric else 2
        if (
            counts.shape != (expected_len,)
            or not np.issubdtype(counts.dtype, np.integer)
            or (counts < 0).any()
        ):
            raise ValueError(
                f"counts: contract {contract} needs {expected_len} non-negative integer counts, "
                f"got shape {counts.shape}"
            )
    counts = [int(c) for c in counts]
    deals = sum(counts)
    if deals == 0:
        raise ValueError("tricks: no deals to average over")

    def mean(values):
        return sum((c * Fraction(v) for c, v in zip(counts, values, strict=True)),
                   Fraction(0)) / deals

    per_opponent = mean(int(v) for v in _per_opponent_values(contract))
    pool_mean = mean(_pool_values(contract, defenders_concede, pool, other_pools))
    if contract.is_numeric:
        n = contract.tricks_needed
        made_count, hist = made_and_undertricks(contract, counts=np.array(counts, dtype=np.int64))
        failed = deals - made_count
        mean_under = (
            Fraction(sum(k * int(c) for k, c in enumerate(hist)), failed) if failed else None
        )
        undertricks = tuple(int(c) for c in hist)
        assert hist.shape == (n + 1,)
    else:
        made_count, mean_under, undertricks = counts[1], None, ()
    return ExpectedPayment(
        contract=contract.name,
        deals=deals,
        made=made_count,
        p_make=Fraction(made_count, deals),
        per_opponent=per_opponent,
        payments=3 * per_opponent,
        pool_term=pool_mean,
        total=3 * per_opponent + pool_mean,
        mean_undertricks=mean_under,
        undertricks=undertricks,
    )


def breakeven_probability(gain_if_made, loss_if_failed, alternative_ev=0) -> Fraction:
    """The make probability above which bidding beats an alternative worth `alternative_ev`.

    Bidding is worth p*gain - (1-p)*loss, with `loss_if_failed` the (non-negative) amount
    lost; it beats the alternative exactly when p > (alternative_ev + loss) / (gain + loss).
    The result is not clipped: a value >= 1 means bidding never wins, <= 0 always.
    """
    gain = _check_money(gain_if_made, "gain_if_made")
    loss = _check_money(loss_if_failed, "loss_if_failed")
    alt = _check_money(alternative_ev, "alternative_ev")
    if loss < 0:
        raise ValueError(f"loss_if_failed: {loss} must be the amount lost, >= 0")
    if gain + loss <= 0:
        raise ValueError(f"gain_if_made: gain + loss must be positive, got {gain} + {loss}")
    return (alt + loss) / (gain + loss)


__all__ = [
    "ExpectedPayment", "N_TRICK_COUNTS", "trick_histogram",
    "made_and_undertricks", "outcome_counts", "payments", "payment", "declarer_total",
    "pool_term", "outcome_value", "expected_payment", "breakeven_probability",
]
