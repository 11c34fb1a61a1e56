"""HAND_RECORD, the host's message of a board's deal, with its double-dummy tricks and par when analysed.

A module of its own: only a terminal that checks the lead (and then shows the deal) receives one.

HAND_RECORD (15 bytes, one frame): board 16 | the seat (0-3: N E S W) holding each card, 2 bits × 52, cards
    in card_code order (clubs 2..A, diamonds, hearts, spades). With the deal's double-dummy analysis
    (27 bytes, two fragments), then: the tricks (0-13) of each declarer N E S W in each strain C D H S NT,
    4 bits × 20, in that order (as the event file keeps them) | par 14 (signed: NS's score, -7600..7600)
    | 2 zero bits.
"""

from micropython import const

from tenace_wire.fields import Message, decode_fields, encode_fields, get_bits, malformed, put_bits
from tenace_wire.frame_types import HAND_RECORD

_DEAL_BYTES = const(13)
_ANALYSIS_BYTES = const(12)  # 20 x 4 bits of tricks, 14 of par, 2 of padding
_PAR = ("par",)
_PAR_SPEC = (14, -7600, 7600)
_SORTED_DEAL = bytes([i // 13 for i in range(52)])  # a valid deal: North the clubs, East the diamonds...


class HandRecord(Message):
    """A board's deal: `owners[c]` is the seat (0-3: N E S W) holding card c (card_code(c) - 1); with its
    double-dummy analysis when the event file has one of this deal: `tricks[5 * declarer + strain]` (declarers
    N E S W, strains C D H S NT; b"": no analysis) and `par`, NS's score at par."""

    TYPE = HAND_RECORD
    FIELDS = ("board",)
    SPEC = (16, 1, 1023)
    EXTRA = ("owners", "tricks", "par")

    board: int
    owners: bytes = _SORTED_DEAL
    tricks: bytes = b""
    par: int = 0

    def check(self) -> None:
        counts = [0, 0, 0, 0]
        if len(self.owners) != 52:
            raise malformed("a deal has 52 cards, not %d" % len(self.owners))
        for seat in self.owners:
            if seat > 3:
                raise malformed("seat %d: seats are 0-3" % seat)
            counts[seat] += 1
        if counts != [13, 13, 13, 13]:
            raise malformed("each hand holds 13 cards, not %r" % (counts,))
        tricks = self.tricks
        if len(tricks) not in (0, 20) or (self.par and not tricks):
            raise malformed("a double-dummy table has 20 trick counts, and par only comes with one")
        for n in tricks:
            if n > 13:
                raise malformed("%d tricks: at most 13" % n)

    def encode_tail(self) -> bytes:
        tricks = self.tricks
        buf = bytearray(_DEAL_BYTES + (_ANALYSIS_BYTES if tricks else 0))
        for i in range(52):
            put_bits(buf, 2 * i, 2, self.owners[i])
        if tricks:
            for i in range(20):
                put_bits(buf, 8 * _DEAL_BYTES + 4 * i, 4, tricks[i])
            encode_fields(self, _PAR, _PAR_SPEC, buf, _DEAL_BYTES + 10)  # (range-checked there)
        return bytes(buf)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        size = len(tail)
        if size != _DEAL_BYTES and size != _DEAL_BYTES + _ANALYSIS_BYTES:
            raise malformed("a deal is 13 bytes, 25 with its analysis, not %d" % size)
        self.owners = bytes(get_bits(tail, 2 * i, 2) for i in range(52))
        self.tricks = b""
        self.par = 0
        if size > _DEAL_BYTES:
            self.tricks = bytes(get_bits(tail, 8 * _DEAL_BYTES + 4 * i, 4) for i in range(20))
            decode_fields(self, _PAR, _PAR_SPEC, tail, _DEAL_BYTES + 10)  # (and its padding checked)
