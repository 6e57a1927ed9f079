"""kernels.dd.sure_tricks: quick bounds never contradict the exact value (brute force)."""

import random

import numpy as np

from kernels.dd.sure_tricks import (
    cannot_take_all,
    cash_runs,
    length_tricks,
    quick_bounds,
    sure_cap,
    sure_tricks,
)
from kernels.dd.trump_rules import (
    seat_count,
    top_trumps,
)
from tests.conftest import sized
from tests.reference_dd import random_ending as ending_in_suits
from tests.test_dd_search import _shuffle_small_cards, brute_value, random_ending


def cash_tricks(hands, p, side, trump):
    """(tricks, relevance): the whole count of `p` cashing its top runs for `side`, no
    target (`cash_runs` with the extra trick of a suit no opponent holds)."""
    cashed, extra, rel, _, _, _ = cash_runs(hands, p, side, trump, 99)
    return cashed + extra, rel


def test_quick_bounds_bracket_exact_values_all_modes():
    rng = random.Random(11)
    for _ in range(sized(150, 1500)):
        k = rng.randint(1, 4)
        hands = random_ending(rng, k)
        trump = rng.randint(-1, 3)
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 7])
        arr = np.array(hands, np.uint64)
        lo, up, _, _ = quick_bounds(arr, leader, trump, mask, mask, 0)
        v = brute_value(hands, trump, leader, mask, mask)
        assert lo <= v <= up, (hands, trump, leader, mask, lo, v, up)
        d = rng.randint(0, 3)
        lo, up, _, _ = quick_bounds(arr, leader, -1, 15 ^ (1 << d), 1 << d, 0)
        v = brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d)
        assert lo <= v <= up


def test_sure_tricks_cash_top_run_no_trump():
    # N holds SAK and HA, nobody else any higher card: 3 sure tricks on lead
    n = (1 << 12) | (1 << 11) | (1 << 25)
    e = (1 << 10) | (1 << 0) | (1 << 14)
    s = (1 << 9) | (1 << 1) | (1 << 15)
    w = (1 << 8) | (1 << 2) | (1 << 16)
    arr = np.array([n, e, s, w], np.uint64)
    assert sure_tricks(arr, 0, 1, -1, 13)[0] == 3
    # clubs trump, W holds one spade, one club, one heart: W ruffs the second spade, so
    # only one side suit is cashed first, as far as W follows: one trick
    arr2 = np.array([n, e, s, (1 << 8) | (1 << 39) | (1 << 16)], np.uint64)
    assert sure_tricks(arr2, 0, 1, 3, 13)[0] == 1
    assert seat_count(top_trumps(arr2, 3)[0], 3) == 1


def _same_class(hands, rel, rng):
    """A position sharing `hands`' class for relevance `rel` (kernels.dd.tt): in each suit
    the cards from the top down to its lowest relevant card keep their owners, the cards
    below it are dealt anew among the hands holding them (every suit length kept)."""
    lows = []
    for s in range(4):
        line = rel >> (13 * s) & 0x1FFF
        lows.append((line & -line).bit_length() - 1 if line else 13)
    return _shuffle_small_cards(hands, rng, lows)


def _cards(*names):
    """Card mask of PBN-style names such as 'SA', 'C5' (suits S H D C = 0..3, 2 = rank 0)."""
    ranks = "23456789TJQKA"
    return sum(1 << (13 * "SHDC".index(n[0]) + ranks.index(n[1])) for n in names)


def _deal(*seats):
    """(hands as ints, as the kernels' array) of four seats N E S W, each 'SA HK ...'."""
    hands = [_cards(*seat.split()) for seat in seats]
    return hands, np.array(hands, np.uint64)


