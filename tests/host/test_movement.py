"""The plain Mitchell: every pair plays every round once, no pair meets the same boards or opponents twice."""

from __future__ import annotations

from collections import Counter

import pytest

from tenace.movement import mitchell


@pytest.mark.parametrize("tables", [2, 3, 4, 7, 8, 13, 15, 22, 30])
def test_mitchell_invariants(tables: int) -> None:
    m = mitchell(tables, 3)
    assert m.rounds == (tables - 1 if tables % 2 == 0 else tables)
    for r in range(1, m.rounds + 1):
        plan = m.round_plan(r)
        assert sorted(e.ns_pair for e in plan) == list(range(1, tables + 1))
        assert sorted(e.ew_pair for e in plan) == list(range(1, tables + 1))
        # Each board set is in play at exactly one table per round.
        played = Counter(b for e in plan for b in e.boards)
        assert all(count == 1 for count in played.values())
    for ew in range(1, tables + 1):
        mine = [e for e in m.encounters if e.ew_pair == ew]
        assert len({e.ns_pair for e in mine}) == m.rounds  # never meets an NS pair twice
        boards = [b for e in mine for b in e.boards]
        assert len(boards) == len(set(boards))  # never plays a board twice
    # Every board is played by every NS... as many times as there are rounds in which its set is at a table.
    plays = Counter(b for e in m.encounters for b in e.boards)
    assert set(plays) == set(range(1, m.boards + 1))
    assert all(n == m.rounds for n in plays.values())


def test_boards_and_pairs_move_the_mitchell_way() -> None:
    m = mitchell(5, 2)
    assert m.at(1, 1).boards == (1, 2) and m.at(1, 1).ew_pair == 1
    assert m.at(2, 2).ew_pair == 1  # EW move up one table
    assert m.at(1, 2).boards == (3, 4)  # boards move down one table: table 2's set reaches table 1
    with pytest.raises(KeyError, match="no table 6 in round 1"):
        m.at(6, 1)


@pytest.mark.parametrize(("tables", "rounds"), [(2, 2), (7, 3), (30, 9), (30, 30)])
def test_duplicated_boards_every_table_plays_every_board(tables: int, rounds: int) -> None:
    m = mitchell(tables, 3, rounds)
    assert (m.rounds, m.boards) == (rounds, 3 * rounds)
    plays = Counter(b for e in m.encounters for b in e.boards)
    assert plays == {b: tables for b in range(1, 3 * rounds + 1)}
    for ns in range(1, tables + 1):
        mine = [e for e in m.encounters if e.ns_pair == ns]
        assert {e.table for e in mine} == {ns} and len({e.ew_pair for e in mine}) == rounds
    for ew in range(1, tables + 1):
        mine = [e for e in m.encounters if e.ew_pair == ew]
        assert len({e.ns_pair for e in mine}) == rounds  # never meets an NS pair twice
        assert sorted(b for e in mine for b in e.boards) == list(range(1, 3 * rounds + 1))
    assert m.at(2, 2).ew_pair == 1  # EW still move up one table


def test_too_small_movements_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 tables"):
        mitchell(1, 3)
    with pytest.raises(ValueError, match="at least 1 board"):
        mitchell(4, 0)
    with pytest.raises(ValueError, match="1 to 4 rounds, not 5"):
        mitchell(4, 3, 5)
