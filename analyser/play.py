"""Playing one hand to its end under a play policy (API.md "Real play"; R15-R21).

Three policies:
- "random-legal": a uniformly random legal card (R19) from the seed's stream.
- "dd": every player sees every card and plays a card of the best double-dummy value for
  its side, so the declarer takes exactly `dd_tricks` (numbers) and a misère is made
  exactly when `dd_misere` / `dd_little_misere` says so.
- "real": Perfect Information Monte Carlo (after BEN, STYLE.md). A player sees only its
  own hand, the cards played (and the voids they reveal), the contract, its own
  little-misère discard and, in a spread, the declarer's exposed hand (R16). At each
  decision it draws worlds (the hidden cards dealt consistently with all that,
  kernels/worlds.py: exactly uniform, or every world when there are few), weights them by
  the bidding model, scores every legal card in each world double-dummy and plays the card
  with the best weighted chance of making (declarer) or defeating (defenders) the
  contract, then the best expected tricks. docs/real_play.md describes the model.

Every double-dummy value goes through the scoring seam: `_score_cards` (one position,
analyser.dd_scores) and `_score_worlds` (every world of one decision, dd_scores_batch).
"""

import math
from dataclasses import dataclass

import numpy as np

from analyser.cards import CardError, parse_deal, parse_seat, parse_suit
from analyser.contracts import as_contract
from analyser.features import holding_danger
from analyser.solver import check_deal, dd_misere, dd_scores, dd_scores_batch, private_tables
from kernels import worlds as _worlds
from kernels.dd.scores import UNKNOWN as _UNKNOWN
from kernels.policies import random_legal_card
from kernels.rng import STATE_WORDS, root_key, stream_state

__all__ = ["play_hand", "PLAY_POLICIES", "REAL_PLAY_DEFAULTS", "BIDDING_MODELS"]

PLAY_POLICIES = ("real", "dd", "random-legal")
BIDDING_MODELS = ("danger", "auction", "uniform")

# Settings of the "real" player, as data (after BEN's default.conf); each is a keyword
# option of play_hand.
REAL_PLAY_DEFAULTS = {
    "worlds": 32,  # worlds sampled per decision when they are too many to enumerate
    "early_worlds": 16,  # ... at most this many in the first `early_tricks` tricks, whose
    "early_tricks": 2,  # full-size searches cost the most (0: no such limit)
    "exact_below": 64,  # enumerate every world when there are at most this many
    "agree_stop": 8,  # stop sampling after this many worlds if one card is best in all (0: never)
    "bidding_model": "danger",  # weights of worlds by the auction: "danger", "auction", "uniform"
    "danger_scale": 4.0,  # "danger": a declarer's misère hand of danger d weighs exp(-d / scale)
    "search_nodes": 50_000,  # nodes per double-dummy search; a world needing more is left out
}

_SUIT = 0x1FFF
_DISCARD_STREAM = 52  # RNG stream of seat s's discard: 52 + s; card number i uses stream i


@dataclass
class _Hand:
    """One hand being played: the public record plus every seat's cards (the table)."""

    hands: list  # remaining cards by seat
    declarer: int
    contract: object  # analyser.contracts.Contract
    trump: int  # -1 for no trump (always for misères, R20)
    universe: int  # every card in play at the start (the discards included)
    discards: list | None  # by seat, little misère only (R15)
    exposed: int  # the spread hand laid face up (R16), 0 when none
    history: list  # (seat, card) in play order
    winners: list  # seat per completed trick
    taken: list  # tricks by seat
    given_up: int = 0  # worlds left out of real-play decisions (a search over its budget)
    leader: int = 0  # the seat that led to trick 1 (R18)

    @property
    def misere(self) -> bool:
        return self.contract.is_misere

    @property
    def goal(self):
        """The double-dummy goal: the trump (numbers) or "misere" (R15)."""
        return "misere" if self.misere else self.trump

    @property
    def misere_lost(self) -> bool:
        return self.misere and self.taken[self.declarer] > 0


# ---------------------------------------------------------------------------- scoring seam

def _score_cards(hands, declarer, goal, leader, trick=()):
    """Double-dummy value of each legal card of the player to move in one position:
    {card: value} (analyser.dd_scores; API.md "Searches for real play"). `hands` the four
    remaining hands, `trick` the cards already played to the current trick from `leader`;
    value: for a numeric `goal` (the trump, -1 none) the most tricks the declarer can
    still be sure to take, this trick included; for "misere" whether it can still be
    sure to take none."""
    return dd_scores(hands, declarer, goal, leader, trick)


