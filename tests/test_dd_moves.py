"""kernels.dd.moves: one legal card per run of equivalent cards, nothing else (R19)."""

import random

import numpy as np

from kernels.dd.moves import opponents_choice, order_moves
from kernels.dd.search import MAX_MOVES
from tests.conftest import sized
from tests.reference_dd import trick_winner
from tests.test_dd_state import runs


def test_moves_cover_each_run_of_legal_cards_once():
    rng = random.Random(5)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    for _ in range(sized(500, 5000)):
        k = rng.randint(2, 13)
        cards = rng.sample(range(52), 4 * k)
        hands = np.array([sum(1 << c for c in cards[i * k:(i + 1) * k]) for i in range(4)],
                         np.uint64)
        gone = ((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3])
        leader = rng.randint(0, 3)
        nplayed = rng.randint(0, 3)
        trick = np.zeros(4, np.int64)
        for j in range(nplayed):
            q = (leader + j) % 4
            c = rng.choice([c for c in range(52) if int(hands[q]) >> c & 1])
            hands[q] ^= np.uint64(1 << c)
            trick[j] = c
        p = (leader + nplayed) % 4
        hand = int(hands[p])
        legal = hand
        if nplayed:
            follow = hand & (0x1FFF << (13 * (trick[0] // 13)))
            legal = follow or hand
        trump = rng.randint(-1, 3)
        mask = rng.choice([1, 5, 7, 14])
        n = order_moves(hands, trick, nplayed, leader, np.uint64(gone), trump, mask, mask,
                        -1, moves, scores)
        got = [int(c) for c in moves[:n]]
        assert len(set(got)) == n
        assert all(legal >> c & 1 for c in got)
        want = runs(legal, gone)
        assert n == len(want)
        assert all(any(c in run for c in got) for run in want)
        assert all(scores[i] >= scores[i + 1] for i in range(n - 1))
        if nplayed:
            # R20: given the index of the card now winning the trick (as the search keeps
            # it), the same moves with the same weights
            wi = trick_winner([int(c) for c in trick[:nplayed]], 0, trump)
            got_scores = scores[:n].copy()
            assert order_moves(hands, trick, nplayed, leader, np.uint64(gone), trump, mask,
                               mask, -1, moves, scores, -1, wi) == n
            assert [int(c) for c in moves[:n]] == got
            assert list(scores[:n]) == list(got_scores)


def test_r15_misere_defender_leads_first_where_the_declarer_cannot_get_low():
    # West (3) declares misère; North (0) leads. West's lowest spade is the queen, its
    # lowest heart the three: North leads a spade first although its heart is lower
    def spade(rank):  # rank 0: the two
        return 1 << rank

    def heart(rank):
        return 1 << (13 + rank)

    hands = np.array([spade(3) | heart(0),  # N: S5, H2
                      spade(0) | heart(2),  # E: S2, H4
                      spade(1) | heart(4),  # S: S3, H6
                      spade(10) | heart(1)],  # W: SQ, H3
                     np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))
    n = order_moves(hands, np.zeros(4, np.int64), 0, 0, gone, -1, 15 ^ 8, 8, -1, moves,
                    scores)
    assert n == 2 and list(moves[:2]) == [3, 13]


def test_r10_lead_prefers_the_suit_where_the_opponents_have_fewest_cards():
    # North (0) plays alone, no trump, and leads: its five of spades and five of hearts are
    # equally good losers, but the defenders hold nine spades and three hearts, so a heart
    # lead leaves them fewer replies to search (kernels.dd.moves.opponents_choice)
    def cards(*ids):
        return sum(1 << c for c in ids)

    s, h, c = 0, 13, 39  # first card ids of spades, hearts, clubs; rank 0 is the two
    hands = np.array([cards(s + 3, h + 3, c + 0, c + 1),  # N: S5 H5 C2 C3
                      cards(s + 12, s + 11, s + 10, h + 12),  # E: SA SK SQ HA
                      cards(s + 9, s + 8, s + 7, h + 11),  # S: SJ ST S9 HK
                      cards(s + 6, s + 5, s + 4, h + 10)],  # W: S8 S7 S6 HQ
                     np.uint64)
    assert opponents_choice(hands, 0, 1, 0, 4) == 9
    assert opponents_choice(hands, 0, 1, 1, 4) == 3
    assert opponents_choice(hands, 0, 1, 2, 4) == 15  # three void defenders: 4 + 1 each
    assert opponents_choice(hands, 1, 14, 1, 4) == 1  # East's opponent: North alone
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))
    n = order_moves(hands, np.zeros(4, np.int64), 0, 0, gone, -1, 1, 1, -1, moves, scores)
    order = list(moves[:n])
    assert n == 3 and order.index(h + 3) < order.index(s + 3)


