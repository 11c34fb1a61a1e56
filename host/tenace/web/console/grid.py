"""The play pages of the console: per section a live grid of the results (tables by rounds, each round's boards),
the slow tables, a result's slot with every version and the director's actions prefilled from it, and the terminals.

A page follows the event file live by long polling its own live part (`?part=1&since=G` answers once the file's
generation is past G, at most LONG_POLL_S later): the change watcher of the public pages (web/changes.py) tells it,
so a result shows within the watcher's poll and one read of the file. Without a script the page is a plain page."""

from __future__ import annotations

import hashlib
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median_low

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.director import parse
from tenace.director.actions import seat
from tenace.director.errors import DirectorInputError
from tenace.errors import UsageError
from tenace.protocol.http_guard import NO_STORE
from tenace.reports.problems import clock
from tenace.store import EntryError, StoreError, event_info
from tenace.store.encounters import section_rounds
from tenace.store.event import SectionInfo
from tenace.store.link import pairings, seated_at, stored_link_key
from tenace.store.movement_changes import section_changes, sit_outs
from tenace.store.names import names_of, pair_players, roster
from tenace.store.queries import states
from tenace.store.terminal_reports import InventoryRow, inventory, plans_held
from tenace.store.versions import Slot, SlotState, Version, slot_state
from tenace.web.changes import Changes
from tenace.web.console import calls, listening
from tenace.web.console.acting import Stale, act
from tenace.web.console.auth import Session
from tenace.web.console.forms import ACTIONS, MOVES, one_line, whole
from tenace.web.console.rehearsal import Rehearsals
from tenace.web.console.room import Room, spoken
from tenace.web.console.said import kind_said, origin_said, result_said

STATIC = Path(__file__).resolve().parents[1] / "static"
# A live part's request waits this long for a change before it answers anyway (the script asks again at once).
LONG_POLL_S = 20.0

# Each state of a result: its symbol (the grid never says it by colour alone) and its words, worst first.
STATES: dict[str, tuple[str, str]] = {
    "damaged": ("\u2716", "damaged in the event file: enter it again"),
    "conflict": ("!", "conflict: results disagree, none counts"),
    "missing": ("?", "missing: the table moved on without it"),
    "erased": ("\u2205", "erased: missing again"),
    # Not U+231B (an hourglass): Debian's chromium has no font with it (fonts-dejavu), and printed an empty box.
    "late": ("\u25d4", "late: the table is behind the others"),
    "adjusted": ("A", "adjusted score"),
    "entered": ("\u2713", "entered"),
    "playing": ("\u00b7", "being played"),
    "coming": ("", "still to come"),
}
_WORST = list(STATES)

# What a live page does to render itself: (session, generation, its live part alone) -> the response.
Render = Callable[[Session, int, bool], Awaitable[Response]]


@dataclass(frozen=True)
class Cell:
    """One board of a table's round: its state and what the grid shows of it."""

    board: int
    state: str
    result: str  # the result that counts, or what is wrong, for the cell's title (a damaged row's, the store's
    # English check, is left to the slot's page, which marks it as English)

    @property
    def symbol(self) -> str:
        return STATES[self.state][0]


@dataclass(frozen=True)
class RoundCell:
    """A table's round: its pairs and its boards' cells; `out` when the table sits out."""

    round: int
    pairs: str
    cells: tuple[Cell, ...]
    out: bool = False

    @property
    def state(self) -> str:
        """The worst state of its boards: what the round's cell is coloured by."""
        if not self.cells:
            return "coming"
        return min((c.state for c in self.cells), key=_WORST.index)


@dataclass(frozen=True)
class TableRow:
    table: int
    rounds: tuple[RoundCell | None, ...]  # one per round of the section (None: the table does not play it)
    at: int | None  # the round the table is at (None: finished)
    behind: int  # how many rounds behind the section's round it is
    last: str  # when its latest result came in (local time), "" when none has


