"""The console's set-up: a new event and its movements previewed, the roster, the pairs' players, the deals."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import sqlite3
import threading
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.deals.files import DealFileError, read_deals
from tenace.deals.importing import analyse_section, import_deals
from tenace.director.errors import DirectorInputError
from tenace.director.pair_list import member_number
from tenace.director.setup import (
    SECTION_KINDS,
    InTwoPairs,
    NewEvent,
    NoMember,
    SectionPlan,
    create_new_event,
    import_roster,
    in_two_pairs,
    name_pairs,
    new_event_input,
    previews,
    seats,
    section_plan,
)
from tenace.errors import UsageError
from tenace.movement import Report
from tenace.movement.check import span
from tenace.movement.text import RoundPlan, plan_rounds, verdict
from tenace.protocol.http_guard import NO_STORE, forbidden
from tenace.store import EntryError, StoreError, connect, event_info
from tenace.store.encounters import section_boards
from tenace.store.event import SCORING_METHODS
from tenace.store.hand_records import hand_records
from tenace.store.names import Member, names_of, pair_players, roster, set_pairs_players
from tenace.web.console.auth import Session
from tenace.web.console.forms import one_line, worded
from tenace.web.console.room import SPOKEN, Room, spoken
from tenace.web.console.said import movement_said

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent.parent / "static"
# A new event's section rows on the page (a club runs one to a few sections an evening).
SECTION_ROWS = 4
# A roster, a list of pairs or a deals file read into the form: far larger than a typed form, still bounded.
FILE_FORM_BYTES = 4_000_000
# The member lookup's answers at most (as the director types, the list narrows).
LOOKUP_MAX = 20
# The form's fields as a refusal beside them names them.
LABELS = {"name": "the name", "date": "the date", "scoring": "the scoring", "sections": "", "section": "the section",
          "movement": "the movement", "tables": "tables", "boards_per_round": "boards per round", "rounds": "rounds",
          "phantom": "half table", "roster": "", "pairs": "", "deals": ""}
# A section row's fields: the director's input field -> the form's field (s1_tables...).
ROW_FIELDS = {"section": "section", "movement": "movement", "tables": "tables", "boards_per_round": "boards",
              "rounds": "rounds", "phantom": "half"}

Form = dict[str, str]


class Refused(Exception):
    """Refusals, each beside its field: field name on the page -> what is wrong."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


@dataclass
class Analysis:
    """The double-dummy analysis running in the background after an import: one thread at a time, each pass
    analysing every section's deals not analysed yet; what the page's progress bar shows."""

    done: int = 0
    total: int = 0
    running: bool = False
    again: bool = False  # deals imported while a pass runs: one more pass
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, path: Path) -> None:
        with self.lock:
            if self.running:
                self.again = True
                return
            self.running, self.again, self.error, self.done, self.total = True, False, None, 0, 0
        threading.Thread(target=self._run, args=(path,), name="double dummy", daemon=True).start()

    def _run(self, path: Path) -> None:
        try:
            while True:
                conn = connect(path)
                try:
                    waiting = {s.name: sum(1 for r in hand_records(conn, s.name).values() if r.analysis is None)
                               for s in event_info(conn).sections}
                    with self.lock:
                        self.total = self.done + sum(waiting.values())
                    for section, count in waiting.items():
                        if count:
                            base = self.done
                            analyse_section(conn, section, on_board=partial(self._advance, base))
                finally:
                    conn.close()
                with self.lock:
                    if not self.again:
                        self.running = False
                        return
                    self.again = False
        except Exception as e:  # shown on the page, and logged with its traceback here
            log.exception("the double-dummy analysis stopped")
            with self.lock:
                self.error, self.running = one_line(e), False

    def _advance(self, base: int, done: int, of: int) -> None:
        with self.lock:
            self.done = base + done

    def state(self) -> dict[str, object]:
        with self.lock:
            return {"running": self.running, "done": self.done, "total": self.total, "error": self.error}


@dataclass(frozen=True)
class Preview:
    plan: SectionPlan
    movement: str
    verdict: str
    ok: bool
    errors: tuple[str, ...]
    observations: tuple[str, ...]
    rounds: list[RoundPlan]


