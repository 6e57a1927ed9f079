"""The run directory on disk: configuration, solved chunks as Parquet parts, result tables.

Layout of a run directory DIR:
- `DIR/run.json` — the configuration (`{"config": {...}}`); a later run in the same DIR
  must ask for the same configuration (or pass `--force`, which clears the old results).
- `DIR/hands/part-00000.parquet` … — one part per solved chunk, one row per deal x seat.
  Each part is written to a temporary name and moved into place with `os.replace`, so a
  part either exists whole or not at all, whatever interrupts the run (Ctrl-C, kill -9).
  A part's Parquet metadata holds its timings (they vary run to run; its rows do not).
- `DIR/<table>.csv` and `DIR/<table>.parquet` — aggregated tables; `DIR/report.html`;
  `DIR/run_stats.json` — run time and sizes of the last completed run.
Every file is written atomically (temporary file, then `os.replace`).
"""

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyser.errors import UserError

RUN_FILE = "run.json"
STATS_FILE = "run_stats.json"
HANDS_DIR = "hands"
REPORT_FILE = "report.html"
PART_RE = re.compile(r"^part-(\d{5,})\.parquet$")
TIMING_KEY = b"boston.timing"
# Files and folders a run writes: the only things `--force` removes.
OWNED_FILES = (RUN_FILE, STATS_FILE, REPORT_FILE)
OWNED_TABLE_SUFFIXES = (".csv", ".parquet")


def part_name(chunk: int) -> str:
    """File name of the part holding chunk number `chunk`."""
    return f"part-{chunk:05d}.parquet"


def _atomic_write(path: Path, write) -> None:
    """Call `write(tmp_path)` on a temporary file beside `path`, then move it onto `path`."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    path = Path(path)
    _atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_json(path, data) -> None:
    """Write `data` as indented JSON to `path` atomically."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def read_json(path):
    """The JSON content of `path`, or a UserError naming the file if it cannot be read."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None


def _describe(config: dict, other: dict) -> str:
    """The settings in which two configurations differ, as `name: old -> new`."""
    keys = sorted(set(config) | set(other))
    diffs = [f"{k}: {other.get(k)!r} -> {config.get(k)!r}" for k in keys
             if config.get(k) != other.get(k)]
    return ", ".join(diffs)


def _check_writable(out: Path) -> None:
    """Create `out` if needed and prove a file can be created in it, or raise UserError."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserError(f"output directory {str(out)!r} is not writable: {reason}") from None


def open_run(out, config: dict, force: bool = False) -> set[int]:
    """Prepare DIR for a run with `config`; return the chunks already solved there.

    A DIR holding another configuration is refused (UserError) unless `force`, which then
    removes the old run's files (only files a run writes) before anything new is written.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"output directory {str(out)!r} exists and is not a directory")
    run_file = out / RUN_FILE
    previous = None
    if run_file.exists():
        previous = read_json(run_file).get("config")
        if previous != config and not force:
            raise UserError(
                f"{str(out)!r} holds a run with another configuration "
                f"({_describe(config, previous)}); "
                "use another --out, the same options, or --force to discard it"
            )
    elif out.is_dir() and any(out.iterdir()) and not force:
        raise UserError(
            f"output directory {str(out)!r} is not empty and holds no {RUN_FILE}; "
            "choose an empty or new directory (or --force to write into it)"
        )
    _check_writable(out)
    if previous is not None and previous != config:
        clear_run(out)
    hands = out / HANDS_DIR
    hands.mkdir(exist_ok=True)
    for stale in hands.glob(".*.tmp"):  # a part interrupted mid-write
        stale.unlink()
    if previous != config:
        write_json(run_file, {"config": config})
    return done_chunks(out)


def clear_run(out) -> None:
    """Remove what a run writes in DIR (parts, tables, report, run files); leave other files."""
    out = Path(out)
    shutil.rmtree(out / HANDS_DIR, ignore_errors=True)
    for name in OWNED_FILES:
        (out / name).unlink(missing_ok=True)
    for table in TABLE_NAMES:
        for suffix in OWNED_TABLE_SUFFIXES:
            (out / f"{table}{suffix}").unlink(missing_ok=True)


def load_config(out) -> dict:
    """The configuration recorded in DIR/run.json, or a UserError if DIR holds no run."""
    run_file = Path(out) / RUN_FILE
    if not run_file.exists():
        raise UserError(f"{str(out)!r} holds no {RUN_FILE}: not a boston-analyser run directory")
    config = read_json(run_file).get("config")
    if not isinstance(config, dict):
        raise UserError(f"{run_file} has no 'config' object")
    return config


def done_chunks(out) -> set[int]:
    """Chunk numbers whose part exists in DIR/hands."""
    hands = Path(out) / HANDS_DIR
    if not hands.is_dir():
        return set()
    return {int(m.group(1)) for p in hands.iterdir() if (m := PART_RE.match(p.name))}


def write_part(out, chunk: int, frame: pd.DataFrame, timing: dict) -> None:
    """Store the rows of one solved chunk atomically, with its timings in the file metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[TIMING_KEY] = json.dumps(timing, sort_keys=True).encode()
    table = table.replace_schema_metadata(metadata)
    path = Path(out) / HANDS_DIR / part_name(chunk)
    _atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def read_part(out, chunk: int) -> pd.DataFrame:
    """The rows of one stored chunk."""
    return pq.read_table(Path(out) / HANDS_DIR / part_name(chunk)).to_pandas()


def read_hands(out, chunks=None) -> pd.DataFrame:
    """All stored rows of DIR (or of the given chunks), in chunk order, with a fresh index."""
    chunks = sorted(done_chunks(out) if chunks is None else chunks)
    if not chunks:
        raise UserError(f"{str(out)!r} holds no solved chunks in {HANDS_DIR}/")
    frames = [read_part(out, c) for c in chunks]
    return pd.concat(frames, ignore_index=True)


def read_timings(out) -> list[dict]:
    """The timings recorded in each stored part's metadata, in chunk order."""
    timings = []
    for chunk in sorted(done_chunks(out)):
        meta = pq.read_schema(Path(out) / HANDS_DIR / part_name(chunk)).metadata or {}
        if TIMING_KEY in meta:
            timings.append(json.loads(meta[TIMING_KEY]))
    return timings


# Aggregated tables written by `run` and read back by `report`.
TABLE_NAMES = ("summary", "by_position", "misere_features", "best_bids", "shape_frequencies")


def write_table(out, name: str, frame: pd.DataFrame) -> None:
    """Store one aggregated table as DIR/<name>.csv and DIR/<name>.parquet, atomically."""
    out = Path(out)
    _atomic_write(out / f"{name}.parquet", lambda tmp: frame.to_parquet(tmp, index=False))
    _atomic_write(out / f"{name}.csv", lambda tmp: frame.to_csv(tmp, index=False))


def read_table(out, name: str) -> pd.DataFrame:
    """One aggregated table from DIR/<name>.parquet."""
    path = Path(out) / f"{name}.parquet"
    if not path.exists():
        raise UserError(f"{str(out)!r} has no {name}.parquet: run `boston-analyser run` first")
    return pd.read_parquet(path)
