"""100,000 malformed or hostile frames into a Collector on a real event file: nothing raises, nothing new is stored."""

from __future__ import annotations

import logging
import random
import sqlite3
import struct
from collections import Counter
from pathlib import Path

import pytest

from tenace.collector import Collector, link_key
from tenace.collector.collector import NOISE
from tenace.movement import mitchell
from tenace.simulation.loopback import Channel, Loopback, SimulatedTerminal
from tenace.store import create_event, refusals
from tenace_wire.auth import Tagger
from tenace_wire.crc16 import crc16
from tenace_wire.errors import WireError
from tenace_wire.frame import encode_frame
from tenace_wire.frame_types import ERASE, PLAYERS, REQUEST, RESULT, SIGN_IN
from tenace_wire.messages import decode_message
from tenace_wire.table_messages import Result

FRAMES = 100_000
MOVEMENT = mitchell(3, 2)


def with_crc(body: bytes) -> bytes:
    return body + struct.pack(">H", crc16(body))


def result(table: int, board: int) -> Result:
    e = MOVEMENT.at(table, 1)
    return Result(section=0, table=table, round=1, board=board, ns_pair=e.ns_pair, ew_pair=e.ew_pair, level=2,
                  strain=4, declarer=2, tricks=8)


def malformed_payload(rng: random.Random, ftype: int) -> bytes:
    """Random payload bytes that the message decoder refuses (a random one may happen to be valid: skip it)."""
    while True:
        payload = rng.randbytes(rng.randrange(0, 18))
        try:
            decode_message(ftype, payload)
        except WireError:
            return payload


@pytest.mark.slow
def test_a_flood_of_hostile_frames_changes_nothing_and_each_is_counted_once(tmp_path: Path,
                                                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)  # a warning per refused frame is the product's job, not this test's output
    conn = create_event(tmp_path / "club.sqlite", name="Fuzz", sections={"A": MOVEMENT})
    rng = random.Random(2024)
    collector = Collector(conn, None, rng.getrandbits)
    key = link_key(conn)
    terminals = [SimulatedTerminal(100 + t, 0, t, key.code, random.Random(t)) for t in (1, 2, 3)]
    loop = Loopback(collector, terminals, Channel(rng))
    assert loop.run_until(loop.signed_in, 10_000)
    # Genuine traffic first, every frame recorded: the material for truncations, bit flips and replays.
    genuine: list[bytes] = []
    for t in terminals:
        t.send(result(t.table, MOVEMENT.at(t.table, 1).boards[0]), loop.now)
    def record() -> None:
        for t in terminals:
            for frame in t.frames(loop.now):
                genuine.append(frame)
                collector.receive(frame, 0)
        for frame in collector.due(0):
            for t in terminals:
                t.hear(frame, loop.now)
        loop.now += 20
    while any(t.session.pending() for t in terminals) or collector.session.pending():
        record()
    replayable = [f for f in genuine if f[0] & 0x1F in (RESULT, SIGN_IN)]
    assert len(replayable) >= 3

    collector.flush()
    results_before = conn.execute("SELECT count(*), max(id) FROM result").fetchone()
    refusals_before = len(refusals(conn))
    counts_before = Counter(collector.counters())
    tagger = Tagger(key.key)
    stranger = Tagger(b"another club's key")
    made = Counter()
    next_seq = {101: 5000, 102: 5000, 103: 5000}
    for i in range(FRAMES):
        draw = rng.random()
        now = loop.now + i
        if draw < 0.40:
            frame, kind = rng.randbytes(rng.randrange(0, 41)), "random"
        elif draw < 0.55:
            source = rng.choice(genuine)
            frame, kind = source[:rng.randrange(0, len(source))], "truncated"
        elif draw < 0.80:
            flipped = bytearray(rng.choice(genuine))
            for bit in rng.sample(range(len(flipped) * 8), rng.randint(1, 3)):
                flipped[bit >> 3] ^= 1 << (bit & 7)
            frame, kind = bytes(flipped), "bit_flip"
        elif draw < 0.86:
            # A valid CRC around a header no terminal sends: another version, the host's direction, no such type.
            body = bytearray(rng.choice(genuine)[:-2])
            body[0] = rng.choice((0x00 | RESULT, 0x60 | RESULT, 0x80 | 0x20 | RESULT, 0x20 | 30, 0x20 | 0))
            frame, kind = with_crc(bytes(body)), "bad_header"
        elif draw < 0.88:
            frame, kind = encode_frame(stranger, False, RESULT, rng.choice((101, 102, 103)), rng.randrange(1, 65536),
                                       result(1, 1).encode()), "wrong_key"
        elif draw < 0.895:
            ftype = rng.choice((RESULT, PLAYERS, ERASE, REQUEST, SIGN_IN))
            terminal = rng.choice((101, 102, 103))
            next_seq[terminal] += 1
            frame = encode_frame(tagger, False, ftype, terminal, next_seq[terminal], malformed_payload(rng, ftype))
            kind = "malformed"
        elif draw < 0.905:
            terminal = rng.choice((101, 102, 103))
            other = rng.choice([t for t in (1, 2, 3) if t != terminal - 100])
            next_seq[terminal] += 1
            frame = encode_frame(tagger, False, RESULT, terminal, next_seq[terminal],
                                 result(other, MOVEMENT.at(other, 1).boards[0]).encode())
            kind = "wrong_table"
        else:
            frame, kind = rng.choice(replayable), "replay"
        made[kind] += 1
        collector.receive(frame, now)  # must never raise
        if i % 1000 == 0:
            collector.due(now)  # ACKs for replays and refusals go out, counters are flushed
    collector.close()

    assert collector.internal_errors == 0
    assert tuple(conn.execute("SELECT count(*), max(id) FROM result").fetchone()) == tuple(results_before)
    delta = Counter(collector.counters())
    delta.subtract(counts_before)
    assert sum(delta.values()) == FRAMES  # every frame counted under exactly one reason
    assert delta["duplicate"] == made["replay"]
    assert delta["bad_tag"] >= made["wrong_key"]  # (a random frame may also pass the CRC by chance: 1 in 65536)
    assert delta["malformed"] == made["malformed"] and delta["wrong_table"] == made["wrong_table"]
    assert delta["bad_crc"] >= made["bit_flip"]  # CRC-16 catches every error of 1-3 bits in a frame
    assert delta["accepted"] == 0
    # Past the CRC, each refusal is a row for the director, with its raw bytes; noise is only counted.
    new_rows = refusals(conn)[:len(refusals(conn)) - refusals_before]
    assert Counter(r.reason for r in new_rows) == Counter(
        {r: n for r, n in delta.items() if n and r not in NOISE and r not in ("duplicate", "accepted")})
    assert all(r.raw_hex for r in new_rows)
    stored_counts = dict(conn.execute("SELECT reason, count FROM link_counter").fetchall())
    assert stored_counts["bad_crc"] >= made["bit_flip"]  # noise is in the counters, not a row each
    assert not [r for r in refusals(conn) if r.reason in ("bad_crc", "short", "long")]
    conn.close()


