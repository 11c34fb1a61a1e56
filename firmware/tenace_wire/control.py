"""Link control messages: ACK, MORE, the pairing pair HELLO / PAIR_OFFER, and SIGN_IN with its answer (the table's
settings).

HELLO (2 or 6 bytes): firmware 16, then the terminal's club key id (4 bytes) if it has a club key.
PAIR_OFFER (8 bytes): the event nonce.
ACK (2 bytes): count 8 | status 8. The frame header's sequence number is the first one
acknowledged; `count` frames from there are acknowledged (a fragmented message in one ACK).
MORE (1 byte, host to terminal): waiting 8, the frames the host still holds for the terminal (at most 255; 0: none
any more). Unsequenced like ACK (sequence number 1, unused): it only tells a
sleepy terminal to keep its receiver on (session.py, "Sleepy terminals").
SIGN_IN (9 bytes): section 8 | table 16 | nonce 32 | firmware 16.
SIGN_IN_ANSWER (14 bytes): nonce 32 | status 8 | section 8 | table 16 | round 8 | player_numbers 2
| lead_entry 2 | result_entry 2 | show_traveller 1 | show_percentage 1 | pin 14 | 2 zero bits | language
(two ASCII letters, ISO 639-1). The nonce is the terminal's, sent back: an answer to an older sign-in
is a replay. `pin` is the event's director's PIN for the terminal's menu (0-9999): authenticated, not
secret (the radio is not encrypted); it keeps players, not eavesdroppers, out of the menu.
"""

from micropython import const

from tenace_wire.auth import CLUB_ID_SIZE, NONCE_SIZE
from tenace_wire.fields import Message, malformed
from tenace_wire.frame_types import ACK, HELLO, MORE, PAIR_OFFER, SIGN_IN, SIGN_IN_ANSWER

# ACK statuses. Below 16: the message is at the receiver. From 16: refused for good; the sender
# stops retransmitting and shows the refusal (a retransmission could not fix it).
STORED = const(0)
ALREADY_STORED = const(1)
# A result stored (now or before) whose board has no result that counts until the director decides: it differs
# from another one for the same board, or the event file's is damaged. The terminal says so.
STORED_CONFLICT = const(2)
REFUSED_INVALID = const(16)        # a field the host's re-validation refused (board not in this round...)
REFUSED_WRONG_TABLE = const(17)
REFUSED_NOT_SIGNED_IN = const(18)
REFUSED_CLOSED = const(19)         # the event or session is closed

# Sign-in answer statuses.
ACCEPTED = const(0)
TABLE_TAKEN = const(1)      # another terminal has this section and table
NO_SUCH_TABLE = const(2)
EVENT_CLOSED = const(3)

# Settings.
PLAYER_NUMBERS_OFF = const(0)
PLAYER_NUMBERS_OPTIONAL = const(1)
PLAYER_NUMBERS_REQUIRED = const(2)
LEAD_OFF = const(0)
LEAD_ON = const(1)
LEAD_CHECKED = const(2)        # checked against the hand record: a warning
LEAD_MUST_CORRECT = const(3)   # checked, and must be corrected before the result is accepted
ENTRY_ANY = const(0)           # either way, as the players like
ENTRY_TOTAL = const(1)         # tricks keyed as a total, 0-13
ENTRY_RELATIVE = const(2)      # tricks keyed as =, +1, -2


class Ack(Message):
    TYPE = ACK
    FIELDS = ("count", "status")
    SPEC = (8, 1, 255, 8, 0, 255)

    count: int
    status: int


class More(Message):
    TYPE = MORE
    FIELDS = ("waiting",)
    SPEC = (8, 0, 255)

    waiting: int


class Hello(Message):
    """A terminal without a key asks for the event nonce (unauthenticated); `club` is its club key's id
    (pairing.club_id, CLUB_ID_SIZE bytes) or empty: a terminal without a club key pairs with the code alone."""

    TYPE = HELLO
    FIELDS = ("firmware",)
    SPEC = (16, 0, 65535)
    EXTRA = ("club",)

    firmware: int
    club: bytes = b""

    def encode_tail(self) -> bytes:
        if not isinstance(self.club, (bytes, bytearray)) or len(self.club) not in (0, CLUB_ID_SIZE):
            raise malformed("a club key id is %d bytes or none" % CLUB_ID_SIZE)
        return bytes(self.club)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        if len(tail) not in (0, CLUB_ID_SIZE):
            raise malformed("a club key id is %d bytes or none, not %d" % (CLUB_ID_SIZE, len(tail)))
        self.club = bytes(tail)


class PairOffer(Message):
    """The host's event nonce (unauthenticated): with the code keyed at the table it gives the event key."""

    TYPE = PAIR_OFFER
    EXTRA = ("nonce",)

    nonce: bytes = bytes(NONCE_SIZE)

    def encode_tail(self) -> bytes:
        if not isinstance(self.nonce, (bytes, bytearray)) or len(self.nonce) != NONCE_SIZE:
            raise malformed("the event nonce is %d bytes" % NONCE_SIZE)
        return bytes(self.nonce)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        if len(tail) != NONCE_SIZE:
            raise malformed("the event nonce is %d bytes, not %d" % (NONCE_SIZE, len(tail)))
        self.nonce = bytes(tail)


class SignIn(Message):
    """A terminal takes a section and table; `nonce` is fresh at every sign-in."""

    TYPE = SIGN_IN
    FIELDS = ("section", "table", "nonce", "firmware")
    SPEC = (8, 0, 25, 16, 1, 1023, 32, 0, 0xFFFFFFFF, 16, 0, 65535)

    section: int
    table: int
    nonce: int
    firmware: int


class SignInAnswer(Message):
    """The host's answer to a sign-in: accepted or why not, the current round, the table's settings."""

    TYPE = SIGN_IN_ANSWER
    FIELDS = ("nonce", "status", "section", "table", "round", "player_numbers", "lead_entry", "result_entry",
              "show_traveller", "show_percentage", "pin")
    SPEC = (32, 0, 0xFFFFFFFF, 8, 0, 3, 8, 0, 25, 16, 1, 1023, 8, 0, 127, 2, 0, 2, 2, 0, 3, 2, 0, 2, 1, 0, 1, 1, 0, 1,
            14, 0, 9999)
    EXTRA = ("language",)

    nonce: int
    status: int
    section: int
    table: int
    round: int
    player_numbers: int
    lead_entry: int
    result_entry: int
    show_traveller: int
    show_percentage: int
    pin: int
    language: str = "en"

    def encode_tail(self) -> bytes:
        lang = self.language
        if not isinstance(lang, str) or len(lang) != 2 or not all("a" <= c <= "z" for c in lang):
            raise malformed("language %r: two lowercase letters (ISO 639-1)" % (lang,))
        return lang.encode()

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        if len(tail) != 2 or not all(97 <= b <= 122 for b in tail):
            raise malformed("the language is two lowercase ASCII letters")
        self.language = bytes(tail).decode()