def test_r15_r19_misere_declarer_discards_towards_ducking_first():
    # seed-777 deal 30 after the little-misère discards; East leads the HK and South, void
    # in hearts, discards (R19). Only its highest card of each suit is a candidate
    # (R15, R20: keeping a lower card of the suit is never worse, kernels.dd.misere.
    # top_of_each_suit): the C8, the DA, the SK. The C8 leaves it two places short of
    # ducking every trick (kernels.dd.misere.ducking_gaps), the DA or the SK three: the
    # club first, not the highest card (the DA)
    from analyser.cards import parse_deal
    from kernels.dd.search import gone_of

    hands = parse_deal("N:7.T763.T976.432 QJ8.K852.83.KT5 KT542..AJ542.86 963.J94.KQ.AQ97")
    hk = 13 + 11
    hands[1] ^= np.uint64(1 << hk)
    trick = np.array([hk, 0, 0, 0], np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    n = order_moves(hands, trick, 1, 1, gone_of(hands), -1, 11, 4, -1, moves, scores)
    club = lambda rank: 39 + rank  # noqa: E731
    assert list(moves[:n]) == [club(6), 26 + 12, 11]


def test_r10_lone_declarer_leads_towards_a_trick_before_a_lead_with_fewer_replies():
    # North (0) plays alone, no trump, and leads: the CQ from CK CQ loses to the ace alone
    # and then the king wins; the H4 is under three defenders' honours. The defenders hold
    # six clubs and three hearts, so by their replies alone (as a partnership orders its
    # leads, LEAD_CHOICE_WEIGHT) the heart came first; a lone declarer counts the cards
    # above its lead too (kernels.dd.moves.LONE_ABOVE_WEIGHT): where it needs a trick, the
    # lead that sets one up
    def cards(*ids):
        return sum(1 << c for c in ids)

    h, c = 13, 39  # first card ids of hearts and clubs; rank 0 is the two
    hands = np.array([cards(c + 11, c + 10, h + 2),  # N: CK CQ H4
                      cards(c + 12, c + 0, h + 12),  # E: CA C2 HA
                      cards(c + 2, c + 1, h + 11),  # S: C4 C3 HK
                      cards(c + 4, c + 3, h + 10)],  # W: C6 C5 HQ
                     np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))
    n = order_moves(hands, np.zeros(4, np.int64), 0, 0, gone, -1, 1, 1, -1, moves, scores)
    assert n == 2 and list(moves[:2]) == [c + 10, h + 2]


def _partnership_leads(hands, trump, killer=-1):
    """North's (seat 0) leads, North-South a partnership (bridge), best first."""
    hands = np.array(hands, np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))
    n = order_moves(hands, np.zeros(4, np.int64), 0, 0, gone, trump, 5, 5, -1, moves, scores,
                    killer)
    return [int(c) for c in moves[:n]]


def _cards(*ids):
    return sum(1 << c for c in ids)


