"""The searches for real play (API.md "Searches for real play"): dd_scores, dd_reach,
dd_scores_batch and the kernel entry kernels.dd.scores.score_cards_batch, on positions
that may start inside a trick (R18-R21), against the plain minimax of tests/reference_dd.py
and against the full solves."""

import random

import numpy as np
import pytest

from analyser import solver
from analyser.solver import NO_CARD, dd_reach, dd_scores, dd_scores_batch
from kernels.dd.ruff_game import new_ruff_memo
from kernels.dd.scores import GOAL_MISERE, new_score_work, score_cards_batch
from kernels.dd.tt import new_table
from kernels.jit import njit
from tests import reference_dd as ref
from tests.conftest import sized

GOALS = [-1, 0, 1, 2, 3, "misere"]


def _to_move(leader, trick):
    return (leader + len(trick)) % 4


def _position_value(scores, declarer, goal, seat):
    """The position's value from its cards' values: the player to move picks its best
    (the declarer the most tricks or keeping the misère, a defender the opposite)."""
    if goal == "misere":
        return any(scores.values()) if seat == declarer else all(scores.values())
    return max(scores.values()) if seat == declarer else min(scores.values())


def _declarer(rng, seat, on_move):
    return seat if on_move else (seat + rng.randint(1, 3)) % 4


@pytest.mark.parametrize("played", [0, 1, 2, 3])
@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("on_move", [True, False])
def test_scores_equal_minimax_on_endings(goal, played, on_move):
    """R18-R21 (R15 for misère): every legal card's value equals plain minimax, from a
    trick boundary and from inside a trick (1, 2, 3 cards on the table), with the
    declarer on move and a defender on move, in every trump, no trump and misère."""
    rng = random.Random(f"scores-{goal}-{played}-{on_move}")
    for _ in range(sized(32, 200)):
        k = rng.choice([2, 3, 3, 4, 4, 5])
        hands, leader, trick = ref.random_position(rng, k, played, rng.randint(2, 4))
        declarer = _declarer(rng, _to_move(leader, trick), on_move)
        got = dd_scores(hands, declarer, goal, leader, trick)
        want = ref.card_scores(hands, declarer, goal, leader, trick)
        assert got == want, (hands, declarer, goal, leader, trick)
        assert all(type(v) is (bool if goal == "misere" else int) for v in got.values())


@pytest.mark.parametrize("goal", GOALS)
def test_reach_agrees_with_scores_for_every_target(goal):
    """dd_reach answers yes exactly up to the position's value (its best card's), for
    every target from 0 to one past the tricks left; in misère, target ignored."""
    rng = random.Random(f"reach-{goal}")
    for i in range(sized(40, 200)):
        hands, leader, trick = ref.random_position(rng, rng.randint(2, 4), rng.randint(0, 3))
        seat = _to_move(leader, trick)
        declarer = _declarer(rng, seat, i % 2 == 0)
        value = _position_value(dd_scores(hands, declarer, goal, leader, trick), declarer, goal,
                                seat)
        if goal == "misere":
            for target in (None, 0, 5):
                assert dd_reach(hands, declarer, goal, leader, trick, target=target) == value
            continue
        for target in range(hands[seat].bit_count() + 2):
            assert dd_reach(hands, declarer, goal, leader, trick, target=target) == (
                target <= value), (hands, declarer, goal, leader, trick, target)


def _random_deal(rng):
    cards = list(range(52))
    rng.shuffle(cards)
    return tuple(sum(1 << c for c in cards[13 * i:13 * (i + 1)]) for i in range(4))


def test_scores_at_first_lead_give_the_full_solves():
    """At a trick boundary of a full deal, the leader's best card's value is the
    position's: dd_tricks (R10, R20) with each trump and no trump, dd_misere (R15, R21),
    the declarer on lead or a defender on lead."""
    rng = random.Random("full-deals")
    for i in range(sized(3, 20)):
        deal = _random_deal(rng)
        leader = rng.randrange(4)
        declarer = _declarer(rng, leader, i % 2 == 0)
        for goal in GOALS:
            value = _position_value(dd_scores(deal, declarer, goal, leader), declarer, goal,
                                    leader)
            if goal == "misere":
                assert value == solver.dd_misere(deal, declarer, leader), (deal, declarer)
            else:
                assert value == solver.dd_tricks(deal, declarer, goal, leader), (deal, goal)


def test_little_misere_is_misere_after_the_discards():
    """R15, R17: a little misère is made when some discard of the declarer leaves an
    ordinary misère position (the discarded cards gone) that dd_reach says is made."""
    rng = random.Random("little")
    for _ in range(sized(60, 400)):
        deal = ref.random_ending(rng, rng.randint(3, 5), rng.randint(2, 4))
        declarer, leader = rng.randrange(4), rng.randrange(4)
        hands = list(deal)
        for q in range(4):
            if q != declarer:
                hands[q] &= ~(1 << ref.highest_discard(hands[q]))
        made = False
        for c in ref.cards_of(hands[declarer]):
            rest = list(hands)
            rest[declarer] &= ~(1 << c)
            made = made or dd_reach(rest, declarer, "misere", leader)
        assert made == solver.dd_little_misere(deal, declarer, leader), (deal, declarer, leader)


