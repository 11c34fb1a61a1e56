"""Movement changes during the session (tenace move): pairs absent or present, tables closed early, pairs swapped.

Each change is a line of the director's log (action "move", with who, when and why, held to the Law 79C period
like any other) and applies from a round on. A change never touches a table round that has a result: the
director erases it first, or starts the change a round later. What the changes make (the table rounds where
somebody sits out) is kept in `sit_out`, rewritten at each change, for the collector, the terminals' round
plans, the missing-results list and the reports.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from tenace.store import clock
from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.director import Action, check_period, checked_signature, chosen_section, log_action
from tenace.store.errors import EntryError
from tenace.store.fields import one_field

log = logging.getLogger(__name__)

# A pair as the director names it: its field ("NS"/"EW" in a Mitchell, "" where pairs change direction) and number.
PairRef = tuple[str, int]
TableRound = tuple[int, int]  # (table, round)


@dataclass(frozen=True)
class MovementChange:
    """A change made: its line in the director's log, its section and first round, and the table rounds it changed."""

    action: int
    section: str
    first_round: int
    detail: str
    changed: tuple[TableRound, ...]


def pair_text(pair: PairRef) -> str:
    return f"{pair[0]} {pair[1]}" if pair[0] else str(pair[1])


def set_presence(conn: sqlite3.Connection, section: str | None, pair: PairRef, first_round: int,
                 last_round: int | None = None, *, present: bool, who: str, why: str,
                 before: bool = False, at: datetime | None = None, force: bool = False) -> MovementChange:
    """A pair absent (or present again) from `first_round` to `last_round` (default: the last round).

    `before`: also the rounds before `first_round` the other way round (a late pair: absent until it came,
    present from then). Whoever meets an absent pair sits out.
    """
    with transaction(conn):
        name, rounds = _section(conn, section)
        last = rounds if last_round is None else last_round
        _check_rounds(first_round, last, rounds)
        _check_pair(conn, name, pair)
        spans = [(first_round, last, present)]
        before = before and first_round > 1
        if before:
            spans.insert(0, (1, first_round - 1, not present))
        word = (f"late: absent until round {first_round}, present from then" if before
                else f"{'present' if present else 'absent'} {_rounds(first_round, last, rounds)}")
        detail = f"section {name} {pair_text(pair)} {word}"

        def write(action: int) -> None:
            conn.executemany("INSERT INTO presence (action, section, field, pair, first_round, last_round, present)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)",
                             [(action, name, pair[0], pair[1], a, b, int(p)) for a, b, p in spans])

        return _change(conn, name, min(s[0] for s in spans), detail, write, who, why, at, force)


def close_table(conn: sqlite3.Connection, section: str | None, table: int, first_round: int, *, who: str, why: str,
                at: datetime | None = None, force: bool = False) -> MovementChange:
    """A table out of play from `first_round` on (it finished early): the pairs who would play there sit out."""
    with transaction(conn):
        name, rounds = _section(conn, section)
        _check_rounds(first_round, rounds, rounds)
        if conn.execute("SELECT 1 FROM encounter WHERE section = ? AND table_no = ? AND round >= ? LIMIT 1",
                        (name, table, first_round)).fetchone() is None:
            raise EntryError(f"section {name} has no table {table} in round {first_round} or later")
        detail = f"section {name} table {table} closed {_rounds(first_round, rounds, rounds)}"

        def write(action: int) -> None:
            conn.execute("INSERT INTO table_closure (action, section, table_no, first_round) VALUES (?, ?, ?, ?)",
                         (action, name, table, first_round))

        return _change(conn, name, first_round, detail, write, who, why, at, force)


def swap_pairs(conn: sqlite3.Connection, section: str | None, first: PairRef, second: PairRef, first_round: int, *,
               who: str, why: str, at: datetime | None = None, force: bool = False) -> MovementChange:
    """Two pairs change places from `first_round` on: each sits where the other would have, plays its boards
    and meets its opponents (a pair that cannot move, seated where a stationary pair was)."""
    with transaction(conn):
        name, rounds = _section(conn, section)
        _check_rounds(first_round, rounds, rounds)
        if first == second:
            raise EntryError(f"{pair_text(first)} cannot swap with itself")
        if first[0] != second[0]:
            raise EntryError(f"{pair_text(first)} and {pair_text(second)} are in different fields: a swap keeps each "
                             f"pair's direction (NS with NS, EW with EW)")
        for pair in (first, second):
            _check_pair(conn, name, pair)
        detail = (f"section {name} {pair_text(first)} and {pair_text(second)} swap places "
                  f"{_rounds(first_round, rounds, rounds)}")

        def write(action: int) -> None:
            conn.execute("INSERT INTO pair_swap (action, section, field, first_pair, second_pair, first_round)"
                         " VALUES (?, ?, ?, ?, ?, ?)", (action, name, first[0], first[1], second[1], first_round))
            for column in _columns(first[0]):
                conn.execute(f"UPDATE encounter SET {column} = CASE {column} WHEN ?1 THEN ?2 ELSE ?1 END"
                             f" WHERE section = ?3 AND round >= ?4 AND {column} IN (?1, ?2)",
                             (first[1], second[1], name, first_round))

        return _change(conn, name, first_round, detail, write, who, why, at, force)


