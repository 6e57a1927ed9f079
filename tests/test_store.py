"""The run directory: configuration checks, atomic parts and tables, resume bookkeeping."""

import json

import numpy as np
import pandas as pd
import pytest

from analyser import store
from analyser.errors import UserError

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
