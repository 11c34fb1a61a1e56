"""The tables calling the director and the round clock, in the console: the calls at once on the grid and the
Terminals page (their live parts, with a sound the director can switch off: static/calls.js), each acknowledged with
one button, and the clock the director starts for a round, with the tables still playing it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.errors import UsageError
from tenace.protocol.http_guard import NO_STORE
from tenace.store import StoreError, event_info
from tenace.store.director_calls import (
    MAX_MINUTES,
    DirectorCall,
    RoundClock,
    acknowledge_call,
    calls,
    latest_clocks,
    set_clock,
)
from tenace.store.encounters import tables_playing
from tenace.web.console.forms import one_line
from tenace.web.console.room import Room, back_to, spoken

STATIC = Path(__file__).resolve().parents[1] / "static"
ANSWERED_SHOWN = 5  # the calls answered lately, under the open ones


def local_time(at: str) -> str:
    """A stored timestamp as the laptop's local time of day, "19:42:05"."""
    return datetime.fromisoformat(at).astimezone().strftime("%H:%M:%S")


@dataclass(frozen=True)
class ClockView:
    clock: RoundClock
    ends_local: str  # "20:45"
    minutes_left: int  # rounded up; 0: time is up
    playing: list[int]  # the tables still playing its round or an earlier one


@dataclass(frozen=True)
class CallsPanel:
    open: list[DirectorCall]  # oldest first: the one waiting longest on top
    answered: list[DirectorCall]  # newest first
    clocks: list[ClockView]  # the sections' running clocks
    sections: list[str]


def panel(conn: sqlite3.Connection) -> CallsPanel:
    every = calls(conn)
    views = []
    for name, clock in sorted(latest_clocks(conn).items()):
        if clock.minutes:
            left = clock.seconds_left()
            views.append(ClockView(clock, datetime.fromisoformat(clock.ends).astimezone().strftime("%H:%M"),
                                   (left + 59) // 60, tables_playing(conn, name, clock.round)))
    return CallsPanel([c for c in reversed(every) if c.acknowledged is None],
                      [c for c in every if c.acknowledged is not None][:ANSWERED_SHOWN], views,
                      [s.name for s in event_info(conn).sections])


def _whole(value: str | None, low: int, high: int) -> int:
    if value is None or not value.strip().isdecimal() or not low <= int(value) <= high:
        raise UsageError(spoken().plain("cl_bad"))
    return int(value)


def routes(room: Room) -> list[BaseRoute]:
    async def acknowledge(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, _form = found
        call_id = request.path_params["call"]
        try:
            done = await room.write(lambda conn: acknowledge_call(conn, call_id, session.name))
        except (StoreError, UsageError, sqlite3.Error) as e:
            session.warnings = [one_line(e)]
            return RedirectResponse(back_to(request), 303)
        if not done:  # (done: the panel shows it answered)
            session.warnings = [spoken().plain("ca_gone")]
        return RedirectResponse(back_to(request), 303)

    async def clock(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, form = found
        try:
            section = form.get("section", "")
            minutes = 0 if form.get("stop") else _whole(form.get("minutes"), 1, MAX_MINUTES)
            round_ = _whole(form.get("round"), 1, 127)

            def start(conn: sqlite3.Connection) -> RoundClock:
                if section not in [s.name for s in event_info(conn).sections]:
                    raise UsageError(f"there is no section {section!r} in this event")
                return set_clock(conn, section, round_, minutes)
            await room.write(start)
        except (StoreError, UsageError, ValueError, sqlite3.Error) as e:
            session.warnings = [one_line(e)]
        return RedirectResponse(back_to(request), 303)  # (the panel shows the clock, or the warning)

    async def script(request: Request) -> Response:
        return FileResponse(STATIC / "calls.js", media_type="text/javascript", headers=NO_STORE)

    return [
        Route("/director/call/{call:int}", acknowledge, methods=["POST"]),
        Route("/director/clock", clock, methods=["POST"]),
        Route("/director/static/calls.js", script, methods=["GET"]),
    ]
