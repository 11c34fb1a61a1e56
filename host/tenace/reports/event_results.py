"""An event file's results at any moment: per section the engine's ranking and travellers, and how many are in."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from tenace.reports.event_teams import MatchResult, TeamStanding, section_matches, standings
from tenace.reports.model import Board, HandRecord, Pair, Report, Setting, TravellerLine, section_shown
from tenace.reports.session import session_report
from tenace.reports.store_results import StorePairs, section_options, version_line
from tenace.scoring.individual import score_individual_session
from tenace.scoring.model import BoardResult, Penalty
from tenace.scoring.pairs_methods import AnySessionScore, score_session
from tenace.scoring.pairs_session import SessionScore
from tenace.store.director import LogEntry, Publication, director_log, penalties, publication
from tenace.store.encounters import section_boards, slot_count
from tenace.store.event import EventInfo, event_info, partnerships
from tenace.store.hand_records import hand_records
from tenace.store.movement_changes import section_changes
from tenace.store.names import individual_members, names_of, pair_players, roster
from tenace.store.queries import conflicts_in, current_in, damaged_in, states
from tenace.store.scoring_input import board_results, pair_id, pair_penalties
from tenace.store.teams import byes, team_names, teams_in_play
from tenace.store.versions import Version
from tenace_rules.board import dealer, vulnerability

# The event's scoring as the engine's pairs method; total points have no ranking method in the engine yet.
METHODS = {"matchpoints": "mp", "imps": "butler"}


class ResultsError(ValueError):
    """What was asked for is not in the event (a section, a board, a pair) or cannot be ranked: one line for the TD."""


@dataclass(frozen=True)
class SectionResults:
    """One section's report, and how far the session is: results in against the movement's slots, conflicts."""

    section: str
    report: Report
    results_in: int  # results that count now (conflicted and erased slots are not in)
    expected: int  # the movement's slots: every table's every board
    conflicts: int  # slots left out of the scoring until the director decides
    boards: tuple[int, ...]  # the boards the movement plays in the section
    hands: dict[int, HandRecord] = field(default_factory=dict)  # the kept deals (tenace event deals), by board
    matches: tuple[MatchResult, ...] = ()  # a teams section's matches; `report` is then its first match's
    damaged: int = 0  # stored results that fail their check as read back (row_check): never scored
    # Each named pair's players by its label, (roster number, name): a player's page and e-mail (tenace names).
    players: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.results_in == self.expected and not self.conflicts and not self.damaged


@dataclass(frozen=True)
class EventResults:
    info: EventInfo
    sections: tuple[SectionResults, ...]
    published: Publication | None  # when the session was finished, with its correction period (Law 79C)
    standings: tuple[TeamStanding, ...] = ()  # the teams by VPs over every teams section's matches


def event_results(conn: sqlite3.Connection, section: str | None = None) -> EventResults:
    """Every section's travellers and ranking (or one section's), scored by the engine from the current results.

    Call inside one read transaction so that every section is seen at the same moment.
    """
    info = event_info(conn)
    names = [s.name for s in info.sections]
    if section is not None and section not in names:
        raise ResultsError(f"there is no section {section!r} in this event (sections: {', '.join(names)})")
    method = METHODS.get(info.scoring)
    if method is None:
        raise ResultsError(f"the event is scored by {info.scoring.replace('_', ' ')}, which tenace results "
                           f"cannot rank yet (matchpoints and IMPs can)")
    published = publication(conn)
    entries = director_log(conn)
    log = {e.result: e for e in entries if e.result is not None}
    moves = [e for e in entries if e.action == "move"]
    sections = tuple(_section(conn, info, name, method, published, log, moves) for name in names
                     if section in (None, name))
    table: tuple[TeamStanding, ...] = ()
    if any(s.kind == "teams" for s in info.sections):
        # The matches of the sections just built, and of those `section` left out (standings read no title).
        known, built = team_names(conn), {s.section: s.matches for s in sections}
        every = [m for s in info.sections if s.kind == "teams"
                 for m in (built[s.name] if s.name in built else section_matches(conn, s.name, known, ""))]
        table = tuple(standings(every, known, teams_in_play(conn), byes(conn)))
    return EventResults(info, sections, published, table)


def _name_pairs(conn: sqlite3.Connection, section: str, named: dict[str, Pair]) -> dict[str, tuple[tuple[int, str],
                                                                                                    ...]]:
    """Each pair with its players' names where the event knows who they are (tenace names; numbers keyed at the
    tables), a number not in the roster as #117; and those players by the pair's label."""
    players = pair_players(conn, section)
    members = roster(conn)
    found: dict[str, tuple[tuple[int, str], ...]] = {}
    for key, pair in named.items():
        number = int(pair.number)
        numbers = players.get((number, pair.direction or "")) or players.get((number, ""))
        if numbers is not None:
            named[key] = replace(pair, names=names_of(numbers, members))
            found[named[key].label] = tuple((n, names_of((n,), members)) for n in numbers)
    return found


