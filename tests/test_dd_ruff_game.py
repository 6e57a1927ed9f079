"""kernels.dd.ruff_game: the lone declarer's ruff game (R10, R18-R21).

The kernel, which holds the players to dominant choices and memoises, agrees with an
exhaustive minimax of the same game in plain Python (every card of every hand tried); a
win in the game is a trick count the declarer makes in play (brute force on random
endings); it proves what the quick bounds and the trump game cannot; it plays each
trick round the table from the hand on lead, which leads a suit it holds (R18-R20); a
trick a defender's trump takes goes to whichever defender the defenders choose among
those whose trumps share the highest one's gap between the declarer's trumps; a game
out of budget never claims a trick; the memo keys a state on what the game's value
depends on (the defenders' trumps only as they interleave with D's, the side suits in
any order), so rearranged states share an entry.
"""

import random
from functools import cache

import numpy as np
import pytest

from analyser import parse_deal
from kernels.dd.ruff_game import (
    _beyond,
    _canonical,
    _canonical_sides,
    _d_cards,
    _start,
    _sure,
    _wins,
    new_ruff_memo,
    new_ruff_work,
    ruff_cut,
    ruff_game_wins,
    ruff_lower_bound,
)
from kernels.dd.ruff_game import _normalise as _kernel_normalise
from kernels.dd.ruff_game import _role as _kernel_role
from kernels.dd.state import SUIT_MASK
from kernels.dd.sure_tricks import quick_bounds
from kernels.dd.trump_game import TRUMP_MEMO, new_trump_work, trump_tricks
from tests.conftest import sized
from tests.reference_dd import random_ending
from tests.test_dd_search import brute_value

_TRUMP = 3  # the trump led (side suits are 0..2)
SCALES = ["quick", pytest.param("full", marks=pytest.mark.slow)]  # full: under make verify
# N: SA D95, E: H9 C76, S: S75 C8, W: SJ HJ C4
EXAMPLE = "N:A..95. .9..76 75...8 J.J..4"
# N: HQ D6, E: C83, S: DK C2, W: HJ6
SEAT_EXAMPLE = "N:.Q.6. ...83 ..K.2 .J6.."
# N: S8 HT6 D9, E: S72 D74, S: ST HA2 DQ, W: SQ9 HQ9
CHOICE_EXAMPLE = "N:8.T6.9. 72..74. T.A2.Q. Q9.Q9.."
# N: H5 D8 C9, E: H7 C73, S: DA2 C2, W: DJ CT6
GAP_EXAMPLE = "N:.5.8.9 .7..73 ..A2.2 ..J.T6"
# N: SQ84 C5, E: DT84 CJ, S: S5 DJ96, W: SJT DK5
RUFF_HIGH_EXAMPLE = "N:Q84...5 ..T84.J 5..J96. JT..K5."


def ruff_tricks(hands, leader, trump, d, k, budget, memo, work):
    """Whether the lone declarer `d` surely makes `k` of the tricks left by the kernel's
    ruff game within `budget` nodes (an out-of-budget game counts as lost). numba hands
    the start state's uint64 words back as Python ints: they go in again as uint64."""
    t0, t1, t2, t3, ln = (np.uint64(x) for x in _start(hands, trump, d))
    return _wins(t0, t1, t2, t3, ln, _kernel_role(d, leader), k, budget, memo, work)


def _bits(mask):
    return [1 << i for i in range(13) if mask >> i & 1]


def _abstract(hands, trump, d):
    """The game's start state of a position: trumps by role (D, A = right-hand opponent,
    L = left-hand, P = partner) as 13-bit rank masks, the defenders' side-suit lengths,
    D's top and other cards of each side suit (R20: top = above every other card)."""
    seats = (d, (d + 3) % 4, (d + 1) % 4, (d + 2) % 4)
    sides = [s for s in range(4) if s != trump]
    trumps = tuple((hands[q] >> (13 * trump)) & 0x1FFF for q in seats)
    lens = tuple(tuple(bin((hands[q] >> (13 * s)) & 0x1FFF).count("1") for s in sides)
                 for q in seats[1:])
    top, low = [], []
    for s in sides:
        mine = (hands[d] >> (13 * s)) & 0x1FFF
        others = 0
        for q in seats[1:]:
            others |= (hands[q] >> (13 * s)) & 0x1FFF
        n = bin(mine >> others.bit_length()).count("1")
        top.append(n)
        low.append(bin(mine).count("1") - n)
    return trumps, lens, tuple(top), tuple(low)


