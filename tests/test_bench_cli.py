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


def test_ab_copies_kernels_under_another_name(tmp_path):
    # `python -m bench.ab` imports two versions of the kernels side by side: each copy's
    # modules refer to their own package only, and the copy imports without the
    # original's cache-folder logic (nothing is compiled here)
    import importlib

    from bench.ab import _copy_kernels

    _copy_kernels("work", "kernels_t", tmp_path)
    copy = tmp_path / "kernels_t"
    for path in copy.glob("*.py"):
        text = path.read_text()
        assert "from kernels." not in text and "import kernels" not in text, path.name
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("kernels_t.dd_search")
        assert mod.solve_value.__module__ == "kernels_t.dd_search"
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize("args, message", [
    (("HEAD", "work", "--deals", "5"), "--deals must be LO:HI"),
    (("HEAD", "work", "--deals", "10:300"), "--deals must lie within 0:200"),
    (("HEAD", "work", "--jobs", "bridge", "--deals", "0:600"), "--deals must lie within 0:500"),
])
def test_ab_refuses_bad_deal_ranges_with_one_line(args, message):
    out = subprocess.run([sys.executable, "-m", "bench.ab", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_ab_bridge_tasks_are_the_solver_bench_jobs():
    # `--jobs bridge` times what `python -m bench solver` section (a) times: its deals
    # after the three warm-up ones, the declarer's partnership, leader on declarer's left
    from bench.ab import _tasks
    from bench.bench_solver import bridge_jobs
    from kernels.dd_batch import JOB_TRICKS

    bench = bridge_jobs(7)[5:10]
    tasks = _tasks("bridge", 2, 7, leader=1)
    assert len(tasks) == 5
    for (deal, leader, jobs), (bdeal, trump, declarer) in zip(tasks, bench, strict=True):
        assert (deal[0] == bdeal).all() and leader == (declarer + 1) % 4
        assert jobs.tolist() == [[JOB_TRICKS, (1 << declarer) | (1 << (declarer + 2) % 4), trump]]
