"""What an event file records, for the tests of the director's actions (the commands and the console)."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from pathlib import Path

from starlette.testclient import TestClient

from tenace.movement import mitchell
from tenace.store import connect, create_event, director_log, ingest, penalties, sign_in, states
from tenace.store.queries import current_results
from tenace.store.terminal_reports import StatusReport, keep_status
from tenace.web.app import create_app
from tenace.web.console import Director

from sample_results import session_results

PASSWORD = "correct horse battery"
SAME = {"Origin": "http://testserver"}


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


def club_of_every_state(path: Path) -> Path:
    """A Mitchell of 4 tables, 2 boards a round, with a result of every state:

    tables 1 and 2 have played rounds 1 to 3, table 3 rounds 1 and 2 and the first board of round 3, table 4 round 1
    alone (it is slow: most tables are at round 3 or later); table 2 left board (round 1's second) out (missing);
    terminal 9 disagrees with table 1 on its first board (conflict); the director adjusted table 1's first board of
    round 2, erased table 2's second board of round 2; table 3's second board of round 1 was edited outside Tenace
    (damaged)."""
    movement = mitchell(4, 2)
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": movement})
    for table in range(1, 5):
        sign_in(conn, table, "A", table)
    messages = session_results(movement)
    boards = {(e.table, e.round): e.boards for e in movement.encounters}
    wanted = {(1, r) for r in (1, 2, 3)} | {(2, r) for r in (1, 2, 3)} | {(3, 1), (3, 2), (4, 1)}
    skipped = (2, 1, boards[(2, 1)][1])
    for m in messages:
        if ((m.table, m.round) in wanted and (m.table, m.round, m.board) != skipped) or \
                (m.table, m.round, m.board) == (3, 3, boards[(3, 3)][0]):
            ingest(conn, m)
    first = next(m for m in messages if (m.table, m.round, m.board) == (1, 1, boards[(1, 1)][0]))
    sign_in(conn, 9, "A", 1)
    ingest(conn, replace(first, terminal=9, sequence=1, contract="3NT", declarer="S", tricks=8, lead=None))
    keep_status(conn, StatusReport(3, "1.4.0", 3900, 15, -71, 40, 2, "passed", ("keys", "display")))
    conn.close()
    # The director's adjustment and erasure, made in the console (as the director makes them).
    with TestClient(create_app(path, director=Director(password=PASSWORD))) as client:
        login = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                            follow_redirects=False)
        assert login.status_code == 303, login.text
        found = re.search(r'name="csrf" value="([^"]+)"', client.get("/director").text)
        assert found
        csrf = found[1]
        for action, table, round_, board, extra in (
                ("adjust", 1, 2, boards[(1, 2)][0], {"ns": "A+", "ew": "A-"}),
                ("erase", 2, 2, boards[(2, 2)][1], {})):
            answer = client.post(f"/director/{action}", headers=SAME, follow_redirects=False, data={
                "section": "A", "table": str(table), "round": str(round_), "board": str(board), "why": "test",
                "csrf": csrf, **extra})
            assert answer.status_code == 303, answer.text
    raw = sqlite3.connect(path)
    damaged = boards[(3, 1)][1]
    raw.executescript("DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u; "
                      f"UPDATE result SET ns_score = 214 WHERE table_no = 3 AND round = 1 AND board = {damaged};")
    raw.close()
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
