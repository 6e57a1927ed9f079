"""DIR/report.html of a session run: what goes on the page (reports/ only draws it)."""

import datetime
import json
from pathlib import Path

from analyser import store
from analyser.session import SessionConfig, read_rows
from analyser.session_store import STATS_FILE, session_tables
from analyser.session_tables import pair_differences, session_results
from reports import charts_session as charts
from reports.charts import png
from reports.html import Image, Params, Section, Table, Text, render_page

MONEY = "{:.2f}"


def _blank_missing(frame):
    """The frame with pandas' missing values (partout's made rate) as None: shown as "–"."""
    return frame.astype(object).where(frame.notna(), None)


def _parameters(config: SessionConfig, stats: dict) -> Section:
    k = config.rotations
    items = [
        ("sessions", f"{config.sessions:,} of 12 hands (R31), each played in {k} "
                     f"rotation(s): {config.sessions * k * 12:,} hands"),
        ("strategies (rotation order)", ", ".join(config.strategies)),
        ("seating", "rotation r seats strategy number (seat + r) mod k"),
        ("play", f"{config.play} (partout: the partout policy, R26)"),
        ("deal model", f"{config.deal_model} (R4)"),
        ("concession at 5 or 6", f"{config.concede} (R28)"),
        ("seed / chunk", f"{config.seed} / {config.chunk} sessions"),
    ]
    if stats:
        items.append(("run time (last invocation)",
                      f"{stats['seconds_wall']:.1f} s with {stats['jobs']} job(s)"))
    items.append(("report written", datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%d %H:%M UTC")))
    return Section("The run", [Params(items)])


def _calibration(config: SessionConfig) -> Section:
    """The estimate behind the strategies' thresholds: its calibration on held-out hands."""
    from analyser import estimate as estimates
    from reports.charts_strategy import calibration_chart

    fitted = (estimates.load(config.model) if config.model is not None
              else estimates.default_estimate())
    source = fitted.source
    where = config.model or "the estimate shipped with the package (docs/strategies.md)"
    deals = source.get("deals")
    fitted_on = f", fitted on {deals:,} double-dummy deals" if isinstance(deals, int) else ""
    return Section("The estimate the strategies use", [
        Text(f"P(make) of each contract is estimated from hand features and position by "
             f"{where}{fitted_on}; below, "
             "its predictions against the observed make rate on the held-out hands, bin by "
             "bin (numbers 5-13 pooled), with 95% intervals."),
        Image(png(calibration_chart(estimates.calibration_summary(fitted.calibration))),
              "calibration: predicted against observed P(make)"),
    ])


REGION_HANDS = 600  # sampled hands per strategy chart, each called at all four positions


def _strategy_chart(config: SessionConfig, strategies) -> Section:
    """Where each strategy of the run opens little misère and the numbers: the strategy
    chart of analyser/optimise.py, one panel per strategy."""
    from analyser.optimise import NUMBERS_KEY, contract_regions, sample_hands
    from reports.charts_optimise import region_chart

    masks, preferences = sample_hands(REGION_HANDS, config.seed)
    regions = [contract_regions(s, masks, preferences) for s in strategies]
    names = [s.name for s in strategies]
    charts_ = [
        ("LM", "Little misère: share of hands that open LM",
         ("misère danger score (0 = safest)", "position")),
        (NUMBERS_KEY, "Numbers 5..13: share of hands that open a number",
         ("estimated tricks in the best trump", "longest suit")),
    ]
    blocks = [Text(f"Each strategy's own call for {REGION_HANDS:,} sampled hands (seed "
                   f"{config.seed}; a third uniform, a third weighted to low cards, a third to "
                   "high cards) at each position as the auction opens, the earlier seats "
                   "having passed (R13); each cell the share of its hands that open the "
                   "contract. `boston-analyser optimise` searches for better thresholds "
                   "(docs/optimise.md).", note=True)]
    for key, title, labels in charts_:
        blocks.append(Image(png(region_chart([r[key] for r in regions], names, title,
                                             *labels)), title))
    return Section("Where each strategy bids", blocks)


def build_session_report(out, strategies) -> Path:
    """Write DIR/report.html from DIR's stored rows and the run's strategy objects; return
    its path."""
    names = [s.name for s in strategies]
    out = Path(out)
    config = SessionConfig.from_dict(store.load_config(out))
    rows = read_rows(out, config)
    tables = session_tables(rows, names)
    results = session_results(rows, names)
    stats_path = out / STATS_FILE
    stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    summary, pairs = tables["summary"], tables["pairs"]
    contracts, pools = tables["contracts"], tables["pools"]
    partout = contracts.loc[contracts["contract"] == "partout", "share"]
    partout_share = float(partout.iloc[0]) if len(partout) else 0.0

    sections = [
        _parameters(config, stats),
        Section("Balances per strategy", [
            Text("A strategy's session result is the mean of its four final balances (one "
                 "per seat, after the end split, R31); 1000 is break even. Interval: mean "
                 "± 1.96 standard errors across sessions. win_rate: the share of its seats that "
                 "finished with the highest balance of the table (R31; tied leaders all win)."),
            Table(summary.drop(columns=["mean_balance_exact"]),
                  {**{c: MONEY for c in ("mean_balance", "stderr", "ci_low", "ci_high")},
                   "win_rate": "{:.1%}"}),
            Image(png(charts.balance_distributions(
                {n: [float(v) for v in results[n]] for n in names})),
                "histogram of per-session results per strategy"),
        ]),
        Section("Paired differences", [
            Text("Each pair compared session by session on identical cards (every "
                 "strategy in every seat of the same deals)."),
            *([Table(pairs.drop(columns=["mean_difference_exact"]),
                     {c: MONEY for c in ("mean_difference", "stderr", "ci_low", "ci_high")}),
               Image(png(charts.paired_differences(
                   [f"{a} − {b}" for a, b in pair_differences(results)],
                   pairs["mean_difference"], pairs["ci_low"], pairs["ci_high"])),
                   "mean paired difference with 95% interval per pair")]
              if len(pairs) else [Text("One strategy only: nothing to compare.", note=True)]),
        ]),
        Section("Contracts bid and made", [
            Text(f"Misère partout (all four pass, R14) in {100 * partout_share:.1f}% of hands."),
            Image(png(charts.contracts_bid_and_made(
                list(contracts["contract"]), list(contracts["share"]),
                contracts["made_rate"].to_numpy(dtype=float, na_value=float("nan")))),
                "share of hands and made rate per contract"),
            Table(_blank_missing(contracts), {"share": "{:.1%}", "made_rate": "{:.1%}"}),
            Table(tables["declarers"], {"declare_rate": "{:.1%}", "made_rate": "{:.1%}"}),
        ]),
        Section("Pool over the session", [
            Image(png(charts.pool_by_hand(list(pools["hand"]), list(pools["mean_pool"]),
                                          list(pools["p90_pool"]))),
                  "mean pool after each hand"),
        ]),
        _calibration(config),
        _strategy_chart(config, strategies),
    ]
    intro = [Text("Whole sessions of Boston played by bidding strategies against each other, "
                  "compared duplicate-style on the same cards (docs/sessions.md).")]
    page = render_page("Boston sessions: strategies compared", intro, sections)
    path = out / store.REPORT_FILE
    store.write_text(path, page)
    return path


__all__ = ["build_session_report"]
