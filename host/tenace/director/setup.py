"""The evening's set-up as the director's actions: a new event's movements, the roster, the pairs' players, deals."""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import date as Date
from pathlib import Path

from tenace.director.errors import DirectorInputError
from tenace.director.pair_list import LineError, NamedPair, read_pair_list
from tenace.director.pairs import Pair, pair_label
from tenace.movement import (
    MAX_ROUNDS,
    Movement,
    MovementError,
    Report,
    check,
    half_table,
    howell,
    mitchell,
    nothing_to_compare,
    shortened,
    teams,
)
from tenace.movement.individual import individual
from tenace.roster import Skipped, read_roster
from tenace.store import create_event, event_info
from tenace.store.director import chosen_section
from tenace.store.event import SCORING_METHODS
from tenace.store.names import keep_roster, players_in_two_pairs, roster, section_pairs, set_pairs_players
from tenace_wire.director_messages import MAX_LINES

MOVEMENTS = ("mitchell", "howell", "individual", "teams", "swiss")
ONE_OF = ", ".join(MOVEMENTS[:-1]) + " or " + MOVEMENTS[-1]
# The kinds a section of a new event may have without a teams file (a Swiss is drawn from its teams, round by round:
# `tenace event new --movement swiss --teams FILE`).
SECTION_KINDS = MOVEMENTS[:-1]
# The terminals sign in to a section by one letter, A to Z (the wire's section is 0-25: tenace_wire.table_messages).
_SECTION_LETTER = re.compile(r"[A-Z]")
# The most tables a section's terminals can serve: a terminal's traveller holds a board's results at MAX_LINES tables
# (tenace_wire.director_messages), and in a Mitchell or a Howell a board is played at every table.
TERMINAL_TABLES = MAX_LINES


