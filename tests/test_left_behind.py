"""The session's check for processes the tests leave running: it finds them by the mark they inherit, and a run
that leaves one fails, naming it, and kills it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SESSION_ENV, processes_marked


def test_a_process_is_found_by_its_mark_while_it_runs() -> None:
    sleeper = subprocess.Popen(["sleep", "60"], env={**os.environ, SESSION_ENV: "m1"})
    try:
        # Some kernels (the CI's sandbox) show a just-started process's environment a moment late.
        deadline = time.monotonic() + 10
        while not processes_marked("m1") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(processes_marked("m1")) == [sleeper.pid]
        assert processes_marked("m2") == {}
    finally:
        sleeper.kill()
        sleeper.wait()
    assert processes_marked("m1") == {}


@pytest.mark.slow  # a pytest run, and the check's grace before it says so
def test_a_run_that_leaves_a_process_fails_and_kills_it(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_leaves.py").write_text(
        "import subprocess\n\n\ndef test_leaves():\n    subprocess.Popen(['sleep', '300'])\n"
        "\n\ndef test_leaves_nothing():\n    subprocess.run(['true'], check=True)\n")
    # Neither this run's session marker nor CI's insistence on the oracles (the copied conftest finds none here).
    env = {k: v for k, v in os.environ.items() if k not in (SESSION_ENV, "CI")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", str(tmp_path),
                          "-k", "test_leaves"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "2 passed" in run.stdout, run.stdout + run.stderr
    assert "1 process(es) started by the tests still running at the end (killed now)" in run.stdout
    named = re.search(r"^(\d+) sleep 300$", run.stdout, re.MULTILINE)
    assert named, run.stdout
    # That process, by its id (another run's sleep may be about): ended, or a zombie, within a few seconds.
    deadline = time.monotonic() + 10
    while _running(int(named[1])) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(int(named[1]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", str(tmp_path),
                          "-k", "nothing"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def _running(pid: int) -> bool:
    """Whether the process is there and not a zombie (which has ended, its parent not yet told)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return False
