"""Should I bid this? One hand analysed against random completions of the other 39 cards.

The flow (STYLE.md, after redeal): prepare (read and check the hand, the position and the
known cards) → deal (the rest uniform, `analyser.dealing.deal_known`) → solve (double-dummy,
`analyser.solver.solve_declarer`: tricks in each trump, grand and little misère) →
summarise (P(make) with Wilson intervals, trick distributions, expected payments from
`analyser.payments`, the recommendation and the little-misère verdict).

Seats: the dealer sits West, so the seat at `position` p from the dealer's left is seat p
(0 = N leads to the first trick, R18; 1 = E; 2 = S; 3 = W = the dealer). Known cards of the
other players are named by these letters.

Only double-dummy play exists so far: every hand is visible to everyone, which makes the
spreads (R16) exactly as easy as the misères; imperfect-information policies do not exist
yet and the notes of every result say so.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from analyser import options
from analyser.cards import (
    SEAT_LETTERS,
    SUIT_LETTERS,
    CardError,
    card_name,
    format_hand,
    parse_hand,
    parse_seat,
    parse_suit,
    shape,
)
from analyser.constants import DEALER, DEFAULT_POOL, LEADER
from analyser.errors import UserError
from analyser.stats import wilson_interval

NUMERIC = tuple(str(n) for n in range(5, 14))
MISERES = ("LM", "GM", "LS", "GS")
DEFAULT_SAMPLES = None  # by default, as many samples as the time budget below allows
BUDGET_SECONDS = 10.0  # issue 5: the default answers in about 10 s once compiled
BUDGET_MAX_SAMPLES = 1000  # the default's cap: intervals are then at most about +-3%
CHUNK = 250  # deals solved per step: the progress bar's granularity
BUDGET_FIRST_STEP = 2  # under a time budget: the first step, one deal per core

DOUBLE_DUMMY_NOTE = (
    "Double-dummy only: every player sees every hand. Imperfect-information play "
    "policies do not exist yet, so no result here uses them; spreads (LS, GS) are "
    "therefore made exactly when the matching misère is (R16 exposure changes nothing "
    "when all hands are visible)."
)
PASS_NOTE = (
    "Passing is valued at 0: what the hand wins or loses when another player declares, "
    "or in misère partout (R26), is not modelled."
)


# ------------------------------------------------------------------------------ inputs


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
    return HandQuery(
        hand=mask,
        position=seat,
        first_preference=preference,
        pool=options.pool(pool),
        samples=options.count(samples, "samples"),
        seed=options.seed(seed),
        known=_parse_known(known, mask, seat),
        budget=budget,
    )


# ---------------------------------------------------------------------- deal and solve


def deal(query: HandQuery) -> np.ndarray:
    """The (n, 4) completions: each seat keeps its known cards, the rest uniform (seeded)."""
    from analyser.dealing import deal_known

    return deal_known(np.array(query.known, dtype=np.uint64), query.samples, query.seed)


def solve(query: HandQuery, deals, progress: bool = False):
    """Double-dummy results of the declarer at `position` on each deal (R18: N leads):
    (tricks (n, 4) int8 by trump, grand (n,) bool, little (n,) bool).

    With a time budget (`query.budget`) the deals are solved in order, in steps sized from
    the rate so far, until the budget is spent; only that prefix is returned. Deal i is the
    same whatever the count (`deal_known` draws them in order), so the answer equals a run
    with `samples` set to the count solved and the same seed.
    """
    from analyser.solver import solve_declarer

    n = len(deals)
    tricks = np.zeros((n, 4), dtype=np.int8)
    grand = np.zeros(n, dtype=bool)
    little = np.zeros(n, dtype=bool)
    bar = None
    if progress:
        from tqdm import tqdm

        desc = "solving" if query.budget is None else f"solving ({query.budget:g} s budget)"
        bar = tqdm(total=None if query.budget else n, unit="deal", desc=desc,
                   file=sys.stderr, leave=False)
    # Solving is deterministic, so the chunking for the progress bar changes no result.
    start = 0
    began = time.perf_counter()
    while start < n:
        step = CHUNK
        if query.budget is not None:
            elapsed = time.perf_counter() - began
            if start and elapsed >= query.budget:
                break
            # first a small step (it also loads the compiled solver), then what the rate
            # so far says fits in half the time left, but never more deals than are solved
            # already: solve times vary a lot from deal to deal (a few easy completions
            # first once made one step of 250 overrun a 10 s budget fivefold); none that
            # would overrun it by half
            rate = start / max(elapsed, 1e-9)
            step = BUDGET_FIRST_STEP if not start else int(rate * (query.budget - elapsed) / 2)
            step = max(BUDGET_FIRST_STEP, min(CHUNK, start, step))
            if start and elapsed + step / rate > 1.5 * query.budget:
                break
        stop = min(n, start + step)
        t, g, lm = solve_declarer(deals[start:stop], query.position, LEADER,
                                  defender_discard="highest")
        tricks[start:stop] = t
        grand[start:stop] = g
        little[start:stop] = lm
        if bar is not None:
            bar.update(stop - start)
        start = stop
    if bar is not None:
        bar.close()
    return tricks[:start], grand[:start], little[:start]


def simulate(query: HandQuery, progress: bool = False):
    """Deal the completions and solve each: (deals, tricks, grand, little), all cut to the
    completions solved (fewer than dealt only under a time budget)."""
    deals = deal(query)
    tricks, grand, little = solve(query, deals, progress)
    return (deals[: len(tricks)], tricks, grand, little)


# ---------------------------------------------------------------------------- summarise


@dataclass(frozen=True)
class Recommendation:
    """The bid with the best expected value, or "pass" when none beats 0."""

    bid: str  # "pass" or a contract "5".."13", "LM", "GM", "LS", "GS"
    trump: int | None  # the suit it is played in; None for pass and the misères
    tier: str | None  # R11 tier of the bid in that trump (numbers only)
    call: str  # what to say in the auction: "pass", "8", "8-1st", "LM", ...
    ev_total: Fraction  # the declarer's expected result incl. the pool term (0 for pass)

    def text(self) -> str:
        """One sentence for the report."""
        if self.bid == "pass":
            return "pass: no bid has a positive expected value."
        where = "" if self.trump is None else f" in {SUIT_LETTERS[self.trump]}"
        text = f"bid {self.call}{where}: expected result {_signed(self.ev_total)} per hand."
        if self.bid in ("LS", "GS"):
            text += (" (Double-dummy makes a spread as easy as its misère; exposing the hand "
                     "helps real defenders, so treat this with care.)")
        return text


@dataclass(frozen=True)
class LittleMisereVerdict:
    """Little misère (R15) against the best bid that is not a misère or spread (or pass)."""

    made: int
    samples: int
    p_make: float
    ci_low: float
    ci_high: float
    breakeven: Fraction  # LM beats the alternative exactly when P(make) exceeds this
    against: str  # the alternative's call ("pass", "6", "8-1st"...)
    against_ev: Fraction
    verdict: str  # "bid" or "pass"

    def text(self) -> str:
        """The verdict in words, with its probability, interval and break-even."""
        p = f"{100 * self.p_make:.1f}%"
        ci = f"95% CI {100 * self.ci_low:.1f}-{100 * self.ci_high:.1f}%"
        if self.breakeven >= 1:
            need = "it can never beat that"
        elif self.breakeven <= 0:
            need = "it beats that whatever its chance"
        else:
            share = f"{100 * float(self.breakeven):.1f}%"
            need = f"it beats that only when made more than {share} of the time"
        alternative = (
            "passing (0)" if self.against == "pass"
            else f"the best other bid, {self.against} ({_signed(self.against_ev)})"
        )
        if self.verdict == "bid":
            sure = self.ci_low > self.breakeven
            word = "bid it" + ("" if sure else " (but the interval reaches the break-even)")
        else:
            sure = self.ci_high < self.breakeven
            word = "do not bid it" + ("" if sure else " (but the interval reaches the break-even)")
        return (
            f"Little misère is made in {p} of samples ({ci}). Against {alternative}, "
            f"{need}: {word}."
        )


@dataclass
class HandAnalysis:
    """Everything `analyse_hand` found: the contract table, trick distributions and advice."""

    query: HandQuery
    table: pd.DataFrame  # one row per contract on the ladder (R9), in ladder order
    tricks: pd.DataFrame  # sample counts of 0..13 declarer tricks, one row per trump
    recommendation: Recommendation
    little_misere: LittleMisereVerdict
    seconds: float
    rows: list[dict] = field(default_factory=list)  # the table's rows with exact Fractions
    notes: list[str] = field(default_factory=list)

    @property
    def samples(self) -> int:
        """Number of random completions solved."""
        return int(self.tricks.iloc[0].sum())

    def to_dict(self) -> dict:
        """The result as plain JSON types (the schema documented in cmd_hand.DESCRIPTION)."""
        q = self.query
        contracts = [
            {
                "contract": r["contract"],
                "trump": r["trump"],
                "tier": r["tier"],
                "bid": r["bid"],
                "made": int(r["made"]),
                "p_make": float(r["p_make"]),
                "ci_low": float(r["ci_low"]),
                "ci_high": float(r["ci_high"]),
                "mean_tricks": None if math.isnan(r["mean_tricks"]) else float(r["mean_tricks"]),
                "ev_per_opponent": float(r["ev_per_opponent_exact"]),
                "ev_payments": float(r["ev_payments_exact"]),
                "pool_term": float(r["pool_term_exact"]),
                "ev_total": float(r["ev_total_exact"]),
                "ev_per_opponent_exact": str(r["ev_per_opponent_exact"]),
                "ev_payments_exact": str(r["ev_payments_exact"]),
                "pool_term_exact": str(r["pool_term_exact"]),
                "ev_total_exact": str(r["ev_total_exact"]),
            }
            for r in self.rows
        ]
        rec = self.recommendation
        lm = self.little_misere
        return {
            "hand": format_hand(q.hand),
            "shape": shape(q.hand),
            "position": q.position,
            "seat": SEAT_LETTERS[q.position],
            "dealer": SEAT_LETTERS[DEALER],
            "leader": SEAT_LETTERS[LEADER],
            "first_preference": None if q.first_preference is None
            else SUIT_LETTERS[q.first_preference],
            "pool": q.pool,
            "pool_exact": str(q.pool),
            "known": {
                SEAT_LETTERS[s]: format_hand(m)
                for s, m in enumerate(q.known) if s != q.position and m
            },
            "samples": self.samples,
            "samples_budget_seconds": q.budget,
            "seed": q.seed,
            "seconds": round(self.seconds, 3),
            "samples_per_second": round(self.samples / self.seconds, 1) if self.seconds > 0
            else None,
            "max_ci_half_width": float(self.max_half_width()),
            "play": "double-dummy",
            "defender_discard": "highest",
            "contracts": contracts,
            "tricks": {
                SUIT_LETTERS[t]: [int(c) for c in self.tricks.iloc[t]] for t in range(4)
            },
            "recommendation": {
                "bid": rec.bid,
                "trump": None if rec.trump is None else SUIT_LETTERS[rec.trump],
                "tier": rec.tier,
                "call": rec.call,
                "ev_total": float(rec.ev_total),
                "ev_total_exact": str(rec.ev_total),
            },
            "little_misere": {
                "made": lm.made,
                "p_make": lm.p_make,
                "ci_low": lm.ci_low,
                "ci_high": lm.ci_high,
                "breakeven": float(lm.breakeven),
                "breakeven_exact": str(lm.breakeven),
                "against": lm.against,
                "against_ev": float(lm.against_ev),
                "verdict": lm.verdict,
                "text": lm.text(),
            },
            "notes": list(self.notes),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def max_half_width(self) -> float:
        """The widest 95% interval's half width over the table's rows."""
        return float(((self.table["ci_high"] - self.table["ci_low"]) / 2).max())


def _signed(value) -> str:
    """+12.34 / -5.00 style text of an amount."""
    return f"{float(value):+.2f}"


def _row(contract, trump, tier, made, n, ev, mean_tricks):
    """One table row (a dict) from a contract's counts and its ExpectedPayment."""
    from analyser.contracts import bid_name

    low, high = wilson_interval(made, n)
    return {
        "contract": contract,
        "trump": None if trump is None else SUIT_LETTERS[trump],
        "tier": tier,
        "bid": bid_name(contract, tier) if tier else contract,
        "made": made,
        "p_make": made / n,
        "ci_low": low,
        "ci_high": high,
        "mean_tricks": mean_tricks,
        "ev_per_opponent": float(ev.per_opponent),
        "ev_payments": float(ev.payments),
        "pool_term": float(ev.pool_term),
        "ev_total": float(ev.total),
        "ev_per_opponent_exact": ev.per_opponent,
        "ev_payments_exact": ev.payments,
        "pool_term_exact": ev.pool_term,
        "ev_total_exact": ev.total,
    }


