"""The double-dummy search core (kernels.dd.search) against a tiny brute-force minimax.

The brute force below plays every legal card (R19) at every turn, scores tricks by R20,
and knows nothing of equivalent cards, bounds or tables; the kernel must agree on every
mode: one declarer against three, partnerships, grand and little misère (R15, R17).
"""

import functools
import random

import numpy as np
import pytest

from kernels.dd.band_game import new_band_work
from kernels.dd.batch import (
    GUESS_UP,
    JOB_GRAND,
    JOB_LITTLE,
    JOB_TRICKS,
    partnership_guess,
    solve_jobs,
)
from kernels.dd.misere import top_of_each_suit
from kernels.dd.ruff_game import new_ruff_memo
from kernels.dd.search import (
    defender_discard,
    highest_rank,
    new_buffers,
    solve_little_misere,
    solve_misere,
    solve_value,
)
from kernels.dd.tt import exact_lookup, new_table, position_key, position_words
from kernels.jit import njit
from tests.conftest import sized


def _winner(trick, leader, trump):
    best = 0
    for i in range(1, 4):
        c, b = trick[i], trick[best]
        if c // 13 == b // 13:
            if c > b:
                best = i
        elif c // 13 == trump:
            best = i
    return (leader + best) % 4


def brute_value(hands, trump, leader, maxmask, winmask):
    """Tricks won by `winmask` when the seats of `maxmask` maximise them and the rest minimise."""

    @functools.lru_cache(None)
    def rec(hands, leader, trick):
        n = len(trick)
        if n == 0 and hands[leader] == 0:
            return 0
        p = (leader + n) % 4
        legal = hands[p]
        if n:
            follow = legal & (0x1FFF << (13 * (trick[0] // 13)))
            legal = follow or legal
        values = []
        for c in range(52):
            if legal >> c & 1:
                nh = list(hands)
                nh[p] ^= 1 << c
                nh = tuple(nh)
                t = trick + (c,)
                if len(t) == 4:
                    w = _winner(t, leader, trump)
                    values.append(((winmask >> w) & 1) + rec(nh, w, ()))
                else:
                    values.append(rec(nh, leader, t))
        return max(values) if (maxmask >> p) & 1 else min(values)

    return rec(tuple(int(h) for h in hands), leader, ())


def brute_highest(hand):
    """R17 default: highest rank, ties to the lower suit index (S H D C)."""
    return max((c for c in range(52) if hand >> c & 1), key=lambda c: (c % 13, -(c // 13)))


def _brute_discard_made(hands, declarer, leader, card):
    """Whether the declarer takes no trick after discarding `card` (brute force, R15)."""
    h = list(hands)
    h[declarer] ^= 1 << card
    return brute_value(h, -1, leader, 15 ^ (1 << declarer), 1 << declarer) == 0


def _after_defender_discards(hands, declarer):
    """The hands once each defender has discarded its highest card (R17's default)."""
    return [h if q == declarer else h ^ 1 << brute_highest(h) for q, h in enumerate(hands)]


def brute_little(hands, declarer, leader):
    """Little misère by brute force: every declarer discard, defenders discard highest."""
    base = _after_defender_discards(hands, declarer)
    if base[declarer].bit_count() == 1:
        return True
    return any(_brute_discard_made(base, declarer, leader, c)
               for c in range(52) if base[declarer] >> c & 1)


def random_ending(rng, k):
    cards = rng.sample(range(52), 4 * k)
    return [sum(1 << c for c in cards[i * k:(i + 1) * k]) for i in range(4)]


@pytest.fixture(scope="module")
def work():
    exact, classes = new_table(1)
    moves, scores = new_buffers()
    return exact, classes, moves, scores


_GENS = np.zeros(1, np.int64)
_RMEMO = new_ruff_memo(1 << 12)  # the ruff game's memo, shared like a worker's


def _job(arr, leader, kind, seats, arg, exact, classes):
    """One job through the kernel entry point every public form uses (kernels.dd.batch).

    The search is compiled into each entry point separately, so the tests reuse the
    public entry point rather than compiling solve_value, solve_misere, ... on their own.
    """
    out = np.zeros((1, 1), np.int8)
    jobs = np.array([[kind, seats, arg]], np.int64)
    solve_jobs(arr[None, :], 0, 1, leader, jobs, out, exact, classes, _GENS, 0, _RMEMO)
    return int(out[0, 0])


def solve_value_job(arr, leader, trump, mask, exact, classes):
    return _job(arr, leader, JOB_TRICKS, mask, trump, exact, classes)


def solve_misere_job(arr, declarer, leader, exact, classes):
    return bool(_job(arr, leader, JOB_GRAND, declarer, 0, exact, classes))


def solve_little_job(arr, declarer, leader, exact, classes):
    return bool(_job(arr, leader, JOB_LITTLE, declarer, 0, exact, classes))


@njit
def _value_inside(hands, leader, trump, maxmask, winmask, exact, classes, moves, scores, rmemo):
    """Calls the kernel from inside another compiled function (STYLE.md)."""
    return solve_value(hands, leader, trump, maxmask, winmask, 2, exact, classes, 1, moves, scores,
                       rmemo)


@njit
def _misere_inside(hands, declarer, leader, little, probe, band_start, exact, classes, moves,
                   scores, band):
    """Grand or little misère with given probing and band-game budgets
    (kernels.dd.search.search, solve_misere), called from inside a compiled function like
    `_value_inside`."""
    if little:
        return solve_little_misere(hands, declarer, leader, 0, exact, classes, 1, moves, scores,
                                   probe, band, band_start)
    return solve_misere(hands, declarer, leader, exact, classes, 1, moves, scores, probe, band,
                        band_start)


def _cases(seed, n, kmax):
    rng = random.Random(seed)
    for _ in range(n):
        k = rng.randint(1, kmax)
        yield (random_ending(rng, k), rng.randint(-1, 3), rng.randint(0, 3), rng.randint(0, 3),
               rng)


def test_r10_r19_r20_declarer_tricks_match_brute_force(work):
    exact, classes, moves, scores = work
    for _i, (hands, trump, declarer, leader, _) in enumerate(_cases(1, sized(60, 400), 4)):
        me = 1 << declarer
        arr = np.array(hands, np.uint64)
        got = solve_value_job(arr, leader, trump, me, exact, classes)
        assert got == brute_value(hands, trump, leader, me, me), (hands, trump, declarer, leader)


def test_r19_r20_no_trump_sides_of_one_and_three_seats_on_found_endings(work):
    # endings where the second-hand quick tricks can go wrong in no trump (the second
    # hand's side winning the trick with the third hand's card, to be counted cashing from
    # that hand), found by brute force over 3,000 random endings
    exact, classes, moves, scores = work
    for hands, leader, mask in (([33687808, 225, 541698, 8388636], 2, 14),
                                ([87978244308992, 3298534948896, 598134593946112, 9437190],
                                 2, 4),
                                ([2818048, 16781832, 4456608, 44032], 1, 13)):
        arr = np.array(hands, np.uint64)
        got = solve_value_job(arr, leader, -1, mask, exact, classes)
        assert got == brute_value(hands, -1, leader, mask, mask), (hands, leader, mask)


def test_partnership_tricks_match_brute_force_inside_njit(work):
    exact, classes, moves, scores = work
    for hands, trump, _, leader, rng in _cases(2, sized(60, 400), 4):
        side = rng.choice([(0, 2), (1, 3), (0, 1, 2), (3,)])
        mask = sum(1 << s for s in side)
        arr = np.array(hands, np.uint64)
        got = _value_inside(arr, leader, trump, mask, mask, exact, classes, moves, scores,
                            _RMEMO)
        assert got == brute_value(hands, trump, leader, mask, mask), (hands, trump, side, leader)
        assert [int(h) for h in arr] == hands  # make/undo restored the position in place


def test_r15_r21_grand_misere_matches_brute_force(work):
    exact, classes, moves, scores = work
    for _i, (hands, _, declarer, leader, _) in enumerate(_cases(3, sized(80, 500), 4)):
        arr = np.array(hands, np.uint64)
        got = solve_misere_job(arr, declarer, leader, exact, classes)
        want = brute_value(hands, -1, leader, 15 ^ (1 << declarer), 1 << declarer) == 0
        assert got == want, (hands, declarer, leader)


def test_r15_r17_little_misere_matches_brute_force(work):
    exact, classes, moves, scores = work
    for _i, (hands, _, declarer, leader, _) in enumerate(_cases(4, sized(60, 300), 4)):
        arr = np.array(hands, np.uint64)
        got = solve_little_job(arr, declarer, leader, exact, classes)
        assert got == brute_little(hands, declarer, leader), (hands, declarer, leader)


def test_r15_r19_r20_misere_settles_inside_a_trick_agree_with_brute_force():
    # kernels.dd.search._misere_in_trick, once the declarer has played to the trick: its
    # card winning with no higher card to come (the declarer takes a trick), or beaten
    # (by a card played, or by a defender to come holding only higher cards, R19) with
    # the ducking rule then true (the misère is made, R15, R21); brute force from the
    # same position agrees every time it settles
    from kernels.dd.search import _misere_in_trick
    from tests.reference_dd import random_position, side_tricks, trick_winner

    rng = random.Random(9151)
    fired = {"wins": 0, "beaten": 0, "must beat": 0}
    for _ in range(sized(3000, 20000)):
        played = rng.randint(1, 3)
        hands, leader, trick = random_position(rng, rng.randint(1, 4), played,
                                               rng.randint(2, 4))
        declarer = (leader + rng.randrange(played)) % 4
        di = (declarer - leader) % 4
        wi = (trick_winner(list(trick), leader, -1) - leader) % 4
        row = np.array(list(trick) + [0] * (4 - played), np.int64)
        done, made_trick, rel = _misere_in_trick(np.array(hands, np.uint64), row, played,
                                                 leader, 1 << declarer, 1, wi)
        if not done:
            continue
        taken = side_tricks(hands, (declarer,), -1, leader, maximise=False, trick=trick)
        assert made_trick == (taken >= 1), (hands, leader, trick, declarer)
        if made_trick:
            fired["wins"] += 1
            assert int(rel) == 1 << trick[di]  # the declarer's card
        elif wi != di:
            fired["beaten"] += 1
            if trick[di] // 13 == trick[0] // 13:
                assert int(rel) >> trick[wi] & 1  # the card beating it
        else:
            fired["must beat"] += 1
    assert min(fired.values()) >= sized(20, 150), fired


@pytest.mark.parametrize("probe", [1, 2, 5])
def test_r15_r17_r21_misere_probing_under_tiny_budgets_matches_brute_force(probe):
    # budgets of a few nodes give up nearly every card the defenders try near the top and
    # come back to it in later rounds: every undo and every restart path runs, and the
    # answers must still be brute force's (R15, R17, R21); the same tiny budgets for the
    # search's turns before the band game's (solve_misere), so that the search gives up
    # and starts again, and the band game runs out of budget, proves or fails, round after
    # round
    exact, classes = new_table(1)
    moves, scores = new_buffers()
    band = new_band_work()
    band_games = 0
    for hands, _, declarer, leader, _ in _cases(40 + probe, sized(60, 300), 5):
        arr = np.array(hands, np.uint64)
        band[-1][0] = 0
        got = _misere_inside(arr, declarer, leader, False, probe, probe, exact, classes, moves,
                             scores, band)
        band_games += band[-1][0] > 0
        want = brute_value(hands, -1, leader, 15 ^ (1 << declarer), 1 << declarer) == 0
        assert got == want, (hands, declarer, leader, probe)
        assert [int(h) for h in arr] == hands  # the undo restored the position in place
        got = _misere_inside(arr, declarer, leader, True, probe, probe, exact, classes, moves,
                             scores, band)
        assert got == brute_little(hands, declarer, leader), (hands, declarer, leader, probe)
    assert band_games >= sized(15, 75)  # the band game had its turns


def test_r17_defender_discard_highest_breaks_ties_by_suit_order():
    # aces of hearts and clubs: the heart (suit 1) goes before the club (suit 3)
    hand = (1 << (13 * 1 + 12)) | (1 << (13 * 3 + 12)) | (1 << 5)
    assert defender_discard(np.uint64(hand), 0) == 13 * 1 + 12
    for seed in range(50):
        h = random_ending(random.Random(seed), 5)[0]
        assert defender_discard(np.uint64(h), 0) == brute_highest(h)


def test_transposition_table_reuse_across_modes_keeps_results(work):
    """One table shared by all modes of the same endings (table keys hold trump and masks)."""
    exact, classes, moves, scores = work
    for hands, _, declarer, leader, _ in _cases(5, sized(30, 150), 4):
        arr = np.array(hands, np.uint64)
        me = 1 << declarer
        for trump in (-1, 0, 1, 2, 3):
            got = solve_value_job(arr, leader, trump, me, exact, classes)
            assert got == brute_value(hands, trump, leader, me, me)
        got = solve_misere_job(arr, declarer, leader, exact, classes)
        assert got == (brute_value(hands, -1, leader, 15 ^ me, me) == 0)


def _shuffle_small_cards(hands, rng, below):
    """The same suit lengths per hand, with the cards of rank < `below` of each suit (or
    < below[s] of suit s, given four ranks) dealt anew among the hands holding them: a
    position that often shares a stored class (kernels.dd.tt) with `hands` without being
    equal to it."""
    new = [0, 0, 0, 0]
    for s in range(4):
        low = below if isinstance(below, int) else below[s]
        small, owners = [], []
        for q in range(4):
            for r in range(13):
                c = 13 * s + r
                if hands[q] >> c & 1:
                    if r < low:
                        small.append(c)
                        owners.append(q)
                    else:
                        new[q] |= 1 << c
        rng.shuffle(owners)
        for c, q in zip(small, owners, strict=True):
            new[q] |= 1 << c
    return new


def test_r20_stored_classes_carry_over_only_where_ranks_do_not_matter():
    """Positions differing only in who holds the small cards share one table: answers that
    rest on the relevant (winning) ranks are reused, and every answer still equals the
    brute force (R19, R20, misère R15/R21), whatever the table already held."""
    rng = random.Random(31)
    exact, classes = new_table(1)
    for _ in range(sized(150, 600)):
        base = random_ending(rng, rng.randint(3, 4))
        trump = rng.randint(-1, 3)
        leader = rng.randint(0, 3)
        d = rng.randint(0, 3)
        for _ in range(4):
            hands = _shuffle_small_cards(base, rng, rng.randint(4, 9))
            arr = np.array(hands, np.uint64)
            got = solve_value_job(arr, leader, trump, 1 << d, exact, classes)
            assert got == brute_value(hands, trump, leader, 1 << d, 1 << d), (hands, trump, d)
            got = solve_misere_job(arr, d, leader, exact, classes)
            want = brute_value(hands, -1, leader, 15 ^ (1 << d), 1 << d) == 0
            assert got == want, (hands, d, leader)


def test_r20_stored_entries_never_name_a_suit_one_hand_holds_alone():
    """A suit whose cards in play one hand holds alone is owned as the suit lengths say,
    so the search passes no card of it up (kernels.dd.tt.drop_sole_suits): the root's
    stored bounds name none of it, and the answers still equal the brute force (R19,
    R20)."""
    rng = random.Random(5)
    for _ in range(sized(200, 1000)):
        sole_suit, holder = rng.randint(0, 3), rng.randint(0, 3)
        sole = rng.sample([c for c in range(52) if c // 13 == sole_suit], 2)
        rest = rng.sample([c for c in range(52) if c // 13 != sole_suit], 14)
        hands = []
        for q in range(4):
            cards = [rest.pop() for _ in range(2 if q == holder else 4)]
            hands.append(sum(1 << c for c in cards + (sole if q == holder else [])))
        arr = np.array(hands, np.uint64)
        trump = rng.choice([-1, -1] + [t for t in range(4) if t != sole_suit])
        leader, side = rng.randint(0, 3), rng.choice([5, 10])
        exact, classes = new_table(1)
        got = solve_value_job(arr, leader, trump, side, exact, classes)
        assert got == brute_value(hands, trump, leader, side, side), (hands, trump, leader)
        k1, k2 = position_key(*position_words(arr, leader, trump, side, side))
        _, _, klo, kup, _ = exact_lookup(exact, k1, k2)
        for kw in (klo, kup):
            assert (int(kw) >> (4 * sole_suit)) & 15 == 0, (hands, trump, leader, side)


def test_r17_declarer_discards_are_tried_highest_rank_first():
    # the little-misère declarer's discard candidates, in the order they are tried
    rng = random.Random(17)
    for _ in range(300):
        cards = rng.sample(range(52), rng.randint(1, 13))
        want = max(cards, key=lambda c: (c % 13, -c))  # highest rank, then lowest suit id
        assert highest_rank(np.uint64(sum(1 << c for c in cards))) == want


def test_r17_declarer_discards_are_the_highest_card_of_each_suit():
    rng = random.Random(171)
    for _ in range(300):
        cards = rng.sample(range(52), rng.randint(1, 13))
        want = {max(c for c in cards if c // 13 == s) for s in {c // 13 for c in cards}}
        got = int(top_of_each_suit(np.uint64(sum(1 << c for c in cards))))
        assert {c for c in range(52) if got >> c & 1} == want, sorted(cards)


def test_r15_r17_discarding_a_suits_highest_card_is_never_worse():
    # why little misère tries only `top_of_each_suit`: on random endings, whenever the
    # declarer takes no trick after discarding some card (brute force, defenders
    # discarding by R17's default), it takes none after discarding its highest card of
    # that suit either
    rng = random.Random(1715)
    checked = 0
    for _ in range(sized(150, 600)):
        hands = random_ending(rng, rng.randint(2, 4))
        declarer, leader = rng.randint(0, 3), rng.randint(0, 3)
        base = _after_defender_discards(hands, declarer)
        mine = [c for c in range(52) if base[declarer] >> c & 1]
        for c in mine:
            top = max(x for x in mine if x // 13 == c // 13)
            if c != top and _brute_discard_made(base, declarer, leader, c):
                assert _brute_discard_made(base, declarer, leader, top), (hands, declarer, c)
                checked += 1
    assert checked >= 10


def test_r10_root_ruff_bound_fills_the_workers_memo(work):
    # South declares spades in the ruff game's example (N: SA D95, E: H9 C76, S: S75 C8,
    # W: SJ HJ C4), South on lead: the ruff game's 2 tricks meet the upper bound (North's
    # ace of trumps takes one of the 3), so no search runs; the root's game was played in
    # the worker's ruff memo, which every later solve of the worker shares
    from analyser import parse_deal

    exact, classes, moves, scores = work
    arr = parse_deal("N:A..95. .9..76 75...8 J.J..4")
    hands = tuple(int(h) for h in arr)
    assert brute_value(hands, 0, 2, 1 << 2, 1 << 2) == 2
    memo = new_ruff_memo(1 << 12)
    assert solve_value(arr, 2, 0, 1 << 2, 1 << 2, 2, exact, classes, 1, moves, scores,
                       memo) == 2
    assert memo.any()


def test_r20_partnership_guess_from_high_cards_and_trumps():
    # the first target of a partnership's solve (kernels.dd.batch): hcp / 2 - 4 in no
    # trump, (4 hcp + 12 trumps - 88) / 11 with a trump suit, GUESS_UP above, in 1..13
    def mask(cards):
        return np.uint64(sum(1 << c for c in cards))

    spades = list(range(13))  # spade 2..ace: card ids 0..12
    hearts = [13 + r for r in range(13)]
    # North: the spade A K Q J, the heart A K and the heart 2-8 (17 points); South: the
    # spade 2-5, the heart 9 and 10, the diamond 2-8 (no points)
    north = mask(spades[9:] + hearts[11:] + hearts[:7])
    south = mask(spades[:4] + hearts[7:9] + [26, 27, 28, 29, 30, 31, 32])
    rest = ~np.uint64(int(north) | int(south)) & np.uint64((1 << 52) - 1)
    east = np.uint64(sum(1 << c for c in range(52) if int(rest) >> c & 1 and c < 39))
    hands = np.array([north, east, south, rest & ~east], np.uint64)
    assert partnership_guess(hands, 5, -1) == (17 - 8 + 1) // 2 + GUESS_UP
    # spades trumps: North-South hold eight of them
    assert partnership_guess(hands, 5, 0) == (4 * 17 + 12 * 8 - 88 + 5) // 11 + GUESS_UP
    # East-West hold the other 23 points; all 40, or none, are clamped into 1..13
    assert partnership_guess(hands, 10, -1) == (23 - 8 + 1) // 2 + GUESS_UP
    every = np.array([np.uint64((1 << 52) - 1), 0, 0, 0], np.uint64)
    assert partnership_guess(every, 5, -1) == 13
    assert partnership_guess(every, 10, -1) == 1
