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
    text, ratio = bench_solver.bridge_vs_dds(5)
    assert "Answers differing from DDS: 0." in text
    assert ratio > 0
    # every deal is solved once in each DDS mode after the warm-up
    timed = calls[6:]
    assert sum(not every for _, every in timed) == 5 and sum(every for _, every in timed) == 5
    for (a, _), (b, _) in zip(calls, calls[1:], strict=False):
        assert a != b, "DDS called twice in a row on the same deal"
