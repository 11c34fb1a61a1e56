"""The console's print pages (table cards, personal scorecards, travellers, ranking) and their PDFs, made by Debian's
chromium headless (--print-to-pdf), the browser the tests already drive: no PDF library to pin, the same print CSS.
A pair's scorecard, and a table card of a pair that stays at its table, carry the QR code of the pair's debrief page."""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.errors import UsageError
from tenace.movement import Encounter, Movement, Pair
from tenace.page_base.words import words as public_words
from tenace.protocol.http_guard import NO_STORE
from tenace.reports.event_results import EventResults, ResultsError, board_report, event_results
from tenace.reports.model import Pair as ResultsPair
from tenace.reports.model import Report
from tenace.store import StoreError, event_info
from tenace.store.encounters import stored_movement
from tenace.store.names import names_of, pair_players, roster
from tenace.web.console.forms import one_line
from tenace.web.console.room import Room, spoken
from tenace.web.console.said import movement_said
from tenace.web.pages import pair_slug
from tenace.web.qr import debrief_url, public_base, qr_svg

log = logging.getLogger(__name__)

PDF_TIMEOUT_S = 120.0  # a few hundred pages on a slow laptop
# The prints, each with its name's key in lang/console/XX.txt.
PRINTS = {"cards": "pr_cards", "scorecards": "pr_scorecards", "travellers": "pr_travellers", "ranking": "pr_ranking"}
# The sheets a print is laid out for (?paper=): its @page size, A4 first (the default).
PAPERS = {"a4": "A4", "letter": "letter"}
# The movements whose tables and pairs a card can say (an individual's players change partners each round).
CARDED = ("mitchell", "howell", "teams")


@dataclass(frozen=True)
class CardRow:
    """One round at one table: who sits where, the boards, and where the pairs and the boards go next round."""

    round: int
    ns: str
    ew: str
    boards: str
    ns_next: str
    ew_next: str
    boards_next: str


@dataclass(frozen=True)
class Card:
    section: str
    table: int
    movement: str
    rows: tuple[CardRow, ...]
    stays: str = ""  # the pair that sits at this table every round (its page's slug), or ""


@dataclass(frozen=True)
class ScoreRow:
    """A board a pair plays: where, which way, against whom."""

    round: int
    table: int
    direction: str
    opponents: str
    board: int


@dataclass(frozen=True)
class Scorecard:
    section: str
    pair: str
    names: str
    rows: tuple[ScoreRow, ...]
    slug: str = ""  # the pair's part of its debrief page's address ("NS3"); "" for a team (no pair page)


def boards_text(boards: tuple[int, ...]) -> str:
    """ "1-3" for a run of boards, "1, 4, 7" otherwise."""
    if not boards:
        return "-"
    ordered = sorted(boards)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


def where_next(m: Movement, pair: Pair, round_: int) -> str:
    """Where `pair` sits in `round_`: "table 3 NS", "sits out", "bye"; "end" after the last round."""
    w = spoken().plain
    if round_ > m.rounds:
        return w("pr_end")
    for e in m.round_plan(round_):
        ns, ew = m.seated(e)
        if pair in (ns, ew):
            if m.sits_out(e):
                return w("pr_sits_out")
            return w("pr_table_seat", table=e.table, seat="NS" if pair == ns else "EW")
    return w("pr_bye")


def boards_next(m: Movement, e: Encounter) -> str:
    """Where this table's boards are played next round: "table 2", several tables when they are shared; "end"
    after the last round; "out of play" when no table plays them (back to the director)."""
    w = spoken().plain
    if e.round >= m.rounds:
        return w("pr_end")
    tables = sorted({n.table for n in m.round_plan(e.round + 1) if set(n.boards) & set(e.boards)})
    if not tables:
        return w("pr_out_of_play")
    return w("pr_table", tables=", ".join(map(str, tables)))


