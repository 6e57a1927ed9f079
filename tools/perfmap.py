"""Where the solver's time goes, by function and by instruction: perf with a map of numba's code.

perf cannot name the functions numba compiles in memory: it shows bare addresses. This
runs `tools.ab`'s jobs (the Boston analysis's numeric contracts, misères or both on
seed-777 deals, or the solver bench's bridge jobs) in a child process under `perf record`.
The child compiles the kernels from an empty numba cache, because a library loaded from
the cache has no module whose functions can be listed. It then writes the perf map
`/tmp/perf-PID.map` (each compiled function's address, from
`library.get_pointer_to_function`, its size up to the next one) and a copy of the machine
code of the functions named by `--function` (default the search's loop,
`search._search`). After that it solves the jobs.

The parent then reads the samples (`perf script`) and prints:
- each kernel function's share of the kernels' samples;
- the instructions of each such function that took the most samples, disassembled by `objdump`,
  with the few instructions before each (a sample often lands just after the
  instruction that waited).

With `--lines` the kernels are compiled with a line table (numba's debug info reduced to
its line directives, `line_tables_only`: inlined as without it, where numba's plain
`debug=True` marks every function `noinline`; on the bridge jobs the shares by function
matched the normal build's within a percent), and the samples of each `--function` are
also summed by source line (`readelf` reads the table from the library's object code). The
table names a callee that LLVM inlines by its own file, but one that numba inlines itself
(`inline="always"`, such as `order_moves` in the search) under the caller's file with the
callee's line numbers: beside each line of the function's own file the report also names
the lines of that number in such callees (`or FILE:LINE`), and a text that does not fit is
one of those.

Usage: `python -m tools.perfmap [--deals LO:HI] [--jobs num|mis|all|bridge]
[--leader SEAT] [--strain S|H|D|C|NT] [--function MODULE.NAME ...] [--lines] [--out DIR]`.
It needs `perf` (and `objdump` for the instructions, `readelf` for `--lines`) and leaves
perf.data and the code copy in DIR (default out/perfmap).
"""

import argparse
import bisect
import collections
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.ab import ROOT, _tasks, deal_range, job_options
from tools.nodes import count

HOT = "search._search"  # the default function whose instructions are counted


def _compiled_libraries(dispatchers):
    """(library, names of the functions it defines) of each code library compiled for
    `dispatchers` in this process, once each (one loaded from numba's cache has no module
    to list)."""
    seen = set()
    for f in dispatchers:
        for cres in f.overloads.values():
            lib = cres.library
            if id(lib) in seen:
                continue
            seen.add(id(lib))
            module = getattr(lib, "_final_module", None)
            if module is not None:
                yield lib, [fn.name for fn in module.functions if not fn.is_declaration]


def perf_map_entries(dispatchers) -> list:
    """(address, size, symbol) of every function compiled for `dispatchers` in this
    process (not those loaded from numba's cache), sorted by address; a function's size
    runs to the next address (at most 1 MiB)."""
    found = set()
    for lib, names in _compiled_libraries(dispatchers):
        for name in names:
            try:
                addr = lib.get_pointer_to_function(name)
            except Exception:  # noqa: BLE001 - a symbol the library does not export
                continue
            if addr:
                found.add((addr, name))
    rows = sorted(found)
    out = []
    for i, (addr, name) in enumerate(rows):
        size = rows[i + 1][0] - addr if i + 1 < len(rows) else 4096
        out.append((addr, min(size, 1 << 20), name))
    return out


def short_name(symbol: str) -> str:
    """`module.function` of a numba symbol (`_ZN7kernels2dd6search7_search...`: the
    solver's modules are named without their package); the symbol itself when it is not
    one."""
    if not symbol.startswith("_ZN"):
        return symbol
    s = symbol[3:]
    parts = []
    while s and s[0].isdigit() and len(parts) < 5:
        m = re.match(r"\d+", s)
        n = int(m.group())
        parts.append(s[m.end():m.end() + n])
        s = s[m.end() + n:]
    parts = [p for p in parts if p not in ("cpython", "kernels", "dd")]
    return ".".join(parts[:2]) if parts else symbol


def _kernel_dispatchers():
    import importlib
    import pkgutil

    import kernels

    out = []
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        mod = importlib.import_module(info.name)
        out.extend(f for f in vars(mod).values() if hasattr(f, "overloads"))
    return out


def line_tables_only() -> None:
    """Make numba compile every kernel from here on with a line table and no other debug
    information: `debug=True` in the project's jit options (kernels.jit), without the
    lifetimes it would extend, and numba's flag for debug *directives only* set on every
    compile (no user option reaches it: the target's flag hook is wrapped), so that numba
    marks no function `noinline` (on the bridge jobs the shares by function then matched
    the normal build's within a percent). Call it before any kernel module is imported;
    it lasts for the process."""
    import warnings

    import numba.core.cpu as cpu
    from numba.core.errors import NumbaDebugInfoWarning

    from kernels import jit

    # numba's generated helpers have no source file: their lines are not asked for
    warnings.simplefilter("ignore", NumbaDebugInfoWarning)

    jit.JIT_OPTIONS.update(debug=True, _dbg_extend_lifetimes=False)
    finalize = cpu.CPUTargetOptions.finalize

    def directives_only(self, flags, options):
        finalize(self, flags, options)
        flags.dbg_directives_only = True

    cpu.CPUTargetOptions.finalize = directives_only


