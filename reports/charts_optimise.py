"""Charts of a strategy optimisation: rendering only.

The tables come from analyser/optimise.py (`region_table`, the search table). Like
reports/charts.py, each function returns a `Figure` on its own Agg canvas; `reports.charts.png`
renders and clears it.
"""

import numpy as np
from matplotlib.figure import Figure

from reports.charts import CELL_FONT, PERCENT, WIDTH, new_figure, text_colour

CMAP = "Blues"


def _heatmap(ax, table, xlabel: str, ylabel: str):
    """One region table as cells shaded by the share of hands bidding (0..100%); cells
    without hands are left blank (hatched)."""
    values = table.to_numpy(dtype=float)
    ax.set_facecolor("0.93")
    image = ax.imshow(values, cmap=CMAP, vmin=0, vmax=1, aspect="auto", origin="lower")
    cmap = image.get_cmap()
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=CELL_FONT - 1,
                    color=text_colour(cmap(v)))
        else:
            ax.text(j, i, "·", ha="center", va="center", fontsize=CELL_FONT, color="0.5")
    ax.set_xticks(range(values.shape[1]), [str(c) for c in table.columns])
    ax.set_yticks(range(values.shape[0]), [str(r) for r in table.index])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return image


def region_chart(tables, names, title: str, xlabel: str, ylabel: str) -> Figure:
    """Where each strategy opens a contract: one heatmap per strategy side by side over the
    same hand-feature cells (`tables`, titled by `names`), each cell the share of sampled
    hands in it whose opening call is the contract, written in percent ("·": no hand in
    the cell)."""
    n = len(tables)
    fig = new_figure(WIDTH, 3.6 if n <= 2 else 3.9)
    axes = np.atleast_1d(fig.subplots(1, n, sharey=True, squeeze=False)[0])
    image = None
    for ax, table, name in zip(axes, tables, names, strict=True):
        image = _heatmap(ax, table, xlabel, ylabel if ax is axes[0] else "")
        ax.set_title(name, **({"fontsize": 9} if n > 2 else {}))
        if n > 2:  # narrower panels: slanted bin labels stay apart
            ax.tick_params(axis="x", labelrotation=60, labelsize=8)
    fig.colorbar(image, ax=list(axes), format=PERCENT, label="share of hands that bid it (%)",
                 shrink=0.9)
    fig.suptitle(title)
    return fig


def search_chart(search, parameters) -> Figure:
    """Each candidate's mean gain over the field (units per session) with ±2 standard
    errors, one panel per searched parameter, rounds side by side; accepted candidates
    filled, the others hollow."""
    fig = new_figure(WIDTH, 1.9 + 1.7 * len(parameters))
    axes = np.atleast_1d(fig.subplots(len(parameters), 1, squeeze=False)[:, 0])
    rounds = sorted(search["round"].unique())
    offsets = np.linspace(-0.2, 0.2, len(rounds)) if len(rounds) > 1 else [0.0]
    for ax, parameter in zip(axes, parameters, strict=True):
        rows = search[search["parameter"] == parameter]
        values = sorted(set(rows["value"].astype(str)), key=_threshold_order)
        for offset, r, colour in zip(offsets, rounds, _colours(len(rounds)), strict=True):
            sel = rows[rows["round"] == r]
            x = np.array([values.index(str(v)) for v in sel["value"]]) + offset
            y = sel["gain"].to_numpy(dtype=float)
            err = 2 * sel["gain_se"].to_numpy(dtype=float)
            ax.errorbar(x, y, yerr=err, fmt="none", ecolor=colour, capsize=3, linewidth=1)
            accepted = sel["accepted"].to_numpy(dtype=bool)
            ax.plot(x[~accepted], y[~accepted], "o", mfc="white", color=colour,
                    label=f"round {r}")
            ax.plot(x[accepted], y[accepted], "o", color=colour,
                    label=f"round {r}: accepted" if accepted.any() else None)
        ax.axhline(0, color="0.5", linewidth=1)
        ax.set_xticks(range(len(values)), values)
        ax.set_ylabel(f"{parameter}: gain")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8, loc="best")
    axes[-1].set_xlabel("threshold tried (estimated P(make); never = not bid)")
    fig.suptitle("Gain over the field per session (units), ±2 standard errors, "
                 "with the other parameters at the incumbent's values")
    return fig


def _threshold_order(value: str) -> float:
    """Thresholds in rising order, "never" (no threshold) last."""
    try:
        return float(value)
    except ValueError:
        return float("inf")


def _colours(n: int) -> list:
    return [f"C{i % 10}" for i in range(n)]


__all__ = ["region_chart", "search_chart"]
