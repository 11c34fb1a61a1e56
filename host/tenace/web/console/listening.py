"""The Terminals page's start and stop of the collector inside `tenace serve`, and what is still missing before the
first round (the collector listening, a terminal at every table)."""

from __future__ import annotations

import logging
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from tenace.collector.in_process import Listening, ListeningState, console_options
from tenace.errors import UsageError
from tenace.simulation.session.rehearsal import practice_play
from tenace.store import event_info
from tenace.store.link import seated_at
from tenace.web.console.rehearsal import Rehearsals
from tenace.web.console.room import spoken

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Empty:
    """A section's tables that no terminal has signed in at yet."""

    section: str
    tables: tuple[int, ...]


def empty_tables(conn: sqlite3.Connection) -> list[Empty]:
    """Each section's tables without a terminal seated (by its sign-in or the director's seat)."""
    out = []
    for s in event_info(conn).sections:
        empty = tuple(t for t in range(1, s.tables + 1) if seated_at(conn, s.name, t) is None)
        if empty:
            out.append(Empty(s.name, empty))
    return out


def missing(state: ListeningState | None, empty: list[Empty]) -> list[str]:
    """What is still missing before the first round, in the page's language (empty: nothing)."""
    words = spoken()
    out = []
    if state is not None and not state.on:
        out.append(words.plain("mi_listen"))
    out += [words.plain("mi_tables", section=e.section, tables=", ".join(map(str, e.tables))) for e in empty]
    return out


async def start(listening: Listening, form: dict[str, str]) -> str:
    """Start the collector as the form asks; what the page then says. UsageError (one line) when it cannot."""
    options = console_options(listening.base, form.get("way", ""), form.get("address", ""), form.get("baud", ""))
    await run_in_threadpool(listening.start, options)
    return spoken().plain("li_started", where=", ".join(listening.state().where))


async def stop(listening: Listening) -> str:
    await run_in_threadpool(listening.stop)
    return spoken().plain("li_stopped")


# The paces the director chooses from: milliseconds between two keys at a simulated table.
PACES = {"brisk": 30, "table": 400, "slow": 1500}
LOOPBACK = "127.0.0.1:0"


def play_command(event: Path, port: int, pace_ms: int) -> list[str]:
    """The simulated tables as the director would start them by hand (`python -m tenace` is the tenace command)."""
    return [sys.executable, "-m", "tenace", "sim", "--event", str(event), "--play-into", str(port),
            "--pace", str(pace_ms)]


async def simulate(listening: Listening, tables: Rehearsals, event: Path, form: dict[str, str]) -> str:
    """Simulated tables playing into a practice event, through the collector in this process (started on TCP when it
    is not listening yet). UsageError (one line) for a real event, one with results already, or a serial port."""
    pace = PACES.get(form.get("pace", ""))
    if pace is None:
        raise UsageError(spoken().plain("si_pace_none"))
    await run_in_threadpool(practice_play, event)  # a real event is refused here
    if not listening.state().on:
        await run_in_threadpool(listening.start, console_options(listening.base, "tcp", LOOPBACK, ""))
    port = listening.tcp_port()
    if port is None:
        raise UsageError(spoken().plain("si_tcp_only"))
    try:
        run = await run_in_threadpool(tables.launch, lambda: event, lambda _: play_command(event, port, pace),
                                      "si_busy")
    except RuntimeError as e:
        raise UsageError(str(e)) from None
    listening.followers.append(tables.stop)  # stopping the collector (or tenace serve) stops them too
    log.info("director's console: simulated tables playing into %s (pid %d)", event, run.process.pid)
    return spoken().plain("si_playing", pace=form.get("pace", ""))
