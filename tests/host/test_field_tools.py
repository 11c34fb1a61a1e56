"""The field tools on the collector: terminals' status reports (`tenace terminals`) and radio surveys (`tenace survey`),
over the simulated channel (tenace.simulation.loopback), lossless and lossy."""

from __future__ import annotations

import json
import random
import select
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.collector import Collector, link_key
from tenace.collector.lock import CollectorLock
from tenace.movement import mitchell
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import connect, create_event, sign_in
from tenace.store.link import record_pairing
from tenace.store.terminal_reports import ask_survey, survey, survey_lines
from tenace_wire import slip
from tenace_wire.auth import Tagger
from tenace_wire.control import STORED, Ack, PairOffer, SignInAnswer
from tenace_wire.errors import WireError
from tenace_wire.field_messages import BATTERY, DISPLAY, FAILED, KEYS, PASSED, RADIO, Ping, Status, version_fields
from tenace_wire.frame import decode_frame, frame_terminal
from tenace_wire.frame_types import ACK, PING
from tenace_wire.host_session import HostSession
from tenace_wire.terminal_session import TerminalSession

MOVEMENT = mitchell(3, 2)
KEY = b"k" * 16


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    create_event(tmp_path / "club.sqlite", name="Field tools", sections={"A": MOVEMENT}).close()
    return tmp_path / "club.sqlite"


def make_loop(conn: sqlite3.Connection, tables: tuple[int, ...] = (1, 2, 3), loss: float = 0.0,
              seed: int = 1) -> Loopback:
    rng = random.Random(seed)
    collector = Collector(conn, None, rng.getrandbits)
    code = link_key(conn).code
    terminals = [SimulatedTerminal(100 + t, 0, t, code, random.Random(seed * 100 + t)) for t in tables]
    return Loopback(collector, terminals, Channel(random.Random(seed), loss))


def status(**changes: int) -> Status:
    major, minor, patch = version_fields("0.1.0")
    fields = dict(major=major, minor=minor, patch=patch, battery_mv=3900, battery=68, rssi=-55, sent=120, retried=6,
                  factory=PASSED, checks=KEYS | DISPLAY | RADIO | BATTERY)
    fields.update(changes)
    return Status(**fields)


def test_a_ping_is_acknowledged_once_and_never_sent_again() -> None:
    host = HostSession(KEY, random.Random(1).getrandbits)
    terminal = TerminalSession(5, random.Random(2).getrandbits, KEY)
    terminal.sign_in(0, 1, 0)
    inbound = host.receive(terminal.due(0)[0], 0)
    host.answer_sign_in(inbound, SignInAnswer(status=0, section=0, table=1), 0)
    for frame in host.due(0):
        terminal.receive(frame, 0)
    host.receive(terminal.due(0)[0], 0)  # the terminal's ACK of the answer
    assert host.pending(5) == 0
    seq, frame = host.probe(5, Ping(number=9))
    assert host.pending(5) == 0 and host.due(10000) == []  # sent by the caller, never retransmitted
    assert decode_frame(frame, Tagger(KEY), True).type == PING
    assert terminal.receive(frame, 5).type == PING
    acks = terminal.due(5)
    assert len(acks) == 1
    back = host.receive(acks[0], 6)
    assert back.type == ACK and back.seq == seq and isinstance(back.message, Ack)
    assert terminal.receive(frame, 7) is None  # heard twice: a duplicate, acknowledged again
    sent, retried = terminal.traffic()
    assert sent == 1 and retried == 0  # the SIGN_IN, once (ACKs are replies, not counted)


