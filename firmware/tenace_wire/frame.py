"""The binary frame: header, payload, truncated HMAC tag and CRC-16, at most 32 bytes (one nRF24L01 payload).

    offset  size  field
    0       1     bit 7: direction (1 = from the host); bits 6-5: protocol version (1); bits 4-0: type
    1       2     terminal id, big-endian, 1..65534 (a device's id at the event, not its table:
                  65534 terminals per base station; section and table are bound at sign-in)
    3       2     sequence number, big-endian, 1..65535, per (terminal, direction); never reused
                  under one event key. An ACK carries here the first sequence number it acknowledges.
    5       n     payload, 0..17 bytes (messages.py; longer messages go as FRAGMENT frames)
    5+n     8     tag: HMAC-SHA256(event key, bytes 0 .. 5+n-1), first 8 bytes (auth.py)
    13+n    2     CRC-16/CCITT-FALSE of bytes 0 .. 13+n-1, big-endian (crc16.py)

The receiver checks, in this order: length, CRC, version, direction, type, tag, then terminal id
and sequence number; the first failure is the reason (errors.py). The CRC comes first because it
is cheap and separates noise from forgery; the tag comes before any field is believed.
"""

import struct

from tenace_wire.auth import PUBLIC_KEY, Tagger
from tenace_wire.crc16 import crc16
from tenace_wire.errors import (
    BAD_CRC,
    BAD_TAG,
    BAD_TYPE,
    BAD_VERSION,
    LONG,
    MALFORMED,
    SHORT,
    WRONG_DIRECTION,
    WireError,
)
from tenace_wire.frame_types import (
    CRC_SIZE,
    FRAGMENT,
    FROM_HOST,
    FROM_TERMINAL,
    HEADER_SIZE,
    MAX_FRAME,
    MAX_PAYLOAD,
    MAX_SEQ,
    MAX_TERMINAL,
    OVERHEAD,
    TAG_SIZE,
    UNAUTHENTICATED,
    VERSION,
)

_PUBLIC: "Tagger | None" = None  # the Tagger of PUBLIC_KEY, made on first use


def _public_tagger() -> Tagger:
    global _PUBLIC
    if _PUBLIC is None:
        _PUBLIC = Tagger(PUBLIC_KEY)
    return _PUBLIC


class Frame:
    """A received frame whose CRC and tag were right: who sent it, its type, sequence and payload."""

    def __init__(self, from_host: bool, ftype: int, terminal: int, seq: int, payload: bytes) -> None:
        self.from_host = from_host
        self.type = ftype
        self.terminal = terminal
        self.seq = seq
        self.payload = payload


def encode_frame(tagger: Tagger, from_host: bool, ftype: int, terminal: int, seq: int,
                 payload: "bytes | bytearray | memoryview" = b"") -> bytes:
    """The bytes on the air for one frame; pairing types (HELLO, PAIR_OFFER) are tagged with the public key."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise WireError(LONG, "a payload of %d bytes: at most %d fit a frame" % (n, MAX_PAYLOAD))
    if not 1 <= ftype <= 31 or not ((FROM_HOST if from_host else FROM_TERMINAL) >> ftype) & 1:
        raise WireError(BAD_TYPE, "type %r cannot be sent by the %s" % (ftype, "host" if from_host else "terminal"))
    if not 1 <= terminal <= MAX_TERMINAL or not 1 <= seq <= MAX_SEQ:
        raise WireError(MALFORMED, "terminal %r, sequence %r: both are 1..65534/65535" % (terminal, seq))
    if (UNAUTHENTICATED >> ftype) & 1:
        tagger = _public_tagger()
    buf = bytearray(OVERHEAD + n)
    buf[0] = (0x80 if from_host else 0) | (VERSION << 5) | ftype
    struct.pack_into(">HH", buf, 1, terminal, seq)
    end = HEADER_SIZE + n
    buf[HEADER_SIZE:end] = payload
    view = memoryview(buf)
    buf[end:end + TAG_SIZE] = tagger.tag(view[:end])
    struct.pack_into(">H", buf, end + TAG_SIZE, crc16(view[:end + TAG_SIZE]))
    return bytes(buf)


def decode_frame(data: "bytes | bytearray | memoryview", tagger: Tagger, from_host: bool) -> Frame:
    """Check a received frame and return it; raise WireError with the first reason it fails.

    `from_host` is the direction this receiver expects: True at a terminal, False at the host.
    """
    n = len(data)
    if n < OVERHEAD:
        raise WireError(SHORT, "%d bytes: a frame has at least %d" % (n, OVERHEAD))
    if n > MAX_FRAME:
        raise WireError(LONG, "%d bytes: a frame has at most %d" % (n, MAX_FRAME))
    view = memoryview(data)
    if crc16(view[:n - CRC_SIZE]) != (data[n - 2] << 8) | data[n - 1]:
        raise WireError(BAD_CRC, "CRC-16 mismatch")
    first = data[0]
    if (first >> 5) & 3 != VERSION:
        raise WireError(BAD_VERSION, "protocol version %d, this is %d" % ((first >> 5) & 3, VERSION))
    if bool(first & 0x80) != from_host:
        raise WireError(WRONG_DIRECTION, "a frame from the %s" % ("host" if first & 0x80 else "terminal"))
    ftype = first & 0x1F
    if not ((FROM_HOST if from_host else FROM_TERMINAL) >> ftype) & 1:
        raise WireError(BAD_TYPE, "no frame type %d from the %s" % (ftype, "host" if from_host else "terminal"))
    if (UNAUTHENTICATED >> ftype) & 1:
        tagger = _public_tagger()
    end = n - CRC_SIZE - TAG_SIZE
    if not tagger.verify(view[:end], view[end:n - CRC_SIZE]):
        raise WireError(BAD_TAG, "authentication tag mismatch")
    terminal, seq = struct.unpack_from(">HH", data, 1)
    if not 1 <= terminal <= MAX_TERMINAL:
        raise WireError(MALFORMED, "terminal id %d" % terminal)
    if seq == 0:
        raise WireError(MALFORMED, "sequence number 0")
    return Frame(from_host, ftype, terminal, seq, bytes(view[HEADER_SIZE:end]))


def peek_header(data: "bytes | bytearray | memoryview") -> "tuple[int, int, int] | None":
    """(type, terminal id, sequence number) from a frame's header, unchecked (neither CRC nor tag): for
    recording what a refused frame claimed. None when the bytes are too short to hold a header."""
    if len(data) < HEADER_SIZE:
        return None
    return data[0] & 0x1F, (data[1] << 8) | data[2], (data[3] << 8) | data[4]


def message_type(data: "bytes | bytearray | memoryview") -> int:
    """The type of the message a frame carries, unchecked: the frame's own, or a fragment's whole message's (the
    first byte of its payload, fragments.py). 0 when the bytes are too short to say."""
    if len(data) <= HEADER_SIZE:
        return 0
    ftype = data[0] & 0x1F
    return data[HEADER_SIZE] if ftype == FRAGMENT else ftype


def frame_terminal(data: "bytes | bytearray | memoryview") -> int:
    """The terminal id in a frame's header, unchecked: for a transport that routes frames by terminal."""
    return (data[1] << 8) | data[2] if len(data) >= 3 else 0
