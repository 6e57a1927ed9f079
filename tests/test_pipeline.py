"""The run pipeline: chunk seeding, stored rows, determinism across jobs, resume, CLI.

Unit tests inject a small deterministic stand-in for the solver (`fake_solve`, a function
of the deal only) to check storage, resume and aggregation quickly; the end-to-end tests
at the bottom run the real dealing and double-dummy kernels through the CLI.
"""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import sized

from analyser import features, pipeline, store
from analyser.cards import format_hand
from analyser.cli import main
from analyser.contracts import NUMERIC_CONTRACTS
from analyser.errors import UserError
from kernels.dealing import deal_batch
from kernels.rng import root_key

ROOT = Path(__file__).resolve().parent.parent


def kernel_deal(n, seed):
    """The dealing kernel itself (what analyser.dealing.deal_random wraps)."""
    return deal_batch(root_key(seed), n)


def fake_solve(deals, leader):
    """A deterministic stand-in for the solver: a function of each deal and the leader."""
    n = deals.shape[0]
    flat = deals.reshape(-1)
    lengths = features.suit_lengths(flat).reshape(n, 4, 4).astype(np.int64)
    aces = features.honour_counts(flat)["aces"].reshape(n, 4, 1).astype(np.int64)
    lead_bonus = (np.arange(4) == leader).reshape(1, 4, 1)
    tricks = np.minimum(13, lengths + aces + lead_bonus).astype(np.int8)
    danger = features.misere_danger(flat).reshape(n, 4)
    misere = np.stack([danger < 20, danger < 26], axis=2)
    return tricks, misere


def run_fake(out, jobs=1, deals=60, chunk=8, seed=11, **kw):
    config = pipeline.RunConfig(deals=deals, seed=seed, chunk=chunk, **kw)
    return config, pipeline.run_analysis(out, config, jobs=jobs, deal=kernel_deal,
                                         solve=fake_solve)


def table_names(out):
    """The result tables of the run in `out`: a real run has the real-play ones too."""
    real = store.load_config(out).get("play") == "real"
    return store.TABLE_NAMES + (store.REAL_TABLE_NAMES if real else ())


def read_results(out):
    return {name: store.read_table(out, name) for name in table_names(out)}


def assert_same_results(a, b):
    pd.testing.assert_frame_equal(store.read_hands(a), store.read_hands(b))
    ra, rb = read_results(a), read_results(b)
    assert list(ra) == list(rb)
    for name in ra:
        pd.testing.assert_frame_equal(ra[name], rb[name], obj=name)
        assert (a / f"{name}.csv").read_bytes() == (b / f"{name}.csv").read_bytes(), name


def test_chunk_streams_depend_on_seed_and_chunk_only():
    seed_a, rng_a = pipeline.chunk_streams(7, 3)
    seed_b, rng_b = pipeline.chunk_streams(7, 3)
    assert seed_a == seed_b and 0 <= seed_a < 2**63
    assert rng_a.integers(0, 52, 20).tolist() == rng_b.integers(0, 52, 20).tolist()
    others = {pipeline.chunk_streams(7, c)[0] for c in range(20)}
    others |= {pipeline.chunk_streams(8, c)[0] for c in range(20)}
    assert len(others) == 40


def test_config_rejects_bad_values_with_one_line():
    for kwargs, word in [({"deals": 0}, "deals"), ({"deals": 5, "seed": -1}, "seed"),
                         ({"deals": 5, "seed": 2**63}, "seed"),
                         ({"deals": 5, "chunk": 0}, "chunk"),
                         ({"deals": 5, "pool": -1}, "pool"), ({"deals": 5, "pool": 251}, "pool"),
                         ({"deals": 2.0}, "deals"),
                         ({"deals": 5, "dealer": 4}, "dealer"),
                         ({"deals": 5, "deal_model": "nonsense"}, "deal_model"),
                         ({"deals": 5, "deal_model": "cut-only"}, "deal_model"),
                         ({"deals": 5, "defender_discard": "lowest"}, "defender_discard"),
                         ({"deals": 5, "format": 0}, "format")]:
        kwargs.setdefault("seed", 1)
        with pytest.raises(UserError, match=word) as err:
            pipeline.RunConfig(**kwargs)
        assert "\n" not in str(err.value)


def test_config_from_run_json_names_an_unknown_or_missing_setting():
    with pytest.raises(UserError, match="unknown run setting 'colour'"):
        pipeline.RunConfig.from_dict({"deals": 5, "seed": 1, "colour": "red"})
    with pytest.raises(UserError, match="'seed' is missing"):
        pipeline.RunConfig.from_dict({"deals": 5})
    config = pipeline.RunConfig(deals=5, seed=1)
    assert pipeline.RunConfig.from_dict(config.as_dict()) == config


def test_config_stores_numpy_integers_as_plain_ints():
    config = pipeline.RunConfig(deals=np.int64(5), seed=np.uint32(7), chunk=np.int16(2),
                                pool=np.int64(80))
    assert config == pipeline.RunConfig(deals=5, seed=7, chunk=2, pool=80)
    assert all(type(v) is int for k, v in config.as_dict().items()
               if k not in ("defender_discard", "deal_model"))


