"""The shared interval statistics (analyser/stats.py): one Wilson interval for every table."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from analyser.stats import Z95, mean_and_stderr, wilson_interval

PAIRS = st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


def test_z95_is_the_two_sided_normal_quantile():
    from scipy.stats import norm

    assert Z95 == pytest.approx(norm.ppf(0.975), abs=1e-12)


@given(PAIRS)
def test_scalar_matches_scipy_and_contains_the_proportion(pair):
    made, n = pair
    low, high = wilson_interval(made, n)
    assert isinstance(low, float) and isinstance(high, float)
    ref = binomtest(made, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(ref.low, abs=1e-9)
    assert high == pytest.approx(ref.high, abs=1e-9)
    assert 0.0 <= low <= made / n <= high <= 1.0


@given(st.lists(PAIRS, min_size=1, max_size=20))
def test_array_form_agrees_with_the_scalar_form(pairs):
    made = np.array([m for m, _ in pairs])
    n = np.array([k for _, k in pairs])
    low, high = wilson_interval(made, n)
    assert isinstance(low, np.ndarray) and low.shape == made.shape
    for i, (m, k) in enumerate(pairs):
        assert (low[i], high[i]) == wilson_interval(m, k)


@pytest.mark.parametrize("n", [1, 2, 7, 100, 10**6])
def test_ends_are_exact_at_none_and_all_made(n):
    low, high = wilson_interval(0, n)
    assert low == 0.0 and 0.0 < high < 1.0
    low, high = wilson_interval(n, n)
    assert high == 1.0 and 0.0 < low < 1.0
    lows, highs = wilson_interval(np.array([0, n]), np.array([n, n]))
    assert lows[0] == 0.0 and highs[1] == 1.0


def test_no_trials_gives_the_whole_range():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(np.array([0, 3]), np.array([0, 6]))
    assert (low[0], high[0]) == (0.0, 1.0)
    assert 0.0 < low[1] < 0.5 < high[1] < 1.0


def test_mean_and_stderr():
    mean, se = mean_and_stderr([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and se == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    mean, se = mean_and_stderr([5.0])
    assert mean == 5.0 and math.isnan(se)
    assert all(math.isnan(v) for v in mean_and_stderr([]))


SHARED = {  # name -> the one module that defines it
    "Z95": "analyser/stats.py",
    "wilson_interval": "analyser/stats.py",
    "DEALER": "analyser/constants.py",
    "LEADER": "analyser/constants.py",
    "DEFAULT_POOL": "analyser/constants.py",
    "MAX_POOL": "analyser/constants.py",
}


@pytest.mark.parametrize("name", sorted(SHARED))
def test_each_shared_name_is_defined_in_one_module_only(name):
    """Every table and command reads its game constants and intervals from one place."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pattern = re.compile(rf"^(def {name}\(|{name}\s*(:[^=]*)?=)", re.MULTILINE)
    defining = sorted(
        str(path.relative_to(root))
        for folder in ("analyser", "reports", "kernels", "bench")
        for path in (root / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    )
    assert defining == [SHARED[name]]
