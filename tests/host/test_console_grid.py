"""The console's play pages: the grid of a section's results (each state at a glance, the slow tables), its live
channel, a result's slot with its versions and the actions prefilled from it, the terminals, the problems as work;
every page behind the login."""

from __future__ import annotations

import re
import threading
import time
from html import unescape
from pathlib import Path

import pytest
from event_state import club_of_every_state
from playwright.sync_api import sync_playwright
from starlette.testclient import TestClient
from test_serve_console import PASSWORD, SAME, logged_in

from tenace.movement import mitchell
from tenace.store import connect, ingest
from tenace.store.model import IncomingResult
from tenace.store.movement_changes import movement_version, set_presence
from tenace.store.names import Member, keep_roster, set_pair_players
from tenace.store.terminal_reports import hold_plans
from tenace.web.app import create_app
from tenace.web.console import Director

from live_page import served
from sample_results import session_results


def by_slot(messages: list[IncomingResult]) -> dict[tuple[int, int, int], IncomingResult]:
    return {(m.table, m.round, m.board): m for m in messages}


@pytest.fixture
def event(tmp_path: Path) -> Path:
    return club_of_every_state(tmp_path / "club.sqlite")


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


def test_the_live_part_answers_once_the_file_changes(event: Path) -> None:
    movement = mitchell(4, 2)
    later = next(m for m in session_results(movement) if (m.table, m.round) == (4, 2))
    with TestClient(create_app(event, director=Director(password=PASSWORD), poll_s=0.05)) as client:
        logged_in(client)
        first = client.get("/director/grid/A?part=1")
        generation = int(first.headers["x-generation"])
        assert "<html" not in first.text and cell(first.text, 4, 2, later.board) == "late"

        def store() -> None:
            time.sleep(0.3)
            conn = connect(event)
            ingest(conn, later)
            conn.close()
        writer = threading.Thread(target=store)
        started = time.monotonic()
        writer.start()
        # The request waits for the change, and answers with it well within a second.
        answer = client.get(f"/director/grid/A?part=1&since={generation}")
        waited = time.monotonic() - started
        writer.join()
        assert int(answer.headers["x-generation"]) > generation
        assert cell(answer.text, 4, 2, later.board) == "entered"
        assert 0.25 < waited < 1.0, waited


def test_a_cell_opens_its_slot_with_every_version_and_the_actions_prefilled(event: Path) -> None:
    boards = {(e.table, e.round): e.boards for e in mitchell(4, 2).encounters}
    board = boards[(1, 1)][0]
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        grid = client.get("/director/grid/A").text
        assert f'href="/director/slot/A/1/1/{board}"' in grid
        page = client.get(f"/director/slot/A/1/1/{board}")
        assert page.status_code == 200
        html = page.text
        rows = re.findall(r'<tr class="v ([\w-]+)"><th scope="row">v(\d)', html)
        assert rows == [("in-conflict", "1"), ("in-conflict", "2")]
        assert "terminal 9 seq 1" in html and "terminal 1 seq 1" in html and "3NT-1 by S" in html

        def form(name: str) -> str:
            return html.split(f'id="{name}"', 1)[1].split("</form>", 1)[0]

        def value(name: str, field: str) -> str:
            found = re.search(rf'name="{field}" value="([^"]*)"', form(name))
            assert found, (name, field)
            return found[1]
        for name in ("resolve", "correct", "adjust", "erase"):
            assert [value(name, f) for f in ("section", "table", "board", "round")] == ["A", "1", str(board), "1"]
        # Neither correct nor resolve starts from a result: in a conflict the latest (terminal 9's 3NT by S) is a
        # stray one, which one click would make count; resolve keeps a version or takes a result typed afresh.
        assert (value("correct", "contract"), value("correct", "by"), value("correct", "tricks")) == ("", "", "")
        assert (value("resolve", "contract"), value("resolve", "by"), value("resolve", "tricks")) == ("", "", "")
        assert (value("move", "section"), value("move", "round")) == ("A", "1")
        assert '<option selected>NS 1</option><option>EW 1</option>' in form("penalty")
        # Resolving there keeps v1, and the slot page says so; a refusal shows beside its field.
        refused = client.post(f"/director/slot/A/1/1/{board}/resolve", headers=SAME, data={
            "section": "A", "table": "1", "board": str(board), "round": "1", "keep": "v7", "why": "asked",
            "csrf": csrf})
        assert refused.status_code == 400
        keep = refused.text.split('id="resolve"', 1)[1].split("</form>", 1)[0]
        assert re.search(r'name="keep" value="v7"></label><p class="error beside" role="alert">[^<]*no such result',
                         keep), keep
        done = client.post(f"/director/slot/A/1/1/{board}/resolve", headers=SAME, follow_redirects=False, data={
            "section": "A", "table": "1", "board": str(board), "round": "1", "keep": "v1", "why": "asked the table",
            "csrf": csrf})
        assert done.status_code == 303 and done.headers["location"] == f"/director/slot/A/1/1/{board}"
        after = client.get(f"/director/slot/A/1/1/{board}").text
        assert 'class="done"' in after and "by TD Ana: asked the table" in after
        assert "Now: <b class=\"verdict entered\">entered</b>" in after
        assert cell(client.get("/director/grid/A").text, 1, 1, board) == "entered"
        assert client.get("/director/slot/A/1/1/99").status_code == 404


