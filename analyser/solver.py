"""Double-dummy solving (API.md "Double-dummy"): exact tricks and misère results.

All hands are visible; play follows R18-R21. The kernels (kernels/dd_*.py) share one
zero-window search for every mode; this module validates input, maps names to integer
ids and owns the transposition tables (one per Python thread for single solves, one per
batch worker for the batch forms, as many workers as `numba.get_num_threads()`).
"""

import contextlib
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from analyser.cards import ALL_CARDS, CardError, parse_seat, parse_suit
from kernels.dd.batch import JOB_GRAND, JOB_LITTLE, JOB_TRICKS, solve_jobs
from kernels.dd.ruff_game import RUFF_CUT_MEMO, new_ruff_memo
from kernels.dd.scores import (
    GOAL_MISERE,
    NO_CARD,
    new_score_work,
    reach_position,
    score_cards,
    score_cards_batch,
)
from kernels.dd.tt import aligned_zeros, new_table, new_tables

__all__ = [
    "dd_tricks",
    "dd_misere",
    "dd_little_misere",
    "dd_tricks_partnership",
    "dd_table",
    "dd_misere_table",
    "dd_scores",
    "dd_reach",
    "dd_scores_batch",
    "NO_CARD",
    "solve_declarer",
    "solve_deals",
    "DEFENDER_DISCARDS",
    "set_table_memory",
]

# R17: defender discard policies for little misère, name -> kernel id
DEFENDER_DISCARDS = {"highest": 0}

# Transposition-table memory: per table, and at most per process (all tables together).
# A table's window keeps small deals in a few megabytes (kernels/dd/tt.py); the size only
# matters to the rare proofs that fill it, which 512 MiB solves several times faster than
# 128 (docs/solver.md, "Memory").
TABLE_MIB = 512
PROCESS_MIB = 1024
_TABLE_MIB = TABLE_MIB
_PROCESS_MIB = PROCESS_MIB
# The most (deal, job) pairs a batch worker takes at once (`_run_batch`).
_MOST_PAIRS = 1


class SolverInputError(CardError):
    """A deal, seat, trump, side or policy the solver cannot accept; names the field."""


def set_table_memory(per_table_mib=TABLE_MIB, per_process_mib=PROCESS_MIB):
    """Configure transposition-table sizes (MiB per table, MiB for all tables of a process).

    Each table's worker also keeps the ruff game's memo (kernels.dd.ruff_game), an eighth
    of its table's size and at most 12 MiB."""
    global _TABLE_MIB, _PROCESS_MIB
    if per_table_mib <= 0 or per_process_mib <= 0:
        raise SolverInputError("table memory must be positive")
    _TABLE_MIB = per_table_mib
    _PROCESS_MIB = per_process_mib
    _local.__dict__.clear()
    _batch_tables.clear()


_local = threading.local()


