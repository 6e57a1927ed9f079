"""The bidding model's effect: real declarer against real defenders whose worlds are
weighted by each bidding model (analyser/play.py, docs/real_play.md).

The deals, declarers and contracts of the strength benchmark (bench_strength: random full
deals, seed 2028, North on lead, the declarer a bidder's choice). Each deal is played
once per model with the same seed, so the worlds drawn are the same and only their
weights differ; the declarer's own decisions are uniform under every model, so a
difference in made rate is the defenders' doing. Models: "uniform"; "danger" (misères
weighted by the declarer's misère danger, numbers uniform; the default); "auction"
(misères as "danger", numbers by the estimate's P(the declarer's hand makes the bid)).
"""

import os

from bench import bench_strength as strength
from bench.bench_strength import SEED, _rate

HANDS = 500
KINDS = ("LM", "GM", "LS", "numeric")
MODELS = ("uniform", "danger", "auction")


def measure(n, jobs=2, seed=SEED):
    """{kind: [(hand id, dd made, [made per model])]} over hands 0..n-1."""
    return strength.measure(n, jobs, seed, KINDS, [{"bidding_model": m} for m in MODELS])


def _paired(rows, a, b):
    """Hands made under model a but not b, and under b but not a."""
    return sum(r[2][a] and not r[2][b] for r in rows), sum(r[2][b] and not r[2][a] for r in rows)


def run(quick: bool, deals: int | None = None) -> str:
    n = deals if deals is not None else (4 if quick else HANDS)
    load = os.getloadavg()[0]
    results = measure(n)
    lines = [
        f"{n} random full deals per kind (seed {SEED}, the strength benchmark's deals, "
        "declarers and contracts), real declarer against real defenders, the defenders' "
        "worlds weighted by each bidding model; declarer's made rate with its 95% Wilson "
        f"interval (lower: stronger defence); load average {load:.1f} at the start.",
        "",
        "| kind | " + " | ".join(MODELS) + " | danger vs uniform: made only under one "
        "(danger / uniform) | auction vs danger (auction / danger) |",
        "|---|" + "---:|" * (len(MODELS) + 2),
    ]
    for kind, rows in results.items():
        cells = [_rate(sum(r[2][j] for r in rows), len(rows)) for j in range(len(MODELS))]
        du = _paired(rows, 1, 0)
        ad = _paired(rows, 2, 1)
        lines.append(f"| {kind} | " + " | ".join(cells) + f" | {du[0]} / {du[1]} | "
                     f"{ad[0]} / {ad[1]} |")
    lines += ["", "The paired columns count the deals whose result differs between two "
              "models (the rest are made or failed under both); a model helps the defence "
              "when its declarer makes fewer of them. \"danger\" and \"auction\" differ on "
              "numbers only."]
    return "\n".join(lines) + "\n"