def test_r17_the_configured_defender_discard_reaches_the_solver(tmp_path, monkeypatch):
    seen = []

    def recording_solve(deals, leader, defender_discard):
        seen.append(defender_discard)
        return fake_solve(deals, leader)

    monkeypatch.setattr(pipeline, "real_solve", recording_solve)
    config = pipeline.RunConfig(deals=4, seed=1, chunk=4)
    store.open_run(tmp_path, config.as_dict())
    pipeline.solve_chunk(tmp_path, config, 0, deal=kernel_deal)
    assert seen == [config.defender_discard]


def test_chunks_cover_the_deals_exactly():
    config = pipeline.RunConfig(deals=23, seed=0, chunk=5)
    assert config.n_chunks == 5
    spans = [config.chunk_deals(c) for c in range(config.n_chunks)]
    assert spans == [(0, 5), (5, 5), (10, 5), (15, 5), (20, 3)]


def test_r18_rows_record_seat_position_and_solver_output():
    config = pipeline.RunConfig(deals=10, seed=3, chunk=4)
    frame, timing = pipeline.chunk_rows(config, 1, kernel_deal, fake_solve)
    assert set(timing) == {"deal", "solve", "rows"}
    deal_seed, turn_rng = pipeline.chunk_streams(3, 1)
    deals = kernel_deal(4, deal_seed)
    tricks, misere = fake_solve(deals, config.leader)
    assert len(frame) == 16
    assert frame["deal_id"].tolist() == np.repeat(np.arange(4, 8), 4).tolist()
    assert frame["seat"].tolist() == [0, 1, 2, 3] * 4
    assert config.leader == 0 and config.dealer == 3  # West deals, North leads (R18)
    assert frame["position"].tolist() == [0, 1, 2, 3] * 4
    assert frame["hand"].to_numpy().tolist() == deals.reshape(-1).tolist()
    assert frame["pbn"].tolist() == [format_hand(m) for m in deals.reshape(-1)]
    got = frame[["tricks_s", "tricks_h", "tricks_d", "tricks_c"]].to_numpy()
    assert (got == tricks.reshape(-1, 4)).all()
    assert (frame["grand_misere"].to_numpy() == misere[:, :, 0].reshape(-1)).all()
    assert (frame["little_misere"].to_numpy() == misere[:, :, 1].reshape(-1)).all()


def test_r6_preference_suits_come_from_the_turned_card():
    config = pipeline.RunConfig(deals=200, seed=9, chunk=200)
    frame, _ = pipeline.chunk_rows(config, 0, kernel_deal, fake_solve)
    _, turn_rng = pipeline.chunk_streams(9, 0)
    turned = turn_rng.integers(0, 52, size=200)
    assert frame["turned_card"].tolist() == np.repeat(turned, 4).tolist()
    assert (frame["first_preference"] == frame["turned_card"] // 13).all()
    # second preference: the other suit of the same colour, S<->C and H<->D
    pairs = set(zip(frame["first_preference"], frame["second_preference"], strict=True))
    assert pairs <= {(0, 3), (3, 0), (1, 2), (2, 1)}
    assert (frame.groupby("deal_id")["first_preference"].nunique() == 1).all()


def test_results_identical_for_any_jobs_and_chunk_schedule(tmp_path):
    run_fake(tmp_path / "j1", jobs=1)
    run_fake(tmp_path / "j2", jobs=2)
    assert_same_results(tmp_path / "j1", tmp_path / "j2")
    hands = store.read_hands(tmp_path / "j1")
    assert hands["deal_id"].tolist() == np.repeat(np.arange(60), 4).tolist()


def test_resume_after_lost_chunks_equals_an_uninterrupted_run(tmp_path):
    run_fake(tmp_path / "full")
    run_fake(tmp_path / "cut")
    parts = sorted((tmp_path / "cut" / "hands").glob("part-*.parquet"))
    for part in parts[1::2]:
        part.unlink()
    for name in store.TABLE_NAMES:
        (tmp_path / "cut" / f"{name}.parquet").unlink()
    (tmp_path / "cut" / "hands" / ".part-00001.parquet.x.tmp").write_bytes(b"half written")
    _, stats = run_fake(tmp_path / "cut")
    assert stats["chunks_resumed"] == len(parts) - len(parts[1::2])
    assert stats["chunks_solved_now"] == len(parts[1::2])
    assert_same_results(tmp_path / "full", tmp_path / "cut")


def test_ctrl_c_keeps_the_finished_chunks_and_a_rerun_completes_identically(tmp_path):
    run_fake(tmp_path / "full")
    calls = []

    def interrupted(deals, leader):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return fake_solve(deals, leader)

    config = pipeline.RunConfig(deals=60, seed=11, chunk=8)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run_analysis(tmp_path / "cut", config, deal=kernel_deal, solve=interrupted)
    assert store.done_chunks(tmp_path / "cut") == {0, 1, 2}
    assert not (tmp_path / "cut" / "summary.csv").exists()
    assert not list((tmp_path / "cut" / "hands").glob(".*"))
    _, stats = run_fake(tmp_path / "cut")
    assert stats["chunks_resumed"] == 3
    assert_same_results(tmp_path / "full", tmp_path / "cut")


def test_a_complete_run_solves_nothing_again(tmp_path):
    run_fake(tmp_path / "r")

    def refuse(deals, leader):
        raise AssertionError("solved again")

    config = pipeline.RunConfig(deals=60, seed=11, chunk=8)
    stats = pipeline.run_analysis(tmp_path / "r", config, deal=kernel_deal, solve=refuse)
    assert stats["chunks_solved_now"] == 0


def test_another_configuration_in_the_same_directory_is_refused(tmp_path):
    run_fake(tmp_path / "r")
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "r").rglob("*")}
    for other in ({"seed": 12}, {"chunk": 9}):
        with pytest.raises(UserError, match="another configuration"):
            run_fake(tmp_path / "r", **other)
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "r").rglob("*")} == before


