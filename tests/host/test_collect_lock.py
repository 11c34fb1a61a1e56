"""One collector per event file: a second one is refused naming the first (`tenace collect` or `tenace serve`) and its
PID; a killed one leaves no lock;
a collector stopped with a base station connected logs no asyncio traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tenace.cli import main
from tenace.collector.lock import SOMEONE, CollectorLock, LockHeld, lock_path, read_holder
from tenace.movement import mitchell
from tenace.store import create_event


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    create_event(path, name="Lock test", sections={"A": mitchell(3, 2)}).close()
    return path


def collect(db: Path, port_file: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tenace", "collect", str(db), "--listen", "127.0.0.1:0",
                             "--port-file", str(port_file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def port_of(proc: subprocess.Popen[str], port_file: Path) -> int:
    end = time.monotonic() + 30
    while not port_file.exists() or not port_file.read_text().strip():
        if proc.poll() is not None or time.monotonic() > end:
            pytest.fail(f"tenace collect did not start: {proc.communicate(timeout=10)}")
        time.sleep(0.02)
    return int(port_file.read_text())


def test_the_lock_is_one_holder_at_a_time_and_says_who(db: Path) -> None:
    first = CollectorLock(db)
    with first:
        assert lock_path(db).read_text() == f"{os.getpid()} tenace collect\n"
        with pytest.raises(LockHeld) as held:
            CollectorLock(db).acquire()  # another open file: refused even in the same process, as flock is
        assert (held.value.pid, held.value.holder) == (os.getpid(), "tenace collect")
    with CollectorLock(db, "tenace serve"), pytest.raises(LockHeld) as held:  # released: free again, for serve
        CollectorLock(db).acquire()
    assert str(held.value) == (f"tenace serve (PID {os.getpid()}) is already collecting into {db}: "
                               "stop it first (Ctrl-C in its window), or go on with that one")


@pytest.mark.parametrize(("text", "pid", "holder"), [
    ("4242 tenace serve\n", 4242, "tenace serve"),
    ("4242\n", 4242, SOMEONE),  # written by an older tenace: the PID alone
    ("", None, SOMEONE),  # the holder has not written it yet
    ("4242 rm -rf / \x1b[2J\n", 4242, SOMEONE),  # not a command of ours: not echoed to the terminal
])
def test_the_lock_file_names_its_holder_only_when_it_is_one_of_ours(text: str, pid: int | None,
                                                                     holder: str) -> None:
    assert read_holder(text) == (pid, holder)


def test_a_second_collector_on_the_same_file_exits_2_naming_the_first(db: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with CollectorLock(db):
        assert main(["collect", str(db), "--listen", "127.0.0.1:0"]) == 2
    out, err = capsys.readouterr()
    assert err == (f"tenace collect: tenace collect (PID {os.getpid()}) is already collecting into {db}: "
                   "stop it first (Ctrl-C in its window), or go on with that one\n")
    assert "Pairing code" not in out  # refused before it started


@pytest.mark.slow
def test_a_lock_left_by_a_killed_collector_does_not_block_and_ctrl_c_logs_no_traceback(db: Path,
                                                                                        tmp_path: Path) -> None:
    first = collect(db, tmp_path / "port1")
    try:
        port_of(first, tmp_path / "port1")
        # --db FILE, the older form, names the same event file as EVENT.
        second = subprocess.run([sys.executable, "-m", "tenace", "collect", "--db", str(db), "--listen",
                                 "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert second.stderr.splitlines() == [
            f"tenace collect: tenace collect (PID {first.pid}) is already collecting into {db}: "
            "stop it first (Ctrl-C in its window), or go on with that one"]
    finally:
        first.send_signal(signal.SIGKILL)  # as `tenace sim` does: the kernel drops the lock with the process
        first.communicate(timeout=20)
    assert lock_path(db).read_text() == f"{first.pid} tenace collect\n"  # the file stays, the lock does not

    third = collect(db, tmp_path / "port3")
    try:
        station = socket.create_connection(("127.0.0.1", port_of(third, tmp_path / "port3")), timeout=5)
        time.sleep(0.3)  # attached: the collector logs it
        third.send_signal(signal.SIGINT)  # Ctrl-C with a base station connected
        out, err = third.communicate(timeout=30)
        station.close()
    finally:
        if third.poll() is None:
            third.kill()
            third.communicate()
    assert third.returncode == 0, out + err
    assert "base station tcp" in err and "collector stopped" in out
    for word in ("Traceback", "CancelledError", "ERROR"):
        assert word not in out + err, out + err



# Run as `python -c`: a SIGTERM (as `tenace sim` sends after Ctrl-C reached the whole group) lands exactly where it
# once printed a traceback, after asyncio's loop has closed its wakeup pipe and before it removes its handlers.
_LATE_SIGTERM = """
import asyncio.selector_events, os, signal, sys, threading, time
from pathlib import Path
from tenace.cli import main
loop_class = asyncio.selector_events.BaseSelectorEventLoop
close_pipe = loop_class._close_self_pipe
def close_then_signal(self):
    close_pipe(self)
    os.kill(os.getpid(), signal.SIGTERM)
loop_class._close_self_pipe = close_then_signal
port_file = Path(sys.argv[2])
def ctrl_c():
    while not (port_file.exists() and port_file.read_text().strip()):
        time.sleep(0.02)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=ctrl_c, daemon=True).start()
sys.exit(main(["collect", sys.argv[1], "--listen", "127.0.0.1:0", "--port-file", sys.argv[2]]))
"""


def test_a_stop_signal_that_arrives_while_it_closes_is_ignored(db: Path, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", _LATE_SIGTERM, str(db), str(tmp_path / "port")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "collector stopped" in proc.stdout and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
