"""Whole sessions of 12 hands (R31) played by bidding strategies, settled exactly.

One session: the first dealer by lot, the deal passing left (R5); each hand dealt
(R4, R5), the preference turned from the resting deck (R3, R6), the auction run through
analyser.auction with every seat's strategy asked in turn (R13, R14), the contract played
on the actual cards by the play mode (`dd` or `real`, R18-R21), misère partout played out
by the partout policy (kernels/partout.py, R26 Decision), the defenders' concession at 5
or 6 by a named rule (R28), and every payment through the exact `Ledger` (R24-R31).

Duplicate comparison: with k strategies (1..4) each session is played k times on the same
cards, rotation r = 0..k-1 seating strategy number (seat + r) mod k in each seat. Over
the k rotations every strategy sits in every seat exactly once (for a fixed seat, r runs
through every residue mod k), so each strategy's session result is the mean of its four
final balances, one per seat, on identical cards.

Randomness: session s draws its lot, shuffles, cuts and turned cards from
`SeedSequence(seed, spawn_key=(s,))`, replayed afresh for each rotation, and hand h's
real-play seed from `SeedSequence(seed, spawn_key=(s, h, 1))`, so a session depends only
on the configuration and its number. Sessions are cut into chunks of
`chunk` sessions, solved in parallel (joblib) and stored one part per chunk
(analyser/store.py), as `run` does, so a run resumes and gives the same rows for any
--jobs.
"""

import functools
import time
from dataclasses import asdict, dataclass, fields, replace
from fractions import Fraction

import numpy as np
import pandas as pd

from analyser import options, store
from analyser.auction import PARTOUT, Auction, IllegalCall
from analyser.cards import SEAT_LETTERS
from analyser.constants import MAX_POOL
from analyser.contracts import (
    contract_of,
    is_little,
    is_numeric,
    may_name,
    parse_bid,
    tricks_needed,
)
from analyser.errors import UserError
from analyser.ledger import Ledger
from analyser.strategy import CallView

FORMAT_VERSION = 1
HANDS = 12  # R31: each player deals three times
DEFAULT_CHUNK = 20
MAX_SESSIONS = 10**8
MAX_STRATEGIES = 4
PLAY_MODES = ("dd", "real")
SESSION_DEAL_MODELS = ("random", "cut-only")  # R4 Decision
# R28 Decision: "made" = the defenders concede a 5 or 6 that the play mode makes (under dd
# play: made double-dummy); "never" = they always play it out
CONCESSIONS = ("made", "never")
DEFENDER_DISCARD = "highest"  # R17 Decision, the solver's default
SEAT_COLUMNS = tuple(SEAT_LETTERS)  # N, E, S, W
TIMING_PARTS = ("deal", "auction", "play", "settle")  # a hand's time, split


