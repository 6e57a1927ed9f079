"""One rule for each option, whichever command or API function takes it.

Every parser takes the value as given (text from the command line, or a Python value from
the API), and returns the checked value or raises `UserError` with one line naming the
option and the problem, so that the CLI prints one line and exits with code 2.
"""

from fractions import Fraction

import numpy as np

from analyser.constants import MAX_POOL
from analyser.errors import UserError

MAX_SEED = 2**63 - 1  # seeds are stored as int64 in every table; SeedSequence takes any


def whole_number(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer within [low, high], from an int, a numpy integer or its decimal text.

    Floats and booleans are refused, even 8.0 or True: a count or a seed is a whole number.
    """
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        if not (text.lstrip("+-").isdigit()):
            raise UserError(f"{name} must be a whole number, got {value!r}")
        value = int(text)
    elif isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            bound = f"at least {low}"
        elif low is None:
            bound = f"at most {high}"
        else:
            bound = f"{low}..{high}"
        raise UserError(f"{name} must be {bound}, got {value}")
    return value


def seed(value, name: str = "seed") -> int:
    """A root seed: a whole number 0..2^63-1 (R4: reproducible from a seed)."""
    return whole_number(value, name, 0, MAX_SEED)


def pool(value, name: str = "pool") -> int:
    """The active pool (R29, R30): whole units, 0..MAX_POOL. Pools only ever hold antes
    of 10 and doublings of whole amounts, so a fractional pool cannot occur."""
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise UserError(f"{name} must be a whole number of units, got {value}")
        value = value.numerator
    return whole_number(value, name, 0, MAX_POOL)


def count(value, name: str, low: int = 1, high: int | None = None) -> int:
    """A count such as --deals, --samples, --jobs or --chunk, within [low, high]."""
    return whole_number(value, name, low, high)


def argument(parse, name: str, *bounds):
    """An argparse `type` checking a command-line value with `parse` (one of the above)
    under the option's `name`, so that a bad value is refused while the options are
    parsed: before any work starts, as one line (analyser/cli.py)."""
    def check(text):
        return parse(text, name, *bounds)

    check.__name__ = name
    return check