def object_code(dispatchers, symbol: str):
    """The object code (ELF bytes) of a library compiled in this process that defines
    `symbol`; None if there is none."""
    for lib, names in _compiled_libraries(dispatchers):
        if symbol in names:
            return lib._get_compiled_object()
    return None


def line_rows(obj: Path, symbol: str) -> list:
    """(offset from the start of `symbol`, file name, line) of every row of the line table
    of object file `obj` in that function's section, sorted by offset (`readelf`)."""
    nm = subprocess.run(["nm", str(obj)], capture_output=True, text=True).stdout
    start = next((int(r.split()[0], 16) for r in nm.splitlines()
                  if r.split()[-1:] == [symbol]), None)
    if start is None:
        return []
    dump = subprocess.run(["readelf", "--debug-dump=decodedline", str(obj)],
                          capture_output=True, text=True).stdout
    rows = []
    for r in dump.splitlines():
        m = re.match(r"(\S+\.py)\s+(\d+)\s+(0x[0-9a-f]+|\d+)(\s|$)", r)
        if m:
            rows.append((int(m.group(3), 0) - start, m.group(1), int(m.group(2))))
    return sorted(rows)


def by_line(samples: dict, rows: list) -> collections.Counter:
    """Samples (offset from the function's start: count) summed by (file, line) of the
    line table `rows` (`line_rows`): each for the row whose code holds its offset, a row
    of line 0 (code with no line of its own) for the last numbered row before it."""
    offsets = [r[0] for r in rows]
    out = collections.Counter()
    for off, n in samples.items():
        i = bisect.bisect_right(offsets, off) - 1
        while i > 0 and rows[i][2] == 0:
            i -= 1
        if i >= 0 and off >= offsets[0]:
            out[(rows[i][1], rows[i][2])] += n
    return out


def child(args, lo: int, hi: int) -> int:
    """Compile, write the map and the code copy, then solve the jobs (under perf) as
    `tools.nodes` does (`count`: one table and ruff memo across the deals)."""
    if args.lines:
        line_tables_only()
    from kernels.dd import batch, ruff_game, search, tt

    mods = (batch, search, tt, ruff_game)
    tasks = _tasks(args.jobs, lo, hi, args.leader, args.strain)
    count(mods, tasks[:1])  # compiles
    dispatchers = _kernel_dispatchers()
    entries = perf_map_entries(dispatchers)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for addr, size, name in entries:
            fh.write(f"{addr:x} {size:x} {name}\n")
    out = Path(args.out)
    for addr, size, name in entries:
        # the function itself: not its C callback or its CPython wrapper (same short name)
        if short_name(name) in args.function and not name.startswith(("cfunc", "_ZN7cpython")) \
                and size < (1 << 20):
            code = ctypes.string_at(addr, size)
            (out / f"{short_name(name)}_{addr:x}.bin").write_bytes(code)
            obj = object_code(dispatchers, name) if args.lines else None
            if obj is not None:
                (out / f"{short_name(name)}_{addr:x}.o").write_bytes(obj)
                (out / f"{short_name(name)}_{addr:x}.sym").write_text(name)
    count(mods, tasks)
    return 0


def report(out: Path, functions=(HOT,)) -> str:
    """The per-function shares and the hottest instructions of each of `functions`, as
    text."""
    got = subprocess.run(["perf", "script", "-i", str(out / "perf.data"), "-F", "ip,sym"],
                         capture_output=True, text=True)
    funcs = collections.Counter()
    ips = collections.Counter()
    for line in got.stdout.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and "kernels" in parts[1]:
            funcs[short_name(parts[1].strip())] += 1
            ips[int(parts[0], 16)] += 1
    total = sum(funcs.values())
    if total == 0:
        return "tools.perfmap: no samples in the kernels (is perf allowed to sample?)"
    lines = [f"{total:,} samples in the kernels; share by function:"]
    lines += [f"  {n / total:6.1%}  {name}" for name, n in funcs.most_common(20)]
    objdump = shutil.which("objdump")
    codes = [c for f in functions for c in sorted(out.glob(f"{f}_*.bin"))]
    lines += [f"{f}: no code copied (not a kernel function compiled in the run?)"
              for f in functions if not any(out.glob(f"{f}_*.bin"))]
    for code in codes:
        function, addr = code.stem.rsplit("_", 1)
        base = int(addr, 16)
        size = code.stat().st_size
        here = {a - base: n for a, n in ips.items() if base <= a < base + size}
        if not here or objdump is None:
            continue
        asm = subprocess.run([objdump, "-D", "-b", "binary", "-m", "i386:x86-64", str(code)],
                             capture_output=True, text=True).stdout
        rows = [r for r in asm.splitlines() if re.match(r"\s+[0-9a-f]+:", r)]
        offsets = [int(r.split(":")[0], 16) for r in rows]
        n_here = sum(here.values())
        lines.append(f"{function} at {base:#x}: {n_here:,} samples; the hottest instructions "
                     "(each with the four before it):")
        for off, n in sorted(here.items(), key=lambda x: -x[1])[:12]:
            lines.append(f"  +{off:#x}  {n / n_here:.1%}")
            if off in offsets:
                k = offsets.index(off)
                lines += [f"      {r.strip()}" for r in rows[max(0, k - 4):k + 1]]
        obj = code.with_suffix(".o")
        if obj.exists() and shutil.which("readelf"):
            lines += _line_report(function, here, offsets, obj, code.with_suffix(".sym"))
    return "\n".join(lines)


