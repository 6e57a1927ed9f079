"""kernels/partout.py against a slow pure-Python reference of the partout policy (R26 Decision)."""

import numpy as np
import pytest

from analyser.cards import parse_deal, parse_hand
from analyser.dealing import deal_random
from kernels.jit import njit
from kernels.partout import partout_card, play_partout, play_partout_batch


def _card_id(name):
    """'SA' -> 12, 'D9' -> 33."""
    return 13 * "SHDC".index(name[0]) + "23456789TJQKA".index(name[1])


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


def reference_card(hand, trick):
    """The policy as docs/sessions.md states it, written card list by card list."""
    cards = _cards(hand)
    if not trick:
        return min(cards, key=lambda c: (c % 13, c // 13))  # lowest rank, then S H D C
    suit = trick[0] // 13
    follow = [c for c in cards if c // 13 == suit]
    if not follow:
        return max(cards, key=lambda c: (c % 13, -(c // 13)))  # highest rank, then S H D C
    best = max(c for c in trick if c // 13 == suit)
    below = [c for c in follow if c < best]
    if below:
        return max(below)
    return max(follow) if len(trick) == 3 else min(follow)


def reference_partout(deal, leader):
    """(cards in play order, trick winners, tricks by seat), played trick by trick (R19, R20)."""
    hands = [int(h) for h in deal]
    cards, winners, taken = [], [], [0, 0, 0, 0]
    while hands[leader]:
        trick = []
        for pos in range(4):
            seat = (leader + pos) % 4
            card = reference_card(hands[seat], trick)
            legal = [c for c in _cards(hands[seat]) if c // 13 == (trick[0] // 13 if trick else -1)]
            assert not legal or card in legal  # R19: the policy follows suit
            hands[seat] &= ~(1 << card)
            trick.append(card)
        suit = trick[0] // 13
        best = max(range(4), key=lambda p: trick[p] if trick[p] // 13 == suit else -1)
        leader = (leader + best) % 4
        cards += trick
        winners.append(leader)
        taken[leader] += 1
    return cards, winners, taken


def _kernel(deal, leader):
    cards = np.full(52, -1, dtype=np.int64)
    winners = np.full(13, -1, dtype=np.int64)
    taken = np.zeros(4, dtype=np.int64)
    n = play_partout(np.asarray(deal, dtype=np.uint64), leader, cards, winners, taken)
    return cards[:4 * n].tolist(), winners[:n].tolist(), taken.tolist()


def test_partout_kernel_matches_reference_on_random_deals_r26():
    deals = deal_random(300, 26)
    for i, deal in enumerate(deals):
        leader = i % 4
        got = _kernel(deal, leader)
        want = reference_partout(deal, leader)
        assert got == want, f"deal {i}"
        assert sum(got[2]) == 13  # R26: all 13 tricks are played
        assert sorted(got[0]) == sorted(c for h in deal for c in _cards(int(h)))


def test_partout_kernel_plays_endings_of_fewer_cards():
    deal = parse_deal("N:AK... Q2... 43... 65...")  # 2 cards each, spades only
    cards, winners, taken = _kernel(deal, 0)
    assert (cards, winners, taken) == reference_partout(deal, 0)
    assert len(cards) == 8 and sum(taken) == 2


@pytest.mark.parametrize("trick, hand, expected", [
    ((), "KQ2.A3..", "S2"),              # lead the lowest rank, S before H on a tie
    (("S9",), "KT8.A3..", "S8"),         # duck below the best card
    (("S9", "SQ"), "KT8.A3..", "ST"),    # the highest card still below the best
    (("S2",), "KT8.A3..", "S8"),         # cannot duck, not last: the lowest
    (("S2", "S3", "S4"), "KT8.A3..", "SK"),  # cannot duck, last: the trick is ours, shed K
    (("D9",), "KT8.A3..", "HA"),         # void: shed the highest rank
    (("D9",), "A.A..", "SA"),            # void, tie on rank: S before H
])
def test_partout_card_rule_cases_r26(trick, hand, expected):
    ids = np.zeros(4, dtype=np.int64)
    ids[:len(trick)] = [_card_id(c) for c in trick]
    mask = parse_hand(hand)
    assert partout_card(np.uint64(mask), ids, len(trick)) == _card_id(expected)
    assert reference_card(mask, [_card_id(c) for c in trick]) == _card_id(expected)


def test_partout_kernel_callable_from_another_kernel():
    @njit
    def total_tricks(deals, leaders):
        n = deals.shape[0]
        cards = np.empty((n, 52), dtype=np.int64)
        winners = np.empty((n, 13), dtype=np.int64)
        taken = np.empty((n, 4), dtype=np.int64)
        play_partout_batch(deals, leaders, cards, winners, taken)
        return taken.sum()

    deals = deal_random(20, 3)
    leaders = np.arange(20, dtype=np.int64) % 4
    assert total_tricks(deals, leaders) == 13 * 20
    card = partout_card(np.uint64(deals[0, 0]), np.zeros(4, dtype=np.int64), 0)
    assert card == reference_card(int(deals[0, 0]), [])
