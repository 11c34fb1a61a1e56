"""Pairs movements: which pairs meet at which table on which boards, round by round (plain Mitchell)."""

from __future__ import annotations

from dataclasses import dataclass


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
        return self.tables * self.boards_per_round

    def at(self, table: int, round_: int) -> Encounter:
        for e in self.encounters:
            if e.table == table and e.round == round_:
                return e
        raise KeyError(f"no table {table} in round {round_} of this {self.tables}-table movement")

    def round_plan(self, round_: int) -> list[Encounter]:
        return [e for e in self.encounters if e.round == round_]


def mitchell(tables: int, boards_per_round: int) -> Movement:
    """A plain Mitchell: NS sit still at their table number, EW move up one table, boards down one.

    With an even number of tables the EW pairs skip one table after half the rounds (a skip
    Mitchell), so that no EW pair meets a board set twice; that allows tables - 1 rounds.
    """
    if tables < 2:
        raise ValueError("a Mitchell needs at least 2 tables")
    if boards_per_round < 1:
        raise ValueError("each round needs at least 1 board")
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
