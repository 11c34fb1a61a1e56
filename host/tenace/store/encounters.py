"""The stored movement as the collector reads it: who plays where in each round, which boards, which are in."""

from __future__ import annotations

import sqlite3

from tenace.movement.model import Encounter, Movement
from tenace.store.row_check import DamagedFile, Seat
from tenace.store.validate import show

# A board slot sits out when somebody does at its table in its round (tenace move): no result is expected there.
_SITS_OUT = ("EXISTS (SELECT 1 FROM sit_out o WHERE o.section = b.section AND o.table_no = b.table_no"
             " AND o.round = b.round)")
# A board slot counts as in when one of its current versions (not superseded) is a result, not an erasure, or
# when it sits out.
_SLOT_IN = ("(EXISTS (SELECT 1 FROM result r WHERE r.section = b.section AND r.table_no = b.table_no"
            " AND r.round = b.round AND r.board = b.board AND r.kind <> 'erased'"
            " AND NOT EXISTS (SELECT 1 FROM result_supersedes s WHERE s.supersedes = r.id)) OR " + _SITS_OUT + ")")
_PAIR_COLUMNS = {"NS": "ns_pair", "EW": "ew_pair"}


def _number(value: object, table: str) -> int:
    """A number of the stored movement as it must read back; DamagedFile when it does not (a flipped bit)."""
    if type(value) is int:
        return value
    raise DamagedFile(table, "?", f"a table, round, board or pair number reads {show(value)}")


def table_exists(conn: sqlite3.Connection, section: str, table: int) -> bool:
    """True when the movement seats pairs at this table in some round."""
    return conn.execute("SELECT 1 FROM encounter WHERE section = ? AND table_no = ? LIMIT 1",
                        (section, table)).fetchone() is not None


def table_rounds(conn: sqlite3.Connection, section: str, table: int) -> list[int]:
    """The rounds the movement plays at a table, in order."""
    rows = conn.execute("SELECT round FROM encounter WHERE section = ? AND table_no = ? ORDER BY round",
                        (section, table))
    return [_number(r, "encounter") for (r,) in rows]


def first_open_round(conn: sqlite3.Connection, section: str, table: int) -> int | None:
    """The table's first round with a board not yet in; None when every board is in (or no such table)."""
    row = conn.execute(f"SELECT min(b.round) FROM encounter_board b WHERE b.section = ? AND b.table_no = ?"
                       f" AND NOT {_SLOT_IN}", (section, table)).fetchone()
    return _number(row[0], "encounter_board") if row is not None and row[0] is not None else None


def last_round(conn: sqlite3.Connection, section: str, table: int) -> int | None:
    """The table's last round; None for no such table."""
    row = conn.execute("SELECT max(round) FROM encounter WHERE section = ? AND table_no = ?",
                       (section, table)).fetchone()
    return _number(row[0], "encounter") if row is not None and row[0] is not None else None


def open_board_count(conn: sqlite3.Connection, section: str, table: int, round_: int) -> int:
    """How many boards of the table's round are not in yet."""
    row = conn.execute(f"SELECT count(*) FROM encounter_board b WHERE b.section = ? AND b.table_no = ?"
                       f" AND b.round = ? AND NOT {_SLOT_IN}", (section, table, round_)).fetchone()
    return int(row[0])


def tables_playing(conn: sqlite3.Connection, section: str, round_: int) -> list[int]:
    """The section's tables with a board not yet in from round `round_` or an earlier one: those still playing it."""
    rows = conn.execute(f"SELECT DISTINCT b.table_no FROM encounter_board b WHERE b.section = ? AND b.round <= ?"
                        f" AND NOT {_SLOT_IN} ORDER BY b.table_no", (section, round_)).fetchall()
    return [_number(row[0], "encounter_board") for row in rows]


def boards_in(conn: sqlite3.Connection, section: str, table: int, round_: int) -> list[int]:
    """The boards of the table's round that are in (a result of any kind, from any terminal or the director)."""
    return [int(b) for (b,) in conn.execute(f"SELECT b.board FROM encounter_board b WHERE b.section = ? AND "
                                            f"b.table_no = ? AND b.round = ? AND {_SLOT_IN} ORDER BY b.board",
                                            (section, table, round_))]


def encounter_pairs(conn: sqlite3.Connection, section: str, table: int, round_: int) -> tuple[int, int] | None:
    """(NS pair, EW pair) the movement seats at a table in a round, or None."""
    row = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = ? AND table_no = ? AND round = ?",
                       (section, table, round_)).fetchone()
    return (_number(row[0], "encounter"), _number(row[1], "encounter")) if row else None


def round_boards(conn: sqlite3.Connection, section: str, table: int, round_: int) -> list[int]:
    """The boards a table plays in a round, in order."""
    rows = conn.execute("SELECT board FROM encounter_board WHERE section = ? AND table_no = ? AND round = ? "
                        "ORDER BY board", (section, table, round_))
    return [_number(b, "encounter_board") for (b,) in rows]


def table_of_pair(conn: sqlite3.Connection, section: str, round_: int, direction: str, pair: int) -> int | None:
    """The table where a pair sits in a round, by its direction ("NS" or "EW"); None when it does not play."""
    # Direction matters: in a Mitchell NS pair 1 and EW pair 1 are two pairs.
    column = _PAIR_COLUMNS[direction]
    row = conn.execute(f"SELECT table_no FROM encounter WHERE section = ? AND round = ? AND {column} = ?",
                       (section, round_, pair)).fetchone()
    return _number(row[0], "encounter") if row else None