def test_statuses_are_kept_and_listed(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = connect(db_path)
    loop = make_loop(conn)
    assert loop.run_until(loop.signed_in, 30_000)
    first, second, third = loop.terminals
    seqs = [first.send(status(), loop.now), second.send(status(battery_mv=0, rssi=0, factory=FAILED, checks=KEYS),
                                                         loop.now)]
    third.send(status(battery=40), loop.now)
    seqs.append(third.send(status(battery=35, factory=0, checks=0), loop.now + 1))  # the latest one counts
    assert loop.run_until(lambda: all(t.session.pending() == 0 for t in loop.terminals), 30_000)
    assert first.acks[seqs[0]] == STORED and second.acks[seqs[1]] == STORED
    loop.collector.flush(loop.now)
    sign_in(conn, 9, "A", 3, who="director")  # seated by hand, never reported: dashes
    record_pairing(conn, 103, "club", "0a1b2c3d")  # as the collector keeps it when a terminal pairs with the club key
    conn.close()

    code, out, err = tenace(capsys, "terminals", str(db_path))
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["terminal", "table", "firmware", "battery"]
    row = {line.split()[0]: line for line in lines[1:-1]}
    assert row["101"].split()[1:5] == ["A1", "0.1.0", "68%", "3900"] and "-55 dBm" in row["101"]
    assert "4.8% of 126" in row["101"] and " passed " in row["101"] and row["101"].endswith(" code alone")
    assert "failed (display, radio, battery)" in row["102"] and " - " in row["102"]  # no voltage, no signal
    assert "35%" in row["103"] and " not run " in row["103"] and row["103"].endswith(" club key")
    assert row["9"].split()[1:4] == ["A3", "-", "-"] and row["9"].endswith(" -")
    assert lines[-1] == "4 terminal(s), 3 with a status report"

    code, out, _ = tenace(capsys, "terminals", str(db_path), "--json")
    doc = {t["terminal"]: t for t in json.loads(out)["terminals"]}
    assert doc[101]["rssi_dbm"] == -55 and doc[101]["battery_mv"] == 3900 and doc[101]["loss_percent"] == 4.8
    assert doc[101]["factory_checks_passed"] == ["keys", "display", "radio", "battery"]
    assert doc[102]["rssi_dbm"] is None and doc[102]["factory_checks_passed"] == ["keys"]
    assert doc[101]["last_heard"] is not None and doc[9]["firmware"] is None
    assert (doc[101]["paired"], doc[103]["paired"], doc[9]["paired"]) == ("code", "club", None)


def test_an_event_without_terminals(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = tenace(capsys, "terminals", str(db_path))
    assert code == 0 and "no terminal has signed in or reported yet" in out
    code, out, _ = tenace(capsys, "terminals", str(db_path), "--json")
    assert json.loads(out) == {"terminals": []}
    code, _, err = tenace(capsys, "terminals", str(db_path.with_name("none.sqlite")))
    assert code == 2 and len(err.strip().splitlines()) == 1


def run_survey(conn: sqlite3.Connection, loop: Loopback, seconds: int, interval_ms: int) -> dict[int, object]:
    survey_id = ask_survey(conn, seconds, interval_ms)
    assert loop.run_until(lambda: (s := survey(conn, survey_id)) is not None and s.finished is not None,
                          (seconds + 10) * 1000)
    return {line.terminal: line for line in survey_lines(conn, survey_id)}


def test_survey_on_a_perfect_channel(db_path: Path) -> None:
    conn = connect(db_path)
    loop = make_loop(conn)
    assert loop.run_until(loop.signed_in, 30_000)
    lines = run_survey(conn, loop, 5, 200)
    assert sorted(lines) == [101, 102, 103]
    for line in lines.values():
        # A ping goes at a step, the ACK comes back at the next (the loopback's 20 ms): one step round trip.
        assert line.pings == 25 and line.answered == 25, line
        assert line.rtt_min == line.rtt_max == 20, line
    conn.close()


def test_survey_on_a_lossy_channel_and_a_silent_terminal(db_path: Path) -> None:
    conn = connect(db_path)
    loop = make_loop(conn, loss=0.2, seed=3)
    assert loop.run_until(loop.signed_in, 60_000)
    sign_in(conn, 9, "A", 3, who="director")  # terminal 9 is seated at a table, but not on the air
    loop.collector.session.resume(9, 0, 3)
    lines = run_survey(conn, loop, 10, 100)
    assert lines[9].pings == 100 and lines[9].answered == 0 and lines[9].rtt_min is None
    for terminal in (101, 102, 103):
        line = lines[terminal]
        # Each ping and each ACK is lost with probability 0.2: about 64 % answered (sd 5 points). A ping may be
        # skipped while the terminal's round plans, sent again after losses, are behind.
        assert 90 <= line.pings <= 100 and 0.48 <= line.answered / line.pings <= 0.8, line
    conn.close()


def test_survey_needs_a_running_collector(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "survey", str(db_path), "--seconds", "1")
    assert code == 2 and "no collector is running on" in err and len(err.strip().splitlines()) == 1
    code, _, err = tenace(capsys, "survey", str(db_path), "--seconds", "0")
    assert code == 2 and "--seconds is 1 to 600 seconds, not 0" in err
    with CollectorLock(db_path):  # a collector that never takes up the request
        import tenace.commands.survey as survey_command

        survey_command.START_S = 0.3
        try:
            code, _, err = tenace(capsys, "survey", str(db_path), "--seconds", "1")
        finally:
            survey_command.START_S = 5.0
    assert code == 2 and "did not take up the survey" in err


class TcpTerminals:
    """Terminals behind one base station on `tenace collect`'s TCP link (SLIP), the second one on a lossy radio."""

    def __init__(self, sock: socket.socket, code: str, loss: dict[int, float], seed: int = 5) -> None:
        self.sock = sock
        self.code = code
        self.loss = loss
        self.rng = random.Random(seed)
        self.terminals = {t: TerminalSession(100 + t, random.Random(seed + t).getrandbits) for t in loss}
        self.paired: set[int] = set()
        self.decoder = slip.Decoder()
        self.start = time.monotonic()

    def lost(self, table: int) -> bool:
        return self.rng.random() < self.loss[table]

    def step(self) -> None:
        now = int((time.monotonic() - self.start) * 1000)
        out = []
        for table, t in self.terminals.items():
            frames = [t.hello()] if t.terminal not in self.paired else t.due(now)
            out += [f for f in frames if not self.lost(table)]
        if out:
            self.sock.sendall(b"".join(slip.encode(f) for f in out))
        if select.select([self.sock], [], [], 0.01)[0]:
            for frame in self.decoder.feed(self.sock.recv(4096)):
                for table, t in self.terminals.items():
                    if frame_terminal(frame) != t.terminal or self.lost(table):
                        continue
                    try:
                        inbound = t.receive(frame, now)
                    except WireError:
                        continue
                    if inbound is not None and isinstance(inbound.message, PairOffer) and t.terminal not in self.paired:
                        t.pair(self.code, inbound.message.nonce)
                        self.paired.add(t.terminal)
                        t.sign_in(0, table, now)

    def signed_in(self) -> bool:
        return all(t.signed_in for t in self.terminals.values())


@pytest.mark.slow
def test_survey_through_a_running_collector(db_path: Path, tmp_path: Path) -> None:
    """`tenace survey` against `tenace collect` on its TCP link (the simulator's base station), one table lossy."""
    port_file = tmp_path / "port.txt"
    command = [sys.executable, "-m", "tenace.cli"]
    collector = subprocess.Popen([*command, "collect", str(db_path), "--listen", "127.0.0.1:0", "--port-file",
                                  str(port_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 20
        while not port_file.exists():
            assert collector.poll() is None and time.monotonic() < end, "tenace collect did not start"
            time.sleep(0.02)
        conn = connect(db_path)
        code = link_key(conn).code
        conn.close()
        sock = socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=5)
        tables = TcpTerminals(sock, code, {1: 0.0, 2: 0.25})
        end = time.monotonic() + 30
        while not tables.signed_in():
            assert time.monotonic() < end, "the terminals did not sign in"
            tables.step()
        survey_run = subprocess.Popen([*command, "survey", str(db_path), "--seconds", "3", "--interval", "100",
                                       "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        end = time.monotonic() + 30
        while survey_run.poll() is None:
            assert time.monotonic() < end, "tenace survey did not end"
            tables.step()
        out, err = survey_run.communicate()
        assert survey_run.returncode == 0, err
        doc = {t["table"]: t for t in json.loads(out)["terminals"]}
        assert sorted(doc) == [1, 2]
        clean, lossy = doc[1], doc[2]
        assert clean["pings"] >= 20 and clean["answered"] == clean["pings"] and clean["loss_percent"] == 0
        assert 0 <= clean["rtt_ms_min"] <= clean["rtt_ms_median"] <= clean["rtt_ms_max"] < 500
        # A quarter of the frames lost each way: some 44 % of the pings unanswered.
        assert lossy["pings"] >= 20 and 15 <= lossy["loss_percent"] <= 75, lossy
        sock.close()
    finally:
        collector.terminate()
        collector.wait(timeout=10)
