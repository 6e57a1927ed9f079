"""Tests of analyser/hand.py, analyser/cmd_hand.py and reports/hand_plot.py ("should I bid this?").

Two kinds: the summary and the command line checked on injected solver results (fast, no
kernels), and end-to-end runs through the real dealing and solver modules on small sample
counts (`sized`).
"""

import importlib.util
import json
from fractions import Fraction

import numpy as np
import pytest
from conftest import sized

from analyser.cards import CardError, parse_hand
from analyser.cli import main
from analyser.errors import UserError
from analyser.hand import (
    BUDGET_MAX_SAMPLES,
    BUDGET_SECONDS,
    DEFAULT_SAMPLES,
    analyse_hand,
    deal,
    prepare,
    summarise,
)

# End-to-end tests need the solver module (written in parallel; this skip goes once it is
# in the tree).
needs_solver = pytest.mark.skipif(
    importlib.util.find_spec("analyser.solver") is None,
    reason="analyser.solver not written yet",
)

ALL_SPADES = "AKQJT98765432..."
LOW_HAND = "5432.432.432.432"  # the 2, 3, 4 of every suit and the 5 of spades
HAND = "AQ32.KJ9.T87.654"
PASS_HAND = "A432.A432.A32.A2"  # four aces: misères fail, numbers rarely reach 5; solves fast
LADDER = ["5", "6", "7", "LM", "8", "9", "GM", "10", "11", "LS", "12", "GS", "13"]


def _patch_solver(monkeypatch, tricks_by_trump, grand, little):
    """Replace deal-and-solve by `_fake` results, for tests of the output only."""
    monkeypatch.setattr("analyser.hand.simulate", lambda q, progress=False: (
        None, *_fake(q.samples, tricks_by_trump, grand, little)))


def _fake(n, tricks_by_trump, grand, little):
    """Injected solver output: every sample takes tricks_by_trump[t] in trump t."""
    tricks = np.tile(np.asarray(tricks_by_trump, dtype=np.int8), (n, 1))
    return tricks, np.full(n, grand), np.full(n, little)


# ------------------------------------------------------------------- input checking


@pytest.mark.parametrize(
    "hand, words",
    [
        ("AQ32.KJ9.T87", "4 suits"),
        ("AQ32.KJ9.T87.65X", "unknown rank"),
        ("AQ32.KJ9.T87.65", "12 cards"),
        ("AQ32.KJ9.T87.6543", "14 cards"),
        ("AQ32.KJ9.T87.6544", "duplicate"),
    ],
)
def test_bad_hand_names_the_problem(hand, words):
    with pytest.raises(CardError, match=words):
        prepare(hand)


@pytest.mark.parametrize(
    "known, words",
    [
        ("E:A...", "analysed hand"),  # SA is in HAND
        ("E:K... S:K...", "both S and E"),
        ("E:K... E:K...", None),  # the same card twice for one seat is merely repeated
        ("N:K...", "analysed hand"),  # N is the analysed seat at position 0
        ("E:KJT987654...", None),  # 9 cards: fine
        ("E:KJT987654.AQT8765.. ", "give E 16 cards"),
        ("E:KJT987654.QT87.. E:..A.", "give E 14 cards"),  # 13 cards, then 14 across items
        ("EK...", "seat:hand"),
        ("X:K...", "seat 'X'"),
        ("E:K..", "4 suits"),
    ],
)
def test_known_cards_are_checked(known, words):
    if words is None:
        query = prepare(HAND, known=known)
        assert query.known[1] & parse_hand("K...")
        return
    with pytest.raises(CardError, match=words):
        prepare(HAND, known=known)


def test_known_forms_agree():
    """One text with several seats, a list of texts and a dict give the same known cards."""
    a = prepare(HAND, 1, known="N:K... W:.A..").known
    b = prepare(HAND, 1, known=["N:K...", "W:.A.."]).known
    c = prepare(HAND, 1, known={"N": "K...", 3: ".A.."}).known
    assert a == b == c
    assert a[1] == parse_hand(HAND) and a[0] == parse_hand("K...") and a[3] == parse_hand(".A..")


@pytest.mark.parametrize("position", [4, -1, "5", "x", 1.5, True])
def test_r18_bad_position(position):
    with pytest.raises(UserError, match="position"):
        prepare(HAND, position=position)


def test_position_accepts_digit_and_seat_letter():
    assert prepare(HAND, position="2").position == 2
    assert prepare(HAND, position="W").position == 3


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("samples", 0, "samples must be at least 1"),
        ("samples", "many", "samples"),
        ("seed", -1, "seed"),
        ("pool", 251, "pool must be 0..250"),
        ("pool", "lots", "pool"),
        ("pool", 40.1, "pool must be a whole number"),  # R30: pools hold whole units
        ("pool", "2.5", "pool must be a whole number"),
        ("pool", Fraction(81, 2), "pool must be a whole number of units"),
        ("seed", 1.0, "seed must be a whole number"),
        ("first_preference", "X", "suit"),
        ("first_preference", "NT", "first preference"),
    ],
)
def test_bad_options(field, value, words):
    with pytest.raises(UserError, match=words):
        prepare(HAND, **{field: value})


