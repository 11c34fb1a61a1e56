"""Whether a section's pairs are two fields (a Mitchell's NS 7 and EW 7) or one (a Howell's 7), as the store says."""

from __future__ import annotations

import sqlite3


def one_field(conn: sqlite3.Connection, section: str) -> bool:
    """True when a section's pairs are one field (a Howell: pair 7 sits NS in one round, EW in another), False when
    they are two (a Mitchell: NS 7 and EW 7 are two pairs) or there is no such section.

    Every place that names a pair from the store asks this one question: a Howell's pair has no direction."""
    return section in one_field_sections(conn)


def one_field_sections(conn: sqlite3.Connection) -> frozenset[str]:
    """The sections whose pairs are one field (see `one_field`): all but the Mitchells (SectionInfo.one_field)."""
    return frozenset(str(r[0]) for r in conn.execute("SELECT name FROM section WHERE kind <> 'mitchell'"))