def test_r19_r20_suits_only_one_side_holds_give_tricks_on_lengths_alone():
    # clubs trump, nobody holds a club. W on lead holds HA H6, E the HK: no N-S card
    # follows hearts nor ruffs them, so E-W win a heart trick whoever holds which heart,
    # and N-S cannot take both tricks: the bound names no card (it named W's ace)
    hands, arr = _deal("S7 DA", "HK DT", "DJ D8", "HA H6")
    assert length_tricks(arr, 3, 10, 3) == 1
    lo, up, lo_rel, up_rel = quick_bounds(arr, 3, 3, 5, 5, 2)
    assert up == 1 and up_rel == np.uint64(0)
    assert brute_value(hands, 3, 3, 5, 5) <= 1
    # no trump: W alone holds spades (3), E-W all the hearts (W 2, E 3), S diamonds too:
    # W leads its spades (3 tricks), then hearts while both follow (2 more)
    hands, arr = _deal("C2 C3 C4 C5 C6 C7 C8", "H9 H8 H7 CA CK CQ CJ",
                       "CT C9 D2 D3 D4 D5 D6", "S2 S3 D7 D8 HA HK S4")
    assert length_tricks(arr, 3, 10, -1) == 3 + 2
    lo, up, lo_rel, up_rel = quick_bounds(arr, 3, -1, 10, 10, 5)
    assert lo == 5 and lo_rel == np.uint64(0)
    # an opponent holding a trump could ruff: nothing counts on lengths alone
    assert length_tricks(arr, 3, 10, 3) == 0


def test_r20_sure_tricks_cross_to_a_partner_holding_the_top_card():
    # no trump, N on lead with N-S a side: N has only low cards, but leads a low spade to
    # S's SA and S then cashes SK and HA as well: three tricks
    hands, arr = _deal("S2 S3 D2", "S4 H2 D3", "SA SK HA", "S5 H3 D4")
    assert cash_tricks(arr, 0, 5, -1)[0] == 0
    tricks, rel = sure_tricks(arr, 0, 5, -1, 13)
    assert tricks == 3 and (rel & np.uint64(_cards("SA"))) != 0
    assert (arr == np.array(hands, np.uint64)).all()  # the hands are restored
    assert brute_value(hands, -1, 0, 5, 5) == 3
    # hearts trump and E void in spades with a trump: E may ruff the crossing, no count
    hands[1] = _cards("H4", "H2", "D3")
    assert sure_tricks(np.array(hands, np.uint64), 0, 5, 1, 13)[0] == 0


def test_r19_r20_sure_tricks_count_a_top_run_that_outlasts_every_other_holding():
    # no trump, N on lead with SAK432, every other hand holding two spades or fewer: they
    # follow under the ace and king (R19), then nobody else holds a spade and N's three
    # small ones win too (R20): five tricks, where the top run alone counts two
    hands, arr = _deal("SA SK S4 S3 S2", "SQ SJ H2 H3 H4", "ST S9 D2 D3 D4", "S8 C2 C3 C4 C5")
    assert sure_tricks(arr, 0, 1, -1, 13)[0] == 5
    assert sure_cap(arr, 0, 1) >= 5
    assert brute_value(hands, -1, 0, 1, 1) == 5
    # E's third spade outlasts the run: only the ace and king are sure
    hands, arr = _deal("SA SK S4 S3 S2", "SQ SJ S5 H2 H3", "ST S9 D2 D3 D4", "S8 C2 C3 C4 C5")
    assert sure_tricks(arr, 0, 1, -1, 13)[0] == 2
    # spades trump: N's trumps draw every other trump and all five are tricks
    hands, arr = _deal("SA SK S4 S3 S2", "SQ SJ H2 H3 H4", "ST S9 D2 D3 D4", "S8 C2 C3 C4 C5")
    assert sure_tricks(arr, 0, 1, 0, 13)[0] == 5


