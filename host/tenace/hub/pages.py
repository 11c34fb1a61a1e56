"""The hub's public pages and their JSON: the national ranking (live, by server-sent events fed by LISTEN/NOTIFY),
each club's ranking, a pair's boards against its club's field and the national one, and, once the organiser has
released the sim, the travellers with their hands and the exports. Before release nothing of a board shows."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tenace.hub import club_field, queries
from tenace.hub.app import Hub, create_app
from tenace.hub.exports import field_pbn
from tenace.hub.rendering import language, page
from tenace.hub.scorer import LIVE_ROWS
from tenace.hub.serving import DB_ENV
from tenace.hub.usebio_export import sim_usebio
from tenace.page_base.words import Words
from tenace.reports.event_usebio import UsebioError

SSE_PING_S = 15.0

def _field(conn: psycopg.Connection[Any], sim: str) -> tuple[dict[str, Any], bool] | None:
    row = queries.scored_field(conn, sim)
    if row is None:
        return None
    return (row[0] or {"national": [], "results": 0}), bool(row[1])


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _scored(request: Request) -> tuple[str, dict[str, Any], bool] | Response:
    sim = request.path_params["sim"]
    found = await _hub(request).run(lambda c: _field(c, sim))
    if found is None:
        return Response("no such sim\n", 404, media_type="text/plain")
    return sim, found[0], found[1]


def _in_imps(rows: list[dict[str, Any]]) -> bool:
    """A cross-IMP or Butler sim's rows: IMPs, no percentage or top (tenace.hub.field_imps)."""
    return bool(rows) and rows[0].get("imps") is not None


def _scored_as(field: dict[str, Any], t: Words) -> str:
    return t.plain({"cross-imps": "scored_cross_imps", "butler": "scored_butler"}.get(field.get("scoring", "mp"),
                                                                                      "scored_mp"))


async def national(request: Request) -> Response:
    """The national ranking: its head (LIVE_ROWS pairs), a club's pairs with ?club=, every pair with ?all=1; live
    but for the whole (a message of every pair each pass would be megabytes at a thousand clubs)."""
    got = await _scored(request)
    if isinstance(got, Response):
        return got
    sim, field, released = got
    rows = field["national"]
    if request.url.path.endswith("/national"):
        return JSONResponse(rows)
    club = request.query_params.get("club")
    everything = request.query_params.get("all") == "1"
    shown = [r for r in rows if r["pair"].startswith(f"{club}/")] if club else rows if everything else rows[:LIVE_ROWS]
    if request.url.path.startswith("/api/"):  # the page's own JSON: what it shows, and what it says of the field
        return JSONResponse({"sim": sim, "scoring": field.get("scoring", "mp"), "results": field["results"],
                             "pairs": len(rows), "released": released, "club": club, "national": shown})
    t, _ = language(request)
    more = "" if club or everything or len(rows) <= LIVE_ROWS else t.plain(
        "first_rows", shown=LIVE_ROWS, pairs=len(rows), club_query=f"?club={t.plain('your_club')}", all_query="?all=1")
    scored = _scored_as(field, t)
    title = t.plain("national_club_title", sim=sim, club=club) if club else t.plain("national_title", sim=sim)
    return page(request, "hub_ranking.html", title=title, rows=shown, prefix=f"/sim/{sim}",
                live=None if everything else f"/sim/{sim}/live" + (f"?club={quote(club)}" if club else ""), more=more,
                note=t.plain("national_note", results=field["results"], scored=scored, pairs=len(rows)),
                live_note=t.plain("national_note", results="{results}", scored=scored, pairs="{pairs}"),
                imps=_in_imps(rows))


async def club_ranking(request: Request) -> Response:
    sim, club = request.path_params["sim"], request.path_params["club"]

    def read(conn: psycopg.Connection[Any]) -> list[dict[str, Any]] | None:
        if not queries.sim_exists(conn, sim):
            return None
        return club_field.club_ranking(conn, sim, club)

    rows = await _hub(request).run(read)
    if rows is None:
        return Response("no such sim\n", 404, media_type="text/plain")
    if request.url.path.startswith("/api/"):
        return JSONResponse(rows)
    t, _ = language(request)
    return page(request, "hub_ranking.html", title=t.plain("club_title", sim=sim, club=club), rows=rows,
                prefix=f"/sim/{sim}", live=None, imps=_in_imps(rows), note=t.plain("club_note"))


async def pair(request: Request) -> Response:
    """A pair's boards against both fields, made when asked for (the club's field scored now, the nation's read
    from its boards' figures)."""
    sim, pair_id = request.path_params["sim"], request.path_params["pair"]

    def read(conn: psycopg.Connection[Any]) -> tuple[Any, ...] | None:
        cards = club_field.pair_cards(conn, sim, pair_id)
        if cards is None:
            return None
        club = club_field.club_ranking(conn, sim, pair_id.partition("/")[0])
        row = queries.scored_field(conn, sim)
        return cards, club, (row[0] if row and row[0] else {"national": []})

    found = await _hub(request).run(read)
    if found is None:
        return Response("no such pair\n", 404, media_type="text/plain")
    cards, club_rows, scored = found
    imps = _in_imps(club_rows)
    figure = "imps" if imps else "percent"  # an IMP sim's pair: its IMP totals in the two fields
    percent = {r["pair"]: r[figure] for r in scored["national"]}
    club_percent = {r["pair"]: r[figure] for r in club_rows}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"pair": pair_id, f"club_{figure}": club_percent.get(pair_id),
                             f"national_{figure}": percent.get(pair_id), "boards": cards})
    t, _ = language(request)
    return page(request, "hub_pair.html", title=t.plain("pair_title", sim=sim, pair=pair_id), cards=cards,
                club_figure=club_percent.get(pair_id), national_figure=percent.get(pair_id), imps=imps)


