"""Search nodes of one or two versions of the solver's kernels, with an answer check.

Time on a shared machine moves by a fifth within minutes (`python -m tools.ab`); node
counts do not. This copies `kernels/` of each revision (or the working tree, `work`) as
`tools.ab` does, with `kernels.dd.search.COUNT_NODES` switched on, solves the same jobs
as `tools.ab` (the Boston analysis's numeric contracts, misères or both on seed-777 deals,
or the solver bench's bridge jobs) through `kernels.dd.batch.solve_jobs`, one table and
one ruff-game memo kept across the deals, and prints what the search counted
(`kernels.dd.search.STATS_ROW`):

- nodes, trick-boundary nodes, and how the boundary nodes ended: settled by the table, by
  the quick bounds, by the lone seat's own games (trump, ruff or misère game), or
  expanded;
- at the expanded leads of each side, whether the first card tried cut off, a later one,
  or none (the maximising side: the declarer's side in a numeric or bridge contract, the
  defenders in misère);
- the nodes spent on cards tried before a later card cut off at a lead, each counted
  once: about what a perfect lead order would save (about: the table entries those
  subtrees left may serve later searches);
- a hash of the answers, so that two versions can be seen to agree.

The counters at the leads add up to the expanded boundary nodes in the numeric and bridge
searches; in misère's probing searches a card given up over its node budget leaves nodes
unfinished. The band game's nodes (kernels.dd.band_game, misère searches past
kernels.dd.search.BAND_START nodes) are not counted. Each version is compiled apart
(about two minutes a version on a busy 2-core machine). Nothing is written to BENCHMARKS.md.

Usage: `python -m tools.nodes A [B] [--deals LO:HI] [--jobs num|mis|all|bridge]
[--leader SEAT] [--strain S|H|D|C|NT]`, where A and B are git revisions or `work`
(`--strain`: the bridge jobs of one strain only, as in `tools.ab`).
"""

import argparse
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from tools.ab import _copy_kernels, _tasks, deal_range, job_options, solver_module

SWITCH = "COUNT_NODES = False"

# (label, column of the stats row); the leads' columns are read in `report`
_ENDS = (("table", 2), ("quick bounds", 3), ("own games", 5), ("expanded", 4))


def counting_copy(rev: str, name: str, dest: Path) -> None:
    """Copy `kernels/` of `rev` to dest/name (tools.ab's copy) with the counters on."""
    _copy_kernels(rev, name, dest)
    solver = dest / name / "dd"
    search, batch = ((solver / "search.py", solver / "batch.py") if solver.is_dir() else
                     (dest / name / "dd_search.py", dest / name / "dd_batch.py"))
    text = search.read_text()
    if text.count(SWITCH) != 1:
        raise SystemExit(f"tools.nodes: revision {rev!r} has no {SWITCH!r} in {search.name}")
    search.write_text(text.replace(SWITCH, "COUNT_NODES = True"))
    if "stats=None" not in batch.read_text():
        raise SystemExit(f"tools.nodes: revision {rev!r} is older than the tool (its "
                         "solve_jobs takes no stats buffer)")


def count(mods, tasks) -> tuple:
    """Solve every task with one table and ruff memo: (stats row, answers' hash)."""
    batch, search, tt, ruff = mods
    exact, classes = tt.new_table(128)
    rmemo = ruff.new_ruff_memo(ruff.RUFF_CUT_MEMO)
    gens = np.zeros(1, np.int64)
    _, scores = search.new_buffers()
    digest = hashlib.sha1()
    for deal, leader, jobs in tasks:
        out = np.zeros((1, len(jobs)), np.int8)
        batch.solve_jobs(deal, 0, 1, leader, jobs, out, exact, classes, gens, 0, rmemo, scores)
        digest.update(out.tobytes())
    return scores[search.STATS_ROW].copy(), digest.hexdigest()[:12]


def report(label: str, st: np.ndarray, answers: str) -> str:
    """The counters of one version as a few lines of text."""
    nodes, boundary = int(st[0]), int(st[1])
    ends = "  ".join(f"{name} {int(st[col]):,}" for name, col in _ENDS)
    lines = [f"{label}: {nodes / 1e6:.3f} M nodes, {boundary / 1e6:.3f} M at trick boundaries "
             f"(answers {answers})", f"  boundary nodes: {ends}"]
    for side, col in (("maximising side", 6), ("other side", 9)):
        first, later, none = (int(x) for x in st[col:col + 3])
        lines.append(f"  {side}'s leads: first card cut off {first:,}, a later one "
                     f"{later:,}, none {none:,}")
    lines.append(f"  nodes before a later card cut off at a lead: {int(st[12]) / 1e6:.3f} M")
    return "\n".join(lines)


def install_counting_copies(revs, tag: str) -> list:
    """Importable counting copies of the kernels of each revision (`counting_copy`) in a
    fresh temporary folder put on sys.path, with its own numba cache; their module names."""
    tmp = Path(tempfile.mkdtemp(prefix=f"tools-{tag}-"))
    names = [f"kernels_{tag}{i}" for i in range(len(revs))]
    for rev, name in zip(revs, names, strict=True):
        counting_copy(rev, name, tmp)
    os.environ.setdefault("NUMBA_CACHE_DIR", str(tmp / "numba-cache"))
    sys.path.insert(0, str(tmp))
    return names


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.nodes", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revs", nargs="+", metavar="REV",
                        help="one or two git revisions, or `work` for the working tree")
    job_options(parser)
    args = parser.parse_args(argv)
    if len(args.revs) > 2:
        parser.error(f"at most two revisions, not {len(args.revs)}")
    lo, hi = deal_range(parser, args.deals, args.jobs, args.strain)

    names = install_counting_copies(args.revs, "n")
    tasks = _tasks(args.jobs, lo, hi, args.leader, args.strain)
    results = []
    for rev, name in zip(args.revs, names, strict=True):
        print(f"compiling and solving {rev} ...", file=sys.stderr, flush=True)
        mods = tuple(solver_module(name, m) for m in ("batch", "search", "tt", "ruff_game"))
        st, answers = count(mods, tasks)
        results.append((st, answers))
        print(report(rev, st, answers), flush=True)
    if len(results) == 2:
        (a, ha), (b, hb) = results
        same = ha == hb
        print(f"nodes B/A {b[0] / max(a[0], 1):.3f}   answers {'agree' if same else 'DIFFER'}")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
