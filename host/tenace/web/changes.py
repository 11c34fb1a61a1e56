"""Noticing new results: the event file's data version polled cheaply, every waiting page told at once."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from tenace.store.db import connect_read_only, data_version

# Often enough that a page shows a result well within a second of its commit; one PRAGMA costs microseconds.
POLL_S = 0.1


class Changes:
    """A generation number that goes up each time another connection (the collector, a director's command)
    commits to the event file; the pages' event streams wait on it."""

    def __init__(self, path: Path, poll_s: float = POLL_S) -> None:
        self.path = path
        self.poll_s = poll_s
        self.generation = 0
        self._changed = asyncio.Event()
        self._conn: sqlite3.Connection | None = None
        self.stopping = False  # the server is stopping: the event streams end (an open one would hold it up)

    async def watch(self) -> None:
        """Poll until cancelled (the server's shutdown). An event file still to be made (`tenace serve --new`) is
        waited for: its appearing is a change."""
        if not self.path.exists():
            while not self.path.exists():
                await asyncio.sleep(self.poll_s)
            self.changed()
        self._conn = connect_read_only(self.path)
        try:
            seen = data_version(self._conn)
            while True:
                await asyncio.sleep(self.poll_s)
                now = data_version(self._conn)
                if now != seen:
                    seen = now
                    self.changed()
        finally:
            self._conn.close()

    def changed(self) -> None:
        self.generation += 1
        # A fresh event for the next change; everyone waiting on this one wakes now.
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def stop(self) -> None:
        """Every waiting stream wakes and ends: the server is stopping (Ctrl-C)."""
        self.stopping = True
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait(self, seen: int, timeout_s: float) -> int:
        """The generation once it is no longer `seen`, or after `timeout_s` (then it may still be `seen`)."""
        if self.generation != seen:
            return self.generation
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout_s)
        return self.generation
