"""The real player's strength: made rates per contract kind under each pairing of policies.

Random full deals (seed 2028), North on lead (R18). Each deal is played once per pairing
of declarer and defenders' policies (analyser.play_hand with `defenders=`), on the same
deal with the same seed, so the pairings differ only in how the cards are played. The
declarer is the seat a bidder would choose: for LM, GM, LS and GS the hand of least
misère danger (analyser/features.py); for a number the seat and trump of most
double-dummy tricks (a lone declarer seldom has 5 otherwise), at that level (5 to 13).
Double-dummy columns come from the solver (dd_tricks, dd_misere, dd_little_misere with
R17's discards). Hands are played in blocks of BLOCK, each block kept under
out/bench-cache/strength/<digest of the code and shipped data>/ once played, so that a run stopped
part-way resumes with the blocks it has (about 70 minutes on 2 cores at full size).
"""

import hashlib
import json
import os
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from analyser.stats import wilson_interval

HANDS = 2000
# finished blocks of hands, by code digest (out/ is git-ignored)
STORE = Path(__file__).resolve().parent.parent / "out" / "bench-cache" / "strength"
SEED = 2028
KINDS = ("LM", "GM", "LS", "GS", "numeric")
# (declarer's policy, defenders' policy), in table order
PAIRINGS = (("real", "real"), ("real", "dd"), ("dd", "real"), ("real", "random-legal"),
            ("random-legal", "real"))


def _declarer_and_contract(deal, kind):
    """(declarer, contract, trump, double-dummy made) of a deal for `kind`."""
    from analyser import dd_little_misere, dd_misere, dd_table
    from analyser.constants import LEADER
    from analyser.features import hand_features

    if kind == "numeric":
        table = dd_table(np.asarray(deal, np.uint64)[None, :], LEADER)[0]
        declarer, trump = (int(x) for x in np.unravel_index(np.argmax(table), table.shape))
        tricks = int(table[declarer, trump])
        level = min(13, max(5, tricks))
        return declarer, str(level), trump, tricks >= level
    feats = hand_features(np.asarray(deal, np.uint64))
    declarer = int(np.argmin(feats["misere_danger"].to_numpy()))
    little = kind in ("LM", "LS")
    made = (dd_little_misere if little else dd_misere)(deal, declarer, LEADER)
    return declarer, kind, None, bool(made)


def _play(kind, ids, seed, variants=None):
    """[(hand id, dd made, [made per variant])] for hands `ids` of `kind`. A variant is a
    dict of play_hand keywords; by default the PAIRINGS (policy, defenders)."""
    import numba

    from analyser import deal_random, play_hand
    from analyser.constants import LEADER

    if variants is None:
        variants = [{"policy": p, "defenders": q} for p, q in PAIRINGS]
    numba.set_num_threads(1)
    deals = deal_random(max(ids) + 1, seed)
    out = []
    for i in ids:
        declarer, contract, trump, dd_made = _declarer_and_contract(deals[i], kind)
        made = [play_hand(deals[i], declarer, contract, LEADER, trump=trump, seed=i,
                          **variant)["made"] for variant in variants]
        out.append((i, dd_made, made))
    return out


BLOCK = 50  # hands per task and per stored block


def _source_digest():
    """A digest of the code and data that play the hands (analyser/ with its shipped data,
    such as the estimate the "auction" bidding model reads, kernels/, this file): a stored
    block counts only for the code and data that computed it."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    data = [p for p in root.glob("analyser/data/**/*") if p.is_file()]
    for path in sorted([*root.glob("analyser/**/*.py"), *data, *root.glob("kernels/**/*.py"),
                        Path(__file__).resolve()]):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _block(kind, ids, seed, variants, store):
    """`_play` over `ids`, read from `store` when that block was played by the same code."""
    key = hashlib.sha256(repr((kind, ids, seed, variants)).encode()).hexdigest()[:16]
    path = store / f"{kind}-{ids[0]}-{ids[-1]}-{key}.json" if store else None
    if path is not None and path.exists():
        return [(i, dd, made) for i, dd, made in json.loads(path.read_text())]
    rows = _play(kind, ids, seed, variants)
    if path is not None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(rows))
        tmp.replace(path)
    return rows


def measure(n, jobs=2, seed=SEED, kinds=KINDS, variants=None, store=STORE):
    """{kind: [(hand id, dd made, [made per variant])]} over hands 0..n-1 (`_play`), in
    blocks of BLOCK hands. Finished blocks are kept under `store` (None: nowhere), so an
    interrupted run resumes where it stopped."""
    if store is not None:
        store = Path(store) / _source_digest()
        store.mkdir(parents=True, exist_ok=True)
    blocks = [(kind, list(range(b, min(b + BLOCK, n)))) for b in range(0, n, BLOCK)
              for kind in kinds]
    parts = Parallel(n_jobs=jobs)(delayed(_block)(kind, ids, seed, variants, store)
                                  for kind, ids in blocks)
    out = {kind: [] for kind in kinds}
    for (kind, _), part in zip(blocks, parts, strict=True):
        out[kind].extend(part)
    return out


def _rate(made, n):
    lo, hi = wilson_interval(made, n)
    return f"{100 * made / n:.1f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def run(quick: bool, deals: int | None = None) -> str:
    n = deals if deals is not None else (4 if quick else HANDS)
    load = os.getloadavg()[0]
    results = measure(n)
    names = [f"{p} vs {q}" for p, q in PAIRINGS]
    lines = [
        f"{n} random full deals per kind (seed {SEED}), the declarer a bidder's choice (least "
        "misère danger; for a number the seat and trump of most double-dummy tricks, at that "
        "level, at least 5); default real-play settings; made rate with its 95% Wilson interval "
        f"(load average {load:.1f} at the start).",
        "",
        "| kind | double dummy | " + " | ".join(names) + " |",
        "|---|" + "---:|" * (len(names) + 1),
    ]
    for kind, rows in results.items():
        dd = sum(r[1] for r in rows)
        cells = [_rate(sum(r[2][j] for r in rows), len(rows)) for j in range(len(PAIRINGS))]
        lines.append(f"| {kind} | {_rate(dd, len(rows))} | " + " | ".join(cells) + " |")
    lines += ["", "Columns name the declarer's policy, then the defenders'. Against double-dummy "
              "defenders a real declarer makes at most what double dummy allows; against a "
              "real declarer, real defenders who see less than double-dummy ones let more "
              "contracts through."]
    return "\n".join(lines) + "\n"
