"""`boston-analyser shapes`: suit-length patterns of random deals against their exact odds."""

import time

from analyser.errors import UserError

HELP = "check the dealer: observed suit-length patterns against their exact probabilities"
DESCRIPTION = """\
Deals N uniformly random deals (every seat's hand counts, so 4N hands) and prints,
for each of the 39 suit-length patterns, how often it was dealt beside its exact
probability from binomial coefficients, then a Pearson chi-square test (patterns
expecting fewer than 5 hands are pooled). The four hands of one deal are not quite
independent, so the p-value is approximate; a tiny p-value on a large run would
still point at a biased dealer.

Example: boston-analyser shapes --deals 1000000 --seed 7
"""


def add_arguments(parser) -> None:
    """Options: --deals N and --seed S."""
    parser.add_argument("--deals", type=int, default=1_000_000, metavar="N",
                        help="number of deals (default 1000000; 4 hands each)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed, an integer >= 0 (default 0)")


def run(args) -> int:
    """Deal, count patterns, print the table and the chi-square test; 0 on success."""
    if args.deals < 1:
        raise UserError(f"--deals must be at least 1, got {args.deals}")
    if args.seed < 0:
        raise UserError(f"--seed must be >= 0, got {args.seed}")
    # imported here so that `--help` and bad input answer without compiling kernels
    from analyser.dealing import deal_random
    from analyser.shapes import chi_square, pattern_probabilities, pattern_table

    started = time.perf_counter()
    deals = deal_random(args.deals, args.seed)
    elapsed = time.perf_counter() - started
    table = pattern_table(deals)
    hands = int(table["observed"].sum())

    print(f"{args.deals:,} deals ({hands:,} hands), seed {args.seed}, dealt in {elapsed:.2f} s")
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
