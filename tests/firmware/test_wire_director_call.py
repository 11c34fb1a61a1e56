"""The director's call and the round clock on the wire (CALL, COMING, CLOCK): sizes, round trips, ranges, directions."""

from tenace_wire.auth import Tagger
from tenace_wire.director_call import NO_CLOCK, Call, Clock, Coming
from tenace_wire.errors import WireError
from tenace_wire.frame import encode_frame
from tenace_wire.frame_types import CALL, CLOCK, COMING, FROM_HOST, FROM_TERMINAL, MAX_FRAME, OVERHEAD
from tenace_wire.messages import decode_message

from checks import raises


def test_call_round_trip():
    msg = Call(section=25, table=1023, round=127, call=255, left=NO_CLOCK)
    payload = msg.encode()
    assert len(payload) == 5 and OVERHEAD + len(payload) <= MAX_FRAME  # one frame, within the radio's 32 bytes
    assert decode_message(CALL, payload) == msg
    assert decode_message(CALL, Call(section=0, table=3, round=2, call=1, left=7).encode()).left == 7
    assert "call" in raises(WireError, Call(table=1, round=1, call=0).encode)
    assert "table" in raises(WireError, Call(table=0, round=1, call=1).encode)
    # The two padding bits must be zero: one encoding per call.
    assert "padding" in raises(WireError, decode_message, CALL, payload[:4] + bytes([payload[4] | 1]))


def test_coming_round_trip():
    msg = Coming(section=1, table=12, call=3)
    payload = msg.encode()
    assert len(payload) == 3
    assert decode_message(COMING, payload) == msg
    assert "bytes" in raises(WireError, decode_message, COMING, payload[:2])


def test_clock_round_trip():
    msg = Clock(section=0, round=4, minutes=21, left=1260)
    payload = msg.encode()
    assert len(payload) == 5 and OVERHEAD + len(payload) <= MAX_FRAME
    assert decode_message(CLOCK, payload) == msg
    assert decode_message(CLOCK, Clock(round=1, minutes=0, left=0).encode()).minutes == 0  # the clock stopped
    assert "left" in raises(WireError, Clock(round=1, left=65536).encode)
    assert "extra" in raises(WireError, decode_message, CLOCK, payload + b"\x00")


def test_directions():
    assert (FROM_TERMINAL >> CALL) & 1 and not (FROM_HOST >> CALL) & 1
    for ftype in (COMING, CLOCK):
        assert (FROM_HOST >> ftype) & 1 and not (FROM_TERMINAL >> ftype) & 1
    assert "cannot be sent by the terminal" in raises(WireError, encode_frame, Tagger(b"k"), False, CLOCK, 1, 1,
                                                      Clock(round=1).encode())
