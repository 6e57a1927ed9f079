"""Real play (analyser.play_hand, policy "real"): seconds per hand, per contract kind.

Random full deals (seed 2027), one declarer each (seats in turn), North on lead (R18),
the default real-play settings (analyser.play.REAL_PLAY_DEFAULTS). The kinds: little and
grand misère, little and grand spread, and a numeric contract in the declarer's natural
trump (analyser.contracts.natural_trump) at the level it makes double-dummy, between 5
and 13. Every hand is timed on its own in a worker process (one thread each, two
workers side by side), in CPU seconds of its process (time.process_time: on a shared,
loaded machine wall time also counts the waits for a core); the table gives the mean
and percentiles per kind, with the mean wall time beside, then the slowest hands by name.
Target: a mean of at most 0.2 s a hand for LM and GM, at most 1 s for the numeric contract.
"""

import os
import statistics
import time

import numpy as np
from joblib import Parallel, delayed

HANDS = 200
KINDS = ("LM", "GM", "LS", "GS", "numeric")
TARGETS = {"LM": 0.2, "GM": 0.2, "numeric": 1.0}
SEED = 2027


def _contract(deal, declarer, kind):
    """(contract, trump) of a hand of `kind`."""
    if kind != "numeric":
        return kind, None
    from analyser import dd_tricks
    from analyser.constants import LEADER
    from analyser.contracts import natural_trump

    trump = natural_trump(int(deal[declarer]))
    level = min(13, max(5, dd_tricks(deal, declarer, trump, LEADER)))
    return str(level), trump


def _time_hands(kind, ids, seed):
    """(hand id, CPU seconds, contract, trump, made, wall seconds) of hands `ids` of
    `kind`, one thread."""
    import numba

    from analyser import deal_random, play_hand
    from analyser.constants import LEADER

    numba.set_num_threads(1)
    deals = deal_random(max(ids) + 1, seed)
    out = []
    for i in ids:
        declarer = i % 4
        contract, trump = _contract(deals[i], declarer, kind)
        t0, c0 = time.perf_counter(), time.process_time()
        rec = play_hand(deals[i], declarer, contract, LEADER, trump=trump, seed=i)
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        out.append((i, cpu, contract, trump, rec["made"], wall))
    return out


def measure(n, jobs=2, seed=SEED):
    """{kind: [(hand id, CPU seconds, contract, trump, made, wall seconds)]} over hands
    0..n-1."""
    _time_hands("numeric", [0], seed)  # JIT warm-up here and in each worker below
    Parallel(n_jobs=jobs)(delayed(_time_hands)(k, [0], seed) for k in ("LM", "numeric"))
    parts = Parallel(n_jobs=jobs)(
        delayed(_time_hands)(kind, list(range(j, n, jobs)), seed)
        for kind in KINDS for j in range(jobs))
    out = {kind: [] for kind in KINDS}
    for kind, part in zip([k for k in KINDS for _ in range(jobs)], parts, strict=True):
        out[kind].extend(part)
    return out


def _pct(values, q):
    return float(np.percentile(values, q))


def run(quick: bool, deals: int | None = None) -> str:
    from analyser import deal_random, format_deal
    from analyser.cards import SEAT_LETTERS

    n = deals if deals is not None else (8 if quick else HANDS)
    load = os.getloadavg()[0]
    results = measure(n)
    lines = [
        f"{n} random full deals per kind (seed {SEED}), declarer seats in turn, North on "
        "lead, default settings; one thread per hand, two workers side by side; CPU seconds "
        f"of each hand's process, its wall time beside (load average {load:.1f} at the start).",
        "",
        "| kind | hands | made | mean s | p50 s | p90 s | p99 s | max s | target (mean) | "
        "mean wall s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    slowest = []
    for kind, rows in results.items():
        secs = [r[1] for r in rows]
        made = sum(r[4] for r in rows)
        target = TARGETS.get(kind)
        verdict = "-" if target is None else (
            f"{target} s: {'met' if statistics.mean(secs) <= target else 'not met'}")
        lines.append(
            f"| {kind} | {len(rows)} | {made} | {statistics.mean(secs):.3f} | "
            f"{_pct(secs, 50):.3f} | {_pct(secs, 90):.3f} | {_pct(secs, 99):.3f} | "
            f"{max(secs):.2f} | {verdict} | {statistics.mean(r[5] for r in rows):.3f} |")
        slowest += [(r[1], kind, r) for r in rows]
    slowest.sort(reverse=True)
    deals_ = deal_random(n, SEED)
    lines += ["", "Slowest hands:", ""]
    for secs, kind, (i, _, contract, trump, made, _) in slowest[:5]:
        what = contract if trump is None else f"{contract} in suit {trump}"
        lines.append(f"- {secs:.2f} CPU s: hand {i}, {kind} ({what}) by "
                     f"{SEAT_LETTERS[i % 4]}, {'made' if made else 'failed'}: "
                     f"`{format_deal(deals_[i])}`")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    print(run(quick=False, deals=int(sys.argv[1]) if len(sys.argv) > 1 else None))
