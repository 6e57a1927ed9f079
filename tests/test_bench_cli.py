"""`python -m bench`'s options: a sample size goes only to benchmarks that take one.

Nothing here times anything or runs a benchmark: every case stops at the argument checks.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args):
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (("--deals", "0", "run"), "--deals must be at least 1"),
    (("--deals", "3", "dealing"), "benchmark 'dealing' has no sample size (--deals)"),
])
def test_bad_sample_size_is_refused_with_one_line(args, message):
    out = _bench(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_solver_and_run_benchmarks_take_a_sample_size():
    from bench.__main__ import takes_deals

    assert takes_deals("solver") and takes_deals("run")
    assert not takes_deals("dealing")
