"""HAND_RECORD: the deal alone in one frame, or with its double-dummy tricks and par; every field checked."""

from tenace_wire.errors import WireError
from tenace_wire.frame_types import HAND_RECORD, MAX_PAYLOAD
from tenace_wire.hand_record import HandRecord
from tenace_wire.messages import decode_message

from checks import raises

OWNERS = bytes([(i * 7) % 4 for i in range(52)])
# Board 3 of the simulator's fixed deals (host/tenace/simulation/boards/deals.py): 7NT by N or S, as endplay finds it.
TRICKS = bytes([int(c, 16) for c in "5D9DD802005D9DD80200"])


def round_trip(msg):
    payload = msg.encode()
    back = decode_message(HAND_RECORD, payload)
    assert back == msg, (back, msg)
    assert back.encode() == payload
    return payload


def test_a_deal_alone_fits_one_frame():
    payload = round_trip(HandRecord(board=3, owners=OWNERS))
    assert len(payload) == 15 and len(payload) <= MAX_PAYLOAD
    back = decode_message(HAND_RECORD, payload)
    assert back.tricks == b"" and back.par == 0


def test_a_deal_with_its_analysis_round_trips():
    for par in (1520, -7600, 7600, -1, 0, -430):
        payload = round_trip(HandRecord(board=1023, owners=OWNERS, tricks=TRICKS, par=par))
        assert len(payload) == 27
    back = decode_message(HAND_RECORD, HandRecord(board=3, owners=OWNERS, tricks=TRICKS, par=-110).encode())
    assert (back.tricks[0], back.tricks[4], back.tricks[5 * 3 + 4]) == (5, 13, 0)  # N: clubs, NT; W: NT
    assert back.par == -110
    # Every trick count in every place: none is another's.
    tricks = bytes([i % 14 for i in range(20)])
    assert decode_message(HAND_RECORD, HandRecord(board=1, tricks=tricks, par=13).encode()).tricks == tricks


def test_the_analysis_is_checked_both_ways():
    for bad in (HandRecord(board=1, tricks=bytes(19)), HandRecord(board=1, tricks=bytes([14] + [0] * 19)),
                HandRecord(board=1, tricks=TRICKS, par=7601), HandRecord(board=1, par=100)):
        raises(WireError, bad.encode)
    good = HandRecord(board=1, owners=OWNERS, tricks=TRICKS, par=420).encode()
    raises(WireError, decode_message, HAND_RECORD, good[:-1])  # neither 13 nor 25 bytes after the board
    raises(WireError, decode_message, HAND_RECORD, good + b"\x00")
    raises(WireError, decode_message, HAND_RECORD, good[:-1] + bytes([good[-1] | 1]))  # padding
    fourteen = bytearray(good)
    fourteen[15] = 0xE0 | (fourteen[15] & 0x0F)  # North's clubs: 14 tricks
    raises(WireError, decode_message, HAND_RECORD, bytes(fourteen))