def slug_of(m: Movement, pair: Pair) -> str:
    """A pair's part of its page's address (pair_slug): "NS3", "7"; "" for a team, which has no pair page."""
    return "" if m.kind == "teams" else pair_slug(ResultsPair(str(pair[1]), pair[0] or None))


def cards(m: Movement, section: str) -> list[Card]:
    """A card a table: each round's pairs and boards, and where each pair and the boards go next round."""
    out = []
    for table in sorted({e.table for e in m.encounters}):
        rows = []
        seated: list[set[Pair]] = []
        for e in sorted((e for e in m.encounters if e.table == table), key=lambda e: e.round):
            ns, ew = m.seated(e)
            seated.append({ns, ew} - {m.phantom})
            rows.append(CardRow(e.round, m.label(ns), m.label(ew), boards_text(e.boards),
                                where_next(m, ns, e.round + 1), where_next(m, ew, e.round + 1), boards_next(m, e)))
        # A Mitchell's North-South pair stays, and a Howell's stationary pair: its card carries its QR code.
        stays = sorted(set.intersection(*seated), key=str) if seated else []
        out.append(Card(section, table, movement_said(m.name, m.kind, m.tables, m.rounds, m.boards_per_round,
                                                      spoken()), tuple(rows),
                        slug_of(m, stays[0]) if len(stays) == 1 else ""))
    return out


def scorecards(m: Movement, section: str, names: dict[tuple[int, str], str]) -> list[Scorecard]:
    """A scorecard a pair (the phantom left out): a line a board, in the order it plays them."""
    out = []
    for pair in m.pairs():
        if pair == m.phantom:
            continue
        rows = []
        for e in sorted(m.encounters, key=lambda e: e.round):
            ns, ew = m.seated(e)
            if pair not in (ns, ew) or m.sits_out(e):
                continue
            other = ew if pair == ns else ns
            rows += [ScoreRow(e.round, e.table, "NS" if pair == ns else "EW", m.label(other), b) for b in e.boards]
        out.append(Scorecard(section, m.label(pair), names.get((pair[1], pair[0]), ""), tuple(rows), slug_of(m, pair)))
    return out


def movement_prints(conn: sqlite3.Connection, what: str) -> tuple[list[Card], list[Scorecard], list[str]]:
    """Every section's table cards or scorecards, and a line for each section that has none (an individual)."""
    info = event_info(conn)
    members = roster(conn)
    all_cards: list[Card] = []
    all_scorecards: list[Scorecard] = []
    skipped = []
    for s in info.sections:
        if s.kind not in CARDED:
            skipped.append(spoken().plain("pr_skipped_an" if s.kind[0] in "aeiou" else "pr_skipped_a",
                                          section=s.name, kind=s.kind))
            continue
        m = stored_movement(conn, s.name)
        if what == "cards":
            all_cards += cards(m, s.name)
        else:
            names = {key: names_of(players, members) for key, players in pair_players(conn, s.name).items()}
            all_scorecards += scorecards(m, s.name, names)
    return all_cards, all_scorecards, skipped


def traveller_reports(results: EventResults) -> list[tuple[str, Report]]:
    """Each pairs section's board, cut to its traveller (a team match's boards are the PBN's and the web pages')."""
    return [(s.section, board_report(s, b)) for s in results.sections if not s.matches for b in s.boards]


