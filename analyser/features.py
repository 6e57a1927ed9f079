"""Per-hand features for the stored hands table: shape, suit lengths, high cards, misère danger.

Everything is computed column-wise with numpy over arrays of hand masks (API.md "Formats":
bit `13 * suit + rank`), through 8192-entry tables indexed by a suit's 13-bit holding, so
the features of a whole chunk cost a few array lookups rather than a Python loop per hand.

Misère-danger score (used by the report's "when should I bid little misère" chart)
--------------------------------------------------------------------------------
In a misère (R15) the declarer must never win a trick, without trump (R20). A card can be
ducked while enough lower cards of its suit are still out for the others to play above
it; the classic safe holding is a ladder of every second card, 2-4-6-8-10-Q, where each
card of yours has one lower outside card per earlier round of the suit. The score
charges every card for the rungs it stands above that ladder: the i-th lowest card held
in a suit (i = 0, 1, …) with rank r (0 = the 2 … 12 = the ace) costs

    max(0, r - 2*i - 1)

so 2, 3, 2-4, 3-5, 2-4-6-8 cost nothing, a singleton 4 costs 1, a singleton ace 11, a
bare A-K doubleton 10 + 9 = 19, and a suit missing its low cards (9-10-J) 6 + 5 + 4 = 15.
This charges exactly the three dangers named for misère hands: high cards that cannot be
ducked under low cards, short suits holding only high cards, and missing low cards. The
hand's score is the sum over its four suits: 0 for a perfectly safe hand, larger is worse.
It is a heuristic summary for tabulation, not a verdict: the stored double-dummy verdicts
(grand and little misère) are the facts it is compared against.
"""

import numpy as np
import pandas as pd

from analyser.cards import RANK_CHARS
from analyser.contracts import natural_trump

N_HOLDINGS = 1 << 13
SUIT_MASK = np.uint64(0x1FFF)
HONOUR_RANKS = {"aces": 12, "kings": 11, "queens": 10, "jacks": 9}
HCP_WEIGHTS = {"aces": 4, "kings": 3, "queens": 2, "jacks": 1}  # the 4-3-2-1 count


def holding_danger(holding: int) -> int:
    """Misère-danger charge of one 13-bit suit holding (the module docstring's formula)."""
    charge = 0
    i = 0
    for rank in range(13):
        if holding >> rank & 1:
            charge += max(0, rank - 2 * i - 1)
            i += 1
    return charge


def _holding_text(holding: int) -> str:
    """PBN text of one suit holding, high to low."""
    return "".join(RANK_CHARS[r] for r in range(12, -1, -1) if holding >> r & 1)


def _build_tables():
    """Lookup tables indexed by 13-bit holding: length, misère charge, PBN text."""
    holdings = np.arange(N_HOLDINGS, dtype=np.uint64)
    length = np.bitwise_count(holdings).astype(np.int8)
    danger = np.array([holding_danger(h) for h in range(N_HOLDINGS)], dtype=np.int16)
    text = np.array([_holding_text(h) for h in range(N_HOLDINGS)], dtype=object)
    return length, danger, text


_LENGTH, _DANGER, _TEXT = _build_tables()


def _holdings(masks) -> np.ndarray:
    """(m, 4) int64 array of the suit holdings (S, H, D, C) of an array of hand masks."""
    masks = np.asarray(masks, dtype=np.uint64).reshape(-1)
    shifts = np.array([0, 13, 26, 39], dtype=np.uint64)
    return ((masks[:, None] >> shifts[None, :]) & SUIT_MASK).astype(np.int64)


def suit_lengths(masks) -> np.ndarray:
    """(m, 4) int8 suit lengths (spades, hearts, diamonds, clubs) of an array of hand masks."""
    return _LENGTH[_holdings(masks)]


def shape_strings(lengths: np.ndarray) -> np.ndarray:
    """Shape text, longest first ("5-4-3-1"), for each row of an (m, 4) suit-length array."""
    lengths = np.asarray(lengths)
    ordered = -np.sort(-lengths.astype(np.int64), axis=1)
    key = ((ordered[:, 0] * 14 + ordered[:, 1]) * 14 + ordered[:, 2]) * 14 + ordered[:, 3]
    uniques, inverse = np.unique(key, return_inverse=True)
    names = []
    for k in uniques.tolist():
        parts = []
        for _ in range(4):
            parts.append(k % 14)
            k //= 14
        names.append("-".join(str(p) for p in reversed(parts)))
    return np.array(names, dtype=object)[inverse]


def honour_counts(masks) -> dict[str, np.ndarray]:
    """Counts (int8) of aces, kings, queens and jacks in each hand mask."""
    masks = np.asarray(masks, dtype=np.uint64).reshape(-1)
    counts = {}
    for name, rank in HONOUR_RANKS.items():
        rank_mask = np.uint64(sum(1 << (13 * s + rank) for s in range(4)))
        counts[name] = np.bitwise_count(masks & rank_mask).astype(np.int8)
    return counts


def high_card_points(counts: dict[str, np.ndarray]) -> np.ndarray:
    """4-3-2-1 points (int8) from the honour counts of `honour_counts`."""
    total = sum(HCP_WEIGHTS[name] * counts[name].astype(np.int16) for name in HCP_WEIGHTS)
    return total.astype(np.int8)


def misere_danger(masks) -> np.ndarray:
    """Misère-danger score (int16, module docstring) of each hand mask: 0 safe, higher worse."""
    return _DANGER[_holdings(masks)].sum(axis=1).astype(np.int16)


def hand_texts(masks) -> np.ndarray:
    """PBN text of each hand mask ("AKQ.JT9.876.5432"), as an object array of str."""
    text = _TEXT[_holdings(masks)]
    return text[:, 0] + "." + text[:, 1] + "." + text[:, 2] + "." + text[:, 3]


def natural_trumps(masks) -> np.ndarray:
    """The trump each hand's declarer would name from its own hand (contracts.natural_trump)."""
    masks = np.asarray(masks, dtype=np.uint64).reshape(-1)
    return np.array([natural_trump(int(m)) for m in masks], dtype=np.int8)


def hand_features(masks) -> pd.DataFrame:
    """Feature columns of the hands table for an array of hand masks, one row per mask."""
    masks = np.asarray(masks, dtype=np.uint64).reshape(-1)
    lengths = suit_lengths(masks)
    counts = honour_counts(masks)
    columns = {
        "hand": masks,
        "pbn": hand_texts(masks),
        "shape": shape_strings(lengths),
        "len_s": lengths[:, 0],
        "len_h": lengths[:, 1],
        "len_d": lengths[:, 2],
        "len_c": lengths[:, 3],
        **counts,
        "hcp": high_card_points(counts),
        "misere_danger": misere_danger(masks),
        "natural_trump": natural_trumps(masks),
    }
    frame = pd.DataFrame(columns)
    frame["pbn"] = frame["pbn"].astype(str)
    frame["shape"] = frame["shape"].astype(str)
    return frame
