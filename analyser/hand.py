"""Should I bid this? One hand analysed against random completions of the other 39 cards.

The flow (STYLE.md, after redeal): prepare (`analyser.hand_query`: read and check the hand,
the position and the known cards) → deal (the rest uniform, `analyser.dealing.deal_known`)
→ solve (double-dummy, `analyser.solver.solve_declarer`: tricks in each trump, grand and
little misère) → with `play="real"`, also play (`analyser.play.play_hand`, the
imperfect-information player) → summarise (P(make) with Wilson intervals, trick
distributions, expected payments from `analyser.payments`, the recommendation and the
little-misère verdict). Rendering is elsewhere: `reports.hand_text` and `reports.hand_plot`
draw `to_dict()`.

Three rules keep the estimates honest:
- each number is played in the declarer's natural trump (`contracts.natural_trump`), fixed
  from the hand alone before any completion is dealt: the trump that did best on the same
  samples would report a chance biased upward;
- under double-dummy play spreads (LS, GS) are shown but never recommended: every hand is
  visible, so exposing the declarer's hand (R16) changes nothing and a spread is made
  exactly when its misère is, although it pays far more;
- under real play the two numbers played for real are chosen by double-dummy EV on a pilot
  of completions from a seed stream of their own, so the samples that estimate them played
  no part in choosing them; the other numbers stay double-dummy only, are marked so and
  are never recommended beside real-play results.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.cards import SEAT_LETTERS, SUIT_LETTERS, format_hand, shape
from analyser.constants import DEALER, DEFAULT_POOL, LEADER
from analyser.contracts import LADDER, MISERE_CONTRACTS, NUMERIC_CONTRACTS, SPREAD_CONTRACTS
from analyser.hand_query import (
    BUDGET_MAX_SAMPLES,
    BUDGET_REAL_SECONDS,
    BUDGET_SECONDS,
    DEFAULT_SAMPLES,
    PLAYS,
    HandQuery,
    prepare,
)
from analyser.stats import wilson_interval

if TYPE_CHECKING:
    from analyser.pass_value import PassValue

CHUNK = 250  # deals solved per step: the progress bar's granularity
BUDGET_FIRST_STEP = 2  # under a time budget: the first step, one deal per core
TRUMP_RULE = "natural"  # numbers are played in contracts.natural_trump of the hand
REAL_NUMBERS = 2  # numbers played under real play: the best by double-dummy EV on the pilot
PILOT_DEALS = 64  # completions of the pilot that chooses them (its own seed stream)
DEFAULT_JOBS = os.cpu_count() or 1  # processes playing samples under real play
# SeedSequence spawn keys under the query's seed: the pilot's deals, and each real play
_PILOT_KEY, _PLAY_KEY = 0, 1
PLAY_NAMES = {"dd": "double-dummy", "real": "real"}  # the "play" of to_dict and of each row

DOUBLE_DUMMY_NOTE = (
    "Double-dummy play: every player sees every hand, so no result here models what the "
    "players cannot see."
)
TRUMP_NOTE = (
    "Each number is played in the hand's natural trump (its longest suit; ties by 4-3-2-1 "
    "points, then S, H, D, C), fixed before any sample is dealt, so its P(make) is an "
    "unbiased estimate; the trick table shows every trump for comparison, but choosing "
    "the suit that did best on these same samples would overstate its chance."
)
SPREAD_NOTE = (
    "Spreads (LS, GS) are shown but never recommended: with every hand visible, exposing "
    "the declarer's hand (R16) changes nothing, so double-dummy makes a spread exactly when "
    "its misère is, though it pays far more (R25); their rows show double-dummy play, not "
    "what real defenders who see the exposed hand would allow."
)
PASS_NOTE = (
    "Passing is valued at {value} (standard error {stderr}): the mean change of balance of "
    "a seat at {basis} that does not declare, as a defender (R24, R25, and the re-ante when "
    "the declarer takes the last pool, R30) or in misère partout (R26), over {hands} "
    "seat-hands of whole sessions ({source}; analyser/pass_value.py). Those sessions' pools "
    "are not this query's pool."
)
POOL_NOTE = (
    "A made 5 or 6 is assumed conceded by the defenders (R28), so it does not win the pool; "
    "a made 7 or higher, misère or spread wins it, and the pool being the only one, every "
    "player then pays the ante of 10 again, the declarer included (R30), so the pool term "
    "of a win is the pool less 10; any failure pays the active pool into it again (R29)."
)
REAL_NOTE = (
    "Real play (analyser.play, policy 'real'): each player sees only its own hand, the "
    "cards played and, in a spread, the declarer's exposed hand (R16), and chooses its cards "
    "by sampling the hidden cards; the declarer is this hand, N leads (R18). Contracts "
    "whose play is 'real' were played out that way once on every sample; the DD columns "
    "give the double-dummy rate and EV on the same samples."
)
REAL_CHOICE_NOTE = (
    "Played for real: the four misères and spreads and the {k} numbers with the best "
    "double-dummy EV on a pilot of {pilot} completions dealt from their own seed stream "
    "(so these samples played no part in choosing them); the other numbers are "
    "double-dummy only (play 'double-dummy', marked with ^) and are not recommended beside "
    "real-play results."
)
REAL_SPREAD_NOTE = (
    "Under real play the defenders see a spread's exposed hand (R16), so a spread (LS, GS) "
    "can fail where its misère (LM, GM) is made: both are played and compared on their own "
    "results."
)
DD_SPREAD_REASON = (
    "Spreads (LS, GS) are not recommended under double-dummy play: it makes a spread "
    "exactly when its misère is made, though the spread pays 4x more; --play real weighs "
    "them."
)
EXACT_NOTE = (
    "Every card is known: the one deal was solved once, so the results are exact and have "
    "no sampling interval."
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
            # already, since solve times vary widely from deal to deal and a rate measured
            # on a few easy completions must not size one long step; and no step that
            # would overrun the budget by half
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


# --------------------------------------------------------------------------- real play


def child_seed(seed: int, *key: int) -> int:
    """A seed 0..2^63-1 for the stream `key` under the query's root `seed` (numpy
    SeedSequence spawn keys): the pilot is (_PILOT_KEY,), the real play of contract c on
    sample i is (_PLAY_KEY, i, LADDER.index(c)), so no result depends on --jobs."""
    state = np.random.SeedSequence(seed, spawn_key=key).generate_state(1, np.uint64)[0]
    return int(state) >> 1


def real_contracts(query: HandQuery) -> tuple[str, ...]:
    """The contracts played under real play, in ladder order: the misères and spreads, and
    the REAL_NUMBERS numbers with the best double-dummy EV (ties: the lower contract, R9)
    on PILOT_DEALS completions dealt from their own seed stream (the one deal when every
    card is known)."""
    from analyser.contracts import natural_trump
    from analyser.dealing import deal_known
    from analyser.payments import expected_payment
    from analyser.solver import solve_declarer

    n = 1 if query.exact else PILOT_DEALS
    pilot = deal_known(np.array(query.known, dtype=np.uint64), n,
                       child_seed(query.seed, _PILOT_KEY))
    tricks, _, _ = solve_declarer(pilot, query.position, LEADER, defender_discard="highest")
    counts = np.bincount(tricks[:, natural_trump(query.hand)].astype(np.int64), minlength=14)
    ev = {c: expected_payment(c, counts=counts, pool=query.pool).total
          for c in NUMERIC_CONTRACTS}
    best = sorted(NUMERIC_CONTRACTS, key=lambda c: (-ev[c], LADDER.index(c)))[:REAL_NUMBERS]
    return tuple(c for c in LADDER if c in best or c in MISERE_CONTRACTS)


def _sample_plays(query: HandQuery, contracts, i: int):
    """(contract, trump, seed) of each real play of sample i: numbers in the natural trump
    (R12), misères without trump (R20)."""
    from analyser.contracts import natural_trump

    trump = natural_trump(query.hand)
    return [(c, trump if c in NUMERIC_CONTRACTS else None,
             child_seed(query.seed, _PLAY_KEY, i, LADDER.index(c))) for c in contracts]


def play_sample(i: int, deal_row, position: int, plays, options=()):
    """Real play of completion i (a (4,) deal), the hand at `position` declaring and N
    leading (R18): (i, [(declarer tricks, made) per (contract, trump, seed) of `plays`]).
    `options`: (name, value) pairs of the real player's settings (REAL_PLAY_DEFAULTS)."""
    from analyser.play import play_hand

    out = []
    for contract, trump, seed in plays:
        record = play_hand(deal_row, position, contract, LEADER, trump=trump,
                           policy="real", seed=seed, **dict(options))
        out.append((int(record["declarer_tricks"]), bool(record["made"])))
    return i, out


