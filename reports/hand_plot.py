"""Figure of one hand's analysis: trick distribution per trump and the misères' make odds
(under real play: every contract played for real, real and double-dummy bars side by side).

Renders only the plain dict `analyser.hand.HandAnalysis.to_dict()` hands over (JSON types);
computes nothing new and imports nothing from analyser (STYLE.md).
"""

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from reports.charts import PERCENT, new_figure

SUITS = (("S", "♠ spades", "0.15"), ("H", "♥ hearts", "tab:red"),
         ("D", "♦ diamonds", "tab:orange"), ("C", "♣ clubs", "tab:green"))
MISERES = ("LM", "GM", "LS", "GS")  # misères and spreads (R15, R16)
LOWEST_NUMBER = 5  # the lowest numeric contract needs 5 tricks (R9, R10)
SAVE_DPI = 110
# the make-rate bars: (label, p key, interval low key, high key, colour)
REAL_BARS = ("real play", "p_make", "ci_low", "ci_high", "tab:blue")
DD_BARS_BESIDE = ("double-dummy", "p_make_dd", "ci_low_dd", "ci_high_dd", "0.6")
DD_BARS = ("double-dummy", "p_make", "ci_low", "ci_high", "0.6")


def figure(data: dict) -> Figure:
    """The hand plot of `data` (a HandAnalysis as a dict): tricks by trump on the left, the
    misères and spreads with 95% intervals and little misère's break-even on the right;
    under real play the right panel has every contract played for real, its real-play and
    double-dummy make rates (same samples) side by side."""
    n = data["samples"]
    real = data["play"] == "real"
    fig = new_figure(13 if real else 11, 4.6)
    left, right = fig.subplots(1, 2, width_ratios=[3, 2.2 if real else 1.3])

    width = 0.2
    for i, (suit, name, colour) in enumerate(SUITS):
        share = np.asarray(data["tricks"][suit], dtype=float) / n
        left.bar(np.arange(14) + (i - 1.5) * width, share, width, color=colour, label=name)
    left.axvspan(-0.6, LOWEST_NUMBER - 0.5, color="0.93", zorder=0)
    left.set_xticks(range(14))
    left.set_xlim(-0.6, 13.6)
    left.yaxis.set_major_formatter(PERCENT)
    left.set_xlabel(f"declarer's tricks (double-dummy); shaded: fewer than {LOWEST_NUMBER}, "
                    "no number made (R10)")
    left.set_ylabel("share of samples")
    left.set_title("Tricks by trump")
    left.legend(title="trump", frameon=False)
    left.grid(alpha=0.3, axis="y")

    rows = {r["contract"]: r for r in data["contracts"]}
    labels = data["real_contracts"] if real else [c for c in MISERES if c in rows]
    series = (REAL_BARS, DD_BARS_BESIDE) if real else (DD_BARS,)
    x = np.arange(len(labels))
    width = 0.8 / len(series) if real else 0.6
    for j, (name, key, low, high, colour) in enumerate(series):
        p = np.array([rows[c][key] for c in labels])
        err = [p - [rows[c][low] for c in labels], [rows[c][high] for c in labels] - p]
        where = x + (j - (len(series) - 1) / 2) * width
        right.bar(where, p, width, yerr=err, capsize=3 if real else 4, color=colour,
                  label=name)
        for at, value, top in zip(where, p, p + err[1], strict=True):
            right.annotate(f"{value:.0%}", (at, top), xytext=(0, 3),
                           textcoords="offset points", ha="center", va="bottom",
                           fontsize=7 if real else 9)
    right.set_xticks(x, [rows[c]["bid"] if c[0].isdigit() else c for c in labels])
    breakeven = data["little_misere"]["breakeven"]
    if 0 < breakeven < 1:
        right.axhline(breakeven, color="tab:red", linestyle="--", linewidth=1)
        # a label on the line itself: a legend would hide bars that reach 100%
        right.annotate(f"LM break-even {breakeven:.0%}", xy=(x[0] - 0.4, breakeven),
                       xytext=(0, 3), textcoords="offset points", color="tab:red", fontsize=8,
                       ha="left", va="bottom",
                       bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
    right.set_ylim(0, 1.3 if real else 1.13)
    right.set_yticks(np.linspace(0, 1, 6))
    right.yaxis.set_major_formatter(PERCENT)
    right.grid(alpha=0.3, axis="y")
    right.set_ylabel("made, with 95% interval")
    if real:
        trump = next(r["trump"] for r in data["contracts"] if r["trump"] is not None)
        right.set_xlabel(f"numbers in {trump}; LM, GM: misères; LS, GS: spreads (exposed, R16)")
        right.set_title("Played for real, double-dummy beside")
        # above the 100% line, where no bar reaches
        right.legend(loc="upper center", ncol=2, frameon=False, fontsize=8)
    else:
        right.set_xlabel("LM, GM: misères; LS, GS: spreads")
        right.set_title("Misères and spreads (double-dummy)")

    play = "real play" if real else "double-dummy"
    fig.suptitle(f"{data['hand']} ({data['shape']}), seat {data['seat']} (position "
                 f"{data['position']}): {n:,} samples, {play}; recommendation "
                 f"{data['recommendation']['call']}")
    return fig


def render(data: dict, path) -> Path:
    """Draw `data` (HandAnalysis.to_dict()) to `path`, format from its suffix; the figure is
    cleared afterwards."""
    path = Path(path)
    fig = figure(data)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=SAVE_DPI)
    finally:
        fig.clear()
    return path
