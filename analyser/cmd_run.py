"""`boston-analyser run`: the Monte Carlo run over random deals, stored, aggregated, plotted."""

import sys
from pathlib import Path

from analyser import backends, options
from analyser.constants import DEFAULT_POOL, MAX_POOL
from analyser.pipeline import (
    DEFAULT_CHUNK,
    DEFAULT_REAL_CHUNK,
    MAX_DEALS,
    PLAY_MODES,
    RunConfig,
    available_cores,
    run_analysis,
)

DEFAULT_DEALS = 2000
DEFAULT_SEED = 1
DEFAULT_OUT = "out/run"  # a folder of its own: `make run` writes other files under out/default

HELP = ("deal random hands, solve them double-dummy (and play them for real), store and "
        "aggregate per shape, report")

DESCRIPTION = f"""\
Deals --deals independent uniformly random deals (R4 Decision "random"), solves each one
double-dummy for every seat as declarer alone against the other three (tricks in each of
the four trumps, grand and little misère), stores one row per deal and seat, aggregates
per hand shape and contract of the ladder (R9), and writes a report.

With --play real each deal is also played out with hidden cards by the imperfect-
information player (docs/real_play.md): for every seat as declarer, LM, GM, LS and GS,
and one number in the seat's natural trump at level n = clamp(double-dummy tricks in
that trump, 5, 13). The real outcomes are stored beside the double-dummy ones of the
same rows (real_lm, real_gm, real_ls, real_gs, real_level, real_trump, real_tricks), and
the tables and the report set real play beside double-dummy. That is 20 playouts a
deal, about 1.6 s of a free core on average (docs/run.md).

The dealer is always West, so North, the dealer's left, leads to the first trick (R18);
each row records the seat's position relative to that leader. The preference suits (R6)
come from a turned card of a second, resting deck.

Output in DIR (--out):
  hands/part-NNNNN.parquet   one part per chunk: deal x seat rows (hand, shape, suit
                             lengths, high cards, misère-danger score, double-dummy tricks
                             per trump, misère verdicts, preference suits)
  summary.csv/.parquet       per shape (and "all") x contract x trump rule ("natural":
                             the trump named from the declarer's own hand; "dd-best":
                             the best trump double-dummy, an upper bound; "none":
                             misères and spreads): hands, made, made_rate, made_ci_low,
                             made_ci_high (95% Wilson), mean_undertricks (when failing),
                             ev_per_opponent, ev_payments (= 3 x per opponent, R24,
                             R25), pool_term (R28-R30), ev_total (= ev_payments +
                             pool_term), and *_exact fractions
  by_position.csv/.parquet   the same per position relative to the leader
  misere_features.csv/...    little/grand misère make rate against hand features
  best_bids.csv/...          the bid with the best expected value per shape, beside the
                             shape's pass value (what passing gains, measured in
                             sessions: docs/pass_value.md) and the advice
  real_vs_dd.csv/...         --play real only: made rate and expected result per shape
                             and contract kind, double-dummy beside real play; the
                             summary and by_position tables gain real_* columns, and
                             misere_features real_lm_* and real_gm_* columns
  shape_frequencies.csv/...  simulated shape frequencies beside the exact ones
  report.html                everything above as one self-contained page
  run.json, run_stats.json   the configuration; run time and sizes

Resuming: the deals are cut into chunks of --chunk deals, each with its own random
stream derived from --seed and its number only, and each stored as soon as it is solved.
Running the same command again after an interruption (Ctrl-C, a killed process) solves
only the missing chunks, and any part found damaged (said on stderr); the tables come out
identical to an uninterrupted run, and identical for any --jobs. A run may grow: the same
--seed and --chunk with more --deals solve only the new chunks, with the tables of a fresh
run of that size; another --pool only aggregates again (so does `boston-analyser report
DIR --pool P`). A DIR holding a run with another --seed, --chunk or --play is refused
unless --force, which discards it. One command at a time may write into a DIR
(DIR/.lock).
`boston-analyser report DIR` redraws the report without solving again.

Options:
  --deals N   number of random deals, 1..{MAX_DEALS:,} (default {DEFAULT_DEALS}); each deal
              gives 4 hands, one per seat
  --seed S    root seed, 0..2^63-1 (default {DEFAULT_SEED})
  --jobs J    worker processes solving chunks in parallel (default: the cores available);
              numba's own threads are capped at cores / J per process
  --out DIR   output directory (default {DEFAULT_OUT})
  --play M    "dd" (default): double-dummy only; "real": also the real player's
              outcomes (20 playouts a deal: see above); part of the configuration
  --chunk K   deals per chunk: the unit of parallel work, storage and resuming (default
              {DEFAULT_CHUNK}, or {DEFAULT_REAL_CHUNK} with --play real, under a minute of a
              core each); part of the configuration, since it fixes the random streams
  --pool P    active pool in units for the pool term of expected payments, 0..{MAX_POOL}
              (R28-R30; default {DEFAULT_POOL})
  --force     discard a run with another --seed, --chunk or --play in DIR instead of
              refusing it
  --backend B where the chunks run: joblib (default; --jobs processes on this machine) or
              dask (dask.distributed, an optional extra: pip install
              'boston-analyser[dask]'): a LocalCluster of --jobs workers, or with
              --scheduler the running cluster at ADDRESS (e.g. tcp://host:8786), whose
              workers must see DIR at the same path (a shared filesystem; README, "Running
              on a cluster"). The tables are byte-identical whichever backend ran them.
  --scheduler ADDRESS  the Dask scheduler to use with --backend dask
A progress bar with the estimated time left is shown on a terminal.
"""


