"""Small bidding strategies for the session tests: simple, deterministic rules of thumb.

They stand in for the built-in strategies of analyser/strategy.py where a test needs a
strategy whose calls it can predict.
"""

from dataclasses import dataclass

from analyser.contracts import allowed_trumps, natural_trump, parse_bid


def _longest(hand: int) -> int:
    return max(((hand >> (13 * s)) & 0x1FFF).bit_count() for s in range(4))


def _high_cards(hand: int) -> int:
    """Aces and kings held."""
    return sum(hand >> (13 * s + r) & 1 for s in range(4) for r in (11, 12))


@dataclass(frozen=True)
class Passer:
    """Always passes: four of them play every hand as misère partout (R14)."""

    name: str = "passer"

    def call(self, view) -> str:
        return "pass"

    def name_trump(self, hand, bid, first_preference) -> int:
        return natural_trump(hand)


@dataclass(frozen=True)
class LengthBidder:
    """Bids `base` with a long suit and enough high cards, once, at the lowest legal tier;
    names its longest allowed suit as trump (R12)."""

    name: str = "length"
    base: int = 5
    length: int = 6
    highs: int = 3

    def call(self, view) -> str:
        if _longest(view.hand) >= self.length and _high_cards(view.hand) >= self.highs:
            for bid in view.legal[1:]:
                if parse_bid(bid).contract in (str(self.base), str(self.base + 1)):
                    return bid
        return "pass"

    def name_trump(self, hand, bid, first_preference) -> int:
        allowed = allowed_trumps(parse_bid(bid).tier, first_preference)
        return max(allowed, key=lambda s: (((hand >> (13 * s)) & 0x1FFF).bit_count(), -s))


@dataclass(frozen=True)
class MisereBidder:
    """Bids grand misère with no card above a nine, little misère with at most one, and
    otherwise bids like LengthBidder (so every kind of contract occurs)."""

    name: str = "misere"

    def call(self, view) -> str:
        high = sum(view.hand >> (13 * s + r) & 1 for s in range(4) for r in range(8, 13))
        for wanted, limit in (("GM", 0), ("LM", 1)):
            if high <= limit and wanted in view.legal:
                return wanted
        return LengthBidder(highs=2).call(view)

    def name_trump(self, hand, bid, first_preference) -> int:
        return LengthBidder().name_trump(hand, bid, first_preference)


@dataclass(frozen=True)
class Illegal:
    """Calls a bid that is never legal after a first-round pass: to test the error."""

    name: str = "illegal"

    def call(self, view) -> str:
        return "4"

    def name_trump(self, hand, bid, first_preference) -> int:
        return 0
