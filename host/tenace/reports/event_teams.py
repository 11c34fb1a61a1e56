"""A teams section's results from the event file: each match's boards in both rooms, IMPs and VPs by the team scoring
engine (tenace.scoring.teams), and the teams' standings over the event's matches."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tenace.movement.model import team_of
from tenace.movement.swiss import Match as SwissMatch
from tenace.reports.json import to_document
from tenace.reports.model import Board as ReportBoard
from tenace.reports.model import Report, Room, RoomsResult, TeamMatch
from tenace.reports.rescore import imps
from tenace.scoring.imp_pairs_session import weighted_imps
from tenace.scoring.imp_results import Award
from tenace.scoring.model import Artificial, Average, Outcome, Played, Weighted
from tenace.scoring.teams import ArtificialBoard, RoomScores, TeamBoard, TeamMatchOptions, score_team_match
from tenace.store.encounters import section_rounds
from tenace.store.names import names_of, pair_players, roster
from tenace.store.queries import current_results
from tenace.store.scoring_input import outcome
from tenace.store.versions import Version


@dataclass(frozen=True)
class MatchResult:
    """One match of a teams section: the home team sits North-South in the open room (its first table)."""

    section: str
    home: int
    away: int
    report: Report  # method "teams": the boards with both rooms and the IMPs, the totals and the VPs
    expected: int  # the boards the movement has the two teams play
    compared: int  # the boards scored: both rooms in (or the director's score)
    open_table: int
    closed_table: int
    # Every board of the match with the result standing in its open and closed room (None: not in yet).
    rooms: tuple[tuple[int, Version | None, Version | None], ...] = ()

    @property
    def complete(self) -> bool:
        return self.compared == self.expected


@dataclass(frozen=True)
class TeamStanding:
    place: str  # "1", or "2=" for a shared place
    team: int
    name: str
    matches: int
    imps_for: Decimal
    imps_against: Decimal
    vps: Decimal
    byes: int = 0  # Swiss rounds it sat out, their VPs in `vps`


@dataclass(frozen=True)
class _Room:
    table: int
    round: int


def seat_names(conn: sqlite3.Connection, section: str) -> dict[int, str]:
    """Each pair's players by pair number where the event knows them: "Ann Archer - Bob Baker"."""
    members = roster(conn)
    return {pair: names_of(numbers, members) for (pair, _), numbers in pair_players(conn, section).items()}


def team_name(team: int, names: dict[int, str]) -> str:
    return names.get(team, f"Team {team}")


def section_matches(conn: sqlite3.Connection, section: str, names: dict[int, str], title: str) -> list[MatchResult]:
    """Every match the section's movement plays (two teams meeting at two tables on the same boards), scored from the
    results that count now. A board is scored once both rooms have a result; until then it is listed in a note."""
    rooms: dict[frozenset[int], dict[int, dict[bool, _Room]]] = {}
    home_of: dict[frozenset[int], tuple[int, int]] = {}  # the match's home team, and its open-room table
    for round_, table, ns, ew, boards in section_rounds(conn, section):
        key = frozenset((team_of(ns), team_of(ew)))
        if len(key) != 2:
            continue  # a team against itself: not a match (a movement check refuses it)
        home_of.setdefault(key, (team_of(ns), table))
        is_open = team_of(ns) == home_of[key][0]
        for board in map(int, boards.split()):
            rooms.setdefault(key, {}).setdefault(board, {})[is_open] = _Room(table, round_)
    versions = {(v.table, v.round, v.board): v for v in current_results(conn, section)}
    matches = []
    for key, by_board in rooms.items():
        home = home_of[key][0]
        away = next(t for t in key if t != home)
        closed_tables = {r[False].table for r in by_board.values() if False in r}
        matches.append(_match(section, home, away, by_board, versions, names, title, home_of[key][1],
                              min(closed_tables, default=0)))
    return matches


