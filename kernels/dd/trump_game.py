"""How many tricks a lone declarer's trumps take: a small game on the trump suit alone.

The search asks it of trick-boundary positions that the quick bounds and the table leave
open, in a numeric contract with a trump suit (R10, R18-R21). A win in the game is a
lower bound on the declarer's tricks in play; the game has only the trump suit and a
count of the declarer's side cards, so a search takes hundreds of nodes, a few thousand
at most (`TRUMP_GAME_BUDGET`).

The declarer D follows one plan: it follows suit when it can; void in a side suit led,
it discards a side card while it holds one (it ruffs only when it holds nothing but
trumps); on lead it leads a side card while it holds one, or else (its choice) a trump.
So D plays a trump only when trumps are led, or a side suit is led once D holds only
trumps. Against that plan the game gives the defenders every freedom the rules allow
and more:

- a *side trick* (while D holds side cards) costs D one side card and leaves the trumps
  as they were; its winner is the defenders' choice: a defender (who leads next), or D
  (a trick for D, who leads next). The defenders keep their trumps (a ruff would only
  spend one), and they never run out of side cards to lead.
- *trumps led by a defender* (some defender holds a trump): D's right-hand opponent A
  plays before D, the other two (L, P) after it, whoever led, so they see D's card (when
  L or P leads, in play D would see theirs). Every hand holding a trump must play one
  (R19).
- *a side suit led once D holds only trumps*: D must ruff; A may ruff before it or not,
  L or P may overruff after it or not.
- *D leads a trump* (its choice, or forced once its side cards are gone): A, L and P
  all play after it, each a trump if it holds one.

D wins a trump trick when its trump beats every trump played to it (R20). Each hand's
cards are reduced to the choices that can matter: D plays one card of each run no
defender's trump splits; A plays its lowest trump between two of D's (a higher one kept
beats whatever it would); L, P and A after D play their lowest trump, or their lowest
above D's (a cover), and at most one of them covers. Giving the defenders more choices
than play does, and holding them to choices that dominate the rest, only lowers D's
count, so a win in the game is a trick count D makes in play.

An explicit stack, not recursion: numba cannot cache a self-recursive function.
"""

import numpy as np

from kernels.bits import leading_zeros, popcount, trailing_zeros
from kernels.dd.state import SUIT_MASK, U0, U1, lowest_bit, split_bottoms
from kernels.jit import NO_REFCOUNT, njit

TRUMP_GAME_BUDGET = 4096  # nodes of one game at most
# entries of the memo of game values that the searches of one solve share: 2^12 takes as
# many game nodes as 2^16 and is not a fresh 512 KiB of zeroed pages for every solve
TRUMP_MEMO = 1 << 12

# node kinds: the first two start a trick
_DEF = 0  # defenders on lead: they pick a side trick or a trump trick (min)
_DLEAD = 1  # D on lead: a side card or a trump (max)
_DREPLY = 2  # D plays to a trump trick a defender led (max)
_COVER = 3  # the defenders after D play (min)
_SIDE = 4  # the winner of D's side-card lead (min)

_T1 = 1  # trumps led by a defender: every trump holder follows
_T2 = 2  # a side suit led, D holding only trumps: ruffs are optional
_T5 = 5  # D leads a trump: A, L and P follow after it

_ENTER = 0
_NEXT = 1
_RETURN = 2

_NONE = 63  # no card
_MAXLV = 48
_MAXOPT = 32


@njit(**NO_REFCOUNT)
def _card(m):
    """Card id of a one-bit mask, _NONE for 0."""
    if m == U0:
        return _NONE
    return popcount(m - U1)


@njit(**NO_REFCOUNT)
def _plays(hand, d, forced):
    """(first, second): a defender's choices after D's card `d` (a one-bit mask): its
    lowest trump and its lowest above d (a cover), or no trump at all when not forced
    (or holding none); the second is U0 when it would repeat the first."""
    if hand == U0:
        return U0, U0
    cover = lowest_bit(hand & ~((d << U1) - U1))
    low = U0 if not forced else lowest_bit(hand)
    if cover == low:
        return low, U0
    return low, cover


