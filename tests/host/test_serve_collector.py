"""`tenace serve` with the collector's options: one process collects (the simulated terminals' results stored) and
serves the pages that show them; the event file's lock, a failed collector, Ctrl-C and bad options."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from cli_runner import tenace

from tenace.collector.lock import CollectorLock, LockHeld
from tenace.collector.service import Service
from tenace.movement import mitchell
from tenace.simulation.faults import FaultRates
from tenace.simulation.session import runner
from tenace.simulation.session.processes import CollectorProcess
from tenace.store import create_event


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    create_event(path, name="Serve test", sections={"A": mitchell(3, 2)}).close()
    return path


def lock_is_free(db: Path) -> bool:
    """True when a collector could take the event file's lock now (LockHeld otherwise)."""
    with CollectorLock(db):
        return True


def serve_args(db: Path, *more: str) -> list[str]:
    return ["serve", str(db), "--listen", "127.0.0.1:0", "--listen-radio", "127.0.0.1:0", *more]


def test_the_event_files_lock_holds_for_the_collector_in_serve(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with CollectorLock(db):
        code, out, err = tenace(capsys, *serve_args(db))
    assert code == 2 and "serving" not in out
    assert err == (f"tenace serve: tenace collect (PID {os.getpid()}) is already collecting into {db}: "
                   "stop it first (Ctrl-C in its window), or go on with that one\n")


def test_a_collector_that_fails_stops_the_pages_in_one_line_and_exit_1(
        db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def fails(self: Service) -> None:
        await asyncio.sleep(0.3)  # the pages are up by then
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Service, "tick", fails)
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where the crash report goes
    started = time.monotonic()
    code, out, err = tenace(capsys, *serve_args(db))
    assert time.monotonic() - started < 10
    assert code == 1 and "serving the results of" in out and "collector stopped" not in out
    assert err.startswith("tenace serve: the collector failed, so the pages stopped too: internal error "
                          "(RuntimeError: disk on fire); please report it with ")
    assert err.count("\n") == 1
    report = Path(err.rsplit(" ", 1)[1].strip())
    assert "disk on fire" in report.read_text()
    assert lock_is_free(db)


@pytest.mark.parametrize(("args", "message"), [
    (["--listen-radio", "7373"], "--listen-radio takes HOST:PORT"),
    (["--port-file", "p.txt"], "give --serial DEV (a base station) or --listen-radio HOST:PORT (the simulator)"),
    (["--serial", "/dev/null", "--port-file", "p.txt"], "--port-file goes with --listen-radio"),
    (["--pin", "1234"], "give --serial DEV (a base station) or --listen-radio HOST:PORT (the simulator)"),
    (["--listen-radio", "127.0.0.1:0", "--pin", "12"], "--pin '12': four digits"),
])
def test_bad_collector_options_are_one_line_and_exit_2(db: Path, capsys: pytest.CaptureFixture[str],
                                                       args: list[str], message: str) -> None:
    code, out, err = tenace(capsys, "serve", str(db), "--listen", "127.0.0.1:0", *args)
    assert code == 2 and "serving" not in out
    assert err.startswith("tenace serve: ") and message in err and err.count("\n") == 1
    assert lock_is_free(db)


def test_a_radio_port_in_use_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, _, err = tenace(capsys, "serve", str(db), "--listen", "127.0.0.1:0",
                              "--listen-radio", f"127.0.0.1:{port}")
    assert code == 2 and err.startswith(f"tenace serve: cannot listen on 127.0.0.1:{port}: ")
    assert "address already in use" in err.lower() and err.count("\n") == 1


class ServeProcess(CollectorProcess):
    """The simulation's collector as `tenace serve` with the collector's options: one process for both. Before it
    is stopped at the session's end, its pages are read (what a phone would show then)."""

    def __init__(self, db: Path, workdir: Path, extra: list[str]) -> None:
        super().__init__(db, workdir, extra)
        self.pages: dict[str, str] = {}
        self.url = ""
        self.returncode: int | None = None
        self.log = ""

    async def start(self) -> int:
        self.port_file.unlink(missing_ok=True)
        command = [sys.executable, "-m", "tenace", *serve_args(self.db, "--port-file", str(self.port_file)),
                   *self.extra]
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log_path.read_text()
            text = self.port_file.read_text() if self.port_file.exists() else ""
            found = re.search(r"on (http://127\.0\.0\.1:\d+)/;", self.log_path.read_text())
            if text.strip() and found:
                self.url = found.group(1)
                # Rendered once before any result: the pages must notice the collector's commits (same process,
                # another connection) to show anything newer at the end.
                self.pages["first"] = httpx.get(self.url + "/", timeout=10).text
                return int(text)
            await asyncio.sleep(0.05)
        pytest.fail("tenace serve did not listen for base stations and serve its pages within 30 s")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        for page in ("/", "/board/A/1", "/playing"):
            self.pages[page] = httpx.get(self.url + page, timeout=10).text
        self.proc.send_signal(signal.SIGINT)
        self.returncode = self.proc.wait(timeout=30)
        self.log = self.log_path.read_text()


@pytest.mark.slow
def test_simulated_terminals_key_results_into_serve_and_its_pages_show_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real firmware on MicroPython keys every result over the simulated radio into `tenace serve`'s
    collector, which stores each exactly once; the same process's pages rank them all."""
    made: list[ServeProcess] = []

    def serve_process(db: Path, workdir: Path, extra: list[str]) -> ServeProcess:
        made.append(ServeProcess(db, workdir, extra))
        return made[0]

    monkeypatch.setattr(runner, "CollectorProcess", serve_process)
    options = runner.SimOptions(tables=3, boards=6, boards_per_round=2, faults=FaultRates(loss=0.05),
                                seed=2, timeout_s=300)
    result = runner.run(options, tmp_path)
    comparison = result.comparison
    assert comparison.ok and (comparison.accepted, comparison.stored, comparison.lost) == (18, 18, 0)
    served = made[0]
    assert served.returncode == 130, served.log
    assert "collector stopped" in served.log and "results 18/18," in served.log
    assert served.log.rstrip().endswith("tenace serve: interrupted")
    assert "Traceback" not in served.log
    assert "0 of 18 results in" in served.pages["first"]
    assert "18 of 18 results in" in served.pages["/"]
    assert served.pages["/"].count('<table class="ranking">') == 2
    assert served.pages["/board/A/1"].count("<tr>") >= 3  # its three tables' results on the traveller
    assert "Every table has finished." in served.pages["/playing"]
    assert lock_is_free(tmp_path / "event.sqlite")


@pytest.mark.slow
def test_without_the_collectors_options_it_serves_beside_a_running_collector(db: Path) -> None:
    """Pages only, as before: no lock taken, so a `tenace collect` (here its lock) may run beside it."""
    with CollectorLock(db):
        process = subprocess.Popen([sys.executable, "-m", "tenace", "serve", str(db), "--listen", "127.0.0.1:0"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert process.stdout is not None
            first = process.stdout.readline()
            found = re.search(r"on (http://127\.0\.0\.1:\d+)/;", first)
            assert found, first + process.communicate(timeout=10)[1]
            assert "0 of 18 results in" in httpx.get(found.group(1) + "/", timeout=10).text
            assert "3 of 3 tables still playing" in httpx.get(found.group(1) + "/playing", timeout=10).text
        finally:
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=15)
    assert (process.returncode, err) == (130, "tenace serve: interrupted\n")
    assert "Pairing code" not in out and "collector stopped" not in out


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_stops_both_with_the_collectors_last_line(db: Path, tmp_path: Path, signum: int) -> None:
    port_file = tmp_path / "port.txt"
    process = subprocess.Popen([sys.executable, "-m", "tenace", *serve_args(db, "--port-file", str(port_file))],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("Pairing code for this event: ") and lines[2].startswith("listening for base")
        url = re.search(r"on (http://127\.0\.0\.1:\d+)/;", lines[3])
        assert url and port_file.read_text().strip().isdigit(), lines
        assert httpx.get(url.group(1) + "/playing", timeout=10).status_code == 200
        with socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=5):
            pass  # a base station that comes and goes: the collector is listening
        with pytest.raises(LockHeld) as held:  # the collector in serve holds the event file, and says so
            lock_is_free(db)
        assert str(held.value).startswith(f"tenace serve (PID {process.pid}) is already collecting into {db}: ")
    finally:
        process.send_signal(signum)
        out, err = process.communicate(timeout=20)
    # The collector's log (the base station's coming and going), then the one line of every interrupted command.
    assert process.returncode == 130
    assert err.splitlines()[-1] == "tenace serve: interrupted" and "Traceback" not in err
    assert out.splitlines()[-2:] == ["collector stopped", "results 0/18, terminals heard 0, refused frames 0"]
    assert lock_is_free(db)

