"""Charts of a run's result tables: rendering only, the tables come from analyser.

Each chart function returns a matplotlib `Figure` built on the Agg canvas directly
(`Figure` + `FigureCanvasAgg`), never through pyplot, so no global figure registry or GUI
backend is involved; `png` turns a figure into PNG bytes and clears it, so nothing stays
open. Figures are at most `WIDTH` inches wide at `DPI`, so that the report's column shows
them at their own size and their text at its stated size (10 pt is about 14 px).
"""

import io

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

DPI = 100
WIDTH = 10.5  # inches: 1,050 px, inside the page's 1,100 px column (reports/html.py)
CELL_FONT = 9  # points: the numbers written in the heatmap's cells
MIN_CONTRAST = 4.5  # WCAG AA contrast ratio for the heatmap's cell numbers
CONTRACT_AXIS = "contract, in ladder order (numbers: trump named from the declarer's own hand)"
POSITION_STYLES = {"all": ("black", "o"), "leader": ("tab:red", "s"),
                   "second": ("tab:blue", "^"), "third": ("tab:green", "v"),
                   "dealer": ("tab:purple", "D")}
PERCENT = PercentFormatter(1.0, decimals=0)
COMPARISON_COLOUR = "0.62"  # a series drawn for comparison beside the positions


def new_figure(width: float, height: float) -> Figure:
    """A figure of the given size (inches) on its own Agg canvas, laid out by constraints."""
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def png(fig: Figure) -> bytes:
    """The PNG bytes of `fig`; the figure is cleared afterwards, even if saving fails."""
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png")
    finally:
        fig.clear()
    return buffer.getvalue()


