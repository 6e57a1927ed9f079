"""Run benchmark modules and rewrite their sections of BENCHMARKS.md.

Each module `bench/bench_<name>.py` defines `run(quick: bool) -> str`, returning the
Markdown body of its section (the figures). A module may also accept `deals`, a sample
size in place of its full one (`--deals N`; the section then says so).

BENCHMARKS.md is generated: a header with one row per benchmark (what, target, latest
result, commit and date), then one section per benchmark, whose heading and "measures /
target" lines come from `BENCHMARKS` below and whose figures sit between
`<!-- bench:NAME -->` markers, then the solver's trend table between
`<!-- trend:solver -->` markers. Running one benchmark rewrites the header and its own
figures, keeps every other section's last figures and the trend table's rows, and (a
full-size solver run) adds its row to the trend table.
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

# name -> (title, what it measures, target); the file's sections follow this order.
BENCHMARKS = {
    "solver": (
        "the double-dummy solver",
        "(a) bridge mode against DDS (SolveBoard through endplay, one thread, asked for the "
        "value alone) on 500 random deals, side by side deal by deal; (b) the Boston "
        "analysis of a deal (4 declarers x 4 trumps, grand and little misère) in deals/s "
        "on 1 and 2 threads; (c) transposition-table memory; (d) numba's cold and warm "
        "compile time; (e) the Boston analysis over 2,000 random deals: deals/s on 1 and 2 "
        "threads, the per-deal time's p50-p99.9 and max, the slowest searches.",
        "bridge: our median time per solve at most 1.0x DDS value-only (stretch 0.7x); "
        "Boston: 25 deals/s on 2 cores sustained over 2,000 random deals, no deal above 2 s "
        "on one thread.",
    ),
    "run": (
        "the `run` pipeline end to end",
        "`analyser run` on random deals in chunks (dealing, solving, storing, aggregating, "
        "the report) on 1 and 2 jobs, and the share of wall time spent outside the kernels.",
        "time outside the kernels under 5% of the wall time.",
    ),
    "hand": (
        "single-hand analysis",
        "`analyse_hand` on four kinds of hand: samples solved per second, and how many "
        "samples the command's default budget of about 10 s buys.",
        "no fixed figure: the default run should gather hundreds of samples (at most "
        "1000) in about 10 s.",
    ),
    "session": (
        "12-hand sessions",
        "`boston-analyser session` under double-dummy play: milliseconds per hand split into "
        "dealing, auction, play and settlement, and the projected time of 10,000 sessions "
        "(120,000 hands) on 2 cores.",
        "10,000 sessions with double-dummy play in at most 30 minutes on 2 cores.",
    ),
    "dask": (
        "the Dask backend against joblib",
        "`run` on 400 deals in chunks of 10 with joblib and with Dask on a LocalCluster of "
        "as many single-threaded workers as cores, interleaved, 3 repeats, each run starting "
        "its own workers; the per-deal cost, Dask's per-task overhead and start-up, and the "
        "estimated wall time of 1,000,000 deals on N workers.",
        "Dask at most 1.10x joblib's wall time on 400 deals; summary.csv byte-identical.",
    ),
    "dealing": (
        "dealing kernels",
        "`deal_random`, `deal_with` and `deal_known` in deals/s on 1 and 2 threads, "
        "against a numpy permutation baseline.",
        "about 10,000,000 deals/s per core and at least 30x the numpy baseline.",
    ),
    "playout": (
        "random-legal play",
        "full deals played out by the random-legal policy (trick counts, and recorded "
        "play) in hands/s on 1 and 2 threads.",
        "2,000,000 hands/s per core.",
    ),
    "play": (
        "real play, seconds per hand",
        "`play_hand` with the real player (default settings) on random full deals: LM, GM, "
        "LS, GS and a numeric contract (natural trump, the double-dummy level), one thread "
        "per hand: mean, p50-p99 and max per kind, the slowest hands named.",
        "mean at most 0.2 s a hand for LM and GM, at most 1 s for the numeric contract, "
        "over at least 200 hands per kind.",
    ),
    "strength": (
        "the real player's strength",
        "made rates per contract kind on the same deals under each pairing of the "
        "declarer's and the defenders' policies (real, double-dummy, random-legal), beside "
        "the double-dummy rate, with 95% intervals.",
        "a table from at least 2,000 hands per kind.",
    ),
    "models": (
        "the bidding model's effect on real defence",
        "made rates of a real declarer against real defenders whose sampled worlds are "
        "weighted by each bidding model (uniform, danger, auction), on the strength "
        "benchmark's deals, with the deals whose result differs between two models.",
        "a table from at least 500 hands per kind.",
    ),
    "scores": (
        "scoring every card (real play)",
        "`score_cards` (every card's double-dummy value) against the single-value solve of "
        "the same position, side by side, on random full deals: a numeric contract and a "
        "grand misère, at the first lead and at the second hand.",
        "scoring every card at most 2x the single-value solve (median ratio per position).",
    ),
}

HEADER = """# Benchmarks

