"""Aggregation of stored hands into per-shape, per-position and misère-feature tables."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from analyser import aggregate, payments
from analyser.contracts import LADDER, NUMERIC_CONTRACTS
from analyser.stats import wilson_interval


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


def test_best_bid_advice_weighs_the_pass_value_r26():
    """'pass' when passing (another player declares, or partout, R26) is worth more than the
    best bid: the shape's pass value is the mean of its hands' values by position and hcp
    (analyser.pass_value's shipped table), exactly as `lookup` gives them one by one."""
    from analyser import pass_value

    hands = aggregate.add_derived_columns(random_hands(200, seed=9))
    values = aggregate.shape_pass_values(hands)
    cells = pass_value.default_table().table
    cells = cells[cells["scope"] == "pass"]

    def value(position, hcp):  # the position x hcp-bin cell, or the position's when thin
        edges = aggregate.FEATURE_BINS["hcp"]
        b = max(i for i in range(len(edges) - 1) if edges[i] <= hcp)
        cell = cells[(cells["feature"] == "hcp") & (cells["position"] == position)
                     & (cells["bin"] == b)]
        if cell.empty or cell["hands"].iloc[0] < pass_value.MIN_HANDS:
            cell = cells[(cells["feature"] == "all") & (cells["position"] == position)]
        return Fraction(cell["mean_exact"].iloc[0])

    one_by_one = [value(p, h) for p, h in zip(hands["position"], hands["hcp"], strict=True)]
    assert values["all"] == pytest.approx(float(sum(one_by_one, Fraction(0)) / len(hands)))
    summary_table = aggregate.summary(hands)
    best = aggregate.best_bids(summary_table, values)
    for row in best.itertuples(index=False):
        assert row.pass_value == values[row.shape]
        assert row.advice == (row.best_bid if row.best_ev_total > row.pass_value else "pass")
    # a pass value above every bid's result turns every advice into "pass"
    rich = aggregate.best_bids(summary_table, dict.fromkeys(values, 10_000.0))
    assert set(rich["advice"]) == {"pass"}


def test_r25_r30_misere_breakeven_with_the_reante():
    # Made and failed misères move the same amounts (R25) and the same pool (R28, R29), but
    # winning the only pool costs the re-ante of 10 (R30): break-even (3a + P) / (6a + 2P - 10)
    assert aggregate.misere_breakeven(0) == {c: 0.5 for c in ("LM", "GM", "LS", "GS")}
    for pool in (40, 250):
        assert aggregate.misere_breakeven(pool) == {
            c: float(Fraction(3 * a + pool, 6 * a + 2 * pool - 10))
            for c, a in (("LM", 20), ("GM", 40), ("LS", 80), ("GS", 160))}


def test_aggregate_is_deterministic_and_independent_of_row_order_within_shapes():
    hands = random_hands(300, seed=8)
    first = aggregate.aggregate(hands)
    shuffled = hands.sample(frac=1.0, random_state=1).reset_index(drop=True)
    second = aggregate.aggregate(shuffled)
    for name in first:
        pd.testing.assert_frame_equal(first[name], second[name])


# ---- real play (run --play real): real outcomes beside double-dummy on the same hands -----

def random_real_hands(n, seed=0):
    """`random_hands` with real-play columns as a real run stores them: the number played
    at the double-dummy level in the natural trump (5..13), its real tricks, and the real
    misère outcomes (a made misère leaves the declarer no trick, R15)."""
    hands = random_hands(n, seed)
    rng = np.random.default_rng(seed + 100)
    tricks = hands[["tricks_s", "tricks_h", "tricks_d", "tricks_c"]].to_numpy()
    natural = tricks[np.arange(n), hands["natural_trump"].to_numpy()]
    level = np.clip(natural, 5, 13)
    return hands.assign(
        real_lm=rng.random(n) < 0.25, real_gm=rng.random(n) < 0.1,
        real_ls=rng.random(n) < 0.15, real_gs=rng.random(n) < 0.05,
        real_level=level.astype(np.int8), real_trump=hands["natural_trump"],
        real_tricks=np.clip(level + rng.integers(-4, 2, n), 0, 13).astype(np.int8),
    )


def slow_mean(values):
    """The exact mean of a list of Fractions (None for no values)."""
    return sum(values, Fraction(0)) / len(values) if values else None


def test_real_summary_columns_match_a_slow_computation():
    hands = random_real_hands(240, seed=11)
    table = aggregate.summary(hands, pool=60)
    assert list(table.columns) == aggregate.SUMMARY_COLUMNS + aggregate.REAL_SUMMARY_COLUMNS
    natural = [int(r.tricks_s if r.natural_trump == 0 else r.tricks_h if r.natural_trump == 1
                   else r.tricks_d if r.natural_trump == 2 else r.tricks_c)
               for r in hands.itertuples()]
    hands = hands.assign(dd_natural=natural)
    for row in table.itertuples():
        group = hands if row.shape == "all" else hands[hands["shape"] == row.shape]
        if row.trump == "dd-best":
            assert row.real_hands == 0 and np.isnan(row.real_made_rate)
            continue
        if row.contract in ("LM", "GM", "LS", "GS"):
            played = group  # every hand plays each misère contract (R15, R16)
            verdict = {"LM": "little_misere", "GM": "grand_misere", "LS": "little_misere",
                       "GS": "grand_misere"}[row.contract]
            real = [bool(v) for v in played[f"real_{row.contract.lower()}"]]
            dd = [bool(v) for v in played[verdict]]
            key = "made"
            made_real, made_dd = sum(real), sum(dd)
        else:
            played = group[group["real_level"] == int(row.contract)]
            real = [int(v) for v in played["real_tricks"]]
            dd = [int(v) for v in played["dd_natural"]]
            key = "tricks"
            made_real = sum(t >= int(row.contract) for t in real)
            made_dd = sum(t >= int(row.contract) for t in dd)
            if real:
                assert row.real_mean_tricks == pytest.approx(np.mean(real))
                assert row.real_dd_mean_tricks == pytest.approx(np.mean(dd))
        assert row.real_hands == len(played), (row.shape, row.contract)
        if not len(played):
            assert np.isnan(row.real_made_rate) and np.isnan(row.real_ev_total)
            continue
        assert (row.real_made, row.real_dd_made) == (made_real, made_dd)
        assert row.real_made_rate == made_real / len(played)
        assert row.real_dd_made_rate == made_dd / len(played)
        assert (row.real_made_ci_low, row.real_made_ci_high) == pytest.approx(
            wilson_interval(made_real, len(played)))
        ev_real = slow_mean([payments.outcome_value(row.contract, pool=60, **{key: v})
                             for v in real])
        ev_dd = slow_mean([payments.outcome_value(row.contract, pool=60, **{key: v})
                           for v in dd])
        assert Fraction(row.real_ev_total_exact) == ev_real  # R24-R30, exact (R27)
        assert Fraction(row.real_dd_ev_total_exact) == ev_dd
        assert row.real_ev_total == float(ev_real)


def test_real_vs_dd_matches_a_slow_computation():
    hands = random_real_hands(200, seed=12)
    table = aggregate.real_vs_dd(hands, pool=40)
    assert list(table["kind"].drop_duplicates()) == ["numbers", "LM", "GM", "LS", "GS"]
    assert list(table["shape"].drop_duplicates()) == aggregate.shape_order(hands) + ["all"]
    derived = aggregate.add_derived_columns(hands)
    for row in table.itertuples():
        group = derived if row.shape == "all" else derived[derived["shape"] == row.shape]
        assert row.hands == len(group)
        outcomes = {}
        for side in ("dd", "real"):
            values = []
            made = 0
            for r in group.itertuples():
                if row.kind == "numbers":  # each hand at its own level
                    t = int(r.tricks_natural if side == "dd" else r.real_tricks)
                    made += t >= r.real_level
                    values.append(payments.outcome_value(str(r.real_level), tricks=t, pool=40))
                else:
                    column = (f"real_{row.kind.lower()}" if side == "real" else
                              "little_misere" if row.kind in ("LM", "LS") else "grand_misere")
                    m = bool(getattr(r, column))
                    made += m
                    values.append(payments.outcome_value(row.kind, made=m, pool=40))
            outcomes[side] = (made, slow_mean(values))
        assert (row.dd_made, row.real_made) == (outcomes["dd"][0], outcomes["real"][0])
        assert Fraction(row.dd_ev_total_exact) == outcomes["dd"][1]
        assert Fraction(row.real_ev_total_exact) == outcomes["real"][1]
        assert row.real_made_rate == row.real_made / row.hands
        assert (row.dd_made_ci_low, row.dd_made_ci_high) == pytest.approx(
            wilson_interval(row.dd_made, row.hands))
    # numbers: double-dummy makes its own level on every hand with at least 5 tricks
    numbers = table[(table["kind"] == "numbers") & (table["shape"] == "all")].iloc[0]
    assert numbers.dd_made == (derived["tricks_natural"] >= 5).sum()


def test_real_misere_features_count_real_outcomes_per_bin():
    hands = random_real_hands(300, seed=13)
    table = aggregate.misere_features(hands)
    danger = table[(table["feature"] == "misere_danger") & (table["position"] == "all")]
    bins = np.digitize(hands["misere_danger"], aggregate.FEATURE_BINS["misere_danger"][1:-1])
    for row in danger.itertuples():
        sel = bins == row.bin
        assert row.real_lm_made == hands.loc[sel, "real_lm"].sum()
        assert row.real_gm_made == hands.loc[sel, "real_gm"].sum()
        assert row.lm_made == hands.loc[sel, "little_misere"].sum()
        if row.hands:
            assert row.real_lm_rate == row.real_lm_made / row.hands


def test_tables_of_hands_without_real_play_have_no_real_columns():
    tables = aggregate.aggregate(random_hands(100, seed=14))
    assert "real_vs_dd" not in tables
    for name, frame in tables.items():
        assert not [c for c in frame.columns if c.startswith("real_")], name
    real = aggregate.aggregate(random_real_hands(100, seed=14))
    assert set(real) == set(tables) | {"real_vs_dd"}
    # the double-dummy columns are the same whether or not the hands were played for real
    for name, frame in tables.items():
        pd.testing.assert_frame_equal(real[name][frame.columns], frame, obj=name)
