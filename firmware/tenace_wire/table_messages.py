"""What a table sends: a board's RESULT (one frame), PLAYERS, ERASE and REQUEST.

RESULT payload, 82 bits in 11 bytes (a 26-byte frame), most significant bit first:
    section 5 (0-25: A-Z) | table 10 (1-1023) | round 7 (1-127) | board 10 (1-1023)
    | ns_pair 10 (1-1023) | ew_pair 10 (1-1023) | version 4 (0: first entry, 1-15: corrections)
    | the board's outcome, 26 bits (outcome.py: kind, contract, declarer, tricks, adjustments, lead)
    | 6 zero bits

The same (section, table, round, board) sent again with a higher version is a correction (Law
79C): the host keeps every version. ERASE withdraws a result, as a version of its own.
"""

from micropython import const

from tenace_wire.fields import Message, malformed
from tenace_wire.frame_types import ERASE, HAND_RECORD, PLAYERS, RANKING, REQUEST, RESULT, ROUND_PLAN, TRAVELLER

# The outcome's public names, here too for the code that imports them from this module (the terminal's among it).
from tenace_wire.outcome import ADJUSTED as ADJUSTED
from tenace_wire.outcome import AVERAGE as AVERAGE
from tenace_wire.outcome import AVERAGE_MINUS as AVERAGE_MINUS
from tenace_wire.outcome import AVERAGE_PLUS as AVERAGE_PLUS
from tenace_wire.outcome import KIND_NAMES as KIND_NAMES
from tenace_wire.outcome import NOT_PLAYED as NOT_PLAYED
from tenace_wire.outcome import OUTCOME, OUTCOME_SPEC, Outcome
from tenace_wire.outcome import PASSED_OUT as PASSED_OUT
from tenace_wire.outcome import PLAYED as PLAYED
from tenace_wire.outcome import card_code as card_code

MAX_VERSION = const(15)   # RESULT's and ERASE's 4-bit version: the first entry and 15 corrections

_WHERE = ("section", "table", "round")
_WHERE_SPEC = (5, 0, 25, 10, 1, 1023, 7, 1, 127)


class Result(Outcome):
    """One board's result as the table confirmed it."""

    TYPE = RESULT
    # Concatenated tuples: MicroPython has no *unpacking in a tuple display.
    FIELDS = _WHERE + ("board", "ns_pair", "ew_pair", "version") + OUTCOME  # noqa: RUF005
    SPEC = _WHERE_SPEC + (10, 1, 1023, 10, 1, 1023, 10, 1, 1023, 4, 0, MAX_VERSION) + OUTCOME_SPEC  # noqa: RUF005

    section: int
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    version: int


class Players(Message):
    """The player numbers keyed at a table for a round; 0 where none was keyed (numbers optional)."""

    TYPE = PLAYERS
    # 27 bits a player: numbers up to 134,217,727 (8-digit federation numbers), so it fits one frame.
    FIELDS = _WHERE + ("north", "east", "south", "west")  # noqa: RUF005
    SPEC = _WHERE_SPEC + (27, 0, 134217727, 27, 0, 134217727, 27, 0, 134217727, 27, 0, 134217727)  # noqa: RUF005

    section: int
    table: int
    round: int
    north: int
    east: int
    south: int
    west: int


class Erase(Message):
    """A board's result withdrawn at the table: a new version of it, which the host keeps with the others."""

    TYPE = ERASE
    FIELDS = _WHERE + ("board", "version")  # noqa: RUF005
    SPEC = _WHERE_SPEC + (10, 1, 1023, 4, 1, MAX_VERSION)  # noqa: RUF005

    section: int
    table: int
    round: int
    board: int
    version: int


_WANTED = (1 << ROUND_PLAN) | (1 << TRAVELLER) | (1 << RANKING) | (1 << HAND_RECORD)


class Request(Message):
    """A table asks for a message: `what` is its frame type (ROUND_PLAN, TRAVELLER, RANKING, HAND_RECORD).

    `round` 0 means the current round; `board` is 0 unless `what` is about a board.
    """

    TYPE = REQUEST
    FIELDS = ("what", "section", "table", "round", "board")
    SPEC = (5, 0, 31, 5, 0, 25, 10, 1, 1023, 7, 0, 127, 10, 0, 1023)

    what: int
    section: int
    table: int
    round: int
    board: int

    def check(self) -> None:
        if not (_WANTED >> self.what) & 1:
            raise malformed("a request cannot ask for message type %d" % self.what)
        if (self.what in (TRAVELLER, HAND_RECORD)) != (self.board != 0):
            raise malformed("a traveller or hand record request names a board, and only those do")
