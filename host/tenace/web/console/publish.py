"""The console's finish and publish pages: finishing as `tenace finish` does (its warnings first, then the correction
period's countdown), and every export `tenace report` writes offered as a download, made on request (with serve
--championship, the championship's ranking and USEBIO file as `tenace championship rank` writes them too)."""

from __future__ import annotations

import io
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.errors import UsageError
from tenace.page_base.words import DEFAULT, LANGUAGES, language_of, words
from tenace.protocol.http_guard import NO_STORE
from tenace.reports.championship import ChampionshipError, combined_json
from tenace.reports.championship_usebio import championship_usebio
from tenace.reports.event_csv import write_section_csv
from tenace.reports.event_pbn import write_section_pbn
from tenace.reports.event_results import EventResults, ResultsError, SectionResults, event_results
from tenace.reports.event_teams import MatchResult, seat_names
from tenace.reports.event_usebio import Extras, UsebioError, event_extras, usebio_bytes, usebio_tree
from tenace.reports.problems import clock
from tenace.store import CORRECTION_MINUTES, EntryError, FinishCheck, Publication, StoreError, publication
from tenace.store.hand_records import hand_record
from tenace.store.ledger import head
from tenace.usebio.schema import UsebioSchemaError
from tenace.web.championship_page import ServedChampionship
from tenace.web.console.forms import one_line
from tenace.web.console.room import SPOKEN, Room, spoken
from tenace.web.static_site import Site

FINISH_WHY = "session finished, results published"  # tenace finish's default reason
STATIC = Path(__file__).resolve().parent.parent / "static"
CHAMPIONSHIP_KINDS = ("championship-json", "championship-usebio")  # offered with tenace serve --championship only


@dataclass(frozen=True)
class Export:
    """One download as it is sent: its bytes, content type and file name."""

    data: bytes
    media_type: str
    filename: str


@dataclass(frozen=True)
class Read:
    """What the exports are made from, read in one read transaction as `tenace report` reads it."""

    results: EventResults
    chain: str
    deals: dict[str, dict[int, str]]  # each section's kept hand records, by board
    seats: dict[str, dict[int, str]]  # each section's pairs' players, by pair number
    extras: Extras


def read_all(conn: sqlite3.Connection, section: str | None = None) -> Read:
    results = event_results(conn, section)
    names = [s.section for s in results.sections]
    deals = {s.section: {b: d for b in s.boards if (d := hand_record(conn, s.section, b)) is not None}
             for s in results.sections}
    return Read(results, head(conn), deals, {n: seat_names(conn, n) for n in names}, event_extras(conn, names))


def damaged_line(results: EventResults) -> str | None:
    """`tenace report`'s refusal of damaged results, worded for the console; None when there are none."""
    damaged = sum(each.damaged for each in results.sections)
    if not damaged:
        return None
    return spoken().plain("pu_damaged_one" if damaged == 1 else "pu_damaged_many", count=damaged)


def stem(room: Room) -> str:
    """The downloads' names begin with the event file's: a practice event's say so."""
    return f"{room.event().stem}-practice" if room.is_practice() else room.event().stem


def pbn_export(read: Read, name: str, team: int | None) -> Export:
    """One section's PBN file (`tenace report --pbn`), of one team match when the section holds several."""
    section = read.results.sections[0]
    match = _match(section, team)
    out = io.StringIO(newline="\n")
    write_section_pbn(read.results, section, read.deals[section.section], out, read.seats[section.section], match,
                      read.chain)
    suffix = f"-{team}" if team is not None else ""
    return Export(out.getvalue().encode("utf-8"), "application/x-pbn; charset=utf-8",
                  f"{name}-{section.section}{suffix}.pbn")