def sit_outs(conn: sqlite3.Connection, section: str) -> dict[TableRound, tuple[bool, bool]]:
    """(table, round) -> (NS pair out, EW pair out) for every table round where somebody sits out."""
    return {(int(t), int(r)): (bool(ns), bool(ew)) for t, r, ns, ew in conn.execute(
        "SELECT table_no, round, ns_out, ew_out FROM sit_out WHERE section = ?", (section,))}


def movement_version(conn: sqlite3.Connection) -> int:
    """The latest movement change's number (0 for none): the collector resends round plans when it grows."""
    row = conn.execute("SELECT max(id) FROM director_action WHERE action = 'move'").fetchone()
    return int(row[0] or 0)


def changed_sections(conn: sqlite3.Connection, since: int) -> dict[str, int]:
    """Section -> the earliest first round of the movement changes made after change `since`."""
    return {str(section): int(first) for section, first in conn.execute(
        "SELECT section, min(first_round) FROM (SELECT action, section, first_round FROM presence"
        " UNION ALL SELECT action, section, first_round FROM table_closure"
        " UNION ALL SELECT action, section, first_round FROM pair_swap) WHERE action > ? GROUP BY section",
        (since,))}


def section_changes(conn: sqlite3.Connection, section: str) -> set[int]:
    """The director's log ids of the movement changes made to a section."""
    return {int(a) for (a,) in conn.execute(
        "SELECT action FROM presence WHERE section = ?1 UNION SELECT action FROM table_closure WHERE section = ?1"
        " UNION SELECT action FROM pair_swap WHERE section = ?1", (section,))}


def absent_from_start(conn: sqlite3.Connection, section: str, pair: PairRef, *, who: str, why: str) -> None:
    """The movement's phantom pair, absent all session (inside the caller's transaction: a new event's)."""
    rounds = int(conn.execute("SELECT rounds FROM section WHERE name = ?", (section,)).fetchone()[0])
    stamp = timestamp(clock.now())
    detail = f"section {section} {pair_text(pair)} absent all session (the movement's phantom pair)"
    action = log_action(conn, Action.MOVE, checked_signature(who, why), detail, stamp, False)
    conn.execute("INSERT INTO presence (action, section, field, pair, first_round, last_round, present)"
                 " VALUES (?, ?, ?, ?, 1, ?, 0)", (action, section, pair[0], pair[1], rounds))
    _rewrite_sit_outs(conn, section)


# ---- inside the change's transaction


def _change(conn: sqlite3.Connection, section: str, first_round: int, detail: str, write: Callable[[int], None],
            who: str, why: str, at: datetime | None, force: bool) -> MovementChange:
    """Log the change, write it, remake the section's sit-outs; refused when a table round it changes has a result."""
    names = checked_signature(who, why)
    moment = at if at is not None else clock.now()
    forced = check_period(conn, moment, force)
    before = _table_rounds(conn, section)
    action = log_action(conn, Action.MOVE, names, detail, timestamp(moment), forced)
    write(action)
    _rewrite_sit_outs(conn, section)
    after = _table_rounds(conn, section)
    changed = tuple(sorted((k for k in before.keys() | after.keys() if before.get(k) != after.get(k)),
                           key=lambda k: (k[1], k[0])))  # by round, then table
    if not changed:
        raise EntryError(f"{detail}: that changes nothing (it is so already)")
    played = _with_results(conn, section, changed)
    if played:
        where = ", ".join(f"table {t} round {r}" for t, r in played[:4]) + (" …" if len(played) > 4 else "")
        raise EntryError(f"{detail}: {where} already {'has' if len(played) == 1 else 'have'} results; "
                         f"erase them first, or make the change from a later round")
    log.info("director %s: move %s (%s)%s", names[0], detail, names[1], " FORCED" if forced else "")
    return MovementChange(action, section, first_round, detail, changed)


