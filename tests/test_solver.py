"""The double-dummy solver (analyser/solver.py, kernels/dd_*.py) against the slow reference.

tests/reference_dd.py is a plain memoised minimax; here it is first checked on hand-made
endings whose answers are argued in comments, then the public API is compared with it on
random endings of 3 to 6 cards in every mode (R15-R21): tricks with each trump and no
trump, grand misère, little misère, partnership, every leader, and through the batch forms.
Rule properties (seat rotation, suit permutation, partnership bounds) run on larger endings
with the solver alone; a few full deals have answers argued by hand.
Sizes: the default run compares about 2,000 endings; the `slow` variants (`make verify`,
BOSTON_FULL=1) compare about 10,000.
"""

import os
import random

import numba
import numpy as np
import pytest
import reference_dd as ref
from conftest import sized
from hypothesis import given
from hypothesis import strategies as st

import analyser
from analyser.cards import format_deal, parse_deal
from analyser.solver import solve_deals, solve_declarer
from kernels.jit import njit

TRUMPS = (-1, 0, 1, 2, 3)
SCALES = ["quick", pytest.param("full", marks=pytest.mark.slow)]


def arr(deal) -> np.ndarray:
    """A deal tuple of Python ints as the API's (4,) uint64 array."""
    return np.array([int(h) for h in deal], dtype=np.uint64)


def pbn(deal) -> str:
    return format_deal(arr(deal))


def counts(scale, quick, full):
    """Endings per card count: `quick` by default, `full` in the slow variant under verify."""
    if scale == "quick":
        return quick
    return {k: sized(quick[k], full[k]) for k in quick}


def endings(seed, per_k):
    """Random endings (k, deal) for each card count k, from 1 to 4 random suits."""
    rng = random.Random(seed)
    for k, n in per_k.items():
        for _ in range(n):
            n_suits = rng.choice([s for s in (1, 2, 3, 4) if 13 * s >= 4 * k])
            yield k, ref.random_ending(rng, k, n_suits)


def report(failures, total):
    """Assertion message: how many disagreed and the first few, in PBN."""
    lines = [f"{len(failures)} of {total} disagree with the reference"]
    lines += [f"  {f}" for f in failures[:8]]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# The reference itself on hand-made endings


def cards(text):
    """Mask of cards written like 'SA H2 C10'."""
    mask = 0
    for word in text.split():
        suit = "SHDC".index(word[0])
        rank = "23456789TJQKA".index(word[1:].replace("10", "T"))
        mask |= 1 << (13 * suit + rank)
    return mask


def test_r19_reference_must_follow_suit():
    hand = cards("S2 H5 HA C3")
    assert ref.legal_cards(hand, 1) == [13 + 3, 13 + 12]  # hearts only
    assert ref.legal_cards(hand, 2) == ref.cards_of(hand)  # void in diamonds: anything
    assert ref.legal_cards(hand, -1) == ref.cards_of(hand)  # leading: anything


def test_r20_e2_reference_trick_winner():
    # E2: hearts trump; A leads C2, B CK, C (no clubs) H3, D must follow with CA; C wins.
    trick = [39 + 0, 39 + 11, 13 + 1, 39 + 12]
    assert ref.trick_winner(trick, 0, 1) == 2
    assert ref.trick_winner(trick, 3, 1) == 1  # the same cards led by seat 3
    assert ref.trick_winner(trick, 0, -1) == 3  # no trump: the club ace
    assert ref.trick_winner(trick, 0, 3) == 3  # clubs trump: the highest trump, CA


def test_r20_e2_one_card_ending():
    deal = (cards("C2"), cards("CK"), cards("H3"), cards("CA"))
    assert ref.dd_tricks(deal, 2, 1, 0) == 1
    assert ref.dd_tricks(deal, 3, 1, 0) == 0
    assert ref.dd_tricks(deal, 3, -1, 0) == 1
    for impl in (ref.dd_tricks, lambda *a: analyser.dd_tricks(arr(a[0]), *a[1:])):
        assert impl(deal, 2, 1, 0) == 1
        assert impl(deal, 3, -1, 0) == 1
        assert impl(deal, 0, -1, 0) == 0


