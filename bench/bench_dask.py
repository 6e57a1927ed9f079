"""`run` on Dask against joblib: the wall time of the same configuration on both backends,
and the figures behind the README's scaling estimate for a cluster.

Both backends run the same configuration with the machine's cores as jobs (joblib
processes; a LocalCluster of that many single-threaded workers), interleaved, each into a
fresh directory and with workers started within the timed run, as a new `run` command
starts them; one warm-up run of each (numba's cache) is excluded. The per-deal cost is
the chunks' own time (dealing, solving, rows, Parquet) summed over chunks per deal, each
chunk on one worker thread; Dask's per-task overhead is the wall time of many empty tasks
through `run_chunks` on a running LocalCluster, per task; its start-up is the time to start
that cluster and connect to it.
"""

import logging
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from analyser import backends, store
from analyser.pipeline import RunConfig, available_cores, run_analysis

SEED = 20261129
BACKENDS = ("joblib", "dask")
OVERHEAD_TASKS = 400
# a cluster's deals, chunk size and worker counts for the estimate
PROJECTED_DEALS, PROJECTED_CHUNK = 1_000_000, 250
PROJECTED_WORKERS = (1, 16, 64, 256, 1024)


def _one_run(backend: str, deals: int, chunk: int, jobs: int) -> dict:
    """Time one complete run on `backend` in a temporary directory; return its figures."""
    out = Path(tempfile.mkdtemp(prefix=f"bench_dask_{backend}_"))
    if backend == "joblib":  # fresh workers, as a new `run` command starts them
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True, kill_workers=True)
    try:
        config = RunConfig(deals=deals, seed=SEED, chunk=chunk)
        t0 = time.perf_counter()
        run_analysis(out, config, jobs=jobs, backend=backend, notify=lambda message: None)
        wall = time.perf_counter() - t0
        summary = (out / "summary.csv").read_bytes()
        timings = store.read_timings(out)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    chunk_s = [t["deal"] + t["solve"] + t["rows"] + (t["write"] or 0) for t in timings]
    return {"wall": wall, "summary": summary, "chunk_s": chunk_s, "deals": deals}


def _noop(item):
    return item


def dask_overhead(workers: int, tasks: int = OVERHEAD_TASKS) -> tuple[float, float]:
    """(seconds to start a LocalCluster of `workers` and connect, seconds per empty task
    through run_chunks on it)."""
    import distributed

    t0 = time.perf_counter()
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as c:
        with distributed.Client(c) as client:
            client.wait_for_workers(workers)
        start = time.perf_counter() - t0
        backends.run_chunks(_noop, range(8), backend="dask", scheduler=c.scheduler_address)
        t1 = time.perf_counter()
        backends.run_chunks(_noop, range(tasks), backend="dask", scheduler=c.scheduler_address)
        per_task = (time.perf_counter() - t1) / tasks
    return start, per_task


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def run(quick: bool, deals: int | None = None) -> str:
    """Measure both backends on the same configuration; return a Markdown section. `deals`
    replaces the full size (400 deals, 3 repeats) by that many deals, repeated 3 times."""
    sized_down = deals is not None
    if sized_down:
        chunk, repeats = max(1, deals // 40), 3
    else:
        deals, chunk, repeats = (24, 4, 1) if quick else (400, 10, 3)
    jobs = available_cores()
    for backend in BACKENDS:  # warm-up: numba's cache
        _one_run(backend, 2, 1, jobs)
    runs = {backend: [] for backend in BACKENDS}
    for _ in range(repeats):
        for backend in BACKENDS:
            runs[backend].append(_one_run(backend, deals, chunk, jobs))
    same = len({r["summary"] for rs in runs.values() for r in rs}) == 1
    wall = {b: statistics.median(r["wall"] for r in rs) for b, rs in runs.items()}
    ratio = wall["dask"] / wall["joblib"]
    pairs = [d["wall"] / j["wall"] for j, d in zip(runs["joblib"], runs["dask"], strict=True)]
    chunk_s = [s for rs in runs.values() for r in rs for s in r["chunk_s"]]
    per_deal = sum(chunk_s) / (deals * len(runs) * repeats)
    start, per_task = dask_overhead(jobs)
    lines = [
        f"`run` on {deals} deals (chunks of {chunk}, {jobs} jobs / workers), interleaved, "
        f"median of {repeats}; each run starts its own workers:",
        "",
        "| backend | wall s (median) | runs (s) |",
        "|---|---:|---|",
    ]
    for backend, rs in runs.items():
        each = ", ".join(f"{r['wall']:.1f}" for r in rs)
        lines.append(f"| {backend} | {wall[backend]:.1f} | {each} |")
    lines += [
        "",
        f"Dask/joblib wall time: {ratio:.3f} (target at most 1.10); run by run "
        f"{', '.join(f'{r:.2f}' for r in pairs)}, median {statistics.median(pairs):.3f}; "
        f"summary.csv "
        f"{'byte-identical in every run' if same else 'DIFFERS between runs'}.",
        "",
        f"Cost per deal on one worker thread (dealing, solving, rows, Parquet; median chunk "
        f"{statistics.median(chunk_s):.2f} s): {per_deal:.3f} s. Dask: LocalCluster of "
        f"{jobs} workers started in {start:.1f} s; {1000 * per_task:.1f} ms per task "
        f"({OVERHEAD_TASKS} empty tasks through run_chunks).",
        "",
        f"Estimate for {PROJECTED_DEALS:,} deals in chunks of {PROJECTED_CHUNK} "
        f"({PROJECTED_DEALS // PROJECTED_CHUNK:,} tasks) on N single-threaded workers: "
        "start-up + deals x cost per deal / N + tasks x overhead per task (the scheduler's "
        "share, counted in full):",
        "",
        "| workers N | estimated wall time |",
        "|---:|---:|",
    ]
    tasks = PROJECTED_DEALS // PROJECTED_CHUNK
    for n in PROJECTED_WORKERS:
        total = start + PROJECTED_DEALS * per_deal / n + tasks * per_task
        lines.append(f"| {n:,} | {_hours(total)} |")
    if sized_down:
        lines += ["", f"Sized down with `--deals {deals}` (full size: 400 deals, 3 repeats)."]
    return "\n".join(lines)