def play_real(query: HandQuery, deals, contracts, progress: bool = False):
    """Play every contract of `contracts` on the deals in order, in `query.jobs` processes:
    (tricks (n, k) int8, made (n, k) bool), k = len(contracts).

    Samples are handed out in order and collected as they finish. With a time budget,
    play stops once sample 0 is in and the next sample would finish past the budget at
    the rate so far, and only the samples 0..m-1 all finished are kept (a slow sample in
    one process does not hold up the others, so the budget is kept whenever one process
    is free). Sample i's
    plays depend only on its deal and its seeds (`child_seed`), so the answer equals a run
    with `samples` set to the count kept and the same seed, whatever `jobs`.
    """
    tasks = ((i, deals[i], query.position, _sample_plays(query, contracts, i),
              query.real_options) for i in range(len(deals)))
    if query.jobs == 1:
        results = (play_sample(*task) for task in tasks)
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=query.jobs, batch_size=1, return_as="generator_unordered")(
            delayed(play_sample)(*task) for task in tasks)
    bar = None
    if progress:
        from tqdm import tqdm

        desc = "real play" if query.budget is None else f"real play ({query.budget:g} s budget)"
        bar = tqdm(total=None if query.budget else len(deals), unit="sample", desc=desc,
                   file=sys.stderr, leave=False)
    done = {}
    began = time.perf_counter()
    try:
        for i, result in results:
            done[i] = result
            if bar is not None:
                bar.update(1)
            if query.budget is not None and 0 in done:  # at least one sample is kept
                elapsed = time.perf_counter() - began
                if elapsed + elapsed / len(done) > query.budget:
                    break
    finally:
        if hasattr(results, "close"):
            with warnings.catch_warnings():  # joblib's notice of the cancelled samples
                warnings.filterwarnings("ignore", "[0-9]+ tasks which were still being",
                                        UserWarning)
                results.close()  # cancels the samples not yet played
        if bar is not None:
            bar.close()
    rows = []
    while len(rows) in done:  # the finished prefix
        rows.append(done[len(rows)])
    tricks = np.array([[t for t, _ in row] for row in rows], dtype=np.int8)
    made = np.array([[m for _, m in row] for row in rows], dtype=bool)
    return tricks.reshape(len(rows), len(contracts)), made.reshape(len(rows), len(contracts))


