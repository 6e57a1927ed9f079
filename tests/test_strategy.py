"""Bidding strategies (analyser/strategy.py): legal calls (R9-R14), monotone thresholds,
the cheapest tier and the trump it may name (R11, R12), and strategy files."""

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser import estimate as E
from analyser.auction import PASS, Auction
from analyser.contracts import (
    LADDER,
    MISERE_CONTRACTS,
    NUMERIC_CONTRACTS,
    allowed_trumps,
    parse_bid,
)
from analyser.errors import UserError
from analyser.strategy import (
    BUILTINS,
    CallView,
    ExpectedValueStrategy,
    ThresholdStrategy,
    load_strategy,
    outcome_values,
    parse_strategy,
)
from tests.test_estimate import random_masks, synthetic_hands


@pytest.fixture(scope="module")
def synthetic():
    """An estimate where a suit takes as many tricks as it has cards (tests/test_estimate.py)."""
    return E.fit(synthetic_hands(1500, 7))


def view_after(calls, hand, dealer, first_preference, plain_bid_trump="any") -> CallView:
    """The view of the seat to call after the legal sequence `calls`."""
    auction = Auction(dealer)
    for call in calls:
        auction.call(call)
    return CallView(hand=int(hand), seat=auction.to_call, dealer=dealer,
                    first_preference=first_preference, calls=tuple(auction.calls), pool=40,
                    legal=auction.legal_calls(), plain_bid_trump=plain_bid_trump)


@st.composite
def views(draw):
    """A random hand and a random unfinished auction (passed seats included, R13)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    dealer = draw(st.integers(0, 3))
    auction = Auction(dealer)
    for _ in range(draw(st.integers(0, 12))):
        legal = auction.legal_calls()
        # passes half the time, so auctions run long enough for passed seats to call again
        call = PASS if rng.random() < 0.5 else legal[rng.integers(len(legal))]
        auction.call(call)
        if auction.finished:
            break
    if auction.finished:
        auction = Auction(dealer)
    hand = random_masks(1, seed)[0]
    return view_after(auction.calls, hand, dealer, draw(st.integers(0, 3)),
                      draw(st.sampled_from(["any", "plain-only"])))


def rank(call) -> int:
    """Ladder rank of a call's contract (R9); pass is below every contract."""
    return -1 if call == PASS else LADDER.index(parse_bid(call).contract)


def has_passed(view: CallView) -> bool:
    """Whether the seat to call passed earlier in this auction (its calls are every fourth)."""
    return PASS in view.calls[view.position::4]


def assert_legal(call, view: CallView) -> None:
    """R11-R13: one of the legal calls; after passing, only a misère or spread (or pass)."""
    assert call in view.legal
    if has_passed(view):
        assert call == PASS or parse_bid(call).contract in MISERE_CONTRACTS


@pytest.mark.parametrize("name", BUILTINS)
@given(view=views())
def test_every_builtin_calls_a_legal_call(name, view):
    assert_legal(load_strategy(name).call(view), view)


@given(view=views(), data=st.data())
def test_any_thresholds_give_a_legal_call(synthetic, view, data):
    thresholds = data.draw(st.dictionaries(st.sampled_from(LADDER), st.floats(0, 1)))
    assert_legal(ThresholdStrategy("t", thresholds, synthetic).call(view), view)


@given(view=views(), data=st.data())
def test_a_lower_threshold_never_bids_a_lower_contract(synthetic, view, data):
    high = data.draw(st.dictionaries(st.sampled_from(LADDER), st.floats(0, 1), min_size=1))
    factor = data.draw(st.floats(0, 1))
    low = {c: t * factor for c, t in high.items()}
    assert rank(ThresholdStrategy("low", low, synthetic).call(view)) >= rank(
        ThresholdStrategy("high", high, synthetic).call(view))


def hand_of(text) -> int:
    """A hand mask from PBN-style suits "S.H.D.C" (ranks 2..A as 23456789TJQKA)."""
    ranks = "23456789TJQKA"
    mask = 0
    for suit, holding in enumerate(text.split(".")):
        for card in holding:
            mask |= 1 << (13 * suit + ranks.index(card))
    return mask


EIGHT_SPADES = hand_of("AKQJT987.32.32.2")


def test_bids_the_highest_contract_that_reaches_its_threshold(synthetic):
    """R9: with trump length as tricks, eight spades make 8 but not 9."""
    strategy = ThresholdStrategy("s", {c: 0.5 for c in NUMERIC_CONTRACTS}, synthetic)
    view = view_after([], EIGHT_SPADES, dealer=3, first_preference=1)
    assert strategy.call(view) == "8"


