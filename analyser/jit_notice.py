"""One line on stderr before the kernels' first compile, so that a new user does not take the
silent first minutes for a hang.

numba compiles a kernel on its first call and caches the machine code on disk, in the
folder kernels/__init__.py names after a digest of the kernel sources (so any change to
them starts a cold cache). The CLI arms the notice for a command (`arm`) once its options
are parsed; the first kernel work of that command (`fire`: dealing, or solving a run's
chunks) prints the notice if the cache lacks a compiled entry in a kernel module the
command calls, and disarms it. Bad input therefore never prints it, and the public API,
which never arms it, stays silent.
"""

import sys
from pathlib import Path

MESSAGE = "compiling kernels, first use only (about 2 minutes)..."
# kernel modules (paths under kernels/, without .py) whose entry points each command calls:
# dealing, the solver's batch, and under `--play real` (a "real" command) the hidden-card
# worlds and the scoring of every card
REAL_PLAY_MODULES = ("worlds", "dd/scores")
KERNEL_MODULES = {
    "run": ("dealing", "dd/batch"),
    "hand": ("dealing", "dd/batch"),
    "run real": ("dealing", "dd/batch") + REAL_PLAY_MODULES,
    "hand real": ("dealing", "dd/batch") + REAL_PLAY_MODULES,
    "shapes": ("dealing",),
    "session": ("dealing", "dd/batch", "partout"),
    "session real": ("dealing", "dd/batch", "partout") + REAL_PLAY_MODULES,
    "optimise": ("dealing", "dd/batch", "partout"),
    "optimise real": ("dealing", "dd/batch", "partout") + REAL_PLAY_MODULES,
}

_armed: str | None = None


def cache_folder() -> Path:
    """The folder numba caches the kernels in (set when the kernels package is imported)."""
    import numba

    import kernels  # noqa: F401  (names the cache folder after the kernel sources)

    return Path(numba.config.CACHE_DIR)


def is_cold(folder, modules=()) -> bool:
    """Whether `folder` holds no cached kernel at all, or none of one of `modules`.

    numba keeps each source folder's index files in a subfolder named after the source
    folder (`kernels_<hash>` for kernels/, `dd_<hash>` for kernels/dd/), each file named
    `<module>.<function>-<line>.py<version>.nbi`; a module "dd/batch" is found as
    `dd_<hash>/batch.*.nbi`, a module "dealing" as `kernels_<hash>/dealing.*.nbi`.
    """
    folder = Path(folder)
    found = set()
    if folder.is_dir():
        for path in folder.rglob("*.nbi"):
            package = path.parent.name.rsplit("_", 1)[0]
            found.add(f"{'' if package == 'kernels' else package + '/'}"
                      f"{path.name.split('.', 1)[0]}")
    if not found:
        return True
    return any(module not in found for module in modules)


def arm(command: str) -> None:
    """Let the first kernel work of `command` print the notice (no-op for other commands)."""
    global _armed
    _armed = command if command in KERNEL_MODULES else None


def fire(stream=None) -> bool:
    """Print the notice once if armed and the kernel cache is cold; whether it printed."""
    global _armed
    command, _armed = _armed, None
    if command is None or not is_cold(cache_folder(), KERNEL_MODULES[command]):
        return False
    print(MESSAGE, file=stream or sys.stderr, flush=True)
    return True
