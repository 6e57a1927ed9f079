"""Charts of the P(make) estimate behind the bidding strategies: rendering only.

The tables come from analyser/estimate.py (`calibration_summary`). Like reports/charts.py,
each function returns a `Figure` on its own Agg canvas and closes nothing itself
(`reports.charts.png` renders and clears it).
"""

import numpy as np
from matplotlib.figure import Figure

from reports.charts import PERCENT, WIDTH, new_figure

GROUP_STYLES = {"5-13": ("black", "o"), "LM": ("tab:blue", "s"), "GM": ("tab:red", "^"),
                "LS": ("tab:cyan", "v"), "GS": ("tab:orange", "D")}


def calibration_chart(table) -> Figure:
    """Observed P(make) against the estimate's prediction, bin by bin on held-out hands,
    one series per contract group (`table` has the columns of
    analyser.estimate.calibration_summary); 95% intervals, and the diagonal where a
    perfectly calibrated estimate lies. Each point is labelled with its number of
    predictions (hand x contract)."""
    fig = new_figure(min(WIDTH, 7.0), 7.0)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="0.6", linewidth=1, linestyle="--",
            label="perfect calibration")
    for group, rows in table.groupby("contract", sort=False):
        color, marker = GROUP_STYLES.get(group, ("gray", "D"))
        x = rows["predicted"].to_numpy(dtype=float)
        y = rows["observed"].to_numpy(dtype=float)
        low = rows["observed_ci_low"].to_numpy(dtype=float)
        high = rows["observed_ci_high"].to_numpy(dtype=float)
        label = f"{group} ({int(rows['hands'].sum()):,} predictions)"
        ax.errorbar(x, y, yerr=[y - low, high - y], color=color, marker=marker, markersize=5,
                    linewidth=1, capsize=2, label=label)
        for xi, yi, n in zip(x, y, rows["hands"].to_numpy(), strict=True):
            ax.annotate(f"{n:,}", (xi, yi), textcoords="offset points", xytext=(4, -10),
                        fontsize=7, color=color)
    margin = 0.02
    ax.set_xlim(-margin, 1 + margin)
    ax.set_ylim(-margin, 1 + margin)
    ax.xaxis.set_major_formatter(PERCENT)
    ax.yaxis.set_major_formatter(PERCENT)
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.set_xlabel("estimated P(make), mean of the bin")
    ax.set_ylabel("observed make rate (held-out hands), 95% interval")
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    # below the axes, where it can hide no point (bins run from 0% to 100% both ways)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=2,
               title="contract")
    return fig
