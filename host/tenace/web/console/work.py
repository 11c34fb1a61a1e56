"""The problems as work: each conflict, group of refused frames, missing result and damaged result an item with the
action that settles it (the slot's page, its forms prefilled); `tenace problems`'s text at /director/problems.txt."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from itertools import groupby

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.reports.problems import Report, boards_text, clock, gather, render
from tenace.store import event_info, refusal_groups
from tenace.store.file_check import check_file
from tenace.store.queries import conflicts_in, damaged_in, latest_rounds, missing_results, states
from tenace.store.versions import Slot
from tenace.web.console.auth import NO_STORE
from tenace.web.console.room import Room

# What the director does about each reason a frame is refused (validate.REASONS), beyond reading the examples.
_ADVICE = {
    "not_signed_in": "sign the terminal in at its table (Terminals: seat), or check it is this event's",
    "wrong_table": "the terminal is seated at another table: seat it where it is (Terminals: seat)",
    "sequence_reused": "a terminal was reset or two share an id: check the terminals, enter the table's result "
                       "by hand if it is missing",
    "score_mismatch": "the terminal's firmware scores otherwise: compare the table's result, correct it by hand",
    "sits_out": "the movement says nobody plays there: check the movement changes (late pair, table closed)",
    "wrong_pairs": "the pairs are not the movement's: a pair changed tables, or the movement needs a change",
    "wrong_board": "the board is not played there: a board moved to the wrong table; enter it by hand",
    "no_such_round": "the table is past its last round, or the movement needs a change",
    "unknown_section": "the terminal is set up for another section or event: seat it again",
}
_DEFAULT_ADVICE = ("a terminal sent what the collector could not take: if the table's result is missing, enter it by "
                   "hand from the traveller")


@dataclass(frozen=True)
class Link:
    href: str
    text: str


@dataclass(frozen=True)
class Item:
    """One problem to settle: its kind (damaged, conflict, refused, missing), what it is, and what settles it."""

    kind: str
    title: str
    lines: tuple[str, ...] = ()
    actions: tuple[Link, ...] = ()
    advice: str = ""


@dataclass
class Work:
    items: list[Item] = field(default_factory=list)
    later: list[str] = field(default_factory=list)  # rounds not started, one line per section
    check: str | None = None  # tenace check's verdict, when something in the file is damaged

    def count(self, kind: str) -> int:
        return sum(1 for i in self.items if i.kind == kind)


def slot_href(slot: Slot, form: str | None = None) -> str:
    """The slot's page, at one of its forms when given."""
    return f"/director/slot/{slot.section}/{slot.table}/{slot.round}/{slot.board}" + (f"#{form}" if form else "")


def where(slot: Slot) -> str:
    return f"Section {slot.section} table {slot.table} round {slot.round} board {slot.board}"


def work_of(report: Report, check: str | None = None) -> Work:
    """The report's problems as items, the worst first: damaged, conflicts, refused frames, missing results."""
    work = Work(check=check)
    for v in report.damaged:
        work.items.append(Item("damaged", f"{where(v.slot)}: v{v.version} is damaged", (v.damage,),
                               (Link(slot_href(v.slot, "correct"), "Enter it again"),
                                Link(slot_href(v.slot, "erase"), "Erase it")),
                               "Tenace did not write it (a disk fault, or an edit outside Tenace): it does not count"))
    for c in report.conflicts:
        lines = tuple(f"v{v.version}: {v.describe()} (NS {v.ns_pair} v EW {v.ew_pair}; {v.origin()} at {clock(v.at)})"
                      for v in c.heads)
        work.items.append(Item("conflict", f"{where(c.slot)}: {len(c.heads)} different results", lines,
                               (Link(slot_href(c.slot, "resolve"), "Resolve"),),
                               "none counts until you keep one or enter the right one"))
    for g in report.refusals:
        lines = tuple(f"{clock(r.at)} " + (f"terminal {r.terminal} seq {r.sequence}" if r.terminal is not None
                                           else "unidentified frame") + f": {r.detail}" for r in g.latest)
        work.items.append(Item("refused", f"Refused frames, {g.reason} \u00d7{g.count}: {g.meaning}", lines,
                               (Link("/director/terminals", "Terminals"),), _ADVICE.get(g.reason, _DEFAULT_ADVICE)))
    for section, rows in groupby(report.missing, key=lambda m: m.section):
        section_rows = list(rows)
        latest = report.latest_round.get(section, 0)
        under_way = sorted((m for m in section_rows if m.round <= latest), key=lambda m: (m.round, m.table, m.board))
        for (round_, table), ms in groupby(under_way, key=lambda m: (m.round, m.table)):
            boards = list(ms)
            erased = [m.board for m in boards if m.erased]
            first = Slot(section, table, round_, boards[0].board)
            title = (f"Section {section} round {round_} table {table}: board{'s' if len(boards) > 1 else ''} "
                     f"{boards_text([m.board for m in boards])} missing")
            links = tuple(Link(slot_href(Slot(section, table, round_, m.board), "correct"), f"Enter board {m.board}")
                          for m in boards)
            work.items.append(Item("missing", title, (f"erased: {boards_text(erased)}",) if erased else (),
                                   links or (Link(slot_href(first), "Open"),),
                                   f"NS {boards[0].ns_pair} v EW {boards[0].ew_pair}: enter the traveller's result, "
                                   "or adjust (not played: A+/A-, 60/40)"))
        later = sorted({m.round for m in section_rows if m.round > latest})
        if later:
            span = f"round {later[0]}" if len(later) == 1 else f"rounds {later[0]}-{later[-1]}"
            count = sum(1 for m in section_rows if m.round > latest)
            work.later.append(f"Section {section} {span}: not started ({count} results to come)")
    return work


def read_work(conn: sqlite3.Connection) -> Work:
    """The problems of the event file, as work (one read); tenace check's verdict when a result is damaged. What
    `gather` reads besides (corrections, the log, pairings) is not work: the results are read once, not each time."""
    info = event_info(conn)
    known = states(conn)
    report = Report(info, conflicts_in(known), refusal_groups(conn, 3), missing_results(conn, known=known), [],
                    {s.name: 0 for s in info.sections} | latest_rounds(conn), damaged=damaged_in(known))
    verdict = None
    if report.damaged:
        found = check_file(conn)
        verdict = ("tenace check: the file is sound apart from its results" if found.sound else
                   "tenace check: " + "; ".join(found.faults[:5]) + (" ..." if len(found.faults) > 5 else ""))
    return work_of(report, verdict)


def routes(room: Room) -> list[BaseRoute]:
    """`tenace problems`'s text, for the director who wants all of it at once (and the log)."""

    async def problems_text(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        text = await room.read(lambda conn: render(gather(conn, 3), room.event()))
        return PlainTextResponse(text, headers=NO_STORE)

    return [Route("/director/problems.txt", problems_text, methods=["GET"])]
