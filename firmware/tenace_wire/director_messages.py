"""What the director's laptop sends to a table: ROUND_PLAN, TRAVELLER, RANKING and TEXT (HAND_RECORD: hand_record.py).

All but TEXT are usually longer than one frame and travel as fragments (fragments.py).
ROUND_PLAN: section 8 | table 16 | round 8 | ns_pair 16 | ew_pair 16 (0: no pair, a sit-out)
    | ns_next 16 | ew_next 16 | boards_next 16 (the table each goes to next; 0: none, the last
    round) | ns_next_ew 1 | ew_next_ns 1 (1: the NS pair sits East-West next round, the EW pair
    North-South: a Howell's pairs change direction) | 6 zero bits | count 8 (1-64) | count × board 16
    [| an individual's four players, North, East, South, West: 4 × (player 16 | next table 16 | next seat 8,
    0-3 for N E S W; table 0: none, the last round)].
TRAVELLER: section 8 | board 16 | count 8 (0-64) | count × line of 10 bytes: ns_pair 10
    | ew_pair 10 | the outcome as in RESULT (26 bits, outcome.py) | ns_score 14 (signed, -7600..7600)
    | ns_percent 14 (0-10000: hundredths of a percent) | 6 zero bits.
RANKING: section 8 | round 8 (0: final) | unit 8 (PERCENT, IMPS, POINTS, VPS) | count 8
    | count × line of 7 bytes: rank 10 | pair 10 | score 28 (signed, hundredths of the unit) | direction 2
    (FIELD: the pair's number names it, a Howell; NS or EW: a Mitchell's field, where NS 3 and EW 3 are
    two pairs) | 6 zero bits.
HAND_RECORD: in hand_record.py (a terminal that checks the lead loads it, the others never do).
TEXT: the director's message, UTF-8, 1-160 bytes, no control characters but newline.
"""

from micropython import const

from tenace_wire.fields import Message, decode_fields, encode_fields, malformed, size_of
from tenace_wire.frame_types import RANKING, ROUND_PLAN, TEXT, TRAVELLER
from tenace_wire.outcome import OUTCOME, OUTCOME_SPEC, Outcome

FIELD = const(0)  # a ranking line's direction: one field (Howell), NS or EW
NS = const(1)
EW = const(2)
PERCENT = const(0)
IMPS = const(1)
POINTS = const(2)
VPS = const(3)
MAX_BOARDS = const(64)
MAX_LINES = const(64)
MAX_TEXT = const(160)


def _encode_lines(lines: "tuple[TravellerLine, ...] | tuple[RankingLine, ...]", make: "type[Message]") -> bytes:
    if len(lines) > MAX_LINES:
        raise malformed("%d lines, at most %d" % (len(lines), MAX_LINES))
    size = size_of(make.SPEC)
    buf = bytearray(1 + size * len(lines))
    buf[0] = len(lines)
    for i, line in enumerate(lines):
        if type(line) is not make:
            raise malformed("line %d is not a %s" % (i, make.__name__))
        encode_fields(line, make.FIELDS, make.SPEC, buf, 1 + i * size)
        line.check()
    return bytes(buf)


def _line_count(tail: "bytes | memoryview", make: "type[Message]") -> int:
    size = size_of(make.SPEC)
    if len(tail) < 1 or tail[0] > MAX_LINES or len(tail) != 1 + tail[0] * size:
        raise malformed("lines of %d bytes, count first" % size)
    return tail[0]


def _decode_lines(tail: "bytes | memoryview", lines: "tuple[TravellerLine, ...] | tuple[RankingLine, ...]") -> None:
    """Fill freshly made lines from the tail (checked by _line_count)."""
    for i, line in enumerate(lines):
        decode_fields(line, line.FIELDS, line.SPEC, tail, 1 + i * size_of(line.SPEC))
        line.check()


