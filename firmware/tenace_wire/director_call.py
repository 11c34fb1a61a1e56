"""A table calling the director (CALL), the director's answer (COMING) and the round clock (CLOCK).

CALL (terminal), 38 bits in 5 bytes (a 20-byte frame), most significant bit first:
    section 5 (0-25) | table 10 (1-1023) | round 7 (1-127) | call 8 (1-255: the table's calls numbered from 1,
    wrapping) | left 8 (minutes left on the round clock when called; 255: no clock on) | 2 zero bits
The host keeps each call with the time it arrived (a call goes when the player presses the key, and the link
retransmits it until the host has it: its arrival is the time to within a poll).
COMING (host), 23 bits in 3 bytes: section 5 | table 10 | call 8 (the call the director acknowledged) | 1 zero bit.
CLOCK (host), 36 bits in 5 bytes: section 5 | round 7 (the round the clock runs for) | minutes 8 (the round's
    length set by the director; 0: no clock, it was stopped) | left 16 (seconds left when the frame was made;
    0: time is up, the players move) | 4 zero bits
A terminal counts CLOCK's seconds down on its own ticks, so the clock needs one frame a round; the host sends it
again when the director changes it and after each sign-in. The frame waits at most a poll (6 s) in the host's queue,
so the table's clock runs a few seconds late at worst: the director's call "move" is the one that counts.
"""

from micropython import const

from tenace_wire.fields import Message
from tenace_wire.frame_types import CALL, CLOCK, COMING

NO_CLOCK = const(255)  # CALL's left when the table has no round clock
MAX_LEFT = const(65535)  # CLOCK's seconds left, at most (18 hours)


class Call(Message):
    """A table calls the director."""

    TYPE = CALL
    FIELDS = ("section", "table", "round", "call", "left")
    SPEC = (5, 0, 25, 10, 1, 1023, 7, 1, 127, 8, 1, 255, 8, 0, NO_CLOCK)

    section: int
    table: int
    round: int
    call: int
    left: int


class Coming(Message):
    """The director has seen a table's call and is on the way."""

    TYPE = COMING
    FIELDS = ("section", "table", "call")
    SPEC = (5, 0, 25, 10, 1, 1023, 8, 1, 255)

    section: int
    table: int
    call: int


class Clock(Message):
    """The round clock: the round it runs for, its length, the seconds left when sent (0: move)."""

    TYPE = CLOCK
    FIELDS = ("section", "round", "minutes", "left")
    SPEC = (5, 0, 25, 7, 1, 127, 8, 0, 255, 16, 0, MAX_LEFT)

    section: int
    round: int
    minutes: int
    left: int
