"""The one project-wide jit decorator: every kernel is compiled with these settings.

`cache=True` keeps numba's compiled code on disk so that CI and `make run` pay for
compilation once. Opt-outs pass explicit overrides and say why at the call site.
"""

import numba

JIT_OPTIONS = {
    "cache": True,
    "nogil": True,  # kernels release the GIL so threads (joblib, Dask) can overlap them
    "fastmath": False,  # exact integer work only; nothing gains from reassociation
    "boundscheck": False,
    "error_model": "numpy",  # no Python exception checks on integer division
}

# The override for the solver's hot core (kernels.dd.search): no reference counting.
# numba counts references to every array (NRT): each array passed to a function that is
# not inlined, and each slice taken, costs an atomic update of the count on entry and
# another on exit, which took 12% of the search's time (perf, a numeric solve of 23
# million nodes). Compiled without it, a function neither counts nor may allocate an
# array, and numba compiles the functions it calls the same way (the caller's flags reach
# its callees): the callers pass scratch arrays in, and the arrays outlive the call. But
# only where a callee has no compiled version of that signature yet: one compiled first
# for a caller with reference counting is reused as it is (perf found the ruff game's
# options and the quick bounds' rules counting references under the search, 6% of the
# solver's time in NRT_incref and NRT_decref). So every solver kernel that allocates
# nothing (kernels.dd: state, moves, tt, the quick-bound rules, trump_game, ruff_game)
# carries the override itself; those that allocate, and their callers, keep counting.
# `_nrt` is numba's own target option (numba.core.options), underscored but long-standing;
# tests/test_jit_cache.py checks that it still takes effect.
NO_REFCOUNT = {"_nrt": False}


def njit(fn=None, **overrides):
    """Compile `fn` with the project defaults, optionally overridden (say why when you do)."""
    options = {**JIT_OPTIONS, **overrides}
    if fn is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(fn)
