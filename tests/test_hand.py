"""Tests of analyser/hand.py, hand_query.py, cmd_hand.py and reports/hand_text.py
("should I bid this?").

Two kinds: the summary and the command line checked on injected solver results (fast, no
kernels), and end-to-end runs through the real dealing and solver modules on small sample
counts (`sized`).
"""

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
    BUDGET_REAL_SECONDS,
    BUDGET_SECONDS,
    DEFAULT_SAMPLES,
    PILOT_DEALS,
    analyse_hand,
    child_seed,
    deal,
    prepare,
    summarise,
)

ALL_SPADES = "AKQJT98765432..."
LOW_HAND = "5432.432.432.432"  # the 2, 3, 4 of every suit and the 5 of spades
HAND = "AQ32.KJ9.T87.654"  # natural trump spades (the longest suit)
HEARTS_HAND = "A32.AKQJ9.T87.65"  # natural trump hearts (five cards)
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
        ("E:KJT987654.AQT8765.. ", "16 cards"),
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
    query = prepare(HEARTS_HAND, samples=50, pool=40)
    result = summarise(query, *_fake(50, [3, 7, 4, 2], False, False))
    rows = {r["contract"]: r for r in result.rows}
    assert list(result.table["contract"]) == LADDER
    for c in ("5", "6", "7"):
        assert rows[c]["trump"] == "H" and rows[c]["p_make"] == 1.0
    # R24 + R28 + R30: a made 7 pays 20 from each opponent and wins the pool of 40, the
    # only pool, so every player re-antes 10, the declarer too
    assert rows["7"]["ev_total_exact"] == Fraction(3 * 20 + 40 - 10)
    assert rows["7"]["ev_payments_exact"] == 3 * 20 and rows["7"]["pool_term_exact"] == 30
    # a made 5 is conceded (R28): 3 x 10, pool untouched
    assert rows["5"]["ev_total_exact"] == Fraction(30)
    # 8 in hearts fails by one: 3 x 25 plus the pool paid in (R29)
    assert rows["8"]["ev_total_exact"] == Fraction(-3 * 25 - 40)
    assert rows["LM"]["p_make"] == 0.0 and rows["LM"]["trump"] is None
    assert result.recommendation.bid == "7" and result.recommendation.trump == 1
    assert result.recommendation.ev_total == 90
    # LM (R25: 20 each, the pool of 40 less the re-ante or doubled) against the 7 worth 90:
    # p * 90 - (1 - p) * 100 > 90 never holds
    assert result.little_misere.breakeven == 1
    assert result.little_misere.verdict == "pass" and result.little_misere.against == "7"
    assert list(result.tricks.loc["H"]) == [0] * 7 + [50] + [0] * 6


def _pass_table(value, position=0):
    """A pass-value table worth `value` at `position` for every hand."""
    from analyser.pass_value import from_json

    row = {"scope": "pass", "feature": "all", "position": position, "bin": -1,
           "bin_label": "all", "hands": 100, "mean": float(value), "stderr": 1.5,
           "mean_exact": str(Fraction(value))}
    return from_json({"format": 1, "source": {"config": {"sessions": 9}}, "rows": [row]},
                     "test.json")


def test_recommendation_is_pass_when_nothing_beats_the_pass_value_injected():
    query = prepare(HAND, samples=20)
    result = summarise(query, *_fake(20, [2, 3, 1, 4], False, False),
                       pass_table=_pass_table(Fraction(-7, 2)))
    assert (result.table["ev_total"] < -7 / 2).all()
    assert result.recommendation.bid == "pass" and result.recommendation.call == "pass"
    assert result.recommendation.ev_total == Fraction(-7, 2)
    data = result.to_dict()
    assert data["recommendation"]["trump"] is None
    assert data["recommendation"]["text"].startswith("pass: expected -3.50 per hand")
    assert data["pass_value"]["value_exact"] == "-7/2" and data["pass_value"]["hands"] == 100
    assert any(note.startswith("Passing is valued at -3.50") and "test.json" in note
               for note in data["notes"])


