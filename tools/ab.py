"""Two versions of the solver's kernels in one process, solving the same deals in turn.

On a shared machine the speed moves by 20-40% within minutes, so two separate runs, even
at the same time, often disagree by more than the change being measured. Here both
versions are imported side by side (copies of `kernels/` from two git revisions, or the
working tree, under the names `kernels_a` and `kernels_b`), each with its own table and
ruff-game memo, and they solve the same deals one after the other, deal by deal, the
order swapped every deal: both meet the same load within a second. Two copies of one
version measure within about 2% of each other on numeric jobs; on misère jobs, whose
time sits in a few heavy deals, up to 1.125 apart (deals 0-99, 3 rounds), so a few
percent there needs more deals and rounds.

`--jobs bridge` solves `python -m bench solver`'s bridge jobs instead (section (a): seed
4242, one declarer's partnership and strain per deal, opening lead on declarer's left),
`--deals` then counting its timed jobs (0:500), each version keeping its table across
them as the bench's worker does (`--leader` is for the Boston jobs only; `--strain S|H|D|C|NT`
keeps only the jobs of one strain, a fifth of them). The same
version against itself on bridge jobs 0-39, one round, can measure 1.044, so compare 200
jobs or more.

`--mib-a N` and `--mib-b N` give each version's transposition table its size in MiB
(default: the solver's, `analyser.solver.TABLE_MIB`); `work work --mib-a 128 --mib-b 512`
measures what the table size alone changes.

Usage: `python -m tools.ab A B [--deals LO:HI] [--jobs num|mis|all|bridge] [--strain S]
[--rounds N] [--mib-a N] [--mib-b N]`,
where A and B are git revisions or `work` (the working tree). Prints each version's time,
the ratio B/A, and whether every answer agreed; then, from each job's least time over the
rounds (a job slowed by a burst of load in one round counts at its quickest), the ratio of
those times summed and the median of the jobs' own ratios (`least_time_ratios`). Nothing
is written to BENCHMARKS.md.
"""

import argparse
import importlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

from analyser.solver import TABLE_MIB

ROOT = Path(__file__).resolve().parent.parent


def _copy_kernels(rev: str, name: str, dest: Path) -> None:
    """Write `kernels/` of revision `rev` (or the working tree for "work") to dest/name,
    its imports of `kernels` renamed to `name`."""
    out = dest / name
    out.mkdir(parents=True)
    if rev == "work":
        sources = {p.relative_to(ROOT / "kernels").as_posix(): p.read_text()
                   for p in (ROOT / "kernels").rglob("*.py")}
    else:
        got = subprocess.run(["git", "archive", rev, "kernels"], cwd=ROOT,
                             capture_output=True)
        if got.returncode != 0:
            raise SystemExit(f"tools.ab: no git revision {rev!r} with a kernels/ folder here")
        raw = got.stdout
        sources = {}
        with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
            for member in tar.getmembers():
                path = Path(member.name)
                if member.isfile() and path.suffix == ".py":
                    rel = path.relative_to("kernels").as_posix()
                    sources[rel] = tar.extractfile(member).read().decode()
    if not sources:
        raise SystemExit(f"tools.ab: no kernels/ in revision {rev!r}")
    for fname, text in sources.items():
        if fname == "__init__.py":
            text = '"""A copy of the kernels for tools.ab."""\n'  # no cache-folder logic
        text = re.sub(r"\bkernels\.", f"{name}.", text)
        text = re.sub(r"\bfrom kernels import\b", f"from {name} import", text)
        (out / fname).parent.mkdir(parents=True, exist_ok=True)
        (out / fname).write_text(text)


def solver_module(package: str, concept: str):
    """The solver's module `concept` (batch, search, tt, ruff_game, ...) of a kernels copy
    `package`: `package.dd.concept`, or `package.dd_concept` in a revision whose solver
    modules sit flat in kernels/."""
    try:
        return importlib.import_module(f"{package}.dd.{concept}")
    except ModuleNotFoundError as missing:
        if missing.name not in (f"{package}.dd", f"{package}.dd.{concept}"):
            raise
        return importlib.import_module(f"{package}.dd_{concept}")


STRAIN_NAMES = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": -1}


def _tasks(which: str, lo: int, hi: int, leader: int, strain: str | None = None) -> list:
    """(deal as a (1, 4) array, leader, jobs) for each deal to solve, in order; with
    `strain` (a key of STRAIN_NAMES, bridge jobs only) the jobs of that strain alone."""
    if which == "bridge":
        from bench.bench_solver import bridge_jobs
        from kernels.dd.batch import JOB_TRICKS

        tasks = []
        for deal, trump, declarer in bridge_jobs(hi)[3 + lo:]:
            if strain is not None and trump != STRAIN_NAMES[strain]:
                continue
            side = (1 << declarer) | (1 << (declarer + 2) % 4)
            tasks.append((deal[None], (declarer + 1) % 4,
                          np.array([(JOB_TRICKS, side, trump)], np.int64)))
        return tasks
    import analyser  # the deals only

    deals = analyser.deal_random(200, seed=777)
    jobs = _jobs(which)
    return [(deals[i:i + 1], leader, jobs) for i in range(lo, hi)]


