"""Contracts and bids: the shared vocabulary of the auction, settlement and analyses.

Names (API.md): a *contract* is "5".."13" or "LM", "GM", "LS", "GS" (R9); a *bid* (call)
is a contract with, for numbers, an optional tier: "8" (plain), "8-2nd" (second
preference, "I keep"), "8-1st" (first preference, "I keep over") (R11). Tiers only
order bids and bind the trump (R12); they change no payment (R24).

Kernels use integer ids: numbers are themselves (5..13), misères and spreads are the
kinds of kernels/settlement_tables.py (`misere_kind`).
"""

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from kernels.settlement_tables import (
    GRAND_MISERE,
    GRAND_SPREAD,
    LITTLE_MISERE,
    LITTLE_SPREAD,
    MAX_CONTRACT,
    MIN_CONTRACT,
)

# R9: the contract ladder, lowest to highest
LADDER = ("5", "6", "7", "LM", "8", "9", "GM", "10", "11", "LS", "12", "GS", "13")
NUMERIC_CONTRACTS = tuple(str(n) for n in range(MIN_CONTRACT, MAX_CONTRACT + 1))
MISERE_CONTRACTS = ("LM", "GM", "LS", "GS")  # misères and spreads (R15, R16)
SPREAD_CONTRACTS = ("LS", "GS")
LITTLE_CONTRACTS = ("LM", "LS")  # one discard each, 12 tricks (R15)

TIERS = ("plain", "2nd", "1st")  # R11, lowest to highest within one number
PLAIN_BID_TRUMP_OPTIONS = ("any", "plain-only")  # R12 Decision, default first

_MISERE_KIND = {"LM": LITTLE_MISERE, "GM": GRAND_MISERE, "LS": LITTLE_SPREAD, "GS": GRAND_SPREAD}
_LADDER_RANK = {c: i for i, c in enumerate(LADDER)}


def _bid_name(contract, tier):
    return contract if tier == "plain" else f"{contract}-{tier}"


# R11: the full bid order, each number expanded into its three tiers
BID_ORDER = tuple(
    _bid_name(c, tier)
    for c in LADDER
    for tier in (TIERS if c in NUMERIC_CONTRACTS else ("plain",))
)
_BID_RANK = {b: i for i, b in enumerate(BID_ORDER)}

Bid = namedtuple("Bid", ["contract", "tier"])
Bid.__doc__ = "A parsed bid: its contract ('8', 'LM', ...) and tier ('plain', '2nd', '1st')."


def _normalise(text):
    """Canonical spelling of a contract or bid: upper-case misères, lower-case tiers."""
    if isinstance(text, (bool, np.bool_)):
        return None
    if isinstance(text, (int, np.integer)):
        return str(int(text))
    if not isinstance(text, str):
        return None
    t = text.strip()
    head, sep, tail = t.partition("-")
    return head.strip().upper() + (sep + tail.strip().lower() if sep else "")


def parse_contract(contract, field="contract") -> str:
    """Canonical contract name ("5".."13", "LM", "GM", "LS", "GS"); ValueError naming `field`."""
    if isinstance(contract, Contract):
        return contract.name
    name = _normalise(contract)
    if name not in _LADDER_RANK:
        raise ValueError(
            f"{field}: {contract!r} is not a contract (one of {', '.join(LADDER)})"
        )
    return name


NUMERIC, MISERE, SPREAD = "numeric", "misere", "spread"  # the kinds of Contract


@dataclass(frozen=True)
class Contract:
    """A contract read once: everything settlement and the analyses ask of it.

    Get one with `as_contract`; there is exactly one value per contract of the ladder, so
    helpers that take a Contract never parse text again.
    """

    name: str  # "5".."13", "LM", "GM", "LS", "GS" (R9)
    kind: str  # NUMERIC (R10), MISERE (R15) or SPREAD (R16)
    little: bool  # LM and LS: one discard each, 12 tricks (R15)
    tricks_needed: int  # a number's tricks (R10); 0 for a misère or spread (it takes none)
    tricks_played: int  # 12 for LM and LS (R15), else 13
    ladder_rank: int  # position on the ladder of R9, 0 = "5"
    misere_kind: int | None  # kernels/settlement_tables.py's kind of LM..GS; None for numbers

    @property
    def is_numeric(self) -> bool:
        return self.kind == NUMERIC

    @property
    def is_misere(self) -> bool:
        """A misère or a spread (both are played to take no trick, R15, R16)."""
        return self.kind != NUMERIC

    @property
    def is_spread(self) -> bool:
        return self.kind == SPREAD

    @property
    def concedable(self) -> bool:
        """R28: the defenders may concede a made 5 or 6, which saves the pool."""
        return self.kind == NUMERIC and self.tricks_needed <= 6

    def wins_pool(self, made: bool, conceded: bool = False) -> bool:
        """R28: a made contract wins the pool unless it is a conceded 5 or 6."""
        return bool(made) and not (conceded and self.concedable)

    def __str__(self) -> str:
        return self.name


