"""Who the pairs are: the club's roster (number, name, club id) and each pair's two players, set by the director
or keyed at the tables (player numbers, tenace.store.link)."""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.errors import EntryError
from tenace.store.fields import one_field

MAX_NUMBER = 999_999


@dataclass(frozen=True)
class Member:
    number: int
    name: str
    club_id: str | None = None
    # From the roster CSV (tenace.roster), for strata and handicaps (tenace.reports.strata); kept in the event file
    # as imported (roster_figures), so that they stay what they were when the session was played.
    masterpoints: Decimal | None = None
    handicap: Decimal | None = None
    email: str | None = None  # from the roster CSV only, for tenace report --email; not kept in the event file


def plain(text: str) -> bool:
    """Whether `text` fits on one line of every report: no control character (Cc), no line or paragraph break."""
    return not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text)


def keep_roster(conn: sqlite3.Connection, members: Iterable[Member]) -> int:
    """Add or update members by number (names and club ids in Unicode NFC), in one transaction; how many were
    kept."""
    rows = [(m.number, unicodedata.normalize("NFC", m.name),
             None if m.club_id is None else unicodedata.normalize("NFC", m.club_id)) for m in members]
    for number, name, club_id in rows:
        if not 1 <= number <= MAX_NUMBER:
            raise EntryError(f"a player number is 1 to {MAX_NUMBER}, not {number}")
        if not plain(name) or (club_id is not None and not plain(club_id)):
            raise EntryError(f"player {number}: a name or club id holds a line break or a control character")
        if not 1 <= len(name) <= 80:
            raise EntryError(f"player {number}: a name is 1 to 80 characters")
        if club_id is not None and not 1 <= len(club_id) <= 40:
            raise EntryError(f"player {number}: a club id is 1 to 40 characters")
    figures = [(m.number, _written(m.masterpoints), _written(m.handicap)) for m in members]
    for number, *given in figures:
        if any(f is not None and len(f) > 24 for f in given):
            raise EntryError(f"player {number}: masterpoints and handicaps are at most 24 characters written out")
    with transaction(conn):
        conn.executemany("INSERT INTO roster (number, name, club_id) VALUES (?, ?, ?) ON CONFLICT (number)"
                         " DO UPDATE SET name = excluded.name, club_id = excluded.club_id", rows)
        # The figures as this roster gives them: a member without any has none kept (an earlier import's go).
        conn.executemany("INSERT INTO roster_figures (number, masterpoints, handicap) VALUES (?, ?, ?)"
                         " ON CONFLICT (number) DO UPDATE SET masterpoints = excluded.masterpoints,"
                         " handicap = excluded.handicap", [f for f in figures if f[1] is not None or f[2] is not None])
        conn.executemany("DELETE FROM roster_figures WHERE number = ?",
                         [(f[0],) for f in figures if f[1] is None and f[2] is None])
    return len(rows)


def _written(value: Decimal | None) -> str | None:
    """A figure as kept: the decimal written out ("1234.5", not "1.2345E+3")."""
    return None if value is None else format(value, "f")


def names_of(numbers: Iterable[int], members: Mapping[int, Member]) -> str:
    """A pair's players as shown beside it: "Ann Archer - Bob Baker", a number not in the roster as #117."""
    return " - ".join(members[n].name if n in members else f"#{n}" for n in numbers)


def roster(conn: sqlite3.Connection) -> dict[int, Member]:
    """The members kept, with their masterpoints and handicaps when the roster imported gave them."""
    return {int(r[0]): Member(int(r[0]), str(r[1]), r[2], None if r[3] is None else Decimal(r[3]),
                              None if r[4] is None else Decimal(r[4])) for r in
            conn.execute("SELECT r.number, r.name, r.club_id, f.masterpoints, f.handicap FROM roster r"
                         " LEFT JOIN roster_figures f ON f.number = r.number")}


def set_pair_players(conn: sqlite3.Connection, section: str, pair: int, direction: str, players: tuple[int, int],
                     *, who: str) -> None:
    """The director names a pair's two players (direction '' for a Howell pair); committed."""
    set_pairs_players(conn, [(section, pair, direction, players)], who=who)


def set_pairs_players(conn: sqlite3.Connection, pairs: Iterable[tuple[str, int, str, tuple[int, int]]], *,
                      who: str) -> None:
    """The director names several pairs' players, (section, pair, direction, players) each, all or none; committed."""
    at = timestamp()
    with transaction(conn):
        for section, pair, direction, players in pairs:
            _check_pair(conn, section, pair, direction, players)
            put_pair_players(conn, section, pair, direction, players, who, at)


def _check_pair(conn: sqlite3.Connection, section: str, pair: int, direction: str, players: tuple[int, int]) -> None:
    seats = {"NS": "ns_pair = ?1", "EW": "ew_pair = ?1", "": "(ns_pair = ?1 OR ew_pair = ?1)"}
    if direction not in seats:
        raise EntryError(f"a pair's direction is NS, EW or none (a Howell), not {direction!r}")
    if conn.execute(f"SELECT 1 FROM encounter WHERE section = ?2 AND {seats[direction]} LIMIT 1",
                    (pair, section)).fetchone() is None:
        label = f"{direction} {pair}".strip()
        raise EntryError(f"section {section} has no pair {label}")
    # A Howell's pair 7 sits both ways; a Mitchell's "7" could be NS 7 or EW 7.
    single = one_field(conn, section)
    if single and direction:
        teams = conn.execute("SELECT 1 FROM section WHERE name = ? AND kind = 'teams'", (section,)).fetchone()
        raise EntryError(f"section {section} is {'a team match' if teams else 'a Howell'}: its pairs have no "
                         f"direction, name it {pair}")
    if not single and not direction:
        raise EntryError(f"section {section} is a Mitchell: say NS {pair} or EW {pair}")
    if any(not 1 <= n <= MAX_NUMBER for n in players) or players[0] == players[1]:
        raise EntryError(f"a pair is two different players, numbered 1 to {MAX_NUMBER}, not {players}")


