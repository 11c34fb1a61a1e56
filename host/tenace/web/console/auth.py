"""The director's login to the console: sessions, the one-time link, the password, and what a post must show.

Sessions are hand-written, a few lines: the store is server-side, in memory (a random id in an HttpOnly,
SameSite=Strict cookie), which Starlette's SessionMiddleware (signed client-side sessions, itsdangerous) does not do;
the forms are urlencoded only and parsed by the standard library's parse_qsl (Starlette's form parser needs
python-multipart, a dependency for nothing more)."""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from tenace.errors import UsageError

log = logging.getLogger(__name__)

COOKIE = "tenace_director"
# A wrong password or link waits this long before its answer: guessing stays slow even from a script.
REFUSED_DELAY_S = 1.0
# The refused logins are logged a line each for the first SINGLE_LINES of every LOG_QUIET_S, then one line for every
# REFUSALS_A_LINE more: a script's thousand guesses are a few lines, not a thousand.
SINGLE_LINES = 10
REFUSALS_A_LINE = 100
LOG_QUIET_S = 60.0
# A form is small: a body larger than this is refused before it is parsed.
MAX_FORM_BYTES = 16_384
# A session left alone this long is over (a laptop left open at the club overnight): log in again.
IDLE_S = 6 * 3600.0
# Never cached, and never shown in another site's frame (a page could frame the console and steer the director's
# clicks: the cookie goes along to a frame from another port of this host, the same site).
NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Content-Security-Policy": "frame-ancestors 'none'; form-action 'self'"}

@dataclass
class Session:
    name: str  # the director's name given at login: every action is signed with it
    csrf: str  # the token each of this session's forms carries
    done: str | None = None  # the last action's log line, shown once by the console page it redirects to
    seen: float = field(default_factory=time.monotonic)  # its latest request
    lang: str | None = None  # the console's language the director chose (?lang=), None: the browser's


@dataclass
class Director:
    """How the director logs in: the password of --director-password-file, else a one-time link's token (None once
    it is spent). The sessions are kept in memory: a restart of `tenace serve` logs everybody out."""

    password: str | None = None
    token: str | None = None
    sessions: dict[str, Session] = field(default_factory=dict)
    refused_until: float = 0.0  # time.monotonic() when the latest refused login is answered
    # The spacing of refused logins' answers (a test makes it short, to try a thousand guesses in seconds).
    delay_s: float = REFUSED_DELAY_S
    refusals: RefusalLog = field(default_factory=lambda: RefusalLog())

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
        """How long a refused login waits: until `delay_s` (a second) after the previous refusal's answer, so that
        guesses sent in parallel are still answered one a second. The spacing is global, not per client: guesses
        spread over many addresses are no faster than one address's, which a per-client spacing alone would allow.
        The right password is never delayed, so the director logs in even while a script is guessing."""
        now = time.monotonic()
        self.refused_until = max(now, self.refused_until) + self.delay_s
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


def same_origin(request: Request) -> bool:
    """The request comes from a page of this server: its Origin (or, lacking one, its Referer) is this address."""
    own = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    if origin is not None:
        return origin == own
    referer = request.headers.get("referer")
    return referer is not None and (referer == own or referer.startswith(own + "/"))


async def form_of(request: Request, limit: int = MAX_FORM_BYTES) -> dict[str, str]:
    """An urlencoded form's fields (a field given twice: its last value); empty fields are left out."""
    body = await request.body()
    if len(body) > limit:
        raise UsageError("the form is too large")
    text = body.decode("utf-8", errors="replace")
    return {k: v.strip() for k, v in parse_qsl(text, keep_blank_values=False) if v.strip()}


def forbidden(message: str) -> Response:
    return PlainTextResponse(message, 403, headers=NO_STORE)


def client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"