def _build_contract(name: str) -> Contract:
    numeric = name in NUMERIC_CONTRACTS
    return Contract(
        name=name,
        kind=NUMERIC if numeric else SPREAD if name in SPREAD_CONTRACTS else MISERE,
        little=name in LITTLE_CONTRACTS,
        tricks_needed=int(name) if numeric else 0,
        tricks_played=12 if name in LITTLE_CONTRACTS else 13,
        ladder_rank=_LADDER_RANK[name],
        misere_kind=None if numeric else _MISERE_KIND[name],
    )


_CONTRACTS = {name: _build_contract(name) for name in LADDER}


def as_contract(contract, field="contract") -> Contract:
    """The one `Contract` value of a contract name (a Contract is returned as it is).

    Raises ValueError naming `field` for anything that is not a contract of the ladder.
    """
    if isinstance(contract, Contract):
        return contract
    return _CONTRACTS[parse_contract(contract, field)]


def parse_bid(call, field="bid") -> Bid:
    """The (contract, tier) of a bid such as "8", "8-2nd", "8-1st" or "LM".

    Raises ValueError naming `field` for anything else.
    """
    name = _normalise(call)
    if name not in _BID_RANK:
        raise ValueError(
            f"{field}: {call!r} is not a bid (a number 5..13, optionally with -2nd or -1st, "
            f"or LM, GM, LS, GS)"
        )
    head, _, tier = name.partition("-")
    return Bid(head, tier or "plain")


def bid_name(contract, tier="plain") -> str:
    """The bid text for a contract and tier, e.g. ("8", "2nd") -> "8-2nd" (R11)."""
    contract = parse_contract(contract)
    if tier not in TIERS:
        raise ValueError(f"tier: {tier!r} is not one of {', '.join(TIERS)}")
    if tier != "plain" and contract not in NUMERIC_CONTRACTS:
        raise ValueError(f"tier: {contract} has no tiers (only numeric bids do, R11)")
    return _bid_name(contract, tier)


def contract_of(call, field="contract") -> str:
    """The contract of a bid or contract name: "8-1st" -> "8", "LM" -> "LM"."""
    if isinstance(call, Contract):
        return call.name
    return parse_bid(call, field=field).contract


def bid_rank(call) -> int:
    """Position of a bid in the full bid order of R11 (0 = "5"); higher beats lower."""
    bid = parse_bid(call)
    return _BID_RANK[_bid_name(*bid)]


def ladder_rank(contract) -> int:
    """Position of a contract on the ladder of R9 (0 = "5", 12 = "13")."""
    return as_contract(contract).ladder_rank


def _of_call(call) -> Contract:
    """The Contract of a bid or contract name: "8-1st" -> "8", "LM" -> "LM"."""
    if isinstance(call, Contract):
        return call
    return _CONTRACTS[parse_bid(call, field="contract").contract]


def is_numeric(contract) -> bool:
    """Whether a contract (or bid) is a numeric contract 5..13 (R10)."""
    return _of_call(contract).is_numeric


def is_misere(contract) -> bool:
    """Whether a contract (or bid) is a misère or spread: LM, GM, LS, GS (R15, R16)."""
    return _of_call(contract).is_misere


def is_spread(contract) -> bool:
    """Whether a contract is a spread, played with the declarer's hand exposed (R16)."""
    return _of_call(contract).is_spread


def is_little(contract) -> bool:
    """Whether a contract is little misère/spread: one discard each, 12 tricks (R15)."""
    return _of_call(contract).little


def tricks_needed(contract) -> int:
    """Tricks a numeric contract needs (R10); for a misère or spread, 0 (it must take none)."""
    return _of_call(contract).tricks_needed


def tricks_played(contract) -> int:
    """Tricks in the play of a contract: 12 for LM and LS (one discard each, R15), else 13."""
    return _of_call(contract).tricks_played


def misere_kind(contract) -> int:
    """Integer kind (0..3) of a misère/spread for kernels/settlement_tables.py (R25)."""
    c = _of_call(contract)
    if c.misere_kind is None:
        raise ValueError(f"contract: {c.name} is not a misère or spread")
    return c.misere_kind


def second_preference(first_preference) -> int:
    """The other suit of the first preference's colour: S<->C, H<->D (R6)."""
    _check_suit(first_preference, "first_preference")
    return 3 - int(first_preference)  # suits 0..3 = S H D C: S+C = H+D = 3


