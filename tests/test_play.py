"""play_hand (analyser/play.py): legal play (R19), right winners (R20), outcomes (R21),
double-dummy play equal to the solvers, the "real" player equal to the reference PIMC,
and no peeking (API.md "Real play": the same information gives the same card)."""

import random

import numpy as np
import pytest
from conftest import sized
from reference_dd import dd_little_misere, dd_misere, dd_tricks, legal_cards, random_ending
from reference_dd import trick_winner as ref_trick_winner
from reference_pimc import _decide as reference_decide
from reference_pimc import card_values, consistent_worlds
from reference_pimc import play_hand as reference_play

import analyser
from analyser import play
from analyser.contracts import as_contract
from kernels.rng import root_key

CONTRACTS = [("5", 0), ("7", -1), ("9", 2), ("LM", None), ("GM", None), ("LS", None),
             ("GS", None)]
UNIFORM_EXACT = {"exact_below": 10**9, "bidding_model": "uniform"}
UNIFORM_EXACT_OPTIONS = dict(play.REAL_PLAY_DEFAULTS, **UNIFORM_EXACT)


def check_record(deal, declarer, contract, leader, trump, rec):
    """Replay a record with the reference rules: every card held and legal (R19), every
    winner right (R20), the discards from their owners' hands (R15), `made` as R21."""
    hands = [int(h) for h in deal]
    misere = contract in ("LM", "GM", "LS", "GS")
    trump = -1 if misere else trump
    if contract in ("LM", "LS"):
        assert rec["discards"] is not None and len(rec["discards"]) == 4
        for s, c in enumerate(rec["discards"]):
            assert hands[s] >> c & 1
            hands[s] &= ~(1 << c)
    else:
        assert rec["discards"] is None
    cards = rec["cards"]
    n_tricks = hands[0].bit_count()
    assert len(cards) == 4 * n_tricks and len(rec["trick_winners"]) == n_tricks
    taken = [0, 0, 0, 0]
    for t in range(n_tricks):
        trick = cards[4 * t:4 * t + 4]
        for pos, card in enumerate(trick):
            seat = (leader + pos) % 4
            led = trick[0] // 13 if pos else -1
            assert card in legal_cards(hands[seat], led)
            hands[seat] &= ~(1 << card)
        leader = ref_trick_winner(trick, leader, trump)
        assert rec["trick_winners"][t] == leader
        taken[leader] += 1
    assert rec["tricks"] == taken
    assert rec["declarer_tricks"] == taken[declarer]
    need = 0 if misere else int(contract)
    assert rec["made"] == (taken[declarer] == 0 if misere else taken[declarer] >= need)


