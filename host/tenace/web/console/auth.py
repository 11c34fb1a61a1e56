"""The director's login to the console: sessions, the one-time link, the password (a post's checks: http_guard).

Sessions are hand-written, a few lines: an HttpOnly, SameSite=Strict cookie holding a random id, the login's time and
the name, signed (HMAC) with the key kept beside the event file (keeping.py), so that it outlives a restart; a logout is
kept there too, which Starlette's SessionMiddleware (itsdangerous, a whole session in the cookie) does not do;
what a post must show is protocol/http_guard.py, shared with the hub's console."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request

from tenace.protocol.http_guard import REFUSED_DELAY_S
from tenace.web.console.keeping import SESSION_MAX_S, Kept, Unkept, kept_beside

log = logging.getLogger(__name__)

COOKIE = "tenace_director"
# The refused logins are logged a line each for the first SINGLE_LINES of every LOG_QUIET_S, then one line for every
# REFUSALS_A_LINE more: a script's thousand guesses are a few lines, not a thousand.
SINGLE_LINES = 10
REFUSALS_A_LINE = 100
LOG_QUIET_S = 60.0
# The least a password has (a chosen one, or --password-file's first line).
MIN_PASSWORD = 8
# How many of a session's sent forms are remembered as sent (an evening's actions are a few hundred).
SPENT_KEPT = 10_000
# A session left alone this long is over (a laptop left open at the club overnight): log in again.
IDLE_S = 6 * 3600.0
@dataclass
class Session:
    name: str  # the director's name given at login: every action is signed with it
    csrf: str  # the token each of this session's forms carries
    done: str | None = None  # the last action's log line, shown once by the console page it redirects to
    seen: float = field(default_factory=time.monotonic)  # its latest request
    lang: str | None = None  # the console's language the director chose (?lang=), None: the browser's
    warnings: list[str] = field(default_factory=list)  # what the last action's page warns of, once, beside `done`
    # The one-time tokens of the forms this session has sent (the latest SPENT_KEPT): a form sent again does nothing.
    spent: deque[str] = field(default_factory=lambda: deque(maxlen=SPENT_KEPT))
    sending: str | None = None  # the one-time token of the form being answered (spent unless it is refused)


@dataclass
class Director:
    """How the director logs in: the password (of --password-file, else the one chosen at the first login), or a
    one-time link's token (this serve's, printed at its start, None once it is spent; or one of
    `tenace serve --login-link`'s, kept in FILE.director). A session is a signed cookie: with `kept` (FILE.director,
    its key), it outlives a restart of `tenace serve`; without (a test's), the key is this process's."""

    password: str | None = None
    token: str | None = None
    sessions: dict[str, Session] = field(default_factory=dict)  # by cookie: those seen since this process started
    refused_until: float = 0.0  # time.monotonic() when the latest refused login is answered
    # The spacing of refused logins' answers (a test makes it short, to try a thousand guesses in seconds).
    delay_s: float = REFUSED_DELAY_S
    refusals: RefusalLog = field(default_factory=lambda: RefusalLog())
    kept: Kept | None = None
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    chosen: str | None = None  # the password chosen at the first login, when nothing is kept
    out: set[str] = field(default_factory=set)  # the sessions logged out or idle too long (their ids)

    @classmethod
    def with_link(cls) -> Director:
        return cls(token=secrets.token_urlsafe(24))

    @classmethod
    def kept_beside(cls, event: Path, password: str | None = None) -> Director:
        """The director of the event file `event`, whose login is kept in FILE.director; a one-time link for this
        serve unless the password is given (from --password-file)."""
        token = None if password is not None else secrets.token_urlsafe(24)
        kept = Kept(kept_beside(event))
        try:
            return cls(password=password, token=token, kept=kept, key=kept.key())
        except Unkept as e:  # an event file in a folder one may only read: served still, its login kept in memory
            log.warning("%s: sessions end when this serve does", e)
            return cls(password=password, token=token)

    def link(self, base: str, token: str | None = None) -> str:
        """The one-time login link to print on the laptop's console."""
        return f"{base.rstrip('/')}/director/link/{token or self.token}"

    def may_choose_password(self) -> bool:
        """The password is the director's to choose at a link's login (not given by --password-file)."""
        return self.password is None

    def has_password(self) -> bool:
        if self.password is not None or self.chosen is not None:
            return True
        return self.kept is not None and self.kept.has_password()

    def password_is(self, given: str) -> bool:
        for known in (self.password, self.chosen):
            if known is not None:
                return hmac.compare_digest(given.encode(), known.encode())
        return self.kept is not None and self.kept.password_is(given)

    def choose_password(self, password: str) -> None:
        if self.kept is not None:
            self.kept.set_password(password)
        else:
            self.chosen = password

    def link_is_good(self, token: str) -> bool:
        if self.token is not None and hmac.compare_digest(token.encode(), self.token.encode()):
            return True
        return self.kept is not None and self.kept.link_is_good(token)

    def spend(self, token: str) -> bool:
        """True, once, for a link's token; the token is then gone."""
        if self.token is not None and hmac.compare_digest(token.encode(), self.token.encode()):
            self.token = None
            return True
        return self.kept is not None and self.kept.link_is_good(token, spend=True)

    def refusal_delay(self) -> float:
        """How long a refused login waits: until `delay_s` (a second) after the previous refusal's answer, so that
        guesses sent in parallel are still answered one a second. The spacing is global, not per client: guesses
        spread over many addresses are no faster than one address's, which a per-client spacing alone would allow.
        The right password is never delayed, so the director logs in even while a script is guessing."""
        now = time.monotonic()
        self.refused_until = max(now, self.refused_until) + self.delay_s
        return self.refused_until - now

    def _signed(self, payload: str) -> str:
        return hmac.new(self.key, payload.encode(), hashlib.sha256).hexdigest()

    def login(self, name: str) -> str:
        """A new session for `name`; its cookie's value: its id, when it began and the name, signed."""
        sid = secrets.token_urlsafe(18)
        payload = f"{sid}.{int(time.time())}.{base64.urlsafe_b64encode(name.encode()).decode().rstrip('=')}"
        cookie = f"{payload}.{self._signed(payload)}"
        self.sessions[cookie] = Session(name, self._signed("csrf:" + sid))
        return cookie

    def _from_cookie(self, cookie: str) -> tuple[str, float, Session] | None:
        """The session a cookie signed by this key stands for (after a restart), None if it is not one."""
        payload, _, signature = cookie.rpartition(".")
        sid, _, rest = payload.partition(".")
        issued, _, name = rest.partition(".")
        if not payload or not hmac.compare_digest(signature, self._signed(payload)):
            return None
        try:
            began = float(issued)
            who = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
        except ValueError:
            return None
        if time.time() - began > SESSION_MAX_S or sid in self.out or (self.kept and self.kept.is_out(sid)):
            return None
        return sid, began, Session(who, self._signed("csrf:" + sid))

    def log_out(self, cookie: str) -> None:
        """The session is over here and, with `kept`, after a restart too."""
        self.sessions.pop(cookie, None)
        found = self._from_cookie(cookie)
        if found is None:
            return
        sid, began, _ = found
        self.out.add(sid)
        if self.kept is not None:
            self.kept.log_out(sid, began)

    def session(self, request: Request) -> Session | None:
        """The request's session, None when it has none or its session has been idle for IDLE_S."""
        cookie = request.cookies.get(COOKIE, "")
        found = self.sessions.get(cookie)
        if found is None:
            made = self._from_cookie(cookie) if cookie else None
            if made is None:
                return None
            found = self.sessions[cookie] = made[2]
        now = time.monotonic()
        if now - found.seen > IDLE_S:
            self.log_out(cookie)
            return None
        found.seen = now
        return found


@dataclass
class RefusalLog:
    """The refused logins' log lines, rate-limited: in each LOG_QUIET_S, the first SINGLE_LINES refusals have a line
    each (a mistyped password is seen as it is); the others are summed up, one line every REFUSALS_A_LINE of them, the
    rest when the period is over (at the next refusal) or at the next login."""

    single: int = SINGLE_LINES
    every: int = REFUSALS_A_LINE
    quiet_s: float = LOG_QUIET_S
    started: float = float("-inf")  # time.monotonic() when the current period began
    seen: int = 0  # refusals in the current period
    count: int = 0  # refusals not yet in a line
    total: int = 0  # refusals since the start
    addresses: set[str] = field(default_factory=set)  # the clients of those not yet in a line

    def refused(self, what: str, address: str) -> None:
        now = time.monotonic()
        self.total += 1
        if now - self.started >= self.quiet_s:
            self.flush(f"in the last {now - self.started:.0f} s")
            self.started, self.seen = now, 0
        self.seen += 1
        if self.seen <= self.single:
            log.warning("director's console: %s, from %s", what, address)
            return
        self.count += 1
        self.addresses.add(address)
        if self.count >= self.every:
            self.flush(f"in the last {now - self.started:.0f} s")

    def flush(self, when: str = "before this login") -> None:
        """The refusals not yet in a line get theirs (at a login: a guessing script's tail is not left unsaid)."""
        if not self.count:
            return
        shown = sorted(self.addresses)
        log.warning("director's console: %d more refused logins (wrong passwords or login links) %s, %d in all, "
                    "from %s", self.count, when, self.total,
                    ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else ""))
        self.count = 0
        self.addresses.clear()


def client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"
