"""Contract ladder (R9), bid order (R11), trump commitments (R12) and natural_trump."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser.cards import parse_hand
from analyser.contracts import (
    BID_ORDER,
    LADDER,
    MISERE,
    NUMERIC,
    SPREAD,
    Contract,
    allowed_trumps,
    as_contract,
    bid_name,
    bid_rank,
    cheapest_tier,
    contract_of,
    is_little,
    is_misere,
    is_numeric,
    is_spread,
    ladder_rank,
    may_name,
    misere_kind,
    natural_trump,
    parse_bid,
    parse_contract,
    second_preference,
    tier_for,
    tricks_needed,
    tricks_played,
)


def test_r9_ladder_order():
    assert LADDER == ("5", "6", "7", "LM", "8", "9", "GM", "10", "11", "LS", "12", "GS", "13")
    assert [ladder_rank(c) for c in LADDER] == list(range(13))


def test_r11_full_bid_order_as_written():
    # spelled out from R11 without using the module's construction
    expected = []
    for c in LADDER:
        if c.isdigit():
            expected += [c, c + "-2nd", c + "-1st"]
        else:
            expected.append(c)
    assert list(BID_ORDER) == expected
    assert len(BID_ORDER) == 9 * 3 + 4
    assert BID_ORDER[:10] == (
        "5", "5-2nd", "5-1st", "6", "6-2nd", "6-1st", "7", "7-2nd", "7-1st", "LM"
    )
    assert BID_ORDER[-4:] == ("GS", "13", "13-2nd", "13-1st")


def test_r11_bid_rank_orders_tiers_within_number():
    assert bid_rank("8") < bid_rank("8-2nd") < bid_rank("8-1st") < bid_rank("9")
    assert bid_rank("7-1st") < bid_rank("LM") < bid_rank("8")
    assert bid_rank("9-1st") < bid_rank("GM") < bid_rank("10")
    assert bid_rank("11-1st") < bid_rank("LS") < bid_rank("12")
    assert bid_rank("12-1st") < bid_rank("GS") < bid_rank("13")


def test_r11_bid_rank_agrees_with_ladder():
    # a bid's contract never ranks below a lower contract's bids
    for a in BID_ORDER:
        for b in BID_ORDER:
            if ladder_rank(contract_of(a)) < ladder_rank(contract_of(b)):
                assert bid_rank(a) < bid_rank(b)


def test_parse_normalises_spelling():
    assert parse_contract(" lm ") == "LM"
    assert parse_contract(8) == "8"
    assert parse_bid("8-2ND") == ("8", "2nd")
    assert parse_bid("13") == ("13", "plain")
    assert parse_bid("gs") == ("GS", "plain")
    assert bid_name("8", "1st") == "8-1st"
    assert contract_of("10-1st") == "10"


BAD = ["4", "14", "0", "LM-2nd", "8-3rd", "pass", "", None, 8.0, True, "8-"]


@pytest.mark.parametrize("bad", BAD)
def test_parse_rejects_unknown_with_field_name(bad):
    with pytest.raises(ValueError, match="^bid: "):
        parse_bid(bad)
    if bad not in ("8-3rd", "LM-2nd", "8-"):
        with pytest.raises(ValueError, match="^contract: "):
            parse_contract(bad)


def test_parse_contract_rejects_tiers_and_uses_given_field():
    with pytest.raises(ValueError, match="^when: "):
        parse_contract("8-1st", field="when")


def test_bid_name_rejects_tier_on_misere():
    with pytest.raises(ValueError, match="tier"):
        bid_name("LM", "2nd")
    with pytest.raises(ValueError, match="tier"):
        bid_name("8", "3rd")


def test_r10_r15_kinds_and_tricks():
    assert [tricks_needed(str(n)) for n in range(5, 14)] == list(range(5, 14))
    assert tricks_needed("8-1st") == 8
    for c in ("LM", "GM", "LS", "GS"):
        assert is_misere(c) and not is_numeric(c) and tricks_needed(c) == 0
    assert is_numeric("13-2nd") and not is_misere("13")
    spreads = [is_spread(c) for c in ("LM", "GM", "LS", "GS", "8")]
    assert spreads == [False, False, True, True, False]
    assert [is_little(c) for c in ("LM", "GM", "LS", "GS")] == [True, False, True, False]
    assert [tricks_played(c) for c in ("LM", "GM", "LS", "GS", "5")] == [12, 13, 12, 13, 13]
    assert [misere_kind(c) for c in ("LM", "GM", "LS", "GS")] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="contract"):
        misere_kind("8")


def test_r6_second_preference_same_colour():
    assert [second_preference(s) for s in range(4)] == [3, 2, 1, 0]  # S<->C, H<->D


def test_r11_r12_tier_for():
    # first preference hearts: second preference diamonds; spades and clubs plain
    assert tier_for(1, 1) == "1st"
    assert tier_for(2, 1) == "2nd"
    assert tier_for(0, 1) == "plain" and tier_for(3, 1) == "plain"
    assert tier_for(np.int64(3), 0) == "2nd"
    with pytest.raises(ValueError, match="^trump: "):
        tier_for(4, 0)
    with pytest.raises(ValueError, match="^first_preference: "):
        tier_for(0, -1)


def test_r12_decision_plain_bid_trump():
    assert allowed_trumps("plain", 1) == (0, 1, 2, 3)  # default "any"
    assert allowed_trumps("plain", 1, "plain-only") == (0, 3)
    assert allowed_trumps("2nd", 1) == (2,)
    assert allowed_trumps("1st", 1, "plain-only") == (1,)
    assert may_name(1, "plain", 1) and not may_name(1, "plain", 1, "plain-only")
    assert not may_name(2, "1st", 1)
    assert [cheapest_tier(s, 1) for s in range(4)] == ["plain"] * 4
    assert [cheapest_tier(s, 1, "plain-only") for s in range(4)] == ["plain", "1st", "2nd", "plain"]
    with pytest.raises(ValueError, match="plain_bid_trump"):
        allowed_trumps("plain", 1, "some")


def test_natural_trump_longest_then_points_then_suit_order():
    assert natural_trump(parse_hand("AK32.QJ54.2.5432")) == 0  # three 4-card suits: S has 7 points
    assert natural_trump(parse_hand("32.AKQJ5.T9876.2")) == 1  # 5-5: hearts 10 points
    assert natural_trump(parse_hand("2.T9876.AKQJ5.32")) == 2  # 5-5: diamonds 10 points
    assert natural_trump(parse_hand("5432.AK32.QJ2.32")) == 1  # 4-4: hearts 7 points, spades none
    assert natural_trump(parse_hand("A432.K432.J32.Q2")) == 0  # 4-4 spades 4 pts, hearts 3
    assert natural_trump(parse_hand("K432.A432.J32.Q2")) == 1  # 4-4 hearts 4 pts, spades 3
    assert natural_trump(parse_hand("K432.Q432.J32.A2")) == 0  # 4-4: spades 3 > hearts 2
    assert natural_trump(parse_hand("A432.K432.Q32.J2")) == 0
    assert natural_trump(parse_hand("5432.5432.432.32")) == 0  # equal length and points: S first
    assert natural_trump(parse_hand("32.5432.5432.432")) == 1
    assert natural_trump(parse_hand("...AKQJT98765432")) == 3
    with pytest.raises(ValueError, match="hand_mask"):
        natural_trump(0)
    with pytest.raises(ValueError, match="hand_mask"):
        natural_trump(1 << 52)


@given(st.integers(min_value=1, max_value=(1 << 52) - 1))
def test_natural_trump_is_a_longest_suit(mask):
    lengths = [((mask >> (13 * s)) & 0x1FFF).bit_count() for s in range(4)]
    suit = natural_trump(mask)
    assert lengths[suit] == max(lengths)
    # no earlier suit of the same length has more points
    def points(s):
        h = (mask >> (13 * s)) & 0x1FFF
        return sum(p for r, p in ((12, 4), (11, 3), (10, 2), (9, 1)) if h >> r & 1)
    for s in range(4):
        if lengths[s] == lengths[suit]:
            assert (points(s), -s) <= (points(suit), -suit)


# ---------------------------------------------------------------- the Contract value


@pytest.mark.parametrize("name", LADDER)
def test_r9_r10_r15_contract_value_agrees_with_the_helpers(name):
    c = as_contract(name)
    assert isinstance(c, Contract) and c.name == name and str(c) == name
    assert c.ladder_rank == ladder_rank(name) == LADDER.index(name)
    assert c.is_numeric == is_numeric(name) and c.is_misere == is_misere(name)
    assert c.is_spread == is_spread(name) and c.little == is_little(name)
    assert c.tricks_needed == tricks_needed(name) and c.tricks_played == tricks_played(name)
    if c.is_misere:
        assert c.misere_kind == misere_kind(name)
    else:
        assert c.misere_kind is None


def test_r9_r15_r16_contract_kinds():
    assert [as_contract(n).kind for n in ("5", "13", "LM", "GM", "LS", "GS")] == [
        NUMERIC, NUMERIC, MISERE, MISERE, SPREAD, SPREAD]
    assert as_contract("LM").tricks_played == 12 and as_contract("GS").tricks_played == 13
    assert as_contract("9").tricks_needed == 9 and as_contract("LS").tricks_needed == 0


def test_contract_is_read_once_and_shared():
    """One value per contract: any spelling gives the same object; a Contract passes through."""
    lm = as_contract(" lm ")
    assert lm is as_contract("LM") is as_contract(lm)
    assert as_contract(8) is as_contract("8")
    with pytest.raises(AttributeError):
        lm.name = "GM"  # frozen


@pytest.mark.parametrize("bad", ["8-1st", "14", "", None, 8.0, "NT"])
def test_as_contract_rejects_what_is_not_a_contract(bad):
    with pytest.raises(ValueError, match="deal contract"):
        as_contract(bad, field="deal contract")


@pytest.mark.parametrize("name", LADDER)
def test_r28_who_wins_the_pool(name):
    """R28: a made 7+ (misères and spreads included) wins the pool; a made 5 or 6 wins it
    unless the defenders concede; a failure never wins it (R29 doubles it instead)."""
    c = as_contract(name)
    assert c.wins_pool(True) is True
    assert c.wins_pool(False) is False and c.wins_pool(False, conceded=True) is False
    concedable = name in ("5", "6")
    assert c.concedable is concedable
    assert c.wins_pool(True, conceded=True) is (not concedable)


def test_helpers_accept_a_contract_value():
    c = as_contract("8")
    assert contract_of(c) == "8" and bid_name(c, "2nd") == "8-2nd" and ladder_rank(c) == 4


def test_numpy_integer_bids_read_as_ints_R9():
    """A numeric call given as a numpy integer names the same contract as the Python int."""
    assert parse_bid(np.int64(8)) == parse_bid(8) == parse_bid("8")
    with pytest.raises(ValueError):
        parse_bid(np.bool_(True))
