"""Play rules at the Python boundary: legal cards (R19), trick winners (R20) and playouts.

These check their input and name the bad field (CardError, a ValueError), then call the
kernels in kernels/rules.py and kernels/playout.py.
"""

import numpy as np

from analyser.cards import ALL_CARDS, CardError, parse_seat, parse_suit
from kernels import playout as _playout
from kernels import rules as _rules
from kernels.policies import POLICY_IDS
from kernels.rng import root_key


def _hand_mask(hand, field="hand") -> int:
    """A hand mask (Python int or numpy integer) checked to hold only the 52 cards."""
    if isinstance(hand, bool) or not isinstance(hand, (int, np.integer)):
        raise CardError(f"{field} must be an integer card mask, got {type(hand).__name__}")
    mask = int(hand)
    if mask < 0 or mask & ~ALL_CARDS:
        raise CardError(f"{field} mask {mask:#x} has bits outside the 52 cards")
    return mask


def _card_id(card, field) -> int:
    """A card id 0..51."""
    if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or not 0 <= card <= 51:
        raise CardError(f"{field} {card!r} is not a card id 0..51")
    return int(card)


def legal_cards(hand, led_suit) -> int:
    """Mask of the cards of `hand` that may be played; `led_suit` -1 when leading (R19)."""
    mask = _hand_mask(hand)
    suit = parse_suit(led_suit)
    return int(_rules.legal_cards(np.uint64(mask), suit))


def trick_winner(cards, leader, trump) -> int:
    """Seat that wins a trick whose 4 card ids are given in play order starting with `leader`
    (R20; `trump` -1 for no trump)."""
    try:
        cards = list(cards)
    except TypeError:
        raise CardError(
            f"cards must be a sequence of 4 card ids, got {type(cards).__name__}"
        ) from None
    if len(cards) != 4:
        raise CardError(f"cards must hold 4 card ids (one per seat), got {len(cards)}")
    ids = [_card_id(c, f"cards[{i}]") for i, c in enumerate(cards)]
    if len(set(ids)) != 4:
        dup = next(c for c in ids if ids.count(c) > 1)
        raise CardError(f"cards holds card id {dup} twice")
    seat = parse_seat(leader)
    suit = parse_suit(trump)
    return int(_rules.trick_winner(np.array(ids, dtype=np.int64), seat, suit))


def _per_deal(value, n, parse, field) -> np.ndarray:
    """A scalar or length-n sequence of seats/suits as an int64 array of length n."""
    if isinstance(value, (str, int, np.integer)):
        return np.full(n, parse(value), dtype=np.int64)
    try:
        values = list(value)
    except TypeError:
        raise CardError(f"{field} {value!r} is neither one value nor one per deal") from None
    if len(values) != n:
        raise CardError(f"{field} has {len(values)} entries for {n} deals")
    return np.array([parse(v) for v in values], dtype=np.int64)


def _parse_declarer(seat) -> int:
    """Declarer seat, or -1 (also None) for none: misère partout (R14)."""
    if seat is None or (isinstance(seat, (int, np.integer)) and seat == -1):
        return -1
    return parse_seat(seat)


def _check_deals(deals) -> np.ndarray:
    """Deals as a C-contiguous (n, 4) uint64 array: disjoint hands of equal size."""
    arr = np.asarray(deals)
    if arr.ndim == 1 and arr.shape == (4,):
        raise CardError("deals must have shape (n, 4); wrap one deal as deals[None]")
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise CardError(f"deals must have shape (n, 4), got {arr.shape}")
    if arr.dtype != np.uint64:
        if not np.issubdtype(arr.dtype, np.integer) or (arr.size and arr.min() < 0):
            raise CardError(f"deals must hold uint64 hand masks, got dtype {arr.dtype}")
        arr = arr.astype(np.uint64)
    arr = np.ascontiguousarray(arr)
    if arr.size == 0:
        return arr
    if np.any(arr & ~np.uint64(ALL_CARDS)):
        row = int(np.nonzero(np.any(arr & ~np.uint64(ALL_CARDS), axis=1))[0][0])
        raise CardError(f"deals[{row}] has bits outside the 52 cards")
    union = arr[:, 0] | arr[:, 1] | arr[:, 2] | arr[:, 3]
    counts = np.bitwise_count(arr)
    overlap = np.bitwise_count(union) != counts.sum(axis=1)
    if overlap.any():
        raise CardError(f"deals[{int(np.argmax(overlap))}]: a card is in two hands")
    unequal = (counts != counts[:, :1]).any(axis=1)
    if unequal.any():
        row = int(np.argmax(unequal))
        raise CardError(f"deals[{row}]: hands hold unequal numbers of cards {counts[row].tolist()}")
    return arr


def playout(deals, trump, leader, policy="random-legal", seed=0, record=False, declarer=None):
    """Play every deal to the end under a play policy (R18-R20); per-seat trick counts.

    `deals` (n, 4) uint64 (hands of equal size k <= 13, endings allowed); `trump` and
    `leader` a seat/suit or one per deal (trump -1: none, as in misère, R20); `policy` a name
    from `kernels.policies.POLICY_IDS`; `declarer` a seat (or one per deal) for policies that
    play by role, None for none. The same `seed` gives the same result whatever the number
    of threads. Returns tricks (n, 4) int8; with `record=True` returns
    `(tricks, plays, winners)`: plays (n, 4m) int8 card ids in play order, trick by trick
    with the leader first, and winners (n, m) int8 each trick's winning seat, m the largest
    hand size, padded with -1 after a deal's last trick.
    """
    policy_id = POLICY_IDS.get(policy) if isinstance(policy, str) else None
    if policy_id is None:
        raise CardError(f"policy {policy!r} is not one of {', '.join(sorted(POLICY_IDS))}")
    arr = _check_deals(deals)
    n = arr.shape[0]
    trumps = _per_deal(trump, n, parse_suit, "trump")
    leaders = _per_deal(leader, n, parse_seat, "leader")
    if declarer is None or isinstance(declarer, (str, int, np.integer)):
        declarers = np.full(n, _parse_declarer(declarer), dtype=np.int64)
    else:
        declarers = _per_deal(declarer, n, _parse_declarer, "declarer")
    try:
        root = root_key(seed)
    except (TypeError, ValueError) as exc:
        raise CardError(f"seed {seed!r} is not a non-negative integer: {exc}") from None
    tricks = np.zeros((n, 4), dtype=np.int8)
    if not record:
        _playout.playout_tricks(arr, trumps, leaders, declarers, policy_id, root, tricks)
        return tricks
    m = int(np.bitwise_count(arr[:, 0]).max()) if n else 0
    plays = np.full((n, 52), -1, dtype=np.int8)
    winners = np.full((n, 13), -1, dtype=np.int8)
    _playout.playout_record(arr, trumps, leaders, declarers, policy_id, root, tricks, plays,
                            winners)
    return tricks, plays[:, : 4 * m].copy(), winners[:, :m].copy()


__all__ = ["legal_cards", "trick_winner", "playout"]
