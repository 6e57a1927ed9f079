"""Numba kernels for Boston: cards, RNG, dealing, play rules, solver, policies, settlement.

Everything here is pure numba over plain numpy arrays and scalars (STYLE.md):
no Python objects cross into a kernel; policies and contract kinds are integer ids.
The public, documented entry points live in :mod:`analyser`.

Compiled code is cached on disk (kernels.jit), in a folder named after a digest of every
kernel source file. numba checks only a function's own file for changes, so a kernel whose
callee in another module changed would otherwise reload its old machine code, callee
included (the solver's batch form calls `solve_value` in another module): any change to a
kernel file now starts a fresh cache. The folder is under `NUMBA_CACHE_DIR` when that is
set, else in this package's `__pycache__`, where the caches of older sources are removed.
"""

import hashlib
import os
import shutil
from pathlib import Path

import numba


def source_digest(folder: Path = Path(__file__).parent) -> str:
    """A digest of every kernel source file under `folder`, subpackages included (paths
    relative to `folder`, and contents)."""
    h = hashlib.sha1()
    for path in sorted(folder.rglob("*.py")):
        h.update(path.relative_to(folder).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _cache_dir() -> str:
    name = "numba-" + source_digest()
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.path.join(os.environ["NUMBA_CACHE_DIR"], name)
    base = Path(__file__).parent / "__pycache__"
    if base.is_dir():
        for old in base.glob("numba-*"):
            if old.name != name:
                shutil.rmtree(old, ignore_errors=True)
        for old in [*base.glob("*.nbi"), *base.glob("*.nbc")]:  # numba's own layout
            old.unlink(missing_ok=True)
    return str(base / name)


numba.config.CACHE_DIR = _cache_dir()