def add_arguments(parser):
    """Options of `run`; each number is checked as it is parsed (analyser/options.py), so a
    bad value is one line and exit code 2 before anything is written."""
    numbers = (
        ("--deals", "N", options.argument(options.count, "--deals", 1, MAX_DEALS), DEFAULT_DEALS,
         f"number of random deals, 1..{MAX_DEALS} (default {DEFAULT_DEALS})"),
        ("--seed", "S", options.argument(options.seed, "--seed"), DEFAULT_SEED,
         f"root seed, 0..2^63-1 (default {DEFAULT_SEED})"),
        ("--jobs", "J", options.argument(options.count, "--jobs", 1, 1024), None,
         "worker processes (default: the cores available)"),
        ("--chunk", "K", options.argument(options.count, "--chunk", 1, MAX_DEALS),
         None, f"deals per chunk (default {DEFAULT_CHUNK}; {DEFAULT_REAL_CHUNK} with "
         "--play real)"),
        ("--pool", "P", options.argument(options.pool, "--pool"), DEFAULT_POOL,
         f"active pool in units, 0..{MAX_POOL} (default {DEFAULT_POOL})"),
    )
    for flag, metavar, check, default, text in numbers:
        parser.add_argument(flag, type=check, default=default, metavar=metavar, help=text)
    parser.add_argument("--play", choices=PLAY_MODES, default="dd",
                        help="dd: double-dummy only (default); real: also play every deal "
                             "with hidden cards (about 20 playouts a deal)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"output directory (default {DEFAULT_OUT})")
    parser.add_argument("--force", action="store_true",
                        help="discard a run with another seed, chunk or play in DIR instead of "
                             "refusing")
    backends.add_arguments(parser)


def config_from_args(args) -> tuple[RunConfig, int]:
    """The run configuration and the number of jobs from parsed options."""
    chunk = args.chunk
    if chunk is None:
        chunk = DEFAULT_REAL_CHUNK if args.play == "real" else DEFAULT_CHUNK
    config = RunConfig(deals=args.deals, seed=args.seed, chunk=chunk, pool=args.pool,
                       play=args.play)
    jobs = available_cores() if args.jobs is None else args.jobs
    return config, jobs


def _note(message: str) -> None:
    print(f"boston-analyser run: note: {message}", file=sys.stderr)


def run(args) -> int:
    """Solve the missing chunks, aggregate, write the tables and the report; 0 on success."""
    from analyser.cmd_report import build_report

    config, jobs = config_from_args(args)
    backends.check_backend(args.backend, args.scheduler)
    out = Path(args.out)
    stats = run_analysis(out, config, jobs=jobs, force=args.force,
                         progress=sys.stderr.isatty(), notify=_note, backend=args.backend,
                         scheduler=args.scheduler)
    report = build_report(out)
    resumed = (f", {stats['chunks_resumed']} chunks resumed from an earlier run"
               if stats["chunks_resumed"] else "")
    print(f"{config.deals} deals ({stats['hands']} hands) in {config.n_chunks} chunks"
          f"{resumed}; {stats['seconds_wall']:.1f} s with "
          f"{backends.where(args.backend, args.scheduler, jobs)}")
    real = ", real_vs_dd.csv" if config.play == "real" else ""
    print(f"tables in {out}/ (summary.csv, by_position.csv, misere_features.csv, "
          f"best_bids.csv, shape_frequencies.csv{real}); report: {report}")
    return 0
