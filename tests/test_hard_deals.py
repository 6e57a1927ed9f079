"""The solver's answers on the hardest Boston deals found by scanning random deals
(tests/data/hard_boston.json, written by `python -m tools.hard_deals`): tricks per seat
and trump (R10, R20) and grand and little misère per seat (R15, R17, R21) stay those
stored. These deals hold the searches that take longest (made misères above all), where
a change to the misère rules or the table would show first. By default the three
quickest; all of them under BOSTON_FULL=1. A row with `table_mib` is solved with
transposition tables of that size (its proof overflows the default ones, and takes
tens of minutes there)."""

import json
from pathlib import Path

import numpy as np
import pytest

import analyser
from analyser import solver
from tests.conftest import sized

DATA = Path(__file__).parent / "data" / "hard_boston.json"
ROWS = sorted(json.loads(DATA.read_text()), key=lambda r: r["seconds"])


def test_hard_deals_are_stored_with_whole_answers():
    # at least ten deals, each with a 4 x 4 trick table and four grand and little results
    assert len(ROWS) >= 10
    for row in ROWS:
        assert np.array(row["tricks"]).shape == (4, 4)
        assert len(row["grand"]) == len(row["little"]) == 4
        assert row["leader"] in "NESW"


@pytest.mark.parametrize("row", ROWS[:sized(3, len(ROWS))], ids=lambda r: r["slowest"])
def test_r10_r15_r17_r21_hard_deals_keep_their_answers(row, request):
    deal = analyser.parse_deal(row["deal"])
    if "table_mib" in row:
        saved = solver._TABLE_MIB, solver._PROCESS_MIB
        request.addfinalizer(lambda: solver.set_table_memory(*saved))
        solver.set_table_memory(row["table_mib"], 2 * row["table_mib"])
    tricks, misere = solver.solve_deals(deal[None, :], "NESW".index(row["leader"]))
    assert tricks[0].tolist() == row["tricks"]
    assert misere[0, :, 0].tolist() == row["grand"]
    assert misere[0, :, 1].tolist() == row["little"]