def preview_of(plan: SectionPlan, report: Report) -> Preview:
    return Preview(plan, report.movement.name, verdict(report), report.ok,
                   tuple(f"{p.rule}: {p.message}" for p in report.errors), report.observations,
                   plan_rounds(report.movement))


def said(e: DirectorInputError) -> str:
    text = worded(e, SPOKEN.get(), LABELS).strip()
    return text[:1].upper() + text[1:]


def two_pairs_warnings(twice: list[InTwoPairs]) -> list[str]:
    """`tenace names`'s warning of a player in two pairs, in the console's language."""
    words = spoken()
    return [words.plain("su_warn_two_pairs", player=t.player, pairs=f" {words.texts['and']} ".join(t.pairs))
            for t in twice]


def new_event_of(form: Form) -> NewEvent:
    """The new event the form asks for; Refused naming each wrong field (every row checked, not just the first)."""
    errors: dict[str, str] = {}
    plans = []
    for i in range(1, SECTION_ROWS + 1):
        name = form.get(f"s{i}_section")
        if name is None:
            continue
        try:
            plan = section_plan(name, form.get(f"s{i}_movement"), form.get(f"s{i}_tables"),
                                form.get(f"s{i}_boards"), form.get(f"s{i}_rounds"), f"s{i}_half" in form)
            previews(NewEvent("", "", "", (plan,)))  # the movement made: its figures' faults beside them
            plans.append(plan)
        except DirectorInputError as e:
            errors[f"s{i}_{ROW_FIELDS.get(e.field, 'section')}"] = said(e)
    given = {"name": form.get("name"), "date": form.get("date"), "scoring": form.get("scoring")}
    stand_in = {"name": "-", "date": None, "scoring": None}  # a field refused: the next one's fault is said too
    for _ in range(len(given) + 1):
        try:
            event = new_event_input(given["name"], given["date"], given["scoring"], plans)
            break
        except DirectorInputError as e:
            if e.field not in given or e.field in errors:
                if not (e.field == "sections" and errors):  # no section read: said beside the rows already
                    errors[e.field] = said(e)
                break
            errors[e.field], given[e.field] = said(e), stand_in[e.field]
    if errors:
        raise Refused(errors)
    return replace(event, practice="practice" in form)