def test_a_bid_must_beat_the_pass_value_not_zero_injected():
    """5 in spades is made every time, conceded (R28): +30. Passing worth +40 beats it;
    passing worth -40 makes a failing 8 (-75 - 40 = -115) still worse, the 5 better."""
    tricks = _fake(10, [5, 3, 1, 4], False, False)
    rich = summarise(prepare(HAND, samples=10), *tricks, pass_table=_pass_table(40))
    assert rich.recommendation.bid == "pass" and rich.recommendation.ev_total == 40
    poor = summarise(prepare(HAND, samples=10), *tricks, pass_table=_pass_table(-40))
    assert poor.recommendation.bid == "5" and poor.recommendation.ev_total == 30
    assert poor.recommendation.pass_value == -40
    assert poor.recommendation.text().endswith("(passing: -40.00).")
    # a bid that loses, but loses less than passing, is recommended
    fails = _fake(10, [4, 3, 1, 4], False, False)  # 5 down one: -3 x 10 - 40 = -70
    worse = summarise(prepare(HAND, samples=10), *fails, pass_table=_pass_table(-80))
    assert worse.recommendation.bid == "5" and worse.recommendation.ev_total == -70


def test_the_shipped_pass_value_is_reported_for_the_hands_position():
    from analyser.pass_value import default_table

    result = summarise(prepare(HAND, position=2, samples=10),
                       *_fake(10, [2, 3, 1, 4], False, False))
    expected = default_table().lookup(2, parse_hand(HAND))
    assert result.passing == expected
    assert result.to_dict()["pass_value"]["basis"].startswith("position 2")
    assert result.recommendation.ev_total == expected.value


def test_r11_tiers_follow_first_preference():
    tricks = _fake(10, [3, 7, 4, 2], False, False)
    plain = summarise(prepare(HEARTS_HAND, samples=10), *tricks)
    assert set(plain.table["tier"].dropna()) == {"plain"}
    first_h = summarise(prepare(HEARTS_HAND, samples=10, first_preference="H"), *tricks)
    assert first_h.rows[0]["tier"] == "1st" and first_h.rows[0]["bid"] == "5-1st"
    assert first_h.recommendation.call == "7-1st"
    second_h = summarise(prepare(HEARTS_HAND, samples=10, first_preference="D"), *tricks)
    assert second_h.recommendation.call == "7-2nd"


def test_little_misere_breakeven_against_pass():
    """LM made in 3 of 4 samples, numbers hopeless. Made: 60 + 40 - 10 (R25, R28, R30);
    failed: -60 - 40 (R29). Against passing worth 0 the break-even is 100/190; against
    passing worth -20 it is 80/190."""
    tricks, grand, _ = _fake(4, [0, 0, 0, 0], False, False)
    little = np.array([True, True, True, False])
    result = summarise(prepare(HAND, samples=4), tricks, grand, little,
                       pass_table=_pass_table(0))
    lm = result.little_misere
    assert lm.against == "pass" and lm.breakeven == Fraction(100, 190)
    assert lm.verdict == "bid" and lm.p_make == 0.75
    assert "75.0%" in lm.text() and "52.6%" in lm.text() and "passing (+0.00)" in lm.text()
    poor = summarise(prepare(HAND, samples=4), tricks, grand, little,
                     pass_table=_pass_table(-20)).little_misere
    assert poor.breakeven == Fraction(80, 190) and poor.against_ev == -20
    assert "passing (-20.00)" in poor.text()


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
    assert data["seed"] == 9 and data["pool"] == 40 and data["exact"] is False
    assert data["trump_rule"] == "natural"
    # GM made always: 3 x 40 + 40; GS (3 x 160 + 40 double-dummy) is never recommended
    assert data["recommendation"]["bid"] == "GM"
    assert data["recommendation"]["text"].startswith("bid GM")


