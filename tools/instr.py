"""Instructions and branch mispredictions of one or two versions of the solver's kernels
(or of DDS), counted by valgrind: the work done, which no load on the machine moves.

Time on this shared machine moves by a few percent between two runs of one version
(`python -m tools.ab`), more than most changes to the search gain; node counts do not
move (`python -m tools.nodes`) but say nothing of what a node costs. This counts what
the processor is asked to do: each version's `kernels/` is copied as `tools.ab` copies
it, compiled natively into a fresh numba cache for the processor valgrind presents (its
name and features as LLVM reads them under valgrind: without AVX-512 here, where the
machine has it), and then two child processes run under `valgrind --tool=cachegrind
--branch-sim=yes`, loading that cache: one solves a one-card deal (so that every
compiled function the jobs use is loaded), the other the same deal and then the jobs.
The difference of their counts is the jobs' own: instructions (cachegrind's `I refs`)
and conditional and indirect branches its simple predictor mispredicts (a model, not
the processor's predictor). Two copies of one version differ by a few million
instructions (bridge jobs 0-4: 1.713 and 1.707 G; 0-39: 9.215 and 9.207 G), where their
times differ by a few percent.

`--dds` counts DDS (endplay's `solve_board`, value only, one thread, as `python -m bench
solver` calls it) on the same bridge jobs beside one version, its answers (the side on
lead's tricks) turned into the declarer's side's for the hash: on the bench's bridge jobs
0-39 our kernels took 9.22 G instructions for 6.11 M nodes at f44affe, DDS 5.52 G for
6.83 M (its own count), 1.87 times its instructions a node.

Each version costs a native compile (about two minutes) and two runs under valgrind
(about a minute each for 40 bridge jobs, thirty times slower than native). It needs
`valgrind` on the PATH. Nothing is written to BENCHMARKS.md.

Usage: `python -m tools.instr A [B] [--dds] [--deals LO:HI] [--jobs num|mis|all|bridge]
[--leader SEAT] [--strain S|H|D|C|NT]`, where A and B are git revisions or `work`
(the deals as in `tools.ab`, default 0:20).
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from tools.ab import _copy_kernels, _tasks, deal_range, job_options, solver_module

_CPU_PROBE = ("import llvmlite.binding as ll; print(ll.get_host_cpu_name()); "
              "print(ll.get_host_cpu_features().flatten())")
_COUNTS = re.compile(r"(I\s+refs|Mispredicts):\s+([\d,]+)")


def valgrind_cpu() -> tuple:
    """(name, features) of the processor LLVM sees under valgrind."""
    got = subprocess.run(["valgrind", "--tool=none", "-q", sys.executable, "-c", _CPU_PROBE],
                         capture_output=True, text=True, check=True)
    name, features = got.stdout.split("\n")[:2]
    return name.strip(), features.strip()


def parse_counts(text: str) -> tuple:
    """(instructions, mispredicted branches) from cachegrind's summary on stderr."""
    found = dict((k.split()[0], int(v.replace(",", ""))) for k, v in _COUNTS.findall(text))
    if "I" not in found or "Mispredicts" not in found:
        raise SystemExit("tools.instr: no cachegrind summary in valgrind's output:\n"
                         + text[-2000:])
    return found["I"], found["Mispredicts"]


def one_card_deal(tasks) -> tuple:
    """A task like the first of `tasks` on a deal of one card a hand (the same compiled
    functions, next to no work)."""
    deal, leader, jobs = tasks[0]
    tiny = np.array([[np.uint64(1) << np.uint64(13 * q)] for q in range(4)],
                    dtype=np.uint64).reshape(1, 4)
    return tiny.astype(deal.dtype), leader, jobs


def child(argv) -> int:
    """Under valgrind (or natively, to compile): solve the one-card deal, then the jobs
    LO..HI of `which` ("ours": the copy `name` in `folder`; "dds": DDS), printing a hash
    of the answers."""
    which, folder, name, jobs_kind, lo, hi, leader, strain = argv
    lo, hi, leader = int(lo), int(hi), int(leader)
    st = None if strain == "-" else strain
    tasks = _tasks(jobs_kind, lo, hi, leader, st) if hi > lo else []
    first = one_card_deal(tasks or _tasks(jobs_kind, lo, lo + 1, leader, st))
    digest = hashlib.sha1()
    if which == "dds":
        from analyser import format_deal
        from bench.bench_solver import dds_solver

        dds = dds_solver()
        for deal, ld, jobs in [first] + tasks:
            # DDS counts the side on lead's tricks: the declarer's side takes the rest
            left = bin(int(deal[0, 0])).count("1")
            tricks = dds(format_deal(deal[0]), int(jobs[0, 2]), ld)
            digest.update(bytes([left - int(tricks)]))
        print(digest.hexdigest()[:12])
        return 0
    sys.path.insert(0, folder)
    batch, tt, ruff = (solver_module(name, m) for m in ("batch", "tt", "ruff_game"))
    exact, classes = tt.new_table(128)
    rmemo = ruff.new_ruff_memo(ruff.RUFF_CUT_MEMO)
    gens = np.zeros(1, np.int64)
    for deal, ld, jobs in [first] + tasks:
        out = np.zeros((1, len(jobs)), np.int8)
        batch.solve_jobs(deal, 0, 1, ld, jobs, out, exact, classes, gens, 0, rmemo)
        digest.update(out.tobytes())
    print(digest.hexdigest()[:12])
    return 0