def _normalise(lens, top, low):
    top, low = list(top), list(low)
    for j in range(3):
        if sum(lens[r][j] for r in range(3)) == 0:
            top[j] += low[j]
            low[j] = 0
    return tuple(top), tuple(low)


def _minus(lens, r, j):
    rows = [list(x) for x in lens]
    rows[r][j] -= 1
    return tuple(tuple(x) for x in rows)


def _defender_plays(trumps, lens, r, led):
    """Every play of defender r (0 A, 1 L, 2 P) to a trick of suit `led` (R19): (trumps,
    lens, trump card played or 0)."""
    out = []
    if led != _TRUMP and lens[r][led] > 0:
        return [(trumps, _minus(lens, r, led), 0)]
    if led == _TRUMP and trumps[r + 1]:
        for c in _bits(trumps[r + 1]):
            t = list(trumps)
            t[r + 1] ^= c
            out.append((tuple(t), lens, c))
        return out
    for c in _bits(trumps[r + 1]):  # a ruff
        t = list(trumps)
        t[r + 1] ^= c
        out.append((tuple(t), lens, c))
    for j in range(3):
        if lens[r][j] > 0:
            out.append((trumps, _minus(lens, r, j), 0))
    return out


def _declarer_plays(trumps, top, low, led):
    """Every play of D: (trumps, top, low, trump card or 0, kind) with kind 'top' or 'low'
    for a card of the side suit led, else 'other'."""
    out = []
    if led != _TRUMP and top[led] + low[led] > 0:
        for kind, arr in (("top", top), ("low", low)):
            if arr[led]:
                a = list(arr)
                a[led] -= 1
                out.append((trumps, tuple(a), low, 0, kind) if kind == "top"
                           else (trumps, top, tuple(a), 0, kind))
        return out
    for c in _bits(trumps[0]):
        out.append(((trumps[0] ^ c,) + trumps[1:], top, low, c, "other"))
    if led == _TRUMP and trumps[0]:
        return out
    for j in range(3):
        if top[j]:
            out.append((trumps, top[:j] + (top[j] - 1,) + top[j + 1:], low, 0, "other"))
        if low[j]:
            out.append((trumps, top, low[:j] + (low[j] - 1,) + low[j + 1:], 0, "other"))
    return out


# roles 0 D, 1 A (right-hand opponent), 2 L (left-hand), 3 P (partner); the play goes
# clockwise D, L, P, A from the trick's leader (R18-R20)
_ORDER = {0: (0, 2, 3, 1), 2: (2, 3, 1, 0), 3: (3, 1, 0, 2), 1: (1, 0, 2, 3)}


def _roles(mask):
    return [r for r in (1, 2, 3) if mask >> r & 1]


