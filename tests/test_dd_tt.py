"""kernels.dd.tt: position classes (suit lengths + owners of the relevant top cards) and
bound storage."""

import numpy as np
import pytest

from kernels.bits import HAS_BMI2
from kernels.dd.tt import (
    CHAIN_MAX,
    CLASS_WAYS,
    HEADER_ROWS,
    WINDOW_MIN,
    _hash,
    _owner_masks,
    _owner_words_bmi2,
    _owner_words_tables,
    _relevance_from_ks_bmi2,
    _relevance_from_ks_tables,
    aligned_zeros,
    class_lookup,
    code_card,
    drop_sole_suits,
    entries_for,
    exact_lookup,
    exact_store,
    half_entries,
    ks_from_relevance,
    move_code,
    new_table,
    new_tables,
    position_words,
    relevance_from_ks,
    tt_store,
)


def tt_lookup(classes, dist, meta, o1, o2, need=0):
    """Best bounds over the entries matching a position: (lower, k of lower, upper, k of
    upper, move code); (0, 0, 13, 0, 0) when none matches (`class_lookup` less its last
    field)."""
    return class_lookup(classes, dist, meta, o1, o2, need)[:5]


ALL = np.uint64(0xFFFF)  # k = 15 in every suit: more than any suit holds, so every card
U = np.uint64(0)


def _hands(*masks):
    return np.array(masks, np.uint64)


def test_words_equal_for_positions_equal_in_relative_ranks():
    # N: SA, E: SK, S: SQ, W: SJ   vs   N: SA, E: SQ, S: SJ, W: S9 once SK and ST are gone
    a = _hands(1 << 12, 1 << 11, 1 << 10, 1 << 9)
    b = _hands(1 << 12, 1 << 10, 1 << 9, 1 << 7)
    assert position_words(a, 0, 1, 1, 1) == position_words(b, 0, 1, 1, 1)
    c = _hands(1 << 11, 1 << 12, 1 << 10, 1 << 9)  # owners differ, lengths do not
    wa, wc = position_words(a, 0, 1, 1, 1), position_words(c, 0, 1, 1, 1)
    assert wa[:2] == wc[:2] and wa[2] != wc[2]


