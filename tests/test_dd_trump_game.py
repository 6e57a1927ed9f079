"""kernels.dd.trump_game: the lone declarer's trump game (R10, R18-R21).

The kernel, which holds the defenders to dominant choices and memoises, agrees with an
exhaustive minimax of the same game in plain Python; a win in the game is a trick count
the declarer makes in play (brute force on random endings); and on two hands it proves
what the closed-form trump rules (length, guarded trump, challenge) cannot.
"""

import random
from functools import cache

import numpy as np

from kernels.dd.trump_game import TRUMP_MEMO, new_trump_work, trump_game_wins, trump_tricks
from kernels.dd.trump_rules import guarded_behind, trump_challenge, trump_length_tricks
from tests.conftest import sized
from tests.reference_dd import random_ending
from tests.test_dd_search import brute_value
from tests.test_dd_sure_tricks import _cards as card_mask
from tests.test_dd_sure_tricks import _deal


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


@cache
def _game_reference(dm, am, lm, pm, sides, d_leads, k):
    """The game by exhaustive minimax, every card of every hand tried: True when the
    declarer (trumps dm, `sides` side cards) makes k tricks. A is its right-hand opponent
    (plays before it to a defender's lead), L and P the others (play after it)."""
    if k <= 0:
        return True
    if len(_cards(dm)) < k:
        return False

    def after(dm2, am2, lm2, pm2, d, a, forced):
        # every play of the hands after the declarer: a trump each, or none when it holds
        # none or (a ruff) when not forced to follow
        outcomes = [[]]
        for hand, must in forced:
            opts = [1 << c for c in _cards(hand)]
            if not must or not hand:
                opts.append(0)
            outcomes = [o + [x] for o in outcomes for x in opts]
        results = []
        for x, lc, pc in outcomes:
            won = d > a and x < d and lc < d and pc < d
            results.append(_game_reference(dm2, am2 ^ x, lm2 ^ lc, pm2 ^ pc, sides, won,
                                           k - won))
        return all(results)

    if d_leads:
        if sides > 0 and _game_reference(dm, am, lm, pm, sides - 1, False, k) and \
                _game_reference(dm, am, lm, pm, sides - 1, True, k - 1):
            return True
        for c in _cards(dm):
            d = 1 << c
            if after(dm ^ d, am, lm, pm, d, 0, ((am, True), (lm, True), (pm, True))):
                return True
        return False
    options = []
    if sides > 0:
        options.append(_game_reference(dm, am, lm, pm, sides - 1, False, k))
        options.append(_game_reference(dm, am, lm, pm, sides - 1, True, k - 1))
    trick_kinds = []
    if am | lm | pm:
        trick_kinds.append(True)  # trumps led: every holder follows
    if sides == 0:
        trick_kinds.append(False)  # a side suit led: the declarer must ruff
    for forced in trick_kinds:
        for a in [1 << c for c in _cards(am)] + ([] if forced and am else [0]):
            options.append(any(
                after(dm ^ (1 << c), am ^ a, lm, pm, 1 << c, a,
                      ((0, False), (lm, forced), (pm, forced)))
                for c in _cards(dm)))
    return all(options)


def test_trump_game_agrees_with_exhaustive_minimax():
    rng = random.Random(41)
    for _ in range(sized(120, 1200)):
        suit = rng.randint(0, 3)
        cards = rng.sample(range(13), rng.randint(1, 8))
        hands = [0, 0, 0, 0]
        for c in cards:
            hands[rng.randint(0, 3)] |= 1 << (13 * suit + c)
        if not hands[0]:
            continue
        sides = rng.randint(0, 3)
        d_leads = rng.random() < 0.3
        for k in range(1, len(_cards(hands[0])) + 2):
            memo = np.zeros(1 << 10, np.uint64)
            got = trump_game_wins(*(np.uint64(h) for h in hands), sides, d_leads, k, 10**7,
                                  memo, new_trump_work())
            assert got == int(_game_reference(*hands, sides, d_leads, k)), (hands, sides,
                                                                           d_leads, k)


