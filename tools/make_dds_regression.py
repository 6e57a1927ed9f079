"""Regenerate tests/data/dds_regression.json: random full deals with DDS's double-dummy tables.

DDS (the reference bridge solver, through endplay's `calc_all_tables`) answers the bridge
question: the tricks of declarer's side (declarer and partner) when declarer's left-hand
opponent leads. tests/test_solver_dds.py checks `dd_tricks_partnership` against them.

Stored per deal: the PBN text and `tricks[strain][declarer]`, strains in OUR suit order
S, H, D, C then NT (suit ids 0..3, then -1), declarers N, E, S, W (seats 0..3). endplay's
Denom is spades=0, hearts=1, diamonds=2, clubs=3, nt=4 and its Player north=0 .. west=3,
but its printed tables run clubs first; every cell is read by name (table[denom, player])
so no list ordering is trusted.

Deals come from Python's `random.Random(seed)` shuffles, not from the project's dealer,
so the file does not change when the dealing code does.
Usage: `python -m tools.make_dds_regression` [--deals 1100] [--seed 20260101]
"""

import argparse
import json
import random
from pathlib import Path

from endplay.dds import calc_all_tables, calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "tests" / "data" / "dds_regression.json"
STRAINS = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]  # our order
STRAIN_TRUMP = [0, 1, 2, 3, -1]  # our trump id of each stored strain
PLAYERS = [Player.north, Player.east, Player.south, Player.west]  # seats 0..3
RANKS = "23456789TJQKA"
BATCH = 32  # DDS's CalcAllTables takes at most 32 deals x 5 strains per call


def random_deal_pbn(rng: random.Random) -> str:
    """PBN "N:..." of a uniformly random full deal (hands N, E, S, W; suits S.H.D.C)."""
    cards = list(range(52))
    rng.shuffle(cards)
    hands = []
    for seat in range(4):
        held = set(cards[13 * seat:13 * seat + 13])
        suits = []
        for suit in range(4):
            suits.append("".join(RANKS[r] for r in range(12, -1, -1) if 13 * suit + r in held))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def table_rows(table) -> list[list[int]]:
    """tricks[strain][declarer] in our orders, each cell read by (Denom, Player)."""
    return [[int(table[denom, player]) for player in PLAYERS] for denom in STRAINS]


def leader_side_tricks(pbn: str, trump: Denom, leader: Player) -> int:
    """DDS SolveBoard: the most tricks the side of `leader`, who leads, can take."""
    deal = Deal(pbn)
    deal.first, deal.trump = leader, trump
    return max(score for _, score in solve_board(deal))


def check_orientation(rng: random.Random) -> None:
    """Fail loudly if endplay's strain/declarer/lead conventions are not the ones assumed."""
    # N holds every spade, E every heart, S every diamond, W every club. With its own suit
    # trump a seat's side takes all 13 whoever leads; a strain order other than S, H, D, C
    # (e.g. clubs first) would put 0 on this diagonal. At no trump the side on lead runs
    # its suit, so the declarer's side takes 0: the lead is not the declaring side's.
    pbn = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    rows = table_rows(calc_dd_table(Deal(pbn)))
    assert all(rows[seat][seat] == 13 for seat in range(4)), rows
    assert rows[4] == [0, 0, 0, 0], rows
    # The lead is by declarer's LEFT (not right) opponent: every cell equals 13 minus
    # SolveBoard's answer for the defenders with declarer + 1 on lead (one random deal,
    # one suit and no trump: each SolveBoard call is slow on a loaded machine).
    for _ in range(1):
        pbn = random_deal_pbn(rng)
        rows = table_rows(calc_dd_table(Deal(pbn)))
        for i, denom in enumerate(STRAINS):
            if denom not in (Denom.hearts, Denom.nt):
                continue
            for seat in range(4):
                lho = PLAYERS[(seat + 1) % 4]
                assert rows[i][seat] == 13 - leader_side_tricks(pbn, denom, lho), (pbn, i, seat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1100)
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--out", type=Path, default=TARGET)
    args = parser.parse_args()
    check_orientation(random.Random(-1))
    print("endplay orientation checked", flush=True)
    rng = random.Random(args.seed)
    pbns = [random_deal_pbn(rng) for _ in range(args.deals)]
    rows = []
    for start in range(0, len(pbns), BATCH):
        chunk = pbns[start:start + BATCH]
        tables = calc_all_tables([Deal(p) for p in chunk])
        rows += [table_rows(tables[i]) for i in range(len(chunk))]
        print(f"{start + len(chunk)}/{len(pbns)}", flush=True)
    header = {
        "source": "DDS through endplay calc_all_tables (endplay "
                  f"{__import__('endplay').__version__})",
        "seed": args.seed,
        "generator": "tools/make_dds_regression.py",
        "tricks": "tricks[strain][declarer]: tricks of declarer's side (declarer and partner) "
                  "with the opening lead by declarer's left (seat declarer+1)",
        "strains": ["S", "H", "D", "C", "NT"],
        "strain_trump": STRAIN_TRUMP,
        "declarers": ["N", "E", "S", "W"],
    }
    # One deal per line keeps the file readable and its diffs small.
    lines = [json.dumps({"pbn": p, "tricks": r}, separators=(",", ":"))
             for p, r in zip(pbns, rows, strict=True)]
    text = ('{"meta": ' + json.dumps(header) + ',\n"deals": [\n' + ",\n".join(lines) + "\n]}\n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    json.loads(text)  # well-formed
    print(f"wrote {len(pbns)} deals to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
