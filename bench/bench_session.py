"""`boston-analyser session` under dd play: time per hand, split into deal, auction, play
and settle, and the projected time of 10,000 sessions (120,000 hands) on 2 cores.

Sessions are played in this process (chunk_frame, one chunk), after one warm-up session
(kernel cache loading, the strategies' estimate). "play" is the double-dummy solve of the
declared contract or the partout policy; "settle" includes the exact Ledger and building
the row. With k strategies a session is played k times on the same cards, and a contract
already solved on those cards in another rotation is not solved again (analyser/session.py,
Table), so the projection is given per configuration.
"""

import argparse
import time

from analyser.session import HANDS, TIMING_PARTS, SessionConfig, chunk_frame
from analyser.strategy import load_strategy

SEED = 20261207
TARGET_SESSIONS = 10_000
CORES = 2
LINEUPS = (("standard",), ("cautious", "bold"))


def measure(sessions: int, names) -> dict:
    """Play `sessions` sessions with strategies `names`; figures per hand played."""
    strategies = [load_strategy(n) for n in names]
    warm = SessionConfig(sessions=1, seed=SEED + 1, strategies=names)
    chunk_frame(warm, strategies, 0)
    config = SessionConfig(sessions=sessions, seed=SEED, strategies=names, chunk=sessions)
    t0, c0 = time.perf_counter(), time.process_time()
    frame, timing = chunk_frame(config, strategies, 0)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    hands = len(frame)
    per_hand = {k: timing[k] / hands for k in TIMING_PARTS}
    per_session = wall / sessions
    return {"names": names, "sessions": sessions, "hands": hands, "wall": wall,
            "per_hand": per_hand, "ms_per_hand": 1000 * wall / hands,
            "partout": float((frame["contract"] == "partout").mean()),
            "cpu_ms_per_hand": 1000 * cpu / hands,
            "projected_min": TARGET_SESSIONS * per_session / CORES / 60,
            "projected_cpu_min": TARGET_SESSIONS * cpu / sessions / CORES / 60}


def run(quick: bool, deals: int | None = None) -> str:
    """Markdown figures; `deals` (here: sessions) replaces the default sample size."""
    sessions = deals or (20 if quick else 300)
    lines = [f"{sessions} sessions of {HANDS} hands per line-up, dd play, random deals, one "
             "process; wall ms per hand split into its parts, and the process's CPU ms per "
             "hand (a loaded machine stretches the wall time, not the CPU time); "
             "projection: 10,000 sessions on 2 cores (jobs 2), linear, from wall and CPU.", "",
             "| strategies | hands played | ms/hand | deal | auction | play | settle | "
             "CPU ms/hand | partout | 10,000 sessions, 2 cores (wall / CPU) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for names in LINEUPS:
        m = measure(sessions, names)
        ph = m["per_hand"]
        lines.append(
            f"| {', '.join(names)} | {m['hands']:,} | {m['ms_per_hand']:.2f} | "
            f"{1000 * ph['deal']:.2f} | {1000 * ph['auction']:.2f} | {1000 * ph['play']:.2f} | "
            f"{1000 * ph['settle']:.2f} | {m['cpu_ms_per_hand']:.2f} | {m['partout']:.0%} | "
            f"{m['projected_min']:.1f} / {m['projected_cpu_min']:.1f} min |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(run(args.quick, args.sessions))