def _section(conn: sqlite3.Connection, info: EventInfo, section: str, method: str, published: Publication | None,
             log: dict[int, LogEntry], moves: list[LogEntry]) -> SectionResults:
    kind = next(s.kind for s in info.sections if s.name == section)
    if kind == "teams":
        return _teams_section(conn, info, section, published)
    pairs = StorePairs(len(info.sections))
    results = board_results(conn, section, pair_name=pairs)
    penalised = pair_penalties(conn, section, pair_name=pairs)
    players = _name_pairs(conn, section, pairs.named)
    known = states(conn, section)  # the section's slots, loaded and checked once for what follows
    versions = current_in(known)
    # A director's entry is marked on its traveller line (adjusted, corrected, decided) and explained in a note.
    marks: dict[tuple[int, int, int], str] = {}
    notes: list[str] = []
    public: list[str] = []  # the same notes without the director's own words (the public pages')

    def note(text: str, why: str | None = "", after: str = "") -> None:
        notes.append(f"{text}: {why}{after}" if why else text + after)
        public.append(text + after)
    imported = [v for v in versions if v.imported]
    if imported:  # another program's results: one note for all, no director's mark on each line
        note(f"{len(imported)} results imported from another program's file ({imported[0].why})")
    for v in sorted(versions, key=lambda v: (v.board, v.table)):
        if v.source == "director" and not v.imported:
            entry = log.get(v.id)
            done = _DONE.get(entry.action, "entered") if entry else "entered"
            marks[v.board, v.table, v.round] = f"TD: {done}"
            note(f"board {v.board} table {v.table}: {v.describe()}, {done} by {v.who} at {_clock(v.at)}", v.why,
                 " (after the correction period, forced)" if entry and entry.forced else "")
    for p in penalties(conn, section):
        note(f"Law 90 penalty, {p.text}, by {p.who} at {_clock(p.at)}", p.why)
    changed = section_changes(conn, section)
    for e in moves:  # who sat out where: the boards those pairs did not play are scored on fewer results
        if e.id in changed:
            what = e.detail.removeprefix(f"section {section} ")
            note(f"movement changed by {e.who} at {_clock(e.at)}: {what}", e.why)
    expected = slot_count(conn, section)
    conflicted = len(conflicts_in(known))
    title = _title(info, section, len(results), expected, conflicted, published)
    if results:
        try:
            if kind == "individual":
                session: AnySessionScore
                session, revised = _individual(conn, info, section, method, pairs, penalised, results)
                for text in revised:
                    note(text)
            else:
                session = score_session(results, method, section_options(kind != "mitchell"), penalties=penalised)
        except ValueError as e:
            raise ResultsError(str(e)) from None
        report = session_report(session, pairs.named, method, title)
        # What was played, by the slot's round too: a table may play a board in two rounds (a movement change, an
        # import), and each line is its own round's.
        played = {(v.board, v.table, v.round): v for v in versions}
        boards = tuple(replace(b, lines=tuple(_played(b.board, line, played, marks) for line in b.lines))
                       for b in report.boards)
        report = replace(report, boards=boards)
    else:
        report = Report(method, title=title)
    if conflicted:
        note(f"{conflicted} conflicting result{'s' if conflicted > 1 else ''} left out until the director "
             f"decides (tenace problems lists them, tenace resolve settles them)")
    damaged = damaged_notes(damaged_in(known))
    for damage in damaged:
        note(damage)
    settings: dict[str, Setting] = {"section": section, "results_in": len(results), "expected": expected,
                                    "conflicts": conflicted, "scoring": info.scoring,
                                    "ranked": "players" if kind == "individual" else "pairs"}
    report = replace(report, settings=settings, notes=report.notes + tuple(notes),
                     public_notes=report.shown_notes() + tuple(public))
    hands = {board: HandRecord(r.deal) if r.analysis is None else
             HandRecord(r.deal, r.analysis.tricks, r.analysis.par_score, r.analysis.par_contracts)
             for board, r in hand_records(conn, section).items()}
    return SectionResults(section, report, len(results), expected, conflicted, tuple(section_boards(conn, section)),
                          hands, damaged=len(damaged), players=players)