@cache
def _game(trumps, lens, top, low, lead, k):
    """The ruff game by exhaustive minimax: True when D makes k more tricks, the hand of
    role `lead` on lead."""
    if k <= 0:
        return True
    if bin(trumps[0]).count("1") + sum(top) + sum(low) < k:
        return False
    seps = trumps[0]  # D's trumps at the trick's start: they part the gaps

    def same_gap(a, b):
        lo, hi = min(a, b), max(a, b)
        return not any(lo < c < hi for c in _bits(seps))

    def finish(trumps, lens, top, low, hi, hi_role, kind, followed, trumped):
        # R20: the highest trump (a defender's: the defenders choose the winner among
        # those whose trumps share its gap between D's trumps, the ranks within a gap
        # being forgotten); else D's top card of the suit led; else one of those who
        # followed it, D too when it followed with another card (which might win in
        # play): the defenders choose
        if hi:
            winners = [0] if hi_role == 0 else sorted({r for r, c in trumped
                                                       if same_gap(c, hi)})
        elif kind == "top":
            winners = [0]
        else:
            winners = _roles(followed) + ([0] if kind == "low" else [])
        top2, low2 = _normalise(lens, top, low)
        return all(_game(trumps, lens, top2, low2, w, k - (w == 0)) for w in winners)

    def play(order, trumps, lens, top, low, led, hi, hi_role, kind, followed, trumped):
        # the hands of `order` play in turn, each seeing the cards before it
        if not order:
            return finish(trumps, lens, top, low, hi, hi_role, kind, followed, trumped)
        r, rest = order[0], order[1:]
        if r == 0:
            return any(play(rest, t2, lens, top2, low2, led, max(hi, c),
                            0 if c > hi else hi_role, kd, followed, trumped)
                       for t2, top2, low2, c, kd in _declarer_plays(trumps, top, low, led))
        follows = led != _TRUMP and lens[r - 1][led] > 0
        for t2, l2, c in _defender_plays(trumps, lens, r - 1, led):
            if not play(rest, t2, l2, top, low, led, max(hi, c), r if c > hi else hi_role,
                        kind, followed | (1 << r if follows else 0),
                        trumped + (((r, c),) if c else ())):
                return False
        return True

    order = _ORDER[lead]
    if lead == 0:
        for j in range(3):
            if top[j] and play(order[1:], trumps, lens, top[:j] + (top[j] - 1,) + top[j + 1:],
                               low, j, 0, -1, "top", 0, ()):
                return True
            if low[j] and play(order[1:], trumps, lens, top, low[:j] + (low[j] - 1,) + low[j + 1:],
                               j, 0, -1, "low", 0, ()):
                return True
        return any(play(order[1:], (trumps[0] ^ c,) + trumps[1:], lens, top, low, _TRUMP, c, 0,
                        "other", 0, ()) for c in _bits(trumps[0]))
    # the defender on lead leads a suit it holds: a side suit, or any of its trumps
    for j in range(3):
        if lens[lead - 1][j] and not play(order[1:], trumps, _minus(lens, lead - 1, j), top,
                                          low, j, 0, -1, None, 1 << lead, ()):
            return False
    for c in _bits(trumps[lead]):
        t = list(trumps)
        t[lead] ^= c
        if not play(order[1:], tuple(t), lens, top, low, _TRUMP, c, lead, None, 0,
                    ((lead, c),)):
            return False
    return True


def _role(d, seat):
    return {0: 0, 1: 2, 2: 3, 3: 1}[(seat - d) % 4]


def _reference_best(hands, trump, d, leader):
    trumps, lens, top, low = _abstract(hands, trump, d)
    top, low = _normalise(lens, top, low)
    n = len(_bits(trumps[0])) + sum(top) + sum(low)
    best = 0
    while best < n and _game(trumps, lens, top, low, _role(d, leader), best + 1):
        best += 1
    return best


def _kernel_best(hands, trump, d, leader):
    arr = np.array(hands, np.uint64)
    return ruff_lower_bound(arr, leader, trump, d, 0, bin(hands[d]).count("1"), new_ruff_memo())


def _count(scale, quick, full):
    return quick if scale == "quick" else sized(quick, full)


def _endings(rng, n, kmax):
    """n random endings of 2..kmax cards in 2-4 suits, each with a trump, declarer and
    leader: (k, hands, trump, d, leader)."""
    for _ in range(n):
        k = rng.randint(2, kmax)
        hands = random_ending(rng, k, rng.choice([2, 3, 4]))
        trump, d, leader = rng.randint(0, 3), rng.randint(0, 3), rng.randint(0, 3)
        yield k, hands, trump, d, leader


