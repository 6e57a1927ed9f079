"""The run directory: configuration checks, atomic parts and tables, resume bookkeeping."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyser import store
from analyser.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
CONFIG = {"deals": 10, "seed": 1, "chunk": 5, "pool": 40}


def small_frame(chunk):
    return pd.DataFrame({"chunk": np.full(4, chunk, np.int32),
                         "hand": np.arange(4, dtype=np.uint64) << np.uint64(50),
                         "shape": ["4-3-3-3"] * 4})


def test_new_directory_gets_run_json_and_an_empty_hands_folder(tmp_path):
    out = tmp_path / "new" / "run"
    assert store.open_run(out, CONFIG) == set()
    assert json.loads((out / "run.json").read_text())["config"] == CONFIG
    assert (out / "hands").is_dir()
    assert store.load_config(out) == CONFIG


def test_same_configuration_resumes_with_the_chunks_already_there(tmp_path):
    store.open_run(tmp_path / "r", CONFIG)
    store.write_part(tmp_path / "r", 1, small_frame(1), {"solve": 0.5})
    assert store.open_run(tmp_path / "r", CONFIG) == {1}


def test_other_configuration_is_refused_and_nothing_changes(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    store.write_part(out, 0, small_frame(0), {})
    before = sorted(p.name for p in out.rglob("*"))
    with pytest.raises(UserError) as err:
        store.open_run(out, {**CONFIG, "seed": 2})
    message = str(err.value)
    assert "seed: 1 -> 2" in message and "--force" in message and "\n" not in message
    assert sorted(p.name for p in out.rglob("*")) == before
    assert store.load_config(out) == CONFIG


def test_force_discards_the_old_run_but_not_foreign_files(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    store.write_part(out, 0, small_frame(0), {})
    store.write_table(out, "summary", small_frame(0))
    (out / "notes.txt").write_text("mine")
    assert store.open_run(out, {**CONFIG, "deals": 20}, force=True) == set()
    assert store.load_config(out)["deals"] == 20
    assert not (out / "summary.csv").exists()
    assert (out / "notes.txt").read_text() == "mine"


def test_force_discards_the_tables_of_a_real_play_run_too(tmp_path):
    out = tmp_path / "r"
    real = {**CONFIG, "play": "real"}
    store.open_run(out, real)
    store.write_table(out, "summary", small_frame(0))
    store.write_table(out, "real_vs_dd", small_frame(0))
    with pytest.raises(UserError, match="play: 'real' -> None"):
        store.open_run(out, CONFIG)
    store.open_run(out, CONFIG, force=True)
    assert sorted(p.name for p in out.iterdir()) == ["hands", "run.json"]


def test_non_empty_directory_without_run_json_is_refused(tmp_path):
    (tmp_path / "something").write_text("x")
    with pytest.raises(UserError, match="not empty"):
        store.open_run(tmp_path, CONFIG)
    assert not (tmp_path / "run.json").exists()


def test_unwritable_directory_is_a_user_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError, match="not writable|not a directory"):
        store.open_run(blocker / "sub", CONFIG)
    with pytest.raises(UserError, match="not a directory"):
        store.open_run(blocker, CONFIG)


def test_part_round_trip_keeps_types_and_timing(tmp_path):
    store.open_run(tmp_path / "r", CONFIG)
    frame = small_frame(3)
    store.write_part(tmp_path / "r", 3, frame, {"solve": 1.25})
    back = store.read_part(tmp_path / "r", 3)
    pd.testing.assert_frame_equal(back, frame, check_dtype=True, check_index_type=False)
    assert store.read_timings(tmp_path / "r") == [{"solve": 1.25}]
    assert not list((tmp_path / "r" / "hands").glob(".*"))  # no temporary file left


def test_failed_write_leaves_no_part_and_no_temporary_file(tmp_path):
    store.open_run(tmp_path / "r", CONFIG)
    bad = pd.DataFrame({"x": [object()]})  # pyarrow cannot store an arbitrary object
    with pytest.raises((TypeError, ValueError, OSError)):
        store.write_part(tmp_path / "r", 0, bad, {})
    assert list((tmp_path / "r" / "hands").iterdir()) == []


def test_stale_temporary_files_are_removed_on_resume(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    stale = out / "hands" / ".part-00000.parquet.abc.tmp"
    stale.write_bytes(b"half")
    assert store.open_run(out, CONFIG) == set()
    assert not stale.exists()


def test_read_hands_concatenates_in_chunk_order(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    for chunk in (2, 0, 1):
        store.write_part(out, chunk, small_frame(chunk), {})
    hands = store.read_hands(out)
    assert hands["chunk"].tolist() == [0] * 4 + [1] * 4 + [2] * 4
    assert store.read_hands(out, [1])["chunk"].tolist() == [1] * 4


def test_tables_are_written_as_csv_and_parquet(tmp_path):
    frame = pd.DataFrame({"shape": ["4-4-3-2"], "made_rate": [0.25], "hands": [4]})
    store.write_table(tmp_path, "summary", frame)
    pd.testing.assert_frame_equal(store.read_table(tmp_path, "summary"), frame)
    assert pd.read_csv(tmp_path / "summary.csv").loc[0, "made_rate"] == 0.25
    with pytest.raises(UserError, match="no best_bids.parquet"):
        store.read_table(tmp_path, "best_bids")


def test_directory_without_a_run_is_reported(tmp_path):
    with pytest.raises(UserError, match="no run.json"):
        store.load_config(tmp_path)


EXPECTED = {0: (4, (0, 0)), 1: (4, (1, 1))}  # chunk -> (rows, (first, last) deal id)


def id_frame(deal_id, rows=4):
    return pd.DataFrame({"deal_id": np.full(rows, deal_id, np.int64),
                         "hand": np.arange(rows, dtype=np.uint64)})


def test_survey_sorts_parts_into_sound_broken_and_stray(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    store.write_part(out, 0, id_frame(0), {})
    store.write_part(out, 1, id_frame(1), {})
    store.write_part(out, 7, id_frame(7), {})
    assert store.survey_parts(out, EXPECTED) == store.Parts(
        good={0, 1}, stray=[out / "hands" / "part-00007.parquet"])
    part = out / "hands" / "part-00001.parquet"
    for damage, problem in [(part.read_bytes()[:-30], "unreadable"), (b"", "unreadable"),
                            (None, "holds 8 rows where the run needs 4"),
                            ("other deals", "holds deals 0..0 where chunk 1 has 1..1")]:
        if damage is None:
            store.write_part(out, 1, id_frame(1, rows=8), {})
        elif damage == "other deals":
            store.write_part(out, 1, id_frame(0), {})
        else:
            part.write_bytes(damage)
        parts = store.survey_parts(out, EXPECTED)
        assert parts.good == {0} and list(parts.broken) == [1], problem
        assert problem in parts.broken[1] and "\n" not in parts.broken[1]
        assert parts.missing(range(2)) == [1]


def test_reading_a_damaged_part_is_a_user_error_naming_it(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    store.write_part(out, 0, id_frame(0), {})
    (out / "hands" / "part-00000.parquet").write_bytes(b"PAR1")
    with pytest.raises(UserError, match="cannot read .*part-00000.parquet"):
        store.read_hands(out)


def test_settings_the_caller_allows_may_change_and_are_recorded(tmp_path):
    out = tmp_path / "r"
    store.open_run(out, CONFIG)
    store.write_part(out, 0, small_frame(0), {})
    grown = {**CONFIG, "deals": 20, "pool": 0}
    assert store.open_run(out, grown, may_change=("deals", "pool")) == {0}
    assert store.load_config(out) == grown
    with pytest.raises(UserError, match=r"\(seed: 1 -> 2\)"):
        store.open_run(out, {**grown, "deals": 30, "seed": 2}, may_change=("deals", "pool"))


def test_files_are_created_with_the_umask_not_0600(tmp_path):
    old = os.umask(0o027)
    try:
        store.open_run(tmp_path / "r", CONFIG)
        store.write_part(tmp_path / "r", 0, small_frame(0), {})
        store.write_table(tmp_path / "r", "summary", small_frame(0))
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "r").rglob("*")
             if p.is_file()}
    assert set(modes) == {"run.json", "part-00000.parquet", "summary.csv", "summary.parquet"}
    assert set(modes.values()) == {0o640}


def test_the_lock_refuses_a_second_holder_until_released(tmp_path):
    out = tmp_path / "r"
    with store.locked(out):
        with pytest.raises(UserError, match="in use by another") as err:
            with store.locked(out):
                pass
        assert "\n" not in str(err.value)
    with store.locked(out):  # released
        pass
    # the lock file is no obstacle to a new run in the directory
    assert store.open_run(out, CONFIG) == set()


def test_the_lock_holds_across_processes(tmp_path):
    out = tmp_path / "r"
    code = ("import sys, time\nfrom analyser import store\n"
            f"with store.locked({str(out)!r}):\n"
            "    print('locked', flush=True)\n    sys.stdin.readline()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(UserError, match="in use"):
            with store.locked(out):
                pass
    finally:
        proc.communicate("\n", timeout=60)
    with store.locked(out):
        pass