def _score_worlds(world_hands, declarer, goal, leader, trick, node_limit=None, cap=None):
    """`_score_cards` over the worlds of one decision: (n, 52) values indexed by card id
    (misère: 1 still sure to take none, 0 not), -1 for cards that may not be played, -2
    (UNKNOWN) for cards whose search ran over `node_limit` nodes; numeric values at most
    `cap` (analyser.dd_scores_batch: one transposition table serves every world)."""
    return dd_scores_batch(world_hands, declarer, goal, leader, trick, node_limit, cap)


# ---------------------------------------------------------------------------- card helpers

def _cards(mask):
    """Card ids of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _legal(hand, trick):
    """Legal cards of `hand` on the trick so far (R19)."""
    if trick:
        follow = hand & (_SUIT << (13 * (trick[0] // 13)))
        if follow:
            return follow
    return hand


def _trick_winner(trick, leader, trump):
    """Seat winning a complete trick (R20)."""
    best = 0
    for pos in range(1, 4):
        card, top = trick[pos], trick[best]
        # the winning card so far is of the suit led or a trump: a higher card of its
        # suit beats it, and so does the first trump onto a card of the suit led
        if (card // 13 == top // 13 and card > top) or (card // 13 == trump != top // 13):
            best = pos
    return (leader + best) % 4


def _highest(hand):
    """The highest-ranked card, ties broken by suit order S H D C (R17 "highest")."""
    return max(_cards(hand), key=lambda c: (c % 13, -(c // 13)))


def _lowest(hand):
    """The lowest-ranked card, ties broken by suit order S H D C."""
    return min(_cards(hand), key=lambda c: (c % 13, c // 13))


def _danger(hand):
    """Misère danger of a hand (analyser/features.py): the sum over its suits."""
    return sum(holding_danger(hand >> (13 * s) & _SUIT) for s in range(4))


def _most_dangerous(hand):
    """The card whose discard leaves the least misère danger; ties: the highest (R17 order)."""
    return min(_cards(hand), key=lambda c: (_danger(hand & ~(1 << c)), -(c % 13), c // 13))


def _stream(seed_key, stream):
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    stream_state(seed_key, stream, state)
    return state


# ---------------------------------------------------------------------------- policies

def _dd_card(table: _Hand, seat, leader, trick):
    """The card of best double-dummy value for `seat`'s side; ties: the lowest card id."""
    scores = _score_cards(table.hands, table.declarer, table.goal, leader, trick)
    pick = max if seat == table.declarer else min
    best = pick(scores.values())
    return min(c for c, v in scores.items() if v == best)


def _dd_declarer_discard(hands, declarer, leader):
    """R17: a discard after which the declarer can be sure to take no trick, if one exists."""
    for card in _cards(hands[declarer]):
        rest = list(hands)
        rest[declarer] &= ~(1 << card)
        if rest[declarer] == 0 or dd_misere(np.array(rest, dtype=np.uint64), declarer, leader):
            return card
    return _highest(hands[declarer])


def _equivalence_classes(hand, legal, gone):
    """Legal cards grouped by double-dummy equivalence as `hand`'s owner sees it: cards of
    one suit with only its own cards or cards of completed tricks (`gone`) between them.
    Lowest first."""
    classes = []
    for card in _cards(legal):
        if classes:
            last = classes[-1][-1]
            between = ((1 << card) - 1) & ~((1 << (last + 1)) - 1)
            if card // 13 == last // 13 and between & ~(hand | gone) == 0:
                classes[-1].append(card)
                continue
        classes.append([card])
    return classes


