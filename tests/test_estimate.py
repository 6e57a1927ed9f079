"""The P(make) estimate (analyser/estimate.py): recovery of known rates on synthetic hands,
calibration tables, saving, the shipped default and the `estimate` command."""

import json

import numpy as np
import pandas as pd
import pytest

from analyser import cli, store
from analyser import estimate as E
from analyser.contracts import NUMERIC_CONTRACTS
from analyser.errors import UserError
from analyser.features import suit_lengths


def random_masks(deals: int, seed: int) -> np.ndarray:
    """(deals * 4,) hand masks of random deals, seat by seat."""
    rng = np.random.default_rng(seed)
    cards = rng.permuted(np.tile(np.arange(52, dtype=np.uint64), (deals, 1)), axis=1)
    bits = np.left_shift(np.uint64(1), cards).reshape(deals, 4, 13)
    return np.bitwise_or.reduce(bits, axis=2).reshape(-1)


LITTLE_RATE = {0: 0.2, 1: 0.6, 2: 0.6, 3: 0.6}  # known P(LM) by position
GRAND_RATE = 0.1


def synthetic_hands(deals: int, seed: int) -> pd.DataFrame:
    """Stored-hand rows where a suit as trump takes as many tricks as it has cards, and the
    misère verdicts are coin flips of known rates (LITTLE_RATE by position, GRAND_RATE)."""
    rng = np.random.default_rng(seed + 1)
    masks = random_masks(deals, seed)
    lengths = suit_lengths(masks)
    positions = np.tile(np.arange(4), deals)
    frame = pd.DataFrame({"deal_id": np.repeat(np.arange(deals), 4), "hand": masks,
                          "position": positions.astype(np.int8)})
    for i, column in enumerate(E.TRICK_COLUMNS):
        frame[column] = lengths[:, i]
    little = np.array([LITTLE_RATE[p] for p in positions])
    frame["little_misere"] = rng.random(len(frame)) < little
    frame["grand_misere"] = rng.random(len(frame)) < GRAND_RATE
    return frame


@pytest.fixture(scope="module")
def synthetic():
    return E.fit(synthetic_hands(3000, 5), {"note": "synthetic"})


def test_misere_rates_by_position_are_recovered(synthetic):
    fresh = synthetic_hands(2000, 99)
    masks, positions = fresh["hand"].to_numpy(), fresh["position"].to_numpy()
    p = synthetic.misere_probabilities(masks, positions)
    for position, rate in LITTLE_RATE.items():
        assert p["LM"][positions == position].mean() == pytest.approx(rate, abs=0.04)
    assert p["GM"].mean() == pytest.approx(GRAND_RATE, abs=0.03)


def test_spreads_take_their_miseres_estimate(synthetic):
    """R16: a double-dummy verdict cannot tell a spread from its misère."""
    p = synthetic.misere_probabilities(random_masks(10, 3), np.zeros(40, dtype=int))
    assert np.array_equal(p["LS"], p["LM"]) and np.array_equal(p["GS"], p["GM"])


def test_number_estimates_follow_the_trump_length(synthetic):
    """R10: tricks >= n exactly when the trump suit has n cards, in the synthetic rows."""
    masks = random_masks(500, 11)
    p = synthetic.trump_probabilities(masks, np.tile(np.arange(4), 500))
    lengths = suit_lengths(masks)
    for i, n in enumerate(E.NUMBERS):
        assert (p[:, :, i][lengths >= n + 1] > 0.9).all()
        assert (p[:, :, i][lengths <= n - 2] < 0.1).all()


def test_number_estimates_never_rise_with_the_contract(synthetic):
    p = synthetic.trump_probabilities(random_masks(200, 12), np.zeros(800, dtype=int))
    assert (np.diff(p, axis=-1) <= 0).all()


