"""Aggregation of stored hands into per-shape, per-position and misère-feature tables."""

from fractions import Fraction

import numpy as np
import pandas as pd

from analyser import aggregate, payments
from analyser.contracts import LADDER, NUMERIC_CONTRACTS


def hands_frame(rows):
    """A minimal hands table from dicts giving shape, position, tricks (4), natural trump
    and the misère verdicts; other feature columns get fixed values."""
    records = []
    for i, r in enumerate(rows):
        records.append({
            "chunk": 0, "deal_id": i // 4, "seat": i % 4, "position": r.get("position", i % 4),
            "shape": r["shape"], "len_s": 4, "len_h": 3, "len_d": 3, "len_c": 3,
            "aces": r.get("aces", 1), "hcp": r.get("hcp", 10),
            "misere_danger": r.get("danger", 30), "natural_trump": r["natural"],
            "tricks_s": r["tricks"][0], "tricks_h": r["tricks"][1],
            "tricks_d": r["tricks"][2], "tricks_c": r["tricks"][3],
            "grand_misere": r.get("gm", False), "little_misere": r.get("lm", False),
        })
    frame = pd.DataFrame(records)
    for c in ("tricks_s", "tricks_h", "tricks_d", "tricks_c", "natural_trump", "position"):
        frame[c] = frame[c].astype(np.int8)
    return frame


def random_hands(n, seed=0):
    rng = np.random.default_rng(seed)
    shapes = np.array(["4-4-3-2", "5-3-3-2", "6-4-2-1", "7-3-2-1"])
    rows = []
    for i in range(n):
        base = rng.integers(0, 8)
        tricks = np.clip(base + rng.integers(-2, 6, size=4), 0, 13)
        lm = bool(rng.random() < 0.3)
        rows.append({"shape": shapes[rng.integers(0, 4)], "tricks": tricks.tolist(),
                     "natural": int(rng.integers(0, 4)), "lm": lm,
                     "gm": lm and bool(rng.random() < 0.5), "danger": int(rng.integers(0, 60)),
                     "hcp": int(rng.integers(0, 25)), "position": i % 4})
    return hands_frame(rows)


def test_summary_counts_and_payments_by_hand():
    # Two hands of one shape: natural trump hearts with 8 and 6 tricks; best trump 9 and 7.
    hands = hands_frame([
        {"shape": "5-3-3-2", "tricks": [9, 8, 0, 0], "natural": 1, "lm": True, "gm": False},
        {"shape": "5-3-3-2", "tricks": [1, 6, 7, 0], "natural": 1, "lm": False, "gm": False},
    ])
    table = aggregate.summary(hands, pool=40)
    row = table[(table["shape"] == "5-3-3-2") & (table["contract"] == "8")
                & (table["trump"] == "natural")].iloc[0]
    assert row["hands"] == 2 and row["made"] == 1 and row["made_rate"] == 0.5
    assert row["mean_undertricks"] == 2.0  # 6 tricks at 8
    expected = payments.expected_payment("8", tricks=np.array([8, 6]), pool=40)
    assert Fraction(row["ev_total_exact"]) == expected.total  # payments + pool (R24, R28, R29)
    assert Fraction(row["ev_per_opponent_exact"]) == expected.per_opponent
    assert row["ev_payments"] == float(3 * expected.per_opponent)  # R24: from 3 opponents
    assert row["ev_total"] == float(expected.payments + expected.pool_term)
    assert row["ev_total"] == row["ev_payments"] + row["pool_term"]
    best = table[(table["shape"] == "5-3-3-2") & (table["contract"] == "8")
                 & (table["trump"] == "dd-best")].iloc[0]
    assert best["made"] == 1  # 9 and 7 best tricks
    lm = table[(table["shape"] == "5-3-3-2") & (table["contract"] == "LM")].iloc[0]
    ls = table[(table["shape"] == "5-3-3-2") & (table["contract"] == "LS")].iloc[0]
    assert lm["made"] == ls["made"] == 1 and lm["trump"] == "none"
    assert np.isnan(lm["mean_undertricks"])
    assert ls["ev_per_opponent"] == float(payments.expected_payment(
        "LS", made=np.array([True, False])).per_opponent)


