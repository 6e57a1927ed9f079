"""`boston-analyser shapes`: suit-length patterns of random deals against their exact odds."""

import sys
import time

from analyser import options

HELP = "check the dealer: observed suit-length patterns against their exact probabilities"
DESCRIPTION = """\
Deals N uniformly random deals (every seat's hand counts, so 4N hands) and prints,
for each of the 39 suit-length patterns, how often it was dealt beside its exact
probability from binomial coefficients, then a Pearson chi-square test (patterns
expecting fewer than 5 hands are pooled). The four hands of one deal are not quite
independent, so the p-value is approximate; a tiny p-value on a large run would
still point at a biased dealer.

The deals are dealt and counted 1,000,000 at a time, so any N runs in bounded memory:
block 0 comes from S itself (so N up to a million deals exactly `deal_random(N, S)`),
block b from a stream of its own, SeedSequence(S, spawn_key=(b,)). The same N and S
always give the same table. A progress bar with the time left is shown on a
terminal.

Example: boston-analyser shapes --deals 1000000 --seed 7
"""


def add_arguments(parser) -> None:
    """Options: --deals N and --seed S, checked as they are parsed (analyser/options.py)."""
    parser.add_argument("--deals", type=options.argument(options.count, "--deals", 1),
                        default=1_000_000, metavar="N",
                        help="number of deals, at least 1 (default 1000000; 4 hands each)")
    parser.add_argument("--seed", type=options.argument(options.seed, "--seed"), default=0,
                        metavar="S", help="random seed, 0..2^63-1 (default 0)")


def run(args) -> int:
    """Deal, count patterns, print the table and the chi-square test; 0 on success."""
    # imported here so that `--help` and bad input answer without loading the kernels
    from tqdm import tqdm

    from analyser.shapes import (
        chi_square,
        pattern_frame,
        pattern_probabilities,
        random_pattern_counts,
    )

    started = time.perf_counter()
    with tqdm(total=args.deals, unit="deal", desc="dealing", disable=not sys.stderr.isatty(),
              dynamic_ncols=True, unit_scale=True) as bar:
        counts = random_pattern_counts(args.deals, args.seed, progress=bar.update)
    table = pattern_frame(counts)
    elapsed = time.perf_counter() - started
    hands = int(table["observed"].sum())

    print(f"{args.deals:,} deals ({hands:,} hands), seed {args.seed}, dealt and counted in "
          f"{elapsed:.2f} s")
    print(f"{'pattern':>9} {'hands':>12} {'observed %':>11} {'exact %':>11} {'diff/sd':>8}")
    for row in table.itertuples(index=False):
        p = row.expected_probability
        sd = (p * (1 - p) / hands) ** 0.5
        z = (row.observed_probability - p) / sd if sd > 0 else 0.0
        print(f"{row.shape:>9} {row.observed:>12,} {100 * row.observed_probability:>11.5f} "
              f"{100 * p:>11.5f} {z:>8.2f}")
    statistic, dof, p_value = chi_square(table["observed"], pattern_probabilities().values())
    print(f"chi-square {statistic:.2f} on {dof} degrees of freedom, p-value {p_value:.4f}")
    return 0
