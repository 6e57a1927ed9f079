"""Charts and the HTML page: valid PNGs, no open figures, charts that read (contrast, axes
that fit the data, titles and legends), a self-contained page, the report of a stored run
rebuilt without solving, and the hand plot drawn from a plain dict."""

import ast
import base64
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyser import pipeline, store
from analyser.cmd_report import build_report
from analyser.contracts import LADDER
from analyser.errors import UserError
from reports import charts, hand_plot
from reports.html import Image, Params, Section, Table, Text, render_page

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parent.parent


def open_figures():
    import matplotlib.pyplot as plt

    return plt.get_fignums()


def test_every_chart_is_a_png_and_leaves_no_figure_open():
    before = open_figures()
    figures = [
        charts.made_rate_heatmap(np.array([[0.9, np.nan], [0.2, 0.0]]), ["4-4-3-2", "all"],
                                 ["5", "LM"], [10, 20]),
        charts.misere_chart([("By danger", "danger", ["0-9", "10+"],
                              {"all": ([0.8, 0.1], [0.7, 0.05], [0.9, 0.2]),
                               "leader": ([0.7, 0.0], [0.5, 0.0], [0.85, 0.1])})], 0.5),
        charts.ev_by_contract(["5", "6"], {"4-4-3-2": [10.0, -20.0], "all": [5.0, -900.0]},
                              "units"),
        charts.shape_frequencies(["4-4-3-2", "5-3-3-2"], [0.2, 0.16], [0.2155, 0.1552]),
        charts.made_rate_by_position(["5", "6"], {"leader": ([0.9, 0.5], [0.8, 0.4],
                                                             [0.95, 0.6])}),
    ]
    for fig in figures:
        png = charts.png(fig)
        assert png.startswith(PNG_MAGIC) and len(png) > 1000
        assert fig.axes == []  # cleared once rendered
    assert open_figures() == before


def test_contrast_ratio_follows_wcag():
    black, white = (0, 0, 0), (1, 1, 1)
    assert charts.contrast_ratio(black, white) == pytest.approx(21)
    assert charts.contrast_ratio(white, black) == pytest.approx(21)
    assert charts.contrast_ratio((0.5, 0.2, 0.1), (0.5, 0.2, 0.1)) == 1
    assert charts.text_colour((0.65, 0.0, 0.15)) == "white"  # RdYlGn's dark red
    assert charts.text_colour((1.0, 1.0, 0.75)) == "black"  # its pale yellow


def test_heatmap_numbers_contrast_with_their_cells_and_the_scale_is_in_percent():
    rates = np.array([[0.0, 0.1, 0.25, 0.4], [0.5, 0.65, 0.85, 1.0], [np.nan, 0.3, 0.75, 0.9]])
    fig = charts.made_rate_heatmap(rates, ["4-4-3-2", "5-4-2-2", "all"],
                                   ["5", "6", "LM", "GM"], [10, 20, 30])
    ax, bar = fig.axes
    image = ax.images[0]
    assert len(ax.texts) == np.isfinite(rates).sum()
    for text in ax.texts:
        j, i = (round(v) for v in text.get_position())
        assert text.get_text() == f"{100 * rates[i, j]:.0f}"  # cells read in percent
        cell = image.cmap(image.norm(image.get_array()[i, j]))
        assert charts.contrast_ratio(cell, text.get_color()) >= charts.MIN_CONTRAST, text
        assert text.get_fontsize() >= 9
    assert bar.get_ylim() == (0, 100)  # the colour bar's scale is the cells' percent
    assert "%" in bar.get_ylabel()
    charts.png(fig)


def test_position_chart_axis_fits_rates_well_below_one():
    rates = {"leader": ([0.22, 0.05, 0.0], [0.15, 0.02, 0.0], [0.3, 0.1, 0.04]),
             "dealer": ([0.18, 0.02, 0.01], [0.12, 0.0, 0.0], [0.25, 0.06, 0.05])}
    fig = charts.made_rate_by_position(["5", "6", "LM"], rates)
    low, top = fig.axes[0].get_ylim()
    assert -0.01 < low <= 0 and 0.3 <= top <= 0.36  # the highest interval end, not 100%
    charts.png(fig)


