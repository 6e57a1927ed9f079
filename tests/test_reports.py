"""Charts and the HTML page: valid PNGs, no open figures, a self-contained page, and the
report of a stored run rebuilt without solving."""

import ast
import base64
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyser import pipeline, store
from analyser.cmd_report import build_report
from analyser.errors import UserError
from reports import charts
from reports.html import Image, Params, Section, Table, Text, render_page

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parent.parent


def open_figures():
    import matplotlib.pyplot as plt

    return plt.get_fignums()


def test_every_chart_is_a_png_and_leaves_no_figure_open():
    before = open_figures()
    pngs = [
        charts.made_rate_heatmap(np.array([[0.9, np.nan], [0.2, 0.0]]), ["4-4-3-2", "all"],
                                 ["5", "LM"], [10, 20]),
        charts.misere_chart([("danger", ["0-9", "10+"],
                              {"all": ([0.8, 0.1], [0.7, 0.05], [0.9, 0.2]),
                               "leader": ([0.7, 0.0], [0.5, 0.0], [0.85, 0.1])})], 0.5),
        charts.ev_by_contract(["5", "6"], {"4-4-3-2": [10.0, -20.0], "all": [5.0, -900.0]},
                              floor=-300),
        charts.shape_frequencies(["4-4-3-2", "5-3-3-2"], [0.2, 0.16], [0.2155, 0.1552]),
        charts.made_rate_by_position(["5", "6"], {"leader": [0.9, 0.5], "dealer": [0.8, 0.4]}),
    ]
    for png in pngs:
        assert png.startswith(PNG_MAGIC) and len(png) > 1000
    assert open_figures() == before


def test_page_is_self_contained_and_escapes_text():
    png = charts.shape_frequencies(["4-4-3-2"], [0.2], [0.2155])
    table = pd.DataFrame({"shape": ["4-4-3-2"], "rate": [0.25], "ev": [np.nan]})
    page = render_page("T <&>", [Text("a < b & c")], [
        Section("S", [Image(png, "alt"), Table(table, {"rate": "{:.1%}"}),
                      Params([("deals", 10)]), Text("note", note=True)]),
    ])
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "T &lt;&amp;&gt;" in page and "a &lt; b &amp; c" in page
    assert "<td>25.0%</td>" in page and "<td>–</td>" in page
    encoded = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert [base64.b64decode(e) for e in encoded] == [png]
    assert not re.search(r'(src|href)="(?!data:)', page)  # nothing loaded from elsewhere


def test_reports_package_imports_nothing_from_analyser():
    # reports/ renders what analyser/ hands it; aggregation stays in analyser/ (STYLE.md)
    for path in (ROOT / "reports" / "charts.py", ROOT / "reports" / "html.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "analyser" for n in names), path.name


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
