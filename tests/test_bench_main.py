"""`python -m bench`'s file writer: one benchmark rewrites only its own figures in
BENCHMARKS.md, keeps the other sections and the solver's trend table, and a full-size
solver run adds its row to the trend table. Nothing here runs or times a benchmark."""

import pytest

from bench import __main__ as bench_main

SOLVER_FIGURES = """(a) Bridge mode, 500 random full deals.

Ratio ours/DDS value only: median 0.91, mean 0.94 (target <= 1.0).

| threads | form | deals/s (wall) | ms/deal (wall) | deals per CPU-second |
|---:|---|---:|---:|---:|
| 1 | one batch (`solve_deals`) | 8.63 | 116 | 8.63 |
| 2 | one batch (`solve_deals`) | 17.54 | 57 | 8.97 |
"""

OLD_ROW = "| 2026-12-06 | d23d777 | 0.93 | 0.95 | 17.54 |"


@pytest.fixture
def target(tmp_path, monkeypatch):
    path = tmp_path / "BENCHMARKS.md"
    monkeypatch.setattr(bench_main, "TARGET", path)
    monkeypatch.setattr(bench_main, "machine", lambda: "Test CPU, 2 cores, commit abc1234")
    trend = bench_main.TREND_HEADER.replace(bench_main.TREND_END,
                                            OLD_ROW + "\n" + bench_main.TREND_END)
    path.write_text(bench_main.render(
        {"dealing": "_Machine: M, commit d007c84; date: 2026-11-29 20:31 UTC._\n\nold deals\n",
         "solver": "_Machine: M, commit d23d777; date: 2026-12-06 09:51 UTC._\n\nold solver\n"},
        trend))
    return path


def _section(text, name):
    start = text.index(f"<!-- bench:{name} -->")
    return text[start:text.index(f"<!-- /bench:{name} -->", start)]


def test_update_rewrites_only_its_own_section(target):
    bench_main.update("dealing", "new deals")
    text = target.read_text()
    assert "new deals" in _section(text, "dealing")
    assert "old deals" not in text
    assert "old solver" in _section(text, "solver")
    assert text.count("<!-- bench:dealing -->") == 1
    # the header's row for the benchmark names the run's commit and date
    assert "| dealing | dealing kernels |" in text
    assert "abc1234, 20" in text.split("## solver")[0]


def test_update_keeps_the_trend_table_and_its_place(target):
    bench_main.update("playout", "playout figures")
    text = target.read_text()
    assert OLD_ROW in text
    assert text.count(bench_main.TREND_START) == 1
    # the trend table stays last, after every section (the new one included)
    assert text.index(bench_main.TREND_START) > text.index("<!-- /bench:playout -->")
    assert text.rstrip().endswith(bench_main.TREND_END)


def test_sections_carry_what_they_measure_and_their_target(target):
    bench_main.update("run", "run figures")
    text = target.read_text()
    for name in ("run", "dealing", "solver"):
        title, measures, goal = bench_main.BENCHMARKS[name]
        before = text[:text.index(f"<!-- bench:{name} -->")].rsplit("\n## ", 1)[1]
        assert before.startswith(f"{name}: {title}")
        assert f"**Measures:** {measures}" in before
        assert f"**Target:** {goal}" in before


def test_full_size_solver_run_adds_a_trend_row(target):
    bench_main.update("solver", SOLVER_FIGURES)
    text = target.read_text()
    trend = text[text.index(bench_main.TREND_START):]
    rows = [line for line in trend.splitlines() if line.startswith("| 20")]
    assert rows[0] == OLD_ROW
    assert rows[-1].startswith("| 20") and "| abc1234 | 0.91 | 0.94 | 17.54 |" in rows[-1]
    assert "old solver" not in text


def test_sized_solver_run_adds_no_trend_row(target):
    bench_main.update("solver", SOLVER_FIGURES, sized=True)
    text = target.read_text()
    assert "0.91" in _section(text, "solver")
    assert "| abc1234 |" not in text[text.index(bench_main.TREND_START):]


def test_a_file_without_markers_gets_the_whole_structure(tmp_path, monkeypatch):
    path = tmp_path / "BENCHMARKS.md"
    monkeypatch.setattr(bench_main, "TARGET", path)
    bench_main.update("hand", "hand figures")
    text = path.read_text()
    assert text.startswith("# Benchmarks")
    assert "hand figures" in _section(text, "hand")
    assert bench_main.TREND_START in text and bench_main.TREND_END in text
    assert "| solver | the double-dummy solver |" in text and "not run" in text


def test_the_repository_file_parses_into_every_section():
    text = bench_main.ROOT.joinpath("BENCHMARKS.md").read_text()
    figures = bench_main._figures(text)
    assert set(bench_main.BENCHMARKS) <= set(figures)
    assert bench_main.render(figures, bench_main._trend(text)) == text
