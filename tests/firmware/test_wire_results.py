"""What a table sends (RESULT, PLAYERS, ERASE, REQUEST): round trips, the 32-byte bound, refused fields."""

from tenace_wire.errors import MALFORMED, WireError
from tenace_wire.frame_types import MAX_FRAME, MAX_PAYLOAD, OVERHEAD, RESULT, TRAVELLER
from tenace_wire.messages import decode_message
from tenace_wire.outcome import AVERAGE_MINUS, AVERAGE_PLUS
from tenace_wire.table_messages import (
    ADJUSTED,
    NOT_PLAYED,
    PASSED_OUT,
    Erase,
    Players,
    Request,
    Result,
    card_code,
)

from checks import raises


def round_trip(msg):
    payload = msg.encode()
    back = decode_message(msg.TYPE, payload)
    assert back == msg, (back, msg)
    assert back.encode() == payload
    return payload


def test_result_kinds_round_trip():
    round_trip(Result(section=2, table=7, round=3, board=21, ns_pair=7, ew_pair=14, level=4, strain=3,
                      doubling=1, declarer=2, tricks=10, lead=card_code(0, 12)))
    round_trip(Result(table=1, board=1, ns_pair=1, ew_pair=2, kind=PASSED_OUT))
    round_trip(Result(table=1, board=1, ns_pair=1, ew_pair=2, kind=ADJUSTED, ns_adjust=AVERAGE_PLUS,
                      ew_adjust=AVERAGE_MINUS, version=2))
    round_trip(Result(table=1, board=1, ns_pair=1, ew_pair=2, kind=NOT_PLAYED))
    # A Mitchell numbers NS and EW pairs apart: NS 1 against EW 1 is a real encounter.
    round_trip(Result(table=1, board=1, ns_pair=1, ew_pair=1, level=1, tricks=7))


def test_result_fields_are_checked():
    bad = (
        dict(level=0, kind=0),                              # played without a contract
        dict(level=8), dict(strain=5), dict(doubling=3), dict(tricks=14), dict(lead=53),
        dict(board=0), dict(board=1024), dict(table=0), dict(section=26), dict(round=0), dict(version=16),
        dict(kind=PASSED_OUT),                              # passed out, yet a contract
        dict(kind=ADJUSTED, level=0, tricks=0, ns_adjust=3, ew_adjust=0),
        dict(ns_adjust=3),                                  # a played board with an adjusted score
    )
    for change in bad:
        fields = dict(table=1, board=1, ns_pair=1, ew_pair=2, level=3, tricks=9)
        fields.update(change)
        assert "malformed" in raises(WireError, Result(**fields).encode), change


def test_decoder_refuses_bad_payloads():
    good = Result(table=9, board=4, ns_pair=3, ew_pair=4, level=3, strain=4, tricks=9).encode()
    for payload in (good[:-1], good + b"\x00", b""):
        assert "malformed" in raises(WireError, decode_message, RESULT, payload)
    padded = bytearray(good)
    padded[-1] |= 1  # a padding bit set: not the one encoding of this result
    assert "padding" in raises(WireError, decode_message, RESULT, bytes(padded))
    strain7 = bytearray(good)
    strain7[7] |= 0x70  # over the strain bits: 7 is no strain
    try:
        decode_message(RESULT, bytes(strain7))
    except WireError as e:
        assert e.reason == MALFORMED
    else:
        raise AssertionError("strain 7 decoded")


def test_players_erase_request_round_trip():
    assert len(round_trip(Players(section=1, table=12, round=2, north=134217727, east=1, south=0, west=99999999))) <= 17
    assert len(round_trip(Erase(section=0, table=5, round=4, board=17, version=3))) <= 17
    round_trip(Request(what=TRAVELLER, table=5, board=17))
    raises(WireError, Request(what=RESULT, table=5).encode)      # a table cannot ask for a RESULT
    raises(WireError, Request(what=TRAVELLER, table=5).encode)   # a traveller of which board?
    raises(WireError, Erase(table=5, board=1, version=0).encode)  # an erasure is a new version: 1-15
    raises(TypeError, lambda: Result(bogus=1))


def test_result_frame_fits_32_bytes_at_extreme_values():
    biggest = Result(section=25, table=1023, round=127, board=1023, ns_pair=1023, ew_pair=1022, version=15,
                     level=7, strain=4, doubling=2, declarer=3, tricks=13, lead=52)
    smallest = Result(section=0, table=1, round=1, board=1, ns_pair=1, ew_pair=2, level=1, tricks=0)
    for msg in (biggest, smallest):
        payload = msg.encode()
        assert len(payload) == 11 <= MAX_PAYLOAD
        # The frame adds a fixed OVERHEAD (test_wire_frame checks the layout; the host tests encode it).
        assert OVERHEAD + len(payload) == 26 <= MAX_FRAME
        assert decode_message(RESULT, payload) == msg