def test_trick_distribution_is_a_distribution_around_the_trump_length(synthetic):
    """In the synthetic rows a trump takes as many tricks as it has cards."""
    masks = random_masks(300, 13)
    positions = np.tile(np.arange(4), 300)
    dist = synthetic.trick_distribution(masks, positions)
    assert dist.shape == (1200, 4, 14) and (dist >= 0).all()
    assert np.allclose(dist.sum(axis=-1), 1.0)
    assert (dist.argmax(axis=-1) == suit_lengths(masks)).mean() > 0.95
    at_least = synthetic.at_least(masks, positions)
    assert np.allclose(dist[..., 5:].sum(axis=-1), at_least[..., 4])  # P(tricks >= 5)
    one = synthetic.hand_distribution(int(masks[7]), int(positions[7]))
    assert np.array_equal(one, dist[7])


def test_probability_of_a_number_is_the_best_allowed_trump(synthetic):
    hand = int(random_masks(1, 4)[0])
    numbers, _ = synthetic.hand(hand, 2)
    assert synthetic.probability(hand, 2, "7") == numbers[:, 2].max()
    assert synthetic.probability(hand, 2, "7", (1,)) == numbers[1, 2]


def test_fitting_is_deterministic_and_holds_out_every_fifth_deal():
    hands = synthetic_hands(200, 8)
    a, b = E.fit(hands), E.fit(hands)
    assert a.to_json() == b.to_json()
    assert a.source["held_out_rows"] == 4 * 40 and a.source["fitted_rows"] == 4 * 160


def test_saved_estimate_reads_back_the_same(synthetic, tmp_path):
    path = tmp_path / "e.json"
    synthetic.save(path)
    again = E.load(path)
    masks = random_masks(20, 6)
    positions = np.tile(np.arange(4), 20)
    assert np.array_equal(again.trump_probabilities(masks, positions),
                          synthetic.trump_probabilities(masks, positions))
    assert again.source == json.loads(json.dumps(synthetic.source))
    pd.testing.assert_frame_equal(again.calibration, synthetic.calibration, check_dtype=False)
    with pytest.raises(UserError, match="holds neither estimate.json nor a run"):
        E.load(tmp_path)
    synthetic.save(tmp_path / E.DEFAULT_FILE)  # a folder is read through its estimate.json
    assert E.load(tmp_path).to_json() == again.to_json()


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(format=99), "not a boston-analyser estimate"),
    (lambda d: d["tricks"].pop("9"), "tricks: needs a model for each of 1..13"),
    (lambda d: d["miseres"]["LM"].update(slopes=[1.0]), "miseres.LM: needs 12 finite slopes"),
    (lambda d: d.update(trump_features=["x"]), "fitted on other features"),
])
def test_a_damaged_estimate_file_names_the_field(synthetic, tmp_path, change, words):
    data = synthetic.to_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match=words):
        E.load(path)


def constant_estimate(little: float) -> E.Estimate:
    """An estimate whose LM prediction is `little` for every hand (no slopes)."""
    zero = lambda k: E.Model(0.0, np.zeros(k))  # noqa: E731
    return E.Estimate(
        tricks={str(k): zero(len(E.TRUMP_FEATURES)) for k in E.TRICK_LEVELS},
        miseres={"LM": E.Model(float(np.log(little / (1 - little))),
                               np.zeros(len(E.MISERE_FEATURES))),
                 "GM": zero(len(E.MISERE_FEATURES))},
        source={}, calibration=pd.DataFrame())


def test_calibration_bins_hold_the_predictions_and_observed_rates():
    hands = synthetic_hands(100, 21)
    table = E.calibration_table(constant_estimate(0.33), hands)
    lm = table[table["contract"] == "LM"]
    assert len(lm) == 1
    row = lm.iloc[0]
    assert (row.bin_low, row.bin_high) == (0.3, 0.4)
    assert row.predicted == pytest.approx(0.33)
    assert row.hands == 400 and row.observed == pytest.approx(hands["little_misere"].mean())
    assert row.observed_ci_low <= row.observed <= row.observed_ci_high
    # every contract's bins together hold every hand once
    assert (table.groupby("contract")["hands"].sum() == 400).all()
    assert list(table.columns) == list(E.CALIBRATION_COLUMNS)