def _individual(conn: sqlite3.Connection, info: EventInfo, section: str, method: str, pairs: StorePairs,
                penalised: Sequence[Penalty], results: Sequence[BoardResult]) -> tuple[SessionScore, list[str]]:
    """An individual section ranked by player: its partnerships (the results' pairs) named by their players, "8+1",
    and each player named by number; and the notes of its players' Law 12C2(c) figures."""
    if method != "mp":
        raise ResultsError(f"an individual is ranked by matchpoints; this event is scored by {info.scoring}")
    if penalised:
        raise ResultsError("a Law 90 penalty in an individual is a player's, which tenace results cannot take yet")
    shown = section_shown(section, len(info.sections))
    members, known = individual_members(conn, section), roster(conn)
    partners: dict[str, tuple[str, str]] = {}
    for number, players in partnerships(conn, section).items():
        partnership = pair_id(section, number, "")
        partners[partnership] = (pair_id(section, players[0], "P"), pair_id(section, players[1], "P"))
        if partnership in pairs.named:
            pairs.named[partnership] = Pair("+".join(map(str, players)), None, shown)
        for player, key in zip(players, partners[partnership], strict=True):
            names = names_of((members[player],), known) if player in members else None
            pairs.named[key] = Pair(str(player), None, shown, names=names)
    session = score_individual_session(results, partners)
    return session, _revised_notes(session, partners, pairs.named)


def _revised_notes(session: SessionScore, partners: Mapping[str, tuple[str, str]],
                   named: Mapping[str, Pair]) -> list[str]:
    """A note for each player whose average Law 12C2(c) replaced by their own percentage: the board's line shows the
    partnership's average, the player's total holds their own figure."""
    notes = []
    for board in session.boards:
        for r in board.results:
            for partnership in (r.ns_pair, r.ew_pair):
                for player in partners.get(partnership, ()):
                    side = session.revised.get(((board.section, board.board), player))
                    if side is not None:
                        average = side.average.value if side.average else "average"
                        notes.append(f"board {board.board} table {r.table}: player {named[player].number}'s {average} "
                                     f"is their own {side.percent} % (Law 12C2(c))")
    return notes


def _teams_section(conn: sqlite3.Connection, info: EventInfo, section: str,
                   published: Publication | None) -> SectionResults:
    """A teams section: each match scored by the team engine (IMPs, VPs); the section's report is its first match."""
    expected = slot_count(conn, section)
    known = states(conn, section)
    results_in = len(current_in(known))
    conflicted = len(conflicts_in(known))
    title = _title(replace(info, scoring="imps"), section, results_in, expected, conflicted, published)
    matches = tuple(section_matches(conn, section, team_names(conn), title))
    report = matches[0].report if len(matches) == 1 else Report("teams", title=title)
    if conflicted:
        report = replace(report, notes=(
            *report.notes, f"{conflicted} conflicting result{'s' if conflicted > 1 else ''} left out until the "
            "director decides (tenace problems lists them, tenace resolve settles them)"))
    damaged = damaged_notes(damaged_in(known))
    report = replace(report, notes=(*report.notes, *damaged))
    return SectionResults(section, report, results_in, expected, conflicted, tuple(section_boards(conn, section)),
                          matches=matches, damaged=len(damaged))


def damaged_notes(damaged: list[Version]) -> list[str]:
    """A note for each damaged result of a section (never scored), naming it."""
    return [f"board {v.board} table {v.table} round {v.round}: a damaged result in the event file, not scored "
            f"({v.damage}); enter it again (tenace correct)" for v in damaged]


# What each director's action did to a result, as its traveller line is marked.
_DONE = {"adjust": "adjusted", "correct": "corrected", "resolve": "decided", "erase": "erased"}


def _clock(stamp: str) -> str:
    """A stored UTC timestamp as the laptop's local time of day."""
    return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M")


def _title(info: EventInfo, section: str, results_in: int, expected: int, conflicted: int,
           published: Publication | None) -> str:
    where = f", section {section}" if len(info.sections) > 1 else ""
    if results_in == expected and not conflicted:
        state = f"all {expected} results in"
    else:
        state = f"{results_in} of {expected} results in: provisional"
    if published is not None:
        state += (f"; published at {_clock(published.at)}, corrections until "
                  f"{_clock(published.ends.isoformat())} (Law 79C)")
    return f"{info.title}, {info.date}{where} ({info.scoring.replace('_', ' ')}; {state})"


