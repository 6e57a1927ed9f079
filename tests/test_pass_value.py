"""Pass values (analyser/pass_value.py): what a seat that does not declare wins or loses,
measured on stored sessions and checked against the Ledger's rules (R7, R8, R24-R31)."""

import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from session_strategies import Passer

from analyser import pass_value, payments, store
from analyser.cli import main
from analyser.constants import MAX_POOL
from analyser.errors import UserError
from analyser.session import HANDS, SEAT_COLUMNS, SessionConfig, read_rows

ARGS = ["session", "--sessions", "8", "--seed", "5", "--strategy", "standard",
        "--strategy", "bold", "--chunk", "4", "--jobs", "1"]


@pytest.fixture(scope="module")
def session_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("pv") / "sessions"
    assert main([*ARGS, "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def rows(session_dir):
    return read_rows(session_dir, SessionConfig.from_dict(store.load_config(session_dir)))


@pytest.fixture(scope="module")
def changes(rows):
    return pass_value.seat_changes(rows)


def _naive_changes(rows):
    """(session, rotation, hand, seat) -> change of balance, straight from the balances:
    990 before hand 1 (R7), hand 12 less a quarter of the end split (R31)."""
    out = {}
    for (session, rotation), group in rows.groupby(["session", "rotation"]):
        before = [Fraction(990)] * 4
        for row in group.sort_values("hand").itertuples():
            after = [Fraction(getattr(row, f"balance_{s}")) for s in SEAT_COLUMNS]
            if row.hand == HANDS:
                after = [b - Fraction(int(row.pool_split), 4) for b in after]
            for seat in range(4):
                out[session, rotation, row.hand, seat] = after[seat] - before[seat]
            before = after
    return out


def test_each_hands_changes_and_the_pools_flow_sum_to_zero_r8(changes):
    seats, pools = changes
    per_hand = seats.groupby(["deal_id", "hand"], sort=False)["change"].apply(
        lambda c: sum(c, Fraction(0)))
    flows = pools.groupby(["deal_id", "hand"], sort=False)["change"].apply(
        lambda c: sum(c, Fraction(0)))
    assert len(per_hand) == len(flows) > 0
    assert (per_hand + flows.loc[per_hand.index] == 0).all()


def test_the_declarers_change_is_the_single_hand_value_r24_r30(rows, changes):
    """Every declared hand of the sessions: the declarer's change of balance equals
    payments.outcome_value at the pools before the hand (active pool and what lies behind
    it, R30), so the EV tables of `hand` and `run` count what the Ledger pays."""
    seats, _ = changes
    declarers = seats[seats["role"] == "declarer"]
    pools_before = {}
    for _, group in rows.groupby(["session", "rotation"]):
        total = Fraction(40)  # R7
        for row in group.sort_values("hand").itertuples():
            pools_before[row.deal_id, row.rotation] = total
            total = Fraction(int(row.pool_full) * MAX_POOL + int(row.pool_partial))
    ordered = rows.sort_values(["session", "rotation", "hand"], kind="stable")
    played = ordered[ordered["declarer"] >= 0]
    assert len(played) == len(declarers) > 10
    for row, change in zip(played.itertuples(), declarers["change"], strict=True):
        total = pools_before[row.deal_id, row.rotation]
        active = min(total, MAX_POOL)
        outcome = ({"tricks": int(row.tricks)} if row.contract not in ("LM", "GM", "LS", "GS")
                   else {"made": bool(row.made)})
        value = payments.outcome_value(row.contract, pool=active, other_pools=total - active,
                                       defenders_concede=bool(row.conceded), **outcome)
        assert value == change, (row.deal_id, row.contract)


def test_changes_match_the_stored_balances_and_positions_r18(rows, changes):
    seats, _ = changes
    naive = _naive_changes(rows)
    ordered = rows.sort_values(["session", "rotation", "hand"], kind="stable")
    keys = [(r.session, r.rotation, r.hand, s) for r in ordered.itertuples() for s in range(4)]
    assert list(seats["change"]) == [naive[k] for k in keys]
    dealers = np.repeat(ordered["dealer"].to_numpy(), 4)
    # position 0 is the dealer's left, who leads (R18); 3 is the dealer
    assert ((seats["seat"] - dealers - 1) % 4 == seats["position"]).all()
    assert set(seats.loc[seats["position"] == 3, "seat"]) <= set(range(4))
    assert (seats.loc[(seats["seat"].to_numpy() == dealers), "position"] == 3).all()


def test_table_means_are_the_exact_means_of_the_cells(session_dir, rows, changes):
    table = pass_value.pass_values(session_dir)
    seats, pools = changes
    passing = seats[seats["role"] != "declarer"]
    for position in range(4):
        cell = table[(table["scope"] == "pass") & (table["feature"] == "all")
                     & (table["position"] == position)].iloc[0]
        mine = list(passing.loc[passing["position"] == position, "change"])
        assert Fraction(cell["mean_exact"]) == sum(mine, Fraction(0)) / len(mine)
        assert cell["hands"] == len(mine) and cell["mean"] == pytest.approx(float(
            Fraction(cell["mean_exact"])))
    flow = table[table["scope"] == "pool"].iloc[0]
    assert Fraction(flow["mean_exact"]) == sum(pools["change"], Fraction(0)) / len(pools)
    assert flow["hands"] == len(rows)
    # the feature bins split each position's seat-hands without loss, mean for mean
    for feature in pass_value.FEATURES:
        bins = table[(table["scope"] == "pass") & (table["feature"] == feature)]
        for position in (-1, 0, 1, 2, 3):
            at = bins[(bins["position"] == position) & (bins["hands"] > 0)]
            whole = table[(table["scope"] == "pass") & (table["feature"] == "all")
                          & (table["position"] == position)].iloc[0]
            assert at["hands"].sum() == whole["hands"]
            total = sum((Fraction(m) * h for m, h in zip(at["mean_exact"], at["hands"],
                                                         strict=True)), Fraction(0))
            assert total / whole["hands"] == Fraction(whole["mean_exact"])


def test_hand_features_come_from_the_replayed_deals(session_dir, rows):
    """The deals dealt again from the seed hold 13 cards per seat, 52 in all (R5), and
    their hcp match features.hand_features."""
    from analyser.features import hand_features

    config = SessionConfig.from_dict(store.load_config(session_dir))
    deals = pass_value.replay_deals(config, rows)
    assert len(deals) == config.sessions * HANDS
    for deal in deals.values():
        assert [int(m).bit_count() for m in deal] == [13] * 4
        assert int(np.bitwise_or.reduce(deal)) == (1 << 52) - 1
    some = next(iter(deals.values()))
    assert list(hand_features(some)["hcp"]) == list(
        pass_value.high_card_points(pass_value.honour_counts(some)))


def test_a_changed_seed_is_caught_when_dealing_again(session_dir, rows):
    config = SessionConfig.from_dict({**store.load_config(session_dir), "seed": 6})
    with pytest.raises(UserError, match="do not follow from the run's seed"):
        pass_value.replay_deals(config, rows)


def test_all_passers_partout_is_zero_sum_and_leaves_the_pools_r14_r26(tmp_path):
    from analyser.session_store import run_sessions

    config = SessionConfig(sessions=3, seed=9, strategies=("passer",), chunk=3)
    run_sessions(tmp_path / "p", config, [Passer()], jobs=1)
    table = pass_value.pass_values(tmp_path / "p")
    partout = table[table["scope"] == "partout"].set_index("position")
    passing = table[(table["scope"] == "pass") & (table["feature"] == "all")].set_index(
        "position")
    assert partout.loc[-1, "hands"] == 3 * HANDS * 4
    assert Fraction(partout.loc[-1, "mean_exact"]) == 0  # R26: what leaders pay, others get
    assert (partout["mean_exact"] == passing["mean_exact"]).all()  # nobody declares
    assert Fraction(table[table["scope"] == "pool"]["mean_exact"].iloc[0]) == 0  # R26


def test_cut_only_sessions_have_positions_but_no_feature_rows(tmp_path):
    out = tmp_path / "cut"
    assert main(["session", "--sessions", "2", "--seed", "3", "--strategy", "standard",
                 "--deal-model", "cut-only", "--jobs", "1", "--out", str(out)]) == 0
    table = pass_value.pass_values(out)
    assert set(table["feature"]) == {"all"}
    assert len(table[table["scope"] == "pass"]) == 5


def _synthetic(hcp_hands):
    rows = [{"scope": "pass", "feature": "all", "position": 1, "bin": -1, "bin_label": "all",
             "hands": 500, "mean": -2.0, "stderr": 1.0, "mean_exact": "-2"},
            {"scope": "pass", "feature": "hcp", "position": 1, "bin": 4,
             "bin_label": "12-14", "hands": hcp_hands, "mean": -20 / 3, "stderr": 3.0,
             "mean_exact": "-20/3"}]
    return pass_value.from_json({"format": 1, "source": {}, "rows": rows}, "t.json")


def test_lookup_uses_the_hcp_cell_when_it_is_large_enough():
    three_aces = sum(1 << (13 * s + 12) for s in range(3))  # 12 hcp: the bin 12-14
    value = _synthetic(pass_value.MIN_HANDS).lookup(1, three_aces)
    assert value.value == Fraction(-20, 3) and value.basis() == "position 1, hcp 12-14"
    fallback = _synthetic(pass_value.MIN_HANDS - 1).lookup(1, three_aces)
    assert fallback.value == -2 and fallback.basis() == "position 1"
    with pytest.raises(UserError, match="no pass value for position 2"):
        _synthetic(40).lookup(2, three_aces)


def test_the_file_round_trips_and_bad_files_are_one_line(session_dir, tmp_path, capsys):
    out = tmp_path / "pv.json"
    assert pass_value.main([str(session_dir), "--out", str(out)]) == 0
    loaded = pass_value.load(out)
    direct = pass_value.pass_values(session_dir)
    pd.testing.assert_frame_equal(
        loaded.table.drop(columns=["mean", "stderr"]),
        direct.drop(columns=["mean", "stderr"]).astype(
            {"position": "int64", "bin": "int64"}))
    assert loaded.source["commands"][0].startswith("boston-analyser session --sessions 8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1, "rows": [{"scope": "pass"}]}))
    with pytest.raises(UserError, match="bad.json: rows must each hold"):
        pass_value.load(bad)
    assert pass_value.main([str(tmp_path / "none")]) == 2
    assert "holds no run.json" in capsys.readouterr().err


def test_the_shipped_table_has_every_position_and_states_its_source():
    table = pass_value.default_table()
    passing = table.table[(table.table["scope"] == "pass") & (table.table["feature"] == "all")]
    assert sorted(passing["position"]) == [-1, 0, 1, 2, 3]
    assert (passing["hands"] > 1000).all()
    assert table.source["commands"][0].startswith("boston-analyser session ")
    assert "python -m analyser.pass_value" in table.source["commands"][1]
    assert "sessions of standard" in table.describe()