def movement_of(kind: str | None, tables: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """The movement `tenace event new` makes (a plain Mitchell when `kind` is None); MovementError naming the figure
    at fault when it cannot be made."""
    if kind == "howell":
        return howell(tables, boards_per_round, rounds)
    if kind == "individual":
        return individual(tables, boards_per_round, rounds)
    if kind == "teams":  # a two-table match: its rounds are segments, the teams staying where they sit
        return teams(boards_per_round, rounds or 1, tables)
    if kind == "swiss":  # its rounds are paired one by one (commands.event_swiss); a match checks the boards
        return teams(boards_per_round)
    if kind not in (None, "mitchell"):
        raise ValueError(f"the movement is {ONE_OF}, not {kind!r}")
    movement = mitchell(tables, boards_per_round)
    # A shortened Mitchell: its first rounds, each set played at fewer tables (mitchell(rounds=...) is another
    # movement, every table on the same duplicated set).
    return movement if rounds is None else shortened(movement, rounds)


@dataclass(frozen=True)
class SectionPlan:
    """A section of a new event: its name and the movement it plays."""

    name: str
    kind: str
    tables: int
    boards_per_round: int
    rounds: int | None = None  # fewer than the whole movement: shortened
    half_table: bool = False


@dataclass(frozen=True)
class NewEvent:
    name: str
    date: str
    scoring: str
    sections: tuple[SectionPlan, ...]
    practice: bool = False  # a practice event: simulated terminals may play into it


def _whole(field: str, text: str | None, required: bool = True) -> int | None:
    if text is None or not text.strip():
        if required:
            raise DirectorInputError(field, "{field} is required: give a whole number")
        return None
    if not text.strip().isdecimal() or len(text.strip()) > 4:
        raise DirectorInputError(field, ": give a whole number", text=text)
    return int(text)


def section_plan(name: str, kind: str | None, tables: str | None, boards_per_round: str | None,
                 rounds: str | None = None, half: bool = False) -> SectionPlan:
    """A section's plan from its fields' text; DirectorInputError naming the field at fault ("section", "movement",
    "tables", "boards_per_round", "rounds")."""
    if not _SECTION_LETTER.fullmatch(name):
        raise DirectorInputError("section", ": a section is one capital letter, A to Z (what the terminals sign in to)",
                                 text=name)
    chosen = (kind or "mitchell").strip().lower()
    if chosen not in SECTION_KINDS:
        raise DirectorInputError("movement", ": a section's movement is {kinds}", text=kind or "",
                                 kinds=", ".join(SECTION_KINDS))
    count = _whole("tables", tables, required=chosen != "teams")
    if count is not None and count > TERMINAL_TABLES:
        raise DirectorInputError("tables", ": a section has at most {most} tables (a terminal's traveller holds a "
                                 "board's results at {most} tables)", text=tables, most=str(TERMINAL_TABLES))
    per_round = _whole("boards_per_round", boards_per_round)
    assert per_round is not None
    played = _whole("rounds", rounds, required=False)
    if played is not None and played > MAX_ROUNDS:
        raise DirectorInputError("rounds", ": a section has at most {most} rounds (the terminals number rounds up to "
                                 "{most})", text=rounds, most=str(MAX_ROUNDS))
    return SectionPlan(name, chosen, count if count is not None else 2, per_round, played, half)


def section_movement(plan: SectionPlan) -> Movement:
    """The movement a plan asks for; DirectorInputError naming the figure at fault when it cannot be made or gives
    nothing to compare."""
    try:
        movement = movement_of(plan.kind, plan.tables, plan.boards_per_round, plan.rounds)
        if plan.half_table:
            movement = half_table(movement)
    except MovementError as e:
        raise DirectorInputError(e.figure, "{why}", why=str(e)) from None
    why = nothing_to_compare(movement)
    if why is not None:
        raise DirectorInputError("tables", "{why}", why=why)
    return movement


def new_event_input(name: str | None, date: str | None, scoring: str | None,
                    sections: list[SectionPlan]) -> NewEvent:
    """The new event's own fields checked (the store checks them again): DirectorInputError naming "name", "date",
    "scoring" or "sections"."""
    title = (name or "").strip()
    if not 1 <= len(title) <= 200 or not title.isprintable():
        raise DirectorInputError("name", "{field} is required: printable text of 1 to 200 characters")
    day = (date or Date.today().isoformat()).strip()
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
            raise ValueError
        Date.fromisoformat(day)
    except ValueError:
        raise DirectorInputError("date", ": a date is YYYY-MM-DD, a real day", text=day) from None
    chosen = (scoring or "matchpoints").strip()
    if chosen not in SCORING_METHODS:
        raise DirectorInputError("scoring", ": the scoring is {methods}", text=chosen,
                                 methods=", ".join(SCORING_METHODS))
    if not sections:
        raise DirectorInputError("sections", "an event needs at least one section")
    names = [s.name.upper() for s in sections]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise DirectorInputError("sections", "section {name} is named twice", name=twice)
    if any(s.kind == "teams" for s in sections) and chosen != "imps":
        raise DirectorInputError("scoring", ": a team match is scored in IMPs (and VPs): choose imps", text=chosen)
    return NewEvent(title, day, chosen, tuple(sections))


def previews(event: NewEvent) -> list[tuple[SectionPlan, Report]]:
    """Each section's movement with the checker's report, as the director sees them before creating the event."""
    return [(plan, check(section_movement(plan))) for plan in event.sections]


def create_new_event(path: Path, event: NewEvent) -> str:
    """Create the event file at `path`, whole or not at all: it is made under another name beside it and put in place
    only once complete (a page reading `path` never sees it half made); refused (FileExistsError) when `path` exists.
    A section whose movement the checker faults is refused (DirectorInputError naming "sections")."""
    movements = {}
    for plan, report in previews(event):
        if not report.ok:
            raise DirectorInputError("sections", "section {name}: the movement checker finds {errors}: not created",
                                     name=plan.name, errors="; ".join(p.message for p in report.errors))
        movements[plan.name] = report.movement
    if path.exists():
        raise FileExistsError(f"{path} exists already: an event file is never overwritten")
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=f".{path.name}.") as folder:
        made = Path(folder) / path.name
        conn = create_event(made, name=event.name, date=event.date, scoring=event.scoring, sections=movements,
                            practice=event.practice)
        conn.close()  # the last connection: SQLite folds its write-ahead log into the file and removes it
        os.link(made, path)  # never replaces a file that appeared meanwhile: FileExistsError
    sections = ", ".join(f"{p.name} {m.name}" for p, m in zip(event.sections, movements.values(), strict=True))
    plural = "s" if len(movements) > 1 else ""
    named = f"{event.name!r}, a practice event" if event.practice else repr(event.name)
    return f"created {path}: {named}, {event.date}, {event.scoring}; section{plural} {sections}"


