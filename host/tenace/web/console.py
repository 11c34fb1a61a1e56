"""The director's console of `tenace serve` (/director): a login, then the problems list and the director's actions as
forms, each read into the director's typed inputs (tenace.director) as the commands read their options, its refusals
naming the form's fields. Sessions are hand-written, a few lines: the store is server-side, in memory
(a random id in an HttpOnly, SameSite=Strict cookie), which Starlette's SessionMiddleware (signed client-side
sessions, itsdangerous) does not do; the forms are urlencoded only and parsed by the standard library's parse_qsl
(Starlette's form parser needs python-multipart, a dependency for nothing more)."""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.director.inputs import MOVE_KINDS, Erasure, Penalty, Place, ResultInput, Signature
from tenace.errors import UsageError
from tenace.reports.problems import gather, render
from tenace.store import EntryError, LateChange, StoreError, connect
from tenace.store.db import connect_read_only, read_transaction
from tenace.web.render import templates

log = logging.getLogger(__name__)

COOKIE = "tenace_director"
# A wrong password or link waits this long before its answer: guessing stays slow even from a script.
REFUSED_DELAY_S = 1.0
# A form is small: a body larger than this is refused before it is parsed.
MAX_FORM_BYTES = 16_384
# A session left alone this long is over (a laptop left open at the club overnight): log in again.
IDLE_S = 6 * 3600.0
# Never cached, and never shown in another site's frame (a page could frame the console and steer the director's
# clicks: the cookie goes along to a frame from another port of this host, the same site).
NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Content-Security-Policy": "frame-ancestors 'none'; form-action 'self'"}

MOVES = MOVE_KINDS
# The form's fields as a refusal names them, after their labels on the page (a field not here: by its own name).
LABELS = {"ns": "NS", "ew": "EW", "percent": "NS/EW %", "assigned": "assigned NS score",
          "ew_assigned": "East-West's assigned NS score", "ew_weighted": "East-West's weighted",
          "passed_out": "passed out", "not_played": "not played", "to": "to round", "other": "swap with"}

@dataclass
class Session:
    name: str  # the director's name given at login: every action is signed with it
    csrf: str  # the token each of this session's forms carries
    done: str | None = None  # the last action's log line, shown once by the console page it redirects to
    seen: float = field(default_factory=time.monotonic)  # its latest request


@dataclass
class Director:
    """How the director logs in: the password of --director-password-file, else a one-time link's token (None once
    it is spent). The sessions are kept in memory: a restart of `tenace serve` logs everybody out."""

    password: str | None = None
    token: str | None = None
    sessions: dict[str, Session] = field(default_factory=dict)
    refused_until: float = 0.0  # time.monotonic() when the latest refused login is answered

    @classmethod
    def with_link(cls) -> Director:
        return cls(token=secrets.token_urlsafe(24))

    def link(self, base: str) -> str:
        """The one-time login link to print on the laptop's console."""
        return f"{base.rstrip('/')}/director/link/{self.token}"

    def spend(self, token: str) -> bool:
        """True, once, for the link's token; the token is then gone."""
        if self.token is None or not hmac.compare_digest(token.encode(), self.token.encode()):
            return False
        self.token = None
        return True

    def refusal_delay(self) -> float:
        """How long a refused login waits: until a second after the previous refusal's answer, so that guesses sent
        in parallel are still answered one a second."""
        now = time.monotonic()
        self.refused_until = max(now, self.refused_until) + REFUSED_DELAY_S
        return self.refused_until - now

    def login(self, name: str) -> str:
        """A new session for `name`; its id (the cookie's value)."""
        sid = secrets.token_urlsafe(32)
        self.sessions[sid] = Session(name, secrets.token_urlsafe(32))
        return sid

    def session(self, request: Request) -> Session | None:
        """The request's session, None when it has none or its session has been idle for IDLE_S."""
        sid = request.cookies.get(COOKIE, "")
        found = self.sessions.get(sid)
        if found is None:
            return None
        now = time.monotonic()
        if now - found.seen > IDLE_S:
            del self.sessions[sid]
            return None
        found.seen = now
        return found


def same_origin(request: Request) -> bool:
    """The request comes from a page of this server: its Origin (or, lacking one, its Referer) is this address."""
    own = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    if origin is not None:
        return origin == own
    referer = request.headers.get("referer")
    return referer is not None and (referer == own or referer.startswith(own + "/"))


