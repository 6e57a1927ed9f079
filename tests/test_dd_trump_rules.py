"""kernels.dd.trump_rules: the trump rules' bounds never contradict the exact value (brute
force)."""

import random

import numpy as np

from kernels.dd.sure_tricks import (
    quick_bounds,
)
from kernels.dd.trump_rules import (
    guarded_behind,
    top_trumps,
    top_two_split,
    trump_challenge,
    trump_length_tricks,
)
from tests.conftest import sized
from tests.test_dd_search import brute_value, random_ending
from tests.test_dd_sure_tricks import _cards, _deal, _same_class


def test_r20_lone_declarer_keeps_the_trumps_higher_opposing_trumps_cannot_all_beat():
    # spades trump: N holds S5432, the defenders one higher trump each (A, K, Q) and hearts.
    # Each opposing trump beats at most one of N's, so one of N's four trumps must win.
    s = lambda *r: sum(1 << x for x in r)  # noqa: E731
    hands = [s(3, 2, 1, 0), s(12, 14, 15, 16), s(11, 17, 18, 19), s(10, 20, 21, 22)]
    arr = np.array(hands, np.uint64)
    tricks, rel = trump_length_tricks(arr, 0, 0, 1)
    # four trumps against three: the lengths alone give it, whoever holds which trump
    assert tricks == 1 and rel == np.uint64(0)
    assert quick_bounds(arr, 1, 0, 1, 1, 0)[0] >= 1
    assert brute_value(hands, 0, 1, 1, 1) >= 1
    # give W a fourth spade above N's lowest (the S6 for a heart): the bound falls to 0
    hands[3] = s(10, 4, 21, 22)
    assert trump_length_tricks(np.array(hands, np.uint64), 0, 0, 1)[0] == 0


def test_r20_partnership_keeps_the_trumps_the_other_side_cannot_all_beat():
    # spades trump, N-S together: N holds S5432, E the SA and W the SK (each beats at most
    # one of N's), so two of N's trumps win tricks for N-S though neither side's trumps
    # include a top trump of N-S (the top-trump rule alone gives N-S nothing)
    hands, arr = _deal("S5 S4 S3 S2", "SA HK HQ HJ", "H2 H3 H4 H5", "SK HA HT H9")
    tricks, rel = trump_length_tricks(arr, 0, 0, 5)
    assert tricks == 2 and rel == np.uint64(0)  # four trumps against two: lengths alone
    assert top_trumps(arr, 0)[0] & np.uint64(0xF) == 0
    for leader in range(4):
        assert quick_bounds(arr, leader, 0, 5, 5, 0)[0] >= 2
        assert quick_bounds(arr, leader, 0, 5, 5, 2)[0] >= 2  # with a target too
        # E-W maximising: N's two unbeaten trumps leave them at most two tricks
        assert quick_bounds(arr, leader, 0, 10, 10, 0)[1] <= 2
        assert quick_bounds(arr, leader, 0, 10, 10, 3)[1] <= 2
        assert brute_value(hands, 0, leader, 5, 5) >= 2
    # for N alone against three, S's hearts are no help and the trumps the same: two too
    assert trump_length_tricks(arr, 0, 0, 1)[0] == 2
    # give W the S6 instead of a heart: three opposing trumps above N's S2, one trick
    hands[3] = _cards("SK", "S6", "HT", "H9")
    assert trump_length_tricks(np.array(hands, np.uint64), 0, 0, 5)[0] == 1


def test_r20_trumps_beyond_the_opposing_count_rest_on_lengths_alone():
    # spades trump: N holds SA SK S2, E the S4 and W the S3. Each opposing trump beats at
    # most one of N's, so N's side takes 3 - 2 = 1 trump trick on the lengths alone; by
    # rank both low trumps sit below the SK, so only the S2 can fall: 2, resting on the
    # trumps down to N's S2. With 1 wanted the lengths' bound is taken, naming no card
    hands, arr = _deal("SA SK S2 H2", "S4 H3 H4 H5", "H6 H7 H8 H9", "S3 HT HJ HQ")
    assert trump_length_tricks(arr, 0, 0, 5) == (2, np.uint64(_cards("S2")))
    assert trump_length_tricks(arr, 0, 0, 5, 1) == (1, np.uint64(0))
    assert trump_length_tricks(arr, 0, 0, 5, 2) == (2, np.uint64(_cards("S2")))
    assert brute_value(hands, 0, 1, 5, 5) >= 2


def _trump_endings(rng, count):
    """`count` random endings of 2 to 4 cards a hand with a random trump suit:
    (cards a hand, hands as ints, as the kernels' array, trump)."""
    for _ in range(count):
        k = rng.randint(2, 4)
        hands = random_ending(rng, k)
        yield k, hands, np.array(hands, np.uint64), rng.randint(0, 3)


