"""kernels.dd.misere: the misère rules never contradict the exact play (R15, R21; brute
force)."""

import random
from functools import cache

import numpy as np

from kernels.dd.misere import (
    MISERE_MEMO,
    ducking_gaps,
    ducks_every_suit,
    holds_bottom_cards,
    misere_force,
    misere_suit_game,
    must_win_lead,
    new_misere_work,
)
from tests.conftest import sized
from tests.reference_dd import random_ending as ending_in_suits
from tests.test_dd_search import brute_value, random_ending


def test_must_win_lead_in_misere():
    # declarer N holds only the spade ace; E, S, W hold lower spades: it must win
    arr = np.array([1 << 12, 1 << 0, 1 << 1, 1 << 2], np.uint64)
    assert must_win_lead(arr, 0)[0]
    arr = np.array([1 << 5, 1 << 12, 1 << 1, 1 << 2], np.uint64)
    assert not must_win_lead(arr, 0)[0]


def _misere_game_reference(cards, leader, d):
    """The one-suit misère game by exhaustive minimax, every card of every hand tried
    (no runs): 1 when the defenders force the declarer `d` to win a trick."""

    @cache
    def rec(cards, lead, k, top, top_seat):
        p = (lead + k) % 4
        if k == 0 and (cards[d] == 0 or cards[p] == 0):
            return 0
        values = []
        for c in [1 << i for i in range(52) if cards[p] >> i & 1] or [0]:
            t, ts = (c, p) if c > top else (top, top_seat)
            rest = list(cards)
            rest[p] ^= c
            rest = tuple(rest)
            if k == 3:
                values.append(1 if ts == d else rec(rest, ts, 0, 0, -1))
            else:
                values.append(rec(rest, lead, k + 1, t, ts))
        return min(values) if p == d else max(values)

    return rec(tuple(int(c) for c in cards), leader, 0, 0, -1)


def _one_suit(rng, suit=1):
    """Random cards of one suit (2 to 10 of them) dealt to the four seats."""
    cards = [0, 0, 0, 0]
    for rank in rng.sample(range(13), rng.randint(2, 10)):
        cards[rng.randrange(4)] |= 1 << (13 * suit + rank)
    return cards


def test_r15_r19_r20_misere_suit_game_agrees_with_exhaustive_minimax():
    # one card of each run stands for the run, and the card to beat splits runs: the
    # search finds the game's exact value (a 6 and an 8 around a 7 led are not
    # equivalent: leaving the card to beat out of the runs would find 0 wrongly)
    rng = random.Random(5)
    forced = 0
    for _ in range(sized(300, 3000)):
        cards = _one_suit(rng, rng.randrange(4))
        d = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != d])
        got = misere_suit_game(np.array(cards, np.uint64), leader, d, 1_000_000,
                               new_misere_work())
        assert got == _misere_game_reference(cards, leader, d), (cards, leader, d)
        forced += got
    assert forced >= sized(60, 600)


def test_r15_r21_misere_force_hand():
    # hearts: W leads; S (the declarer) holds H5 H9, the defenders H2 (N), H3 (E), H4 H6
    # (W). Whatever S plays it is above every card the defenders can keep under it in
    # the first round: W leads H4, N and E play H2 and H3, S wins. Give N the HT
    # instead of the H2 and S ducks under it each round it is led.
    h = [13 + r for r in range(13)]  # hearts, 2..A
    hand = lambda *cards: sum(1 << c for c in cards)  # noqa: E731
    spades = lambda *ranks: sum(1 << r for r in ranks)  # noqa: E731
    hands = np.array([hand(h[0]) | spades(12), hand(h[1]) | spades(11),
                      hand(h[3], h[7]), hand(h[2], h[4])], np.uint64)
    memo = np.zeros(MISERE_MEMO, np.uint64)
    won, rel = misere_force(hands, 3, 2, 256, memo, new_misere_work())
    assert won and rel == 1 << h[0]  # it rests on the whole heart suit
    assert brute_value([int(x) for x in hands], -1, 3, 15 ^ 4, 4) >= 1
    hands[0] = hand(h[8]) | spades(12)
    memo[:] = 0
    assert not misere_force(hands, 3, 2, 256, memo, new_misere_work())[0]
    assert brute_value([int(x) for x in hands], -1, 3, 15 ^ 4, 4) == 0


def test_r15_r21_misere_force_never_claims_a_trick_the_declarer_can_avoid():
    # brute force on random endings: a forced trick is a trick, whatever the declarer does
    rng = random.Random(51)
    memo = np.zeros(MISERE_MEMO, np.uint64)
    fired = 0
    for _ in range(sized(400, 4000)):
        hands = random_ending(rng, rng.randint(2, 4))
        d = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != d])
        won, _ = misere_force(np.array(hands, np.uint64), leader, d, 256, memo,
                              new_misere_work())
        if won:
            fired += 1
            assert brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d) >= 1, (hands, d)
    assert fired >= sized(100, 1000)


