"""The input of `hand`: the hand, where it sits, what else is known and how many samples.

Seats: the dealer sits West (`constants.DEALER`), so the seat at `position` p from the
dealer's left is seat p (0 = N leads to the first trick, R18; 1 = E; 2 = S; 3 = W = the
dealer). Known cards of the other players are named by these letters. When the known cards
complete the deal, the query holds one sample and is exact.
"""

from dataclasses import dataclass

import numpy as np

from analyser import options
from analyser.cards import (
    SEAT_LETTERS,
    CardError,
    card_name,
    format_hand,
    parse_hand,
    parse_seat,
    parse_suit,
)
from analyser.constants import DEFAULT_POOL
from analyser.errors import UserError

DEFAULT_SAMPLES = None  # by default, as many samples as the time budget below allows
BUDGET_SECONDS = 10.0  # the default answers in about 10 s once the kernels are compiled
BUDGET_MAX_SAMPLES = 1000  # the default's cap: intervals are then at most about +-3%


@dataclass(frozen=True)
class HandQuery:
    """A checked request: the hand, where it sits, what else is known, and the run size."""

    hand: int
    position: int
    first_preference: int | None
    pool: int  # whole units (R29, R30)
    samples: int  # completions dealt; with a budget, the most that may be solved
    seed: int
    known: tuple[int, int, int, int]  # card masks by seat; the analysed seat holds `hand`
    budget: float | None = None  # seconds: solve completions in order until it is spent

    @property
    def exact(self) -> bool:
        """Every card is known: there is one deal, solved once, and no sampling error."""
        return sum(mask.bit_count() for mask in self.known) == 52


def _parse_position(position) -> int:
    """Seat 0..3 counted from the dealer's left (a seat letter N/E/S/W means the same here)."""
    if isinstance(position, str):
        text = position.strip()
        if text.isdigit():
            position = int(text)
        else:
            try:
                return parse_seat(text)
            except CardError:
                raise UserError(
                    f"position {position!r} is not 0..3 (counted from the dealer's left) "
                    "or one of N, E, S, W"
                ) from None
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        if 0 <= position <= 3:
            return int(position)
    raise UserError(f"position {position!r} is not 0..3 (counted from the dealer's left)")


def _known_tokens(known) -> list[tuple[str, object]]:
    """(seat, cards) pairs from a dict, a "SEAT:hand ..." text, or a list of either."""
    if known is None:
        return []
    if isinstance(known, dict):
        return list(known.items())
    if isinstance(known, str):
        tokens = known.replace(",", " ").split()
        pairs = []
        for token in tokens:
            seat, sep, cards = token.partition(":")
            if not sep:
                raise CardError(f"known cards {token!r} must look like 'E:A.K..' (seat:hand)")
            pairs.append((seat, cards))
        return pairs
    if isinstance(known, (list, tuple)):
        return [pair for item in known for pair in _known_tokens(item)]
    raise CardError(f"known cards must be text like 'E:A.K..' or a dict, got {known!r}")


def _parse_known(known, hand: int, position: int) -> tuple[int, int, int, int]:
    """Card masks by seat: the analysed hand at `position`, the known cards elsewhere."""
    masks = [0, 0, 0, 0]
    masks[position] = hand
    for seat_text, cards in _known_tokens(known):
        seat = parse_seat(seat_text)
        label = SEAT_LETTERS[seat]
        if seat == position:
            raise CardError(
                f"--known names seat {label}, which is the analysed hand (position {position})"
            )
        mask = int(cards) if isinstance(cards, (int, np.integer)) else parse_hand(cards)
        if mask < 0 or mask >> 52:
            raise CardError(f"known cards for {label}: mask {mask:#x} is not 52 cards")
        clash = mask & masks[position]
        if clash:
            card = (clash & -clash).bit_length() - 1
            raise CardError(f"known card {card_name(card)} for {label} is in the analysed hand")
        for other in range(4):
            if other != position and other != seat and mask & masks[other]:
                clash = mask & masks[other]
                card = (clash & -clash).bit_length() - 1
                raise CardError(
                    f"known card {card_name(card)} is given to both {label} and "
                    f"{SEAT_LETTERS[other]}"
                )
        masks[seat] |= mask
        if masks[seat].bit_count() > 13:
            raise CardError(
                f"known cards give {label} {masks[seat].bit_count()} cards (at most 13)"
            )
    return tuple(masks)


def prepare(hand, position=0, first_preference=None, pool=DEFAULT_POOL,
            samples=DEFAULT_SAMPLES, seed=0, known=None) -> HandQuery:
    """Read and check every input; raise CardError/UserError naming the first problem."""
    mask = int(hand) if isinstance(hand, (int, np.integer)) else parse_hand(hand)
    if mask < 0 or mask >> 52:
        raise CardError(f"hand mask {mask:#x} has bits outside the 52 cards")
    if mask.bit_count() != 13:
        raise CardError(f"hand {format_hand(mask)!r} has {mask.bit_count()} cards, not 13")
    seat = _parse_position(position)
    preference = None if first_preference is None else parse_suit(first_preference)
    if preference == -1:
        raise UserError("first preference must be a suit S, H, D or C (R6), not no-trump")
    budget = None
    if samples is None or (isinstance(samples, str) and samples.strip().lower() == "auto"):
        samples, budget = BUDGET_MAX_SAMPLES, BUDGET_SECONDS
    samples = options.count(samples, "samples")
    pool = options.pool(pool)
    seed = options.seed(seed)
    masks = _parse_known(known, mask, seat)
    if sum(m.bit_count() for m in masks) == 52:
        samples, budget = 1, None  # the whole deal is given: solving it once is exact
    return HandQuery(mask, seat, preference, pool, samples, seed, masks, budget)
