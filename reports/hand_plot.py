"""Figure of a hand analysis: trick distribution per trump and the misère make odds.

Renders only what `analyser.hand.HandAnalysis` holds; computes nothing new (STYLE.md).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a window (CI and servers have no display)
import matplotlib.pyplot as plt  # noqa: E402

from analyser.cards import format_hand  # noqa: E402

SUIT_NAMES = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}
MISERE_ORDER = ("LM", "GM", "LS", "GS")


def render(result, path) -> Path:
    """Draw `result` (a HandAnalysis) to `path` (format from the suffix) and close the figure."""
    path = Path(path)
    n = result.samples
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [3, 1.3]}
    )
    try:
        width = 0.2
        for i, (trump, counts) in enumerate(result.tricks.iterrows()):
            share = counts.to_numpy() / n
            left.bar([k + (i - 1.5) * width for k in range(14)], share, width,
                     label=SUIT_NAMES.get(trump, trump))
        left.set_xticks(range(14))
        left.set_xlabel("declarer tricks (double-dummy)")
        left.set_ylabel("share of samples")
        left.set_title("Trick distribution by trump")
        left.legend(frameon=False)

        rows = {r["contract"]: r for r in result.rows}
        labels = [c for c in MISERE_ORDER if c in rows]
        p = [rows[c]["p_make"] for c in labels]
        err = [[rows[c]["p_make"] - rows[c]["ci_low"] for c in labels],
               [rows[c]["ci_high"] - rows[c]["p_make"] for c in labels]]
        right.bar(labels, p, yerr=err, capsize=4, color="0.55")
        breakeven = float(result.little_misere.breakeven)
        if 0 < breakeven < 1:
            right.axhline(breakeven, color="C3", linestyle="--", linewidth=1)
            # a label on the line itself: a legend would hide bars that reach 1.0
            right.annotate(f"LM break-even {breakeven:.0%}", xy=(0, breakeven),
                           xytext=(0, 3), textcoords="offset points", color="C3",
                           fontsize=8, ha="center", va="bottom",
                           bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
        right.set_ylim(0, 1.05)
        right.set_ylabel("P(make), 95% Wilson interval")
        right.set_title("Misères and spreads")

        q = result.query
        fig.suptitle(
            f"{format_hand(q.hand)} at position {q.position}: {n} samples, "
            f"recommendation {result.recommendation.call}"
        )
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
    return path
