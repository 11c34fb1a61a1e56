"""The problems as work: each conflict, group of refused frames, missing result and damaged result an item with the
action that settles it (the slot's page, its forms prefilled); `tenace problems`'s text at /director/problems.txt."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from itertools import groupby

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.protocol.http_guard import NO_STORE
from tenace.reports.problems import Report, boards_text, clock, gather, render
from tenace.store import event_info, refusal_groups
from tenace.store.file_check import check_file
from tenace.store.queries import conflicts_in, damaged_in, latest_rounds, missing_results, states
from tenace.store.versions import Slot
from tenace.web.console.room import Room, spoken
from tenace.web.console.said import origin_said, result_said

# What the director does about each reason a frame is refused (validate.REASONS), beyond reading the examples: the
# key of its advice in lang/console/XX.txt (wk_advice_REASON); any other reason gets wk_advice_other.
_ADVISED = frozenset({"not_signed_in", "wrong_table", "sequence_reused", "score_mismatch", "sits_out", "wrong_pairs",
                      "wrong_board", "no_such_round", "unknown_section"})


def advice(reason: str) -> str:
    """What the director does about frames refused for `reason`, in the page's language."""
    return spoken().plain(f"wk_advice_{reason}" if reason in _ADVISED else "wk_advice_other")


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
    return spoken().plain("wk_where", section=slot.section, table=slot.table, round=slot.round, board=slot.board)


def work_of(report: Report, check: str | None = None) -> Work:
    """The report's problems as items, the worst first: damaged, conflicts, refused frames, missing results."""
    w = spoken().plain
    work = Work(check=check)
    for v in report.damaged:
        work.items.append(Item("damaged", w("wk_damaged", where=where(v.slot), version=v.version), (v.damage,),
                               (Link(slot_href(v.slot, "correct"), w("wk_enter_again")),
                                Link(slot_href(v.slot, "erase"), w("wk_erase_it"))),
                               w("wk_damaged_advice")))
    for c in report.conflicts:
        lines = tuple(w("wk_conflict_line", version=v.version, result=result_said(v, spoken()), ns=v.ns_pair,
                        ew=v.ew_pair, origin=origin_said(v, spoken()), at=clock(v.at)) for v in c.heads)
        work.items.append(Item("conflict", w("wk_conflict", where=where(c.slot), count=len(c.heads)), lines,
                               (Link(slot_href(c.slot, "resolve"), w("resolve")),), w("wk_conflict_advice")))
    for g in report.refusals:
        lines = tuple(f"{clock(r.at)} " + (w("wk_frame_terminal", terminal=r.terminal, sequence=r.sequence)
                                           if r.terminal is not None else w("wk_frame_unknown")) + f": {r.detail}"
                      for r in g.latest)
        work.items.append(Item("refused", w("wk_refused", reason=g.reason, count=g.count, meaning=g.meaning), lines,
                               (Link("/director/terminals", w("nav_terminals")),), advice(g.reason)))
    for section, rows in groupby(report.missing, key=lambda m: m.section):
        section_rows = list(rows)
        latest = report.latest_round.get(section, 0)
        under_way = sorted((m for m in section_rows if m.round <= latest), key=lambda m: (m.round, m.table, m.board))
        for (round_, table), ms in groupby(under_way, key=lambda m: (m.round, m.table)):
            boards = list(ms)
            erased = [m.board for m in boards if m.erased]
            first = Slot(section, table, round_, boards[0].board)
            title = w("wk_missing_many" if len(boards) > 1 else "wk_missing_one", section=section, round=round_,
                      table=table, boards=boards_text([m.board for m in boards]))
            links = tuple(Link(slot_href(Slot(section, table, round_, m.board), "correct"),
                               w("wk_enter_board", board=m.board)) for m in boards)
            work.items.append(Item("missing", title, (w("wk_erased", boards=boards_text(erased)),) if erased else (),
                                   links or (Link(slot_href(first), w("wk_open")),),
                                   w("wk_missing_advice", ns=boards[0].ns_pair, ew=boards[0].ew_pair)))
        later = sorted({m.round for m in section_rows if m.round > latest})
        if later:
            count = sum(1 for m in section_rows if m.round > latest)
            work.later.append(w("wk_later_one", section=section, round=later[0], count=count) if len(later) == 1
                              else w("wk_later_many", section=section, first=later[0], last=later[-1], count=count))
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
        verdict = (spoken().plain("wk_check_sound") if found.sound else spoken().plain(
            "wk_check_faults", faults="; ".join(found.faults[:5]) + (" ..." if len(found.faults) > 5 else "")))
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