def summarise(query: HandQuery, tricks, grand, little, seconds: float = 0.0) -> HandAnalysis:
    """Aggregate solved samples into the contract table, the recommendation and the LM verdict.

    `tricks` is (n, 4) declarer tricks by trump 0..3, `grand` and `little` (n,) bools
    (made grand / little misère), as `analyser.solver.solve_declarer` returns them.
    All money comes from `analyser.payments` (exact Fractions).
    """
    from analyser.contracts import LADDER, natural_trump, tier_for
    from analyser.payments import breakeven_probability, expected_payment, outcome_value

    tricks = np.asarray(tricks)
    grand = np.asarray(grand, dtype=bool)
    little = np.asarray(little, dtype=bool)
    n = len(tricks)
    if n == 0 or tricks.shape != (n, 4) or grand.shape != (n,) or little.shape != (n,):
        raise ValueError(
            f"tricks: expected (n, 4) tricks and (n,) misère flags with n > 0, got "
            f"{tricks.shape}, {grand.shape}, {little.shape}"
        )
    counts = np.stack([np.bincount(tricks[:, t].astype(np.int64), minlength=14)
                       for t in range(4)])
    natural = natural_trump(query.hand)
    rows = {}
    for contract in NUMERIC:
        need = int(contract)
        # R12: the declarer names one trump before play; choose the one with the best mean
        # result (ties: more makes, then the hand's natural trump, then suit order).
        options = []
        for trump in range(4):
            ev = expected_payment(contract, counts=counts[trump], pool=query.pool)
            made = int(counts[trump, need:].sum())
            options.append(((-ev.total, -made, trump != natural, trump), trump, made, ev))
        _, trump, made, ev = min(options, key=lambda o: o[0])
        tier = "plain" if query.first_preference is None else tier_for(trump,
                                                                          query.first_preference)
        mean = float((counts[trump] * np.arange(14)).sum() / n)
        rows[contract] = _row(contract, trump, tier, made, n, ev, mean)
    # R16: double-dummy, a spread is made exactly when the misère of the same size is
    for contract, flags in (("LM", little), ("GM", grand), ("LS", little), ("GS", grand)):
        ev = expected_payment(contract, made=flags, pool=query.pool)
        rows[contract] = _row(contract, None, None, int(flags.sum()), n, ev, math.nan)
    table = pd.DataFrame([rows[c] for c in LADDER])

    # the recommendation: best expected result over the ladder, pass (0) when none beats 0;
    # ties go to the lower contract, the easier one to win in the auction (R9)
    best = max(LADDER, key=lambda c: (rows[c]["ev_total_exact"], -LADDER.index(c)))
    if rows[best]["ev_total_exact"] > 0:
        r = rows[best]
        trump = None if r["trump"] is None else SUIT_LETTERS.index(r["trump"])
        recommendation = Recommendation(best, trump, r["tier"], r["bid"], r["ev_total_exact"])
    else:
        recommendation = Recommendation("pass", None, None, "pass", Fraction(0))

    # little misère against the best numeric bid or pass: the choice LM really competes with
    alt = max(NUMERIC, key=lambda c: (rows[c]["ev_total_exact"], -LADDER.index(c)))
    alt_ev = rows[alt]["ev_total_exact"]
    if alt_ev <= 0:
        alt, alt_ev = "pass", Fraction(0)
    else:
        alt = rows[alt]["bid"]
    gain = outcome_value("LM", made=True, pool=query.pool)
    loss = -outcome_value("LM", made=False, pool=query.pool)
    breakeven = breakeven_probability(gain, loss, alt_ev)
    lm = rows["LM"]
    verdict = "bid" if Fraction(lm["made"], n) > breakeven else "pass"
    little_verdict = LittleMisereVerdict(
        made=lm["made"], samples=n, p_make=lm["p_make"], ci_low=lm["ci_low"],
        ci_high=lm["ci_high"], breakeven=breakeven, against=alt, against_ev=alt_ev,
        verdict=verdict,
    )

    trick_table = pd.DataFrame(counts, index=list(SUIT_LETTERS), columns=list(range(14)))
    trick_table.index.name = "trump"
    notes = [DOUBLE_DUMMY_NOTE, PASS_NOTE,
             "A made 5 or 6 is assumed conceded by the defenders (R28), so it does not win "
             "the pool; a made 7 or higher, misère or spread wins it; any failure pays the "
             "active pool into it again (R29)."]
    if query.first_preference is None:
        notes.append("No first preference given: every trump is treated as a plain suit, "
                     "so no bid needs a preference tier (R11, R12).")
    else:
        notes.append("Tiers: '1st'/'2nd' are the bids that commit to the first/second "
                     "preference and outrank plain bids of the same number (R11, R12); a "
                     "plain bid may also name any suit (R12 Decision 'any').")
    return HandAnalysis(query, table, trick_table, recommendation, little_verdict,
                        seconds, [rows[c] for c in LADDER], notes)


def analyse_hand(hand, position=0, first_preference=None, pool=DEFAULT_POOL,
                 samples=DEFAULT_SAMPLES, seed=0, known=None, progress=False) -> HandAnalysis:
    """Analyse one hand as declarer against `samples` random completions of the deal
    (default None: as many as `BUDGET_SECONDS` allow, at most `BUDGET_MAX_SAMPLES`; the
    result states the count, and that count with the same seed reproduces it exactly).

    `hand` is PBN text ("AQ32.KJ9.T87.654") or a mask; `position` is the seat counted from
    the dealer's left (0 leads, R18), which is also its seat N/E/S/W here (the dealer is W);
    `known` fixes cards of the other seats ("E:A.K.. W:..Q.", a list of such, or a dict
    {seat: hand}); the remaining cards are dealt uniformly. Returns a `HandAnalysis` with
    `.table` (DataFrame), `.recommendation`, `.little_misere` and `.to_json()`.
    Bad input raises `CardError`/`UserError` naming the problem.
    """
    query = prepare(hand, position, first_preference, pool, samples, seed, known)
    start = time.perf_counter()
    _, tricks, grand, little = simulate(query, progress=progress)
    seconds = time.perf_counter() - start
    return summarise(query, tricks, grand, little, seconds)