def _view(table: _Hand, seat):
    """What `seat` knows of the other hands: (hidden mask, need (8,), void (8,), known
    hands by seat). Voids: a seat that did not follow is void in the suit led (R19)."""
    played = 0
    void = np.zeros(_worlds.N_SLOTS, dtype=np.int64)
    for t in range(0, len(table.history), 4):
        trick = table.history[t:t + 4]
        led = trick[0][1] // 13
        for s, card in trick:
            played |= 1 << card
            if card // 13 != led:
                void[s] |= 1 << led
    known = [0, 0, 0, 0]
    known[seat] = table.hands[seat]
    spread_shown = table.exposed and seat != table.declarer
    if spread_shown:
        known[table.declarer] = table.hands[table.declarer]
    own_discard = (1 << table.discards[seat]) if table.discards else 0
    hidden = table.universe & ~(played | own_discard | known[0] | known[1] | known[2] | known[3])
    need = np.zeros(_worlds.N_SLOTS, dtype=np.int64)
    for s in range(4):
        if s == seat:
            continue
        if table.discards:
            need[_worlds.DISCARD_SLOT + s] = 1  # unknown to all but its owner (R17)
        if not (spread_shown and s == table.declarer):
            need[s] = table.hands[s].bit_count()
    return hidden, need, void, known


def _world_count(decision, options):
    """Worlds to sample at decision number `decision` (cards played so far, discards not
    counted): fewer in the first tricks (REAL_PLAY_DEFAULTS)."""
    if decision < 4 * options["early_tricks"]:
        return max(1, min(options["worlds"], options["early_worlds"]))
    return options["worlds"]


def _world_weights(worlds, table: _Hand, seat, options):
    """Bidding-model weight of each world (docs/real_play.md) for a defender: uniform, or
    a function of the declarer's whole hand in that world: against a misère ("danger" and
    "auction") exp(-danger / scale); against a number ("auction") the shipped estimate's
    P(that hand takes the contract's tricks in its trump), the chance a bidder holding it
    would have made the bid."""
    n = worlds.shape[0]
    d = table.declarer
    model = options["bidding_model"]
    if model == "uniform" or seat == d or not (table.misere or model == "auction") or (
            not table.misere and table.trump < 0):  # the estimate has no no-trump model
        return np.ones(n)
    played_by_d = sum(1 << c for s, c in table.history if s == d)
    shown = table.hands[d] if table.exposed else 0
    whole = worlds[:, d] | np.uint64(shown | played_by_d)
    if table.misere:
        whole = whole | worlds[:, _worlds.DISCARD_SLOT + d]
        scale = options["danger_scale"]
        return np.array([math.exp(-_danger(int(h)) / scale) for h in whole])
    from analyser.estimate import default_estimate
    position = (d - table.leader) % 4
    at_least = default_estimate().at_least(whole, np.full(n, position))
    return at_least[:, table.trump, table.contract.tricks_needed - 1]


def _real_card(table: _Hand, seat, leader, trick, legal, seed_key, options):
    """The PIMC choice of `seat` from its own view (module docstring)."""
    done = len(table.history) - len(trick)  # cards of completed tricks (the trick's still count)
    gone = sum(1 << c for _, c in table.history[:done])
    classes = _equivalence_classes(table.hands[seat], legal, gone)
    if len(classes) == 1:
        return classes[0][0]  # forced, or every legal card equivalent in every world
    hidden, need, void, known = _view(table, seat)
    decision = len(table.history)
    ws, enumerated = _worlds.draw_worlds(np.uint64(hidden), need, void, options["exact_below"],
                                         _world_count(decision, options),
                                         _stream(seed_key, decision))
    weights = _world_weights(ws, table, seat, options)
    candidates = [c[0] for c in classes]
    side = 1 if seat == table.declarer else -1
    world_hands = np.empty((ws.shape[0], 4), dtype=np.uint64)
    for s in range(4):
        world_hands[:, s] = ws[:, s] | np.uint64(known[s])  # a known hand has no slot cards
    # numbers: no value above the tricks still needed matters (extra tricks pay nothing, R21)
    cap = None if table.misere else max(
        0, table.contract.tricks_needed - table.taken[table.declarer])
    args = (table.declarer, table.goal, leader, trick, options["search_nodes"] or None, cap)
    stop = 0 if enumerated else options["agree_stop"]
    if 0 < stop < ws.shape[0]:
        values = _score_worlds(world_hands[:stop], *args)[:, candidates]
        known = np.all(values != _UNKNOWN, axis=1)
        success, tricks = _outcomes(table, values[known])
        if not (known.any() and _one_card_best(success, tricks, side)):
            more = _score_worlds(world_hands[stop:], *args)[:, candidates]
            values = np.concatenate([values, more])
    else:
        values = _score_worlds(world_hands, *args)[:, candidates]
    # a world some card's search gave up on is left out: every card is compared on the
    # same worlds
    known = np.all(values != _UNKNOWN, axis=1)
    table.given_up += int(values.shape[0] - known.sum())
    if not known.any():
        return _fallback_card(table, seat, leader, trick, legal)
    success, tricks = _outcomes(table, values[known])
    # weighted totals, not averages, each exactly rounded (fsum): with uniform weights they
    # are exact integers, so cards of equal value tie exactly and the lowest id is played
    w = weights[:values.shape[0]][known]
    chance = [side * math.fsum(w * success[:, j]) for j in range(len(candidates))]
    expected = [side * math.fsum(w * tricks[:, j]) for j in range(len(candidates))]
    best = max(range(len(candidates)), key=lambda j: (chance[j], expected[j], -candidates[j]))
    return candidates[best]


