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

try:
    from micropython import const
except ImportError:  # CPython on the host: const is only a compile-time hint
    def const(__value: int) -> int:  # "__" makes it positional-only, as in the stub
        return __value

import struct

from tenace_wire.auth import PUBLIC_KEY, TAG_SIZE, Tagger
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

VERSION = const(1)
MAX_FRAME = const(32)
HEADER_SIZE = const(5)
CRC_SIZE = const(2)
OVERHEAD = HEADER_SIZE + TAG_SIZE + CRC_SIZE  # 15
MAX_PAYLOAD = MAX_FRAME - OVERHEAD            # 17
MAX_SEQ = const(65535)
MAX_TERMINAL = const(65534)

# Frame types (5 bits). The number is on the wire: never renumber, only add.
ACK = const(1)             # both ways: "I have your frames seq .. seq+count-1", with a status
HELLO = const(2)           # terminal, unauthenticated: "I have no key, tell me the event nonce"
PAIR_OFFER = const(3)      # host, unauthenticated: the event nonce
SIGN_IN = const(4)         # terminal: section, table, a fresh nonce
SIGN_IN_ANSWER = const(5)  # host: the nonce back, the table's settings
RESULT = const(6)          # terminal: one board's result (fits one frame)
PLAYERS = const(7)         # terminal: the four player numbers of a round
ERASE = const(8)           # terminal: a board's result withdrawn (a new version)
REQUEST = const(9)         # terminal: "send me my round plan / a traveller / the ranking / a hand"
ROUND_PLAN = const(10)     # host: a table's round: pairs, boards, where everyone moves next
TRAVELLER = const(11)      # host: a board's results at every table, with the matchpoint percentages
RANKING = const(12)        # host: the ranking of a section
HAND_RECORD = const(13)    # host: a board's deal
TEXT = const(14)           # host: a message from the director
FRAGMENT = const(31)       # both ways: one piece of a message longer than MAX_PAYLOAD (fragments.py)

# Which types each side may send, as bit masks over the type number.
FROM_TERMINAL = ((1 << ACK) | (1 << HELLO) | (1 << SIGN_IN) | (1 << RESULT) | (1 << PLAYERS)
                 | (1 << ERASE) | (1 << REQUEST) | (1 << FRAGMENT))
FROM_HOST = ((1 << ACK) | (1 << PAIR_OFFER) | (1 << SIGN_IN_ANSWER) | (1 << ROUND_PLAN) | (1 << TRAVELLER)
             | (1 << RANKING) | (1 << HAND_RECORD) | (1 << TEXT) | (1 << FRAGMENT))
UNAUTHENTICATED = (1 << HELLO) | (1 << PAIR_OFFER)

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

    def __repr__(self) -> str:
        return "Frame(%s type=%d terminal=%d seq=%d payload=%r)" % (
            "host" if self.from_host else "terminal", self.type, self.terminal, self.seq, bytes(self.payload))


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


def frame_terminal(data: "bytes | bytearray | memoryview") -> int:
    """The terminal id in a frame's header, unchecked: for a transport that routes frames by terminal."""
    return (data[1] << 8) | data[2] if len(data) >= 3 else 0
