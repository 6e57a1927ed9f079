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

Real play (a run with `play` "real", analyser/pipeline.py): every hand also carries the
imperfect-information player's outcome of each misère contract and of one number, the
level n = clamp(double-dummy tricks in the natural trump, 5, 13). The tables then gain
`REAL_SUMMARY_COLUMNS` (summary, by_position): for LM, GM, LS, GS over every hand, for a
number n in the natural trump over the hands whose level was n (none in the dd-best
rows), the real made rate with its 95% Wilson interval, mean tricks and expected result,
and beside them the double-dummy values of the same hands (`real_dd_*`); the table
`real_vs_dd` compares the two per shape and contract kind (the numbers together, each
hand at its own level); misere_features gains the real LM and GM rates (`real_lm_*`,
`real_gm_*`). A dd run's tables are exactly those of the paragraphs above.
"""

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from analyser import payments
from analyser.constants import DEFAULT_POOL
from analyser.contracts import LADDER, MISERE_CONTRACTS, NUMERIC_CONTRACTS, ladder_rank
from analyser.pipeline import REAL_COLUMNS, REAL_MISERE_COLUMNS
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


def _contract_rows(group: pd.DataFrame, pool: int, real: bool = False) -> list[dict]:
    """One row per contract and trump rule for the hands of `group` (a DataFrame); with
    `real`, each row also holds its real-play columns (module docstring)."""
    rows = []
    for trump, column in ((NATURAL, "tricks_natural"), (DD_BEST, "tricks_best")):
        tricks = group[column].to_numpy()
        for contract in NUMERIC_CONTRACTS:
            row = _row(contract, trump, payments.expected_payment(
                contract, tricks=tricks, pool=pool))
            if real:
                played = (group["real_level"].to_numpy() == int(contract)) & (trump == NATURAL)
                row.update(_real_row(contract, pool,
                                     real=group["real_tricks"].to_numpy()[played],
                                     dd=tricks[played]))
            rows.append(row)
    for contract in MISERE_CONTRACTS:
        made = group[MISERE_VERDICT[contract]].to_numpy(dtype=bool)
        row = _row(contract, NO_TRUMP, payments.expected_payment(contract, made=made, pool=pool))
        if real:
            row.update(_real_row(contract, pool, dd=made,
                                 real=group[REAL_MISERE_COLUMNS[contract]].to_numpy(dtype=bool)))
        rows.append(row)
    return rows


def _outcomes(contract: str, values: np.ndarray) -> dict:
    """expected_payment's keyword for `values`: tricks (numbers) or made (misères)."""
    return {"made" if contract in MISERE_CONTRACTS else "tricks": values}


def _real_row(contract: str, pool: int, real: np.ndarray, dd: np.ndarray) -> dict:
    """The real-play columns of one summary row: `real` and `dd` are the outcomes (tricks
    or made) of the same hands under real play and double-dummy; NaN where none."""
    numeric = contract not in MISERE_CONTRACTS
    row = {"real_hands": len(real)}
    if len(real) == 0:
        return row | {"real_made": 0, "real_dd_made": 0, "real_mean_tricks": math.nan,
                      "real_dd_mean_tricks": math.nan, "real_ev_total": math.nan,
                      "real_dd_ev_total": math.nan, "real_ev_total_exact": "",
                      "real_dd_ev_total_exact": ""}
    for prefix, values in (("real", real), ("real_dd", dd)):
        ev = payments.expected_payment(contract, pool=pool, **_outcomes(contract, values))
        row[f"{prefix}_made"] = ev.made
        row[f"{prefix}_mean_tricks"] = float(np.mean(values)) if numeric else math.nan
        row[f"{prefix}_ev_total"] = float(ev.total)
        row[f"{prefix}_ev_total_exact"] = str(ev.total)
    return row


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
    """Add made rate and its 95% Wilson interval (and the real ones when present); fix
    column types."""
    frame["made_rate"] = frame["made"] / frame["hands"]
    frame["made_ci_low"], frame["made_ci_high"] = wilson_interval(frame["made"], frame["hands"])
    for col in ("hands", "made"):
        frame[col] = frame[col].astype(np.int64)
    frame["ladder"] = frame["ladder"].astype(np.int8)
    if "real_hands" in frame:
        _rates(frame, "real_hands", "real_made", "real_made")
        frame["real_dd_made_rate"] = frame["real_dd_made"] / _some(frame["real_hands"])
        for col in ("real_hands", "real_made", "real_dd_made"):
            frame[col] = frame[col].astype(np.int64)
    return frame


