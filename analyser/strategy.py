"""Bidding strategies: what a player calls in the auction (R9-R14) and which trump it names.

A strategy sees what a player knows at its turn (`CallView`): its own hand, its seat and
the dealer's, the preference suits turned up (R6), the calls so far and the active pool.
It answers with one of the legal calls. The session simulation (analyser/session.py) asks
each seat's strategy in turn and runs the calls through analyser.auction.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol


@dataclass(frozen=True)
class CallView:
    """Everything a player may use to choose its call (R13: its own hand, the calls heard)."""

    hand: int  # the caller's 13-card mask
    seat: int  # 0..3
    dealer: int  # 0..3; the dealer's left calls first and leads to trick 1 (R13, R18)
    first_preference: int  # suit 0..3 of the turned card (R6)
    calls: tuple  # canonical calls so far, in turn order from the dealer's left
    pool: Fraction  # the active pool (R30)
    legal: tuple  # the calls legal now: "pass" first, then bids in rising order

    @property
    def position(self) -> int:
        """0 = the dealer's left (first to call, leads to trick 1), .., 3 = the dealer."""
        return (self.seat - self.dealer - 1) % 4


class Strategy(Protocol):
    """A bidding strategy; `name` labels it in tables and reports."""

    name: str

    def call(self, view: CallView) -> str:
        """One of `view.legal`."""

    def name_trump(self, hand: int, bid: str, first_preference: int) -> int:
        """The trump (0..3, or -1 for no trump) to name after winning the numeric `bid`,
        within what its tier allows (R12: analyser.contracts.allowed_trumps)."""