def _fallback_card(table: _Hand, seat, leader, trick, legal):
    """A card by rule when every world of a decision was left out (rare: their searches
    all ran over budget). A misère declarer plays its highest card that stays below the
    trick's winning card (its highest card when it cannot follow, R19), else its lowest;
    everyone else plays its lowest card."""
    if not (table.misere and seat == table.declarer):
        return _lowest(legal)
    if not trick:
        return _lowest(legal)
    led = trick[0] // 13
    top = max(c for c in trick if c // 13 == led)
    if legal >> (13 * led) & _SUIT == 0:
        return _highest(legal)
    below = [c for c in _cards(legal) if c < top]
    return max(below) if below else _lowest(legal)


def _outcomes(table: _Hand, values):
    """(success, tricks) float arrays from card values (worlds x candidates): success is
    the contract made (numbers: tricks so far plus the value reach the bid, R21; misères:
    still sure to take none), tricks the declarer's value (0 in misères)."""
    if table.misere:
        return values.astype(float), np.zeros(values.shape)
    need_tricks = table.contract.tricks_needed - table.taken[table.declarer]
    return (values >= need_tricks).astype(float), values.astype(float)


def _one_card_best(success, tricks, side):
    """Whether some card is best for the side (success, then tricks) in every world."""
    key = side * (success * 64 + tricks)
    return bool(np.all(key == key.max(axis=1, keepdims=True), axis=0).any())


def _real_discard(hand, seat, declarer):
    """Little misère discard from the player's own hand (R15, R17 real play): the declarer
    its most dangerous card, a defender its highest."""
    return _most_dangerous(hand) if seat == declarer else _highest(hand)


# ---------------------------------------------------------------------------- input

def _check_deal(deal):
    if isinstance(deal, str):
        try:
            deal = parse_deal(deal)
        except CardError as err:
            raise ValueError(f"deal: {err}") from None
    return [int(h) for h in check_deal(deal)]


def _check_seat(value, field):
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{field}: {value!r} is not a seat")
    try:
        return parse_seat(value)
    except CardError as err:
        raise ValueError(f"{field}: {err}") from None


def _check_options(options):
    unknown = sorted(set(options) - set(REAL_PLAY_DEFAULTS))
    if unknown:
        raise ValueError(f"options: unknown option {unknown[0]!r} "
                         f"(known: {', '.join(REAL_PLAY_DEFAULTS)})")
    out = dict(REAL_PLAY_DEFAULTS, **options)
    for name in ("worlds", "early_worlds", "early_tricks", "exact_below", "agree_stop",
                 "search_nodes"):
        value = out[name]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name}: {value!r} is not a whole number")
    if out["worlds"] < 1:
        raise ValueError("worlds: at least one world is needed")
    if out["bidding_model"] not in BIDDING_MODELS:
        raise ValueError(f"bidding_model: {out['bidding_model']!r} is not one of "
                         f"{', '.join(BIDDING_MODELS)}")
    scale = out["danger_scale"]
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
        raise ValueError(f"danger_scale: {scale!r} is not a positive number")
    return out


def _check_trump(trump, contract):
    if contract.is_misere:
        if trump is not None and parse_suit(trump) != -1:
            raise ValueError(f"trump: {contract.name} is played without trump (R20)")
        return -1
    if trump is None:
        raise ValueError(f"trump: contract {contract.name} needs its trump (0..3 or -1)")
    try:
        return parse_suit(trump)
    except CardError as err:
        raise ValueError(f"trump: {err}") from None


# ---------------------------------------------------------------------------- the hand

