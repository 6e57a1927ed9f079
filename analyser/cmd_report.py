"""`boston-analyser report DIR`: (re)build DIR/report.html from a run's stored results.

This module decides what the page shows and hands reports/ ready tables and series;
reports/charts.py and reports/html.py only draw and lay them out.
"""

import datetime
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from analyser import options, store
from analyser.aggregate import (
    DD_BEST,
    NATURAL,
    NO_TRUMP,
    REAL_KINDS,
    REAL_SUMMARY_COLUMNS,
    SUMMARY_COLUMNS,
    feature_bin_labels,
    misere_breakeven,
)
from analyser.constants import MAX_POOL
from analyser.contracts import LADDER
from analyser.errors import UserError
from analyser.pipeline import RunConfig, check_parts, store_tables
from reports.html import Image, Params, Section, Table, Text, render_page

HELP = "rebuild DIR/report.html from a run's stored results (no solving)"

DESCRIPTION = """\
Rebuilds DIR/report.html from the results `boston-analyser run` stored in DIR, without
solving anything again. The aggregated tables (summary, by_position, misere_features,
best_bids, shape_frequencies) are read from DIR; any that are missing are computed again
from the stored hands (DIR/hands). A run that was interrupted must be finished first
(run the same `boston-analyser run` command again); a damaged part is refused the same way.
With --pool P the tables are aggregated again for an active pool of P units (the pool term
of expected payments, R28-R30) from the stored hands, still without solving.

The page is self-contained (charts embedded as PNG) and meant for a reader who knows
Boston but not this program.
"""

HEATMAP_SHAPES = 20  # the most frequent shapes shown in the made-rate heatmap
EV_SHAPES = 8  # shapes drawn in the expected-payment chart
EV_COLUMN = "ev_total"  # the summary's expected result: payments plus the pool term
LM_POSITIONS = ("all", "leader", "dealer")
DD_VS_REAL_SHAPES = 8  # the most frequent shapes in the double-dummy against real chart
REAL_KIND_TITLES = {"numbers": "Numbers, at the double-dummy level", "LM": "Little misère",
                    "GM": "Grand misère", "LS": "Little spread", "GS": "Grand spread"}
SEAT_NAMES = ("North", "East", "South", "West")


def add_arguments(parser):
    """The run directory, and optionally another pool to aggregate for."""
    parser.add_argument("dir", metavar="DIR", help="a directory written by `boston-analyser run`")
    parser.add_argument("--pool", type=lambda text: options.pool(text, "--pool"), default=None,
                        metavar="P",
                        help=f"aggregate again for an active pool of P units, 0..{MAX_POOL} "
                             "(R28-R30), without solving; recorded in DIR/run.json "
                             "(default: the run's pool)")


def run(args) -> int:
    """Rebuild the report of DIR; 0 on success."""
    path = build_report(Path(args.dir), pool=args.pool)
    print(f"report: {path}")
    return 0


def load_tables(out: Path, config: RunConfig) -> dict[str, pd.DataFrame]:
    """The stored result tables of DIR, recomputed from the stored hands if any is missing
    (UserError if a part is missing or damaged)."""
    check_parts(out, config)
    real = config.play == "real"
    names = store.TABLE_NAMES + (store.REAL_TABLE_NAMES if real else ())
    columns = SUMMARY_COLUMNS + (REAL_SUMMARY_COLUMNS if real else [])
    if all((out / f"{name}.parquet").exists() for name in names):
        tables = {name: store.read_table(out, name) for name in names}
        # tables aggregated with other columns (another layout of the summary) are
        # aggregated again from the stored hands rather than shown under the wrong names
        if list(tables["summary"].columns) == columns:
            return tables
    return store_tables(out, config)


