"""The research tools (tools/: ab, nodes, tail, instr, perfmap): their arguments, the kernel
copies they compare, and the pieces of their reports.

Marked `tools`: the default run leaves them out (`make verify` runs them). Nothing here
times anything: every case stops at the argument checks or runs a tool's parts on a few
jobs, but the slow one that compiles `python -m tools.nodes`' counting copy of the kernels.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.numba_env import private_numba_cache

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.tools


def test_ab_copies_kernels_under_another_name(tmp_path):
    # `python -m tools.ab` imports two versions of the kernels side by side: each copy's
    # modules refer to their own package only, and the copy imports without the
    # original's cache-folder logic (nothing is compiled here)
    import importlib

    from tools.ab import _copy_kernels

    _copy_kernels("work", "kernels_t", tmp_path)
    copy = tmp_path / "kernels_t"
    assert (copy / "dd" / "search.py").is_file()  # the solver's subpackage comes along
    for path in copy.rglob("*.py"):
        text = path.read_text()
        assert "from kernels." not in text and "import kernels" not in text, path.name
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("kernels_t.dd.search")
        assert mod.solve_value.__module__ == "kernels_t.dd.search"
    finally:
        sys.path.remove(str(tmp_path))


def test_ab_finds_the_solver_modules_of_a_flat_revision(tmp_path, monkeypatch):
    # a revision whose solver modules sit flat in kernels/ (dd_search.py) is compared
    # with one holding the kernels.dd package: each copy's module is found by its concept
    from tools.ab import solver_module

    for package, files in (("kernels_flat", ("dd_search.py",)),
                           ("kernels_pkg", ("dd/__init__.py", "dd/search.py"))):
        for name in ("__init__.py", *files):
            (tmp_path / package / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / package / name).write_text(f"WHERE = {name!r}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert solver_module("kernels_flat", "search").WHERE == "dd_search.py"
    assert solver_module("kernels_pkg", "search").WHERE == "dd/search.py"
    with pytest.raises(ModuleNotFoundError):
        solver_module("kernels_pkg", "batch")


@pytest.mark.parametrize("args, message", [
    (("HEAD", "work", "--deals", "5"), "--deals must be LO:HI"),
    (("HEAD", "work", "--deals", "10:300"), "--deals must lie within 0:200"),
    (("HEAD", "work", "--jobs", "bridge", "--deals", "0:600"), "--deals must lie within 0:500"),
    (("HEAD", "work", "--strain", "NT"), "--strain chooses among the bridge jobs"),
    (("work", "work", "--mib-b", "0"), "--mib-a and --mib-b must be positive"),
])
def test_ab_refuses_bad_deal_ranges_with_one_line(args, message):
    out = subprocess.run([sys.executable, "-m", "tools.ab", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_ab_bridge_tasks_are_the_solver_bench_jobs():
    # `--jobs bridge` times what `python -m bench solver` section (a) times: its deals
    # after the three warm-up ones, the declarer's partnership, leader on declarer's left
    from bench.bench_solver import bridge_jobs
    from kernels.dd.batch import JOB_TRICKS
    from tools.ab import _tasks

    bench = bridge_jobs(7)[5:10]
    tasks = _tasks("bridge", 2, 7, leader=1)
    assert len(tasks) == 5
    for (deal, leader, jobs), (bdeal, trump, declarer) in zip(tasks, bench, strict=True):
        assert (deal[0] == bdeal).all() and leader == (declarer + 1) % 4
        assert jobs.tolist() == [[JOB_TRICKS, (1 << declarer) | (1 << (declarer + 2) % 4), trump]]


def test_ab_least_time_ratios_take_each_jobs_quickest_round():
    # a burst of load in one round (job 1 of A, round 0) does not count: each job at its
    # least time, then summed (B 4 against A 11) and job by job (ratios 0.5, 0.25, 1.0)
    from tools.ab import least_time_ratios

    a = [[2.0, 90.0, 1.0], [3.0, 8.0, 1.0]]
    b = [[1.0, 2.0, 1.5], [4.0, 3.0, 1.0]]
    total, median = least_time_ratios(a, b)
    assert total == pytest.approx(4.0 / 11.0) and median == pytest.approx(0.5)


def test_ab_bridge_tasks_of_one_strain_are_those_of_the_range():
    # `--strain NT`: the no-trump jobs among the range's, in order, and nothing else
    from tools.ab import _tasks

    every = _tasks("bridge", 0, 20, leader=1)
    nt = _tasks("bridge", 0, 20, leader=1, strain="NT")
    assert len(nt) == 4 and all(jobs[0, 2] == -1 for _, _, jobs in nt)
    expected = [t for t in every if t[2][0, 2] == -1]
    assert all((a[0] == b[0]).all() and a[1] == b[1] for a, b in zip(nt, expected, strict=True))


@pytest.mark.parametrize("args, message", [
    (("HEAD", "work", "work"), "at most two revisions, not 3"),
    (("work", "--deals", "0:201"), "--deals must lie within 0:200"),
    (("work", "--deals", "a:b"), "--deals must be LO:HI"),
])
def test_nodes_refuses_bad_arguments_with_one_line(args, message):
    out = subprocess.run([sys.executable, "-m", "tools.nodes", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_nodes_refuses_a_revision_older_than_its_counters():
    # 3eea55d's solve_jobs takes no stats buffer: refused before anything is compiled
    if subprocess.run(["git", "cat-file", "-e", "3eea55d^{commit}"], cwd=ROOT,
                      capture_output=True).returncode != 0:
        pytest.skip("a clone without the history")
    out = subprocess.run([sys.executable, "-m", "tools.nodes", "3eea55d", "--deals", "0:1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "older than the tool" in out.stderr
    assert "Traceback" not in out.stderr


def test_nodes_report_names_every_counter():
    from tools.nodes import report

    st = np.arange(13, dtype=np.int64) * 1000
    text = report("work", st, "abc")
    assert "0.000 M nodes, 0.001 M at trick boundaries (answers abc)" in text
    assert "table 2,000  quick bounds 3,000  own games 5,000  expanded 4,000" in text
    assert "maximising side's leads: first card cut off 6,000, a later one 7,000, none 8,000" \
        in text
    assert "other side's leads: first card cut off 9,000, a later one 10,000, none 11,000" \
        in text
    assert "lead: 0.012 M" in text


@pytest.mark.slow
def test_nodes_counters_add_up_and_leave_the_answers_alone(tmp_path, monkeypatch):
    with private_numba_cache(tmp_path / "cache"):
        _check_nodes_counters(tmp_path, monkeypatch)


def _check_nodes_counters(tmp_path, monkeypatch):
    # the counting copy (COUNT_NODES on, compiled apart: minutes) solves as the solver
    # does, and its counters are consistent: each expanded boundary node ends at its lead
    # with a cut-off by the first card, by a later one, or none (numeric and bridge)
    import hashlib

    from kernels.dd import batch, ruff_game, tt
    from tools.ab import _tasks, solver_module
    from tools.nodes import count, counting_copy

    counting_copy("work", "kernels_cn", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    mods = tuple(solver_module("kernels_cn", m) for m in ("batch", "search", "tt", "ruff_game"))
    for which, lo, hi in (("num", 0, 3), ("bridge", 0, 10)):
        tasks = _tasks(which, lo, hi, 1)
        st, answers = count(mods, tasks)
        exact, classes = tt.new_table(16)
        rmemo = ruff_game.new_ruff_memo(ruff_game.RUFF_CUT_MEMO)
        digest = hashlib.sha1()
        for deal, leader, jobs in tasks:
            out = np.zeros((1, len(jobs)), np.int8)
            batch.solve_jobs(deal, 0, 1, leader, jobs, out, exact, classes,
                             np.zeros(1, np.int64), 0, rmemo)
            digest.update(out.tobytes())
        assert answers == digest.hexdigest()[:12], which
        assert st[0] > st[1] > 0
        assert st[1] >= st[2] + st[3] + st[4] + st[5]
        assert st[4] == st[6:12].sum() > 0, which
        assert st[12] >= 0


@pytest.mark.parametrize("tool, args", [
    ("tools.ab", ("no-such-rev", "work")),
    ("tools.nodes", ("no-such-rev",)),
])
def test_unknown_revision_is_refused_with_one_line(tool, args):
    out = subprocess.run([sys.executable, "-m", tool, *args, "--deals", "0:1"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "no git revision 'no-such-rev'" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("args, rc, message", [
    (("HEAD", "work", "work"), 2, "at most two revisions, not 3"),
    (("work", "--only", "5"), 2, "--only takes indices 0..4"),
    (("no-such-rev",), 1, "no git revision 'no-such-rev'"),
])
def test_tail_refuses_bad_arguments_with_one_line(args, rc, message):
    out = subprocess.run([sys.executable, "-m", "tools.tail", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == rc and message in out.stderr and "Traceback" not in out.stderr


def test_tail_names_the_slowest_searches_of_the_seed_3_scan():
    # BENCHMARKS.md, solver (e): deal 462 North's grand misère first, each search one job
    # (R15 grand, R17 little) of its deal, leader North
    from kernels.dd.batch import JOB_GRAND, JOB_LITTLE
    from tools.tail import HARD, tasks

    assert HARD[0] == (462, 0, "grand")
    chosen = tasks({0, 1})
    assert [label for label, _, _ in chosen] == ["deal 462 N grand", "deal 958 E little"]
    assert [tuple(jobs[0, :2]) for _, _, jobs in chosen] == [(JOB_GRAND, 0), (JOB_LITTLE, 1)]
    assert all(deal.shape == (1, 4) for _, deal, _ in chosen)


def test_perfmap_names_numba_symbols():
    from tools.perfmap import short_name

    assert short_name("_ZN7kernels2dd6search7_searchB4v117B52c8tJTIeFIjxE5ArrayIyLi1E") == \
        "search._search"
    assert short_name("_ZN7cpython7kernels2dd5moves11order_movesB4v1") == "moves.order_moves"
    assert short_name("_ZN7kernels5rules10trick_winsB4v1") == "rules.trick_wins"
    assert short_name("malloc") == "malloc"


def test_perfmap_lists_the_functions_compiled_in_this_process():
    # a function compiled here (not loaded from numba's cache) has a module to list
    import numba

    from tools.perfmap import perf_map_entries

    @numba.njit(cache=False)
    def twice_plus_one(x):
        return 2 * x + 1

    assert twice_plus_one(20) == 41
    entries = perf_map_entries([twice_plus_one])
    mine = [e for e in entries if "twice_plus_one" in e[2]]
    assert mine and all(addr > 0 and size > 0 for addr, size, _ in mine)
    assert [e[0] for e in entries] == sorted(e[0] for e in entries)


def test_perfmap_refuses_bad_arguments_and_a_missing_perf_with_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tools.perfmap", "--deals", "0:201"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--deals must lie within 0:200" in out.stderr
    assert "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "tools.perfmap", "--function", "tt_lookup"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "expected MODULE.NAME" in out.stderr
    assert "Traceback" not in out.stderr
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}  # no perf on this PATH
    out = subprocess.run([sys.executable, "-m", "tools.perfmap"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "needs `perf`" in out.stderr
    assert "Traceback" not in out.stderr


def test_perfmap_by_line_sums_samples_into_the_rows_holding_them():
    from tools.perfmap import by_line

    rows = [(0, "a.py", 10), (8, "a.py", 0), (16, "a.py", 12)]
    got = by_line({0: 1, 4: 1, 9: 2, 16: 3, 40: 1}, rows)
    # offset 9 lies in a row of line 0: it counts for line 10 before it
    assert got == {("a.py", 10): 4, ("a.py", 12): 4}


LINES_DEMO = '''
import sys
from pathlib import Path

from tools.perfmap import line_tables_only, object_code

line_tables_only()
from kernels.jit import njit  # noqa: E402


@njit(cache=False)
def mix(n):
    total = 0
    for i in range(n):
        total = (total * 31 + i) % 1000003
    return total


assert mix(3) == 33
names = [fn.name for cres in mix.overloads.values()
         for fn in cres.library._final_module.functions
         if "mix" in fn.name and not fn.is_declaration
         and not fn.name.startswith(("_ZN7cpython", "cfunc"))]
Path(sys.argv[1]).write_bytes(object_code([mix], names[0]))
print(names[0])
'''


def test_perfmap_lines_compiles_a_line_table_that_names_the_source_lines(tmp_path):
    import shutil

    from tools.perfmap import line_rows

    if shutil.which("readelf") is None or shutil.which("nm") is None:
        pytest.skip("needs readelf and nm (binutils)")
    demo = tmp_path / "lines_demo.py"
    demo.write_text(LINES_DEMO)
    obj = tmp_path / "demo.o"
    out = subprocess.run([sys.executable, str(demo), str(obj)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    rows = line_rows(obj, out.stdout.split()[-1])
    text = LINES_DEMO.splitlines()
    first = text.index("def mix(n):") + 1  # line numbers of the demo file
    body = text.index("        total = (total * 31 + i) % 1000003") + 1
    # the function's first instruction has a line (its `def`), and its loop body's line
    # is in the table
    assert any(off == 0 and line > 0 for off, _, line in rows)
    named = {line for _, name, line in rows if name == "lines_demo.py"} - {0}
    assert body in named and named <= set(range(first - 1, first + 5))


def test_perfmap_lines_knows_the_callees_numba_inlines_itself(tmp_path):
    from tools.perfmap import inlined_spans

    (tmp_path / "m.py").write_text(
        "from numba import njit\n\n\n@njit(inline='always')\ndef a(x):\n    return x + 1\n\n\n"
        "@njit\ndef b(x):\n    return a(x)\n")
    assert inlined_spans(tmp_path) == [("m.py", "a", 5, 6)]
    spans = inlined_spans(ROOT / "kernels")
    assert ("moves.py", "order_moves") in {(f, fn) for f, fn, _, _ in spans}


@pytest.mark.parametrize("args, message", [
    (("HEAD", "work", "work"), "at most two revisions, not 3"),
    (("work", "--dds"), "--dds counts DDS on the bridge jobs beside one revision"),
    (("HEAD", "work", "--dds", "--jobs", "bridge"), "--dds counts DDS on the bridge jobs"),
    (("work", "--jobs", "bridge", "--deals", "0:501"), "--deals must lie within 0:500"),
])
def test_instr_refuses_bad_arguments_with_one_line(args, message):
    out = subprocess.run([sys.executable, "-m", "tools.instr", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_instr_reads_cachegrinds_summary():
    from tools.instr import parse_counts

    text = ("==1== I   refs:      12,465,109,318\n==1== Branches:  1,443,460,496  (1 cond)\n"
            "==1== Mispredicts:      143,086,200  (  119,398,941 cond + 23,687,259 ind)\n")
    assert parse_counts(text) == (12465109318, 143086200)
    with pytest.raises(SystemExit, match="no cachegrind summary"):
        parse_counts("valgrind: command not found")


def test_instr_one_card_deal_keeps_the_jobs_and_holds_a_card_a_hand():
    from tools.ab import _tasks
    from tools.instr import one_card_deal

    task = _tasks("bridge", 3, 4, leader=1)
    deal, leader, jobs = one_card_deal(task)
    assert deal.shape == task[0][0].shape and deal.dtype == task[0][0].dtype
    assert [bin(int(h)).count("1") for h in deal[0]] == [1, 1, 1, 1]
    assert int(np.bitwise_or.reduce(deal[0])).bit_count() == 4  # four different cards
    assert leader == task[0][1] and (jobs == task[0][2]).all()


def test_instr_child_answers_as_dds_does_on_bridge_jobs(capsys):
    # the child counted under valgrind, run natively on the repository's kernels: its hash
    # of our answers (the one-card deal, then bridge jobs 0-2) is the hash of DDS's,
    # turned into the declarer's side's tricks
    pytest.importorskip("endplay")
    from tools.instr import child

    child(["ours", str(ROOT), "kernels", "bridge", "0", "3", "1", "-"])
    ours = capsys.readouterr().out.strip()
    child(["dds", str(ROOT), "-", "bridge", "0", "3", "1", "-"])
    assert capsys.readouterr().out.strip() == ours and len(ours) == 12