@pytest.fixture
def drawn(monkeypatch):
    """The report's figures, kept (not cleared) in the order drawn, by their PNG bytes."""
    figures = []

    def keep(fig):
        figures.append(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        return buffer.getvalue()

    monkeypatch.setattr(charts, "png", keep)
    return figures


def series_lines(ax):
    """The lines that carry data (not reference lines spanning the axes)."""
    return [line for line in ax.lines if not line.get_label().startswith("_")]


def test_report_charts_read_well(stored_run, drawn):
    build_report(stored_run)
    heatmap, ev, misere, positions, shapes = drawn
    summary = store.read_table(stored_run, "summary")

    # expected payment: every contract of the ladder, spreads included, and no line joining
    # different contracts; every value on the axis (nothing below a cut)
    ax = ev.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(LADDER)
    lines = series_lines(ax)
    assert lines and all(line.get_linestyle() == "None" for line in lines)
    low, high = ax.get_ylim()
    for line in lines:
        y = np.asarray(line.get_ydata(), dtype=float)
        assert len(y) == len(LADDER)
        assert np.all((y >= low) & (y <= high)), line.get_label()
    assert ev.legends and ev.legends[0].get_title().get_text() == "shape"

    # little misère: every panel titled, one legend for both, rates from 0 to 100%
    assert len(misere.axes) == 2 and len(misere.legends) == 1
    labels = [t.get_text() for t in misere.legends[0].get_texts()]
    assert {"all", "leader", "dealer"} <= set(labels) and any("break-even" in t for t in labels)
    for ax in misere.axes:
        assert ax.get_title() and ax.get_xlabel()
        low, high = ax.get_ylim()
        assert -0.03 < low <= 0 and 1 <= high < 1.03

    # does the seat matter: positions side by side (not joined), axis fitted to the data
    ax = positions.axes[0]
    assert all(line.get_linestyle() == "None" for line in series_lines(ax))
    by_position = store.read_table(stored_run, "by_position")
    highest = by_position["made_ci_high"].max()
    assert highest <= ax.get_ylim()[1] <= min(1.0, highest + 0.06) + 0.02

    # every chart titles its axes; the heatmap's scale is percent
    for fig in (heatmap, ev, positions, shapes):
        assert fig.axes[0].get_xlabel() and fig.axes[0].get_ylabel()
    assert heatmap.axes[1].get_ylim() == (0, 100)
    assert len(summary) > 0


def test_page_is_self_contained_and_escapes_text():
    png = charts.png(charts.shape_frequencies(["4-4-3-2"], [0.2], [0.2155]))
    table = pd.DataFrame({"shape": ["4-4-3-2"], "rate": [0.25], "ev": [np.nan]})
    page = render_page("T <&>", [Text("a < b & c")], [
        Section("S", [Image(png, "alt"), Table(table, {"rate": "{:.1%}"}),
                      Params([("deals", 10)]), Text("note", note=True)]),
    ])
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "T &lt;&amp;&gt;" in page and "a &lt; b &amp; c" in page
    assert "<td>25.0%</td>" in page and "<td>–</td>" in page
    # words align left, numbers right
    assert '<th class="text">shape</th><th>rate</th>' in page
    assert '<td class="text">4-4-3-2</td><td>25.0%</td>' in page
    encoded = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert [base64.b64decode(e) for e in encoded] == [png]
    assert not re.search(r'(src|href)="(?!data:)', page)  # nothing loaded from elsewhere


def imported_modules(path):
    """Every module a source file imports (`import a.b`, `from a.b import c`: "a.b")."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


def test_reports_imports_nothing_from_analyser_and_no_pyplot():
    # reports/ renders what analyser/ hands it; aggregation stays in analyser/ (STYLE.md);
    # one chart idiom, Figure + FigureCanvasAgg, without pyplot's global figures
    paths = sorted((ROOT / "reports").glob("*.py"))
    assert {p.name for p in paths} >= {"charts.py", "html.py", "hand_plot.py"}
    for path in paths:
        names = imported_modules(path)
        assert not any(n.split(".")[0] == "analyser" for n in names), path.name
        assert "matplotlib.pyplot" not in names and "pyplot" not in names, path.name


def fake_solve(deals, leader):
    """Deterministic stand-in for the solver (tricks from suit lengths, misère from danger)."""
    from analyser import features

    n = deals.shape[0]
    flat = deals.reshape(-1)
    tricks = np.minimum(13, features.suit_lengths(flat).reshape(n, 4, 4) + 2).astype(np.int8)
    danger = features.misere_danger(flat).reshape(n, 4)
    return tricks, np.stack([danger < 22, danger < 28], axis=2)


def kernel_deal(n, seed):
    from kernels.dealing import deal_batch
    from kernels.rng import root_key

    return deal_batch(root_key(seed), n)


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "run"
    config = pipeline.RunConfig(deals=120, seed=4, chunk=40)
    pipeline.run_analysis(out, config, deal=kernel_deal, solve=fake_solve)
    return out


def test_report_of_a_stored_run_has_every_section(stored_run):
    path = build_report(stored_run)
    page = path.read_text()
    for heading in ("The run", "How often each contract is made, by shape",
                    "The best bid for each shape", "Expected payment by contract",
                    "When should I bid little misère?", "Does the seat matter?",
                    "Shape frequencies", "How to read this report"):
        assert heading in page, heading
    assert page.count('src="data:image/png;base64,') == 5
    assert "120 (480 hands)" in page  # parameters and sample size
    assert "only play with hidden cards tells a spread from its misère" in page
    assert "run time (last invocation)" in page
    assert open_figures() == []


@pytest.fixture(scope="module")
def stored_real_run(tmp_path_factory):
    """A run with --play real, the real player stood in for by test_pipeline's fake_play."""
    from test_pipeline import fake_play

    out = tmp_path_factory.mktemp("report") / "real"
    config = pipeline.RunConfig(deals=60, seed=4, chunk=20, play="real")
    pipeline.run_analysis(out, config, deal=kernel_deal, solve=fake_solve, play=fake_play)
    return out


REAL_HEADINGS = ("Double-dummy against real play", "Little misère under real play")


def test_a_dd_report_has_no_real_play_section(stored_run):
    page = build_report(stored_run).read_text()
    assert not [h for h in REAL_HEADINGS if h in page]
    assert "real play" not in page.lower().replace("real play policy", "")


def test_report_of_a_real_run_sets_real_play_beside_double_dummy(stored_real_run, drawn):
    page = build_report(stored_real_run).read_text()
    for heading in REAL_HEADINGS:
        assert heading in page, heading
    assert page.count('src="data:image/png;base64,') == 7
    assert "double-dummy and real play (hidden cards)" in page  # the run's parameters
    assert "n = the double-dummy tricks clamped to 5..13" in page  # the number played
    assert "real_vs_dd.csv" in page
    heatmap, ev, real, misere, misere_real, positions, shapes = drawn
    # double-dummy against real: one titled panel per contract kind, the shapes along x
    # with "all" last, both plays in every panel, rates from 0 to 100%
    table = store.read_table(stored_real_run, "real_vs_dd")
    assert [ax.get_title() for ax in real.axes] == [
        "Numbers, at the double-dummy level", "Little misère", "Grand misère",
        "Little spread", "Grand spread"]
    shapes_shown = [s for s in table["shape"].drop_duplicates() if s != "all"][:8] + ["all"]
    for ax, kind in zip(real.axes, ("numbers", "LM", "GM", "LS", "GS"), strict=True):
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        assert [t.split(" (")[0] for t in ticks] == shapes_shown
        rows = table[table["kind"] == kind].set_index("shape").loc[shapes_shown]
        bars = ax.containers  # one errorbar per play
        assert [bar.get_label() for bar in bars] == ["double-dummy", "real play"]
        for bar, side in zip(bars, ("dd", "real"), strict=True):
            assert np.allclose(bar.lines[0].get_ydata(), rows[f"{side}_made_rate"])
        low, high = ax.get_ylim()
        assert -0.03 < low <= 0 and 1 <= high < 1.03
    labels = [t.get_text() for t in real.legends[0].get_texts()]
    assert labels == ["double-dummy", "real play"]
    # little misère under real play: the real rates, with the double-dummy ones beside
    assert "real play" in misere_real.axes[0].get_ylabel()
    legend = [t.get_text() for t in misere_real.legends[0].get_texts()]
    assert {"all", "leader", "dealer", "all, double-dummy"} <= set(legend)
    features = store.read_table(stored_real_run, "misere_features")
    rows = features[(features["feature"] == "misere_danger") & (features["position"] == "all")]
    bar = next(b for b in misere_real.axes[0].containers if b.get_label() == "all")
    assert np.allclose(bar.lines[0].get_ydata(), rows.sort_values("bin")["real_lm_rate"],
                       equal_nan=True)
    assert open_figures() == []


def test_report_recomputes_missing_tables_from_the_stored_hands(stored_run):
    summary = store.read_table(stored_run, "summary")
    (stored_run / "summary.parquet").unlink()
    build_report(stored_run)
    pd.testing.assert_frame_equal(store.read_table(stored_run, "summary"), summary)


def test_report_of_an_unfinished_run_is_refused(stored_run, tmp_path):
    out = tmp_path / "cut"
    config = pipeline.RunConfig(deals=120, seed=4, chunk=40)
    store.open_run(out, config.as_dict())
    for chunk in (0, 2):
        store.write_part(out, chunk, store.read_part(stored_run, chunk), {})
    with pytest.raises(UserError, match="missing 1 of 3 chunks"):
        build_report(out)
    assert not (out / "report.html").exists()


def hand_dict(samples=40, seed=3):
    """A hand analysis as `hand` hands it to the plot: HandAnalysis.to_dict() through JSON,
    summarised from injected solver output (tricks vary by sample, misères made at random)."""
    from analyser.hand import prepare, summarise

    rng = np.random.default_rng(seed)
    tricks = rng.integers(2, 10, size=(samples, 4)).astype(np.int8)
    grand, little = rng.random(samples) < 0.2, rng.random(samples) < 0.6
    result = summarise(prepare("5432.432.432.432", samples=samples), tricks, grand, little)
    return json.loads(result.to_json()), tricks


def test_hand_plot_renders_a_plain_dict_and_closes(tmp_path):
    data, tricks = hand_dict()
    before = open_figures()
    path = hand_plot.render(data, tmp_path / "sub" / "hand.png")
    assert path == tmp_path / "sub" / "hand.png"
    assert path.read_bytes().startswith(PNG_MAGIC) and path.stat().st_size > 5000
    assert open_figures() == before


def test_hand_plot_draws_the_dict_it_is_given():
    data, tricks = hand_dict()
    fig = hand_plot.figure(data)
    left, right = fig.axes
    assert left.get_title() and right.get_title() and left.get_legend() is not None
    # the trick bars are the sample shares of the dict's counts, suit by suit (S, H, D, C)
    heights = np.array([[bar.get_height() for bar in bars] for bars in left.containers])
    counts = np.array([data["tricks"][s] for s in "SHDC"])
    np.testing.assert_allclose(heights, counts / data["samples"])
    assert counts.sum(axis=1).tolist() == [len(tricks)] * 4
    # misères and spreads, and little misère's break-even line
    assert [t.get_text() for t in right.get_xticklabels()] == ["LM", "GM", "LS", "GS"]
    rows = {r["contract"]: r for r in data["contracts"]}
    (bars,) = [c for c in right.containers if hasattr(c, "patches")]
    assert [bar.get_height() for bar in bars] == [rows[c]["p_make"]
                                                  for c in ("LM", "GM", "LS", "GS")]
    assert any(np.allclose(line.get_ydata(), data["little_misere"]["breakeven"])
               for line in right.lines)
    assert data["recommendation"]["call"] in fig.get_suptitle()
    charts.png(fig)
