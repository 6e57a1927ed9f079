"""kernels.dd_tt: relative-rank keys and bound storage."""

import numpy as np

from kernels.dd_tt import (
    code_card,
    entries_for,
    move_code,
    new_table,
    position_key,
    tt_lookup,
    tt_store,
)


def _hands(*masks):
    return np.array(masks, np.uint64)


def test_keys_collide_for_positions_equal_in_relative_ranks():
    # N: SA, E: SK, S: SQ, W: SJ   vs   N: SA, E: SQ, S: SJ, W: S9 once SK and ST are gone
    a = _hands(1 << 12, 1 << 11, 1 << 10, 1 << 9)
    b = _hands(1 << 12, 1 << 10, 1 << 9, 1 << 7)
    assert position_key(a, 0, 1, 1, 1) == position_key(b, 0, 1, 1, 1)
    c = _hands(1 << 11, 1 << 12, 1 << 10, 1 << 9)  # owners differ
    assert position_key(a, 0, 1, 1, 1) != position_key(c, 0, 1, 1, 1)


def test_keys_hold_leader_trump_and_masks():
    a = _hands(1 << 12, 1 << 11, 1 << 10, 1 << 9)
    base = position_key(a, 0, 1, 1, 1)
    assert position_key(a, 1, 1, 1, 1) != base
    assert position_key(a, 0, -1, 1, 1) != base
    assert position_key(a, 0, 1, 14, 1) != base
    assert position_key(a, 0, 1, 5, 5) != base


def test_store_merges_bounds_and_lookup_misses_unknown_keys():
    keys, data = new_table(1)
    assert keys.shape[0] == entries_for(1)
    k1, k2 = np.uint64(12345), np.uint64(678)
    assert tt_lookup(keys, data, k1, k2) == (0, 13, 0)
    tt_store(keys, data, k1, k2, 5, 2, 5, 0, 1)
    tt_store(keys, data, k1, k2, 5, 0, 3, 0x85, 1)
    assert tt_lookup(keys, data, k1, k2) == (2, 3, 0x85)


def test_replacement_keeps_table_consistent_under_pressure():
    keys, data = new_table(1 / 1024)  # a few dozen entries
    stored = {}
    rng = np.random.default_rng(1)
    for i in range(5000):
        k1, k2 = np.uint64(rng.integers(1, 1 << 62)), np.uint64(rng.integers(1, 1 << 62))
        lo = int(rng.integers(0, 5))
        tt_store(keys, data, k1, k2, 5, lo, lo + 2, 0, 1 + i // 100)
        stored[(int(k1), int(k2))] = (lo, lo + 2)
    for k1, k2 in stored:
        lo, up, _ = tt_lookup(keys, data, np.uint64(k1), np.uint64(k2))
        assert (lo, up) in ((0, 13), stored[(k1, k2)])


def test_move_code_round_trip():
    hands = _hands((1 << 12) | (1 << 3), 1 << 11, (1 << 5) | (1 << 40), 1 << 2)
    for card in (12, 3, 11, 5, 40, 2):
        assert code_card(hands, move_code(hands, card)) == card
    assert code_card(hands, 0) == -1
