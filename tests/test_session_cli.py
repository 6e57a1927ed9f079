"""`boston-analyser session`: stored rows and tables, determinism, resuming, bad options."""

from fractions import Fraction

import pandas as pd
import pytest

from analyser import store
from analyser.cli import main

ARGS = ["session", "--sessions", "6", "--seed", "4", "--strategy", "cautious",
        "--strategy", "bold", "--chunk", "2"]


def _files(out):
    """Every output whose bytes must repeat: the parts and the tables."""
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                   if p.is_file() and p.suffix in (".parquet", ".csv"))
    return {name: (out / name).read_bytes() for name in names}


@pytest.fixture(scope="module")
def one_job(tmp_path_factory):
    out = tmp_path_factory.mktemp("s") / "one"
    assert main([*ARGS, "--jobs", "1", "--out", str(out)]) == 0
    return out


def test_outputs_are_written(one_job):
    for name in ("summary.csv", "pairs.csv", "contracts.csv", "declarers.csv", "pools.csv",
                 "report.html", "run.json", "session_stats.json"):
        assert (one_job / name).is_file(), name
    assert len(list((one_job / store.HANDS_DIR).glob("part-*.parquet"))) == 3
    html = (one_job / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 7 and "cautious" in html
    # the strategy chart: where each strategy opens little misère and the numbers
    assert "Where each strategy bids" in html
    # the estimate behind the strategies' thresholds, its calibration on held-out hands
    assert "The estimate the strategies use" in html and "calibration" in html


def test_summary_means_add_up_to_1000_per_strategy_r8(one_job):
    summary = pd.read_csv(one_job / "summary.csv")
    assert list(summary["strategy"]) == ["cautious", "bold"]
    # each rotation's four balances sum to 4000, and each strategy holds four of the 4k seats
    assert sum(Fraction(v) for v in summary["mean_balance_exact"]) == 2000
    pairs = pd.read_csv(one_job / "pairs.csv")
    assert len(pairs) == 1
    a, b = (Fraction(v) for v in summary["mean_balance_exact"])
    assert Fraction(pairs["mean_difference_exact"][0]) == a - b
    row = pairs.iloc[0]
    assert row["ci_low"] <= row["mean_difference"] <= row["ci_high"]


def test_the_same_bytes_whatever_jobs(one_job, tmp_path):
    out = tmp_path / "two"
    assert main([*ARGS, "--jobs", "2", "--out", str(out)]) == 0
    assert _files(out) == _files(one_job)


def test_resume_after_deleting_a_part_gives_the_same_bytes(one_job, tmp_path):
    out = tmp_path / "resumed"
    assert main([*ARGS, "--jobs", "1", "--out", str(out)]) == 0
    (out / store.HANDS_DIR / store.part_name(1)).unlink()
    (out / "summary.csv").unlink()
    assert main([*ARGS, "--jobs", "1", "--out", str(out)]) == 0
    assert _files(out) == _files(one_job)


@pytest.mark.parametrize("extra, message", [
    (["--sessions", "0"], "--sessions must be"),
    (["--sessions", "x"], "--sessions must be a whole number"),
    (["--play", "fast"], "--play"),
    (["--deal-model", "shuffled"], "--deal-model"),
    (["--strategy", "no-such-strategy"], "no-such-strategy"),
    (["--strategy", "cautious"], "given twice"),
    (["--strategy", "standard", "--strategy", "cautious", "--strategy", "bold"],
     "at most 4"),
])
def test_bad_options_are_one_line_and_exit_2(extra, message, tmp_path, capsys):
    out = tmp_path / "bad"
    assert main([*ARGS, *extra, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err and "Traceback" not in err
    assert not (out / "summary.csv").exists()


def test_strategy_is_required(capsys):
    assert main(["session", "--sessions", "1"]) == 2
    assert "--strategy" in capsys.readouterr().err


def test_a_chunk_whose_part_is_whole_is_not_played_again(one_job):
    from analyser.session import SessionConfig, play_chunk

    config = SessionConfig.from_dict(store.load_config(one_job))
    before = _files(one_job)
    timing = play_chunk(str(one_job), config, [], 0)  # no strategies: it must not play
    assert timing["hands"] == 0 and _files(one_job) == before
