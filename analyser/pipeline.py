"""The Monte Carlo run: cut the deals into chunks, deal, solve double-dummy, store, aggregate.

Flow (STYLE.md, after redeal): configure -> deal -> solve -> store -> aggregate. The work is
cut into chunks of `chunk` deals; chunk c holds deals c*chunk .. and draws everything it
needs from `SeedSequence(seed, spawn_key=(c,))`, so a chunk's rows depend only on the
configuration and its number, never on --jobs, the chunk schedule, the number of deals or
what ran before. Chunks run in parallel in joblib worker processes or as Dask tasks on a
cluster (analyser/backends.py); each writes its chunk's part atomically (analyser/store.py)
and skips a chunk whose part is already whole, so an interrupted run resumes by solving only
the chunks whose parts are missing or unusable, and the aggregated tables come out
identical. For the same reason a run may grow: more deals with the same seed and chunk
keep every whole chunk already solved, and another pool only aggregates again.

Play modes (`play`): "dd" solves each deal double-dummy only. "real" also plays, for
every deal and seat as declarer, each misère and spread (LM, GM, LS, GS) and one number
with the imperfect-information player (analyser.play.play_hand, policy "real"): the
number is in the seat's natural trump (contracts.natural_trump) at level
n = clamp(double-dummy tricks in that trump, 5, 13), the contract double-dummy says the
declarer makes (5 when it makes fewer). Those outcomes are stored as the `real_*` columns
beside the double-dummy columns of the same rows (`REAL_COLUMNS`), each playout seeded
from the chunk's own stream (`play_seeds`).

Seats and the lead (R18): the dealer is fixed (`DEALER`, West), so the dealer's left,
North, leads to the first trick in every deal and every contract; each row records the
seat's `position` relative to that leader (0 = leader, 1 = second hand, 2 = third, 3 =
the dealer). Preference suits (R6): the resting deck is a separate full deck (R3), so
its turned card is one uniformly random card drawn from the chunk's own stream.
"""

import functools
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd

from analyser import jit_notice, options, store
from analyser.constants import DEALER, DEFAULT_POOL
from analyser.contracts import MAX_CONTRACT, MIN_CONTRACT, MISERE_CONTRACTS
from analyser.errors import UserError
from analyser.features import hand_features, natural_trumps

FORMAT_VERSION = 1  # bump when the stored rows change meaning; part of the configuration
DEFAULT_CHUNK = 250
DEFAULT_REAL_CHUNK = 10  # --play real: 20 playouts a deal, about 3.5 minutes of a core a chunk
DEFENDER_DISCARD = "highest"  # R17 Decision, the solver's default
DEAL_MODELS = ("random",)  # R4 Decision: `run` deals independent uniformly random deals
MAX_DEALS = 10**9
PLAY_MODES = ("dd", "real")  # "dd": double-dummy only; "real": also the real player's outcomes
# stored columns of a "real" run beside the double-dummy ones: each misère contract's
# outcome, then the number played (level, trump) and the declarer's tricks in it
REAL_MISERE_COLUMNS = {"LM": "real_lm", "GM": "real_gm", "LS": "real_ls", "GS": "real_gs"}
REAL_COLUMNS = (*REAL_MISERE_COLUMNS.values(), "real_level", "real_trump", "real_tricks")
PLAY_STREAM = 2  # the chunk's third child stream, after the deal's and the turned cards'
# settings a run in an existing DIR may change: more deals add chunks, another pool only
# aggregates again; every other setting changes the stored rows
RESUMABLE_CHANGES = ("deals", "pool")

