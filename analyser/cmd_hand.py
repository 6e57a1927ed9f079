"""`boston-analyser hand`: should I bid this? One hand against random completions."""

import sys

from analyser.cards import SEAT_LETTERS, SUIT_LETTERS, card_name, format_hand, shape
from analyser.constants import DEALER, DEFAULT_POOL, LEADER, MAX_POOL
from analyser.hand import BUDGET_MAX_SAMPLES, BUDGET_SECONDS, HandAnalysis, analyse_hand

HELP = "analyse one hand as declarer: P(make), trick distribution and EV of every contract"

DESCRIPTION = f"""\
Should I bid this? Deals the other 39 cards at random (keeping any --known cards where
they are), solves every deal double-dummy with this hand as declarer in each trump, in
grand misère and in little misère, and reports for every contract on the ladder (R9)
P(make) with a 95% Wilson interval, the trick distribution, and the expected payment per
opponent and in total including the pool term; then the bid with the best expected value
(or pass) and a verdict on little misère.

Seats: --position is counted from the dealer's left (0 = on lead, R18). The dealer is
taken to sit West, so position 0 is seat N, 1 is E, 2 is S and 3 is W (the dealer). The
analysed hand sits at the seat of its position; --known names the OTHER seats by these
letters, e.g. with --position 0 "E:A.K.." says the player on the analysed hand's left
holds the spade ace and the heart king. A --known value is one or more "SEAT:hand" items
(PBN suits S.H.D.C, any number of cards) separated by spaces or commas; --known may be
repeated. The remaining cards are dealt uniformly at random.

Trumps and tiers: for each number the trump with the best expected result is shown, with
the tier a bid committing to that trump has (R11, R12) given --first-preference; without
it every trump is treated as a plain suit.

Money (R24, R25, R28, R29): "EV/opp" is what each opponent pays the declarer on average,
"payments" = 3 x EV/opp the net expected payment from the three opponents, "pool" the pool
term for an active pool of --pool units (a made 7+ or misère wins it, a made 5 or 6 is
assumed conceded, any failure pays it in again), and "EV total" = payments + pool.
Passing is valued at 0. The little-misère verdict compares LM with the best
numeric bid (or with passing when no number beats 0) and gives the break-even make
probability above which LM is worth more; the recommendation ranks every contract.

Only double-dummy play exists so far (imperfect-information policies are not written
yet), so spreads are made exactly when the misères are.

--json prints one JSON object: hand, shape, position, seat, dealer, leader,
first_preference (letter or null), pool, known ({{seat: hand}}), samples,
samples_budget_seconds (the time budget, or null when --samples was given), seed, seconds,
samples_per_second, max_ci_half_width, play, defender_discard,
contracts (ladder order; each: contract "5".."13"/"LM"/"GM"/"LS"/"GS", trump "S"/"H"/"D"/"C"
or null for misères, tier, bid, made, p_make, ci_low, ci_high, mean_tricks, ev_per_opponent,
ev_payments, pool_term, ev_total), tricks ({{trump: 14 counts of 0..13 tricks}}),
recommendation (bid "pass" or a contract, trump, tier, call, ev_total),
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
                        help="also draw the trick distributions and misère odds to FILE")


def run(args) -> int:
    """Analyse the hand and print the report (text or JSON); 0 on success."""
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
    if args.plot:
        from reports.hand_plot import render

        render(result, args.plot)
    if args.json:
        print(result.to_json())
    else:
        print(render_text(result))
        if args.plot:
            print(f"\nPlot written to {args.plot}")
    return 0


def _cards(mask):
    """Card ids of a mask, spades first and high to low within a suit."""
    return [13 * s + r for s in range(4) for r in range(12, -1, -1) if mask >> (13 * s + r) & 1]


def _interval(low, high) -> str:
    """'12.3-45.6%' text of a probability interval."""
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _pct(p) -> str:
    return f"{100 * p:5.1f}%"


def render_text(result: HandAnalysis) -> str:
    """The plain-text report: header, contract table, trick distributions, advice, notes."""
    q = result.query
    lines = []
    lines.append(
        f"Hand {format_hand(q.hand)} ({shape(q.hand)}) at position {q.position} "
        f"(seat {SEAT_LETTERS[q.position]}; dealer {SEAT_LETTERS[DEALER]}, "
        f"{SEAT_LETTERS[LEADER]} leads)"
    )
    pref = "none (plain suits)" if q.first_preference is None else SUIT_LETTERS[q.first_preference]
    lines.append(f"First preference: {pref}   Active pool: {q.pool}")
    known = [f"{SEAT_LETTERS[s]} holds " + " ".join(card_name(c) for c in _cards(m))
             for s, m in enumerate(q.known) if s != q.position and m]
    if known:
        lines.append("Known: " + "; ".join(known))
    rate = result.samples / result.seconds if result.seconds > 0 else float("inf")
    lines.append(
        f"Samples: {result.samples} (seed {q.seed}) in {result.seconds:.1f} s "
        f"({rate:.3g} samples/s); 95% Wilson intervals at most "
        f"±{100 * result.max_half_width():.1f} points wide"
    )
    if q.budget is not None:
        lines.append(
            f"(The default: as many samples as fit in about {q.budget:g} s, at most "
            f"{BUDGET_MAX_SAMPLES}; --samples {result.samples} --seed {q.seed} reproduces "
            "this exactly.)"
        )
    lines.append("")
    header = (f"{'contract':<8} {'trump':<5} {'bid':<7} {'P(make)':>7}  {'95% CI':<13} "
              f" {'tricks':>6} {'EV/opp':>8} {'payments':>9} {'pool':>7} {'EV total':>9}")
    lines.append(header)
    lines.append("-" * len(header))
    for r in result.rows:
        mean = "" if r["mean_tricks"] != r["mean_tricks"] else f"{r['mean_tricks']:.2f}"
        lines.append(
            f"{r['contract']:<8} {r['trump'] or '-':<5} {r['bid']:<7} {_pct(r['p_make']):>7}  "
            f"{_interval(r['ci_low'], r['ci_high']):<13} {mean:>6} "
            f"{float(r['ev_per_opponent_exact']):+8.2f} {float(r['ev_payments_exact']):+9.2f} "
            f"{float(r['pool_term_exact']):+7.2f} "
            f"{float(r['ev_total_exact']):+9.2f}"
        )
    lines.append("")
    lines.append("Tricks by trump (share of samples taking exactly k tricks):")
    lines.append("trump " + "".join(f"{k:>6}" for k in range(14)))
    for t in range(4):
        row = result.tricks.iloc[t]
        cells = "".join(f"{100 * c / result.samples:6.1f}" if c else f"{'.':>6}" for c in row)
        lines.append(f"{SUIT_LETTERS[t]:<6}" + cells)
    lines.append("")
    lines.append("Recommendation: " + result.recommendation.text())
    lines.append(result.little_misere.text())
    lines.append("")
    lines.extend("Note: " + note for note in result.notes)
    return "\n".join(lines)