def _table_rounds(conn: sqlite3.Connection, section: str) -> dict[TableRound, tuple[int, int, int, int]]:
    """(table, round) -> (NS pair, EW pair, NS out, EW out): what a change may alter."""
    return {(int(t), int(r)): (int(ns), int(ew), int(nso or 0), int(ewo or 0)) for t, r, ns, ew, nso, ewo in
            conn.execute("SELECT e.table_no, e.round, e.ns_pair, e.ew_pair, s.ns_out, s.ew_out FROM encounter e"
                         " LEFT JOIN sit_out s USING (section, table_no, round) WHERE e.section = ?", (section,))}


def _with_results(conn: sqlite3.Connection, section: str, where: tuple[TableRound, ...]) -> list[TableRound]:
    """The table rounds among `where` with a result that counts or stands in a conflict (not superseded, not erased)."""
    rows = conn.execute(
        "SELECT DISTINCT r.table_no, r.round FROM result r WHERE r.section = ? AND r.kind <> 'erased'"
        " AND NOT EXISTS (SELECT 1 FROM result_supersedes s WHERE s.supersedes = r.id)", (section,)).fetchall()
    return sorted({(int(t), int(r)) for t, r in rows} & set(where), key=lambda k: (k[1], k[0]))


def _rewrite_sit_outs(conn: sqlite3.Connection, section: str) -> None:
    """Remake the section's sit-outs from every presence and closure so far: the latest word on a round wins."""
    spans: dict[PairRef, list[tuple[int, int, bool]]] = {}
    for field, pair, first, last, present in conn.execute(
            "SELECT field, pair, first_round, last_round, present FROM presence WHERE section = ? ORDER BY action",
            (section,)):
        spans.setdefault((str(field), int(pair)), []).append((int(first), int(last), bool(present)))
    closed: dict[int, int] = {}
    for table, first in conn.execute("SELECT table_no, min(first_round) FROM table_closure WHERE section = ?"
                                     " GROUP BY table_no", (section,)):
        closed[int(table)] = int(first)

    def absent(pair: PairRef, round_: int) -> bool:
        verdict = False
        for first, last, present in spans.get(pair, ()):
            if first <= round_ <= last:
                verdict = not present
        return verdict

    ns_field, ew_field = _fields(conn, section)
    rows = []
    for table, round_, ns, ew in conn.execute("SELECT table_no, round, ns_pair, ew_pair FROM encounter"
                                              " WHERE section = ?", (section,)).fetchall():
        shut = table in closed and round_ >= closed[table]
        ns_out = shut or absent((ns_field, int(ns)), round_)
        ew_out = shut or absent((ew_field, int(ew)), round_)
        if ns_out or ew_out:
            rows.append((section, table, round_, int(ns_out), int(ew_out)))
    conn.execute("DELETE FROM sit_out WHERE section = ?", (section,))
    conn.executemany("INSERT INTO sit_out (section, table_no, round, ns_out, ew_out) VALUES (?, ?, ?, ?, ?)", rows)


def _fields(conn: sqlite3.Connection, section: str) -> tuple[str, str]:
    """The fields of a section's NS and EW seats: ("NS", "EW") in a Mitchell, ("", "") where pairs change direction."""
    return ("", "") if one_field(conn, section) else ("NS", "EW")


def _columns(field: str) -> tuple[str, ...]:
    return {"NS": ("ns_pair",), "EW": ("ew_pair",)}.get(field, ("ns_pair", "ew_pair"))


def _section(conn: sqlite3.Connection, section: str | None) -> tuple[str, int]:
    """The section named (the only one when None) and its number of rounds."""
    name = chosen_section(conn, section)
    return name, int(conn.execute("SELECT rounds FROM section WHERE name = ?", (name,)).fetchone()[0])


def _check_rounds(first: int, last: int, rounds: int) -> None:
    if not 1 <= first <= rounds:
        raise EntryError(f"the section has rounds 1 to {rounds}, not {first}")
    if not first <= last <= rounds:
        raise EntryError(f"the last round must be {first} to {rounds}, not {last}")


def _check_pair(conn: sqlite3.Connection, section: str, pair: PairRef) -> None:
    field, number = pair
    fields = _fields(conn, section)
    if field not in fields:
        raise EntryError(f"name the pair as section {section}'s movement does: NS {number} or EW {number}"
                         if fields == ("NS", "EW") else f"pairs in section {section} change direction: say {number}")
    if not any(conn.execute(f"SELECT 1 FROM encounter WHERE section = ? AND {column} = ? LIMIT 1",
                            (section, number)).fetchone() for column in _columns(field)):
        raise EntryError(f"there is no pair {pair_text(pair)} in section {section}")


def _rounds(first: int, last: int, rounds: int) -> str:
    if first == last:
        return f"in round {first}"
    return f"from round {first}" if last == rounds else f"in rounds {first}-{last}"
