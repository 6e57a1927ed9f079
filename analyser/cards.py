"""Text and mask forms of hands and deals (API.md "Formats"), with errors that name the problem."""

import numpy as np

from analyser.errors import UserError

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SEAT_LETTERS = "NESW"
RANK_CHARS = "23456789TJQKA"
_RANK_OF = {c: r for r, c in enumerate(RANK_CHARS)}
ALL_CARDS = (1 << 52) - 1  # R2: one bit per card of the 52


class CardError(UserError, ValueError):
    """A hand, deal, seat or card that cannot be read; the message names the problem."""


def parse_seat(seat) -> int:
    """Seat 0..3 from an int or one of the letters N, E, S, W."""
    if isinstance(seat, str):
        letter = seat.strip().upper()
        if len(letter) == 1 and letter in SEAT_LETTERS:
            return SEAT_LETTERS.index(letter)
        raise CardError(f"seat {seat!r} is not one of N, E, S, W")
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat <= 3:
        return int(seat)
    raise CardError(f"seat {seat!r} is not 0..3 or one of N, E, S, W")


def parse_suit(suit) -> int:
    """Suit 0..3 from an int, a letter S/H/D/C or a symbol; -1, 'N' or 'NT' mean no trump."""
    if isinstance(suit, str):
        text = suit.strip().upper()
        if text in ("N", "NT", "-1", ""):
            return -1
        if len(text) == 1 and text in SUIT_LETTERS:
            return SUIT_LETTERS.index(text)
        if len(text) == 1 and text in SUIT_SYMBOLS:
            return SUIT_SYMBOLS.index(text)
        raise CardError(f"suit {suit!r} is not one of S, H, D, C (or NT)")
    if isinstance(suit, (int, np.integer)) and not isinstance(suit, bool) and -1 <= suit <= 3:
        return int(suit)
    raise CardError(f"suit {suit!r} is not -1..3")


def card_name(card: int) -> str:
    """'SA', 'H10'... style name of a card id, for messages."""
    return SUIT_SYMBOLS[card // 13] + ("10" if card % 13 == 8 else RANK_CHARS[card % 13])


HAND_SIZE = 13  # R5: a full hand; an ending holds fewer, never more


def parse_hand(text: str) -> int:
    """Mask of a PBN hand "AKQ.JT9.876.5432" (suits S.H.D.C, `T` or `10`, voids empty).

    A hand holds at most 13 cards (fewer in an ending, API.md "Formats")."""
    if not isinstance(text, str):
        raise CardError(f"hand must be text like 'AKQ.JT9.876.5432', got {type(text).__name__}")
    suits = text.strip().split(".")
    if len(suits) != 4:
        raise CardError(f"hand {text!r} must have 4 suits separated by '.', found {len(suits)}")
    mask = 0
    for suit, holding in enumerate(suits):
        chars = holding.strip().upper().replace("10", "T")
        for ch in chars:
            rank = _RANK_OF.get(ch)
            if rank is None:
                raise CardError(f"hand {text!r}: unknown rank {ch!r} in {SUIT_LETTERS[suit]}")
            bit = 1 << (13 * suit + rank)
            if mask & bit:
                raise CardError(f"hand {text!r}: duplicate card {card_name(13 * suit + rank)}")
            mask |= bit
    if mask.bit_count() > HAND_SIZE:
        raise CardError(
            f"hand {text!r} holds {mask.bit_count()} cards; a hand holds at most {HAND_SIZE}"
        )
    return mask


def format_hand(mask) -> str:
    """PBN text of a hand mask, ranks high to low in each suit."""
    mask = int(mask)
    if mask < 0 or mask & ~ALL_CARDS:
        raise CardError(f"hand mask {mask:#x} has bits outside the 52 cards")
    return ".".join(
        "".join(RANK_CHARS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1)
        for s in range(4)
    )


def parse_deal(text: str) -> np.ndarray:
    """Deal array (4,) uint64 by seat from "N:h1 h2 h3 h4" (hands clockwise from the named seat)."""
    if not isinstance(text, str) or ":" not in text:
        raise CardError(f"deal {text!r} must look like 'N:hand hand hand hand'")
    first, _, rest = text.strip().partition(":")
    start = parse_seat(first)
    hands = rest.split()
    if len(hands) != 4:
        raise CardError(f"deal {text!r} must have 4 hands, found {len(hands)}")
    deal = np.zeros(4, dtype=np.uint64)
    seen = 0
    for i, hand_text in enumerate(hands):
        mask = parse_hand(hand_text)
        clash = seen & mask
        if clash:
            card = (clash & -clash).bit_length() - 1
            raise CardError(f"deal {text!r}: card {card_name(card)} is in two hands")
        seen |= mask
        deal[(start + i) % 4] = mask
    sizes = [int(m).bit_count() for m in deal]
    if len(set(sizes)) != 1:
        raise CardError(f"deal {text!r}: hands hold unequal numbers of cards {sizes}")
    return deal


def format_deal(deal, first_seat=0) -> str:
    """PBN text "N:h1 h2 h3 h4" of a deal array, hands clockwise from `first_seat`."""
    deal = np.asarray(deal)
    if deal.shape != (4,):
        raise CardError(f"a deal has shape (4,), got {deal.shape}")
    start = parse_seat(first_seat)
    hands = [format_hand(deal[(start + i) % 4]) for i in range(4)]
    return f"{SEAT_LETTERS[start]}:" + " ".join(hands)


def suit_lengths(mask) -> tuple[int, int, int, int]:
    """Lengths of spades, hearts, diamonds, clubs in a hand mask."""
    mask = int(mask)
    return tuple(((mask >> (13 * s)) & 0x1FFF).bit_count() for s in range(4))


def shape(mask) -> str:
    """Suit-length pattern, longest first, e.g. "5-4-3-1"."""
    return "-".join(str(n) for n in sorted(suit_lengths(mask), reverse=True))