def test_calibration_summary_pools_the_numbers_bin_by_bin():
    table = E.calibration_table(constant_estimate(0.33), synthetic_hands(50, 2))
    summary = E.calibration_summary(table)
    pooled = summary[summary["contract"] == E.NUMBER_GROUP]
    assert pooled["hands"].sum() == 9 * 200  # nine numbers x 200 hands
    half = summary[(summary["contract"] == E.NUMBER_GROUP) & (summary["bin_low"] == 0.5)]
    assert half["predicted"].iloc[0] == pytest.approx(0.5)  # every number predicts 1/2
    assert set(summary["contract"]) == {E.NUMBER_GROUP, "LM", "GM"}


def test_shipped_estimate_matches_its_source_description():
    shipped = E.default_estimate()
    source = shipped.source
    config = source["config"]
    assert source["hands"] == 4 * source["deals"] and source["deals"] <= config["deals"]
    assert source["fitted_rows"] + source["held_out_rows"] == source["hands"]
    assert source["held_out"] == f"deal_id % {E.HOLD_OUT} == 0"
    held_deals = len(range(0, source["deals"], E.HOLD_OUT))
    assert source["held_out_rows"] == 4 * held_deals
    counts = shipped.calibration.groupby("contract")["hands"].sum()
    assert sorted(counts.index) == sorted((*NUMERIC_CONTRACTS, "LM", "GM"))
    assert (counts == source["held_out_rows"]).all()
    run_command, fit_command = source["commands"]
    assert f"--deals {source['deals']} --seed {config['seed']}" in run_command
    assert fit_command.startswith("boston-analyser estimate ")
    assert fit_command.endswith("--out analyser/data/estimate.json")


