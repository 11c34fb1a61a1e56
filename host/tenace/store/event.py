"""Creating an event file: the event, its sections and their movements; terminals signing in to tables."""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from pathlib import Path

from tenace.movement import Movement
from tenace.store import validate
from tenace.store.clock import timestamp
from tenace.store.db import connect, transaction
from tenace.store.director import login_name
from tenace.store.errors import EntryError, StoreError
from tenace.store.movement_changes import absent_from_start
from tenace.store.row_check import checked_rows

log = logging.getLogger(__name__)

SCORING_METHODS = ("matchpoints", "imps", "total_points")
_SECTION_NAME = re.compile(r"^[A-Za-z0-9]{1,8}$")


@dataclass(frozen=True)
class EventInfo:
    name: str
    date: str
    scoring: str
    created: str
    sections: tuple[SectionInfo, ...]
    practice: bool = False  # a practice event: simulated terminals may play into it; marked so everywhere

    @property
    def title(self) -> str:
        """The event's name as every report and export gives it: a practice event says so."""
        return f"{self.name} (practice)" if self.practice else self.name


@dataclass(frozen=True)
class SectionInfo:
    name: str
    movement: str
    tables: int
    rounds: int
    boards_per_round: int
    kind: str = "mitchell"  # tenace.movement.Movement.kind: mitchell, howell, teams or individual

    @property
    def one_field(self) -> bool:
        """True when the section's pairs are numbered as one field (a Howell's 7), not as NS 7 and EW 7."""
        return self.kind != "mitchell"


def create_event(path: Path | str, *, name: str, sections: dict[str, Movement], date: str | None = None,
                 scoring: str = "matchpoints", at: datetime | None = None,
                 practice: bool = False) -> sqlite3.Connection:
    """A new event file holding the event and each section's movement; refused if the file exists. `practice`: a
    practice event (simulated terminals may play into it), fixed now: an event is made practice or real."""
    path = Path(path)
    if path.exists():
        raise StoreError(f"{path} already exists: an event file is never overwritten")
    name = name.strip()
    if not 1 <= len(name) <= 200 or not name.isprintable():
        raise EntryError("the event name must be printable text of 1 to 200 characters")
    day = date or Date.today().isoformat()
    # fromisoformat alone would also take 20240514 or 2024-W20-2, and call 2024-02-30 a format error.
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
        raise EntryError(f"the event date must be YYYY-MM-DD, not {day!r}")
    try:
        Date.fromisoformat(day)
    except ValueError:
        raise EntryError(f"the event date {day} is not a real date (check the month and the day)") from None
    if scoring not in SCORING_METHODS:
        raise EntryError(f"scoring must be one of {', '.join(SCORING_METHODS)}, not {scoring!r}")
    if not sections:
        raise EntryError("an event needs at least one section")
    conn = connect(path, create=True)
    try:
        with transaction(conn):
            conn.execute("INSERT INTO event (id, name, date, scoring, created) VALUES (1, ?, ?, ?, ?)",
                         (name, day, scoring, timestamp(at)))
            for section, movement in sections.items():
                _add_section(conn, section, movement)
            if practice:
                conn.execute("INSERT INTO event_setting (name, value) VALUES ('practice', '1')")
    except BaseException:
        conn.close()
        for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        raise
    log.info("created event %r in %s", name, path)
    return conn


# A movement's description as stored: "Mitchell (first 5 of 7 rounds), 7 tables, ..., NS 7 missing (a half table)".
MAX_MOVEMENT_NAME = 200


def add_section(conn: sqlite3.Connection, section: str, movement: Movement) -> None:
    """Add a section and its movement to an existing event (e.g. a late second section)."""
    with transaction(conn):
        _add_section(conn, section, movement)


