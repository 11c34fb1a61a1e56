"""The console's Terminals page starts and stops the collector inside `tenace serve`: its address, the base stations
connected, what is missing before the first round; a port that cannot be used is one line on the page."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import time
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_console_setup import TWO_SECTIONS, created, log_in
from test_serve_console import PASSWORD, SAME, csrf_of

from tenace.collector.in_process import Listening, console_options
from tenace.collector.lock import CollectorLock, LockHeld
from tenace.collector.runtime import CollectorOptions
from tenace.collector.serial_link import open_port
from tenace.collector.service import Service
from tenace.collector.settings import Settings
from tenace.errors import UsageError
from tenace.movement import mitchell
from tenace.page_base.words import LANGUAGES, console_words
from tenace.store import connect, create_event, sign_in
from tenace.web.app import create_app
from tenace.web.console import Director
from tenace.web.console.calls import local_time

HOME = "/director/terminals"


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    create_event(path, name="Listening", sections={"A": mitchell(3, 2)}).close()
    return path


def logged_in(client: TestClient) -> str:
    answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get(HOME).text)


def post(client: TestClient, what: str, **form: str) -> tuple[int, str]:
    token = csrf_of(client.get(HOME).text)
    answer = client.post(f"/director/listen/{what}", data={"csrf": token, **form}, headers=SAME)
    return answer.status_code, answer.text


def lock_held(path: Path) -> bool:
    try:
        with CollectorLock(path):
            return False
    except LockHeld:
        return True


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_the_terminals_page_starts_and_stops_listening_and_says_what_is_missing(event: Path) -> None:
    listening = Listening(lambda: event)
    app = create_app(event, director=Director(password=PASSWORD), listening=listening)
    with TestClient(app, base_url="http://testserver") as client:
        logged_in(client)
        page = text_of(client.get(HOME).text)
        assert "The collector is not listening yet: start it below." in page
        assert "Section A: no terminal at table 1, 2, 3 yet." in page
        try:
            status, html = post(client, "start", way="tcp", address="127.0.0.1:0")
            page = text_of(html)
            assert status == 200 and "Listening: TCP 127.0.0.1:" in page, page
            port = int(re.search(r"TCP 127\.0\.0\.1:(\d+)", page)[1])  # type: ignore[index]
            assert lock_held(event) and "Stop listening" in page and "Pairing code of this event:" in page
            assert "none yet (the collector makes it" not in page  # the collector made the code as it started
            # A base station connects: the page names it.
            with socket.create_connection(("127.0.0.1", port)):
                for _ in range(100):
                    if listening.state().stations:
                        break
                    time.sleep(0.05)
                assert "tcp 127.0.0.1:" in text_of(client.get(HOME).text)
            # A second start while listening: refused, one line.
            status, html = post(client, "start", way="tcp", address="127.0.0.1:0")
            assert status == 400 and "the collector is listening already" in text_of(html)
            conn = connect(event)
            for table in (1, 2, 3):
                sign_in(conn, table, "A", table)
            conn.close()
            page = text_of(client.get(HOME).text)
            assert "Nothing missing: the collector is listening and every table has its terminal." in page
        finally:
            status, html = post(client, "stop")
        assert status == 200 and "The collector stopped" in text_of(html)
        assert not lock_held(event) and "Start listening" in html


def test_a_port_in_use_or_a_serial_device_absent_is_one_line_on_the_page(event: Path, tmp_path: Path) -> None:
    listening = Listening(lambda: event)
    app = create_app(event, director=Director(password=PASSWORD), listening=listening)
    with TestClient(app, base_url="http://testserver") as client, socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        logged_in(client)
        taken = busy.getsockname()[1]
        status, html = post(client, "start", way="tcp", address=f"127.0.0.1:{taken}")
        assert status == 400 and f"cannot listen on 127.0.0.1:{taken}:" in text_of(html)
        absent = tmp_path / "ttyUSB9"
        status, html = post(client, "start", way="serial", address=str(absent), baud="115200")
        assert status == 400 and f"cannot open the base station's port {absent}" in text_of(html)
        status, html = post(client, "start", way="serial", address="/dev/ttyUSB0", baud="12")
        assert status == 400 and "the serial speed is 300 to 4000000 baud, not '12'" in text_of(html)
        status, html = post(client, "start", way="tcp", address="nowhere")
        assert status == 400 and "the TCP address is HOST:PORT" in text_of(html)
        # Nothing is left listening, nor the event file locked.
        assert not listening.state().on and not lock_held(event)
        # The typed address stays in the form.
        assert 'value="nowhere"' in html


def test_serve_new_with_the_collectors_options_starts_it_once_the_set_up_has_made_the_event(tmp_path: Path) -> None:
    new = tmp_path / "tuesday.sqlite"

    def made() -> Path:
        if not new.exists():
            raise UsageError("no event yet")
        return new
    asked = CollectorOptions("serve", Settings(), 5.0, listen=("127.0.0.1", 0), listen_text="127.0.0.1:0")
    listening = Listening(made, asked=asked)
    app = create_app(new, director=Director(password=PASSWORD), new=True, listening=listening)
    try:
        with TestClient(app, base_url="http://testserver") as client:
            csrf = log_in(client)
            assert not listening.state().on
            created(client, csrf, **TWO_SECTIONS)
            assert listening.state().on and lock_held(new)
            page = text_of(client.get(HOME).text)
            assert "The collector is listening: TCP 127.0.0.1:" in page and "Stop listening" in page
    finally:
        listening.stop()
    assert not lock_held(new)


def test_stopping_the_collector_stops_what_plays_into_it(event: Path) -> None:
    listening = Listening(lambda: event)
    stopped: list[str] = []
    listening.start(console_options(listening.base, "tcp", "127.0.0.1:0", ""))
    listening.followers.append(lambda: stopped.append("simulated tables"))
    listening.stop()
    assert stopped == ["simulated tables"] and not listening.state().on and not lock_held(event)
    listening.stop()  # once only
    assert stopped == ["simulated tables"]


def test_a_base_station_plugged_in_is_offered_and_filled_in(event: Path) -> None:
    listening = Listening(lambda: event, ports=lambda: ["/dev/ttyUSB0", "/dev/ttyACM1"])
    app = create_app(event, director=Director(password=PASSWORD), listening=listening)
    with TestClient(app, base_url="http://testserver") as client:
        logged_in(client)
        html = client.get(HOME).text
        # The first found is filled in (Start is then the one click), the others offered as the field is typed in.
        assert 'name="address" list="li-ports" value="/dev/ttyUSB0"' in html, html
        assert re.search(r'<datalist id="li-ports"><option value="/dev/ttyUSB0"><option value="/dev/ttyACM1">'
                         r'</datalist>', html), html
        status, html = post(client, "start", way="tcp", address="nowhere")
        assert status == 400 and 'value="nowhere"' in html  # what was typed stays, not the port found


def test_only_usb_serial_ports_are_taken_for_a_base_station(monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports, list_ports_common

    from tenace.collector.serial_link import usb_ports

    def port(device: str, vid: int | None) -> list_ports_common.ListPortInfo:
        info = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        info.vid = vid
        return info

    found = [port("/dev/ttyUSB1", 0x1A86), port("/dev/ttyS0", None), port("/dev/ttyACM0", 0x2E8A)]
    monkeypatch.setattr(list_ports, "comports", lambda: found)
    assert usb_ports() == ["/dev/ttyACM0", "/dev/ttyUSB1"]  # the built-in UART left out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_collectors_refusals_are_said_in_the_page_language(event: Path, tmp_path: Path, lang: str) -> None:
    """Each refusal to start listening in the console's words (lang/console/XX.txt, lr_*), the English page's too: a
    serial port absent or held by another program, a TCP port in use or not this computer's, a form filled wrong, a
    collector listening already, another holding the event file; and simulated tables refused for a real event."""
    listening = Listening(lambda: event, ports=lambda: [])
    app = create_app(event, director=Director(password=PASSWORD), listening=listening)
    words = console_words(lang)
    master, slave = os.openpty()
    held = os.ttyname(slave)
    absent = str(tmp_path / "ttyUSB9")
    with TestClient(app, base_url="http://testserver") as client, socket.socket() as busy, open_port(held, 115200):
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = f"127.0.0.1:{busy.getsockname()[1]}"
        answer = client.post(f"/director/login?lang={lang}", data={"name": "TD Ana", "password": PASSWORD},
                             headers=SAME, follow_redirects=False)
        assert answer.status_code == 303
        cases = [({"way": "serial", "address": absent, "baud": "115200"}, "lr_port_missing", {"port": absent}),
                 ({"way": "serial", "address": held, "baud": "115200"}, "lr_port_busy", {"port": held}),
                 ({"way": "tcp", "address": taken}, "lr_tcp_busy", {"address": taken}),
                 ({"way": "tcp", "address": "192.0.2.1:7373"}, "lr_tcp_elsewhere", {"address": "192.0.2.1:7373"}),
                 ({"way": "serial", "address": " ", "baud": ""}, "lr_serial_none", {}),
                 ({"way": "serial", "address": "/dev/ttyUSB0", "baud": "12"}, "lr_baud",
                  {"low": 300, "high": 4000000, "text": "'12'"}),
                 ({"way": "tcp", "address": "nowhere"}, "lr_tcp_form", {"text": "'nowhere'"}),
                 ({"way": "radio", "address": "x"}, "lr_way", {})]
        try:
            for form, key, values in cases:
                status, html = post(client, "start", **form)
                assert status == 400 and words.plain(key, **values) in text_of(html), (key, text_of(html))
            # Simulated tables: a pace not offered, then a real event (they play only into a practice event).
            status, html = post(client, "simulate", pace="fast")
            assert status == 400 and words.plain("si_pace_none") in text_of(html), text_of(html)
            status, html = post(client, "simulate", pace="table")
            said = words.plain("lr_real_event", name=event.name)
            assert status == 400 and said in text_of(html), text_of(html)
            with CollectorLock(event):  # another collector holds the event file
                status, html = post(client, "start", way="tcp", address="127.0.0.1:0")
                said = words.plain("lr_locked", holder="tenace collect", pid=os.getpid())
                assert status == 400 and said in text_of(html), text_of(html)
            status, html = post(client, "start", way="tcp", address="127.0.0.1:0")
            assert status == 200
            where = listening.state().where
            status, html = post(client, "start", way="tcp", address="127.0.0.1:0")  # from a stale tab
            assert status == 400 and words.plain("lr_already", where=", ".join(where)) in text_of(html)
        finally:
            listening.stop()
            os.close(master)
            os.close(slave)
    assert not lock_held(event)


@pytest.mark.parametrize("lang", ["en", "sk"])
def test_a_collector_that_stopped_by_itself_says_why_and_when_until_it_listens_again(
        event: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Started on a base station's serial port, the collector fails in its loop (its event file's disk failing): the
    Terminals page says so in its language, with the time it stopped, until it is started again."""
    listening = Listening(lambda: event, ports=lambda: [])
    app = create_app(event, director=Director(password=PASSWORD), listening=listening)
    words = console_words(lang)
    master, slave = os.openpty()
    try:
        with TestClient(app, base_url="http://testserver") as client:
            answer = client.post(f"/director/login?lang={lang}", data={"name": "TD Ana", "password": PASSWORD},
                                 headers=SAME, follow_redirects=False)
            assert answer.status_code == 303
            status, _ = post(client, "start", way="serial", address=os.ttyname(slave), baud="115200")
            assert status == 200 and listening.state().on

            def failing(self: Service) -> None:
                raise sqlite3.OperationalError("disk I/O error")
            monkeypatch.setattr(Service, "broadcast", failing)
            for _ in range(200):
                if not listening.state().on:
                    break
                time.sleep(0.05)
            stopped = listening.state().stopped
            assert stopped is not None and not lock_held(event)
            why = words.plain("lr_store_failed", error="disk I/O error")
            said = words.plain("li_ended", time=local_time(stopped.at), why=why)
            page = text_of(client.get(HOME).text)
            assert said in page and words.plain("li_start") in page, page
            assert datetime.fromisoformat(stopped.at) <= datetime.now(UTC)
            monkeypatch.undo()
            status, html = post(client, "start", way="tcp", address="127.0.0.1:0")
            assert status == 200 and listening.state().stopped is None
            assert "listening-ended" not in html and why not in text_of(html)  # listening again: said no more
    finally:
        listening.stop()
        os.close(master)
        os.close(slave)
    assert not lock_held(event)
