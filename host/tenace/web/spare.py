"""The spare terminal of `tenace serve` (/spare): the real terminal firmware in a phone's browser, on MicroPython's
WebAssembly port (an npm package, served from its local install in build/npm), its frames over a WebSocket into the
collector that runs in this process, as a base station's."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tenace.collector.service import BaseStation, Service
from tenace.firmware_build import FIRMWARE, SIM_DIR, package_tree
from tenace.web.render import templates
from tenace_wire.slip import MAX_PACKET

log = logging.getLogger(__name__)

PACKAGE = "@micropython/micropython-webassembly-pyscript"
# Where tools/setup-env installs it (pinned in tools/constraints.txt, its "# npm:" line): the checkout's build/.
NPM_ROOT = FIRMWARE.parent / "build" / "npm" / "node_modules"
# The two files of the port the page loads, and what they are served as (a browser compiles wasm only as such).
PORT_FILES = {"micropython.mjs": "text/javascript", "micropython.wasm": "application/wasm"}
STATIC = Path(__file__).resolve().parent / "static"
# The firmware the page runs: the terminal's packages (not the base station's), and the board this page is.
PACKAGES = ("tenace_rules", "tenace_wire", "tenace_terminal")
BOARD = SIM_DIR / "spare_board.py"
# A phone's terminal sends a few frames a second; more than this in one second is not a terminal: the page is closed.
MAX_FRAMES_PER_S = 50
# Frames for the page waiting to be sent: past this they are dropped, as a radio out of reach drops them (the
# sessions retransmit what matters).
OUTBOX = 256
# Close codes (RFC 6455): what the page is told when the server ends its link.
POLICY = 1008  # not a frame (text), from another site, or too many
TOO_BIG = 1009
TRY_LATER = 1013  # no collector in this process
NO_STORE = {"Cache-Control": "no-store"}


def installed(root: Path = NPM_ROOT) -> Path | None:
    """The folder of the WebAssembly port's npm package, None when it (or one of its files) is not there."""
    folder = root / PACKAGE
    if all((folder / name).is_file() for name in PORT_FILES):
        return folder
    return None


def missing_message() -> str:
    return (f"The spare terminal needs MicroPython's WebAssembly port ({PACKAGE}), which is not installed on this "
            f"laptop: run tools/setup-env in the Tenace folder (it installs the pinned version into build/npm), "
            f"then start tenace serve again.")


def firmware_bundle(root: Path = FIRMWARE, board: Path = BOARD) -> bytes:
    """The firmware's sources the page writes into the port's file system, as JSON {path: text}: every module and
    message catalogue of the terminal's packages (as `tenace flash` copies them), and the page's board module."""
    files = {rel.as_posix(): src.read_text(encoding="utf-8") for src, rel in package_tree(root)
             if rel.parts[0] in PACKAGES}
    files[board.name] = board.read_text(encoding="utf-8")
    return json.dumps(files, ensure_ascii=False).encode()


class PageStation(BaseStation):
    """A spare terminal's page as a base station: one frame per WebSocket message each way (no SLIP)."""

    def packets(self, data: bytes) -> list[bytes]:
        return [data]

    def send(self, frames: list[bytes]) -> None:
        for frame in frames:
            self._write(frame)


@dataclass
class SpareLink:
    """Where the pages' frames go: the collector's loop and service, set by `tenace serve`'s collector thread while
    it runs (None: no collector in this process, the page says so). Frames cross threads as the serial link's do."""

    loop: asyncio.AbstractEventLoop | None = None
    service: Service | None = None
    pages: int = 0  # pages connected now
    refused: dict[str, int] = field(default_factory=dict)  # why pages were closed (a few fixed reasons), counted

    def attach(self, loop: asyncio.AbstractEventLoop, service: Service) -> None:
        self.loop, self.service = loop, service

    def detach(self) -> None:
        self.loop = self.service = None

    @property
    def collecting(self) -> bool:
        return self.loop is not None and self.service is not None

    def call(self, fn: Callable[..., object], *args: object) -> bool:
        """fn(*args) in the collector's loop; False when there is none (any more)."""
        loop = self.loop
        if loop is None:
            return False
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # its loop closed meanwhile: the collector stopped
            return False
        return True


def same_origin(socket: WebSocket) -> bool:
    """True unless the socket was opened by a page of another site (a browser always says which: Origin); a page
    elsewhere must not use a phone's open tab as its terminal."""
    origin = socket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == socket.headers.get("host", "")


