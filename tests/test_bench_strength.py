"""`bench strength`: an interrupted run resumes from the blocks it stored, and a stored
block counts only for the code that computed it. The hands are played for real (R15,
R21: grand misère); nothing is timed."""

import shutil
from pathlib import Path

from bench import bench_strength


def test_blocks_are_stored_and_read_back(tmp_path, monkeypatch):
    first = bench_strength.measure(3, jobs=1, kinds=("GM",), store=tmp_path)
    (digest,) = list(tmp_path.iterdir())
    stored = sorted(p.name for p in digest.iterdir())
    assert stored and all(name.startswith("GM-0-2-") and name.endswith(".json")
                          for name in stored)
    # a second run plays nothing: every block comes from the store
    monkeypatch.setattr(bench_strength, "_play", lambda *a: (_ for _ in ()).throw(
        AssertionError("a stored block was played again")))
    assert bench_strength.measure(3, jobs=1, kinds=("GM",), store=tmp_path) == first


def test_other_code_does_not_read_the_blocks(tmp_path, monkeypatch):
    bench_strength.measure(2, jobs=1, kinds=("GM",), store=tmp_path)
    played = []
    real_play = bench_strength._play

    def counting(*args):
        played.append(args[1])
        return real_play(*args)

    monkeypatch.setattr(bench_strength, "_source_digest", lambda: "other-code")
    monkeypatch.setattr(bench_strength, "_play", counting)
    bench_strength.measure(2, jobs=1, kinds=("GM",), store=tmp_path)
    assert played == [[0, 1]]
    assert sorted(p.name for p in tmp_path.iterdir())[-1] == "other-code"


def test_the_digest_covers_the_shipped_data(tmp_path, monkeypatch):
    """A stored block belongs to the estimate and tables it was played with: the digest of
    a tree whose analyser/data differs is another."""
    root = Path(bench_strength.__file__).resolve().parent.parent
    for part in ("analyser", "kernels", "bench"):
        shutil.copytree(root / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(bench_strength, "__file__", str(tmp_path / "bench" / "bench_strength.py"))
    before = bench_strength._source_digest()
    estimate = tmp_path / "analyser" / "data" / "estimate.json"
    estimate.write_text(estimate.read_text() + " ")
    assert bench_strength._source_digest() != before
