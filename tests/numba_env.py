"""Test helpers that touch numba's global configuration and put it back afterwards."""

import contextlib
import os


@contextlib.contextmanager
def private_numba_cache(folder):
    """NUMBA_CACHE_DIR set to `folder` inside the block, numba's global state as it was after.

    numba reloads its configuration from the environment at its next compile whenever a
    NUMBA_ variable changed, which resets `numba.config.CACHE_DIR` to the variable (or to
    "" once it is unset) and loses the folder kernels/__init__.py chose: later tests would
    then compile into, or fail to find, the wrong cache. So the environment is restored,
    the configuration reloaded at once, and the cache folder set back.
    """
    import numba

    saved_env = os.environ.get("NUMBA_CACHE_DIR")
    saved_dir = numba.config.CACHE_DIR
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop("NUMBA_CACHE_DIR", None)
        else:
            os.environ["NUMBA_CACHE_DIR"] = saved_env
        numba.core.config.reload_config()
        numba.config.CACHE_DIR = saved_dir