def _jobs(which: str) -> np.ndarray:
    """The Boston analysis's jobs of a deal (kernels.dd.batch): numeric, misère or both."""
    from kernels.dd.batch import JOB_GRAND, JOB_LITTLE, JOB_TRICKS
    from kernels.dd.search import DISCARD_HIGHEST

    jobs = []
    if which in ("all", "num"):
        jobs += [(JOB_TRICKS, 1 << d, t) for d in range(4) for t in range(4)]
    if which in ("all", "mis"):
        jobs += [(kind, d, DISCARD_HIGHEST) for d in range(4)
                 for kind in (JOB_GRAND, JOB_LITTLE)]
    return np.array(jobs, np.int64)


def job_options(parser) -> None:
    """The options that choose the jobs (`_tasks`): --deals, --jobs, --leader, --strain."""
    parser.add_argument("--deals", default="0:20",
                        help="LO:HI of deal_random(200, seed=777), or of the bridge jobs")
    parser.add_argument("--jobs", choices=("num", "mis", "all", "bridge"), default="num",
                        help="numeric contracts, misères, both (default num), or the "
                        "solver bench's bridge jobs")
    parser.add_argument("--leader", type=int, default=1,
                        help="seat on lead in the Boston jobs (default E; the bridge jobs "
                        "lead from the declarer's left)")
    parser.add_argument("--strain", choices=tuple(STRAIN_NAMES),
                        help="bridge jobs of this strain only (a fifth of those in --deals)")


def deal_range(parser, deals: str, which: str, strain: str | None = None) -> tuple:
    """`--deals` LO:HI checked against the jobs' deals (200 Boston, 500 bridge), and
    `--strain` against the jobs (bridge only): the parser's one-line error otherwise."""
    if strain is not None and which != "bridge":
        parser.error("--strain chooses among the bridge jobs: give --jobs bridge")
    try:
        lo, hi = (int(x) for x in deals.split(":"))
    except ValueError:
        parser.error(f"--deals must be LO:HI, not {deals!r}")
    top = 500 if which == "bridge" else 200
    if not 0 <= lo < hi <= top:
        parser.error(f"--deals must lie within 0:{top}, not {deals!r}")
    return lo, hi


def least_time_ratios(times_a, times_b) -> tuple:
    """(sum ratio, median job ratio) of two versions' times, each (rounds, jobs): every
    job's least time over the rounds, summed over the jobs for the first, B's over A's job
    by job for the second."""
    least_a = np.min(np.asarray(times_a, float), axis=0)
    least_b = np.min(np.asarray(times_b, float), axis=0)
    return float(least_b.sum() / least_a.sum()), float(np.median(least_b / least_a))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ab", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="git revision, or `work` for the working tree")
    parser.add_argument("b", help="git revision, or `work` for the working tree")
    job_options(parser)
    parser.add_argument("--rounds", type=int, default=2, help="passes over the deals")
    for x in "ab":
        parser.add_argument(f"--mib-{x}", type=int, default=TABLE_MIB,
                            help=f"MiB of version {x.upper()}'s table (default {TABLE_MIB})")
    args = parser.parse_args(argv)
    lo, hi = deal_range(parser, args.deals, args.jobs, args.strain)
    mib = {"a": args.mib_a, "b": args.mib_b}
    if min(mib.values()) <= 0:
        parser.error("--mib-a and --mib-b must be positive")

    tmp = Path(tempfile.mkdtemp(prefix="tools-ab-"))
    for rev, name in ((args.a, "kernels_a"), (args.b, "kernels_b")):
        _copy_kernels(rev, name, tmp)
    os.environ.setdefault("NUMBA_CACHE_DIR", str(tmp / "numba-cache"))
    sys.path.insert(0, str(tmp))
    tasks = _tasks(args.jobs, lo, hi, args.leader, args.strain)
    mods = {x: tuple(solver_module(f"kernels_{x}", m) for m in ("batch", "tt", "ruff_game"))
            for x in "ab"}

    def fresh(x):
        _, tt, rg = mods[x]
        exact, classes = tt.new_table(mib[x])
        return exact, classes, np.zeros(1, np.int64), rg.new_ruff_memo(rg.RUFF_CUT_MEMO)

    def solve(x, state, task):
        exact, classes, gens, rmemo = state
        deal, leader, jobs = task
        out = np.zeros((1, len(jobs)), np.int8)
        mods[x][0].solve_jobs(deal, 0, 1, leader, jobs, out, exact, classes, gens, 0, rmemo)
        return out

    print(f"compiling both versions ({args.a}, {args.b}) ...", file=sys.stderr, flush=True)
    for x in "ab":
        solve(x, fresh(x), tasks[-1])
    times = {x: np.zeros((args.rounds, len(tasks))) for x in "ab"}
    answers = {"a": [], "b": []}
    for rnd in range(args.rounds):
        states = {x: fresh(x) for x in ("ab" if rnd % 2 == 0 else "ba")}
        for i, task in enumerate(tasks):
            for x in ("ab" if (i + rnd) % 2 == 0 else "ba"):
                start = time.perf_counter()
                out = solve(x, states[x], task)
                times[x][rnd, i] = time.perf_counter() - start
                if rnd == 0:
                    answers[x].append(out)
    same = all((p == q).all() for p, q in zip(answers["a"], answers["b"], strict=True))
    spent = {x: times[x].sum() for x in "ab"}
    print(f"A {args.a}: {spent['a']:.2f} s   B {args.b}: {spent['b']:.2f} s   "
          f"B/A {spent['b'] / spent['a']:.3f}   answers {'agree' if same else 'DIFFER'}")
    total, median = least_time_ratios(times["a"], times["b"])
    print(f"each job's least time over {args.rounds} rounds: B/A {total:.3f} summed, "
          f"{median:.3f} the median job")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
