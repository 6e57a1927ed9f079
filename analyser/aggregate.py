"""Aggregation of the stored hands (one row per deal x seat) into the run's result tables.

Every seat of every deal is treated as a possible declarer alone against the other three,
with the dealer's left leading (R18). For each contract of the ladder (R9):
- numeric 5..13 (R10) with trump `natural` (the suit the declarer would name from its own
  hand, contracts.natural_trump) and with trump `dd-best` (the best of the four suits
  double-dummy, an upper bound no real declarer reaches: it chooses trump seeing all cards);
- LM and GM from the double-dummy misère verdicts (R15, R17), and LS and GS (R16) with the
  same verdicts: with every card visible, exposing the declarer's hand changes nothing, so
  double-dummy cannot tell a spread from its misère; only imperfect-information play can.
  Their trump column reads `none` (misères are played without trump, R20).
Money (R24-R30) comes from analyser/payments.py only, exact (R27): `ev_per_opponent` is
what each opponent pays the declarer on average, `ev_payments` = 3 x that (R24, R25),
`pool_term` the expected pool gain (R28-R30) and `ev_total` = ev_payments + pool_term, the
declarer's whole expected result. The float columns are those exact values rounded for
tables and charts; the `*_exact` columns keep the fractions as text.
"""

import math

import numpy as np
import pandas as pd

from analyser import payments
from analyser.constants import DEFAULT_POOL
from analyser.contracts import LADDER, MISERE_CONTRACTS, NUMERIC_CONTRACTS, ladder_rank
from analyser.stats import wilson_interval

TRICK_COLUMNS = ("tricks_s", "tricks_h", "tricks_d", "tricks_c")
NATURAL, DD_BEST, NO_TRUMP = "natural", "dd-best", "none"
MISERE_VERDICT = {"LM": "little_misere", "LS": "little_misere",
                  "GM": "grand_misere", "GS": "grand_misere"}
POSITION_NAMES = {0: "leader", 1: "second", 2: "third", 3: "dealer"}
# Fixed bins (so that tables of different runs line up) for the misère-feature tables.
FEATURE_BINS = {
    "misere_danger": [0, 10, 15, 20, 25, 30, 35, 40, 50, 1000],
    "hcp": [0, 3, 6, 9, 12, 15, 18, 41],
    "longest_suit": [0, 5, 6, 7, 8, 14],
    "aces": [0, 1, 2, 3, 4, 5],
}


def add_derived_columns(hands: pd.DataFrame) -> pd.DataFrame:
    """The hands table with tricks in the natural and the best trump, and the longest suit."""
    tricks = hands[list(TRICK_COLUMNS)].to_numpy(dtype=np.int64)
    natural = hands["natural_trump"].to_numpy(dtype=np.int64)
    lengths = hands[["len_s", "len_h", "len_d", "len_c"]].to_numpy()
    return hands.assign(
        tricks_natural=tricks[np.arange(len(hands)), natural].astype(np.int8),
        tricks_best=tricks.max(axis=1).astype(np.int8),
        longest_suit=lengths.max(axis=1).astype(np.int8),
    )


def _contract_rows(group: pd.DataFrame, pool: int) -> list[dict]:
    """One row per contract and trump rule for the hands of `group` (a DataFrame)."""
    rows = []
    for trump, column in ((NATURAL, "tricks_natural"), (DD_BEST, "tricks_best")):
        tricks = group[column].to_numpy()
        for contract in NUMERIC_CONTRACTS:
            rows.append(_row(contract, trump, payments.expected_payment(
                contract, tricks=tricks, pool=pool)))
    for contract in MISERE_CONTRACTS:
        made = group[MISERE_VERDICT[contract]].to_numpy(dtype=bool)
        rows.append(_row(contract, NO_TRUMP, payments.expected_payment(
            contract, made=made, pool=pool)))
    return rows


def _row(contract: str, trump: str, ev) -> dict:
    """One table row from a payments.ExpectedPayment."""
    return {
        "contract": contract,
        "trump": trump,
        "ladder": ladder_rank(contract),
        "hands": ev.deals,
        "made": ev.made,
        "mean_undertricks": (math.nan if ev.mean_undertricks is None
                             else float(ev.mean_undertricks)),
        "ev_per_opponent": float(ev.per_opponent),
        "ev_payments": float(ev.payments),
        "pool_term": float(ev.pool_term),
        "ev_total": float(ev.total),
        "ev_per_opponent_exact": str(ev.per_opponent),
        "ev_total_exact": str(ev.total),
    }


def _finish(frame: pd.DataFrame) -> pd.DataFrame:
    """Add made rate and its 95% Wilson interval; fix column types."""
    frame["made_rate"] = frame["made"] / frame["hands"]
    frame["made_ci_low"], frame["made_ci_high"] = wilson_interval(frame["made"], frame["hands"])
    for col in ("hands", "made"):
        frame[col] = frame[col].astype(np.int64)
    frame["ladder"] = frame["ladder"].astype(np.int8)
    return frame


SUMMARY_COLUMNS = [
    "shape", "contract", "trump", "ladder", "hands", "shape_share", "made", "made_rate",
    "made_ci_low", "made_ci_high", "mean_undertricks", "ev_per_opponent", "ev_payments",
    "pool_term", "ev_total", "ev_per_opponent_exact", "ev_total_exact",
]


def shape_order(hands: pd.DataFrame) -> list[str]:
    """Shapes present in `hands`, most frequent first (ties by name)."""
    counts = hands["shape"].value_counts()
    return sorted(counts.index, key=lambda s: (-counts[s], s))


