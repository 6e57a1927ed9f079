"""`boston-analyser hand`: should I bid this? One hand against random completions."""

import os
import sys
import tempfile
from pathlib import Path

from analyser.constants import DEFAULT_POOL, MAX_POOL
from analyser.errors import UserError
from analyser.hand import BUDGET_MAX_SAMPLES, BUDGET_SECONDS, analyse_hand

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

Money (R24, R25, R28, R29): "EV/opp" is what each opponent pays the declarer on average,
"payments" = 3 x EV/opp the net expected payment from the three opponents, "pool" the pool
term for an active pool of --pool units (a made 7+ or misère wins it, a made 5 or 6 is
assumed conceded, any failure pays it in again), and "EV total" = payments + pool.
Passing is valued at 0. The recommendation ranks the numbers and the misères; the
little-misère verdict compares LM with the best numeric bid (or with passing when no
number beats 0) and gives the break-even make probability above which LM is worth more.

Play is double-dummy: every hand is visible to everyone, so exposing the declarer's hand
(R16) changes nothing and a spread (LS, GS) is made exactly when its misère is. Spreads are
therefore shown (marked *) but never recommended.

--json prints one JSON object: hand, shape, position, seat, dealer, leader,
first_preference (letter or null), pool, known ({{seat: hand}}), exact (every card known),
samples, samples_budget_seconds and samples_budget_max (the time budget and its cap, or
null when --samples was given), seed, seconds, samples_per_second, max_ci_half_width,
play, defender_discard, trump_rule ("natural"),
contracts (ladder order; each: contract "5".."13"/"LM"/"GM"/"LS"/"GS", trump "S"/"H"/"D"/"C"
or null for misères, tier, bid, recommendable (false for spreads), made, p_make, ci_low,
ci_high, mean_tricks, ev_per_opponent, ev_payments, pool_term, ev_total),
tricks ({{trump: 14 counts of 0..13 tricks}}),
recommendation (bid "pass" or a contract, trump, tier, call, ev_total, text),
little_misere (made, p_make, ci_low, ci_high, breakeven, against, against_ev, verdict
"bid"/"pass", text) and notes. Money and probabilities are JSON numbers (floats); the
exact values are also given as fraction strings such as "-245/6" in the fields ending
in _exact (ev_per_opponent_exact, ev_payments_exact, pool_term_exact, ev_total_exact,
breakeven_exact, pool_exact).

Samples: by default (--samples auto) the completions are solved in order until about
{BUDGET_SECONDS:g} seconds have passed (at most {BUDGET_MAX_SAMPLES} completions), so each hand
answers in about that time once numba's cache is warm; a step that would overrun the budget
by half is not started. Easy hands get hundreds of samples; close hands, whose solves take
seconds each, only a few, with wide intervals: the report states the count, the run time
and the interval widths. Completion i depends only on the seed, so --samples N with the
same --seed reproduces a run of N samples exactly; give --samples for a fixed sample.

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
                             f"about {BUDGET_SECONDS:g} s, at most {BUDGET_MAX_SAMPLES})")
    parser.add_argument("--seed", default="0", help="root seed of the deals (default 0)")
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