@dataclass
class SectionGrid:
    section: str
    kind: str
    rounds: tuple[int, ...]
    field_round: int | None  # the round most tables are at: a table at an earlier round is late
    tables: list[TableRow] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def slow(self) -> list[TableRow]:
        return [t for t in self.tables if t.behind > 0]


def _cell(board: int, state: SlotState | None, late: bool, at_round: bool) -> Cell:
    t = spoken()
    if state is None or not state.versions:
        if late:
            return Cell(board, "late", t.plain("gr_not_in_late"))
        return Cell(board, "playing" if at_round else "coming", t.plain("gr_not_in_yet"))
    if state.damaged:
        return Cell(board, "damaged", next(h.damage for h in state.heads if h.damage))
    if state.conflict:
        return Cell(board, "conflict", " | ".join(result_said(h, t) for h in state.heads))
    current = state.current
    assert current is not None
    if current.kind == "erased":
        return Cell(board, "erased", kind_said("erased", t))
    if current.kind in ("artificial", "weighted"):
        return Cell(board, "adjusted", result_said(current, t))
    return Cell(board, "entered", result_said(current, t))


def section_grid(conn: sqlite3.Connection, info: SectionInfo) -> SectionGrid:
    """A section's grid, read in the caller's transaction: the movement, its sit-outs and every slot's versions.

    A table is at the first round it has not finished (every board of a round in, or the round sat out); the
    section's round is the median of the tables' (the lower one): a table at an earlier round is late, its boards
    from its own round to the section's are late, and a board with nothing in a round the table has left behind is
    missing."""
    known = states(conn, info.name)
    outs = sit_outs(conn, info.name)
    plan: dict[int, list[tuple[int, int, int, list[int]]]] = {}
    for round_, table, ns, ew, boards in section_rounds(conn, info.name):
        plan.setdefault(table, []).append((round_, ns, ew, [int(b) for b in boards.split()]))
    rounds = tuple(sorted({r for rows in plan.values() for r, _, _, _ in rows}))
    last_in: dict[int, str] = {}
    for s in known.values():
        for v in s.versions:
            if v.at > last_in.get(s.slot.table, ""):
                last_in[s.slot.table] = v.at

    def settled(table: int, round_: int, boards: list[int]) -> bool:
        return (table, round_) in outs or all(Slot(info.name, table, round_, b) in known for b in boards)

    at: dict[int, int | None] = {}
    for table, rows in plan.items():
        # The round after the last one it has anything in, unless that one is not finished; sit-outs are passed.
        started = [i for i, (r, _, _, boards) in enumerate(rows)
                   if any(Slot(info.name, table, r, b) in known for b in boards)]
        i = started[-1] if started else 0
        while i < len(rows) and settled(table, rows[i][0], rows[i][3]):
            i += 1
        at[table] = rows[i][0] if i < len(rows) else None
    last_round = (rounds[-1] + 1) if rounds else 1
    field_round = median_low([r if r is not None else last_round for r in at.values()]) if at else None
    grid = SectionGrid(info.name, info.kind, rounds, field_round if field_round != last_round else None)
    prefix = ("", "") if info.one_field else ("NS ", "EW ")
    for table in sorted(plan):
        mine = at[table]
        now = mine if mine is not None else last_round
        behind = sum(1 for r, _, _, _ in plan[table] if now <= r < (field_round or 0))
        by_round: dict[int, RoundCell] = {}
        for round_, ns, ew, numbers in plan[table]:
            pairs = f"{prefix[0]}{ns} v {prefix[1]}{ew}"
            if (table, round_) in outs:
                by_round[round_] = RoundCell(round_, pairs, (), out=True)
                continue
            late = field_round is not None and now <= round_ < field_round
            cells = []
            for b in numbers:
                c = _cell(b, known.get(Slot(info.name, table, round_, b)), late, round_ == mine)
                if c.state in ("playing", "coming") and round_ < now:
                    c = Cell(b, "missing", spoken().plain("gr_not_in_missing"))
                cells.append(c)
                grid.counts[c.state] += 1
            by_round[round_] = RoundCell(round_, pairs, tuple(cells))
        grid.tables.append(TableRow(table, tuple(by_round.get(r) for r in rounds), mine, behind,
                                    clock(last_in[table]) if table in last_in else ""))
    return grid