def one_table(tmp_path: Path) -> tuple[sqlite3.Connection, Collector, bytes]:
    """A collector with one terminal signed in, all quiet, and the frame of a result that terminal queued."""
    conn = create_event(tmp_path / "club.sqlite", name="One table", sections={"A": MOVEMENT})
    rng = random.Random(7)
    collector = Collector(conn, None, rng.getrandbits)
    t = SimulatedTerminal(101, 0, 1, link_key(conn).code, random.Random(1))
    loop = Loopback(collector, [t], Channel(rng))
    assert loop.run_until(lambda: bool(t.plans) and t.session.pending() == 0 and collector.session.pending() == 0)
    t.send(result(1, 1), loop.now)
    return conn, collector, next(f for f in t.frames(loop.now) if f[0] & 0x1F == RESULT)


def test_replays_are_acknowledged_again_not_stored(tmp_path: Path) -> None:
    conn, collector, frame = one_table(tmp_path)
    seq = struct.unpack(">H", frame[3:5])[0]
    collector.receive(frame, 0)
    acks = [f for f in collector.due(0) if f[0] & 0x1F == 1]
    for _ in range(5):
        collector.receive(frame, 0)
    again = [f for f in collector.due(0) if f[0] & 0x1F == 1]
    assert len(acks) == 1 and len(again) == 5 and all(struct.unpack(">H", f[3:5])[0] == seq for f in again)
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == 1
    conn.close()


def test_the_collector_never_raises_on_a_store_failure(tmp_path: Path) -> None:
    conn, collector, frame = one_table(tmp_path)
    locker = sqlite3.connect(tmp_path / "club.sqlite", timeout=0)
    locker.execute("BEGIN IMMEDIATE")  # another writer holds the file: the ingest cannot commit
    conn.execute("PRAGMA busy_timeout = 10")
    collector.receive(frame, 0)
    assert not [f for f in collector.due(0) if f[0] & 0x1F == 1]  # no ACK without a commit
    locker.rollback()
    locker.close()
    collector.receive(frame, 0)
    assert [f for f in collector.due(0) if f[0] & 0x1F == 1]
    assert conn.execute("SELECT count(*) FROM result").fetchone()[0] == 1
    conn.close()
