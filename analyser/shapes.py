"""Suit-length patterns of 13-card hands: exact probabilities and observed frequencies.

A pattern is the four suit lengths sorted longest first ("4-4-3-2"); there are 39. Its
exact probability counts hands: for each ordering of the lengths over the four suits,
prod C(13, length) hands out of C(52, 13), kept as a Fraction. Observed frequencies come
from a batch of hand masks, counted with numpy (popcount per suit, a lookup table from
sorted lengths to pattern index, bincount). The chi-square test pools the rarest patterns
so that every class expects at least 5 hands, and computes its p-value without scipy
(scipy is a development dependency only).
"""

import math
from fractions import Fraction
from itertools import permutations

import numpy as np
import pandas as pd

from analyser.cards import HAND_SIZE

_CHUNK = 1 << 20  # hands counted per step, bounding the temporary arrays
DEAL_BLOCK = 1_000_000  # deals dealt at a time by random_pattern_counts (32 MB of deals)


def _all_patterns() -> list[tuple[int, int, int, int]]:
    """The 39 suit-length patterns, longest suit first."""
    found = []
    for a in range(HAND_SIZE, -1, -1):
        for b in range(min(a, HAND_SIZE - a), -1, -1):
            for c in range(min(b, HAND_SIZE - a - b), -1, -1):
                d = HAND_SIZE - a - b - c
                if d <= c:
                    found.append((a, b, c, d))
    return found


def _exact(pattern) -> Fraction:
    """Exact probability that a random 13-card hand has suit-length `pattern` (any suit order)."""
    orderings = len(set(permutations(pattern)))
    hands = math.prod(math.comb(HAND_SIZE, n) for n in pattern)
    return Fraction(orderings * hands, math.comb(4 * HAND_SIZE, HAND_SIZE))


def _name(pattern) -> str:
    return "-".join(str(n) for n in pattern)


_BY_LENGTHS = _all_patterns()
# most likely first (ties: longer suits first), the order of every table below
PATTERNS = sorted(_BY_LENGTHS, key=lambda p: (-_exact(p), tuple(-n for n in p)))
PATTERN_NAMES = [_name(p) for p in PATTERNS]

# sorted lengths (a, b, c, d), encoded a*14**3 + b*14**2 + c*14 + d -> index in PATTERNS
_LOOKUP = np.full(14**4, -1, dtype=np.int64)
for _index, (_a, _b, _c, _d) in enumerate(PATTERNS):
    _LOOKUP[((_a * 14 + _b) * 14 + _c) * 14 + _d] = _index


def pattern_probabilities() -> dict[str, Fraction]:
    """Exact probability of each of the 39 patterns, most likely first; they sum to exactly 1."""
    return {_name(p): _exact(p) for p in PATTERNS}


def pattern_counts(hands) -> np.ndarray:
    """How many hand masks in `hands` (any shape, 13-card hands) have each pattern: (39,) int64."""
    flat = np.ascontiguousarray(hands, dtype=np.uint64).ravel()
    counts = np.zeros(len(PATTERNS), dtype=np.int64)
    shifts = np.array([0, 13, 26, 39], dtype=np.uint64)
    for start in range(0, flat.size, _CHUNK):
        chunk = flat[start:start + _CHUNK]
        lengths = np.bitwise_count((chunk[:, None] >> shifts) & np.uint64(0x1FFF)).astype(np.int64)
        if np.any(lengths.sum(axis=1) != HAND_SIZE):
            bad = int(np.flatnonzero(lengths.sum(axis=1) != HAND_SIZE)[0]) + start
            raise ValueError(f"hand {bad} does not hold 13 cards; patterns need full hands")
        lengths.sort(axis=1)  # ascending: d, c, b, a
        code = ((lengths[:, 3] * 14 + lengths[:, 2]) * 14 + lengths[:, 1]) * 14 + lengths[:, 0]
        counts += np.bincount(_LOOKUP[code], minlength=len(PATTERNS))
    return counts


