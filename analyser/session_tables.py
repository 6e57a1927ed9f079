"""The result tables of a session run: each strategy's balance and the paired differences.

A strategy's result in one session is the mean of its four final balances (R31: after the
end split), one per seat, over the k rotations of that session (analyser/session.py), so
every strategy is scored on the same cards in every seat. Means are exact Fractions per
session; the statistics across sessions (mean, standard error, 95% interval mean ± Z95·se)
are floats, beside the exact mean of the means.
"""

from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd

from analyser.constants import MAX_POOL
from analyser.session import HANDS, SEAT_COLUMNS
from analyser.stats import Z95, mean_and_stderr

LADDER_AND_PARTOUT = ("5", "6", "7", "LM", "8", "9", "GM", "10", "11", "LS", "12", "GS", "13",
                      "partout")


def session_results(rows: pd.DataFrame, strategies) -> pd.DataFrame:
    """One row per session, one column per strategy: its mean final balance (Fraction)."""
    final = rows[rows["hand"] == HANDS]
    sums = {}
    for record in final.itertuples(index=False):
        row = record._asdict()
        per = sums.setdefault(row["session"], {name: [] for name in strategies})
        for letter in SEAT_COLUMNS:
            per[row[f"strategy_{letter}"]].append(Fraction(row[f"balance_{letter}"]))
    table = {s: {name: sum(v, Fraction(0)) / len(v) for name, v in per.items()}
             for s, per in sorted(sums.items())}
    return pd.DataFrame.from_dict(table, orient="index", columns=list(strategies))


def win_rates(rows: pd.DataFrame, strategies) -> dict:
    """Per strategy: the share of its seat-sessions that end with the highest final
    balance (R31: the highest balance wins; ties stand, so tied leaders all win)."""
    wins = dict.fromkeys(strategies, 0)
    slots = dict.fromkeys(strategies, 0)
    for record in rows[rows["hand"] == HANDS].itertuples(index=False):
        row = record._asdict()
        finals = [Fraction(row[f"balance_{s}"]) for s in SEAT_COLUMNS]
        top = max(finals)
        for letter, final in zip(SEAT_COLUMNS, finals, strict=True):
            name = row[f"strategy_{letter}"]
            slots[name] += 1
            wins[name] += final == top
    return {name: wins[name] / slots[name] if slots[name] else float("nan")
            for name in strategies}


def _interval(values) -> dict:
    mean, se = mean_and_stderr(values)
    return {"mean": mean, "stderr": se, "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se}


def summary_table(results: pd.DataFrame, wins: dict) -> pd.DataFrame:
    """strategy, sessions, mean_balance, stderr, ci_low, ci_high, win_rate (`wins`),
    mean_balance_exact."""
    out = []
    for name in results.columns:
        exact = list(results[name])
        stats = _interval([float(v) for v in exact])
        out.append({"strategy": name, "sessions": len(exact), "mean_balance": stats["mean"],
                    "stderr": stats["stderr"], "ci_low": stats["ci_low"],
                    "ci_high": stats["ci_high"], "win_rate": wins[name],
                    "mean_balance_exact": str(sum(exact, Fraction(0)) / len(exact))})
    return pd.DataFrame(out)


def pair_differences(results: pd.DataFrame) -> dict:
    """(a, b) -> per-session differences a - b (Fractions), for every pair in order."""
    return {(a, b): [x - y for x, y in zip(results[a], results[b], strict=True)]
            for a, b in combinations(results.columns, 2)}


def pairs_table(results: pd.DataFrame) -> pd.DataFrame:
    """strategy_a, strategy_b, sessions, mean_difference (a - b), stderr, ci_low, ci_high,
    mean_difference_exact; paired on identical cards (same session, every seat)."""
    out = []
    for (a, b), diffs in pair_differences(results).items():
        stats = _interval([float(d) for d in diffs])
        out.append({"strategy_a": a, "strategy_b": b, "sessions": len(diffs),
                    "mean_difference": stats["mean"], "stderr": stats["stderr"],
                    "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                    "mean_difference_exact": str(sum(diffs, Fraction(0)) / len(diffs))})
    columns = ["strategy_a", "strategy_b", "sessions", "mean_difference", "stderr", "ci_low",
               "ci_high", "mean_difference_exact"]
    return pd.DataFrame(out, columns=columns)


def contract_table(rows: pd.DataFrame) -> pd.DataFrame:
    """contract (ladder order, then partout), hands, share of hands, made, made_rate."""
    total = len(rows)
    out = []
    for contract in LADDER_AND_PARTOUT:
        sel = rows[rows["contract"] == contract]
        if sel.empty:
            continue
        made = int(sel["made"].fillna(False).sum()) if contract != "partout" else None
        out.append({"contract": contract, "hands": len(sel), "share": len(sel) / total,
                    "made": made, "made_rate": None if made is None else made / len(sel),
                    "conceded": int(sel["conceded"].sum())})
    frame = pd.DataFrame(out, columns=["contract", "hands", "share", "made", "made_rate",
                                       "conceded"])
    return frame.astype({"made": "Int64", "made_rate": "Float64"})


def declarer_table(rows: pd.DataFrame, strategies) -> pd.DataFrame:
    """Per strategy: hands it sat in, contracts it declared, made, made_rate."""
    seat_of = rows["declarer"].to_numpy()
    names = np.array([rows[f"strategy_{s}"].to_numpy() for s in SEAT_COLUMNS]).T
    played = rows["declarer"] >= 0
    declared_by = np.where(played, names[np.arange(len(rows)), np.clip(seat_of, 0, 3)], "")
    out = []
    for name in strategies:
        mine = declared_by == name
        made = int(rows.loc[mine, "made"].fillna(False).sum())
        seats = int((names == name).sum())
        out.append({"strategy": name, "seat_hands": seats, "declared": int(mine.sum()),
                    "declare_rate": mine.sum() / seats if seats else None,
                    "made": made, "made_rate": made / mine.sum() if mine.sum() else None})
    return pd.DataFrame(out)


def pool_by_hand(rows: pd.DataFrame) -> pd.DataFrame:
    """hand, mean and 90th percentile of all pools after the hand's settlement; hand 12
    counts the pools divided by the end split (R31)."""
    total = (rows["pool_full"].astype(np.int64) * MAX_POOL + rows["pool_partial"]
             + rows["pool_split"]).astype(float)
    frame = pd.DataFrame({"hand": rows["hand"], "pool": total})
    grouped = frame.groupby("hand")["pool"]
    return pd.DataFrame({"hand": sorted(frame["hand"].unique()),
                         "mean_pool": grouped.mean().to_numpy(),
                         "p90_pool": grouped.quantile(0.9).to_numpy()})


__all__ = ["session_results", "win_rates", "summary_table", "pairs_table", "pair_differences",
           "contract_table", "declarer_table", "pool_by_hand", "LADDER_AND_PARTOUT"]