SolveFn = Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]
DealFn = Callable[[int, int], np.ndarray]
# (deal, declarer, contract, leader, trump, seed) -> play_hand's record ("made",
# "declarer_tricks")
PlayFn = Callable[[list, int, str, int, int | None, int], dict]


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's stored rows and tables (recorded in DIR/run.json).

    Every field is checked on construction (UserError naming the field); numpy integers
    are stored as plain ints.
    """

    deals: int
    seed: int
    chunk: int = DEFAULT_CHUNK
    pool: int = DEFAULT_POOL
    dealer: int = DEALER
    defender_discard: str = DEFENDER_DISCARD
    deal_model: str = "random"
    format: int = FORMAT_VERSION
    play: str = "dd"

    def __post_init__(self):
        from analyser.solver import DEFENDER_DISCARDS

        checked = {
            "deals": options.count(self.deals, "deals", 1, MAX_DEALS),
            "seed": options.seed(self.seed, "seed"),
            "chunk": options.count(self.chunk, "chunk", 1, MAX_DEALS),
            "pool": options.pool(self.pool, "pool"),
            "dealer": options.whole_number(self.dealer, "dealer", 0, 3),
            "format": options.whole_number(self.format, "format", FORMAT_VERSION,
                                           FORMAT_VERSION),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        _choice(self.defender_discard, "defender_discard", tuple(DEFENDER_DISCARDS))
        _choice(self.deal_model, "deal_model", DEAL_MODELS)
        _choice(self.play, "play", PLAY_MODES)

    @classmethod
    def from_dict(cls, data: dict) -> "RunConfig":
        """The configuration stored as `data` (run.json); UserError naming an unknown key."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UserError(
                f"unknown run setting {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        missing = [name for name in ("deals", "seed") if name not in data]
        if missing:
            raise UserError(f"run setting {missing[0]!r} is missing")
        return cls(**data)

    @property
    def leader(self) -> int:
        """The seat that leads to the first trick: the dealer's left (R18)."""
        return (self.dealer + 1) % 4

    @property
    def n_chunks(self) -> int:
        """Number of chunks the deals are cut into (the last one may be smaller)."""
        return -(-self.deals // self.chunk)

    def chunk_deals(self, chunk: int) -> tuple[int, int]:
        """(first deal id, number of deals) of chunk number `chunk`."""
        first = chunk * self.chunk
        return first, min(self.chunk, self.deals - first)

    def expected_parts(self) -> dict:
        """chunk -> (rows, (first, last) deal id) of every chunk's part (4 rows a deal)."""
        spans = {c: self.chunk_deals(c) for c in range(self.n_chunks)}
        return {c: (4 * n, (first, first + n - 1)) for c, (first, n) in spans.items()}

    def as_dict(self) -> dict:
        """The configuration as plain JSON values, as stored in run.json.

        A double-dummy run's configuration has no `play` key (absent reads as "dd"), so
        every dd run directory holds the same run.json whichever version wrote it and
        resumes; a real run records `"play": "real"`, so the two never resume each other.
        """
        data = asdict(self)
        if data["play"] == "dd":
            del data["play"]
        return data


def _choice(value, name: str, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise UserError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


def chunk_streams(seed: int, chunk: int) -> tuple[int, np.random.Generator]:
    """The deal seed and the generator for the turned cards of chunk `chunk` of root `seed`.

    Both come from `SeedSequence(seed, spawn_key=(chunk,))`, so they depend on the root
    seed and the chunk number only.
    """
    deal_seq, turn_seq = np.random.SeedSequence(seed, spawn_key=(chunk,)).spawn(2)
    words = deal_seq.generate_state(2, dtype=np.uint32)
    deal_seed = (int(words[0]) << 31) ^ int(words[1])  # 63 bits: a plain non-negative int
    return deal_seed, np.random.Generator(np.random.PCG64(turn_seq))


def real_deal(n: int, seed: int) -> np.ndarray:
    """n uniformly random deals from the dealing kernels (analyser.dealing.deal_random)."""
    from analyser.dealing import deal_random

    return deal_random(n, seed)


def play_seeds(seed: int, chunk: int, n: int) -> np.ndarray:
    """(n, 4, 5) int64 seeds of the real playouts of chunk `chunk`: deal, declarer seat,
    contract (LM, GM, LS, GS, then the number), each a plain 63-bit non-negative seed.

    They come from `SeedSequence(seed, spawn_key=(chunk, PLAY_STREAM))`, the chunk's third
    child beside `chunk_streams`' two, so they depend on the root seed and the chunk only.
    """
    seq = np.random.SeedSequence(seed, spawn_key=(chunk, PLAY_STREAM))
    words = seq.generate_state(n * 4 * 5 * 2, dtype=np.uint32).astype(np.int64)
    words = words.reshape(n, 4, 5, 2)
    return (words[..., 0] << 31) ^ words[..., 1]


def real_play(deal: list, declarer: int, contract: str, leader: int, trump, seed: int) -> dict:
    """One hand played by the imperfect-information player (analyser.play.play_hand,
    policy "real", its default settings)."""
    from analyser.play import play_hand

    return play_hand(deal, declarer, contract, leader, trump=trump, policy="real", seed=seed)


def real_level(dd_tricks) -> np.ndarray:
    """The number played for real: the double-dummy tricks in the natural trump, clamped to
    the ladder's numbers (R10: 5..13)."""
    return np.clip(np.asarray(dd_tricks), MIN_CONTRACT, MAX_CONTRACT).astype(np.int8)


def play_chunk(deals: np.ndarray, tricks: np.ndarray, leader: int, seeds: np.ndarray,
               play: PlayFn) -> dict:
    """The `real_*` columns (flat, deal-major then seat) of one chunk's deals: every seat
    declares each misère contract and its number (module docstring) under `play`."""
    n = deals.shape[0]
    trumps = natural_trumps(deals.reshape(-1)).reshape(n, 4)
    levels = real_level(np.take_along_axis(tricks, trumps[:, :, None].astype(np.int64),
                                           axis=2)[:, :, 0])
    made = np.zeros((n, 4, len(MISERE_CONTRACTS)), dtype=bool)
    taken = np.zeros((n, 4), dtype=np.int8)
    for i in range(n):
        deal = [int(h) for h in deals[i]]
        for seat in range(4):
            for k, contract in enumerate(MISERE_CONTRACTS):
                made[i, seat, k] = play(deal, seat, contract, leader, None,
                                        int(seeds[i, seat, k]))["made"]
            record = play(deal, seat, str(levels[i, seat]), leader, int(trumps[i, seat]),
                          int(seeds[i, seat, len(MISERE_CONTRACTS)]))
            taken[i, seat] = record["declarer_tricks"]
    columns = {REAL_MISERE_COLUMNS[c]: made[:, :, k].reshape(-1)
               for k, c in enumerate(MISERE_CONTRACTS)}
    columns.update(real_level=levels.reshape(-1), real_trump=trumps.reshape(-1),
                   real_tricks=taken.reshape(-1))
    return columns


def real_solve(deals: np.ndarray, leader: int,
               defender_discard: str = DEFENDER_DISCARD) -> tuple[np.ndarray, np.ndarray]:
    """Double-dummy tables of a batch: (n,4,4) int8 tricks and (n,4,2) bool [grand, little]
    (`dd_table` and `dd_misere_table`, solved as one batch: analyser.solver.solve_deals)."""
    from analyser.solver import solve_deals

    return solve_deals(deals, leader, defender_discard)


def chunk_rows(config: RunConfig, chunk: int, deal: DealFn, solve: SolveFn,
               play: PlayFn = real_play):
    """Deal and solve chunk `chunk` (and play it, for a "real" run); return its rows
    (deal x seat) and timings in seconds."""
    t0 = time.perf_counter()
    first, n = config.chunk_deals(chunk)
    deal_seed, turn_rng = chunk_streams(config.seed, chunk)
    deals = np.ascontiguousarray(deal(n, deal_seed), dtype=np.uint64)
    turned = turn_rng.integers(0, 52, size=n).astype(np.int8)  # R6: resting deck's top card
    t1 = time.perf_counter()
    tricks, misere = solve(deals, config.leader)
    tricks = np.asarray(tricks, dtype=np.int8)
    misere = np.asarray(misere, dtype=bool)
    if deals.shape != (n, 4) or tricks.shape != (n, 4, 4) or misere.shape != (n, 4, 2):
        raise ValueError(
            f"chunk {chunk}: unexpected shapes deals {deals.shape}, tricks {tricks.shape}, "
            f"misère {misere.shape}"
        )
    t2 = time.perf_counter()
    real = {}
    if config.play == "real":
        real = play_chunk(deals, tricks, config.leader, play_seeds(config.seed, chunk, n), play)
    t3 = time.perf_counter()
    frame = _rows(config, chunk, first, deals, turned, tricks, misere, real)
    t4 = time.perf_counter()
    timing = {"deal": t1 - t0, "solve": t2 - t1, "rows": t4 - t3}
    if config.play == "real":
        timing["play"] = t3 - t2
    return frame, timing


@functools.cache
def _preference_table() -> np.ndarray:
    """(52, 2) int8: first and second preference suit for each turned card (dealing, R6)."""
    from analyser.dealing import preference_suits

    return np.array([preference_suits(card) for card in range(52)], dtype=np.int8)


def _rows(config, chunk, first, deals, turned, tricks, misere, real) -> pd.DataFrame:
    """The stored rows of one chunk, deal-major then seat (N, E, S, W); the `real`
    columns (play_chunk's, none for a dd run) come last."""
    n = deals.shape[0]
    seats = np.tile(np.arange(4, dtype=np.int8), n)
    prefs = _preference_table()[turned]  # R6, from the turned card of the resting deck
    first_pref, second_pref = prefs[:, 0], prefs[:, 1]
    ids = np.repeat(np.arange(first, first + n, dtype=np.int64), 4)
    head = pd.DataFrame({
        "chunk": np.full(4 * n, chunk, dtype=np.int32),
        "deal_id": ids,
        "seat": seats,
        "position": ((seats - config.leader) % 4).astype(np.int8),
    })
    feats = hand_features(deals.reshape(-1))
    flat_tricks = tricks.reshape(-1, 4)
    flat_misere = misere.reshape(-1, 2)
    tail = pd.DataFrame({
        "tricks_s": flat_tricks[:, 0],
        "tricks_h": flat_tricks[:, 1],
        "tricks_d": flat_tricks[:, 2],
        "tricks_c": flat_tricks[:, 3],
        "grand_misere": flat_misere[:, 0],
        "little_misere": flat_misere[:, 1],
        "turned_card": np.repeat(turned, 4),
        "first_preference": np.repeat(first_pref, 4),
        "second_preference": np.repeat(second_pref, 4),
        **real,
    })
    return pd.concat([head, feats, tail], axis=1)


def solve_chunk(out, config: RunConfig, chunk: int, deal=None, solve=None, play=None) -> dict:
    """Deal, solve (and play) and store chunk `chunk` in DIR; return its timings (runs in a
    worker)."""
    if solve is None:
        solve = functools.partial(real_solve, defender_discard=config.defender_discard)
    frame, timing = chunk_rows(config, chunk, deal or real_deal, solve, play or real_play)
    t0 = time.perf_counter()
    timing = {**timing, "chunk": chunk, "deals": config.chunk_deals(chunk)[1]}
    store.write_part(out, chunk, frame, {**timing, "write": None})
    timing["write"] = time.perf_counter() - t0
    return timing


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def solve_missing(out, config: RunConfig, jobs: int = 1, progress: bool = False,
                  deal=None, solve=None, missing=None, play=None, backend: str = "joblib",
                  scheduler: str | None = None, notify=None) -> list[dict]:
    """Solve and store the chunks of `config` in `missing` (default: those without a sound
    part in DIR); return their timings.

    The chunks run on `backend` (analyser/backends.py run_chunks): joblib's `jobs`
    processes, or Dask, on a LocalCluster of `jobs` workers or the cluster at `scheduler`;
    either way numba's threads are capped so that processes x threads fit the cores (numba's
    own threads in the kernels would otherwise multiply with the processes).
    """
    from analyser import backends

    backends.check_backend(backend, scheduler)
    if missing is None:
        missing = survey(out, config).missing(range(config.n_chunks))
    if missing:
        jit_notice.fire()
    bar = _progress_bar(config, missing, progress)
    out = Path(out).absolute()  # the workers' path to DIR (a shared directory on a cluster)
    task = functools.partial(solve_chunk_once, str(out), config, deal=deal, solve=solve,
                             play=play)
    warmup = functools.partial(warm_up, config, deal=deal, solve=solve, play=play)
    try:
        timings = backends.run_chunks(task, missing, jobs=jobs, backend=backend,
                                      scheduler=scheduler, warmup=warmup,
                                      shared=out / store.HANDS_DIR, notify=notify,
                                      done=lambda timing: bar.update(timing["deals"]))
    finally:
        bar.close()
    return sorted(timings, key=lambda t: t["chunk"])


def solve_chunk_once(out, config: RunConfig, chunk: int, deal=None, solve=None,
                     play=None) -> dict:
    """`solve_chunk`, unless the chunk's part is already sound in DIR: then its stored
    timings. A chunk run again (Dask retries the chunks of a worker that died) is thus
    never solved or written twice once its part is whole."""
    if store.part_problem(out, chunk, *config.expected_parts()[chunk]) is None:
        stored = store.read_timings(out, [chunk])
        if stored:
            return stored[0]
    return solve_chunk(out, config, chunk, deal, solve, play)


def warm_up(config: RunConfig, deal=None, solve=None, play=None) -> None:
    """Deal and solve one deal (and under real play, play a grand spread on it), so that
    numba compiles (or loads from its cache) every kernel a chunk calls; a worker runs it
    once before its first chunk."""
    if solve is None:
        solve = functools.partial(real_solve, defender_discard=config.defender_discard)
    deals = np.ascontiguousarray((deal or real_deal)(1, config.seed), dtype=np.uint64)
    solve(deals, config.leader)
    if config.play == "real":
        (play or real_play)([int(h) for h in deals[0]], 0, "GS", config.leader, None, 0)


def _progress_bar(config: RunConfig, missing, enabled: bool):
    """A tqdm bar over deals (with ETA) when `enabled`, else a silent stand-in."""
    from tqdm import tqdm

    done = config.deals - sum(config.chunk_deals(c)[1] for c in missing)
    desc = "solving and playing" if config.play == "real" else "solving"
    return tqdm(total=config.deals, initial=done, unit="deal", desc=desc,
                disable=not enabled, dynamic_ncols=True, smoothing=0.1)


def survey(out, config: RunConfig) -> store.Parts:
    """The parts of DIR checked against the chunks of `config`: sound, broken, stray."""
    return store.survey_parts(out, config.expected_parts())


def check_parts(out, config: RunConfig) -> list[int]:
    """The chunks of `config` in DIR, in order; UserError if one is missing or broken."""
    parts = survey(out, config)
    if parts.broken:
        chunk, problem = min(parts.broken.items())
        path = Path(out) / store.HANDS_DIR / store.part_name(chunk)
        raise UserError(
            f"part {str(path)!r} is damaged: it {problem}; run `boston-analyser run` with "
            "the same options to solve it again"
        )
    missing = parts.missing(range(config.n_chunks))
    if missing:
        raise UserError(
            f"{str(out)!r} is missing {len(missing)} of {config.n_chunks} chunks; run "
            "`boston-analyser run` with the same options to finish it"
        )
    return list(range(config.n_chunks))


def store_tables(out, config: RunConfig) -> dict:
    """Aggregate every stored chunk of DIR and write the result tables; return them."""
    from analyser.aggregate import aggregate
    from analyser.shapes import pattern_table

    hands = store.read_hands(out, check_parts(out, config))
    tables = aggregate(hands, config.pool)
    tables["shape_frequencies"] = pattern_table(hands["hand"].to_numpy())
    for name, frame in tables.items():
        store.write_table(out, name, frame)
    return tables


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run_analysis(out, config: RunConfig, jobs: int = 1, force: bool = False,
                 progress: bool = False, deal=None, solve=None, notify=_stderr,
                 play=None, backend: str = "joblib", scheduler: str | None = None) -> dict:
    """The whole `run`: lock and open DIR, solve the missing chunks (on `backend`:
    solve_missing), aggregate, store; return stats. A part that cannot be used is solved
    again and a part of a chunk this run does not have is left alone, each said through
    `notify` (one line)."""
    started = time.perf_counter()
    with store.locked(out):
        store.open_run(out, config.as_dict(), force=force, may_change=RESUMABLE_CHANGES)
        parts = survey(out, config)
        for chunk, problem in sorted(parts.broken.items()):
            notify(f"{store.HANDS_DIR}/{store.part_name(chunk)} {problem}: "
                   f"solving chunk {chunk} again")
        if parts.stray:
            names = ", ".join(p.name for p in parts.stray)
            notify(f"ignoring {len(parts.stray)} part(s) of chunks this run does not have "
                   f"({config.n_chunks} chunks): {names}")
        missing = parts.missing(range(config.n_chunks))
        timings = solve_missing(out, config, jobs=jobs, progress=progress, deal=deal,
                                solve=solve, missing=missing, play=play, backend=backend,
                                scheduler=scheduler, notify=notify)
        solved = time.perf_counter()
        store_tables(out, config)
        finished = time.perf_counter()
        stored = store.read_timings(out, range(config.n_chunks))
        stats = {
            "deals": config.deals,
            "hands": 4 * config.deals,
            "chunks": config.n_chunks,
            "chunks_resumed": len(parts.good),
            "chunks_solved_now": len(timings),
            "jobs": jobs,
            "backend": backend,
            "cores": available_cores(),
            "seconds_wall": finished - started,
            "seconds_solving_wall": solved - started,
            "seconds_aggregating": finished - solved,
            "seconds_kernels_all_chunks": sum(t["deal"] + t["solve"] for t in stored),
            "seconds_chunks_all": sum(t["deal"] + t["solve"] + t.get("play", 0) + t["rows"]
                                      for t in stored),
        }
        if config.play == "real":
            stats["seconds_playing_all_chunks"] = sum(t["play"] for t in stored)
        store.write_json(Path(out) / store.STATS_FILE, stats)
    return stats

