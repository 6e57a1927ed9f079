"""The auction (R11-R14): who declares which bid, with every illegal call named and explained.

Every seat calls in turn, clockwise from the dealer's left, including players who have
passed: they may still come back with a misère or spread above the current bid (R13),
so they are asked again. A call is "pass" or a bid of analyser/contracts.py ("8",
"8-2nd", "8-1st", "LM", ...); spelling is case-insensitive.
"""

import numpy as np

from analyser.cards import SEAT_LETTERS, CardError, parse_seat
from analyser.contracts import BID_ORDER, bid_rank, is_numeric, parse_bid
from analyser.errors import UserError

PASS = "pass"
PARTOUT = "partout"  # R14: all four passed on the first round


class IllegalCall(UserError, ValueError):
    """A call the auction does not allow, or a call sequence that is not a whole auction.

    `index` is the 0-based position of the call in the sequence (None when the sequence
    ended too early), `call` the call as given, `reason` the rule it breaks.
    """

    def __init__(self, index, call, seat, reason):
        self.index, self.call, self.seat, self.reason = index, call, seat, reason
        if index is None:
            message = f"calls: {reason}"
        else:
            message = f"call {index + 1} {call!r} by {SEAT_LETTERS[seat]}: {reason}"
        super().__init__(message)


class Auction:
    """An auction in progress: feed calls in turn order with `call`, read `result` at the end."""

    def __init__(self, dealer):
        try:
            self.dealer = parse_seat(dealer)
        except CardError as err:
            raise ValueError(f"dealer: {err}") from None
        self.calls = []  # canonical calls so far
        self.high = None  # canonical highest bid
        self.holder = None  # its seat
        self.passed = [False] * 4  # R13: passed players may only come back with misère/spread
        self.declines = 0  # passes in a row since the highest bid
        self.result = None  # (declarer, bid) or (None, "partout") once the auction is over

    @property
    def finished(self) -> bool:
        """Whether the auction is over (R13, R14)."""
        return self.result is not None

    @property
    def to_call(self) -> int:
        """The seat whose turn it is: clockwise from the dealer's left (R13)."""
        return (self.dealer + 1 + len(self.calls)) % 4

    def check(self, call) -> str:
        """The canonical form of `call` if it is legal now, else raise IllegalCall."""
        index, seat = len(self.calls), self.to_call
        if self.finished:
            raise IllegalCall(index, call, seat, "the auction is already over")
        if isinstance(call, str) and call.strip().lower() == PASS:
            return PASS
        try:
            # a numpy integer is read as the Python int it equals, as everywhere in the API
            contract, tier = parse_bid(int(call) if isinstance(call, np.integer) else call)
        except ValueError:
            raise IllegalCall(
                index, call, seat,
                "not a call (pass, a number 5..13 with optional -2nd/-1st, LM, GM, LS, GS)",
            ) from None
        bid = contract if tier == "plain" else f"{contract}-{tier}"
        if self.high is not None and bid_rank(bid) <= bid_rank(self.high):
            reason = f"not higher than the current bid {self.high} (R11, R13)"
            if self.high.endswith("-1st"):
                reason += (
                    "; against a first-preference bid only a higher number or a higher "
                    "misère/spread wins"
                )
            raise IllegalCall(index, call, seat, reason)
        if self.passed[seat] and is_numeric(bid):
            raise IllegalCall(
                index, call, seat,
                "a player who has passed may come back only with a misère or spread (R13)",
            )
        return bid

    def call(self, call):
        """Make the next call (raises IllegalCall and changes nothing if it is illegal)."""
        word = self.check(call)
        seat = self.to_call
        self.calls.append(word)
        if word == PASS:
            self.passed[seat] = True
            if self.high is None:
                if len(self.calls) == 4:
                    self.result = (None, PARTOUT)  # R14
            else:
                self.declines += 1
                if self.declines == 3:
                    self.result = (self.holder, self.high)  # R13: back to the holder
        else:
            self.high, self.holder, self.declines = word, seat, 0

    def legal_calls(self) -> tuple:
        """Every call legal now, "pass" first then bids in rising order (empty once over)."""
        if self.finished:
            return ()
        legal = [PASS]
        for bid in BID_ORDER:
            try:
                self.check(bid)
            except IllegalCall:
                continue
            legal.append(bid)
        return tuple(legal)


def run_auction(calls, dealer):
    """Run a whole auction: (declarer seat, bid), or (None, "partout") when all four pass (R14).

    `calls` start with the dealer's left; `dealer` is 0..3 or N/E/S/W.
    """
    auction = _replay(calls, dealer)
    if not auction.finished:
        raise IllegalCall(
            None, None, auction.to_call,
            f"the auction is not over after {len(auction.calls)} calls: "
            f"{SEAT_LETTERS[auction.to_call]} is still to call (R13)",
        )
    return auction.result


def legal_calls(calls, dealer) -> tuple:
    """The calls legal after the (legal, unfinished or finished) sequence `calls`."""
    return _replay(calls, dealer).legal_calls()


def _replay(calls, dealer) -> Auction:
    """An auction after `calls` (IllegalCall if `calls` is not a sequence of calls)."""
    auction = Auction(dealer)
    if isinstance(calls, (str, bytes)) or not hasattr(calls, "__iter__"):
        raise IllegalCall(
            None, calls, auction.to_call,
            f"give a sequence of calls such as ['pass', '8'], not {type(calls).__name__}",
        )
    for call in calls:
        auction.call(call)
    return auction


__all__ = ["IllegalCall", "Auction", "run_auction", "legal_calls", "PASS", "PARTOUT"]
