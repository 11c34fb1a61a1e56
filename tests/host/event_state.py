"""What an event file records, for the tests of the director's actions (the commands and the console)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tenace.movement import mitchell
from tenace.store import connect, create_event, director_log, ingest, penalties, sign_in, states
from tenace.store.queries import current_results

from sample_results import session_results


def club_with_a_conflict(path: Path) -> Path:
    """4 tables, 2 boards a round, every result in; terminal 9 at table 1 disagrees on board 1 (a conflict)."""
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": mitchell(4, 2)})
    for table in range(1, 5):
        sign_in(conn, table, "A", table)
    messages = session_results(mitchell(4, 2))
    for m in messages:
        ingest(conn, m)
    sign_in(conn, 9, "A", 1)
    ingest(conn, replace(messages[0], terminal=9, sequence=1, contract="3NT", declarer="S", tricks=8, lead=None))
    conn.close()
    return path


def snapshot(path: Path) -> tuple[int, int, int]:
    """How much the file records: results' versions, log lines, penalties."""
    conn = connect(path)
    try:
        versions = sum(len(s.versions) for s in states(conn).values())
        return versions, len(director_log(conn)), len(penalties(conn))
    finally:
        conn.close()


def current(path: Path, table: int, board: int) -> tuple[str, str | None, str | None, str | None]:
    """The kind and adjustment of the result standing at a table on a board."""
    conn = connect(path)
    v = next(v for v in current_results(conn) if (v.table, v.board) == (table, board))
    conn.close()
    return v.kind, v.ns_adjust, v.ew_adjust, v.weights
