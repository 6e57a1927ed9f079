"""Benchmarks: `make bench` (all) or `python -m bench NAME...`; results go to BENCHMARKS.md."""