def test_r20_unbeaten_trumps_bound_every_position_of_their_class():
    # the bound of each hand's unbeaten trumps, for its side (one seat, partners, three)
    # and against it, holds on random endings and on a position sharing the class its
    # relevance names (what the transposition table reuses it for); brute force
    rng = random.Random(3030)
    checked = 0
    for k, hands, arr, trump in _trump_endings(rng, sized(120, 1200)):
        leader = rng.randint(0, 3)
        mask = rng.choice([1, 2, 4, 8, 5, 10, 7, 14])
        v = brute_value(hands, trump, leader, mask, mask)
        lo, up, _, _ = quick_bounds(arr, leader, trump, mask, mask, 0)
        assert lo <= v <= up
        q = rng.randint(0, 3)
        ours = (mask >> q) & 1
        n, rel = trump_length_tricks(arr, q, trump, mask if ours else 15 ^ mask)
        if n == 0:
            continue
        checked += 1
        for pos, val in ((hands, v), (_same_class(hands, int(rel), rng), None)):
            if val is None:
                val = brute_value(pos, trump, leader, mask, mask)
            assert (val >= n) if ours else (val <= k - n), (pos, trump, leader, mask, q, n)
    assert checked >= sized(120, 1200) // 4


def test_r19_r20_trump_guarded_behind_the_higher_ones_wins_a_trick():
    # clubs trump: E holds CQ53 behind N's CAK (N plays just before E whenever a defender
    # leads), so E's queen must win a trick; any defender on lead
    hands, arr = _deal("CA CK SA SK", "CQ C5 C3 HA", "C9 C8 C7 SQ", "CJ CT C6 SJ")
    ok, rel = guarded_behind(arr, 1, 3)
    assert ok and rel == np.uint64(_cards("CQ"))
    for leader in (0, 2, 3, 1):  # E on lead too: it leads its side card first
        assert quick_bounds(arr, leader, 3, 2, 2, 0)[0] == 1
        assert brute_value(hands, 3, leader, 2, 2) >= 1
    # one small club fewer (CQ5 against CAK): no longer guarded, and indeed E can be held
    # to nothing: N leads CA and CK in turn
    hands[1] = _cards("CQ", "C5", "HK", "HA")
    arr = np.array(hands, np.uint64)
    assert not guarded_behind(arr, 1, 3)[0]
    assert brute_value(hands, 3, 0, 2, 2) == 0
    # the higher clubs with the seat after E (S) instead: nothing sure either
    _, arr = _deal("C9 C8 SA SK", "CQ C5 C3 HA", "CA CK C7 SQ", "CJ CT C6 SJ")
    assert not guarded_behind(arr, 1, 3)[0]


def test_r19_r20_guarded_trump_denies_the_side_on_lead_every_trick():
    # spades trump, N-S maximising on lead need all four tricks, but E's SK sits behind
    # N's SA with a small spade: while N-S lead, E keeps the king until N's ace is gone
    # (DDS's LaterTricks): an upper bound of three resting on the SA and SK alone
    hands, arr = _deal("SA S5 HA HK", "SK S2 D2 D3", "SQ HQ HJ HT", "C2 C3 C4 C5")
    lo, up, _, up_rel = quick_bounds(arr, 0, 0, 5, 5, 4)
    assert up == 3 and up_rel == np.uint64(_cards("SK"))
    assert quick_bounds(arr, 0, 0, 5, 5, 0)[1] <= 3
    assert brute_value(hands, 0, 0, 5, 5) <= 3
    # the same bound holds wherever the cards below the king lie (its class)
    rng = random.Random(11)
    for _ in range(sized(4, 20)):
        pos = _same_class(hands, _cards("SK"), rng)
        assert brute_value(pos, 0, 0, 5, 5) <= 3, pos


def test_r20_two_top_trumps_in_two_hands_take_two_tricks():
    # hearts trump: N holds HA alone, S the HK with a small one: they can never be made
    # to fall together, so N-S take two tricks whoever leads, resting on the HA and HK
    hands, arr = _deal("HA SA", "H9 H8", "HK H2", "HQ HJ")
    assert top_two_split(arr, 1) == (0, 2, np.uint64(_cards("HK")))
    for leader in range(4):
        assert quick_bounds(arr, leader, 1, 5, 5, 2)[0] >= 2
        assert quick_bounds(arr, leader, 1, 10, 10, 1)[1] == 0  # E-W, maximising: none
        assert brute_value(hands, 1, leader, 5, 5) == 2
    # both singletons: E-W lead a heart and the two crash (N-S take one trick)
    hands, arr = _deal("HA SA", "H9 H8", "HK S2", "HQ HJ")
    assert top_two_split(arr, 1)[0] == -1
    assert brute_value(hands, 1, 1, 5, 5) == 1
    # in one hand the two are top trumps already (`top_trumps`), not a split
    _, arr = _deal("HA HK", "H9 H8", "S3 S2", "HQ HJ")
    assert top_two_split(arr, 1)[0] == -1


