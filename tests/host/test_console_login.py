"""The director is never locked out of the console: a password chosen at the first login, sessions that outlive a
restart of `tenace serve` (signed by a key kept beside the event file), `tenace serve --login-link` for a new link."""

from __future__ import annotations

import re
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest
from event_state import club_with_a_conflict

from tenace.web.console import COOKIE

PASSWORD = "correct horse battery"
TENACE = Path(sys.executable).parent / "tenace"


@pytest.fixture
def event(tmp_path: Path) -> Path:
    return club_with_a_conflict(tmp_path / "club.sqlite")


@contextmanager
def serving(event: Path, *extra: str) -> Iterator[tuple[str, str | None]]:
    """`tenace serve EVENT` in a process of its own: its address and the one-time link it prints (if any)."""
    process = subprocess.Popen([str(TENACE), "serve", str(event), "--listen", "127.0.0.1:0", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        base = re.search(r"on (http://127\.0\.0\.1:\d+)/;", first)
        assert base, (first, process.stderr.read() if process.poll() is not None and process.stderr else "")
        link = re.search(r"one login: (\S+)", second)
        yield base[1], link[1] if link else None
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    assert "Traceback" not in err, err


def log_in(browser: httpx.Client, url: str, **form: str) -> httpx.Response:
    return browser.post("/director/login", data={"name": "TD Ana", **form}, headers={"Origin": url})


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, page
    return found[1]


@pytest.mark.slow
def test_log_out_restart_and_log_in_again_with_the_password(event: Path) -> None:
    with serving(event) as (url, link):
        assert link is not None
        token = link.rsplit("/", 1)[1]
        with httpx.Client(base_url=url, timeout=10) as browser:
            assert log_in(browser, url, token=token, new_password=PASSWORD,
                          new_password_again=PASSWORD).status_code == 303
            kept_session = browser.cookies[COOKIE]
            csrf = csrf_of(browser.get("/director").text)
            assert browser.post("/director/logout", data={"csrf": csrf}, headers={"Origin": url}).status_code == 303
            assert browser.get("/director", follow_redirects=False).status_code == 303
            logged_out = kept_session
            # A second session, kept open across the restart.
            assert log_in(browser, url, password=PASSWORD).status_code == 303
            kept_session = browser.cookies[COOKIE]
    kept = event.with_name(event.name + ".director")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and PASSWORD not in kept.read_text()
    with serving(event) as (url, _):
        with httpx.Client(base_url=url, timeout=10) as browser:
            page = browser.get("/director/login")
            # The login page says how to get in: the password, or a new link from the laptop.
            assert 'type="password"' in page.text and f"tenace serve {event} --login-link" in page.text
            assert log_in(browser, url, password="not the password").status_code == 401
            assert log_in(browser, url, password=PASSWORD).status_code == 303
            assert '<b class="who">TD Ana</b>' in browser.get("/director").text
        with httpx.Client(base_url=url, timeout=10, cookies={COOKIE: kept_session}) as still:
            answer = still.get("/director", follow_redirects=False)
            assert answer.status_code == 200 and '<b class="who">TD Ana</b>' in answer.text  # outlived the restart
        with httpx.Client(base_url=url, timeout=10, cookies={COOKIE: logged_out}) as gone:
            assert gone.get("/director", follow_redirects=False).status_code == 303  # logged out stays out
        with httpx.Client(base_url=url, timeout=10, cookies={COOKIE: kept_session[:-2] + "00"}) as forged:
            assert forged.get("/director", follow_redirects=False).status_code == 303


@pytest.mark.slow
def test_login_link_prints_a_new_link_for_the_running_serve(event: Path, tmp_path: Path) -> None:
    secret = tmp_path / "td.txt"
    secret.write_text(PASSWORD + "\n")
    with serving(event, "--password-file", str(secret)) as (url, link):
        assert link is None  # a password file: no link printed at start
        printed = subprocess.run([str(TENACE), "serve", str(event), "--login-link"], capture_output=True, text=True,
                                 timeout=30)
        assert printed.returncode == 0, printed.stderr
        found = re.search(rf"({url}/director/link/(\S+))$", printed.stdout.strip())
        assert found, printed.stdout
        with httpx.Client(base_url=url, timeout=10) as browser:
            assert browser.get(found[1]).status_code == 200
            # The password is --password-file's: the link logs in without choosing one.
            assert log_in(browser, url, token=found[2]).status_code == 303
            assert '<b class="who">TD Ana</b>' in browser.get("/director").text
        with httpx.Client(base_url=url, timeout=10) as other:
            assert log_in(other, url, token=found[2]).status_code == 401  # once only


def test_login_link_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_runner import tenace
    code, out, _ = tenace(capsys, "serve", "--help")
    assert code == 0 and "--login-link" in out and "--password-file" in out and ".director" in out


def test_login_link_for_a_mistyped_event_is_refused_and_writes_nothing(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from cli_runner import tenace
    code, _, err = tenace(capsys, "serve", str(tmp_path / "clbu.sqlite"), "--login-link")
    assert code == 2 and "no such event file" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_keeps_the_login_in_memory(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    from tenace.web.console import Director
    from tenace.web.console.keeping import Kept
    kept = Kept(tmp_path / "club.sqlite.director")
    director = Director.kept_beside(tmp_path / "club.sqlite")
    assert director.kept is not None and kept.path.exists() and director.key == kept.key()
    # Where FILE.director cannot be made (here: its "folder" is a file, which even root cannot write into), the
    # event is served all the same, its login in memory.
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    director = Director.kept_beside(blocked / "club.sqlite")
    assert director.kept is None and director.token is not None
    assert "cannot keep the console's login there" in caplog.text