def digest(event: NewEvent, csrf: str) -> str:
    """What the preview showed, as a token the create must carry: a create of anything else shows its preview."""
    return hmac.new(csrf.encode(), repr(event).encode(), hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class GridRow:
    section: str
    label: str  # "NS 1", "7"
    key: str  # the form's fields are p-{key}-1 and p-{key}-2
    players: tuple[str, str]
    names: tuple[str, str]


def grid_key(section: str, direction: str, number: int) -> str:
    return f"{section}-{direction or 'P'}-{number}"


def grid(conn: sqlite3.Connection) -> dict[str, list[GridRow]]:
    """Each pairs section's pairs in their order with the players named so far (the director's, else keyed)."""
    members = roster(conn)
    out: dict[str, list[GridRow]] = {}
    for section, pairs in seats(conn).items():
        named = pair_players(conn, section)
        rows = []
        for p in pairs:
            numbers = named.get((p.number, p.field))
            shown = (str(numbers[0]), str(numbers[1])) if numbers else ("", "")
            names = (names_of((numbers[0],), members), names_of((numbers[1],), members)) if numbers else ("", "")
            rows.append(GridRow(section, f"{p.field} {p.number}".strip(), grid_key(section, p.field, p.number),
                                shown, names))
        out[section] = rows
    return out


def name_grid(conn: sqlite3.Connection, form: Form, who: str) -> int:
    """The grid's filled rows named, all or nothing; Refused naming each wrong field. Rows left empty stay as they
    were. How many pairs were named."""
    members = roster(conn)
    errors: dict[str, str] = {}
    chosen: list[tuple[str, int, str, tuple[int, int]]] = []
    for section, pairs in seats(conn).items():
        for p in pairs:
            key = grid_key(section, p.field, p.number)
            typed = (form.get(f"p-{key}-1"), form.get(f"p-{key}-2"))
            if typed == (None, None):
                continue
            numbers = []
            for i, text in enumerate(typed, 1):
                if text is None:
                    errors[f"p-{key}-{i}"] = spoken().plain("su_both_players")
                    continue
                try:
                    numbers.append(member_number(text, members))
                except DirectorInputError as e:
                    errors[f"p-{key}-{i}"] = said(e)
            if len(numbers) == 2:
                if numbers[0] == numbers[1]:
                    errors[f"p-{key}-2"] = spoken().plain("su_twice", number=numbers[0])
                else:
                    chosen.append((section, p.number, p.field, (numbers[0], numbers[1])))
    if errors:
        raise Refused(errors)
    if not chosen:
        raise Refused({"grid": spoken().plain("su_no_pair_filled")})
    set_pairs_players(conn, chosen, who=who)
    return len(chosen)


def lookup(members: dict[int, Member], query: str) -> list[dict[str, object]]:
    """The members a typed text may mean: by the start of their number, else by a part of their name."""
    q = " ".join(query.casefold().split())
    if not q:
        return []
    if q.isdigit():
        found = [m for m in members.values() if str(m.number).startswith(q)]
    else:
        found = [m for m in members.values() if q in m.name.casefold()]
    found.sort(key=lambda m: (str(m.number) != q, m.number))
    return [{"number": m.number, "name": m.name} for m in found[:LOOKUP_MAX]]


@dataclass(frozen=True)
class SectionDeals:
    section: str
    boards: str  # the section's boards
    kept: int
    analysed: int


def deals_of(conn: sqlite3.Connection) -> list[SectionDeals]:
    out = []
    for s in event_info(conn).sections:
        records = hand_records(conn, s.name)
        boards = section_boards(conn, s.name)
        out.append(SectionDeals(s.name, span(boards), len(records),
                                sum(1 for r in records.values() if r.analysis is not None)))
    return out


def deal_bytes(form: Form) -> bytes:
    """The deals the form carries: a chosen file (base64, as the page's script reads it: a DUP file is not text),
    else the text pasted."""
    chosen = form.get("deals_base64")
    if chosen is not None:
        try:
            return base64.b64decode(chosen, validate=True)
        except (binascii.Error, ValueError):
            raise Refused({"deals": spoken().plain("su_file_broken")}) from None
    text = form.get("deals")
    if text is None:
        raise Refused({"deals": spoken().plain("su_paste_or_choose")})
    return text.encode("utf-8")


def routes(room: Room) -> list[BaseRoute]:
    """The set-up's page and its posts; its menu entry first (the evening starts with it)."""
    room.nav.insert(0, ("/director/setup", "Set up"))
    analysis = Analysis()

    async def page(request: Request, session: Session, status: int = 200, *, refused: str | None = None,
                   typed: Form | None = None, errors: dict[str, str] | None = None, error: str | None = None,
                   shown: list[Preview] | None = None, token: str | None = None,
                   lines: list[str] | None = None) -> Response:
        done, session.done = (session.done, None) if status == 200 and refused is None else (None, session.done)
        context: dict[str, object] = {}
        if room.path is not None:
            def read(conn: sqlite3.Connection) -> dict[str, object]:
                info = event_info(conn)
                return {"info": info, "grid": grid(conn), "deals": deals_of(conn), "members": len(roster(conn))}
            try:
                context = await room.read(read)
            except (StoreError, UsageError, sqlite3.Error) as e:
                error = error or f"{room.path}: {one_line(e)}"
        return room.page("console_setup.html", status, session=session, done=done, error=error, refused=refused,
                         typed=typed or {}, errors=errors or {}, previews=shown, token=token, lines=lines or [],
                         new_path=room.new_path, rows=SECTION_ROWS, kinds=SECTION_KINDS, scorings=SCORING_METHODS,
                         movement_said=movement_said,
                         analysis=analysis.state(), **context)

    async def home(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        return await page(request, session)

    async def new_event(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, form = found
        if room.path is not None or room.new_path is None:
            why = spoken().plain("su_exists" if room.path is not None else "su_made_by_new")
            return await page(request, session, 400, refused="event", typed=form, errors={"event": why})
        try:
            event = new_event_of(form)
            shown = [preview_of(plan, report) for plan, report in previews(event)]
        except Refused as e:
            return await page(request, session, 400, refused="event", typed=form, errors=e.errors)
        token = digest(event, session.csrf)
        if form.get("do") != "create":
            return await page(request, session, refused="event", typed=form, shown=shown, token=token)
        if not hmac.compare_digest(form.get("previewed", ""), token):
            return await page(request, session, 400, refused="event", typed=form, shown=shown, token=token,
                              errors={"create": spoken().plain("su_changed")})
        path = room.new_path
        try:
            done = await run_in_threadpool(create_new_event, path, event)
        except DirectorInputError as e:
            return await page(request, session, 400, refused="event", typed=form, shown=shown, token=token,
                              errors={"create": said(e)})
        except (OSError, StoreError, EntryError) as e:
            return await page(request, session, 400, refused="event", typed=form, shown=shown, token=token,
                              errors={"create": one_line(e)})
        room.path = path
        log.info("director's console: %s: %s", session.name, done)
        session.done = done
        if room.listening is not None and room.listening.asked is not None:
            # tenace serve --new with the collector's options: it starts now that there is an event file.
            try:
                await run_in_threadpool(room.listening.start_asked)
            except UsageError as e:
                session.warnings.append(one_line(e))
        return RedirectResponse("/director/setup", 303)

    async def acting(request: Request, name: str, limit: int = FILE_FORM_BYTES) -> tuple[Session, Form] | Response:
        found = await room.checked(request, limit)
        if isinstance(found, Response):
            return found
        session, form = found
        if room.path is None:
            return await page(request, session, 400, refused=name, typed=form,
                              errors={name: spoken().plain("su_no_event")})
        return found

    async def roster_post(request: Request) -> Response:
        found = await acting(request, "roster")
        if isinstance(found, Response):
            return found
        session, form = found
        try:
            done = await room.write(lambda conn: import_roster(conn, form.get("roster", "")))
        except NoMember as e:
            return await page(request, session, 400, refused="roster", typed=form, errors={"roster": said(e)},
                              lines=[spoken().plain("su_line", line=s.line, why=s.why) for s in e.skipped])
        except (EntryError, StoreError, sqlite3.Error) as e:
            return await page(request, session, 400, refused="roster", typed=form, errors={"roster": one_line(e)})
        w = spoken().plain
        skipped = w("su_done_skipped_one" if len(done.skipped) == 1 else "su_done_skipped_many",
                    count=len(done.skipped)) if done.skipped else ""
        session.done = "\n".join([w("su_done_roster_one" if done.kept == 1 else "su_done_roster_many", count=done.kept,
                                    skipped=skipped),
                                  *("  " + w("su_done_skipped_line", line=s.line, why=s.why) for s in done.skipped)])
        return RedirectResponse("/director/setup#roster", 303)

    async def grid_post(request: Request) -> Response:
        found = await acting(request, "grid")
        if isinstance(found, Response):
            return found
        session, form = found
        try:
            count, twice = await room.write(lambda conn: (name_grid(conn, form, session.name), in_two_pairs(conn)))
        except Refused as e:
            return await page(request, session, 400, refused="grid", typed=form, errors=e.errors)
        except (EntryError, StoreError, sqlite3.Error) as e:
            return await page(request, session, 400, refused="grid", typed=form, errors={"grid": one_line(e)})
        session.done = spoken().plain("su_done_pairs", count=count)
        session.warnings = two_pairs_warnings(twice)
        return RedirectResponse("/director/setup#pairs", 303)

    async def list_post(request: Request) -> Response:
        found = await acting(request, "list")
        if isinstance(found, Response):
            return found
        session, form = found
        try:
            done = await room.write(lambda conn: name_pairs(conn, form.get("pairs", ""), form.get("section"),
                                                            who=session.name))
        except DirectorInputError as e:
            where = "list_section" if e.field == "section" else "pairs"
            return await page(request, session, 400, refused="list", typed=form, errors={where: said(e)})
        except EntryError as e:
            return await page(request, session, 400, refused="list", typed=form, errors={"list_section": one_line(e)})
        except (StoreError, sqlite3.Error) as e:
            return await page(request, session, 400, refused="list", typed=form, errors={"pairs": one_line(e)})
        if done.wrong:
            wrong = len(done.wrong)
            return await page(request, session, 400, refused="list", typed=form,
                              errors={"pairs": spoken().plain("su_lines_wrong_" + ("one" if wrong == 1 else "many"),
                                                              count=wrong)},
                              lines=[spoken().plain("su_line", line=w.line, why=said(w.error)) for w in done.wrong])
        session.done = spoken().plain("su_done_pairs_list", count=len(done.named))
        players = {n for p in done.named for n in p.players}
        session.warnings = two_pairs_warnings(await room.read(lambda conn: in_two_pairs(conn, players)))
        return RedirectResponse("/director/setup#pairs", 303)

    async def deals_post(request: Request) -> Response:
        found = await acting(request, "deals")
        if isinstance(found, Response):
            return found
        session, form = found
        path = room.event()
        typed = {k: v for k, v in form.items() if k != "deals_base64"}

        def run(conn: sqlite3.Connection) -> tuple[str, list[str]]:
            names = [s.name for s in event_info(conn).sections]
            section = form.get("section", names[0] if len(names) == 1 else "")
            if section not in names:
                raise Refused({"deal_section": spoken().plain("su_choose_section", sections=", ".join(names))})
            try:
                deals = read_deals(deal_bytes(form))
            except DealFileError as e:
                raise Refused({"deals": one_line(e)}) from None
            outcome = import_deals(conn, section, deals, who=session.name, why="hand records imported")
            skipped = [s.text(form.get("deals_name", "the deals")) for s in outcome.skipped]
            if not outcome.boards:
                raise Refused({"deals": spoken().plain("su_no_deal", count=len(skipped)),
                               "skipped": "\n".join(skipped)})
            w = spoken().plain
            replaced = w("su_done_replacing", count=len(outcome.replaced)) if outcome.replaced else ""
            kept = len(outcome.boards)
            return w("su_done_deals_one" if kept == 1 else "su_done_deals_many", section=section, kept=kept,
                     boards=span(outcome.boards), replaced=replaced, skipped=len(skipped)), skipped
        try:
            text, skipped = await room.write(run)
        except Refused as e:
            lines = e.errors.pop("skipped", "").splitlines()
            return await page(request, session, 400, refused="deals", typed=typed, errors=e.errors, lines=lines)
        except (EntryError, StoreError, sqlite3.Error) as e:
            return await page(request, session, 400, refused="deals", typed=typed, errors={"deals": one_line(e)})
        analysis.start(path)
        session.done = "\n".join([text, *("  " + spoken().plain("su_skipped_one", line=s) for s in skipped)])
        return RedirectResponse("/director/setup#deals", 303)

    def json_session(request: Request) -> Session | Response:
        """A JSON answer's session: logged in, and the page's form token in X-CSRF-Token (another site's page can
        neither send that header without asking first nor know the token)."""
        session = room.director.session(request)
        if session is None:
            return forbidden("refused: not logged in to the director's console")
        if not hmac.compare_digest(request.headers.get("x-csrf-token", "").encode(), session.csrf.encode()):
            return forbidden("refused: the console's form token is missing or not this session's (reload the page)")
        return session

    async def members(request: Request) -> Response:
        session = json_session(request)
        if isinstance(session, Response):
            return session
        query = request.query_params.get("q", "")[:80]
        if room.path is None:
            return JSONResponse({"members": []}, headers=NO_STORE)
        found = await room.read(lambda conn: lookup(roster(conn), query))
        return JSONResponse({"members": found}, headers=NO_STORE)

    async def progress(request: Request) -> Response:
        session = json_session(request)
        if isinstance(session, Response):
            return session
        return JSONResponse(analysis.state(), headers=NO_STORE)

    async def script(request: Request) -> Response:
        return FileResponse(STATIC / "console_setup.js", media_type="text/javascript", headers=NO_STORE)

    return [
        Route("/director/setup", home, methods=["GET"]),
        Route("/director/setup/event", new_event, methods=["POST"]),
        Route("/director/setup/roster", roster_post, methods=["POST"]),
        Route("/director/setup/pairs", grid_post, methods=["POST"]),
        Route("/director/setup/pair-list", list_post, methods=["POST"]),
        Route("/director/setup/deals", deals_post, methods=["POST"]),
        Route("/director/setup/analysis", progress, methods=["GET"]),
        Route("/director/roster", members, methods=["GET"]),
        Route("/director/setup.js", script, methods=["GET"]),
    ]