def build_report(out, pool=None) -> Path:
    """Write DIR/report.html from DIR's stored results; return its path.

    With `pool` other than the run's, the tables are aggregated again for that pool
    (R28-R30) from the stored hands, and the pool is recorded in DIR/run.json.
    """
    out = Path(out)
    if not out.is_dir():
        raise UserError(f"{str(out)!r} is not a directory")
    config = RunConfig.from_dict(store.load_config(out))
    with store.locked(out):
        if pool is not None and options.pool(pool) != config.pool:
            config = replace(config, pool=options.pool(pool))
            tables = store_tables(out, config)
            store.save_config(out, config.as_dict())
        else:
            tables = load_tables(out, config)
        stats_path = out / store.STATS_FILE
        stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
        real = config.play == "real"
        sections = [
            _section_parameters(config, stats, tables),
            _section_heatmap(tables["summary"]),
            _section_best_bids(tables["best_bids"]),
            _section_ev(tables["summary"], config),
        ]
        if real:
            sections.append(_section_real(tables["real_vs_dd"], tables["summary"]))
        sections.append(_section_misere(tables["misere_features"], config))
        if real:
            sections.append(_section_misere_real(tables["misere_features"], config))
        sections += [
            _section_positions(tables["by_position"]),
            _section_shapes(tables["shape_frequencies"]),
            _section_notes(config),
        ]
        page = render_page("Boston: what each bid earns, by hand shape", _intro(config),
                           sections)
        path = out / store.REPORT_FILE
        store.write_text(path, page)
    return path


def _intro(config: RunConfig) -> list:
    leader = SEAT_NAMES[config.leader]
    return [
        Text(
            f"{config.deals:,} random deals were dealt and solved double-dummy: every seat of "
            f"every deal was taken in turn as the declarer, alone against the other three, "
            f"with all 52 cards visible to everyone and perfect play on both sides. The "
            f"dealer is always {SEAT_NAMES[config.dealer]}, so {leader}, the dealer's left, "
            "leads to the first trick whoever declares (R18). Each deal therefore gives four "
            "hands, and the tables below count hands."
        ),
        Text(
            "Double-dummy results are what perfect play would achieve; at the table, where "
            "cards are hidden, declarers make somewhat fewer contracts and defenders defend "
            "somewhat worse. Read the made rates as an optimistic but well-defined yardstick. "
            "Every rate is given with a 95% interval (Wilson score); rows with few hands have "
            "wide intervals."
        ),
    ] + ([_real_intro()] if config.play == "real" else [])


def _real_intro() -> Text:
    return Text(
        "This run also played every deal with hidden cards: each player sees only its own "
        "hand, the cards played and, in a spread, the exposed hand (R16), and chooses its "
        "cards by sampling the hidden ones (the real player, docs/real_play.md). For every "
        "seat as declarer it played little and grand misère and both spreads, and one "
        "number: in the suit the declarer would name from its own hand, at the level "
        "double-dummy says it makes there, n = the double-dummy tricks clamped to 5..13. "
        "The section 'Double-dummy against real play' sets the two side by side on the "
        "same hands."
    )