@pytest.mark.parametrize("scale", SCALES)
def test_r19_r20_ruff_game_agrees_with_exhaustive_minimax(scale):
    # random endings of 2..4 cards in every suit count; the kernel's dominance cuts and
    # D's restricted choices lose nothing against every card of every hand tried
    rng = random.Random(5 if scale == "quick" else 6)
    for _, hands, trump, d, leader in _endings(rng, _count(scale, 150, 1500), 4):
        assert _kernel_best(hands, trump, d, leader) == _reference_best(hands, trump, d,
                                                                        leader), (
            hands, trump, d, leader)


@pytest.mark.parametrize("scale", SCALES)
def test_r19_r20_ruff_game_wins_are_tricks_in_play(scale):
    # random endings of 2..5 cards, every declarer, trump and leader: the game's tricks
    # are tricks the declarer makes in play (the pure-Python minimax)
    rng = random.Random(9 if scale == "quick" else 10)
    proved = 0
    n = _count(scale, 300, 3000)
    for _, hands, trump, d, leader in _endings(rng, n, _count(scale, 4, 5)):
        best = _kernel_best(hands, trump, d, leader)
        if best:
            proved += 1
            assert brute_value(hands, trump, leader, 1 << d, 1 << d) >= best, (
                hands, trump, d, leader)
    assert proved > n // 3


@pytest.mark.parametrize("scale", SCALES)
def test_r20_ruff_game_quick_bounds_hold_against_exhaustive_minimax(scale):
    # at a trick start the kernel settles a game by its quick bounds: D's sure tricks
    # (each opposing trump beats at most one of D's; on lead, D's top cards cashed while
    # every defender holding a trump follows) never exceed the game's value, and D's cards
    # less the most trumps one defender holds above all of D's never fall below it
    rng = random.Random(21 if scale == "quick" else 22)
    n = _count(scale, 300, 3000)
    sure_seen = beyond_seen = 0
    for _, hands, trump, d, leader in _endings(rng, n, _count(scale, 4, 5)):
        t0, t1, t2, t3, ln = _start(np.array(hands, np.uint64), trump, d)
        ln = _kernel_normalise(ln)
        value = _reference_best(hands, trump, d, leader)
        sure = _sure(t0, t1, t2, t3, ln, leader == d)
        cap = _d_cards(t0, ln) - _beyond(t0, t1, t2, t3)
        assert sure <= value <= cap, (hands, trump, d, leader)
        sure_seen += sure > 0
        beyond_seen += cap < _d_cards(t0, ln)
        if sure > 0:
            # the bound settles the game at its first node: no search, within budget 1
            assert ruff_game_wins(t0, t1, t2, t3, ln, _role(d, leader), sure, 1,
                                  new_ruff_memo(), new_ruff_work()) == 1
    assert sure_seen > n // 4 and beyond_seen > n // 4


def _class_variant(rng, hands, rel):
    """A random position of the table class that `rel` defines (kernels.dd.tt): in each
    suit the cards at or above its lowest relevant card keep their owners, the lower ones
    are dealt out again among the same hands, each keeping its count of them."""
    out = [0, 0, 0, 0]
    for s in range(4):
        r = (rel >> (13 * s)) & 0x1FFF
        floor = (r & -r) if r else 1 << 13  # cards below it are free
        low = []
        for q in range(4):
            cards = (hands[q] >> (13 * s)) & 0x1FFF
            out[q] |= (cards & ~(floor - 1)) << (13 * s)
            low += [(c, q) for c in range(13) if cards >> c & 1 and (1 << c) < floor]
        owners = [q for _, q in low]
        rng.shuffle(owners)
        for (c, _), q in zip(low, owners, strict=True):
            out[q] |= 1 << (13 * s + c)
    return tuple(out)


