"""kernels: the compiled-code cache is keyed on every kernel source file; kernels.jit's
override for the search's core takes effect.

numba checks only a function's own file for changes; a kernel calling a changed function
of another module would reload stale machine code. The cache folder is named after a
digest of all kernel sources, so any change starts a fresh cache.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np

import kernels
from kernels.jit import JIT_OPTIONS, NO_REFCOUNT
from tests.numba_env import private_numba_cache

ROOT = Path(__file__).resolve().parent.parent


def test_cache_folder_is_named_after_the_kernel_sources():
    digest = kernels.source_digest()
    assert Path(numba.config.CACHE_DIR).name == "numba-" + digest


def test_any_kernel_source_change_changes_the_digest(tmp_path):
    copy = tmp_path / "kernels"
    shutil.copytree(ROOT / "kernels", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert kernels.source_digest(copy) == kernels.source_digest()
    path = copy / "dd" / "search.py"
    path.write_text(path.read_text() + "\n# changed\n")
    assert kernels.source_digest(copy) != kernels.source_digest()
    (copy / "new_kernel.py").write_text("")
    path.write_text(path.read_text().replace("\n# changed\n", ""))
    assert kernels.source_digest(copy) != kernels.source_digest()


def test_every_solver_source_is_in_the_digest(tmp_path):
    # the solver is a subpackage (kernels/dd/): a change to any of its files, or a file
    # added there, must start a fresh cache like a change to a top-level kernel file
    sources = sorted((ROOT / "kernels" / "dd").glob("*.py"))
    assert len(sources) > 10
    for source in sources:
        copy = tmp_path / source.stem
        shutil.copytree(ROOT / "kernels", copy, ignore=shutil.ignore_patterns("__pycache__"))
        path = copy / "dd" / source.name
        path.write_text(path.read_text() + "\n# changed\n")
        assert kernels.source_digest(copy) != kernels.source_digest(), source.name
    copy = tmp_path / "added"
    shutil.copytree(ROOT / "kernels", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "dd" / "new_rule.py").write_text("")
    assert kernels.source_digest(copy) != kernels.source_digest()


def test_cache_folder_goes_under_numba_cache_dir(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", "import kernels, numba; print(numba.config.CACHE_DIR)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(out) == tmp_path / ("numba-" + kernels.source_digest())


def _refcount_calls(**overrides):
    """Reference-count updates in the compiled code of a loop passing rows of an array to
    another function, compiled with the project's options and `overrides`."""
    options = {**JIT_OPTIONS, "cache": False, **overrides}

    @numba.njit(**options)
    def row_sum(row):
        s = 0
        for x in row:
            s += x
        return s

    @numba.njit(**options)
    def total(rows):
        t = 0
        for i in range(rows.shape[0]):
            t += row_sum(rows[i])
        return t

    assert total(np.arange(12).reshape(4, 3)) == 66
    ir = total.inspect_llvm(total.signatures[0])
    return ir.count("call void @NRT_incref") + ir.count("call void @NRT_decref")


def test_no_refcount_override_leaves_no_reference_counting():
    # numba's `_nrt` option is underscored: if a numba release ignored it, the search's
    # core would silently count references again (12% of its time)
    assert _refcount_calls() > 0
    assert _refcount_calls(**NO_REFCOUNT) == 0


# the solver's kernels that allocate arrays (or call one that does) and so keep numba's
# reference counting; every other kernel of these modules carries the override
_SOLVER_MODULES = ("dd.state", "dd.moves", "dd.tt", "dd.sure_tricks", "dd.trump_rules",
                   "dd.misere", "dd.settle", "dd.trump_game", "dd.ruff_game")
_ALLOCATING = {"new_misere_work", "stack_work", "new_trump_work",
               "new_ruff_work", "ruff_lower_bound"}


def test_solver_kernels_that_allocate_nothing_count_no_references():
    # numba reuses a callee already compiled for the same signature whatever the flags of
    # a later caller, so the search's core inherits no reference counting from its own
    # override alone: a rule of the quick bounds compiled first for `solve_value` counted
    # references under the search too (perf: NRT_incref and NRT_decref, 6% of the time)
    import importlib

    counted = []
    for name in _SOLVER_MODULES:
        module = importlib.import_module("kernels." + name)
        for attr, obj in vars(module).items():
            if (isinstance(obj, numba.core.registry.CPUDispatcher)
                    and obj.__module__ == module.__name__):
                nrt = obj.targetoptions.get("_nrt", True)
                if (attr in _ALLOCATING) == (nrt is False):
                    counted.append((name, attr, nrt))
    assert counted == []


def test_a_private_numba_cache_leaves_numbas_configuration_as_it_was(tmp_path):
    """A test that points numba at another cache folder puts numba's configuration back,
    so later tests still compile into, and find, the folder named after the sources."""
    before = numba.config.CACHE_DIR
    with private_numba_cache(tmp_path):
        assert numba.njit(lambda x: x + 1)(1) == 2  # a compile reloads the configuration
        assert numba.config.CACHE_DIR == str(tmp_path)
    assert numba.njit(lambda x: x + 2)(1) == 3
    assert numba.config.CACHE_DIR == before