def test_misere_force_memo_answers_for_the_same_suit_only():
    # the memo answers a repeated suit (flipping its stored value flips the answer) and
    # never the same suit with another leader (the key holds the leader, the declarer
    # and each seat's cards of the suit)
    rng = random.Random(52)
    for _ in range(sized(50, 500)):
        hands = np.array(random_ending(rng, 4), np.uint64)
        d = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != d])
        memo = np.zeros(MISERE_MEMO, np.uint64)
        first = misere_force(hands, leader, d, 256, memo, new_misere_work())[0]
        assert misere_force(hands, leader, d, 256, memo, new_misere_work())[0] == first
        used = np.flatnonzero(memo)
        fresh = np.zeros(MISERE_MEMO, np.uint64)
        for other in range(4):
            if other not in (d, leader):
                # another leader: the stored words must not answer for it
                poisoned = memo.copy()
                poisoned[used] ^= np.uint64(1 << 63)
                assert misere_force(hands, other, d, 256, poisoned, new_misere_work())[0] == \
                    misere_force(hands, other, d, 256, fresh, new_misere_work())[0]
        if used.size and not first:
            memo[used[0]] ^= np.uint64(1 << 63)  # a stored 0 turned into 1 is believed
            assert misere_force(hands, leader, d, 256, memo, new_misere_work())[0]


def _sp(*ranks):
    return sum(1 << r for r in ranks)


def _ht(*ranks):
    return sum(1 << (13 + r) for r in ranks)


def _south_ducks_all(hands, relevance):
    """`ducks_every_suit` clears South (seat 2) with this relevance, and brute force
    agrees: no trick for South whichever defender leads (R15, R21)."""
    safe, rel = ducks_every_suit(hands, 2)
    assert safe and rel == relevance
    for leader in (0, 1, 3):
        assert brute_value([int(x) for x in hands], -1, leader, 11, 4) == 0


def test_r15_r21_declarer_ducks_every_suit_hand():
    # spades: S (the declarer) holds S3 S9, the defenders S5 (W) and ST (N): each of its
    # cards has a higher defenders' card in place, and it ducks whatever is led (S9
    # under ST, S3 under S5); hearts: S holds the H2 only. Not all its cards are below
    # all the others' (the S9 is above the S5), so only the new rule sees it
    hands = np.array([_sp(8) | _ht(12, 6), _ht(11, 10, 5), _sp(1, 7) | _ht(0),
                      _sp(3) | _ht(9, 7)], np.uint64)
    # the relevance: the defenders' lowest spade (the S5: below it only S's S3) and
    # lowest heart (E's H7: below it only S's H2)
    _south_ducks_all(hands, (1 << 3) | (1 << 18))
    assert not holds_bottom_cards(hands, 2)[0]
    # W's spade the S2 instead and N's the HT instead of the ST: W leads the S2, nobody
    # else follows, and the S3 or the S9 wins (then the defenders can force another)
    hands[0] = _ht(12, 8, 6)
    hands[3] = _sp(0) | _ht(9, 7)
    assert not ducks_every_suit(hands, 2)[0]
    assert brute_value([int(x) for x in hands], -1, 3, 11, 4) >= 1


def _cleared_endings(seed, n, kmin):
    """(hands, declarer, leader, relevance) of each random ending (kmin..4 cards a hand,
    a defender on lead) of n where `ducks_every_suit` clears the declarer."""
    rng = random.Random(seed)
    for _ in range(n):
        hands = random_ending(rng, rng.randint(kmin, 4))
        d = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != d])
        safe, rel = ducks_every_suit(np.array(hands, np.uint64), d)
        if safe:
            yield hands, d, leader, int(rel)


def test_r15_r21_ducks_every_suit_never_clears_a_declarer_who_can_be_forced():
    # brute force on random endings with a defender on lead
    fired = beyond = 0
    for hands, d, leader, _ in _cleared_endings(53, sized(600, 6000), 1):
        fired += 1
        beyond += not holds_bottom_cards(np.array(hands, np.uint64), d)[0]
        assert brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d) == 0, (hands, d)
    assert fired >= sized(100, 1000) and beyond >= sized(10, 100)


