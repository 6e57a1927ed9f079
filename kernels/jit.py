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


def njit(fn=None, **overrides):
    """Compile `fn` with the project defaults, optionally overridden (say why when you do)."""
    options = {**JIT_OPTIONS, **overrides}
    if fn is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(fn)
