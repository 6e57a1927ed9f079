"""Samples per second of `analyse_hand` ("should I bid this?"), by stage and by hand.

The solver's speed varies by orders of magnitude between hands (a grand misère that is
made, or a close numeric contract, needs a far larger search), so each hand is measured
for a time budget instead of a fixed count: after a JIT warm-up on one deal, completions
are dealt (`deal_known`) and solved (`solve_declarer`: 4 trumps, GM and LM per deal) in
chunks of one deal per numba thread until the budget is spent, then summarised
(payments.py EVs, intervals). Then the command's default is run as a user gets it
(`analyse_hand(hand)`: as many completions as fit in its time budget), and its sample
count and wall time are recorded beside.

Last, the real-play case: the `hand` command as a user runs it, `--play real` with a fixed
sample count (100; 4 with --quick) in 2 processes (`--jobs 2`), timed from start to exit
(numba's cache warm): its wall time, and the share of it the analysis reports.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

HANDS = (
    ("A432.A432.A32.A2", "four aces"),
    ("AQ32.KJ9.T87.654", "balanced, middling"),
    ("AKQJ72.A4.K3.Q52", "strong spades"),
    ("5432.432.432.432", "misère hand"),
)


def measure(text, budget):
    """(samples, deal s/sample, solve s, summary s) for one hand within `budget` s of solving."""
    from analyser.constants import LEADER
    from analyser.dealing import deal_known
    from analyser.hand import prepare, summarise
    from analyser.solver import solve_declarer

    chunk = max(1, numba.get_num_threads())
    query = prepare(text, position=0, samples=1, seed=1)
    known = np.array(query.known, dtype=np.uint64)
    solve_declarer(deal_known(known, 1, 0), 0, LEADER, defender_discard="highest")  # JIT
    n_max = 100_000
    start = time.perf_counter()
    deals = deal_known(known, n_max, 7)
    t_deal = (time.perf_counter() - start) / n_max
    parts, spent, done = [], 0.0, 0
    while spent < budget and done < n_max:
        start = time.perf_counter()
        parts.append(solve_declarer(deals[done:done + chunk], query.position, LEADER,
                                    defender_discard="highest"))
        spent += time.perf_counter() - start
        done += chunk
    tricks, grand, little = (np.concatenate([p[i] for p in parts]) for i in range(3))
    start = time.perf_counter()
    summarise(query, tricks, grand, little, spent)
    return done, t_deal, spent, time.perf_counter() - start


REAL_HAND = "J9.7642.8653.T32"  # the README's example
REAL_JOBS = 2


def measure_real(samples: int) -> tuple[float, dict]:
    """(wall seconds, the JSON answer) of `hand REAL_HAND --play real --samples N --seed 1
    --jobs 2`, run as a command."""
    root = Path(__file__).resolve().parent.parent
    argv = [sys.executable, "-m", "analyser", "hand", REAL_HAND, "--play", "real",
            "--samples", str(samples), "--seed", "1", "--jobs", str(REAL_JOBS), "--json"]
    env = dict(os.environ, PYTHONPATH=str(root))
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def run(quick: bool) -> str:
    """Samples/s of dealing, solving, summarising and in total, per hand, within a budget."""
    from analyser.hand import BUDGET_MAX_SAMPLES, BUDGET_SECONDS, analyse_hand

    budget = 10.0 if quick else 30.0  # seconds of solving per hand
    chunk = max(1, numba.get_num_threads())
    lines = [
        f"`analyse_hand` per hand: deals solved in chunks of {chunk} (one per solver thread) "
        f"until {budget:.0f} s of solving are spent, after a one-deal warm-up; "
        f"{os.cpu_count()} cores, {chunk} solver threads (`numba.get_num_threads()`). Rates "
        "vary by hand because the search does.",
        "",
        "| hand | kind | samples | deal /s | solve /s | summary /s | total samples/s "
        "| default run: samples in s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    rates = []
    for text, kind in HANDS:
        done, t_deal, spent, t_sum = measure(text, budget)
        total = done / (t_deal * done + spent + t_sum)
        rates.append(total)
        default = analyse_hand(text, seed=1)
        lines.append(
            f"| `{text}` | {kind} | {done} | {1 / t_deal:,.0f} | {done / spent:,.2f} | "
            f"{done / t_sum:,.0f} | {total:,.2f} | {default.samples} in "
            f"{default.seconds:.1f} s |"
        )
    median = statistics.median(rates)
    lines += [
        "",
        f"Median over these hands: {median:,.2f} samples/s, so 10 s buys about "
        f"{10 * median:,.0f} samples; the command's default solves for about "
        f"{BUDGET_SECONDS:g} s (at most {BUDGET_MAX_SAMPLES} samples).",
    ]
    samples = 4 if quick else 100
    wall, data = measure_real(samples)
    lines += [
        "",
        f"`hand {REAL_HAND} --play real --samples {samples} --seed 1 --jobs {REAL_JOBS}` "
        f"(real play of {', '.join(data['real_contracts'])} on every sample, target: 100 "
        "samples within 3 minutes on 2 cores):",
        "",
        "| samples | jobs | wall s | analysis s | samples/s |",
        "|---:|---:|---:|---:|---:|",
        f"| {data['samples']} | {REAL_JOBS} | {wall:.1f} | {data['seconds']:.1f} | "
        f"{data['samples'] / wall:.2f} |",
    ]
    return "\n".join(lines)