def table_of_board(conn: sqlite3.Connection, section: str, round_: int, board: int) -> int | None:
    """The lowest-numbered table that plays a board in a round; None when none does."""
    row = conn.execute("SELECT table_no FROM encounter_board WHERE section = ? AND round = ? AND board = ?"
                       " ORDER BY table_no LIMIT 1", (section, round_, board)).fetchone()
    return _number(row[0], "encounter_board") if row else None


def slot_count(conn: sqlite3.Connection, section: str | None = None, board: int | None = None) -> int:
    """How many (table, round, board) slots expect a result (sit-outs left out): in the event, a section, or a
    section's board."""
    row = conn.execute(f"SELECT count(*) FROM encounter_board b WHERE (?1 IS NULL OR b.section = ?1)"
                       f" AND (?2 IS NULL OR b.board = ?2) AND NOT {_SITS_OUT}", (section, board)).fetchone()
    return int(row[0])


def section_rounds(conn: sqlite3.Connection, section: str) -> list[tuple[int, int, int, int, str]]:
    """(round, table, NS pair, EW pair, boards "1 2 3") of every table's round in a section, by round and table."""
    rows = conn.execute(
        "SELECT e.round, e.table_no, e.ns_pair, e.ew_pair, group_concat(b.board, ' ') FROM encounter e "
        "JOIN encounter_board b USING (section, table_no, round) WHERE e.section = ? "
        "GROUP BY e.round, e.table_no ORDER BY e.round, e.table_no", (section,)).fetchall()
    return [(_number(r, "encounter"), _number(t, "encounter"), _number(ns, "encounter"), _number(ew, "encounter"),
             str(boards)) for r, t, ns, ew, boards in rows]


def section_boards(conn: sqlite3.Connection, section: str) -> list[int]:
    """The boards the movement plays in a section, in order."""
    rows = conn.execute("SELECT DISTINCT board FROM encounter_board WHERE section = ? ORDER BY board", (section,))
    return [_number(b, "encounter_board") for (b,) in rows]


def board_rounds(conn: sqlite3.Connection, section: str, table: int, board: int) -> list[int]:
    """The rounds in which a table plays a board (one in a plain movement), in order."""
    rows = conn.execute("SELECT round FROM encounter_board WHERE section = ? AND table_no = ? AND board = ? "
                        "ORDER BY round", (section, table, board))
    return [_number(r, "encounter_board") for (r,) in rows]


def sitting_out(conn: sqlite3.Connection, section: str, table: int, round_: int) -> tuple[bool, bool]:
    """(NS pair out, EW pair out) at a table in a round; (False, False) when both play."""
    row = conn.execute("SELECT ns_out, ew_out FROM sit_out WHERE section = ? AND table_no = ? AND round = ?",
                       (section, table, round_)).fetchone()
    return (bool(row[0]), bool(row[1])) if row else (False, False)


def movement_seats(conn: sqlite3.Connection, section: str | None = None) -> dict[tuple[str, int, int], Seat]:
    """(section, table, round) -> the movement's (NS pair, EW pair, boards), which a stored result must match."""
    boards: dict[tuple[str, int, int], set[int]] = {}
    for sec, table, round_, board in conn.execute(
            "SELECT section, table_no, round, board FROM encounter_board WHERE ?1 IS NULL OR section = ?1", (section,)):
        boards.setdefault((sec, table, round_), set()).add(board)
    rows = conn.execute("SELECT section, table_no, round, ns_pair, ew_pair FROM encounter "
                        "WHERE ?1 IS NULL OR section = ?1", (section,))
    return {(sec, table, round_): (ns, ew, frozenset(boards.get((sec, table, round_), ())))
            for sec, table, round_, ns, ew in rows}


def stored_movement(conn: sqlite3.Connection, section: str) -> Movement:
    """A section's movement as the event file holds it (after any change made at the table's level: the stored
    encounters are the movement); copies is the most tables on one board in one round (duplicated boards)."""
    row = conn.execute("SELECT movement, tables, rounds, boards_per_round, kind FROM section WHERE name = ?",
                       (section,)).fetchone()
    if row is None:
        raise KeyError(f"no section {section}")
    boards: dict[tuple[int, int], list[int]] = {}
    for table, round_, board in conn.execute("SELECT table_no, round, board FROM encounter_board WHERE section = ?"
                                             " ORDER BY table_no, round, board", (section,)):
        boards.setdefault((_number(table, "encounter_board"), _number(round_, "encounter_board")), []).append(
            _number(board, "encounter_board"))
    encounters = tuple(Encounter(t, r, ns, ew, tuple(boards.get((t, r), ()))) for t, r, ns, ew in (
        (_number(t, "encounter"), _number(r, "encounter"), _number(ns, "encounter"), _number(ew, "encounter"))
        for t, r, ns, ew in conn.execute("SELECT table_no, round, ns_pair, ew_pair FROM encounter WHERE section = ?"
                                         " ORDER BY round, table_no", (section,))))
    copies = max((n for (n,) in conn.execute("SELECT count(*) FROM encounter_board WHERE section = ?"
                                             " GROUP BY round, board", (section,))), default=1)
    partners = tuple((_number(a, "partnership"), _number(b, "partnership")) for a, b in conn.execute(
        "SELECT first_player, second_player FROM partnership WHERE section = ? ORDER BY number", (section,)))
    name, tables, rounds, per_round, kind = row
    return Movement(str(name), int(tables), int(rounds), int(per_round), encounters, kind=kind, copies=int(copies),
                    partners=partners)