def test_r20_partnership_leads_through_the_top_card_to_the_partners_next_two():
    # no trump, North on lead (kernels.dd.moves.partnership_leads): East holds the HA and
    # South the HK HQ under it, so a heart lead sets up a trick for the side; West holds
    # the SA over North's spades and South has none. The opponents hold two cards of each
    # suit, so by their replies alone the suits tie and the spade (lower suit id) came
    # first
    s, h = 0, 13  # first card ids of spades and hearts; rank 0 is the two
    hands = [_cards(s + 0, h + 0),  # N: S2 H2
             _cards(h + 12, s + 1),  # E: HA S3
             _cards(h + 11, h + 10),  # S: HK HQ
             _cards(s + 12, h + 1)]  # W: SA H3
    assert _partnership_leads(hands, -1) == [h + 0, s + 0]


def _south_discards_after_ha(hands):
    """(count, moves) of South's cards, best first, after East's HA lead in no trump,
    North-South a partnership (bridge)."""
    trick = np.array([13 + 12, 0, 0, 0], np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    return order_moves(hands, trick, 1, 1, gone, -1, 5, 5, -1, moves, scores), moves


def test_r19_r20_no_trump_discard_from_the_longest_suit_first():
    # no trump, North-South a partnership (bridge): East leads the HA and South, void in
    # hearts (R19), discards. Its spades (S5 S7 S9 SJ, one run: the cards between are
    # gone) are four cards, its diamond a singleton two: the spade comes first although
    # the D2 is lower
    s, h, d, c = 0, 13, 26, 39  # first card ids of the suits; rank 0 is the two
    hands = np.array([_cards(s + 1, h + 1, d + 1, c + 0, c + 4),  # N: S3 H3 D3 C2 C6
                      _cards(s + 12, s + 11, d + 12, c + 2),  # E: SA SK DA C4 (led the HA)
                      _cards(s + 3, s + 5, s + 7, s + 9, d + 0),  # S: S5 S7 S9 SJ D2
                      _cards(h + 0, h + 4, s + 10, d + 11, c + 3)],  # W: H2 H6 SQ DK C5
                     np.uint64)
    n, moves = _south_discards_after_ha(hands)
    assert n == 2 and list(moves[:2]) == [s + 3, d + 0]


def test_r19_r20_no_trump_discard_from_the_suit_the_partner_is_short_in():
    # as above: East leads the HA and South, void in hearts, discards. Its spades (S5 S7)
    # and diamonds (D5 D7) are alike (two cards, the cards between gone, the aces with
    # East), but North, South's partner, holds three spades and one diamond: the diamond
    # first (by suit order the spade would come first)
    s, h, d, c = 0, 13, 26, 39
    hands = np.array([_cards(s + 0, s + 1, s + 2, d + 0),  # N: S2 S3 S4 D2
                      _cards(s + 12, d + 12, c + 2),  # E: SA DA C4 (led the HA)
                      _cards(s + 3, s + 5, d + 3, d + 5),  # S: S5 S7 D5 D7
                      _cards(h + 0, h + 1, c + 3, c + 4)],  # W: H2 H3 C5 C6
                     np.uint64)
    n, moves = _south_discards_after_ha(hands)
    assert n == 2 and list(moves[:2]) == [d + 3, s + 3]


def test_r20_partnership_leads_towards_the_partners_ruff():
    # spades trump, North on lead: South is void in clubs and holds the SA, so a club lead
    # is won by South's ruff (East and West hold no trump); in diamonds East's ace wins
    # over South's king. The club comes first, not the diamond (lower suit id)
    s, d, c = 0, 26, 39
    hands = [_cards(d + 0, c + 0),  # N: D2 C2
             _cards(d + 12, c + 12),  # E: DA CA
             _cards(s + 12, d + 11),  # S: SA DK
             _cards(d + 1, c + 1)]  # W: D3 C3
    assert _partnership_leads(hands, 0) == [c + 0, d + 0]


def test_r20_partnership_lead_that_last_cut_off_comes_first_among_equals():
    # no trump, North's SA and HA both win; the one whose lead cut off last at this trick
    # (the `killer`) is tried first, else the spade (lower suit id)
    s, h = 0, 13
    hands = [_cards(s + 12, h + 12),  # N: SA HA
             _cards(s + 0, h + 0),  # E: S2 H2
             _cards(s + 1, h + 1),  # S: S3 H3
             _cards(s + 2, h + 2)]  # W: S4 H4
    assert _partnership_leads(hands, -1) == [s + 12, h + 12]
    assert _partnership_leads(hands, -1, killer=h + 12) == [h + 12, s + 12]


def test_r10_lone_declarer_tries_the_lead_that_last_cut_off_at_the_trick_early():
    # North plays alone, no trump, and leads: the defenders hold three hearts above its H5
    # and four spades above its S5, so the H5 comes before the S5 (and the C2, a winner,
    # first), unless the S5's lead was the last to cut off at this trick of the search
    # (the killer, kernels.dd.moves.KILLER_BOSTON points); the table's best lead still
    # comes first of all
    def cards(*ids):
        return sum(1 << c for c in ids)

    s, h, d, c = 0, 13, 26, 39
    hands = np.array([cards(s + 3, h + 3, c + 0, c + 1),  # N: S5 H5 C2 C3
                      cards(s + 12, s + 11, h + 12, d + 0),  # E: SA SK HA D2
                      cards(s + 10, h + 11, d + 1, d + 2),  # S: SQ HK D3 D4
                      cards(s + 4, h + 10, d + 3, d + 4)],  # W: S6 HQ D5 D6
                     np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    gone = np.uint64(((1 << 52) - 1) & ~int(hands[0] | hands[1] | hands[2] | hands[3]))

    def leads(first, killer):
        n = order_moves(hands, np.zeros(4, np.int64), 0, 0, gone, -1, 1, 1, first, moves,
                        scores, killer)
        return [int(x) for x in moves[:n]]

    assert leads(-1, -1) == [c + 0, h + 3, s + 3]
    assert leads(-1, s + 3) == [s + 3, c + 0, h + 3]
    assert leads(h + 3, s + 3)[0] == h + 3


def _west_third_hand(hands, mask, trump=-1):
    """West's (seat 3) cards, best first, third to play after East's H3 and South's H2;
    `mask` the seats that maximise and whose tricks count. No card is gone, so each of
    West's hearts is a run of its own."""
    h = 13
    hands = np.array(hands, np.uint64)
    trick = np.array([h + 1, h + 0, 0, 0], np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    n = order_moves(hands, trick, 2, 1, np.uint64(0), trump, mask, mask, -1, moves, scores)
    return [int(c) for c in moves[:n]]


def test_r19_r20_third_hand_forces_out_the_fourth_hands_top_card_first():
    # East leads the H3, South plays the H2; West, third, holds HK H9 H5 and North, last
    # to play, HA H8 H4. West cannot beat the HA; the H9, the cheapest card above North's
    # next card (the H8), makes North spend its ace, so it comes first, then the rest
    # from the lowest up (DDS's third-hand weights), not the cheapest card above the
    # trick's winner first (H5, H9, HK). Alike for a bridge partnership (North-South
    # or East-West maximising) and for a lone declarer North (R10), West a defender
    h = 13
    hands = [_cards(h + 12, h + 6, h + 2),  # N: HA H8 H4
             _cards(0),  # E: S2 (led the H3)
             _cards(1),  # S: S3 (played the H2)
             _cards(h + 11, h + 7, h + 3)]  # W: HK H9 H5
    for mask in (5, 10, 1):
        assert _west_third_hand(hands, mask) == [h + 7, h + 3, h + 11]


def test_r19_r20_third_hand_beats_the_second_hands_card_cheapest_then_plays_low():
    # East leads the H3 and South plays the H8 over it; North, last, holds HA H6 H4. West,
    # third, holds HK HT H5: none beats the HA, and North's next card is below the H8, so
    # West's one try to win is the cheapest card above the H8 (the HT), then the rest from
    # the lowest up, not every card above the trick's winner ahead of the low ones (HT,
    # HK, H5)
    h = 13
    hands = np.array([_cards(h + 12, h + 4, h + 2),  # N: HA H6 H4
                      _cards(0),  # E: S2
                      _cards(1),  # S: S3
                      _cards(h + 11, h + 8, h + 3)],  # W: HK HT H5
                     np.uint64)
    trick = np.array([h + 1, h + 6, 0, 0], np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    for mask in (5, 10):
        n = order_moves(hands, trick, 2, 1, np.uint64(0), -1, mask, mask, -1, moves, scores)
        assert [int(c) for c in moves[:n]] == [h + 8, h + 3, h + 11]


def test_r19_r20_no_trump_second_hand_plays_low_when_the_partner_beats_both_opponents():
    # no trump, North-South a partnership (bridge): East leads the H5 and South, second,
    # holds HA H3. North, last to play, holds the HK, above the H5 and West's HQ: South
    # plays low and leaves the trick to North (DDS's second-hand weights), not the sure
    # winner first (HA, H3)
    h = 13
    hands = np.array([_cards(h + 11, 0),  # N: HK S2
                      _cards(1, 2),  # E: S3 S4 (led the H5)
                      _cards(h + 12, h + 1),  # S: HA H3
                      _cards(h + 10, 3)],  # W: HQ S5
                     np.uint64)
    trick = np.array([h + 3, 0, 0, 0], np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    n = order_moves(hands, trick, 1, 1, np.uint64(0), -1, 5, 5, -1, moves, scores)
    assert [int(c) for c in moves[:n]] == [h + 1, h + 12]


def test_r19_r20_second_hand_void_discards_rather_than_ruff_the_partners_winner():
    # spades trump, North-South a partnership (bridge): East leads the H5 and South,
    # second and void in hearts (R19), holds S2 D2 D9. West follows with the H6 and North,
    # last, holds the HA: the trick is the side's anyway, so South discards, low first,
    # and ruffs last (DDS's weights for a void follower), not the ruff first
    s, h, d = 0, 13, 26
    hands = np.array([_cards(h + 12, 1),  # N: HA S3
                      _cards(2, 3),  # E: S4 S5 (led the H5)
                      _cards(s + 0, d + 0, d + 7),  # S: S2 D2 D9
                      _cards(h + 4, 4)],  # W: H6 S6
                     np.uint64)
    trick = np.array([h + 3, 0, 0, 0], np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.int64)
    n = order_moves(hands, trick, 1, 1, np.uint64(0), 0, 5, 5, -1, moves, scores)
    assert [int(c) for c in moves[:n]] == [d + 0, d + 7, s + 0]


def test_r15_misere_killer_moves_a_defenders_lead_up_not_the_declarers():
    # seed-777 deal 30 (after the little-misère discards), South the misère declarer: at
    # East's lead the killer (the lead that last forced the declarer at this trick)
    # gains KILLER_BOSTON points, as in numeric contracts; at South's own lead it gains
    # nothing (a misère declarer never cuts off by leading)
    from analyser.cards import parse_deal
    from kernels.dd.search import gone_of

    hands = parse_deal("N:7.T763.T976.432 QJ8.K852.83.KT5 KT542..AJ542.86 963.J94.KQ.AQ97")
    gone = np.uint64(gone_of(hands))
    trick = np.zeros(4, np.int64)

    def order(leader, killer):
        moves = np.zeros(MAX_MOVES, np.int64)
        scores = np.zeros(MAX_MOVES, np.int64)
        n = order_moves(hands, trick, 0, leader, gone, -1, 11, 4, -1, moves, scores, killer)
        return list(moves[:n])

    east = order(1, -1)
    killer = east[-1]
    assert order(1, killer).index(killer) < len(east) - 1
    south = order(2, -1)
    assert order(2, south[-1]) == south