def _worlds(rng, n, k, played):
    """n positions sharing one trick on the table (one per sampled world): the cards not
    on the table dealt at random, k cards a hand before the trick, no seat that did not
    follow suit holding the suit led (R19)."""
    hands, leader, trick = ref.random_position(rng, k, played, 4)
    counts = [h.bit_count() for h in hands]
    free = [c for h in hands for c in ref.cards_of(h)]
    void = [(leader + i) % 4 for i in range(1, played) if trick[i] // 13 != trick[0] // 13]
    rows = []
    while len(rows) < n:
        rng.shuffle(free)
        row, at = [], 0
        for q in range(4):
            row.append(sum(1 << c for c in free[at:at + counts[q]]))
            at += counts[q]
        if all(not row[q] >> (13 * (trick[0] // 13)) & 0x1FFF for q in void):
            rows.append(row)
    return np.array(rows, np.uint64), leader, trick


@pytest.mark.parametrize("goal", [-1, 2, "misere"])
def test_batch_equals_single(goal):
    """dd_scores_batch row by row equals dd_scores, NO_CARD on every card the player to
    move may not play (R19); one table serves the whole batch."""
    rng = random.Random(f"batch-{goal}")
    for played in range(4):
        hands, leader, trick = _worlds(rng, sized(12, 60), rng.randint(3, 5), played)
        declarer = rng.randrange(4)
        out = dd_scores_batch(hands, declarer, goal, leader, trick)
        assert out.shape == (hands.shape[0], 52) and out.dtype == np.int8
        for i in range(hands.shape[0]):
            single = dd_scores([int(h) for h in hands[i]], declarer, goal, leader, trick)
            row = {c: (bool(v) if goal == "misere" else int(v)) for c, v in enumerate(out[i])
                   if v != NO_CARD}
            assert row == single


@njit
def _best_cards(hands, leader, trick, nplayed, declarer, goal, exact, classes, moves, scores,
                rmemo):
    """A toy policy compiled by numba: per world, the card with the best value for the
    declarer (the lowest id on ties), through the kernel entry."""
    n = hands.shape[0]
    out = np.empty((n, 52), np.int64)
    values = np.empty(n, np.int64)
    score_cards_batch(hands, leader, trick, nplayed, declarer, goal, exact, classes, 1, moves,
                      scores, rmemo, out, values)
    best = np.empty(n, np.int64)
    for i in range(n):
        b = -1
        for c in range(52):
            if out[i, c] != NO_CARD and (b < 0 or out[i, c] > out[i, b]):
                b = c
        best[i] = b
    return best, values


def test_kernel_entry_from_inside_numba():
    """score_cards_batch called from another @njit function takes plain arrays and
    preallocated tables and agrees with the Python layer (and returns each position's
    value, its best card's)."""
    rng = random.Random("kernel")
    hands, leader, trick = _worlds(rng, 10, 4, 2)
    seat = _to_move(leader, trick)
    exact, classes = new_table(4)
    moves, scores = new_score_work()
    rmemo = new_ruff_memo(1 << 10)
    tr = np.array(list(trick) + [0] * (4 - len(trick)), np.int64)
    best, values = _best_cards(hands, leader, tr, len(trick), seat, 1, exact, classes, moves,
                               scores, rmemo)
    want = dd_scores_batch(hands, seat, 1, leader, trick)
    for i in range(hands.shape[0]):
        legal = want[i] != NO_CARD
        assert values[i] == want[i][legal].max()
        assert best[i] == int(np.flatnonzero(want[i] == values[i])[0])


DEAL = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)  # each seat one whole suit


@pytest.mark.parametrize("kwargs, field", [
    ({"hands": (1, 2, 4)}, "hands"),
    ({"hands": (3, 2, 4, 8)}, "hands"),  # overlap
    ({"hands": (1 << 60, 2, 4, 8)}, "hands"),
    ({"hands": (1 | 16, 2, 4, 8)}, "hands"),  # unequal counts at a trick boundary
    ({"declarer": 4}, "declarer"),
    ({"leader": -1}, "leader"),
    ({"goal": 4}, "goal"),
    ({"goal": "grand"}, "goal"),
    ({"trick": (13, 26, 39, 0)}, "trick"),  # four cards: the trick is over
    ({"trick": (52,)}, "trick"),
    ({"trick": (0,)}, "trick"),  # a card on the table and in a hand
    ({"trick": "AS"}, "trick"),
])
def test_bad_positions_name_the_field(kwargs, field):
    """ValueError (API.md) whose message names the field at fault, before any search."""
    args = {"hands": DEAL, "declarer": 0, "goal": -1, "leader": 0, "trick": ()} | kwargs
    with pytest.raises(ValueError, match=field):
        dd_scores(args["hands"], args["declarer"], args["goal"], args["leader"], args["trick"])


def test_bad_trick_prefixes():
    """The seats that played to the trick hold one card fewer (R18); a card off the suit
    led from a player still holding that suit is a revoke (R19)."""
    hands = [0b11, 0b11 << 13, 0b11 << 26, 0b11 << 39]
    with pytest.raises(ValueError, match="hands"):
        dd_scores(hands, 0, -1, 0, (13 * 3 + 5,))  # seat 0 played but still holds 2 cards
    hands = [0b1, 0b100, 0b11 << 26, 0b11 << 39]
    with pytest.raises(ValueError, match="R19"):
        dd_scores(hands, 0, -1, 0, (1, 14))  # seat 1 discards a heart holding a spade
    with pytest.raises(ValueError, match="target"):
        dd_reach(DEAL, 0, -1, 0)  # a numeric goal needs a target
    with pytest.raises(ValueError, match="hands"):
        dd_scores_batch([DEAL[:3]], 0, -1, 0)


def test_goal_names_and_empty_hands():
    """A goal may be a suit letter or "NT"; a position with no card left scores none."""
    assert dd_scores(DEAL, 0, "S", 0) == dd_scores(DEAL, 0, 0, 0)
    assert dd_scores(DEAL, 0, "NT", 0) == {c: 13 for c in range(13)}  # every spade
    assert dd_scores((0, 0, 0, 0), 0, -1, 0) == {}
    assert dd_scores_batch(np.zeros((0, 4), np.uint64), 0, "misere", 0).shape == (0, 52)
    assert GOAL_MISERE not in range(-1, 4)


@pytest.mark.parametrize("goal", [-1, 1, "misere"])
def test_node_limit_gives_up_honestly(goal):
    """A search bounded by a node limit (real play) gives each card its exact value or
    UNKNOWN (-2), never a wrong value; it leaves the hands as they were; a generous limit
    gives the exact scores, a limit of one node gives up on some cards of 9-card hands."""
    rng = random.Random(f"limit-{goal}")
    gave_up = 0
    for _ in range(sized(3, 8)):
        hands, leader, trick = _worlds(rng, 3, 9, rng.randint(0, 3))
        declarer = rng.randrange(4)
        before = hands.copy()
        exact = dd_scores_batch(hands, declarer, goal, leader, trick)
        tiny = dd_scores_batch(hands, declarer, goal, leader, trick, node_limit=1)
        roomy = dd_scores_batch(hands, declarer, goal, leader, trick, node_limit=10**9)
        assert (hands == before).all()
        assert (roomy == exact).all()
        assert ((tiny == exact) | ((tiny == -2) & (exact != NO_CARD))).all()
        gave_up += int((tiny == -2).sum())
    assert gave_up > 0  # some searches need more than one node (others settle at once)


def test_private_tables_hold_only_the_node_limited_searches():
    """Inside `private_tables` (one real-play hand) the node-limited searches, whose
    answers depend on what the table holds, use the block's own table; exact searches
    (the double-dummy player's dd_scores, dd_reach, dd_misere) keep the thread's shared
    table, large enough for a made misère's proof (R15, R21), and agree with the same
    searches outside the block."""
    rng = random.Random("private")
    hands, leader, trick = _worlds(rng, 2, 9, 1)
    declarer = (leader + 2) % 4
    deal = [int(h) for h in hands[0]]
    outside = dd_scores(deal, declarer, "misere", leader, trick)
    with solver.private_tables():
        private = solver._local.private
        assert dd_scores(deal, declarer, "misere", leader, trick) == outside
        dd_reach(deal, declarer, 1, leader, trick, target=1)
        assert not private.exact.any() and not private.classes.any()
        dd_scores_batch(hands, declarer, "misere", leader, trick, node_limit=10**6)
        assert private.exact.any() or private.classes.any()


def test_node_limit_is_checked():
    hands = np.array([_random_deal(random.Random(5))], np.uint64)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(solver.SolverInputError, match="node_limit"):
            dd_scores_batch(hands, 0, -1, 0, node_limit=bad)


@pytest.mark.parametrize("goal", [-1, 0, 3])
def test_cap_scores_min_of_value_and_cap(goal):
    """A capped batch scores min(value, cap) for every legal card (real play's numbers
    need no value above the tricks still needed, R21); a misère ignores the cap."""
    rng = random.Random(f"cap-{goal}")
    for played in range(4):
        hands, leader, trick = _worlds(rng, sized(6, 30), rng.randint(3, 6), played)
        declarer = rng.randrange(4)
        exact = dd_scores_batch(hands, declarer, goal, leader, trick)
        for cap in range(0, 5):
            capped = dd_scores_batch(hands, declarer, goal, leader, trick, cap=cap)
            want = np.where(exact == NO_CARD, NO_CARD, np.minimum(exact, cap))
            assert (capped == want).all(), (cap, played)
    hands, leader, trick = _worlds(rng, 4, 4, 1)
    assert (dd_scores_batch(hands, 0, "misere", leader, trick, cap=1)
            == dd_scores_batch(hands, 0, "misere", leader, trick)).all()