Current results, produced by `make bench` (`python -m bench`; one benchmark:
`python -m bench NAME`). Each section states what it measures and its target, then the
figures of its latest run with the machine, commit and date they come from (a run on
fewer deals than the full size says so).
The machines are shared and noisy: compare ratios measured side by side in one run, not
absolute numbers across runs. This file is generated by `bench/__main__.py`; older
figures are in git history.

| benchmark | what | target | latest result | commit, date |
|---|---|---|---|---|
"""

TREND_START = "<!-- trend:solver -->"
TREND_END = "<!-- /trend:solver -->"
TREND = """## Trend: the solver against DDS

Full-size `python -m bench solver` runs, one per solver version (each such run adds its
row): bridge mode, our time per solve over DDS value-only's on the same 500 deals (lower
is better; target at most 1.0), and the Boston analysis on 2 threads. Machines differ
between rows (AMD EPYC and Intel Xeon, 2 cores, shared), so only the ratios compare
across rows.

| date | commit | median ratio | mean ratio | Boston deals/s, 2 threads |
|---|---|---:|---:|---:|
"""

_RATIO = re.compile(r"Ratio ours/DDS value only: median ([\d.]+), mean ([\d.]+)")
_BOSTON_2 = re.compile(r"^\| 2 \| one batch[^|]*\| ([\d.]+) \|", re.M)
_STAMP = re.compile(r"commit (\w+); date: (\d{4}-\d{2}-\d{2})")
# name -> (pattern, summary): the header's one-line result of a section's figures, read
# from the lines its benchmark writes; a section whose figures lack them reads "below"
_RESULTS = {
    "solver": (_RATIO, "median {0}x, mean {1}x DDS value-only"),
    "run": (re.compile(r"^\| 1 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| ([\d.]+%) \|", re.M),
            "{0} of the wall time outside the kernels (1 job)"),
    "hand": (re.compile(r"Median over these hands: ([\d.]+) samples/s"),
             "median {0} samples/s"),
    "dealing": (re.compile(r"^\| kernel deal_random \| 1 \| [\d,]+ \| ([\d,]+) \| [\d.]+ \| "
                           r"([\d.]+) \|", re.M),
                "`deal_random` {0} deals per CPU-second, {1}x the baseline"),
    "scores": (re.compile(r"median ratio ([\d.]+) at most"),
               "every card at most {0}x the single value (median)"),
    "play": (re.compile(r"^\| LM \| \d+ \| \d+ \| ([\d.]+) \|.*\n\| GM \| \d+ \| \d+ \| ([\d.]+) \|"
                        r".*(?:\n.*)*?\n\| numeric \| \d+ \| \d+ \| ([\d.]+) \|", re.M),
             "mean LM {0} s, GM {1} s, numeric {2} s a hand"),
    "strength": (re.compile(r"^\| LM \| ([\d.]+%)[^|]*\| ([\d.]+%)", re.M),
                 "LM made {0} double-dummy, {1} real against real"),
    "models": (re.compile(r"^\| numeric \| ([\d.]+%)[^|]*\| ([\d.]+%)[^|]*\| ([\d.]+%)", re.M),
               "numeric made {0} uniform, {1} danger, {2} auction"),
    "session": (re.compile(r"^\| standard \|[^\n]*\| ([\d.]+) / ([\d.]+) min \|", re.M),
                "10,000 sessions in {0} min of wall time ({1} min of CPU), standard strategy"),
    "dask": (re.compile(r"Dask/joblib wall time: ([\d.]+)"), "Dask {0}x joblib's wall time"),
    "playout": (re.compile(r"^\| trick counts \| 1 \| [\d,]+ \| [\d,]+ \| ([\d,]+) \|", re.M),
                "{0} hands per CPU-second"),
}


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


def _figures(text: str) -> dict[str, str]:
    """Each benchmark's figures (the text between its markers) found in `text`."""
    found = {}
    for match in re.finditer(r"<!-- bench:(\w+) -->\n(.*?)<!-- /bench:\1 -->\n", text, re.S):
        name, figures = match.groups()
        # a section written with its heading inside the markers keeps only its figures
        found[name] = re.sub(rf"\A## {re.escape(name)}\n\n", "", figures)
    return found


