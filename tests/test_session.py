"""Sessions (analyser/session.py): dealing, rotation, play, and exact settlement (R2-R31)."""

from fractions import Fraction

import numpy as np
import pytest
from rules_tables import R24_FAILED, R24_MADE
from session_strategies import Illegal, LengthBidder, MisereBidder, Passer

from analyser import solver
from analyser.contracts import is_little, is_numeric, tricks_needed
from analyser.errors import UserError
from analyser.session import (
    HANDS,
    Decks,
    SessionConfig,
    chunk_frame,
    gathered_order,
    played_through,
    seat_strategy,
    session_generator,
)

R25 = {"LM": 20, "GM": 40, "LS": 80, "GS": 160}
SEATS = "NESW"
STRATEGIES = (LengthBidder(), MisereBidder())


def _config(**kw):
    base = {"sessions": 6, "seed": 11, "strategies": tuple(s.name for s in STRATEGIES),
            "chunk": 6}
    return SessionConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def rows():
    frame, _ = chunk_frame(_config(), STRATEGIES, 0)
    return frame


@pytest.fixture(scope="module")
def cut_rows():
    config = _config(sessions=2, chunk=2, deal_model="cut-only", concede="never")
    frame, _ = chunk_frame(config, STRATEGIES, 0)
    return frame


def _pools(row) -> Fraction:
    return Fraction(int(row.pool_full) * 250 + int(row.pool_partial))


def _balances(row) -> list:
    return [Fraction(getattr(row, f"balance_{s}")) for s in SEATS]


def test_rows_cover_every_session_rotation_and_hand(rows):
    assert len(rows) == 6 * 2 * HANDS
    counts = rows.groupby(["session", "rotation"])["hand"].apply(list)
    assert all(hands == list(range(1, HANDS + 1)) for hands in counts)
    assert set(rows["contract"]) >= {"partout", "5"}


def test_sum_of_balances_and_pools_is_4000_after_every_hand_r8(rows, cut_rows):
    for frame in (rows, cut_rows):
        for row in frame.itertuples():
            assert sum(_balances(row)) + _pools(row) == 4000, (row.session, row.hand)


def test_pools_are_divided_after_hand_12_r31(rows):
    last = rows[rows["hand"] == HANDS]
    assert (last["pool_full"] == 0).all() and (last["pool_partial"] == 0).all()
    assert (last["pool_split"] > 0).all()  # a pool always exists before the split (R30)


def test_dealer_passes_left_each_hand_r5(rows):
    for _, one in rows.groupby(["session", "rotation"]):
        dealers = one["dealer"].to_numpy()
        assert ((dealers[1:] - dealers[:-1]) % 4 == 1).all()
        assert (np.bincount(dealers, minlength=4) == 3).all()  # R31: each deals three times


def test_rotation_seats_every_strategy_in_every_seat_once():
    for k in (1, 2, 3, 4):
        for seat in range(4):
            assert sorted(seat_strategy(seat, r, k) for r in range(k)) == list(range(k))
        slots = [seat_strategy(s, r, k) for r in range(k) for s in range(4)]
        assert all(slots.count(i) == 4 for i in range(k))  # four slots, one per seat


def test_rotations_replay_the_same_cards_r3_r6(rows):
    for _, one in rows.groupby(["session", "hand"]):
        assert one["dealer"].nunique() == 1 and one["turned_card"].nunique() == 1
    names = rows[[f"strategy_{s}" for s in SEATS]]
    first = rows[rows["rotation"] == 0].iloc[0]
    assert [first[f"strategy_{s}"] for s in SEATS] == ["length", "misere", "length", "misere"]
    assert set(names.to_numpy().ravel()) == {"length", "misere"}


def _replay_deals(config, session):
    """The 12 deals of a session under the random model, drawn again from its stream."""
    rng = session_generator(config.seed, session)
    first = int(rng.integers(4))
    decks = Decks("random", rng)
    return [decks.next_hand(h, (first + h - 1) % 4) for h in range(1, HANDS + 1)]


def test_played_contracts_match_the_solver_on_the_actual_deal_r18_r21(rows):
    config = _config()
    checked = 0
    for session in range(2):
        deals = _replay_deals(config, session)
        for row in rows[(rows["session"] == session) & (rows["declarer"] >= 0)].itertuples():
            deal, turned = deals[row.hand - 1]
            assert turned == row.turned_card
            leader = (row.dealer + 1) % 4  # R18
            if is_numeric(row.contract):
                assert row.tricks == solver.dd_tricks(deal, row.declarer, row.trump, leader)
                assert row.made == (row.tricks >= tricks_needed(row.contract))
            elif is_little(row.contract):
                assert row.made == solver.dd_little_misere(deal, row.declarer, leader)
            else:
                assert row.made == solver.dd_misere(deal, row.declarer, leader)
            checked += 1
    assert checked > 5


