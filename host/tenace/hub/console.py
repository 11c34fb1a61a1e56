"""The organiser's console on the hub, behind a login: the sims, their clubs (acknowledged pushes, revoked), their
quarantined results (the scoring cannot read them), the log of refused pushes, and the release. Sessions live in
PostgreSQL (any worker serves them), with the same rules as the club console's (tenace.web.console.auth): HttpOnly
SameSite=Strict cookie, a form token and this server's Origin on every post, a refused login answered after a
second."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from typing import Any
from urllib.parse import urlencode

import psycopg
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from tenace.errors import UsageError
from tenace.hub import queries
from tenace.hub.app import Hub
from tenace.hub.organiser import password_matches, release
from tenace.hub.rendering import language, page
from tenace.protocol.http_guard import NO_STORE, REFUSED_DELAY_S, forbidden, form_of, same_origin

log = logging.getLogger(__name__)
COOKIE = "tenace_hub_organiser"
IDLE = "6 hours"
REFUSALS_SHOWN = 100  # the latest rows of refused pushes on the console

def _hash(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def _session(conn: psycopg.Connection[Any], sid: str) -> tuple[str, str] | None:
    """(login, form token) of a live session, its idle clock restarted; None otherwise."""
    if not sid:
        return None
    row = queries.live_console_session(conn, _hash(sid), IDLE)
    return None if row is None else (row[0], row[1])


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def console(request: Request) -> Response:
    hub = _hub(request)
    sid = request.cookies.get(COOKIE, "")

    def read(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
        found = _session(conn, sid)
        if found is None:
            return None
        sims = [{"id": i, "name": n, "released": r, "clubs": queries.clubs_of(conn, i),
                 "quarantined": queries.quarantined(conn, i)}  # slots the scoring cannot read (tenace.hub.scorer)
                for i, n, r in queries.sims(conn)]
        refusals = queries.latest_refusals(conn, REFUSALS_SHOWN)
        return {"login": found[0], "csrf": found[1], "sims": sims, "refusals": refusals}

    shown = await hub.run(read)
    t, _ = language(request)
    if shown is None:
        return page(request, "hub_login.html", headers=NO_STORE, title=t.plain("hub_console"), refused=False)
    return page(request, "hub_console.html", headers=NO_STORE, title=t.plain("hub_console"),
                released=request.query_params.get("released"), refused=request.query_params.get("refused"), **shown)


async def login(request: Request) -> Response:
    if not same_origin(request):
        return forbidden("a login comes from the console's own page")
    try:
        form = await form_of(request)
    except UsageError as e:
        return forbidden(str(e))
    name, password = form.get("login", ""), form.get("password", "")

    def check(conn: psycopg.Connection[Any]) -> str | None:
        stored = queries.organiser_password_hash(conn, name)
        if stored is None or not password_matches(password, stored):
            return None
        sid = secrets.token_urlsafe(32)
        queries.insert_console_session(conn, _hash(sid), name, secrets.token_urlsafe(32))
        return sid

    sid = await _hub(request).run(check)
    if sid is None:
        log.warning("hub console: refused login %r from %s", name,
                    request.client.host if request.client else "?")
        await asyncio.sleep(REFUSED_DELAY_S)
        return page(request, "hub_login.html", 403, headers=NO_STORE, title=language(request)[0].plain("hub_console"),
                    refused=True)
    response = RedirectResponse(f"/console{language(request)[1]}", 303, headers=NO_STORE)
    response.set_cookie(COOKIE, sid, httponly=True, samesite="strict", path="/console")
    return response


async def release_sim(request: Request) -> Response:
    if not same_origin(request):
        return forbidden("a post comes from the console's own pages")
    try:
        form = await form_of(request)
    except UsageError as e:
        return forbidden(str(e))
    sid = request.cookies.get(COOKIE, "")

    def act(conn: psycopg.Connection[Any]) -> dict[str, str] | None:
        """What the console says next: {"released": the sim}, or {"refused": why, in English}; None: not logged in."""
        found = _session(conn, sid)
        if found is None or not secrets.compare_digest(form.get("csrf", ""), found[1]):
            return None
        try:
            release(conn, form.get("sim", ""))
        except UsageError as e:
            return {"refused": str(e)}
        log.warning("hub console: %s released sim %s", found[0], form.get("sim"))
        return {"released": form.get("sim", "")}

    said = await _hub(request).run(act)
    if said is None:
        return forbidden("log in to the console first")
    lang = request.query_params.get("lang")
    return RedirectResponse(f"/console?{urlencode({**said, **({'lang': lang} if lang else {})})}", 303,
                            headers=NO_STORE)


ROUTES = [Route("/console", console), Route("/console/login", login, methods=["POST"]),
          Route("/console/release", release_sim, methods=["POST"])]
