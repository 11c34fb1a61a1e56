"""The tables' calls of the director and the round clock in the event file: the collector's and the console's SQL."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta

from tenace.store.clock import now, timestamp
from tenace.store.db import transaction

MAX_MINUTES = 255  # a round's length, at most (CLOCK's 8 bits)


@dataclass(frozen=True)
class DirectorCall:
    """One call as stored: where from, when, and whether the director has answered it and the table was told."""

    id: int
    terminal: int
    section: str
    table: int
    round: int
    call: int  # the table's own number for it (1-255)
    left: int | None  # minutes the table's round clock showed; None: no clock
    at: str
    acknowledged: str | None
    who: str | None  # the director who acknowledged it
    told: str | None


@dataclass(frozen=True)
class RoundClock:
    """A section's round clock as the director last set it; minutes 0: stopped."""

    id: int
    section: str
    round: int
    minutes: int
    started: str
    ends: str

    def seconds_left(self, at: datetime | None = None) -> int:
        """Whole seconds left at `at` (default: now), 0 once the round is over or the clock stopped."""
        if not self.minutes:
            return 0
        left = (datetime.fromisoformat(self.ends) - (at or now())).total_seconds()
        return max(0, int(left + 0.999))


_CALL_COLUMNS = "id, terminal, section, table_no, round, call, left_minutes, at, acknowledged, who, told"


def record_call(conn: sqlite3.Connection, terminal: int, seq: int, section: str, table: int, round_: int, call: int,
                left: int | None) -> bool:
    """Store a table's call, committed; False when this frame (terminal, seq) was stored already."""
    with transaction(conn):
        cursor = conn.execute(
            "INSERT OR IGNORE INTO director_call (terminal, seq, section, table_no, round, call, left_minutes, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (terminal, seq, section, table, round_, call, left, timestamp()))
    return cursor.rowcount == 1


def calls(conn: sqlite3.Connection, open_only: bool = False) -> list[DirectorCall]:
    """Every call, newest first (only those the director has not acknowledged with `open_only`)."""
    where = " WHERE acknowledged IS NULL" if open_only else ""
    rows = conn.execute(f"SELECT {_CALL_COLUMNS} FROM director_call{where} ORDER BY id DESC").fetchall()
    return [DirectorCall(*row) for row in rows]


def acknowledge_call(conn: sqlite3.Connection, call_id: int, who: str) -> bool:
    """Director `who` answers a call (the collector then tells the table), committed; False when there is no such
    open call."""
    with transaction(conn):
        cursor = conn.execute("UPDATE director_call SET acknowledged = ?, who = ? WHERE id = ?"
                              " AND acknowledged IS NULL", (timestamp(), who, call_id))
    return cursor.rowcount == 1


def calls_to_tell(conn: sqlite3.Connection) -> list[DirectorCall]:
    """Calls acknowledged whose table has not been sent COMING yet, oldest first."""
    rows = conn.execute(f"SELECT {_CALL_COLUMNS} FROM director_call WHERE acknowledged IS NOT NULL AND told IS NULL"
                        " ORDER BY id").fetchall()
    return [DirectorCall(*row) for row in rows]


def mark_told(conn: sqlite3.Connection, call_id: int) -> None:
    with transaction(conn):
        conn.execute("UPDATE director_call SET told = ? WHERE id = ?", (timestamp(), call_id))


def set_clock(conn: sqlite3.Connection, section: str, round_: int, minutes: int,
              start: datetime | None = None) -> RoundClock:
    """Start the section's clock for a round of `minutes` from `start` (default: now), or stop it (0), committed."""
    if not 1 <= round_ <= 127 or not 0 <= minutes <= MAX_MINUTES:
        raise ValueError(f"a round clock is for round 1-127 and 0-{MAX_MINUTES} minutes")
    begun = start or now()
    started, ends = timestamp(begun), timestamp(begun + timedelta(minutes=minutes))
    with transaction(conn):
        cursor = conn.execute("INSERT INTO round_clock (section, round, minutes, started, ends) VALUES (?, ?, ?, ?, ?)",
                              (section, round_, minutes, started, ends))
    assert cursor.lastrowid is not None
    return RoundClock(cursor.lastrowid, section, round_, minutes, started, ends)


def latest_clocks(conn: sqlite3.Connection) -> dict[str, RoundClock]:
    """Each section's clock as last set (stopped ones included)."""
    rows = conn.execute("SELECT id, section, round, minutes, started, ends FROM round_clock"
                        " WHERE id IN (SELECT max(id) FROM round_clock GROUP BY section)").fetchall()
    return {row[1]: RoundClock(*row) for row in rows}


def clock_version(conn: sqlite3.Connection) -> int:
    """The id of the last clock setting (0: none): the collector sends the clocks again when it grows."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM round_clock").fetchone()[0])
