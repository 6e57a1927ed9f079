"""The run directory on disk: configuration, solved chunks as Parquet parts, result tables.

Layout of a run directory DIR:
- `DIR/run.json` — the configuration (`{"config": {...}}`); a later run in the same DIR
  must ask for the same configuration, up to the settings the caller lets change (`run`
  lets --deals and --pool change), or pass `--force`, which clears the old results.
- `DIR/hands/part-00000.parquet` … — one part per solved chunk, one row per deal x seat.
  Each part is written to a temporary name and moved into place with `os.replace`, so a
  part either exists whole or not at all, whatever interrupts the run (Ctrl-C, kill -9).
  A part's Parquet metadata holds its timings (they vary run to run; its rows do not).
  A part damaged afterwards (truncated, emptied, rows of another size) is found by
  `survey_parts` and solved again; a part of a chunk the run does not have is ignored.
- `DIR/<table>.csv` and `DIR/<table>.parquet` — aggregated tables (`TABLE_NAMES`, and
  `REAL_TABLE_NAMES` in a run that also plays for real); `DIR/report.html`;
  `DIR/run_stats.json` — run time and sizes of the last completed run.
- `DIR/.lock` — locked (flock) while a command writes into DIR, so two at once cannot.
Every file is written atomically (temporary file, then `os.replace`), with the mode the
user's umask gives a new file (0644 under umask 022), like any other tool's output.
"""

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyser.errors import UserError

RUN_FILE = "run.json"
STATS_FILE = "run_stats.json"
HANDS_DIR = "hands"
REPORT_FILE = "report.html"
LOCK_FILE = ".lock"
PART_RE = re.compile(r"^part-(\d{5,})\.parquet$")
TIMING_KEY = b"boston.timing"
# Files and folders a run writes: the only things `--force` removes.
OWNED_FILES = (RUN_FILE, STATS_FILE, REPORT_FILE)
OWNED_TABLE_SUFFIXES = (".csv", ".parquet")
# Aggregated tables written by `run` and read back by `report`.
TABLE_NAMES = ("summary", "by_position", "misere_features", "best_bids", "shape_frequencies")
# ... and by a run that also plays for real (`run --play real`)
REAL_TABLE_NAMES = ("real_vs_dd",)


def part_name(chunk: int) -> str:
    """File name of the part holding chunk number `chunk`."""
    return f"part-{chunk:05d}.parquet"


def _new_temporary(path: Path) -> Path:
    """A new, empty file beside `path`, created with mode 0666 less the umask."""
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return tmp


def _atomic_write(path: Path, write) -> None:
    """Call `write(tmp_path)` on a temporary file beside `path`, then move it onto `path`."""
    tmp = _new_temporary(path)
    try:
        write(str(tmp))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    path = Path(path)
    _atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_bytes(path, data: bytes) -> None:
    """Write `data` to `path` atomically."""
    path = Path(path)
    _atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))


def write_json(path, data) -> None:
    """Write `data` as indented JSON to `path` atomically."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def read_json(path):
    """The JSON content of `path`, or a UserError naming the file if it cannot be read."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None


def _describe(config: dict, other: dict, keys) -> str:
    """The settings `keys` as `name: old -> new`, from `other` to `config`."""
    return ", ".join(f"{k}: {other.get(k)!r} -> {config.get(k)!r}" for k in keys)


def check_writable(out) -> None:
    """Create `out` if needed and prove a file can be created in it, or raise UserError."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"output directory {str(out)!r} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        _new_temporary(out / ".probe").unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserError(f"output directory {str(out)!r} is not writable: {reason}") from None


@contextlib.contextmanager
def locked(out):
    """Hold DIR/.lock (an exclusive flock) for the block; UserError if another holds it.

    The lock file stays; only the lock is released (also when the process dies).
    """
    out = Path(out)
    check_writable(out)
    fd = os.open(out / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(
                f"{str(out)!r} is in use by another boston-analyser command (which holds "
                f"{LOCK_FILE} there); wait for it to finish or use another directory"
            ) from None
        yield
    finally:
        os.close(fd)  # releases the lock


def open_run(out, config: dict, force: bool = False, may_change=()) -> set[int]:
    """Prepare DIR for a run with `config`; return the chunks whose parts exist there.

    A DIR holding a configuration that differs in a setting outside `may_change` is
    refused (UserError) unless `force`, which then removes the old run's files (only files
    a run writes) before anything new is written. A change within `may_change` keeps the
    parts and records the new configuration.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"output directory {str(out)!r} exists and is not a directory")
    run_file = out / RUN_FILE
    previous = None
    blocking = []
    if run_file.exists():
        previous = read_json(run_file).get("config")
        if not isinstance(previous, dict):
            previous = {}
        blocking = [k for k in sorted(set(config) | set(previous))
                    if config.get(k) != previous.get(k) and k not in may_change]
        if blocking and not force:
            raise UserError(
                f"{str(out)!r} holds a run with another configuration "
                f"({_describe(config, previous, blocking)}); "
                "use another --out, the same options, or --force to discard it"
            )
    elif out.is_dir() and any(p.name != LOCK_FILE for p in out.iterdir()) and not force:
        raise UserError(
            f"output directory {str(out)!r} is not empty and holds no {RUN_FILE}; "
            "choose an empty or new directory (or --force to write into it)"
        )
    check_writable(out)
    if blocking:
        clear_run(out)
    hands = out / HANDS_DIR
    hands.mkdir(exist_ok=True)
    for stale in hands.glob(".*.tmp"):  # a part interrupted mid-write
        stale.unlink()
    if previous != config:
        save_config(out, config)
    return done_chunks(out)