def _ruff_memo_entries(mib):
    """Entries of a worker's ruff-game memo (24 bytes each) beside a table of `mib` MiB:
    a power of two, at most an eighth of the table and `RUFF_CUT_MEMO`."""
    n = max(2, int(mib * (1 << 20)) // (8 * 24))
    return min(RUFF_CUT_MEMO, 1 << (n.bit_length() - 1))


# joblib's process workers (loky) take a worker whose memory grew by more than this since
# its first task for a leak, and restart it (losing its tables) with a warning.
_LOKY_LEAK_ALLOWANCE = int(3e8)
_LOKY_EXECUTOR = "joblib.externals.loky.process_executor"


def _allow_tables_in_loky_worker():
    """Raise this process's loky leak allowance by what all its tables may hold.

    The tables keep the pages a search touched for the next deals, so a worker's memory
    grows towards their budget by design, the more so the harder the deals. In a joblib
    worker (the module is loaded) its `_MAX_MEMORY_LEAK_SIZE` becomes loky's own allowance
    plus the batch tables' budget, this thread's table and the private table, with their
    ruff-game memos. Elsewhere nothing reads the value."""
    executor = sys.modules.get(_LOKY_EXECUTOR)
    if executor is None:
        return
    mib = (_PROCESS_MIB + min(_TABLE_MIB, _PROCESS_MIB) + PRIVATE_TABLE_MIB
           + 3 * RUFF_CUT_MEMO * 24 / (1 << 20))
    allowance = _LOKY_LEAK_ALLOWANCE + int(mib * (1 << 20))
    executor._MAX_MEMORY_LEAK_SIZE = max(executor._MAX_MEMORY_LEAK_SIZE, allowance)


class _Worker:
    """One transposition table with its generation counter and ruff-game memo (one per
    Python thread)."""

    def __init__(self, mib):
        _allow_tables_in_loky_worker()
        self.exact, self.classes = new_table(mib)
        self.gens = np.zeros(1, np.int64)
        self.rmemo = new_ruff_memo(_ruff_memo_entries(mib))
        # (declarer, goal) of the exact position searches filling the current generation,
        # None when anything else (a deal's jobs, node-limited searches) may have stored
        self.score_key = None

    def run(self, hands, leader, jobs):
        """Results (jobs,) of the jobs on one validated deal."""
        out = np.zeros((1, len(jobs)), np.int8)
        self.score_key = None
        solve_jobs(hands[None, :], 0, 1, leader, np.asarray(jobs, np.int64).reshape(-1, 3),
                   out, self.exact, self.classes, self.gens, 0, self.rmemo)
        return out[0]


def _worker(limited=False):
    """The calling thread's table: for node-limited searches inside `private_tables` the
    block's own, else the thread's shared one (exact values never depend on a table's
    contents, and a made misère's proof needs the larger table)."""
    if limited:
        w = getattr(_local, "private", None)
        if w is not None:
            return w
    w = getattr(_local, "worker", None)
    if w is None:
        w = _local.worker = _Worker(min(_TABLE_MIB, _PROCESS_MIB))
    return w


PRIVATE_TABLE_MIB = 16  # one hand of real play's searches fit (a decision's worlds share it)


@contextlib.contextmanager
def private_tables():
    """Within the block, this thread's node-limited searches (dd_scores_batch with a
    `node_limit`) use a table of their own, empty at the start of the block: their answers
    depend on what the table holds, and inside the block only on what ran inside it,
    whatever ran before in the thread or process. Exact searches keep the thread's shared
    table: their values never depend on its contents."""
    w = getattr(_local, "private_worker", None)
    if w is None:
        w = _local.private_worker = _Worker(min(PRIVATE_TABLE_MIB, _PROCESS_MIB))
    else:
        w.exact[:] = 0
        w.classes[:] = 0
        w.rmemo[:] = 0
        w.gens[0] = 0
        w.score_key = None
    outer = getattr(_local, "private", None)
    _local.private = w
    try:
        yield
    finally:
        _local.private = outer


def _run_batch(deals, leader, jobs):
    """(n, jobs) int8 results over a validated batch, (deal, job) pairs handed out to
    worker threads.

    Each worker (a Python thread; the kernel releases the GIL) owns one table and asks
    `_Chunks` for its next run of the n x jobs pairs (deal by deal, each deal's jobs in
    order) whenever it finishes one, so a hard job keeps one worker busy while the others
    go on: the work is heavy-tailed (on 200 seed-777 deals one deal's grand and little
    misère for one seat took 10.3 of the 21.7 s of all their misère jobs, about 5 s
    each), and the jobs of one deal share nothing but the worker's ruff-game memo (a
    table entry holds its trump and seats, kernels.dd.tt). Results never depend on who
    solved what: table entries are properties of positions alone.
    """
    jobs = np.asarray(jobs, np.int64).reshape(-1, 3)
    n = deals.shape[0]
    out = np.zeros((n, jobs.shape[0]), np.int8)
    with _batch_lock:
        exact, classes, gens, rmemos = _batch_state()
        workers = min(exact.shape[0], n * jobs.shape[0])
        if workers <= 1:
            solve_jobs(deals, 0, 1, leader, jobs, out, exact[0], classes[0], gens, 0, rmemos[0])
            return out
        chunks = _Chunks(n * jobs.shape[0], workers, _MOST_PAIRS)

        def work(t):
            while (span := chunks.next()) is not None:
                for u in range(*span):
                    i, j = divmod(u, jobs.shape[0])
                    part = np.zeros((1, 1), np.int8)
                    solve_jobs(deals[i:i + 1], 0, 1, leader, jobs[j:j + 1], part, exact[t],
                               classes[t], gens, t, rmemos[t])
                    out[i, j] = part[0, 0]

        with ThreadPoolExecutor(workers, thread_name_prefix="dd-batch") as pool:
            for f in [pool.submit(work, t) for t in range(workers)]:
                f.result()
    return out


class _Chunks:
    """Guided hand-out of items 0..n-1: runs shrink with the work left, down to one item.

    Each call of `next` returns the next (start, stop) span, about the remaining items
    over twice the workers but at most `most`, or None when every item has been handed
    out.
    """

    def __init__(self, n, workers, most=None):
        self._n = n
        self._workers = workers
        self._most = n if most is None else max(1, most)
        self._next = 0
        self._lock = threading.Lock()

    def next(self):
        with self._lock:
            left = self._n - self._next
            if left <= 0:
                return None
            start = self._next
            self._next += max(1, min(self._most, left // (2 * self._workers)))
            return start, self._next


_batch_tables = {}
_batch_lock = threading.Lock()


def _batch_state():
    """Tables for the batch workers: one per worker (`numba.get_num_threads()` of them),
    within the process budget, with their generation counters and ruff-game memos."""
    nt = max(1, numba.get_num_threads())
    state = _batch_tables.get(nt)
    if state is None:
        mib = min(_TABLE_MIB, _PROCESS_MIB / nt)
        _allow_tables_in_loky_worker()
        exact, classes = new_tables(mib, nt)
        gens = np.zeros(nt, np.int64)
        rmemos = aligned_zeros((nt, _ruff_memo_entries(mib), 3))
        state = _batch_tables[nt] = (exact, classes, gens, rmemos)
    return state


def _field_seat(value, field):
    try:
        return parse_seat(value)
    except CardError as err:
        raise SolverInputError(f"{field}: {err}") from None


def _field_trump(value):
    try:
        return parse_suit(value)
    except CardError as err:
        raise SolverInputError(f"trump: {err}") from None


def _disjoint_cards(hands, field):
    """The cards of `hands` (4 ints) together; SolverInputError naming `field` unless each is
    a mask of the 52 cards and no card is held twice."""
    seen = 0
    for seat, h in enumerate(hands):
        if h < 0 or h & ~ALL_CARDS:
            raise SolverInputError(f"{field}: hand {seat} has bits outside the 52 cards")
        if seen & h:
            raise SolverInputError(f"{field}: hands overlap (hand {seat} repeats a card)")
        seen |= h
    return seen


def check_hands(hands, field="deal"):
    """Raise SolverInputError (a ValueError naming `field`) unless `hands` are 4 disjoint
    masks of equally many (1..13) cards."""
    _disjoint_cards(hands, field)
    sizes = [h.bit_count() for h in hands]
    if len(set(sizes)) != 1:
        raise SolverInputError(f"{field}: hands hold unequal numbers of cards {sizes}")
    if not 1 <= sizes[0] <= 13:
        raise SolverInputError(f"{field}: hands must hold 1..13 cards, not {sizes[0]}")


def check_deal(deal):
    """Validated (4,) uint64 copy of a deal (SolverInputError, a ValueError, naming it)."""
    arr = np.asarray(deal)
    if arr.shape != (4,):
        raise SolverInputError(f"deal: expected 4 hands, got shape {arr.shape}")
    try:
        hands = [int(h) for h in arr]
    except (TypeError, ValueError):
        raise SolverInputError("deal: hands must be integer masks") from None
    check_hands(hands)
    return np.array(hands, dtype=np.uint64)


def _mask_rows(rows, field):
    """(n, 4) uint64 copy of rows of four hand masks, their values unchecked."""
    arr = np.asarray(rows)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise SolverInputError(f"{field}: expected shape (n, 4), got {arr.shape}")
    if arr.dtype != np.uint64:
        if not np.issubdtype(arr.dtype, np.integer) or (arr.size and arr.min() < 0):
            raise SolverInputError(f"{field}: hands must be non-negative integer masks")
    return np.ascontiguousarray(arr, dtype=np.uint64)


def _deals(deals):
    """Validated (n, 4) uint64 copy of a batch of deals."""
    arr = _mask_rows(deals, "deals")
    for i in range(arr.shape[0]):
        check_hands([int(h) for h in arr[i]], field=f"deals[{i}]")
    return arr


def _policy(defender_discard):
    policy = DEFENDER_DISCARDS.get(defender_discard)
    if policy is None:
        raise SolverInputError(
            f"defender_discard: unknown policy {defender_discard!r} "
            f"(known: {', '.join(DEFENDER_DISCARDS)})"
        )
    return policy


def dd_tricks(deal, declarer, trump, leader) -> int:
    """The most tricks `declarer`, alone against the three others, can be sure to take."""
    hands = check_deal(deal)
    d = _field_seat(declarer, "declarer")
    tr = _field_trump(trump)
    ld = _field_seat(leader, "leader")
    return int(_worker().run(hands, ld, [(JOB_TRICKS, 1 << d, tr)])[0])


def dd_tricks_partnership(deal, side, trump, leader) -> int:
    """Tricks the seats of `side` take when they play together against the others."""
    hands = check_deal(deal)
    if isinstance(side, (str, bytes)) or not hasattr(side, "__iter__"):
        raise SolverInputError(f"side: expected a collection of seats, got {side!r}")
    seats = {_field_seat(s, "side") for s in side}  # a repeated seat counts once
    if not 1 <= len(seats) <= 3:
        raise SolverInputError(f"side: must hold 1 to 3 of the 4 seats, got {side!r}")
    mask = sum(1 << s for s in seats)
    tr = _field_trump(trump)
    ld = _field_seat(leader, "leader")
    return int(_worker().run(hands, ld, [(JOB_TRICKS, mask, tr)])[0])


def dd_misere(deal, declarer, leader) -> bool:
    """Whether the declarer can be sure to take no trick, no trump (R15, R20, R21)."""
    hands = check_deal(deal)
    d = _field_seat(declarer, "declarer")
    ld = _field_seat(leader, "leader")
    return bool(_worker().run(hands, ld, [(JOB_GRAND, d, 0)])[0])


def dd_little_misere(deal, declarer, leader, defender_discard="highest") -> bool:
    """Little misère (R15, R17): each discards one card, then as `dd_misere` on the rest."""
    hands = check_deal(deal)
    d = _field_seat(declarer, "declarer")
    ld = _field_seat(leader, "leader")
    policy = _policy(defender_discard)
    return bool(_worker().run(hands, ld, [(JOB_LITTLE, d, policy)])[0])


# the batch tables' jobs, in their output order: declarer x trump, declarer x [grand, little]
_TABLE_JOBS = [(JOB_TRICKS, 1 << d, tr) for d in range(4) for tr in range(4)]


def _misere_jobs(policy):
    return [(kind, d, policy) for d in range(4) for kind in (JOB_GRAND, JOB_LITTLE)]


def dd_table(deals, leader) -> np.ndarray:
    """(n, 4, 4) int8: `dd_tricks` for each declarer seat (axis 1) and trump suit (axis 2)."""
    arr = _deals(deals)
    ld = _field_seat(leader, "leader")
    return _run_batch(arr, ld, _TABLE_JOBS).reshape(-1, 4, 4)


def dd_misere_table(deals, leader, defender_discard="highest") -> np.ndarray:
    """(n, 4, 2) bool: for each declarer seat, [grand misère, little misère] made."""
    arr = _deals(deals)
    ld = _field_seat(leader, "leader")
    jobs = _misere_jobs(_policy(defender_discard))
    return _run_batch(arr, ld, jobs).reshape(-1, 4, 2).astype(bool)


def solve_declarer(deals, declarer, leader, defender_discard="highest"):
    """One declarer's solves per deal: (tricks (n, 4) int8 by trump 0..3, grand, little)."""
    arr = _deals(deals)
    d = _field_seat(declarer, "declarer")
    ld = _field_seat(leader, "leader")
    policy = _policy(defender_discard)
    jobs = [(JOB_TRICKS, 1 << d, tr) for tr in range(4)]
    jobs += [(JOB_GRAND, d, 0), (JOB_LITTLE, d, policy)]
    out = _run_batch(arr, ld, jobs)
    return np.ascontiguousarray(out[:, :4]), out[:, 4].astype(bool), out[:, 5].astype(bool)


def solve_deals(deals, leader, defender_discard="highest"):
    """`dd_table` and `dd_misere_table` of a batch from one batch of (deal, job) pairs:
    (tricks (n, 4, 4) int8, misère (n, 4, 2) bool), equal to the two calls.

    The Boston analysis (analyser.pipeline) needs both, and one batch keeps every worker
    busy to its end: misère jobs are heavy-tailed (a few take seconds), and with two calls
    the second could not start until the first's slowest job was done, while here the
    other workers go on with the numeric jobs of later deals (seed-777 deals 0-39 on 2
    threads: 9.6-10.1 s as two calls, 8.1-8.7 s as one).
    """
    arr = _deals(deals)
    ld = _field_seat(leader, "leader")
    out = _run_batch(arr, ld, _TABLE_JOBS + _misere_jobs(_policy(defender_discard)))
    return (np.ascontiguousarray(out[:, :16]).reshape(-1, 4, 4),
            out[:, 16:].reshape(-1, 4, 2).astype(bool))


# --- searches for real play (API.md "Searches for real play") ---------------------------


def _field_goal(goal):
    """Kernel goal code: a trump 0..3, -1 for no trump, GOAL_MISERE for "misere"."""
    if isinstance(goal, str) and goal.strip().lower() in ("misere", "misère"):
        return GOAL_MISERE
    try:
        return parse_suit(goal)
    except CardError:
        raise SolverInputError(
            f"goal: {goal!r} is not a trump -1..3 (or a suit letter) nor \"misere\"") from None


def _field_trick(trick):
    """The trick prefix as a list of 0..3 distinct card ids 0..51."""
    if isinstance(trick, (str, bytes)) or not hasattr(trick, "__iter__"):
        raise SolverInputError(f"trick: expected a sequence of card ids, got {trick!r}")
    cards = list(trick)
    if len(cards) > 3:
        raise SolverInputError(f"trick: at most 3 cards may be on the table, got {len(cards)}")
    out = []
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c <= 51:
            raise SolverInputError(f"trick: {c!r} is not a card id 0..51")
        if int(c) in out:
            raise SolverInputError(f"trick: card {int(c)} is played twice")
        out.append(int(c))
    return out


def _check_position(hands, leader, trick, field="hands"):
    """Raise unless `hands` (4 ints) hold the cards a position with `trick` on the table
    needs: disjoint, none on the table, the seats that played to the trick one card fewer
    than the others (the player to move holding one at least when a trick is open), each
    card of the trick following the suit led when its player still holds that suit (R19)."""
    seen = _disjoint_cards(hands, field)
    for c in trick:
        if seen >> c & 1:
            raise SolverInputError(f"trick: card {c} is on the table and in a hand")
    k = len(trick)
    to_move = (leader + k) % 4
    m = hands[to_move].bit_count()
    want = [m - 1 if (s - leader) % 4 < k else m for s in range(4)]
    sizes = [h.bit_count() for h in hands]
    if sizes != want or m > 13 or (k and m == 0):
        raise SolverInputError(
            f"{field}: hands hold {sizes} cards; with {k} card(s) on the table from seat "
            f"{leader} the seats that played hold one card fewer than the others")
    if k:
        led = trick[0] // 13
        for i in range(1, k):
            seat = (leader + i) % 4
            if trick[i] // 13 != led and hands[seat] >> (13 * led) & 0x1FFF:
                raise SolverInputError(
                    f"trick: seat {seat} played card {trick[i]} but holds the suit led (R19)")


def _hands_ints(hands, field="hands"):
    arr = np.asarray(hands)
    if arr.shape != (4,):
        raise SolverInputError(f"{field}: expected 4 hands, got shape {arr.shape}")
    try:
        return [int(h) for h in arr]
    except (TypeError, ValueError):
        raise SolverInputError(f"{field}: hands must be integer masks") from None


def _position(declarer, goal, leader, trick):
    """Validated (declarer, goal code, leader, trick list, trick array (4,) int64)."""
    d = _field_seat(declarer, "declarer")
    g = _field_goal(goal)
    ld = _field_seat(leader, "leader")
    cards = _field_trick(trick)
    arr = np.zeros(4, np.int64)
    arr[:len(cards)] = cards
    return d, g, ld, cards, arr


def _score_tables(key=None):
    """The calling thread's table and scratch buffers for the position searches, with
    its generation and (exact, classes, rmemo, moves, scores). `key` (declarer, goal)
    marks exact searches, None node-limited ones (`_worker`). Consecutive exact searches
    of one key share a generation (it only steers the table's replacement, kernels.dd.tt),
    so a player choosing card after card in one hand keeps the previous positions' work
    within the table's growing window; any other search starts a new generation."""
    w = _worker(limited=key is None)
    if key is None or key != w.score_key:
        w.gens[0] += 1
    w.score_key = key
    moves, scores = new_score_work()
    return int(w.gens[0]), w.exact, w.classes, w.rmemo, moves, scores


def dd_scores(hands, declarer, goal, leader, trick=()) -> dict:
    """Every legal card of the player to move and its double-dummy value (R18-R21): the
    most tricks `declarer` can still be sure of from the current trick (included) once
    the card is played, for a numeric `goal` (a trump 0..3 or -1 for no trump); for
    `goal` "misere", whether it can still be sure to take no trick. The position may start
    inside a trick: `trick` holds the cards already played to it from `leader` on, in
    order (kernels.dd.scores)."""
    d, g, ld, cards, tr = _position(declarer, goal, leader, trick)
    hs = _hands_ints(hands)
    _check_position(hs, ld, cards)
    out = np.zeros(52, np.int8)
    gen, exact, classes, rmemo, moves, scores = _score_tables((d, g))
    score_cards(np.array(hs, np.uint64), ld, tr, len(cards), d, g, exact, classes, gen, moves,
                scores, rmemo, out)
    cast = bool if g == GOAL_MISERE else int
    return {c: cast(out[c]) for c in range(52) if out[c] != NO_CARD}


def dd_reach(hands, declarer, goal, leader, trick=(), target=None) -> bool:
    """Whether `declarer` can be sure of at least `target` more tricks, the current one
    included (numeric `goal`), or of taking no trick (`goal` "misere"; `target` ignored),
    from a position as in `dd_scores`."""
    d, g, ld, cards, tr = _position(declarer, goal, leader, trick)
    hs = _hands_ints(hands)
    _check_position(hs, ld, cards)
    if g != GOAL_MISERE:
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
            raise SolverInputError(f"target: expected a whole number of tricks, got {target!r}")
        target = int(target)
    else:
        target = 0
    gen, exact, classes, rmemo, moves, scores = _score_tables((d, g))
    return bool(reach_position(np.array(hs, np.uint64), ld, tr, len(cards), d, g, target, exact,
                               classes, gen, moves, scores, rmemo))


def dd_scores_batch(hands, declarer, goal, leader, trick=(), node_limit=None,
                    cap=None) -> np.ndarray:
    """`dd_scores` over n positions with the same trick on the table (one per sampled
    world): `hands` (n, 4) masks, one row per position. Returns (n, 52) int8, each row
    indexed by card id: the card's value (misère: 1 made, 0 not) for each legal card of
    the player to move, NO_CARD (-1) for every other card. One transposition table serves
    the whole batch (its entries hold for every position of one goal and declarer).

    `node_limit` (a whole number, or None for exact values) bounds each search: a card
    whose search runs over it scores UNKNOWN (-2) instead (kernels.dd.scores), so that
    real play never waits on one position's long proof. `cap` (numeric goals: a whole
    number, or None) scores min(value, cap), with fewer searches: real play needs no
    value above the tricks its contract still needs."""
    d, g, ld, cards, tr = _position(declarer, goal, leader, trick)
    arr = _mask_rows(hands, "hands")
    for i in range(arr.shape[0]):
        _check_position([int(h) for h in arr[i]], ld, cards, field=f"hands[{i}]")
    out = np.zeros((arr.shape[0], 52), np.int8)
    values = np.zeros(arr.shape[0], np.int8)
    budget = None
    if node_limit is not None:
        if isinstance(node_limit, bool) or not isinstance(node_limit, (int, np.integer)) \
                or node_limit < 1:
            raise SolverInputError(f"node_limit: expected a whole number >= 1, got {node_limit!r}")
        budget = np.array([node_limit, 0], np.int64)
    if cap is not None:
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or cap < 0:
            raise SolverInputError(f"cap: expected a whole number of tricks, got {cap!r}")
        cap = np.int64(cap) if g != GOAL_MISERE else None
    gen, exact, classes, rmemo, moves, scores = _score_tables((d, g) if budget is None else None)
    score_cards_batch(arr, ld, tr, len(cards), d, g, exact, classes, gen, moves, scores, rmemo,
                      out, values, budget, cap)
    return out