def simulate_real(query: HandQuery, progress: bool = False):
    """Choose the contracts (`real_contracts`), deal the completions, play them for real
    (`play_real`, under the time budget), then solve double-dummy exactly the samples
    played: (deals, tricks, grand, little, real) with `real` {contract: (declarer tricks
    (n,), made (n,))}."""
    contracts = real_contracts(query)
    deals = deal(query)
    played, made = play_real(query, deals, contracts, progress)
    n = len(played)
    tricks, grand, little = solve(dataclasses.replace(query, budget=None), deals[:n])
    real = {c: (played[:, k], made[:, k]) for k, c in enumerate(contracts)}
    return deals[:n], tricks, grand, little, real


# ---------------------------------------------------------------------------- summarise


@dataclass(frozen=True)
class Recommendation:
    """The bid with the best expected value among the recommendable rows, or "pass" when
    none beats the pass value (analyser/pass_value.py): under double-dummy play the
    numbers and misères, never a spread; under real play the contracts played for real,
    spreads included (module docstring)."""

    bid: str  # "pass" or a contract "5".."13", "LM", "GM" (and "LS", "GS" under real play)
    trump: int | None  # the suit it is played in; None for pass and the misères
    tier: str | None  # R11 tier of the bid in that trump (numbers only)
    call: str  # what to say in the auction: "pass", "8", "8-1st", "LM", ...
    ev_total: Fraction  # the declarer's expected result incl. the pool term; for pass,
    # the pass value
    pass_value: Fraction = Fraction(0)  # what passing is worth (pass_value.PassValue.value)

    def text(self) -> str:
        """One sentence for the report."""
        if self.bid == "pass":
            return (f"pass: expected {_signed(self.ev_total)} per hand (the pass value); "
                    "no bid's expected result beats it.")
        where = "" if self.trump is None else f" in {SUIT_LETTERS[self.trump]}"
        return (f"bid {self.call}{where}: expected result {_signed(self.ev_total)} per hand "
                f"(passing: {_signed(self.pass_value)}).")


