"""Bidding strategies: what a player calls in the auction (R9-R14) and which trump it names.

A strategy sees what a player knows at its turn (`CallView`): its own hand, its seat and
the dealer's, the preference suits turned up (R6), the calls so far and the active pool.
It answers with one of the legal calls. The session simulation (analyser/session.py) asks
each seat's strategy in turn and runs the calls through analyser.auction.

Strategies are data: a TOML (or JSON) file of thresholds on the estimated P(make) of each
contract (analyser/estimate.py), read by `load_strategy`; the built-ins "cautious",
"standard" and "bold" are such files in analyser/data/strategies/. docs/strategies.md
describes every field.

The threshold family (`ThresholdStrategy`): among the legal calls (so a player who has
passed is only offered misères and spreads, R13), it bids the highest contract of the
ladder (R9) whose estimated P(make) is at least the contract's threshold, in the cheapest
tier (R11) whose allowed trumps (R12) reach that estimate; else it passes. A contract
without a threshold is never bid. Lowering a threshold therefore never lowers the
contract bid on the same view.

The expected-value family (`ExpectedValueStrategy`): among the same qualifying legal bids
(every contract qualifies when the file has no thresholds), it bids the one with the best
expected result for the declarer at the active pool, payments and pool term (R24-R30,
analyser.payments) over the estimated trick distribution, if that beats passing by more
than `min_ev` units; else it passes. Passing is worth the hand's pass value (the shipped
table of analyser/pass_value.py, by position and high-card points: what a seat that does
not declare wins or loses as a defender or in partout, R24-R26, R30), or a fixed number of
units given as `pass_value` in the file (0 judges each bid alone).
"""

import functools
import json
import math
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Protocol

import numpy as np

from analyser import estimate as estimates
from analyser import pass_value as pass_values
from analyser import payments
from analyser.auction import PASS
from analyser.constants import DEFAULT_POOL
from analyser.contracts import (
    LADDER,
    MISERE_CONTRACTS,
    NUMERIC_CONTRACTS,
    allowed_trumps,
    ladder_rank,
    parse_bid,
)
from analyser.errors import UserError


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
    plain_bid_trump: str = "any"  # R12 Decision: the suits a plain bid's winner may name

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


BUILTINS = ("cautious", "standard", "bold")
THRESHOLD, EXPECTED_VALUE = "threshold", "ev"
FAMILIES = (THRESHOLD, EXPECTED_VALUE)
NUMBERS_KEY = "numbers"  # one threshold for every number 5..13 not listed on its own
TOP_KEYS = ("name", "description", "family", "thresholds", "min_ev", "pass_value")
PASS_TABLE = "table"  # `pass_value = "table"`: the shipped pass-value table (the default)
THRESHOLD_KEYS = (NUMBERS_KEY, *NUMERIC_CONTRACTS, *MISERE_CONTRACTS)


def _numeric_bid(bid: str, first_preference: int, plain_bid_trump: str) -> tuple[str, tuple]:
    """The contract of a numeric `bid` and the trumps its winner may name (R12)."""
    contract, tier = parse_bid(bid)
    if contract not in NUMERIC_CONTRACTS:
        raise ValueError(f"bid: {bid!r} is not a numeric bid; misères have no trump (R20)")
    return contract, allowed_trumps(tier, first_preference, plain_bid_trump)


@dataclass
class ThresholdStrategy:
    """Bid the highest legal contract whose estimated P(make) reaches its threshold."""

    name: str
    thresholds: dict  # contract ("5".."13", "LM", "GM", "LS", "GS") -> threshold in [0, 1]
    estimate: estimates.Estimate = field(repr=False)
    description: str = ""
    source: str = ""  # the file it was read from

    def _qualifies(self, view: CallView, contract: str, tier: str) -> bool:
        threshold = self.thresholds.get(contract)
        if threshold is None:
            return False
        trumps = (0, 1, 2, 3) if contract in MISERE_CONTRACTS else allowed_trumps(
            tier, view.first_preference, view.plain_bid_trump)
        return self.estimate.probability(view.hand, view.position, contract, trumps) >= threshold

    def call(self, view: CallView) -> str:
        """The cheapest legal tier of the highest contract that qualifies, else pass."""
        best = None  # (ladder rank, bid)
        for bid in view.legal:
            if bid == PASS:
                continue
            contract, tier = parse_bid(bid)
            rank = ladder_rank(contract)
            if (best is None or rank > best[0]) and self._qualifies(view, contract, tier):
                best = (rank, bid)  # legal bids rise, so the first of a contract is its cheapest
        return PASS if best is None else best[1]

    def name_trump(self, hand: int, bid: str, first_preference: int,
                   plain_bid_trump: str = "any", position: int = 0) -> int:
        """The allowed trump (R12) with the best estimated P(make `bid`). The position adds
        the same to every suit's log-odds, so the leader's (0) serves as the default."""
        contract, trumps = _numeric_bid(bid, first_preference, plain_bid_trump)
        numbers, _ = self.estimate.hand(hand, position)
        column = int(contract) - int(NUMERIC_CONTRACTS[0])
        return max(trumps, key=lambda t: (numbers[t, column], -t))