def pattern_table(deals) -> pd.DataFrame:
    """Observed pattern frequencies of every hand in `deals` beside the exact probabilities.

    Columns: shape (e.g. "4-4-3-2"), observed (count), expected_probability (exact, as a
    float; `pattern_probabilities` has the Fractions), observed_probability; rows most
    likely pattern first. Every seat's hand counts, so n deals give 4n hands.
    """
    return pattern_frame(pattern_counts(deals))


def pattern_frame(counts) -> pd.DataFrame:
    """The table of `pattern_table` from pattern counts (39,), most likely pattern first."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    exact = pattern_probabilities()
    return pd.DataFrame({
        "shape": PATTERN_NAMES,
        "observed": counts,
        "expected_probability": [float(exact[name]) for name in PATTERN_NAMES],
        "observed_probability": counts / total if total else np.zeros(len(counts)),
    })


def block_seed(seed: int, block: int):
    """The seed block `block` of `random_pattern_counts` deals from: the root seed itself
    for block 0 (so up to one block, the deals are exactly `deal_random(n, seed)`), then
    `SeedSequence(seed, spawn_key=(block,))`, a stream of its own for each block (R4)."""
    return seed if block == 0 else np.random.SeedSequence(seed, spawn_key=(block,))


def random_pattern_counts(n: int, seed: int, block: int | None = None,
                          progress=None) -> np.ndarray:
    """Pattern counts (39,) of the 4n hands of n uniformly random deals from `seed`, dealt
    `block` (default DEAL_BLOCK) deals at a time, block b from `block_seed(seed, b)`:
    memory stays bounded whatever n, and the same (n, seed, block) always gives the same
    counts. `progress`, if given, is called with each block's number of deals once counted.
    """
    from analyser.dealing import deal_random

    block = block or DEAL_BLOCK
    counts = np.zeros(len(PATTERNS), dtype=np.int64)
    for index, start in enumerate(range(0, n, block)):
        size = min(block, n - start)
        counts += pattern_counts(deal_random(size, block_seed(seed, index)))
        if progress is not None:
            progress(size)
    return counts


def chi_square(observed, probabilities, min_expected=5.0) -> tuple[float, int, float]:
    """Pearson chi-square of counts against exact probabilities: (statistic, dof, p-value).

    Classes expecting fewer than `min_expected` counts are pooled into one (itself made to
    expect at least that many), so the chi-square approximation holds; dof = classes - 1.
    """
    observed = np.asarray(observed, dtype=np.float64)
    probabilities = np.asarray([float(p) for p in probabilities], dtype=np.float64)
    total = observed.sum()
    if total <= 0:
        raise ValueError("chi-square needs at least one observation")
    rare = probabilities * total < min_expected
    if rare.any():
        # pool every class expecting fewer than min_expected; if the pool itself is still
        # that small, add the least likely of the other classes to it
        if probabilities[rare].sum() * total < min_expected and (~rare).sum() > 1:
            others = np.flatnonzero(~rare)
            rare[others[np.argmin(probabilities[others])]] = True
        classes_obs = list(observed[~rare]) + [observed[rare].sum()]
        classes_p = list(probabilities[~rare]) + [probabilities[rare].sum()]
    else:
        classes_obs, classes_p = list(observed), list(probabilities)
    obs = np.array(classes_obs)
    expected = np.array(classes_p) * total
    statistic = float(((obs - expected) ** 2 / expected).sum())
    dof = len(obs) - 1
    return statistic, dof, chi2_sf(statistic, dof)


def chi2_sf(statistic: float, dof: int) -> float:
    """Upper tail P(X >= statistic) of a chi-square with `dof` degrees of freedom."""
    if dof <= 0:
        return float("nan")
    return _gamma_q(dof / 2.0, statistic / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x): series below a + 1, continued fraction above."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction for Q (Numerical Recipes, gcf)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_front) * h


__all__ = [
    "PATTERNS", "PATTERN_NAMES", "DEAL_BLOCK", "pattern_probabilities", "pattern_counts",
    "pattern_table", "pattern_frame", "block_seed", "random_pattern_counts", "chi_square",
    "chi2_sf",
]