def test_summary_columns_types_and_shapes_with_all_row():
    hands = random_hands(400)
    table = aggregate.summary(hands)
    for col in ("shape", "contract", "hands", "made_rate", "made_ci_low", "made_ci_high",
                "ev_payments", "pool_term", "ev_total", "ev_total_exact"):
        assert col in table.columns
    assert "ev_with_pool" not in table.columns and "ev_with_pool_exact" not in table.columns
    assert np.allclose(table["ev_total"], table["ev_payments"] + table["pool_term"])
    assert table["hands"].dtype == np.int64
    assert table["made_rate"].dtype == np.float64
    shapes = list(table["shape"].drop_duplicates())
    assert shapes[-1] == "all"
    counts = hands["shape"].value_counts()
    assert shapes[:-1] == sorted(counts.index, key=lambda s: (-counts[s], s))
    # every shape has each ladder contract once as played (natural/none) and numbers as dd-best
    per_shape = table.groupby("shape").size()
    assert (per_shape == 2 * len(NUMERIC_CONTRACTS) + 4).all()
    assert set(table["contract"]) == set(LADDER)
    assert ((table["made_ci_low"] <= table["made_rate"])
            & (table["made_rate"] <= table["made_ci_high"])).all()
    all_rows = table[table["shape"] == "all"]
    assert (all_rows["hands"] == len(hands)).all()


def test_numeric_made_rates_do_not_increase_with_the_number():
    table = aggregate.summary(random_hands(300, seed=3))
    for (_, trump), group in table[table["trump"] != "none"].groupby(["shape", "trump"]):
        rates = group.set_index("contract").loc[list(NUMERIC_CONTRACTS), "made_rate"]
        assert (np.diff(rates.to_numpy()) <= 0).all(), trump


def test_dd_best_trump_is_an_upper_bound_on_the_natural_trump():
    table = aggregate.summary(random_hands(300, seed=4))
    natural = table[table["trump"] == "natural"].set_index(["shape", "contract"])["made"]
    best = table[table["trump"] == "dd-best"].set_index(["shape", "contract"])["made"]
    assert (best >= natural).all()


def test_by_position_splits_the_hands_by_position_relative_to_the_leader():
    hands = random_hands(200, seed=5)
    table = aggregate.by_position(hands)
    assert set(table["position"]) == {0, 1, 2, 3}
    assert dict(zip(table["position"], table["position_name"], strict=True))[0] == "leader"
    lm = table[table["contract"] == "LM"].set_index("position")
    for p in range(4):
        sel = hands["position"] == p
        assert lm.loc[p, "hands"] == sel.sum()
        assert lm.loc[p, "made"] == hands.loc[sel, "little_misere"].sum()


def test_misere_features_bins_count_every_hand_once():
    hands = random_hands(500, seed=6)
    table = aggregate.misere_features(hands)
    assert {"misere_danger", "hcp"} <= set(table["feature"])
    for feature, group in table[table["position"] == "all"].groupby("feature"):
        assert group["hands"].sum() == len(hands), feature
        assert group["lm_made"].sum() == hands["little_misere"].sum()
    danger = table[(table["feature"] == "misere_danger") & (table["position"] == "all")]
    first = danger[danger["bin"] == 0].iloc[0]
    sel = hands["misere_danger"] < 10
    assert first["bin_label"] == "0-9" and first["hands"] == sel.sum()
    assert first["lm_made"] == hands.loc[sel, "little_misere"].sum()
    assert danger.iloc[-1]["bin_label"] == "50+"
    per_position = table[(table["feature"] == "hcp") & (table["position"] != "all")]
    assert per_position["hands"].sum() == len(hands)


def test_best_bid_is_the_highest_expected_result_among_real_choices():
    table = aggregate.summary(random_hands(400, seed=7))
    best = aggregate.best_bids(table)
    assert list(best["shape"]) == list(table["shape"].drop_duplicates())
    for row in best.itertuples(index=False):
        group = table[table["shape"] == row.shape]
        real = group[(group["trump"] == "natural") | group["contract"].isin(["LM", "GM"])]
        assert row.best_ev_total == real["ev_total"].max()
        assert row.best_ev_upper == group["ev_total"].max()
        assert row.best_ev_upper >= row.best_ev_total
        assert row.advice == (row.best_bid if row.best_ev_total > 0 else "pass")


def test_r25_misere_breakeven_is_one_half_with_any_pool():
    # Made and failed misères move the same amounts (R25) and the same pool (R28, R29).
    for pool in (0, 40, 250):
        assert aggregate.misere_breakeven(pool) == {c: 0.5 for c in ("LM", "GM", "LS", "GS")}


def test_aggregate_is_deterministic_and_independent_of_row_order_within_shapes():
    hands = random_hands(300, seed=8)
    first = aggregate.aggregate(hands)
    shuffled = hands.sample(frac=1.0, random_state=1).reset_index(drop=True)
    second = aggregate.aggregate(shuffled)
    for name in first:
        pd.testing.assert_frame_equal(first[name], second[name])
