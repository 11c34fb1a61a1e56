"""The teams of an event: each team's number and name, and its two pairs' players (pair_players), as the director
sets them; team t's pairs are 2t - 1 (NS when at home) and 2t in every teams section (tenace.movement.teams)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from tenace.movement.model import team_of
from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.errors import EntryError
from tenace.store.names import MAX_NUMBER, put_pair_players

MAX_TEAM = 499  # pairs 997 and 998: the store numbers pairs up to 999


@dataclass(frozen=True)
class Team:
    """A team as the director names it; its players, when given, are its first pair's two then its second's."""

    number: int
    name: str
    players: tuple[int, int, int, int] | None = None


def teams_sections(conn: sqlite3.Connection) -> list[str]:
    return [str(r[0]) for r in conn.execute("SELECT name FROM section WHERE kind = 'teams' ORDER BY name")]


def teams_in_play(conn: sqlite3.Connection) -> set[int]:
    """The team numbers whose pairs sit somewhere in a teams section, or that had a Swiss round's bye."""
    pairs = conn.execute("SELECT e.ns_pair FROM encounter e JOIN section s ON s.name = e.section WHERE s.kind = 'teams'"
                         " UNION SELECT e.ew_pair FROM encounter e JOIN section s ON s.name = e.section"
                         " WHERE s.kind = 'teams'").fetchall()
    return {team_of(int(p)) for (p,) in pairs} | {int(t) for (t,) in conn.execute("SELECT team FROM swiss_bye")}


def keep_teams(conn: sqlite3.Connection, teams: Sequence[Team], *, who: str, bye: int | None = None) -> None:
    """Name the teams (and set their pairs' players in every teams section), in one transaction; EntryError for a
    team the event's teams sections do not seat (but `bye`, a Swiss's first round's), a name or players that cannot
    be kept."""
    sections = teams_sections(conn)
    if not sections:
        raise EntryError("the event has no teams section (tenace event new --movement teams): its pairs are not teams")
    seated = teams_in_play(conn) | ({bye} if bye is not None else set())
    for t in teams:
        if t.number not in seated:
            shown = ", ".join(map(str, sorted(seated)))
            raise EntryError(f"team {t.number}: the event has no such team (its teams are {shown})")
        if not 1 <= len(t.name) <= 80 or not t.name.isprintable():
            raise EntryError(f"team {t.number}: a team's name is printable text of 1 to 80 characters")
        if t.players is not None:
            if any(not 1 <= n <= MAX_NUMBER for n in t.players):
                raise EntryError(f"team {t.number}: a player number is 1 to {MAX_NUMBER}")
            if len(set(t.players)) != 4:
                raise EntryError(f"team {t.number}: its four players must be four different numbers, not "
                                 f"{' '.join(map(str, t.players))}")
    at = timestamp()
    with transaction(conn):
        for t in teams:
            conn.execute("INSERT INTO team (number, name, who, at) VALUES (?, ?, ?, ?) ON CONFLICT (number) DO UPDATE"
                         " SET name = excluded.name, who = excluded.who, at = excluded.at", (t.number, t.name, who, at))
            if t.players is None:
                continue
            for section in sections:
                for pair, first, second in ((2 * t.number - 1, *t.players[:2]), (2 * t.number, *t.players[2:])):
                    put_pair_players(conn, section, pair, "", (first, second), who, at)


def record_bye(conn: sqlite3.Connection, section: str, team: int, vps: Decimal) -> None:
    """A Swiss round's bye: the team (named already) that sits the round out and its VPs; committed."""
    with transaction(conn):
        conn.execute("INSERT INTO swiss_bye (section, team, vps) VALUES (?, ?, ?)", (section, team, f"{vps:.2f}"))


def byes(conn: sqlite3.Connection) -> dict[str, tuple[int, Decimal]]:
    """Each Swiss round's bye by section: the team and its VPs."""
    return {str(s): (int(t), Decimal(v)) for s, t, v in conn.execute("SELECT section, team, vps FROM swiss_bye")}


def team_names(conn: sqlite3.Connection) -> dict[int, str]:
    """Each named team's name by number."""
    return {int(n): str(name) for n, name in conn.execute("SELECT number, name FROM team")}
