"""The Terminals page's start and stop of the collector inside `tenace serve`, and what is still missing before the
first round (the collector listening, a terminal at every table)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from tenace.collector.in_process import Listening, ListeningState, console_options
from tenace.store import event_info
from tenace.store.link import seated_at
from tenace.web.console.room import spoken


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
