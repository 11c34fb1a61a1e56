"""The console's forms never act on what the director did not see: an action from a stale tab is refused, saying what
changed, with the slot as it is now; a form sent twice (Back, then send again) does nothing the second time and says
so."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from event_state import club_with_a_conflict
from starlette.testclient import TestClient

from tenace.store import connect, director_log
from tenace.store.versions import Slot, slot_state
from tenace.web.app import create_app
from tenace.web.console import Director

PASSWORD = "correct horse battery"
HERE = "http://testserver"
SLOT = "/director/slot/A/1/1/1"


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """Board 1 at table 1 in conflict (v1 and v2)."""
    return club_with_a_conflict(tmp_path / "club.sqlite")


def logged_in(client: TestClient) -> None:
    answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers={"Origin": HERE},
                         follow_redirects=False)
    assert answer.status_code == 303


def form_of(page: str, form_id: str) -> dict[str, str]:
    """A form's hidden fields as the page gives them (its token, its one-time token, what it was made from)."""
    found = re.search(rf'<form [^>]*id="{form_id}">(.*?)</form>', page, re.S)
    assert found, page
    return {name: html.unescape(value)
            for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', found[1])}


def send(client: TestClient, action: str, fields: dict[str, str], at: str = SLOT):
    return client.post(f"{at}/{action}", data=fields, headers={"Origin": HERE, "Referer": f"{HERE}{at}"},
                       follow_redirects=False)


def log_lines(path: Path) -> int:
    conn = connect(path)
    try:
        return len(director_log(conn))
    finally:
        conn.close()


def versions(path: Path) -> int:
    conn = connect(path)
    try:
        return len(slot_state(conn, Slot("A", 1, 1, 1)).versions)
    finally:
        conn.close()


def test_a_stale_tab_is_told_what_changed_and_changes_nothing(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        first_tab, second_tab = client.get(SLOT).text, client.get(SLOT).text
        kept = send(client, "resolve", {**form_of(first_tab, "resolve"), "keep": "v1", "why": "v1 is right"})
        assert kept.status_code == 303
        lines = log_lines(event)
        stale = send(client, "resolve", {**form_of(second_tab, "resolve"), "keep": "v2", "why": "v2 is right"})
        assert stale.status_code == 409
        said = html.unescape(stale.text)
        # Keeping v1 recorded it again as the director's v3: the stale tab is told so.
        assert "This page was out of date: since it was shown, v3 was recorded (" in said and "director TD Ana" in said
        assert "Nothing was changed" in said and log_lines(event) == lines
        assert 'id="resolve"' not in stale.text  # the slot as it is now: no conflict left to resolve
        # A result recorded meanwhile is named: the correction of the first tab, then the stale second tab's erase.
        now = client.get(SLOT).text
        second_tab = now
        corrected = send(client, "correct", {**form_of(now, "correct"), "contract": "3NT", "by": "N", "tricks": "10",
                                             "why": "wrong trick count"})
        assert corrected.status_code == 303
        count = versions(event)
        erase = send(client, "erase", {**form_of(second_tab, "erase"), "why": "not played"})
        assert erase.status_code == 409 and versions(event) == count
        said = html.unescape(erase.text)
        assert re.search(r"since it was shown, v4 was recorded \(3NT\+1 by N: NS \+430, director TD Ana\)", said), said
        # In another language, the same in its words.
        stale_lv = client.post(f"{SLOT}/erase?lang=lv", data={**form_of(second_tab, "erase"), "why": "x"},
                               headers={"Origin": HERE})
        assert stale_lv.status_code == 409 and "Šī lapa bija novecojusi" in html.unescape(stale_lv.text)


def test_a_form_sent_twice_does_nothing_the_second_time_and_says_so(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        page = client.get(SLOT).text
        fields = {**form_of(page, "resolve"), "keep": "v1", "why": "v1 is right"}
        assert send(client, "resolve", fields).status_code == 303
        lines, count = log_lines(event), versions(event)
        again = send(client, "resolve", fields)  # Back, then the same form sent again
        assert again.status_code == 303 and again.headers["location"] == SLOT
        assert log_lines(event) == lines and versions(event) == count
        shown = html.unescape(client.get(SLOT).text)
        assert "That form had been sent already: nothing was done a second time." in shown
        assert "sent already" not in client.get(SLOT).text  # said once
        # The console's own forms too (an adjustment on the problems page).
        home = client.get("/director").text
        token = re.search(r'name="csrf" value="([^"]+)"><input type="hidden" name="once" value="([^"]+)"', home)
        assert token
        adjust = {"csrf": token[1], "once": token[2], "table": "2", "board": "3", "ns": "A+", "ew": "A-",
                  "why": "fouled"}
        assert client.post("/director/adjust", data=adjust, headers={"Origin": HERE},
                           follow_redirects=False).status_code == 303
        lines = log_lines(event)
        twice = client.post("/director/adjust", data=adjust, headers={"Origin": HERE})
        assert twice.status_code == 200 and "sent already" in twice.text and log_lines(event) == lines


def test_a_refused_form_is_not_spent(event: Path) -> None:
    """A refusal did nothing: the same form sent again is refused again for what it is, not "sent already"."""
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        page = client.get(SLOT).text
        fields = {**form_of(page, "correct"), "contract": "3NT", "by": "N", "tricks": "14", "why": "x"}
        for _ in range(2):
            refused = send(client, "correct", fields)
            assert refused.status_code == 400 and "sent already" not in refused.text
        fields["tricks"] = "9"
        assert send(client, "correct", fields).status_code == 303  # put right, the same form acts
        assert send(client, "correct", fields).status_code == 303  # and once only
        assert "That form had been sent already" in html.unescape(client.get(SLOT).text)