def _match(section: SectionResults, team: int | None) -> MatchResult | None:
    """The team match a PBN file holds (as `tenace report --match`); UsageError when the choice is wanting."""
    if team is None:
        if len(section.matches) > 1:
            raise UsageError(spoken().plain("pu_choose_match", section=section.section, count=len(section.matches)))
        return None
    found = next((m for m in section.matches if team in (m.home, m.away)), None)
    if found is None:
        raise UsageError(spoken().plain("pu_no_match", team=team, section=section.section))
    return found


def zipped(folder: Path) -> bytes:
    """Every file under `folder` in a zip, by its path inside the folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(folder).as_posix())
    return buffer.getvalue()


def csv_export(read: Read, name: str) -> Export:
    """Every section's CSV files (`tenace report --csv`) in one zip."""
    with tempfile.TemporaryDirectory(prefix="tenace-csv-") as tmp:
        for each in read.results.sections:
            write_section_csv(each, Path(tmp))
        return Export(zipped(Path(tmp)), "application/zip", f"{name}-csv.zip")


def html_export(read: Read, name: str, lang: str) -> Export:
    """The static site (`tenace report --html`) in one zip: index.html, a page per board, per pair and per named
    player."""
    with tempfile.TemporaryDirectory(prefix="tenace-site-") as tmp:
        site = Site(read.results, Path(tmp), lang, read.chain)
        site.index()
        for each in read.results.sections:
            site.section(each)
        site.players()
        return Export(zipped(Path(tmp)), "application/zip", f"{name}-site-{lang}.zip")


def usebio_club(club: str, club_id: str | None) -> None:
    """The USEBIO form's club and club number checked (DirectorInputError naming the field at fault)."""
    if not club or not club.isprintable():
        raise DirectorInputError("club", "a USEBIO file names the club that ran the event: give the {club}")
    if club_id is not None and not (club_id.isascii() and club_id.isdigit()):
        raise DirectorInputError("club_id", "{club_id} is digits (USEBIO's CLUB_ID_NUMBER)")


def usebio_export(read: Read, name: str, club: str, club_id: str | None) -> Export:
    """Every section as one USEBIO 1.2 file (`tenace report --usebio`), checked against the schema."""
    usebio_club(club, club_id)
    tree, _ = usebio_tree(read.results, read.results.sections, read.extras, club, club_id, read.chain)
    return Export(usebio_bytes(tree), "application/xml", f"{name}-usebio.xml")


def championship_json_export(served: ServedChampionship, conn: sqlite3.Connection, name: str) -> Export:
    """The championship's ranking so far as `tenace championship rank --json` prints it (the served session's results
    as the console reads them, the other sessions' files as they are)."""
    return Export(combined_json(served.document(event_results(conn))).encode("utf-8"),
                  "application/json; charset=utf-8", f"{name}-championship.json")


def championship_usebio_export(served: ServedChampionship, name: str, club: str, club_id: str | None) -> Export:
    """The championship's sessions so far as one USEBIO 1.2 file, as `tenace championship rank --usebio` writes it."""
    usebio_club(club, club_id)
    tree, _ = championship_usebio(served.championship, club, club_id)
    return Export(usebio_bytes(tree), "application/xml", f"{name}-championship-usebio.xml")


@dataclass(frozen=True)
class Shown:
    """A publication as the finish page shows it: the laptop's clock, and the period's end for the countdown."""

    at_local: str
    who: str
    minutes: int
    ends_iso: str
    ends_local: str


def shown(published: Publication | None) -> Shown | None:
    if published is None:
        return None
    at = datetime.fromisoformat(published.at).astimezone()
    ends = published.ends.astimezone()
    return Shown(f"{at:%H:%M}", published.who, published.minutes, ends.isoformat(), f"{ends:%H:%M}")