def _played(board: int, line: TravellerLine, played: Mapping[tuple[int, int, int], Version],
            marks: dict[tuple[int, int, int], str]) -> TravellerLine:
    """A traveller line with what its slot's result says was played (contract, declarer, tricks, lead: the store's
    traveller line) and the director's mark, if any."""
    slot = (board, line.table or 0, line.round or 0)
    v = played.get(slot)
    if v is not None and v.kind in ("normal", "passed_out"):
        stored = version_line(v)
        line = replace(line, contract=stored.contract, declarer=stored.declarer, tricks=stored.tricks,
                       lead=stored.lead)
    mark = marks.get(slot)
    return replace(line, marked=mark) if mark else line


def board_report(results: SectionResults, board: int) -> Report:
    """The section's report cut to one board's traveller (no ranking), with its deal, double-dummy tricks and
    par when the event file keeps them (shown even before any result is in)."""
    report = results.report
    notes = tuple(n for n in report.notes if n.startswith(f"board {board} "))
    public = tuple(n for n in report.shown_notes() if n.startswith(f"board {board} "))
    boards = tuple(b for b in report.boards if b.board == board)
    hand = results.hands.get(board)
    if hand is not None:
        boards = tuple(replace(b, hand=hand) for b in boards) or (
            Board(board, dealer=dealer(board), vulnerable=vulnerability(board), hand=hand),)
    return replace(report, boards=boards, ranking=(), notes=notes, public_notes=public)


def _key(text: str) -> str:
    return re.sub(r"[\s\-]", "", text).upper()


def find_pair(sections: Sequence[SectionResults], text: str) -> tuple[SectionResults, Pair]:
    """The pair a TD typed ("NS 3", "ns3", "A-EW 7", "3" when that is one pair); ResultsError when none or several."""
    wanted = _key(text)

    def names(p: Pair) -> set[str]:
        # The full label, and the shorter ones a TD types: without the section, without the direction.
        return {_key(p.label), _key(f"{p.direction or ''}{p.number}"), p.number}

    found = [(s, p) for s in sections for p in s.report.pairs() if wanted in names(p)]
    exact = [(s, p) for s, p in found if _key(p.label) == wanted]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    if found:
        raise ResultsError(f"pair {text!r} is ambiguous: say {' or '.join(p.label for _, p in found)}")
    # An individual's players (numbers) before its partnerships ("8+1"), which `--pair` also takes.
    who = "player" if any(s.report.settings.get("ranked") == "players" for s in sections) else "pair"
    known = sorted((p for s in sections for p in s.report.pairs()),
                   key=lambda p: (p.section or "", p.direction or "", not p.number.isdigit(),
                                  int(p.number) if p.number.isdigit() else 0))
    shown = ", ".join(p.label for p in known[:2]) + (", ..." if len(known) > 2 else "")
    raise ResultsError(f"there is no {who} {text!r} with results in this event"
                       + (f" ({who}s are named like {shown})" if known else " (no results yet)"))


def scorecard(results: SectionResults, pair: Pair) -> Report:
    """The pair's own results board by board (its lines of each traveller) and its place in the ranking."""
    report = results.report
    individual = report.settings.get("ranked") == "players"

    def plays(side: Pair | None) -> bool:  # an individual's player plays in each partnership "8+1" naming them
        if individual and side is not None:
            return side.section == pair.section and pair.number in side.number.split("+")
        return side == pair

    boards: list[Board] = []
    for b in report.boards:
        lines = tuple(line for line in b.lines if plays(line.ns) or plays(line.ew))
        if lines:
            boards.append(replace(b, lines=lines))
    ranking = tuple(line for line in report.ranking if line.pair == pair)
    # The notes on its own boards and its own penalties.
    mine = tuple(f"board {b.board} table {line.table}:" for b in boards for line in b.lines)

    def own(n: str) -> bool:
        return n.startswith(mine) or f"penalty, {pair.label}:" in n
    return replace(report, title=f"{report.title}\nScorecard of {pair}", boards=tuple(boards), ranking=ranking,
                   notes=tuple(filter(own, report.notes)), public_notes=tuple(filter(own, report.shown_notes())))