def test_r19_r20_trump_game_wins_are_tricks_in_play():
    # random endings of 2..4 cards (2 suits, so trumps and voids are common), every
    # declarer and leader: a win in the game for k tricks means the declarer makes k
    rng = random.Random(8)
    proved = 0
    for _ in range(sized(200, 2000)):
        k = rng.randint(2, sized(4, 5))
        hands = random_ending(rng, k, rng.choice([2, 3, 4]))
        trump = rng.randint(0, 3)
        d = rng.randint(0, 3)
        leader = rng.randint(0, 3)
        arr = np.array(hands, np.uint64)
        memo = np.zeros(TRUMP_MEMO, np.uint64)
        best = 0
        for need in range(1, k + 1):
            if trump_tricks(arr, leader, trump, d, need, 10**6, memo, new_trump_work())[0]:
                best = need
        if best:
            proved += 1
            assert brute_value(hands, trump, leader, 1 << d, 1 << d) >= best, (hands, trump,
                                                                               d, leader)
    assert proved > sized(200, 2000) // 10


def test_r20_trump_game_draws_trumps_where_counting_cannot():
    # diamonds trump, N declares alone with AKQT92 and seven side cards; W (before N)
    # holds 86, E J4, S 753. N makes all six trumps (it ruffs high, then draws), which
    # the length count (each defenders' trump kills one lower: 4) does not see
    # (the game reads the trumps and the declarer's side-card count only)
    h = [0b1111111, 0, 0, 0]  # N's side cards: seven spades
    for seat, ranks in ((0, "AKQT92"), (3, "86"), (1, "J4"), (2, "753")):
        for r in ranks:
            h[seat] |= 1 << (26 + "23456789TJQKA".index(r))
    arr = np.array(h, np.uint64)
    memo = np.zeros(TRUMP_MEMO, np.uint64)
    assert trump_length_tricks(arr, 0, 2, 1)[0] == 4
    won, rel = trump_tricks(arr, 1, 2, 0, 6, 4096, memo, new_trump_work())
    assert won and rel == np.uint64(1 << 26)  # rests on the trumps down to N's 2
    assert not trump_tricks(arr, 1, 2, 0, 7, 4096, memo, new_trump_work())[0]


def test_r19_r20_trump_game_finds_the_low_trump_first_line():
    # clubs trump, E alone with C85; N (before E) holds C6, S (after E) C9. Playing its
    # highest trump first loses both (S covers the 8, N's 6 kills the 5), so the closed
    # forms claim nothing; but E can play the 5 first: S must cover it with the 9, and
    # the 8 then beats N's 6 (or, if N plays the 6 first, E plays the 8, S covers, and
    # the 5 wins the next trump trick)
    hands, arr = _deal("S7 D7 D2 C6", "HT DJ C8 C5", "HA D5 D3 C9", "S3 H9 H8 DA")
    assert not trump_challenge(arr, 1, 3)[0] and not guarded_behind(arr, 1, 3)[0]
    assert trump_length_tricks(arr, 1, 3, 2)[0] == 0
    for leader in (0, 2, 3, 1):  # E on lead too: it leads a side card first
        ok, rel = trump_tricks(arr, leader, 3, 1, 1, 4096, np.zeros(TRUMP_MEMO, np.uint64),
                               new_trump_work())
        assert ok and rel == np.uint64(card_mask("C5"))
        assert brute_value(hands, 3, leader, 2, 2) == 1
    # against N's C9 (before E) and S's CT (after it) both fall: the ten covers whichever
    # trump E plays first and the nine kills the other
    _, arr = _deal("S7 D7 D2 C9", "HT DJ C8 C5", "HA D5 D3 CT", "S3 H9 H8 DA")
    assert not trump_tricks(arr, 0, 3, 1, 1, 4096, np.zeros(TRUMP_MEMO, np.uint64),
                               new_trump_work())[0]
