"""`tenace hub serve` leaves nothing running however it ends: SIGTERM or SIGINT stop every child with any number of
workers, without a traceback; after SIGKILL its children end with it (none left under init)."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest

from tenace.simulation.clubs import free_port

from conftest import SESSION_ENV, processes_marked

pytestmark = pytest.mark.slow  # a hub of several processes, started and stopped
GONE_S = 10.0


def _wait_gone(mark: str) -> dict[int, str]:
    deadline = time.monotonic() + GONE_S
    while (left := processes_marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.fixture
def mark() -> Iterator[str]:
    """This test's own mark on the hub's processes (the session's check would only say it at the end)."""
    mark = secrets.token_hex(6)
    yield mark
    for pid in processes_marked(mark):  # what a failed test left: not the next test's, nor the session's
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGTERM), (3, signal.SIGTERM), (1, signal.SIGINT),
                                                 (2, signal.SIGINT), (1, signal.SIGKILL), (2, signal.SIGKILL)])
def test_serve_leaves_no_process_however_it_ends(hub_db: str, mark: str, workers: int, signum: int) -> None:
    port = free_port()
    env = {**os.environ, SESSION_ENV: mark, "TENACE_HUB_DB": hub_db}
    hub = subprocess.Popen([sys.executable, "-m", "tenace", "hub", "serve", "--host", "127.0.0.1", "--port",
                            str(port), "--workers", str(workers)], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        assert hub.poll() is None, hub.communicate()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/sim/none/national", timeout=2).status_code == 404:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the hub did not start"
        time.sleep(0.1)
    started = processes_marked(mark)
    assert len(started) >= 2 + workers  # the command, its scoring worker and its page workers
    password = urlsplit(hub_db).password
    assert password and not any(password in command for command in started.values())  # ps does not show it
    hub.send_signal(signum)
    out, err = hub.communicate(timeout=30)
    assert _wait_gone(mark) == {}
    if signum != signal.SIGKILL:
        assert hub.returncode == 0 and out == b"" and err == b"", err.decode(errors="replace")