def _owner_words_reference(hands):
    """Owner words spelt out: per suit, from the highest card in play down, its seat in two
    bits; suits 0-1 in the first word, 2-3 in the second, 26 bits per suit."""
    words = [0, 0]
    for s in range(4):
        code, i = 0, 0
        for rank in range(12, -1, -1):
            for seat in range(4):
                if int(hands[seat]) >> (13 * s + rank) & 1:
                    code |= seat << (2 * i)
                    i += 1
        words[s // 2] |= code << (26 * (s % 2))
    return tuple(words)


def test_owner_words_match_a_card_by_card_reference_on_random_positions():
    rng = np.random.default_rng(10)
    for _ in range(300):
        seats = rng.integers(0, 5, 52)  # 4: the card is out of play
        hands = _hands(*[sum(1 << c for c in range(52) if seats[c] == q) for q in range(4)])
        _, _, o1, o2 = position_words(hands, 0, -1, 1, 1)
        assert (int(o1), int(o2)) == _owner_words_reference(hands)
        o1, o2 = _owner_words_tables(hands)  # the portable form, whatever the processor
        assert (int(o1), int(o2)) == _owner_words_reference(hands)


@pytest.mark.skipif(not HAS_BMI2, reason="the processor has no BMI2 (pext, pdep)")
def test_owner_words_bmi2_form_matches_the_reference_on_random_positions():
    rng = np.random.default_rng(11)
    for _ in range(300):
        seats = rng.integers(0, 5, 52)  # 4: the card is out of play
        hands = _hands(*[sum(1 << c for c in range(52) if seats[c] == q) for q in range(4)])
        o1, o2 = _owner_words_bmi2(hands)
        assert (int(o1), int(o2)) == _owner_words_reference(hands)


_RELEVANCE_FORMS = [relevance_from_ks, _relevance_from_ks_tables] + (
    [_relevance_from_ks_bmi2] if HAS_BMI2 else [])  # the BMI2 form only where it runs


@pytest.mark.parametrize("form", _RELEVANCE_FORMS, ids=lambda f: f.__name__)
def test_relevance_of_k_nibbles_is_the_kth_highest_card_on_random_positions(form):
    rng = np.random.default_rng(12)
    for _ in range(300):
        seats = rng.integers(0, 5, 52)  # 4: the card is out of play
        hands = _hands(*[sum(1 << c for c in range(52) if seats[c] == q) for q in range(4)])
        kw, want = 0, 0
        for s in range(4):
            present = [c for c in range(13 * s + 12, 13 * s - 1, -1) if seats[c] < 4]
            k = int(rng.integers(0, len(present) + 1))
            kw |= k << (4 * s)
            if k:
                want |= 1 << present[k - 1]
        assert int(form(hands, np.uint64(kw))) == want
        assert form(hands, ks_from_relevance(hands, np.uint64(want))) == want


def test_words_hold_leader_trump_and_masks():
    a = _hands(1 << 12, 1 << 11, 1 << 10, 1 << 9)
    base = position_words(a, 0, 1, 1, 1)
    for other in ((1, 1, 1, 1), (0, -1, 1, 1), (0, 1, 14, 1), (0, 1, 5, 5)):
        assert position_words(a, *other)[1] != base[1]


def test_relevance_round_trip_keeps_the_lowest_relevant_card_per_suit():
    # spades: N A, E K, S Q, W 2; hearts: N 3, E 5, S 7, W 9
    hands = _hands((1 << 12) | (1 << 14), (1 << 11) | (1 << 16), (1 << 10) | (1 << 18),
                   (1 << 0) | (1 << 20))
    rel = np.uint64((1 << 11) | (1 << 12) | (1 << 16))  # S K (and A), H 5
    kw = ks_from_relevance(hands, rel)
    assert kw & 0xF == 2 and (kw >> 4) & 0xF == 3 and kw >> 8 == 0
    assert relevance_from_ks(hands, kw) == np.uint64((1 << 11) | (1 << 16))


def test_owner_masks_cover_two_bits_a_card_for_the_top_k_of_each_suit():
    # owner words: suits 0-1 and 2-3, 26 bits (13 cards x 2) a suit; k up to 15 (ALL)
    for kw in range(0, 1 << 16, 7):
        k = [(kw >> (4 * s)) & 15 for s in range(4)]
        want = [((1 << 2 * k[2 * w]) - 1) | (((1 << 2 * k[2 * w + 1]) - 1) << 26)
                for w in range(2)]
        assert [int(m) for m in _owner_masks(np.uint64(kw))] == want


def test_entry_matches_every_position_agreeing_on_relevant_cards_only():
    # the top spade (A) matters: N holds it in both; the small spades are placed differently
    a = _hands((1 << 12) | (1 << 3), 1 << 5, 1 << 4, 1 << 2)
    b = _hands((1 << 12) | (1 << 5), 1 << 2, 1 << 3, 1 << 4)
    wrong = _hands((1 << 11) | (1 << 3), 1 << 12, 1 << 4, 1 << 2)  # E holds the ace
    exact, classes = new_table(1)
    dist, meta, o1, o2 = position_words(a, 0, -1, 1, 1)
    kw = ks_from_relevance(a, np.uint64(1 << 12))
    tt_store(classes, dist, meta, o1, o2, kw, 2, 1, 2, 0, 1)
    lo, klo, up, _, _ = tt_lookup(classes, *position_words(b, 0, -1, 1, 1))
    assert (lo, up) == (1, 2) and klo == kw
    assert tt_lookup(classes, *position_words(wrong, 0, -1, 1, 1))[:3:2] == (0, 13)
    # every card relevant: only the very same position (in relative ranks) matches
    tt_store(classes, dist, meta, o1, o2, ALL, 2, 2, 2, 0, 1)
    assert tt_lookup(classes, dist, meta, o1, o2)[0] == 2
    assert tt_lookup(classes, *position_words(b, 0, -1, 1, 1))[0] == 1


def test_store_merges_bounds_and_lookup_misses_unknown_keys():
    exact, classes = new_table(1)
    assert exact.shape == classes.shape
    assert half_entries(exact) == half_entries(classes) == entries_for(1) // 2
    # after the entries, the header
    assert exact.shape[0] == entries_for(1) // 2 + HEADER_ROWS
    w = (np.uint64(12345), np.uint64(6), np.uint64(77), np.uint64(88))
    assert tt_lookup(classes, *w) == (0, 0, 13, 0, 0)
    tt_store(classes, *w, ALL, 5, 2, 5, 0, 1)
    tt_store(classes, *w, ALL, 5, 0, 3, 0x85, 1)
    lo, _, up, _, code = tt_lookup(classes, *w)
    assert (lo, up, code) == (2, 3, 0x85)


def test_exact_entry_keeps_each_bound_with_its_own_relevance():
    exact, _ = new_table(1)
    k1, k2 = np.uint64(0x123456789), np.uint64(0xABCDEF)
    assert exact_lookup(exact, k1, k2) == (0, 13, 0, 0, 0)
    exact_store(exact, k1, k2, np.uint64(0x0123), np.uint64(0), 7, 3, 13, 0x81, 1)
    exact_store(exact, k1, k2, np.uint64(0), np.uint64(0xF00F), 7, 0, 5, 0, 2)
    assert exact_lookup(exact, k1, k2) == (3, 5, 0x0123, 0xF00F, 0x81)
    # looser bounds leave the stored ones and their relevance; a tighter one replaces
    exact_store(exact, k1, k2, np.uint64(0x4444), np.uint64(0x5555), 7, 2, 9, 0x92, 2)
    assert exact_lookup(exact, k1, k2) == (3, 5, 0x0123, 0xF00F, 0x92)
    exact_store(exact, k1, k2, np.uint64(0xFFFF), np.uint64(0), 7, 4, 13, 0, 3)
    assert exact_lookup(exact, k1, k2) == (4, 5, 0xFFFF, 0xF00F, 0x92)
    assert exact_lookup(exact, np.uint64(1), k2) == (0, 13, 0, 0, 0)
    # every field at its widest: bounds 13, cost 64, move 0xFF, a generation past 12 bits
    exact_store(exact, k2, k1, np.uint64(0xFFFF), np.uint64(0xFFFF), 64, 13, 13, 0xFF, 5000)
    assert exact_lookup(exact, k2, k1) == (13, 13, 0xFFFF, 0xFFFF, 0xFF)


def test_class_entry_fields_survive_extreme_values():
    # every field at its widest: bounds 13, cost 64, move 0xFF, all four k nibbles 15,
    # every meta bit, a generation past the 12 bits kept
    _, classes = new_table(1)
    w = (np.uint64(0xFFFF_FFFF_FFFF_FFFF), np.uint64(0x1FFF), np.uint64(1 << 63),
         np.uint64(3))
    tt_store(classes, *w, ALL, 64, 13, 13, 0xFF, 5000)
    assert tt_lookup(classes, *w) == (13, ALL, 13, 0, 0xFF)  # 13 above: no upper bound
    other = (w[0], np.uint64(0x0FFF), w[2], w[3])  # another meta: no match
    assert tt_lookup(classes, *other) == (0, 0, 13, 0, 0)


def test_replacement_keeps_table_consistent_under_pressure():
    exact, classes = new_table(1 / 1024)  # a few dozen entries
    stored = {}
    rng = np.random.default_rng(1)
    for i in range(5000):
        w = tuple(np.uint64(x) for x in rng.integers(1, 1 << 52, size=4))
        lo = int(rng.integers(0, 5))
        tt_store(classes, w[0], w[1] & np.uint64(0x1FFF), w[2], w[3], ALL, 5, lo, lo + 2,
                 0, 1 + i // 100)
        stored[w] = (lo, lo + 2)
    for w, bounds in stored.items():
        lo, _, up, _, _ = tt_lookup(classes, w[0], w[1] & np.uint64(0x1FFF), w[2], w[3])
        assert (lo, up) in ((0, 13), bounds)


def test_move_code_round_trip():
    hands = _hands((1 << 12) | (1 << 3), 1 << 11, (1 << 5) | (1 << 40), 1 << 2)
    for card in (12, 3, 11, 5, 40, 2):
        assert code_card(hands, move_code(hands, card)) == card
    assert code_card(hands, 0) == -1


def test_tables_start_on_cache_lines_so_no_entry_straddles_two():
    exact, classes = new_tables(1, 3)
    for t in range(3):
        for half in (exact[t], classes[t]):
            assert half.ctypes.data % 64 == 0 and half.shape[1] == 4  # 32-byte entries


def test_large_tables_and_memos_start_on_huge_pages():
    # a table or ruff memo of 2 MiB or more starts on a 2 MiB boundary (where Linux may
    # back it with one transparent huge page per 2 MiB); smaller ones on a cache line
    from kernels.dd.ruff_game import new_ruff_memo

    exact, classes = new_tables(8, 2)
    assert exact.ctypes.data % (1 << 21) == 0 and classes.ctypes.data % (1 << 21) == 0
    # the tables after the first: a half's header past a boundary
    past = 32 * (exact.shape[1] - half_entries(exact[0]))
    assert exact[1].ctypes.data % (1 << 21) == past == classes[1].ctypes.data % (1 << 21)
    memo = new_ruff_memo(1 << 17)
    assert memo.ctypes.data % (1 << 21) == 0 and memo.shape == (1 << 17, 3) and not memo.any()
    small = aligned_zeros((5, 4))
    assert small.ctypes.data % 64 == 0 and small.shape == (5, 4) and not small.any()


def test_one_suit_length_pattern_keeps_many_classes():
    # every class of one (dist, meta) shares a bucket and its run: 24 classes (owners of
    # the top two spades and of the top heart) stored under one dist and meta are all
    # found again
    _, classes = new_table(1)
    dist, meta = np.uint64(0x1111_2222_3333_4444), np.uint64(0x0123)
    kw = np.uint64(0x0012)  # k: 2 spades, 1 heart
    stored = []
    for i in range(24):
        o1 = np.uint64((i & 15) | ((i >> 4) << 26))
        tt_store(classes, dist, meta, o1, np.uint64(0), kw, 3, i % 7, 13, 0, 1)
        stored.append((o1, i % 7))
    for o1, lo in stored:
        assert tt_lookup(classes, dist, meta, o1, np.uint64(0))[0] == lo


def test_lookup_with_a_target_returns_a_bound_that_settles_it_with_its_own_relevance():
    # one position, two classes: every card relevant with lower 5 and upper 8; only the
    # top spade with lower 3 and upper 11. With a target the first settling bound found
    # is returned (the other left open), without one the tightest of each
    _, classes = new_table(1)
    a = _hands((1 << 12) | (1 << 3), 1 << 5, 1 << 4, 1 << 2)
    words = position_words(a, 0, -1, 1, 1)
    one = ks_from_relevance(a, np.uint64(1 << 12))
    tt_store(classes, *words, ALL, 2, 5, 8, 0, 1)
    tt_store(classes, *words, one, 2, 3, 11, 0, 1)
    assert tt_lookup(classes, *words) == (5, ALL, 8, ALL, 0)  # no target: the tightest
    # both settle: the entry stored first, first in the bucket's ways, is the one read
    assert tt_lookup(classes, *words, 3)[:2] == (5, ALL)
    assert tt_lookup(classes, *words, 3)[2:4] == (13, 0)
    assert tt_lookup(classes, *words, 4)[:2] == (5, ALL)  # only the finer one settles
    assert tt_lookup(classes, *words, 12)[2:4] == (8, ALL)  # both settle: as above
    assert tt_lookup(classes, *words, 9)[2:4] == (8, ALL)


def _window_of(half):
    return int(half[-HEADER_ROWS, 0])


def _found(exact, classes, keys):
    """Which of the keys (rows) each half still finds, with the bounds stored for them."""
    ex, cl = set(), set()
    for i, k in enumerate(keys):
        if exact_lookup(exact, k[0], k[1])[:2] == (i % 5, 9):
            ex.add(i)
        got = tt_lookup(classes, k[0], k[1] & np.uint64(0x1FFF), k[2], k[3])
        if (got[0], got[2]) == (i % 5, 9):
            cl.add(i)
    return ex, cl


def test_window_starts_small_each_generation_and_doubles_keeping_its_entries():
    # a half in use is its first `window` entries (the buckets a probe can reach): a new
    # generation starts at WINDOW_MIN, and when the entries placed in the generation reach
    # half the window it doubles, each entry whose bucket moved going with it: every entry
    # found before the store that doubles a window is found after, but one the store
    # itself may evict
    exact, classes = new_table(16)  # halves of 2**18 entries, 16 times WINDOW_MIN (the
    # class half's window stops at half of it, the rest its pool)
    assert half_entries(exact) == 16 * WINDOW_MIN
    assert _window_of(exact) == _window_of(classes) == 0  # none yet: every bucket
    rng = np.random.default_rng(5)
    keys = rng.integers(1, 1 << 62, size=(2 * WINDOW_MIN, 4), dtype=np.uint64)
    keys[:, 1] &= np.uint64(0x1FFF)  # one key for both halves: a class's meta is 13 bits
    growths = 0
    for i, k in enumerate(keys):
        grows = 2 * (i + 1) >= WINDOW_MIN << growths
        if grows:
            found_then = _found(exact, classes, keys[:i])
        exact_store(exact, k[0], k[1], np.uint64(0), np.uint64(0), 3, i % 5, 9, 0, 1)
        tt_store(classes, k[0], k[1], k[2], k[3], ALL, 3, i % 5, 9, 0, 1)
        if i == 0:
            assert _window_of(exact) == _window_of(classes) == WINDOW_MIN
        if grows:
            growths += 1
            assert _window_of(exact) == _window_of(classes) == WINDOW_MIN << growths
            for then, now in zip(found_then, _found(exact, classes, keys[:i]), strict=True):
                assert len(then - now) <= 1
    # WINDOW_MIN / 2 entries doubled it, WINDOW_MIN doubled it again, 2 x WINDOW_MIN a third
    # time
    assert growths == 3 and _window_of(exact) == _window_of(classes) == 8 * WINDOW_MIN
    # the next generation starts small again, in each half as it stores
    exact_store(exact, keys[0, 1], keys[0, 0], np.uint64(0), np.uint64(0), 3, 1, 9, 0, 2)
    assert _window_of(exact) == WINDOW_MIN and _window_of(classes) == 8 * WINDOW_MIN
    tt_store(classes, keys[0, 0], keys[0, 1], keys[0, 2], keys[0, 3], ALL, 3, 1, 9, 0, 2)
    assert _window_of(classes) == WINDOW_MIN


def test_window_never_passes_the_half():
    exact, _ = new_table(1)  # halves of WINDOW_MIN entries: the window is the half
    rng = np.random.default_rng(6)
    for k in rng.integers(1, 1 << 62, size=(WINDOW_MIN, 2), dtype=np.uint64):
        exact_store(exact, k[0], k[1], np.uint64(0), np.uint64(0), 3, 1, 9, 0, 1)
    assert _window_of(exact) == half_entries(exact) == WINDOW_MIN


def test_class_window_stops_at_half_the_half():
    # the class half's upper half is its pool of runs (`tt_store`'s chain)
    _, classes = new_table(1)
    rng = np.random.default_rng(9)
    for k in rng.integers(1, 1 << 62, size=(WINDOW_MIN, 4), dtype=np.uint64):
        tt_store(classes, k[0], k[1] & np.uint64(0x1FFF), k[2], k[3], ALL, 3, 1, 9, 0, 1)
    assert _window_of(classes) == half_entries(classes) // 2 == WINDOW_MIN // 2


def _classes_of_one_key(n):
    """k nibbles and n owner words of classes of one key: k 3 spades and 2 hearts, the
    owners of those cards all different."""
    kw = np.uint64(0x0023)
    return kw, [np.uint64((i & 63) | ((i >> 6) << 26)) for i in range(n)]


def test_class_lookup_says_whether_any_entry_matched_the_position():
    a = _hands((1 << 12) | (1 << 3), 1 << 5, 1 << 4, 1 << 2)
    wrong = _hands((1 << 11) | (1 << 3), 1 << 12, 1 << 4, 1 << 2)  # E holds the ace
    _, classes = new_table(1)
    words = position_words(a, 0, -1, 1, 1)
    assert class_lookup(classes, *words, 1)[5] is False
    tt_store(classes, *words, ks_from_relevance(a, np.uint64(1 << 12)), 2, 1, 2, 0, 1)
    assert class_lookup(classes, *words, 1)[5] is True
    assert class_lookup(classes, *position_words(wrong, 0, -1, 1, 1), 1)[5] is False


def test_a_fresh_store_leaves_the_table_as_the_scanning_store_does():
    # the search tells a store the class is new (`fresh`) when its lookup matched nothing:
    # the store then only looks for a free way, and must pick the one the scan would, on
    # crowded keys (chaining into runs, the runs full) and across generations
    rng = np.random.default_rng(21)
    dists = [np.uint64(0x1111_2222_3333_4444 + d) for d in range(3)]
    meta = np.uint64(0x0123)
    owners = rng.integers(0, 1 << 52, (400, 2), dtype=np.uint64)  # positions met again
    _, fast = new_table(1)
    _, slow = new_table(1)
    fresh_stores = 0
    for step in range(6000):
        dist = dists[rng.integers(3)]
        o1, o2 = owners[rng.integers(len(owners))]
        kw = np.uint64(sum(int(k) << (4 * s) for s, k in enumerate(rng.integers(1, 4, 4))))
        lo = int(rng.integers(0, 4))
        args = (kw, int(rng.integers(1, 20)), lo, lo + int(rng.integers(0, 4)), 0,
                1 + step // 3000)
        hit = class_lookup(fast, dist, meta, o1, o2, 0)[5]
        fresh_stores += not hit
        tt_store(fast, dist, meta, o1, o2, *args, not hit)
        tt_store(slow, dist, meta, o1, o2, *args, False)
        assert np.array_equal(fast, slow)
    assert 600 < fresh_stores < 5400  # both kinds of store, many times


def test_relevance_drops_a_suit_one_hand_holds_alone():
    # spades: N holds all three left (their owners follow from the suit lengths, which
    # every key holds); hearts split N/E, diamonds W alone, clubs nobody
    spades = np.uint64(0b111 << 10)
    hearts_n, hearts_e = np.uint64(1 << 25), np.uint64(1 << 24)
    diamonds_w = np.uint64(0b11 << 30)
    hands = _hands(spades | hearts_n, hearts_e, np.uint64(0), diamonds_w)
    rel = spades | hearts_n | diamonds_w
    assert drop_sole_suits(hands, rel) == hearts_n
    assert drop_sole_suits(hands, hearts_n | hearts_e) == hearts_n | hearts_e
    assert drop_sole_suits(hands, U) == U


def test_classes_of_one_key_chain_into_a_run_of_the_pool_and_are_found():
    # a bucket full of the generation's entries starts the key's run in the pool (its
    # pointer over one way of the bucket, whose class moves into the run), which doubles
    # up to CHAIN_MAX entries: the bucket's other ways and the whole run are found again,
    # each with its own bound; past that, the run's cheapest entries are replaced
    n = CLASS_WAYS - 1 + CHAIN_MAX
    dist, meta = np.uint64(0x1111_2222_3333_4444), np.uint64(0x0123)
    kw, owners = _classes_of_one_key(n + 40)
    _, classes = new_table(1)
    for i, o1 in enumerate(owners):
        tt_store(classes, dist, meta, o1, U, kw, 3, 1 + i % 5, 13, 0, 1)
    got = [tt_lookup(classes, dist, meta, o1, U)[0] for o1 in owners]
    assert all(lo == 1 + i % 5 for i, lo in enumerate(got) if lo > 0)
    assert sum(lo > 0 for lo in got) == n
    assert got[-1] > 0  # the last stored is there
    # the same key again: its entries are merged, not stored twice
    tt_store(classes, dist, meta, owners[20], U, kw, 3, 0, 0, 0, 1)
    assert tt_lookup(classes, dist, meta, owners[20], U)[2] == 0


def test_a_run_is_followed_only_in_its_own_generation():
    # a new generation starts the pool afresh: the old pointers are not followed, so a
    # run whose rows another key's run now holds never answers for the wrong classes
    dist_a, dist_b = np.uint64(0x1111_2222_3333_4444), np.uint64(0x4444_3333_2222_1111)
    meta = np.uint64(0x0123)
    kw, owners = _classes_of_one_key(80)
    _, classes = new_table(1)
    for o1 in owners:
        tt_store(classes, dist_a, meta, o1, U, kw, 3, 2, 13, 0, 1)
    assert all(tt_lookup(classes, dist_a, meta, o1, U)[0] == 2 for o1 in owners)
    for o1 in owners:
        tt_store(classes, dist_b, meta, o1, U, kw, 3, 5, 13, 0, 2)
    assert all(tt_lookup(classes, dist_b, meta, o1, U)[0] == 5 for o1 in owners)
    assert all(tt_lookup(classes, dist_a, meta, o1, U)[0] in (0, 2) for o1 in owners)


def test_chained_classes_move_with_the_window_doubling():
    # the run's pointer is keyed like the key's classes: when the window doubles it moves
    # with them, and every class of the key's run is still found after (those in its
    # bucket may make way for another key's pointer there)
    _, classes = new_table(16)
    meta = np.uint64(0x0123)
    dist = np.uint64(0x1111_2222_3333_4444)
    kw, owners = _classes_of_one_key(3 * CLASS_WAYS)
    for o1 in owners:  # dear entries (cost 60): the others' stores replace their own
        tt_store(classes, dist, meta, o1, U, kw, 60, 2, 13, 0, 1)
    rng = np.random.default_rng(8)
    for k in rng.integers(1, 1 << 62, size=(2 * WINDOW_MIN, 4), dtype=np.uint64):
        tt_store(classes, k[0], k[1] & np.uint64(0x1FFF), k[2], k[3], ALL, 3, 1, 9, 0, 1)
    assert _window_of(classes) == 8 * WINDOW_MIN  # it doubled three times
    assert all(tt_lookup(classes, dist, meta, o1, U)[0] == 2 for o1 in owners[CLASS_WAYS:])


def test_a_run_keeps_what_is_appended_while_the_window_doubles():
    # an append to a run counts as a placed entry, so it may double the window and move
    # the run's pointer with its key: the pointer's count and start must already be the
    # new ones then. Each doubling here is set off by an append of a key that moves
    _, classes = new_table(16)
    meta = np.uint64(0x0123)
    kw, owners = _classes_of_one_key(CLASS_WAYS + 8)
    rng = np.random.default_rng(10)
    fillers = iter(rng.integers(1, 1 << 62, size=(8 * WINDOW_MIN, 4), dtype=np.uint64))
    tt_store(classes, U + 1, meta, U, U, ALL, 3, 1, 9, 0, 1)  # the window opens
    used = set()
    for _ in range(3):
        w = _window_of(classes)
        dist = next(np.uint64(d) for d in range(2, 1 << 20)
                    if d not in used and int(_hash(np.uint64(d), meta))
                    & (2 * w // CLASS_WAYS - 1) >= w // CLASS_WAYS)  # a new key whose
        used.add(int(dist))  # bucket is in the upper part once doubled
        for o1 in owners[:-1]:  # its bucket full, then its run begun
            tt_store(classes, dist, meta, o1, U, kw, 60, 2, 13, 0, 1)
        while 2 * (int(classes[-HEADER_ROWS, 1]) + 1) < w:
            k = next(fillers)
            tt_store(classes, k[0], k[1] & np.uint64(0x1FFF), k[2], k[3], ALL, 3, 1, 9, 0, 1)
        tt_store(classes, dist, meta, owners[-1], U, kw, 60, 2, 13, 0, 1)  # doubles it
        assert _window_of(classes) == 2 * w
        assert all(tt_lookup(classes, dist, meta, o1, U)[0] == 2
                   for o1 in owners[CLASS_WAYS:])
