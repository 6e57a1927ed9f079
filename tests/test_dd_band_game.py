"""The band game (kernels.dd.band_game) against its pure-Python definition and against
double-dummy misère (R15, R19, R20, R21).

tests/reference_dd.band_game_forced plays the band game by its definition: every legal
card, no bands as moves, no table, the defenders choosing the winner of a ducked trick
among the players of the top card's band. The kernel must give its value exactly; and its
"made" must be a made misère by brute force (tests/reference_dd.dd_misere): the game is a
proof only if the defenders there are at least as strong as in play.
"""

import random

import numpy as np

from kernels.dd.band_game import band_bottoms, band_game, band_key, new_band_work
from tests.conftest import sized
from tests.reference_dd import band_game_forced, cards_of, dd_misere, random_ending


def _endings(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        k = rng.randint(1, 5)
        suits = rng.choice([s for s in (1, 2, 3, 4) if 13 * s >= 4 * k])
        yield random_ending(rng, k, suits), rng.randrange(4), rng.randrange(4)


def test_r15_r19_r20_band_game_matches_its_definition_and_proves_misere():
    work = new_band_work()
    made = proved = 0
    for deal, declarer, leader in _endings(1, sized(300, 1500)):
        got = band_game(np.array(deal, np.uint64), leader, declarer, 1 << 40, work)
        assert got == int(band_game_forced(deal, declarer, leader)), (deal, declarer, leader)
        real = dd_misere(deal, declarer, leader)
        assert got == 1 or real, (deal, declarer, leader)  # made there: made in play (R15)
        made += real
        proved += got == 0
    # the game is worth having: it proves most made misères of these endings
    assert proved >= 0.8 * made > 0, (proved, made)


def test_r21_band_game_forced_while_the_misere_is_made():
    # made in play, forced in the band game. North (declarer) holds the club 8 and queen;
    # East the spade 6 and queen, South the spade 2 and club 6, West the spade 5 and king;
    # East leads. In play South, whose 2 is the lowest spade, never wins a spade trick, and
    # North discards its clubs on the two spade leads (R19, R20). North holds no spade, so
    # the spades are one band: in the band game the defenders may give the first trick to
    # South, who leads the club 6 under North's club
    north = 1 << (39 + 6) | 1 << (39 + 10)
    east = 1 << 4 | 1 << 10
    south = 1 << 0 | 1 << (39 + 4)
    west = 1 << 3 | 1 << 11
    deal = (north, east, south, west)
    assert dd_misere(deal, 0, 1)
    assert band_game_forced(deal, 0, 1)
    assert band_game(np.array(deal, np.uint64), 1, 0, 1 << 40, new_band_work()) == 1


def test_band_game_over_budget_returns_minus_one_and_leaves_hands():
    work = new_band_work()
    seen = 0
    for deal, declarer, leader in _endings(2, sized(100, 400)):
        arr = np.array(deal, np.uint64)
        full = band_game(arr, leader, declarer, 1 << 40, new_band_work())
        got = band_game(arr, leader, declarer, 3, work)
        assert [int(h) for h in arr] == list(deal)
        if got == -1:
            seen += 1
        else:
            assert got == full, (deal, declarer, leader)
    assert seen > 0


def _permute_within_bands(deal, declarer, rng):
    """The deal with, in each suit, the defenders' cards of each band (between two cards of
    the declarer) dealt out again among the same defenders, each keeping its count."""
    hands = [int(h) for h in deal]
    out = [0, 0, 0, 0]
    out[declarer] = hands[declarer]
    for s in range(4):
        band = []
        for r in range(14):
            c = 13 * s + r
            owner = next((q for q in range(4) if r < 13 and hands[q] >> c & 1), None)
            if r == 13 or owner == declarer:
                seats = [q for q, _ in band]
                rng.shuffle(seats)
                for (_, card), q in zip(band, seats, strict=True):
                    out[q] |= 1 << card
                band = []
            elif owner is not None:
                band.append((owner, c))
    return tuple(out)


def test_r15_band_key_is_one_per_class_and_the_value_is_the_class_value():
    rng = random.Random(3)
    work = new_band_work()
    for deal, declarer, leader in _endings(3, sized(150, 600)):
        other = _permute_within_bands(deal, declarer, rng)
        a = band_key(np.array(deal, np.uint64), leader, declarer)
        b = band_key(np.array(other, np.uint64), leader, declarer)
        assert a == b, (deal, other)
        assert band_game_forced(deal, declarer, leader) == band_game_forced(other, declarer,
                                                                            leader)
        assert band_game(np.array(other, np.uint64), leader, declarer, 1 << 40, work) == \
            int(band_game_forced(deal, declarer, leader))
        # another declarer, leader or a card moved to another seat is another key
        assert band_key(np.array(deal, np.uint64), (leader + 1) % 4, declarer) != a


def test_band_bottoms_keeps_one_card_per_band():
    rng = random.Random(4)
    for _ in range(300):
        cards = rng.getrandbits(52)
        dcards = rng.getrandbits(52) & ~cards
        got = int(band_bottoms(np.uint64(cards), np.uint64(dcards)))
        # brute force: a card is kept when no lower card of `cards` lies in its band
        want = 0
        for c in cards_of(cards):
            s = c // 13
            lower = [x for x in cards_of(cards) if x // 13 == s and x < c]
            if not any(not any(x < y < c for y in cards_of(dcards)) for x in lower):
                want |= 1 << c
        assert got == want