def test_text_report_states_samples_time_and_widths(monkeypatch, capsys):
    _patch_solver(monkeypatch, [5, 6, 7, 8], False, True)
    # position 1 is seat E, so "E:K..." names the analysed seat itself
    assert main(["hand", HAND, "--samples", "40", "--known", "E:K...", "--position", "1"]) == 2
    assert "analysed hand" in capsys.readouterr().err
    argv = ["hand", HAND, "--samples", "40", "--known", "S:K...", "--first-preference", "c"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Samples: 40 (seed 0)" in out and "Wilson" in out and " s (" in out
    assert "S holds ♠K" in out and "Double-dummy play" in out
    assert "Little misère is made in 100.0%" in out
    assert "EV/opp" in out and "payments" in out and "EV total" in out




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


def test_r10_thirteen_trumps_make_13_every_sample():
    n = sized(16, 200)
    result = analyse_hand(ALL_SPADES, position=2, samples=n, seed=3)
    assert (result.tricks.loc["S", 13] == n)
    row = result.rows[LADDER.index("13")]
    assert row["trump"] == "S" and row["made"] == n and row["ci_high"] == 1.0
    assert result.recommendation.bid == "13" and result.recommendation.trump == 0
    assert result.recommendation.ev_total == 3 * 170 + 40 - 10  # R24 + R28, R30 re-ante


def test_r15_low_hand_makes_both_miseres_and_verdict_is_bid():
    n = sized(16, 200)
    result = analyse_hand(LOW_HAND, position=1, samples=n, seed=5)
    rows = {r["contract"]: r for r in result.rows}
    assert rows["LM"]["made"] == n and rows["GM"]["made"] == n
    assert result.little_misere.verdict == "bid" and result.little_misere.p_make == 1.0
    assert "bid it" in result.little_misere.text()
    # R16: GS pays most and is made double-dummy whenever GM is, but is never recommended
    assert rows["GS"]["ev_total_exact"] > rows["GM"]["ev_total_exact"]
    assert result.recommendation.bid == "GM"


def test_r16_cli_never_recommends_a_spread_for_the_low_hand(capsys):
    n = sized(8, 100)
    assert main(["hand", LOW_HAND, "--samples", str(n), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Recommendation: bid GM" in out
    assert "bid GS" not in out and "bid LS" not in out and "never recommended" in out


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


def test_a_hand_of_aces_weighs_its_bids_against_the_pass_value():
    """Four aces and nothing else: misères fail (R15), and the recommendation is the best
    number only where it beats what passing is worth to this hand (its pass value, which
    counts the tricks its aces take in misère partout, R26), else pass."""
    n = sized(12, 200)
    result = analyse_hand(PASS_HAND, samples=n, seed=1)
    best = max(r["ev_total_exact"] for r in result.rows if r["recommendable"])
    passing = result.passing.value
    assert result.passing.basis() == "position 0, hcp 15-17"
    if best > passing:
        assert result.recommendation.ev_total == best and result.recommendation.bid != "pass"
    else:
        assert result.recommendation.bid == "pass" and result.recommendation.ev_total == passing
    assert result.little_misere.verdict == "pass"



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


def test_r15_budgeted_default_equals_a_fixed_run_of_the_count_it_solved(monkeypatch):
    import analyser.hand_query as hand_query

    monkeypatch.setattr(hand_query, "BUDGET_SECONDS", 0.5)
    auto = analyse_hand(LOW_HAND, position=1, seed=5)
    assert auto.query.budget == 0.5
    assert 1 <= auto.samples <= BUDGET_MAX_SAMPLES
    fixed = analyse_hand(LOW_HAND, position=1, samples=auto.samples, seed=5)
    a, b = auto.to_dict(), fixed.to_dict()
    assert a["samples_budget_seconds"] == 0.5 and b["samples_budget_seconds"] is None
    for d in (a, b):
        for key in ("seconds", "samples_per_second", "samples_budget_seconds",
                    "samples_budget_max"):
            d.pop(key)
    assert a == b  # completion i depends only on the seed
    assert auto.little_misere.verdict == "bid"  # R15: the 2-3-4 hand makes LM every time


def test_budget_steps_grow_no_faster_than_the_solved_count(monkeypatch):
    # a few easy completions first, then slow ones: the rate from the easy ones must not
    # size one step that overruns the budget
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


# ---------------------------------------------------- spreads are never recommended (R16)


def test_r16_spreads_are_shown_but_never_recommended_injected():
    """Every misère and spread made, numbers hopeless: GS would pay most double-dummy."""
    result = summarise(prepare(HAND, samples=20), *_fake(20, [0, 0, 0, 0], True, True))
    rows = {r["contract"]: r for r in result.rows}
    assert rows["GS"]["p_make"] == 1.0
    assert rows["GS"]["ev_total_exact"] > rows["GM"]["ev_total_exact"] > 0
    assert not rows["LS"]["recommendable"] and not rows["GS"]["recommendable"]
    assert all(rows[c]["recommendable"] for c in LADDER if c not in ("LS", "GS"))
    assert result.recommendation.bid == "GM"
    assert any("never recommended" in note for note in result.notes)
    data = result.to_dict()
    assert [c["contract"] for c in data["contracts"] if not c["recommendable"]] == ["LS", "GS"]


def test_r15_little_misere_is_weighed_against_numbers_never_a_spread():
    result = summarise(prepare(HAND, samples=10), *_fake(10, [0, 0, 0, 0], False, True))
    assert result.recommendation.bid == "LM"  # LS is made as often and pays more
    assert result.little_misere.against == "pass"
    assert result.little_misere.verdict == "bid"


# ----------------------------------------------- the trump is fixed before the samples (R12)


def test_r12_numbers_are_played_in_the_natural_trump_whatever_the_samples_say():
    """HAND's natural trump is spades; hearts or diamonds doing better on these samples
    changes neither the trump nor the estimate of any number."""
    a = summarise(prepare(HAND, samples=10), *_fake(10, [7, 9, 4, 2], False, False))
    b = summarise(prepare(HAND, samples=10), *_fake(10, [7, 3, 12, 2], False, False))
    for row_a, row_b in zip(a.rows[:3] + a.rows[4:6], b.rows[:3] + b.rows[4:6], strict=True):
        assert row_a["trump"] == row_b["trump"] == "S"
        assert row_a["made"] == row_b["made"] and row_a["ev_total_exact"] == row_b["ev_total_exact"]
    assert a.recommendation.bid == b.recommendation.bid == "7"
    assert a.recommendation.trump == 0
    assert a.to_dict()["trump_rule"] == "natural"


def test_r12_reported_make_rate_is_unbiased():
    """Four equally good trumps, each making 7 half the time: the reported P(make) averages
    1/2 over many runs, where the best of four on the same samples would average about 0.66."""
    reps, n = sized(300, 3000), 10
    rng = np.random.default_rng(5)
    query = prepare(HAND, samples=n)
    reported, best_of_four = [], []
    for _ in range(reps):
        tricks = rng.integers(6, 8, size=(n, 4)).astype(np.int8)
        result = summarise(query, tricks, np.zeros(n, bool), np.zeros(n, bool))
        reported.append(result.rows[LADDER.index("7")]["p_make"])
        best_of_four.append((tricks >= 7).mean(axis=0).max())
    se = 0.5 / np.sqrt(reps * n)
    assert abs(np.mean(reported) - 0.5) < 4 * se
    assert np.mean(best_of_four) > 0.5 + 10 * se  # the bias a choice on these samples has


# ------------------------------------------------------- every card known: one exact solve

FULL_DEAL_KNOWN = "E:AKQJT9876.AKQJ.. S:.T98765.AKQJT98. W:..765.AKQJT98765"


def test_all_other_cards_known_is_one_exact_sample():
    for samples in (500, None, "auto"):
        query = prepare(LOW_HAND, samples=samples, known=FULL_DEAL_KNOWN)
        assert query.exact and query.samples == 1 and query.budget is None
    assert not prepare(LOW_HAND, samples=5, known="E:AKQJT9876.AKQJ..").exact


def test_exact_deal_is_solved_once_and_says_so(capsys):
    argv = ["hand", LOW_HAND, "--samples", "50", "--known", FULL_DEAL_KNOWN]
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and data["samples"] == 1 and data["max_ci_half_width"] == 0
    for c in data["contracts"]:
        assert c["ci_low"] == c["p_make"] == c["ci_high"] and c["p_make"] in (0.0, 1.0)
    assert all(sum(counts) == 1 for counts in data["tricks"].values())
    assert "on this deal" in data["little_misere"]["text"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Exact: every card is known" in out and "95%" not in out


# ------------------------------------------------------------------------------ the plot


def _no_solving(*_args, **_kwargs):
    raise AssertionError("a bad --plot must be refused before dealing")


def test_plot_path_is_checked_before_solving(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("analyser.hand.simulate", _no_solving)
    (tmp_path / "file.txt").write_text("x")
    for plot, words in [
        (tmp_path / "hand.xyz", "unsupported format 'xyz'"),
        (tmp_path / "hand", "unsupported format"),
        (tmp_path / "file.txt" / "hand.png", "is not a folder"),
        ("/proc/hand.png", "not writable"),  # read-only even for root
        (tmp_path, "is a folder"),
    ]:
        assert main(["hand", HAND, "--samples", "5", "--plot", str(plot)]) == 2
        captured = capsys.readouterr()
        lines = captured.err.strip().splitlines()
        assert captured.out == "" and len(lines) == 1 and words in lines[0], (plot, lines)


def test_plot_is_drawn_from_the_plain_dict(tmp_path, capsys, monkeypatch):
    _patch_solver(monkeypatch, [5, 6, 7, 8], False, True)
    seen = {}

    def fake_render(data, path):
        seen.update(data=data, path=path)
        return path

    monkeypatch.setattr("reports.hand_plot.render", fake_render)
    plot = tmp_path / "new" / "hand.png"
    assert main(["hand", HAND, "--samples", "12", "--plot", str(plot)]) == 0
    assert f"Plot written to {plot}" in capsys.readouterr().out
    data = seen["data"]
    assert seen["path"] == plot and json.loads(json.dumps(data)) == data  # JSON types only
    assert data["samples"] == 12 and set(data["tricks"]) == {"S", "H", "D", "C"}
    for key in ("hand", "position"):
        assert key in data
    for c in data["contracts"]:
        assert {"contract", "p_make", "ci_low", "ci_high"} <= set(c)
    assert isinstance(data["little_misere"]["breakeven"], float)
    assert isinstance(data["recommendation"]["call"], str)


def test_plot_write_failure_prints_the_analysis_then_one_error_line(tmp_path, capsys,
                                                                   monkeypatch):
    _patch_solver(monkeypatch, [5, 6, 7, 8], False, True)

    def failing(data, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("reports.hand_plot.render", failing)
    assert main(["hand", HAND, "--samples", "12", "--plot", str(tmp_path / "h.png")]) == 2
    captured = capsys.readouterr()
    assert "Recommendation:" in captured.out and "Plot written" not in captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "could not write the plot" in lines[0]
    assert "No space left" in lines[0] and lines[0].startswith("boston-analyser hand")


# ------------------------------------------------------------------- the text report


def test_text_report_renders_the_plain_dict():
    from reports.hand_text import render

    result = summarise(prepare(HAND, samples=8, known="E:K.A.. W:..Q."),
                       *_fake(8, [5, 6, 7, 8], True, True))
    data = json.loads(result.to_json())
    text = render(data)
    assert text.startswith(f"Hand {HAND} (4-3-3-3) at position 0 (seat N; dealer W, N leads)")
    assert "Known: E holds ♠K ♥A; W holds ♦Q" in text
    lines = text.splitlines()
    for c in data["contracts"]:
        assert any(line.startswith(f"{c['contract']:<8} ") for line in lines), c["contract"]
    assert any(line.startswith("GS ") and "GS*" in line for line in lines)
    assert "* shown, never recommended" in text
    assert "Numbers are played in S, the hand's natural trump" in text
    assert "Recommendation: " + data["recommendation"]["text"] in text
    assert data["little_misere"]["text"] in text
    assert all("Note: " + note in text for note in data["notes"])


def test_reports_hand_text_imports_nothing_from_analyser():
    import ast
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "reports" / "hand_text.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        assert not any(n.split(".")[0] == "analyser" for n in names)


# ------------------------------------------------------------ real play (--play real)

REAL = ("5", "6", "LM", "GM", "LS", "GS")  # what _patch_real plays for real


def _fake_real(n, numbers=(0, 0), lm=True, gm=True, ls=False, gs=False):
    """Injected real-play results {contract: (declarer tricks (n,), made (n,))}."""
    out = {}
    for contract, tricks in zip(("5", "6"), numbers, strict=True):
        t = np.full(n, tricks, dtype=np.int8)
        out[contract] = (t, t >= int(contract))
    for contract, made in (("LM", lm), ("GM", gm), ("LS", ls), ("GS", gs)):
        out[contract] = (np.full(n, 0 if made else 1, dtype=np.int8), np.full(n, made))
    return out


def _patch_real(monkeypatch, tricks_by_trump, grand, little, **real):
    """Replace deal, real play and solve by injected results, for output tests only."""
    def fake(q, progress=False):
        return (None, *_fake(q.samples, tricks_by_trump, grand, little),
                _fake_real(q.samples, **real))

    monkeypatch.setattr("analyser.hand.simulate_real", fake)


def test_play_option_is_checked():
    assert prepare(HAND).play == "dd" and prepare(HAND, play="REAL").play == "real"
    with pytest.raises(UserError, match="play must be one of dd, real"):
        prepare(HAND, play="double")
    assert prepare(HAND, play="real").budget == BUDGET_REAL_SECONDS
    assert prepare(HAND, time_budget="2.5").budget == 2.5
    fixed = prepare(HAND, samples=7, time_budget=3)
    assert fixed.samples == 7 and fixed.budget == 3  # a count with a budget: both apply
    for bad in (0, -1, "x", "inf", True):
        with pytest.raises(UserError, match="time budget"):
            prepare(HAND, time_budget=bad)
    with pytest.raises(UserError, match="jobs"):
        prepare(HAND, jobs=0)
    with pytest.raises(UserError, match="unknown setting 'world'"):
        prepare(HAND, play="real", real_options={"world": 3})
    assert prepare(HAND, real_options={"worlds": 3, "agree_stop": 1}).real_options == (
        ("agree_stop", 1), ("worlds", 3))


def test_real_play_json_rows_injected(monkeypatch, capsys):
    """R16 under real play: the spreads fail where the misères are made (the defenders see
    the exposed hand), although double-dummy makes every one of them."""
    _patch_real(monkeypatch, [0, 0, 0, 0], True, True)
    argv = ["hand", HAND, "--samples", "20", "--seed", "4", "--play", "real", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    _check_schema(data, 20)
    assert data["play"] == "real" and data["real_contracts"] == list(REAL)
    assert data["jobs"] >= 1 and data["real_pilot_deals"] == PILOT_DEALS
    rows = {c["contract"]: c for c in data["contracts"]}
    for contract, row in rows.items():
        for key in ("p_make_dd", "made_dd", "ci_low_dd", "ci_high_dd", "ev_total_dd",
                    "ev_total_dd_exact"):
            assert key in row, (contract, key)
        assert row["play"] == ("real" if contract in REAL else "double-dummy")
        assert row["recommendable"] == (contract in REAL)  # no silent mixing
    assert rows["LM"]["p_make"] == rows["GM"]["p_make"] == 1.0
    assert rows["LS"]["p_make"] == rows["GS"]["p_make"] == 0.0
    assert all(rows[c]["p_make_dd"] == 1.0 for c in ("LM", "GM", "LS", "GS"))
    assert rows["GS"]["ev_total"] < 0 < rows["GS"]["ev_total_dd"]
    # a double-dummy-only row reports double-dummy play: p_make is its p_make_dd
    assert rows["7"]["p_make"] == rows["7"]["p_make_dd"] and rows["7"]["play"] == "double-dummy"
    rec = data["recommendation"]
    assert rec["bid"] == "GM" and rec["spreads_excluded"] is False and rec["spreads_reason"] is None


def test_r16_real_play_may_recommend_a_spread_injected(monkeypatch, capsys):
    _patch_real(monkeypatch, [0, 0, 0, 0], True, True, ls=True, gs=True)
    assert main(["hand", HAND, "--samples", "10", "--play", "real", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["recommendation"]["bid"] == "GS"


def test_r16_dd_play_never_recommends_a_spread_and_says_why(monkeypatch, capsys):
    _patch_solver(monkeypatch, [0, 0, 0, 0], True, True)  # GS would pay most
    assert main(["hand", HAND, "--samples", "10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rec = data["recommendation"]
    assert rec["bid"] == "GM" and rec["spreads_excluded"] is True
    assert data["play"] == "double-dummy" and data["real_contracts"] == []
    assert all(c["play"] == "double-dummy" and c["p_make_dd"] == c["p_make"]
               for c in data["contracts"])
    assert main(["hand", HAND, "--samples", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("Recommendation: " + rec["text"])
    assert lines[at + 1] == rec["spreads_reason"]
    assert "not recommended under double-dummy play" in lines[at + 1] and "4x" in lines[at + 1]


def test_real_play_text_report_injected(monkeypatch, capsys):
    _patch_real(monkeypatch, [5, 6, 7, 8], False, True, numbers=(5, 4), lm=False, gm=False)
    assert main(["hand", HAND, "--samples", "12", "--play", "real", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "Play: real (imperfect information) for 5, 6, LM, GM, LS, GS, in 1 process" in out
    assert "DD P(make)" in lines[lines.index("") + 1]
    row5 = next(line for line in lines if line.startswith("5 "))
    row7 = next(line for line in lines if line.startswith("7 "))
    assert "100.0%" in row5 and "7^" in row7  # 5 made for real; 7 double-dummy only
    assert "^ double-dummy only" in out and "not recommended under double-dummy" not in out
    assert "Recommendation: bid 5 in S" in out  # the real 5 beats the real 6 and LM


@pytest.mark.parametrize(
    "argv, words",
    [
        (["hand", HAND, "--play", "best"], "play must be one of dd, real"),
        (["hand", HAND, "--time-budget", "0"], "time budget"),
        (["hand", HAND, "--time-budget", "soon"], "time budget"),
        (["hand", HAND, "--play", "real", "--jobs", "0"], "jobs must be at least 1"),
    ],
)
def test_cli_bad_play_options_exit_2_with_one_line(argv, words, capsys, monkeypatch):
    def no_work(*_args, **_kwargs):
        raise AssertionError("bad input must be refused before dealing")

    monkeypatch.setattr("analyser.hand.simulate", no_work)
    monkeypatch.setattr("analyser.hand.simulate_real", no_work)
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and words in lines[0]


def test_child_seeds_are_distinct_and_fixed():
    seeds = {child_seed(1, 1, i, k) for i in range(50) for k in range(13)}
    assert len(seeds) == 50 * 13 and child_seed(1, 1, 3, 4) == child_seed(1, 1, 3, 4)
    assert child_seed(1, 0) != child_seed(2, 0) and all(0 <= s < 2**63 for s in seeds)


def _fake_play_sample(i, deal_row, position, plays, options):
    """play_sample stand-in: a result that depends on the sample and the seed only."""
    import time

    time.sleep(0.02)
    return i, [((seed + i) % 14, bool(seed % 2)) for _, _, seed in plays]


def test_real_play_budget_stops_early_states_the_count_and_reproduces(monkeypatch, capsys):
    import analyser.hand as hand_module

    monkeypatch.setattr(hand_module, "play_sample", _fake_play_sample)
    monkeypatch.setattr(hand_module, "real_contracts", lambda q: REAL)
    argv = ["hand", PASS_HAND, "--play", "real", "--jobs", "1", "--seed", "3"]
    assert main(argv + ["--time-budget", "0.3", "--json"]) == 0
    auto = json.loads(capsys.readouterr().out)
    assert 1 <= auto["samples"] < 20 and auto["samples_budget_seconds"] == 0.3
    assert auto["samples_budget_max"] == BUDGET_MAX_SAMPLES
    n = auto["samples"]
    assert main(argv + ["--time-budget", "0.3"]) == 0
    text = capsys.readouterr().out
    assert "(Time budget: " in text and "of real play" in text
    assert main(argv + ["--samples", str(n), "--json"]) == 0
    fixed = json.loads(capsys.readouterr().out)
    for d in (auto, fixed):
        for key in ("seconds", "samples_per_second", "samples_budget_seconds",
                    "samples_budget_max"):
            d.pop(key)
    assert auto == fixed  # sample i depends only on the seed


# End-to-end real play through analyser.play on PASS_HAND (its misères are lost at once);
# the default run plays with few worlds per decision (QUICK_PLAYER), the full one with the
# real player's defaults.
QUICK_PLAYER = {"worlds": 4, "agree_stop": 2, "exact_below": 8}


def _without_timing(data):
    for key in ("seconds", "samples_per_second", "jobs"):
        data.pop(key)
    return data


@pytest.mark.slow
def test_real_play_same_result_with_jobs_1_and_2_and_dd_beside_it_full():
    _check_real_against_dd(6, None)


def test_real_play_same_result_with_jobs_1_and_2_and_dd_beside_it():
    _check_real_against_dd(2, QUICK_PLAYER)


def _check_real_against_dd(n, options):
    one = analyse_hand(PASS_HAND, samples=n, seed=8, play="real", jobs=1, real_options=options)
    two = analyse_hand(PASS_HAND, samples=n, seed=8, play="real", jobs=2, real_options=options)
    assert _without_timing(one.to_dict()) == _without_timing(two.to_dict())
    dd = analyse_hand(PASS_HAND, samples=n, seed=8).to_dict()
    real = one.to_dict()
    assert real["tricks"] == dd["tricks"]  # the same samples
    for r, d in zip(real["contracts"], dd["contracts"], strict=True):
        # the double-dummy columns are the dd analysis of the same samples
        assert (r["made_dd"], r["p_make_dd"], r["ci_low_dd"], r["ci_high_dd"]) == (
            d["made"], d["p_make"], d["ci_low"], d["ci_high"])
        assert r["ev_total_dd_exact"] == d["ev_total_exact"]
        if r["play"] == "double-dummy":
            assert r["p_make"] == d["p_make"] and r["ev_total_exact"] == d["ev_total_exact"]
    assert len(real["real_contracts"]) == 6


# R16: the declarer's only danger is the singleton club 9 (the defenders hold the 2-8).
# Hidden, the defenders must guess it, and with seed 2 they miss it in grand misère; the
# exposed hand of a grand spread shows it, and the spread fails. Double-dummy, both fail.
EXPOSED_DEAL = ("N:65432.5432.432.9 AQJ9.AT7.K6.A873 8.KQJ8.J987.J642 KT7.96.AQT5.KQT5")
EXPOSED_KNOWN = "E:AQJ9.AT7.K6.A873 S:8.KQJ8.J987.J642 W:KT7.96.AQT5.KQT5"


def test_r16_real_play_grand_spread_fails_where_grand_misere_is_made():
    from analyser.cards import parse_deal
    from analyser.hand import LADDER as HAND_LADDER
    from analyser.hand import play_sample

    deal_row = parse_deal(EXPOSED_DEAL)
    plays = [(c, None, child_seed(2, 1, 0, HAND_LADDER.index(c))) for c in ("GM", "GS")]
    assert play_sample(0, deal_row, 0, plays) == (0, [(0, True), (1, False)])


@pytest.mark.slow
def test_r16_real_play_spread_differs_from_its_misere_in_the_analysis():
    result = analyse_hand("65432.5432.432.9", known=EXPOSED_KNOWN, play="real", seed=2, jobs=1)
    rows = {r["contract"]: r for r in result.rows}
    assert result.exact and rows["GM"]["made"] == 1 and rows["GS"]["made"] == 0
    assert rows["GM"]["made_dd"] == rows["GS"]["made_dd"] == 0


def test_plot_under_real_play_draws_real_and_dd_bars_side_by_side(tmp_path):
    from matplotlib.container import BarContainer

    from reports.hand_plot import figure, render

    query = prepare(HAND, samples=10, play="real")
    real = _fake_real(10, numbers=(5, 4), lm=True, gm=True, ls=False, gs=False)
    data = summarise(query, *_fake(10, [5, 6, 7, 8], True, True), real=real).to_dict()
    right = figure(data).axes[1]
    bars = {c.get_label(): [b.get_height() for b in c] for c in right.containers
            if isinstance(c, BarContainer)}
    assert list(bars) == ["real play", "double-dummy"]
    assert bars["real play"] == [1.0, 0.0, 1.0, 1.0, 0.0, 0.0]  # 5, 6, LM, GM, LS, GS
    assert bars["double-dummy"] == [1.0, 0.0, 1.0, 1.0, 1.0, 1.0]  # 5 tricks in S
    assert [t.get_text() for t in right.get_xticklabels()] == list(REAL)
    dd = summarise(prepare(HAND, samples=10), *_fake(10, [5, 6, 7, 8], True, True)).to_dict()
    assert [c.get_label() for c in figure(dd).axes[1].containers
            if isinstance(c, BarContainer)] == ["double-dummy"]
    assert render(data, tmp_path / "real.png").stat().st_size > 0