@pytest.mark.parametrize("scale", SCALES)
def test_r19_r20_ruff_cut_holds_across_the_class_it_stores(scale):
    # the search stores a ruff-game win for every position agreeing on the cards at or
    # above its relevance (and on every hand's suit lengths): the declarer makes the
    # target in each of them (brute force). A relevance without D's lowest top card of a
    # side suit, or without D's lowest trump, fails this (both checked)
    rng = random.Random(13 if scale == "quick" else 14)
    memo = new_ruff_memo(1 << 12)
    checked = 0
    n = _count(scale, 300, 3000)
    for k, hands, trump, d, leader in _endings(rng, n, _count(scale, 4, 5)):
        target = rng.randint(1, k)
        won, rel = ruff_cut(np.array(hands, np.uint64), leader, trump, d, target, memo,
                            new_ruff_work())
        if not won:
            continue
        assert brute_value(hands, trump, leader, 1 << d, 1 << d) >= target
        for _ in range(3):
            variant = _class_variant(rng, hands, int(rel))
            checked += variant != hands
            assert brute_value(variant, trump, leader, 1 << d, 1 << d) >= target, (
                hands, variant, trump, d, leader, target)
    assert checked > n // 4


def test_r19_r20_ruff_game_proves_what_the_other_bounds_cannot():
    # EXAMPLE, spades trump, South declares and leads: South makes 2 (brute force); the
    # quick bounds see none of them, the trump game not 2
    arr = parse_deal(EXAMPLE)
    hands = tuple(int(h) for h in arr)
    assert brute_value(hands, 0, 2, 1 << 2, 1 << 2) == 2
    assert quick_bounds(arr, 2, 0, 1 << 2, 1 << 2, 0)[0] == 0
    assert not trump_tricks(arr, 2, 0, 2, 2, 10**6, np.zeros(TRUMP_MEMO, np.uint64),
                            new_trump_work())[0]
    assert ruff_tricks(arr, 2, 0, 2, 2, 10**6, new_ruff_memo(), new_ruff_work())
    assert not ruff_tricks(arr, 2, 0, 2, 3, 10**6, new_ruff_memo(), new_ruff_work())
    assert ruff_lower_bound(arr, 2, 0, 2, 0, 3, new_ruff_memo()) == 2


def test_r18_r19_r20_ruff_game_plays_round_the_table_from_the_leader():
    # SEAT_EXAMPLE, diamonds trump, North declares and East (North's left) leads: East
    # holds only clubs, so it leads one; South follows, West (void, no trump) discards, and
    # North ruffs last: a trick (brute force). A game where the defenders lead any suit
    # one of them holds, the right-hand opponent before the declarer and the others after
    # it, sees none (they lead a trump and South's king wins it)
    arr = parse_deal(SEAT_EXAMPLE)
    hands = tuple(int(h) for h in arr)
    assert brute_value(hands, 2, 1, 1, 1) == 1
    assert quick_bounds(arr, 1, 2, 1, 1, 0)[0] == 0
    assert ruff_tricks(arr, 1, 2, 0, 1, 10**6, new_ruff_memo(), new_ruff_work())
    assert ruff_lower_bound(arr, 1, 2, 0, 0, 2, new_ruff_memo()) == 1
    assert _reference_best(hands, 2, 0, 1) == 1
    # with South (the declarer's partner seat) on lead instead, leading the king of
    # trumps or a club, North's trick can be stopped, and the game agrees
    assert brute_value(hands, 2, 2, 1, 1) == _reference_best(hands, 2, 0, 2) == 0