def summary(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> pd.DataFrame:
    """Per shape (most frequent first, then "all") x contract x trump rule: made rate with
    its 95% Wilson interval, mean undertricks when failing, expected payments (R24-R30)."""
    hands = _with_derived(hands)
    rows = []
    total = len(hands)
    groups = [(s, hands[hands["shape"] == s]) for s in shape_order(hands)] + [("all", hands)]
    for shape, group in groups:
        for row in _contract_rows(group, pool):
            rows.append({"shape": shape, "shape_share": len(group) / total, **row})
    return _finish(pd.DataFrame(rows))[SUMMARY_COLUMNS]


def by_position(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> pd.DataFrame:
    """Per position relative to the leader (R18) x contract x trump rule, all shapes."""
    hands = _with_derived(hands)
    rows = []
    for position in range(4):
        group = hands[hands["position"] == position]
        if len(group) == 0:
            continue
        for row in _contract_rows(group, pool):
            rows.append({"position": position, "position_name": POSITION_NAMES[position], **row})
    frame = _finish(pd.DataFrame(rows))
    frame["position"] = frame["position"].astype(np.int8)
    return frame[["position", "position_name"] + [c for c in SUMMARY_COLUMNS
                                                   if c not in ("shape", "shape_share")]]


def feature_bin_labels(feature: str) -> list[str]:
    """Labels of the fixed bins of `feature` ("0-9", "50+", or a single value "3")."""
    edges = FEATURE_BINS[feature]
    labels = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        if hi == edges[-1] and hi - lo > 1:
            labels.append(f"{lo}+")
        else:
            labels.append(str(lo) if hi - lo == 1 else f"{lo}-{hi - 1}")
    return labels


def misere_features(hands: pd.DataFrame) -> pd.DataFrame:
    """Little and grand misère make rates (with 95% intervals) against hand features in
    fixed bins, for all positions together and for each position relative to the leader."""
    hands = _with_derived(hands)
    rows = []
    for feature, edges in FEATURE_BINS.items():
        labels = feature_bin_labels(feature)
        bins = np.digitize(hands[feature].to_numpy(), edges[1:-1])
        for position in ("all", 0, 1, 2, 3):
            mask = np.ones(len(hands), bool) if position == "all" else (
                hands["position"].to_numpy() == position)
            for b, label in enumerate(labels):
                sel = mask & (bins == b)
                count = int(sel.sum())
                rows.append({
                    "feature": feature, "bin": b, "bin_label": label,
                    "position": "all" if position == "all" else POSITION_NAMES[position],
                    "hands": count,
                    "lm_made": int(hands["little_misere"].to_numpy()[sel].sum()),
                    "gm_made": int(hands["grand_misere"].to_numpy()[sel].sum()),
                })
    frame = pd.DataFrame(rows)
    for kind in ("lm", "gm"):
        hands_ = frame["hands"].where(frame["hands"] > 0)
        frame[f"{kind}_rate"] = frame[f"{kind}_made"] / hands_
        frame[f"{kind}_ci_low"], frame[f"{kind}_ci_high"] = wilson_interval(
            frame[f"{kind}_made"], hands_)
    frame["bin"] = frame["bin"].astype(np.int8)
    return frame


def best_bids(summary_table: pd.DataFrame) -> pd.DataFrame:
    """Per shape, the contract with the highest expected value including the pool term.

    `best_bid` chooses among the numeric contracts in the natural trump, LM and GM (what a
    declarer can choose from its own hand); `best_bid_upper` also admits the double-dummy
    best trump and the spreads, whose double-dummy verdicts are upper bounds. A negative
    best value means passing (worth 0 here, the partout R26 aside) is better: `advice`.
    """
    rows = []
    for shape, group in summary_table.groupby("shape", sort=False):
        real = group[(group["trump"] == NATURAL) | group["contract"].isin(["LM", "GM"])]
        best = real.loc[real["ev_total"].idxmax()]
        upper = group.loc[group["ev_total"].idxmax()]
        rows.append({
            "shape": shape,
            "hands": int(group["hands"].iloc[0]),
            "shape_share": float(group["shape_share"].iloc[0]),
            "best_bid": best["contract"],
            "best_trump": best["trump"],
            "best_ev_total": float(best["ev_total"]),
            "best_made_rate": float(best["made_rate"]),
            "advice": best["contract"] if best["ev_total"] > 0 else "pass",
            "best_bid_upper": upper["contract"],
            "best_trump_upper": upper["trump"],
            "best_ev_upper": float(upper["ev_total"]),
        })
    frame = pd.DataFrame(rows)
    frame["hands"] = frame["hands"].astype(np.int64)
    return frame


def misere_breakeven(pool: int = DEFAULT_POOL) -> dict[str, float]:
    """Make rate above which LM / GM (and the spreads) beat passing, pool included (R25, R29)."""
    result = {}
    for contract in MISERE_CONTRACTS:
        gain = payments.outcome_value(contract, made=True, pool=pool)
        loss = -payments.outcome_value(contract, made=False, pool=pool)
        result[contract] = float(payments.breakeven_probability(gain, loss))
    return result


def _with_derived(hands: pd.DataFrame) -> pd.DataFrame:
    """`hands` with the derived columns, computed once."""
    return hands if "tricks_natural" in hands else add_derived_columns(hands)


def aggregate(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> dict[str, pd.DataFrame]:
    """All result tables of a run from its hands: summary, by_position, misere_features,
    best_bids (the shape-frequency table comes from analyser/shapes.py)."""
    hands = add_derived_columns(hands)
    table = summary(hands, pool)
    return {
        "summary": table,
        "by_position": by_position(hands, pool),
        "misere_features": misere_features(hands),
        "best_bids": best_bids(table),
    }


__all__ = [
    "LADDER", "add_derived_columns", "summary", "by_position",
    "misere_features", "best_bids", "misere_breakeven", "aggregate", "shape_order",
]