@njit(**NO_REFCOUNT)
def _key(mine, ahead, left, partner, sides, d_leads, k):
    """Memo key of a trick-start state (the four hands' trumps of one suit, shifted down to
    bits 0..12, in 13-bit fields; the side cards, who leads, the tricks still needed),
    with bit 62 set so that no key is 0; bit 63 is left for the result."""
    low = mine | ahead | left | partner
    sh = np.uint64(0) if low == U0 else np.uint64(13 * (popcount((low & (U0 - low)) - U1) // 13))
    return ((mine >> sh) | ((ahead >> sh) << np.uint64(13)) | ((left >> sh) << np.uint64(26))
            | ((partner >> sh) << np.uint64(39)) | (np.uint64(sides) << np.uint64(52))
            | (np.uint64(d_leads) << np.uint64(56)) | (np.uint64(k) << np.uint64(57))
            | (U1 << np.uint64(62)))


@njit(**NO_REFCOUNT)
def _slot(memo, key):
    """The memo slot of a key: the top bits of a multiplicative hash (every key bit
    reaches them)."""
    return np.int64((key * np.uint64(0x9E3779B97F4A7C15))
                    >> np.uint64(64 - trailing_zeros(np.uint64(memo.shape[0]))))


@njit
def stack_work(words, ints, levels, options):
    """Scratch arrays for a game's explicit stack, reused game after game: `words` rows
    of uint64 and `ints` rows of int64 per level, and `options` option slots per level.
    The search allocates them once: it runs without numba's reference counting and so
    allocates nothing itself (kernels.jit)."""
    return (np.empty((words, levels), np.uint64), np.empty((ints, levels), np.int64),
            np.empty((levels, options), np.int64))


@njit
def new_trump_work():
    """Scratch arrays for `trump_game_wins` (`stack_work`)."""
    return stack_work(6, 6, _MAXLV, _MAXOPT)


@njit(**NO_REFCOUNT)
def trump_game_wins(mine, ahead, left, partner, sides, d_leads, k, budget, memo, work):
    """1 when the lone declarer, with trumps `mine` and `sides` side cards, makes `k`
    trump or side tricks in the game above whatever the defenders do (its right-hand
    opponent holds the trumps `ahead`, the other two `left` and `partner`); 0 when the
    game shows no such line; -1 when the search would need more than `budget` nodes.
    `d_leads`: whether the declarer is on lead. The values of trick-start states are
    kept in `memo` (a power-of-two array of words, direct-mapped, zeros when empty;
    see `_key`), shared by every game of one search. `work`: `new_trump_work()`."""
    # the stack in three arrays (every level is written before it is read): per level
    # the four hands' trumps, the cards on the table, the side cards, tricks won, node
    # kind, trick type, the options and the next one to try
    ustack, istack, opts = work
    dm, am, lm, pm = ustack[0], ustack[1], ustack[2], ustack[3]
    acard, dcard = ustack[4], ustack[5]
    sv, wins, kind, ttype = istack[0], istack[1], istack[2], istack[3]
    nopt, idx = istack[4], istack[5]
    dm[0] = mine
    am[0] = ahead
    lm[0] = left
    pm[0] = partner
    acard[0] = U0
    dcard[0] = U0
    sv[0] = sides
    wins[0] = 0
    kind[0] = _DLEAD if d_leads else _DEF
    ttype[0] = 0
    lv = 0
    nodes = 0
    mode = _ENTER
    res = 0
    while True:
        kd = kind[lv]
        if mode == _ENTER:
            nodes += 1
            if nodes > budget:
                return -1
            mode = _NEXT
            n = 0
            if kd == _DEF or kd == _DLEAD:
                if wins[lv] >= k:
                    res = 1
                    mode = _RETURN
                elif wins[lv] + popcount(dm[lv]) < k:
                    res = 0
                    mode = _RETURN
                else:
                    key = _key(dm[lv], am[lv], lm[lv], pm[lv], sv[lv], kd == _DLEAD,
                               k - wins[lv])
                    word = memo[_slot(memo, key)]
                    if (word & ~(U1 << np.uint64(63))) == key:
                        res = np.int64(word >> np.uint64(63))
                        mode = _RETURN
            if mode == _NEXT:
                n = _options(kd, dm[lv], am[lv], lm[lv], pm[lv], sv[lv], ttype[lv],
                             acard[lv], dcard[lv], opts[lv])
                nopt[lv] = n
                idx[lv] = 0
        elif mode == _RETURN:
            if (kd == _DEF or kd == _DLEAD) and wins[lv] < k and wins[lv] + popcount(dm[lv]) >= k:
                key = _key(dm[lv], am[lv], lm[lv], pm[lv], sv[lv], kd == _DLEAD, k - wins[lv])
                memo[_slot(memo, key)] = key | (np.uint64(res) << np.uint64(63))
            if lv == 0:
                return res
            lv -= 1
            kd = kind[lv]
            is_max = kd == _DLEAD or kd == _DREPLY
            mode = _RETURN if (res == 1) == is_max else _NEXT  # a cut-off ends the node
            continue
        if mode == _NEXT:
            if idx[lv] >= nopt[lv]:
                # no option cut off: a max node fails, a min node holds
                res = 0 if (kd == _DLEAD or kd == _DREPLY) else 1
                mode = _RETURN
                continue
            o = opts[lv, idx[lv]]
            idx[lv] += 1
            c = lv + 1
            dm[c] = dm[lv]
            am[c] = am[lv]
            lm[c] = lm[lv]
            pm[c] = pm[lv]
            sv[c] = sv[lv]
            wins[c] = wins[lv]
            ttype[c] = ttype[lv]
            acard[c] = acard[lv]
            dcard[c] = dcard[lv]
            if kd == _DEF:
                if o < 100:
                    sv[c] -= 1  # a side trick: o = 1 when D wins it
                    wins[c] += o
                    kind[c] = _DLEAD if o == 1 else _DEF
                else:
                    a = o % 100
                    ttype[c] = _T1 if o < 200 else _T2
                    acard[c] = U0 if a == _NONE else (U1 << np.uint64(a))
                    am[c] ^= acard[c]
                    kind[c] = _DREPLY
            elif kd == _DLEAD:
                if o == 0:
                    sv[c] -= 1
                    kind[c] = _SIDE
                else:
                    dcard[c] = U1 << np.uint64(o - 100)
                    dm[c] ^= dcard[c]
                    acard[c] = U0
                    ttype[c] = _T5
                    kind[c] = _COVER
            elif kd == _DREPLY:
                dcard[c] = U1 << np.uint64(o)
                dm[c] ^= dcard[c]
                kind[c] = _COVER
            elif kd == _COVER:
                d = dcard[lv]
                won = d > acard[lv]
                for j in range(3):
                    x = (o >> (6 * j)) & 63
                    if x != _NONE:
                        b = U1 << np.uint64(x)
                        won = won and b < d
                        if j == 0:
                            am[c] ^= b
                        elif j == 1:
                            lm[c] ^= b
                        else:
                            pm[c] ^= b
                wins[c] += 1 if won else 0
                kind[c] = _DLEAD if won else _DEF
            else:  # _SIDE: o = 1 when D's side card wins
                wins[c] += o
                kind[c] = _DLEAD if o == 1 else _DEF
            lv = c
            mode = _ENTER


@njit(**NO_REFCOUNT)
def highest_first(ch, base, out, n):
    """Append base + card id of each card of `ch`, highest first, to `out` from n on."""
    while ch != U0:
        top = U1 << np.uint64(63 - leading_zeros(ch))
        ch ^= top
        out[n] = base + _card(top)
        n += 1
    return n


@njit(**NO_REFCOUNT)
def _options(kd, dm, am, lm, pm, sides, ttype, a, d, out):
    """Write a node's options into `out` (encodings in `trump_game_wins`); return count."""
    n = 0
    defs = am | lm | pm
    if kd == _DEF:
        # trumps led (A's card, high to low, or none), a ruff, then side tricks
        if defs != U0:
            if am == U0:
                out[n] = 100 + _NONE
                n += 1
            else:
                n = highest_first(split_bottoms(am, dm), 100, out, n)
        if sides == 0:
            n = highest_first(split_bottoms(am, dm), 200, out, n)
            out[n] = 200 + _NONE
            n += 1
        else:
            out[n] = 0  # a side trick the defenders win
            out[n + 1] = 1  # a side trick D wins
            n += 2
    elif kd == _DLEAD:
        if sides > 0:
            out[n] = 0  # lead a side card
            n += 1
        n = highest_first(split_bottoms(dm, defs), 100, out, n)
    elif kd == _DREPLY:
        # A's card is still on the table: it splits D's runs too
        n = highest_first(split_bottoms(dm, defs | a), 0, out, n)
    elif kd == _COVER:
        forced = ttype != _T2
        x1, x2 = U0, U0
        if ttype == _T5:
            x1, x2 = _plays(am, d, True)  # A plays after D only when D led
        l1, l2 = _plays(lm, d, forced)
        p1, p2 = _plays(pm, d, forced)
        if a > d:
            l2, p2 = U0, U0  # A's trump already beats D's: nobody covers
        # one cover at most (two would spend a trump for nothing), covers first
        if x2 != U0:
            out[n] = _card(x2) | (_card(l1) << 6) | (_card(p1) << 12)
            n += 1
        if l2 != U0:
            out[n] = _card(x1) | (_card(l2) << 6) | (_card(p1) << 12)
            n += 1
        if p2 != U0:
            out[n] = _card(x1) | (_card(l1) << 6) | (_card(p2) << 12)
            n += 1
        out[n] = _card(x1) | (_card(l1) << 6) | (_card(p1) << 12)
        n += 1
    else:  # _SIDE
        out[0] = 0
        out[1] = 1
        n = 2
    return n


@njit(**NO_REFCOUNT)
def trump_tricks(hands, leader, trump, d, k, budget, memo, work):
    """(bool, relevance): whether the lone declarer `d` surely makes `k` of the tricks
    left, by the trump game above (`trump_game_wins` within `budget` nodes, its values
    memoised per search in `memo`: the game depends on the trumps' owners, the
    declarer's side-card count and who leads only; `work`: `new_trump_work()`). It rests
    on the owners of the trumps down to the declarer's lowest (the lower ones can beat
    none of its trumps; how many each hand holds is in every table key).
    """
    tm = SUIT_MASK[trump]
    mine = hands[d] & tm
    if popcount(mine) < k:
        return False, U0  # the game's tricks are trump tricks (side tricks are given)
    sides = popcount(hands[d]) - popcount(mine)
    ahead = hands[(d + 3) & 3] & tm
    left = hands[(d + 1) & 3] & tm
    partner = hands[(d + 2) & 3] & tm
    key = _key(mine, ahead, left, partner, sides, leader == d, k)
    word = memo[_slot(memo, key)]
    if (word & ~(U1 << np.uint64(63))) == key:
        won = (word >> np.uint64(63)) == U1  # known: no game to set up
    else:
        res = trump_game_wins(mine, ahead, left, partner, sides, leader == d, k, budget, memo,
                              work)
        if res < 0:
            # out of budget: remembered as a loss (never claims a trick), not searched again
            memo[_slot(memo, key)] = key
        won = res == 1
    return won, (mine & (U0 - mine)) if won else U0