@pytest.mark.parametrize("deal, trump, leader, value", [
    # CHOICE_EXAMPLE, spades trump: every spade of the defenders is above East's, so East
    # takes nothing. When a defender's trump takes a trick the game lets the defenders
    # choose which of those whose trumps share its gap between East's wins it (who leads
    # next), and so may cut their trump plays to the lowest of a gap; a game that gave
    # the trick to the highest defender's trump with the same cuts claims a trick here,
    # and the wrong `dd_table` values that follow
    (CHOICE_EXAMPLE, 0, 3, 0),
    # GAP_EXAMPLE, clubs trump: East makes one trick. A defender's trump below one of
    # East's (North's C9 and South's C2 against East's C73) cannot take a trick a higher
    # trump took, so the game, choosing the winner only within the highest trump's gap,
    # proves the trick; choosing among every defender who played a trump, it would prove
    # none
    (GAP_EXAMPLE, 3, 3, 1),
    # RUFF_HIGH_EXAMPLE, diamonds trump, East on lead: East takes nothing. When East
    # leads a trump, South plays the D6 and West overtakes with the DK, keeping the D5 (a
    # low trump is worth more to the defenders here than a high one); a game that let a
    # defender after East play only its lowest trump or its lowest that takes or shares
    # the trick (the D5, in the D6's gap) claimed a trick here
    (RUFF_HIGH_EXAMPLE, 2, 1, 0),
])
def test_r20_ruff_game_trick_goes_to_a_defender_in_the_highest_trumps_gap(deal, trump, leader,
                                                                         value):
    # East declares; brute force, the kernel and the reference game agree
    arr = parse_deal(deal)
    hands = tuple(int(h) for h in arr)
    assert brute_value(hands, trump, leader, 1 << 1, 1 << 1) == value
    assert ruff_lower_bound(arr, leader, trump, 1, 0, bin(hands[1]).count("1"),
                            new_ruff_memo()) == value
    assert _reference_best(hands, trump, 1, leader) == value


def test_ruff_game_out_of_budget_claims_nothing_and_is_remembered():
    arr = parse_deal(EXAMPLE)
    memo = new_ruff_memo()
    assert not ruff_tricks(arr, 2, 0, 2, 2, 3, memo, new_ruff_work())  # 3 nodes: no proof
    # remembered as lost for 2 (and more) in this memo, not searched again
    assert not ruff_tricks(arr, 2, 0, 2, 2, 10**6, memo, new_ruff_work())
    assert not ruff_tricks(arr, 2, 0, 2, 3, 10**6, memo, new_ruff_work())
    assert ruff_tricks(arr, 2, 0, 2, 2, 10**6, new_ruff_memo(), new_ruff_work())


def test_reference_game_start_state_of_the_example():
    # the oracle's own abstraction (the agreement test rests on it), checked by hand:
    # every trump's owner, each hand's side-suit lengths and D's top cards (R20); side
    # ranks below D's top cards are forgotten
    hands = tuple(int(h) for h in parse_deal(EXAMPLE))
    trumps, lens, top, low = _abstract(hands, 0, 2)
    spades = [hands[q] & int(SUIT_MASK[0]) for q in range(4)]  # bits 0..12
    # roles: D = South, A (right-hand opponent, plays just before it) = East, L = West,
    # P = North
    assert trumps == (spades[2], spades[1], spades[3], spades[0])
    assert lens == ((1, 0, 2), (1, 0, 1), (0, 2, 0))  # hearts, diamonds, clubs
    assert top == (0, 0, 1) and low == (0, 0, 0)  # South's C8 is above C7 C6 C4


def test_ruff_memo_size_must_be_a_power_of_two():
    # the memo's slot is the top bits of a hash, so its row count must be a power of two
    assert new_ruff_memo(1 << 4).shape == (16, 3)
    for bad in (0, 1, 3, 1000):
        with pytest.raises(ValueError, match="power of two"):
            new_ruff_memo(bad)


def _gaps(trumps):
    """Each gap between two of D's trumps (above its highest, below its lowest), from the
    top: the defender roles (1 A, 2 L, 3 P) of its trumps, as a sorted tuple."""
    owners = [(b, r) for r in range(4) for b in range(13) if trumps[r] >> b & 1]
    gaps, cur = [], []
    for _, r in sorted(owners, reverse=True):
        if r == 0:
            gaps.append(tuple(sorted(cur)))
            cur = []
        else:
            cur.append(r)
    return gaps + [tuple(sorted(cur))]


def _rearranged(rng, trumps):
    """The trumps with holes (ranks out of play) put in and, in each gap between two of
    D's trumps, the defenders' trumps dealt out again among the same defenders, each
    keeping its count there."""
    order = sorted(((b, r) for r in range(4) for b in range(13) if trumps[r] >> b & 1),
                   reverse=True)
    ranks = sorted(rng.sample(range(13), len(order)), reverse=True)
    out = [0, 0, 0, 0]
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and order[j][1] != 0:
            j += 1
        roles = [r for _, r in order[i:j]]
        rng.shuffle(roles)
        for rank, r in zip(ranks[i:j], roles, strict=True):
            out[r] |= 1 << rank
        if j < len(order):
            out[0] |= 1 << ranks[j]
        i = j + 1
    return tuple(out)


