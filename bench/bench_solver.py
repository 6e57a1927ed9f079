"""Double-dummy solver speed: bridge mode against DDS, Boston analyses, memory, compile time.

(a) Bridge mode: the same random full deals, one declarer and strain each (strains and
    declarers in turn), solved by DDS's SolveBoard through endplay (thread 0 only, after
    SetMaxThreads(1)) and by our `dd_tricks_partnership` on one numba thread, side by side
    per deal, in turn. DDS is asked for what we compute, the value alone (target -1,
    solutions 1: endplay's `SolveMode.OptimalOne`); its default (a score for every card,
    solutions 3) is timed too, in a second pass over the deals, as a second reference
    (DDS's usual mode). No DDS call meets the deal of its previous call: DDS then
    reuses its table and answers almost at once. Target: ours/DDS value-only <= 1.0
    (median time per solve).
(b) Boston mode: the full per-deal analysis, `dd_table` + `dd_misere_table` (every declarer
    seat: 4 trumps, grand and little misère) solved in one batch as the pipeline does
    (`solve_deals`), in deals/s on 1 and 2 threads, and as the two calls on 2 threads, each
    run from empty transposition tables.
(c) Transposition-table memory: the solver's configured budget, the bytes its tables hold
    after the runs, and the process's resident memory.
(d) numba compilation: a fresh interpreter solving one small deal in every mode, first with
    an empty NUMBA_CACHE_DIR (cold: everything compiles) and again with that cache (warm).
(e) The distribution: the Boston analysis of 2,000 random deals, deals/s on 1 and 2
    threads, the per-deal time's percentiles (p50 to p99.9, max) and the searches (seat,
    numeric, grand or little misère) that hold the slowest deals: the work is heavy-tailed,
    so (b)'s 40 deals say little of it. `python -m bench.bench_solver --distribution N`
    prints this section alone, over N deals.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

import analyser
from analyser import solver
from analyser.constants import LEADER

ROOT = Path(__file__).resolve().parent.parent
STRAINS = [0, 1, 2, 3, -1]  # our trump ids; DDS Denom: spades 0 .. clubs 3, nt 4
SUIT_NAMES = {0: "S", 1: "H", 2: "D", 3: "C", -1: "NT"}


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux /proc; NaN elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def dds_solver():
    """A function (pbn, trump, leader, every_card) -> tricks of the leader's side by DDS, or
    None. every_card False asks for the value alone (solutions 1), True for a score for
    every card (solutions 3, endplay's default)."""
    try:
        from endplay import _dds
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    _dds.SetMaxThreads(1)  # one thread: solve_board runs SolveBoard on thread index 0
    denoms = {0: Denom.spades, 1: Denom.hearts, 2: Denom.diamonds, 3: Denom.clubs, -1: Denom.nt}

    def solve(pbn, trump, leader, every_card=False):
        deal = Deal(pbn)
        deal.first, deal.trump = Player(leader), denoms[trump]
        mode = SolveMode.Default if every_card else SolveMode.OptimalOne
        return max(score for _, score in solve_board(deal, mode))

    return solve


def bridge_jobs(n: int) -> list:
    """Section (a)'s jobs, three warm-up ones first, then n timed: (deal, trump, declarer),
    the strains and declarers in turn (also `python -m tools.ab --jobs bridge`)."""
    deals = analyser.deal_random(n + 3, seed=4242)
    return [(deal, STRAINS[i % 5], (i // 5) % 4) for i, deal in enumerate(deals)]


def bridge_vs_dds(n: int) -> tuple[str, float]:
    """Section (a): per-solve times of DDS and ours on the same n deals."""
    dds = dds_solver()
    if dds is None:
        return "(a) skipped: endplay (DDS) is not installed.\n", float("nan")
    jobs = [(deal, analyser.format_deal(deal), trump, declarer)
            for deal, trump, declarer in bridge_jobs(n)]
    for every_card in (False, True):  # JIT and table warm-up, not timed
        for deal, pbn, trump, declarer in jobs[:3]:
            if not every_card:
                analyser.dd_tricks_partnership(deal, (declarer, (declarer + 2) % 4), trump,
                                               (declarer + 1) % 4)
            dds(pbn, trump, (declarer + 1) % 4, every_card)
    # DDS keeps its transposition table between calls on the same deal (SolveBoard's own
    # reuse), so a second DDS call on a deal costs next to nothing (0.15 against 15.8 ms
    # median measured): each pass solves every deal once, so each DDS call meets a new
    # deal. Pass 1 alternates ours and DDS value-only deal by deal (each first in turn);
    # pass 2 is DDS scoring every card, its usual mode.
    times = {0: [], 1: [], 2: []}  # ours, DDS value only, DDS every card
    answers = {0: [], 1: [], 2: []}
    for i, (deal, pbn, trump, declarer) in enumerate(jobs[3:]):
        leader, side = (declarer + 1) % 4, (declarer, (declarer + 2) % 4)
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            start = time.perf_counter()
            if which == 0:
                answers[0].append(analyser.dd_tricks_partnership(deal, side, trump, leader))
            else:  # DDS answers for the side on lead
                answers[1].append(13 - dds(pbn, trump, leader))
            times[which].append(1000 * (time.perf_counter() - start))
        print(f"(a) deal {i + 1}/{n}: ours {times[0][-1]:.0f} ms, DDS {times[1][-1]:.1f} ms",
              file=sys.stderr, flush=True)
    for _, pbn, trump, declarer in jobs[3:]:
        start = time.perf_counter()
        answers[2].append(13 - dds(pbn, trump, (declarer + 1) % 4, True))
        times[2].append(1000 * (time.perf_counter() - start))
    mismatches = sum(a != b or a != c for a, b, c in zip(*answers.values(), strict=True))
    ours_ms, dds_ms, all_ms = times[0], times[1], times[2]
    ratio = statistics.median(ours_ms) / statistics.median(dds_ms)
    lines = [
        f"(a) Bridge mode, {n} random full deals, one declarer and strain each (strains "
        "S H D C NT and declarers N E S W in turn), opening lead by declarer's left; "
        "DDS SolveBoard (endplay `solve_board`, 1 thread) vs our `dd_tricks_partnership` "
        f"(numba threads: 1). Answers differing from DDS: {mismatches}.",
        "",
        "| solver | median ms/solve | mean ms/solve | max ms/solve |",
        "|---|---:|---:|---:|",
        f"| DDS, value only (`SolveMode.OptimalOne`) | {statistics.median(dds_ms):.2f} "
        f"| {statistics.mean(dds_ms):.2f} | {max(dds_ms):.1f} |",
        f"| DDS, every card scored (`solve_board`'s default) | {statistics.median(all_ms):.2f} "
        f"| {statistics.mean(all_ms):.2f} | {max(all_ms):.1f} |",
        f"| ours (the value) | {statistics.median(ours_ms):.2f} "
        f"| {statistics.mean(ours_ms):.2f} | {max(ours_ms):.1f} |",
        "",
        f"Ratio ours/DDS value only: median {ratio:.2f}, mean "
        f"{statistics.mean(ours_ms) / statistics.mean(dds_ms):.2f} (target <= 1.0). "
        f"Against DDS scoring every card (its usual mode): "
        f"median {statistics.median(ours_ms) / statistics.median(all_ms):.2f}, mean "
        f"{statistics.mean(ours_ms) / statistics.mean(all_ms):.2f}.",
        "",
    ]
    return "\n".join(lines), ratio


def boston_mode(n: int, repeats: int) -> str:
    """Section (b): the full analysis of each deal (`solve_deals`, the pipeline's one batch),
    deals/s on 1 and 2 threads, beside the two calls `dd_table` + `dd_misere_table` on 2."""
    deals = analyser.deal_random(n, seed=777)
    leader = 1  # the dealer's left (R18) with North dealing
    solver.solve_deals(deals[:2], leader)  # JIT warm-up
    one, split = "one batch (`solve_deals`)", "two calls (`dd_table`, `dd_misere_table`)"
    forms = {
        one: lambda: solver.solve_deals(deals, leader),
        split: lambda: (analyser.dd_table(deals, leader), analyser.dd_misere_table(deals, leader)),
    }
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    runs = list(dict.fromkeys([(1, one), (two, one), (two, split)]))  # 1 core: (1, one) once
    walls = {run: [] for run in runs}
    cpus = {run: [] for run in runs}
    saved_threads = numba.get_num_threads()
    try:
        for _ in range(repeats):
            for threads, name in runs:  # the forms alternate, so that both see the same load
                numba.set_num_threads(threads)
                # empty tables for every run: entries outlive calls, so a repeat would
                # otherwise find most of the last run's work already done
                solver.set_table_memory(solver._TABLE_MIB, solver._PROCESS_MIB)
                wall, cpu = time.perf_counter(), time.process_time()
                forms[name]()
                walls[threads, name].append(time.perf_counter() - wall)
                cpus[threads, name].append(time.process_time() - cpu)
                print(f"(b) {threads} thread(s), {name}: {n} deals in "
                      f"{walls[threads, name][-1]:.0f} s", file=sys.stderr, flush=True)
    finally:
        numba.set_num_threads(saved_threads)
    rows = []
    for run in runs:
        wall = statistics.median(walls[run])
        rows.append(f"| {run[0]} | {run[1]} | {n / wall:.2f} | {1000 * wall / n:.0f} | "
                    f"{n / statistics.median(cpus[run]):.2f} |")
    return "\n".join([
        f"(b) Boston mode: the full analysis of a deal, `dd_table` (4 declarers x 4 trumps) "
        f"+ `dd_misere_table` (4 declarers x grand, little), leader E, solved as the "
        f"pipeline does, in one batch (`analyser.solver.solve_deals`); on 2 threads also as "
        f"the two calls; {n} random deals, median of {repeats} runs (the forms alternating), "
        f"each from empty transposition tables.",
        "",
        "| threads | form | deals/s (wall) | ms/deal (wall) | deals per CPU-second |",
        "|---:|---|---:|---:|---:|",
        *rows,
        "",
    ])


SEATS = "NESW"
DIST_SEED = 3


def _job_names() -> list:
    """Names of the Boston analysis's 24 jobs of a deal, in `solve_deals`'s order: the
    numeric contracts (seat, trump) then each seat's grand and little misère."""
    names = [f"{SEATS[d]} {SUIT_NAMES[t]}" for d in range(4) for t in range(4)]
    names += [f"{SEATS[d]} {kind}" for d in range(4) for kind in ("grand", "little")]
    return names


def scan_deals(deals, leader: int = LEADER, progress: bool = False):
    """Each job of the Boston analysis of each deal solved alone on this thread, as a
    batch worker solves it (one worker's table and ruff memo kept across the deals, each
    job a new table generation): (answers (n, 24) int8 in `solve_deals`'s order, seconds
    (n, 24))."""
    from kernels.dd.batch import JOB_GRAND, JOB_LITTLE, JOB_TRICKS

    jobs = np.array([(JOB_TRICKS, 1 << d, t) for d in range(4) for t in range(4)]
                    + [(kind, d, 0) for d in range(4) for kind in (JOB_GRAND, JOB_LITTLE)],
                    np.int64)
    worker = solver._Worker(min(solver._TABLE_MIB, solver._PROCESS_MIB))
    n = deals.shape[0]
    answers = np.zeros((n, len(jobs)), np.int8)
    seconds = np.zeros((n, len(jobs)))
    for i in range(n):
        for j in range(len(jobs)):
            start = time.perf_counter()
            answers[i, j] = worker.run(deals[i], leader, jobs[j:j + 1])[0]
            seconds[i, j] = time.perf_counter() - start
        if progress and (i + 1) % 100 == 0:
            print(f"(e) scanned {i + 1}/{n} deals, {seconds[:i + 1].sum():.0f} s",
                  file=sys.stderr, flush=True)
    return answers, seconds


def boston_distribution(n: int, chunk: int = 100) -> str:
    """Section (e): the Boston analysis over n random deals (seed DIST_SEED): deals/s on 1
    thread (every job alone, `scan_deals`) and on 2 (`solve_deals` in chunks of `chunk`),
    the per-deal time's percentiles on one thread and the searches that hold the
    slowest deals."""
    deals = analyser.deal_random(n, seed=DIST_SEED)
    solver.solve_deals(deals[:2], LEADER)  # JIT warm-up
    saved_threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        cpu = time.process_time()
        answers, seconds = scan_deals(deals, progress=True)
        cpu = time.process_time() - cpu
        two = min(2, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(two)
        solver.set_table_memory(solver._TABLE_MIB, solver._PROCESS_MIB)
        wall2 = time.perf_counter()
        for lo in range(0, n, chunk):
            tricks, misere = solver.solve_deals(deals[lo:lo + chunk], LEADER)
            mismatch = (tricks.reshape(-1, 16) != answers[lo:lo + chunk, :16]).any() or (
                misere.reshape(-1, 8) != answers[lo:lo + chunk, 16:].astype(bool)).any()
            if mismatch:
                raise SystemExit(f"(e) solve_deals and the scan disagree in deals {lo}..")
        wall2 = time.perf_counter() - wall2
    finally:
        numba.set_num_threads(saved_threads)
    per_deal = seconds.sum(axis=1)
    names = _job_names()
    pct = {p: float(np.percentile(per_deal, p)) for p in (50, 90, 99, 99.9)}
    worst = np.argsort(per_deal)[::-1][:8]
    rows = []
    for i in worst:
        j = int(np.argmax(seconds[i]))
        rows.append(f"| {i} | `{analyser.format_deal(deals[i])}` | {per_deal[i]:.2f} | "
                    f"{names[j]} | {seconds[i, j]:.2f} |")
    kind_share = {label: seconds[:, sl].sum() / seconds.sum()
                  for label, sl in (("numeric", slice(0, 16)), ("grand misère", slice(16, 24, 2)),
                                    ("little misère", slice(17, 24, 2)))}
    share = ", ".join(f"{k} {v:.0%}" for k, v in kind_share.items())
    return "\n".join([
        f"(e) The distribution: the Boston analysis of {n} random deals (`deal_random`, seed "
        f"{DIST_SEED}, leader {SEATS[LEADER]} as in the pipeline). On 1 thread every job "
        f"solved alone as a batch worker solves it: {n / per_deal.sum():.2f} deals/s "
        f"({n / cpu:.2f} per CPU-second); on {two} threads `solve_deals` in chunks of "
        f"{chunk}: {n / wall2:.2f} deals/s. Answers "
        f"of the two runs agree. Share of the time: {share}.",
        "",
        "| per-deal time on 1 thread | p50 | p90 | p99 | p99.9 | max |",
        "|---|---:|---:|---:|---:|---:|",
        f"| seconds | {pct[50]:.3f} | {pct[90]:.3f} | {pct[99]:.3f} | {pct[99.9]:.3f} | "
        f"{per_deal.max():.3f} |",
        "",
        "The slowest deals and the search that holds most of each one's time:",
        "",
        "| deal | hands (N E S W) | s | slowest search | its s |",
        "|---:|---|---:|---|---:|",
        *rows,
        "",
        "The hardest deals found are stored with their answers in `tests/data/hard_boston.json` "
        "(`tests/test_hard_deals.py`).",
        "",
    ])


def table_memory() -> str:
    """Section (c): configured and allocated transposition-table memory, with the ruff
    game's memo each worker keeps beside its table."""
    per_table = getattr(solver, "_TABLE_MIB", None)
    per_process = getattr(solver, "_PROCESS_MIB", None)
    tables = memos = 0
    worker = getattr(getattr(solver, "_local", None), "worker", None)
    if worker is not None:
        tables += worker.exact.nbytes + worker.classes.nbytes
        memos += worker.rmemo.nbytes
    for exact, classes, _, rmemos in getattr(solver, "_batch_tables", {}).values():
        tables += exact.nbytes + classes.nbytes
        memos += rmemos.nbytes
    return "\n".join([
        "(c) Transposition tables: configured budget "
        f"{per_table} MiB per table, {per_process} MiB per process "
        "(`analyser.solver.set_table_memory`); tables held after (a) and (b): "
        f"{tables / 2**20:.0f} MiB, and beside them the ruff game's memos "
        f"{memos / 2**20:.0f} MiB; process resident memory now {rss_mib():.0f} MiB.",
        "",
    ])


_PROBE = """
import time
t0 = time.perf_counter()
import numpy as np
import analyser
from analyser.solver import solve_declarer
deal = analyser.parse_deal("N:AK2.Q3.. QJ.K2.4. T9.A.5.2 8.4.A.AK")
t1 = time.perf_counter()
analyser.dd_tricks(deal, 0, 0, 1)
analyser.dd_tricks_partnership(deal, (0, 2), -1, 1)
analyser.dd_misere(deal, 0, 1)
analyser.dd_little_misere(deal, 0, 1)
analyser.dd_table(deal[None, :], 1)
analyser.dd_misere_table(deal[None, :], 1)
solve_declarer(deal[None, :], 0, 1)
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def compile_times() -> str:
    """Section (d): first solves in a fresh interpreter, cold and warm numba cache."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold (empty cache)", "warm (cache from the cold run)"):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env,
                                 capture_output=True, text=True)
            total = time.perf_counter() - start
            if out.returncode != 0:
                rows.append(f"| {label} | failed: {out.stderr.strip().splitlines()[-1]} | | |")
                continue
            imp, first = (float(x) for x in out.stdout.split())
            rows.append(f"| {label} | {imp:.2f} | {first:.2f} | {total:.2f} |")
    return "\n".join([
        "(d) numba compilation: a fresh interpreter imports the solver and solves one "
        "5-card ending in every mode (single and batch forms) with NUMBA_CACHE_DIR set to "
        "an empty folder, then again with the cache that run wrote.",
        "",
        "| run | import s | first solves s | process total s |",
        "|---|---:|---:|---:|",
        *rows,
        "",
    ])


def run(quick: bool, deals: int | None = None) -> str:
    """All five sections; `deals` replaces (a)'s 500 deals, and (b) then solves a tenth as
    many (at least 2) once each, (e) four times as many."""
    rss0 = rss_mib()
    if deals is not None:
        n_a, n_b, repeats, n_e = deals, max(2, deals // 10), 1, 4 * deals
    else:
        n_a, n_b, repeats, n_e = (8, 4, 1, 20) if quick else (500, 40, 3, 2000)
    saved_threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        section_a, _ = bridge_vs_dds(n_a)
    finally:
        numba.set_num_threads(saved_threads)
    section_b = boston_mode(n_b, repeats)
    section_c = (table_memory()
                 + f"Resident memory at the start of this benchmark: {rss0:.0f} MiB.\n")
    section_d = compile_times()
    section_e = boston_distribution(n_e)
    notes = ("Timings are wall clock on a shared 2-core machine (other jobs running); in (a) "
             "ours and DDS value-only alternate deal by deal so both see the same load, and "
             "DDS scoring every card runs in a second pass over the deals.")
    if deals is not None:
        notes += (f" Sized down with `--deals {deals}` (full size: 500 deals in (a), 40 deals "
                  "x 3 runs in (b), 2,000 deals in (e)), because the full size takes about "
                  "25 minutes at the solver's present speed.")
    return "\n".join([section_a, section_b, section_c, section_d, section_e, notes])


if __name__ == "__main__":
    if "--distribution" in sys.argv:
        print(boston_distribution(int(sys.argv[sys.argv.index("--distribution") + 1])))
    else:
        print(run(quick="--quick" in sys.argv))