@dataclass(frozen=True)
class SessionConfig:
    """Everything that determines the stored rows (recorded in DIR/run.json)."""

    sessions: int
    seed: int
    strategies: tuple  # strategy names or files as given, in rotation order
    play: str = "dd"
    deal_model: str = "random"
    concede: str = "made"
    chunk: int = DEFAULT_CHUNK
    model: str | None = None
    defender_discard: str = DEFENDER_DISCARD
    format: int = FORMAT_VERSION

    def __post_init__(self):
        checked = {
            "sessions": options.count(self.sessions, "sessions", 1, MAX_SESSIONS),
            "seed": options.seed(self.seed, "seed"),
            "chunk": options.count(self.chunk, "chunk", 1, MAX_SESSIONS),
            "format": options.whole_number(self.format, "format", FORMAT_VERSION,
                                           FORMAT_VERSION),
            "strategies": tuple(self.strategies),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        if not 1 <= len(self.strategies) <= MAX_STRATEGIES:
            raise UserError(f"strategy: give 1 to {MAX_STRATEGIES} strategies, "
                            f"got {len(self.strategies)}")
        for value, name, allowed in ((self.play, "play", PLAY_MODES),
                                     (self.deal_model, "deal_model", SESSION_DEAL_MODELS),
                                     (self.concede, "concede", CONCESSIONS),
                                     (self.defender_discard, "defender_discard", ("highest",))):
            if value not in allowed:
                raise UserError(f"{name} must be one of {', '.join(map(repr, allowed))}, "
                                f"got {value!r}")

    @classmethod
    def from_dict(cls, data: dict) -> "SessionConfig":
        """The configuration stored as `data` (run.json); UserError naming an unknown key."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UserError(f"unknown session setting {unknown[0]!r}")
        return cls(**data)

    @property
    def rotations(self) -> int:
        """Seatings each session is played in: one per strategy."""
        return len(self.strategies)

    @property
    def n_chunks(self) -> int:
        return -(-self.sessions // self.chunk)

    def chunk_sessions(self, chunk: int) -> range:
        """The session numbers of chunk `chunk`."""
        first = chunk * self.chunk
        return range(first, min(first + self.chunk, self.sessions))

    def expected_part(self, chunk: int) -> tuple[int, tuple[int, int]]:
        """(rows, (first, last) deal id) of chunk `chunk`'s part."""
        span = self.chunk_sessions(chunk)
        return len(span) * self.rotations * HANDS, (span.start * HANDS, span.stop * HANDS - 1)

    def expected_parts(self) -> dict:
        """chunk -> (rows, (first, last) deal id) for analyser.store.survey_parts."""
        return {c: self.expected_part(c) for c in range(self.n_chunks)}

    def as_dict(self) -> dict:
        data = asdict(self)
        data["strategies"] = list(self.strategies)
        return data


def seat_strategy(seat: int, rotation: int, k: int) -> int:
    """The number of the strategy in `seat` at `rotation` of k: (seat + rotation) mod k."""
    return (seat + rotation) % k


def session_generator(seed: int, session: int) -> np.random.Generator:
    """A fresh generator for session `session`: from (seed, session) only."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(session,))))


def real_play_seed(seed: int, session: int, hand: int) -> int:
    """The `play_hand` seed of one hand under --play real, the same in every rotation."""
    seq = np.random.SeedSequence(seed, spawn_key=(session, hand, 1))
    return int(seq.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


# ------------------------------------------------------------------------------- decks


class Decks:
    """Where each hand's cards come from: R4's two deal models over one session's stream."""

    def __init__(self, model: str, rng: np.random.Generator):
        self.model, self.rng = model, rng
        if model == "cut-only":
            # R4: both decks shuffled once at the start of the session
            self.decks = [rng.permutation(52).astype(np.int8) for _ in range(2)]

    def next_hand(self, hand: int, dealer: int) -> tuple[np.ndarray, int]:
        """(deal (4,) uint64, turned card of the resting deck) for hand number `hand` 1..12."""
        from kernels.dealing import cut, deal_from_order

        if self.model == "random":
            order = self.rng.permutation(52).astype(np.int8)
            return deal_from_order(order, dealer), int(self.rng.integers(52))
        dealt, resting = (hand - 1) % 2, hand % 2  # R3: the decks alternate
        self.decks[dealt] = cut(self.decks[dealt], int(self.rng.integers(52)))
        # R6: the resting deck is cut and its top card turned; it stays cut
        self.decks[resting] = cut(self.decks[resting], int(self.rng.integers(52)))
        return deal_from_order(self.decks[dealt], dealer), int(self.decks[resting][0])

    def gather(self, hand: int, order: np.ndarray) -> None:
        """R4: the played deck of hand `hand`, gathered (`gathered_order`), is dealt again."""
        if self.model == "cut-only":
            self.decks[(hand - 1) % 2] = np.asarray(order, dtype=np.int8)


def gathered_order(deal, cards, dealer: int) -> np.ndarray:
    """R4: the deck after a hand: the played cards trick by trick in play order, then the
    unplayed cards (an early finish, a concession, the little-misère discards) seat by
    seat from the dealer's left, each seat's in card-id order."""
    played = [int(c) for c in cards]
    seen = set(played)
    rest = []
    for k in range(1, 5):
        hand = int(deal[(dealer + k) % 4])
        rest += [c for c in range(52) if hand >> c & 1 and c not in seen]
    return np.array(played + rest, dtype=np.int8)


def played_through(contract: str, made: bool, conceded: bool, winners, declarer: int) -> int:
    """How many tricks are played before the cards are thrown in (R21, R28): one for a
    concession, a made number up to the declarer's n-th trick, a lost misère up to the
    declarer's first trick; everything else is played out."""
    if conceded:
        return 1
    won = np.cumsum(np.asarray(winners) == declarer)
    if is_numeric(contract) and made:
        return int(np.searchsorted(won, tricks_needed(contract)) + 1)
    if not is_numeric(contract) and not made:
        return int(np.searchsorted(won, 1) + 1)
    return len(winners)


# ------------------------------------------------------------------------------- play


@dataclass
class Outcome:
    """A played contract: the declarer's tricks (-1 when only made/failed is known), made,
    and the card order and trick winners when they were played card by card."""

    tricks: int
    made: bool
    cards: list | None = None
    winners: list | None = None


class Table:
    """Plays contracts by one play mode; results are memoised per (cards, contract, seed),
    so a deal replayed in another rotation with the same contract is not solved again
    (the seed, which only real play uses, is the same in every rotation)."""

    def __init__(self, play: str, defender_discard: str, need_cards: bool):
        self.play, self.defender_discard, self.need_cards = play, defender_discard, need_cards
        self.memo = {}
        self.seconds = 0.0

    def contract(self, deal, declarer, contract, trump, leader, seed) -> Outcome:
        key = (deal.tobytes(), declarer, contract, trump, leader, seed)
        if key not in self.memo:
            t0 = time.perf_counter()
            self.memo[key] = self._play(deal, declarer, contract, trump, leader, seed)
            self.seconds += time.perf_counter() - t0
        return self.memo[key]

    def _play(self, deal, declarer, contract, trump, leader, seed) -> Outcome:
        from analyser import solver
        from analyser.play import play_hand

        if self.play == "real" or self.need_cards:
            policy = "real" if self.play == "real" else "dd"
            record = play_hand(deal, declarer, contract, leader,
                               trump=trump if is_numeric(contract) else None,
                               policy=policy, seed=seed)
            return Outcome(record["declarer_tricks"], record["made"], record["cards"],
                           record["trick_winners"])
        if is_numeric(contract):
            tricks = solver.dd_tricks(deal, declarer, trump, leader)
            return Outcome(tricks, tricks >= tricks_needed(contract))
        if is_little(contract):
            return Outcome(-1, solver.dd_little_misere(deal, declarer, leader,
                                                       self.defender_discard))
        return Outcome(-1, solver.dd_misere(deal, declarer, leader))

    @staticmethod
    def partout(deal, leader) -> tuple[list, list, list]:
        """(cards, trick winners, tricks by seat) of misère partout (kernels/partout.py)."""
        from kernels.partout import play_partout

        cards = np.empty(52, dtype=np.int64)
        winners = np.empty(13, dtype=np.int64)
        taken = np.zeros(4, dtype=np.int64)
        n = play_partout(np.asarray(deal, dtype=np.uint64), leader, cards, winners, taken)
        return cards[:4 * n].tolist(), winners[:n].tolist(), taken.tolist()


# ---------------------------------------------------------------------------- auction


# (highest bid, whether the player to call has passed) -> the legal calls
_LEGAL_CALLS = {}


def legal_now(auction: Auction) -> tuple:
    """`auction.legal_calls()` of an unfinished auction, memoised: they depend only on the
    highest bid (R11) and whether the player to call has passed (R13). Asking the auction
    for them costs about a sixth of a session's time otherwise (profiled)."""
    key = (auction.high, auction.passed[auction.to_call])
    legal = _LEGAL_CALLS.get(key)
    if legal is None:
        legal = _LEGAL_CALLS[key] = auction.legal_calls()
    return legal


def run_calls(strategies, deal, dealer: int, first_preference: int, pool: Fraction):
    """The auction (R13, R14): each seat's strategy asked in turn; (declarer, bid, calls)."""
    auction = Auction(dealer)
    while not auction.finished:
        seat = auction.to_call
        view = CallView(hand=int(deal[seat]), seat=seat, dealer=dealer,
                        first_preference=first_preference, calls=tuple(auction.calls),
                        pool=pool, legal=legal_now(auction))
        call = strategies[seat].call(view)
        try:
            auction.call(call)
        except IllegalCall as err:
            raise UserError(f"strategy {strategies[seat].name!r}: {err}") from None
    declarer, bid = auction.result
    return declarer, bid, auction.calls


def named_trump(strategy, hand: int, bid: str, first_preference: int) -> int:
    """The trump the winner of numeric `bid` names, checked against its tier (R12)."""
    tier = parse_bid(bid).tier
    trump = strategy.name_trump(hand, bid, first_preference)
    if isinstance(trump, bool) or not isinstance(trump, (int, np.integer)) or not (
            0 <= trump <= 3 and may_name(int(trump), tier, first_preference)):
        raise UserError(f"strategy {strategy.name!r} named trump {trump!r} after bid {bid} "
                        f"with first preference {'SHDC'[first_preference]} (R12)")
    return int(trump)


# ---------------------------------------------------------------------------- session


def _money(value: Fraction) -> str:
    """An exact amount as text: "990", "2935/3"."""
    return str(value)


def play_session(config: SessionConfig, strategies, session: int, rotation: int,
                 table: Table, timing: dict) -> list[dict]:
    """The 12 rows of one session at one rotation (seats filled by `seat_strategy`)."""
    k = config.rotations
    seated = [strategies[seat_strategy(s, rotation, k)] for s in range(4)]
    rng = session_generator(config.seed, session)
    first_dealer = int(rng.integers(4))  # R5: the first dealer by lot
    decks = Decks(config.deal_model, rng)
    ledger = Ledger()
    rows = []
    for hand in range(1, HANDS + 1):
        t0 = time.perf_counter()
        dealer = (first_dealer + hand - 1) % 4  # R5: the deal passes to the left
        leader = (dealer + 1) % 4  # R18
        deal, turned = decks.next_hand(hand, dealer)
        first_pref = turned // 13  # R6
        t1 = time.perf_counter()
        declarer, bid, calls = run_calls(seated, deal, dealer, first_pref, ledger.active_pool)
        t2 = time.perf_counter()
        row = {"session": session, "rotation": rotation, "hand": hand,
               "deal_id": session * HANDS + hand - 1, "dealer": dealer,
               "turned_card": turned, "first_preference": first_pref,
               "calls": " ".join(calls), "bid": bid}
        if declarer is None:  # R14: misère partout, played out (R26)
            cards, winners, taken = table.partout(deal, leader)
            t3 = time.perf_counter()
            ledger.settle_partout(taken)
            row.update(declarer=-1, contract=PARTOUT, trump=-1, tricks=-1, made=None,
                       conceded=False, partout_tricks=taken)
        else:
            contract = contract_of(bid)
            trump = -1
            if is_numeric(contract):
                trump = named_trump(seated[declarer], int(deal[declarer]), bid, first_pref)
            seed = real_play_seed(config.seed, session, hand)
            outcome = table.contract(deal, declarer, contract, trump, leader, seed)
            t3 = time.perf_counter()
            conceded = (config.concede == "made" and outcome.made
                        and contract in ("5", "6"))  # R28
            if is_numeric(contract):
                ledger.settle(declarer, contract, tricks=outcome.tricks, conceded=conceded)
            else:
                ledger.settle(declarer, contract, made=outcome.made)
            cards, winners = outcome.cards, outcome.winners
            if cards is not None:
                stop = played_through(contract, outcome.made, conceded, winners, declarer)
                cards = cards[:4 * stop]
            row.update(declarer=declarer, contract=contract, trump=trump,
                       tricks=outcome.tricks, made=outcome.made, conceded=conceded,
                       partout_tricks=None)
        if config.deal_model == "cut-only":
            decks.gather(hand, gathered_order(deal, cards, dealer))
        split = Fraction(0)
        if hand == HANDS:
            full, partial = ledger.pools
            split = full * MAX_POOL + partial
            ledger.end_session()  # R31
        full, partial = ledger.pools
        for s, letter in enumerate(SEAT_COLUMNS):
            row[f"strategy_{letter}"] = seated[s].name
        for s, letter in enumerate(SEAT_COLUMNS):
            row[f"balance_{letter}"] = _money(ledger.balances[s])
        row.update(pool_full=full, pool_partial=int(partial), pool_split=int(split))
        rows.append(row)
        t4 = time.perf_counter()
        for name, seconds in zip(TIMING_PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3),
                                 strict=True):
            timing[name] = timing.get(name, 0.0) + seconds
    return rows