def test_outbid_at_the_same_number_it_keeps_over_in_its_preference(synthetic):
    """R11, R12: 8 is taken, so the cheapest tier that may name spades is first preference."""
    strategy = ThresholdStrategy("s", {c: 0.5 for c in NUMERIC_CONTRACTS}, synthetic)
    assert strategy.call(view_after(["8"], EIGHT_SPADES, 3, first_preference=0)) == "8-1st"
    # spades as second preference (clubs turned): "I keep" is enough
    assert strategy.call(view_after(["8"], EIGHT_SPADES, 3, first_preference=3)) == "8-2nd"
    # spades a plain suit: no tier above plain 8 may name them, so it passes
    assert strategy.call(view_after(["8"], EIGHT_SPADES, 3, first_preference=1)) == PASS


def test_plain_only_rule_makes_it_keep_in_its_preference(synthetic):
    """R12 Decision "plain-only": a plain bid cannot name spades when they are preferred."""
    strategy = ThresholdStrategy("s", {c: 0.5 for c in NUMERIC_CONTRACTS}, synthetic)
    view = view_after([], EIGHT_SPADES, 3, first_preference=0, plain_bid_trump="plain-only")
    assert strategy.call(view) == "8-1st"


def test_a_passed_player_comes_back_only_with_a_misere(synthetic):
    """R13: numbers qualify but are not legal after passing; a qualifying misère is."""
    calls = [PASS, "6", PASS, PASS]  # the dealer's left passed; it is its turn again
    numbers_only = ThresholdStrategy("n", {c: 0.0 for c in NUMERIC_CONTRACTS}, synthetic)
    view = view_after(calls, EIGHT_SPADES, 3, 1)
    assert numbers_only.call(view) == PASS
    everything = ThresholdStrategy("a", {c: 0.0 for c in LADDER}, synthetic)
    assert everything.call(view) == "GS"


@pytest.mark.parametrize("bid, first_preference, rule, expected", [
    ("5", 1, "any", 0),  # plain: any suit, the long spades
    ("5-1st", 2, "any", 2),  # first preference: only that suit (R12)
    ("5-2nd", 2, "any", 1),  # second preference: hearts
    ("5", 0, "plain-only", 1),  # plain suits hearts and diamonds: the longer hearts
])
def test_name_trump_is_the_best_allowed_suit(synthetic, bid, first_preference, rule, expected):
    hand = hand_of("AKQJT98.7432.2.2")  # hearts second longest
    strategy = ThresholdStrategy("s", {"5": 0.5}, synthetic)
    trump = strategy.name_trump(hand, bid, first_preference, rule)
    assert trump == expected
    assert trump in allowed_trumps(parse_bid(bid).tier, first_preference, rule)


def test_name_trump_refuses_a_misere(synthetic):
    with pytest.raises(ValueError, match="no trump"):
        ThresholdStrategy("s", {}, synthetic).name_trump(EIGHT_SPADES, "LM", 0)


def test_builtins_are_data_with_numbers_and_miseres():
    cautious, standard, bold = (load_strategy(n) for n in ("cautious", "standard", "bold"))
    for contract in NUMERIC_CONTRACTS:  # bolder strategies ask less of every number
        assert cautious.thresholds[contract] >= standard.thresholds[contract] >= \
            bold.thresholds[contract]
    assert {"LM", "GM"} <= set(standard.thresholds) and standard.name == "standard"
    assert standard.estimate is E.default_estimate()


def test_a_strategy_file_in_toml_or_json(tmp_path, synthetic):
    toml = tmp_path / "mine.toml"
    toml.write_text('description = "mine"\n[thresholds]\nnumbers = 0.6\n9 = 0.7\nLM = 0.8\n')
    mine = load_strategy(toml, model=synthetic)
    assert mine.name == "mine" and mine.estimate is synthetic
    assert mine.thresholds["9"] == 0.7 and mine.thresholds["13"] == 0.6
    assert mine.thresholds["LM"] == 0.8 and "GM" not in mine.thresholds
    js = tmp_path / "j.json"
    js.write_text(json.dumps({"name": "jay", "thresholds": {"GM": 0.5}}))
    assert load_strategy(js, model=synthetic).thresholds == {"GM": 0.5}


