"""`bench solver` (a): the DDS comparison is fair.

DDS keeps its transposition table between calls on the same deal, so a DDS call right
after another on the same deal answers almost at once (0.15 against 15.8 ms median,
measured on the bench's deals): the benchmark must never call DDS twice in a row on one
deal, or DDS's times come out several times too low. Nothing here is timed; DDS is
replaced by a recorder (endplay need not be installed).
"""

import analyser
from bench import bench_solver


def test_dds_never_meets_the_deal_of_its_previous_call(monkeypatch):
    calls = []

    def recorder():
        def solve(pbn, trump, leader, every_card=False):
            calls.append((pbn, every_card))
            # DDS's answer: tricks of the side on lead (R20), from our own solver
            deal = analyser.parse_deal(pbn)
            return analyser.dd_tricks_partnership(deal, (leader, (leader + 2) % 4), trump,
                                                  leader)
        return solve

    monkeypatch.setattr(bench_solver, "dds_solver", recorder)
    text, _ = bench_solver.bridge_vs_dds(5)
    assert "Answers differing from DDS: 0." in text
    # after the warm-up (3 deals, both modes) every timed deal is solved once in each mode
    timed = calls[6:]
    value_only = [pbn for pbn, every in timed if not every]
    every_card = [pbn for pbn, every in timed if every]
    assert len(set(value_only)) == 5 and sorted(value_only) == sorted(every_card)
    for (a, _), (b, _) in zip(calls, calls[1:], strict=False):
        assert a != b, "DDS called twice in a row on the same deal"


def test_memory_line_counts_tables_and_ruff_memos():
    # section (c) reads the solver's tables and memos (single-solve and batch workers)
    deals = analyser.deal_random(2, seed=5)
    analyser.dd_tricks(deals[0], 0, 0, 1)
    analyser.dd_table(deals, 1)
    line = bench_solver.table_memory()
    assert "tables held after (a) and (b)" in line and "ruff game's memos" in line
    memos = int(line.split("ruff game's memos ")[1].split(" MiB")[0])
    assert memos > 0
