"""The hub's ASGI application: the clubs' push endpoint, the national and club pages (live through PostgreSQL's
LISTEN/NOTIFY), the organiser's console and the exports. A worker keeps nothing of its own: any number of them can
serve one database."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tenace.hub import queries
from tenace.hub.ingest import Club, Refused, client, club_of, log_refusal, over_rate, take
from tenace.hub.schema import migrate
from tenace.hub.scorer import serve as serve_scoring
from tenace.protocol import wire

log = logging.getLogger(__name__)
T = TypeVar("T")
POOL_SIZE = 8  # connections a worker keeps to PostgreSQL


class _Dead(Exception):
    """`work`'s connection was found dead (its OperationalError is the cause)."""


class Hub:
    """A worker's handles on the database: its connection pool and the listeners of its open pages."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, open=False,
                                   kwargs={"autocommit": True})
        self.listeners: set[asyncio.Queue[str]] = set()

    async def run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """`work` on a pooled connection, in a thread (psycopg's blocking API). On a connection found dead (PostgreSQL
        restarted since it was pooled) the pool's idle ones are checked and `work` runs again on a live one, rather
        than a page or a push failing with a 500: each `work` is a read, or a transaction that a lost connection
        rolled back, or one whose repeat changes nothing (a push taken twice is acknowledged). Checking each
        connection as it is lent instead cost a round trip per use: a third of the ingest."""
        def once() -> T:
            with self.pool.connection() as conn:
                try:
                    return work(conn)
                except psycopg.OperationalError as e:
                    if conn.broken:
                        raise _Dead from e
                    raise

        def call() -> T:
            try:
                return once()
            except _Dead:
                log.warning("a pooled connection to PostgreSQL was dead: the others checked, and again")
            self.pool.check()
            try:
                return once()
            except _Dead as e:  # dead again: PostgreSQL is down, not restarted
                assert isinstance(e.__cause__, psycopg.OperationalError)
                raise e.__cause__ from None

        return await run_in_threadpool(call)

    async def listen(self) -> None:
        """Forward each NOTIFY of the hub's channel to this worker's open pages, reconnecting when the link drops."""
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await queries.listen_async(conn)
                    async for note in conn.notifies():
                        for queue in list(self.listeners):
                            if queue.qsize() < 100:
                                queue.put_nowait(note.payload)
            except psycopg.OperationalError as e:
                log.warning("listening to PostgreSQL: %s; again in a second", e)
                await asyncio.sleep(1.0)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def _text(status: int, message: str) -> Response:
    return Response(message + "\n", status, media_type="text/plain; charset=utf-8")


async def push(request: Request) -> Response:
    """POST wire.PUSH_PATH: a club's batch, with its token; the answer is wire.Ack, or a status and a line."""
    hub: Hub = request.app.state.hub
    address = _address(request)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > wire.MAX_BODY_BYTES):
        await hub.run(lambda c: log_refusal(c, 413, f"a body of {length} bytes", address=address))
        return _text(413, f"a batch is at most {wire.MAX_BODY_BYTES} bytes")
    auth = request.headers.get("authorization", "")
    token = auth[len("Bearer "):].strip() if auth.startswith("Bearer ") else ""

    def identify(conn: psycopg.Connection[Any]) -> tuple[Club | None, bool]:
        club = club_of(conn, token) if token else None
        return club, over_rate(conn, client(club.sim if club else None, club.club if club else None, address))

    club, flooding = await hub.run(identify)
    if flooding:
        await hub.run(lambda c: log_refusal(c, 429, "too many requests", sim=club.sim if club else None,
                                            club=club.club if club else None, address=address))
        return _text(429, "too many requests: wait and send again")
    if club is None:
        await hub.run(lambda c: log_refusal(c, 401, "no token or an unknown one", address=address))
        return _text(401, "no club has this token")
    if club.revoked:
        await hub.run(lambda c: log_refusal(c, 403, "the club's token is revoked", sim=club.sim, club=club.club,
                                            address=address))
        return _text(403, "this club's token is revoked")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > wire.MAX_BODY_BYTES:
            await hub.run(lambda c: log_refusal(c, 413, "a body over the limit", sim=club.sim, club=club.club,
                                                address=address))
            return _text(413, f"a batch is at most {wire.MAX_BODY_BYTES} bytes")
    try:
        batch = wire.decode(bytes(body))
    except wire.WireError as e:
        reason = str(e)
        await hub.run(lambda c: log_refusal(c, 400, reason, sim=club.sim, club=club.club, address=address))
        return _text(400, reason)
    try:
        ack = await hub.run(lambda c: take(c, club, batch))
    except Refused as e:
        refused = e
        await hub.run(lambda c: log_refusal(c, refused.status, refused.reason, sim=club.sim, club=club.club,
                                            address=address, key=refused.key))
        return _text(e.status, e.reason)
    return Response(wire.encode_ack(ack), media_type="application/json")


def create_app(url: str, routes: list[Route] | None = None, scoring: bool = True) -> Starlette:
    """The hub's application on the database at `url` (its schema brought up to date at start); `scoring`: with a
    scoring worker of its own, in a thread (`tenace hub serve` runs it in a process of its own instead)."""
    hub = Hub(url)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(lambda: _migrate(url))
        hub.pool.open()
        listening = asyncio.create_task(hub.listen())
        stop = threading.Event()
        failures: list[Exception] = []
        scorer = threading.Thread(target=serve_scoring, args=(url, stop, 1.0, None, failures), name="hub-scorer",
                                  daemon=True) if scoring else None
        if scorer is not None:
            scorer.start()
        try:
            yield
        finally:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            stop.set()
            if scorer is not None:
                await run_in_threadpool(scorer.join)
            await run_in_threadpool(hub.pool.close)
            if failures:  # logged when it happened; raised again here so that a test's hub fails its test
                raise RuntimeError(f"the hub's scoring failed {len(failures)} time(s)") from failures[0]

    app = Starlette(routes=[Route(wire.PUSH_PATH, push, methods=["POST"]), *(routes or [])], lifespan=lifespan)
    app.state.hub = hub
    return app


def _migrate(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