def _some(hands: pd.Series) -> pd.Series:
    """Hand counts as divisors: NaN where there are none, so that their rates are NaN."""
    return hands.where(hands > 0)


def _rates(frame: pd.DataFrame, hands: str, made: str, prefix: str) -> None:
    """Columns `<prefix>_rate`, `<prefix>_ci_low`, `<prefix>_ci_high` (95% Wilson) of
    `made` in `hands`: NaN where there are no hands."""
    n = _some(frame[hands])
    frame[f"{prefix}_rate"] = frame[made] / n
    frame[f"{prefix}_ci_low"], frame[f"{prefix}_ci_high"] = wilson_interval(frame[made], n)
    empty = frame[hands] == 0
    frame.loc[empty, [f"{prefix}_ci_low", f"{prefix}_ci_high"]] = math.nan


SUMMARY_COLUMNS = [
    "shape", "contract", "trump", "ladder", "hands", "shape_share", "made", "made_rate",
    "made_ci_low", "made_ci_high", "mean_undertricks", "ev_per_opponent", "ev_payments",
    "pool_term", "ev_total", "ev_per_opponent_exact", "ev_total_exact",
]
# a real run's summary and by_position add these after the columns above (module docstring)
REAL_SUMMARY_COLUMNS = [
    "real_hands", "real_made", "real_made_rate", "real_made_ci_low", "real_made_ci_high",
    "real_dd_made", "real_dd_made_rate", "real_mean_tricks", "real_dd_mean_tricks",
    "real_ev_total", "real_dd_ev_total", "real_ev_total_exact", "real_dd_ev_total_exact",
]


def shape_order(hands: pd.DataFrame) -> list[str]:
    """Shapes present in `hands`, most frequent first (ties by name)."""
    counts = hands["shape"].value_counts()
    return sorted(counts.index, key=lambda s: (-counts[s], s))


def has_real_play(hands: pd.DataFrame) -> bool:
    """Whether `hands` holds real-play outcomes (the rows of a run with `play` "real")."""
    return set(REAL_COLUMNS) <= set(hands.columns)


def _columns(hands: pd.DataFrame, columns: list) -> list:
    """`columns`, followed by the real-play summary columns when `hands` has real play."""
    return columns + (REAL_SUMMARY_COLUMNS if has_real_play(hands) else [])


def _shape_groups(hands: pd.DataFrame) -> list:
    """(shape, its hands) for each shape, most frequent first, then ("all", every hand)."""
    return [(s, hands[hands["shape"] == s]) for s in shape_order(hands)] + [("all", hands)]