def _pack(trumps, lens, top, low):
    ln = 0
    for j in range(3):
        for r in range(3):
            ln |= lens[r][j] << (r * 12 + j * 4)
        ln |= top[j] << (36 + j * 4)
        ln |= low[j] << (48 + j * 4)
    return tuple(np.uint64(t) for t in trumps), np.uint64(ln)


def test_r20_ruff_memo_key_keeps_what_the_value_depends_on():
    # the exhaustive minimax (which knows every rank) gives a state the same value as the
    # state with its trumps rearranged within the gaps between D's trumps and its side
    # suits in another order; the memo's canonical key (relative ranks, each gap's trumps
    # ordered A, L, P) keeps every gap's count of each defender's trumps, leaves no hole
    # and is the same for every rearrangement
    rng = random.Random(31)
    changed = 0
    for _, hands, trump, d, leader in _endings(rng, 200, 4):
        trumps, lens, top, low = _abstract(hands, trump, d)
        top, low = _normalise(lens, top, low)
        moved = _rearranged(rng, trumps)
        perm = rng.sample(range(3), 3)
        lens2 = tuple(tuple(row[p] for p in perm) for row in lens)
        top2, low2 = tuple(top[p] for p in perm), tuple(low[p] for p in perm)
        changed += moved != trumps or perm != [0, 1, 2]
        lead = _role(d, leader)
        for k in range(1, 4):
            assert _game(trumps, lens, top, low, lead, k) == _game(moved, lens2, top2, low2,
                                                                   lead, k), (hands, moved)
        key = _canonical(*(np.uint64(t) for t in trumps))
        assert key == _canonical(*(np.uint64(t) for t in moved))
        assert _gaps(tuple(int(x) for x in key)) == _gaps(trumps)
        n = sum(bin(t).count("1") for t in trumps)
        assert int(key[0] | key[1] | key[2] | key[3]) == (1 << n) - 1
        assert _canonical(*key) == key
        assert _canonical_sides(_pack(trumps, lens, top, low)[1]) == _canonical_sides(
            _pack(trumps, lens2, top2, low2)[1])
    assert changed > 150


def test_ruff_memo_serves_a_rearranged_state():
    # a state solved once answers a rearrangement of it (another gap order, other ranks,
    # the side suits swapped) from the memo, within a budget of one node
    arr = parse_deal(EXAMPLE)
    hands = tuple(int(h) for h in arr)
    trumps, lens, top, low = _abstract(hands, 0, 2)
    top, low = _normalise(lens, top, low)
    memo = new_ruff_memo()
    (t0, t1, t2, t3), ln = _pack(trumps, lens, top, low)
    assert ruff_game_wins(t0, t1, t2, t3, ln, 0, 2, 10**6, memo, new_ruff_work()) == 1
    assert ruff_game_wins(t0, t1, t2, t3, ln, 0, 3, 10**6, memo, new_ruff_work()) == 0
    shifted = tuple(t << 1 for t in trumps)  # every trump a rank higher: the same game
    perm = (2, 0, 1)
    lens2 = tuple(tuple(row[p] for p in perm) for row in lens)
    (u0, u1, u2, u3), ln2 = _pack(shifted, lens2, tuple(top[p] for p in perm),
                                  tuple(low[p] for p in perm))
    assert ruff_game_wins(u0, u1, u2, u3, ln2, 0, 2, 1, memo, new_ruff_work()) == 1
    assert ruff_game_wins(u0, u1, u2, u3, ln2, 0, 3, 1, memo, new_ruff_work()) == 0
    assert ruff_game_wins(u0, u1, u2, u3, ln2, 0, 2, 1, new_ruff_memo(),
                          new_ruff_work()) == -1
