"""The console's rehearsal button: `tenace sim --event EVENT --db COPY` run in the background, its output shown as it
comes, and at the end its check line and the copy's ranking (read from the copy, as `tenace results` would)."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.errors import UsageError
from tenace.reports.event_results import ResultsError, event_results
from tenace.reports.text import write_text
from tenace.simulation.session.rehearsal import default_copy
from tenace.store import StoreError
from tenace.store.db import connect_read_only, read_transaction
from tenace.store.queries import result_count
from tenace.web.console.forms import one_line
from tenace.web.console.room import Room, spoken

log = logging.getLogger(__name__)

KEPT_LINES = 400  # the output shown: the last lines (a long session prints a ranking per section)
CHECK = re.compile(r"^accepted=\d+ stored=\d+ lost=\d+ doubled=\d+")


@dataclass
class Run:
    """One rehearsal: its process, the copy it plays into, and what it has printed so far."""

    copy: Path
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    code: int | None = None  # its exit code once it has ended

    @property
    def check(self) -> str | None:
        """The simulator's last line, `accepted=… stored=… lost=0 doubled=0 …`, once printed."""
        return next((line for line in reversed(self.lines) if CHECK.match(line)), None)


def free_copy(event: Path) -> Path:
    """A new file beside the event for the copy: club-rehearsal.sqlite, else club-rehearsal-2.sqlite, … (an earlier
    rehearsal's copy is never written over)."""
    first = default_copy(event)
    n = 1
    copy = first
    while copy.exists():
        n += 1
        copy = first.with_name(f"{first.stem}-{n}{first.suffix}")
    return copy


def command(event: Path, copy: Path) -> list[str]:
    """The rehearsal as the director would type it, run by this Python (`python -m tenace` is the tenace command)."""
    return [sys.executable, "-m", "tenace", "sim", "--event", str(event), "--db", str(copy)]


class Rehearsals:
    """At most one rehearsal at a time (the simulator takes the machine); the latest is kept to be shown."""

    def __init__(self) -> None:
        self.latest: Run | None = None
        self.lock = threading.Lock()

    def running(self) -> bool:
        return self.latest is not None and self.latest.code is None

    def start(self, event: Path) -> Run:
        run = self.launch(lambda: free_copy(event), lambda copy: command(event, copy))
        log.info("director's console: rehearsal of %s into %s started (pid %d)", event, run.copy, run.process.pid)
        return run

    def launch(self, into: Callable[[], Path], argv: Callable[[Path], list[str]], busy: str = "re_busy") -> Run:
        """The simulator run as `argv(into())`, playing into that file, its output followed; RuntimeError (the words
        of `busy`) while one runs already."""
        with self.lock:
            if self.running():
                raise RuntimeError(spoken().plain(busy))
            copy = into()
            process = subprocess.Popen(argv(copy), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
                                       env={**os.environ, "PYTHONUNBUFFERED": "1"})
            run = Run(copy, process)
            self.latest = run
        threading.Thread(target=self._follow, args=(run,), name="simulator", daemon=True).start()
        return run

    def stop(self) -> None:
        """End the one running (SIGTERM, as Ctrl-C would: the simulator stops its terminals)."""
        run = self.latest
        if run is not None and run.code is None:
            run.process.terminate()

    @staticmethod
    def _follow(run: Run) -> None:
        assert run.process.stdout is not None
        for line in run.process.stdout:
            run.lines.append(line.rstrip("\n"))
            del run.lines[:-KEPT_LINES]
        run.code = run.process.wait()
        log.info("director's console: rehearsal into %s ended, exit %d", run.copy, run.code)


def refusal(conn_path: Path) -> str | None:
    """Why the event cannot be rehearsed now, as `tenace sim --event` refuses it: it holds results already."""
    with closing(connect_read_only(conn_path)) as conn, read_transaction(conn):
        played = result_count(conn)
    if played:
        return spoken().plain("re_played", name=conn_path.name, count=played)
    return None


def copy_ranking(copy: Path) -> str:
    """The copy's rankings as `tenace sim` prints them at its end (the text report, without travellers)."""
    with closing(connect_read_only(copy)) as conn, read_transaction(conn):
        sections = event_results(conn).sections
    out = io.StringIO()
    for s in sections:
        write_text(s.report, out, travellers=False)
    return out.getvalue()


def routes(room: Room) -> list[BaseRoute]:
    room.nav.append(("/director/rehearsal", "Rehearsal"))
    rehearsals = Rehearsals()

    async def page(request: Request, status: int = 200, error: str | None = None) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        run = rehearsals.latest
        ranking = None
        if run is not None and run.code is not None and run.copy.is_file():
            try:
                ranking = await run_in_threadpool(copy_ranking, run.copy)
            except (ResultsError, StoreError, OSError) as e:
                ranking = f"{run.copy}: {one_line(e)}"
        return room.page("console_rehearsal.html", status, session=session, error=error, run=run,
                         running=rehearsals.running(), ranking=ranking)

    async def start(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        try:
            event = room.event()
            if rehearsals.running():
                return await page(request, 409, spoken().plain("re_busy"))
            refused = await run_in_threadpool(refusal, event)
            if refused is not None:
                return await page(request, 400, refused)
            await run_in_threadpool(rehearsals.start, event)
        except (StoreError, UsageError, OSError, RuntimeError, ValueError) as e:
            return await page(request, 400, one_line(e))
        return RedirectResponse("/director/rehearsal", 303)

    async def get(request: Request) -> Response:
        return await page(request)

    return [
        Route("/director/rehearsal", get, methods=["GET"]),
        Route("/director/rehearsal", start, methods=["POST"]),
    ]
