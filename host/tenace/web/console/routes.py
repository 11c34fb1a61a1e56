"""The console's routes: the login, the page with the problems as work and the action forms, the actions, and each
area's."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tenace.collector.in_process import Listening
from tenace.errors import UsageError
from tenace.page_base.words import LANGUAGES, console_words
from tenace.store import StoreError
from tenace.web.championship_page import ServedChampionship
from tenace.web.console import calls, grid, printing, publish, rehearsal, work
from tenace.web.console.acting import act
from tenace.web.console.auth import COOKIE, MIN_PASSWORD, Director, Session, client
from tenace.web.console.forms import ACTIONS, FIELDS, MOVES, one_line, warnings_of, worded
from tenace.web.console.room import SPOKEN, Room
from tenace.web.console.setup import routes as setup_routes
from tenace.web.console.work import Work, read_work
from tenace.web.render import templates

log = logging.getLogger(__name__)


# Each area of the evening: a module whose routes(room) adds its pages and posts under /director.
AREAS: tuple[Callable[[Room], list[BaseRoute]], ...] = (
    setup_routes, grid.routes, calls.routes, work.routes, publish.routes, printing.routes, rehearsal.routes,
)


def console_routes(path: Path, director: Director, new: bool = False, listening: Listening | None = None,
                   championship: ServedChampionship | None = None) -> list[BaseRoute]:
    """The console's routes, all under /director. With `new`, the event file is still to be made at `path` (by the
    set-up's page). `listening`: the collector in this process, started and stopped on the Terminals page.
    `championship`: the one the event is a session of (its ranking so far on the publish and print pages)."""
    room = Room(None if new else path, director, templates(), new_path=path if new else None, listening=listening,
                championship=championship)

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

    def login_form(status: int = 200, token: str | None = None, error: str | None = None) -> Response:
        where = room.path or room.new_path
        return room.page("console_login.html", status, token=token, error=error,
                         command=Markup("<code>{}</code>").format(f"tenace serve {where} --login-link"))

    async def login_page(request: Request) -> Response:
        room.speak(request)
        return login_form()

    async def link_page(request: Request) -> Response:
        token = request.path_params["token"]
        room.speak(request)
        # Opening the link shows a form (the name to sign with): a link previewer fetching it spends nothing.
        if not director.link_is_good(token):
            return await refused_login(request, link=True)
        return login_form(token=token)

    async def refused_login(request: Request, link: bool) -> Response:
        """A wrong or spent login link, or a wrong password: answered late (guessing is slow), and logged."""
        await asyncio.sleep(director.refusal_delay())
        what = "a login link that is wrong or spent" if link else "a wrong password"
        director.refusals.refused(what, client(request))
        return login_form(401, error=console_words(SPOKEN.get())("wrong_link" if link else "wrong_password"))

    async def login(request: Request) -> Response:
        room.speak(request)
        form = await room.same_site_form(request, "login",
                                         "refused: a login must come from this server's own login page")
        if isinstance(form, Response):
            return form
        name = form.get("name", "director")[:40]
        token = form.get("token")
        chosen = None
        if token is not None:
            if not director.link_is_good(token):
                return await refused_login(request, link=True)
            # The first login chooses the password (a restart, a logout or a closed laptop then never locks the
            # director out); a later link may replace a forgotten one.
            chosen = form.get("new_password")
            if director.may_choose_password() and (chosen is not None or not director.has_password()):
                t = console_words(SPOKEN.get())
                if chosen is None or len(chosen) < MIN_PASSWORD:
                    return login_form(400, token, t.plain("password_too_short", least=MIN_PASSWORD))
                if chosen != form.get("new_password_again"):
                    return login_form(400, token, t.plain("passwords_differ"))
            ok = director.spend(token)
        else:
            ok = director.password_is(form.get("password", ""))
        if not ok:
            return await refused_login(request, link=token is not None)
        if chosen is not None and director.may_choose_password():
            director.choose_password(chosen)
            log.info("director's console: %s chose the console's password", name)
        director.refusals.flush()
        cookie = director.login(name)
        if request.query_params.get("lang") in LANGUAGES:  # the login page's language stays the console's
            director.sessions[cookie].lang = request.query_params["lang"]
        log.info("director's console: %s logged in from %s", name, client(request))
        response = RedirectResponse("/director", 303)
        # No max_age: the browser keeps it until it closes; the signature (FILE.director's key) outlives a restart.
        response.set_cookie(COOKIE, cookie, path="/director", httponly=True, samesite="strict")
        return response

    async def logout(request: Request) -> Response:
        found = await room.checked(request)
        if isinstance(found, Response):
            return found
        director.log_out(request.cookies.get(COOKIE, ""))
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
        words = console_words(SPOKEN.get())
        acted.session.warnings = [words.plain(key) for key in warnings_of(name, acted.form)]
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
