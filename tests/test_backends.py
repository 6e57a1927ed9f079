"""The Dask backend (analyser/backends.py): the same bytes as joblib on a LocalCluster of
2 worker processes, after an interruption and resume, and when a worker is killed
mid-chunk; numba's threads capped per worker; a warm-up per worker; one-line errors.

The unit tests use the fast stand-in solver of test_pipeline (`fake_solve`); the stand-in
functions travel to the worker processes by value (cloudpickle), since the workers cannot
import the test modules. The last test runs the real kernels through the CLI.
"""

import os
import signal
import sys
from pathlib import Path

import numba
import pytest
import test_pipeline
from test_pipeline import assert_same_results, fake_solve, kernel_deal

from analyser import backends, jit_notice, pipeline, store
from analyser.cli import main
from analyser.errors import UserError

# the optional extra `dask` (pip install '.[dask]'; `make test` installs it)
distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

cloudpickle.register_pickle_by_value(test_pipeline)
cloudpickle.register_pickle_by_value(sys.modules[__name__])

DEALS, CHUNK, SEED = 24, 4, 5


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 single-threaded worker processes, shared by the module's tests."""
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as c:
        yield c


def _ready(cluster, workers=2):
    """The cluster's scheduler address once `workers` workers are up (a killed worker is
    restarted by its nanny)."""
    with distributed.Client(cluster.scheduler_address) as client:
        client.wait_for_workers(workers, timeout=60)
    return cluster.scheduler_address


def run(out, solve=fake_solve, **kw):
    config = pipeline.RunConfig(deals=DEALS, seed=SEED, chunk=CHUNK)
    return pipeline.run_analysis(out, config, deal=kernel_deal, solve=solve, **kw)


@pytest.fixture(scope="module")
def joblib_run(tmp_path_factory):
    """The reference: the same configuration solved in this process (joblib, 1 job)."""
    out = tmp_path_factory.mktemp("joblib")
    run(out, jobs=1)
    return out


def assert_same_bytes(a, b):
    """summary.csv byte for byte, and every stored row and table frame for frame."""
    assert (Path(a) / "summary.csv").read_bytes() == (Path(b) / "summary.csv").read_bytes()
    assert_same_results(a, b)


def test_dask_on_2_workers_gives_joblib_bytes(joblib_run, cluster, tmp_path):
    stats = run(tmp_path, backend="dask", scheduler=_ready(cluster))
    assert stats["chunks_solved_now"] == DEALS // CHUNK and stats["backend"] == "dask"
    assert_same_bytes(joblib_run, tmp_path)


def test_dask_on_its_own_local_cluster_of_1_worker_gives_joblib_bytes(joblib_run, tmp_path):
    run(tmp_path, backend="dask", jobs=1)
    assert_same_bytes(joblib_run, tmp_path)


def failing_once(flag):
    """`fake_solve` that fails on the first chunk it solves after `flag` is armed (a
    worker's warm-up, one deal, passes)."""

    def solve(deals, leader):
        if deals.shape[0] != CHUNK:
            return fake_solve(deals, leader)
        try:
            os.remove(flag)
        except FileNotFoundError:
            return fake_solve(deals, leader)
        raise RuntimeError("interrupted mid-run")

    return solve


def test_dask_interrupted_then_resumed_gives_joblib_bytes(joblib_run, cluster, tmp_path):
    flag = tmp_path / "armed"
    flag.touch()
    out = tmp_path / "r"
    with pytest.raises(RuntimeError, match="interrupted mid-run"):
        run(out, solve=failing_once(str(flag)), backend="dask", scheduler=_ready(cluster))
    assert len(store.done_chunks(out)) < DEALS // CHUNK
    # a chunk still running on the cluster's other worker may store its part meanwhile
    stats = run(out, backend="dask", scheduler=_ready(cluster))
    assert stats["chunks_solved_now"] >= 1
    assert stats["chunks_resumed"] + stats["chunks_solved_now"] == DEALS // CHUNK
    assert_same_bytes(joblib_run, out)


def killing_once(flag, log):
    """`fake_solve` that logs each chunk it solves (by its first deal) to `log`, and kills
    its own worker process mid-chunk on the first chunk it solves after `flag` is armed (a
    worker's warm-up, one deal, passes unlogged)."""

    def solve(deals, leader):
        if deals.shape[0] != CHUNK:
            return fake_solve(deals, leader)
        with open(log, "a") as f:
            f.write(f"{int(deals[0, 0])}\n")
        try:
            os.remove(flag)
        except FileNotFoundError:
            return fake_solve(deals, leader)
        os.kill(os.getpid(), signal.SIGKILL)

    return solve


def test_a_worker_killed_mid_chunk_loses_only_that_chunk(joblib_run, cluster, tmp_path):
    flag, log = tmp_path / "armed", tmp_path / "solved.log"
    flag.touch()
    out = tmp_path / "r"
    stats = run(out, solve=killing_once(str(flag), str(log)), backend="dask",
                scheduler=_ready(cluster))
    assert not flag.exists()  # a worker was killed
    assert stats["chunks_solved_now"] == DEALS // CHUNK
    assert_same_bytes(joblib_run, out)
    # Dask ran the killed chunk again elsewhere; every other chunk was solved once only
    solved = log.read_text().split()
    assert len(solved) == DEALS // CHUNK + 1
    assert len(set(solved)) == DEALS // CHUNK


