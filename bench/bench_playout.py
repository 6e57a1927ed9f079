"""Random-legal playouts per second: full 13-trick hands, one thread and two threads.

The target (project foundation issue) is 2 million random-legal full hands per second per
core, about 10 ns per card played. Deals are made once beforehand; only the playout is
timed. JIT compilation is warmed up explicitly ahead of any timing.
"""

import time

import numba
import numpy as np

from kernels.playout import playout_record, playout_tricks
from kernels.policies import FAST_PDEP, RANDOM_LEGAL
from kernels.rng import root_key


def _deals(n, seed):
    """n uniformly random full deals (numpy permutations; dealing speed is not measured here)."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint64)
    bits = np.uint64(1) << order
    return np.stack([np.bitwise_or.reduce(bits[:, 13 * s:13 * s + 13], axis=1)
                     for s in range(4)], axis=1)


def _time(fn, repeats):
    """Median wall time, best wall time and median CPU time (all threads) of fn() calls."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - wall0)
        cpus.append(time.process_time() - cpu0)
    return float(np.median(walls)), float(min(walls)), float(np.median(cpus))


def run(quick: bool) -> str:
    n = 20_000 if quick else 400_000
    repeats = 3 if quick else 9
    deals = _deals(n, 1)
    trumps = np.arange(n, dtype=np.int64) % 5 - 1  # each trump suit and no trump (R20)
    leaders = np.zeros(n, dtype=np.int64)
    declarers = np.full(n, -1, dtype=np.int64)
    root = root_key(2026)
    tricks = np.zeros((n, 4), dtype=np.int8)
    plays = np.full((n, 52), -1, dtype=np.int8)
    winners = np.full((n, 13), -1, dtype=np.int8)

    def counts():
        playout_tricks(deals, trumps, leaders, declarers, RANDOM_LEGAL, root, tricks)

    def recorded():
        playout_record(deals, trumps, leaders, declarers, RANDOM_LEGAL, root, tricks, plays,
                       winners)

    saved_threads = numba.get_num_threads()
    rows = []
    try:
        for threads in (1, 2):
            if threads > numba.config.NUMBA_NUM_THREADS:
                continue
            numba.set_num_threads(threads)
            for name, fn in (("trick counts", counts), ("recorded play", recorded)):
                fn()  # JIT warm-up (and first touch of the output arrays)
                wall, best, cpu = _time(fn, repeats)
                rows.append((name, threads, n / wall, n / best, n / cpu, cpu / wall))
    finally:
        numba.set_num_threads(saved_threads)
    lines = [
        f"Random-legal play (`policy=\"random-legal\"`) of {n:,} full deals (13 tricks, trumps "
        f"♠ ♥ ♦ ♣ and none in turn); medians (and best wall time) of {repeats} runs after a "
        "JIT warm-up. Target: 2,000,000 hands/s per core (one thread). Card selection on "
        "this machine: " + ("BMI2 PDEP." if FAST_PDEP else "portable (popcount steps and a "
                            "byte table)."),
        "",
        "| variant | threads | hands/s wall (median) | hands/s wall (best) "
        "| hands per CPU-second | CPU/wall |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, threads, rate, best_rate, cpu_rate, share in rows:
        lines.append(f"| {name} | {threads} | {rate:,.0f} | {best_rate:,.0f} | {cpu_rate:,.0f} "
                     f"| {share:.2f} |")
    one = {r[0]: r for r in rows if r[1] == 1}
    two = {r[0]: r for r in rows if r[1] == 2}
    lines += [
        "",
        "Hands per CPU-second with one thread is the speed per core; on a shared machine it is "
        "the figure to read, as the wall-clock rate counts time other processes held the core "
        "(CPU/wall below 1 per thread means the run did not have its cores to itself).",
    ]
    if two:
        ratio = two["trick counts"][2] / one["trick counts"][2]
        lines.append(f"Wall-clock speed-up of 2 threads over 1 (trick counts, medians): "
                     f"{ratio:.2f}x.")
    return "\n".join(lines)
