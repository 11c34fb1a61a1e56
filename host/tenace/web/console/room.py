"""What every page of the console shares: the event file, its pages, the director's session and checked posts."""

from __future__ import annotations

import hmac
import logging
import secrets
import sqlite3
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from jinja2 import Environment
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from tenace.collector.in_process import Listening
from tenace.errors import UsageError
from tenace.page_base.words import DEFAULT, LANGUAGES, Words, console_words, language_of
from tenace.protocol.http_guard import MAX_FORM_BYTES, NO_STORE, forbidden, form_of, same_origin
from tenace.store import StoreError, connect, event_info
from tenace.store.db import connect_read_only, read_transaction
from tenace.web.championship_page import ServedChampionship
from tenace.web.console.auth import Director, Session, client

log = logging.getLogger(__name__)
T = TypeVar("T")
# The language of the request being answered (set by Room.speak when the request's session is looked up): every page
# it renders speaks it, without each area's handler passing it along.
SPOKEN: ContextVar[str] = ContextVar("console_language", default=DEFAULT)


def back_to(request: Request) -> str:
    """The console's page a post came from (its Referer, checked to be this server's console), else the console."""
    referer = request.headers.get("referer", "")
    own = f"{request.url.scheme}://{request.url.netloc}"
    path = referer.removeprefix(own) if referer.startswith(own + "/") else ""
    return path if path.startswith("/director") and "//" not in path and "\\" not in path else "/director"


def spoken() -> Words:
    """The console's words in the language of the request being answered: for the messages the areas' code words."""
    return console_words(SPOKEN.get())


@dataclass
class Room:
    """The console's shared state. `path` is the event file the console works on (None until `tenace serve --new`
    has made one); reads go through a read-only connection, writes through the store, both off the event loop."""

    path: Path | None
    director: Director
    env: Environment
    # The console's menu, (link, label) in the evening's order: each area adds its pages when its routes are made.
    nav: list[tuple[str, str]] = field(default_factory=lambda: [("/director", "Problems and actions")])
    # Where `tenace serve --new` has the set-up make the event file (None otherwise): `path` once it is made.
    new_path: Path | None = None
    # The collector in `tenace serve`'s process, started and stopped on the Terminals page (None: not this server's).
    listening: Listening | None = None
    # The championship the event is a session of (tenace serve --championship): its ranking so far on the publish
    # and print pages.
    championship: ServedChampionship | None = None
    _practice: bool | None = None  # a practice event? Fixed when the event is made: read once

    def is_practice(self) -> bool:
        """Whether the event is a practice event (every page says so); False while there is none or it cannot be
        read (the page says why elsewhere)."""
        if self.path is None:
            return False
        if self._practice is None:
            try:
                conn = connect_read_only(self.path)
                try:
                    self._practice = event_info(conn).practice
                finally:
                    conn.close()
            except (StoreError, sqlite3.Error):
                return False
        return self._practice

    def page(self, template: str, status: int = 200, **context: object) -> HTMLResponse:
        """A console page. The session's warnings (of its last action, or of a form sent twice) are shown once, atop
        the next page that is not a refusal; every form on it carries a one-time token of its own (`once()`)."""
        lang = SPOKEN.get()
        session = context.get("session")
        if isinstance(session, Session):
            if status == 200:
                context.setdefault("warnings", session.warnings)
                session.warnings = []
            if status >= 400 and session.sending is not None and session.sending in session.spent:
                # Refused: nothing was done, so the same form sent again (once put right) is not "sent already".
                session.spent.remove(session.sending)
            session.sending = None
        html = self.env.get_template(template).render(director=self.director, path=self.path, nav=self.nav,
                                                      practice=self.is_practice(),
                                                      t=console_words(lang), console_languages=LANGUAGES,
                                                      language_name=lambda code: console_words(code).name,
                                                      once=lambda: secrets.token_urlsafe(16), **context)
        return HTMLResponse(html, status, headers=NO_STORE)

    @staticmethod
    def speak(request: Request, session: Session | None = None) -> str:
        """The language this request's pages speak: ?lang= (remembered by the session), else the session's choice,
        else the browser's (Accept-Language), else English."""
        asked = request.query_params.get("lang")
        if session is not None and asked in LANGUAGES:
            session.lang = asked
        chosen = asked if asked in LANGUAGES else session.lang if session is not None else None
        lang = chosen or language_of(None, request.headers.get("accept-language")) or DEFAULT
        SPOKEN.set(lang)
        return lang

    def event(self) -> Path:
        if self.path is None:
            raise UsageError("there is no event yet: create one first")
        return self.path

    async def read(self, what: Callable[[sqlite3.Connection], T]) -> T:
        """`what` on a read-only connection, in one read transaction (one consistent view of the file)."""
        path = self.event()

        def run() -> T:
            conn = connect_read_only(path)
            try:
                with read_transaction(conn):
                    return what(conn)
            finally:
                conn.close()
        return await run_in_threadpool(run)

    async def write(self, what: Callable[[sqlite3.Connection], T]) -> T:
        """`what` on a connection that may write (the store's own transactions)."""
        path = self.event()

        def run() -> T:
            conn = connect(path)
            try:
                return what(conn)
            finally:
                conn.close()
        return await run_in_threadpool(run)

    def session(self, request: Request) -> Session | Response:
        """The request's session, else the redirect to the login page (a GET of a console page)."""
        session = self.director.session(request)
        self.speak(request, session)
        return RedirectResponse("/director/login", 303) if session is None else session

    async def same_site_form(self, request: Request, what: str, refusal: str,
                             limit: int = MAX_FORM_BYTES) -> dict[str, str] | Response:
        """The form of a POST from this server's own page, else the 403 that refuses it (cross-site, or too large)."""
        if not same_origin(request):
            log.warning("director's console: a cross-site %s refused, from %s", what, client(request))
            return forbidden(refusal)
        try:
            return await form_of(request, limit)
        except UsageError as e:
            return forbidden(str(e))

    async def checked(self, request: Request, limit: int = MAX_FORM_BYTES) -> tuple[Session, dict[str, str]] | Response:
        """The session and the form of a POST that may act, else the 403 that refuses it; `limit`: its largest body
        (a file read into the form is larger than a form typed)."""
        session = self.director.session(request)
        self.speak(request, session)
        if session is None:
            return forbidden("refused: not logged in to the director's console")
        form = await self.same_site_form(request, "post",
                                         "refused: the post does not come from the director's console (cross-site)",
                                         limit)
        if isinstance(form, Response):
            return form
        if not hmac.compare_digest(form.get("csrf", "").encode(), session.csrf.encode()):
            log.warning("director's console: a post without this session's form token refused, from %s",
                        client(request))
            return forbidden("refused: the form's token is missing or not this session's (reload the console)")
        once = form.get("once")
        if once is not None:
            if once in session.spent:
                # Back, then the form sent again (or a double click): nothing is done twice; the page says so.
                session.warnings = [console_words(SPOKEN.get()).plain("sent_already")]
                return RedirectResponse(back_to(request), 303)
            session.spent.append(once)
        session.sending = once
        return session, form