@dataclass(frozen=True)
class Seen:
    """A terminal as the panel shows it."""

    row: InventoryRow
    held: bool  # the table's latest sign-in is this terminal's: it is the one the table's results come from
    paired: str
    plans: bool | None = None  # it holds its table's round plans as the director last changed them (None: no table)


def terminals(conn: sqlite3.Connection) -> tuple[list[Seen], str | None]:
    """Every terminal seated or heard from, and the event's pairing code (None before the collector made it)."""
    ways = {p.terminal: p.way for p in pairings(conn)}
    holds = plans_held(conn)
    latest: dict[str, int] = {}  # section -> its latest movement change (0: none)
    out = []
    for row in inventory(conn):
        held = row.section is not None and row.table is not None and \
            seated_at(conn, row.section, row.table) == row.terminal
        plans = None
        if held and row.section is not None:
            if row.section not in latest:
                latest[row.section] = max(section_changes(conn, row.section), default=0)
            plans = holds.get(row.terminal, -1) >= latest[row.section]
        out.append(Seen(row, held, {"club": "club key", "code": "code alone"}.get(ways.get(row.terminal, ""), "-"),
                        plans))
    key = stored_link_key(conn)
    return out, key[0] if key else None


# The fields of each of the slot page's forms, for a refusal to be shown beside the one it names.
FIELDS = {
    "correct": {"contract", "by", "tricks", "lead", "passed_out", "not_played", "why", "force"},
    "adjust": {"ns", "ew", "percent", "assigned", "weighted", "ew_assigned", "ew_weighted", "why", "force"},
    "penalty": {"pair", "penalty", "why", "force"},
    "erase": {"why", "force"},
    "resolve": {"keep", "contract", "by", "tricks", "lead", "passed_out", "not_played", "why", "force"},
    "move": {"change", "pair", "other", "table", "round", "to", "why", "force"},
}


def result_fields(v: Version | None) -> dict[str, str]:
    """A version's result as the correct and resolve forms take it."""
    if v is None or v.damage:
        return {}
    if v.kind == "normal" and v.contract and v.declarer and v.tricks is not None:
        return {"contract": v.contract, "by": v.declarer, "tricks": str(v.tricks), "lead": v.lead or ""}
    if v.kind in ("passed_out", "not_played"):
        return {v.kind: "on"}
    return {}


@dataclass(frozen=True)
class Played:
    """The board at one table of the section: a row of its traveller so far, beside the slot's own."""

    table: int
    round: int
    ns: str
    ew: str
    state: str  # as the grid says it (STATES), "coming" when nothing is in yet
    result: str  # the result that counts, "" when none does

    @property
    def symbol(self) -> str:
        return STATES[self.state][0]


@dataclass(frozen=True)
class SlotView:
    slot: Slot
    state: SlotState
    ns: str  # the movement's pairs at the table in the round, as a penalty names them
    ew: str
    verdict: str
    ns_players: str = ""  # the pairs' players by name ("" when nobody named or keyed them)
    ew_players: str = ""
    traveller: tuple[Played, ...] = ()  # the board at every table of the section, this one included

    @property
    def first(self) -> str:
        """The action that fits the slot as it is, whose form the page opens: keep a version of a conflict, enter
        the result of a slot with none (or a damaged or erased one), else correct it."""
        if self.state.conflict:
            return "resolve"
        return "correct"

    def status(self, v: Version) -> str:
        heads = {h.id for h in self.state.heads}
        if v.damage:
            return "damaged"
        if v.id not in heads:
            return "superseded"
        if self.state.conflict:
            return "in conflict"
        return "counts" if self.state.current is v else "head"


