"""`boston-analyser run`: the Monte Carlo run over random deals, stored, aggregated, plotted."""

import sys
from pathlib import Path

from analyser.constants import MAX_POOL
from analyser.errors import UserError
from analyser.pipeline import DEFAULT_CHUNK, DEFAULT_POOL, RunConfig, available_cores, run_analysis

# Provisional: meant to take about 5 minutes on 2 cores with a warm numba cache; not yet
# calibrated, because the first solver versions were too slow to time (bench/bench_run.py).
DEFAULT_DEALS = 2000
DEFAULT_SEED = 1
DEFAULT_OUT = "out/default"

HELP = "deal random hands, solve them double-dummy, store and aggregate per shape, report"

DESCRIPTION = f"""\
Deals --deals independent uniformly random deals (R4 Decision "random"), solves each one
double-dummy for every seat as declarer alone against the other three (tricks in each of
the four trumps, grand and little misère), stores one row per deal and seat, aggregates
per hand shape and contract of the ladder (R9), and writes a report.

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
  best_bids.csv/...          the bid with the best expected value per shape
  shape_frequencies.csv/...  simulated shape frequencies beside the exact ones
  report.html                everything above as one self-contained page
  run.json, run_stats.json   the configuration; run time and sizes

Resuming: the deals are cut into chunks of --chunk deals, each with its own random
stream derived from --seed, and each stored as soon as it is solved. Running the same
command again after an interruption (Ctrl-C, a killed process) solves only the missing
chunks; the tables come out identical to an uninterrupted run, and identical for any
--jobs. A DIR holding a run with other options is refused unless --force, which discards
it. `boston-analyser report DIR` redraws the report without solving again.

Options:
  --deals N   number of random deals (default {DEFAULT_DEALS}); each deal gives 4 hands,
              one per seat
  --seed S    root seed, a non-negative integer (default {DEFAULT_SEED})
  --jobs J    worker processes solving chunks in parallel (default: the cores available);
              numba's own threads are capped at cores / J per process
  --out DIR   output directory (default {DEFAULT_OUT})
  --chunk K   deals per chunk: the unit of parallel work, storage and resuming (default
              {DEFAULT_CHUNK}); part of the configuration, since it fixes the random streams
  --pool P    active pool in units for the pool term of expected payments, 0..{MAX_POOL}
              (R28-R30; default {DEFAULT_POOL})
  --force     discard a run with other options in DIR instead of refusing it
A progress bar with the estimated time left is shown on a terminal.
"""


def add_arguments(parser):
    """Options of `run` (numbers are read as text and checked in `run`, so that a bad value
    is one line and exit code 2 like every other input error)."""
    parser.add_argument("--deals", default=str(DEFAULT_DEALS), metavar="N",
                        help=f"number of random deals (default {DEFAULT_DEALS})")
    parser.add_argument("--seed", default=str(DEFAULT_SEED), metavar="S",
                        help=f"root seed, a non-negative integer (default {DEFAULT_SEED})")
    parser.add_argument("--jobs", default=None, metavar="J",
                        help="worker processes (default: the cores available)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"output directory (default {DEFAULT_OUT})")
    parser.add_argument("--chunk", default=str(DEFAULT_CHUNK), metavar="K",
                        help=f"deals per chunk (default {DEFAULT_CHUNK})")
    parser.add_argument("--pool", default=str(DEFAULT_POOL), metavar="P",
                        help=f"active pool in units, 0..{MAX_POOL} (default {DEFAULT_POOL})")
    parser.add_argument("--force", action="store_true",
                        help="discard a run with other options in DIR instead of refusing")


def whole_number(text, option: str) -> int:
    """The integer value of an option given as text, or a UserError naming the option."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise UserError(f"{option} must be a whole number, got {text!r}") from None


def config_from_args(args) -> tuple[RunConfig, int]:
    """The run configuration and the number of jobs from parsed options (UserError if bad)."""
    pool = whole_number(args.pool, "--pool")
    if not 0 <= pool <= MAX_POOL:
        raise UserError(f"--pool must be 0..{MAX_POOL} units (R30), got {pool}")
    config = RunConfig(
        deals=whole_number(args.deals, "--deals"),
        seed=whole_number(args.seed, "--seed"),
        chunk=whole_number(args.chunk, "--chunk"),
        pool=pool,
    )
    jobs = available_cores() if args.jobs is None else whole_number(args.jobs, "--jobs")
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    return config, jobs


def run(args) -> int:
    """Solve the missing chunks, aggregate, write the tables and the report; 0 on success."""
    from analyser.cmd_report import build_report

    config, jobs = config_from_args(args)
    out = Path(args.out)
    stats = run_analysis(out, config, jobs=jobs, force=args.force,
                         progress=sys.stderr.isatty())
    report = build_report(out)
    resumed = (f", {stats['chunks_resumed']} chunks resumed from an earlier run"
               if stats["chunks_resumed"] else "")
    print(f"{config.deals} deals ({stats['hands']} hands) in {config.n_chunks} chunks"
          f"{resumed}; {stats['seconds_wall']:.1f} s with {jobs} job(s)")
    print(f"tables in {out}/ (summary.csv, by_position.csv, misere_features.csv, "
          f"best_bids.csv, shape_frequencies.csv); report: {report}")
    return 0
