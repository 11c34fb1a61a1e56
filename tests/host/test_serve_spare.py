"""The spare terminal's routes of `tenace serve` without a browser: the page says clearly why it cannot run (no
WebAssembly port installed, no collector in the process), serves the port's files and the firmware, and its WebSocket
takes frames into a real collector, refusing garbage (text, oversized, floods, another site) without harm."""

from __future__ import annotations

import asyncio
import html
import json
import os
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tenace.collector import Collector, Settings, link_key
from tenace.collector.service import Service
from tenace.movement import mitchell
from tenace.store import connect, create_event
from tenace.web.spare import (
    MAX_FRAMES_PER_S,
    PACKAGE,
    POLICY,
    TOO_BIG,
    TRY_LATER,
    SpareLink,
    spare_routes,
)
from tenace_wire.errors import ACCEPTED_FRAME, DUPLICATE
from tenace_wire.frame import peek_header
from tenace_wire.frame_types import PAIR_OFFER
from tenace_wire.slip import MAX_PACKET
from tenace_wire.terminal_session import TerminalSession

HERE = {"origin": "http://testserver"}  # what a browser sends from the page itself (TestClient's host)


def fake_port(root: Path) -> Path:
    """An npm install's folder with the two files the page loads (their content is not the server's business)."""
    folder = root / PACKAGE
    folder.mkdir(parents=True)
    (folder / "micropython.mjs").write_text("export async function loadMicroPython() {}\n")
    (folder / "micropython.wasm").write_bytes(b"\0asm\1\0\0\0")
    return root


def client(link: SpareLink, npm_root: Path) -> TestClient:
    return TestClient(Starlette(routes=spare_routes(link, npm_root)))


@pytest.fixture
def collecting(tmp_path: Path) -> Iterator[tuple[SpareLink, Path]]:
    """A real collector on the event file, its loop in a thread as `tenace serve` runs it, attached to a SpareLink."""
    db = tmp_path / "club.sqlite"
    create_event(db, name="Spare", sections={"A": mitchell(3, 2)}).close()
    link = SpareLink()
    ready = threading.Event()
    failed: list[BaseException] = []

    async def main() -> None:
        conn = connect(db)  # made and used in this thread, as SQLite wants
        try:
            service = Service(Collector(conn, Settings(), key=link_key(conn)), progress_s=3600)
            link.attach(asyncio.get_running_loop(), service)
            ready.set()
            await service.tick()
        finally:
            link.detach()
            conn.close()

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as e:
            failed.append(e)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10) and not failed
    try:
        yield link, db
    finally:
        assert link.loop is not None and link.service is not None
        link.loop.call_soon_threadsafe(link.service.stopping.set)
        thread.join(10)
        assert not thread.is_alive() and not failed


def refused_frames(link: SpareLink) -> int:
    """Frames the collector refused (noise included, which it counts but does not record), asked in its own thread."""
    async def counters() -> dict[str, int]:
        assert link.service is not None
        return link.service.collector.counters()

    assert link.loop is not None
    counts = asyncio.run_coroutine_threadsafe(counters(), link.loop).result(10)
    return sum(n for reason, n in counts.items() if reason not in (ACCEPTED_FRAME, DUPLICATE))


def test_without_the_port_installed_the_page_says_how_to_install_it(tmp_path: Path) -> None:
    with client(SpareLink(), tmp_path / "nothing") as http:
        page = http.get("/spare")
        assert page.status_code == 503
        assert PACKAGE in page.text and "run tools/setup-env" in page.text and "build/npm" in page.text
        assert "<script" not in page.text
        port = http.get("/spare/mp/micropython.mjs")
        assert port.status_code == 404 and "run tools/setup-env" in port.text


def test_without_a_collector_the_page_says_so_and_the_socket_closes(tmp_path: Path) -> None:
    with client(SpareLink(), fake_port(tmp_path)) as http:
        page = http.get("/spare")
        assert page.status_code == 503 and "not listening in this tenace serve" in page.text and "--serial" in page.text
        with http.websocket_connect("/spare/link", headers=HERE) as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_bytes()
        assert closed.value.code == TRY_LATER


