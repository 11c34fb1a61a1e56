"""`tenace serve`'s director's console: its login (password or one-time link), its refusal of cross-site posts, and
its actions recorded in the event file exactly as the director's commands record them."""

from __future__ import annotations

import html
import logging
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2 as httpx
import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict, current, snapshot
from starlette.testclient import TestClient

from tenace.movement import mitchell
from tenace.store import connect, create_event, director_log, ingest, sign_in
from tenace.web.app import create_app
from tenace.web.console import COOKIE, IDLE_S, REFUSED_DELAY_S, Director

from live_page import served
from sample_results import session_results

PASSWORD = "correct horse battery"
CHOSEN = {"new_password": PASSWORD, "new_password_again": PASSWORD}  # the password chosen at the first login
HERE = "http://testserver"  # TestClient's own origin
SAME = {"Origin": HERE}


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """4 tables, 2 boards a round, every result in; terminal 9 at table 1 disagrees on board 1 (a conflict)."""
    return club_with_a_conflict(tmp_path / "club.sqlite")


def logged_in(client: TestClient, name: str = "TD Ana", password: str = PASSWORD) -> str:
    """Log in with the password; the console's form token (CSRF)."""
    answer = client.post("/director/login", data={"name": name, "password": password}, headers=SAME,
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/director", answer.text
    return csrf_of(client.get("/director").text)


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html
    return found[1]


def last_log(path: Path) -> tuple[str, str, str, str, bool]:
    conn = connect(path)
    entry = director_log(conn)[-1]
    conn.close()
    return entry.action, entry.who, entry.why, entry.detail, entry.forced


def test_the_password_logs_in_with_a_strict_httponly_cookie(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        first = client.get("/director", follow_redirects=False)
        assert first.status_code == 303 and first.headers["location"] == "/director/login"
        assert 'type="password"' in client.get("/director/login").text
        answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                             follow_redirects=False)
        assert answer.status_code == 303
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Path=/director" in cookie
        page = client.get("/director")
        assert page.status_code == 200 and '<b class="who">TD Ana</b>' in page.text
        assert "<link" not in page.text and "src=" not in page.text and "<script" not in page.text
        # No other site may frame it (clickjacking), nor may its forms post anywhere else.
        assert page.headers["x-frame-options"] == "DENY" and page.headers["cache-control"] == "no-store"
        assert page.headers["content-security-policy"] == "frame-ancestors 'none'; form-action 'self'"
        # The problems are work: the conflict at table 1 with its two versions, to resolve; `tenace problems`'s text
        # is at /director/problems.txt.
        assert "CONFLICT</span>" in page.text and "v2: 3NT-1 by S" in page.text
        assert 'href="/director/slot/A/1/1/1#resolve"' in page.text
        text = client.get("/director/problems.txt").text
        assert "CONFLICTS: 1" in text and "v2 3NT-1 by S" in text


@pytest.mark.slow
def test_a_wrong_password_is_refused_after_a_wait_and_logged(event: Path, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="tenace.web.console"):
            answer = client.post("/director/login", data={"name": "X", "password": "guess"}, headers=SAME,
                                 follow_redirects=False)
        assert time.monotonic() - started >= REFUSED_DELAY_S
        assert answer.status_code == 401 and "Wrong password." in answer.text and "set-cookie" not in answer.headers
        assert "a wrong password" in caplog.text
        assert client.get("/director", follow_redirects=False).status_code == 303  # still not logged in
        # Without a password file there is no password at all: the link alone logs in.
    with TestClient(create_app(event, director=Director.with_link())) as client:
        answer = client.post("/director/login", data={"password": ""}, headers=SAME, follow_redirects=False)
        assert answer.status_code == 401


@pytest.mark.slow
def test_guesses_sent_in_parallel_are_still_answered_one_a_second(event: Path) -> None:
    director = Director(password=PASSWORD)
    guesses = 4
    with served(event, director=director) as url:
        def guess(n: int) -> int:
            return httpx.post(f"{url}/director/login", data={"password": f"guess {n}"}, headers={"Origin": url},
                              timeout=30).status_code
        started = time.monotonic()
        with ThreadPoolExecutor(guesses) as pool:
            answers = list(pool.map(guess, range(guesses)))
        took = time.monotonic() - started
    assert answers == [401] * guesses
    assert took >= guesses * REFUSED_DELAY_S * 0.95  # one a second, not all four after the same second


@pytest.mark.slow
def test_the_one_time_link_logs_in_once(event: Path) -> None:
    director = Director.with_link()
    token = director.token
    assert token is not None and len(token) >= 32
    link = director.link("http://127.0.0.1:8080/")
    assert link == f"http://127.0.0.1:8080/director/link/{token}"
    with TestClient(create_app(event, director=director)) as client:
        form = client.get(f"/director/link/{token}")  # opening it spends nothing (a link previewer may fetch it)
        assert form.status_code == 200 and f'value="{token}"' in form.text and 'name="new_password"' in form.text
        # The first login chooses the password: without one (or a short one, or two that differ) it is refused, and
        # the link is not spent.
        for chosen, again, says in ((None, None, "at least 8"), ("short", "short", "at least 8"),
                                    (PASSWORD, "something else", "differ")):
            typed = {"new_password": chosen, "new_password_again": again} if chosen else {}
            refused = client.post("/director/login", data={"token": token, "name": "Bea", **typed}, headers=SAME)
            assert refused.status_code == 400 and says in refused.text and f'value="{token}"' in refused.text
        answer = client.post("/director/login", data={"token": token, "name": "Bea", **CHOSEN}, headers=SAME,
                             follow_redirects=False)
        assert answer.status_code == 303
        assert '<b class="who">Bea</b>' in client.get("/director").text
    with TestClient(create_app(event, director=director)) as other:
        again = other.post("/director/login", data={"token": token}, headers=SAME, follow_redirects=False)
        assert again.status_code == 401 and "used already" in again.text
        assert other.get(f"/director/link/{token}").status_code == 401
        assert other.get("/director", follow_redirects=False).status_code == 303


def test_a_cross_site_login_is_refused(event: Path) -> None:
    director = Director.with_link()
    with TestClient(create_app(event, director=director)) as client:
        answer = client.post("/director/login", data={"token": director.token}, headers={"Origin": "http://evil.test"},
                             follow_redirects=False)
        assert answer.status_code == 403 and director.token is not None  # the token is not spent by it


ADJUST = {"table": "2", "board": "3", "ns": "A+", "ew": "A-", "why": "fouled board"}


@pytest.mark.parametrize(("headers", "form", "says"), [
    (SAME, ADJUST, "form's token is missing"),
    (SAME, {**ADJUST, "csrf": "not-this-sessions"}, "form's token is missing"),
    ({"Origin": "http://evil.test"}, None, "cross-site"),
    ({"Origin": "null"}, None, "cross-site"),
    ({"Referer": "http://evil.test/page"}, None, "cross-site"),
    ({"Referer": "http://testserver.evil.test/director"}, None, "cross-site"),
    ({}, None, "cross-site"),  # neither Origin nor Referer
])
def test_a_post_from_elsewhere_changes_nothing(event: Path, headers: dict[str, str], form: dict[str, str] | None,
                                                says: str) -> None:
    before = snapshot(event)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        answer = client.post("/director/adjust", data=form if form is not None else {**ADJUST, "csrf": csrf},
                             headers=headers)
        assert answer.status_code == 403 and says in answer.text
        assert answer.headers["content-type"].startswith("text/plain") and answer.text.count("\n") == 0
    assert snapshot(event) == before


def test_a_post_without_a_session_is_refused(event: Path) -> None:
    before = snapshot(event)
    director = Director(password=PASSWORD)
    with TestClient(create_app(event, director=director)) as client:
        csrf = logged_in(client)
    with TestClient(create_app(event, director=director)) as stranger:  # no cookie, though it has the token
        answer = stranger.post("/director/adjust", data={**ADJUST, "csrf": csrf}, headers=SAME)
        assert answer.status_code == 403 and "not logged in" in answer.text
    assert snapshot(event) == before


def test_an_adjustment_in_the_console_is_the_same_as_tenace_adjust(event: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    by_command = tmp_path / "by-command.sqlite"
    shutil.copy(event, by_command)
    code, out, err = tenace(capsys, "adjust", str(by_command), "--table", "2", "--board", "3", "--ns", "A+",
                            "--ew", "A-", "--why", "fouled board", "--who", "TD Ana")
    assert code == 0, err
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        # Referer alone (no Origin) is enough when it is this server's.
        page = client.post("/director/adjust", data={**ADJUST, "csrf": csrf}, headers={"Referer": f"{HERE}/director"})
        assert page.status_code == 200
        said = re.search(r'<p class="done" role="status">(.*?)</p>', page.text, re.S)
        assert said and said[1] == out.strip().replace("&", "&amp;")
    assert current(event, 2, 3) == current(by_command, 2, 3) == ("artificial", "A+", "A-", None)
    action, who, why, detail, forced = last_log(event)
    assert (action, who, why, detail, forced) == last_log(by_command)
    assert (action, who, why, forced) == ("adjust", "TD Ana", "fouled board", False)
    assert snapshot(event) == snapshot(by_command)


def test_every_action_of_the_console_is_signed_and_logged(event: Path) -> None:
    steps = [
        ("resolve", {"table": "1", "board": "1", "keep": "v2", "why": "EW agree"}, "resolve: section A table 1"),
        ("adjust", {"table": "2", "board": "4", "percent": "60/40", "why": "regulation"}, "NS 60% / EW 40%"),
        ("adjust", {"table": "3", "board": "5", "assigned": "+620", "why": "Law 23"}, "assigned NS +620"),
        ("adjust", {"pair": "NS 2", "penalty": "25%", "board": "4", "why": "slow play"}, "25% of a top"),
        ("adjust", {"table": "3", "board": "6", "assigned": "+100", "ew_assigned": "-620", "why": "12C1(b)"},
         "split: assigned NS +100 to NS, assigned NS -620 to EW"),
        ("correct", {"table": "4", "board": "7", "contract": "4S", "by": "N", "tricks": "=", "why": "declarer"},
         "4S= by N"),
        ("erase", {"table": "4", "board": "8", "why": "wrong table"}, "erased"),
    ]
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client, name="TD Ana")
        for action, form, says in steps:
            page = client.post(f"/director/{action}", data={**form, "csrf": csrf}, headers=SAME)
            errors = re.findall(r'role="alert">(.*?)<', page.text)
            assert page.status_code == 200 and says in page.text and "by TD Ana" in page.text, (action, errors)
            assert 'class="error"' not in page.text
    conn = connect(event)
    log = director_log(conn)
    conn.close()
    assert [e.action for e in log] == ["resolve", "adjust", "adjust", "penalty", "adjust", "correct", "erase"]
    assert all(e.who == "TD Ana" and not e.forced for e in log)
    assert [e.why for e in log] == [form["why"] for _, form, _ in steps]


def test_a_movement_change_in_the_console(tmp_path: Path) -> None:
    path = tmp_path / "early.sqlite"
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": mitchell(5, 2)})
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    for m in session_results(mitchell(5, 2)):
        if m.round == 1:
            ingest(conn, m)
    conn.close()
    with TestClient(create_app(path, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client, name="TD Ana")
        for form, says in [({"change": "leave", "pair": "EW 4", "round": "4", "why": "went home"}, "EW 4"),
                           ({"change": "swap", "pair": "NS 1", "other": "NS 2", "round": "3", "why": "stairs"}, "NS 1"),
                           ({"change": "close", "table": "5", "round": "5", "why": "early"}, "table 5")]:
            page = client.post("/director/move", data={**form, "csrf": csrf}, headers=SAME)
            assert page.status_code == 200, re.findall(r'role="alert">(.*?)<', page.text)
            assert says in page.text and "changed: table" in page.text and "by TD Ana" in page.text
    conn = connect(path)
    log = director_log(conn)
    conn.close()
    assert [(e.action, e.who, e.why) for e in log] == [("move", "TD Ana", "went home"), ("move", "TD Ana", "stairs"),
                                                      ("move", "TD Ana", "early")]


@pytest.mark.parametrize(("action", "form", "says"), [
    ("adjust", {"table": "2", "board": "3", "ns": "A+", "ew": "A-"}, "why is required"),
    ("adjust", {"table": "2", "board": "3", "ns": "A+", "why": "x"}, "an artificial score is given to both sides"),
    ("adjust", {"table": "two", "board": "3", "ns": "A+", "ew": "A-", "why": "x"}, "table 'two': give a whole"),
    ("adjust", {"table": "2", "board": "99", "ns": "A+", "ew": "A-", "why": "x"}, "99"),
    ("resolve", {"table": "2", "board": "3", "keep": "v1", "why": "x"}, "has no conflict to resolve"),
    ("correct", {"table": "2", "board": "3", "contract": "8S", "by": "N", "tricks": "=", "why": "x"}, "8S"),
    ("move", {"change": "swap", "pair": "NS 1", "round": "2", "why": "x"}, "''"),
    ("move", {"change": "fly", "pair": "NS 1", "round": "2", "why": "x"}, "say what changes"),
    # Digits that are not decimal ones: refused in words, never a server error.
    ("erase", {"table": "²", "board": "3", "why": "x"}, "table '²': give a whole number"),
    ("resolve", {"table": "1", "board": "1", "keep": "²", "why": "x"}, "keep '²'"),
    ("correct", {"table": "2", "board": "3", "contract": "4S", "by": "N", "tricks": "¹⁰", "why": "x"}, "¹⁰"),
])
def test_a_refusal_is_one_line_on_the_page_and_nothing_is_recorded(event: Path, action: str, form: dict[str, str],
                                                                   says: str) -> None:
    before = snapshot(event)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        page = client.post(f"/director/{action}", data={**form, "csrf": csrf}, headers=SAME)
        assert page.status_code == 400
        error = re.findall(r'<p class="error" role="alert">(.*?)</p>', page.text, re.S)
        assert len(error) == 1 and "\n" not in error[0] and says in error[0].replace("&#39;", "'"), error
        assert "Traceback" not in page.text and "--" not in error[0]
        # The refused form keeps what was typed in it, to be put right; the other forms stay empty.
        refused = page.text.split(f'action="/director/{action}"', 1)[1].split("</form>", 1)[0]
        for name, value in form.items():
            if name != "change":
                assert f'name="{name}"' in refused and f'value="{value}"' in refused, name
        others = page.text.split('id="adjust"' if action != "adjust" else 'id="correct"', 1)[1].split("</form>")[0]
        assert 'value="x"' not in others
    assert snapshot(event) == before



@pytest.mark.parametrize(("action", "form", "says", "option"), [
    ("adjust", {"table": "2", "board": "3", "percent": "sixty/forty", "why": "x"},
     "NS/EW % 'sixty/forty': give NS then EW, such as 60/40", "--percent"),
    ("adjust", {"table": "2", "board": "3", "assigned": "+420", "ew_weighted": "0.5:+420", "why": "x"},
     "East-West's weighted '0.5:+420': the weights add up to 0.5, not 1", "--ew-weighted"),
    ("adjust", {"pair": "NS 2", "penalty": "25%", "table": "2", "why": "x"},
     "a penalty is against a pair, not a table's result: drop table", "--table"),
    ("adjust", {"pair": "XY 2", "penalty": "25%", "why": "x"}, "pair 'XY 2' is not a pair", "--pair"),
    ("correct", {"table": "2", "board": "3", "contract": "4S", "why": "x"},
     "a contract needs its declarer and tricks: contract 4S by N tricks 10", "--contract"),
    ("correct", {"table": "2", "board": "3", "passed_out": "on", "not_played": "on", "why": "x"},
     "give one result: passed out or not played", "--passed-out"),
    ("erase", {"board": "3", "why": "x"}, "say where the result is: table", "--table"),
    ("move", {"change": "late", "pair": "NS 1", "round": "2", "to": "3", "why": "x"},
     "to round goes with absent or present", "--to"),
])
def test_a_refusal_names_the_form_field_not_the_option(event: Path, action: str, form: dict[str, str], says: str,
                                                       option: str) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        page = client.post(f"/director/{action}", data={**form, "csrf": csrf}, headers=SAME)
    assert page.status_code == 400
    error = re.findall(r'<p class="error" role="alert">(.*?)</p>', page.text, re.S)
    assert len(error) == 1 and html.unescape(error[0]).startswith(says), error
    assert option not in page.text.split('role="alert">', 1)[1].split("</p>", 1)[0]


def test_after_the_correction_period_only_a_forced_change_goes_in_and_is_logged(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Resolve the conflict first: a session with one cannot be finished.
    assert tenace(capsys, "resolve", str(event), "--keep", "v2", "--table", "1", "--board", "1", "--why", "x")[0] == 0
    code, _, err = tenace(capsys, "finish", str(event), "--who", "TD", "--correction-minutes", "0")
    assert code == 0, err
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        before = snapshot(event)
        page = client.post("/director/erase", data={"table": "4", "board": "8", "why": "late", "csrf": csrf},
                           headers=SAME)
        assert page.status_code == 400 and "tick force to make the change anyway" in page.text
        assert snapshot(event) == before
        page = client.post("/director/erase", data={"table": "4", "board": "8", "why": "late", "force": "on",
                                                    "csrf": csrf}, headers=SAME)
        assert page.status_code == 200 and "FORCED" in page.text
    assert last_log(event)[0] == "erase" and last_log(event)[4] is True


def test_an_action_is_answered_by_a_redirect_so_that_a_reload_does_not_repeat_it(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        answer = client.post("/director/adjust", data={**ADJUST, "csrf": csrf}, headers=SAME, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/director"
        after = snapshot(event)
        assert "artificial NS A+ / EW A-" in client.get("/director").text  # said once
        assert 'class="done"' not in client.get("/director").text
    assert snapshot(event) == after


def test_a_session_idle_too_long_is_over(event: Path) -> None:
    director = Director(password=PASSWORD)
    with TestClient(create_app(event, director=director)) as client:
        csrf = logged_in(client)
        (session,) = director.sessions.values()
        session.seen -= IDLE_S - 60  # idle a minute short of the limit: still logged in
        assert client.get("/director", follow_redirects=False).status_code == 200
        session.seen -= IDLE_S + 1
        assert client.get("/director", follow_redirects=False).status_code == 303
        assert client.post("/director/erase", data={"table": "4", "board": "8", "why": "x", "csrf": csrf},
                           headers=SAME).status_code == 403
        assert director.sessions == {}


def test_logging_out_ends_the_session(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        assert client.post("/director/logout", data={"csrf": csrf}, headers=SAME,
                           follow_redirects=False).status_code == 303
        assert client.get("/director", follow_redirects=False).status_code == 303
        assert client.post("/director/erase", data={"table": "4", "board": "8", "why": "x", "csrf": csrf},
                           headers=SAME).status_code == 403


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
@pytest.mark.parametrize("url", ["/", "/board/A/1", "/pair/A/NS1", "/events"])
def test_the_public_pages_stay_read_only_beside_the_console(event: Path, method: str, url: str) -> None:
    before = event.read_bytes()
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client)
        assert client.request(method, url, headers=SAME).status_code == 405
    assert event.read_bytes() == before


def test_without_a_director_there_is_no_console(event: Path) -> None:
    with TestClient(create_app(event)) as client:
        assert client.get("/director").status_code == 404
        assert client.post("/director/login", data={"password": PASSWORD}, headers=SAME).status_code in (404, 405)


@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read it"),
    ("short\n", "fewer than 8 characters"),
    ("\n", "fewer than 8 characters"),
])
def test_a_bad_password_file_is_one_line_and_exit_2(event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    content: str | None, says: str) -> None:
    secret = tmp_path / "td.txt"
    if content is not None:
        secret.write_text(content)
    code, out, err = tenace(capsys, "serve", str(event), "--director-password-file", str(secret),
                            "--listen", "127.0.0.1:0")
    assert code == 2 and out == "" and err.startswith("tenace serve: --director-password-file ") and says in err
    assert err.count("\n") == 1


def test_help_tells_of_the_console(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = tenace(capsys, "serve", "--help")
    assert code == 0 and "--director-password-file FILE" in out and "one-time link" in out


@pytest.mark.slow
@pytest.mark.parametrize("with_password", [False, True])
def test_the_command_prints_how_to_log_in_and_logs_a_wrong_password(event: Path, tmp_path: Path,
                                                                    with_password: bool) -> None:
    tenace_bin = Path(sys.executable).parent / "tenace"
    secret = tmp_path / "td.txt"
    secret.write_text(f"  {PASSWORD}  \nsecond line, not the password\n")
    extra = ["--director-password-file", str(secret)] if with_password else []
    process = subprocess.Popen([str(tenace_bin), "serve", str(event), "--listen", "127.0.0.1:0", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        base = re.search(r"on (http://127\.0\.0\.1:\d+)/;", first)
        assert base, first
        url = base[1]
        origin = {"Origin": url}
        with httpx.Client(base_url=url, timeout=10) as browser:
            if with_password:
                assert second.strip() == f"the director's console: {url}/director (password from {secret})"
                answer = browser.post("/director/login", data={"password": PASSWORD}, headers=origin)
            else:
                link = re.fullmatch(rf"the director's console, one login: ({url}/director/link/(\S+))\n", second)
                assert link, second
                assert browser.get(link[1]).status_code == 200
                answer = browser.post("/director/login", data={"token": link[2], **CHOSEN}, headers=origin)
                with httpx.Client(base_url=url, timeout=10) as again:
                    assert again.post("/director/login", data={"token": link[2], **CHOSEN},
                                      headers=origin).status_code == 401
            assert answer.status_code == 303 and COOKIE in answer.cookies
            assert '<b class="who">director</b>' in browser.get("/director").text
            wrong = browser.post("/director/login", data={"password": "not it at all"}, headers=origin)
            assert wrong.status_code == 401
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    assert "director's console: a wrong password, from 127.0.0.1" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("score", "says"), [
    ({"weighted": "0.6:+420,0.4:-50"}, "a weighted score has no USEBIO form"),
    ({"assigned": "+420", "ew_assigned": "-50"}, "a split score (each side its own) has no USEBIO form"),
    ({"assigned": "+420"}, None),  # one assigned score: a USEBIO line holds it
    ({"percent": "60/40"}, "a USEBIO file writes 60, 50 or 40% as average plus"),  # A6040 reads back as A+/A-
    ({"percent": "65/35"}, None),  # A6535: read back as the same percentages
    ({"ns": "A+", "ew": "A-"}, None),
])
def test_a_score_usebio_cannot_hold_is_warned_of(event: Path, score: dict[str, str], says: str | None) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client)
        answer = client.post("/director/adjust", data={"table": "2", "board": "3", "why": "Law 12C1", "csrf": csrf,
                                                       **score}, headers=SAME)
        assert answer.status_code == 200 and 'class="done"' in answer.text
        shown = re.findall(r'<p class="warning" role="alert">([^<]*)</p>', answer.text)
        assert [says in html.unescape(w) for w in shown] == ([True] if says else [])
        assert 'class="warning"' not in client.get("/director").text  # said once