def _add_section(conn: sqlite3.Connection, section: str, movement: Movement) -> None:
    if not _SECTION_NAME.match(section):
        raise EntryError(f"a section name is 1 to 8 letters or digits, not {section!r}")
    if conn.execute("SELECT 1 FROM section WHERE name = ?", (section,)).fetchone():
        raise EntryError(f"section {section} already exists")
    if not 1 <= len(movement.name) <= MAX_MOVEMENT_NAME:  # what is read back is checked against the same limit
        raise EntryError(f"a movement's description is 1 to {MAX_MOVEMENT_NAME} characters, not {len(movement.name)}")
    conn.execute("INSERT INTO section (name, movement, tables, rounds, boards_per_round, kind)"
                 " VALUES (?, ?, ?, ?, ?, ?)", (section, movement.name, movement.tables, movement.rounds,
                                                movement.boards_per_round, movement.kind))
    conn.executemany("INSERT INTO encounter (section, table_no, round, ns_pair, ew_pair) VALUES (?, ?, ?, ?, ?)",
                     [(section, e.table, e.round, e.ns_pair, e.ew_pair) for e in movement.encounters])
    conn.executemany("INSERT INTO encounter_board (section, table_no, round, board) VALUES (?, ?, ?, ?)",
                     [(section, e.table, e.round, b) for e in movement.encounters for b in e.boards])
    if movement.partners:
        conn.executemany("INSERT INTO partnership (section, number, first_player, second_player) VALUES (?, ?, ?, ?)",
                         [(section, n, a, b) for n, (a, b) in enumerate(movement.partners, start=1)])
    if movement.phantom is not None:
        absent_from_start(conn, section, movement.phantom, who=login_name(), why="a half table: the phantom pair")


def partnerships(conn: sqlite3.Connection, section: str) -> dict[int, tuple[int, int]]:
    """An individual section's partnerships (its encounters' pair numbers) and their two players; {} otherwise."""
    return {int(n): (int(a), int(b)) for n, a, b in conn.execute(
        "SELECT number, first_player, second_player FROM partnership WHERE section = ? ORDER BY number", (section,))}


def event_info(conn: sqlite3.Connection) -> EventInfo:
    rows = checked_rows("event", _EVENT, conn.execute("SELECT id, name, date, scoring, created FROM event"))
    if not rows:
        raise StoreError("the event file holds no event")
    sections = tuple(SectionInfo(*r) for r in checked_rows("section", _SECTION, conn.execute(
        "SELECT name, movement, tables, rounds, boards_per_round, kind FROM section ORDER BY name")))
    _, name, day, scoring, created = rows[0]
    practice = conn.execute("SELECT value FROM event_setting WHERE name = 'practice'").fetchone() is not None
    return EventInfo(name=name, date=day, scoring=scoring, created=created, sections=sections, practice=practice)


# What the event's and its sections' rows must hold, read back (row_check.sound).
_EVENT = {"id": ("choice", 1), "name": ("text", 200), "date": ("time",), "scoring": ("choice", *SCORING_METHODS),
          "created": ("time",)}
_SECTION = {"name": ("text", 8), "movement": ("text", MAX_MOVEMENT_NAME), "tables": ("int", 1, validate.MAX_TABLE),
            "rounds": ("int", 1, validate.MAX_ROUND), "boards_per_round": ("int", 1, validate.MAX_BOARD),
            "kind": ("choice", "mitchell", "howell", "teams", "individual")}


def sign_in(conn: sqlite3.Connection, terminal: int, section: str, table: int, *, who: str = "terminal",
            at: datetime | None = None) -> None:
    """Seat a terminal at a table (from its sign-in message, or the TD replacing a broken one); committed.

    Signing in again, to the same or another table, is recorded in the sign-in history; the
    terminal's sequence numbers carry on (exactly-once is per terminal, whatever table it is at).
    """
    limits = (("terminal id", terminal, 0, validate.MAX_TERMINAL), ("table", table, 1, validate.MAX_TABLE))
    for name, value, low, high in limits:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise EntryError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    when = timestamp(at)
    with transaction(conn):
        tables = conn.execute("SELECT tables FROM section WHERE name = ?", (section,)).fetchone()
        if tables is None:
            raise EntryError(f"there is no section {section!r} in this event")
        if table > tables[0]:
            raise EntryError(f"section {section} has tables 1 to {tables[0]}, not {table}")
        conn.execute("INSERT INTO terminal (id, section, table_no, signed_in) VALUES (?, ?, ?, ?) "
                     "ON CONFLICT (id) DO UPDATE SET section = excluded.section, table_no = excluded.table_no, "
                     "signed_in = excluded.signed_in", (terminal, section, table, when))
        conn.execute("INSERT INTO sign_in (terminal, section, table_no, at, who) VALUES (?, ?, ?, ?, ?)",
                     (terminal, section, table, when, who))
    log.info("terminal %d signed in to section %s table %d", terminal, section, table)

