"""The field tools' messages (STATUS, PING): round trips, field ranges, directions (the sessions: tests/host)."""

from tenace_wire.auth import Tagger
from tenace_wire.errors import WireError
from tenace_wire.field_messages import BATTERY, FAILED, KEYS, Status, version_fields
from tenace_wire.frame import encode_frame
from tenace_wire.frame_types import FROM_HOST, FROM_TERMINAL, PING, STATUS
from tenace_wire.messages import decode_message

from checks import raises


def test_status_round_trip():
    msg = Status(major=0, minor=1, patch=0, battery_mv=3900, battery=68, rssi=-127, sent=65535, retried=3,
                 factory=FAILED, checks=KEYS | BATTERY)
    payload = msg.encode()
    assert len(payload) == 11  # with the header, tag and CRC: a 26-byte frame
    assert decode_message(STATUS, payload) == msg
    assert "battery" in raises(WireError, Status(battery=101).encode)
    assert "rssi" in raises(WireError, Status(rssi=1).encode)
    # Bits 76-77 are the factory test's state: 3 is none.
    bad = payload[:9] + bytes([payload[9] | 0x0C]) + payload[10:]
    assert "factory" in raises(WireError, decode_message, STATUS, bad)
    assert version_fields("0.1.0") == (0, 1, 0) and version_fields("16.64.70") == (15, 63, 63)
    assert version_fields("a.2") == (0, 2, 0) and version_fields("") == (0, 0, 0)


def test_directions():
    assert (FROM_TERMINAL >> STATUS) & 1 and not (FROM_HOST >> STATUS) & 1
    assert (FROM_HOST >> PING) & 1 and not (FROM_TERMINAL >> PING) & 1
    refused = raises(WireError, encode_frame, Tagger(b"k"), False, PING, 1, 1, b"\x00\x01")
    assert "cannot be sent by the terminal" in refused