def measure(which, folder, name, args, lo, hi, env) -> tuple:
    """(instructions, mispredictions, answers' hash) of jobs lo..hi: compiled natively
    first (ours), then the two runs under cachegrind."""
    base = [sys.executable, "-m", "tools.instr", "--child", which, str(folder), name,
            args.jobs, None, None, str(args.leader), args.strain or "-"]

    def cmd(a, b):
        c = list(base)
        c[-4], c[-3] = str(a), str(b)
        return c

    root = Path(__file__).resolve().parent.parent
    if which == "ours":
        got = subprocess.run(cmd(lo, lo), env=env, cwd=root, capture_output=True, text=True)
        if got.returncode != 0:
            raise SystemExit(f"tools.instr: the native compile failed:\n{got.stderr[-2000:]}")
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
          "--cachegrind-out-file=/dev/null"]
    counts = []
    answers = ""
    for a, b in ((lo, lo), (lo, hi)):
        got = subprocess.run(vg + cmd(a, b), env=env, cwd=root, capture_output=True,
                             text=True)
        if got.returncode != 0:
            raise SystemExit(f"tools.instr: the run under valgrind failed:\n{got.stderr[-2000:]}")
        counts.append(parse_counts(got.stderr))
        answers = got.stdout.strip()
    (i0, m0), (i1, m1) = counts
    return i1 - i0, m1 - m0, answers


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m tools.instr", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revs", nargs="+", metavar="REV",
                        help="one or two git revisions, or `work` for the working tree")
    parser.add_argument("--dds", action="store_true",
                        help="count DDS too (bridge jobs only; one revision)")
    job_options(parser)
    args = parser.parse_args(argv)
    if len(args.revs) > 2:
        parser.error(f"at most two revisions, not {len(args.revs)}")
    if args.dds and (args.jobs != "bridge" or len(args.revs) != 1):
        parser.error("--dds counts DDS on the bridge jobs beside one revision")
    lo, hi = deal_range(parser, args.deals, args.jobs, args.strain)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.dds:
        from bench.bench_solver import dds_solver

        if dds_solver() is None:
            parser.error("--dds needs endplay (pip install endplay)")

    name, features = valgrind_cpu()
    tmp = Path(tempfile.mkdtemp(prefix="tools-instr-"))
    # one hash seed: the interpreter's own work (dict probes, string hashes) the same in
    # every run, so that the two runs' difference is the jobs' alone
    env = dict(os.environ, NUMBA_CPU_NAME=name, NUMBA_CPU_FEATURES=features,
               NUMBA_CACHE_DIR=str(tmp / "numba-cache"), PYTHONHASHSEED="0")
    results = []
    for i, rev in enumerate(args.revs):
        mod = f"kernels_i{i}"
        _copy_kernels(rev, mod, tmp)
        print(f"compiling {rev} and counting under valgrind ...", file=sys.stderr, flush=True)
        results.append((rev,) + measure("ours", tmp, mod, args, lo, hi, env))
    if args.dds:
        print("counting DDS under valgrind ...", file=sys.stderr, flush=True)
        results.append(("DDS",) + measure("dds", tmp, "-", args, lo, hi, env))
    for label, ins, mis, answers in results:
        print(f"{label}: {ins / 1e9:.3f} G instructions, {mis / 1e6:.2f} M mispredicted "
              f"branches (jobs {lo}..{hi - 1}; answers {answers})")
    if len(results) == 2:
        (_, ia, ma, ha), (_, ib, mb, hb) = results
        same = f"answers {'agree' if ha == hb else 'DIFFER'}"
        if args.dds:
            print(f"ours/DDS instructions {ia / ib:.3f}, mispredictions {ma / mb:.3f}   {same}")
        else:
            print(f"B/A instructions {ib / ia:.3f}, mispredictions {mb / ma:.3f}   {same}")
        return 0 if ha == hb else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