def test_force_replaces_a_run_with_another_configuration(tmp_path):
    run_fake(tmp_path / "r")
    config = pipeline.RunConfig(deals=20, seed=11, chunk=8)
    store.open_run(tmp_path / "r", config.as_dict(), force=True)
    assert store.done_chunks(tmp_path / "r") == set()
    pipeline.run_analysis(tmp_path / "r", config, deal=kernel_deal, solve=fake_solve)
    assert len(store.read_hands(tmp_path / "r")) == 80


# ---- --play real: the real player's outcomes beside the double-dummy columns --------------
# A stand-in for the real player (`fake_play`, a function of its arguments and seed only)
# checks the plumbing quickly; `test_real_play_rows_are_the_real_players_playouts` runs
# the real player itself on one deal.

def fake_play(deal, declarer, contract, leader, trump, seed):
    """A deterministic stand-in for analyser.play.play_hand under "real": its outcome is
    drawn from `seed`, so any seed mix-up changes the stored rows."""
    rng = np.random.default_rng(seed)
    if contract in ("LM", "GM", "LS", "GS"):
        taken = int(rng.integers(0, 3))
        return {"made": taken == 0, "declarer_tricks": taken}
    assert 0 <= trump <= 3 and deal[declarer] and 0 <= leader <= 3
    taken = int(np.clip(int(contract) + rng.integers(-3, 2), 0, 13))
    return {"made": taken >= int(contract), "declarer_tricks": taken}


def run_fake_real(out, jobs=1, deals=12, chunk=4, seed=11, play=fake_play, **kw):
    config = pipeline.RunConfig(deals=deals, seed=seed, chunk=chunk, play="real", **kw)
    return config, pipeline.run_analysis(out, config, jobs=jobs, deal=kernel_deal,
                                         solve=fake_solve, play=play)


# SHA-256 of the files a dd run writes (fake solver, 20 deals, chunk 8, seed 11): the
# real-play columns and tables exist only in real runs, so these bytes must not move.
# best_bids.csv's pass_value column comes from the shipped analyser/data/pass_values.json:
# regenerating that table changes its digest, and only that.
DD_RUN_DIGESTS = {
    "best_bids.csv": "aa0c87ce514ca8569e0e6933e6250dab2933cbdab2ea532251f1af733192e380",
    "by_position.csv": "cbaa70cec86bbe591da5deb0afeef2b910f54136b37b983577dfe595324b683d",
    "misere_features.csv": "13d1f3501cc64c710dc5783bb6e3d3e93c2b0566be95803183a0c8c0e2fd5009",
    "run.json": "86e28e110626a0869684a72a6af2002800becf4e03f04bbdf9e3fb626dd5d289",
    "shape_frequencies.csv": "174491952add40c3c4a18aaf21ab21176c7f34537e62eabf8e4c61adb72701ce",
    "summary.csv": "8d057381bed231b3377b8c31fb769638f57cc177fbee298b8c59fb060a2438f2",
}


def test_a_dd_run_writes_the_same_bytes_whatever_real_play_adds(tmp_path):
    run_fake(tmp_path / "r", deals=20, chunk=8, seed=11)
    written = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
               for p in (tmp_path / "r").iterdir() if p.suffix in (".csv", ".json")
               and p.name != store.STATS_FILE}
    assert written == DD_RUN_DIGESTS
    hands = store.read_hands(tmp_path / "r")
    assert not [c for c in hands.columns if c.startswith("real_")]


def test_play_seeds_are_the_chunks_third_stream_and_all_differ():
    seeds = pipeline.play_seeds(7, 3, 5)
    assert seeds.shape == (5, 4, 5) and seeds.dtype == np.int64
    assert ((seeds >= 0) & (seeds < 2**62 * 2)).all()
    assert (seeds == pipeline.play_seeds(7, 3, 5)).all()
    # the chunk's third child beside the deal's and the turned cards' (chunk_streams)
    child = np.random.SeedSequence(7, spawn_key=(3,)).spawn(3)[2]
    words = child.generate_state(5 * 4 * 5 * 2, dtype=np.uint32).astype(np.int64)
    assert seeds.reshape(-1).tolist() == ((words[0::2] << 31) ^ words[1::2]).tolist()
    others = np.concatenate([pipeline.play_seeds(7, c, 5).reshape(-1) for c in range(4)]
                            + [pipeline.play_seeds(8, 3, 5).reshape(-1)])
    assert len(np.unique(others)) == len(others)