@functools.lru_cache(maxsize=1024)
def outcome_values(contract: str, pool: Fraction) -> np.ndarray:
    """The declarer's whole result (payments and pool term, R24-R30) of each outcome of
    `contract` at the active `pool`: by tricks taken 0..13 for a number, (failed, made)
    for a misère or spread; floats, for comparing bids only (settlement stays exact)."""
    if contract in NUMERIC_CONTRACTS:
        outcomes = [{"tricks": k} for k in range(int(NUMERIC_CONTRACTS[-1]) + 1)]
    else:
        outcomes = [{"made": False}, {"made": True}]
    values = np.array([float(payments.outcome_value(contract, pool=pool, **o)) for o in outcomes])
    values.flags.writeable = False  # shared by every caller through the cache
    return values


@dataclass
class ExpectedValueStrategy(ThresholdStrategy):
    """Bid the qualifying legal bid with the best expected result, if it beats passing."""

    min_ev: float = 0.0  # units the expected result must exceed passing by
    # what passing is worth: a pass_value.PassValueTable (by position and hcp), or units
    pass_value: object = PASS_TABLE

    def passing(self, hand: int, position: int) -> float:
        """What passing is worth to `hand` at `position` (0..3 from the dealer's left)."""
        table = pass_values.default_table() if self.pass_value == PASS_TABLE else self.pass_value
        if not isinstance(table, pass_values.PassValueTable):
            return float(table)
        return float(table.value_of(position, hand))

    def expected_values(self, hand: int, position: int, contract: str, trumps,
                        pool) -> np.ndarray:
        """The expected result of declaring `contract` with each of `trumps` (one value for a
        misère, which has no trump), from the estimate's trick distribution."""
        values = outcome_values(contract, Fraction(pool))
        if contract in MISERE_CONTRACTS:
            p = self.estimate.probability(hand, position, contract)
            return np.array([(1 - p) * values[0] + p * values[1]])
        return self.estimate.hand_distribution(hand, position)[list(trumps)] @ values

    def call(self, view: CallView) -> str:
        """The qualifying legal bid of the best expected result (the cheaper on a tie) if it
        exceeds passing's value by more than `min_ev`, else pass."""
        best = None  # (expected result, bid)
        for bid in view.legal:
            if bid == PASS:
                continue
            contract, tier = parse_bid(bid)
            if not self._qualifies(view, contract, tier):
                continue
            trumps = () if contract in MISERE_CONTRACTS else allowed_trumps(
                tier, view.first_preference, view.plain_bid_trump)
            value = float(self.expected_values(view.hand, view.position, contract, trumps,
                                               view.pool).max())
            if best is None or value > best[0]:
                best = (value, bid)
        if best is None or best[0] <= self.passing(view.hand, view.position) + self.min_ev:
            return PASS
        return best[1]

    def name_trump(self, hand: int, bid: str, first_preference: int,
                   plain_bid_trump: str = "any", position: int = 0,
                   pool=DEFAULT_POOL) -> int:
        """The allowed trump (R12) with the best expected result of `bid` at `pool`."""
        contract, trumps = _numeric_bid(bid, first_preference, plain_bid_trump)
        values = self.expected_values(hand, position, contract, trumps, pool)
        return trumps[int(np.argmax(values))]


def _field_error(where: str, name: str, problem: str) -> UserError:
    return UserError(f"{where}:{name}: {problem}")


