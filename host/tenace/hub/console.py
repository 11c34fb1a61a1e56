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
from urllib.parse import quote

import psycopg
from jinja2 import DictLoader, Environment, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from tenace.errors import UsageError
from tenace.hub.app import Hub
from tenace.hub.organiser import password_matches, release
from tenace.protocol.http_guard import NO_STORE, REFUSED_DELAY_S, forbidden, form_of, same_origin

log = logging.getLogger(__name__)
COOKIE = "tenace_hub_organiser"
IDLE = "6 hours"

_PAGES = {
    "login": """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hub console</title></head><body>
<h1>Organiser's console</h1>{% if refused %}<p>Wrong login or password.</p>{% endif %}
<form method="post" action="/console/login"><label>Login <input name="login"></label>
<label>Password <input name="password" type="password"></label><button>Log in</button></form></body></html>""",
    "console": """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hub console</title></head><body>
<h1>Organiser's console</h1><p>Logged in as {{ login }}.</p>
{% for s in sims %}<h2>{{ s.id }}: {{ s.name }}</h2>
<p>{% if s.released %}Released {{ s.released }}.{% else %}Embargoed.
<form method="post" action="/console/release"><input type="hidden" name="csrf" value="{{ csrf }}">
<input type="hidden" name="sim" value="{{ s.id }}"><button>Release</button></form>{% endif %}</p>
<table><tr><th>Club</th><th>Name</th><th>Acknowledged</th><th>Revoked</th></tr>
{% for c in s.clubs %}<tr><td>{{ c[0] }}</td><td>{{ c[1] }}</td><td>{{ c[2] }}</td><td>{{ c[3] or "" }}</td></tr>
{% endfor %}</table>
{% if s.quarantined %}<h3>Quarantined results: left out of the scoring</h3>
<table><tr><th>Club</th><th>Section</th><th>Table</th><th>Round</th><th>Board</th><th>Result</th><th>Why</th></tr>
{% for q in s.quarantined %}<tr>{% for v in q %}<td>{{ v }}</td>{% endfor %}</tr>{% endfor %}</table>{% endif %}
{% endfor %}
<h2>Refused pushes</h2><table><tr><th>When</th><th>Sim</th><th>Club</th><th>From</th><th>Status</th><th>Why</th>
<th>Key</th><th>Times that minute</th></tr>
{% for r in refusals %}<tr>{% for v in r %}<td>{{ v if v is not none else "" }}</td>{% endfor %}
</tr>{% endfor %}</table>
{% if done %}<p>{{ done }}</p>{% endif %}</body></html>""",
}
TEMPLATES = Environment(loader=DictLoader(_PAGES), autoescape=select_autoescape(default=True,
                                                                                default_for_string=True))


def _hash(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def _session(conn: psycopg.Connection[Any], sid: str) -> tuple[str, str] | None:
    """(login, form token) of a live session, its idle clock restarted; None otherwise."""
    if not sid:
        return None
    row = conn.execute(f"UPDATE console_sessions SET seen = now() WHERE id_hash = %s AND seen > now() - "
                       f"interval '{IDLE}' RETURNING login, csrf", (_hash(sid),)).fetchone()
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
        sims = [{"id": i, "name": n, "released": r, "clubs": conn.execute(
                    "SELECT club, name, acked, revoked_at FROM clubs WHERE sim = %s ORDER BY club", (i,)).fetchall(),
                 "quarantined": conn.execute(  # slots the scoring cannot read (tenace.hub.scorer)
                    "SELECT club, section, table_no, round, board, outcome, reason FROM quarantine WHERE sim = %s "
                    "ORDER BY club, section, table_no, round, board", (i,)).fetchall()}
                for i, n, r in conn.execute("SELECT id, name, released_at FROM sims ORDER BY created_at")]
        refusals = conn.execute("SELECT at, sim, club, address, status, reason, key, count FROM refusals "
                                "ORDER BY at DESC LIMIT 100").fetchall()
        return {"login": found[0], "csrf": found[1], "sims": sims, "refusals": refusals}

    page = await hub.run(read)
    if page is None:
        return HTMLResponse(TEMPLATES.get_template("login").render(refused=False), headers=NO_STORE)
    return HTMLResponse(TEMPLATES.get_template("console").render(done=request.query_params.get("done"), **page),
                        headers=NO_STORE)


async def login(request: Request) -> Response:
    if not same_origin(request):
        return forbidden("a login comes from the console's own page")
    try:
        form = await form_of(request)
    except UsageError as e:
        return forbidden(str(e))
    name, password = form.get("login", ""), form.get("password", "")

    def check(conn: psycopg.Connection[Any]) -> str | None:
        row = conn.execute("SELECT password_hash FROM organisers WHERE login = %s", (name,)).fetchone()
        if row is None or not password_matches(password, row[0]):
            return None
        sid = secrets.token_urlsafe(32)
        conn.execute("INSERT INTO console_sessions (id_hash, login, csrf) VALUES (%s, %s, %s)",
                     (_hash(sid), name, secrets.token_urlsafe(32)))
        return sid

    sid = await _hub(request).run(check)
    if sid is None:
        log.warning("hub console: refused login %r from %s", name,
                    request.client.host if request.client else "?")
        await asyncio.sleep(REFUSED_DELAY_S)
        return HTMLResponse(TEMPLATES.get_template("login").render(refused=True), 403, headers=NO_STORE)
    response = RedirectResponse("/console", 303, headers=NO_STORE)
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

    def act(conn: psycopg.Connection[Any]) -> str | None:
        found = _session(conn, sid)
        if found is None or not secrets.compare_digest(form.get("csrf", ""), found[1]):
            return None
        try:
            release(conn, form.get("sim", ""))
        except UsageError as e:
            return str(e)
        log.warning("hub console: %s released sim %s", found[0], form.get("sim"))
        return f"sim {form.get('sim')} released"

    done = await _hub(request).run(act)
    if done is None:
        return forbidden("log in to the console first")
    return RedirectResponse(f"/console?done={quote(done)}", 303, headers=NO_STORE)


ROUTES = [Route("/console", console), Route("/console/login", login, methods=["POST"]),
          Route("/console/release", release_sim, methods=["POST"])]