def test_config_play_is_checked_and_a_dd_run_json_has_no_play_key():
    with pytest.raises(UserError, match="play must be one of 'dd', 'real'"):
        pipeline.RunConfig(deals=4, seed=1, play="bridge")
    dd = pipeline.RunConfig(deals=4, seed=1)
    assert "play" not in dd.as_dict()
    real = pipeline.RunConfig(deals=4, seed=1, play="real")
    assert real.as_dict()["play"] == "real"
    for config in (dd, real):
        assert pipeline.RunConfig.from_dict(config.as_dict()) == config


def test_real_rows_hold_the_playouts_beside_unchanged_dd_columns(tmp_path):
    run_fake(tmp_path / "dd", deals=12, chunk=4)
    run_fake_real(tmp_path / "real")
    dd, real = store.read_hands(tmp_path / "dd"), store.read_hands(tmp_path / "real")
    assert list(real.columns) == list(dd.columns) + list(pipeline.REAL_COLUMNS)
    pd.testing.assert_frame_equal(real[dd.columns], dd)  # the same deals, solved the same
    for col in ("real_lm", "real_gm", "real_ls", "real_gs"):
        assert real[col].dtype == bool, col
    for col in ("real_level", "real_trump", "real_tricks"):
        assert real[col].dtype == np.int8, col
    # the number played: the natural trump at the double-dummy level, 5..13 (R10)
    assert (real["real_trump"] == real["natural_trump"]).all()
    tricks = real[["tricks_s", "tricks_h", "tricks_d", "tricks_c"]].to_numpy()
    natural = tricks[np.arange(len(real)), real["natural_trump"].to_numpy()]
    assert (real["real_level"] == np.clip(natural, 5, 13)).all()
    # every outcome is the playout with the seed of its chunk, deal, seat and contract
    for row in real.itertuples():
        first = 4 * row.chunk
        seeds = pipeline.play_seeds(11, row.chunk, 4)[row.deal_id - first, row.seat]
        deal = [int(h) for h in real["hand"][real["deal_id"] == row.deal_id]]
        for k, contract in enumerate(("LM", "GM", "LS", "GS")):
            expected = fake_play(deal, row.seat, contract, 0, None, int(seeds[k]))["made"]
            assert getattr(row, f"real_{contract.lower()}") == expected
        number = fake_play(deal, row.seat, str(row.real_level), 0, row.real_trump,
                           int(seeds[4]))
        assert row.real_tricks == number["declarer_tricks"]


def test_real_results_identical_for_any_jobs(tmp_path):
    run_fake_real(tmp_path / "j1", jobs=1)
    run_fake_real(tmp_path / "j2", jobs=2)
    assert_same_results(tmp_path / "j1", tmp_path / "j2")
    assert (tmp_path / "j1" / "real_vs_dd.csv").is_file()


def test_real_resume_after_deleting_a_part_gives_the_same_bytes(tmp_path):
    run_fake_real(tmp_path / "full")
    run_fake_real(tmp_path / "cut")
    part(tmp_path / "cut", 1).unlink()
    played = []

    def counting_play(*args):
        played.append(args[2])
        return fake_play(*args)

    _, stats = run_fake_real(tmp_path / "cut", play=counting_play)
    assert stats["chunks_resumed"] == 2 and stats["chunks_solved_now"] == 1
    assert len(played) == 4 * 4 * 5  # one chunk: 4 deals x 4 seats x 5 contracts
    assert_same_results(tmp_path / "full", tmp_path / "cut")


def test_real_run_grows_and_aggregates_for_another_pool_without_playing_again(tmp_path,
                                                                           monkeypatch):
    # R28-R30: the pool enters the tables only; more deals play only the new chunks
    run_fake_real(tmp_path / "fresh", deals=12, pool=0)
    run_fake_real(tmp_path / "r", deals=8, pool=40)
    played = []

    def counting_play(*args):
        played.append(args[0])
        return fake_play(*args)

    run_fake_real(tmp_path / "r", deals=12, pool=40, play=counting_play)
    assert len(played) == 4 * 4 * 5  # the one new chunk: 4 deals x 4 seats x 5 contracts
    monkeypatch.setattr(pipeline, "real_solve", refuse_to_solve)
    monkeypatch.setattr(pipeline, "real_play", refuse_to_solve)
    assert cli("report", tmp_path / "r", "--pool", 0) == 0
    assert_same_results(tmp_path / "fresh", tmp_path / "r")