def _line_report(function: str, here: dict, offsets: list, obj: Path, sym: Path) -> list:
    """The `--lines` part of `report` for one function: its samples by source line."""
    # a sample counts for the instruction before it (the one that usually waited)
    moved = collections.Counter()
    for off, n in here.items():
        k = bisect.bisect_left(offsets, off)
        moved[offsets[k - 1] if 0 < k < len(offsets) and offsets[k] == off else off] += n
    counts = by_line(moved, line_rows(obj, sym.read_text().strip()))
    total = sum(here.values())
    if not counts:
        return [f"{function}: no line table in its object code"]
    own = function.split(".")[0] + ".py"
    spans = inlined_spans(ROOT / "kernels")
    texts = {p.name: p.read_text().splitlines() for p in (ROOT / "kernels").rglob("*.py")}
    out = [f"{function}: samples by source line (a callee numba inlines itself, "
           f'inline="always", has its lines under {own}: each such line also names the '
           "callees whose lines hold that number, `or ...`):"]
    for (name, line), n in counts.most_common(30):
        text = texts.get(name, [])
        src = text[line - 1].strip() if 0 < line <= len(text) else ""
        out.append(f"  {n / total:6.1%}  {name}:{line}  {src[:80]}")
        if name == own:
            for file, fn, start, end in spans:
                if file != own and start <= line <= end:
                    other = texts[file][line - 1].strip()
                    out.append(f"           or {file}:{line} ({fn})  {other[:70]}")
    return out


def inlined_spans(folder: Path) -> list:
    """(file name, function, first line, last line) of every function in the modules
    under `folder` (subpackages included; file names are unique there) that numba inlines
    itself (decorated with `inline="always"`)."""
    import ast

    spans = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and any(
                        k.arg == "inline" and isinstance(k.value, ast.Constant)
                        and k.value.value == "always" for k in dec.keywords):
                    spans.append((path.name, node.name, node.lineno, node.end_lineno))
    return spans


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.perfmap", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    job_options(parser)
    parser.add_argument("--out", default=str(ROOT / "out" / "perfmap"),
                        help="folder for perf.data and the code copy (default out/perfmap)")
    parser.add_argument("--function", action="append", metavar="MODULE.NAME",
                        help="a kernel function whose hottest instructions are shown, as "
                             f"the share list names it; may be repeated (default {HOT})")
    parser.add_argument("--lines", action="store_true",
                        help="also sum each --function's samples by source line (kernels "
                             "compiled with a line table; needs readelf)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    lo, hi = deal_range(parser, args.deals, args.jobs, args.strain)
    args.function = args.function or [HOT]
    for f in args.function:
        if not re.fullmatch(r"\w+\.\w+", f):
            parser.error(f"--function {f!r}: expected MODULE.NAME, such as {HOT}")
    if args.child:
        return child(args, lo, hi)
    perf = shutil.which("perf")
    if perf is None:
        parser.error("needs `perf` (linux-tools) on PATH")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.bin"), *out.glob("*.o"), *out.glob("*.sym")]:
        if re.fullmatch(r"\w+\.\w+_[0-9a-f]+\.(bin|o|sym)", old.name):  # code copies only
            old.unlink()
    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="tools-perfmap-"))
    cmd = [perf, "record", "-q", "-F", "2000", "-o", str(out / "perf.data"), sys.executable,
           "-m", "tools.perfmap", "--child", "--deals", args.deals, "--jobs", args.jobs,
           "--leader", str(args.leader), "--out", str(out)]
    cmd += [a for f in args.function for a in ("--function", f)]
    cmd += ["--strain", args.strain] if args.strain else []
    cmd += ["--lines"] if args.lines else []
    print("compiling from an empty cache and solving under perf ...", file=sys.stderr,
          flush=True)
    done = subprocess.run(cmd, cwd=ROOT, env=env)
    if done.returncode != 0:
        print(f"tools.perfmap: perf record failed (exit {done.returncode})", file=sys.stderr)
        return 1
    print(report(out, args.function))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