def relative_luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (any matplotlib colour: name, RGB(A))."""
    channels = np.asarray(to_rgb(rgb))
    linear = np.where(channels <= 0.03928, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(background) -> str:
    """Black or white, whichever contrasts more with `background` (at least 4.58:1)."""
    black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    return "black" if contrast_ratio(background, black) >= contrast_ratio(background, white) \
        else "white"


def _rate_axis(ax, top: float = 1.0) -> None:
    """Rates axis in percent from 0 to `top`, with a sliver below 0 and above `top` so that
    markers at 0% and 100% show whole."""
    margin = 0.015 * top
    ax.set_ylim(-margin, top + margin)
    ax.yaxis.set_major_formatter(PERCENT)


def _fitted_top(highs, step: float = 0.05) -> float:
    """The top of a rates axis: the next multiple of `step` above the highest value drawn
    (interval ends included), 100% at most."""
    highs = np.asarray(highs, dtype=float)
    top = np.nanmax(highs) if np.isfinite(highs).any() else 1.0
    return float(min(1.0, step * np.ceil((top + 0.01) / step)))


def _offsets(n: int, spread: float = 0.56) -> np.ndarray:
    """Horizontal offsets of n series drawn side by side within one x category."""
    if n == 1:
        return np.zeros(1)
    return np.linspace(-spread / 2, spread / 2, n)


def _separate_categories(ax, n: int) -> None:
    """Light vertical lines between the x categories: series are side by side, not joined."""
    for edge in np.arange(n - 1) + 0.5:
        ax.axvline(edge, color="0.88", linewidth=0.8, zorder=0)
    ax.set_xlim(-0.5, n - 0.5)


def made_rate_heatmap(rates, shapes, contracts, counts) -> Figure:
    """Heatmap of made rates (2-D array shapes x contracts, NaN where empty), each cell
    written as a percentage in black or white, whichever reads better on its colour."""
    percent = 100 * np.asarray(rates, dtype=float)
    fig = new_figure(min(WIDTH, 2.6 + 0.6 * len(contracts)), 1.3 + 0.3 * len(shapes))
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(percent), cmap="RdYlGn", vmin=0, vmax=100,
                      aspect="auto")
    ax.set_xticks(range(len(contracts)), contracts)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    labels = [f"{s} ({n:,})" for s, n in zip(shapes, counts, strict=True)]
    ax.set_yticks(range(len(shapes)), labels)
    ax.tick_params(length=0)
    ax.set_xlabel(CONTRACT_AXIS)
    ax.set_ylabel("shape (number of hands)")
    if shapes and shapes[-1] == "all":  # the total row stands apart from the shapes
        ax.axhline(len(shapes) - 1.5, color="white", linewidth=3)
    for i, j in zip(*np.nonzero(np.isfinite(percent)), strict=True):
        colour = text_colour(image.cmap(image.norm(percent[i, j])))
        ax.text(j, i, f"{percent[i, j]:.0f}", ha="center", va="center", fontsize=CELL_FONT,
                color=colour)
    bar = fig.colorbar(image, ax=ax, shrink=0.6, aspect=20, pad=0.01)
    bar.set_label("made rate (%)")
    return fig


def misere_chart(panels, breakeven: float,
                 ylabel: str = "little misère made (double-dummy), 95% interval") -> Figure:
    """Little-misère make rate against hand features, one titled panel per feature.

    `panels` is a list of (title, x axis label, bin labels, {series name: (rate, low, high)
    arrays}); the horizontal line is the make rate above which bidding beats passing.
    Series named after a position take its style (`POSITION_STYLES`); any other is a
    reference drawn light grey with open circles.
    """
    fig = new_figure(WIDTH, 5.0)
    axes = fig.subplots(1, len(panels), squeeze=False, sharey=True)[0]
    for ax, (title, xlabel, labels, series) in zip(axes, panels, strict=True):
        x = np.arange(len(labels))
        for shift, (name, (rate, low, high)) in zip(_offsets(len(series), 0.3),
                                                     series.items(), strict=True):
            rate, low, high = (np.asarray(a, dtype=float) for a in (rate, low, high))
            if name in POSITION_STYLES:
                color, marker = POSITION_STYLES[name]
                style = {"linewidth": 1.2 if name == "all" else 0.9,
                         "linestyle": "-" if name == "all" else ":"}
            else:  # a reference series: light grey, solid, open circles
                color, marker = COMPARISON_COLOUR, "o"
                style = {"linewidth": 1.2, "linestyle": "-", "markerfacecolor": "white"}
            # consecutive bins of one feature are ordered, so a line through them reads
            ax.errorbar(x + shift, rate, yerr=[rate - low, high - rate], color=color,
                        marker=marker, markersize=5, capsize=2, label=name, **style)
        ax.axhline(breakeven, color="0.45", linewidth=1.2, linestyle="--",
                   label=f"break-even {breakeven:.0%}")
        ax.set_xticks(x, labels)
        _rate_axis(ax)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(ylabel)
    # one legend for every panel, below them, where it can hide no interval
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center",
               ncols=len(series) + 1, title="declarer's position")
    return fig


PLAY_STYLES = {"double-dummy": ("0.35", "o"), "real play": ("tab:orange", "s")}


def dd_vs_real(panels, columns: int = 2) -> Figure:
    """Made rate under double-dummy and under real play on the same hands, one titled
    panel per contract kind, the shapes along x, the two side by side with 95% intervals.

    `panels` is a list of (title, shape labels, {"double-dummy" | "real play": (rate, low,
    high) arrays in shape order}); the last shape label "all" stands apart.
    """
    rows = -(-len(panels) // columns)
    fig = new_figure(WIDTH, 1.0 + 2.9 * rows)
    axes = fig.subplots(rows, columns, squeeze=False, sharey=True).reshape(-1)
    for ax in axes[len(panels):]:
        fig.delaxes(ax)
    for ax, (title, labels, series) in zip(axes, panels, strict=False):
        x = np.arange(len(labels))
        for shift, (name, (rate, low, high)) in zip(_offsets(len(series), 0.36),
                                                     series.items(), strict=True):
            color, marker = PLAY_STYLES.get(name, ("gray", "o"))
            rate, low, high = (np.asarray(a, dtype=float) for a in (rate, low, high))
            ax.errorbar(x + shift, rate, yerr=[rate - low, high - rate], color=color,
                        marker=marker, markersize=5, linestyle="none", capsize=2,
                        elinewidth=0.9, label=name)
        _separate_categories(ax, len(labels))
        if labels and labels[-1] == "all":
            ax.axvline(len(labels) - 1.5, color="0.3", linewidth=1.2)
        ax.set_xticks(x, labels, rotation=35, ha="right", rotation_mode="anchor", fontsize=8)
        _rate_axis(ax)
        ax.set_title(title)
        ax.grid(alpha=0.3, axis="y")
    for ax in axes[::columns][:rows]:
        ax.set_ylabel("made, 95% interval")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncols=len(names),
               title="play (the same hands)")
    return fig


def _symlog_ticks(low: float, high: float, linthresh: float) -> list[float]:
    """Round ticks (0, ±10, ±30, ±100, ±300, ...) between low and high."""
    steps = [m * 10.0 ** k for k in range(1, 6) for m in (1, 3) if m * 10.0 ** k >= linthresh]
    ticks = [0.0] + steps + [-t for t in steps]
    return sorted(t for t in ticks if low <= t <= high)


def ev_by_contract(contracts, series, ylabel: str, linthresh: float = 10.0) -> Figure:
    """Expected result per contract for several shapes, side by side within each contract
    and never joined across contracts (the ladder mixes numbers, misères and spreads).

    `series` maps a shape to its values in `contracts` order (the label "all" is drawn as
    black diamonds). The y axis is linear within ±`linthresh` and logarithmic beyond
    (symlog), so the large losses of the high contracts stay on the chart beside the small
    results of the low ones.
    """
    fig = new_figure(WIDTH, 5.4)
    ax = fig.add_subplot()
    x = np.arange(len(contracts))
    values = {k: np.asarray(v, dtype=float) for k, v in series.items()}
    for shift, (label, y) in zip(_offsets(len(values)), values.items(), strict=True):
        style = ({"color": "black", "marker": "D", "markersize": 7, "zorder": 3}
                 if label == "all" else {"marker": "o", "markersize": 6, "alpha": 0.9})
        ax.plot(x + shift, y, linestyle="none", label=label, **style)
    finite = np.concatenate([v[np.isfinite(v)] for v in values.values()])
    low = min(-linthresh, 1.5 * finite.min()) if finite.size else -linthresh
    high = max(linthresh, 1.5 * finite.max()) if finite.size else linthresh
    ax.set_yscale("symlog", linthresh=linthresh, linscale=0.5)
    ax.set_ylim(low, high)
    ticks = _symlog_ticks(low, high, linthresh)
    ax.set_yticks(ticks, [f"{t:+,.0f}" if t else "0" for t in ticks])
    ax.minorticks_off()
    ax.axhline(0, color="0.3", linewidth=1)
    _separate_categories(ax, len(contracts))
    ax.set_xticks(x, contracts)
    ax.set_xlabel(CONTRACT_AXIS)
    ax.set_ylabel(f"{ylabel}\n(linear within ±{linthresh:g}, logarithmic beyond)")
    ax.grid(alpha=0.3, axis="y")
    fig.legend(loc="outside right upper", title="shape")
    return fig


def shape_frequencies(shapes, observed, exact) -> Figure:
    """Bars of simulated shape frequencies beside the exact probabilities."""
    fig = new_figure(WIDTH, 4.6)
    ax = fig.add_subplot()
    x = np.arange(len(shapes))
    ax.bar(x - 0.2, np.asarray(observed, dtype=float), width=0.4, label="simulated")
    ax.bar(x + 0.2, np.asarray(exact, dtype=float), width=0.4, label="exact")
    ax.set_xticks(x, shapes, rotation=60, ha="right", rotation_mode="anchor", fontsize=8)
    ax.set_xlim(-0.6, len(shapes) - 0.4)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("shape (suit lengths, longest first)")
    ax.set_ylabel("share of hands")
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    return fig


def made_rate_by_position(contracts, series) -> Figure:
    """Made rate per contract for each position relative to the leader (R18), with 95%
    intervals: `series` maps a position name to (rate, low, high) arrays in `contracts`
    order. Positions stand side by side within a contract, never joined across contracts."""
    fig = new_figure(WIDTH, 4.6)
    ax = fig.add_subplot()
    x = np.arange(len(contracts))
    highs = []
    for shift, (name, (rate, low, high)) in zip(_offsets(len(series), 0.5), series.items(),
                                                 strict=True):
        color, marker = POSITION_STYLES.get(name, ("gray", "o"))
        rate, low, high = (np.asarray(a, dtype=float) for a in (rate, low, high))
        ax.errorbar(x + shift, rate, yerr=[rate - low, high - rate], color=color,
                    marker=marker, markersize=5, linestyle="none", capsize=2,
                    elinewidth=0.9, label=name)
        highs.append(high)
    _rate_axis(ax, _fitted_top(np.concatenate(highs) if highs else [1.0]))
    _separate_categories(ax, len(contracts))
    ax.set_xticks(x, contracts)
    ax.set_ylabel("made rate (double-dummy), 95% interval")
    ax.set_xlabel(CONTRACT_AXIS)
    ax.grid(alpha=0.3, axis="y")
    fig.legend(loc="outside right upper", title="declarer's\nposition")
    return fig