@dataclass(frozen=True)
class RosterImport:
    kept: int
    skipped: tuple[Skipped, ...]


class NoMember(DirectorInputError):
    """A roster from which no member could be read; `skipped`: its lines, each with why."""

    def __init__(self, skipped: list[Skipped]) -> None:
        count = len(skipped)
        super().__init__("roster", "no member read ({count} skipped)", count=f"{count} line{'' if count == 1 else 's'}")
        self.skipped = tuple(skipped)


def import_roster(conn: sqlite3.Connection, text: str) -> RosterImport:
    """The roster CSV's members kept (added or updated by number) and the lines skipped; NoMember when none is
    read."""
    members, skipped = read_roster(text)
    if not members:
        raise NoMember(skipped)
    keep_roster(conn, members)
    return RosterImport(len(members), tuple(skipped))


def seats(conn: sqlite3.Connection) -> dict[str, list[Pair]]:
    """Each pairs section's pairs in the order a list of them is written (a Mitchell's NS then EW, a Howell's by
    number); an individual's sections are left out (its players are named one by one)."""
    return {s.name: [Pair(s.name, field, number) for number, field in section_pairs(conn, s.name)]
            for s in event_info(conn).sections if s.kind != "individual"}


@dataclass(frozen=True)
class PairsNamed:
    named: tuple[NamedPair, ...]
    wrong: tuple[LineError, ...]  # when any, nothing was named


def name_pairs(conn: sqlite3.Connection, text: str, section: str | None, *, who: str) -> PairsNamed:
    """A list of pairs and their players (pair_list.read_pair_list), all or nothing: with a wrong line no pair is
    named and the wrong lines are answered. EntryError for a section the event does not have;
    DirectorInputError ("pairs") for an individual's section or a list naming no pair."""
    if section is not None:
        chosen_section(conn, section)  # refused unless the event has it
    kinds = {s.name: s.kind for s in event_info(conn).sections}
    if any(kind == "individual" and section in (None, name) for name, kind in kinds.items()):
        raise DirectorInputError("pairs", "an individual's players are named one by one, not as pairs")
    named, wrong = read_pair_list(text, seats(conn), section, roster(conn))
    if wrong:
        return PairsNamed(tuple(named), tuple(wrong))
    if not named:
        raise DirectorInputError("pairs", "no pair in it (a line is a pair and its two players)")
    set_pairs_players(conn, [(p.pair.section, p.pair.number, p.pair.field, p.players) for p in named], who=who)
    return PairsNamed(tuple(named), ())


@dataclass(frozen=True)
class InTwoPairs:
    """A player the pairs of a section name twice: kept as said (the director may be setting the pairs one after the
    other), but never without a word."""

    player: int
    pairs: tuple[str, ...]  # the pairs as directors write them ("NS 1", "A-EW 3")


def in_two_pairs(conn: sqlite3.Connection, players: set[int] | None = None) -> list[InTwoPairs]:
    """Each player (of `players`, or any) now in two pairs of a section."""
    sections = event_info(conn).sections
    return [InTwoPairs(number, tuple(pair_label(Pair(s.name, direction, pair), len(sections) > 1)
                                     for pair, direction in pairs))
            for s in sections for number, pairs in players_in_two_pairs(conn, s.name).items()
            if players is None or number in players]