def reasons_said(check: FinishCheck) -> tuple[str, ...]:
    """What stands in the way of finishing, in the page's language: the store's own words in English; in another
    language each reason by its count (the problems page names the results)."""
    t = spoken()
    if t.lang == DEFAULT:
        return check.reasons
    said = []
    if check.earlier is not None:
        said.append(t.plain("fi_why_finished", at=clock(check.earlier.at), who=check.earlier.who))
    for count, key in ((check.conflicts, "fi_why_conflicts"), (check.missing, "fi_why_missing"),
                       (check.damaged, "fi_why_damaged")):
        if count:
            said.append(t.plain(key, count=count))
    return tuple(said)


def routes(room: Room) -> list[BaseRoute]:
    room.nav += [("/director/finish", "Finish"), ("/director/publish", "Publish")]

    async def finish_page(request: Request, status: int = 200, error: str | None = None,
                          typed: dict[str, str] | None = None, field: str | None = None) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        done, session.done = session.done, None

        def state(conn: sqlite3.Connection) -> tuple[Publication | None, FinishCheck]:
            return publication(conn), actions.finish_warnings(conn)
        try:
            published, check = await room.read(state)
        except (StoreError, UsageError, sqlite3.Error) as e:
            return room.page("console_finish.html", 400, session=session, error=one_line(e), published=None,
                             reasons=(), typed={}, done=done, minutes=CORRECTION_MINUTES, why=FINISH_WHY)
        return room.page("console_finish.html", status, session=session, error=error, done=done, field=field,
                         published=shown(published), reasons=reasons_said(check), typed=typed or {},
                         minutes=CORRECTION_MINUTES, why=FINISH_WHY)

    async def finish_get(request: Request) -> Response:
        return await finish_page(request)

    async def finish(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        session, form = found

        def run(conn: sqlite3.Connection) -> str:
            finishing = parse.finish(_minutes(form.get("minutes")))
            signed = parse.signature(session.name, form.get("why"), "force" in form, default_why=FINISH_WHY)
            line, _ = actions.finish(conn, finishing, signed)
            return line
        try:
            session.done = await room.write(run)
        except EntryError as e:
            return await finish_page(request, 400, spoken().plain("fi_tick_force", why=one_line(e)), form)
        except DirectorInputError as e:
            return await finish_page(request, 400, one_line(e), form, e.field)
        except (StoreError, UsageError, sqlite3.Error) as e:
            return await finish_page(request, 400, one_line(e), form)
        return RedirectResponse("/director/finish", 303)

    async def publish_page(request: Request, status: int = 200, error: str | None = None,
                           field: str | None = None, typed: dict[str, str] | None = None) -> Response:
        """The page; after a refused download, its form as it was typed (`typed`: the query's fields)."""
        session = room.session(request)
        if isinstance(session, Response):
            return session
        def state(conn: sqlite3.Connection) -> tuple[EventResults, dict[str, object]]:
            results = event_results(conn)
            return results, room.championship.context(results) if room.championship is not None else {}
        try:
            results, championship = await room.read(state)
        except (ResultsError, StoreError, UsageError, sqlite3.Error) as e:
            return room.page("console_publish.html", 400, session=session, error=error or one_line(e),
                             results=None, damaged=None, field=field, languages=LANGUAGES, default=DEFAULT,
                             typed=typed or {})
        # pt: the public pages' words, in which the championship's ranking is said (as on the public pages)
        return room.page("console_publish.html", status, session=session, error=error, results=results,
                         damaged=damaged_line(results), field=field, languages=LANGUAGES, default=DEFAULT,
                         typed=typed or {}, pt=words(SPOKEN.get()), served_championship=room.championship is not None,
                         **championship)

    async def publish_get(request: Request) -> Response:
        return await publish_page(request)

    async def download(request: Request) -> Response:
        """An export made now from the event file as it is; refused in one line (400) as `tenace report` refuses.
        Its ?lang= is the web site's language, not the console's: the console keeps speaking the one it spoke."""
        known = room.director.session(request)
        kept = known.lang if known is not None else None
        session = room.session(request)
        if isinstance(session, Response):
            return session
        session.lang = kept
        SPOKEN.set(kept or language_of(None, request.headers.get("accept-language")) or DEFAULT)
        kind = request.path_params["kind"]
        q = request.query_params
        made: dict[str, Callable[[Read, str], Export]] = {
            "pbn": lambda read, name: pbn_export(read, name, _team(q.get("match"))),
            "csv": csv_export,
            "html": lambda read, name: html_export(read, name, _language(q.get("lang"))),
            "usebio": lambda read, name: usebio_export(read, name, q.get("club", "").strip(),
                                                       q.get("club_id", "").strip() or None),
        }
        served = room.championship
        if kind in CHAMPIONSHIP_KINDS and served is not None:
            return await championship_download(request, served, kind)
        if kind not in made:
            return await publish_page(request, 404, spoken().plain("pu_no_export", kind=repr(kind)))
        section = q.get("section") if kind == "pbn" else None
        try:
            read = await room.read(lambda conn: read_all(conn, section))
            damaged = damaged_line(read.results)
            if damaged is not None and q.get("force") != "1":
                raise UsageError(spoken().plain("pu_damaged_refused", damaged=damaged))
            export = made[kind](read, stem(room))
        except DirectorInputError as e:  # a field of the USEBIO form: said beside it
            return await publish_page(request, 400, one_line(e), e.field, typed={**q, "kind": kind})
        except (ResultsError, UsebioError, UsebioSchemaError, StoreError, UsageError, sqlite3.Error, OSError) as e:
            return await publish_page(request, 400, f"{kind}: {one_line(e)}", typed={**q, "kind": kind})
        return sent(export)

    async def championship_download(request: Request, served: ServedChampionship, kind: str) -> Response:
        """The championship's ranking so far (JSON) or its sessions so far (USEBIO), as `tenace championship rank`
        writes them; refused in one line (400), a field of the USEBIO form beside it."""
        q = request.query_params
        try:
            if kind == "championship-json":
                name = stem(room)
                export = await room.read(lambda conn: championship_json_export(served, conn, name))
            else:  # the sessions' files read as the command reads them, off the event loop
                export = await run_in_threadpool(championship_usebio_export, served, stem(room),
                                                 q.get("club", "").strip(), q.get("club_id", "").strip() or None)
        except DirectorInputError as e:
            return await publish_page(request, 400, one_line(e), e.field, typed={**q, "kind": kind})
        except (ChampionshipError, ResultsError, UsebioError, UsebioSchemaError, StoreError, UsageError,
                sqlite3.Error, OSError) as e:
            return await publish_page(request, 400, f"{kind}: {one_line(e)}", typed={**q, "kind": kind})
        return sent(export)

    async def countdown_script(request: Request) -> Response:
        return FileResponse(STATIC / "countdown.js", media_type="text/javascript", headers=NO_STORE)

    return [
        Route("/director/finish", finish_get, methods=["GET"]),
        Route("/director/finish", finish, methods=["POST"]),
        Route("/director/publish", publish_get, methods=["GET"]),
        Route("/director/download/{kind}", download, methods=["GET"]),
        Route("/director/static/countdown.js", countdown_script, methods=["GET"]),
    ]


def sent(export: Export) -> Response:
    return Response(export.data, media_type=export.media_type, headers={
        **NO_STORE, "Content-Disposition": f'attachment; filename="{export.filename}"'})


def _minutes(text: str | None) -> int:
    if text is None:
        return CORRECTION_MINUTES
    if not text.isdecimal() or len(text) > 6:
        raise DirectorInputError("correction_minutes", "{correction_minutes}: give a whole number of minutes")
    return int(text)


def _team(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    if not text.isdecimal() or len(text) > 4:
        raise UsageError(spoken().plain("pu_team_number", team=repr(text)))
    return int(text)


def _language(asked: str | None) -> str:
    return asked if asked is not None and asked in LANGUAGES else DEFAULT
