"""The auction (R11-R14) against hand-worked sequences and a slow history-based reference."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser.auction import Auction, IllegalCall, legal_calls, run_auction
from analyser.errors import UserError

P = "pass"


def test_illegal_call_is_a_value_error_and_user_error():
    assert issubclass(IllegalCall, ValueError) and issubclass(IllegalCall, UserError)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3, "N", "E", "S", "W", "w"])
def test_r14_all_four_pass_is_partout(dealer):
    assert run_auction([P, P, P, P], dealer) == (None, "partout")


@pytest.mark.parametrize("dealer,expected", [(0, 1), (1, 2), (2, 3), (3, 0), ("W", 0), ("S", 3)])
def test_r13_first_call_is_dealers_left(dealer, expected):
    assert run_auction(["6", P, P, P], dealer) == (expected, "6")


def test_r13_ends_when_three_others_decline_in_a_row():
    # dealer N: E 8, S pass, W 9, N pass, E pass, S pass -> W declares 9
    assert run_auction(["8", P, "9", P, P, P], "N") == (3, "9")
    # the dealer itself can be the last to bid
    assert run_auction([P, P, P, "5", P, P, P], "W") == (3, "5")


def test_r11_tiers_rise_within_a_number():
    assert run_auction(["8", "8-2nd", "8-1st", P, P, P], 0) == (3, "8-1st")
    assert run_auction(["7-2nd", "LM", P, P, P], 0) == (2, "LM")


def test_r11_first_preference_beaten_only_by_higher_number_or_misere():
    for low in ("8", "8-2nd", "8-1st", "5", "7-1st", "LM"):
        with pytest.raises(IllegalCall, match="first-preference"):
            run_auction(["8-1st", low], 0)
    assert run_auction(["8-1st", "9", P, P, P], 0) == (2, "9")
    assert run_auction(["8-1st", "GM", P, P, P], 0) == (2, "GM")
    assert run_auction(["7-1st", "LM", P, P, P], 0) == (2, "LM")


def test_r13_passed_player_comes_back_only_with_higher_misere_or_spread():
    # dealer N: E pass, S 7, W pass, N pass, E LM (E passed before: a misère is allowed)
    assert run_auction([P, "7", P, P, "LM", P, P, P], 0) == (1, "LM")
    with pytest.raises(IllegalCall, match="passed") as info:
        run_auction([P, "7", P, P, "8"], 0)
    assert info.value.index == 4 and info.value.call == "8" and info.value.seat == 1
    with pytest.raises(IllegalCall, match="not higher"):
        run_auction([P, "9", P, P, "LM"], 0)  # LM is below 9
    # having come back with a misère, the player still may not bid a number
    with pytest.raises(IllegalCall, match="passed"):
        run_auction([P, "7", P, P, "LM", "8", P, P, "9"], 0)


def test_too_low_and_equal_bids():
    with pytest.raises(IllegalCall, match="not higher than the current bid 8"):
        run_auction(["8", "8"], 0)
    with pytest.raises(IllegalCall, match="not higher"):
        run_auction(["GM", "9-1st"], 0)


def test_call_after_the_end():
    with pytest.raises(IllegalCall, match="already over") as info:
        run_auction([P, P, P, P, P], 0)
    assert info.value.index == 4
    with pytest.raises(IllegalCall, match="already over"):
        run_auction(["5", P, P, P, "6"], 0)


@pytest.mark.parametrize("word", ["4", "14", "double", "8-3rd", "LM-1st", "", 7.5, None])
def test_unknown_calls_are_named(word):
    with pytest.raises(IllegalCall, match="not a call") as info:
        run_auction([P, word], 0)
    assert repr(word) in str(info.value) and info.value.index == 1


@pytest.mark.parametrize("calls", [[], [P], [P, P, P], ["8"], ["8", P, P], [P, "8", P, "9", P, P]])
def test_sequences_that_end_too_early(calls):
    with pytest.raises(IllegalCall, match="not over") as info:
        run_auction(calls, 0)
    assert info.value.index is None


def test_spelling_is_case_insensitive():
    assert run_auction(["PASS", " lm ", "Pass", "pass", "P".lower() + "ass"], 0) == (2, "LM")
    assert run_auction(["8-2ND", P, P, P], 0) == (1, "8-2nd")


def test_bad_dealer_and_bad_sequence_type():
    with pytest.raises(ValueError, match="^dealer: "):
        run_auction([P, P, P, P], "X")
    with pytest.raises(ValueError, match="^dealer: "):
        run_auction([P, P, P, P], 4)
    with pytest.raises(ValueError, match="^calls: "):
        run_auction("pass pass pass pass", 0)
    for calls in (None, 8, object()):
        with pytest.raises(IllegalCall, match="^calls: give a sequence of calls"):
            run_auction(calls, 0)
        with pytest.raises(IllegalCall, match="^calls: give a sequence of calls"):
            legal_calls(calls, 0)


def test_numpy_integers_are_accepted_where_ints_are():
    # a call or a dealer from a numpy array reads as the Python int it equals
    assert run_auction([P, P, P, np.int64(8), P, P, P], np.int64(3)) == \
        run_auction([P, P, P, 8, P, P, P], 3) == (3, "8")
    assert run_auction([np.int32(13), P, P, P], np.uint8(0)) == (1, "13")
    with pytest.raises(IllegalCall, match="not a call"):
        run_auction([np.int64(4), P, P, P], 0)
    with pytest.raises(IllegalCall, match="not a call"):
        run_auction([np.float64(8.0), P, P, P], 0)


def test_rejected_call_leaves_auction_unchanged():
    a = Auction(0)
    a.call("8")
    with pytest.raises(IllegalCall):
        a.call("7")
    assert a.calls == ["8"] and a.to_call == 2 and a.high == "8"


# --- slow reference: recomputes everything from the call history at each step -------------

REF_BIDS = []
for _c in ("5", "6", "7", "LM", "8", "9", "GM", "10", "11", "LS", "12", "GS", "13"):
    REF_BIDS += [_c, _c + "-2nd", _c + "-1st"] if _c[0].isdigit() else [_c]


def _ref_canon(word):
    if not isinstance(word, str):
        return "?"
    w = word.strip()
    if w.lower() == "pass":
        return "pass"
    head, sep, tail = w.partition("-")
    w = head.upper() + sep + tail.lower()
    return w if w in REF_BIDS else "?"


def _ref_over(history):
    bids = [i for i, (_, b) in enumerate(history) if b != "pass"]
    if not bids:
        return len(history) >= 4
    return len(history) - 1 - bids[-1] >= 3


def reference_auction(calls, dealer):
    """('ok', result), ('illegal', index) or ('short', None), straight from R11-R14."""
    history = []
    for i, word in enumerate(calls):
        seat = (dealer + 1 + i) % 4
        if _ref_over(history):
            return ("illegal", i)
        w = _ref_canon(word)
        if w == "?":
            return ("illegal", i)
        if w != "pass":
            if any(REF_BIDS.index(b) >= REF_BIDS.index(w) for _, b in history if b != "pass"):
                return ("illegal", i)
            if w[0].isdigit() and any(s == seat and b == "pass" for s, b in history):
                return ("illegal", i)
        history.append((seat, w))
    if not _ref_over(history):
        return ("short", None)
    bids = [(s, b) for s, b in history if b != "pass"]
    return ("ok", bids[-1] if bids else (None, "partout"))


WORDS = ["pass"] * 12 + REF_BIDS + ["PASS", "lm", "8-1ST", "4", "14", "x"]


def _outcome(calls, dealer):
    try:
        return ("ok", run_auction(calls, dealer))
    except IllegalCall as err:
        return ("short", None) if err.index is None else ("illegal", err.index)


@given(st.lists(st.sampled_from(WORDS), max_size=14), st.integers(0, 3))
def test_random_calls_legal_result_or_illegal_call(calls, dealer):
    assert _outcome(calls, dealer) == reference_auction(calls, dealer)


@given(st.data(), st.integers(0, 3))
def test_random_legal_auctions_match_reference(data, dealer):
    # build a whole legal auction by drawing from legal_calls, biased towards passing
    calls = []
    while True:
        options = legal_calls(calls, dealer)
        if not options:
            break
        pick_pass = data.draw(st.integers(0, 2)) > 0
        calls.append("pass" if pick_pass else data.draw(st.sampled_from(options)))
    result = run_auction(calls, dealer)
    assert ("ok", result) == reference_auction(calls, dealer)
    declarer, bid = result
    if declarer is not None:
        assert calls.count(bid) == 1 and (dealer + 1 + calls.index(bid)) % 4 == declarer


@given(st.lists(st.sampled_from(WORDS[:30]), max_size=10), st.integers(0, 3))
def test_legal_calls_are_exactly_the_accepted_ones(calls, dealer):
    if reference_auction(calls, dealer)[0] == "illegal":
        return
    legal = set(legal_calls(calls, dealer))
    for word in ["pass"] + REF_BIDS:
        accepted = reference_auction(calls + [word], dealer)[0] != "illegal"
        assert (word in legal) == accepted
