"""Round plans from the stored movement: pairs, boards, where each goes next, and a table's current round."""

from __future__ import annotations

import sqlite3

from tenace.collector.wire_results import section_letter
from tenace_wire.director_messages import MAX_BOARDS, RoundPlan

# A board slot counts as in when one of its current versions (not superseded) is a result, not an erasure.
_SLOT_IN = ("EXISTS (SELECT 1 FROM result r WHERE r.section = b.section AND r.table_no = b.table_no"
            " AND r.round = b.round AND r.board = b.board AND r.kind <> 'erased'"
            " AND NOT EXISTS (SELECT 1 FROM result_supersedes s WHERE s.supersedes = r.id))")


def table_exists(conn: sqlite3.Connection, section: int, table: int) -> bool:
    """True when the movement seats pairs at this table in some round."""
    return conn.execute("SELECT 1 FROM encounter WHERE section = ? AND table_no = ? LIMIT 1",
                        (section_letter(section), table)).fetchone() is not None


def rounds_of(conn: sqlite3.Connection, section: int, table: int) -> list[int]:
    return [int(r) for (r,) in conn.execute("SELECT round FROM encounter WHERE section = ? AND table_no = ?"
                                            " ORDER BY round", (section_letter(section), table))]


def current_round(conn: sqlite3.Connection, section: int, table: int) -> int:
    """The table's first round with a board not yet in; its last round when all are in; 0 for no such table."""
    name = section_letter(section)
    row = conn.execute(f"SELECT min(b.round) FROM encounter_board b WHERE b.section = ? AND b.table_no = ?"
                       f" AND NOT {_SLOT_IN}", (name, table)).fetchone()
    if row is not None and row[0] is not None:
        return int(row[0])
    last = conn.execute("SELECT max(round) FROM encounter WHERE section = ? AND table_no = ?", (name, table)).fetchone()
    return int(last[0]) if last and last[0] is not None else 0


def round_complete(conn: sqlite3.Connection, section: str, table: int, round_: int) -> bool:
    """True when every board of the table's round is in."""
    row = conn.execute(f"SELECT count(*) FROM encounter_board b WHERE b.section = ? AND b.table_no = ?"
                       f" AND b.round = ? AND NOT {_SLOT_IN}", (section, table, round_)).fetchone()
    return int(row[0]) == 0


def encounter_pairs(conn: sqlite3.Connection, section: str, table: int, round_: int) -> tuple[int, int] | None:
    row = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = ? AND table_no = ? AND round = ?",
                       (section, table, round_)).fetchone()
    return (int(row[0]), int(row[1])) if row else None


def round_plan(conn: sqlite3.Connection, section: int, table: int, round_: int) -> RoundPlan | None:
    """The table's plan for a round (0: the current one), or None when the movement has no such round there.

    ns_next / ew_next / boards_next: the table where this round's NS pair, EW pair and boards are in the
    next round; all three 0 in the table's last round, which is how the terminal knows it is the last.
    """
    name = section_letter(section)
    if round_ == 0:
        round_ = current_round(conn, section, table)
    pairs = encounter_pairs(conn, name, table, round_)
    if pairs is None or round_ > 127:
        return None
    boards = _boards(conn, name, table, round_)
    if not 1 <= len(boards) <= MAX_BOARDS or max(pairs) > 1023:
        return None  # the wire cannot carry it; the terminal asks again and the director sees the log
    ns_next = ew_next = boards_next = 0
    following = round_ + 1
    if following in rounds_of(conn, section, table):
        ns_next = _table_where(conn, "ns_pair", name, following, pairs[0])
        ew_next = _table_where(conn, "ew_pair", name, following, pairs[1])
        boards_next = _table_with_board(conn, name, following, boards[0])
    return RoundPlan(section=section, table=table, round=round_, ns_pair=pairs[0], ew_pair=pairs[1],
                     boards=tuple(boards), ns_next=ns_next, ew_next=ew_next, boards_next=boards_next)


def _boards(conn: sqlite3.Connection, section: str, table: int, round_: int) -> list[int]:
    return [int(b) for (b,) in conn.execute("SELECT board FROM encounter_board WHERE section = ? AND table_no = ?"
                                            " AND round = ? ORDER BY board", (section, table, round_))]


def _table_where(conn: sqlite3.Connection, column: str, section: str, round_: int, pair: int) -> int:
    # Direction matters: in a Mitchell NS pair 1 and EW pair 1 are two pairs.
    row = conn.execute(f"SELECT table_no FROM encounter WHERE section = ? AND round = ? AND {column} = ?",
                       (section, round_, pair)).fetchone()
    return int(row[0]) if row and row[0] <= 1023 else 0


def _table_with_board(conn: sqlite3.Connection, section: str, round_: int, board: int) -> int:
    row = conn.execute("SELECT table_no FROM encounter_board WHERE section = ? AND round = ? AND board = ?"
                       " ORDER BY table_no LIMIT 1", (section, round_, board)).fetchone()
    return int(row[0]) if row and row[0] <= 1023 else 0
