"""Exact payments and expected payments (R24, R25, R28, R29) against hand-computed cases."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser.constants import MAX_POOL
from analyser.payments import (
    breakeven_probability,
    declarer_total,
    expected_payment,
    made_and_undertricks,
    outcome_counts,
    outcome_value,
    payment,
    payments,
    pool_term,
    trick_histogram,
)

R24_MADE = {5: 10, 6: 15, 7: 20, 8: 25, 9: 35, 10: 45, 11: 65, 12: 105, 13: 170}


def test_e1_payment_and_pool_for_8_down_2():
    # E1: 8 with 6 tricks: 35 to each opponent, 105 in all, plus the active pool 40
    assert payment("8", tricks=6) == -35
    assert declarer_total("8", tricks=6) == -105
    assert pool_term("8", tricks=6, pool=40) == -40
    assert outcome_value("8", tricks=6, pool=40) == -145
    assert isinstance(outcome_value("8", tricks=6), Fraction)


def test_r24_made_amounts_ignore_overtricks():
    for n, amount in R24_MADE.items():
        for t in range(n, 14):
            assert payment(str(n), tricks=t) == amount


def test_r25_misere_payments():
    for c, amount in (("LM", 20), ("GM", 40), ("LS", 80), ("GS", 160)):
        assert payment(c, made=True) == amount
        assert payment(c, made=False) == -amount
        assert declarer_total(c, made=True) == 3 * amount


def test_r28_r30_pool_terms():
    # R28 + R30: the winner takes the only pool, then re-antes 10 like every player
    assert pool_term("7", tricks=7, pool=40) == 40 - 10
    assert pool_term("5", tricks=6, pool=40) == 0  # conceded by defenders who know it is made
    assert pool_term("6", tricks=6, pool=40) == 0
    assert pool_term("6", tricks=6, pool=40, defenders_concede=False) == 40 - 10
    assert pool_term("5", tricks=4, pool=40) == -40  # R29: failure doubles the pool
    assert pool_term("LM", made=True, pool=250) == 250 - 10
    assert pool_term("GS", made=False, pool=Fraction(250)) == -250
    assert outcome_value("5", tricks=5, pool=40) == 30
    assert outcome_value("13", tricks=13, pool=100) == 510 + 100 - 10


def test_r30_no_reante_while_other_pools_remain():
    # a full pool of 250 won with 50 behind it: money stays in the pools, no re-ante (R30)
    assert pool_term("7", tricks=7, pool=250, other_pools=50) == 250
    assert pool_term("7", tricks=6, pool=250, other_pools=50) == -250  # R29
    assert outcome_value("LM", made=True, pool=250, other_pools=250) == 60 + 250
    assert expected_payment("7", tricks=[7, 6], pool=250, other_pools=1).pool_term == 0


def test_pool_zero_leaves_the_pool_out():
    assert pool_term("7", tricks=7, pool=0) == 0
    assert pool_term("7", tricks=3, pool=0) == 0
    assert expected_payment("LM", made=[True, False], pool=0).pool_term == 0


def test_bad_pool_states_name_the_field():
    with pytest.raises(ValueError, match="^other_pools: .*full pool of 250"):
        pool_term("7", tricks=7, pool=40, other_pools=10)  # R30: 50 would be one pool
    with pytest.raises(ValueError, match="^other_pools: "):
        expected_payment("7", tricks=[7], pool=250, other_pools=-1)
    with pytest.raises(ValueError, match="^other_pools: "):
        outcome_value("7", tricks=7, pool=250, other_pools=0.5)
    with pytest.raises(ValueError, match="^pool: "):
        pool_term("7", tricks=7, pool=-40)


def test_bad_inputs_name_the_field():
    with pytest.raises(ValueError, match="^contract: "):
        payment("14", tricks=3)
    with pytest.raises(ValueError, match="^tricks: "):
        payment("8")
    with pytest.raises(ValueError, match="^tricks: "):
        payment("8", tricks=14)
    with pytest.raises(ValueError, match="^tricks: "):
        payment("8", tricks=True)
    with pytest.raises(ValueError, match="^made: "):
        payment("LM")
    with pytest.raises(ValueError, match="^made: "):
        payment("8", tricks=8, made=True)
    with pytest.raises(ValueError, match="^tricks: "):
        payment("LM", tricks=0, made=True)
    with pytest.raises(ValueError, match="^pool: "):
        pool_term("8", tricks=8, pool=40.0)
    with pytest.raises(ValueError, match="^tricks: "):
        expected_payment("8", tricks=np.array([3.0, 4.0]))
    with pytest.raises(ValueError, match="^tricks: "):
        expected_payment("8", tricks=np.array([3, 14]))
    with pytest.raises(ValueError, match="^made: "):
        expected_payment("LM", made=np.array([0, 2]))
    with pytest.raises(ValueError, match="^counts: "):
        expected_payment("LM", counts=np.zeros(14, dtype=np.int64))
    with pytest.raises(ValueError, match="^tricks: "):
        expected_payment("8", tricks=np.array([], dtype=np.int64))


def test_expected_payment_hand_computed_numeric():
    tricks = np.array([6, 8, 9, 7, 5, 13])
    # payments -35, 25, 25, -25, -45, 25 -> sum -30 over 6 deals
    assert list(payments("8", tricks=tricks)) == [-35, 25, 25, -25, -45, 25]
    e = expected_payment("8", tricks=tricks, pool=40)
    assert e.deals == 6 and e.made == 3 and e.p_make == Fraction(1, 2)
    assert e.per_opponent == -5 and e.payments == -15  # R24: 3 x per opponent
    assert e.pool_term == -5  # 3 wins of 40 less the re-ante (R30), 3 doublings of 40
    assert e.total == -20  # payments + pool term
    assert e.mean_undertricks == 2  # failures by 2, 1, 3
    assert e.undertricks == (0, 1, 1, 1, 0, 0, 0, 0, 0)


def test_expected_payment_exact_thirds():
    e = expected_payment("5", tricks=[5, 4, 4], pool=40)
    assert e.per_opponent == Fraction(10 - 10 - 10, 3)
    assert e.pool_term == Fraction(-80, 3)  # made 5 conceded (0), two failures (-40 each)
    assert e.payments == -10 and e.total == -10 - Fraction(80, 3)
    assert e.mean_undertricks == 1
    e2 = expected_payment("5", tricks=[5, 4, 4], pool=40, defenders_concede=False)
    assert e2.pool_term == Fraction(30 - 80, 3)  # the made 5 wins 40, less the re-ante (R30)


def test_expected_payment_has_no_with_pool_field():
    """`total` is the one name of the whole expected result (payments + pool term)."""
    e = expected_payment("7", tricks=[7], pool=40)
    assert (e.payments, e.pool_term, e.total) == (60, 30, 90)  # R24 + R28, R30 re-ante
    assert not hasattr(e, "with_pool")


def test_expected_payment_misere():
    e = expected_payment("LM", made=[True, False, True], pool=40)
    assert e.per_opponent == Fraction(20, 3) and e.payments == 20  # R25
    # R28, R29, R30: two wins of 40 less the re-ante, one doubling
    assert e.pool_term == Fraction(2 * 30 - 40, 3) and e.total == Fraction(80, 3)
    assert e.mean_undertricks is None and e.undertricks == ()
    assert e.made == 2 and e.p_make == Fraction(2, 3)


def test_no_failure_has_no_mean_undertricks():
    e = expected_payment("7", tricks=[7, 9, 13])
    assert e.mean_undertricks is None and e.p_make == 1 and e.pool_term == 40 - 10


def test_made_and_undertricks_summary():
    made, hist = made_and_undertricks("9", tricks=np.array([9, 10, 8, 0, 8, 7]))
    assert made == 2
    assert list(hist) == [0, 2, 1, 0, 0, 0, 0, 0, 0, 1]
    made2, hist2 = made_and_undertricks("9", counts=trick_histogram([9, 10, 8, 0, 8, 7]))
    assert made2 == made and (hist2 == hist).all()
    with pytest.raises(ValueError, match="^contract: "):
        made_and_undertricks("LM", tricks=[0])


def _slow_expected(contract_n, tricks, pool, concede=True):
    """Per-deal reference straight from R24/R28/R29, summed in Fractions."""
    from kernels.settlement_tables import FAILED, MADE

    total = Fraction(0)
    for t in tricks:
        if t >= contract_n:
            p = int(MADE[contract_n])
            won = pool - 10 if pool else 0  # R30: the re-ante once the only pool is won
            pool_part = 0 if (contract_n <= 6 and concede) else won
        else:
            p = -int(FAILED[contract_n, contract_n - t])
            pool_part = -pool
        total += 3 * p + pool_part
    return total / len(tricks)


@given(
    st.integers(5, 13),
    st.lists(st.integers(0, 13), min_size=1, max_size=60),
    st.integers(0, 1000),
    st.booleans(),
)
def test_expected_payment_matches_slow_reference(n, tricks, pool, concede):
    e = expected_payment(str(n), tricks=np.array(tricks), pool=pool, defenders_concede=concede)
    assert e.total == _slow_expected(n, tricks, pool, concede)
    assert e.total == e.payments + e.pool_term and e.payments == 3 * e.per_opponent
    assert e.made == sum(t >= n for t in tricks)
    assert sum(e.undertricks) == e.deals - e.made


@given(st.integers(5, 13), st.lists(st.integers(0, 13), min_size=2, max_size=60), st.data())
def test_counts_of_chunks_add_up(n, tricks, data):
    cut = data.draw(st.integers(1, len(tricks) - 1))
    a = outcome_counts(str(n), tricks=np.array(tricks[:cut]))
    b = outcome_counts(str(n), tricks=np.array(tricks[cut:]))
    whole = expected_payment(str(n), tricks=np.array(tricks))
    assert expected_payment(str(n), counts=a + b) == whole


def test_breakeven_probability_exact():
    # 8 at pool 40: gain 75 + 40, loss (down 1) 75 + 40 -> even odds against passing (0)
    assert breakeven_probability(115, 115, 0) == Fraction(1, 2)
    assert breakeven_probability(Fraction(115), 145, 0) == Fraction(145, 260)
    assert breakeven_probability(30, 70, 10) == Fraction(80, 100)
    assert breakeven_probability(10, 0, 20) == 2  # never worth it
    with pytest.raises(ValueError, match="^loss_if_failed: "):
        breakeven_probability(10, -5)
    with pytest.raises(ValueError, match="^gain_if_made: "):
        breakeven_probability(10.0, 5)


@given(st.integers(1, 500), st.integers(0, 500), st.integers(-200, 200), st.fractions(0, 1))
def test_breakeven_is_where_bidding_equals_alternative(gain, loss, alt, p):
    b = breakeven_probability(gain, loss, alt)
    ev = p * gain - (1 - p) * loss
    if p > b:
        assert ev > alt
    elif p < b:
        assert ev < alt
    else:
        assert ev == alt


# ------------------------------------------------------ a contract is read once per call


def _count_parses(monkeypatch):
    import analyser.contracts as contracts

    calls = []
    original = contracts._normalise

    def counting(text):
        calls.append(text)
        return original(text)

    monkeypatch.setattr(contracts, "_normalise", counting)
    return calls


@pytest.mark.parametrize("contract, outcome", [
    ("8", {"tricks": np.array([8, 6, 9])}),
    ("LS", {"made": np.array([True, False])}),
])
def test_expected_payment_reads_its_contract_once(monkeypatch, contract, outcome):
    calls = _count_parses(monkeypatch)
    expected_payment(contract, pool=40, **outcome)
    assert calls == [contract]


def test_outcome_value_reads_its_contract_once(monkeypatch):
    calls = _count_parses(monkeypatch)
    assert outcome_value("7", tricks=7, pool=40) == 3 * 20 + 40 - 10
    assert calls == ["7"]


def test_payments_take_a_contract_value_without_reading_text(monkeypatch):
    from analyser.contracts import as_contract

    eight, lm = as_contract("8"), as_contract("LM")
    calls = _count_parses(monkeypatch)
    assert expected_payment(eight, tricks=np.array([8, 6])).contract == "8"
    assert payment(eight, tricks=6) == -35 and declarer_total(lm, made=True) == 60
    assert pool_term(lm, made=False, pool=40) == -40
    assert list(outcome_counts(lm, made=np.array([True, True, False]))) == [1, 2]
    assert calls == []


# ---------------------------------- every EV equals the Ledger's balance change (R24-R30)

# (active pool P, money in the other pools): a partial pool only, a full pool at the cap
# with nothing behind it, full pools with a partial or another full pool behind them (R30)
POOL_STATES = [(40, 0), (130, 0), (250, 0), (250, 50), (250, 250)]


def _ledger_at(pool, other_pools):
    """A fresh Ledger whose pools hold `pool` + `other_pools`, reached by misdeals (R22:
    the dealer adds 10 each time), checked to have that active pool (R30)."""
    from analyser.ledger import Ledger

    ledger = Ledger()
    for k in range((pool + other_pools - 40) // 10):
        ledger.misdeal(k % 4)
    full, partial = ledger.pools
    assert ledger.active_pool == pool and full * MAX_POOL + partial == pool + other_pools
    return ledger


def _outcomes(contract):
    from analyser.contracts import as_contract

    if as_contract(contract).is_numeric:
        return [{"tricks": t} for t in range(14)]
    return [{"made": False}, {"made": True}]


def _settle_change(contract, outcome, pool, other_pools, concede, declarer=2):
    """The declarer's balance change when a fresh Ledger at that pool state settles it;
    defenders concede a made 5 or 6 when `concede` (R28)."""
    from analyser.contracts import as_contract

    c = as_contract(contract)
    ledger = _ledger_at(pool, other_pools)
    conceded = bool(concede and c.concedable and outcome.get("tricks", -1) >= c.tricks_needed)
    before = ledger.balances[declarer]
    change = ledger.settle(declarer, contract, conceded=conceded, **outcome)
    assert ledger.balances[declarer] - before == change
    assert ledger.total == 4000  # R8
    return change


@pytest.mark.parametrize("pool, other_pools", POOL_STATES)
@pytest.mark.parametrize("concede", [True, False])
def test_every_outcome_value_is_the_ledgers_change(pool, other_pools, concede):
    """R24-R30: for every contract and outcome, outcome_value is exactly the Ledger's change
    of the declarer's balance, the re-ante included when the win empties the pools."""
    from analyser.contracts import LADDER

    for contract in LADDER:
        for outcome in _outcomes(contract):
            expected = outcome_value(contract, pool=pool, other_pools=other_pools,
                                     defenders_concede=concede, **outcome)
            assert expected == _settle_change(contract, outcome, pool, other_pools, concede), (
                contract, outcome)


@pytest.mark.parametrize("pool, other_pools", POOL_STATES)
def test_sampled_expected_payment_is_the_mean_ledger_change(pool, other_pools):
    """Sampled outcomes replayed through the Ledger: the mean of the declarer's balance
    changes equals expected_payment's total exactly (Fractions, R27), per contract."""
    from analyser.contracts import LADDER, as_contract

    rng = np.random.default_rng(pool + other_pools)
    for contract in LADDER:
        numeric = as_contract(contract).is_numeric
        draws = rng.integers(0, 14 if numeric else 2, size=40)
        outcomes = ([{"tricks": int(t)} for t in draws] if numeric
                    else [{"made": bool(m)} for m in draws])
        changes = [_settle_change(contract, o, pool, other_pools, True) for o in outcomes]
        sample = {"tricks": draws} if numeric else {"made": draws.astype(bool)}
        ev = expected_payment(contract, pool=pool, other_pools=other_pools, **sample)
        assert ev.total == sum(changes, Fraction(0)) / len(changes), contract
        assert ev.total == ev.payments + ev.pool_term