# ------------------------------------------------------ summary on injected results


def test_r24_summary_on_injected_results():
    """Every sample takes 7 in hearts, fewer elsewhere: the table follows R24/R28/R29 exactly."""
    query = prepare(HAND, samples=50, pool=40)
    result = summarise(query, *_fake(50, [3, 7, 4, 2], False, False))
    rows = {r["contract"]: r for r in result.rows}
    assert list(result.table["contract"]) == LADDER
    for c in ("5", "6", "7"):
        assert rows[c]["trump"] == "H" and rows[c]["p_make"] == 1.0
    # R24 + R28: a made 7 pays 20 from each opponent and wins the pool of 40
    assert rows["7"]["ev_total_exact"] == Fraction(3 * 20 + 40)
    assert rows["7"]["ev_payments_exact"] == 3 * 20 and rows["7"]["pool_term_exact"] == 40
    # a made 5 is conceded (R28): 3 x 10, pool untouched
    assert rows["5"]["ev_total_exact"] == Fraction(30)
    # 8 in hearts fails by one: 3 x 25 plus the pool paid in (R29)
    assert rows["8"]["ev_total_exact"] == Fraction(-3 * 25 - 40)
    assert rows["LM"]["p_make"] == 0.0 and rows["LM"]["trump"] is None
    assert result.recommendation.bid == "7" and result.recommendation.trump == 1
    assert result.recommendation.ev_total == 100
    # LM (R25: 20 each + pool 40) against the 7 worth 100: p * 100 - (1 - p) * 100 > 100
    assert result.little_misere.breakeven == 1
    assert result.little_misere.verdict == "pass" and result.little_misere.against == "7"
    assert list(result.tricks.loc["H"]) == [0] * 7 + [50] + [0] * 6


def test_recommendation_is_pass_when_nothing_beats_zero_injected():
    query = prepare(HAND, samples=20)
    result = summarise(query, *_fake(20, [2, 3, 1, 4], False, False))
    assert (result.table["ev_total"] < 0).all()
    assert result.recommendation.bid == "pass" and result.recommendation.call == "pass"
    assert result.recommendation.ev_total == 0
    assert result.to_dict()["recommendation"]["trump"] is None


def test_r11_tiers_follow_first_preference():
    tricks = _fake(10, [3, 7, 4, 2], False, False)
    plain = summarise(prepare(HAND, samples=10), *tricks)
    assert set(plain.table["tier"].dropna()) == {"plain"}
    first_h = summarise(prepare(HAND, samples=10, first_preference="H"), *tricks)
    assert first_h.rows[0]["tier"] == "1st" and first_h.rows[0]["bid"] == "5-1st"
    assert first_h.recommendation.call == "7-1st"
    second_h = summarise(prepare(HAND, samples=10, first_preference="D"), *tricks)
    assert second_h.recommendation.call == "7-2nd"


def test_little_misere_breakeven_against_pass():
    """LM made in 3 of 4 samples, numbers hopeless: break-even 1/2 against passing (R25)."""
    tricks, grand, _ = _fake(4, [0, 0, 0, 0], False, False)
    little = np.array([True, True, True, False])
    result = summarise(prepare(HAND, samples=4), tricks, grand, little)
    lm = result.little_misere
    assert lm.against == "pass" and lm.breakeven == Fraction(1, 2)
    assert lm.verdict == "bid" and lm.p_make == 0.75
    assert "75.0%" in lm.text() and "50.0%" in lm.text()


def _check_schema(data, samples):
    assert isinstance(data["hand"], str)
    assert data["samples"] == samples and isinstance(data["seed"], int)
    assert isinstance(data["seconds"], float)
    assert [c["contract"] for c in data["contracts"]] == LADDER
    for c in data["contracts"]:
        assert c["trump"] in (("S", "H", "D", "C") if c["contract"].isdigit() else (None,))
        for key in ("p_make", "ci_low", "ci_high", "ev_total", "ev_per_opponent", "ev_payments",
                    "pool_term"):
            assert isinstance(c[key], float), key
        assert c["ci_low"] <= c["p_make"] <= c["ci_high"]
        assert Fraction(c["ev_total_exact"]) == pytest.approx(c["ev_total"])
        # R24, R25: from the three opponents; R28-R30: the pool; ev_total is their sum
        assert Fraction(c["ev_payments_exact"]) == 3 * Fraction(c["ev_per_opponent_exact"])
        assert Fraction(c["ev_total_exact"]) == (Fraction(c["ev_payments_exact"])
                                                 + Fraction(c["pool_term_exact"]))
    rec = data["recommendation"]
    assert rec["bid"] == "pass" or rec["bid"] in LADDER
    assert rec["trump"] in ("S", "H", "D", "C", None)
    assert isinstance(rec["ev_total"], float)
    lm = data["little_misere"]
    for key in ("p_make", "ci_low", "ci_high", "breakeven"):
        assert isinstance(lm[key], float), key
    assert lm["verdict"] in ("bid", "pass")
    assert set(data["tricks"]) == {"S", "H", "D", "C"}
    assert all(sum(v) == samples and len(v) == 14 for v in data["tricks"].values())