def test_random_legal_plays_legally_on_full_deals():
    """R19/R20 on many random full deals, every contract kind."""
    deals = analyser.deal_random(sized(40, 400), seed=67)
    for i, deal in enumerate(deals):
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        declarer, leader = i % 4, (i // 4) % 4
        rec = analyser.play_hand(deal, declarer, contract, leader, trump=trump,
                                 policy="random-legal", seed=i)
        check_record(deal, declarer, contract, leader, trump, rec)


def test_dd_play_equals_the_solvers_on_endings():
    """Under "dd" the declarer takes dd_tricks; a misère is made exactly when dd_misere /
    dd_little_misere say so (R15, R17), checked against the pure-Python reference."""
    rng = random.Random(11)
    for i in range(sized(24, 120)):
        k = rng.randint(2, 4)
        deal = random_ending(rng, k, rng.choice([2, 3, 4]))
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        declarer, leader = rng.randrange(4), rng.randrange(4)
        rec = analyser.play_hand(np.array(deal, dtype=np.uint64), declarer, contract, leader,
                                 trump=trump, policy="dd")
        check_record(deal, declarer, contract, leader, trump, rec)
        if contract in ("LM", "LS"):
            assert rec["made"] == dd_little_misere(deal, declarer, leader)
        elif contract in ("GM", "GS"):
            assert rec["made"] == dd_misere(deal, declarer, leader)
        else:
            assert rec["declarer_tricks"] == dd_tricks(deal, declarer, trump, leader)


def test_dd_play_equals_the_solvers_on_full_deals():
    """On full deals too: dd_tricks, dd_misere and dd_little_misere (R17 discards)."""
    deals = analyser.deal_random(sized(2, 10), seed=670)
    for i, deal in enumerate(deals):
        declarer, leader, trump = i % 4, (i + 1) % 4, i % 4
        rec = analyser.play_hand(deal, declarer, "8", leader, trump=trump, policy="dd")
        check_record(deal, declarer, "8", leader, trump, rec)
        assert rec["declarer_tricks"] == analyser.dd_tricks(deal, declarer, trump, leader)
        for contract, solver in (("GM", analyser.dd_misere), ("LM", analyser.dd_little_misere)):
            rec = analyser.play_hand(deal, declarer, contract, leader, policy="dd")
            check_record(deal, declarer, contract, leader, None, rec)
            assert rec["made"] == solver(deal, declarer, leader)


def test_real_play_is_legal_on_full_deals():
    deals = analyser.deal_random(sized(3, 12), seed=671)
    for i, deal in enumerate(deals):
        contract, trump = (("GM", None), ("LS", None), ("9", 3))[i % 3]
        rec = analyser.play_hand(deal, 2, contract, 0, trump=trump, seed=i, worlds=2)
        check_record(deal, 2, contract, 0, trump, rec)


def test_real_play_equals_the_reference_pimc():
    """With every world enumerated and uniform weights, each card of the "real" player is
    the reference PIMC's (tests/reference_pimc.py), in every contract kind."""
    rng = random.Random(3)
    for i in range(sized(8, 70)):
        deal = random_ending(rng, 3, rng.choice([2, 3]))
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        declarer, leader = rng.randrange(4), rng.randrange(4)
        rec = analyser.play_hand(np.array(deal, dtype=np.uint64), declarer, contract, leader,
                                 trump=trump, policy="real", **UNIFORM_EXACT)
        cards, discards, winners = reference_play(deal, declarer, contract, leader, trump)
        assert rec["cards"] == cards, (deal, declarer, contract, leader, trump)
        assert rec["discards"] == discards
        assert rec["trick_winners"] == winners
        check_record(deal, declarer, contract, leader, trump, rec)


def test_real_declarer_plays_for_the_contract_not_for_tricks():
    """R21: the "real" player maximises the chance of making the contract (defenders of
    defeating it), then tricks; as the reference PIMC, with the contract part-way made so
    that the chance is not all or nothing, and sometimes it differs from most tricks."""
    rng = random.Random(30)
    key = root_key(0)
    differs = 0
    for _ in range(sized(60, 300)):
        deal = [int(h) for h in random_ending(rng, 2, rng.choice([2, 3]))]
        declarer, leader, trump = rng.randrange(4), rng.randrange(4), rng.randrange(-1, 4)
        taken = [0, 0, 0, 0]
        taken[declarer] = 7 - rng.randint(1, 2)  # 1 or 2 tricks still needed for a 7
        table = play._Hand(hands=list(deal), declarer=declarer, contract=as_contract("7"),
                           trump=trump, universe=sum(deal), discards=None, exposed=0,
                           history=[], winners=[], taken=list(taken))
        legal = deal[leader]
        got = play._real_card(table, leader, leader, (), legal, key, UNIFORM_EXACT_OPTIONS)
        want = reference_decide(deal, leader, declarer, False, trump, 7, sum(deal), None,
                                False, [], leader, (), taken, legal_cards(deal[leader], -1))
        assert got == want
        if not differs:  # playing for the most tricks (an unreachable bid) chooses otherwise
            by_tricks = reference_decide(deal, leader, declarer, False, trump, 99, sum(deal),
                                         None, False, [], leader, (), taken,
                                         legal_cards(deal[leader], -1))
            differs += got != by_tricks
    assert differs >= 1


def test_real_play_is_legal_with_sampled_worlds():
    """Sampled (not enumerated) worlds: legal play, right winners, for every kind."""
    rng = random.Random(8)
    for i in range(sized(14, 70)):
        deal = random_ending(rng, 4, rng.choice([2, 3, 4]))
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        declarer, leader = rng.randrange(4), rng.randrange(4)
        rec = analyser.play_hand(np.array(deal, dtype=np.uint64), declarer, contract, leader,
                                 trump=trump, policy="real", seed=i, exact_below=0, worlds=6)
        check_record(deal, declarer, contract, leader, trump, rec)


def _views(deal, rec, declarer, contract, leader):
    """(seat, hands before its card, trick so far, leader of the trick, history) of every
    decision of a record, replayed from the deal."""
    hands = [int(h) for h in deal]
    if rec["discards"]:
        hands = [h & ~(1 << rec["discards"][s]) for s, h in enumerate(hands)]
    out = []
    cards = rec["cards"]
    for t in range(len(cards) // 4):
        trick = ()
        for pos in range(4):
            seat = (leader + pos) % 4
            out.append((seat, tuple(hands), trick, leader, 4 * t + pos))
            hands[seat] &= ~(1 << cards[4 * t + pos])
            trick += (cards[4 * t + pos],)
        leader = rec["trick_winners"][t]
    return out


def test_real_card_has_the_dd_value_when_the_world_is_known():
    """Where what a player has seen leaves one world, its card has the double-dummy value."""
    rng = random.Random(21)
    checked = 0
    for i in range(sized(160, 800)):
        deal = random_ending(rng, 3, 2)
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        if contract in ("LM", "LS"):
            continue  # unknown discards keep more than one world
        declarer, leader = rng.randrange(4), rng.randrange(4)
        rec = analyser.play_hand(np.array(deal, dtype=np.uint64), declarer, contract, leader,
                                 trump=trump, policy="real", seed=i)
        misere = contract in ("GM", "GS")
        tr = -1 if misere else trump
        for seat, hands, trick, ld, n in _views(deal, rec, declarer, contract, leader):
            led = trick[0] // 13 if trick else -1
            if len(legal_cards(hands[seat], led)) == 1:
                continue
            history = list(zip(_seats(rec, leader)[:n], rec["cards"][:n], strict=True))
            if _world_count(deal, hands, seat, declarer, contract, history) != 1:
                continue
            values = card_values(hands, declarer, misere, tr, ld, trick)
            best = (max if seat == declarer else min)(values.values())
            assert values[rec["cards"][n]] == best
            checked += 1
    assert checked >= sized(4, 20)


def _seats(rec, leader):
    """Seat of every card of a record, in play order."""
    seats = []
    for winner in rec["trick_winners"]:
        seats += [(leader + p) % 4 for p in range(4)]
        leader = winner
    return seats


def _world_count(deal, hands, seat, declarer, contract, history):
    """Number of worlds consistent with `seat`'s view (the reference's enumeration)."""
    universe = sum(int(h) for h in deal)
    played = sum(1 << c for _, c in history)
    shown = contract in ("LS", "GS") and seat != declarer
    voids = [set() for _ in range(4)]
    for t in range(0, len(history) - len(history) % 4, 4):
        led = history[t][1] // 13
        for s, c in history[t:t + 4]:
            if c // 13 != led:
                voids[s].add(led)
    # voids shown in the current, unfinished trick count too
    partial = history[len(history) - len(history) % 4:]
    if partial:
        led = partial[0][1] // 13
        for s, c in partial:
            if c // 13 != led:
                voids[s].add(led)
    known = hands[seat] | (hands[declarer] if shown else 0)
    sizes = [0 if s == seat or (shown and s == declarer) else hands[s].bit_count()
             for s in range(4)]
    return len(consistent_worlds(universe & ~(played | known), sizes, voids, []))


# ------------------------------------------------------------------- no peeking

def _swap_hidden(deal, keep, rng):
    """A deal in which the seats of `keep` hold the same cards and the other seats' cards
    are dealt again at random among them (same sizes)."""
    deal = [int(h) for h in deal]
    others = [s for s in range(4) if s not in keep]
    pool = []
    for s in others:
        pool += [c for c in range(52) if deal[s] >> c & 1]
    rng.shuffle(pool)
    out = list(deal)
    i = 0
    for s in others:
        n = deal[s].bit_count()
        out[s] = sum(1 << c for c in pool[i:i + n])
        i += n
    return np.array(out, dtype=np.uint64)


@pytest.mark.parametrize("contract,trump,role", [
    ("7", 1, "declarer"), ("7", 1, "defender"), ("GM", None, "declarer"),
    ("GM", None, "defender"), ("LM", None, "declarer"), ("LM", None, "defender"),
    ("GS", None, "declarer"), ("GS", None, "defender"), ("LS", None, "defender"),
])
def test_no_peeking_first_and_second_hand(contract, trump, role):
    """Two deals that differ only in cards a player cannot see give it the same card, for
    the opening leader and the second hand (R16: in a spread the declarer's hand is seen,
    so it is kept too)."""
    rng = random.Random(hash((contract, role)) % 1000)
    for i in range(sized(5, 20)):
        deal = random_ending(rng, 4, 3)
        leader = rng.randrange(4)
        second = (leader + 1) % 4
        # the seat under test at the lead, then as second hand
        for seat, keep_extra in ((leader, ()), (second, (leader,))):
            declarer = seat if role == "declarer" else (seat + 1 + rng.randrange(3)) % 4
            keep = {seat, *keep_extra}
            if contract in ("GS", "LS") and seat != declarer:
                keep.add(declarer)  # R16: the exposed hand is seen
            if len(keep) > 2:
                continue  # nothing hidden left to change
            other = _swap_hidden(deal, keep, rng)
            pos = 0 if seat == leader else 1
            args = dict(trump=trump, seed=i, worlds=8, exact_below=40)
            a = analyser.play_hand(np.array(deal, dtype=np.uint64), declarer, contract, leader,
                                   policy="real", **args)
            b = analyser.play_hand(other, declarer, contract, leader, policy="real", **args)
            if pos == 1:
                assert a["cards"][0] == b["cards"][0]  # the leader saw the same too
            assert a["cards"][pos] == b["cards"][pos]
            if contract in ("LM", "LS"):
                assert a["discards"][seat] == b["discards"][seat]


def test_the_honesty_check_detects_a_peeking_player():
    """The double-dummy player sees every card, so some swap of hidden cards changes its
    opening lead: the check above can fail."""
    rng = random.Random(4)
    changed = 0
    for _ in range(30):
        deal = random_ending(rng, 4, 2)
        other = _swap_hidden(deal, {0}, rng)
        a = analyser.play_hand(np.array(deal, dtype=np.uint64), 0, "GM", 0, policy="dd")
        b = analyser.play_hand(other, 0, "GM", 0, policy="dd")
        changed += a["cards"][0] != b["cards"][0]
        if changed:
            break
    assert changed


def test_same_seed_same_play():
    rng = random.Random(2)
    deal = np.array(random_ending(rng, 4, 3), dtype=np.uint64)
    for contract, trump in CONTRACTS:
        a = analyser.play_hand(deal, 1, contract, 0, trump=trump, seed=5, exact_below=0)
        b = analyser.play_hand(deal, 1, contract, 0, trump=trump, seed=5, exact_below=0)
        assert a == b


# ------------------------------------------------------------------- bidding model

def test_danger_weights_favour_safe_misere_hands():
    """A defender against a misère weights worlds by the declarer's hand: a safe hand
    (low cards) weighs more than one with a bare ace (docs/real_play.md)."""
    table = play._Hand(hands=[0, 0, 0, 0], declarer=1, contract=as_contract("GM"), trump=-1,
                       universe=0, discards=None, exposed=0, history=[], winners=[],
                       taken=[0, 0, 0, 0])
    worlds = np.zeros((2, 8), dtype=np.uint64)
    worlds[0, 1] = (1 << 0) | (1 << 2)  # 2-4 of spades: danger 0
    worlds[1, 1] = (1 << 12) | (1 << 0)  # A-2 of spades: the ace costs 12 - 2 - 1 = 9
    opts = dict(play.REAL_PLAY_DEFAULTS)
    w = play._world_weights(worlds, table, 0, opts)
    assert w[0] == 1.0 and w[1] == pytest.approx(np.exp(-9 / opts["danger_scale"]))
    assert list(play._world_weights(worlds, table, 1, opts)) == [1.0, 1.0]  # declarer's own
    opts["bidding_model"] = "uniform"
    assert list(play._world_weights(worlds, table, 0, opts)) == [1.0, 1.0]


def test_the_bidding_model_steers_defenders_only():
    """Danger weights change some defender's opening lead against a grand misère (the
    declarer bid it, so it is unlikely to hold a dangerous hand), never the declarer's.
    Both models draw the same worlds (same seed): only the weights differ."""
    rng = random.Random(12)
    defender_changed = 0
    for _ in range(sized(30, 120)):
        deal = np.array(random_ending(rng, 4, 2), dtype=np.uint64)
        declarer = rng.randrange(4)
        defender = (declarer + 1 + rng.randrange(3)) % 4
        for leader in (declarer, defender):
            cards = [analyser.play_hand(deal, declarer, "GM", leader, exact_below=0, worlds=16,
                                        agree_stop=0, bidding_model=model)["cards"][0]
                     for model in ("danger", "uniform")]
            if leader == declarer:
                assert cards[0] == cards[1]
            else:
                defender_changed += cards[0] != cards[1]
    assert defender_changed >= 1


def test_auction_weights_favour_declarer_hands_that_make_the_number():
    """R10, R18: against a number, the "auction" model weights a world by the shipped
    estimate's P(the declarer's whole hand takes the contract's tricks in its trump), at
    the declarer's position from the first leader; "danger" leaves numbers uniform."""
    from analyser.cards import parse_hand
    from analyser.estimate import default_estimate

    table = play._Hand(hands=[0, 0, 0, 0], declarer=2, contract=as_contract("8"), trump=0,
                       universe=0, discards=None, exposed=0, history=[], winners=[],
                       taken=[0, 0, 0, 0], leader=1)
    strong, weak = parse_hand("AKQJT98.A2.K3.32"), parse_hand("5432.5432.432.32")
    worlds = np.zeros((2, 8), dtype=np.uint64)
    worlds[0, 2], worlds[1, 2] = strong, weak
    opts = dict(play.REAL_PLAY_DEFAULTS, bidding_model="auction")
    w = play._world_weights(worlds, table, 3, opts)
    expected = default_estimate().at_least(np.array([strong, weak], np.uint64), [1, 1])
    assert list(w) == list(expected[:, 0, 7]) and w[0] > 100 * w[1]
    assert list(play._world_weights(worlds, table, 2, opts)) == [1.0, 1.0]  # declarer's own
    for model in ("danger", "uniform"):
        opts["bidding_model"] = model
        assert list(play._world_weights(worlds, table, 3, opts)) == [1.0, 1.0]


def test_the_auction_model_changes_a_defenders_lead_against_a_number():
    """Random deal 6 of seed 5: South (declarer's left) leads against East's 5 in spades
    (its best double-dummy strain); weighting worlds by the bid ("auction") makes it lead
    another card than uniform numbers ("danger") from the same worlds (same seed)."""
    deal = analyser.deal_random(7, 5)[6]
    table = analyser.dd_table(np.asarray(deal, np.uint64)[None, :], 0)[0]
    assert int(np.argmax(table)) == 4 and table[1, 0] == 4  # East, spades
    leads = [play._real_card(play._Hand(
        hands=[int(h) for h in deal], declarer=1, contract=as_contract("5"), trump=0,
        universe=int(np.bitwise_or.reduce(deal)), discards=None, exposed=0, history=[],
        winners=[], taken=[0, 0, 0, 0], leader=2), 2, 2, (), int(deal[2]), root_key(6),
        dict(play.REAL_PLAY_DEFAULTS, bidding_model=model)) for model in ("danger", "auction")]
    assert leads[0] != leads[1]


# ------------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs,field", [
    (dict(contract="7"), "trump"),
    (dict(contract="GM", trump=2), "trump"),
    (dict(contract="8½"), "contract"),
    (dict(declarer=4), "declarer"),
    (dict(leader="X"), "leader"),
    (dict(policy="psychic"), "policy"),
    (dict(worlds=0), "worlds"),
    (dict(bidding_model="telepathy"), "bidding_model"),
    (dict(speed=3), "options"),
    (dict(seed=-1), "seed"),
    (dict(deal=np.array([1, 2, 4, 24], dtype=np.uint64)), "deal"),
    (dict(deal=np.array([1, 2, 4], dtype=np.uint64)), "deal"),
    (dict(deal=np.array([1, 1, 4, 8], dtype=np.uint64)), "deal"),
])
def test_bad_input_names_the_field(kwargs, field):
    args = dict(deal=np.array([1, 2, 4, 8], dtype=np.uint64), declarer=0, contract="GM",
                leader=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=f"^{field}"):
        analyser.play_hand(**args)