# N: S2 HA; E: SA SK; S: D2 D3; W: C2 C3.
# No trump: when E leads spades N follows with S2 (R19) and discards HA later: 0 tricks;
# when N leads it cashes HA and loses S2: 1; S or W lead their own suit twice: 0.
# Hearts trump: N on lead cashes HA and loses S2 (or loses S2 first and ruffs): 1; with S
# or W on lead N ruffs once: 1; with E on lead N must follow to the first spade (R19),
# then ruffs the second: 1.
FOLLOW_ENDING = (cards("S2 HA"), cards("SA SK"), cards("D2 D3"), cards("C2 C3"))
FOLLOW_ANSWERS = {(-1, 0): 1, (-1, 1): 0, (-1, 2): 0, (-1, 3): 0,
                  (1, 0): 1, (1, 1): 1, (1, 2): 1, (1, 3): 1}


def test_r19_r20_reference_two_card_ending():
    for (trump, leader), tricks in FOLLOW_ANSWERS.items():
        assert ref.dd_tricks(FOLLOW_ENDING, 0, trump, leader) == tricks, (trump, leader)
        assert ref.side_tricks(FOLLOW_ENDING, (0,), trump, leader) == tricks


def test_r19_r20_solver_two_card_ending():
    for (trump, leader), tricks in FOLLOW_ANSWERS.items():
        assert analyser.dd_tricks(arr(FOLLOW_ENDING), 0, trump, leader) == tricks, (trump, leader)


# N: SA H2 D2; E: SK HA DA; S: SQ HK DK; W: SJ HQ DQ.
# Defenders discard their highest card (R17), ties to the lower suit index: E HA (not DA),
# S HK, W HQ. N must discard SA: keeping it, N either leads it or is forced to follow
# spades with it; keeping H2 and D2 N never wins (no one else has hearts, but N never
# needs to lead H2: on lead it plays D2, which loses to DA). Grand misère fails: with all
# three cards N wins a trick whatever it does (leading SA or H2 wins, after D2 loses E
# leads SK and N must follow with SA).
DISCARD_ENDING = (cards("SA H2 D2"), cards("SK HA DA"), cards("SQ HK DK"), cards("SJ HQ DQ"))


def test_r17_reference_highest_discard_ties_by_suit_order():
    assert ref.highest_discard(cards("SK HA CA")) == 13 + 12  # HA before CA
    assert ref.highest_discard(cards("S2 D2 C2")) == 0  # S2 first
    assert ref.highest_discard(cards("HQ DQ CK")) == 39 + 11  # the highest rank wins
    assert [ref.highest_discard(h) for h in DISCARD_ENDING[1:]] == [25, 24, 23]


def test_r15_r17_little_misere_discard_example():
    for impl_lm, impl_gm in (
        (ref.dd_little_misere, ref.dd_misere),
        (lambda d, *a: analyser.dd_little_misere(arr(d), *a),
         lambda d, *a: analyser.dd_misere(arr(d), *a)),
    ):
        assert impl_lm(DISCARD_ENDING, 0, 0)
        assert impl_lm(DISCARD_ENDING, 0, 1)
        assert not impl_gm(DISCARD_ENDING, 0, 0)


def test_r15_little_misere_one_card_ending_has_no_trick():
    # After the discards nothing is left to play (k - 1 = 0 tricks).
    deal = (cards("SA"), cards("S2"), cards("S3"), cards("S4"))
    assert ref.dd_little_misere(deal, 0, 0)
    assert analyser.dd_little_misere(arr(deal), 0, 0)
    assert not ref.dd_misere(deal, 0, 0)
    assert not analyser.dd_misere(arr(deal), 0, 0)


def test_reference_search_equals_plain_minimax():
    # The yes/no search form the comparisons use agrees with the plain minimax.
    rng = random.Random(5)
    for i in range(150):
        k = 2 + i % 3
        deal = ref.random_ending(rng, k, rng.choice([2, 3, 4]))
        side = tuple(rng.sample(range(4), 1 + i % 2))
        trump, leader = TRUMPS[i % 5], i % 4
        assert ref.side_tricks_search(deal, side, trump, leader) == ref.side_tricks(
            deal, side, trump, leader)
        assert ref.dd_misere(deal, side[0], leader) == (
            ref.misere_tricks(deal, side[0], leader) == 0)