def _reference_session(hands):
    """Balances and pools after each hand, computed from R7, R24-R31 directly."""
    balances = [Fraction(990)] * 4
    pool = Fraction(40)
    states = []
    for row in hands.itertuples():
        if row.declarer < 0:  # R26
            t = list(row.partout_tricks)
            h = max(t)
            leaders = [s for s in range(4) if t[s] == h]
            for lead in leaders:
                for s in range(4):
                    if t[s] != h:
                        amount = Fraction(10 * (h - t[s]), len(leaders))
                        balances[lead] -= amount
                        balances[s] += amount
        else:
            d = row.declarer
            if is_numeric(row.contract):
                n = int(row.contract)
                made = row.tricks >= n
                per = R24_MADE[n] if made else R24_FAILED[n][n - row.tricks - 1]
            else:
                made = bool(row.made)
                per = R25[row.contract]
            sign = 1 if made else -1
            for s in range(4):
                balances[s] += sign * (3 * per if s == d else -per)
            active = min(pool, Fraction(250))
            if made and not row.conceded:  # R28
                balances[d] += active
                pool -= active
            elif not made:  # R29
                balances[d] -= active
                pool += active
            if pool == 0:  # R30: re-ante
                balances = [b - 10 for b in balances]
                pool = Fraction(40)
        if row.hand == HANDS:  # R31
            balances = [b + pool / 4 for b in balances]
            pool = Fraction(0)
        states.append((list(balances), pool))
    return states


def test_sessions_replayed_through_a_reference_ledger_give_the_same_balances_r24_r31(
        rows, cut_rows):
    for frame in (rows, cut_rows):
        for _, one in frame.groupby(["session", "rotation"]):
            for row, (balances, pool) in zip(one.itertuples(), _reference_session(one),
                                             strict=True):
                assert _balances(row) == balances, (row.session, row.rotation, row.hand)
                assert _pools(row) == pool


def test_partout_rows_hold_four_trick_counts_r14_r26(rows):
    partout = rows[rows["contract"] == "partout"]
    assert len(partout) > 0
    assert (partout["declarer"] == -1).all() and partout["made"].isna().all()
    assert all(sum(t) == 13 and len(t) == 4 for t in partout["partout_tricks"])
    assert rows.loc[rows["contract"] != "partout", "partout_tricks"].isna().all()
    for calls in partout["calls"]:
        assert calls == "pass pass pass pass"


def test_defenders_concede_made_fives_and_sixes_only_under_made_rule_r28(rows, cut_rows):
    low = rows[rows["contract"].isin(["5", "6"])]
    assert len(low) > 0
    assert (low["conceded"] == low["made"].astype(bool)).all()
    assert not rows.loc[~rows["contract"].isin(["5", "6"]), "conceded"].any()
    assert not cut_rows["conceded"].any()  # concede="never"


def test_all_passers_play_every_hand_as_partout_r14():
    config = SessionConfig(sessions=1, seed=2, strategies=("passer",))
    frame, _ = chunk_frame(config, [Passer()], 0)
    assert (frame["contract"] == "partout").all()
    last = frame.iloc[-1]
    assert sum(_balances(last)) == 4000 and last["pool_split"] == 40  # R26: pools unchanged


def test_an_illegal_call_is_one_user_error_naming_the_strategy():
    config = SessionConfig(sessions=1, seed=2, strategies=("illegal",))
    with pytest.raises(UserError, match="strategy 'illegal'.*call 1 '4'"):
        chunk_frame(config, [Illegal()], 0)


def test_cut_only_deals_hold_52_distinct_cards_in_packets_4_4_5_r4_r5():
    rng = session_generator(5, 0)
    decks = Decks("cut-only", rng)
    for hand in range(1, 7):
        dealer = hand % 4
        deal, turned = decks.next_hand(hand, dealer)
        order = [int(c) for c in decks.decks[(hand - 1) % 2]]
        assert sorted(order) == list(range(52))
        assert int(np.bitwise_or.reduce(deal)) == (1 << 52) - 1
        assert all(int(h).bit_count() == 13 for h in deal)
        # R5: packets of 4, 4, 5 clockwise from the dealer's left
        pos = 0
        for packet in (4, 4, 5):
            for k in range(1, 5):
                seat = (dealer + k) % 4
                for card in order[pos:pos + packet]:
                    assert int(deal[seat]) >> card & 1
                pos += packet
        assert turned == int(decks.decks[hand % 2][0])  # R6: top of the resting deck
        # a made 5 stopped after 5 tricks: its cards, then the rest from the dealer's left
        cards = order[:20]
        gathered = gathered_order(deal, cards, dealer)
        assert sorted(gathered.tolist()) == list(range(52))
        assert gathered[:20].tolist() == cards
        decks.gather(hand, gathered)