def save_config(out, config: dict) -> None:
    """Record `config` as DIR's configuration (DIR/run.json)."""
    write_json(Path(out) / RUN_FILE, {"config": config})


def clear_run(out) -> None:
    """Remove what a run writes in DIR (parts, tables, report, run files); leave other files."""
    out = Path(out)
    shutil.rmtree(out / HANDS_DIR, ignore_errors=True)
    for name in OWNED_FILES:
        (out / name).unlink(missing_ok=True)
    for table in TABLE_NAMES + REAL_TABLE_NAMES:
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
    """Chunk numbers of the part files in DIR/hands (whether or not they are sound)."""
    hands = Path(out) / HANDS_DIR
    if not hands.is_dir():
        return set()
    return {int(m.group(1)) for p in hands.iterdir() if (m := PART_RE.match(p.name))}


@dataclass
class Parts:
    """The part files of DIR/hands against the chunks a run expects."""

    good: set = field(default_factory=set)  # chunks whose part is sound
    broken: dict = field(default_factory=dict)  # chunk -> why its part cannot be used
    stray: list = field(default_factory=list)  # paths of parts of chunks the run lacks

    def missing(self, expected) -> list[int]:
        """The expected chunks without a sound part, in order."""
        return sorted(set(expected) - self.good)


def part_problem(out, chunk: int, rows: int, deal_ids: tuple[int, int]) -> str | None:
    """Why the part of `chunk` cannot be used (None if it is sound): unreadable, or not
    holding `rows` rows of deals `deal_ids` (first, last). Reads the footer only."""
    path = Path(out) / HANDS_DIR / part_name(chunk)
    try:
        meta = pq.read_metadata(path)
    except (OSError, pa.ArrowException) as exc:
        return f"is unreadable ({_first_sentence(exc)})"
    if meta.num_rows != rows:
        return f"holds {meta.num_rows} rows where the run needs {rows}"
    names = meta.schema.names
    if "deal_id" not in names:
        return "has no deal_id column"
    column = names.index("deal_id")
    low = high = None
    for group in range(meta.num_row_groups):
        stats = meta.row_group(group).column(column).statistics
        if stats is None or not stats.has_min_max:
            return None  # nothing more to check without reading the rows
        low = stats.min if low is None else min(low, stats.min)
        high = stats.max if high is None else max(high, stats.max)
    if rows and (low, high) != deal_ids:
        return f"holds deals {low}..{high} where chunk {chunk} has {deal_ids[0]}..{deal_ids[1]}"
    return None


def _first_sentence(exc: Exception) -> str:
    """The first sentence of an exception's message (pyarrow's run on), for one line."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text.split(". ")[0].rstrip(".")


def survey_parts(out, expected: dict) -> Parts:
    """Check every part of DIR/hands against `expected` (chunk -> (rows, (first, last)
    deal id)): sound, broken (with the reason) or stray (a chunk not expected)."""
    parts = Parts()
    hands = Path(out) / HANDS_DIR
    for chunk in sorted(done_chunks(out)):
        if chunk not in expected:
            parts.stray.append(hands / part_name(chunk))
            continue
        problem = part_problem(out, chunk, *expected[chunk])
        if problem is None:
            parts.good.add(chunk)
        else:
            parts.broken[chunk] = problem
    return parts


def write_part(out, chunk: int, frame: pd.DataFrame, timing: dict) -> None:
    """Store the rows of one solved chunk atomically, with its timings in the file metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[TIMING_KEY] = json.dumps(timing, sort_keys=True).encode()
    table = table.replace_schema_metadata(metadata)
    path = Path(out) / HANDS_DIR / part_name(chunk)
    _atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def read_part(out, chunk: int) -> pd.DataFrame:
    """The rows of one stored chunk (UserError naming the part if it cannot be read)."""
    path = Path(out) / HANDS_DIR / part_name(chunk)
    try:
        return pq.read_table(path).to_pandas()
    except (OSError, pa.ArrowException) as exc:
        raise UserError(f"cannot read {path}: {_first_sentence(exc)}") from None


def read_hands(out, chunks=None) -> pd.DataFrame:
    """All stored rows of DIR (or of the given chunks), in chunk order, with a fresh index."""
    chunks = sorted(done_chunks(out) if chunks is None else chunks)
    if not chunks:
        raise UserError(f"{str(out)!r} holds no solved chunks in {HANDS_DIR}/")
    frames = [read_part(out, c) for c in chunks]
    return pd.concat(frames, ignore_index=True)


def read_timings(out, chunks=None) -> list[dict]:
    """The timings recorded in the metadata of each stored part (or of `chunks`), in order."""
    timings = []
    for chunk in sorted(done_chunks(out) if chunks is None else chunks):
        meta = pq.read_schema(Path(out) / HANDS_DIR / part_name(chunk)).metadata or {}
        if TIMING_KEY in meta:
            timings.append(json.loads(meta[TIMING_KEY]))
    return timings


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