def write_run(folder, hands: pd.DataFrame, chunk_deals: int) -> None:
    """A run directory holding `hands` as stored parts of `chunk_deals` deals each."""
    deals = int(hands["deal_id"].max()) + 1
    store.save_config(folder, {"deals": deals, "seed": 3, "chunk": chunk_deals, "pool": 40})
    (folder / store.HANDS_DIR).mkdir(parents=True)
    for chunk, part in hands.groupby(hands["deal_id"] // chunk_deals):
        store.write_part(folder, int(chunk), part.reset_index(drop=True), {})


def test_estimate_command_fits_saves_and_prints_calibration(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    write_run(run, synthetic_hands(120, 4), 40)
    out = tmp_path / "est.json"
    chart = tmp_path / "cal.png"
    assert cli.main(["estimate", str(run), "--out", str(out), "--chart", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "fitted on 384 hands of 120 deals" in text and "5-13" in text and "LM" in text
    fitted = E.load(out)
    assert fitted.source["chunks"] == 3 and fitted.source["config"]["seed"] == 3
    assert fitted.source["commands"][0] == (
        f"boston-analyser run --deals 120 --seed 3 --chunk 40 --pool 40 --out {run}")
    assert chart.read_bytes().startswith(b"\x89PNG")
    # a run directory given as the model is fitted on the spot, the same way
    assert E.load(run).to_json()["tricks"] == fitted.to_json()["tricks"]


REAL_RATES = {"LM": 0.45, "GM": 0.3, "LS": 0.25, "GS": 0.1}


def real_hands(deals: int, seed: int) -> pd.DataFrame:
    """Synthetic rows of a real-play run: the double-dummy columns of `synthetic_hands` and
    real outcomes of each misère and spread drawn at REAL_RATES."""
    from analyser.pipeline import REAL_MISERE_COLUMNS

    frame = synthetic_hands(deals, seed)
    rng = np.random.default_rng(seed + 7)
    for contract, column in REAL_MISERE_COLUMNS.items():
        frame[column] = rng.random(len(frame)) < REAL_RATES[contract]
    return frame


def test_a_real_play_run_gives_each_misere_and_spread_its_own_estimate(tmp_path, capsys):
    """R15, R16: from a run with real play each of LM, GM, LS, GS is fitted on the real
    player's outcomes (a spread is no longer its misère), numbers on the double-dummy
    tricks; the calibration, the saved file and the regenerating command say so."""
    hands = real_hands(1500, 21)
    fitted = E.fit(hands)
    assert fitted.real_miseres and fitted.source["miseres_from"] == "real play"
    p = fitted.misere_probabilities(random_masks(500, 2), np.tile(np.arange(4), 500))
    for contract, rate in REAL_RATES.items():
        assert p[contract].mean() == pytest.approx(rate, abs=0.04)
    dd = E.fit(hands.drop(columns=["real_lm", "real_gm", "real_ls", "real_gs"]))
    assert not dd.real_miseres and dd.source["miseres_from"] == "double dummy"
    assert fitted.to_json()["tricks"] == dd.to_json()["tricks"]
    assert set(fitted.calibration["contract"]) >= {"LM", "GM", "LS", "GS"}
    assert "LS" not in set(dd.calibration["contract"])
    fitted.save(tmp_path / "real.json")
    again = E.load(tmp_path / "real.json")
    assert again.real_miseres and again.to_json() == json.loads(json.dumps(fitted.to_json()))
    with pytest.raises(UserError, match="lack the columns real_lm, real_gm, real_ls, real_gs"):
        E.predictions(fitted, synthetic_hands(5, 1))
    run = tmp_path / "run"
    run.mkdir()
    write_run(run, real_hands(100, 3), 50)
    config = store.load_config(run)
    store.save_config(run, {**config, "play": "real"})
    assert cli.main(["estimate", str(run), "--out", str(tmp_path / "e.json")]) == 0
    assert " GS " in capsys.readouterr().out
    assert E.load(tmp_path / "e.json").source["commands"][0] == (
        f"boston-analyser run --deals 100 --seed 3 --chunk 50 --pool 40 --play real --out {run}")


@pytest.mark.parametrize("args, words", [
    (["estimate", "{tmp}/none"], "holds no run.json"),
    (["estimate", "{run}", "--chart", "{tmp}/no/such/c.png"], "--chart: the folder"),
    (["estimate"], "the following arguments are required: RUN_DIR"),
])
def test_estimate_command_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, words):
    run = tmp_path / "run"
    run.mkdir()
    write_run(run, synthetic_hands(10, 4), 10)
    args = [a.format(tmp=tmp_path, run=run) for a in args]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert not (run / E.DEFAULT_FILE).exists()


def test_calibration_chart_draws_each_group_and_the_diagonal():
    from reports.charts import png
    from reports.charts_strategy import calibration_chart

    summary = E.calibration_summary(E.calibration_table(constant_estimate(0.33),
                                                        synthetic_hands(50, 2)))
    fig = calibration_chart(summary)
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert labels[0] == "perfect calibration"
    assert [label.split(" ")[0] for label in labels[1:]] == [E.NUMBER_GROUP, "LM", "GM"]
    assert "LM (200 predictions)" in labels
    assert png(fig).startswith(b"\x89PNG") and fig.axes == []


def test_a_run_of_one_deal_is_fitted_whole_and_says_it_has_no_calibration(capsys):
    from analyser.cmd_estimate import format_calibration

    fitted = E.fit(synthetic_hands(1, 3))
    assert fitted.source["fitted_rows"] == 4 and fitted.source["held_out_rows"] == 0
    assert fitted.source["held_out"].startswith("none")
    assert fitted.calibration.empty
    assert format_calibration(fitted.calibration).startswith("no held-out hands")


def test_estimate_help_states_the_commands_that_regenerate_the_shipped_estimate(capsys):
    with pytest.raises(SystemExit):
        cli.main(["estimate", "--help"])
    text = capsys.readouterr().out
    for command in E.default_estimate().source["commands"]:
        assert command in text