def test_a_conflict_is_settled_on_its_slot_by_one_click_beside_the_traveller_and_the_players(event: Path) -> None:
    boards = {(e.table, e.round): e.boards for e in mitchell(4, 2).encounters}
    board = boards[(1, 1)][0]
    conn = connect(event)
    keep_roster(conn, [Member(11, "Zoë O'Hara"), Member(12, "Bob <b>Baker</b>"), Member(21, "Cy Cole"),
                       Member(22, "Di Dunn")])
    set_pair_players(conn, "A", 1, "NS", (11, 12), who="TD")
    set_pair_players(conn, "A", 1, "EW", (21, 22), who="TD")
    conn.close()
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        html = client.get(f"/director/slot/A/1/1/{board}").text
        # The four players by name, escaped.
        assert "NS 1 Zoë O&#39;Hara - Bob &lt;b&gt;Baker&lt;/b&gt;; EW 1 Cy Cole - Di Dunn" in html
        # The board at every table that plays it: this table's row marked, the others' a link to their slot.
        traveller = html.split('<table class="list traveller">', 1)[1].split("</table>", 1)[0]
        rows = re.findall(r'<tr( class="here" aria-current="true")?><th scope="row">(?:<a href="([^"]+)">)?(\d+)',
                          traveller)
        plays = sorted((r, t) for (t, r), b in boards.items() if board in b)
        assert len(rows) == len(plays) > 1
        assert [(bool(here), int(t)) for here, _, t in rows] == [((r, t) == (1, 1), t) for r, t in plays]
        assert all(link == f"/director/slot/A/{t}/{r}/{board}" for (_, link, _), (r, t) in zip(rows, plays, strict=True)
                   if (r, t) != (1, 1))
        assert "conflict: results disagree, none counts" in traveller.split('class="here"', 1)[1].split("</tr>")[0]
        # The action that fits a conflict is open first; the others are behind their summaries.
        opened = re.findall(r'<details class="act"( open)?><summary>([^<]+)</summary>', html)
        assert opened[0] == (" open", "Resolve a conflict") and not any(o for o, _ in opened[1:])
        # A "keep this one" button per version in conflict: one click, nothing typed, settles it.
        keeps = re.findall(r'<form method="post" action="([^"]+)" class="keep">(.*?)</form>', html, re.S)
        assert [re.search(r'name="keep" value="(v\d)"', f)[1] for _, f in keeps] == ["v1", "v2"]  # type: ignore[index]
        action, form = keeps[1]
        data = {k: unescape(v) for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)}
        done = client.post(action, headers=SAME, data=data, follow_redirects=False)
        assert done.status_code == 303, done.text
        after = client.get(f"/director/slot/A/1/1/{board}").text
        assert "Now: <b class=\"verdict entered\">entered</b>" in after and 'class="keep"' not in after
        assert "3NT-1 by S" in after.split('<table class="list traveller">', 1)[1].split('class="here"', 1)[1]
        # Settled, the slot opens its correction, prefilled from the result that counts now.
        assert re.search(r'<details class="act" open><summary>Correct \(Law 79C\)</summary>', after)
        conn = connect(event)
        why = conn.execute("SELECT why FROM result ORDER BY id DESC LIMIT 1").fetchone()[0]
        conn.close()
        assert why == "conflict settled on the slot's page: v2 kept"


def test_a_slot_with_no_result_opens_its_entry(event: Path) -> None:
    boards = {(e.table, e.round): e.boards for e in mitchell(4, 2).encounters}
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        html = client.get(f"/director/slot/A/2/1/{boards[(2, 1)][1]}").text  # missing
        assert re.search(r'<details class="act" open><summary>Enter the result</summary>', html)
        assert 'class="keep"' not in html and 'id="resolve"' not in html