def _match(section: str, home: int, away: int, by_board: dict[int, dict[bool, _Room]],
           versions: dict[tuple[int, int, int], Version], names: dict[int, str], title: str, open_table: int,
           closed_table: int) -> MatchResult:
    scored: list[TeamBoard] = []
    shown: dict[int, tuple[Room, Room]] = {}
    notes: list[str] = []
    waiting: list[str] = []
    stood: list[tuple[int, Version | None, Version | None]] = []
    for board, where in sorted(by_board.items()):
        if True not in where or False not in where:
            notes.append(f"board {board}: the movement plays it in one room only; it is not compared")
            continue
        open_v, closed_v = (versions.get((r.table, r.round, board)) for r in (where[True], where[False]))
        stood.append((board, open_v, closed_v))
        if open_v is None or closed_v is None:
            missing = " and ".join(name for name, v in (("open", open_v), ("closed", closed_v)) if v is None)
            waiting.append(f"{board} ({missing})")
            continue
        try:
            team_board = _board(board, outcome(open_v), outcome(closed_v))
        except (ValueError, _NotCompared) as e:
            notes.append(f"board {board}: {e}; it is not compared")
            continue
        if isinstance(team_board, ArtificialBoard):
            notes.append(f"board {board}: the director's score (open room {open_v.describe()}, closed room "
                         f"{closed_v.describe()}): {_imps_text(team_board.home_imps)} IMPs to {team_name(home, names)},"
                         f" {_imps_text(team_board.away_imps)} to {team_name(away, names)}")
        scored.append(team_board)
        shown[board] = (_room(open_v), _room(closed_v))
    if waiting:
        notes.insert(0, f"not in yet: board{'s' if len(waiting) > 1 else ''} {', '.join(waiting)}")
    expected = len(by_board)
    match = score_team_match(scored, TeamMatchOptions(vp_boards=expected))
    boards = tuple(ReportBoard(b.board, rooms=RoomsResult(open=shown[b.board][0], closed=shown[b.board][1],
                                                          difference=b.difference, imp_home=imps(b.home),
                                                          imp_away=imps(b.away)))
                   for b in match.boards)
    home_name, away_name = team_name(home, names), team_name(away, names)
    state = (f"all {expected} boards in" if len(scored) == expected else
             f"{len(scored)} of {expected} boards in: provisional, VPs on the scale for {expected} boards")
    totals = TeamMatch(home=home_name, away=away_name, boards=len(scored), carry_over=imps(0),
                       imps_home=imps(match.home_imps), imps_away=imps(match.away_imps),
                       vp_home=match.vp.home if match.vp else None, vp_away=match.vp.away if match.vp else None)
    report = Report("teams", title=f"{title}\nMatch: {home} {home_name} v {away} {away_name} ({state})",
                    settings={"section": section}, boards=boards, match=totals, notes=tuple(notes))
    return MatchResult(section, home, away, report, expected, len(scored), open_table, closed_table, tuple(stood))


class _NotCompared(ValueError):
    """A board whose two rooms' results cannot be turned into IMPs (yet)."""


def _award(side: Average | Fraction) -> int:
    """Law 12C2(b) in a team match: average-plus is +3 IMPs, average 0, average-minus -3."""
    if not isinstance(side, Average):
        raise _NotCompared(f"a percentage ({side}%) is an artificial score of pairs, not of a team match "
                           "(give A+, A or A- there)")
    return Award(side.value).imps


def _board(board: int, open_room: Outcome, closed_room: Outcome) -> TeamBoard:
    """The board as the team engine takes it: both rooms' scores, or the IMPs the director's score gives."""
    if isinstance(open_room, Played) and isinstance(closed_room, Played):
        return RoomScores(board, open_room.ns_score, closed_room.ns_score)
    if isinstance(open_room, Artificial) or isinstance(closed_room, Artificial):
        # The home team is NS in the open room and EW in the closed one; each room's award goes to its side.
        home = away = Fraction(0)
        if isinstance(open_room, Artificial):
            home, away = home + _award(open_room.ns), away + _award(open_room.ew)
        if isinstance(closed_room, Artificial):
            home, away = home + _award(closed_room.ew), away + _award(closed_room.ns)
        return ArtificialBoard(board, home, away)
    if isinstance(open_room, Weighted) and isinstance(closed_room, Played):
        net = weighted_imps(open_room, closed_room.ns_score)
        return ArtificialBoard(board, max(net, Fraction(0)), max(-net, Fraction(0)))
    if isinstance(closed_room, Weighted) and isinstance(open_room, Played):
        net = -weighted_imps(closed_room, open_room.ns_score)  # the closed room's NS is the away team
        return ArtificialBoard(board, max(net, Fraction(0)), max(-net, Fraction(0)))
    raise _NotCompared(f"the rooms hold {_what(open_room)} and {_what(closed_room)}, which give no IMPs together")


def _what(o: Outcome) -> str:
    return {"NotPlayed": "a board not played", "Split": "a split score", "Weighted": "a weighted score"}.get(
        type(o).__name__, type(o).__name__.lower())


def _imps_text(value: Fraction | int) -> str:
    return f"{imps(value):+}"