def test_json_schema_keys_and_types_injected(monkeypatch, capsys):
    _patch_solver(monkeypatch, [5, 6, 7, 8], True, False)
    assert main(["hand", HAND, "--samples", "30", "--seed", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    _check_schema(data, 30)
    assert data["seed"] == 9 and data["pool"] == 40
    assert data["recommendation"]["bid"] == "GS"  # double-dummy GS made always: 3 x 160 + 40


def test_text_report_states_samples_time_and_widths(monkeypatch, capsys):
    _patch_solver(monkeypatch, [5, 6, 7, 8], False, True)
    # position 1 is seat E, so "E:K..." names the analysed seat itself
    assert main(["hand", HAND, "--samples", "40", "--known", "E:K...", "--position", "1"]) == 2
    assert "analysed hand" in capsys.readouterr().err
    argv = ["hand", HAND, "--samples", "40", "--known", "S:K...", "--first-preference", "c"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Samples: 40 (seed 0)" in out and "Wilson" in out and " s (" in out
    assert "S holds ♠K" in out and "Double-dummy only" in out
    assert "Little misère is made in 100.0%" in out
    assert "EV/opp" in out and "payments" in out and "EV total" in out


def test_plot_renders_and_closes(tmp_path):
    import matplotlib.pyplot as plt

    from reports.hand_plot import render

    result = summarise(prepare(HAND, samples=12), *_fake(12, [5, 6, 7, 8], False, True))
    path = render(result, tmp_path / "hand.png")
    assert path.stat().st_size > 1000
    assert plt.get_fignums() == []


# ------------------------------------------------------------ command line errors


@pytest.mark.parametrize(
    "argv, words",
    [
        (["hand", "AQ32.KJ9.T87"], "4 suits"),
        (["hand", "AQ32.KJ9.T87.65"], "12 cards"),
        (["hand", "AQ32.KJ9.T87.6544"], "duplicate"),
        (["hand", HAND, "--known", "E:A..."], "analysed hand"),
        (["hand", HAND, "--known", "E:K...", "--known", "W:K..."], "both"),
        (["hand", HAND, "--known", "E:KJT987654.QT8765.."], "15 cards"),
        (["hand", HAND, "--position", "4"], "position"),
        (["hand", HAND, "--position", "first"], "position"),
        (["hand", HAND, "--samples", "-3"], "samples"),
        (["hand", HAND, "--pool", "x"], "pool"),
        (["hand", HAND, "--pool", "2.5"], "pool must be a whole number"),
        (["hand", HAND, "--pool", "251"], "pool must be 0..250"),
        (["hand", HAND, "--first-preference", "Q"], "suit"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(argv, words, capsys, monkeypatch):
    def no_solving(*_args, **_kwargs):
        raise AssertionError("bad input must be refused before dealing")

    monkeypatch.setattr("analyser.hand.simulate", no_solving)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and lines[0].startswith("boston-analyser hand")


# ------------------------------------------------- end to end: real dealing + solver


@needs_solver
def test_r10_thirteen_trumps_make_13_every_sample():
    n = sized(16, 200)
    result = analyse_hand(ALL_SPADES, position=2, samples=n, seed=3)
    assert (result.tricks.loc["S", 13] == n)
    row = result.rows[LADDER.index("13")]
    assert row["trump"] == "S" and row["made"] == n and row["ci_high"] == 1.0
    assert result.recommendation.bid == "13" and result.recommendation.trump == 0
    assert result.recommendation.ev_total == 3 * 170 + 40  # R24 + R28


@needs_solver
def test_r15_low_hand_makes_both_miseres_and_verdict_is_bid():
    n = sized(16, 200)
    result = analyse_hand(LOW_HAND, position=1, samples=n, seed=5)
    rows = {r["contract"]: r for r in result.rows}
    assert rows["LM"]["made"] == n and rows["GM"]["made"] == n
    assert result.little_misere.verdict == "bid" and result.little_misere.p_make == 1.0
    assert "bid it" in result.little_misere.text()


@needs_solver
def test_results_reproduce_from_the_seed():
    n = sized(8, 100)
    a = analyse_hand(PASS_HAND, samples=n, seed=11, known="W:..K.").to_dict()
    b = analyse_hand(PASS_HAND, samples=n, seed=11, known="W:..K.").to_dict()
    c = analyse_hand(PASS_HAND, samples=n, seed=12, known="W:..K.").to_dict()
    for d in (a, b, c):
        d.pop("seconds")
        d.pop("samples_per_second")
    assert a == b
    assert c["seed"] == 12 and c["known"] == {"W": "..K."}


def test_known_cards_are_always_where_they_were_put():
    n = sized(2000, 20000)
    query = prepare(HAND, position=2, samples=n, seed=7, known="E:K.A.. W:.Q.AK.A N:J...")
    deals = deal(query)
    assert deals.shape == (n, 4)
    for seat in range(4):
        known = np.uint64(query.known[seat])
        assert ((deals[:, seat] & known) == known).all()
    assert (deals[:, 2] == np.uint64(parse_hand(HAND))).all()
    full = np.uint64((1 << 52) - 1)
    assert (np.bitwise_or.reduce(deals, axis=1) == full).all()
    assert (np.bitwise_count(deals) == 13).all()


@needs_solver
def test_recommendation_is_pass_for_a_hopeless_hand():
    """Four aces and nothing else: misères fail, no number pays its risk (R24, R29)."""
    n = sized(12, 200)
    result = analyse_hand(PASS_HAND, samples=n, seed=1)
    assert result.recommendation.bid == "pass"
    assert result.little_misere.verdict == "pass"



@needs_solver
def test_json_schema_real_run(capsys):
    assert main(["hand", PASS_HAND, "--samples", "6", "--seed", "2", "--json"]) == 0
    _check_schema(json.loads(capsys.readouterr().out), 6)


def test_default_sample_budget_is_documented():
    from analyser import cmd_hand

    assert DEFAULT_SAMPLES is None  # the default is a time budget, not a count
    assert f"{BUDGET_SECONDS:g}" in cmd_hand.DESCRIPTION
    assert str(BUDGET_MAX_SAMPLES) in cmd_hand.DESCRIPTION


def test_default_budget_means_auto_and_explicit_counts_stay_fixed():
    assert prepare(HAND).budget == BUDGET_SECONDS
    assert prepare(HAND, samples="auto").samples == BUDGET_MAX_SAMPLES
    assert prepare(HAND, samples=7).budget is None and prepare(HAND, samples=7).samples == 7


@needs_solver
def test_r15_budgeted_default_equals_a_fixed_run_of_the_count_it_solved(monkeypatch):
    import analyser.hand as hand_module

    monkeypatch.setattr(hand_module, "BUDGET_SECONDS", 0.5)
    auto = analyse_hand(LOW_HAND, position=1, seed=5)
    assert auto.query.budget == 0.5
    assert 1 <= auto.samples <= BUDGET_MAX_SAMPLES
    fixed = analyse_hand(LOW_HAND, position=1, samples=auto.samples, seed=5)
    a, b = auto.to_dict(), fixed.to_dict()
    assert a["samples_budget_seconds"] == 0.5 and b["samples_budget_seconds"] is None
    for d in (a, b):
        for key in ("seconds", "samples_per_second", "samples_budget_seconds"):
            d.pop(key)
    assert a == b  # completion i depends only on the seed
    assert auto.little_misere.verdict == "bid"  # R15: the 2-3-4 hand makes LM every time


def test_budget_steps_grow_no_faster_than_the_solved_count(monkeypatch):
    # a few easy completions first, then slow ones: the rate from the easy ones must not
    # size one huge step (a 10 s budget once overran fivefold that way)
    import dataclasses
    import time

    import analyser.hand as hand_module
    import analyser.solver as solver_module

    calls = []

    def fake_solve(deals, position, leader, defender_discard):
        n = len(deals)
        done = sum(calls)
        time.sleep(0.0005 * n if done < 4 else 0.02 * n)
        calls.append(n)
        return (np.zeros((n, 4), np.int8), np.zeros(n, bool), np.zeros(n, bool))

    monkeypatch.setattr(solver_module, "solve_declarer", fake_solve)
    query = dataclasses.replace(prepare(HAND, seed=3), budget=0.3)
    deals = deal(query)
    began = time.perf_counter()
    tricks, _, _ = hand_module.solve(query, deals)
    spent = time.perf_counter() - began
    assert spent < 0.6, (spent, calls)  # within twice the budget
    assert all(calls[i] <= max(2, sum(calls[:i])) for i in range(len(calls)))
    assert len(tricks) == sum(calls)