def test_a_chunk_whose_part_is_whole_is_not_solved_again(joblib_run, tmp_path):
    config = pipeline.RunConfig(deals=DEALS, seed=SEED, chunk=CHUNK)

    def no_solve(deals, leader):
        raise AssertionError("solved a chunk whose part is whole")

    timing = pipeline.solve_chunk_once(joblib_run, config, 2, kernel_deal, no_solve)
    assert timing["chunk"] == 2 and timing["deals"] == CHUNK


def record_worker(log, tag="task"):
    """A task (or a warm-up) writing `tag`, its process id and numba's thread count to
    `log`."""

    def task(item=None):
        with open(log, "a") as f:
            f.write(f"{tag} {os.getpid()} {numba.get_num_threads()}\n")
        return item

    return task


def test_each_worker_warms_up_once_first_and_caps_numba_threads(cluster, tmp_path):
    log = tmp_path / "log"
    finished = []
    results = backends.run_chunks(record_worker(str(log)), range(6), backend="dask",
                                  scheduler=_ready(cluster), done=finished.append,
                                  warmup=record_worker(str(log), "warm"))
    assert sorted(results) == list(range(6)) and finished == results
    lines = [line.split() for line in log.read_text().splitlines()]
    warm = [pid for tag, pid, _ in lines if tag == "warm"]
    assert len(set(warm)) == len(warm) >= 1  # at most once on each worker
    first = {}
    for tag, pid, _ in lines:
        first.setdefault(pid, tag)
    assert set(first) == set(warm) and set(first.values()) == {"warm"}  # before its chunks
    # 2 single-threaded workers on this machine: each gets cores // 2 numba threads
    expected = str(max(1, min(pipeline.available_cores() // 2,
                              numba.config.NUMBA_NUM_THREADS)))
    assert {threads for _, _, threads in lines} == {expected}


def test_workers_that_cannot_see_the_output_directory_are_refused(cluster, tmp_path):
    with pytest.raises(UserError, match="cannot see .*shared with every worker"):
        backends.run_chunks(record_worker(str(tmp_path / "log")), range(2), backend="dask",
                            scheduler=_ready(cluster), shared=tmp_path / "absent")
    assert not (tmp_path / "log").exists()


def test_a_scheduler_without_workers_is_one_line(tmp_path, monkeypatch):
    import logging

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT_S", 1)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as empty:
        with pytest.raises(UserError, match="has no workers") as err:
            backends.run_chunks(record_worker(str(tmp_path / "log")), range(2),
                                backend="dask", scheduler=empty.scheduler_address)
    assert "\n" not in str(err.value)


def _one_error_line(capsys, argv, *words):
    """`argv` exits 2 with one error line holding `words` (beside the compile notice of a
    cold kernel cache, analyser/jit_notice.py)."""
    assert main(argv) == 2
    lines = [line for line in capsys.readouterr().err.splitlines()
             if line != jit_notice.MESSAGE]
    assert len(lines) == 1 and lines[0].startswith("boston-analyser run: error: ")
    for word in words:
        assert word in lines[0]


def test_cli_backend_dask_without_dask_installed_says_how_to_install(tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    out = tmp_path / "r"
    _one_error_line(capsys, ["run", "--deals", "2", "--backend", "dask", "--out", str(out)],
                    "pip install", "boston-analyser[dask]")
    assert not out.exists()


def test_cli_scheduler_without_backend_dask_is_refused(tmp_path, capsys):
    out = tmp_path / "r"
    _one_error_line(capsys, ["run", "--deals", "2", "--scheduler", "tcp://127.0.0.1:8786",
                             "--out", str(out)], "--scheduler needs --backend dask")
    assert not out.exists()


def test_cli_unreachable_scheduler_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT_S", 1)
    _one_error_line(capsys, ["run", "--deals", "2", "--backend", "dask", "--scheduler",
                             "tcp://127.0.0.1:9", "--out", str(tmp_path / "r")],
                    "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")


def test_cli_real_kernels_dask_and_joblib_write_the_same_summary(tmp_path, capsys):
    common = ["run", "--deals", "4", "--chunk", "1", "--seed", "3"]
    assert main([*common, "--jobs", "1", "--out", str(tmp_path / "joblib")]) == 0
    assert main([*common, "--jobs", "2", "--backend", "dask",
                 "--out", str(tmp_path / "dask")]) == 0
    assert "a Dask LocalCluster of 2 worker(s)" in capsys.readouterr().out
    assert_same_bytes(tmp_path / "joblib", tmp_path / "dask")


def test_session_gives_the_same_bytes_on_dask(tmp_path):
    """`session --backend dask` (a LocalCluster of 2 workers) writes the same rows and
    summary as joblib: chunks are tasks seeded from the root seed and their number only."""
    from analyser.cli import main

    args = ["session", "--sessions", "4", "--seed", "3", "--chunk", "1", "--strategy",
            "cautious", "--strategy", "bold"]
    assert main(args + ["--out", str(tmp_path / "joblib"), "--jobs", "2"]) == 0
    assert main(args + ["--out", str(tmp_path / "dask"), "--jobs", "2", "--backend",
                        "dask"]) == 0
    for name in ("summary.csv", "pairs.csv"):
        assert (tmp_path / "joblib" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()
    parts = sorted((tmp_path / "joblib" / "hands").glob("*.parquet"))
    assert parts
    for part in parts:
        assert part.read_bytes() == (tmp_path / "dask" / "hands" / part.name).read_bytes()
