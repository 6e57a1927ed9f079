"""`bench solver`: (a) the DDS comparison is fair; (e) the distribution's scan answers as the
pipeline does.

DDS keeps its transposition table between calls on the same deal, so a DDS call right
after another on the same deal answers almost at once (0.15 against 15.8 ms median,
measured on the bench's deals): the benchmark must never call DDS twice in a row on one
deal, or DDS's times come out several times too low. Nothing here is timed; DDS is
replaced by a recorder (endplay need not be installed).
"""

import analyser
from analyser import solver
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


def test_distribution_scans_every_job_and_agrees_with_the_batch():
    # section (e): each job of the Boston analysis solved alone (scan_deals) answers what
    # the pipeline's one batch answers (R10 tricks, R15 R17 R21 misères), in its order
    deals = analyser.deal_random(3, seed=bench_solver.DIST_SEED)
    answers, seconds = bench_solver.scan_deals(deals)
    tricks, misere = solver.solve_deals(deals, bench_solver.LEADER)
    assert answers.shape == seconds.shape == (3, 24) and (seconds > 0).all()
    assert (answers[:, :16] == tricks.reshape(3, 16)).all()
    assert (answers[:, 16:].astype(bool) == misere.reshape(3, 8)).all()
    assert bench_solver._job_names()[16:18] == ["N grand", "N little"]
    text = bench_solver.boston_distribution(4, chunk=2)
    assert "| seconds |" in text and "p99.9" in text
    assert "The slowest deals" in text and "Answers of the two runs agree" in text
