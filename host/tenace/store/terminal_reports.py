"""The terminals' status in the event file (field tools): each one's latest STATUS, when last heard, radio surveys."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tenace.store.clock import timestamp
from tenace.store.db import transaction


@dataclass(frozen=True)
class StatusReport:
    """A terminal's STATUS as the store keeps it: None where the terminal could not tell."""

    terminal: int
    firmware: str
    battery_mv: int | None
    battery: int
    rssi: int | None
    sent: int
    retried: int
    factory: str  # 'not run', 'passed' or 'failed'
    checks: tuple[str, ...]  # the factory checks that passed


@dataclass(frozen=True)
class InventoryRow:
    """One terminal of `tenace terminals`: where it sits, when it was last heard, its latest status if any."""

    terminal: int
    section: str | None
    table: int | None
    last_heard: str | None
    status: StatusReport | None
    received: str | None  # when the status came


@dataclass(frozen=True)
class SurveyLine:
    """One terminal's round trips in a survey."""

    terminal: int
    section: str
    table: int
    pings: int
    answered: int
    rtt_min: int | None
    rtt_median: int | None
    rtt_max: int | None


@dataclass(frozen=True)
class Survey:
    id: int
    asked: str
    seconds: int
    interval_ms: int
    started: str | None
    finished: str | None


def keep_status(conn: sqlite3.Connection, report: StatusReport) -> None:
    """Store a terminal's status as its latest, committed."""
    r = report
    with transaction(conn):
        conn.execute(
            "INSERT INTO terminal_status (terminal, received, firmware, battery_mv, battery, rssi, sent, retried,"
            " factory, checks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (terminal) DO UPDATE SET"
            " received = excluded.received, firmware = excluded.firmware, battery_mv = excluded.battery_mv,"
            " battery = excluded.battery, rssi = excluded.rssi, sent = excluded.sent, retried = excluded.retried,"
            " factory = excluded.factory, checks = excluded.checks",
            (r.terminal, timestamp(), r.firmware, r.battery_mv, r.battery, r.rssi, r.sent, r.retried, r.factory,
             " ".join(r.checks)))


def heard_terminals(conn: sqlite3.Connection, terminals: dict[int, str]) -> None:
    """Mark terminals heard at the given times (terminal -> timestamp), committed: for `tenace terminals`."""
    if not terminals:
        return
    with transaction(conn):
        conn.executemany("UPDATE terminal SET last_heard = max(coalesce(last_heard, ''), ?) WHERE id = ?",
                         [(at, t) for t, at in terminals.items()])


def inventory(conn: sqlite3.Connection) -> list[InventoryRow]:
    """Every terminal seated or heard from with a status, by section, table and id."""
    rows = conn.execute(
        "SELECT ids.id, t.section, t.table_no, t.last_heard, s.received, s.firmware, s.battery_mv, s.battery, s.rssi,"
        " s.sent, s.retried, s.factory, s.checks"
        " FROM (SELECT id FROM terminal UNION SELECT terminal FROM terminal_status) AS ids"
        " LEFT JOIN terminal t ON t.id = ids.id LEFT JOIN terminal_status s ON s.terminal = ids.id"
        " ORDER BY t.section IS NULL, t.section, t.table_no, ids.id").fetchall()
    out = []
    for (terminal, section, table, heard, received, firmware, mv, battery, rssi, sent, retried, factory,
         checks) in rows:
        status = None
        if received is not None:
            status = StatusReport(terminal, firmware, mv, battery, rssi, sent, retried, factory,
                                  tuple(str(checks).split()))
        last = max([x for x in (heard, received) if x is not None], default=None)
        out.append(InventoryRow(int(terminal), section, table, last, status, received))
    return out


def hold_plans(conn: sqlite3.Connection, terminal: int, movement: int) -> None:
    """Record, committed, that `terminal` holds every round plan of the movement as of change `movement` (0: none)."""
    with transaction(conn):
        conn.execute("INSERT OR REPLACE INTO terminal_plans (terminal, movement, at) VALUES (?, ?, ?)",
                     (terminal, movement, timestamp()))


def plans_held(conn: sqlite3.Connection) -> dict[int, int]:
    """Terminal -> the movement change (0: none) whose round plans it holds, as far as the collector has seen."""
    return {int(t): int(m) for t, m in conn.execute("SELECT terminal, movement FROM terminal_plans")}


def ask_survey(conn: sqlite3.Connection, seconds: int, interval_ms: int) -> int:
    """Record a survey request for the running collector, committed; its id."""
    with transaction(conn):
        cursor = conn.execute("INSERT INTO survey (asked, seconds, interval_ms) VALUES (?, ?, ?)",
                              (timestamp(), seconds, interval_ms))
    return int(cursor.lastrowid or 0)


def pending_survey(conn: sqlite3.Connection, after: int) -> Survey | None:
    """The oldest survey above id `after` not yet started, for the collector to run."""
    row = conn.execute("SELECT id, asked, seconds, interval_ms, started, finished FROM survey"
                       " WHERE id > ? AND started IS NULL ORDER BY id LIMIT 1", (after,)).fetchone()
    return Survey(*row) if row else None


def survey(conn: sqlite3.Connection, survey_id: int) -> Survey | None:
    row = conn.execute("SELECT id, asked, seconds, interval_ms, started, finished FROM survey WHERE id = ?",
                       (survey_id,)).fetchone()
    return Survey(*row) if row else None


def start_survey(conn: sqlite3.Connection, survey_id: int) -> None:
    with transaction(conn):
        conn.execute("UPDATE survey SET started = ? WHERE id = ?", (timestamp(), survey_id))


def finish_survey(conn: sqlite3.Connection, survey_id: int, lines: list[SurveyLine]) -> None:
    """Store a survey's figures and mark it finished, in one transaction."""
    with transaction(conn):
        conn.executemany(
            "INSERT OR REPLACE INTO survey_result (survey, terminal, section, table_no, pings, answered, rtt_min,"
            " rtt_median, rtt_max) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(survey_id, x.terminal, x.section, x.table, x.pings, x.answered, x.rtt_min, x.rtt_median, x.rtt_max)
             for x in lines])
        conn.execute("UPDATE survey SET finished = ? WHERE id = ?", (timestamp(), survey_id))


def survey_lines(conn: sqlite3.Connection, survey_id: int) -> list[SurveyLine]:
    rows = conn.execute("SELECT terminal, section, table_no, pings, answered, rtt_min, rtt_median, rtt_max"
                        " FROM survey_result WHERE survey = ? ORDER BY section, table_no, terminal",
                        (survey_id,)).fetchall()
    return [SurveyLine(*row) for row in rows]


def last_survey_id(conn: sqlite3.Connection) -> int:
    """The highest survey id in the file (0: none): a collector starting up leaves older requests alone."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM survey").fetchone()[0])