def play_hand(deal, declarer, contract, leader, trump=None, policy="real", seed=0,
              defenders=None, **options):
    """Play one hand to its end (API.md "Real play"); returns the record as a dict.

    `policy` is every player's policy, or the declarer's when `defenders` names another
    one for the three defenders (e.g. a real declarer against double-dummy defenders, to
    measure the real player's strength). `options` are the "real" player's settings,
    REAL_PLAY_DEFAULTS (the others ignore them). Every trick is played out, a misère's
    after the declarer's first trick too: from then on the outcome is settled and every
    player plays its lowest legal card (random-legal players stay random). `made` follows R21.
    """
    hands = _check_deal(deal)
    d = _check_seat(declarer, "declarer")
    ld = _check_seat(leader, "leader")
    try:
        c = as_contract(contract)
    except ValueError as err:
        raise ValueError(str(err)) from None
    tr = _check_trump(trump, c)
    if defenders is None:
        defenders = policy
    for name, value in (("policy", policy), ("defenders", defenders)):
        if value not in PLAY_POLICIES:
            raise ValueError(f"{name}: {value!r} is not one of {', '.join(PLAY_POLICIES)}")
    policies = [policy if s == d else defenders for s in range(4)]
    opts = _check_options(options)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: {seed!r} is not a whole number")
    seed_key = root_key(int(seed))
    rng = _stream(seed_key, 0)

    table = _Hand(hands=list(hands), declarer=d, contract=c, trump=tr,
                  universe=hands[0] | hands[1] | hands[2] | hands[3], discards=None,
                  exposed=0, history=[], winners=[], taken=[0, 0, 0, 0], leader=ld)
    # the searches' node budgets cut where the table's contents say: a table of the hand's
    # own keeps the play a function of the deal and the seed alone
    with private_tables():
        return _play_out(table, ld, policies, seed_key, rng, opts)


def _play_out(table: _Hand, ld, policies, seed_key, rng, opts):
    """Play the hand of `table` from its start, `ld` on lead; return the record."""
    c, d, tr = table.contract, table.declarer, table.trump
    if c.little:
        table.discards = _discards(table, ld, policies, seed_key)
        for s in range(4):
            table.hands[s] &= ~(1 << table.discards[s])
    if c.is_spread:
        table.exposed = table.hands[d]  # R16: face up before the opening lead

    cards = []
    while table.hands[ld]:
        trick = ()
        for pos in range(4):
            seat = (ld + pos) % 4
            legal = _legal(table.hands[seat], trick)
            policy = policies[seat]
            if policy == "random-legal":
                card = int(random_legal_card(np.uint64(legal), rng))
            elif table.misere_lost or legal & (legal - 1) == 0:
                card = _lowest(legal)
            elif policy == "dd":
                card = _dd_card(table, seat, ld, trick)
            else:
                card = _real_card(table, seat, ld, trick, legal, seed_key, opts)
            table.hands[seat] &= ~(1 << card)
            table.history.append((seat, card))
            trick += (card,)
        cards.extend(trick)
        ld = _trick_winner(trick, ld, tr)
        table.winners.append(ld)
        table.taken[ld] += 1

    taken = table.taken[d]
    made = taken == 0 if c.is_misere else taken >= c.tricks_needed
    return {"declarer_tricks": taken, "made": bool(made), "cards": cards,
            "discards": list(table.discards) if table.discards else None,
            "trick_winners": list(table.winners), "tricks": list(table.taken),
            "given_up": table.given_up}


def _discards(table: _Hand, leader, policies, seed_key):
    """Every seat's little-misère discard (R15, R17), each under its own policy: random,
    or R17's "highest" for a defender (dd and real alike), or for the declarer the
    double-dummy best (dd) or its most dangerous card (real)."""
    hands, d = table.hands, table.declarer
    out = []
    for s in range(4):
        if policies[s] == "random-legal":
            out.append(int(random_legal_card(np.uint64(hands[s]),
                                             _stream(seed_key, _DISCARD_STREAM + s))))
        else:
            out.append(_real_discard(hands[s], s, d))
    if policies[d] == "dd":
        # R17: the declarer's best discard against the defenders' actual ones
        rest = [h & ~(1 << out[s]) if s != d else h for s, h in enumerate(hands)]
        out[d] = _dd_declarer_discard(rest, d, leader)
    return out