def _room(v: Version) -> Room:
    """A room's result as the team report shows it (and the PBN export writes it)."""
    if v.kind == "normal":
        return Room(contract=v.contract or "", declarer=v.declarer or "", tricks=str(v.tricks),
                    ns_score=v.ns_score or 0)
    if v.kind == "passed_out":
        return Room(contract="Pass", declarer="", tricks="", ns_score=0)
    if v.kind == "artificial":
        return Room(contract=f"{v.ns_adjust}/{v.ew_adjust}", declarer="", tricks="", ns_score=0)
    return Room(contract="TD", declarer="", tricks="", ns_score=v.ns_score or 0)


def standings(matches: list[MatchResult], names: dict[int, str], teams: set[int],
              byes: Mapping[str, tuple[int, Decimal]] | None = None) -> list[TeamStanding]:
    """Every team by VPs over its matches (a match counts once a board of it is scored); teams level on VPs share a
    place and are listed by team number, their seeding, as a Swiss pairs them (tenace.movement.swiss.standings)."""
    vps: dict[int, Decimal] = defaultdict(Decimal)
    won: dict[int, Decimal] = defaultdict(Decimal)
    lost: dict[int, Decimal] = defaultdict(Decimal)
    played: dict[int, int] = defaultdict(int)
    rested: dict[int, int] = defaultdict(int)
    for team, given in (byes or {}).values():
        vps[team] += given
        rested[team] += 1
    for m in matches:
        totals = m.report.match
        if totals is None or m.compared == 0:
            continue
        for team, own, other, vp in ((m.home, totals.imps_home, totals.imps_away, totals.vp_home),
                                     (m.away, totals.imps_away, totals.imps_home, totals.vp_away)):
            played[team] += 1
            won[team] += own
            lost[team] += other
            vps[team] += vp or Decimal(0)
    order = sorted(teams, key=lambda t: (-vps[t], t))
    out: list[TeamStanding] = []
    for i, t in enumerate(order):
        level = bool(out) and vps[t] == out[-1].vps
        place = out[-1].place.rstrip("=") if level else str(i + 1)
        if level:
            out[-1] = _shared(out[-1])
        out.append(TeamStanding(place + ("=" if level else ""), t, team_name(t, names), played[t], won[t], lost[t],
                                vps[t], rested[t]))
    return out


def _shared(s: TeamStanding) -> TeamStanding:
    return s if s.place.endswith("=") else replace(s, place=s.place + "=")


def swiss_played(sections: list[tuple[str, list[MatchResult]]],
                 byes: Mapping[str, tuple[int, Decimal]]) -> list[SwissMatch]:
    """The rounds of a Swiss played so far (one teams section a round, in order: its name and matches) and their
    byes in the pairing's terms; ValueError naming the first match not complete: a round is paired from whole
    results only."""
    played = []
    for number, (section, matches) in enumerate(sections, 1):
        if section in byes:
            team, vps = byes[section]
            played.append(SwissMatch(number, team, None, vps, Decimal(0)))
        for m in matches:
            if not m.complete:
                raise ValueError(f"round {number} (section {m.section}): the match {m.home} v {m.away} has "
                                 f"{m.compared} of its {m.expected} boards in; the next round is paired once every "
                                 "match is complete")
            totals = m.report.match
            assert totals is not None and totals.vp_home is not None and totals.vp_away is not None
            played.append(SwissMatch(number, m.home, m.away, totals.vp_home, totals.vp_away))
    return played


def standings_text(table: list[TeamStanding]) -> str:
    width = max([len(f"{s.team} {s.name}") for s in table] + [4])
    rested = any(s.byes for s in table)
    lines = ["Standings", f"  {'Place':>5}  {'Team':<{width}}  Matches  IMPs for  against      VPs"
             + ("  Byes" if rested else "")]
    for s in table:
        lines.append(f"  {s.place:>5}  {f'{s.team} {s.name}':<{width}}  {s.matches:>7}  {s.imps_for:>8.2f}  "
                     f"{s.imps_against:>7.2f}  {s.vps:>7.2f}" + (f"  {s.byes:>4}" if rested else ""))
    return "\n".join(lines)


def match_document(m: MatchResult) -> dict[str, Any]:
    """A match as JSON: the teams by number, the tables, how far it is, and its report as `tenace score` writes one."""
    return {"section": m.section, "home": m.home, "away": m.away, "open_table": m.open_table,
            "closed_table": m.closed_table, "boards_expected": m.expected, "boards_compared": m.compared,
            "complete": m.complete, "report": to_document(m.report)}


def standings_document(table: list[TeamStanding]) -> list[dict[str, Any]]:
    return [{"place": s.place, "team": s.team, "name": s.name, "matches": s.matches, "byes": s.byes,
             "imps_for": float(s.imps_for), "imps_against": float(s.imps_against), "vps": float(s.vps)} for s in table]