def summary(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> pd.DataFrame:
    """Per shape (most frequent first, then "all") x contract x trump rule: made rate with
    its 95% Wilson interval, mean undertricks when failing, expected payments (R24-R30);
    with real play, the real-play columns beside them (module docstring)."""
    hands = _with_derived(hands)
    real = has_real_play(hands)
    rows = []
    total = len(hands)
    for shape, group in _shape_groups(hands):
        for row in _contract_rows(group, pool, real):
            rows.append({"shape": shape, "shape_share": len(group) / total, **row})
    return _finish(pd.DataFrame(rows))[_columns(hands, SUMMARY_COLUMNS)]


def by_position(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> pd.DataFrame:
    """Per position relative to the leader (R18) x contract x trump rule, all shapes."""
    hands = _with_derived(hands)
    rows = []
    for position in range(4):
        group = hands[hands["position"] == position]
        if len(group) == 0:
            continue
        for row in _contract_rows(group, pool, has_real_play(hands)):
            rows.append({"position": position, "position_name": POSITION_NAMES[position], **row})
    frame = _finish(pd.DataFrame(rows))
    frame["position"] = frame["position"].astype(np.int8)
    return frame[_columns(hands, ["position", "position_name"] + [
        c for c in SUMMARY_COLUMNS if c not in ("shape", "shape_share")])]


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
    fixed bins, for all positions together and for each position relative to the leader;
    with real play, the real rates beside them (`real_lm_*`, `real_gm_*`)."""
    hands = _with_derived(hands)
    verdicts = {"lm": hands["little_misere"].to_numpy(), "gm": hands["grand_misere"].to_numpy()}
    if has_real_play(hands):
        verdicts.update(real_lm=hands[REAL_MISERE_COLUMNS["LM"]].to_numpy(),
                        real_gm=hands[REAL_MISERE_COLUMNS["GM"]].to_numpy())
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
                    **{f"{kind}_made": int(made[sel].sum()) for kind, made in verdicts.items()},
                })
    frame = pd.DataFrame(rows)
    for kind in verdicts:
        hands_ = frame["hands"].where(frame["hands"] > 0)
        frame[f"{kind}_rate"] = frame[f"{kind}_made"] / hands_
        frame[f"{kind}_ci_low"], frame[f"{kind}_ci_high"] = wilson_interval(
            frame[f"{kind}_made"], hands_)
    frame["bin"] = frame["bin"].astype(np.int8)
    return frame[_feature_columns(list(verdicts))]


def _feature_columns(kinds: list) -> list:
    """misere_features' columns: bin and counts, then each kind's made count and rates."""
    head = ["feature", "bin", "bin_label", "position", "hands"]
    return head + [f"{k}_made" for k in kinds] + [
        f"{k}_{stat}" for k in kinds for stat in ("rate", "ci_low", "ci_high")]


def shape_pass_values(hands: pd.DataFrame, table=None) -> dict:
    """Per shape (and "all"), the mean pass value of its hands: what a hand that passes
    gains on average, by its position and high-card points (analyser.pass_value, measured
    in simulated sessions; `table` a PassValueTable, default the shipped one)."""
    from analyser import pass_value

    table = table or pass_value.default_table()
    hands = _with_derived(hands)
    values = pd.Series(table.values(hands["position"], hands["hcp"]), index=hands.index)
    return {shape: float(sum(values[group.index], Fraction(0)) / len(group))
            for shape, group in _shape_groups(hands)}


def best_bids(summary_table: pd.DataFrame, pass_values: dict | None = None) -> pd.DataFrame:
    """Per shape, the contract with the highest expected value including the pool term.

    `best_bid` chooses among the numeric contracts in the natural trump, LM and GM (what a
    declarer can choose from its own hand); `best_bid_upper` also admits the double-dummy
    best trump and the spreads, whose double-dummy verdicts are upper bounds. `advice` is
    "pass" when passing is worth more than the best bid: its `pass_value`, the shape's mean
    from `pass_values` (shape_pass_values), or 0 when none is given.
    """
    rows = []
    for shape, group in summary_table.groupby("shape", sort=False):
        real = group[(group["trump"] == NATURAL) | group["contract"].isin(["LM", "GM"])]
        best = real.loc[real["ev_total"].idxmax()]
        upper = group.loc[group["ev_total"].idxmax()]
        passing = (pass_values or {}).get(shape, 0.0)
        rows.append({
            "shape": shape,
            "hands": int(group["hands"].iloc[0]),
            "shape_share": float(group["shape_share"].iloc[0]),
            "best_bid": best["contract"],
            "best_trump": best["trump"],
            "best_ev_total": float(best["ev_total"]),
            "best_made_rate": float(best["made_rate"]),
            "pass_value": passing,
            "advice": best["contract"] if best["ev_total"] > passing else "pass",
            "best_bid_upper": upper["contract"],
            "best_trump_upper": upper["trump"],
            "best_ev_upper": float(upper["ev_total"]),
        })
    frame = pd.DataFrame(rows)
    frame["hands"] = frame["hands"].astype(np.int64)
    return frame


REAL_KINDS = ("numbers",) + MISERE_CONTRACTS  # contract kinds of the real_vs_dd table
REAL_VS_DD_COLUMNS = [
    "shape", "kind", "hands", "dd_made", "dd_made_rate", "dd_made_ci_low", "dd_made_ci_high",
    "real_made", "real_made_rate", "real_made_ci_low", "real_made_ci_high",
    "dd_ev_total", "real_ev_total", "dd_ev_total_exact", "real_ev_total_exact",
]


def _level_mean(levels: np.ndarray, tricks: np.ndarray, pool: int) -> tuple[int, Fraction]:
    """(hands made, exact mean result) of numbers played each at its own level."""
    made, total = 0, Fraction(0)
    for level in np.unique(levels):
        at = levels == level
        ev = payments.expected_payment(str(level), tricks=tricks[at], pool=pool)
        made += ev.made
        total += ev.total * ev.deals
    return made, total / len(levels)


def real_vs_dd(hands: pd.DataFrame, pool: int = DEFAULT_POOL) -> pd.DataFrame:
    """Per shape (most frequent first, then "all") and contract kind: how often the
    declarer makes it double-dummy and under real play on the same hands, with 95% Wilson
    intervals, and the exact mean result of each (R24-R30). Kind "numbers" plays every
    hand at its own level n = clamp(double-dummy tricks in the natural trump, 5, 13), so
    double-dummy makes it except where it makes fewer than 5; LM, GM, LS and GS are over
    every hand. Needs a real run's hands (has_real_play)."""
    hands = _with_derived(hands)
    rows = []
    for shape, group in _shape_groups(hands):
        levels = group["real_level"].to_numpy()
        for kind in REAL_KINDS:
            row = {"shape": shape, "kind": kind, "hands": len(group)}
            if kind == "numbers":
                outcomes = {"dd": group["tricks_natural"].to_numpy(),
                            "real": group["real_tricks"].to_numpy()}
                for side, tricks in outcomes.items():
                    row[f"{side}_made"], mean = _level_mean(levels, tricks, pool)
                    row[f"{side}_ev_total_exact"] = mean
            else:
                outcomes = {"dd": group[MISERE_VERDICT[kind]].to_numpy(dtype=bool),
                            "real": group[REAL_MISERE_COLUMNS[kind]].to_numpy(dtype=bool)}
                for side, made in outcomes.items():
                    ev = payments.expected_payment(kind, made=made, pool=pool)
                    row[f"{side}_made"], row[f"{side}_ev_total_exact"] = ev.made, ev.total
            for side in ("dd", "real"):
                row[f"{side}_ev_total"] = float(row[f"{side}_ev_total_exact"])
                row[f"{side}_ev_total_exact"] = str(row[f"{side}_ev_total_exact"])
            rows.append(row)
    frame = pd.DataFrame(rows)
    for side in ("dd", "real"):
        _rates(frame, "hands", f"{side}_made", f"{side}_made")
    for col in ("hands", "dd_made", "real_made"):
        frame[col] = frame[col].astype(np.int64)
    return frame[REAL_VS_DD_COLUMNS]


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
    best_bids, and real_vs_dd for a real run's hands (the shape-frequency table comes from
    analyser/shapes.py)."""
    hands = add_derived_columns(hands)
    table = summary(hands, pool)
    tables = {
        "summary": table,
        "by_position": by_position(hands, pool),
        "misere_features": misere_features(hands),
        "best_bids": best_bids(table, shape_pass_values(hands)),
    }
    if has_real_play(hands):
        tables["real_vs_dd"] = real_vs_dd(hands, pool)
    return tables


__all__ = [
    "LADDER", "add_derived_columns", "summary", "by_position",
    "misere_features", "best_bids", "misere_breakeven", "aggregate", "shape_order",
    "has_real_play", "real_vs_dd",
]
