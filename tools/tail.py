"""Nodes and seconds of the solver's slowest searches, for one or two versions of the kernels.

The Boston analysis's time sits in a few made misères (BENCHMARKS.md, `solver` (e)): the
searches named in `HARD` come from its 2,000-deal scan (`deal_random(2000, seed=3)`,
leader N). Each is solved alone through `kernels.dd.batch.solve_jobs` from an empty
transposition table, with the search's node counter on (`tools.nodes`' copy of the
kernels, `kernels.dd.search.COUNT_NODES`), and its nodes, trick-boundary nodes, seconds
and answer are printed; with two versions, the ratios and whether the answers agree.
Node counts do not move with the machine's load; seconds do. The counts are the
search's own: a misère search that takes turns with the band game (kernels.dd.band_game)
counts its own turns, not the band game's nodes, so there compare the seconds. Nothing
is written to BENCHMARKS.md. The random sample's node ratio is `python -m tools.nodes A B
--jobs mis`.

Usage: `python -m tools.tail A [B] [--only I ...] [--verbose]`, A and B git revisions or `work`;
`--only` keeps the searches of those indices in `HARD` (0 is the slowest).
"""

import argparse
import time

import numpy as np

from analyser.constants import LEADER
from tools.ab import solver_module
from tools.nodes import install_counting_copies, report

SEED, DEALS = 3, 2000
# (deal index in deal_random(DEALS, seed=SEED), declarer seat, "grand" or "little")
HARD = (
    (462, 0, "grand"),
    (958, 1, "little"),
    (1713, 3, "little"),
    (1689, 3, "grand"),
    (906, 0, "grand"),
)


def tasks(only) -> list:
    """(label, deal (1, 4), jobs (1, 3)) of each chosen search of `HARD`."""
    import analyser
    from kernels.dd.batch import JOB_GRAND, JOB_LITTLE
    from kernels.dd.search import DISCARD_HIGHEST

    deals = analyser.deal_random(DEALS, seed=SEED)
    out = []
    for i, (deal, seat, kind) in enumerate(HARD):
        if only and i not in only:
            continue
        job = (JOB_GRAND, seat, 0) if kind == "grand" else (JOB_LITTLE, seat, DISCARD_HIGHEST)
        out.append((f"deal {deal} {'NESW'[seat]} {kind}", deals[deal:deal + 1],
                    np.array([job], np.int64)))
    return out


def measure(mods, todo, verbose=False) -> list:
    """(nodes, boundary nodes, seconds, answer) of each task, each from an empty table;
    `verbose`: with how the search's nodes ended (`tools.nodes.report`)."""
    batch, search, tt, ruff = mods
    rows = []
    deal, jobs = todo[0][1], todo[0][2].copy()
    jobs[0, 1] = (jobs[0, 1] + 1) % 4  # compiling: another seat's misère, most often quick
    batch.solve_jobs(deal, 0, 1, LEADER, jobs, np.zeros((1, 1), np.int8), *tt.new_table(16),
                     np.zeros(1, np.int64), 0, ruff.new_ruff_memo(ruff.RUFF_CUT_MEMO),
                     search.new_buffers()[1])
    for label, deal, jobs in todo:
        exact, classes = tt.new_table(128)
        rmemo = ruff.new_ruff_memo(ruff.RUFF_CUT_MEMO)
        _, scores = search.new_buffers()
        out = np.zeros((1, 1), np.int8)
        start = time.perf_counter()
        batch.solve_jobs(deal, 0, 1, LEADER, jobs, out, exact, classes, np.zeros(1, np.int64),
                         0, rmemo, scores)
        seconds = time.perf_counter() - start
        st = scores[search.STATS_ROW]
        rows.append((int(st[0]), int(st[1]), seconds, int(out[0, 0])))
        print(f"  {label}: {st[0] / 1e6:.2f} M nodes, {seconds:.1f} s, made {bool(out[0, 0])}",
              flush=True)
        if verbose:
            print(report("   ", st, str(out[0, 0])), flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.tail", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revs", nargs="+", metavar="REV",
                        help="one or two git revisions, or `work` for the working tree")
    parser.add_argument("--only", type=int, nargs="*", default=[],
                        help=f"indices into HARD (0..{len(HARD) - 1}) to solve")
    parser.add_argument("--verbose", action="store_true",
                        help="how each search's nodes ended (tools.nodes' counters)")
    args = parser.parse_args(argv)
    if len(args.revs) > 2:
        parser.error(f"at most two revisions, not {len(args.revs)}")
    if any(not 0 <= i < len(HARD) for i in args.only):
        parser.error(f"--only takes indices 0..{len(HARD) - 1}")
    names = install_counting_copies(args.revs, "t")
    todo = tasks(set(args.only))
    results = []
    for rev, name in zip(args.revs, names, strict=True):
        print(f"{rev}: compiling and solving ...", flush=True)
        mods = tuple(solver_module(name, m) for m in ("batch", "search", "tt", "ruff_game"))
        results.append(measure(mods, todo, args.verbose))
    if len(results) == 2:
        for (label, _, _), a, b in zip(todo, *results, strict=True):
            print(f"{label}: nodes B/A {b[0] / max(a[0], 1):.3f}, seconds B/A "
                  f"{b[2] / max(a[2], 1e-9):.3f}, answers {'agree' if a[3] == b[3] else 'DIFFER'}")
        same = all(a[3] == b[3] for a, b in zip(*results, strict=True))
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