@dataclass(frozen=True)
class LittleMisereVerdict:
    """Little misère (R15) against the best recommendable numeric bid (or pass); spreads
    never count."""

    made: int
    samples: int
    p_make: float
    ci_low: float
    ci_high: float
    breakeven: Fraction  # LM beats the alternative exactly when P(make) exceeds this
    against: str  # the alternative's call ("pass", "6", "8-1st"...)
    against_ev: Fraction
    verdict: str  # "bid" or "pass"
    exact: bool = False  # every card known: p_make is 0 or 1 and there is no interval

    def text(self) -> str:
        """The verdict in words, with its probability, interval and break-even."""
        if self.exact:
            made = ("Little misère is made on this deal" if self.made
                    else "Little misère fails on this deal")
            made += " (every card known: exact)"
        else:
            ci = f"95% CI {100 * self.ci_low:.1f}-{100 * self.ci_high:.1f}%"
            made = f"Little misère is made in {100 * self.p_make:.1f}% of samples ({ci})"
        if self.breakeven >= 1:
            need = "it can never beat that"
        elif self.breakeven <= 0:
            need = "it beats that whatever its chance"
        else:
            share = f"{100 * float(self.breakeven):.1f}%"
            need = f"it beats that only when made more than {share} of the time"
        alternative = (
            f"passing ({_signed(self.against_ev)})" if self.against == "pass"
            else f"the best numeric bid, {self.against} ({_signed(self.against_ev)})"
        )
        if self.verdict == "bid":
            sure = self.ci_low > self.breakeven
            word = "bid it" + ("" if sure else " (but the interval reaches the break-even)")
        else:
            sure = self.ci_high < self.breakeven
            word = "do not bid it" + ("" if sure else " (but the interval reaches the break-even)")
        return f"{made}. Against {alternative}, {need}: {word}."


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
    passing: PassValue | None = None  # what passing is worth for this hand

    @property
    def samples(self) -> int:
        """Number of random completions solved."""
        return int(self.tricks.iloc[0].sum())

    @property
    def exact(self) -> bool:
        """Every card was known: one deal, solved once."""
        return self.query.exact

    def to_dict(self) -> dict:
        """The result as plain JSON types (the schema documented in cmd_hand.DESCRIPTION);
        everything `reports.hand_text` and `reports.hand_plot` draw comes from here."""
        q = self.query
        contracts = [
            {
                "contract": r["contract"],
                "trump": r["trump"],
                "tier": r["tier"],
                "bid": r["bid"],
                "play": r["play"],
                "recommendable": r["recommendable"],
                "made": int(r["made"]),
                "p_make": float(r["p_make"]),
                "ci_low": float(r["ci_low"]),
                "ci_high": float(r["ci_high"]),
                "made_dd": int(r["made_dd"]),
                "p_make_dd": float(r["p_make_dd"]),
                "ci_low_dd": float(r["ci_low_dd"]),
                "ci_high_dd": float(r["ci_high_dd"]),
                "ev_total_dd": float(r["ev_total_dd_exact"]),
                "ev_total_dd_exact": str(r["ev_total_dd_exact"]),
                "mean_tricks": None if math.isnan(r["mean_tricks"]) else float(r["mean_tricks"]),
                **{key: float(r[f"{key}_exact"]) for key in MONEY},
                **{f"{key}_exact": str(r[f"{key}_exact"]) for key in MONEY},
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
            "exact": q.exact,
            "samples": self.samples,
            "samples_budget_seconds": q.budget,
            "samples_budget_max": q.samples if q.budget is not None else None,
            "seed": q.seed,
            "seconds": round(self.seconds, 3),
            "samples_per_second": round(self.samples / self.seconds, 1) if self.seconds > 0
            else None,
            "max_ci_half_width": float(self.max_half_width()),
            "play": PLAY_NAMES[q.play],
            "real_contracts": [r["contract"] for r in self.rows if r["play"] == "real"],
            "real_pilot_deals": None if q.play != "real" else 1 if q.exact else PILOT_DEALS,
            "jobs": q.jobs if q.play == "real" else None,
            "real_options": dict(q.real_options) if q.play == "real" else None,
            "defender_discard": "highest",
            "trump_rule": TRUMP_RULE,
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
                "text": rec.text(),
                "spreads_excluded": q.play == "dd",
                "spreads_reason": DD_SPREAD_REASON if q.play == "dd" else None,
            },
            "pass_value": None if self.passing is None else self.passing.to_dict(),
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


# R24, R25: per opponent and from all three; R28-R30: the pool term; ev_total: their sum
MONEY = ("ev_per_opponent", "ev_payments", "pool_term", "ev_total")


def _signed(value) -> str:
    """+12.34 / -5.00 style text of an amount."""
    return f"{float(value):+.2f}"


def _row(contract, trump, tier, made, n, ev, mean_tricks, exact):
    """One table row (a dict) from a contract's counts and its ExpectedPayment, before
    its play and the double-dummy columns are attached (`_with_dd`)."""
    from analyser.contracts import bid_name

    p = made / n
    low, high = (p, p) if exact else wilson_interval(made, n)
    values = {"ev_per_opponent": ev.per_opponent, "ev_payments": ev.payments,
              "pool_term": ev.pool_term, "ev_total": ev.total}
    return {
        "contract": contract,
        "trump": None if trump is None else SUIT_LETTERS[trump],
        "tier": tier,
        "bid": bid_name(contract, tier) if tier else contract,
        "made": made,
        "p_make": p,
        "ci_low": low,
        "ci_high": high,
        "mean_tricks": mean_tricks,
        **{key: float(value) for key, value in values.items()},
        **{f"{key}_exact": value for key, value in values.items()},
    }


def _with_dd(row: dict, dd: dict, play: str, recommendable: bool) -> dict:
    """`row` with its play ("real" or "double-dummy"), whether it may be recommended, and
    the double-dummy row `dd` of the same samples beside it (the *_dd keys)."""
    return {**row, "play": play, "recommendable": recommendable,
            "made_dd": dd["made"], "p_make_dd": dd["p_make"], "ci_low_dd": dd["ci_low"],
            "ci_high_dd": dd["ci_high"], "ev_total_dd": dd["ev_total"],
            "ev_total_dd_exact": dd["ev_total_exact"]}


def _best(rows: dict, contracts) -> str:
    """The contract of `contracts` with the highest expected result; ties go to the lower
    contract, the easier one to win in the auction (R9)."""
    return max(contracts, key=lambda c: (rows[c]["ev_total_exact"], -LADDER.index(c)))


def summarise(query: HandQuery, tricks, grand, little, seconds: float = 0.0,
              real: dict | None = None, pass_table=None) -> HandAnalysis:
    """Aggregate solved samples into the contract table, the recommendation and the LM verdict.

    `tricks` is (n, 4) declarer tricks by trump 0..3, `grand` and `little` (n,) bools
    (made grand / little misère), as `analyser.solver.solve_declarer` returns them.
    `real` (real play only) maps each contract played for real to its (declarer tricks
    (n,), made (n,)) on the same samples; those rows report real play, the others
    double-dummy, and only real-played rows may be recommended. Without `real` every row is
    double-dummy and spreads are never recommended (R16).
    Passing is worth the pass value of the hand's position and hcp in `pass_table` (a
    `pass_value.PassValueTable`, default the shipped one): a bid is recommended only when
    its expected result beats it, and little misère is weighed against it too.
    All money comes from `analyser.payments` (exact Fractions).
    """
    from analyser import pass_value
    from analyser.contracts import natural_trump, tier_for
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
    exact = query.exact
    # R12: the declarer names one trump before play; it is fixed from the hand alone, so
    # the samples that estimate each number's P(make) played no part in choosing it
    trump = natural_trump(query.hand)
    tier = "plain" if query.first_preference is None else tier_for(trump, query.first_preference)
    mean = float((counts[trump] * np.arange(14)).sum() / n)
    dd = {}
    for contract in NUMERIC_CONTRACTS:
        ev = expected_payment(contract, counts=counts[trump], pool=query.pool)
        made = int(counts[trump, int(contract):].sum())
        dd[contract] = _row(contract, trump, tier, made, n, ev, mean, exact)
    # R16: double-dummy, a spread is made exactly when the misère of the same size is
    for contract, flags in (("LM", little), ("GM", grand), ("LS", little), ("GS", grand)):
        ev = expected_payment(contract, made=flags, pool=query.pool)
        dd[contract] = _row(contract, None, None, int(flags.sum()), n, ev, math.nan, exact)
    rows = {}
    for contract in LADDER:
        if real is None:
            rows[contract] = _with_dd(dd[contract], dd[contract], PLAY_NAMES["dd"],
                                      contract not in SPREAD_CONTRACTS)
        elif contract not in real:
            rows[contract] = _with_dd(dd[contract], dd[contract], PLAY_NAMES["dd"], False)
        else:
            played, made = (np.asarray(a) for a in real[contract])
            if played.shape != (n,) or made.shape != (n,):
                raise ValueError(f"real: {contract} needs (n,) tricks and made flags, n = {n}")
            numeric = contract in NUMERIC_CONTRACTS
            if numeric:
                ev = expected_payment(contract, tricks=played.astype(np.int64),
                                      pool=query.pool)
            else:
                ev = expected_payment(contract, made=made, pool=query.pool)
            row = _row(contract, trump if numeric else None, tier if numeric else None,
                       int(made.sum()), n, ev, float(played.mean()) if numeric else math.nan,
                       exact)
            rows[contract] = _with_dd(row, dd[contract], PLAY_NAMES["real"], True)
    table = pd.DataFrame([rows[c] for c in LADDER])

    table_of_pass = pass_value.default_table() if pass_table is None else pass_table
    passing = table_of_pass.lookup(query.position, query.hand)
    best = _best(rows, [c for c in LADDER if rows[c]["recommendable"]])
    if rows[best]["ev_total_exact"] > passing.value:
        r = rows[best]
        best_trump = None if r["trump"] is None else SUIT_LETTERS.index(r["trump"])
        recommendation = Recommendation(best, best_trump, r["tier"], r["bid"],
                                        r["ev_total_exact"], passing.value)
    else:
        recommendation = Recommendation("pass", None, None, "pass", passing.value,
                                        passing.value)

    # little misère against the best numeric bid or pass: the choice LM really competes with
    # (under real play, the best of the numbers played for real)
    alt = _best(rows, [c for c in NUMERIC_CONTRACTS if rows[c]["recommendable"]])
    alt_ev = rows[alt]["ev_total_exact"]
    if alt_ev <= passing.value:
        alt, alt_ev = "pass", passing.value
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
        verdict=verdict, exact=exact,
    )

    trick_table = pd.DataFrame(counts, index=list(SUIT_LETTERS), columns=list(range(14)))
    trick_table.index.name = "trump"
    if real is None:
        notes = [DOUBLE_DUMMY_NOTE] + ([EXACT_NOTE] if exact else []) + [TRUMP_NOTE,
                                                                         SPREAD_NOTE]
    else:
        notes = [REAL_NOTE] + ([EXACT_NOTE] if exact else []) + [
            REAL_CHOICE_NOTE.format(k=REAL_NUMBERS, pilot=1 if exact else PILOT_DEALS),
            TRUMP_NOTE, REAL_SPREAD_NOTE]
    notes += [PASS_NOTE.format(value=_signed(passing.value), stderr=f"{passing.stderr:.2f}",
                               basis=passing.basis(), hands=passing.hands,
                               source=passing.source), POOL_NOTE]
    if query.first_preference is None:
        notes.append("No first preference given: every trump is treated as a plain suit, "
                     "so no bid needs a preference tier (R11, R12).")
    else:
        notes.append("Tiers: '1st'/'2nd' are the bids that commit to the first/second "
                     "preference and outrank plain bids of the same number (R11, R12); a "
                     "plain bid may also name any suit (R12 Decision 'any').")
    return HandAnalysis(query, table, trick_table, recommendation, little_verdict,
                        seconds, [rows[c] for c in LADDER], notes, passing)


