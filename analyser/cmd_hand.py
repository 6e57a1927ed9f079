"""`boston-analyser hand`: should I bid this? One hand against random completions."""

import os
import sys
import tempfile
from pathlib import Path

from analyser.constants import DEFAULT_POOL, MAX_POOL
from analyser.errors import UserError
from analyser.hand import (
    BUDGET_MAX_SAMPLES,
    BUDGET_REAL_SECONDS,
    BUDGET_SECONDS,
    DEFAULT_JOBS,
    PILOT_DEALS,
    REAL_NUMBERS,
    analyse_hand,
)

HELP = "analyse one hand as declarer: P(make), trick distribution and EV of every contract"

DESCRIPTION = f"""\
Should I bid this? Deals the other 39 cards at random (keeping any --known cards where
they are), solves every deal double-dummy with this hand as declarer in each trump, in
grand misère and in little misère, and reports for every contract on the ladder (R9)
P(make) with a 95% Wilson interval, the trick distribution, and the expected payments;
then the bid with the best expected value (or pass) and a verdict on little misère.

Seats: --position is counted from the dealer's left (0 = on lead, R18). The dealer is
taken to sit West, so position 0 is seat N, 1 is E, 2 is S and 3 is W (the dealer). The
analysed hand sits at the seat of its position; --known names the OTHER seats by these
letters, e.g. with --position 0 "E:A.K.." says the player on the analysed hand's left
holds the spade ace and the heart king. A --known value is one or more "SEAT:hand" items
(PBN suits S.H.D.C, any number of cards) separated by spaces or commas; --known may be
repeated. The remaining cards are dealt uniformly at random. When the known cards complete
the deal, it is solved once and the result is exact (samples 1, "exact": true).

Trump: every number is played in the hand's natural trump (its longest suit; ties by
4-3-2-1 points, then S, H, D, C), fixed before any sample is dealt, so each P(make) is an
unbiased estimate (the suit that did best on the same samples would overstate it). The
trick table shows all four trumps for comparison. With --first-preference the tier a bid
committing to that trump has is shown (R11, R12); without it every suit is plain.

Money (R24, R25, R28-R30): "EV/opp" is what each opponent pays the declarer on average,
"payments" = 3 x EV/opp the net expected payment from the three opponents, "pool" the pool
term for an active pool of --pool units, the only pool (a made 7+ or misère wins it, less
the re-ante of 10 that follows, R30; a made 5 or 6 is assumed conceded; any failure pays
it in again), and "EV total" = payments + pool: the declarer's change of balance.
Passing is valued at the pass value: the mean change of balance of a seat at this
position with this hand's hcp that does not declare (a defender, or misère partout), from
the shipped table of whole sessions (analyser/pass_value.py; a note names its source).
The recommendation ranks the numbers and the misères and bids only what beats the pass
value; the little-misère verdict compares LM with the best numeric bid (or with passing
when no number beats the pass value) and gives the break-even make probability above
which LM is worth more.

Play (--play): "dd" (the default) is double-dummy: every hand is visible to everyone, so
exposing the declarer's hand (R16) changes nothing and a spread (LS, GS) is made exactly
when its misère is, though it pays 4x more. Spreads are therefore shown (marked *) but
never recommended, and the report says so in one line.
"real" also plays each sample deal once per contract with the project's
imperfect-information player (analyser.play.play_hand, policy "real": each player sees
only its own hand, the cards played and a spread's exposed hand), this hand declaring and
N leading (R18), numbers in the natural trump. Played for real: LM, GM, LS, GS and the
{REAL_NUMBERS} numbers with the best double-dummy EV on a pilot of {PILOT_DEALS} completions
dealt from their own seed stream; the other numbers stay double-dummy only (marked ^,
never recommended). Each row gives P(make) and the money under its play with the
double-dummy rate and EV on the same samples beside it (DD columns); the recommendation
and the little-misère verdict use the real-play rows, spreads included, since the
defenders now see the exposed hand. The play of contract c on sample i is seeded from
--seed by numpy SeedSequence, so a run is reproducible and does not depend on --jobs.
Samples are played in --jobs processes (default {DEFAULT_JOBS}, the cores) with a progress bar.

--json prints one JSON object: hand, shape, position, seat, dealer, leader,
first_preference (letter or null), pool, known ({{seat: hand}}), exact (every card known),
samples, samples_budget_seconds and samples_budget_max (the time budget and its cap, or
null when --samples was given), seed, seconds, samples_per_second, max_ci_half_width,
play ("double-dummy" or "real"), real_contracts (the contracts played for real, [] under
dd), real_pilot_deals, jobs and real_options (the real player's settings changed through
analyse_hand, {{}} from the command line) (null under dd), defender_discard, trump_rule
("natural"),
contracts (ladder order; each: contract "5".."13"/"LM"/"GM"/"LS"/"GS", trump "S"/"H"/"D"/"C"
or null for misères, tier, bid, play ("real" or "double-dummy": the play its p_make and
money come from), recommendable (false for spreads under dd and for double-dummy-only rows
under real), made, p_make, ci_low, ci_high, mean_tricks, ev_per_opponent, ev_payments,
pool_term, ev_total, and on the same samples under double-dummy play made_dd, p_make_dd,
ci_low_dd, ci_high_dd, ev_total_dd),
tricks ({{trump: 14 counts of 0..13 tricks, double-dummy}}),
recommendation (bid "pass" or a contract, trump, tier, call, ev_total (the pass value
for "pass"), text, spreads_excluded (true under dd: spreads were skipped) and
spreads_reason (its line, or null)),
pass_value (value, value_exact, stderr, hands, position, feature ("hcp" or "all"), bin,
basis (the cell in words), source (the table and the sessions it comes from)),
little_misere (made, p_make, ci_low, ci_high, breakeven, against, against_ev, verdict
"bid"/"pass", text) and notes. Money and probabilities are JSON numbers (floats); the
exact values are also given as fraction strings such as "-245/6" in the fields ending
in _exact (ev_per_opponent_exact, ev_payments_exact, pool_term_exact, ev_total_exact,
ev_total_dd_exact, breakeven_exact, pool_exact).

Samples: by default (--samples auto) the completions are solved in order until the time
budget is spent (--time-budget; default {BUDGET_SECONDS:g} s under dd, {BUDGET_REAL_SECONDS:g} s of
real play under real), at most {BUDGET_MAX_SAMPLES} completions, so each hand answers in about
that time once numba's cache is warm; a step that would overrun the budget by half (dd) or
a sample expected to finish past it (real) is not waited for. Easy hands get hundreds of
samples; close hands, whose solves take seconds each, only a few, with wide intervals:
the report states the count, the run time and the interval widths. Completion i depends
only on the seed, so --samples N with the same --seed reproduces a run of N samples
exactly; give --samples for a fixed sample (with --time-budget too, the budget may stop
it earlier, and the report states the count used).

--plot FILE draws the trick distributions and the misères' odds; its format comes from the
suffix (png, pdf, svg, ...). The path is checked before any solving.
"""