def _trend_rows(text: str) -> list[str]:
    """The rows of the trend table in `text` (between its markers, below its heading)."""
    start, end = text.find(TREND_START), text.find(TREND_END)
    if start < 0 or end < start:
        return []
    block = text[start:end].split("|---|", 1)
    if len(block) < 2:
        return []
    return [line for line in block[1].splitlines()[1:] if line.startswith("| ")]


def trend_row(figures: str) -> str | None:
    """The trend table's row for a solver section's figures, or None without a ratio."""
    ratio, stamp = _RATIO.search(figures), _STAMP.search(figures)
    if ratio is None or stamp is None:
        return None
    boston = _BOSTON_2.search(figures)
    commit, date = stamp.groups()
    return (f"| {date} | {commit} | {ratio.group(1)} | {ratio.group(2)} | "
            f"{boston.group(1) if boston else '-'} |")


def result(name: str, figures: str) -> str:
    """The one-line result of benchmark `name`'s figures for the header's table."""
    pattern, summary = _RESULTS.get(name, (None, ""))
    found = pattern.search(figures) if pattern is not None else None
    if found is None:
        return "below" if figures else "not run"
    text = summary.format(*found.groups())
    if name == "solver" and (boston := _BOSTON_2.search(figures)):
        text += f"; Boston {boston.group(1)} deals/s on 2 threads"
    return text


def render(figures: dict[str, str], trend_rows: list[str]) -> str:
    """The whole file: header, one section per benchmark with figures, the trend table."""
    names = [n for n in BENCHMARKS if n in figures] + sorted(set(figures) - set(BENCHMARKS))
    rows = ""
    for name, (title, _, target) in BENCHMARKS.items():
        stamp = _STAMP.search(figures.get(name, ""))
        latest = f"{stamp.group(1)}, {stamp.group(2)}" if stamp else "-"
        rows += (f"| {name} | {title} | {target} | {result(name, figures.get(name, ''))} "
                 f"| {latest} |\n")
    parts = [HEADER + rows]
    for name in names:
        title, measures, target = BENCHMARKS.get(name, ("", "", ""))
        heading = f"## {name}" + (f": {title}" if title else "")
        intro = f"**Measures:** {measures}\n\n**Target:** {target}\n\n" if measures else ""
        parts.append(f"{heading}\n\n{intro}<!-- bench:{name} -->\n{figures[name]}"
                     f"<!-- /bench:{name} -->\n")
    parts.append(f"{TREND_START}\n{TREND}" + "".join(r + "\n" for r in trend_rows)
                 + f"{TREND_END}\n")
    return "\n".join(parts)


def update(name: str, body: str, sized: bool = False) -> None:
    """Rewrite benchmark `name`'s figures in TARGET, keeping the others and the trend
    table; a full-size solver run (`sized` False) also adds its row to the trend table."""
    text = TARGET.read_text() if TARGET.exists() else ""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    figures = _figures(text)
    figures[name] = f"_Machine: {machine()}; date: {stamp}._\n\n{body.strip()}\n"
    rows = _trend_rows(text)
    row = trend_row(figures[name]) if name == "solver" and not sized else None
    if row is not None and row not in rows:
        rows.append(row)
    TARGET.write_text(render(figures, rows))


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
            update(name, body, sized=bool(sized))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
