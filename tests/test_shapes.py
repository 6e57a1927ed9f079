"""analyser/shapes.py (exact pattern odds, counting, chi-square) and the `shapes` command."""

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from scipy import stats

from analyser import cli, shapes
from analyser.cards import shape
from analyser.dealing import deal_random
from analyser.shapes import (
    PATTERN_NAMES,
    chi2_sf,
    chi_square,
    pattern_counts,
    pattern_probabilities,
    pattern_table,
)


def reference_probabilities():
    """Count hands by ordered suit-length vector (s, h, d, c), then group by sorted pattern."""
    totals = Counter()
    for lengths in product(range(14), repeat=4):
        if sum(lengths) == 13:
            name = "-".join(str(n) for n in sorted(lengths, reverse=True))
            totals[name] += math.prod(math.comb(13, n) for n in lengths)
    all_hands = math.comb(52, 13)
    assert sum(totals.values()) == all_hands
    return {name: Fraction(count, all_hands) for name, count in totals.items()}


def test_39_patterns_with_exact_probabilities():
    exact = pattern_probabilities()
    assert len(exact) == 39 and list(exact) == PATTERN_NAMES
    assert sum(exact.values()) == 1
    assert exact == reference_probabilities()
    assert all(isinstance(p, Fraction) for p in exact.values())
    # published values (e.g. Borel and Cheron): 4-4-3-2 21.55 %, 5-3-3-2 15.52 %
    assert round(float(exact["4-4-3-2"]), 5) == 0.21551
    assert round(float(exact["5-3-3-2"]), 5) == 0.15517
    assert exact["13-0-0-0"] == Fraction(4, math.comb(52, 13))
    probs = list(exact.values())
    assert probs == sorted(probs, reverse=True)  # most likely first


def test_pattern_counts_match_shape_of_each_hand():
    deals = deal_random(3000, 12)
    counts = pattern_counts(deals)
    reference = Counter(shape(h) for h in deals.ravel())
    assert dict(zip(PATTERN_NAMES, counts.tolist(), strict=True)) == {
        name: reference.get(name, 0) for name in PATTERN_NAMES
    }
    assert counts.sum() == 12000


def test_pattern_counts_rejects_partial_hands():
    with pytest.raises(ValueError, match="13 cards"):
        pattern_counts(np.array([0b111], dtype=np.uint64))


def test_pattern_table_columns():
    deals = deal_random(5000, 3)
    table = pattern_table(deals)
    assert list(table.columns) == ["shape", "observed", "expected_probability",
                                   "observed_probability"]
    assert len(table) == 39 and table["observed"].sum() == 20000
    assert table["observed_probability"].sum() == pytest.approx(1.0)
    assert table["expected_probability"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("x, dof", [(0.1, 1), (3.0, 1), (10.0, 5), (50.0, 38), (20.0, 38),
                                    (100.0, 60), (0.5, 20), (200.0, 150), (1e-9, 3)])
def test_chi2_sf_matches_scipy(x, dof):
    assert chi2_sf(x, dof) == pytest.approx(stats.chi2.sf(x, dof), rel=1e-9, abs=1e-15)


def test_chi_square_pools_rare_patterns_like_scipy():
    deals = deal_random(20_000, 9)
    counts = pattern_counts(deals)
    probs = np.array([float(p) for p in pattern_probabilities().values()])
    statistic, dof, p_value = chi_square(counts, probs)
    n = counts.sum()
    rare = probs * n < 5
    observed = np.append(counts[~rare], counts[rare].sum())
    expected = np.append(probs[~rare], probs[rare].sum()) * n
    ref = stats.chisquare(observed, expected)
    assert dof == len(observed) - 1
    assert statistic == pytest.approx(ref.statistic)
    assert p_value == pytest.approx(ref.pvalue)


def test_chi_square_detects_a_biased_sample():
    probs = [float(p) for p in pattern_probabilities().values()]
    counts = np.round(np.array(probs) * 1_000_000).astype(np.int64)
    counts[0] -= 5000  # 1 in 40 of the 4-4-3-2 hands dealt as 4-3-3-3 instead
    counts[PATTERN_NAMES.index("4-3-3-3")] += 5000
    assert chi_square(counts, probs)[2] < 1e-6


def test_shapes_command_prints_table_and_test(capsys):
    assert cli.main(["shapes", "--deals", "2000", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "2,000 deals (8,000 hands)" in out
    assert "4-4-3-2" in out and "13-0-0-0" in out
    assert "chi-square" in out and "degrees of freedom" in out and "p-value" in out


@pytest.mark.parametrize("argv, words", [
    (["shapes", "--deals", "0"], "--deals"),
    (["shapes", "--deals", "ten"], "--deals"),
    (["shapes", "--deals", "2.5"], "--deals"),
    (["shapes", "--seed", "-3"], "--seed"),
    (["shapes", "--seed", str(2**63)], "--seed must be 0..9223372036854775807"),
    (["shapes", "--colour", "red"], "unrecognized arguments: --colour"),
])
def test_shapes_command_bad_input_exit_2(argv, words, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_counts_of_one_block_are_exactly_those_of_deal_random():
    # up to one block the dealing stream is deal_random(n, seed)'s own (R4: reproducible)
    for n in (1, 7, 40):
        expected = pattern_counts(deal_random(n, 5))
        assert shapes.random_pattern_counts(n, 5, block=40).tolist() == expected.tolist()
    assert shapes.block_seed(5, 0) == 5


def test_counts_in_blocks_take_each_block_from_its_own_stream():
    block, n = 16, 40  # blocks of 16, 16 and 8 deals
    expected = (pattern_counts(deal_random(16, 3))
                + pattern_counts(deal_random(16, np.random.SeedSequence(3, spawn_key=(1,))))
                + pattern_counts(deal_random(8, np.random.SeedSequence(3, spawn_key=(2,)))))
    got = shapes.random_pattern_counts(n, 3, block=block)
    assert got.tolist() == expected.tolist() and got.sum() == 4 * n
    assert shapes.random_pattern_counts(n, 3, block=block).tolist() == got.tolist()
    # block b's stream differs from block 0's: the blocks are not copies of one another
    first, second = (deal_random(16, shapes.block_seed(3, b)) for b in (0, 1))
    assert not np.array_equal(first, second)


def test_shapes_command_never_holds_more_than_one_block_of_deals(monkeypatch, capsys):
    # a huge --deals (10^11 deals would be 2.9 TiB at once) is dealt one block at a time
    sizes = []
    real = shapes.pattern_counts

    def counting(deals):
        sizes.append(len(deals))
        return real(deals)

    monkeypatch.setattr(shapes, "DEAL_BLOCK", 1000)
    monkeypatch.setattr(shapes, "pattern_counts", counting)
    assert cli.main(["shapes", "--deals", "2500", "--seed", "1"]) == 0
    assert sizes == [1000, 1000, 500]
    assert "2,500 deals (10,000 hands)" in capsys.readouterr().out
