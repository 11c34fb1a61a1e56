"""An event's public pages served on loopback in a thread, and Debian's chromium to open them: tests and benchmarks."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

from tenace.collector.in_process import Listening
from tenace.commands.serve import bind
from tenace.web.app import create_app
from tenace.web.championship_page import ServedChampionship
from tenace.web.changes import POLL_S
from tenace.web.console import Director

# The phone the screenshots are taken as: an iPhone 12-15's viewport in CSS pixels.
PHONE = {"width": 390, "height": 844}


def chromium() -> str | None:
    """The system's chromium (tools/setup-env installs Debian's), never a browser Playwright would download."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def served(path: Path, poll_s: float = POLL_S, director: Director | None = None, new: bool = False,
           listening: Listening | None = None, championship: ServedChampionship | None = None) -> Iterator[str]:
    """`tenace serve`'s app for `path` on 127.0.0.1 (a free port) in a thread, with the director's console when
    `director` is given (`new`: as `tenace serve --new`, the event file still to be made; `listening`: the collector
    its Terminals page starts; `championship`: the one the event is a session of); yields its base URL."""
    with served_app(create_app(path, poll_s, director, new=new, listening=listening,
                               championship=championship)) as url:
        yield url


@contextmanager
def served_app(app: ASGIApp) -> Iterator[str]:
    """An ASGI application (the pages', the hub's) on 127.0.0.1 (a free port) in a thread; yields its base URL."""
    listener = bind("127.0.0.1", 0, "127.0.0.1:0")
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, access_log=False))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listener])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the pages' server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()
