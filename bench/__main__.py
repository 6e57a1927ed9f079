"""Run benchmark modules and update their sections of BENCHMARKS.md.

Each module `bench/bench_<name>.py` defines `run(quick: bool) -> str`, returning a
Markdown section (without its heading). Sections are kept between markers, so running
one benchmark rewrites only its own section and keeps the others' last results.
A module may also accept `deals`, a sample size in place of its full one (`--deals N`;
the section then says so): `solver` and `run`, whose full sizes take 12 minutes
(solver) to hours (run) at the solver's present speed.
Usage: `python -m bench [--quick] [--deals N] [NAME ...]`.
"""

import argparse
import datetime
import inspect
import os
import platform
import re
import subprocess
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "BENCHMARKS.md"
HEADER = """# Benchmarks

Produced by `make bench` (`python -m bench`); each section records its machine and date.
Figures are medians over repeats unless a section says otherwise. The machines are
shared and noisy: compare ratios measured side by side in one run, not absolute numbers
across runs.
"""


def available():
    return sorted(p.stem[len("bench_"):] for p in (ROOT / "bench").glob("bench_*.py"))


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        rev = "?"
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, commit {rev}"


def update(name: str, body: str) -> None:
    text = TARGET.read_text() if TARGET.exists() else HEADER
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    section = (
        f"<!-- bench:{name} -->\n## {name}\n\n_Machine: {machine()}; date: {stamp}._\n\n"
        f"{body.strip()}\n<!-- /bench:{name} -->\n"
    )
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->\n",
                         re.S)
    text = pattern.sub(lambda _: section, text) if pattern.search(text) else text + "\n" + section
    TARGET.write_text(text)


def takes_deals(name: str) -> bool:
    """Whether benchmark `name` accepts a sample size (`run(quick, deals)`)."""
    return "deals" in inspect.signature(import_module(f"bench.bench_{name}").run).parameters


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all: {available()})")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--deals", type=int, metavar="N",
                        help="sample size for the benchmarks that take one (solver, run) in "
                             "place of their full size; the section records it")
    args = parser.parse_args()
    names = args.names or available()
    sized = {}
    if args.deals is not None:
        if args.deals < 1:
            parser.error("--deals must be at least 1")
        unsized = [n for n in names if not takes_deals(n)]
        if args.names and unsized:
            parser.error(f"benchmark {unsized[0]!r} has no sample size (--deals)")
        names = [n for n in names if n not in unsized]
        sized = {"deals": args.deals}
    for name in names:
        module = import_module(f"bench.bench_{name}")
        print(f"== {name}", flush=True)
        body = module.run(quick=args.quick, **sized)
        print(body, flush=True)
        if not args.quick:
            update(name, body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