def test_the_terminals_and_seating_a_spare(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        html = client.get("/director/terminals").text
        row3 = html.split('<tr id="t-3">', 1)[1].split("</tr>", 1)[0]
        assert "A 3" in row3 and "held" in row3 and "15%" in row3 and "low" in row3 and "-71 dBm" in row3
        row1 = html.split('<tr id="t-1">', 1)[1].split("</tr>", 1)[0]
        assert "free (replaced)" in row1  # terminal 9 signed in at table 1 after it
        refused = client.post("/director/seat", headers=SAME, data={"terminal": "12", "table": "40", "csrf": csrf})
        assert refused.status_code == 400 and "section A has tables 1 to 4, not 40" in refused.text
        assert 'name="table" inputmode="numeric" value="40"' in refused.text
        seated = client.post("/director/seat", headers=SAME, data={"terminal": "12", "table": "4", "csrf": csrf})
        assert seated.status_code == 200 and "terminal 12 is at section A table 4" in seated.text
        row12 = seated.text.split('<tr id="t-12">', 1)[1].split("</tr>", 1)[0]
        assert "A 4" in row12 and "held" in row12
        conn = connect(event)
        who = conn.execute("SELECT who FROM sign_in ORDER BY id DESC LIMIT 1").fetchone()[0]
        conn.close()
        assert who == "TD Ana"


def test_the_problems_are_work_each_with_its_action(event: Path) -> None:
    boards = {(e.table, e.round): e.boards for e in mitchell(4, 2).encounters}
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        html = client.get("/director").text
        items = re.findall(r'<li class="item (\w+)">.*?<b>(.*?)</b>(.*?)</li>\n', html, re.S)
        kinds = [k for k, _, _ in items]
        assert kinds == ["damaged", "conflict"] + ["missing"] * 5, kinds
        # Missing: a table's round each, in the rounds under way (round 3 the latest), the damaged board not among them.
        assert [re.sub(r": boards? .*", "", t) for k, t, _ in items if k == "missing"] == [
            f"Section A round {r} table {t}" for r, t in ((1, 2), (2, 2), (2, 4), (3, 3), (3, 4))]
        damaged = items[0]
        assert f'href="/director/slot/A/3/1/{boards[(3, 1)][1]}#correct"' in damaged[2]
        assert "tenace check: " in html and "the trigger result_append_only_u is missing" in html
        conflict = items[1]
        assert f'href="/director/slot/A/1/1/{boards[(1, 1)][0]}#resolve"' in conflict[2]
        assert "v2: 3NT-1 by S" in conflict[2]
        missing = {title: rest for kind, title, rest in items if kind == "missing"}
        erased = next(t for t in missing if "round 2 table 2" in t)
        assert f'href="/director/slot/A/2/2/{boards[(2, 2)][1]}#correct"' in missing[erased]
        text = client.get("/director/problems.txt")
        assert text.headers["content-type"].startswith("text/plain") and "CONFLICTS: 1" in text.text


@pytest.mark.parametrize("url", ["/director/grid", "/director/grid/A", "/director/grid/A?part=1&since=0",
                                 "/director/slot/A/1/1/1", "/director/terminals", "/director/problems.txt"])
def test_every_play_page_needs_the_login(event: Path, url: str) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        answer = client.get(url, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/director/login"


@pytest.mark.parametrize("url", ["/director/seat", "/director/slot/A/1/1/1/erase", "/director/slot/A/1/1/1/adjust"])
def test_every_play_action_needs_the_login(event: Path, url: str) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        answer = client.post(url, headers=SAME, data={"terminal": "5", "table": "1", "why": "x"},
                             follow_redirects=False)
        assert answer.status_code == 403


@pytest.mark.slow
def test_the_grid_in_a_browser_follows_the_file_and_opens_a_cell(event: Path, browser_path: str) -> None:
    """The grid open in a browser shows a result stored meanwhile without a reload, within a second; a click on its
    cell opens the slot with the result among its versions."""
    later = next(m for m in session_results(mitchell(4, 2)) if (m.table, m.round) == (4, 2))
    with served(event, director=Director(password=PASSWORD)) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(f"{url}/director/login")
            page.fill("input[name=name]", "TD Ana")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{url}/director")
            page.goto(f"{url}/director/grid/A")
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            link = f"#s-4-2-{later.board}"
            assert "late" in (page.get_attribute(link, "class") or "")
            conn = connect(event)
            ingest(conn, later)
            stored = time.monotonic()
            conn.close()
            page.wait_for_function(f"document.querySelector('{link}').classList.contains('entered')", timeout=5_000,
                                   polling=20)
            assert time.monotonic() - stored < 1.0
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload
            page.click(link)
            page.wait_for_url(f"{url}/director/slot/A/4/2/{later.board}")
            assert f"terminal {later.terminal} seq {later.sequence}" in page.inner_text("table.versions")
            assert page.input_value("#correct input[name=contract]") == later.contract
        finally:
            browser.close()


def test_the_terminals_page_shows_which_tables_hold_the_current_round_plans(event: Path) -> None:
    def plans_of(client: TestClient, terminal: int) -> str:
        html = client.get("/director/terminals").text
        row = html.split(f'<tr id="t-{terminal}">', 1)[1].split("</tr>", 1)[0]
        return re.findall(r"<td>(.*?)</td>", row)[2]  # section and table, holds it, round plans

    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        assert plans_of(client, 3) == "<b>not yet: on their way</b>"  # the collector has not said it has them
        assert plans_of(client, 1) == "-"  # table 1's results come from terminal 9 now
        conn = connect(event)
        hold_plans(conn, 3, movement_version(conn))  # what the collector records once every plan is acknowledged
        assert plans_of(client, 3) == "current"
        set_presence(conn, "A", ("EW", 1), 3, present=False, who="TD Ana", why="EW 1 had to leave")
        assert plans_of(client, 3) == "<b>not yet: on their way</b>"  # the change has not reached the table
        hold_plans(conn, 3, movement_version(conn))
        assert plans_of(client, 3) == "current"
        conn.close()
