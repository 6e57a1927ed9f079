"""A session run in its directory: lock, record the configuration, play the missing chunks,
write the tables (analyser/store.py's layout, as `run`).

DIR holds run.json (the configuration), hands/part-NNNNN.parquet (one part per chunk of
sessions, no timings inside, so a part's bytes follow from its rows), summary.csv,
pairs.csv, contracts.csv, declarers.csv, pools.csv (each also as .parquet), report.html
and session_stats.json (times; the only file that varies between identical runs).
"""

import sys
import time
from pathlib import Path

from analyser import store
from analyser.pipeline import available_cores
from analyser.session import HANDS, TIMING_PARTS, SessionConfig, play_missing, read_rows
from analyser.session_tables import (
    contract_table,
    declarer_table,
    pairs_table,
    pool_by_hand,
    session_results,
    summary_table,
    win_rates,
)

STATS_FILE = "session_stats.json"
TABLES = ("summary", "pairs", "contracts", "declarers", "pools")


def strategy_names(strategies) -> list[str]:
    """The strategies' names, which label them in every table; UserError on a repeat."""
    from analyser.errors import UserError

    names = [s.name for s in strategies]
    for name in names:
        if names.count(name) > 1:
            raise UserError(f"strategy {name!r} is given twice; each --strategy must differ")
    return names


def session_tables(rows, names) -> dict:
    """Every result table of the stored rows."""
    results = session_results(rows, names)
    return {"summary": summary_table(results, win_rates(rows, names)),
            "pairs": pairs_table(results), "contracts": contract_table(rows),
            "declarers": declarer_table(rows, names),
            "pools": pool_by_hand(rows)}


def write_tables(out, config: SessionConfig, names) -> dict:
    """Read every stored chunk of DIR, compute the tables and write them as CSV/Parquet."""
    rows = read_rows(out, config)
    tables = session_tables(rows, names)
    for name, frame in tables.items():
        store.write_table(out, name, frame)
    return tables


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run_sessions(out, config: SessionConfig, strategies, jobs: int = 1, force: bool = False,
                 progress: bool = False, notify=_stderr, backend: str = "joblib",
                 scheduler: str | None = None) -> dict:
    """The whole `session` command's work in DIR; returns its statistics (also stored)."""
    names = strategy_names(strategies)
    started = time.perf_counter()
    with store.locked(out):
        store.open_run(out, config.as_dict(), force=force)
        parts = store.survey_parts(out, config.expected_parts())
        for chunk, problem in sorted(parts.broken.items()):
            notify(f"{store.HANDS_DIR}/{store.part_name(chunk)} {problem}: "
                   f"playing chunk {chunk} again")
        missing = parts.missing(range(config.n_chunks))
        timings = play_missing(out, config, strategies, jobs=jobs, missing=missing,
                               progress=progress, backend=backend, scheduler=scheduler,
                               notify=notify)
        played = time.perf_counter()
        write_tables(out, config, names)
        finished = time.perf_counter()
        hands = sum(t["hands"] for t in timings)
        stats = {
            "sessions": config.sessions, "rotations": config.rotations,
            "hands": config.sessions * config.rotations * HANDS,
            "chunks": config.n_chunks, "chunks_resumed": len(parts.good),
            "chunks_played_now": len(timings), "jobs": jobs, "backend": backend,
            "cores": available_cores(),
            "seconds_wall": finished - started, "seconds_playing_wall": played - started,
            "seconds_tables": finished - played,
            "seconds_per_hand_played_now": {
                k: sum(t[k] for t in timings) / hands if hands else None for k in TIMING_PARTS},
        }
        store.write_json(Path(out) / STATS_FILE, stats)
    return stats


__all__ = ["run_sessions", "write_tables", "session_tables", "strategy_names", "TABLES",
           "STATS_FILE"]
