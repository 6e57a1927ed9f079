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
    path.write_text(bench_main.render(
        {"dealing": "_Machine: M, commit d007c84; date: 2026-11-29 20:31 UTC._\n\nold deals\n",
         "solver": "_Machine: M, commit d23d777; date: 2026-12-06 09:51 UTC._\n\nold solver\n"},
        [OLD_ROW]))
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
    header = text.split("## solver")[0]
    assert "| dealing | dealing kernels |" in header
    assert "abc1234, 20" in header


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
    assert "| solver | the double-dummy solver |" in text and "| not run | - |" in text


def test_the_repository_file_parses_into_every_section():
    text = bench_main.ROOT.joinpath("BENCHMARKS.md").read_text()
    figures = bench_main._figures(text)
    assert set(bench_main.BENCHMARKS) <= set(figures)
    rows = bench_main._trend_rows(text)
    assert len(rows) >= 1 and all(row.count("|") == 6 for row in rows)
    assert bench_main.render(figures, rows) == text


def test_header_states_each_sections_latest_result(target):
    bench_main.update("solver", SOLVER_FIGURES)
    header = target.read_text().split("## solver")[0]
    row = next(line for line in header.splitlines() if line.startswith("| solver |"))
    assert "median 0.91x, mean 0.94x DDS value-only; Boston 17.54 deals/s on 2 threads" in row
    assert "abc1234" in row


@pytest.mark.parametrize("name, figures, expected", [
    ("run", "| 1 | 10.9 | 17.6 | 8.7 | 20.4% | 0.08 |\n| 2 | 10.1 | 19.1 | 7.2 | 28.7% | 0.04 |",
     "20.4% of the wall time outside the kernels (1 job)"),
    ("hand", "Median over these hands: 38.60 samples/s, so 10 s buys about 386 samples",
     "median 38.60 samples/s"),
    ("dealing", "| kernel deal_random | 1 | 18,247,934 | 18,439,667 | 31.6 | 31.8 |",
     "`deal_random` 18,439,667 deals per CPU-second, 31.8x the baseline"),
    ("playout", "| trick counts | 1 | 2,765,346 | 3,290,062 | 2,766,790 | 1.00 |",
     "2,766,790 hands per CPU-second"),
    ("playout", "figures in another form", "below"),
    ("hand", "", "not run"),
])
def test_result_reads_the_line_each_benchmark_writes(name, figures, expected):
    assert bench_main.result(name, figures) == expected


def test_a_section_with_its_heading_inside_the_markers_keeps_only_its_figures(tmp_path,
                                                                               monkeypatch):
    path = tmp_path / "BENCHMARKS.md"
    monkeypatch.setattr(bench_main, "TARGET", path)
    path.write_text("# Benchmarks\n\nold header\n\n<!-- bench:dealing -->\n## dealing\n\n"
                    "_Machine: M, commit d007c84; date: 2026-11-29 20:31 UTC._\n\nold deals\n"
                    "<!-- /bench:dealing -->\n\nnotes kept by hand\n")
    bench_main.update("hand", "hand figures")
    text = path.read_text()
    assert "old deals" in _section(text, "dealing")
    assert text.count("## dealing") == 1 and "old header" not in text
    assert "notes kept by hand" not in text  # the file is generated: only markers carry over