def _threshold(value, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _field_error(where, name, f"must be a number in [0, 1], got {value!r}")
    if not 0 <= value <= 1:
        raise _field_error(where, name, f"must be in [0, 1], got {value!r}")
    return float(value)


def parse_strategy(data, where: str, estimate=None, default_name: str = "") -> ThresholdStrategy:
    """A strategy from the parsed contents of a strategy file; `where` (the file) prefixes
    every error, which names the field: "FILE:thresholds.LM: must be in [0, 1], got 1.5"."""
    if not isinstance(data, dict):
        raise UserError(f"{where}: a strategy file holds a table of fields ({', '.join(TOP_KEYS)})")
    unknown = [k for k in data if k not in TOP_KEYS]
    if unknown:
        raise _field_error(where, unknown[0], f"unknown field (fields: {', '.join(TOP_KEYS)})")
    name = data.get("name", default_name)
    for key, value in (("name", name), ("description", data.get("description", ""))):
        if not isinstance(value, str):
            raise _field_error(where, key, f"must be text, got {value!r}")
    if not name.strip():
        raise _field_error(where, "name", "must not be empty")
    family = data.get("family", THRESHOLD)
    if family not in FAMILIES:
        raise _field_error(where, "family", f"{family!r} is not one of {', '.join(FAMILIES)}")
    for key in ("min_ev", "pass_value"):
        if family == THRESHOLD and key in data:
            raise _field_error(where, key, f"only the {EXPECTED_VALUE!r} family takes it")
    if family == THRESHOLD and "thresholds" not in data:
        raise _field_error(where, "thresholds", "missing (a table of contract = threshold)")
    # the ev family without thresholds weighs every contract (threshold 0)
    table = data.get("thresholds", {c: 0.0 for c in LADDER})
    if not isinstance(table, dict) or not table:
        raise _field_error(where, "thresholds", "must be a non-empty table of contract = "
                           "threshold")
    thresholds = {}
    for key, value in table.items():
        if key not in THRESHOLD_KEYS:
            raise _field_error(where, f"thresholds.{key}", f"not a contract (keys: "
                               f"{', '.join(THRESHOLD_KEYS)})")
        thresholds[key] = _threshold(value, where, f"thresholds.{key}")
    everyone = thresholds.pop(NUMBERS_KEY, None)
    if everyone is not None:
        for number in NUMERIC_CONTRACTS:
            thresholds.setdefault(number, everyone)
    common = {
        "name": name.strip(),
        "thresholds": {c: thresholds[c] for c in LADDER if c in thresholds},
        "estimate": estimate if estimate is not None else estimates.default_estimate(),
        "description": data.get("description", ""),
        "source": where,
    }
    if family == THRESHOLD:
        return ThresholdStrategy(**common)
    min_ev = data.get("min_ev", 0)
    if isinstance(min_ev, bool) or not isinstance(min_ev, (int, float)) or not math.isfinite(
            min_ev):
        raise _field_error(where, "min_ev", f"must be a number of units, got {min_ev!r}")
    passing = data.get("pass_value", PASS_TABLE)
    if passing == PASS_TABLE:
        passing = pass_values.default_table()
    elif isinstance(passing, bool) or not isinstance(passing, (int, float)) or not math.isfinite(
            passing):
        raise _field_error(where, "pass_value", f"must be {PASS_TABLE!r} or a number of units, "
                           f"got {passing!r}")
    else:
        passing = float(passing)
    return ExpectedValueStrategy(**common, min_ev=float(min_ev), pass_value=passing)


def read_strategy_file(path) -> dict:
    """The parsed contents of a TOML file (or JSON, by its .json suffix)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        return tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
        raise UserError(f"{path}: not valid {kind} ({exc})") from None


def _builtin_text(name: str) -> str:
    return resources.files("analyser").joinpath("data", "strategies", f"{name}.toml").read_text(
        "utf-8")


def load_strategy(name_or_path, model=None) -> ThresholdStrategy:
    """A built-in strategy by name ("cautious", "standard", "bold") or one read from a TOML
    or JSON file. `model` is an Estimate, or a path given to `analyser.estimate.load` (an
    estimate file, a folder holding estimate.json, or a run directory to fit); None uses
    the shipped default. A bad file raises UserError naming the file and the field."""
    if model is None or isinstance(model, estimates.Estimate):
        estimate = model
    else:
        estimate = estimates.load(model)
    text = str(name_or_path)
    if text in BUILTINS:
        data = tomllib.loads(_builtin_text(text))
        return parse_strategy(data, f"built-in {text}", estimate, text)
    path = Path(text)
    if not path.is_file():
        raise UserError(f"strategy {text!r} is neither a built-in ({', '.join(BUILTINS)}) nor "
                        "a file")
    return parse_strategy(read_strategy_file(path), str(path), estimate, path.stem)


__all__ = [
    "CallView", "Strategy", "ThresholdStrategy", "ExpectedValueStrategy", "outcome_values",
    "load_strategy", "parse_strategy",
    "read_strategy_file", "BUILTINS", "THRESHOLD_KEYS",
]