def test_r15_r21_ducks_every_suit_holds_for_its_whole_class():
    # the class of positions its relevance names (the same suit lengths, the same owners
    # of the cards from each suit's top down to its relevant card, the cards below dealt
    # anew among their holders, kernels.dd.tt): the rule clears the declarer in every
    # one, and brute force agrees
    from tests.test_dd_search import _shuffle_small_cards

    rng = random.Random(5322)
    checked = narrower = 0
    for hands, d, leader, rel in _cleared_endings(5321, sized(400, 4000), 2):
        below = []
        for s in range(4):
            suit_rel = rel >> (13 * s) & 0x1FFF
            below.append((suit_rel & -suit_rel).bit_length() - 1 if suit_rel else 13)
            present = sum(h >> (13 * s) & 0x1FFF for h in hands)
            narrower += suit_rel != 0 and suit_rel & -suit_rel != present & -present
        for _ in range(3):
            other = _shuffle_small_cards(hands, rng, below)
            assert ducks_every_suit(np.array(other, np.uint64), d)[0], (hands, other, d)
            assert brute_value(other, -1, leader, 15 ^ (1 << d), 1 << d) == 0, (other, d)
            checked += 1
    # the relevance is above the suit's lowest card (the whole suit) in many of them
    assert checked >= sized(150, 1500) and narrower >= sized(30, 300)


def _pooled_ducks(hands, d):
    """The pooled rule without the rounds bound, slowly: in every suit the declarer's i-th lowest
    card below the defenders' i-th lowest for every i up to the shorter side's holding."""
    for s in range(4):
        mine = sorted(c for c in range(13 * s, 13 * s + 13) if hands[d] >> c & 1)
        theirs = sorted(c for q in range(4) if q != d
                        for c in range(13 * s, 13 * s + 13) if hands[q] >> c & 1)
        if any(a > b for a, b in zip(mine, theirs, strict=False)):
            return False
    return True


def test_r15_r19_r21_ducks_every_suit_counts_only_the_rounds_left():
    # spades: S holds S2 S5 against W's S3 and N's S4. Pooled, the S5 is above the
    # defenders' second lowest (the S4), but each defender holds one spade, so spades can
    # be led once more at most (R19: both follow): S ducks it with the S2, and the S5 is
    # never led to again. Hearts: S's H2 is below all. No trick for S, whoever leads
    hands = np.array([_sp(2) | _ht(8, 10), _ht(12, 9, 6), _sp(0, 3) | _ht(0),
                      _sp(1) | _ht(11, 7)], np.uint64)
    # the relevance: the defenders' lowest spade (W's S3, below it S's S2 alone) and
    # lowest heart (E's H8, below it S's H2 alone)
    _south_ducks_all(hands, (1 << 1) | (1 << 19))
    assert not _pooled_ducks([int(x) for x in hands], 2)
    # W with two spades (the S3 and the S4, N none): spades can be led twice, and the
    # S5 wins the second round
    hands[0] = _ht(8, 10, 5)
    hands[3] = _sp(1, 2) | _ht(11)
    assert not ducks_every_suit(hands, 2)[0]
    assert brute_value([int(x) for x in hands], -1, 3, 11, 4) >= 1


def test_r15_r21_ducks_every_suit_extends_the_pooled_rule_soundly():
    # brute force on endings in two suits (long suits spread over the defenders, where
    # the rounds bound matters): wherever the rule fires the declarer takes nothing, and
    # it fires wherever the pooled rule does
    rng = random.Random(71)
    beyond = 0
    for _ in range(sized(600, 6000)):
        hands = ending_in_suits(rng, rng.randint(2, 4), 2)
        d = rng.randrange(4)
        leader = rng.choice([q for q in range(4) if q != d])
        if ducks_every_suit(np.array(hands, np.uint64), d)[0]:
            beyond += not _pooled_ducks(hands, d)
            assert brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d) == 0, (hands, d)
        else:
            assert not _pooled_ducks(hands, d), (hands, d)
    assert beyond >= sized(5, 50)


def test_r15_r17_ducking_gaps_count_the_places_short_of_ducking():
    # seed-777 deal 30 after the defenders' little-misère discards (R17: each its highest
    # card) and South's ♣J: spades duck (three rounds at most: the S2 S4 S5 under the S3 S6
    # S7), diamonds miss one place (the DJ above the D8, fourth lowest of four rounds),
    # clubs two (the C6 C8 above the C2 C3); with the ♦A discarded instead, clubs miss three
    from analyser.cards import parse_deal

    rest = "N:7.T763.T976.432 QJ8.K852.83.KT5 {} 963.J94.KQ.AQ97"
    assert ducking_gaps(parse_deal(rest.format("KT542..AJ542.86")), 2) == 3
    assert ducking_gaps(parse_deal(rest.format("KT542..J542.J86")), 2) == 4
    rng = random.Random(72)
    for _ in range(sized(500, 5000)):
        suits = rng.randint(1, 4)
        hands = np.array(ending_in_suits(rng, rng.randint(1, min(6, 13 * suits // 4)), suits),
                         np.uint64)
        d = rng.randrange(4)
        assert (ducking_gaps(hands, d) == 0) == ducks_every_suit(hands, d)[0]
