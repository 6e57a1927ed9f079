"""Where chunked work runs: joblib processes on this machine, or Dask (`dask.distributed`)
on a LocalCluster or a running cluster.

Contract of `run_chunks(task, items, ...)`, for any command that cuts its work into
numbered chunks (`run`; `session` can call it the same way):
- `task(item)` computes one chunk in a worker and returns a small picklable result (for
  `run`, the chunk's timings). `task` must be picklable (a module-level function, or a
  `functools.partial` of one) and idempotent: Dask runs a chunk again on another worker
  when its worker dies, so the task draws its randomness from the root seed and `item`
  only, writes its output atomically into a directory the driver can read (for `run`,
  analyser/store.py write_part), and does nothing when that output already exists whole.
- `done(result)` runs in the driver as each chunk finishes, in completion order (the
  progress bar); `run_chunks` returns the results in completion order.
- numba's threads: in a worker process each task runs with numba limited to the cores of
  its machine divided by the task slots of every worker on that machine, so processes x
  threads never exceeds the cores (joblib: cores // jobs; a LocalCluster of `jobs`
  single-threaded workers: the same).
- Dask only: `warmup()` runs once on each worker present at the start, before any chunk
  (it compiles or loads numba's kernels, so that no chunk pays for it and the
  progress bar's ETA is sound); `shared`, a directory the driver has created, must be
  visible to every worker at the same path (for `run`, DIR/hands), else UserError: on a
  real cluster the output directory must be on a filesystem shared with the workers.
- Options: `add_arguments(parser)` gives a command --backend and --scheduler; it calls
  `check_backend(args.backend, args.scheduler)` before writing anything (one line if
  Dask is asked for and not installed).
- Backends: "joblib" (default): `jobs` processes, or this process alone when jobs is 1 or
  there is one chunk. "dask" without `scheduler`: a LocalCluster of `jobs` worker
  processes with one thread each, closed at the end; with `scheduler` (an address such as
  tcp://host:8786): the running cluster's workers, whatever their number (`jobs` unused).
  An interruption (Ctrl-C, an error in a chunk) cancels the chunks not yet started; on a
  running cluster the chunks already running finish and store their parts.
"""

import contextlib
import functools
import logging
import os
import uuid
from collections.abc import Callable, Iterable

from analyser.errors import UserError

BACKENDS = ("joblib", "dask")
DEFAULT_BACKEND = "joblib"
INSTALL_HINT = "pip install 'boston-analyser[dask]' (or pip install 'dask[distributed]')"
CONNECT_TIMEOUT_S = 30


def add_arguments(parser) -> None:
    """The options --backend and --scheduler of a chunked command (checked by
    `check_backend` before the command writes anything)."""
    parser.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                        help=f"where the chunks run (default {DEFAULT_BACKEND})")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="address of a running Dask scheduler (with --backend dask)")


def check_backend(backend: str, scheduler: str | None) -> None:
    """UserError unless `backend` is known (and installed) and a scheduler address comes
    with Dask only; a command calls it before it writes anything."""
    if backend not in BACKENDS:
        raise UserError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise UserError("--scheduler needs --backend dask")
    if scheduler is not None and not scheduler.strip():
        raise UserError("--scheduler must be an address such as tcp://host:8786")
    if backend == "dask":
        _import_distributed()


def where(backend: str, scheduler: str | None, jobs: int) -> str:
    """Where the chunks ran, for a command's closing line."""
    if backend != "dask":
        return f"{jobs} job(s)"
    if scheduler is None:
        return f"a Dask LocalCluster of {jobs} worker(s)"
    return f"the Dask cluster at {scheduler}"


def run_chunks(task: Callable, items: Iterable[int], jobs: int = 1,
               backend: str = DEFAULT_BACKEND, scheduler: str | None = None,
               done: Callable | None = None, warmup: Callable | None = None,
               shared=None, notify: Callable[[str], None] | None = None) -> list:
    """Run `task(item)` for every item on `backend`; call `done(result)` in the driver as
    each finishes; return the results in completion order (contract: module docstring)."""
    check_backend(backend, scheduler)
    items = list(items)
    done = done or (lambda result: None)
    if not items:
        return []
    if backend == "dask":
        return _run_dask(task, items, jobs, scheduler, done, warmup, shared, notify)
    return _run_joblib(task, items, jobs, done)


def limit_threads(threads: int) -> None:
    """Cap numba's threads for the calling thread (numba's setting is per thread)."""
    import numba

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def _limited(task, threads: int, item):
    """`task(item)` with numba limited to `threads` threads (runs in a worker)."""
    limit_threads(threads)
    return task(item)


