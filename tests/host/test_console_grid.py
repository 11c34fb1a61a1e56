"""The console's play pages: the grid of a section's results (each state at a glance, the slow tables), its live
channel, a result's slot with its versions and the actions prefilled from it, the terminals, the problems as work;
every page behind the login."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tenace.movement import mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.model import IncomingResult
from tenace.store.terminal_reports import StatusReport, keep_status
from tenace.web.app import create_app
from tenace.web.console import Director

from sample_results import session_results

PASSWORD = "correct horse battery"
SAME = {"Origin": "http://testserver"}


def by_slot(messages: list[IncomingResult]) -> dict[tuple[int, int, int], IncomingResult]:
    return {(m.table, m.round, m.board): m for m in messages}


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """A Mitchell of 4 tables, 2 boards a round, with a result of every state:

    tables 1 and 2 have played rounds 1 to 3, table 3 rounds 1 and 2 and the first board of round 3, table 4 round 1
    alone (it is slow: most tables are at round 3 or later); table 2 left board (round 1's second) out (missing);
    terminal 9 disagrees with table 1 on its first board (conflict); the director adjusted table 1's first board of
    round 2, erased table 2's second board of round 2; table 3's second board of round 1 was edited outside Tenace
    (damaged)."""
    path = tmp_path / "club.sqlite"
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
    director = Director(password=PASSWORD)
    with TestClient(create_app(path, director=director)) as client:
        csrf = logged_in(client)
        for action, table, round_, board, extra in (
                ("adjust", 1, 2, boards[(1, 2)][0], {"ns": "A+", "ew": "A-"}),
                ("erase", 2, 2, boards[(2, 2)][1], {})):
            answer = client.post(f"/director/{action}", headers=SAME, follow_redirects=False, data={
                "section": "A", "table": str(table), "round": str(round_), "board": str(board), "why": "test",
                "csrf": csrf, **extra})
            assert answer.status_code == 303, answer.text
    raw = sqlite3.connect(path)
    raw.executescript("DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u; "
                      f"UPDATE result SET ns_score = 214 WHERE table_no = 3 AND round = 1 AND board = {boards[(3, 1)][1]};")
    raw.close()
    return path


def logged_in(client: TestClient) -> str:
    answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/director").text)
    assert found
    return found[1]


def cell(html: str, table: int, round_: int, board: int) -> str:
    """The state a grid's cell shows: its class, and the words it says without colour."""
    found = re.search(rf'<a id="s-{table}-{round_}-{board}" class="c (\w+)"[^>]*>{board}<span class="sym"[^>]*>'
                      rf'([^<]*)</span><span class="vh"> (\w+)</span></a>', html)
    assert found, f"no cell for table {table} round {round_} board {board}"
    assert found[1] == found[3]  # the colour's class and the text say the same
    return found[1]


def test_the_grid_shows_each_state_and_the_slow_table(event: Path) -> None:
    movement = mitchell(4, 2)
    boards = {(e.table, e.round): e.boards for e in movement.encounters}
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        assert client.get("/director/grid", follow_redirects=False).headers["location"] == "/director/grid/A"
        page = client.get("/director/grid/A")
        assert page.status_code == 200, page.text
        html = page.text
        b = boards
        assert cell(html, 1, 1, b[(1, 1)][0]) == "conflict"
        assert cell(html, 1, 1, b[(1, 1)][1]) == "entered"
        assert cell(html, 1, 2, b[(1, 2)][0]) == "adjusted"
        assert cell(html, 2, 2, b[(2, 2)][1]) == "erased"
        assert cell(html, 2, 1, b[(2, 1)][1]) == "missing"
        assert cell(html, 3, 1, b[(3, 1)][1]) == "damaged"
        assert cell(html, 3, 3, b[(3, 3)][1]) == "playing"  # table 3 is at round 3 with the others
        assert cell(html, 4, 2, b[(4, 2)][0]) == "late"  # table 4 is still at round 2: a round behind
        assert cell(html, 4, 3, b[(4, 3)][0]) == "coming"  # the section's round: not late yet
        slow = re.search(r'<p class="slow" role="status">(.*?)</p>', html, re.S)
        assert slow and "table 4 at round 2, 1 round behind" in slow[1] and "table 3" not in slow[1]
        # Every state has its symbol and words in the legend.
        for words in ("conflict: results disagree", "late: the table is behind", "damaged in the event file"):
            assert words in html
        assert '<script src="/director/console.js"></script>' in html
        assert client.get("/director/console.js").status_code == 200
        assert client.get("/director/grid/Z").status_code == 404
