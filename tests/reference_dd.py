"""Slow, obviously correct double-dummy reference in pure Python (RULES.md R15-R21).

Plain minimax over every legal card of every player, memoised only on the complete
position at a trick boundary (the four hands and the leader). No move ordering, no
pruning, no bounds, no kernels: it exists so that tests/test_solver.py can check the
numba solver against something whose correctness is evident from reading it. Only for
endings of a few cards; a full deal would take forever.

Hands are Python ints with bit `13 * suit + rank` set (API.md "Formats").
"""

import functools
import random

NO_TRUMP = -1


def cards_of(hand: int) -> list[int]:
    """Card ids held in `hand`, lowest id first."""
    cards = []
    while hand:
        low = hand & -hand
        cards.append(low.bit_length() - 1)
        hand ^= low
    return cards


def legal_cards(hand: int, led_suit: int) -> list[int]:
    """The cards `hand` may play when `led_suit` was led (-1: it is leading)."""
    if led_suit >= 0:
        follow = hand & (0x1FFF << (13 * led_suit))
        if follow:
            return cards_of(follow)  # R19: follow suit if able ...
    return cards_of(hand)  # ... else (or when leading) any card


def trick_winner(cards, leader: int, trump: int) -> int:
    """Seat winning a trick whose card ids are in play order from `leader` (R20)."""
    led_suit = cards[0] // 13
    trumps = [(c, pos) for pos, c in enumerate(cards) if trump >= 0 and c // 13 == trump]
    if trumps:
        _, pos = max(trumps)  # the highest trump wins
    else:
        _, pos = max((c, pos) for pos, c in enumerate(cards) if c // 13 == led_suit)
    return (leader + pos) % 4


def side_tricks(deal, side, trump: int, leader: int, maximise: bool = True, trick=()) -> int:
    """Tricks the seats in `side` take when they play together for the most (or, with
    `maximise=False`, the fewest) tricks and the other seats play for the opposite.

    With `trick` (card ids `leader` and the seats after it played, already out of
    `deal`), play starts inside that trick and the count includes it."""
    hands = tuple(int(h) for h in deal)
    side = frozenset(int(s) for s in side)
    memo = {}

    def position(hands, leader):
        # Value (the side's tricks from here on) of a position at a trick boundary.
        if hands[0] == 0:
            return 0
        key = (hands, leader)
        if key not in memo:
            memo[key] = play(hands, leader, ())
        return memo[key]

    def play(hands, leader, trick):
        # Value with `trick` (the cards played so far to the current trick) on the table.
        if len(trick) == 4:
            winner = trick_winner(trick, leader, trump)
            won = 1 if winner in side else 0
            return won + position(hands, winner)
        seat = (leader + len(trick)) % 4
        led_suit = trick[0] // 13 if trick else -1
        wants_more = (seat in side) == maximise
        # The value lies in 0..(tricks left, this one included: the cards `seat` still
        # holds); a player who has reached its own end of that range stops looking.
        best_possible = hands[seat].bit_count() if wants_more else 0
        best = None
        for card in legal_cards(hands[seat], led_suit):
            rest = list(hands)
            rest[seat] &= ~(1 << card)
            value = play(tuple(rest), leader, trick + (card,))
            if best is None or (value > best if wants_more else value < best):
                best = value
            if best == best_possible:
                break
        return best

    if trick:
        return play(hands, leader, tuple(trick))
    return position(hands, leader)


def _reach_game(side, trump: int, maximise: bool):
    """The yes/no form of `side_tricks`: a function (hands, leader, target) -> whether the
    players who want the side to take more tricks (the seats in `side` when `maximise`,
    the others when not) can force it to take at least `target` more tricks.

    "any" over the cards of a player who wants more, "all" over the cards of one who wants
    fewer, so a question is settled as soon as one card answers it. Answers are memoised
    on the complete position (hands, leader, target) at trick boundaries."""
    side = frozenset(int(s) for s in side)
    memo = {}

    def position(hands, leader, target):
        if target <= 0:
            return True
        if target > hands[0].bit_count():
            return False  # fewer tricks left than needed
        key = (hands, leader, target)
        if key not in memo:
            memo[key] = play(hands, leader, target, ())
        return memo[key]

    def play(hands, leader, target, trick):
        if len(trick) == 4:
            winner = trick_winner(trick, leader, trump)
            return position(hands, winner, target - (1 if winner in side else 0))
        seat = (leader + len(trick)) % 4
        led_suit = trick[0] // 13 if trick else -1
        answers = (
            play(hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:], leader,
                 target, trick + (card,))
            for card in legal_cards(hands[seat], led_suit)
        )
        wants_more = (seat in side) == maximise
        return any(answers) if wants_more else all(answers)

    return position


def side_reaches(deal, side, trump: int, leader: int, target: int, maximise: bool = True) -> bool:
    """Whether the side is forced to / can make at least `target` tricks (see `_reach_game`)."""
    return _reach_game(side, trump, maximise)(tuple(int(h) for h in deal), leader, target)


def side_tricks_search(deal, side, trump: int, leader: int) -> int:
    """`side_tricks` by yes/no questions: the largest target the side can force."""
    hands = tuple(int(h) for h in deal)
    reaches = _reach_game(side, trump, True)
    target = 0
    while target < hands[0].bit_count() and reaches(hands, leader, target + 1):
        target += 1
    return target


def dd_tricks(deal, declarer: int, trump: int, leader: int) -> int:
    """Most tricks `declarer` can be sure to take alone against three defenders (R1, R19-R20)."""
    return side_tricks_search(deal, (declarer,), trump, leader)


def dd_tricks_partnership(deal, side, trump: int, leader: int) -> int:
    """Tricks of the seats in `side` playing together against the others (bridge style)."""
    return side_tricks_search(deal, side, trump, leader)


def misere_tricks(deal, declarer: int, leader: int) -> int:
    """Fewest tricks `declarer` can be held to when it avoids tricks and the three defenders
    try to give it some, without trump (R15, R20)."""
    return side_tricks(deal, (declarer,), NO_TRUMP, leader, maximise=False)


def dd_misere(deal, declarer: int, leader: int) -> bool:
    """Whether `declarer` can be sure to take no trick, no trump (grand misère, R15)."""
    # The defenders (who want the declarer to take more) cannot force one trick on it.
    return not side_reaches(deal, (declarer,), NO_TRUMP, leader, 1, maximise=False)


def highest_discard(hand: int) -> int:
    """Defender discard policy "highest" (R17): the highest-ranked card, ties broken by suit
    order S H D C (the lower suit index is discarded)."""
    return max(cards_of(hand), key=lambda c: (c % 13, -(c // 13)))


def dd_little_misere(deal, declarer: int, leader: int) -> bool:
    """Little misère (R15, R17): every defender discards its "highest" card, the declarer
    the discard that suits it best, then grand misère over the remaining cards."""
    hands = [int(h) for h in deal]
    for seat in range(4):
        if seat != declarer:
            hands[seat] &= ~(1 << highest_discard(hands[seat]))
    for discard in cards_of(hands[declarer]):
        rest = list(hands)
        rest[declarer] &= ~(1 << discard)
        if dd_misere(rest, declarer, leader):
            return True
    return False


def random_ending(rng: random.Random, k: int, n_suits: int = 4) -> tuple[int, int, int, int]:
    """A random ending: 4 hands of `k` cards drawn uniformly from `n_suits` random suits
    (fewer suits make following suit, and so the play, richer)."""
    suits = rng.sample(range(4), n_suits)
    pool = [13 * s + r for s in suits for r in range(13)]
    cards = rng.sample(pool, 4 * k)
    return tuple(sum(1 << c for c in cards[i * k:(i + 1) * k]) for i in range(4))


def rotate(deal, r: int):
    """The deal with every hand moved `r` seats clockwise (seat s's hand goes to s + r)."""
    out = [0, 0, 0, 0]
    for seat in range(4):
        out[(seat + r) % 4] = int(deal[seat])
    return tuple(out)


def permute_suits(deal, perm):
    """The deal with every card of suit s moved to suit perm[s], ranks kept."""
    out = []
    for hand in deal:
        moved = 0
        for card in cards_of(int(hand)):
            moved |= 1 << (13 * perm[card // 13] + card % 13)
        out.append(moved)
    return tuple(out)


def card_scores(deal, declarer: int, goal, leader: int, trick=()) -> dict:
    """Every legal card of the player to move, from a position that may start inside a
    trick (`trick`: the cards already played to it, out of `deal`), and its value: the
    declarer's most tricks from the current trick on once the card is played (numeric
    `goal`, a trump or NO_TRUMP), or whether the declarer then still takes no trick
    (`goal` "misere": no trump, the declarer fewest, R15)."""
    hands = [int(h) for h in deal]
    trick = tuple(trick)
    seat = (leader + len(trick)) % 4
    led_suit = trick[0] // 13 if trick else -1
    scores = {}
    for card in legal_cards(hands[seat], led_suit):
        rest = list(hands)
        rest[seat] &= ~(1 << card)
        if goal == "misere":
            taken = side_tricks(rest, (declarer,), NO_TRUMP, leader, maximise=False,
                                trick=trick + (card,))
            scores[card] = taken == 0
        else:
            scores[card] = side_tricks(rest, (declarer,), goal, leader, trick=trick + (card,))
    return scores


def random_position(rng: random.Random, k: int, played: int, n_suits: int = 4):
    """A random position inside a trick: (hands, leader, trick). A random ending of `k`
    cards a hand (`random_ending`) whose first `played` (0..3) seats from a random leader
    have each played a random legal card (R19) to the trick."""
    hands = list(random_ending(rng, k, n_suits))
    leader = rng.randrange(4)
    trick = []
    for i in range(played):
        seat = (leader + i) % 4
        card = rng.choice(legal_cards(hands[seat], trick[0] // 13 if trick else -1))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return tuple(hands), leader, tuple(trick)


def band_game_forced(deal, declarer: int, leader: int) -> bool:
    """Whether the defenders force the misère declarer to take a trick in the band game
    (kernels.dd.band_game): play as in `dd_misere` (R19, R20, no trump), except that a trick
    the declarer does not win goes to whichever defender the defenders choose among
    those who played to it a card of the suit led lying in the same band as its highest
    card (no card the declarer held when the trick began, or played to it, ranks between
    the two)."""
    d = declarer

    def same_band(a: int, b: int, dcards: int) -> bool:
        lo, hi = min(a, b), max(a, b)
        return not any(lo < c < hi for c in cards_of(dcards))

    @functools.cache
    def position(hands, leader):
        return hands[d] != 0 and play(hands, leader, ())

    def play(hands, leader, trick):
        if len(trick) == 4:
            led = trick[0] // 13
            di = (d - leader) % 4
            follow = [(c, j) for j, c in enumerate(trick) if c // 13 == led]
            top, tj = max(follow)
            if tj == di:
                return True  # the declarer's card is the highest of the suit led
            dcards = hands[d] | (1 << trick[di])
            winners = [(leader + j) % 4 for c, j in follow
                       if j != di and same_band(c, top, dcards & (0x1FFF << (13 * led)))]
            return any(position(hands, w) for w in winners)
        seat = (leader + len(trick)) % 4
        values = []
        for card in legal_cards(hands[seat], trick[0] // 13 if trick else -1):
            rest = list(hands)
            rest[seat] &= ~(1 << card)
            values.append(play(tuple(rest), leader, trick + (card,)))
        return all(values) if seat == d else any(values)

    return position(tuple(int(h) for h in deal), leader)
