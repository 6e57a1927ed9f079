"""Move generation and ordering for the double-dummy search.

Only one card of each run of equivalent cards is generated (`sequence_bottoms`): the rest
of a run cannot change the result. Moves are then ordered by cheap heuristics so that the
zero-window search meets a cut-off early; ordering never changes a result, only the time.

"Good" for the player to move is a set of seats whose winning the trick helps that player:
when the player maximises, the seats whose tricks count (`winmask`); otherwise the others.
In a numeric contract or a partnership the player's own side is good; in misère (R15) the
declarer wants anyone else to win and the defenders want the declarer to win, so no player
wants to win a trick itself.
"""

import numpy as np

from kernels.bits import trailing_zeros
from kernels.dd_state import SUIT_MASK, U0, U1, current_winner_trump, legal_moves, sequence_bottoms
from kernels.jit import njit


@njit
def _higher_in_suit(card):
    """Mask of the cards of `card`'s suit ranked above it."""
    s = card // 13
    above = ~((U1 << np.uint64(card + 1)) - U1)  # bits strictly above card
    return above & SUIT_MASK[s]


@njit
def order_moves(hands, trick, nplayed, leader, gone, trump, maxmask, winmask, moves, scores):
    """Write the candidate cards of the player to move into `moves`, best first; return count."""
    p = (leader + nplayed) & 3
    hand = hands[p]
    cand = sequence_bottoms(legal_moves(hand, trick, nplayed), gone)
    if (maxmask >> p) & 1:
        good = winmask
    else:
        good = (~winmask) & 15
    self_good = (good >> p) & 1
    others = U0
    for q in range(4):
        if q != p:
            others |= hands[q]
    n = 0
    if nplayed == 0:
        partner_cards = U0
        for q in range(4):
            if q != p and ((good >> q) & 1) == 1:
                partner_cards |= hands[q]
        while cand:
            c = trailing_zeros(cand)
            cand &= cand - U1
            rank = c % 13
            s = c // 13
            higher_out = others & _higher_in_suit(c)
            if self_good == 1:
                if higher_out == U0:
                    sc = 80 + rank  # a winner: cash it
                elif (partner_cards & _higher_in_suit(c)) != U0 and (
                    (others & ~partner_cards) & SUIT_MASK[s]
                ) != U0:
                    sc = 60 - rank  # low towards a partner's higher card
                else:
                    sc = 20 - rank
            else:
                # misère: lead low; a defender prefers suits the declarer must follow
                sc = 40 - rank
                if (good & 15) != 0:
                    for q in range(4):
                        if ((good >> q) & 1) == 1 and q != p and (hands[q] & SUIT_MASK[s]) != U0:
                            sc += 20
                            break
            moves[n] = c
            scores[n] = sc
            n += 1
    else:
        wi = current_winner_trump(trick, nplayed, trump)
        wseat = (leader + wi) & 3
        wcard = trick[wi]
        wsuit = wcard // 13
        good_now = (good >> wseat) & 1
        last = nplayed == 3
        while cand:
            c = trailing_zeros(cand)
            cand &= cand - U1
            rank = c % 13
            s = c // 13
            beats = (s == wsuit and c > wcard) or (s == trump and wsuit != trump)
            if self_good == 1:
                if good_now == 1:
                    sc = 50 - rank if not beats else 10 - rank
                elif beats:
                    sc = 70 - rank  # the cheapest card that wins
                    if s == trump and trick[0] // 13 != trump:
                        sc -= 5  # a ruff costs a trump
                else:
                    sc = 30 - rank
                if last and not beats and good_now == 0:
                    sc = 30 - rank
            else:
                if beats:
                    sc = 10 - rank
                elif good_now == 1 or last:
                    sc = 50 + rank  # stay under and shed a high card
                else:
                    sc = 50 - rank
            moves[n] = c
            scores[n] = sc
            n += 1
    # insertion sort, best score first (n <= 13)
    for i in range(1, n):
        m = moves[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc
    return n
