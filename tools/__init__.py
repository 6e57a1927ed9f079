"""Research tools for the solver's kernels, apart from the user-facing benchmarks (bench/).

- `python -m tools.ab A B`: two versions of the kernels timed side by side, job by job.
- `python -m tools.nodes A [B]`: search nodes and how they end, with an answer check.
- `python -m tools.tail A [B]`: nodes and seconds of the slowest Boston searches.
- `python -m tools.instr A [B]`: instructions and mispredicted branches (valgrind).
- `python -m tools.perfmap`: where the time goes, by function and by instruction (perf).
- `python -m tools.make_dds_regression`: regenerate tests/data/dds_regression.json (DDS).

A and B are git revisions or `work` (the working tree). Nothing here writes BENCHMARKS.md.
"""
