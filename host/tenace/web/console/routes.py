"""The console's routes: the login, the page with the problems as work and the action forms, the actions, and each
area's."""

from __future__ import annotations

import asyncio
import hmac
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.errors import UsageError
from tenace.store import StoreError
from tenace.web.console import grid, printing, publish, rehearsal, work
from tenace.web.console.acting import act
from tenace.web.console.auth import COOKIE, Director, Session, client
from tenace.web.console.forms import ACTIONS, FIELDS, MOVES, one_line, worded
from tenace.web.console.room import SPOKEN, Room
from tenace.web.console.setup import routes as setup_routes
from tenace.web.console.work import Work, read_work
from tenace.web.render import templates
from tenace.web.words import LANGUAGES, console_words

log = logging.getLogger(__name__)


# Each area of the evening: a module whose routes(room) adds its pages and posts under /director.
AREAS: tuple[Callable[[Room], list[BaseRoute]], ...] = (
    setup_routes, grid.routes, work.routes, publish.routes, printing.routes, rehearsal.routes,
)


def console_routes(path: Path, director: Director, new: bool = False) -> list[BaseRoute]:
    """The console's routes, all under /director. With `new`, the event file is still to be made at `path` (by the
    set-up's page)."""
    room = Room(None if new else path, director, templates(), new_path=path if new else None)

    async def console(request: Request, session: Session, status: int = 200, done: str | None = None,
                      error: str | None = None, refused: str | None = None,
                      typed: dict[str, str] | None = None, field: str | None = None) -> Response:
        try:
            work = await room.read(read_work)
        except (StoreError, UsageError, sqlite3.Error) as e:
            work, error = Work(), error or f"{room.path}: {one_line(e)}"
        return room.page("console.html", status, session=session, work=work, done=done, error=error,
                         refused=refused, typed=typed or {}, moves=MOVES, field=field)

    async def home(request: Request) -> Response:
        session = room.session(request)
        if isinstance(session, Response):
            return session
        if room.path is None:  # tenace serve --new: the evening starts with its set-up
            return RedirectResponse("/director/setup", 303)
        done, session.done = session.done, None
        return await console(request, session, done=done)

    async def login_page(request: Request) -> Response:
        room.speak(request)
        return room.page("console_login.html", token=None)

    async def link_page(request: Request) -> Response:
        token = request.path_params["token"]
        room.speak(request)
        # Opening the link shows a form (the name to sign with): a link previewer fetching it spends nothing.
        if director.token is None or not hmac.compare_digest(token.encode(), director.token.encode()):
            return await refused_login(request, link=True)
        return room.page("console_login.html", token=token)

    async def refused_login(request: Request, link: bool) -> Response:
        """A wrong or spent login link, or a wrong password: answered late (guessing is slow), and logged."""
        await asyncio.sleep(director.refusal_delay())
        what = "a login link that is wrong or spent" if link else "a wrong password"
        director.refusals.refused(what, client(request))
        return room.page("console_login.html", 401, token=None, error=console_words(SPOKEN.get())(
            "wrong_link" if link else "wrong_password"))

    async def login(request: Request) -> Response:
        room.speak(request)
        form = await room.same_site_form(request, "login",
                                         "refused: a login must come from this server's own login page")
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
        director.refusals.flush()
        sid = director.login(name)
        if request.query_params.get("lang") in LANGUAGES:  # the login page's language stays the console's
            director.sessions[sid].lang = request.query_params["lang"]
        log.info("director's console: %s logged in from %s", name, client(request))
        response = RedirectResponse("/director", 303)
        response.set_cookie(COOKIE, sid, path="/director", httponly=True, samesite="strict")
        return response

    async def logout(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        director.sessions.pop(request.cookies.get(COOKIE, ""), None)
        response = RedirectResponse("/director/login", 303)
        response.delete_cookie(COOKIE, path="/director", httponly=True, samesite="strict")
        return response

    async def action(request: Request) -> Response:
        name = request.url.path.rsplit("/", 1)[1]
        acted = await act(room, request, name)
        if isinstance(acted, Response):
            return acted
        if acted.error is not None:
            # The refusal in the page's language, beside the field it names when the form has that field.
            error = acted.error if acted.refusal is None else worded(acted.refusal, SPOKEN.get())
            field = acted.field if acted.field in FIELDS[name] else None
            return await console(request, acted.session, 400, error=error, refused=name, typed=acted.form,
                                 field=field)
        # Post, redirect, get: reloading the page after it does not make the change a second time.
        acted.session.done = acted.done
        return RedirectResponse("/director", 303)

    return [
        Route("/director", home, methods=["GET"]),
        Route("/director/login", login_page, methods=["GET"]),
        Route("/director/login", login, methods=["POST"]),
        Route("/director/link/{token}", link_page, methods=["GET"]),
        Route("/director/logout", logout, methods=["POST"]),
        *(Route(f"/director/{name}", action, methods=["POST"]) for name in ACTIONS),
        *(route for area in AREAS for route in area(room)),
    ]