def chromium() -> str | None:
    """Debian's chromium (tools/setup-env installs it for the browser tests), None when it is not installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


async def pdf_of(html: str) -> bytes:
    """The page printed to PDF by chromium headless, from a file of its own (nothing fetched: the CSS is inline).
    UsageError in one line when chromium is missing, fails, or takes too long."""
    browser = chromium()
    if browser is None:
        raise UsageError(spoken().plain("pr_no_chromium"))
    with tempfile.TemporaryDirectory(prefix="tenace-pdf-") as tmp:
        page, out = Path(tmp) / "page.html", Path(tmp) / "page.pdf"
        page.write_text(html, encoding="utf-8")
        process = await asyncio.create_subprocess_exec(
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
            f"--user-data-dir={Path(tmp) / 'profile'}", f"--print-to-pdf={out}", page.as_uri(),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(process.communicate(), PDF_TIMEOUT_S)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise UsageError(spoken().plain("pr_chromium_slow", seconds=f"{PDF_TIMEOUT_S:.0f}")) from None
        if process.returncode != 0 or not out.is_file():
            log.warning("chromium --print-to-pdf failed: %s", err.decode(errors="replace")[-500:])
            raise UsageError(spoken().plain("pr_chromium_failed", code=process.returncode))
        return out.read_bytes()


def served_base(request: Request) -> str:
    """The address this server was reached at, the QR codes' default: the players' phones reach the public pages
    there when the director's browser used the laptop's network address (the print menu says to change it if not)."""
    return str(request.base_url).rstrip("/")


def routes(room: Room) -> list[BaseRoute]:
    room.nav.append(("/director/print", "Print"))

    async def menu(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        return room.page("console_print.html", session=session, prints=PRINTS, papers=PAPERS,
                         chromium=chromium() is not None, base=served_base(request))

    def render(what: str, paper: str, base: str) -> Callable[[sqlite3.Connection], str]:
        def run(conn: sqlite3.Connection) -> str:
            words = spoken()
            # pt: the public pages' words (a ranking's state line says what the public ranking says)
            context: dict[str, object] = {"what": what, "title": words.plain(PRINTS[what]), "event": room.event().name,
                                          "t": words, "pt": public_words(words.lang), "paper": PAPERS[paper],
                                          "practice": room.is_practice(), "base": base,
                                          "qr": lambda section, slug: qr_svg(debrief_url(base, section, slug))}
            if what in ("cards", "scorecards"):
                found_cards, found_scorecards, skipped = movement_prints(conn, what)
                context.update(cards=found_cards, scorecards=found_scorecards, skipped=skipped)
            else:
                results = event_results(conn)
                context.update(results=results, info=results.info, travellers=traveller_reports(results))
                if what == "ranking" and room.championship is not None:  # and the championship's so far
                    context.update(room.championship.context(results))
            return room.env.get_template("print.html").render(**context)
        return run

    async def page(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        name = request.path_params["what"]
        pdf = name.endswith(".pdf")
        what = name.removesuffix(".pdf")
        paper = request.query_params.get("paper", "a4")
        if what not in PRINTS or paper not in PAPERS:
            error = (spoken().plain("pr_no_print", name=repr(name)) if what not in PRINTS
                     else spoken().plain("pr_no_paper", paper=repr(paper), papers=", ".join(PAPERS)))
            return room.page("console_print.html", 404, session=session, prints=PRINTS, papers=PAPERS, error=error,
                             chromium=chromium() is not None, base=served_base(request))
        try:
            base = public_base(request.query_params.get("base") or served_base(request))
        except UsageError:
            return room.page("console_print.html", 400, session=session, prints=PRINTS, papers=PAPERS,
                             error=spoken().plain("pr_bad_base", base=repr(request.query_params["base"])),
                             chromium=chromium() is not None, base=served_base(request))
        try:
            html = await room.read(render(what, paper, base))
            if not pdf:
                return HTMLResponse(html, headers=NO_STORE)
            data = await pdf_of(html)
        except (ResultsError, StoreError, UsageError, sqlite3.Error, OSError) as e:
            return room.page("console_print.html", 400, session=session, prints=PRINTS, papers=PAPERS,
                             error=one_line(e), chromium=chromium() is not None, base=base)
        return Response(data, media_type="application/pdf", headers={
            **NO_STORE, "Content-Disposition": f'inline; filename="{room.event().stem}-{what}-{paper}.pdf"'})

    return [
        Route("/director/print", menu, methods=["GET"]),
        Route("/director/print/{what}", page, methods=["GET"]),
    ]