def test_r19_r20_top_two_trumps_bound_every_position_of_their_class():
    # random endings: whenever the two highest trumps lie in two hands of one side, not
    # both singletons, that side (partners, three defenders, or two of them) takes two
    # tricks whoever leads, on the position and on one sharing its class; brute force
    rng = random.Random(4141)
    checked = 0
    for _, hands, arr, trump in _trump_endings(rng, sized(200, 2000)):
        sa, sk, rel = top_two_split(arr, trump)
        if sa < 0:
            continue
        checked += 1
        pair = (1 << sa) | (1 << sk)
        mask = rng.choice([m for m in (5, 10, 7, 11, 13, 14) if m & pair == pair] + [pair])
        leader = rng.randint(0, 3)
        for pos in (hands, _same_class(hands, int(rel), rng)):
            assert brute_value(pos, trump, leader, mask, mask) >= 2, (pos, trump, leader, mask)
    assert checked >= sized(200, 2000) // 10


def test_r20_trumps_of_a_side_whose_opponents_hold_none_rest_on_lengths_alone():
    # diamonds trump, only E-W hold diamonds: each of E's three wins a trick, whoever
    # holds which; the bound rests on the suit lengths only (no card named)
    hands, arr = _deal("SA SK SQ HA", "DQ D9 D2 C2", "HK HQ HJ S2", "DA C3 C4 C5")
    assert trump_length_tricks(arr, 1, 2, 10) == (3, np.uint64(0))
    lo, up, lo_rel, up_rel = quick_bounds(arr, 0, 2, 5, 5, 2)
    assert up == 1 and up_rel == np.uint64(0)
    assert brute_value(hands, 2, 0, 5, 5) <= 1
    # a lone declarer without trumps against three: the longest defender in trumps
    lo, up, _, up_rel = quick_bounds(arr, 0, 2, 1, 1, 2)
    assert up <= 1 and up_rel == np.uint64(0)
    assert brute_value(hands, 2, 0, 1, 1) <= 1


def test_r19_r20_lone_declarer_trumps_challenge_wins_a_trick():
    # clubs trump, E declares alone with CQJ6: N (its right-hand opponent, playing before
    # it) holds CAT8, W holds CK. The defenders' trumps could beat E's one by one (A, K,
    # T) and the queen is not guarded behind the ace, but E plays its highest trump each
    # time it must play one (its lowest under N's ace): W's king covers one, N's ace
    # takes one, and the third wins (R19 order, R20)
    hands, arr = _deal("HT CA CT C8", "D3 CQ CJ C6", "S3 H6 H3 DQ", "H7 DA D7 CK")
    assert not guarded_behind(arr, 1, 3)[0]
    assert trump_length_tricks(arr, 1, 3, 2)[0] == 0
    ok, rel = trump_challenge(arr, 1, 3)
    assert ok and rel == np.uint64(_cards("C6"))
    for leader in (0, 2, 3):
        assert quick_bounds(arr, leader, 3, 2, 2, 0)[0] == 1
        assert brute_value(hands, 3, leader, 2, 2) == 1
    # E with CJT6 against N's CAQ8 instead: W's king covers the jack and N's two honours
    # above the ten, played before E, take the other two: the rule claims nothing
    hands, arr = _deal("HT CA CQ C8", "D3 CJ CT C6", "S3 H6 H3 DQ", "H7 DA D7 CK")
    assert not trump_challenge(arr, 1, 3)[0]


def test_r19_r20_trump_challenge_never_claims_a_trick_the_defence_can_deny():
    # brute force on random endings: whenever the rule says the lone declarer wins a
    # trick with the defenders on lead, it does
    rng = random.Random(77)
    fired = 0
    for _ in range(sized(400, 4000)):
        k = rng.randint(2, 4)
        hands = random_ending(rng, k)
        trump = rng.randint(0, 3)
        d = rng.randint(0, 3)
        arr = np.array(hands, np.uint64)
        if not trump_challenge(arr, d, trump)[0]:
            continue
        fired += 1
        leader = rng.choice([q for q in range(4) if q != d])
        assert brute_value(hands, trump, leader, 1 << d, 1 << d) >= 1, (hands, trump, d)
    assert fired >= sized(40, 400)
