"""Hostile and malformed frames through the decoder: only WireError, each refused with a reason, counters add up."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenace_wire.auth import Tagger
from tenace_wire.crc16 import crc16
from tenace_wire.errors import ACCEPTED_FRAME, DUPLICATE, WireError
from tenace_wire.frame import encode_frame
from tenace_wire.frame_types import RESULT
from tenace_wire.host_session import HostSession
from tenace_wire.table_messages import Result

KEY = b"event-key-16byte"
TAGGER = Tagger(KEY)
REASONS = {"short", "long", "bad_crc", "bad_version", "wrong_direction", "bad_type", "bad_tag", "malformed",
           "not_signed_in", "replay", "wrong_table"}


def valid_frames(rng: random.Random) -> list[bytes]:
    frames = []
    for seq in range(1, 40):
        r = Result(section=0, table=3, round=1, board=seq, ns_pair=1, ew_pair=2, level=1 + seq % 7,
                   strain=seq % 5, doubling=seq % 3, declarer=seq % 4, tricks=seq % 14, lead=seq % 53)
        frames.append(encode_frame(TAGGER, False, RESULT, 7, seq, r.encode()))
    return frames


def refit_crc(body: bytes) -> bytes:
    return body[:-2] + struct.pack(">H", crc16(body[:-2]))


def retag(body: bytes) -> bytes:
    """A frame with a valid tag and CRC over whatever the header and payload now say (a key holder's forgery)."""
    end = len(body) - 10
    core = body[:end]
    out = core + TAGGER.tag(core)
    return out + struct.pack(">H", crc16(out))


def hostile(rng: random.Random, frames: list[bytes]) -> bytes:
    kind = rng.randrange(7)
    base = rng.choice(frames)
    if kind == 0:
        return rng.randbytes(rng.randrange(0, 40))
    if kind == 1:  # bit flips
        b = bytearray(base)
        for _ in range(rng.randrange(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    if kind == 2:
        return base[:rng.randrange(len(base))]
    if kind == 3:
        return base + rng.randbytes(rng.randrange(1, 10))
    if kind == 4:  # altered, CRC fixed up: the tag must catch it
        b = bytearray(base)
        b[rng.randrange(len(b) - 2)] ^= 1 + rng.randrange(255)
        return refit_crc(bytes(b))
    if kind == 5:  # valid tag and CRC, wrong fields in the payload
        b = bytearray(base)
        b[5 + rng.randrange(11)] = rng.randrange(256)
        return retag(bytes(b))
    # valid tag and CRC, header fields changed: type, terminal, sequence number
    b = bytearray(base)
    b[rng.randrange(5)] = rng.randrange(256)
    return retag(bytes(b))


def check(host: HostSession, frame: bytes, stats: dict[str, int]) -> None:
    try:
        inbound = host.receive(frame, 0)
    except WireError as e:  # the only error type allowed out of the decoder
        assert e.reason in REASONS, e.reason
        assert str(e).startswith(e.reason)
        stats["refused"] = stats.get("refused", 0) + 1
        return
    stats["taken"] = stats.get("taken", 0) + 1
    if inbound is not None and inbound.duplicate:
        return
    if inbound is not None and inbound.message is not None:
        assert inbound.message.encode()  # whatever got through is a well-formed message


@pytest.mark.slow
def test_100000_hostile_frames() -> None:
    rng = random.Random(20240521)
    host = HostSession(KEY, rng.getrandbits)
    host.resume(7, 0, 3)
    frames = valid_frames(rng)
    stats: dict[str, int] = {}
    n = 100_000
    for _ in range(n):
        check(host, hostile(rng, frames), stats)
    counters = host.counters
    refused = sum(v for k, v in counters.items() if k not in (ACCEPTED_FRAME, DUPLICATE))
    assert refused == stats["refused"]
    assert counters.get(ACCEPTED_FRAME, 0) + counters.get(DUPLICATE, 0) == stats.get("taken", 0)
    assert sum(counters.values()) == n
    assert counters["bad_crc"] > 0 and counters["bad_tag"] > 0 and counters["malformed"] > 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_only_wire_errors(data: bytes) -> None:
    host = HostSession(KEY, random.Random(0).getrandbits)
    try:
        host.receive(data, 0)
    except WireError as e:
        assert e.reason in REASONS
    assert sum(host.counters.values()) == 1
