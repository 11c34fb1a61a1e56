"""The tables calling the director and the round clock, at the collector: each CALL stored, and what the director
does in the console (an acknowledgement, the clock set) sent to the tables; the event file is looked at every
half second, so a call acknowledged reaches its table at its next poll."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from tenace.collector.wire_results import section_letter, section_number
from tenace.store.director_calls import (
    RoundClock,
    calls_to_tell,
    clock_version,
    latest_clocks,
    mark_told,
    record_call,
)
from tenace_wire.director_call import MAX_LEFT, NO_CLOCK, Call, Clock, Coming
from tenace_wire.fields import Message
from tenace_wire.host_session import HostSession

log = logging.getLogger(__name__)

LOOK_MS = 500  # how often the event file is asked for acknowledged calls and clock changes
Send = Callable[[int, Message, int], None]  # the collector's send


def clock_message(clock: RoundClock, section: int) -> Clock:
    """A section's clock as the CLOCK frame carries it, its seconds left counted now."""
    return Clock(section=section, round=clock.round, minutes=clock.minutes,
                 left=min(MAX_LEFT, clock.seconds_left()))


class DirectorLink:
    """Calls in, acknowledgements and clocks out, through the collector's `send`."""

    def __init__(self, conn: sqlite3.Connection, session: HostSession, send: Send) -> None:
        self.conn = conn
        self.session = session
        self._send = send
        self._looked_at: int | None = None
        self._clocks_seen = 0  # 0 at start: terminals resumed from the event file get the clock again

    def called(self, terminal: int, seq: int, msg: Call) -> bool:
        """Store a call (committed: then the frame may be acknowledged); False when it was stored already."""
        name = section_letter(msg.section)
        new = record_call(self.conn, terminal, seq, name, msg.table, msg.round, msg.call,
                          None if msg.left == NO_CLOCK else msg.left)
        if new:
            log.warning("section %s table %d, round %d, calls the director", name, msg.table, msg.round)
        return new

    def signed_in(self, terminal: int, section: int, now: int) -> None:
        """A terminal signed in: the section's clock, if it runs."""
        clock = latest_clocks(self.conn).get(section_letter(section))
        if clock is not None and clock.minutes:
            self._send(terminal, clock_message(clock, section), now)

    def due(self, now: int) -> None:
        if self._looked_at is not None and now - self._looked_at < LOOK_MS:
            return
        self._looked_at = now
        try:
            self._tell(now)
            self._clocks(now)
        except sqlite3.Error as e:
            log.error("director's calls and clock not read (%s); will try again", e)

    def _tell(self, now: int) -> None:
        """COMING to each table whose call the director acknowledged, by the terminal now at that table."""
        for call in calls_to_tell(self.conn):
            number = section_number(call.section)
            terminals = [t for t, where in self.session.bindings.items() if where == (number, call.table)]
            if number is None or not terminals:
                continue  # the table's terminal is not signed in (yet): told when it is
            for terminal in terminals:
                self._send(terminal, Coming(section=number, table=call.table, call=call.call), now)
            mark_told(self.conn, call.id)

    def _clocks(self, now: int) -> None:
        latest = clock_version(self.conn)
        if latest <= self._clocks_seen:
            return
        clocks = latest_clocks(self.conn)
        for terminal, (section, _table) in list(self.session.bindings.items()):
            clock = clocks.get(section_letter(section))
            if clock is not None and clock.id > self._clocks_seen:
                self._send(terminal, clock_message(clock, section), now)
        self._clocks_seen = latest
