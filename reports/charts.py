"""Charts of a run's result tables, as PNG bytes: rendering only, the tables come from analyser.

Figures are built on matplotlib's Agg canvas directly (`Figure` + `FigureCanvasAgg`), never
through pyplot, so no global figure registry or GUI backend is involved; each chart
function clears its figure after saving (the `_png` context), so nothing stays open.
"""

import io
from contextlib import contextmanager

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 100
POSITION_STYLES = {"all": ("black", "o", "-"), "leader": ("tab:red", "s", "--"),
                   "second": ("tab:blue", "^", ":"), "third": ("tab:green", "v", ":"),
                   "dealer": ("tab:purple", "D", ":")}


@contextmanager
def _png(width: float, height: float, out: dict):
    """Yield a new Agg figure; on exit store its PNG bytes in out["png"] and clear it."""
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    try:
        yield fig
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        out["png"] = buffer.getvalue()
    finally:
        fig.clear()


def made_rate_heatmap(rates, shapes, contracts, counts) -> bytes:
    """Heatmap of made rates (2-D array shapes x contracts, NaN where empty) with values."""
    rates = np.asarray(rates, dtype=float)
    out = {}
    with _png(1.0 + 0.62 * len(contracts), 1.2 + 0.32 * len(shapes), out) as fig:
        ax = fig.add_subplot()
        image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdYlGn", vmin=0, vmax=1,
                          aspect="auto")
        ax.set_xticks(range(len(contracts)), contracts)
        labels = [f"{s} ({n})" for s, n in zip(shapes, counts, strict=True)]
        ax.set_yticks(range(len(shapes)), labels)
        ax.set_xlabel("contract (numbers: trump named from the declarer's own hand)")
        ax.set_ylabel("shape (hands)")
        for i in range(rates.shape[0]):
            for j in range(rates.shape[1]):
                if np.isfinite(rates[i, j]):
                    ax.text(j, i, f"{100 * rates[i, j]:.0f}", ha="center", va="center",
                            fontsize=7)
        fig.colorbar(image, ax=ax, label="made rate", shrink=0.6)
    return out["png"]


def misere_chart(panels, breakeven: float) -> bytes:
    """Little-misère make rate against hand features, one panel per feature.

    `panels` is a list of (title, x labels, {position name: (rate, low, high) arrays}); the
    horizontal line is the make rate above which bidding beats passing.
    """
    out = {}
    with _png(6.0 * len(panels), 4.2, out) as fig:
        axes = fig.subplots(1, len(panels), squeeze=False)[0]
        for ax, (title, labels, series) in zip(axes, panels, strict=True):
            x = np.arange(len(labels))
            for k, (name, (rate, low, high)) in enumerate(series.items()):
                color, marker, style = POSITION_STYLES.get(name, ("gray", "o", "-"))
                shift = (k - (len(series) - 1) / 2) * 0.08
                rate, low, high = (np.asarray(a, dtype=float) for a in (rate, low, high))
                ax.errorbar(x + shift, rate, yerr=[rate - low, high - rate], color=color,
                            marker=marker, linestyle=style, capsize=3, label=name)
            ax.axhline(breakeven, color="gray", linewidth=1)
            ax.text(len(labels) - 1, breakeven, "break-even", va="bottom", ha="right",
                    color="gray", fontsize=8)
            ax.set_xticks(x, labels)
            ax.set_ylim(-0.02, 1.02)
            ax.set_xlabel(title)
            ax.set_ylabel("little misère made (double-dummy)")
            ax.grid(alpha=0.3)
        axes[0].legend(title="declarer's position", fontsize=8)
    return out["png"]


def ev_by_contract(contracts, series, floor=None) -> bytes:
    """Expected result per contract (x) for several shapes: `series` maps a label to values
    (the label "all" is drawn black and dashed); the y axis stops at `floor` if given."""
    out = {}
    with _png(9.0, 4.8, out) as fig:
        ax = fig.add_subplot()
        x = np.arange(len(contracts))
        top = 0.0
        for label, values in series.items():
            values = np.asarray(values, dtype=float)
            top = max(top, np.nanmax(values))
            style = {"color": "black", "linestyle": "--"} if label == "all" else {}
            ax.plot(x, values, marker="o", label=label, **style)
        if floor is not None:
            ax.set_ylim(floor, top + 0.08 * (top - floor))
            ax.text(0, floor, f" axis cut at {floor:g}", va="bottom", fontsize=8, color="gray")
        ax.axhline(0, color="gray", linewidth=1)
        ax.set_xticks(x, contracts)
        ax.set_xlabel("contract (numbers: trump named from the declarer's own hand)")
        ax.set_ylabel("expected result per hand, units (3 opponents + pool)")
        ax.grid(alpha=0.3)
        ax.legend(title="shape", fontsize=8, ncols=2)
    return out["png"]


def shape_frequencies(shapes, observed, exact) -> bytes:
    """Bars of simulated shape frequencies beside the exact probabilities."""
    out = {}
    with _png(10.0, 4.5, out) as fig:
        ax = fig.add_subplot()
        x = np.arange(len(shapes))
        ax.bar(x - 0.2, np.asarray(observed, dtype=float), width=0.4, label="simulated")
        ax.bar(x + 0.2, np.asarray(exact, dtype=float), width=0.4, label="exact")
        ax.set_xticks(x, shapes, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("share of hands")
        ax.legend()
        ax.grid(alpha=0.3, axis="y")
    return out["png"]


def made_rate_by_position(contracts, series) -> bytes:
    """Made rate per contract (x) for each position relative to the leader (R18)."""
    out = {}
    with _png(9.0, 4.2, out) as fig:
        ax = fig.add_subplot()
        x = np.arange(len(contracts))
        for name, values in series.items():
            color, marker, style = POSITION_STYLES.get(name, ("gray", "o", "-"))
            ax.plot(x, np.asarray(values, dtype=float), color=color, marker=marker,
                    linestyle=style, label=name)
        ax.set_xticks(x, contracts)
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel("made rate (double-dummy)")
        ax.set_xlabel("contract (numbers: trump named from the declarer's own hand)")
        ax.grid(alpha=0.3)
        ax.legend(title="declarer's position")
    return out["png"]
