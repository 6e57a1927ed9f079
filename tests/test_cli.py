"""The `boston-analyser` command as a new user meets it: one line for every bad input, and one
line on stderr before the kernels' first compile (analyser/jit_notice.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyser import cli, jit_notice

ROOT = Path(__file__).resolve().parent.parent


def main(*args):
    return cli.main([str(a) for a in args])


@pytest.mark.parametrize("args, words", [
    (["run", "--seed", str(2**63)], "--seed must be 0..9223372036854775807"),
    (["run", "--seed", "1.5"], "--seed must be a whole number"),
    (["run", "--pool", "251"], "--pool must be 0..250"),
    (["run", "--chunk", "0"], "--chunk must be"),
    (["run", "--deals", str(10**9 + 1)], "--deals must be 1..1000000000"),
    (["run", "--jobs", "zero"], "--jobs must be a whole number"),
    (["run", "--colour"], "unrecognized arguments: --colour"),
    (["report"], "the following arguments are required: DIR"),
    (["report", "x", "--pool", "-1"], "--pool must be 0..250"),
    (["shapes", "--deals", "0"], "--deals must be"),
    (["nonsense"], "invalid choice: 'nonsense'"),
    (["hand", "AQ32.KJ9.T87.654", "--play", "perfect"], "play must be one of dd, real"),
    (["hand", "AQ32.KJ9.T87.654", "--play", "real", "--time-budget", "-5"],
     "time budget must be a positive number of seconds"),
    (["hand", "AQ32.KJ9.T87.654", "--play", "real", "--jobs", "two"], "jobs must be a whole"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, tmp_path, capsys):
    assert main(*args, *(["--out", tmp_path / "r"] if args[0] == "run" else [])) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and words in captured.err, captured.err
    assert captured.err.startswith("boston-analyser")
    assert not (tmp_path / "r").exists()


def test_an_error_of_the_system_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    from analyser import cmd_report

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "report.html"))

    monkeypatch.setattr(cmd_report, "build_report", full_disk)
    assert main("report", tmp_path) == 2
    err = capsys.readouterr().err
    assert err == f"boston-analyser report: error: No space left on device: " \
                  f"{tmp_path / 'report.html'}\n"


# ---- the compile notice ----------------------------------------------------------------

def test_a_missing_or_empty_cache_folder_is_cold(tmp_path):
    assert jit_notice.is_cold(tmp_path / "missing")
    assert jit_notice.is_cold(tmp_path)
    (tmp_path / "kernels_abc").mkdir()
    (tmp_path / "kernels_abc" / "notes.txt").write_text("not a cache file")
    assert jit_notice.is_cold(tmp_path)


def test_a_cache_lacking_one_of_the_commands_kernel_modules_is_cold(tmp_path):
    (tmp_path / "kernels_abc").mkdir()
    (tmp_path / "kernels_abc" / "dealing.deal_batch_into-264.py311.nbi").write_bytes(b"")
    assert not jit_notice.is_cold(tmp_path)
    assert not jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES["shapes"])
    assert jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES["run"])  # no solver yet
    (tmp_path / "kernels_abc" / "batch.solve_jobs-40.py311.nbi").write_bytes(b"")
    assert jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES["run"])  # not the solver's
    (tmp_path / "dd_def").mkdir()
    (tmp_path / "dd_def" / "batch.solve_jobs-40.py311.nbi").write_bytes(b"")
    assert not jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES["run"])


def test_every_module_the_notice_looks_for_is_a_kernel_module():
    kernels = ROOT / "kernels"
    for modules in jit_notice.KERNEL_MODULES.values():
        for module in modules:
            assert (kernels / f"{module}.py").is_file(), module


def test_hand_help_documents_real_play(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main("hand", "--help")
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in ("--play dd|real", "--time-budget SECONDS", "--jobs JOBS", "p_make_dd",
                  "spreads_excluded", "SeedSequence", "double-dummy only"):
        assert words in out, words


def test_a_warm_cache_gives_no_notice():
    """Once `hand` has run in this process's cache, its kernels are found there."""
    import analyser
    from analyser.solver import solve_deals

    solve_deals(analyser.deal_random(1, 0), 0)
    assert not jit_notice.is_cold(jit_notice.cache_folder(), jit_notice.KERNEL_MODULES["hand"])


def test_the_cache_folder_is_the_kernels_own():
    import kernels

    assert jit_notice.cache_folder().name == "numba-" + kernels.source_digest()


NOTICE = """
from analyser import jit_notice
print(jit_notice.cache_folder())
print(jit_notice.fire())  # not armed: the API stays silent
jit_notice.arm("shapes")
print(jit_notice.fire())
print(jit_notice.fire())  # once only
"""


def test_a_cold_cache_is_announced_once_on_stderr(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", NOTICE], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    folder, unarmed, first, second = out.stdout.split()
    assert Path(folder).parent == tmp_path
    assert (unarmed, first, second) == ("False", "True", "False")
    assert out.stderr == jit_notice.MESSAGE + "\n"
    assert jit_notice.MESSAGE == "compiling kernels, first use only (about 2 minutes)..."


def test_bad_input_with_a_cold_cache_is_still_one_line(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "analyser", "shapes", "--deals", "0"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr == "boston-analyser shapes: error: --deals must be at least 1, got 0\n"


def test_a_command_announces_a_cold_cache_before_its_kernels_run(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.setattr(jit_notice, "cache_folder", lambda: tmp_path)  # an empty cache
    assert main("shapes", "--deals", 3) == 0
    assert capsys.readouterr().err == jit_notice.MESSAGE + "\n"
    (tmp_path / "kernels_abc").mkdir()
    (tmp_path / "kernels_abc" / "dealing.deal_batch_into-1.py311.nbi").write_bytes(b"")
    assert main("shapes", "--deals", 3) == 0
    assert capsys.readouterr().err == ""


def test_real_play_commands_also_need_the_real_players_kernels(tmp_path):
    """`run --play real` and `hand --play real` call the worlds and scoring kernels too: a
    cache holding only what a double-dummy run needs is cold for them."""
    (tmp_path / "kernels_abc").mkdir()
    (tmp_path / "kernels_abc" / "dealing.deal_batch_into-264.py311.nbi").write_bytes(b"")
    (tmp_path / "dd_def").mkdir()
    (tmp_path / "dd_def" / "batch.solve_jobs-40.py311.nbi").write_bytes(b"")
    for command in ("run", "hand"):
        assert not jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES[command])
        assert jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES[f"{command} real"])
    (tmp_path / "kernels_abc" / "worlds.draw_worlds-258.py311.nbi").write_bytes(b"")
    (tmp_path / "dd_def" / "scores.score_cards_batch-312.py311.nbi").write_bytes(b"")
    assert not jit_notice.is_cold(tmp_path, jit_notice.KERNEL_MODULES["hand real"])
