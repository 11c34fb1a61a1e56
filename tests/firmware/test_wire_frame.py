"""The frame: layout, and every kind of damage refused with its own reason."""

import struct

from tenace_wire.auth import Tagger
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
from tenace_wire.frame import (
    MAX_FRAME,
    MAX_PAYLOAD,
    OVERHEAD,
    decode_frame,
    encode_frame,
    frame_terminal,
    peek_header,
)
from tenace_wire.frame_types import ACK, HELLO, RESULT, TEXT

KEY = Tagger(b"0123456789abcdef")
PAYLOAD = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"


def reason(data, tagger=KEY, from_host=False):
    try:
        decode_frame(data, tagger, from_host)
    except WireError as e:
        return e.reason
    return None


def with_crc(body):
    """Recompute the CRC, as a forger would."""
    body = bytes(body[:-2])
    return body + struct.pack(">H", crc16(body))


def test_layout_and_round_trip():
    frame = encode_frame(KEY, False, RESULT, 300, 7, PAYLOAD)
    assert len(frame) == OVERHEAD + len(PAYLOAD) == 26
    assert frame[0] == (1 << 5) | RESULT
    assert frame[1:5] == b"\x01\x2c\x00\x07" and frame_terminal(frame) == 300
    assert frame[5:16] == PAYLOAD
    assert frame[16:24] == KEY.tag(frame[:16])
    assert struct.unpack(">H", frame[24:])[0] == crc16(frame[:24])
    got = decode_frame(frame, KEY, False)
    assert (got.from_host, got.type, got.terminal, got.seq, got.payload) == (False, RESULT, 300, 7, PAYLOAD)
    host = decode_frame(encode_frame(KEY, True, ACK, 65534, 65535, b"\x01\x00"), KEY, True)
    assert (host.from_host, host.terminal, host.seq) == (True, 65534, 65535)


def test_any_altered_byte_is_refused_by_the_crc():
    frame = encode_frame(KEY, False, RESULT, 12, 99, PAYLOAD)
    for i in range(len(frame)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(frame)
            bad[i] ^= flip
            assert reason(bytes(bad)) == BAD_CRC, (i, flip)


def test_altered_with_crc_fixed_up_is_refused_by_the_tag():
    frame = encode_frame(KEY, False, RESULT, 12, 99, PAYLOAD)
    for i in list(range(1, len(frame) - 2)):
        bad = bytearray(frame)
        bad[i] ^= 0x10
        assert reason(with_crc(bad)) == BAD_TAG, i
    assert reason(frame, Tagger(b"another event key")) == BAD_TAG


def test_header_checks_in_order():
    frame = bytearray(encode_frame(KEY, False, RESULT, 12, 99, PAYLOAD))
    assert reason(bytes(frame), from_host=True) == WRONG_DIRECTION
    bad = bytearray(frame)
    bad[0] = (2 << 5) | RESULT
    assert reason(with_crc(bad)) == BAD_VERSION
    bad[0] = (1 << 5) | 30  # no type 30
    assert reason(with_crc(bad)) == BAD_TYPE
    bad[0] = (1 << 5) | TEXT  # only the host sends TEXT
    assert reason(with_crc(bad)) == BAD_TYPE
    assert reason(b"") == SHORT and reason(bytes(frame[:OVERHEAD - 1])) == SHORT
    assert reason(bytes(frame) + bytes(MAX_FRAME)) == LONG


def test_terminal_zero_and_sequence_zero_are_malformed():
    frame = bytearray(encode_frame(KEY, False, RESULT, 12, 99, PAYLOAD))
    for offset in (1, 3):  # terminal id, then sequence number, set to 0 and re-tagged
        bad = bytearray(frame)
        bad[offset] = bad[offset + 1] = 0
        bad[16:24] = KEY.tag(bytes(bad[:16]))
        assert reason(with_crc(bad)) == MALFORMED, offset


def test_encoder_refuses_what_the_decoder_would():
    for args in ((False, RESULT, 12, 1, bytes(MAX_PAYLOAD + 1)), (False, TEXT, 12, 1, b""),
                 (False, RESULT, 0, 1, b""), (False, RESULT, 12, 0, b""), (True, HELLO, 12, 1, b"")):
        try:
            encode_frame(KEY, *args)
        except WireError:
            continue
        raise AssertionError("encoded %r" % (args,))


def test_pairing_frames_use_the_public_key():
    hello = encode_frame(KEY, False, HELLO, 5, 1, b"\x00\x01")
    assert decode_frame(hello, Tagger(b"any other key"), False).type == HELLO


def test_peek_header_reads_what_a_frame_claims_without_checking_it():
    frame = encode_frame(KEY, False, RESULT, 300, 7, PAYLOAD)
    assert peek_header(frame) == (RESULT, 300, 7)
    assert peek_header(memoryview(frame)) == (RESULT, 300, 7)
    host = encode_frame(KEY, True, ACK, 65534, 65535, b"\x01\x00")
    assert peek_header(bytearray(host)) == (ACK, 65534, 65535)  # the direction bit is not the type
    # Unchecked: a forged tag, a broken CRC or a header alone still tell what they claim.
    forged = bytearray(frame)
    forged[20] ^= 0xFF
    assert reason(bytes(forged)) == BAD_CRC and peek_header(forged) == (RESULT, 300, 7)
    assert peek_header(b"\x3f\xff\xff\x00\x00") == (31, 65535, 0)


def test_peek_header_of_fewer_bytes_than_a_header_is_none():
    for n in range(5):
        assert peek_header(bytes([RESULT, 1, 44, 0, 7])[:n]) is None
