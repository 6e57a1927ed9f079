"""Random deals and preference suits at the Python boundary (API.md "Cards and deals", R5, R6).

Checks the caller's input, turns a seed into a root key (kernels.rng.root_key) and hands
the work to the kernels in kernels/dealing.py. The same (arguments, seed) always give the
same deals, whatever the number of numba threads, and the first k of n deals are the k
deals of a call with n = k. `deal_random` and `deal_known` use different exact algorithms
(kernels/dealing.py), so `deal_known` with no known cards is uniform too but deals
different hands from `deal_random` with the same seed.
"""

import numbers

import numpy as np

from analyser import jit_notice
from analyser.cards import ALL_CARDS, SEAT_LETTERS, CardError, card_name, parse_hand, parse_seat
from analyser.errors import UserError
from kernels import dealing as _k
from kernels import preference as _pref
from kernels.rng import root_key


class DealError(UserError, ValueError):
    """A deal request that cannot be met (bad count or seed); the message names the field."""


def _count(n) -> int:
    """The number of deals as a non-negative int."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DealError(f"n (number of deals) must be an integer, got {n!r}")
    if n < 0:
        raise DealError(f"n (number of deals) must be >= 0, got {n}")
    return int(n)


def _root(seed) -> np.ndarray:
    """The 4-word root key of a seed: an int >= 0 or a numpy SeedSequence."""
    if isinstance(seed, np.random.SeedSequence):
        return root_key(seed)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise DealError(f"seed must be an integer >= 0 or a numpy SeedSequence, got {seed!r}")
    if seed < 0:
        raise DealError(f"seed must be >= 0, got {seed}")
    return root_key(int(seed))


def _mask(hand, what: str) -> int:
    """A hand mask from an int / numpy integer mask or PBN text."""
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, bool) or not isinstance(hand, numbers.Integral):
        raise CardError(f"{what} must be a card mask or PBN text, got {type(hand).__name__}")
    mask = int(hand)
    if mask < 0 or mask & ~ALL_CARDS:
        raise CardError(f"{what} mask {mask:#x} has bits outside the 52 cards")
    return mask


def _known_array(known) -> np.ndarray:
    """Validated (4,) uint64 of known cards by seat, from a dict seat -> hand or 4 hands."""
    if isinstance(known, dict):
        masks = [0, 0, 0, 0]
        for seat, hand in known.items():
            s = parse_seat(seat)
            masks[s] |= _mask(hand, f"known cards of {SEAT_LETTERS[s]}")
    else:
        values = list(np.asarray(known, dtype=object).ravel()) if not isinstance(known, str) else []
        if len(values) != 4:
            raise CardError("known must be a dict seat -> hand or 4 masks (seats N, E, S, W)")
        masks = [_mask(v, f"known cards of {SEAT_LETTERS[s]}") for s, v in enumerate(values)]
    seen = 0
    for s, mask in enumerate(masks):
        clash = seen & mask
        if clash:
            card = (clash & -clash).bit_length() - 1
            raise CardError(f"known card {card_name(card)} is given to two seats")
        seen |= mask
        if mask.bit_count() > _k.HAND_SIZE:
            raise CardError(
                f"seat {SEAT_LETTERS[s]} has {mask.bit_count()} known cards; a hand holds 13"
            )
    return np.array(masks, dtype=np.uint64)


def deal_random(n, seed) -> np.ndarray:
    """n independent, exactly uniformly random full deals as an (n, 4) uint64 array (by seat)."""
    count = _count(n)
    root = _root(seed)
    jit_notice.fire()
    return _k.deal_batch(root, count)


def deal_known(known, n, seed) -> np.ndarray:
    """n random deals, (n, 4) uint64, in which each seat holds its known cards plus uniform others.

    `known` is a dict seat -> hand (seat 0..3 or N/E/S/W; hand a mask or PBN text) or four
    masks indexed by seat; any seat may hold any number of known cards up to 13.
    """
    count = _count(n)
    masks = _known_array(known)
    root = _root(seed)
    jit_notice.fire()
    return _k.deal_known_batch(root, masks, count)


def deal_with(hand, seat, n, seed) -> np.ndarray:
    """n random deals, (n, 4) uint64, where `seat` holds exactly `hand`; the other 39 uniform."""
    s = parse_seat(seat)
    mask = _mask(hand, "hand")
    if mask.bit_count() != _k.HAND_SIZE:
        raise CardError(f"hand for {SEAT_LETTERS[s]} has {mask.bit_count()} cards; it needs 13")
    count = _count(n)
    known = np.zeros(4, dtype=np.uint64)
    known[s] = mask
    root = _root(seed)
    jit_notice.fire()
    return _k.deal_known_batch(root, known, count)


def _card(card) -> int:
    """A card id 0..51 from an int or a name like 'SA', 'H10', '♦7'."""
    if isinstance(card, str):
        text = card.strip().upper()
        if len(text) >= 2:
            suit_part, rank_part = text[0], text[1:]
            suit_index = "SHDC".find(suit_part)
            if suit_index < 0:
                suit_index = "♠♥♦♣".find(suit_part)
            if suit_index >= 0:
                mask = parse_hand(".".join(rank_part if s == suit_index else "" for s in range(4)))
                if mask.bit_count() == 1:
                    return mask.bit_length() - 1
        raise CardError(f"card {card!r} is not a card like 'SA', 'H10' or 'D7'")
    if isinstance(card, bool) or not isinstance(card, numbers.Integral) or not 0 <= card < 52:
        raise CardError(f"card {card!r} is not a card id 0..51")
    return int(card)


def preference_suits(turned_card) -> tuple[int, int]:
    """R6: (first preference, second preference) suits from the resting deck's turned card.

    The first preference is the turned card's suit; the second is the other suit of the same
    colour (spades <-> clubs, hearts <-> diamonds). The card is an id 0..51 or a name 'SA'.
    """
    first, second = _pref.preference_suits(_card(turned_card))
    return int(first), int(second)


def deal_from_order(order, dealer) -> np.ndarray:
    """R5: the (4,) uint64 deal of a deck (52 card ids, top first), 4-4-5 from the dealer's left."""
    cards = _order(order)
    return _k.deal_from_order(cards, parse_seat(dealer))


def cut(order, point) -> np.ndarray:
    """R4: the deck `order` (52 card ids, top first) cut at `point` 0..52: top cards go under."""
    cards = _order(order)
    if isinstance(point, bool) or not isinstance(point, numbers.Integral) or not 0 <= point <= 52:
        raise DealError(f"cut point must be an integer 0..52, got {point!r}")
    return _k.cut(cards, int(point))


def _order(order) -> np.ndarray:
    """A validated (52,) int8 deck order holding each card id exactly once."""
    cards = np.asarray(order)
    if cards.shape != (52,) or not np.issubdtype(cards.dtype, np.integer):
        raise CardError(f"a deck order is 52 integer card ids, got shape {cards.shape}")
    if cards.min() < 0 or cards.max() > 51 or len(np.unique(cards)) != 52:
        raise CardError("a deck order must hold each card id 0..51 exactly once")
    return cards.astype(np.int8)


__all__ = [
    "DealError", "deal_random", "deal_known", "deal_with", "preference_suits",
    "deal_from_order", "cut",
]