# --------------------------------------------------------------------------------------
# The solver against the reference on random endings


@pytest.mark.parametrize("scale", SCALES)
def test_r19_r20_dd_tricks_matches_reference(scale):
    per_k = counts(scale, {3: 300, 4: 200, 5: 60, 6: 12}, {3: 2000, 4: 1500, 5: 400, 6: 60})
    failures, total = [], 0
    for i, (_k, deal) in enumerate(endings(101, per_k)):
        trump, leader, declarer = TRUMPS[i % 5], (i // 5) % 4, (i // 20) % 4
        want = ref.dd_tricks(deal, declarer, trump, leader)
        got = analyser.dd_tricks(arr(deal), declarer, trump, leader)
        total += 1
        if got != want:
            failures.append(f"{pbn(deal)} dd_tricks declarer={declarer} trump={trump} "
                            f"leader={leader}: expected {want}, got {got}")
    assert not failures, report(failures, total)


@pytest.mark.parametrize("scale", SCALES)
def test_r15_r21_grand_misere_matches_reference(scale):
    per_k = counts(scale, {3: 250, 4: 200, 5: 80, 6: 20}, {3: 2000, 4: 1500, 5: 500, 6: 100})
    failures, total = [], 0
    for i, (_k, deal) in enumerate(endings(202, per_k)):
        declarer, leader = i % 4, (i // 4) % 4
        want = ref.dd_misere(deal, declarer, leader)
        got = analyser.dd_misere(arr(deal), declarer, leader)
        total += 1
        if got != want:
            failures.append(f"{pbn(deal)} dd_misere declarer={declarer} leader={leader}: "
                            f"expected {want}, got {got}")
    assert not failures, report(failures, total)


@pytest.mark.parametrize("scale", SCALES)
def test_r15_r17_little_misere_matches_reference(scale):
    per_k = counts(scale, {3: 200, 4: 150, 5: 60, 6: 15}, {3: 1500, 4: 1200, 5: 400, 6: 80})
    failures, total = [], 0
    for i, (_k, deal) in enumerate(endings(303, per_k)):
        declarer, leader = i % 4, (i // 4) % 4
        want = ref.dd_little_misere(deal, declarer, leader)
        got = analyser.dd_little_misere(arr(deal), declarer, leader, defender_discard="highest")
        total += 1
        if got != want:
            failures.append(f"{pbn(deal)} dd_little_misere declarer={declarer} "
                            f"leader={leader}: expected {want}, got {got}")
    assert not failures, report(failures, total)


@pytest.mark.parametrize("scale", SCALES)
def test_partnership_matches_reference(scale):
    per_k = counts(scale, {3: 250, 4: 150, 5: 50, 6: 10}, {3: 1500, 4: 1200, 5: 400, 6: 60})
    failures, total = [], 0
    rng = random.Random(404)
    for i, (_k, deal) in enumerate(endings(404, per_k)):
        side = tuple(sorted(rng.sample(range(4), 2 if i % 3 else rng.choice([1, 3]))))
        trump, leader = TRUMPS[i % 5], (i // 5) % 4
        want = ref.dd_tricks_partnership(deal, side, trump, leader)
        got = analyser.dd_tricks_partnership(arr(deal), side, trump, leader)
        total += 1
        if got != want:
            failures.append(f"{pbn(deal)} dd_tricks_partnership side={side} trump={trump} "
                            f"leader={leader}: expected {want}, got {got}")
    assert not failures, report(failures, total)


@pytest.mark.parametrize("scale", SCALES)
def test_dd_table_and_misere_table_match_reference(scale):
    # Every declarer seat and suit of small endings through the batch forms.
    n = {"quick": 30, "full": sized(30, 200)}[scale]
    deals = [d for _, d in endings(505, {3: n // 2, 4: n - n // 2})]
    for leader in range(4):
        table = analyser.dd_table(np.array([arr(d) for d in deals]), leader)
        mis = analyser.dd_misere_table(np.array([arr(d) for d in deals]), leader)
        assert table.shape == (len(deals), 4, 4) and table.dtype == np.int8
        assert mis.shape == (len(deals), 4, 2) and mis.dtype == np.bool_
        for j, deal in enumerate(deals):
            want = [[ref.dd_tricks(deal, s, t, leader) for t in range(4)] for s in range(4)]
            assert table[j].tolist() == want, (pbn(deal), leader)
            want_mis = [[ref.dd_misere(deal, s, leader), ref.dd_little_misere(deal, s, leader)]
                        for s in range(4)]
            assert mis[j].tolist() == want_mis, (pbn(deal), leader)


# --------------------------------------------------------------------------------------
# Batch forms equal the single forms (solver alone, larger endings and full deals)


def batch_deals(seed, n, ks=(3, 4, 5, 6, 7, 8)):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = ks[i % len(ks)]
        out.append(ref.random_ending(rng, k, rng.choice([s for s in (2, 3, 4) if 13 * s >= 4 * k])))
    return out


def test_batch_forms_equal_single_forms():
    deals = batch_deals(606, sized(20, 100))
    batch = np.array([arr(d) for d in deals])
    for leader in range(4):
        table = analyser.dd_table(batch, leader)
        mis = analyser.dd_misere_table(batch, leader)
        # the whole Boston analysis in one batch (R10 numeric, R15/R17 misères): the same
        both = solve_deals(batch, leader, defender_discard="highest")
        assert both[0].dtype == np.int8 and both[1].dtype == bool
        assert np.array_equal(both[0], table) and np.array_equal(both[1], mis)
        for declarer in range(4):
            tricks, grand, little = solve_declarer(batch, declarer, leader,
                                                   defender_discard="highest")
            assert tricks.shape == (len(deals), 4) and tricks.dtype == np.int8
            assert grand.shape == little.shape == (len(deals),)
            assert np.array_equal(tricks, table[:, declarer, :])
            assert np.array_equal(grand, mis[:, declarer, 0])
            assert np.array_equal(little, mis[:, declarer, 1])
            for j, deal in enumerate(deals):
                d = arr(deal)
                single = [analyser.dd_tricks(d, declarer, t, leader) for t in range(4)]
                assert tricks[j].tolist() == single, (pbn(deal), declarer, leader)
                assert bool(grand[j]) == analyser.dd_misere(d, declarer, leader), pbn(deal)
                assert bool(little[j]) == analyser.dd_little_misere(d, declarer, leader), pbn(deal)


def test_batch_forms_do_not_depend_on_thread_count():
    deals = np.array([arr(d) for d in batch_deals(607, 12)])
    saved_threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = analyser.dd_table(deals, 1), analyser.dd_misere_table(deals, 1)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = analyser.dd_table(deals, 1), analyser.dd_misere_table(deals, 1)
        both = solve_deals(deals, 1)
    finally:
        numba.set_num_threads(saved_threads)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    assert np.array_equal(one[0], both[0]) and np.array_equal(one[1], both[1])


def test_batch_hand_out_gives_every_deal_once_ending_one_at_a_time():
    """The batch workers' guided hand-out: each deal in exactly one span, spans in order,
    shrinking with the work left, the last ones single deals (so one hard deal at the end
    leaves the other workers at most one deal of idle time)."""
    from analyser.solver import _Chunks

    for n, workers in [(1, 2), (2, 2), (7, 2), (40, 2), (40, 3), (1000, 8)]:
        chunks = _Chunks(n, workers)
        spans = []
        while (span := chunks.next()) is not None:
            spans.append(span)
        assert chunks.next() is None
        assert [a for a, _ in spans] == [0] + [b for _, b in spans[:-1]]
        assert spans[-1][1] == n
        sizes = [b - a for a, b in spans]
        assert min(sizes) >= 1 and sizes == sorted(sizes, reverse=True)
        assert sizes[-workers:] == [1] * min(workers, len(sizes))
        assert sizes[0] <= max(1, n // (2 * workers))


def test_batch_hand_out_caps_its_spans():
    """With a cap, no span is longer than it (the batch hands out one (deal, job) pair at
    a time: one hard job then blocks nothing behind it)."""
    from analyser.solver import _Chunks

    for n, workers, most in [(640, 2, 1), (640, 2, 16), (7, 3, 2)]:
        chunks = _Chunks(n, workers, most)
        spans = []
        while (span := chunks.next()) is not None:
            spans.append(span)
        assert [a for a, _ in spans] == [0] + [b for _, b in spans[:-1]]
        assert spans[-1][1] == n
        assert max(b - a for a, b in spans) == min(most, max(1, n // (2 * workers)))


def test_batch_of_zero_deals():
    empty = np.zeros((0, 4), np.uint64)
    assert analyser.dd_table(empty, 0).shape == (0, 4, 4)
    assert analyser.dd_misere_table(empty, 0).shape == (0, 4, 2)


def test_search_kernel_callable_from_njit():
    from kernels.dd.ruff_game import new_ruff_memo
    from kernels.dd.search import new_buffers, solve_value
    from kernels.dd.tt import new_table

    @njit
    def inside(hands, leader, trump, seat, exact, classes, moves, scores, rmemo):
        return solve_value(hands, leader, trump, 1 << seat, 1 << seat, 4, exact, classes, 1,
                           moves, scores, rmemo)

    rng = random.Random(808)
    for i in range(20):
        deal = ref.random_ending(rng, 4, 3)
        exact, classes = new_table(1)
        moves, scores = new_buffers()
        got = inside(arr(deal), i % 4, TRUMPS[i % 5], (i // 4) % 4, exact, classes, moves, scores,
                     new_ruff_memo(1 << 10))
        assert got == ref.dd_tricks(deal, (i // 4) % 4, TRUMPS[i % 5], i % 4)


# --------------------------------------------------------------------------------------
# Rule properties (solver alone)

seeds = st.integers(0, 2**32 - 1)


def solver_ending(seed, k):
    rng = random.Random(seed)
    return ref.random_ending(rng, k, rng.choice([s for s in (2, 3, 4) if 13 * s >= 4 * k]))


@given(seed=seeds, k=st.integers(1, 8), declarer=st.integers(0, 3), partner=st.integers(0, 3),
       trump=st.sampled_from(TRUMPS), leader=st.integers(0, 3))
def test_partnership_takes_at_least_the_declarer_alone(seed, k, declarer, partner, trump, leader):
    deal = arr(solver_ending(seed, k))
    alone = analyser.dd_tricks(deal, declarer, trump, leader)
    assert analyser.dd_tricks_partnership(deal, (declarer,), trump, leader) == alone
    if partner != declarer:
        assert alone <= analyser.dd_tricks_partnership(deal, (declarer, partner), trump, leader)


@given(seed=seeds, k=st.integers(1, 8), declarer=st.integers(0, 3), partner=st.integers(0, 3),
       trump=st.sampled_from(TRUMPS), leader=st.integers(0, 3))
def test_partnership_and_opponents_share_the_tricks(seed, k, declarer, partner, trump, leader):
    # Two sides in a zero-sum game: one side's most is k minus the other side's most.
    deal = arr(solver_ending(seed, k))
    side = {declarer, partner}
    others = tuple(sorted(set(range(4)) - side))
    mine = analyser.dd_tricks_partnership(deal, tuple(sorted(side)), trump, leader)
    assert mine + analyser.dd_tricks_partnership(deal, others, trump, leader) == k


@given(seed=seeds, k=st.integers(1, 8), r=st.integers(1, 3), declarer=st.integers(0, 3),
       partner=st.integers(0, 3), trump=st.sampled_from(TRUMPS), leader=st.integers(0, 3))
def test_r1_rotating_seats_changes_nothing(seed, k, r, declarer, partner, trump, leader):
    deal = solver_ending(seed, k)
    a, b = arr(deal), arr(ref.rotate(deal, r))
    d2, l2, p2 = (declarer + r) % 4, (leader + r) % 4, (partner + r) % 4
    assert analyser.dd_tricks(a, declarer, trump, leader) == analyser.dd_tricks(b, d2, trump, l2)
    assert analyser.dd_misere(a, declarer, leader) == analyser.dd_misere(b, d2, l2)
    assert analyser.dd_little_misere(a, declarer, leader) == analyser.dd_little_misere(b, d2, l2)
    assert analyser.dd_tricks_partnership(a, tuple({declarer, partner}), trump, leader) == \
        analyser.dd_tricks_partnership(b, tuple({d2, p2}), trump, l2)


@given(seed=seeds, k=st.integers(1, 8), perm=st.permutations(range(4)),
       declarer=st.integers(0, 3), partner=st.integers(0, 3), trump=st.sampled_from(TRUMPS),
       leader=st.integers(0, 3))
def test_r20_permuting_suits_changes_nothing(seed, k, perm, declarer, partner, trump, leader):
    # Suits have no order in play (R20); only little misère's discard tie-break (R17) uses it.
    deal = solver_ending(seed, k)
    a, b = arr(deal), arr(ref.permute_suits(deal, perm))
    t2 = perm[trump] if trump >= 0 else -1
    assert analyser.dd_tricks(a, declarer, trump, leader) == analyser.dd_tricks(b, declarer, t2,
                                                                                leader)
    assert analyser.dd_misere(a, declarer, leader) == analyser.dd_misere(b, declarer, leader)
    assert analyser.dd_tricks_partnership(a, (declarer, partner), trump, leader) == \
        analyser.dd_tricks_partnership(b, (declarer, partner), t2, leader)


# --------------------------------------------------------------------------------------
# Full deals with answers argued by hand

ALL_SPADES = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_r10_thirteen_trumps_take_thirteen():
    deal = parse_deal(ALL_SPADES)
    for leader in range(4):
        for seat in range(4):
            assert analyser.dd_tricks(deal, seat, seat, leader) == 13  # its own suit trump
    # No trump: only its own lead of the suit nobody else holds wins; once the lead is lost
    # the others never lead that suit again.
    for seat in range(4):
        for leader in range(4):
            want = 13 if leader == seat else 0
            assert analyser.dd_tricks(deal, seat, -1, leader) == want


def test_r15_thirteen_cards_of_one_suit_misere():
    # Holding a whole suit, the declarer never has to follow and never wins a trick it does
    # not lead: grand misère is made unless it leads first. In little misère the same holds
    # for its 12 remaining cards.
    deal = parse_deal(ALL_SPADES)
    for leader in range(4):
        assert analyser.dd_misere(deal, 0, leader) == (leader != 0)
        assert analyser.dd_little_misere(deal, 0, leader) == (leader != 0)


def _with_declarer_hand(hand_text, seed):
    """Full deal: N holds `hand_text`, the other 39 cards dealt at random to E, S, W."""
    north = analyser.parse_hand(hand_text)
    rest = [c for c in range(52) if not north >> c & 1]
    random.Random(seed).shuffle(rest)
    hands = [north] + [sum(1 << c for c in rest[13 * i:13 * i + 13]) for i in range(3)]
    return np.array(hands, dtype=np.uint64)


def test_r15_lowest_cards_make_grand_and_little_misere():
    # N: the 2-3-4 of every suit and the 5 of spades. Each defender card is higher than
    # every N card of its suit, so N never wins a trick led by a defender; on lead it plays
    # a 2, and some defender still holds that suit (10 clubs, at most 3 discarded) and
    # must beat it. N never leads again. No trump, N takes nothing whoever leads.
    for seed in range(3):
        deal = _with_declarer_hand("5432.432.432.432", seed)
        for leader in range(4):
            assert analyser.dd_misere(deal, 0, leader)
            assert analyser.dd_little_misere(deal, 0, leader)
            assert analyser.dd_tricks(deal, 0, -1, leader) == 0


def test_r20_top_cards_take_every_trick_at_no_trump():
    # N: AKQ of every suit and the SJ. N holds every suit, so it follows to the first trick
    # with the top card and wins, then cashes top cards (SJ is top once AKQ are gone).
    # In misère N must win the first trick the same way.
    for seed in range(3):
        deal = _with_declarer_hand("AKQJ.AKQ.AKQ.AKQ", seed)
        for leader in range(4):
            assert analyser.dd_tricks(deal, 0, -1, leader) == 13
            assert not analyser.dd_misere(deal, 0, leader)
            assert not analyser.dd_little_misere(deal, 0, leader)


# --------------------------------------------------------------------------------------
# Input validation (API.md: bad input raises ValueError naming the problem)

GOOD = parse_deal("N:AK... Q2... 3.4.. ...65")


@pytest.mark.parametrize("call", [
    lambda: analyser.dd_tricks(GOOD, 4, 0, 0),
    lambda: analyser.dd_tricks(GOOD, -1, 0, 0),
    lambda: analyser.dd_tricks(GOOD, "X", 0, 0),
    lambda: analyser.dd_tricks(GOOD, 0, 4, 0),
    lambda: analyser.dd_tricks(GOOD, 0, -2, 0),
    lambda: analyser.dd_tricks(GOOD, 0, 0, 7),
    lambda: analyser.dd_tricks(GOOD[:3], 0, 0, 0),
    lambda: analyser.dd_tricks(np.array([3, 3, 12, 48], np.uint64), 0, 0, 0),  # overlap
    lambda: analyser.dd_tricks(np.array([3, 4, 8 | 16, 32 | 64], np.uint64), 0, 0, 0),
    lambda: analyser.dd_tricks(np.array([1 << 60, 2, 4, 8], np.uint64), 0, 0, 0),
    lambda: analyser.dd_misere(GOOD, 9, 0),
    lambda: analyser.dd_misere(GOOD, 0, 9),
    lambda: analyser.dd_little_misere(GOOD, 0, 0, defender_discard="bogus"),
    lambda: analyser.dd_tricks_partnership(GOOD, (0, 5), 0, 0),
    lambda: analyser.dd_tricks_partnership(GOOD, (), 0, 0),
    lambda: analyser.dd_table(GOOD, 0),  # a single deal is not a batch
    lambda: analyser.dd_table(np.zeros((2, 3), np.uint64), 0),
    lambda: analyser.dd_table(GOOD[None, :], 4),
    lambda: analyser.dd_misere_table(np.array([[3, 3, 12, 48]], np.uint64), 0),
    lambda: solve_declarer(GOOD[None, :], 5, 0),
    lambda: solve_declarer(GOOD[None, :], 0, 0, defender_discard="lowest-ish"),
    lambda: solve_deals(GOOD[None, :], 4),
    lambda: solve_deals(GOOD, 0),
    lambda: solve_deals(GOOD[None, :], 0, defender_discard="lowest-ish"),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_seat_and_suit_letters_are_accepted():
    # API.md "Formats": functions that take a seat also accept its letter.
    assert analyser.dd_tricks(GOOD, "N", 0, "E") == analyser.dd_tricks(GOOD, 0, 0, 1)
    assert analyser.dd_misere(GOOD, "W", "N") == analyser.dd_misere(GOOD, 3, 0)


def test_joblib_workers_keep_their_tables_as_they_grow():
    """A joblib (loky) worker is restarted, losing its tables and warning of a leak, once its
    memory grows 300 MB past its first task's; the solver's tables grow by design up to
    their budget, so creating one raises the worker's allowance by that budget."""
    from joblib import Parallel, delayed

    from analyser import solver

    def in_worker():
        import os
        import sys

        import analyser as a
        deal = a.parse_deal("N:A5432.2.5432.432 KJT9.A76.KJT.KQJ 86.KT953.A8.T765 "
                            "Q7.QJ84.Q976.A98")
        made = a.dd_little_misere(deal, "N", "N")  # R17: made double-dummy
        executor = sys.modules["joblib.externals.loky.process_executor"]
        return os.getpid(), made, executor._MAX_MEMORY_LEAK_SIZE

    results = Parallel(n_jobs=2)(delayed(in_worker)() for _ in range(2))
    budget = (solver.PROCESS_MIB + solver.TABLE_MIB) << 20
    for pid, made, allowance in results:
        assert pid != os.getpid() and made
        assert allowance >= int(3e8) + budget
