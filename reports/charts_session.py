"""Charts of a session run's tables: rendering only, analyser/session_report.py hands them
the numbers. Figures are built as in reports/charts.py (`new_figure`, closed by `png`)."""

import numpy as np
from matplotlib.figure import Figure

from reports.charts import PERCENT, WIDTH, new_figure

STRATEGY_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red")


def balance_distributions(results: dict) -> Figure:
    """Histograms (step outlines, shared bins) of each strategy's per-session result:
    `results` maps a strategy name to its per-session mean final balances."""
    fig = new_figure(WIDTH, 3.6)
    ax = fig.add_subplot()
    values = np.concatenate([np.asarray(v, dtype=float) for v in results.values()])
    bins = np.histogram_bin_edges(values, bins=min(40, max(10, len(values) // 20)))
    for (name, v), colour in zip(results.items(), STRATEGY_COLOURS, strict=False):
        v = np.asarray(v, dtype=float)
        ax.hist(v, bins=bins, histtype="step", linewidth=1.8, color=colour,
                label=f"{name} (mean {v.mean():.1f})")
        ax.axvline(v.mean(), color=colour, linestyle="--", linewidth=1)
    ax.axvline(1000, color="grey", linewidth=0.8)
    ax.set_xlabel("mean final balance over the four seats (units; 1000 = break even)")
    ax.set_ylabel("sessions")
    ax.legend(frameon=False)
    return fig


def paired_differences(labels, means, lows, highs) -> Figure:
    """Each pair's mean difference (a - b) with its 95% interval, one row per pair."""
    fig = new_figure(WIDTH, 1.2 + 0.5 * len(labels))
    ax = fig.add_subplot()
    y = np.arange(len(labels))[::-1]
    means = np.asarray(means, dtype=float)
    ax.errorbar(means, y, xerr=[means - np.asarray(lows), np.asarray(highs) - means],
                fmt="o", color="black", capsize=4)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel("mean difference in session result, a − b (units), with 95% interval")
    return fig


def pool_by_hand(hands, mean, p90) -> Figure:
    """Mean (and 90th percentile) of all pools after each hand's settlement."""
    fig = new_figure(WIDTH, 3.2)
    ax = fig.add_subplot()
    ax.plot(hands, mean, marker="o", color="tab:blue", label="mean")
    ax.plot(hands, p90, marker=".", linestyle="--", color="tab:grey", label="90th percentile")
    ax.set_xticks(hands)
    ax.set_xlabel("hand of the session (12: the pools divided at the end, R31)")
    ax.set_ylabel("all pools (units)")
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    return fig


def contracts_bid_and_made(contracts, shares, made_rates) -> Figure:
    """How often each contract is declared (bars, share of hands) and how often it is
    made (dots, right axis); partout's made rate is NaN (not drawn)."""
    fig = new_figure(WIDTH, 3.4)
    ax = fig.add_subplot()
    x = np.arange(len(contracts))
    ax.bar(x, shares, color="tab:blue", alpha=0.7, label="share of hands")
    for xi, share in zip(x, shares, strict=True):
        ax.text(xi, share, f"{100 * share:.1f}%", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, contracts)
    ax.yaxis.set_major_formatter(PERCENT)
    ax.set_ylabel("share of hands")
    ax.set_xlabel("contract declared (ladder order), or partout when all four pass (R14)")
    right = ax.twinx()
    right.plot(x, np.asarray(made_rates, dtype=float), "o", color="tab:red", label="made rate")
    right.set_ylim(0, 1.05)
    right.yaxis.set_major_formatter(PERCENT)
    right.set_ylabel("made rate", color="tab:red")
    return fig


__all__ = ["balance_distributions", "paired_differences", "pool_by_hand",
           "contracts_bid_and_made"]
