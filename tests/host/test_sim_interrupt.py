"""`tenace sim` stopped with Ctrl-C: every child process stopped, one line, exit 130; no traceback in any
collector log, whether the collector was stopped, interrupted or SIGKILLed and restarted."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

TENACE = [sys.executable, "-m", "tenace", "sim"]


def assert_clean_log(workdir: Path) -> None:
    log = (workdir / "collector.log").read_text(encoding="utf-8")
    for word in ("Traceback", "CancelledError", "ERROR"):
        assert word not in log, log


def group_is_gone(pgid: int, timeout_s: float = 10.0) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_whole_run_leaves_a_collector_log_without_tracebacks(tmp_path: Path) -> None:
    workdir = tmp_path / "run"
    proc = subprocess.run([*TENACE, "--tables", "3", "--boards", "3", "--boards-per-round", "1", "--kill-host", "1",
                           "--workdir", str(workdir)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert_clean_log(workdir)


@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "sigint-to-sim-only"])
def test_ctrl_c_stops_every_child_and_says_one_line(tmp_path: Path, whole_group: bool) -> None:
    """Ctrl-C in a terminal window reaches the whole foreground group (sim, collector, MicroPython terminals);
    SIGINT to the sim alone must stop its children just the same."""
    workdir = tmp_path / "run"
    proc = subprocess.Popen([*TENACE, "--tables", "6", "--boards", "6", "--boards-per-round", "1", "--workdir",
                             str(workdir)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,  # a group of its own, as a shell's foreground job
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        log = workdir / "collector.log"
        end = time.monotonic() + 300
        while not (log.exists() and "signed in" in log.read_text(encoding="utf-8")):  # mid-session
            assert proc.poll() is None and time.monotonic() < end, proc.communicate()
            time.sleep(0.05)
        if whole_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, out + err
    said = [line for line in err.splitlines() if not line.startswith("  ")]  # progress lines are indented
    assert said == ["tenace sim: interrupted"], err
    assert "Traceback" not in out + err
    assert group_is_gone(proc.pid), "a child of tenace sim outlived it"
    assert_clean_log(workdir)


def test_a_sim_killed_by_sigkill_leaves_no_child_behind(tmp_path: Path) -> None:
    """SIGKILL (a test's timeout, the OOM killer) gives the sim no chance to stop its children: the kernel stops the
    collector (parent-death signal) and the terminals leave when the radio's sockets close."""
    workdir = tmp_path / "run"
    proc = subprocess.Popen([*TENACE, "--tables", "6", "--boards", "6", "--boards-per-round", "1", "--workdir",
                             str(workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        log = workdir / "collector.log"
        end = time.monotonic() + 300
        while not (log.exists() and "signed in" in log.read_text(encoding="utf-8")):  # mid-session
            assert proc.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert group_is_gone(proc.pid, timeout_s=30), "a child of tenace sim outlived it"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