ROW_TYPES = {
    "session": "int64", "rotation": "int8", "hand": "int8", "deal_id": "int64",
    "dealer": "int8", "turned_card": "int8", "first_preference": "int8", "declarer": "int8",
    "trump": "int8", "tricks": "int8", "made": "boolean", "conceded": "bool",
    "pool_full": "int32", "pool_partial": "int32", "pool_split": "int32",
}
COLUMNS = (
    "session", "rotation", "hand", "deal_id", "dealer", "turned_card", "first_preference",
    "calls", "bid", "declarer", "contract", "trump", "tricks", "made", "conceded",
    "partout_tricks", *(f"strategy_{s}" for s in SEAT_COLUMNS),
    *(f"balance_{s}" for s in SEAT_COLUMNS), "pool_full", "pool_partial", "pool_split",
)


def chunk_frame(config: SessionConfig, strategies, chunk: int) -> tuple[pd.DataFrame, dict]:
    """The rows of chunk `chunk` (session, rotation, hand order) and their timings."""
    table = Table(config.play, config.defender_discard, config.deal_model == "cut-only")
    timing = {}
    rows = []
    for session in config.chunk_sessions(chunk):
        for rotation in range(config.rotations):
            rows += play_session(config, strategies, session, rotation, table, timing)
    frame = pd.DataFrame(rows, columns=list(COLUMNS)).astype(ROW_TYPES)
    timing["solver"] = table.seconds
    timing["hands"] = len(rows)
    return frame, timing


