"""What an event file records, for the tests of the director's actions (the commands and the console)."""

from __future__ import annotations

from pathlib import Path

from tenace.store import connect, director_log, penalties, states
from tenace.store.queries import current_results


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
