"""What a table sends: a board's RESULT (one frame), PLAYERS, ERASE and REQUEST.

RESULT payload, 82 bits in 11 bytes (a 26-byte frame), most significant bit first:
    section 5 (0-25: A-Z) | table 10 (1-1023) | round 7 (1-127) | board 10 (1-1023)
    | ns_pair 10 (1-1023) | ew_pair 10 (1-1023) | version 4 (0: first entry, 1-15: corrections)
    | kind 2 | level 3 (0-7) | strain 3 (0-4: C D H S NT) | doubling 2 (0 - X XX)
    | declarer 2 (0-3: N E S W) | tricks 4 (declarer's total, 0-13)
    | ns_adjust 2 | ew_adjust 2 (0, or 1-3: A- A A+) | lead 6 (0: none, 1-52: card_code) | 6 zero bits
Kinds: PLAYED (a contract, level 1-7), PASSED_OUT, ADJUSTED (an artificial adjusted score per side,
Law 12C2, non-balancing allowed: e.g. NS A+, EW A-), NOT_PLAYED (the director's "not played").
Fields that a kind does not use must be 0, so a result has a single encoding.

The same (section, table, round, board) sent again with a higher version is a correction (Law
79C): the host keeps every version. ERASE withdraws a result, as a version of its own.
"""

try:
    from micropython import const
except ImportError:  # CPython on the host: const is only a compile-time hint
    def const(__value: int) -> int:  # "__" makes it positional-only, as in the stub
        return __value

from tenace_wire.fields import Message, malformed
from tenace_wire.frame_types import ERASE, HAND_RECORD, PLAYERS, RANKING, REQUEST, RESULT, ROUND_PLAN, TRAVELLER

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only
    from tenace_wire.director_messages import TravellerLine

PLAYED = const(0)
PASSED_OUT = const(1)
ADJUSTED = const(2)
NOT_PLAYED = const(3)
KIND_NAMES = ("played", "passed out", "adjusted", "not played")

MAX_VERSION = const(15)   # RESULT's and ERASE's 4-bit version: the first entry and 15 corrections

AVERAGE_MINUS = const(1)  # 40% in pairs
AVERAGE = const(2)        # 50%
AVERAGE_PLUS = const(3)   # 60%

_WHERE = ("section", "table", "round")
_WHERE_SPEC = (5, 0, 25, 10, 1, 1023, 7, 1, 127)
# A board's outcome, shared with the traveller's lines (director_messages.py).
OUTCOME = ("kind", "level", "strain", "doubling", "declarer", "tricks", "ns_adjust", "ew_adjust", "lead")
OUTCOME_SPEC = (2, 0, 3, 3, 0, 7, 3, 0, 4, 2, 0, 2, 2, 0, 3, 4, 0, 13, 2, 0, 3, 2, 0, 3, 6, 0, 52)


def card_code(suit: int, rank: int) -> int:
    """A card as 1-52: suit 0-3 (clubs, diamonds, hearts, spades), rank 0-12 (two to ace); 0 is no card."""
    if not 0 <= suit <= 3 or not 0 <= rank <= 12:
        raise ValueError("suit 0-3 and rank 0-12, not %r %r" % (suit, rank))
    return 1 + suit * 13 + rank


def check_table_result(m: "Result | TravellerLine") -> None:
    """An outcome whose kind decides which fields are used (the others must be 0).

    NS and EW pair numbers may be equal: a Mitchell numbers its NS and EW pairs apart (NS 1 meets EW 1).
    """
    kind = m.kind
    unused = m.level == 0 and m.strain == 0 and m.doubling == 0 and m.declarer == 0 and m.tricks == 0 and m.lead == 0
    if kind == PLAYED:
        bad = m.level == 0 or m.ns_adjust or m.ew_adjust
    elif kind == ADJUSTED:
        bad = not unused or not m.ns_adjust or not m.ew_adjust
    else:
        bad = not unused or m.ns_adjust or m.ew_adjust
    if bad:
        raise malformed("fields do not fit a board " + KIND_NAMES[kind])


class Result(Message):
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
    kind: int
    level: int
    strain: int
    doubling: int
    declarer: int
    tricks: int
    lead: int
    ns_adjust: int
    ew_adjust: int
    version: int

    def check(self) -> None:
        check_table_result(self)


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