async def form_of(request: Request) -> dict[str, str]:
    """An urlencoded form's fields (a field given twice: its last value); empty fields are left out."""
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise UsageError("the form is too large")
    text = body.decode("utf-8", errors="replace")
    return {k: v.strip() for k, v in parse_qsl(text, keep_blank_values=False) if v.strip()}


def forbidden(message: str) -> Response:
    return PlainTextResponse(message, 403, headers=NO_STORE)


Form = dict[str, str]
Bound = Callable[[sqlite3.Connection, Signature], str]  # an action with its input read from the form


def whole(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdecimal() or len(text) > 6:  # isdigit() would take "²", which int() refuses
        raise DirectorInputError(name, ": give a whole number", text=text)
    return int(text)


def place(form: Form) -> Place:
    return Place(whole("table", form.get("table")), whole("board", form.get("board")), form.get("section"),
                 whole("round", form.get("round")))


def result(form: Form) -> ResultInput | None:
    return parse.result(contract=form.get("contract"), by=form.get("by"), tricks=form.get("tricks"),
                        lead=form.get("lead"), passed_out="passed_out" in form, not_played="not_played" in form)


def adjust_form(form: Form) -> Bound:
    given = parse.adjustment(place(form), pair=form.get("pair"), penalty=form.get("penalty"), ns=form.get("ns"),
                             ew=form.get("ew"), percent=form.get("percent"), assigned=form.get("assigned"),
                             weighted=form.get("weighted"), ew_assigned=form.get("ew_assigned"),
                             ew_weighted=form.get("ew_weighted"))
    if isinstance(given, Penalty):
        return lambda conn, signed: actions.penalise(conn, given, signed)
    return lambda conn, signed: actions.adjust(conn, given, signed)


def correct_form(form: Form) -> Bound:
    given = parse.correction(place(form), result(form))
    return lambda conn, signed: actions.correct(conn, given, signed)


def erase_form(form: Form) -> Bound:
    given = Erasure(place(form))
    return lambda conn, signed: actions.erase(conn, given, signed)


def resolve_form(form: Form) -> Bound:
    given = parse.resolution(place(form), form.get("keep"), result(form))
    return lambda conn, signed: actions.resolve(conn, given, signed)


def move_form(form: Form) -> Bound:
    change = form.get("change", "")
    kind = next((k for k in MOVES if k == change), None)
    # A pair left empty is refused by the pair's parser, saying which ("swap with ''").
    given = parse.movement_change(kind, first_round=whole("round", form.get("round")),
                                  last_round=whole("to", form.get("to")), pair=form.get("pair", ""),
                                  other=form.get("other", ""), table=whole("table", form.get("table")),
                                  section=form.get("section"))
    return lambda conn, signed: actions.move(conn, given, signed)


# Each form's reader: the form's fields into the action's input (DirectorInputError naming a field), bound to it.
ACTIONS: dict[str, Callable[[Form], Bound]] = {"adjust": adjust_form, "correct": correct_form, "erase": erase_form,
                                               "resolve": resolve_form, "move": move_form}


def one_line(e: Exception) -> str:
    """A refusal as the page says it, on one line: the director's naming the form's fields, the store's as it is."""
    if isinstance(e, DirectorInputError):
        return e.said(LABELS)
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def console_routes(path: Path, director: Director) -> list[BaseRoute]:
    """The console's routes, all under /director."""
    env = templates()

    def page(template: str, status: int = 200, **context: object) -> HTMLResponse:
        html = env.get_template(template).render(director=director, **context)
        return HTMLResponse(html, status, headers=NO_STORE)

    def problems() -> str:
        conn = connect_read_only(path)
        try:
            with read_transaction(conn):
                return render(gather(conn, 3), path)
        finally:
            conn.close()

    async def console(request: Request, session: Session, status: int = 200, done: str | None = None,
                      error: str | None = None, refused: str | None = None,
                      typed: dict[str, str] | None = None) -> Response:
        try:
            listed = await run_in_threadpool(problems)
        except (StoreError, sqlite3.Error) as e:
            listed, error = "", error or f"{path}: {one_line(e)}"
        return page("console.html", status, session=session, problems=listed, done=done, error=error,
                    refused=refused, typed=typed or {}, moves=MOVES)

    async def home(request: Request) -> Response:
        session = director.session(request)
        if session is None:
            return RedirectResponse("/director/login", 303)
        done, session.done = session.done, None
        return await console(request, session, done=done)

    async def login_page(request: Request) -> Response:
        return page("console_login.html", token=None)

    async def link_page(request: Request) -> Response:
        token = request.path_params["token"]
        # Opening the link shows a form (the name to sign with): a link previewer fetching it spends nothing.
        if director.token is None or not hmac.compare_digest(token.encode(), director.token.encode()):
            return await refused_login(request, link=True)
        return page("console_login.html", token=token)

    async def refused_login(request: Request, link: bool) -> Response:
        """A wrong or spent login link, or a wrong password: answered late (guessing is slow), and logged."""
        await asyncio.sleep(director.refusal_delay())
        what = "a login link that is wrong or spent" if link else "a wrong password"
        log.warning("director's console: %s, from %s", what, client(request))
        message = "This login link is wrong or was used already." if link else "Wrong password."
        return page("console_login.html", 401, token=None, error=message)

    async def same_site_form(request: Request, what: str, refusal: str) -> dict[str, str] | Response:
        """The form of a POST from this server's own page, else the 403 that refuses it (cross-site, or too large)."""
        if not same_origin(request):
            log.warning("director's console: a cross-site %s refused, from %s", what, client(request))
            return forbidden(refusal)
        try:
            return await form_of(request)
        except UsageError as e:
            return forbidden(str(e))

    async def login(request: Request) -> Response:
        form = await same_site_form(request, "login", "refused: a login must come from this server's own login page")
        if isinstance(form, Response):
            return form
        name = form.get("name", "director")[:40]
        token = form.get("token")
        if token is not None:
            ok = director.spend(token)
        else:
            given = form.get("password", "")
            ok = director.password is not None and hmac.compare_digest(given.encode(), director.password.encode())
        if not ok:
            return await refused_login(request, link=token is not None)
        sid = director.login(name)
        log.info("director's console: %s logged in from %s", name, client(request))
        response = RedirectResponse("/director", 303)
        response.set_cookie(COOKIE, sid, path="/director", httponly=True, samesite="strict")
        return response

    async def checked(request: Request) -> tuple[Session, dict[str, str]] | Response:
        """The session and the form of a POST that may act, else the 403 that refuses it."""
        session = director.session(request)
        if session is None:
            return forbidden("refused: not logged in to the director's console")
        form = await same_site_form(request, "post",
                                    "refused: the post does not come from the director's console (cross-site)")
        if isinstance(form, Response):
            return form
        if not hmac.compare_digest(form.get("csrf", "").encode(), session.csrf.encode()):
            log.warning("director's console: a post without this session's form token refused, from %s",
                        client(request))
            return forbidden("refused: the form's token is missing or not this session's (reload the console)")
        return session, form

    async def logout(request: Request) -> Response:
        found = await checked(request)
        if isinstance(found, Response):
            return found
        director.sessions.pop(request.cookies.get(COOKIE, ""), None)
        response = RedirectResponse("/director/login", 303)
        response.delete_cookie(COOKIE, path="/director", httponly=True, samesite="strict")
        return response

    async def action(request: Request) -> Response:
        found = await checked(request)
        if isinstance(found, Response):
            return found
        session, form = found
        name = request.url.path.rsplit("/", 1)[1]
        read = ACTIONS[name]

        def run() -> str:
            signed = parse.signature(session.name, form.get("why"), "force" in form)
            bound = read(form)  # the form's faults before the file's
            conn = connect(path)
            try:
                return bound(conn, signed)
            finally:
                conn.close()
        try:
            done = await run_in_threadpool(run)
        except LateChange as e:
            return await console(request, session, 400, refused=name, typed=form,
                                 error=f"{one_line(e)}: tick force to make the change anyway (the force is logged)")
        except (DirectorInputError, EntryError, StoreError, sqlite3.Error) as e:
            return await console(request, session, 400, error=one_line(e), refused=name, typed=form)
        # Post, redirect, get: reloading the page after it does not make the change a second time.
        session.done = done
        return RedirectResponse("/director", 303)

    return [
        Route("/director", home, methods=["GET"]),
        Route("/director/login", login_page, methods=["GET"]),
        Route("/director/login", login, methods=["POST"]),
        Route("/director/link/{token}", link_page, methods=["GET"]),
        Route("/director/logout", logout, methods=["POST"]),
        *(Route(f"/director/{name}", action, methods=["POST"]) for name in ACTIONS),
    ]


def client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"
