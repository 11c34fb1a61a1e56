"""The console's calls and round clock: a table's call on the grid's and the Terminals page's live parts, answered
with one button (once), the clock started for a round with the tables still playing it, and refusals of a bad clock."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from starlette.testclient import TestClient
from test_serve_console import PASSWORD, SAME, logged_in

from tenace.movement import mitchell
from tenace.store import connect
from tenace.store.director_calls import calls, latest_clocks, record_call
from tenace.store.event import create_event
from tenace.web.app import create_app
from tenace.web.console import Director

from live_page import served


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    create_event(path, name="Tuesday pairs", sections={"A": mitchell(4, 2, 3)}).close()
    return path


def test_a_call_shows_on_both_live_parts_and_is_answered_once(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        part = client.get("/director/grid/A?part=1").text
        assert "No table is calling the director." in part and "No round clock is running." in part
        conn = connect(event)
        assert record_call(conn, 103, 9, "A", 3, 2, 1, 4)
        (call,) = calls(conn)
        for page in ("/director/grid/A?part=1", "/director/terminals?part=1", "/director/terminals"):
            html = client.get(page).text
            assert f'data-call="{call.id}"' in html, page
            assert re.search(r"Section A, table 3, round 2: calling since \d\d:\d\d:\d\d", html), page
            assert "(the table&#39;s clock: 4 min left)" in html, page
        assert 'id="call-sound"' in client.get("/director/grid/A").text  # the tone's switch, beside the live part
        answer = client.post(f"/director/call/{call.id}", data={"csrf": csrf},
                             headers={**SAME, "Referer": "http://testserver/director/grid/A"}, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/director/grid/A"
        (answered,) = calls(conn)
        assert answered.acknowledged is not None and answered.who == "TD Ana" and answered.told is None
        html = client.get("/director/grid/A?part=1").text
        assert "data-call=" not in html and "answered at" in html and "by TD Ana" in html
        # Sent again (another tab): nothing changes, the page says it had been answered.
        again = client.post(f"/director/call/{call.id}", data={"csrf": csrf}, headers=SAME)  # (to the page it names)
        assert calls(conn)[0].acknowledged == answered.acknowledged
        assert "That call had been acknowledged already." in again.text
        # Without the form's token: refused, as every console post.
        assert client.post(f"/director/call/{call.id}", data={}, headers=SAME).status_code == 403
        conn.close()


def test_the_clock_is_set_for_a_round_and_shows_the_tables_still_playing(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        answer = client.post("/director/clock", data={"csrf": csrf, "section": "A", "round": "1", "minutes": "21"},
                             headers=SAME, follow_redirects=False)
        assert answer.status_code == 303
        conn = connect(event)
        clock = latest_clocks(conn)["A"]
        assert (clock.round, clock.minutes) == (1, 21)
        html = client.get("/director/terminals?part=1").text
        assert re.search(r"Section A, round 1 \(21 min\): ends at \d\d:\d\d,", html)
        assert re.search(r"<b>2[01]</b> min left", html)
        assert "Tables still playing round 1 or an earlier one: 1, 2, 3, 4" in html
        for bad in ({"round": "0", "minutes": "20"}, {"round": "1", "minutes": "256"}, {"round": "x", "minutes": "9"}):
            refused = client.post("/director/clock", data={"csrf": csrf, "section": "A", **bad}, headers=SAME)
            assert "give the round (1-127) and its length in minutes (1-255)" in refused.text
        refused = client.post("/director/clock", data={"csrf": csrf, "section": "Z", "round": "1", "minutes": "9"},
                              headers=SAME)
        assert "there is no section" in refused.text
        assert latest_clocks(conn)["A"] == clock  # nothing refused was kept
        client.post("/director/clock", data={"csrf": csrf, "section": "A", "round": "1", "stop": "1"}, headers=SAME)
        assert latest_clocks(conn)["A"].minutes == 0
        assert "No round clock is running." in client.get("/director/grid/A?part=1").text
        conn.close()


@pytest.mark.slow
def test_in_a_browser_a_call_sounds_at_once_unless_switched_off_and_is_acknowledged(event: Path,
                                                                                   browser_path: str) -> None:
    with served(event, director=Director(password=PASSWORD)) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{url}/director/login")
            page.fill("input[name=name]", "TD Ana")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{url}/director")
            page.goto(f"{url}/director/grid/A")
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            assert page.is_checked("#call-sound") and page.is_visible("#call-sound")
            conn = connect(event)
            record_call(conn, 102, 7, "A", 2, 1, 1, None)
            stored = time.monotonic()
            page.wait_for_selector("li[data-call]", timeout=5_000)
            assert time.monotonic() - stored < 1.0  # on the page within a second, without a reload
            page.wait_for_function("document.body.dataset.toned !== undefined", timeout=2_000)  # and the tone
            toned = page.evaluate("document.body.dataset.toned")
            page.uncheck("#call-sound")  # kept in this browser: the next page load keeps it off
            page.reload()
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            assert not page.is_checked("#call-sound")
            record_call(conn, 103, 7, "A", 3, 1, 1, None)
            page.wait_for_selector("li[data-call] >> nth=1", timeout=5_000)
            time.sleep(0.3)
            assert page.evaluate("document.body.dataset.toned") is None  # (a new page: never toned, switched off)
            page.click("li[data-call] >> nth=0 >> button")
            page.wait_for_selector("li[data-call] >> nth=1", state="detached", timeout=5_000)
            assert [c.who for c in calls(conn) if c.acknowledged] == ["TD Ana"]
            assert toned
            conn.close()
        finally:
            browser.close()