def put_pair_players(conn: sqlite3.Connection, section: str, pair: int, direction: str, players: tuple[int, int],
                     who: str, at: str) -> None:
    """The pair's two players, replacing any named before; in the caller's transaction."""
    conn.execute("INSERT INTO pair_players (section, pair, direction, first, second, who, at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (section, pair, direction) DO UPDATE SET"
                 " first = excluded.first, second = excluded.second, who = excluded.who, at = excluded.at",
                 (section, pair, direction, players[0], players[1], who, at))


def set_individual_player(conn: sqlite3.Connection, section: str, player: int, member: int, *, who: str) -> None:
    """The director says who an individual's player is (a member number); committed."""
    seats = conn.execute("SELECT count(*), max(max(first_player, second_player)) FROM partnership WHERE section = ?",
                         (section,)).fetchone()
    if not seats[0]:
        raise EntryError(f"section {section} is not an individual: name its pairs' players with --pair")
    if not 1 <= player <= seats[1]:
        raise EntryError(f"section {section} has players 1 to {seats[1]}, not {player}")
    if not 1 <= member <= MAX_NUMBER:
        raise EntryError(f"a member number is 1 to {MAX_NUMBER}, not {member}")
    with transaction(conn):
        conn.execute("INSERT INTO individual_player (section, player, member, who, at) VALUES (?, ?, ?, ?, ?)"
                     " ON CONFLICT (section, player) DO UPDATE SET member = excluded.member, who = excluded.who,"
                     " at = excluded.at", (section, player, member, who, timestamp()))


def individual_members(conn: sqlite3.Connection, section: str) -> dict[int, int]:
    """An individual's player -> member number: the director's, else the first keyed at a table they sat at (the
    seat's number of a PLAYERS message, read through the round's partnerships)."""
    out: dict[int, int] = {}
    keyed = conn.execute(
        "SELECT n.first_player, n.second_player, w.first_player, w.second_player, p.north, p.south, p.east, p.west"
        " FROM encounter e JOIN players p ON p.section = e.section AND p.table_no = e.table_no AND p.round = e.round"
        " JOIN partnership n ON n.section = e.section AND n.number = e.ns_pair"
        " JOIN partnership w ON w.section = e.section AND w.number = e.ew_pair"
        " WHERE e.section = ? ORDER BY e.round, p.id", (section,)).fetchall()
    for north, south, east, west, *members in keyed:
        for player, member in zip((north, south, east, west), members, strict=True):
            if member:
                out.setdefault(int(player), int(member))
    for player, member in conn.execute("SELECT player, member FROM individual_player WHERE section = ?", (section,)):
        out[int(player)] = int(member)
    return out


def section_pairs(conn: sqlite3.Connection, section: str) -> list[tuple[int, str]]:
    """The pairs a section seats, (pair, 'NS'/'EW', or '' in a Howell), in the order a list of them is written: a
    Mitchell's NS pairs then its EW pairs, a Howell's by number."""
    rows = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = ?", (section,)).fetchall()
    if one_field(conn, section):
        return [(n, "") for n in sorted({int(p) for row in rows for p in row})]
    return ([(n, "NS") for n in sorted({int(r[0]) for r in rows})]
            + [(n, "EW") for n in sorted({int(r[1]) for r in rows})])


def pair_players(conn: sqlite3.Connection, section: str) -> dict[tuple[int, str], tuple[int, int]]:
    """(pair, 'NS'/'EW', or '' in a Howell) -> its two players' numbers: the director's, else the first keyed at a
    table it sat at.

    Numbers keyed as 0 (players who did not key theirs) say nothing and are passed over.
    """
    out: dict[tuple[int, str], tuple[int, int]] = {}
    ns_field, ew_field = ("", "") if one_field(conn, section) else ("NS", "EW")
    keyed = conn.execute(
        "SELECT e.ns_pair, e.ew_pair, p.north, p.south, p.east, p.west FROM encounter e JOIN players p"
        " ON p.section = e.section AND p.table_no = e.table_no AND p.round = e.round"
        " WHERE e.section = ? ORDER BY e.round, p.id", (section,)).fetchall()
    for ns, ew, north, south, east, west in keyed:
        for key, first, second in (((ns, ns_field), north, south), ((ew, ew_field), east, west)):
            if key not in out and first and second:
                out[key] = (first, second)
    for pair, direction, first, second in conn.execute(
            "SELECT pair, direction, first, second FROM pair_players WHERE section = ?", (section,)):
        out[(int(pair), str(direction))] = (int(first), int(second))
    return out


def players_in_two_pairs(conn: sqlite3.Connection, section: str) -> dict[int, list[tuple[int, str]]]:
    """Each player the section's pairs name more than once -> those pairs ((pair, 'NS'/'EW' or ''), in order): a
    player plays in one pair, so one of them is a slip of the director's or of a table's keying."""
    seen: dict[int, list[tuple[int, str]]] = {}
    order = {"NS": 0, "EW": 1, "": 2}  # North-South's pairs first, as the rankings list them
    for key, numbers in sorted(pair_players(conn, section).items(), key=lambda kv: (order[kv[0][1]], kv[0][0])):
        for number in dict.fromkeys(numbers):
            seen.setdefault(number, []).append(key)
    return {number: pairs for number, pairs in seen.items() if len(pairs) > 1}
