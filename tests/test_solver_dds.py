"""The solver in bridge mode against DDS, the established bridge double-dummy solver.

tests/data/dds_regression.json (made by `python -m tools.make_dds_regression` with endplay) holds
random full deals with DDS's table: tricks[strain][declarer], strains S, H, D, C, NT and
declarers N, E, S, W. A bridge table cell is the tricks of declarer's SIDE (declarer and
partner) with the opening lead by declarer's left-hand opponent, which is
`dd_tricks_partnership(deal, (d, d + 2), trump, leader=d + 1)` here (seats mod 4).
By default a small sample of cells of stored deals runs (sized to the solver's present
speed in bridge mode); `make verify` (BOSTON_FULL=1) runs all 20 cells of every stored
deal, and fresh random deals are checked live when endplay is importable.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import sized

import analyser
from analyser.cards import parse_deal

DATA = Path(__file__).resolve().parent / "data" / "dds_regression.json"
STRAIN_TRUMP = [0, 1, 2, 3, -1]  # stored strain order S, H, D, C, NT -> our trump id


def load():
    """The stored deals as (pbn, tricks[strain][declarer]) pairs, orders checked."""
    data = json.loads(DATA.read_text())
    meta = data["meta"]
    assert meta["strains"] == ["S", "H", "D", "C", "NT"] and meta["strain_trump"] == STRAIN_TRUMP
    assert meta["declarers"] == ["N", "E", "S", "W"]
    return [(d["pbn"], d["tricks"]) for d in data["deals"]]


def bridge_cell(deal, declarer, trump):
    """Our answer to one bridge DD table cell (see the module docstring)."""
    side = (declarer, (declarer + 2) % 4)
    return analyser.dd_tricks_partnership(deal, side, trump, (declarer + 1) % 4)


def compare(stored, cells=None):
    """Disagreements between our bridge cells and DDS's over (pbn, table) pairs: every
    (strain, declarer) cell, or only those listed per deal in `cells`."""
    failures = []
    for j, (pbn, table) in enumerate(stored):
        deal = parse_deal(pbn)
        for i, trump in enumerate(STRAIN_TRUMP):
            for declarer in range(4):
                if cells is not None and (i, declarer) not in cells[j]:
                    continue
                got = bridge_cell(deal, declarer, trump)
                if got != table[i][declarer]:
                    failures.append(
                        f"{pbn} partnership side=({declarer},{(declarer + 2) % 4}) "
                        f"trump={trump} leader={(declarer + 1) % 4}: "
                        f"expected {table[i][declarer]} (DDS), got {got}")
    return failures


def check(stored, cells=None):
    failures = compare(stored, cells)
    total = 20 * len(stored) if cells is None else sum(len(c) for c in cells)
    assert not failures, (f"{len(failures)} of {total} cells differ from DDS:\n"
                          + "\n".join(failures[:8]))


def test_regression_file_is_sound():
    stored = load()
    assert len(stored) >= 1000  # `make verify` must compare at least 1,000 deals
    for pbn, table in stored[:50]:
        deal = parse_deal(pbn)
        assert [int(h).bit_count() for h in deal] == [13] * 4
        assert len(table) == 5 and all(len(row) == 4 for row in table)
        assert all(0 <= t <= 13 for row in table for t in row)


def test_bridge_tables_match_dds_sample():
    # Sized to the solver's present speed in bridge mode (about 0.2 s median per full-deal
    # solve, a few seconds at worst): every cell (5 strains x 4 declarers) of the first 4
    # stored deals. Full coverage (1,100 deals x 20 cells): `make verify`.
    check(load()[:4])


@pytest.mark.slow
def test_bridge_tables_match_dds_all_stored():
    stored = load()
    check(stored[:sized(40, len(stored))])


# Fresh deals take unpredictable time (some full deals need minutes at the solver's present
# speed), so the live check runs only under `make verify`.
@pytest.mark.slow
@pytest.mark.parametrize("scale", ["quick", "full"])
def test_bridge_tables_match_dds_live(scale):
    dds = pytest.importorskip("endplay.dds")
    from endplay.types import Deal, Denom, Player

    strains = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    players = [Player.north, Player.east, Player.south, Player.west]
    n = 1 if scale == "quick" else sized(1, 100)
    deals = analyser.deal_random(n, seed=31337 + n)
    stored = []
    for deal in deals:
        pbn = analyser.format_deal(np.asarray(deal))
        table = dds.calc_dd_table(Deal(pbn))
        stored.append((pbn, [[int(table[s, p]) for p in players] for s in strains]))
    if scale == "quick":  # one cell (see the sample test)
        check(stored[:1], [{(4, 0)}])
    else:
        check(stored)
