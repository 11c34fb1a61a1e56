"""Link control messages (ACK, HELLO, PAIR_OFFER, SIGN_IN, SIGN_IN_ANSWER): round trips and checks."""

from tenace_wire.control import (
    ENTRY_ANY,
    ENTRY_RELATIVE,
    ENTRY_TOTAL,
    LEAD_MUST_CORRECT,
    PLAYER_NUMBERS_REQUIRED,
    REFUSED_WRONG_TABLE,
    TABLE_TAKEN,
    Ack,
    Hello,
    PairOffer,
    SignIn,
    SignInAnswer,
)
from tenace_wire.errors import WireError
from tenace_wire.frame_types import ACK, HELLO, PAIR_OFFER, SIGN_IN_ANSWER
from tenace_wire.messages import decode_message, message_class

from checks import raises


def round_trip(msg):
    payload = msg.encode()
    back = decode_message(msg.TYPE, payload)
    assert back == msg, (back, msg)
    return payload


def test_control_round_trips():
    assert round_trip(Ack(count=1, status=0)) == b"\x01\x00"
    round_trip(Ack(count=255, status=REFUSED_WRONG_TABLE))
    assert len(round_trip(Hello(firmware=65535))) == 2  # no club key: the HELLO of every older terminal
    assert round_trip(Hello(firmware=7, club=b"\x10\x20\x02\xfb")) == b"\x00\x07\x10\x20\x02\xfb"
    assert len(round_trip(PairOffer(nonce=b"\x00\x01\x02\x03\x04\x05\x06\xff"))) == 8
    assert len(round_trip(SignIn(section=25, table=1023, nonce=0xFFFFFFFF, firmware=3))) == 9


def test_sign_in_answer_settings():
    answer = SignInAnswer(nonce=1234567, section=3, table=44, round=2, player_numbers=PLAYER_NUMBERS_REQUIRED,
                          lead_entry=LEAD_MUST_CORRECT, result_entry=ENTRY_TOTAL, show_traveller=0,
                          show_percentage=1, pin=9999, language="fr")
    assert len(round_trip(answer)) == 14
    assert decode_message(SIGN_IN_ANSWER, SignInAnswer(table=1, pin=42).encode()).pin == 42
    raises(WireError, SignInAnswer(table=1, pin=10000).encode)  # four digits
    round_trip(SignInAnswer(status=TABLE_TAKEN, table=1, language="en"))
    for entry in (ENTRY_ANY, ENTRY_TOTAL, ENTRY_RELATIVE):  # two bits: either way, a total, or relative only
        assert decode_message(SIGN_IN_ANSWER, SignInAnswer(table=1, result_entry=entry).encode()).result_entry == entry
    raises(WireError, SignInAnswer(table=1, result_entry=3).encode)
    raises(WireError, SignInAnswer(table=1, language="FR").encode)
    raises(WireError, SignInAnswer(table=1, player_numbers=3).encode)
    payload = bytearray(answer.encode())
    payload[-1] = 0x80  # not a letter
    assert "language" in raises(WireError, decode_message, SIGN_IN_ANSWER, bytes(payload))


def test_control_payloads_checked():
    assert "malformed" in raises(WireError, decode_message, ACK, b"\x00\x00")  # acknowledges no frame
    raises(WireError, decode_message, ACK, b"\x01")
    raises(WireError, decode_message, PAIR_OFFER, b"\x01" * 7)
    assert "bad_type" in raises(WireError, message_class, 31)
    raises(WireError, message_class, 0)


def test_a_club_key_id_is_four_bytes_or_none():
    assert decode_message(HELLO, b"\x00\x01").club == b""
    raises(WireError, decode_message, HELLO, b"\x00\x01\x02\x03\x04")
    raises(WireError, decode_message, HELLO, b"\x00\x01\x02\x03\x04\x05\x06")
    raises(WireError, Hello(firmware=1, club=b"\x01\x02").encode)
