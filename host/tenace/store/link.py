"""What the link keeps in the event file besides results: its key, how each terminal paired, player numbers, frame
counters, seated terminals."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.errors import StoreError


@dataclass(frozen=True)
class PlayerNumbers:
    section: str
    table: int
    round: int
    north: int
    east: int
    south: int
    west: int
    terminal: int
    seq: int


def record_players(conn: sqlite3.Connection, players: PlayerNumbers) -> bool:
    """Store one PLAYERS message, committed; False when this (terminal, seq) was stored before."""
    p = players
    with transaction(conn):
        cursor = conn.execute(
            "INSERT INTO players (section, table_no, round, north, east, south, west, terminal, seq, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (terminal, seq) DO NOTHING",
            (p.section, p.table, p.round, p.north, p.east, p.south, p.west, p.terminal, p.seq, timestamp()))
    return cursor.rowcount == 1


def players_at(conn: sqlite3.Connection, section: str, table: int, round_: int) -> PlayerNumbers | None:
    """The latest numbers keyed for a table's round, or None."""
    row = conn.execute("SELECT section, table_no, round, north, east, south, west, terminal, seq FROM players"
                       " WHERE section = ? AND table_no = ? AND round = ? ORDER BY id DESC LIMIT 1",
                       (section, table, round_)).fetchone()
    return PlayerNumbers(*row) if row else None


def all_player_numbers(conn: sqlite3.Connection) -> list[PlayerNumbers]:
    """Every PLAYERS message stored, in the order stored."""
    rows = conn.execute("SELECT section, table_no, round, north, east, south, west, terminal, seq FROM players"
                        " ORDER BY id").fetchall()
    return [PlayerNumbers(*row) for row in rows]


def add_counts(conn: sqlite3.Connection, counts: Mapping[str, int]) -> None:
    """Add frame counts per reason to the stored ones, committed."""
    rows = [(reason, n) for reason, n in counts.items() if n]
    if not rows:
        return
    with transaction(conn):
        conn.executemany("INSERT INTO link_counter (reason, count) VALUES (?, ?) "
                         "ON CONFLICT (reason) DO UPDATE SET count = count + excluded.count", rows)


def stored_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """The frame counts per reason kept in the event file."""
    return {str(reason): int(n) for reason, n in conn.execute("SELECT reason, count FROM link_counter")}


def stored_link_key(conn: sqlite3.Connection) -> tuple[str, bytes, bytes] | None:
    """The event's (pairing code, nonce, key) as stored, or None before it is made."""
    row = conn.execute("SELECT code, nonce, key FROM link_key WHERE id = 1").fetchone()
    return (str(row[0]), bytes(row[1]), bytes(row[2])) if row else None


def keep_link_key(conn: sqlite3.Connection, code: str, nonce: bytes, key: bytes) -> tuple[str, bytes, bytes]:
    """Store the event's link key unless one is there already, committed; the one that is stored after."""
    with transaction(conn):
        # INSERT OR IGNORE: another process (the simulator reading the code) may have made it meanwhile.
        conn.execute("INSERT OR IGNORE INTO link_key (id, code, nonce, key, created) VALUES (1, ?, ?, ?, ?)",
                     (code, nonce, key, timestamp()))
    stored = stored_link_key(conn)
    if stored is None:  # inserted above or by the other process, and never deleted: the file was tampered with
        raise StoreError("the event file lost its link key")
    return stored


def seated_terminals(conn: sqlite3.Connection) -> list[tuple[int, str, int]]:
    """(terminal, section, table) of every terminal bound to a table, as the collector resumes them."""
    return [(int(t), str(s), int(n)) for t, s, n in conn.execute("SELECT id, section, table_no FROM terminal")]


def seated_at(conn: sqlite3.Connection, section: str, table: int) -> int | None:
    """The terminal the event file last seated at this table (by its own sign-in or the director's `tenace event
    seat`), while it is still seated there; None when none is."""
    row = conn.execute("SELECT s.terminal FROM sign_in s JOIN terminal t ON t.id = s.terminal AND "
                       "t.section = s.section AND t.table_no = s.table_no WHERE s.section = ? AND s.table_no = ? "
                       "AND s.id = (SELECT max(id) FROM sign_in WHERE section = ? AND table_no = ?)",
                       (section, table, section, table)).fetchone()
    return int(row[0]) if row is not None else None


@dataclass(frozen=True)
class Pairing:
    """How a terminal last paired: "club" (with the club key whose id is `club_id`) or "code" (the code alone)."""

    terminal: int
    way: str
    club_id: str | None
    at: str


def record_pairing(conn: sqlite3.Connection, terminal: int, way: str, club_id: str | None) -> None:
    """Keep how a terminal paired (its first frame under a new key), committed."""
    with transaction(conn):
        conn.execute("INSERT INTO terminal_pairing (terminal, way, club_id, at) VALUES (?, ?, ?, ?)"
                     " ON CONFLICT (terminal) DO UPDATE SET way = excluded.way, club_id = excluded.club_id,"
                     " at = excluded.at", (terminal, way, club_id, timestamp()))


def pairings(conn: sqlite3.Connection) -> list[Pairing]:
    """How every terminal that paired with this event did, by terminal id."""
    return [Pairing(int(t), str(w), None if c is None else str(c), str(a)) for t, w, c, a in
            conn.execute("SELECT terminal, way, club_id, at FROM terminal_pairing ORDER BY terminal")]
