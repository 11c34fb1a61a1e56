"""Every message by frame type: decode_message(type, payload) and encode_message(message).

The message classes live in five modules, imported on first use so that a terminal holds in
RAM only the code of the messages it meets (the MicroPython heap is small):
control.py (ACK, HELLO, PAIR_OFFER, SIGN_IN, SIGN_IN_ANSWER, MORE), table_messages.py (RESULT, PLAYERS,
ERASE, REQUEST), director_messages.py (ROUND_PLAN, TRAVELLER, RANKING, TEXT), hand_record.py (HAND_RECORD),
field_messages.py (STATUS, PING), director_call.py (CALL, COMING, CLOCK).
Every field is checked on decode; a bad payload raises WireError("malformed", why).
"""

from tenace_wire.errors import BAD_TYPE, WireError
from tenace_wire.fields import Message
from tenace_wire.frame_types import (
    ACK,
    CALL,
    CLOCK,
    COMING,
    ERASE,
    HAND_RECORD,
    HELLO,
    MORE,
    PAIR_OFFER,
    PING,
    PLAYERS,
    RANKING,
    REQUEST,
    RESULT,
    ROUND_PLAN,
    SIGN_IN,
    SIGN_IN_ANSWER,
    STATUS,
    TEXT,
    TRAVELLER,
)


def message_class(ftype: int) -> "type[Message]":
    """The class of a frame type's message; WireError(bad_type) for FRAGMENT or an unknown type."""
    if ftype in (ACK, HELLO, PAIR_OFFER, SIGN_IN, SIGN_IN_ANSWER):
        from tenace_wire import control as m
        return (m.Ack, m.Hello, m.PairOffer, m.SignIn, m.SignInAnswer)[ftype - ACK]
    if ftype == MORE:
        from tenace_wire.control import More
        return More
    if ftype in (RESULT, PLAYERS, ERASE, REQUEST):
        from tenace_wire import table_messages as t
        return (t.Result, t.Players, t.Erase, t.Request)[ftype - RESULT]
    if ftype == HAND_RECORD:
        from tenace_wire.hand_record import HandRecord
        return HandRecord
    if ftype in (ROUND_PLAN, TRAVELLER, RANKING, TEXT):
        from tenace_wire import director_messages as d
        return d.Text if ftype == TEXT else (d.RoundPlan, d.Traveller, d.Ranking)[ftype - ROUND_PLAN]
    if ftype == STATUS or ftype == PING:
        from tenace_wire import field_messages as f
        return f.Status if ftype == STATUS else f.Ping
    if ftype in (CALL, COMING, CLOCK):
        from tenace_wire import director_call as c
        return (c.Call, c.Coming, c.Clock)[ftype - CALL]
    raise WireError(BAD_TYPE, "no message of type %r" % (ftype,))


def decode_message(ftype: int, payload: "bytes | bytearray | memoryview") -> Message:
    """The message of type `ftype` in `payload`, every field checked."""
    msg = message_class(ftype)()
    msg.decode_payload(payload)
    return msg


def encode_message(msg: Message) -> bytes:
    """The payload bytes of a message (any length: the session fragments what exceeds one frame)."""
    return msg.encode()