def test_the_page_its_port_and_its_firmware_are_served(tmp_path: Path,
                                                       collecting: tuple[SpareLink, Path]) -> None:
    link, _ = collecting
    with client(link, fake_port(tmp_path)) as http:
        page = http.get("/spare")
        assert page.status_code == 200 and '<script type="module" src="/spare/spare.js">' in page.text
        script = http.get("/spare/spare.js")
        assert script.headers["content-type"].startswith("text/javascript") and "loadMicroPython" in script.text
        wasm = http.get("/spare/mp/micropython.wasm")
        assert wasm.headers["content-type"] == "application/wasm" and wasm.content == b"\0asm\1\0\0\0"
        assert http.get("/spare/mp/package.json").status_code == 404  # the port's two files, nothing else
        files = json.loads(http.get("/spare/firmware.json").content)
    assert "class App" in files["tenace_terminal/app.py"] and "tenace_terminal/lang/en.txt" in files
    assert "class SpareBoard" in files["spare_board.py"] and "tenace_wire/auth.py" in files
    assert not [name for name in files if name.startswith("tenace_radio")]  # the base station's: not a terminal's


def test_the_page_explains_the_directors_code_and_a_table_taken(tmp_path: Path,
                                                                collecting: tuple[SpareLink, Path]) -> None:
    """The firmware's "Table A3 is taken" and "Director's code" screens, explained beside the terminal: the
    director's `tenace event seat` for this event file and this page's terminal number (filled in by the script),
    or a minute's wait; and where the page starts once in."""
    link, db = collecting
    with TestClient(Starlette(routes=spare_routes(link, fake_port(tmp_path), event=db.name))) as http:
        page = http.get("/spare").text
        script = http.get("/spare/spare.js").text
    section = page.split('id="takeover"', 1)[1].split("</section>", 1)[0]
    help_text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", section)).split())
    assert "Director’s code: the pairing code that tenace serve printed" in help_text
    assert "Table A3 is taken: the laptop heard that table’s own terminal less than a minute ago" in help_text
    # The example's table until the page has asked for one, then that table (filled in by the script): both the
    # number and the section letter, as `tenace event seat` takes them.
    assert "tenace event seat club.sqlite --terminal N --table 3 --section A" in help_text
    assert '<span class="taken-number">3</span> --section <span class="taken-section">A</span>' in section
    assert 'querySelectorAll(".taken-number")' in script and 'querySelectorAll(".taken-section")' in script
    assert "a minute after it was last heard" in help_text and "first board of the round with no result" in help_text
    assert 'querySelectorAll(".terminal-id")' in script  # N becomes this page's own terminal number


def test_the_socket_refuses_garbage_and_still_pairs_a_terminal(tmp_path: Path,
                                                              collecting: tuple[SpareLink, Path]) -> None:
    link, _ = collecting
    rng = random.Random(12)
    with client(link, fake_port(tmp_path)) as http:
        # Another site's page may not use the phone's tab: the handshake itself is refused.
        with pytest.raises(WebSocketDisconnect) as closed, \
                http.websocket_connect("/spare/link", headers={"origin": "http://evil.example"}):
            pass
        assert closed.value.code == POLICY
        # Noise of every length a frame may have goes to the collector, which refuses it as it refuses radio noise;
        # then text, which no terminal sends, ends the page's link.
        with http.websocket_connect("/spare/link", headers=HERE) as ws:
            noise = [0, 1, 5, 31, 32, 33, MAX_PACKET, *(rng.randrange(MAX_PACKET) for _ in range(30))]
            for n in noise:
                ws.send_bytes(bytes(rng.getrandbits(8) for _ in range(n)))
            ws.send_text("hello")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_bytes()
        assert closed.value.code == POLICY
        with http.websocket_connect("/spare/link", headers=HERE) as ws:
            ws.send_bytes(os.urandom(MAX_PACKET + 1))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_bytes()
        assert closed.value.code == TOO_BIG
        with http.websocket_connect("/spare/link", headers=HERE) as ws:
            for _ in range(MAX_FRAMES_PER_S + 1):
                ws.send_bytes(b"\x00" * 8)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_bytes()
        assert closed.value.code == POLICY
        # The collector is still there: a terminal's HELLO gets its PAIR_OFFER back over the same route.
        terminal = TerminalSession(40000, rng.getrandbits)
        with http.websocket_connect("/spare/link", headers=HERE) as ws:
            ws.send_bytes(terminal.hello())
            header = peek_header(ws.receive_bytes())
        assert header is not None and header[:2] == (PAIR_OFFER, 40000)
    assert link.pages == 0
    assert link.refused == {"another site": 1, "text, not a frame": 1,
                            f"more than {MAX_PACKET} bytes, longer than any frame": 1,
                            f"more than {MAX_FRAMES_PER_S} frames a second": 1}
    # Every frame of noise, and the flood's first MAX_FRAMES_PER_S, reached the collector and were refused there.
    assert refused_frames(link) == len(noise) + MAX_FRAMES_PER_S