def tier_for(trump, first_preference) -> str:
    """The tier of a bid committed to `trump`: "1st" in the first preference, "2nd" in the
    second, "plain" in the two plain suits (R11, R12).

    Under `plain_bid_trump="any"` (R12 Decision, the default) a plain bid may still end
    up in a preference suit (`may_name`), so this is the tier that *commits* to the suit,
    which is what outranks equal numbers; the cheapest bid that lets a declarer choose
    `trump` is `cheapest_tier`.
    """
    _check_suit(trump, "trump")
    _check_suit(first_preference, "first_preference")
    if trump == first_preference:
        return "1st"
    if trump == second_preference(first_preference):
        return "2nd"
    return "plain"


def allowed_trumps(tier, first_preference, plain_bid_trump="any") -> tuple:
    """Suits the winner of a numeric bid of `tier` may name as trump (R12)."""
    _check_suit(first_preference, "first_preference")
    _check_plain_bid_trump(plain_bid_trump)
    second = second_preference(first_preference)
    if tier == "1st":
        return (first_preference,)
    if tier == "2nd":
        return (second,)
    if tier != "plain":
        raise ValueError(f"tier: {tier!r} is not one of {', '.join(TIERS)}")
    if plain_bid_trump == "any":
        return (0, 1, 2, 3)
    return tuple(s for s in range(4) if s not in (first_preference, second))


def may_name(trump, tier, first_preference, plain_bid_trump="any") -> bool:
    """Whether the winner of a bid of `tier` may name `trump` (R12)."""
    _check_suit(trump, "trump")
    return trump in allowed_trumps(tier, first_preference, plain_bid_trump)


def cheapest_tier(trump, first_preference, plain_bid_trump="any") -> str:
    """The lowest tier whose winner may name `trump` (R11, R12): "plain" for every suit
    under `plain_bid_trump="any"`, else `tier_for(trump, first_preference)`."""
    for tier in TIERS:
        if may_name(trump, tier, first_preference, plain_bid_trump):
            return tier
    raise AssertionError("unreachable: the 1st tier always allows the first preference")


# 4-3-2-1 points of J, Q, K, A (ranks 9..12), for natural_trump's tie-break
_HCP = {9: 1, 10: 2, 11: 3, 12: 4}


def natural_trump(hand_mask) -> int:
    """The trump a declarer names from its own hand: the longest suit; ties broken by more
    4-3-2-1 high-card points (A=4, K=3, Q=2, J=1) in the suit, then by suit order S H D C.

    This is the project's stated rule for analyses that need one trump per hand (a declarer
    who may name any suit, R12 Decision "any"); it is a convention, not part of the game.
    """
    mask = int(hand_mask)
    if mask < 0 or mask >> 52:
        raise ValueError(f"hand_mask: {mask:#x} has bits outside the 52 cards")
    if mask == 0:
        raise ValueError("hand_mask: an empty hand has no natural trump")

    def key(suit):
        holding = (mask >> (13 * suit)) & 0x1FFF
        points = sum(p for rank, p in _HCP.items() if holding >> rank & 1)
        return (-holding.bit_count(), -points, suit)

    return min(range(4), key=key)


def _check_suit(suit, field):
    """Accept a suit 0..3 (Python or numpy integer) or raise ValueError naming `field`."""
    if isinstance(suit, bool) or not isinstance(suit, (int, np.integer)) or not 0 <= suit <= 3:
        raise ValueError(f"{field}: {suit!r} is not a suit 0..3 (S, H, D, C)")


def _check_plain_bid_trump(option):
    if option not in PLAIN_BID_TRUMP_OPTIONS:
        raise ValueError(
            f"plain_bid_trump: {option!r} is not one of {', '.join(PLAIN_BID_TRUMP_OPTIONS)}"
        )


__all__ = [
    "Contract", "as_contract", "NUMERIC", "MISERE", "SPREAD",
    "LADDER", "NUMERIC_CONTRACTS", "MISERE_CONTRACTS", "SPREAD_CONTRACTS", "LITTLE_CONTRACTS",
    "TIERS", "PLAIN_BID_TRUMP_OPTIONS", "BID_ORDER", "Bid", "parse_contract", "parse_bid",
    "bid_name", "contract_of", "bid_rank", "ladder_rank", "is_numeric", "is_misere",
    "is_spread", "is_little", "tricks_needed", "tricks_played", "misere_kind",
    "second_preference", "tier_for", "allowed_trumps", "may_name", "cheapest_tier",
    "natural_trump",
]