class RoundPlan(Message):
    """A table's round: who sits NS and EW, which boards, and where pairs and boards go next."""

    TYPE = ROUND_PLAN
    FIELDS = ("section", "table", "round", "ns_pair", "ew_pair", "ns_next", "ew_next", "boards_next", "ns_next_ew",
              "ew_next_ns")
    SPEC = (8, 0, 25, 16, 1, 1023, 8, 1, 127, 16, 0, 1023, 16, 0, 1023, 16, 0, 1023, 16, 0, 1023, 16, 0, 1023,
            1, 0, 1, 1, 0, 1)
    EXTRA = ("boards", "players", "done")

    section: int
    table: int
    round: int
    ns_pair: int
    ew_pair: int
    boards: "tuple[int, ...]" = (1,)
    # The boards the host already has a result for at this table (another terminal's: a spare taking over starts
    # at the first board without one); on the wire, the top bit of the board's two bytes.
    done: "tuple[int, ...]" = ()
    # An individual's players N, E, S, W: (player, the table they go to next, their seat there 0-3); () for pairs.
    players: "tuple[tuple[int, ...], ...]" = ()
    ns_next: int
    ew_next: int
    boards_next: int
    ns_next_ew: int
    ew_next_ns: int

    def check(self) -> None:
        boards = self.boards = tuple(self.boards)
        if not 1 <= len(boards) <= MAX_BOARDS:
            raise malformed("a round has 1-%d boards, not %d" % (MAX_BOARDS, len(boards)))
        for i, b in enumerate(boards):
            if not isinstance(b, int) or not 1 <= b <= 1023 or b in boards[:i]:
                raise malformed("board %r: boards are distinct numbers 1-1023" % (b,))
        self.done = tuple(self.done)  # (a board not in the round is not sent: encode_tail marks the round's own)
        players = self.players = tuple(tuple(p) for p in self.players)
        if players and len(players) != 4:
            raise malformed("an individual's round names its 4 players, not %d" % len(players))
        for p in players:
            if len(p) != 3 or not 1 <= p[0] <= 1023 or not 0 <= p[1] <= 1023 or not 0 <= p[2] <= 3:
                raise malformed("player %r: (player 1-1023, next table 0-1023, next seat 0-3)" % (p,))

    def encode_tail(self) -> bytes:
        n = len(self.boards)
        buf = bytearray(1 + 2 * n + 5 * len(self.players))
        buf[0] = n
        for i, b in enumerate(self.boards):
            if b in self.done:
                b |= 0x8000
            buf[1 + 2 * i] = b >> 8
            buf[2 + 2 * i] = b & 0xFF
        at = 1 + 2 * n
        for player, table, seat in self.players:
            buf[at:at + 5] = bytes((player >> 8, player & 0xFF, table >> 8, table & 0xFF, seat))
            at += 5
        return bytes(buf)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        n = tail[0] if len(tail) else 0
        if not n or len(tail) not in (1 + 2 * n, 21 + 2 * n):
            raise malformed("the boards of a round: a count, then two bytes a board (and an individual's players)")
        boards = tuple((tail[1 + 2 * i] << 8) | tail[2 + 2 * i] for i in range(n))
        self.boards = tuple(b & 0x7FFF for b in boards)
        self.done = tuple(b & 0x7FFF for b in boards if b & 0x8000)
        at = 1 + 2 * n
        self.players = tuple(((tail[i] << 8) | tail[i + 1], (tail[i + 2] << 8) | tail[i + 3], tail[i + 4])
                             for i in range(at, len(tail), 5))


class TravellerLine(Outcome):
    """One table's result on a traveller."""

    # Concatenated tuples: MicroPython has no *unpacking in a tuple display.
    FIELDS = ("ns_pair", "ew_pair") + OUTCOME + ("ns_score", "ns_percent")  # noqa: RUF005
    SPEC = (10, 1, 1023, 10, 1, 1023) + OUTCOME_SPEC + (14, -7600, 7600, 14, 0, 10000)  # noqa: RUF005

    ns_pair: int
    ew_pair: int
    ns_score: int
    ns_percent: int


class Traveller(Message):
    """A board's results at every table, with North-South's score and matchpoint percentage."""

    TYPE = TRAVELLER
    FIELDS = ("section", "board")
    SPEC = (8, 0, 25, 16, 1, 1023)
    EXTRA = ("lines",)

    section: int
    board: int
    lines: "tuple[TravellerLine, ...]" = ()

    def encode_tail(self) -> bytes:
        self.lines = tuple(self.lines)  # a list is welcome; stored as a tuple, as decode gives it
        return _encode_lines(self.lines, TravellerLine)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        self.lines = tuple(TravellerLine() for _ in range(_line_count(tail, TravellerLine)))
        _decode_lines(tail, self.lines)


class RankingLine(Message):
    FIELDS = ("rank", "pair", "score", "direction")
    SPEC = (10, 1, 1023, 10, 1, 1023, 28, -99999999, 99999999, 2, 0, 2)

    rank: int
    pair: int
    score: int
    direction: int


class Ranking(Message):
    """A section's ranking after a round (0: final), scores in hundredths of the unit (50.25% is 5025)."""

    TYPE = RANKING
    FIELDS = ("section", "round", "unit")
    SPEC = (8, 0, 25, 8, 0, 127, 8, 0, 3)
    EXTRA = ("lines",)

    section: int
    round: int
    unit: int
    lines: "tuple[RankingLine, ...]" = ()

    def encode_tail(self) -> bytes:
        self.lines = tuple(self.lines)
        return _encode_lines(self.lines, RankingLine)

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        self.lines = tuple(RankingLine() for _ in range(_line_count(tail, RankingLine)))
        _decode_lines(tail, self.lines)


class Text(Message):
    """A message from the director to a table (or to every table, one frame each)."""

    TYPE = TEXT
    EXTRA = ("text",)

    text: str = ""

    def check(self) -> None:
        if not isinstance(self.text, str):
            raise malformed("the director's message is text")
        raw = self.text.encode()
        if not 1 <= len(raw) <= MAX_TEXT:
            raise malformed("the director's message has 1-%d bytes, not %d" % (MAX_TEXT, len(raw)))
        for c in raw:
            if (c < 32 and c != 10) or c == 127:
                raise malformed("no control characters in the director's message")

    def encode_tail(self) -> bytes:
        return self.text.encode()

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        try:
            self.text = bytes(tail).decode()
        except UnicodeError:
            raise malformed("the director's message is not UTF-8") from None