def slot_view(conn: sqlite3.Connection, slot: Slot) -> SlotView:
    """The slot's versions and its pairs; UsageError when the movement has no such slot."""
    info = next((s for s in event_info(conn).sections if s.name == slot.section), None)
    if info is None:
        raise UsageError(f"there is no section {slot.section!r} in this event")
    found = [(ns, ew) for r, t, ns, ew, boards in section_rounds(conn, slot.section)
             if (r, t) == (slot.round, slot.table) and str(slot.board) in boards.split()]
    if not found:
        raise UsageError(f"section {slot.section} table {slot.table} does not play board {slot.board} "
                         f"in round {slot.round}")
    ns, ew = found[0]
    state = slot_state(conn, slot)
    prefix = ("", "") if info.one_field else ("NS ", "EW ")
    verdict = _cell(slot.board, state, False, False).state if state.versions else "not in"
    members = roster(conn)
    named = pair_players(conn, slot.section)
    sides = ("", "") if info.one_field else ("NS", "EW")

    def players(pair: int, side: str) -> str:
        numbers = named.get((pair, side))
        return names_of(numbers, members) if numbers else ""
    return SlotView(slot, state, f"{prefix[0]}{ns}", f"{prefix[1]}{ew}", verdict, players(ns, sides[0]),
                    players(ew, sides[1]), traveller(conn, slot, info))


def traveller(conn: sqlite3.Connection, slot: Slot, info: SectionInfo) -> tuple[Played, ...]:
    """The slot's board at every table of its section that plays it, by round and table: what each one has."""
    known = states(conn, info.name)
    prefix = ("", "") if info.one_field else ("NS ", "EW ")
    rows = []
    for round_, table, ns, ew, boards in section_rounds(conn, info.name):
        if str(slot.board) not in boards.split():
            continue
        cell = _cell(slot.board, known.get(Slot(info.name, table, round_, slot.board)), False, False)
        state = known.get(Slot(info.name, table, round_, slot.board))
        current = state.current if state is not None else None
        rows.append(Played(table, round_, f"{prefix[0]}{ns}", f"{prefix[1]}{ew}", cell.state,
                           result_said(current, spoken()) if current is not None and current.kind != "erased"
                           else ""))
    return tuple(rows)


def seen_of(view: SlotView) -> str:
    """What a slot page's forms were made from, sent back with them: the newest version's id and a digest of every
    version's standing (a conflict resolved changes no version but their standing)."""
    newest = max((v.id for v in view.state.versions), default=0)
    standing = repr([(v.id, view.status(v)) for v in view.state.versions]).encode()
    return f"{newest}-{hashlib.sha256(standing).hexdigest()[:16]}"


def what_changed(view: SlotView, seen: str) -> str | None:
    """None when the slot is as the page that sent `seen` showed it; else what changed since, in the page's
    language."""
    if seen == seen_of(view):
        return None
    newest = seen.split("-", 1)[0]
    since = int(newest) if newest.isdecimal() else 0
    words = spoken()
    added = [words.plain("sl_stale_version", version=v.version, result=result_said(v, words), who=origin_said(v, words))
             for v in view.state.versions if v.id > since]
    return words.plain("sl_stale", changes="; ".join(added) if added else words.plain("sl_stale_standing"),
                       verdict=words.plain("is_" + view.verdict.replace(" ", "_")))


def prefilled(view: SlotView) -> dict[str, dict[str, str]]:
    """Each form's fields as the slot gives them: where it is, and its latest result for correct (resolve keeps a
    version or takes a result typed afresh: prefilled, it would refuse "keep v1" until emptied)."""
    s = view.slot
    where = {"section": s.section, "table": str(s.table), "board": str(s.board), "round": str(s.round)}
    # The result that counts, for correct to start from; none in a conflict (a head is a stray result, not the
    # table's: prefilled, one click would make it count) or when it was erased.
    latest = view.state.current
    if latest is not None and latest.kind == "erased":
        latest = None
    return {"correct": where | result_fields(latest), "adjust": dict(where),
            "penalty": {"section": s.section, "board": str(s.board), "pair": view.ns},
            "erase": dict(where), "resolve": dict(where),  # a conflict: keep one of its versions, or type the result
            "move": {"section": s.section, "round": str(s.round)}}