def play_chunk(out, config: SessionConfig, strategies, chunk: int) -> dict:
    """Play and store chunk `chunk` in DIR; return its timings (runs in a worker). A chunk
    whose part is already whole is left alone, so a chunk run twice (a worker lost and
    its chunk sent elsewhere) writes it once."""
    if store.part_problem(out, chunk, *config.expected_part(chunk)) is None:
        return {"chunk": chunk, "hands": 0, "seconds": 0.0, "solver": 0.0,
                **dict.fromkeys(TIMING_PARTS, 0.0)}  # already whole
    t0 = time.perf_counter()
    frame, timing = chunk_frame(config, strategies, chunk)
    # no timings in the part, so that a part's bytes depend on its rows only
    store.write_part(out, chunk, frame, {})
    timing.update(chunk=chunk, seconds=time.perf_counter() - t0)
    return timing


def warm_up(config: SessionConfig, strategies) -> None:
    """Play one session of the configuration without storing it, so that numba compiles
    (or loads) every kernel a chunk calls; a Dask worker runs it before its first chunk."""
    chunk_frame(replace(config, sessions=1, chunk=1), strategies, 0)


def play_missing(out, config: SessionConfig, strategies, jobs: int = 1, missing=None,
                 progress: bool = False, backend: str = "joblib", scheduler: str | None = None,
                 notify=None) -> list[dict]:
    """Play and store the chunks in `missing` (default: those without a sound part), on
    `backend` (analyser.backends.run_chunks: joblib processes or a Dask cluster)."""
    from pathlib import Path

    from tqdm import tqdm

    from analyser import backends, jit_notice

    if missing is None:
        missing = store.survey_parts(out, config.expected_parts()).missing(range(config.n_chunks))
    if missing:
        jit_notice.fire()
    out = Path(out).absolute()  # the workers' path to DIR (a shared directory on a cluster)
    work = functools.partial(play_chunk, str(out), config, list(strategies))
    warmup = functools.partial(warm_up, config, list(strategies))
    with tqdm(total=len(missing), unit="chunk", desc="sessions", disable=not progress,
              dynamic_ncols=True) as bar:
        timings = backends.run_chunks(work, missing, jobs=jobs, backend=backend,
                                      scheduler=scheduler, warmup=warmup,
                                      shared=out / store.HANDS_DIR, notify=notify,
                                      done=lambda timing: bar.update(1))
    return sorted(timings, key=lambda t: t["chunk"])


def read_rows(out, config: SessionConfig) -> pd.DataFrame:
    """Every stored row of DIR, checked complete (UserError naming what is missing)."""
    parts = store.survey_parts(out, config.expected_parts())
    missing = parts.missing(range(config.n_chunks))
    if missing or parts.broken:
        raise UserError(f"{str(out)!r} is missing {len(missing)} of {config.n_chunks} "
                        "chunks; run `boston-analyser session` with the same options")
    return store.read_hands(out, range(config.n_chunks))


__all__ = [
    "SessionConfig", "HANDS", "PLAY_MODES", "SESSION_DEAL_MODELS", "CONCESSIONS",
    "seat_strategy", "session_generator", "Decks", "gathered_order", "played_through",
    "Table", "run_calls", "play_session", "chunk_frame", "play_chunk", "warm_up",
    "play_missing", "read_rows",
]
