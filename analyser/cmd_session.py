"""`boston-analyser session`: whole 12-hand sessions played by bidding strategies, compared
duplicate-style on the same cards, settled exactly, stored and reported."""

import sys
from pathlib import Path

from analyser import backends, options
from analyser.pipeline import available_cores
from analyser.session import (
    CONCESSIONS,
    DEFAULT_CHUNK,
    MAX_SESSIONS,
    MAX_STRATEGIES,
    PLAY_MODES,
    SESSION_DEAL_MODELS,
    SessionConfig,
)

DEFAULT_SESSIONS = 100
DEFAULT_SEED = 1
DEFAULT_OUT = "out/session"

HELP = "play 12-hand sessions between bidding strategies on the same cards; compare balances"

DESCRIPTION = f"""\
Plays --sessions sessions of 12 hands (R31) between up to {MAX_STRATEGIES} bidding
strategies (--strategy, repeated: a built-in name such as cautious, standard, bold, or a
strategy file). In each session the first dealer is drawn by lot and the deal passes left
(R5); each hand's preference is turned from the resting deck (R3, R6); every seat's
strategy calls in turn through the auction (R13, R14); the contract is played on the
actual cards (--play), misère partout by the partout policy (R26), and every payment goes
through the exact ledger (pools, cap, re-ante, end split: R24-R31).

Duplicate comparison: with k strategies each session is played k times on the same cards,
rotation r seating strategy number (seat + r) mod k in each seat (strategies numbered in
the order given), so every strategy plays every seat once per session. A strategy's
session result is the mean of its four final balances; pairs of strategies are compared
session by session on identical cards.

Options:
  --sessions N     sessions, 1..{MAX_SESSIONS:,} (default {DEFAULT_SESSIONS})
  --seed S         root seed, 0..2^63-1 (default {DEFAULT_SEED}); session s draws
                   everything from (S, s) only
  --strategy X     a strategy name or file; 1 to {MAX_STRATEGIES}, each different
  --play MODE      {' or '.join(PLAY_MODES)} (default dd): dd = double-dummy (numbers
                   take dd_tricks in the named trump, misères dd_misere /
                   dd_little_misere); real = the imperfect-information player (slow)
  --deal-model M   {' or '.join(SESSION_DEAL_MODELS)} (R4, default random): cut-only
                   gathers each played deck trick by trick and only cuts it again
  --concede RULE   {' or '.join(CONCESSIONS)} (R28 Decision, default made): made = the
                   defenders concede a 5 or 6 that the play mode makes (saving the pool);
                   never = they play every 5 and 6 out
  --model DIR      the trick estimate the strategies use (analyser.estimate.load)
  --jobs J         worker processes (default: the cores available)
  --chunk K        sessions per chunk: the unit of parallel work, storage and resuming
                   (default {DEFAULT_CHUNK}); part of the configuration
  --out DIR        output directory (default {DEFAULT_OUT})
  --force          discard a run with another configuration in DIR
  --backend B      where the chunks run: joblib (default; --jobs processes here) or dask
                   (an optional extra): a LocalCluster of --jobs workers, or with
                   --scheduler the running cluster at ADDRESS, whose workers must see DIR
                   at the same path (README, "Running on a cluster"); the rows are the
                   same whichever backend played them
  --scheduler ADDRESS  the Dask scheduler to use with --backend dask

Output in DIR: hands/part-NNNNN.parquet (one row per hand played: session, rotation,
hand, dealer, calls, declarer (-1 for partout), contract, trump, tricks, made, conceded,
partout_tricks, the strategy in each seat, the exact balances after the hand's settlement
and the pools), summary.csv, pairs.csv, contracts.csv, declarers.csv, pools.csv (each
also .parquet), report.html, session_stats.json. Running the same command again after an
interruption plays only the missing chunks; the rows are the same for any --jobs.
docs/sessions.md describes every column and rule.
"""


