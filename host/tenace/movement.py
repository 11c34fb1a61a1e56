"""Pairs movements: which pairs meet at which table on which boards, round by round (plain Mitchell)."""

from __future__ import annotations

from dataclasses import dataclass

# How big a movement may be: what the terminals and the event file can number (a round is 7 bits and a
# board 10 bits on the wire, the store's tables go to 999) and what any club plays in a round.
MIN_TABLES = 2
MAX_TABLES = 999
MAX_ROUNDS = 127
MAX_BOARDS_PER_ROUND = 36
MAX_BOARDS = 1023


class MovementError(ValueError):
    """A movement that cannot be made; `figure` names the figure at fault: tables, boards_per_round or rounds."""

    def __init__(self, figure: str, message: str) -> None:
        super().__init__(message)
        self.figure = figure


@dataclass(frozen=True)
class Encounter:
    """One table in one round: NS pair, EW pair and the boards they play."""

    table: int
    round: int
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]


@dataclass(frozen=True)
class Movement:
    name: str
    tables: int
    rounds: int
    boards_per_round: int
    encounters: tuple[Encounter, ...]

    @property
    def boards(self) -> int:
        return len({b for e in self.encounters for b in e.boards})

    def at(self, table: int, round_: int) -> Encounter:
        for e in self.encounters:
            if e.table == table and e.round == round_:
                return e
        raise KeyError(f"no table {table} in round {round_} of this {self.tables}-table movement")

    def round_plan(self, round_: int) -> list[Encounter]:
        return [e for e in self.encounters if e.round == round_]


def mitchell(tables: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """A plain Mitchell: NS sit still at their table number, EW move up one table, boards down one.

    With an even number of tables the EW pairs skip one table after half the rounds (a skip
    Mitchell), so that no EW pair meets a board set twice; that allows tables - 1 rounds.

    With `rounds` given, the boards are duplicated instead (one copy per table, as clubs with a
    dealing machine do): every table plays set r in round r, so a session of `rounds` rounds of
    `boards_per_round` boards has every board played at every table, whatever the number of tables.
    """
    check_size(tables, boards_per_round, rounds)
    if rounds is not None:
        return _duplicated_mitchell(tables, boards_per_round, rounds)
    even = tables % 2 == 0
    rounds = tables - 1 if even else tables
    encounters = []
    for r in range(rounds):
        skip = 1 if even and r >= tables // 2 else 0
        for t in range(tables):
            ew = (t - r - skip) % tables + 1
            board_set = (t + r) % tables
            first = board_set * boards_per_round + 1
            boards = tuple(range(first, first + boards_per_round))
            encounters.append(Encounter(t + 1, r + 1, t + 1, ew, boards))
    name = f"{'skip ' if even else ''}Mitchell, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement(name, tables, rounds, boards_per_round, tuple(encounters))


def check_size(tables: int, boards_per_round: int, rounds: int | None = None) -> None:
    """MovementError unless a Mitchell of this size (`rounds` None: a plain one) can be played and numbered."""
    if tables < MIN_TABLES:
        raise MovementError("tables", f"a Mitchell needs at least {MIN_TABLES} tables, not {tables}")
    if tables > MAX_TABLES:
        raise MovementError("tables", f"a Mitchell has at most {MAX_TABLES} tables, not {tables}")
    if boards_per_round < 1:
        raise MovementError("boards_per_round", f"each round needs at least 1 board, not {boards_per_round}")
    if boards_per_round > MAX_BOARDS_PER_ROUND:
        raise MovementError("boards_per_round",
                            f"a round has at most {MAX_BOARDS_PER_ROUND} boards, not {boards_per_round}")
    if rounds is None:  # a plain Mitchell: one round per table (one fewer when even), one board set per table
        if (tables - 1 if tables % 2 == 0 else tables) > MAX_ROUNDS:
            raise MovementError("tables", f"a plain Mitchell of {tables} tables has more than the {MAX_ROUNDS} "
                                f"rounds a terminal can number: at most {MAX_ROUNDS + 1} tables")
        sets = tables
    else:
        if not 1 <= rounds <= min(tables, MAX_ROUNDS):
            raise MovementError("rounds", f"a Mitchell of {tables} tables has 1 to {min(tables, MAX_ROUNDS)} "
                                f"rounds, not {rounds}")
        sets = rounds
    if sets * boards_per_round > MAX_BOARDS:
        raise MovementError("boards_per_round", f"{sets} sets of {boards_per_round} boards make "
                            f"{sets * boards_per_round} boards; a terminal numbers boards up to {MAX_BOARDS}")


def _duplicated_mitchell(tables: int, boards_per_round: int, rounds: int) -> Movement:
    encounters = []
    for r in range(rounds):
        first = r * boards_per_round + 1
        boards = tuple(range(first, first + boards_per_round))
        for t in range(tables):
            encounters.append(Encounter(t + 1, r + 1, t + 1, (t - r) % tables + 1, boards))
    name = f"Mitchell with duplicated boards, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement(name, tables, rounds, boards_per_round, tuple(encounters))
