"""A whole event file checked: SQLite's own checks, the schema against the migrations', every result as read back,
and the chain of changes; what is wrong, each as one line, and what the file holds."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from tenace.store import ledger
from tenace.store.db import schema_version
from tenace.store.schema_doc import current_schema, schema_objects
from tenace.store.versions import load_versions, slot_states

# SQLite's own checks list at most this many faults: a file that bad is not read further.
_SQLITE_FAULTS = 20


@dataclass
class FileCheck:
    """What tenace check found: the faults (each one line), and the figures of a sound file."""

    faults: list[str] = field(default_factory=list)
    version: int = 0
    versions: int = 0  # result versions
    results: int = 0  # slots with a result that counts
    entries: int = 0  # of the chain
    head: str = ""

    @property
    def sound(self) -> bool:
        return not self.faults


def check_file(conn: sqlite3.Connection) -> FileCheck:
    """Every check, on a file opened with db.connect (so at this Tenace's schema version); SQLite's faults that stop
    the reading (a malformed file) are one more fault."""
    found = FileCheck(version=int(conn.execute("PRAGMA user_version").fetchone()[0]))
    try:
        _check(conn, found)
    except sqlite3.DatabaseError as e:
        found.faults.append(f"the file cannot be read to the end: {e}")
    return found


def _check(conn: sqlite3.Connection, found: FileCheck) -> None:
    faults = found.faults
    if found.version != schema_version():
        faults.append(f"schema version {found.version}, not this Tenace's {schema_version()}")
    integrity = [str(r[0]) for r in conn.execute(f"PRAGMA integrity_check({_SQLITE_FAULTS})")]
    # Read on even so: what can be read is named row by row below (a page SQLite cannot read stops it there).
    faults.extend(f"SQLite integrity check: {line}" for line in integrity if line != "ok")
    faults.extend(f"a {table} row refers to a missing {parent} row (rowid {rowid})"
                  for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"))
    faults.extend(schema_differences(conn))
    versions = load_versions(conn)
    found.versions = len(versions)
    found.results = sum(1 for s in slot_states(versions).values() if s.current and s.current.kind != "erased")
    faults.extend(f"result {v.id} (section {v.section} table {v.table} round {v.round} board {v.board}, "
                  f"v{v.version}): {v.damage}" for v in versions if v.damage)
    breaks, found.entries = ledger.check(conn)
    faults.extend(f"changed outside Tenace: {b}" for b in breaks)
    found.head = ledger.head(conn)


def schema_differences(conn: sqlite3.Connection) -> list[str]:
    """Each table, index or trigger that is not as this Tenace's migrations make it (one dropped to edit the file
    behind Tenace's back, say); compared as laid out by schema_doc, whatever the migrations did to the SQL's text."""
    expected = {(o.kind, o.name): o.sql for o in current_schema()[1]}
    actual = {(o.kind, o.name): o.sql for o in schema_objects(conn)}
    out = []
    for (kind, name), sql in sorted(expected.items()):
        if (kind, name) not in actual:
            out.append(f"the {kind} {name} is missing from the schema (dropped outside Tenace)")
        elif actual[kind, name] != sql:
            out.append(f"the {kind} {name} is not as Tenace made it (changed outside Tenace)")
    out.extend(f"the {kind} {name} is not Tenace's (added outside Tenace)"
               for kind, name in sorted(actual.keys() - expected.keys()))
    return out
