"""`tenace collect` as a process: terminals over TCP through SIGKILLs and restarts, and a base station on a pty."""

from __future__ import annotations

import os
import random
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tenace.collector import link_key
from tenace.movement import Movement, mitchell
from tenace.store import connect, create_event
from tenace_wire import slip
from tenace_wire.control import ALREADY_STORED, STORED, Ack, PairOffer
from tenace_wire.errors import WireError
from tenace_wire.table_messages import Result
from tenace_wire.terminal_session import TerminalSession

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

MOVEMENT = mitchell(4, 2)  # 4 tables, 3 rounds of 2 boards: 24 results


def collect(db: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tenace.cli", "collect", str(db), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 20.0) -> str:
    end = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > end:
            out = proc.stdout.read() if proc.stdout else ""
            pytest.fail(f"tenace collect did not start: {out}")
        time.sleep(0.02)
    return path.read_text().strip()


class Tables:
    """Terminals at every table of the movement, each keying its results in order, all through one base station."""

    def __init__(self, movement: Movement, code_of: Path, seed: int = 1) -> None:
        rng = random.Random(seed)
        self.terminals = {t: TerminalSession(10 + t, rng.getrandbits) for t in range(1, movement.tables + 1)}
        self.to_send = {t: [Result(section=0, table=e.table, round=e.round, board=b, ns_pair=e.ns_pair,
                                   ew_pair=e.ew_pair, level=3, strain=4, declarer=1, tricks=9)
                            for e in sorted(movement.encounters, key=lambda e: e.round) if e.table == t
                            for b in e.boards] for t in self.terminals}
        self.sent: dict[tuple[int, int], Result] = {}  # (terminal, seq) -> result, each queued exactly once
        self.acked: dict[tuple[int, int], int] = {}
        self.code_of = code_of
        self.paired: set[int] = set()
        self.start = time.monotonic()

    def now(self) -> int:
        """The terminals' clock in ms: it runs on across the host's restarts, as theirs would."""
        return int((time.monotonic() - self.start) * 1000)

    def frames(self, now: int) -> list[bytes]:
        out = []
        for table, t in self.terminals.items():
            if t.terminal not in self.paired:
                out.append(t.hello())
                continue
            if t.signed_in and self.to_send[table] and t.pending() < 4:
                msg = self.to_send[table].pop(0)
                self.sent[(t.terminal, t.queue(msg, now))] = msg
            out.extend(t.due(now))
        return out

    def hear(self, frame: bytes, now: int) -> None:
        for table, t in self.terminals.items():
            try:
                inbound = t.receive(frame, now)
            except WireError:
                continue
            if inbound is None:
                continue
            if isinstance(inbound.message, PairOffer) and t.terminal not in self.paired:
                conn = connect(self.code_of)
                code = link_key(conn).code  # as the simulator does: the code from the event file
                conn.close()
                t.pair(code, inbound.message.nonce)
                self.paired.add(t.terminal)
                t.sign_in(0, table, now)
            elif isinstance(inbound.message, Ack) and (t.terminal, inbound.seq) in self.sent:
                self.acked[(t.terminal, inbound.seq)] = inbound.message.status

    def done(self) -> bool:
        return not any(self.to_send.values()) and all(k in self.acked for k in self.sent)


def pump(sock: socket.socket, tables: Tables, until: float, stop_after_acks: int | None = None) -> bool:
    """Exchange SLIP frames with the collector until all is acknowledged (True), `stop_after_acks`, or time out."""
    decoder = slip.Decoder()
    while time.monotonic() < until:
        now = tables.now()
        for frame in tables.frames(now):
            try:
                sock.sendall(slip.encode(frame))
            except OSError:
                return False
        ready, _, _ = select.select([sock], [], [], 0.02)
        if ready:
            try:
                data = sock.recv(4096)
            except OSError:
                return False
            if not data:
                return False
            for packet in decoder.feed(data):
                tables.hear(packet, now)
        if tables.done():
            return True
        if stop_after_acks is not None and len(tables.acked) >= stop_after_acks:
            return False
    return False


def connect_tcp(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setblocking(True)
    return sock


def test_results_over_tcp_stored_exactly_once_through_sigkills_and_restarts(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    create_event(db, name="Kill test", sections={"A": MOVEMENT}).close()
    tables = Tables(MOVEMENT, db)
    total = sum(len(e.boards) for e in MOVEMENT.encounters)
    kills = 0
    for stop_at in (5, 13, None):  # SIGKILL after 5 and 13 acknowledged results, then run to the end
        port_file = tmp_path / f"port{kills}.txt"
        proc = collect(db, "--listen", "127.0.0.1:0", "--port-file", str(port_file))
        try:
            sock = connect_tcp(int(wait_for(port_file, proc)))
            finished = pump(sock, tables, time.monotonic() + 60, stop_at)
            sock.close()
        finally:
            if stop_at is not None or proc.poll() is None:
                proc.send_signal(signal.SIGKILL if stop_at is not None else signal.SIGTERM)
            out, _ = proc.communicate(timeout=20)
        if stop_at is not None:
            kills += 1
            assert proc.returncode == -signal.SIGKILL
        else:
            assert finished, out
            assert proc.returncode == 0, out
            assert "Pairing code for this event:" in out and "collector stopped" in out
    assert kills == 2 and len(tables.sent) == total
    assert set(tables.acked.values()) <= {STORED, ALREADY_STORED}
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT f.terminal, f.seq, r.board, r.round, r.table_no FROM result r "
                        "JOIN frame f ON f.id = r.frame").fetchall()
    slots = conn.execute("SELECT count(DISTINCT section || table_no || '/' || round || '/' || board) FROM result")
    assert len(rows) == total and slots.fetchone()[0] == total  # every result once, none twice
    assert {(t, s) for t, s, *_ in rows} == set(tables.sent)
    assert dict(conn.execute("SELECT reason, count FROM link_counter"))["accepted"] > 0  # flushed on SIGTERM
    conn.close()


def test_a_busy_port_and_a_missing_event_file_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    create_event(db, name="Busy", sections={"A": MOVEMENT}).close()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = collect(db, "--listen", f"127.0.0.1:{taken.getsockname()[1]}")
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "cannot listen" in out
    proc = collect(tmp_path / "nowhere.sqlite", "--listen", "127.0.0.1:0")
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "no such event file" in out


def test_a_base_station_on_a_serial_port_pseudo_terminal(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    create_event(db, name="Serial", sections={"A": MOVEMENT}).close()
    master, slave = os.openpty()
    name = os.ttyname(slave)
    proc = collect(db, "--serial", name, "--baud", "115200")
    try:
        tables = Tables(mitchell(4, 2), db, seed=3)
        for table in (2, 3, 4):  # one table is enough here
            tables.to_send[table] = []
        del tables.terminals[2], tables.terminals[3], tables.terminals[4]
        decoder = slip.Decoder()
        while tables.now() < 30_000 and not tables.done():
            now = tables.now()
            for frame in tables.frames(now):
                os.write(master, slip.encode(frame))
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                for packet in decoder.feed(os.read(master, 4096)):
                    tables.hear(packet, now)
        assert tables.done() and len(tables.acked) == 6
        assert set(tables.acked.values()) == {STORED}
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, out
    assert f"base station on {name}" in out
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == 6
    conn.close()


def test_the_serial_base_station_unplugged_and_plugged_back(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    create_event(db, name="Replug", sections={"A": MOVEMENT}).close()
    device = tmp_path / "ttyBASE"  # a stable name, as udev gives a USB base station, over changing ptys
    master, slave = os.openpty()
    device.symlink_to(os.ttyname(slave))
    proc = collect(db, "--serial", str(device))
    tables = Tables(mitchell(4, 2), db, seed=5)
    for table in (2, 3, 4):
        del tables.terminals[table]
    tables.to_send = {1: tables.to_send[1][:4]}

    def exchange(until_acked: int) -> None:
        decoder = slip.Decoder()
        end = tables.now() + 20_000
        while tables.now() < end and len(tables.acked) < until_acked:
            now = tables.now()
            for frame in tables.frames(now):
                os.write(master, slip.encode(frame))
            if select.select([master], [], [], 0.05)[0]:
                for packet in decoder.feed(os.read(master, 4096)):
                    tables.hear(packet, now)

    try:
        tables.to_send[1], later = tables.to_send[1][:2], tables.to_send[1][2:]
        exchange(2)
        assert len(tables.acked) == 2
        os.close(master)  # unplugged
        os.close(slave)
        device.unlink()
        time.sleep(1.5)
        master, slave = os.openpty()  # plugged back (another pty behind the same name)
        device.symlink_to(os.ttyname(slave))
        tables.to_send[1] = later
        exchange(4)
        assert len(tables.acked) == 4 and set(tables.acked.values()) == {STORED}
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        os.close(master)
        os.close(slave)
    assert "unplugged" in out and "is back" in out, out
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == 4
    conn.close()
