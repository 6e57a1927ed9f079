"""kernels.dd.settle: settles inside a trick agree with brute force (R19, R20)."""

import random

import numpy as np

from kernels.dd.settle import second_hand_tricks, side_takes_trick
from tests.conftest import sized
from tests.reference_dd import legal_cards, side_tricks, trick_winner
from tests.test_dd_search import random_ending


def _side_can_win_trick(hands, trick, nplayed, leader, trump, side):
    """Brute force: can the seats of `side` make sure one of them wins the trick in
    progress, whatever the others play (R19 follow suit, R20 winner)?"""
    if nplayed == 4:
        led = trick[0] // 13

        def key(c):
            return (2 if c // 13 == trump else 1 if c // 13 == led else 0, c)

        w = max(range(4), key=lambda i: key(trick[i]))
        return (side >> ((leader + w) % 4)) & 1 == 1
    q = (leader + nplayed) % 4
    hand = int(hands[q])
    follow = hand & (0x1FFF << (13 * (trick[0] // 13)))
    legal = [c for c in range(52) if (follow or hand) >> c & 1]
    results = []
    for c in legal:
        hands[q] ^= np.uint64(1 << c)
        trick[nplayed] = c
        results.append(_side_can_win_trick(hands, trick, nplayed + 1, leader, trump, side))
        hands[q] ^= np.uint64(1 << c)
    return any(results) if (side >> q) & 1 else all(results)


def test_r19_r20_side_takes_trick_only_when_the_side_can_force_it():
    rng = random.Random(11)
    fired = 0
    for _ in range(sized(1500, 8000)):
        k = rng.randint(1, 4)
        cards = rng.sample(range(52), 4 * k)
        hands = np.array([sum(1 << c for c in cards[i * k:(i + 1) * k]) for i in range(4)],
                         np.uint64)
        leader = rng.randint(0, 3)
        nplayed = rng.randint(1, 3)
        trick = np.zeros(4, np.int64)
        for j in range(nplayed):
            q = (leader + j) % 4
            hand = int(hands[q])
            follow = hand & (0x1FFF << (13 * (trick[0] // 13))) if j else 0
            c = rng.choice([c for c in range(52) if (follow or hand) >> c & 1])
            hands[q] ^= np.uint64(1 << c)
            trick[j] = c
        trump = rng.randint(-1, 3)
        side = rng.choice([1, 2, 4, 8, 5, 10, 14, 13, 11, 7])
        sure, rel = side_takes_trick(hands, trick, nplayed, leader, trump, side)
        # the same given the index of the card now winning (as the search keeps it)
        wi = trick_winner([int(c) for c in trick[:nplayed]], 0, trump)  # its index (R20)
        assert side_takes_trick(hands, trick, nplayed, leader, trump, side, wi) == (sure, rel)
        if sure:
            fired += 1
            assert _side_can_win_trick(hands, trick.copy(), nplayed, leader, trump, side)
            # the relevance is one card of the suit led, the side's (a card of its seats
            # still to play, or one already played to the trick), or nothing (a ruff)
            rel = int(rel)
            if rel:
                card = rel.bit_length() - 1
                assert rel == 1 << card and card // 13 == trick[0] // 13
                own = [int(hands[(leader + j) % 4]) for j in range(nplayed, 4)
                       if (side >> ((leader + j) % 4)) & 1]
                assert card in trick[:nplayed] or any(h >> card & 1 for h in own)
    assert fired > sized(1500, 8000) // 5


def test_r20_side_takes_trick_with_its_top_card_or_a_ruff():
    # East (1) led the spade five; South (2) and North (0) are one side, West (3) the
    # other. South's spade king is above West's queen and East's five: sure, on the king
    s5, sq, sk, h2, c2 = 3, 10, 11, 13, 39
    hands = np.array([1 << h2, 0, 1 << sk, 1 << sq], np.uint64)
    trick = np.array([s5, 0, 0, 0], np.int64)
    assert side_takes_trick(hands, trick, 1, 1, -1, 5) == (True, 1 << sk)
    assert side_takes_trick(hands, trick, 1, 1, -1, 10) == (False, 0)
    # hearts trumps, North void in spades ruffs: sure with no card named
    assert side_takes_trick(hands, trick, 1, 1, 1, 1) == (True, 0)
    # but not when West, an opponent still to play, could ruff too
    hands[3] = np.uint64(1 << (13 + 5))
    hands[2] = np.uint64(1 << c2)
    assert side_takes_trick(hands, trick, 1, 1, 1, 1) == (False, 0)


def _tricks_after_lead(hands, lead, leader, side):
    """Brute force, no trump: the tricks of `side` (a seat mask) from the trick the leader
    led `lead` to (that trick included), the side playing for the most, the others for
    the fewest (R19, R20)."""
    seats = [q for q in range(4) if (side >> q) & 1]

    def play(hands, trick):
        if len(trick) == 4:
            w = trick_winner(trick, leader, -1)
            return ((side >> w) & 1) + side_tricks(hands, seats, -1, w)
        q = (leader + len(trick)) % 4
        values = []
        for c in legal_cards(hands[q], lead // 13):
            rest = list(hands)
            rest[q] &= ~(1 << c)
            values.append(play(rest, trick + (c,)))
        return max(values) if (side >> q) & 1 else min(values)

    return play([int(h) for h in hands], (lead,))


def test_r19_r20_second_hand_tricks_agree_with_brute_force():
    # no trump, one card led: whenever the second hand's side is found sure of its goal
    # (this trick won on its best card, then cashed from the winner's hand), the brute
    # force agrees, for lone seats, partnerships and a lone seat's three defenders
    rng = random.Random(40)
    settled = 0
    for _ in range(sized(400, 2000)):
        k = rng.randint(2, 4)
        hands = [int(h) for h in random_ending(rng, k)]
        leader = rng.randint(0, 3)
        lead = rng.choice(legal_cards(hands[leader], -1))
        hands[leader] &= ~(1 << lead)
        winmask = rng.choice([1, 2, 4, 8, 5, 10])
        need = rng.randint(1, k)
        arr = np.array(hands, np.uint64)
        trick = np.array([lead, 0, 0, 0], np.int64)
        done, value, rel = second_hand_tricks(arr, trick, leader, -1, winmask, need)
        assert [int(h) for h in arr] == hands  # hands restored
        if done:
            settled += 1
            assert value == (_tricks_after_lead(hands, lead, leader, winmask) >= need), (
                hands, lead, leader, winmask, need)
            assert rel != 0
    assert settled > sized(400, 2000) // 10


def test_r19_r20_second_hand_tricks_find_the_winner_at_the_third_hand():
    # a lone South (2) leads the spade four, no trump; North (0) wins it with the queen
    # for the three defenders and must then lead a club into South's jack, and South's
    # diamond queen takes the last trick over East's jack: South makes 2 of the 3 tricks
    # (the winning card's holder is the third hand: counting the cash from South's hand
    # would give the defenders 2 tricks)
    hands = [(1 << 10) | (1 << 44) | (1 << 47),  # N: SQ C7 CT
             (1 << 15) | (1 << 19) | (1 << 35),  # E: H4 H8 DJ
             (1 << 36) | (1 << 48),  # S: DQ CJ, the S4 led
             (1 << 1) | (1 << 21) | (1 << 25)]  # W: S3 HT HA
    assert _tricks_after_lead(hands, 2, 2, 4) == 2
    arr = np.array(hands, np.uint64)
    trick = np.array([2, 0, 0, 0], np.int64)
    for need in (1, 2, 3):
        done, value, _ = second_hand_tricks(arr, trick, 2, -1, 4, need)
        assert not done or value == (need <= 2)
    # the defenders win this trick on North's queen, but North then holds nothing above
    # South's cards: not settled at 2 (South needs 2 tricks, the defenders 2 to stop it)
    assert not second_hand_tricks(arr, trick, 2, -1, 4, 2)[0]


def test_r19_r20_second_hand_tricks_count_the_cash_after_this_trick():
    # West (3) leads the spade ten from Q-J-T; North (0) holds A-K-5-4 of spades, East (1)
    # four hearts, South (2) four clubs. North-South take two tricks (ducking the ten lets
    # West over to East's hearts), not four: a count made with the ace still in North's
    # hand had the ace-king "outlast" West's two spades left and so all four spades winning
    s = {r: r - 2 for r in range(2, 15)}  # spade of rank r (2..14)
    hands = [sum(1 << s[r] for r in (14, 13, 5, 4)),
             sum(1 << (13 + s[r]) for r in (14, 13, 12, 11)),
             sum(1 << (39 + s[r]) for r in (14, 13, 12, 11)),
             sum(1 << s[r] for r in (12, 11)) | (1 << (13 + s[2]))]
    arr = np.array(hands, np.uint64)
    trick = np.array([s[10], 0, 0, 0], np.int64)
    assert _tricks_after_lead(hands, s[10], 3, 5) == 2
    # on the ace North-South win this trick and the king the next: sure of two
    assert second_hand_tricks(arr, trick, 3, -1, 5, 2) == (True, True, (1 << s[14]) | (1 << s[13]))
    assert not second_hand_tricks(arr, trick, 3, -1, 5, 3)[0]
    assert not second_hand_tricks(arr, trick, 3, -1, 5, 4)[0]
    # asked for West-East's tricks: North-South's two stop West-East from three (the
    # value False), but not from two
    assert second_hand_tricks(arr, trick, 3, -1, 10, 3)[:2] == (True, False)
    assert not second_hand_tricks(arr, trick, 3, -1, 10, 2)[0]
