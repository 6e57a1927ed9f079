"""Slow, obviously correct Perfect Information Monte Carlo player in pure Python.

Every decision enumerates every world consistent with what the player has seen (by plain
recursion over the hidden cards), scores every legal card in every world by minimax
(tests/reference_dd.py at trick boundaries) and plays the card that makes (declarer) or
defeats (defenders) the contract in the most worlds, then the best total of tricks
(counting none beyond those the contract still needs), then the lowest card id: the
"real" player of analyser/play.py with every world enumerated and uniform bidding
weights (docs/real_play.md). Only for small endings.

The documented fixed rules are restated here from docs/real_play.md, not imported: a
little-misère declarer discards the card that leaves its hand the least misère danger
(ties: the highest rank, then spades first), a defender its highest card (R17 order);
once a misère is lost every player plays its lowest legal card.
"""

from reference_dd import cards_of, dd_misere, dd_tricks, legal_cards, trick_winner

NUMBERS = {str(n): n for n in range(5, 14)}
MISERES = ("LM", "GM", "LS", "GS")


def danger(hand):
    """Misère danger (analyser/features.py's formula): the i-th lowest card of rank r in a
    suit costs max(0, r - 2i - 1)."""
    total = 0
    for suit in range(4):
        ranks = [c % 13 for c in cards_of(hand) if c // 13 == suit]
        total += sum(max(0, r - 2 * i - 1) for i, r in enumerate(ranks))
    return total


def highest(hand):
    return max(cards_of(hand), key=lambda c: (c % 13, -(c // 13)))


def lowest(cards):
    return min(cards, key=lambda c: (c % 13, c // 13))


def most_dangerous(hand):
    return min(cards_of(hand), key=lambda c: (danger(hand & ~(1 << c)), -(c % 13), c // 13))


def card_values(hands, declarer, misere, trump, leader, trick):
    """{card: value} for the player to move: the declarer's sure tricks from here (numbers)
    or whether it can be sure to take none (misère), by minimax over the trick's rest."""

    def value(hands, trick):
        if len(trick) == 4:
            winner = trick_winner(trick, leader, trump)
            if hands[0] == 0:
                rest = True if misere else 0
            elif misere:
                rest = dd_misere(hands, declarer, winner)
            else:
                rest = dd_tricks(hands, declarer, trump, winner)
            if misere:
                return winner != declarer and rest
            return (winner == declarer) + rest
        seat = (leader + len(trick)) % 4
        led = trick[0] // 13 if trick else -1
        vals = [value(tuple(h & ~(1 << c) if s == seat else h for s, h in enumerate(hands)),
                      trick + (c,)) for c in legal_cards(hands[seat], led)]
        return max(vals) if seat == declarer else min(vals)

    seat = (leader + len(trick)) % 4
    led = trick[0] // 13 if trick else -1
    return {c: value(tuple(h & ~(1 << c) if s == seat else h for s, h in enumerate(hands)),
                     trick + (c,)) for c in legal_cards(hands[seat], led)}


def consistent_worlds(hidden, sizes, voids, discards):
    """Every assignment of the hidden cards: sizes[s] to seat s's hand (none of its void
    suits), one to each seat in `discards` (any suit)."""
    slots = [(s, sizes[s], voids[s]) for s in range(4) if sizes[s]]
    slots += [(4 + s, 1, set()) for s in discards]
    cards = cards_of(hidden)
    out = []
    held = {slot: 0 for slot, _, _ in slots}
    room = {slot: size for slot, size, _ in slots}

    def place(i):
        if i == len(cards):
            out.append(dict(held))
            return
        c = cards[i]
        for slot, _, void in slots:
            if room[slot] and c // 13 not in void:
                room[slot] -= 1
                held[slot] |= 1 << c
                place(i + 1)
                held[slot] ^= 1 << c
                room[slot] += 1

    place(0)
    return out


def play_hand(deal, declarer, contract, leader, trump=None):
    """The reference "real" play of one hand: (cards, discards, trick winners)."""
    hands = [int(h) for h in deal]
    misere = contract in MISERES
    trump = -1 if misere else trump
    need = NUMBERS.get(contract, 0)
    universe = hands[0] | hands[1] | hands[2] | hands[3]
    discards = None
    if contract in ("LM", "LS"):
        discards = [most_dangerous(h) if s == declarer else highest(h)
                    for s, h in enumerate(hands)]
        hands = [h & ~(1 << discards[s]) for s, h in enumerate(hands)]
    exposed = contract in ("LS", "GS")
    history, winners, taken = [], [], [0, 0, 0, 0]
    while hands[leader]:
        trick = ()
        for pos in range(4):
            seat = (leader + pos) % 4
            led = trick[0] // 13 if trick else -1
            legal = legal_cards(hands[seat], led)
            if len(legal) == 1 or (misere and taken[declarer]):
                card = lowest(legal)
            else:
                card = _decide(hands, seat, declarer, misere, trump, need, universe, discards,
                               exposed, history, leader, trick, taken, legal)
            hands[seat] &= ~(1 << card)
            history.append((seat, card))
            trick += (card,)
        leader = trick_winner(trick, leader, trump)
        winners.append(leader)
        taken[leader] += 1
    return [c for _, c in history], discards, winners


def _decide(hands, seat, declarer, misere, trump, need, universe, discards, exposed, history,
            leader, trick, taken, legal):
    """Enumerate the worlds of `seat`'s view, score, pick (module docstring)."""
    played = sum(1 << c for _, c in history)
    voids = [set() for _ in range(4)]
    for t in range(0, len(history), 4):
        led = history[t][1] // 13
        for s, c in history[t:t + 4]:
            if c // 13 != led:
                voids[s].add(led)
    shown = exposed and seat != declarer
    known = hands[seat] | (hands[declarer] if shown else 0)
    own_discard = 1 << discards[seat] if discards else 0
    hidden = universe & ~(played | known | own_discard)
    sizes = [0 if s == seat or (shown and s == declarer) else hands[s].bit_count()
             for s in range(4)]
    others = [s for s in range(4) if s != seat] if discards else []
    made = {c: 0 for c in legal}
    tricks = {c: 0 for c in legal}
    for world in consistent_worlds(hidden, sizes, voids, others):
        world_hands = tuple(world.get(s, hands[s] if s == seat or (shown and s == declarer)
                                      else 0) for s in range(4))
        for c, v in card_values(world_hands, declarer, misere, trump, leader, trick).items():
            made[c] += int(v) if misere else int(taken[declarer] + v >= need)
            # tricks beyond those the contract needs count for nothing (R21, R24)
            tricks[c] += 0 if misere else min(v, max(0, need - taken[declarer]))
    side = 1 if seat == declarer else -1
    return max(legal, key=lambda c: (side * made[c], side * tricks[c], -c))