def test_a_dd_run_is_not_resumed_as_real_nor_a_real_one_as_dd(tmp_path):
    run_fake(tmp_path / "dd", deals=12, chunk=4)
    run_fake_real(tmp_path / "real")
    for out, again in ((tmp_path / "dd", run_fake_real),
                       (tmp_path / "real", lambda out: run_fake(out, deals=12, chunk=4))):
        before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
        with pytest.raises(UserError, match="another configuration") as err:
            again(out)
        assert "\n" not in str(err.value) and "play: " in str(err.value)
        assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_cli_run_with_another_play_exits_2_with_one_line(tmp_path, capsys):
    run_fake(tmp_path / "r", deals=8, chunk=4)
    assert cli("run", "--deals", 8, "--seed", 11, "--chunk", 4, "--play", "real",
               "--out", tmp_path / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "play: None -> 'real'" in err and "--force" in err


def test_cli_play_real_defaults_to_small_chunks():
    from analyser.cli import build_parser
    from analyser.cmd_run import config_from_args

    parser = build_parser()
    real, _ = config_from_args(parser.parse_args(["run", "--play", "real", "--deals", "30"]))
    dd, _ = config_from_args(parser.parse_args(["run", "--deals", "30"]))
    assert (real.play, real.chunk) == ("real", pipeline.DEFAULT_REAL_CHUNK)
    assert (dd.play, dd.chunk) == ("dd", pipeline.DEFAULT_CHUNK)
    given, _ = config_from_args(parser.parse_args(["run", "--play", "real", "--chunk", "3"]))
    assert given.chunk == 3


def test_real_play_rows_are_the_real_players_playouts(tmp_path):
    """One deal through the real solver and the real player: each stored outcome of two
    sample rows is what play_hand gives with that row's seed, a real misère made means the
    declarer took no trick in that playout (R15, R16, R21), and a number's tricks are that
    playout's."""
    from analyser.play import play_hand

    config = pipeline.RunConfig(deals=1, seed=4, chunk=1, play="real")
    pipeline.run_analysis(tmp_path, config)
    hands = store.read_hands(tmp_path)
    deal = [int(h) for h in hands["hand"]]
    seeds = pipeline.play_seeds(4, 0, 1)[0]
    for row in hands.iloc[[0, 3]].itertuples():  # the leader and the dealer (R18)
        for k, contract in enumerate(("LM", "GM", "LS", "GS")):
            record = play_hand(deal, row.seat, contract, config.leader, policy="real",
                               seed=int(seeds[row.seat, k]))
            made = getattr(row, f"real_{contract.lower()}")
            assert made == record["made"] == (record["declarer_tricks"] == 0), contract
        record = play_hand(deal, row.seat, str(row.real_level), config.leader,
                           trump=row.real_trump, policy="real", seed=int(seeds[row.seat, 4]))
        assert row.real_tricks == record["declarer_tricks"]


def part(out, chunk):
    return out / "hands" / store.part_name(chunk)


@pytest.mark.parametrize("damage", ["truncated", "empty", "other chunk"])
def test_a_damaged_part_is_solved_again_and_said_on_stderr(tmp_path, damage, capsys):
    run_fake(tmp_path / "full")
    run_fake(tmp_path / "r")
    target = part(tmp_path / "r", 3)
    if damage == "truncated":
        target.write_bytes(target.read_bytes()[:200])
    elif damage == "empty":
        target.write_bytes(b"")
    else:
        target.write_bytes(part(tmp_path / "r", 4).read_bytes())
    capsys.readouterr()
    _, stats = run_fake(tmp_path / "r")
    assert stats["chunks_solved_now"] == 1 and stats["chunks_resumed"] == 7
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "part-00003.parquet" in err and "solving chunk 3 again" in err
    assert_same_results(tmp_path / "full", tmp_path / "r")


def test_a_stray_part_is_ignored_and_named(tmp_path, capsys):
    run_fake(tmp_path / "full")
    run_fake(tmp_path / "r")
    stray = part(tmp_path / "r", 99)
    stray.write_bytes(part(tmp_path / "r", 0).read_bytes())
    for name in store.TABLE_NAMES:
        (tmp_path / "r" / f"{name}.parquet").unlink()
    capsys.readouterr()
    _, stats = run_fake(tmp_path / "r")
    assert stats["chunks_solved_now"] == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "part-00099.parquet" in err and "ignoring" in err
    assert stray.exists()
    pd.testing.assert_frame_equal(store.read_hands(tmp_path / "r", range(8)),
                                  store.read_hands(tmp_path / "full"))
    for name, frame in read_results(tmp_path / "full").items():
        pd.testing.assert_frame_equal(store.read_table(tmp_path / "r", name), frame, obj=name)


def test_cli_report_of_a_run_with_a_damaged_part_exits_2(tmp_path, capsys):
    run_fake(tmp_path / "r")
    part(tmp_path / "r", 2).write_bytes(b"")
    (tmp_path / "r" / "report.html").unlink(missing_ok=True)
    assert cli("report", tmp_path / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "part-00002.parquet" in err and "damaged" in err
    assert not (tmp_path / "r" / "report.html").exists()


def test_more_deals_with_the_same_seed_and_chunk_solve_only_the_new_chunks(tmp_path):
    # chunk seeds depend on the seed and the chunk number only, never on --deals
    run_fake(tmp_path / "fresh", deals=100)
    run_fake(tmp_path / "grown", deals=60)  # 7 whole chunks of 8 and one of 4
    solved = []

    def counting_solve(deals, leader):
        solved.append(len(deals))
        return fake_solve(deals, leader)

    config = pipeline.RunConfig(deals=100, seed=11, chunk=8)
    stats = pipeline.run_analysis(tmp_path / "grown", config, deal=kernel_deal,
                                  solve=counting_solve, notify=lambda message: None)
    assert stats["chunks_resumed"] == 7 and solved == [8] * 5 + [4]  # chunk 7 grows to 8
    assert store.load_config(tmp_path / "grown")["deals"] == 100
    assert_same_results(tmp_path / "fresh", tmp_path / "grown")


def refuse_to_solve(deals, leader):
    raise AssertionError("solved again")


def test_another_pool_only_aggregates_again(tmp_path):
    # R28-R30: the pool enters the pool term of the tables only, never the stored rows
    run_fake(tmp_path / "fresh", pool=100)
    run_fake(tmp_path / "r", pool=40)
    config = pipeline.RunConfig(deals=60, seed=11, chunk=8, pool=100)
    stats = pipeline.run_analysis(tmp_path / "r", config, deal=kernel_deal, solve=refuse_to_solve)
    assert stats["chunks_solved_now"] == 0
    assert store.load_config(tmp_path / "r")["pool"] == 100
    assert_same_results(tmp_path / "fresh", tmp_path / "r")


def test_cli_report_with_another_pool_rebuilds_without_solving(tmp_path, monkeypatch, capsys):
    run_fake(tmp_path / "fresh", pool=0)
    run_fake(tmp_path / "r", pool=40)
    monkeypatch.setattr(pipeline, "real_solve", refuse_to_solve)
    assert cli("report", tmp_path / "r", "--pool", 0) == 0
    assert store.load_config(tmp_path / "r")["pool"] == 0
    assert_same_results(tmp_path / "fresh", tmp_path / "r")
    assert "0 units (R28-R30)" in (tmp_path / "r" / "report.html").read_text()
    assert cli("report", tmp_path / "r", "--pool", 251) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--pool" in err


def test_cli_report_aggregates_tables_of_an_older_layout_again(tmp_path, monkeypatch):
    """A summary stored with other columns (ev_total once meant the opponents' payments
    without the pool term, R28-R30) is aggregated again from the stored hands, not shown
    under the wrong names."""
    run_fake(tmp_path / "r", pool=40)
    fresh = store.read_table(tmp_path / "r", "summary")
    old = fresh.drop(columns=["ev_total", "ev_total_exact"]).rename(
        columns={"ev_payments": "ev_total"})
    store.write_table(tmp_path / "r", "summary", old)
    monkeypatch.setattr(pipeline, "real_solve", refuse_to_solve)
    assert cli("report", tmp_path / "r") == 0
    pd.testing.assert_frame_equal(store.read_table(tmp_path / "r", "summary"), fresh)


def test_every_file_of_a_run_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        run_fake(tmp_path / "r")
    finally:
        os.umask(old)
    files = [p for p in (tmp_path / "r").rglob("*") if p.is_file()]
    assert len(files) > 10
    assert {p.name: oct(p.stat().st_mode & 0o777) for p in files} == \
        {p.name: "0o644" for p in files}


def test_cli_second_run_into_a_locked_directory_exits_2(tmp_path, capsys):
    run_fake(tmp_path / "r")
    with store.locked(tmp_path / "r"):
        assert cli("run", "--deals", 60, "--seed", 11, "--chunk", 8,
                   "--out", tmp_path / "r") == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "in use by another boston-analyser command" in err
        assert cli("report", tmp_path / "r") == 2
        assert "in use" in capsys.readouterr().err
    assert cli("report", tmp_path / "r") == 0  # released with the lock's holder


LOCKED_RUN = """
import sys
sys.path.insert(0, {tests!r})
from test_pipeline import kernel_deal, slow_fake_solve
from analyser import pipeline
config = pipeline.RunConfig(deals=60, seed=11, chunk=8)
pipeline.run_analysis({out!r}, config, deal=kernel_deal, solve=slow_fake_solve)
"""


def test_two_runs_into_one_directory_at_once_the_second_is_refused(tmp_path):
    out = tmp_path / "r"
    code = LOCKED_RUN.format(tests=str(ROOT / "tests"), out=str(out))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not store.done_chunks(out):
            time.sleep(0.02)
        with pytest.raises(UserError, match="in use"):
            run_fake(out)
    finally:
        assert proc.wait(timeout=120) == 0
    assert len(store.done_chunks(out)) == 8


def test_stored_tables_have_the_promised_columns_and_types(tmp_path):
    run_fake(tmp_path / "r", deals=40)
    summary = store.read_table(tmp_path / "r", "summary")
    assert summary["shape"].dtype.kind in "OT" or str(summary["shape"].dtype) == "str"
    for col, kind in [("hands", "i"), ("made_rate", "f"), ("made_ci_low", "f"),
                      ("made_ci_high", "f"), ("ev_total", "f")]:
        assert summary[col].dtype.kind == kind, col
    csv = pd.read_csv(tmp_path / "r" / "summary.csv")
    assert list(csv.columns) == list(summary.columns)
    assert len(csv) == len(summary)


def slow_fake_solve(deals, leader):
    """`fake_solve`, taking a moment per chunk so that a kill lands mid-run."""
    time.sleep(0.3)
    return fake_solve(deals, leader)


KILLED_RUN = """
import sys
sys.path.insert(0, {tests!r})
from test_pipeline import kernel_deal, slow_fake_solve
from analyser import pipeline
config = pipeline.RunConfig(deals=60, seed=11, chunk=8)
pipeline.run_analysis({out!r}, config, jobs={jobs}, deal=kernel_deal, solve=slow_fake_solve)
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path, jobs):
    run_fake(tmp_path / "full")
    out = tmp_path / "killed"
    code = KILLED_RUN.format(tests=str(ROOT / "tests"), out=str(out), jobs=jobs)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if len(store.done_chunks(out)) >= 2:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)  # let orphaned loky workers notice and stop
    assert 2 <= len(store.done_chunks(out)) < 8
    assert not (out / "summary.parquet").exists()
    _, stats = run_fake(out)
    assert stats["chunks_resumed"] >= 2
    assert_same_results(tmp_path / "full", out)


# ---- end to end: the real dealing and double-dummy kernels, through the CLI -------------
# Marked slow: each solves real deals (16 numeric + 8 misère solves a deal) through the
# CLI, with --jobs 1 and 2 and a kill mid-run; the same checks run above with the
# stand-in solver in `make test`.

def cli(*args):
    return main([str(a) for a in args])


E2E_DEALS = sized(16, 200)
E2E_CHUNK = sized(2, 20)  # many small chunks: the kill lands mid-run


@pytest.fixture(scope="module")
def e2e_runs(tmp_path_factory):
    """The same small run with --jobs 1 and --jobs 2 (real solver)."""
    pytest.importorskip("analyser.solver")
    base = tmp_path_factory.mktemp("e2e")
    common = ["--deals", E2E_DEALS, "--seed", 5, "--chunk", E2E_CHUNK]
    assert cli("run", *common, "--jobs", 1, "--out", base / "j1") == 0
    assert cli("run", *common, "--jobs", 2, "--out", base / "j2") == 0
    return base


@pytest.mark.slow
def test_e2e_files_exist_with_columns_and_types(e2e_runs):
    out = e2e_runs / "j1"
    for name in ("run.json", "run_stats.json", "report.html", "summary.csv", "summary.parquet",
                 "by_position.csv", "misere_features.csv", "best_bids.csv",
                 "shape_frequencies.csv"):
        assert (out / name).is_file(), name
    hands = store.read_hands(out)
    assert len(hands) == 4 * E2E_DEALS
    assert hands["hand"].dtype == np.uint64
    for col in ("tricks_s", "tricks_h", "tricks_d", "tricks_c"):
        assert hands[col].dtype == np.int8 and hands[col].between(0, 13).all()
    assert hands["little_misere"].dtype == bool and hands["grand_misere"].dtype == bool
    # every card dealt once per deal
    union = hands.groupby("deal_id")["hand"].agg(lambda h: np.bitwise_or.reduce(h.to_numpy()))
    assert (union == (1 << 52) - 1).all()
    # a grand misère made implies the little one (discarding can only help, R15)
    assert not (hands["grand_misere"] & ~hands["little_misere"]).any()
    summary = store.read_table(out, "summary")
    assert summary["made_rate"].between(0, 1).all()
    assert ((summary["made_ci_low"] <= summary["made_rate"])
            & (summary["made_rate"] <= summary["made_ci_high"])).all()
    numeric = summary[summary["contract"].isin(NUMERIC_CONTRACTS)]
    for _, group in numeric.groupby(["shape", "trump"]):
        rates = group.set_index("contract").loc[list(NUMERIC_CONTRACTS), "made_rate"]
        assert (np.diff(rates.to_numpy()) <= 0).all()
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") >= 5
    assert "src=\"http" not in page


@pytest.mark.slow
def test_e2e_jobs_1_and_2_give_identical_results(e2e_runs):
    assert_same_results(e2e_runs / "j1", e2e_runs / "j2")


@pytest.mark.slow
def test_e2e_resume_after_sigkill_equals_an_uninterrupted_run(e2e_runs, tmp_path):
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "analyser", "run", "--deals", str(E2E_DEALS), "--seed", "5",
            "--chunk", str(E2E_CHUNK), "--jobs", "1", "--out", str(out)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if len(store.done_chunks(out)) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 2 <= len(store.done_chunks(out)) < -(-E2E_DEALS // E2E_CHUNK)
    assert cli("run", "--deals", E2E_DEALS, "--seed", 5, "--chunk", E2E_CHUNK, "--jobs", 1,
               "--out", out) == 0
    assert_same_results(e2e_runs / "j1", out)


@pytest.mark.slow
def test_e2e_report_rebuilds_without_solving(e2e_runs, monkeypatch):
    out = e2e_runs / "j2"
    (out / "report.html").unlink()
    (out / "best_bids.parquet").unlink()

    def refuse(*args, **kwargs):
        raise AssertionError("solved again")

    monkeypatch.setattr(pipeline, "real_solve", refuse)
    assert cli("report", out) == 0
    assert (out / "report.html").is_file() and (out / "best_bids.parquet").is_file()


@pytest.mark.parametrize("args, word", [
    (["--deals", "0"], "--deals"),
    (["--seed", "-3"], "--seed"),
    (["--deals", "ten"], "--deals"),
    (["--jobs", "0"], "--jobs"),
    (["--pool", "300"], "--pool"),
    (["--play", "bridge"], "--play"),
])
def test_cli_bad_numbers_exit_2_with_one_line(args, word, tmp_path, capsys):
    assert cli("run", *args, "--out", tmp_path / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and word in err
    assert not (tmp_path / "r").exists()


def test_cli_unwritable_directory_exits_2(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert cli("run", "--deals", 4, "--out", tmp_path / "file" / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not writable" in err


def test_cli_directory_of_another_configuration_exits_2_and_keeps_it(tmp_path, capsys):
    run_fake(tmp_path / "r", deals=16)
    before = {p: p.read_bytes() for p in (tmp_path / "r").rglob("*") if p.is_file()}
    assert cli("run", "--deals", 16, "--seed", 12, "--chunk", 8, "--out", tmp_path / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another configuration" in err and "seed: 11 -> 12" in err
    after = {p: p.read_bytes() for p in (tmp_path / "r").rglob("*") if p.is_file()}
    assert after == before


def test_cli_report_of_a_directory_without_a_run_exits_2(tmp_path, capsys):
    assert cli("report", tmp_path) == 2
    assert "no run.json" in capsys.readouterr().err


def refuse_new_files_in(monkeypatch, folder):
    """Make creating a file in `folder` fail as on a read-only directory (even for root)."""
    real_open = os.open

    def guarded(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and Path(path).parent == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_cli_report_of_a_read_only_directory_exits_2(tmp_path, monkeypatch, capsys):
    run_fake(tmp_path / "r")
    (tmp_path / "r" / "report.html").unlink(missing_ok=True)
    refuse_new_files_in(monkeypatch, tmp_path / "r")
    assert cli("report", tmp_path / "r") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not writable" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_cli_report_of_a_chmod_read_only_directory_exits_2(tmp_path, capsys):
    run_fake(tmp_path / "r")
    (tmp_path / "r").chmod(0o555)
    try:
        assert cli("report", tmp_path / "r") == 2
    finally:
        (tmp_path / "r").chmod(0o755)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not writable" in err


def test_default_out_is_a_folder_no_other_command_writes_into():
    # `make run` tees the other commands' output into files of its own folder; `run`'s
    # default --out must not be that folder, or `run` after `make run` is refused
    from analyser.cmd_run import DEFAULT_OUT

    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    written = [word.replace("$(OUT)", "out") for line in recipe.splitlines()
               for word in line.split() if word.startswith("$(OUT)/") and "." in word]
    assert written, "the run target writes no files?"
    assert all(Path(w).parent != Path(DEFAULT_OUT) for w in written), (DEFAULT_OUT, written)
    run_dir = recipe.split("--out ", 1)[1].split()[0].replace("$(OUT)", "out")
    assert all(Path(w).parent != Path(run_dir) for w in written)


def test_cli_help_explains_every_option(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for option in ("--deals", "--seed", "--jobs", "--out", "--chunk", "--pool", "--force",
                   "--play"):
        assert text.count(option) >= 2, option  # in the usage and explained in the text


@pytest.mark.slow
def test_e2e_larger_run_resumes_identically(tmp_path):
    pytest.importorskip("analyser.solver")
    common = ["--deals", 200, "--seed", 2, "--chunk", 20]
    assert cli("run", *common, "--jobs", 2, "--out", tmp_path / "a") == 0
    assert cli("run", *common, "--jobs", 1, "--out", tmp_path / "b") == 0
    for part in sorted((tmp_path / "b" / "hands").glob("part-*.parquet"))[::3]:
        part.unlink()
    assert cli("run", *common, "--jobs", 2, "--out", tmp_path / "b") == 0
    assert_same_results(tmp_path / "a", tmp_path / "b")


REAL_E2E_DEALS = sized(2, 8)


@pytest.mark.slow
def test_e2e_play_real_identical_for_any_jobs_and_after_resume(tmp_path):
    """`run --play real` through the CLI with the real solver and player: the same bytes
    with --jobs 1 and 2, and again after a lost part is played a second time."""
    common = ["--play", "real", "--deals", REAL_E2E_DEALS, "--seed", 3, "--chunk", 1]
    assert cli("run", *common, "--jobs", 1, "--out", tmp_path / "j1") == 0
    assert cli("run", *common, "--jobs", 2, "--out", tmp_path / "j2") == 0
    assert_same_results(tmp_path / "j1", tmp_path / "j2")
    part(tmp_path / "j2", REAL_E2E_DEALS - 1).unlink()
    assert cli("run", *common, "--jobs", 2, "--out", tmp_path / "j2") == 0
    assert_same_results(tmp_path / "j1", tmp_path / "j2")
    hands = store.read_hands(tmp_path / "j1")
    assert hands["real_level"].between(5, 13).all() and hands["real_tricks"].between(0, 13).all()
    assert "Double-dummy against real play" in (tmp_path / "j1" / "report.html").read_text()