def add_arguments(parser):
    """Options of the `hand` subcommand (numbers are read as text and checked in `run`,
    so that a bad value is one line and exit code 2 like every other input error)."""
    parser.add_argument("hand", help='the hand, PBN suits S.H.D.C, e.g. "AQ32.KJ9.T87.654"')
    parser.add_argument("--position", default="0",
                        help="seat counted from the dealer's left, 0..3 (0 = on lead); default 0")
    parser.add_argument("--first-preference", default=None, metavar="S|H|D|C",
                        help="the first preference suit (R6); default: none (plain suits)")
    parser.add_argument("--pool", default=str(DEFAULT_POOL),
                        help=f"the active pool in whole units, 0..{MAX_POOL} "
                             f"(default {DEFAULT_POOL})")
    parser.add_argument("--samples", default="auto",
                        help=f"random completions to solve (default auto: as many as fit in "
                             f"the time budget, at most {BUDGET_MAX_SAMPLES})")
    parser.add_argument("--seed", default="0", help="root seed of the deals (default 0)")
    parser.add_argument("--play", default="dd", metavar="dd|real",
                        help="dd: double-dummy only (default); real: also play the misères, "
                             "spreads and the two best numbers with the imperfect-information "
                             "player, the double-dummy rate beside")
    parser.add_argument("--time-budget", default=None, metavar="SECONDS",
                        help=f"stop after about this many seconds of solving (dd) or real "
                             f"play (real) and state the samples used (default with --samples "
                             f"auto: {BUDGET_SECONDS:g} under dd, {BUDGET_REAL_SECONDS:g} under "
                             f"real; none with a count)")
    parser.add_argument("--jobs", default=str(DEFAULT_JOBS),
                        help=f"processes playing samples under --play real (default "
                             f"{DEFAULT_JOBS}, the cores); results do not depend on it")
    parser.add_argument("--known", action="append", default=None, metavar='"E:A.K.."',
                        help="cards another seat is known to hold; repeatable")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", default=None, metavar="FILE",
                        help="also draw the trick distributions and misère odds to FILE "
                             "(format from the suffix: png, pdf, svg, ...)")


def check_plot_path(text) -> Path:
    """The --plot path, refused (UserError) unless matplotlib writes its suffix and its
    folder, or the nearest existing folder above it, is writable: checked before solving,
    so that a bad path never costs the analysis."""
    from matplotlib.backend_bases import FigureCanvasBase

    path = Path(text)
    if path.is_dir():
        raise UserError(f"--plot {text}: is a folder")
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in formats:
        raise UserError(f"--plot {text}: unsupported format {suffix or '(no suffix)'!r}; "
                        f"use one of {', '.join(sorted(formats))}")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the plot creates the missing folders below this one
    if not folder.is_dir():
        raise UserError(f"--plot {text}: {str(folder)!r} is not a folder")
    try:  # a probe file, not os.access: that says yes to root on a read-only file system
        with tempfile.TemporaryFile(dir=folder, prefix=".boston-plot-check-"):
            pass
    except OSError as exc:
        raise UserError(f"--plot {text}: folder {str(folder)!r} is not writable "
                        f"({exc.strerror or exc})") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise UserError(f"--plot {text}: the file is not writable")
    return path


def run(args) -> int:
    """Analyse the hand and print the report (text or JSON); 0 on success, 2 when the plot
    could not be written (after the report)."""
    plot = check_plot_path(args.plot) if args.plot else None
    result = analyse_hand(
        args.hand,
        position=args.position,
        first_preference=args.first_preference,
        pool=args.pool,
        samples=args.samples,
        seed=args.seed,
        known=args.known,
        progress=sys.stderr.isatty(),
        play=args.play,
        time_budget=args.time_budget,
        jobs=args.jobs,
    )
    data = result.to_dict()
    if args.json:
        print(result.to_json())
    else:
        from reports.hand_text import render

        print(render(data))
    if plot is None:
        return 0
    from reports.hand_plot import render as render_plot

    try:
        render_plot(data, plot)
    except (OSError, ValueError) as exc:
        sys.stdout.flush()
        print(f"boston-analyser hand: error: could not write the plot {str(plot)!r}: {exc}",
              file=sys.stderr)
        return 2
    if not args.json:
        print(f"\nPlot written to {plot}")
    return 0
