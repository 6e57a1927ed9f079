"""Random deals per second: the dealing kernels beside a numpy baseline, on one and two threads.

Targets (project foundation issue): about 10 million deals/s per core and at least 30x
the numpy baseline (`Generator.permuted` on an (n, 52) array of card ids, then hand masks
by OR-reduction). Kernel and baseline run side by side in each repeat on the same n, after
an explicit JIT warm-up. Wall time is what a user sees; process CPU time is also given,
because the benchmark machine is shared and wall times of one thread include waiting.
"""

import time

import numba
import numpy as np

from analyser.cards import parse_hand
from kernels.dealing import deal_batch, deal_known_batch
from kernels.rng import root_key

_BASELINE_CHUNK = 100_000  # bounds the baseline's (chunk, 52) temporaries


def numpy_baseline(n, seed):
    """n uniformly random deals with numpy alone: permuted card ids, then OR-reduced masks."""
    rng = np.random.default_rng(seed)
    ids = np.arange(52, dtype=np.uint8)
    out = np.empty((n, 4), dtype=np.uint64)
    for start in range(0, n, _BASELINE_CHUNK):
        rows = min(_BASELINE_CHUNK, n - start)
        order = rng.permuted(np.broadcast_to(ids, (rows, 52)), axis=1)
        bits = np.left_shift(np.uint64(1), order.astype(np.uint64))
        out[start:start + rows] = np.bitwise_or.reduce(bits.reshape(rows, 4, 13), axis=2)
    return out


def _measure(fn):
    """(wall seconds, process CPU seconds) of one call of fn()."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def run(quick: bool) -> str:
    n = 200_000 if quick else 2_000_000
    repeats = 3 if quick else 7
    root = root_key(2026)
    with_known = np.zeros(4, dtype=np.uint64)
    with_known[0] = np.uint64(parse_hand("AQ83.K742.95.JT6"))
    partial_known = np.array([parse_hand("AK.Q.."), parse_hand("2.2.2.2"),
                              parse_hand("..JT98765."), 0], dtype=np.uint64)
    variants = {
        "numpy baseline (permuted)": lambda: numpy_baseline(n, 2026),
        "kernel deal_random": lambda: deal_batch(root, n),
        "kernel deal_with (13 known)": lambda: deal_known_batch(root, with_known, n),
        "kernel deal_known (15 known, 4 seats)": lambda: deal_known_batch(root, partial_known, n),
    }
    threaded = ("kernel deal_random", "kernel deal_with (13 known)")

    saved_threads = numba.get_num_threads()
    results = {}  # (name, threads) -> list of (wall, cpu)
    try:
        for fn in variants.values():
            fn()  # JIT warm-up (compiled code comes from the cache when present)
        numba.set_num_threads(1)
        for _ in range(repeats):  # side by side: every variant once per repeat
            for name, fn in variants.items():
                results.setdefault((name, 1), []).append(_measure(fn))
        if numba.config.NUMBA_NUM_THREADS >= 2:
            numba.set_num_threads(2)
            for _ in range(repeats):
                for name in threaded:
                    results.setdefault((name, 2), []).append(_measure(variants[name]))
    finally:
        numba.set_num_threads(saved_threads)

    def rate(name, threads, column):
        return n / float(np.median([r[column] for r in results[(name, threads)]]))

    base_wall = rate("numpy baseline (permuted)", 1, 0)
    base_cpu = rate("numpy baseline (permuted)", 1, 1)
    lines = [
        f"{n:,} deals per run, median of {repeats} runs side by side after a JIT warm-up. "
        "Targets: about 10,000,000 deals/s per core and 30x the numpy baseline. "
        "CPU rates divide by process CPU time (summed over threads).",
        "",
        "| variant | threads | deals/s (wall) | deals/s per CPU second | x baseline (wall) "
        "| x baseline (CPU) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for (name, threads) in results:
        wall, cpu = rate(name, threads, 0), rate(name, threads, 1)
        lines.append(f"| {name} | {threads} | {wall:,.0f} | {cpu:,.0f} | {wall / base_wall:.1f} "
                     f"| {cpu / base_cpu:.1f} |")
    if ("kernel deal_random", 2) in results:
        speedup = rate("kernel deal_random", 2, 0) / rate("kernel deal_random", 1, 0)
        lines += ["", f"Speed-up of 2 threads over 1 (deal_random, wall medians): {speedup:.2f}x."]
    return "\n".join(lines)