async def traveller(request: Request) -> Response:
    sim, board = request.path_params["sim"], request.path_params["board"]

    def read(conn: psycopg.Connection[Any]) -> tuple[str, list[dict[str, Any]]] | None:
        deal = queries.released_deal(conn, sim, board)
        if deal is None:
            return None
        return deal, [dict(body, club=club) for club, body in queries.board_results(conn, sim, board)]

    found = await _hub(request).run(read)
    if found is None:  # embargoed, or no such board: the same answer
        return Response("not released\n", 404, media_type="text/plain")
    deal, rows = found
    if request.url.path.startswith("/api/"):
        return JSONResponse({"board": board, "deal": deal, "results": rows})
    t, _ = language(request)
    return page(request, "hub_traveller.html", title=t.plain("board_title", sim=sim, board=board), deal=deal,
                rows=rows)


async def export(request: Request) -> Response:
    sim, club = request.path_params["sim"], request.path_params.get("club")
    text = await _hub(request).run(lambda c: field_pbn(c, sim, club))
    if text is None:
        return Response("not released\n", 404, media_type="text/plain")
    name = f"{sim}-{club}.pbn" if club else f"{sim}.pbn"
    return Response(text, media_type="application/x-pbn; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def export_usebio(request: Request) -> Response:
    """The field's USEBIO file (one club's under /club/CLUB), checked against the schema; 404 before release."""
    sim, club = request.path_params["sim"], request.path_params.get("club")

    def read(conn: psycopg.Connection[Any]) -> bytes | str | None:
        try:
            return sim_usebio(conn, sim, club)
        except UsebioError as e:
            return str(e)

    got = await _hub(request).run(read)
    if got is None:  # embargoed, or no such sim or club: the same answer as the PBN export's
        return Response("not released\n", 404, media_type="text/plain")
    if isinstance(got, str):  # released, but USEBIO cannot say it (a split score, one assigned at IMPs): its one line
        return Response(f"{got}\n", 409, media_type="text/plain")
    name = f"{sim}-{club}.xml" if club else f"{sim}.xml"
    return Response(got, media_type="application/xml",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def live(request: Request) -> Response:
    """Server-sent events: the sim's live message (tenace.hub.scorer: the head of the national ranking, the results
    counted in all and per club) now, then again each time a worker has re-scored the sim; with ?club=, that club's
    pairs' national lines too ("mine")."""
    sim = request.path_params["sim"]
    club = request.query_params.get("club")
    hub = _hub(request)
    queue: asyncio.Queue[str] = asyncio.Queue()

    def read(conn: psycopg.Connection[Any]) -> dict[str, Any]:
        row = queries.live_message(conn, sim, club)
        message: dict[str, Any] = dict(row[0]) if row and row[0] else {"rows": [], "results": 0, "pairs": 0,
                                                                          "clubs": {}}
        if club:
            message["club"] = club
            message["mine"] = row[1] if row and row[1] else []
        return message

    async def events() -> AsyncIterator[str]:
        hub.listeners.add(queue)
        try:
            shown = None
            payload = f"scored {sim}"
            while True:
                if payload.startswith(f"scored {sim} ") or payload == f"scored {sim}":
                    text = json.dumps(await hub.run(read), separators=(",", ":"))
                    if text != shown:
                        shown = text
                        yield f"event: ranking\ndata: {text}\n\n"
                try:
                    payload = await asyncio.wait_for(queue.get(), SSE_PING_S)
                except TimeoutError:
                    payload = ""
                    yield ": ping\n\n"
        finally:
            hub.listeners.discard(queue)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


def app_from_env() -> Starlette:
    """The hub for `tenace hub serve`'s workers: each process makes its own, on the database the command names;
    they score nothing (the command's scoring worker, a process of its own, does)."""
    return hub_app(os.environ[DB_ENV], scoring=False)


def hub_app(url: str, scoring: bool = True) -> Starlette:
    """The whole hub: the push endpoint and these pages, on the database at `url`; `scoring`: with a scoring
    worker in a thread of its own."""
    from tenace.hub import console  # it imports hub.app too

    return create_app(url, [*ROUTES, *console.ROUTES], scoring)


ROUTES = [
    Route("/sim/{sim}", national), Route("/api/sim/{sim}", national), Route("/api/sim/{sim}/national", national),
    Route("/sim/{sim}/live", live),
    Route("/sim/{sim}/club/{club}", club_ranking), Route("/api/sim/{sim}/club/{club}", club_ranking),
    Route("/sim/{sim}/pair/{pair:path}", pair), Route("/api/sim/{sim}/pair/{pair:path}", pair),
    Route("/sim/{sim}/board/{board:int}", traveller), Route("/api/sim/{sim}/board/{board:int}", traveller),
    Route("/sim/{sim}/export.pbn", export), Route("/sim/{sim}/club/{club}/export.pbn", export),
    Route("/sim/{sim}/export.xml", export_usebio), Route("/sim/{sim}/club/{club}/export.xml", export_usebio),
]
