"""`tenace serve`'s still-playing page: each table's current round and the boards it has still to play, sit-outs
shown as such, kept live, and whole on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from starlette.testclient import TestClient

from tenace.movement import howell, mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.movement_changes import set_presence
from tenace.web.app import create_app

from live_page import PHONE, served
from sample_results import session_results

# Mitchell, 5 tables, 5 rounds of 3 boards (`tenace movement show mitchell --tables 5 --boards-per-round 3`).
# EW 2 leaves after round 2: whoever meets it sits out, NS 4 at table 4 in round 3, NS 5 at table 5 in round 4,
# NS 1 at table 1 in round 5. In: rounds 1 and 2 but board 8 (table 2), table 1's rounds 3 and 4, table 3's
# board 13 (its round 3), table 5's rounds 3 and board 10 of its round 5.
IN_LATER = {(1, 3), (1, 4), (5, 3)}
IN_BOARDS = {(3, 3, 13), (5, 5, 10)}


def partial_event(path: Path) -> None:
    movement = mitchell(5, 3)
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections={"A": movement})
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    set_presence(conn, "A", ("EW", 2), 3, present=False, who="TD", why="left")
    for m in session_results(movement):
        if ((m.round <= 2 and (m.table, m.board) != (2, 8)) or (m.table, m.round) in IN_LATER
                or (m.table, m.round, m.board) in IN_BOARDS):
            ingest(conn, m)
    conn.close()


def rows(html: str) -> list[str]:
    body = html.split('<table class="playing">', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.split(r"<tr[^>]*>", body)[1:]]


def test_a_partly_played_mitchell_with_sit_outs(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    partial_event(path)
    with TestClient(create_app(path)) as client:
        html = client.get("/playing").text
        assert "4 of 5 tables still playing" in html
        assert rows(html) == [
            "2 2 of 5 NS 2 v EW 1 8 then 9 more",  # one board of round 2 missing, then rounds 3 to 5
            "3 3 of 5 NS 3 v EW 1 14, 15 then 6 more",
            "4 3 of 5 NS 4 v EW 2 sit-out: NS 4 sits out (EW 2 not there) then 6 more",  # nothing later in yet
            "5 5 of 5 NS 5 v EW 1 11, 12",  # past its sit-out in round 4: a round 5 result is in
        ]
        # Table 1 has played all but its last round, where it sits out: nothing is awaited from it.
        assert "Finished: table 1</p>" in html
        assert '<a href="/playing">' in client.get("/").text  # the rankings link to it


def test_it_follows_the_event_file(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    partial_event(path)
    late = next(m for m in session_results(mitchell(5, 3)) if (m.table, m.board) == (2, 8))
    with TestClient(create_app(path)) as client:
        assert client.get("/playing?part=1").text.count("NS 2 v EW 1") == 1
        writer = connect(path)  # as the collector writes: a connection of its own
        ingest(writer, late)
        writer.close()
        client.app.state.changes.changed()  # what the watcher does on the file's next poll
        part = client.get("/playing?part=1").text
        assert "<html" not in part
        assert "2 3 of 5 NS 2 v EW 5 10, 11, 12 then 6 more" in rows(part)


def test_a_howell_names_its_pairs_without_a_direction_then_every_table_finishes(tmp_path: Path) -> None:
    path = tmp_path / "howell.sqlite"
    movement = howell(4, 3)  # 7 rounds of 3 boards; round 2: 8 v 2 on 4-6, 3 v 5 on 10-12, 4 v 1, 6 v 7
    conn = create_event(path, name="Howell", sections={"A": movement, "B": mitchell(3, 2)})
    for table in range(1, 5):
        sign_in(conn, table, "A", table)
    results = session_results(movement)
    for m in results[:13]:  # round 1, and board 4 at table 1 in round 2
        ingest(conn, m)
    with TestClient(create_app(path)) as client:
        html = client.get("/playing").text
        assert "<h2>Section A</h2>" in html and "<h2>Section B</h2>" in html
        a, b = html.split("<h2>Section B</h2>")
        assert rows(a) == ["1 2 of 7 8 v 2 5, 6 then 15 more", "2 2 of 7 3 v 5 10, 11, 12 then 15 more",
                           "3 2 of 7 4 v 1 16, 17, 18 then 15 more", "4 2 of 7 6 v 7 7, 8, 9 then 15 more"]
        assert "3 of 3 tables still playing" in b and rows(b)[0] == "1 1 of 3 NS 1 v EW 1 1, 2 then 4 more"
        for m in results[13:]:
            ingest(conn, m)
        client.app.state.changes.changed()
        a, b = client.get("/playing").text.split("<h2>Section B</h2>")
        assert "Every table has finished." in a and '<table class="playing">' not in a
        assert "Every table has finished." not in b
    conn.close()


@pytest.mark.slow
def test_the_page_fits_a_phone_and_updates_without_a_reload(tmp_path: Path, browser_path: str) -> None:
    path = tmp_path / "club.sqlite"
    partial_event(path)
    late = next(m for m in session_results(mitchell(5, 3)) if (m.table, m.board) == (2, 8))
    with served(path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE)
            page.goto(f"{url}/playing")
            page.evaluate("window.notReloaded = true")
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            # Nothing wider than the phone: no sideways scrolling of the page itself.
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert page.inner_text("tr[data-table='2'] td:nth-child(2)") == "2 of 5"
            writer = connect(path)
            ingest(writer, late)
            writer.close()
            page.wait_for_function("document.querySelector(\"tr[data-table='2'] td:nth-child(2)\").innerText"
                                   " === '3 of 5'", timeout=10_000)
            assert page.evaluate("window.notReloaded") is True
        finally:
            browser.close()