def spare_routes(link: SpareLink, npm_root: Path = NPM_ROOT, event: str = "EVENT") -> list[BaseRoute]:
    """The spare terminal's routes, all under /spare: the page, its script, the port's files, the firmware, the link.
    `event`: the event file as the director names it in `tenace event seat`, which the page explains."""
    env = templates()
    bundle: list[bytes] = []  # made at the first page that asks for it, then kept

    async def page(request: Request) -> Response:
        port = installed(npm_root)
        problem = None
        if port is None:
            problem = missing_message()
        elif not link.collecting:
            problem = ("The spare terminal talks to the collector, which is not listening in this tenace serve: the "
                       "director starts it on the console's Terminals page (or tenace serve with the base station's "
                       "--serial).")
        html = env.get_template("spare.html").render(problem=problem, event=event)
        return HTMLResponse(html, 503 if problem else 200, headers=NO_STORE)

    async def script(request: Request) -> Response:
        return FileResponse(STATIC / "spare.js", media_type="text/javascript", headers=NO_STORE)

    async def port_file(request: Request) -> Response:
        name = request.path_params["name"]
        port = installed(npm_root)
        if name not in PORT_FILES or port is None:
            return Response(missing_message() if port is None else "not here", 404, media_type="text/plain")
        return FileResponse(port / name, media_type=PORT_FILES[name])

    async def firmware(request: Request) -> Response:
        if not bundle:
            bundle.append(await asyncio.to_thread(firmware_bundle))
        return Response(bundle[0], media_type="application/json", headers=NO_STORE)

    async def socket(ws: WebSocket) -> None:
        if not same_origin(ws):
            log.warning("spare terminal page refused: opened from another site (%s)", ws.headers.get("origin"))
            link.refused["another site"] = link.refused.get("another site", 0) + 1
            await ws.close(POLICY)  # before accept: the handshake is refused (403)
            return
        await ws.accept()
        if not link.collecting:
            await ws.close(TRY_LATER, "no collector in this tenace serve")
            return
        await run_page(ws, link)

    return [
        Route("/spare", page, methods=["GET"]),
        Route("/spare/spare.js", script, methods=["GET"]),
        Route("/spare/mp/{name}", port_file, methods=["GET"]),
        Route("/spare/firmware.json", firmware, methods=["GET"]),
        WebSocketRoute("/spare/link", socket),
    ]


async def run_page(ws: WebSocket, link: SpareLink) -> None:
    """One page's link: its frames to the collector's service, the service's broadcast back, until either ends."""
    here = asyncio.get_running_loop()
    outbox: asyncio.Queue[bytes] = asyncio.Queue(OUTBOX)

    def put(frame: bytes) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            outbox.put_nowait(frame)

    def write(frame: bytes) -> None:  # in the collector's thread
        with contextlib.suppress(RuntimeError):  # this loop closed: the page is gone
            here.call_soon_threadsafe(put, frame)

    client = ws.client
    station = PageStation(f"spare terminal page {client.host}:{client.port}" if client else "spare terminal page",
                          write)
    service = link.service
    if service is None or not link.call(service.attach, station):
        await ws.close(TRY_LATER, "no collector in this tenace serve")
        return
    link.pages += 1

    async def sending() -> None:
        while True:
            await ws.send_bytes(await outbox.get())

    sender = asyncio.create_task(sending())
    why = ""
    window, count = time.monotonic(), 0
    try:
        while why == "":
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("bytes")
            now = time.monotonic()
            if now - window >= 1.0:
                window, count = now, 0
            count += 1
            if data is None:
                why, code = "text, not a frame", POLICY
            elif len(data) > MAX_PACKET:
                why, code = f"more than {MAX_PACKET} bytes, longer than any frame", TOO_BIG
            elif count > MAX_FRAMES_PER_S:
                why, code = f"more than {MAX_FRAMES_PER_S} frames a second", POLICY
            elif not link.call(service.heard, station, data):
                why, code = "the collector stopped", TRY_LATER
        if why:
            log.warning("%s closed: %s", station.name, why)
            link.refused[why] = link.refused.get(why, 0) + 1
            await ws.close(code, why)
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        # Its end (cancelled, or failed on a closed socket) is this link's end, already handled.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        link.call(service.detach, station)
        link.pages -= 1