def test_defenders_may_play_another_policy():
    """A real declarer against double-dummy defenders (the strength table's pairing): the
    same seed gives the same hand, every card is legal (R19), and with the declarer under
    "dd" too the result equals the all-"dd" play, discards included (R17)."""
    deals = analyser.deal_random(sized(2, 6), seed=11)
    for i, deal in enumerate(deals):
        for contract, trump in (("LM", None), ("8", i % 4)):
            mixed = analyser.play_hand(deal, i % 4, contract, 0, trump=trump, seed=i,
                                       defenders="dd", worlds=4)
            assert mixed == analyser.play_hand(deal, i % 4, contract, 0, trump=trump, seed=i,
                                               defenders="dd", worlds=4)
            check_record(deal, i % 4, contract, 0, trump, mixed)
            _check_defenders_play_dd(deal, i % 4, contract, trump, mixed)
            same = analyser.play_hand(deal, i % 4, contract, 0, trump=trump, policy="dd",
                                      defenders="dd")
            assert same == analyser.play_hand(deal, i % 4, contract, 0, trump=trump,
                                              policy="dd")


def _check_defenders_play_dd(deal, declarer, contract, trump, rec):
    """Every defender's card (until a misère is lost) has the defenders' best double-dummy
    value in the true position (analyser.dd_scores)."""
    hands = [int(h) for h in deal]
    misere = contract in ("LM", "GM", "LS", "GS")
    goal = "misere" if misere else trump
    if rec["discards"]:
        hands = [h & ~(1 << c) for h, c in zip(hands, rec["discards"], strict=True)]
    leader, cards = 0, rec["cards"]
    for t in range(len(cards) // 4):
        trick = cards[4 * t:4 * t + 4]
        for pos, card in enumerate(trick):
            seat = (leader + pos) % 4
            lost = misere and rec["trick_winners"][:t].count(declarer) > 0
            if seat != declarer and not lost:
                scores = analyser.dd_scores(hands, declarer, goal, leader, trick[:pos])
                assert scores[card] == min(scores.values())
            hands[seat] &= ~(1 << card)
        leader = rec["trick_winners"][t]


def test_random_defenders_against_a_real_declarer_are_legal():
    deal = analyser.deal_random(1, 12)[0]
    rec = analyser.play_hand(deal, 1, "GM", 0, seed=3, defenders="random-legal", worlds=4)
    check_record(deal, 1, "GM", 0, None, rec)


def test_defenders_policy_is_checked():
    with pytest.raises(ValueError, match="defenders"):
        analyser.play_hand(analyser.deal_random(1, 1)[0], 0, "LM", 0, defenders="peek")


def test_search_budget_leaves_worlds_out_but_plays_legally():
    """With a one-node search budget every world's search gives up: the real player falls
    back on its rule card, still legal (R19, R20); without a budget nothing is given up."""
    deal = analyser.deal_random(1, 21)[0]
    for contract, trump in (("GM", None), ("7", 1)):
        starved = analyser.play_hand(deal, 2, contract, 0, trump=trump, seed=1, worlds=4,
                                     search_nodes=1)
        check_record(deal, 2, contract, 0, trump, starved)
        assert starved["given_up"] > 0
        free = analyser.play_hand(deal, 2, contract, 0, trump=trump, seed=1, worlds=4,
                                  search_nodes=0)
        check_record(deal, 2, contract, 0, trump, free)
        assert free["given_up"] == 0


def test_fewer_worlds_in_the_first_tricks():
    opts = dict(play.REAL_PLAY_DEFAULTS, worlds=32, early_worlds=6, early_tricks=2)
    assert [play._world_count(d, opts) for d in (0, 7, 8, 30)] == [6, 6, 32, 32]
    assert play._world_count(0, dict(opts, early_tricks=0)) == 32


def test_budgeted_play_does_not_depend_on_earlier_searches():
    """Node-limited searches cut where the table's contents say, so each hand plays on a
    table of its own: the same deal and seed give the same record, given-up worlds
    included, whatever was searched before in the process."""
    deal = analyser.deal_random(1, 23)[0]
    kwargs = dict(trump=None, seed=4, worlds=6, search_nodes=1000)
    first = analyser.play_hand(deal, 1, "GM", 0, **kwargs)
    assert first["given_up"] > 0  # the budget does cut here
    for other in analyser.deal_random(3, 24):
        analyser.dd_scores([int(h) for h in other], 1, "misere", 0)
        analyser.play_hand(other, 1, "GM", 0, **kwargs)
    assert analyser.play_hand(deal, 1, "GM", 0, **kwargs) == first