def test_model_may_be_an_estimate_file(tmp_path, synthetic):
    synthetic.save(tmp_path / "e.json")
    strategy = load_strategy("bold", model=tmp_path / "e.json")
    assert strategy.estimate.to_json() == synthetic.to_json()


@pytest.mark.parametrize("text, words", [
    ('thresholds = {numbers = 0.5}\ncolour = "red"\n', ":colour: unknown field"),
    ('[thresholds]\nLM = 1.5\n', ":thresholds.LM: must be in [0, 1], got 1.5"),
    ('[thresholds]\nLM = -0.1\n', ":thresholds.LM: must be in [0, 1]"),
    ('[thresholds]\nGM = "high"\n', ":thresholds.GM: must be a number in [0, 1], got 'high'"),
    ('[thresholds]\nGM = true\n', ":thresholds.GM: must be a number"),
    ('[thresholds]\n"14" = 0.5\n', ":thresholds.14: not a contract"),
    ('[thresholds]\n"8-1st" = 0.5\n', ":thresholds.8-1st: not a contract"),
    ('name = 3\n[thresholds]\nLM = 0.5\n', ":name: must be text, got 3"),
    ('family = "best"\n[thresholds]\nLM = 0.5\n', ":family: 'best' is not one of threshold, ev"),
    ('min_ev = 5\n[thresholds]\nLM = 0.5\n', ":min_ev: only the 'ev' family takes it"),
    ('family = "ev"\nmin_ev = "some"\n', ":min_ev: must be a number of units, got 'some'"),
    ('pass_value = 0\n[thresholds]\nLM = 0.5\n', ":pass_value: only the 'ev' family takes it"),
    ('family = "ev"\npass_value = "mine"\n', ":pass_value: must be 'table' or a number of "
     "units, got 'mine'"),
    ('name = "x"\n', ":thresholds: missing"),
    ('thresholds = 0.5\n', ":thresholds: must be a non-empty table"),
    ('[thresholds\n', ": not valid TOML"),
])
def test_a_bad_strategy_file_names_the_file_and_field(tmp_path, synthetic, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UserError) as info:
        load_strategy(path, model=synthetic)
    message = str(info.value)
    assert message.startswith(str(path)) and words in message and "\n" not in message


def test_a_bad_json_strategy_file_is_one_line(tmp_path, synthetic):
    path = tmp_path / "bad.json"
    path.write_text('{"thresholds": ')
    with pytest.raises(UserError, match="not valid JSON"):
        load_strategy(path, model=synthetic)
    path.write_text('[1, 2]')
    with pytest.raises(UserError, match="a strategy file holds a table of fields"):
        load_strategy(path, model=synthetic)


def test_an_unknown_strategy_name_lists_the_builtins(synthetic):
    with pytest.raises(UserError, match="neither a built-in .cautious, standard, bold. nor"):
        load_strategy("reckless", model=synthetic)


def test_parse_strategy_gives_a_default_name_only_when_missing(synthetic):
    strategy = parse_strategy({"thresholds": {"LM": 0.5}}, "x.toml", synthetic, "stem")
    assert strategy.name == "stem"
    with pytest.raises(UserError, match="x.toml:name: must not be empty"):
        parse_strategy({"name": " ", "thresholds": {"LM": 0.5}}, "x.toml", synthetic)