def _section_parameters(config: RunConfig, stats: dict, tables) -> Section:
    hands = 4 * config.deals
    items = [
        ("deals", f"{config.deals:,} ({hands:,} hands)"),
        ("seed", config.seed),
        ("chunk size", f"{config.chunk} deals ({config.n_chunks} chunks)"),
        ("dealer / leader", f"{SEAT_NAMES[config.dealer]} / {SEAT_NAMES[config.leader]} (R18)"),
        ("pool for the pool term", f"{config.pool} units (R28-R30)"),
        ("defenders' discard in little misère", f"{config.defender_discard} (R17)"),
        ("deal model", f"{config.deal_model} (R4)"),
        ("play", "double-dummy and real play (hidden cards)" if config.play == "real"
         else "double-dummy"),
        ("distinct shapes seen",
         f"{(tables['shape_frequencies']['observed'] > 0).sum()} of 39"),
    ]
    if stats:
        items += [
            ("run time (last invocation)",
             f"{stats['seconds_wall']:.1f} s with {stats['jobs']} job(s) on "
             f"{stats['cores']} core(s)"),
            ("solving and playing time, all chunks" if config.play == "real"
             else "solving time, all chunks",
             f"{stats['seconds_chunks_all']:.1f} s of worker time"),
            *([("real play, all chunks",
                f"{stats['seconds_playing_all_chunks']:.1f} s of worker time "
                f"({stats['seconds_playing_all_chunks'] / config.deals:.1f} s a deal)")]
              if "seconds_playing_all_chunks" in stats else []),
            ("chunks resumed from an earlier invocation", stats["chunks_resumed"]),
        ]
    items.append(("report written", datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%d %H:%M UTC")))
    return Section("The run", [Params(items)])


def _ladder_view(summary: pd.DataFrame) -> pd.DataFrame:
    """Summary rows a declarer can actually choose: numbers in the natural trump, misères."""
    keep = (summary["trump"] == NATURAL) | (summary["trump"] == NO_TRUMP)
    return summary[keep]


def _section_heatmap(summary: pd.DataFrame) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    view = _ladder_view(summary)
    shapes = [s for s in view["shape"].drop_duplicates() if s != "all"][:HEATMAP_SHAPES]
    shapes.append("all")
    grid = view.pivot(index="shape", columns="contract", values="made_rate")
    counts = view.drop_duplicates("shape").set_index("shape")["hands"]
    png = charts.png(charts.made_rate_heatmap(grid.loc[shapes, list(LADDER)].to_numpy(),
                                              shapes, list(LADDER),
                                              [int(counts[s]) for s in shapes]))
    return Section("How often each contract is made, by shape", [
        Text(
            "Percentage of hands of each shape (most frequent first, with the number of hands) "
            "on which the declarer makes each contract of the ladder (R9). Numeric contracts "
            "are played in the suit the declarer would name from its own hand: its longest "
            "suit, ties broken by high-card points. LM and GM are little and grand misère; LS "
            "and GS (the spreads) show the same double-dummy verdicts as LM and GM, because "
            "with every card visible, exposing the declarer's hand changes nothing: only play "
            "with hidden cards tells a spread from its misère, so the spread columns are upper "
            "bounds."
        ),
        Image(png, "made rate heatmap by shape and contract"),
    ])


def _section_best_bids(best: pd.DataFrame) -> Section:
    shown = best[["shape", "hands", "shape_share", "best_bid", "best_made_rate",
                  "best_ev_total", "pass_value", "advice", "best_bid_upper",
                  "best_trump_upper", "best_ev_upper"]].rename(columns={
                      "shape_share": "share of hands", "best_bid": "best bid",
                      "best_made_rate": "made rate", "best_ev_total": "expected result",
                      "pass_value": "pass value",
                      "best_bid_upper": "best bid (upper bound)",
                      "best_trump_upper": "its trump", "best_ev_upper": "its expected result"})
    return Section("The best bid for each shape", [
        Text(
            "For each shape, the contract with the highest expected result for the declarer "
            "(payments from the three opponents plus the pool term), among the numbers in the "
            "declarer's own trump and the two misères. 'Advice' is 'pass' when passing is "
            "worth more than the best bid: 'pass value' is the mean, over the shape's hands, "
            "of what a hand of its position and high-card points gains when another player "
            "declares or in misère partout, as measured in simulated 12-hand sessions "
            "(docs/pass_value.md). The upper-bound columns also allow the double-dummy best "
            "trump and the spreads, which no real declarer can count on."
        ),
        Table(shown, {"share of hands": "{:.2%}", "made rate": "{:.1%}",
                      "expected result": "{:+.1f}", "pass value": "{:+.1f}",
                      "its expected result": "{:+.1f}"}),
    ])


def _section_ev(summary: pd.DataFrame, config: RunConfig) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    view = _ladder_view(summary)
    contracts = list(LADDER)
    shapes = [s for s in view["shape"].drop_duplicates() if s != "all"][:EV_SHAPES]
    series = {}
    for shape in shapes + ["all"]:
        rows = view[view["shape"] == shape].set_index("contract")
        series[shape] = rows.loc[contracts, EV_COLUMN].to_numpy()
    png = charts.png(charts.ev_by_contract(
        contracts, series, "expected result per hand, units (3 opponents + pool)"))
    overall = summary[summary["shape"] == "all"]
    table = overall[["contract", "trump", "hands", "made_rate", "made_ci_low", "made_ci_high",
                     "mean_undertricks", "ev_per_opponent", "ev_payments", "pool_term",
                     "ev_total"]].rename(columns={
                         "made_rate": "made", "made_ci_low": "95% low",
                         "made_ci_high": "95% high", "mean_undertricks": "undertricks when failing",
                         "ev_per_opponent": "per opponent", "ev_payments": "from 3 opponents",
                         "pool_term": "pool term", "ev_total": "expected result"})
    return Section("Expected payment by contract", [
        Text(
            "Expected result per hand in units for the declarer, for the most common shapes: "
            "what the three opponents pay on average (R24, R25; negative when the declarer "
            f"pays) plus the pool term for a pool of {config.pool} units. The pool term counts "
            "the pool less the re-ante of 10 when a 7 or higher, a misère or a spread is "
            "made (the only pool taken, every player antes again, the declarer too: R30), "
            "-pool on any failure "
            "(R29: the declarer pays in as much as the pool holds), and 0 for a made 5 or 6, "
            "which the defenders are assumed to concede to save the pool (R28). Each dot is "
            "one shape; the vertical scale is linear within 10 units of zero and logarithmic "
            "beyond, so that the large losses of the high contracts fit beside the small "
            "results of the low ones."
        ),
        Image(png, "expected payment by contract for the common shapes"),
        Text("All hands together; the 'dd-best' rows play each number in the trump that is "
             "best double-dummy, an upper bound on choosing trump well.", note=True),
        Table(table, {"made": "{:.1%}", "95% low": "{:.1%}", "95% high": "{:.1%}",
                      "undertricks when failing": "{:.2f}", "per opponent": "{:+.1f}",
                      "from 3 opponents": "{:+.1f}", "pool term": "{:+.1f}",
                      "expected result": "{:+.1f}"}),
    ])


def _misere_panel(features: pd.DataFrame, feature: str, title: str, xlabel: str,
                  kind: str = "lm", beside: str | None = None):
    """One panel of the little-misère chart: `kind`'s rates ("lm", or "real_lm" under
    real play) by bin of `feature` for LM_POSITIONS, and with `beside` the rate of that
    kind over all positions as one more series (named "all, double-dummy")."""
    def rates(position, prefix):
        rows = features[(features["feature"] == feature) & (features["position"] == position)]
        rows = rows.sort_values("bin")
        return tuple(rows[f"{prefix}_{stat}"].to_numpy() for stat in ("rate", "ci_low", "ci_high"))

    series = {position: rates(position, kind) for position in LM_POSITIONS}
    if beside is not None:
        series["all, double-dummy"] = rates("all", beside)
    return title, xlabel, feature_bin_labels(feature), series


def _section_misere(features: pd.DataFrame, config: RunConfig) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    breakeven = misere_breakeven(config.pool)["LM"]
    png = charts.png(charts.misere_chart([
        _misere_panel(features, "misere_danger", "By misère-danger score",
                      "misère-danger score of the hand"),
        _misere_panel(features, "hcp", "By high-card points",
                      "high-card points (A=4, K=3, Q=2, J=1)"),
    ], breakeven))
    table = features[(features["feature"] == "misere_danger") & (features["position"] == "all")]
    table = table[["bin_label", "hands", "lm_rate", "lm_ci_low", "lm_ci_high", "gm_rate",
                   "gm_ci_low", "gm_ci_high"]].rename(columns={
                       "bin_label": "misère-danger score", "lm_rate": "LM made",
                       "lm_ci_low": "LM 95% low", "lm_ci_high": "LM 95% high",
                       "gm_rate": "GM made", "gm_ci_low": "GM 95% low",
                       "gm_ci_high": "GM 95% high"})
    pct = "{:.1%}"
    return Section("When should I bid little misère?", [
        Text(
            "Little misère (R15): everyone discards one card, then the declarer must take none "
            "of the 12 tricks. It pays 20 from each opponent when made and costs 20 to each "
            f"when failed (R25), and wins or feeds the pool of {config.pool}; so it is worth "
            f"bidding when it succeeds more than {breakeven:.0%} of the time (the grey line)."
        ),
        Text(
            "The misère-danger score sums, over the hand's cards, how far each card stands "
            "above the safe ladder 2-4-6-8-10-Q of its suit: the i-th lowest card of a suit "
            "(i = 0, 1, ...) with rank r (2 = 0 ... A = 12) costs max(0, r - 2i - 1). Low "
            "cards, and suits whose every card has a lower one of the declarer's own below it, "
            "cost nothing; a bare ace costs 11, a bare A-K 19. Bid little misère when the "
            "black line is above the grey one: the left panel shows where that happens. The "
            "red and purple lines show the player on lead and the dealer: having to lead to "
            "the first trick makes a misère harder."
        ),
        Image(png, "little misère make rate against the misère-danger score and points"),
        Table(table, {"LM made": pct, "LM 95% low": pct, "LM 95% high": pct,
                      "GM made": pct, "GM 95% low": pct, "GM 95% high": pct}),
    ])


def _section_misere_real(features: pd.DataFrame, config: RunConfig) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    breakeven = misere_breakeven(config.pool)["LM"]
    png = charts.png(charts.misere_chart([
        _misere_panel(features, "misere_danger", "By misère-danger score",
                      "misère-danger score of the hand", "real_lm", "lm"),
        _misere_panel(features, "hcp", "By high-card points",
                      "high-card points (A=4, K=3, Q=2, J=1)", "real_lm", "lm"),
    ], breakeven, ylabel="little misère made (real play), 95% interval"))
    table = features[(features["feature"] == "misere_danger") & (features["position"] == "all")]
    table = table[["bin_label", "hands", "lm_rate", "real_lm_rate", "real_lm_ci_low",
                   "real_lm_ci_high", "gm_rate", "real_gm_rate", "real_gm_ci_low",
                   "real_gm_ci_high"]].rename(columns={
                       "bin_label": "misère-danger score", "lm_rate": "LM double-dummy",
                       "real_lm_rate": "LM real", "real_lm_ci_low": "LM real 95% low",
                       "real_lm_ci_high": "LM real 95% high", "gm_rate": "GM double-dummy",
                       "real_gm_rate": "GM real", "real_gm_ci_low": "GM real 95% low",
                       "real_gm_ci_high": "GM real 95% high"})
    pct = "{:.1%}"
    return Section("Little misère under real play", [
        Text(
            "The same chart with the misères played with hidden cards: the defenders no "
            "longer see which card of the declarer's is the dangerous one, and the declarer "
            "does not see where the defenders' low cards lie. The light grey line with open "
            "circles is the double-dummy rate of all positions from the chart above, for "
            f"comparison; the dashed line is again the break-even rate of {breakeven:.0%}."
        ),
        Image(png, "little misère make rate under real play against the misère-danger score "
                   "and points"),
        Table(table, {c: pct for c in table.columns if c not in ("misère-danger score",
                                                                  "hands")}),
    ])


def _section_real(real_vs_dd: pd.DataFrame, summary: pd.DataFrame) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    shapes = [s for s in real_vs_dd["shape"].drop_duplicates() if s != "all"][:DD_VS_REAL_SHAPES]
    shapes.append("all")
    counts = real_vs_dd.drop_duplicates("shape").set_index("shape")["hands"]
    labels = [f"{s} ({int(counts[s]):,})" for s in shapes]
    panels = []
    for kind in REAL_KINDS:
        rows = real_vs_dd[real_vs_dd["kind"] == kind].set_index("shape").loc[shapes]
        series = {name: tuple(rows[f"{side}_made_{stat}"].to_numpy()
                              for stat in ("rate", "ci_low", "ci_high"))
                  for name, side in (("double-dummy", "dd"), ("real play", "real"))}
        panels.append((REAL_KIND_TITLES[kind], labels, series))
    png = charts.png(charts.dd_vs_real(panels))
    overall = real_vs_dd[real_vs_dd["shape"] == "all"]
    kinds = overall[["kind", "hands", "dd_made_rate", "real_made_rate", "real_made_ci_low",
                     "real_made_ci_high", "dd_ev_total", "real_ev_total"]].rename(columns={
                         "hands": "hands", "dd_made_rate": "made double-dummy",
                         "real_made_rate": "made real", "real_made_ci_low": "real 95% low",
                         "real_made_ci_high": "real 95% high",
                         "dd_ev_total": "expected result double-dummy",
                         "real_ev_total": "expected result real"})
    levels = summary[(summary["shape"] == "all") & (summary["trump"] == NATURAL)
                     & (summary["real_hands"] > 0)]
    levels = levels[["contract", "real_hands", "real_dd_made_rate", "real_made_rate",
                     "real_made_ci_low", "real_made_ci_high", "real_dd_mean_tricks",
                     "real_mean_tricks", "real_dd_ev_total", "real_ev_total"]].rename(columns={
                         "contract": "number played", "real_hands": "hands",
                         "real_dd_made_rate": "made double-dummy", "real_made_rate": "made real",
                         "real_made_ci_low": "real 95% low", "real_made_ci_high": "real 95% high",
                         "real_dd_mean_tricks": "tricks double-dummy",
                         "real_mean_tricks": "tricks real",
                         "real_dd_ev_total": "expected result double-dummy",
                         "real_ev_total": "expected result real"})
    pct, money, tricks = "{:.1%}", "{:+.1f}", "{:.2f}"
    return Section("Double-dummy against real play", [
        Text(
            "How often the declarer makes each kind of contract on the same hands, played "
            "double-dummy (every card visible to everyone) and with hidden cards by the real "
            "player, per shape (most frequent first, with the number of hands) and for all "
            "hands. 'Numbers' plays each hand at its own level: the number double-dummy says "
            "the declarer makes in the suit it would name (at least 5), so double-dummy makes "
            "it on every hand except those that take fewer than 5 tricks. Hidden cards cut "
            "both ways: the declarer may misguess and fall short of its double-dummy tricks, "
            "and the defenders may misguess and give it tricks it could not force (or, in a "
            "misère, fail to find its dangerous card). In a spread the defenders see the "
            "declarer's hand (R16), so unlike double-dummy, a spread is harder than its "
            "misère."
        ),
        Image(png, "made rate double-dummy against real play per contract kind and shape"),
        Text("All hands, per kind; expected result per hand in units, payments and pool "
             "term (R24-R30).", note=True),
        Table(kinds, {"made double-dummy": pct, "made real": pct, "real 95% low": pct,
                      "real 95% high": pct, "expected result double-dummy": money,
                      "expected result real": money}),
        Text("The numbers by level played: the hands whose double-dummy tricks in the "
             "declarer's own suit gave that level, with their mean tricks both ways.",
             note=True),
        Table(levels, {"made double-dummy": pct, "made real": pct, "real 95% low": pct,
                       "real 95% high": pct, "tricks double-dummy": tricks,
                       "tricks real": tricks, "expected result double-dummy": money,
                       "expected result real": money}),
    ])


def _section_positions(by_position: pd.DataFrame) -> Section:
    from reports import charts  # matplotlib loads only when a report is drawn

    view = by_position[by_position["trump"] != DD_BEST]
    contracts = list(LADDER)
    series = {}
    for name in ("leader", "second", "third", "dealer"):
        rows = view[view["position_name"] == name].set_index("contract")
        if len(rows):
            rows = rows.loc[contracts]
            series[name] = (rows["made_rate"].to_numpy(), rows["made_ci_low"].to_numpy(),
                            rows["made_ci_high"].to_numpy())
    png = charts.png(charts.made_rate_by_position(contracts, series))
    table = view.pivot(index="position_name", columns="contract", values="made_rate")
    table = table.loc[list(series), contracts].reset_index().rename(
        columns={"position_name": "position"})
    return Section("Does the seat matter?", [
        Text(
            "Made rate of each contract by the declarer's position relative to the player who "
            "leads to the first trick (the dealer's left, R18), all shapes together, with 95% "
            "intervals (Wilson score): where the intervals of two positions overlap, the run "
            "cannot tell them apart."
        ),
        Image(png, "made rate by position"),
        Table(table, {c: "{:.1%}" for c in contracts}),
    ])


def _section_shapes(freq: pd.DataFrame) -> Section:
    from analyser.shapes import chi_square, pattern_probabilities
    from reports import charts  # matplotlib loads only when a report is drawn

    exact = pattern_probabilities()
    statistic, dof, p_value = chi_square(freq["observed"].to_numpy(),
                                         [exact[s] for s in freq["shape"]])
    shown = freq[(freq["observed"] > 0) | (freq["expected_probability"] >= 1e-4)]
    png = charts.png(charts.shape_frequencies(shown["shape"].tolist(),
                                              shown["observed_probability"].to_numpy(),
                                              shown["expected_probability"].to_numpy()))
    table = shown[["shape", "observed", "observed_probability", "expected_probability"]]
    table = table.rename(columns={"observed": "hands", "observed_probability": "simulated",
                                  "expected_probability": "exact"})
    return Section("Are the deals random? Shape frequencies", [
        Text(
            "Share of hands of each shape in this run beside the exact probability of the "
            "shape in a random 13-card hand. Large gaps on common shapes would point to a "
            "dealing fault; rare shapes naturally scatter. Note that the four hands of a deal "
            "are not independent of each other, so the chi-square test below (rare shapes "
            f"pooled) is only a rough check: chi-square {statistic:.1f} on {dof} degrees of "
            f"freedom, p = {p_value:.3f}."
        ),
        Image(png, "simulated versus exact shape frequencies"),
        Table(table, {"simulated": "{:.3%}", "exact": "{:.3%}"}),
    ])


def _section_notes(config: RunConfig) -> Section:
    return Section("How to read this report", [
        Text(
            "Made rate: the share of hands on which the contract is made double-dummy. 95% "
            "interval: the Wilson score interval for that share. Undertricks: the mean number "
            "of tricks short on the hands where a numeric contract fails. Expected result: the "
            "exact mean of the declarer's result (shown rounded; the stored tables keep the "
            "exact fractions, R27)."
        ),
        Text(
            "Little misère assumes the declarer discards its best card and each defender its "
            f"highest card ({config.defender_discard}, R17). Tiers (second and first "
            "preference, R11) change who wins the auction, not the payments, so they do not "
            "appear here."
        ),
        *([Text(
            "Real play: each playout is one hand played to its end by the real player with "
            "its default settings and its own seed (drawn from the chunk's stream), so a "
            "real made rate is a rate over hands and playouts together. Little misère's "
            "discards under real play are each player's own choice from its own hand: the "
            "declarer its most dangerous card, a defender its highest (R15, R17)."
        )] if config.play == "real" else []),
        Text(
            "Files: summary.csv (per shape x contract), by_position.csv, misere_features.csv, "
            "best_bids.csv, shape_frequencies.csv"
            + (", real_vs_dd.csv (double-dummy against real play; the other tables' real_* "
               "columns)" if config.play == "real" else "")
            + ", and the stored hands in hands/ (one Parquet part per chunk). Rebuild this "
            "page with `boston-analyser report DIR`.",
            note=True,
        ),
    ])


__all__ = ["HELP", "DESCRIPTION", "add_arguments", "run", "build_report"]
