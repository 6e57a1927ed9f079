"""Hand features of the stored hands table, against slow per-hand references."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyser import features
from analyser.cards import format_hand, parse_hand, shape, suit_lengths
from analyser.contracts import natural_trump


def danger_reference(mask: int) -> int:
    """The misère-danger score straight from its definition, card by card."""
    total = 0
    for suit in range(4):
        ranks = [r for r in range(13) if mask >> (13 * suit + r) & 1]
        for i, r in enumerate(sorted(ranks)):
            total += max(0, r - 2 * i - 1)
    return total


def honours_reference(mask: int) -> tuple[int, int, int, int]:
    """Aces, kings, queens, jacks counted card by card."""
    return tuple(sum(mask >> (13 * s + rank) & 1 for s in range(4)) for rank in (12, 11, 10, 9))


hands = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True).map(
    lambda cards: sum(1 << c for c in cards))
any_hands = st.lists(st.integers(0, 51), min_size=0, max_size=20, unique=True).map(
    lambda cards: sum(1 << c for c in cards))


@given(st.lists(hands, min_size=1, max_size=20))
def test_features_match_per_hand_references(masks):
    frame = features.hand_features(np.array(masks, dtype=np.uint64))
    assert len(frame) == len(masks)
    for row, mask in zip(frame.itertuples(index=False), masks, strict=True):
        assert row.hand == mask
        assert row.pbn == format_hand(mask)
        assert row.shape == shape(mask)
        assert (row.len_s, row.len_h, row.len_d, row.len_c) == suit_lengths(mask)
        aces, kings, queens, jacks = honours_reference(mask)
        assert (row.aces, row.kings, row.queens, row.jacks) == (aces, kings, queens, jacks)
        assert row.hcp == 4 * aces + 3 * kings + 2 * queens + jacks
        assert row.misere_danger == danger_reference(mask)
        assert row.natural_trump == natural_trump(mask)


@given(st.lists(any_hands, min_size=1, max_size=10))
def test_shape_and_lengths_of_partial_hands(masks):
    lengths = features.suit_lengths(masks)
    assert [tuple(r) for r in lengths.tolist()] == [suit_lengths(m) for m in masks]
    assert list(features.shape_strings(lengths)) == [shape(m) for m in masks]


@pytest.mark.parametrize("text, score", [
    ("2.3.4.5", 0 + 0 + 1 + 2),
    ("A...", 11),
    ("AK...", 10 + 9),
    ("JT9...", 6 + 5 + 4),
    ("Q T 8 6 4 2...".replace(" ", ""), 0),  # the safe ladder 2-4-6-8-10-Q
    ("AKQJT98765432...", 0),  # a 13-card suit never has to win a trick in a misère
    ("A2.A2.A2.A2", 4 * 9),
])
def test_misere_danger_examples_of_the_docstring(text, score):
    mask = parse_hand(text)
    assert features.misere_danger([mask])[0] == score == danger_reference(mask)


def test_misere_danger_grows_when_a_low_card_becomes_high():
    # Replacing the 2 by the ace in a suit can only raise the charge of that suit.
    low = parse_hand("2...")
    high = parse_hand("A...")
    assert features.misere_danger([low])[0] < features.misere_danger([high])[0]


def test_column_types_are_compact_integers():
    frame = features.hand_features([parse_hand("AKQJ.T98.765.432")])
    for col in ("len_s", "len_h", "len_d", "len_c", "aces", "kings", "queens", "jacks", "hcp",
                "natural_trump"):
        assert frame[col].dtype == np.int8, col
    assert frame["misere_danger"].dtype == np.int16
    assert frame["hand"].dtype == np.uint64
    assert frame.loc[0, "hcp"] == 10