def add_play_arguments(parser):
    """--play, --concede and --model: how a session's hands are played and bid (also
    `optimise`'s, whose candidates play sessions)."""
    parser.add_argument("--play", choices=PLAY_MODES, default="dd",
                        help="play mode (default dd)")
    parser.add_argument("--concede", choices=CONCESSIONS, default="made",
                        help="the defenders' concession rule at 5 or 6 (R28; default made)")
    parser.add_argument("--model", default=None, metavar="DIR",
                        help="trick estimate for the strategies (default: the shipped one)")


def add_arguments(parser):
    """Options of `session`, each checked as it is parsed (one line, exit 2)."""
    parser.add_argument("--sessions", type=options.argument(options.count, "--sessions", 1,
                                                            MAX_SESSIONS),
                        default=DEFAULT_SESSIONS, metavar="N",
                        help=f"number of sessions (default {DEFAULT_SESSIONS})")
    parser.add_argument("--seed", type=options.argument(options.seed, "--seed"),
                        default=DEFAULT_SEED, metavar="S", help="root seed (default 1)")
    parser.add_argument("--strategy", action="append", required=True, metavar="X",
                        help="a strategy name or file (repeat for up to four)")
    add_play_arguments(parser)
    parser.add_argument("--deal-model", choices=SESSION_DEAL_MODELS, default="random",
                        help="R4 deal model (default random)")
    parser.add_argument("--jobs", type=options.argument(options.count, "--jobs", 1, 1024),
                        default=None, metavar="J", help="worker processes (default: cores)")
    parser.add_argument("--chunk", type=options.argument(options.count, "--chunk", 1,
                                                         MAX_SESSIONS),
                        default=DEFAULT_CHUNK, metavar="K",
                        help=f"sessions per chunk (default {DEFAULT_CHUNK})")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"output directory (default {DEFAULT_OUT})")
    parser.add_argument("--force", action="store_true",
                        help="discard a run with another configuration in DIR")
    backends.add_arguments(parser)


def config_from_args(args) -> SessionConfig:
    """The session configuration from parsed options (UserError naming a bad one)."""
    from analyser.errors import UserError

    if len(args.strategy) > MAX_STRATEGIES:
        raise UserError(f"--strategy: at most {MAX_STRATEGIES} strategies, got "
                        f"{len(args.strategy)}")
    return SessionConfig(sessions=args.sessions, seed=args.seed,
                         strategies=tuple(args.strategy), play=args.play,
                         deal_model=args.deal_model, concede=args.concede, chunk=args.chunk,
                         model=args.model)


def load_strategies(config: SessionConfig) -> list:
    """The strategy objects of `config`, loaded once (UserError naming a bad one)."""
    from analyser.estimate import load as load_estimate
    from analyser.strategy import load_strategy

    model = load_estimate(config.model) if config.model is not None else None
    return [load_strategy(spec, model=model) for spec in config.strategies]


def _note(message: str) -> None:
    print(f"boston-analyser session: note: {message}", file=sys.stderr)


def run(args) -> int:
    """Play the missing chunks, write the tables and the report; 0 on success."""
    from analyser.session_report import build_session_report
    from analyser.session_store import run_sessions, strategy_names

    backends.check_backend(args.backend, args.scheduler)
    config = config_from_args(args)
    strategies = load_strategies(config)
    strategy_names(strategies)
    jobs = available_cores() if args.jobs is None else args.jobs
    out = Path(args.out)
    stats = run_sessions(out, config, strategies, jobs=jobs, force=args.force,
                         progress=sys.stderr.isatty(), notify=_note, backend=args.backend,
                         scheduler=args.scheduler)
    report = build_session_report(out, strategies)
    resumed = (f", {stats['chunks_resumed']} chunks resumed" if stats["chunks_resumed"]
               else "")
    print(f"{config.sessions} sessions x {config.rotations} rotation(s) = {stats['hands']} "
          f"hands{resumed}; {stats['seconds_wall']:.1f} s with "
          f"{backends.where(args.backend, args.scheduler, jobs)}")
    print(f"tables in {out}/ (summary.csv, pairs.csv, contracts.csv, declarers.csv, "
          f"pools.csv); report: {report}")
    return 0