def test_gathered_order_appends_unplayed_cards_seat_by_seat_from_the_dealers_left_r4():
    deal = np.array([0b1111 << (13 * s) for s in range(4)], dtype=np.uint64)  # 4 cards each
    gathered = gathered_order(deal, [0, 13, 26, 39], dealer=2)
    # dealer 2 (S): W (3), N (0), E (1), S (2) in turn, each in card-id order
    assert gathered.tolist() == [0, 13, 26, 39, 40, 41, 42, 1, 2, 3, 14, 15, 16, 27, 28, 29]


def test_played_through_stops_as_r21_and_r28_say():
    winners = [0, 1, 0, 0, 2, 0, 0, 0, 1, 1, 1, 1, 1]
    assert played_through("5", True, True, winners, 0) == 1  # R28: conceded before trick 2
    assert played_through("5", True, False, winners, 0) == 7  # R21: the 5th trick won
    assert played_through("9", False, False, winners, 0) == 13  # R21: failed, played out
    assert played_through("GM", False, False, winners, 1) == 2  # R21: the first trick lost
    assert played_through("GM", True, False, winners, 3) == 13


def test_cut_only_sessions_deal_again_from_the_played_deck(cut_rows):
    # hand 1 deals one fresh deck and turns the other (R3, R4), so rotations agree on it;
    # from hand 2 on, a deck played in an earlier hand follows that table's own play
    for _, one in cut_rows[cut_rows["hand"] == 1].groupby("session"):
        assert one["turned_card"].nunique() == 1
    assert len(cut_rows) == 2 * 2 * HANDS


def test_session_config_refuses_bad_settings_with_one_line():
    for kw, match in (({"sessions": 0}, "sessions must be"),
                      ({"strategies": ()}, "1 to 4 strategies"),
                      ({"strategies": ("a", "b", "c", "d", "e")}, "1 to 4 strategies"),
                      ({"play": "fast"}, "play must be"),
                      ({"deal_model": "shuffle"}, "deal_model must be"),
                      ({"concede": "always"}, "concede must be")):
        with pytest.raises(UserError, match=match):
            _config(**kw)


def test_win_rates_count_the_highest_final_balance_ties_stand_r31():
    import pandas as pd

    from analyser.session_tables import win_rates

    def final(balances, names):
        row = {"hand": HANDS}
        row.update({f"balance_{s}": b for s, b in zip(SEATS, balances, strict=True)})
        row.update({f"strategy_{s}": n for s, n in zip(SEATS, names, strict=True)})
        return row

    frame = pd.DataFrame([
        final(["1100", "900", "1000", "1000"], ["a", "b", "a", "b"]),  # N (a) wins
        final(["3001/3", "3001/3", "2998/3", "1000"], ["b", "a", "b", "a"]),  # tie: N, E win
        {**final(["0", "0", "0", "0"], ["a", "a", "a", "a"]), "hand": 5},  # not a final row
    ])
    assert win_rates(frame, ["a", "b"]) == {"a": 2 / 4, "b": 1 / 4}


def test_cut_only_play_card_by_card_gives_the_double_dummy_tricks_r4_r21(cut_rows):
    config = _config(sessions=2, chunk=2, deal_model="cut-only", concede="never")
    checked = 0
    for session in range(2):
        rng = session_generator(config.seed, session)
        first = int(rng.integers(4))
        deal, turned = Decks("cut-only", rng).next_hand(1, first)  # hand 1: fresh decks
        for row in cut_rows[(cut_rows["session"] == session) & (cut_rows["hand"] == 1)
                            & (cut_rows["declarer"] >= 0)].itertuples():
            assert turned == row.turned_card
            leader = (row.dealer + 1) % 4
            if is_numeric(row.contract):
                assert row.tricks == solver.dd_tricks(deal, row.declarer, row.trump, leader)
                checked += 1
    assert checked >= 2


def test_memoised_legal_calls_equal_the_auctions_own_r11_r13():
    from analyser.auction import Auction
    from analyser.session import legal_now

    rng = np.random.default_rng(7)
    for _ in range(300):
        auction = Auction(int(rng.integers(4)))
        while not auction.finished:
            legal = auction.legal_calls()
            assert legal_now(auction) == legal
            # pass more often than not, so that passed players come back (R13)
            auction.call(legal[0] if rng.random() < 0.6 else legal[rng.integers(len(legal))])


def test_real_play_plays_the_contract_by_play_hand_with_the_hands_seed():
    from analyser.dealing import deal_random
    from analyser.play import play_hand
    from analyser.session import Table

    deal = deal_random(1, 8)[0]
    table = Table("real", "highest", need_cards=False)
    got = table.contract(deal, 2, "5", 1, 3, seed=99)
    record = play_hand(deal, 2, "5", 3, trump=1, policy="real", seed=99)
    assert (got.tricks, got.made, got.cards) == (record["declarer_tricks"], record["made"],
                                                 record["cards"])
    assert table.contract(deal, 2, "5", 1, 3, seed=99) is got  # memoised across rotations
