"""tenace.lifetime: a child ends with its parent without the parent-death signal too (the watch used elsewhere than
Linux), and at once when its parent is gone before it looks."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time

from conftest import SESSION_ENV, processes_marked

GONE_S = 10.0
CHILD = ("import sys, time; from tenace.lifetime import end_with_parent; end_with_parent(int(sys.argv[1])); "
         "print('watching', flush=True); time.sleep(60)")


def _gone(mark: str) -> dict[int, str]:
    deadline = time.monotonic() + GONE_S
    while (left := processes_marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_a_child_whose_parent_is_not_the_one_it_was_given_ends_at_once() -> None:
    child = subprocess.run([sys.executable, "-c", CHILD, str(os.getpid() + 999_999)], timeout=30, check=False)
    assert child.returncode == 0


def test_a_child_ends_when_its_parent_does_without_the_parent_death_signal() -> None:
    mark = secrets.token_hex(6)
    # The parent starts the child (no preexec: no parent-death signal), waits until it watches, and ends.
    parent = ("import os, subprocess, sys\n"
              f"child = subprocess.Popen([sys.executable, '-c', {CHILD!r}, str(os.getpid())], stdout=subprocess.PIPE)\n"
              "print(child.stdout.readline().decode().strip(), flush=True)\n")
    try:
        done = subprocess.run([sys.executable, "-c", parent], env={**os.environ, SESSION_ENV: mark}, timeout=30,
                              check=True, capture_output=True, text=True)
        assert done.stdout == "watching\n"
        assert _gone(mark) == {}
    finally:  # this test's own mark: the session's check would not see what it left
        for pid in processes_marked(mark):
            os.kill(pid, signal.SIGKILL)
