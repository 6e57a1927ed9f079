"""Shared test settings.

`BOSTON_FULL=1` (set by `make verify`) runs the full-size versions of the long checks;
by default they run sized down so that `make test` stays well under 15 minutes on 2 cores.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

FULL = os.environ.get("BOSTON_FULL") == "1"

# The default profile is derandomised so that `make test` (and CI) is reproducible;
# `make verify` explores with fresh random examples and ten times as many.
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "full", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("full" if FULL else "ci")


def sized(default, full):
    """Sample size for a check: `full` under `make verify`, `default` otherwise."""
    return full if FULL else default


@pytest.fixture
def rng_seed():
    return 20261129