def test_r20_sure_cap_bounds_sure_tricks_on_random_positions():
    # the cap lets the search skip `sure_tricks`: it must never be below what it counts,
    # for every leader, side (lone, partners, three) and trump; endings of 1-6 cards, in
    # 1-4 suits (short suits make crossings and voids common)
    rng = random.Random(17)
    for _ in range(sized(3000, 30000)):
        k = rng.randint(1, 6)
        hands = np.array(ending_in_suits(rng, k, rng.randint(-(-4 * k // 13), 4)), np.uint64)
        p = rng.randint(0, 3)
        side = (1 << p) | rng.choice([0, 0, 1, 2, 4, 8, 5, 10, 15])
        trump = rng.randint(-1, 3)
        assert sure_tricks(hands, p, side, trump, 13)[0] <= sure_cap(hands, p, side), (
            hands.tolist(), p, side, trump)


def test_r19_r20_quick_bounds_hold_on_every_position_of_their_class():
    # a bound that settles a target passes its relevance up the search and into the
    # transposition table (kernels.dd.tt): every position sharing the class it names
    # (the same owners from each suit's top down to its lowest relevant card, the same
    # suit lengths) must be settled the same way; brute force, in short suits so that
    # crossings and cashing then crossing come up often
    rng = random.Random(3232)
    checked = 0
    for _ in range(sized(150, 1500)):
        k = rng.randint(2, 5)
        hands = list(ending_in_suits(rng, k, rng.randint(-(-4 * k // 13), 3)))
        trump = rng.choice([-1, -1, -1, 0, 1, 2, 3])
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 5, 10, 7, 14])
        arr = np.array(hands, np.uint64)
        need = rng.randint(1, k)
        lo, up, lo_rel, up_rel = quick_bounds(arr, leader, trump, mask, mask, need)
        for settled, rel in ((lo >= need, lo_rel), (up < need, up_rel)):
            if not settled:
                continue
            checked += 1
            pos = _same_class(hands, int(rel), rng)
            v = brute_value(pos, trump, leader, mask, mask)
            assert (v >= need) if lo >= need else (v < need), (
                hands, pos, trump, leader, mask, need, lo, up)
    assert checked >= sized(150, 1500) // 4


def test_r20_sure_tricks_name_only_the_suits_that_reach_the_target():
    # no trump, N on lead with SAK and HAK: two tricks need one suit's top cards only,
    # so a position where E holds the HA instead (same lengths) is settled too (R20)
    hands, arr = _deal("SA SK HA HK", "S2 S3 H2 H3", "S4 S5 H4 H5", "S6 S7 H6 H7")
    tricks, rel = sure_tricks(arr, 0, 1, -1, 2)
    assert tricks >= 2 and rel in (_cards("SA", "SK"), _cards("HA", "HK"))
    # asked for all four, it names both suits' top cards
    assert sure_tricks(arr, 0, 1, -1, 4) == (4, _cards("SA", "SK", "HA", "HK"))


def _pbn(deal):
    """(hands as ints, as the kernels' array) of a PBN deal string 'N:...'."""
    from analyser.cards import parse_deal
    arr = np.array(parse_deal(deal), np.uint64)
    return [int(h) for h in arr], arr


def test_r20_sure_tricks_after_crossing_name_only_the_suits_that_reach_the_target():
    # no trump, N on lead: the H2 to S's HA, then S cashes the SA and DA; two tricks need
    # the crossing card and one of S's aces only
    hands, arr = _deal("H2 C2 C3", "H3 S3 C4", "HA SA DA", "H4 D4 C5")
    tricks, rel = sure_tricks(arr, 0, 5, -1, 2)
    assert tricks >= 2 and rel in (_cards("HA", "SA"), _cards("HA", "DA"))
    assert sure_tricks(arr, 0, 5, -1, 3) == (3, _cards("HA", "SA", "DA"))
    assert brute_value(hands, -1, 0, 5, 5) == 3


def test_r20_sure_tricks_cash_then_cross_to_the_partners_other_winners():
    # no trump, N on lead: N cashes the CA (S follows with its CT), leads the H9 to S's
    # HA and S cashes the SJ it kept: three; the crossing suit's top alone made two
    hands, arr = _pbn("N:T.9..A .87..9 J.A..T .6..82")
    assert sure_tricks(arr, 0, 5, -1, 3)[0] == 3
    assert brute_value(hands, -1, 0, 5, 5) == 3
    assert sure_cap(arr, 0, 5) >= 3


def test_r20_sure_tricks_cross_back_to_the_leader():
    # no trump, N on lead with CKJT: the CT to S's CA (W's CQ falls), the C5 back to N's
    # CK, and N's CJ is then the top club: three; N's cashing alone made none
    hands, arr = _pbn("N:...KJT A...97 2...A5 Q9...Q")
    assert cash_tricks(arr, 0, 5, -1)[0] == 0
    tricks, rel = sure_tricks(arr, 0, 5, -1, 3)
    assert tricks == 3 and (rel & np.uint64(_cards("CA", "CK"))) == _cards("CA", "CK")
    assert brute_value(hands, -1, 0, 5, 5) == 3
    assert sure_cap(arr, 0, 5) >= 3


def test_r20_sure_tricks_cross_cash_and_cross_back():
    # no trump, W on lead: a club to E's CA, E cashes its winners and crosses back to W,
    # who cashes what it kept: all five (crossing there and straight back makes four)
    hands, arr = _pbn("N:.T.AK8.7 .K5.9.A8 .J.J32.T .Q.7.J95")
    assert sure_tricks(arr, 3, 10, -1, 5)[0] == 5
    assert brute_value(hands, -1, 3, 10, 10) == 5
    assert sure_cap(arr, 3, 10) >= 5


def test_r19_r20_sure_cap_counts_the_cards_a_crossing_lifts():
    # no trump, N leads S2 to S's SA (E's SQ falls under it): S's SJ is then the top spade,
    # two tricks, though only the ace outranks E's spades now
    hands, arr = _deal("S2 D2", "SQ H2", "SA SJ", "S3 D3")
    assert sure_tricks(arr, 0, 5, -1, 13)[0] == 2
    assert sure_cap(arr, 0, 5) >= 2
    assert brute_value(hands, -1, 0, 5, 5) == 2


def test_r20_side_on_lead_cannot_take_every_trick_past_a_top_card():
    # no trump; N-S on lead need all 3 tricks but E holds the SA and N-S's own suits
    # (hearts: longest holding 2) give at most 2 leads that win
    hands, arr = _deal("HA HK S2", "SA D2 D3", "HQ S3 C2", "D4 D5 C3")
    short, rel = cannot_take_all(arr, 5, 3)
    # it rests on E-W's top cards (SA, C3) alone: N's HA could be anyone's, and the sum
    # only shrinks; diamonds, which N-S hold none of, are E-W's by the suit lengths
    assert short and rel == _cards("SA", "C3")
    assert quick_bounds(arr, 0, -1, 5, 5, 0)[1] == 2
    assert brute_value(hands, -1, 0, 5, 5) <= 2
    # the other way round: E-W on lead need all three, but only spades are theirs (E's
    # SA, one lead): N-S, maximising, take at least one trick
    hands[1] = _cards("SA", "H5", "H6")
    hands[3] = _cards("H2", "H3", "H4")
    arr = np.array(hands, np.uint64)
    assert cannot_take_all(arr, 10, 3)[0]
    assert quick_bounds(arr, 1, -1, 5, 5, 0)[0] >= 1
    assert brute_value(hands, -1, 1, 5, 5) >= 1


def test_new_bounds_bracket_exact_values_on_longer_endings():
    # the crossing, guarded-trump and every-trick rules act on 3..5-card endings; no trump
    # or trumps that may run out, lone declarers and partnerships, every leader
    rng = random.Random(2026)
    for _ in range(sized(50, 1000)):
        k = rng.randint(3, 5)
        hands = random_ending(rng, k)
        trump = rng.choice([-1, -1, 0, 1, 2, 3])
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 7, 14])
        arr = np.array(hands, np.uint64)
        lo, up, _, _ = quick_bounds(arr, leader, trump, mask, mask, 0)
        v = brute_value(hands, trump, leader, mask, mask)
        assert lo <= v <= up, (hands, trump, leader, mask, lo, v, up)


def test_quick_bounds_for_a_target_settle_it_exactly_when_every_rule_does():
    # the search passes its target: the bounds may stop early and skip rules that cannot
    # settle it, but they settle it (and the same way, sound against the exact value)
    # exactly when the bounds from every rule do
    rng = random.Random(77)
    for _ in range(sized(150, 1500)):
        k = rng.randint(2, 7)
        hands = random_ending(rng, k)
        trump = rng.choice([-1, 0, 1, 2, 3])
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 7, 14])
        arr = np.array(hands, np.uint64)
        lo, up, _, _ = quick_bounds(arr, leader, trump, mask, mask, 0)
        for need in range(1, k + 1):
            lo_n, up_n, _, _ = quick_bounds(arr, leader, trump, mask, mask, need)
            assert (lo_n >= need) == (lo >= need), (hands, trump, leader, mask, need)
            assert (up_n < need) == (up < need), (hands, trump, leader, mask, need)
            if k <= 4 and (lo_n >= need or up_n < need):
                v = brute_value(hands, trump, leader, mask, mask)
                assert lo_n <= v <= up_n
