"""Scan random deals for the slowest Boston analyses and store the hardest with their answers.

Each deal's 24 jobs (16 numeric contracts, each seat's grand and little misère, leader N
as in the pipeline) are solved one by one on one thread (`bench.bench_solver.scan_deals`),
and the `--keep` deals of the most time, with `--add` deals given by hand, are written to
`--out` (default tests/data/hard_boston.json) as rows: the deal, the leader, its answers
(tricks per seat x trump, grand and little misère per seat), the seconds they took here
and the search that took most of them. `tests/test_hard_deals.py` checks the solver
against the stored answers, so write the file from a solver already trusted (the
answers are what it says; the test only keeps later versions equal to it).

Usage: `python -m tools.hard_deals [--deals N] [--seed S] [--keep K] [--add DEAL ...]
[--out PATH]`.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import analyser
from analyser.constants import LEADER
from bench.bench_solver import SEATS, _job_names, scan_deals

ROOT = Path(__file__).resolve().parent.parent


def rows_of(deals, answers, seconds) -> list:
    """One JSON row per deal: its answers in the analysis's shapes and its time."""
    names = _job_names()
    rows = []
    for i in range(deals.shape[0]):
        a = answers[i]
        rows.append({
            "deal": analyser.format_deal(deals[i]),
            "leader": SEATS[LEADER],
            "tricks": a[:16].reshape(4, 4).tolist(),
            "grand": [bool(x) for x in a[16::2]],
            "little": [bool(x) for x in a[17::2]],
            "seconds": round(float(seconds[i].sum()), 3),
            "slowest": names[int(np.argmax(seconds[i]))],
        })
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hard_deals", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="random deals to scan")
    parser.add_argument("--seed", type=int, default=3, help="seed of deal_random")
    parser.add_argument("--keep", type=int, default=8, help="slowest deals kept")
    parser.add_argument("--add", nargs="*", default=[], help="deals (PBN) always kept")
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "hard_boston.json"))
    args = parser.parse_args(argv)
    scanned = analyser.deal_random(args.deals, seed=args.seed) if args.deals > 0 else \
        np.zeros((0, 4), np.uint64)
    extra = np.array([analyser.parse_deal(d) for d in args.add], np.uint64).reshape(-1, 4)
    scan_deals(analyser.deal_random(1, seed=args.seed))  # JIT warm-up, not timed
    answers, seconds = scan_deals(np.concatenate([scanned, extra]), progress=True)
    order = np.argsort(seconds[:len(scanned)].sum(axis=1))[::-1][:args.keep]
    keep = np.concatenate([order, np.arange(len(scanned), len(scanned) + len(extra))])
    deals = np.concatenate([scanned, extra])
    rows = rows_of(deals[keep], answers[keep], seconds[keep])
    rows.sort(key=lambda r: r["seconds"])
    Path(args.out).write_text("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    for r in rows:
        print(f"{r['seconds']:8.2f} s  {r['slowest']:9}  {r['deal']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
