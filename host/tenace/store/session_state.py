"""What the wire's host session keeps in the store: frames already ingested, its own sequence numbers."""

from __future__ import annotations

import sqlite3

from tenace.store.db import transaction


def is_ingested(conn: sqlite3.Connection, terminal: int, sequence: int) -> bool:
    """True when this (terminal, sequence) is stored: the frame is a duplicate, acknowledge it again."""
    return conn.execute("SELECT 1 FROM frame WHERE terminal = ? AND seq = ? AND outcome = 'stored'",
                        (terminal, sequence)).fetchone() is not None


def reserve_host_sequence(conn: sqlite3.Connection, terminal: int, limit: int) -> None:
    """Record, committed, that the host may use its sequence numbers to `terminal` below `limit`.

    Never lowers the reservation: a restarted host resumes at the highest limit ever reserved.
    """
    with transaction(conn):
        conn.execute("INSERT INTO host_sequence (terminal, reserved) VALUES (?, ?) ON CONFLICT (terminal) "
                     "DO UPDATE SET reserved = max(reserved, excluded.reserved)", (terminal, limit))


def next_host_sequence(conn: sqlite3.Connection, terminal: int) -> int:
    """Where a restarted host resumes numbering its frames to `terminal` (1 when it never sent any)."""
    row = conn.execute("SELECT reserved FROM host_sequence WHERE terminal = ?", (terminal,)).fetchone()
    return int(row[0]) if row else 1