def routes(room: Room) -> list[BaseRoute]:
    room.nav.append(("/director/grid", "Play: the grid"))
    room.nav.append(("/director/terminals", "Terminals"))
    simulated = Rehearsals()  # a practice event's simulated tables, playing into it

    async def live(request: Request, render: Render) -> Response:
        """A page, or its live part alone (`part=1`), once the file is past the generation `since` when given."""
        session = room.session(request)
        if isinstance(session, Response):
            return session
        changes: Changes | None = getattr(request.app.state, "changes", None)
        generation = 0
        if changes is not None:
            since = request.query_params.get("since", "")
            if since.isdecimal():
                generation = await changes.wait(int(since), LONG_POLL_S)
            else:
                generation = changes.generation
        part = request.query_params.get("part") == "1"
        try:
            return await render(session, generation, part)
        except (StoreError, UsageError, sqlite3.Error) as e:
            return room.page("console_grid.html", 404, session=session, grid=None, error=one_line(e),
                             sections=[], generation=generation, states=STATES)

    async def grid_home(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        try:
            sections = await room.read(lambda conn: [s.name for s in event_info(conn).sections])
        except (StoreError, UsageError, sqlite3.Error) as e:
            return room.page("console_grid.html", 404, session=session, grid=None, error=one_line(e), sections=[],
                             generation=0, states=STATES)
        return RedirectResponse(f"/director/grid/{sections[0]}", 303)

    async def grid_page(request: Request) -> Response:
        name = request.path_params["section"]

        async def render(session: Session, generation: int, part: bool) -> Response:
            def read(conn: sqlite3.Connection) -> tuple[SectionGrid, list[str], calls.CallsPanel]:
                sections = event_info(conn).sections
                info = next((s for s in sections if s.name == name), None)
                if info is None:
                    raise UsageError(f"there is no section {name!r} in this event")
                return section_grid(conn, info), [s.name for s in sections], calls.panel(conn)
            grid, sections, panel = await room.read(read)
            return _page(room, "console_grid.html", part, session=session, grid=grid, sections=sections,
                         generation=generation, states=STATES, error=None, calls=panel, local_time=calls.local_time)
        return await live(request, render)

    async def terminals_page(request: Request, status: int = 200, error: str | None = None,
                             typed: dict[str, str] | None = None, done: str | None = None) -> Response:
        async def render(session: Session, generation: int, part: bool) -> Response:
            seen, code = await room.read(terminals)
            panel = await room.read(calls.panel)
            state = room.listening.state() if room.listening is not None else None
            empty = await room.read(listening.empty_tables)
            return _page(room, "console_terminals.html", part, status, session=session, seen=seen, code=code,
                         generation=generation, error=error, typed=typed or {}, done=done, listening=state,
                         missing=listening.missing(state, empty), simulated=simulated.latest,
                         simulating=simulated.running(), paces=listening.PACES, calls=panel,
                         local_time=calls.local_time)
        return await live(request, render)

    async def terminals_home(request: Request) -> Response:
        session = room.session(request)
        done = None
        if isinstance(session, Session):
            done, session.done = session.done, None
        return await terminals_page(request, done=done)

    async def seat_post(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, form = found
        try:
            given = parse.seating(whole("terminal", form.get("terminal")), whole("table", form.get("table")),
                                  form.get("section"), session.name)
            session.done = await room.write(lambda conn: seat(conn, given))
        except (DirectorInputError, EntryError, StoreError, UsageError, sqlite3.Error) as e:
            return await terminals_page(request, 400, one_line(e), form)
        return RedirectResponse("/director/terminals", 303)

    async def listen_post(request: Request) -> Response:
        """Start (or stop) listening for the tables: the collector in this process."""
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, form = found
        what = request.path_params["what"]
        if what not in ("start", "stop", "simulate", "simulate-stop"):
            return Response("no such action", 404, headers=NO_STORE)
        if room.listening is None:
            return await terminals_page(request, 400, spoken().plain("li_none"), form)
        try:
            if what == "stop":
                session.done = await listening.stop(room.listening)
            elif what == "start":
                room.event()
                session.done = await listening.start(room.listening, form)
            elif what == "simulate":
                session.done = await listening.simulate(room.listening, simulated, room.event(), form)
            else:
                simulated.stop()
        except UsageError as e:
            return await terminals_page(request, 400, one_line(e), form)
        return RedirectResponse("/director/terminals", 303)

    def slot_of(request: Request) -> Slot:
        p = request.path_params
        return Slot(p["section"], p["table"], p["round"], p["board"])

    async def slot_page(request: Request, status: int = 200, acted: tuple[str, dict[str, str], str, str] | None = None
                        ) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        done = None
        if acted is None:
            done, session.done = session.done, None
        slot = slot_of(request)
        try:
            view = await room.read(lambda conn: slot_view(conn, slot))
        except (StoreError, UsageError, sqlite3.Error) as e:
            return room.page("console_slot.html", 404, session=session, view=None, error=one_line(e))
        filled = prefilled(view)
        refused, field_at, error = None, None, None
        if acted is not None:
            refused, typed, error, field_at = acted
            filled[refused] = typed
        return room.page("console_slot.html", status, session=session, view=view, filled=filled, refused=refused,
                         field_at=field_at, error=error, done=done, moves=MOVES, clock=clock, seen=seen_of(view),
                         result_said=result_said, origin_said=origin_said, kind_said=kind_said)

    async def slot_action(request: Request) -> Response:
        form_name = request.path_params["action"]
        name = "adjust" if form_name == "penalty" else form_name
        if name not in ACTIONS:
            return Response("no such action", 404, headers=NO_STORE)
        slot = slot_of(request)

        def unchanged(conn: sqlite3.Connection, form: dict[str, str]) -> None:
            # The slot's own results: refused when the page is out of date (another tab, a terminal's new version).
            if form_name in SLOT_RESULT_FORMS and "seen" in form:
                changed = what_changed(slot_view(conn, slot), form["seen"])
                if changed is not None:
                    raise Stale(changed)
        acted = await act(room, request, name, unchanged)
        if isinstance(acted, Response):
            return acted
        if acted.stale:  # the slot as it is now, the message atop, nothing done
            return await slot_page(request, 409, ("", {}, acted.error or "", ""))
        if acted.error is not None:
            at = acted.field if acted.field in FIELDS.get(form_name, set()) else ""
            return await slot_page(request, 400, (form_name, acted.form, acted.error, at or ""))
        acted.session.done = acted.done
        return RedirectResponse(request.url.path.rsplit("/", 1)[0], 303)

    async def script(request: Request) -> Response:
        return FileResponse(STATIC / "console.js", media_type="text/javascript", headers=NO_STORE)

    slot_path = "/director/slot/{section}/{table:int}/{round:int}/{board:int}"
    return [
        Route("/director/grid", grid_home, methods=["GET"]),
        Route("/director/grid/{section}", grid_page, methods=["GET"]),
        Route("/director/terminals", terminals_home, methods=["GET"]),
        Route("/director/seat", seat_post, methods=["POST"]),
        Route("/director/listen/{what:str}", listen_post, methods=["POST"]),
        Route(slot_path, slot_page, methods=["GET"]),
        Route(slot_path + "/{action}", slot_action, methods=["POST"]),
        Route("/director/console.js", script, methods=["GET"]),
    ]


# The slot page's forms that change the slot's result, refused when the page is out of date (a penalty or a movement
# change does not depend on the slot's versions).
SLOT_RESULT_FORMS = frozenset({"resolve", "correct", "adjust", "erase"})


def _page(room: Room, template: str, part: bool, status: int = 200, **context: object) -> Response:
    """The page, or its live part alone (the page's template includes it: NAME_part.html)."""
    if not part:
        return room.page(template, status, **context)
    html = room.env.get_template(template.replace(".html", "_part.html")).render(t=spoken(), **context)
    generation = context.get("generation", 0)
    return HTMLResponse(html, status, headers={**NO_STORE, "X-Generation": str(generation)})
