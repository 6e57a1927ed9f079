"""`boston-analyser run` end to end: hands per second and the share of time outside the kernels.

One warm-up run (numba compilation or cache loading, worker start-up) is excluded. Each
measured run deals, solves (dd_table + dd_misere_table in one batch, solve_deals),
stores the Parquet parts, aggregates the tables and draws the report, into a fresh
directory. The kernels' time is what the chunks spent inside deal_random and the solver
(recorded per chunk); with J jobs the kernels' wall time is taken as that sum / J, so
"outside" is everything else: process start-up and scheduling, building rows and
features, Parquet, aggregation (pandas, exact Fractions), charts and HTML.
"""

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from analyser import store
from analyser.cmd_report import build_report
from analyser.pipeline import RunConfig, available_cores, run_analysis

SEED = 20261129


def _one_run(deals: int, chunk: int, jobs: int) -> dict:
    """Time one complete run in a temporary directory; return its figures."""
    out = Path(tempfile.mkdtemp(prefix="bench_run_"))
    try:
        config = RunConfig(deals=deals, seed=SEED, chunk=chunk)
        t0 = time.perf_counter()
        stats = run_analysis(out, config, jobs=jobs)
        t1 = time.perf_counter()
        build_report(out)
        t2 = time.perf_counter()
        timings = store.read_timings(out)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    kernels = sum(t["deal"] + t["solve"] for t in timings)
    wall = t2 - t0
    kernel_wall = kernels / jobs
    return {
        "wall": wall,
        "hands_per_s": 4 * deals / wall,
        "kernel_wall": kernel_wall,
        "outside_share": max(0.0, wall - kernel_wall) / wall,
        "aggregate": stats["seconds_aggregating"],
        "report": t2 - t1,
        "rows": sum(t["rows"] for t in timings) / jobs,
    }


def run(quick: bool, deals: int | None = None) -> str:
    """Measure `run` end to end with 1 and 2 jobs; return a Markdown section. `deals`
    replaces the full size (400 deals, 3 runs) by one run of that many deals."""
    sized_down = deals is not None
    # many chunks per job, as `make run` uses: a deal takes from under a second to about
    # ten seconds, and with few chunks a worker would idle while the other finishes
    if sized_down:
        chunk, repeats = max(1, deals // 24), 1
    else:
        deals, chunk, repeats = (24, 4, 1) if quick else (400, 10, 3)
    jobs_list = [1, 2] if available_cores() >= 2 else [1]
    for jobs in jobs_list:  # warm-up: compile or load numba's cache, start the workers
        _one_run(2, 1, jobs)
    lines = [
        f"`run` end to end ({deals} deals = {4 * deals} hands, chunks of {chunk}, "
        f"median of {repeats}; solving, storing, aggregating and the report):",
        "",
        "| jobs | wall s | hands/s | kernels s (wall) | outside kernels | rows+features s "
        "| aggregate s | report s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for jobs in jobs_list:
        runs = [_one_run(deals, chunk, jobs) for _ in range(repeats)]

        def med(key, runs=runs):
            return statistics.median(r[key] for r in runs)

        lines.append(
            f"| {jobs} | {med('wall'):.1f} | {med('hands_per_s'):.3g} | "
            f"{med('kernel_wall'):.1f} | {100 * med('outside_share'):.1f}% | "
            f"{med('rows'):.2f} | {med('aggregate'):.2f} | {med('report'):.2f} |"
        )
    lines += [
        "",
        "Outside kernels = 1 - (time inside deal_random and the solver (`solve_deals`), summed "
        "over chunks, divided by jobs) / wall time. Target: under 5%. With several jobs it "
        "also counts a worker's idle wait for the others' last chunks, which dominates when "
        "there are few chunks of uneven cost (a deal takes from under a second to about "
        "ten seconds).",
    ]
    if sized_down:
        lines += ["", f"Sized down with `--deals {deals}` (full size: 400 deals, 3 runs), "
                  "because the full size takes hours at the solver's present speed."]
    return "\n".join(lines)