def analyse_hand(hand, position=0, first_preference=None, pool=DEFAULT_POOL,
                 samples=DEFAULT_SAMPLES, seed=0, known=None, progress=False, play="dd",
                 time_budget=None, jobs=DEFAULT_JOBS, real_options=None) -> HandAnalysis:
    """Analyse one hand as declarer against `samples` random completions of the deal
    (default None: as many as `time_budget` seconds allow, by default `BUDGET_SECONDS`
    under double-dummy play and `BUDGET_REAL_SECONDS` under real play, at most
    `BUDGET_MAX_SAMPLES`; the result states the count, and that count with the same seed
    reproduces it exactly). With a count, `time_budget` may stop it earlier.

    `play` is "dd" (double-dummy only) or "real": the misères, spreads and the two best
    numbers by double-dummy EV are also played by `analyser.play.play_hand` (policy
    "real") on every sample, in `jobs` processes (the result does not depend on `jobs`);
    their rows report real play with the double-dummy rate of the same samples beside it
    (`p_make_dd`). `real_options` overrides settings of the real player
    (`analyser.play.REAL_PLAY_DEFAULTS`, e.g. {"worlds": 16}).

    `hand` is PBN text ("AQ32.KJ9.T87.654") or a mask; `position` is the seat counted from
    the dealer's left (0 leads, R18), which is also its seat N/E/S/W here (the dealer is W);
    `known` fixes cards of the other seats ("E:A.K.. W:..Q.", a list of such, or a dict
    {seat: hand}); the remaining cards are dealt uniformly, and when `known` completes the
    deal it is solved once and the result is exact. `pool` is whole units 0..250 (R30).
    Returns a `HandAnalysis` with `.table` (DataFrame), `.recommendation`,
    `.little_misere` and `.to_dict()`/`.to_json()`. Bad input raises `CardError`/`UserError`
    naming the problem.
    """
    query = prepare(hand, position, first_preference, pool, samples, seed, known, play,
                    time_budget, jobs, real_options)
    start = time.perf_counter()
    if query.play == "real":
        _, tricks, grand, little, real = simulate_real(query, progress=progress)
    else:
        _, tricks, grand, little = simulate(query, progress=progress)
        real = None
    seconds = time.perf_counter() - start
    return summarise(query, tricks, grand, little, seconds, real)


__all__ = [
    "BUDGET_MAX_SAMPLES", "BUDGET_REAL_SECONDS", "BUDGET_SECONDS", "DEFAULT_JOBS",
    "DEFAULT_SAMPLES", "PILOT_DEALS", "PLAYS", "REAL_NUMBERS", "HandAnalysis", "HandQuery",
    "LittleMisereVerdict", "Recommendation", "analyse_hand", "child_seed", "deal",
    "play_real", "play_sample", "prepare", "real_contracts", "simulate", "simulate_real",
    "solve", "summarise",
]