def _run_joblib(task, items, jobs, done) -> list:
    """joblib's processes (this process alone for one job or one chunk)."""
    from analyser.pipeline import available_cores

    results = []
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            results.append(task(item))
            done(results[-1])
        return results
    from joblib import Parallel, delayed

    threads = max(1, available_cores() // jobs)
    parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
    for result in parallel(delayed(_limited)(task, threads, item) for item in items):
        results.append(result)
        done(result)
    return results


def _import_distributed():
    """The `distributed` package, or UserError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise UserError(f"--backend dask needs dask.distributed, which is not installed: "
                        f"{INSTALL_HINT}") from None
    return distributed


def _on_worker(task, slots_by_host: dict, item):
    """`task(item)` on a Dask worker, numba limited to its machine's cores / task slots."""
    from distributed import get_worker

    from analyser.pipeline import available_cores

    worker = get_worker()
    slots = slots_by_host.get(worker.host) or worker.state.nthreads
    return _limited(task, max(1, available_cores() // max(1, slots)), item)


def _warm(warmup, slots_by_host: dict):
    """Run `warmup()` on this worker under the same thread limit as its chunks."""
    return _on_worker(lambda _: warmup(), slots_by_host, None)


def _sees(path: str) -> bool:
    """Whether this worker sees the directory `path`."""
    return os.path.isdir(path)


def _slots_by_host(client) -> dict:
    """host -> task slots (threads) of all the cluster's workers on that host."""
    slots: dict = {}
    for info in client.scheduler_info(n_workers=-1)["workers"].values():
        slots[info["host"]] = slots.get(info["host"], 0) + info["nthreads"]
    return slots


@functools.cache
def _has_dashboard() -> bool:
    """Whether Dask can serve its dashboard here (it needs bokeh)."""
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


def _open_client(distributed, jobs: int, scheduler: str | None, stack):
    """A Client of the cluster at `scheduler`, or of a new LocalCluster of `jobs` workers."""
    if scheduler is None:
        import dask

        # the workers' statistical profiler off: it samples each chunk's stack every 10 ms
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                silence_logs=logging.CRITICAL, dashboard_address=":0"))
        return stack.enter_context(distributed.Client(cluster))
    try:
        return stack.enter_context(distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_S))
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"cannot reach the Dask scheduler at {scheduler!r}: {reason}") from None


def _run_dask(task, items, jobs, scheduler, done, warmup, shared, notify) -> list:
    """The chunks as Dask tasks, as_completed driving `done`."""
    distributed = _import_distributed()
    with contextlib.ExitStack() as stack:
        client = _open_client(distributed, jobs, scheduler, stack)
        if notify is not None and _has_dashboard():
            notify(f"Dask dashboard: {client.dashboard_link}")
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except TimeoutError:
            raise UserError(f"the Dask scheduler at {scheduler!r} has no workers (waited "
                            f"{CONNECT_TIMEOUT_S} s); start some with `dask worker "
                            f"{scheduler}`") from None
        slots = _slots_by_host(client)
        if shared is not None:
            blind = sorted(w for w, ok in client.run(_sees, str(shared)).items() if not ok)
            if blind:
                raise UserError(
                    f"{len(blind)} Dask worker(s) cannot see {str(shared)!r} (first: "
                    f"{blind[0]}); put --out on a filesystem shared with every worker")
        token = uuid.uuid4().hex[:8]
        # each worker runs its warm-up before any chunk: submitted first, at a higher
        # priority, and held until the end so that Dask keeps it
        warm = [client.submit(_warm, warmup, slots, key=f"warm-up-{token}-{i}", priority=1,
                              workers=[address], allow_other_workers=True, pure=False)
                for i, address in enumerate(client.scheduler_info(n_workers=-1)["workers"])
                if warmup is not None]
        # a finished chunk's future is dropped at once, so that a worker dying later does
        # not make Dask compute that chunk again to restore its result
        keys = {f"chunk-{item}-{token}": item for item in items}
        pending = {key: client.submit(_on_worker, task, slots, item, key=key, pure=False)
                   for key, item in keys.items()}
        results = []
        try:
            for future in distributed.as_completed(list(pending.values())):
                results.append(future.result())
                del pending[future.key]
                done(results[-1])
        except distributed.KilledWorker as exc:
            raise UserError(f"Dask gave up on a chunk that killed its workers again and "
                            f"again (out of memory?): {exc}") from None
        finally:
            client.cancel([*pending.values(), *warm])
        return results