def test_the_documented_example_file_reads_as_documented(tmp_path, synthetic):
    """docs/strategies.md's examples: numbers at 0.6, 9 and above at 0.7, LM at 0.8; and an
    ev strategy."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "strategies.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "mine.toml"
    path.write_text(example)
    mine = load_strategy(path, model=synthetic)
    assert mine.name == "mine" and mine.thresholds == {
        **{str(n): 0.6 for n in range(5, 9)}, "LM": 0.8, **{str(n): 0.7 for n in range(9, 14)}}
    greedy_text = doc.split("```toml\n")[2].split("```", 1)[0]
    path.write_text(greedy_text)
    greedy = load_strategy(path, model=synthetic)
    assert isinstance(greedy, ExpectedValueStrategy) and greedy.min_ev == 5
    assert greedy.thresholds == {**{n: 0.3 for n in NUMERIC_CONTRACTS}, "LM": 0.3, "GM": 0.3}


def ev_strategy(estimate, min_ev=0.0, pass_value="table", **thresholds) -> ExpectedValueStrategy:
    return parse_strategy({"family": "ev", "min_ev": min_ev, "pass_value": pass_value,
                           **({"thresholds": thresholds} if thresholds else {})},
                          "ev.toml", estimate, "ev")


def test_outcome_values_are_the_exact_settlement_with_the_pool():
    """R24, R28-R30: made 8 wins 3 x 25 and the pool less the re-ante; 6 tricks fail it by
    2: 3 x 35 and the pool doubled (E1); a made 5 is conceded and saves the pool; LS made is
    3 x 80 + pool - 10."""
    eight = outcome_values("8", Fraction(40))
    assert eight[8] == 75 + 40 - 10 and eight[13] == 75 + 40 - 10 and eight[6] == -105 - 40
    assert outcome_values("5", Fraction(40))[5] == 30
    assert list(outcome_values("LS", Fraction(40))) == [-280, 270]


@given(view=views())
def test_the_ev_family_calls_a_legal_call(synthetic, view):
    assert_legal(ev_strategy(synthetic).call(view), view)


def test_the_ev_family_bids_the_contract_of_best_expected_result(synthetic):
    """Eight spades take about eight tricks: the bid is the number whose expected result
    over the estimated trick distribution in spades is best (7 or 8), not 9 or more."""
    strategy = ev_strategy(synthetic)
    view = view_after([], EIGHT_SPADES, dealer=3, first_preference=1)
    spades = synthetic.hand_distribution(EIGHT_SPADES, 0)[0]
    value = {n: spades @ outcome_values(n, Fraction(40)) for n in NUMERIC_CONTRACTS}
    best = max(value, key=value.get)
    assert best in ("7", "8") and value["9"] < 0
    assert strategy.call(view) == best
    assert strategy.name_trump(EIGHT_SPADES, best, 1) == 0
    margin = float(value[best]) - strategy.passing(EIGHT_SPADES, view.position)
    assert ev_strategy(synthetic, min_ev=margin + 1).call(view) == PASS
    assert ev_strategy(synthetic, min_ev=margin - 1).call(view) == best


def test_the_ev_family_weighs_the_misere_rates_by_position(synthetic):
    """Synthetic LM (and so LS) verdicts: made 60% away from the lead, 20% on it. At 60% LS
    earns 0.6 x 280 - 0.4 x 280 > 0, the most of all; at 20% everything loses."""
    flat = hand_of("5432.5432.432.32")  # four-card suits at most: no number is made
    strategy = ev_strategy(synthetic)
    second = view_after(["pass"], flat, dealer=3, first_preference=1)
    assert second.position == 1 and strategy.call(second) == "LS"
    assert strategy.call(view_after([], flat, dealer=3, first_preference=1)) == PASS
    # thresholds still bound the choice: LS needs 90% and so only LM (60% >= 50%) is left
    assert ev_strategy(synthetic, LM=0.5, LS=0.9).call(second) == "LM"


def test_the_ev_family_bids_only_what_beats_the_pass_value(synthetic):
    """R24-R26, R30: passing is worth what a seat that does not declare wins or loses; by
    default the shipped table's value at the hand's position and hcp bin, or a fixed
    `pass_value`. A bid is made only when its expected result beats it by `min_ev`."""
    from analyser import pass_value

    view = view_after([], EIGHT_SPADES, dealer=3, first_preference=1)
    table = ev_strategy(synthetic)
    shipped = pass_value.default_table().lookup(view.position, EIGHT_SPADES).value
    assert table.passing(EIGHT_SPADES, view.position) == float(shipped)
    spades = synthetic.hand_distribution(EIGHT_SPADES, 0)[0]
    best = max(spades @ outcome_values(n, Fraction(40)) for n in NUMERIC_CONTRACTS)
    assert table.call(view) != PASS and best > float(shipped)
    assert ev_strategy(synthetic, pass_value=best - 1).call(view) != PASS
    assert ev_strategy(synthetic, pass_value=best + 1).call(view) == PASS
    assert ev_strategy(synthetic, min_ev=2, pass_value=best - 1).call(view) == PASS
    # a weak hand at another position gets its own cell's value
    weak = hand_of("5432.5432.432.32")
    assert table.passing(weak, 1) == float(pass_value.default_table().lookup(1, weak).value)
    assert table.passing(weak, 1) != table.passing(EIGHT_SPADES, 0)
    # built directly, without a file, the strategy defaults to the shipped table as well
    direct = ExpectedValueStrategy("direct", {"LM": 0.0}, synthetic)
    assert direct.passing(weak, 1) == table.passing(weak, 1)
