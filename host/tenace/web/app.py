"""The ASGI app of `tenace serve`: public, read-only pages (GET only) in the terminal's languages, the event stream
that keeps them live, the director's console (/director, behind a login: web/console/) and the spare terminal
(/spare: web/spare.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from tenace.collector.in_process import Listening
from tenace.page_base.words import DEFAULT, LANGUAGES, language_of, switcher, words
from tenace.reports.event_results import EventResults, ResultsError
from tenace.web.championship_page import ServedChampionship
from tenace.web.changes import POLL_S, Changes
from tenace.web.console import Director, console_routes
from tenace.web.pages import EventFile, NotFound, section_of
from tenace.web.playing import Playing
from tenace.web.render import (
    board_context,
    pair_context,
    player_context,
    served_links,
    standing,
    templates,
)
from tenace.web.spare import SpareLink, spare_routes

# A comment line now and then keeps phones' and proxies' idle timers from closing the stream.
KEEPALIVE_S = 15.0
# Pages are never cached: a phone coming back to a tab must not show an old ranking. Their words depend on the
# browser's languages unless the address names one.
NO_STORE = {"Cache-Control": "no-store"}
PAGE_HEADERS = {**NO_STORE, "Vary": "Accept-Language"}


def create_app(path: Path, poll_s: float = POLL_S, director: Director | None = None,
               spare: SpareLink | None = None, new: bool = False, listening: Listening | None = None,
               championship: ServedChampionship | None = None) -> Starlette:
    """The app for one event file; it polls the file for changes while it runs (its lifespan). With `director`, the
    director's console too (without, the app has no page that writes). The spare terminal's frames go to the
    collector `spare` is attached to (none: the page says that this server does not collect). With `new`, the event file
    is still to be made at `path`, by the console's set-up: until then the pages say that there is no event yet.
    `listening`: the collector in this process, which the console's Terminals page starts and stops (None: it says
    that this server does not run one). `championship`: the championship the event is a session of, whose ranking so
    far the rankings page and the console show beside the session's."""
    env = templates()
    event = EventFile(path)
    changes = Changes(path, poll_s)
    playing = Playing(path)

    async def render(request: Request, template: str,
                     what: Callable[[EventResults], dict[str, object]] | None) -> Response:
        # The generation first: a change during the render is then still announced to this page.
        generation = changes.generation
        # ?lang= when it names one of ours (kept in the page's links), else the browser's Accept-Language.
        asked = request.query_params.get("lang")
        lang = language_of(asked, request.headers.get("accept-language")) or DEFAULT
        t, links = words(lang), served_links(asked if asked in LANGUAGES else None)
        try:
            results = await run_in_threadpool(event.results, generation)
            context = await run_in_threadpool(what, results) if what is not None else {}
        except NotFound as e:
            # No event yet (tenace serve --new): the page looks again now and then, until the director has made it.
            missing = env.get_template("missing.html").render(t=t, links=links, message=e.text(t),
                                                              waiting=e.key == "no_event")
            return HTMLResponse(missing, 503 if e.key == "no_event" else 404, headers=PAGE_HEADERS)
        except ResultsError as e:
            # The scoring's reason stays in English under the page's own words: it is for the director.
            missing = env.get_template("missing.html").render(t=t, links=links, message=t("unavailable"), detail=str(e))
            return HTMLResponse(missing, 503, headers=PAGE_HEADERS)
        part = request.query_params.get("part") == "1"
        page = env.get_template(template)
        html = page.render(results=results, info=results.info, generation=generation, part=part, live=True,
                           links=links, t=t, switcher=switcher(request.url.path),
                           part_url=f"{request.url.path}?part=1&lang={lang}", **standing(results), **context)
        return HTMLResponse(html, headers=PAGE_HEADERS)

    async def rankings(request: Request) -> Response:
        if championship is None:
            return await render(request, "rankings.html", None)
        generation = changes.generation  # read before the file, as render does: a later change is announced
        served: ServedChampionship = championship

        def what(results: EventResults) -> dict[str, object]:
            return served.context(results, generation)
        return await render(request, "rankings.html", what)

    async def board(request: Request) -> Response:
        name, number = request.path_params["section"], request.path_params["board"]

        def what(results: EventResults) -> dict[str, object]:
            return board_context(section_of(results, name), number)
        return await render(request, "board.html", what)

    async def pair(request: Request) -> Response:
        name, slug = request.path_params["section"], request.path_params["pair"]

        def what(results: EventResults) -> dict[str, object]:
            return pair_context(section_of(results, name), slug)
        return await render(request, "pair.html", what)

    async def player(request: Request) -> Response:
        number = request.path_params["number"]

        def what(results: EventResults) -> dict[str, object]:
            return player_context(results, number)
        return await render(request, "player.html", what)

    async def still_playing(request: Request) -> Response:
        generation = changes.generation  # read before the file, as render does: a later change is announced

        def what(results: EventResults) -> dict[str, object]:
            return {"playing": playing.sections(generation)}
        return await render(request, "playing.html", what)

    async def events(request: Request) -> Response:
        """Server-sent events: `changed` each time the event file has new results, so that the page refetches."""
        try:
            since = int(request.query_params.get("since", changes.generation))
        except ValueError:
            since = changes.generation

        async def stream() -> AsyncIterator[str]:
            seen = since
            yield "retry: 1000\n\n"  # a dropped connection is made again within a second
            while not changes.stopping:
                now = await changes.wait(seen, KEEPALIVE_S)
                if changes.stopping:  # the page's browser reconnects to the next serve by itself
                    return
                if now == seen:
                    yield ": still here\n\n"
                    continue
                seen = now
                yield f"event: changed\ndata: {now}\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**NO_STORE, "X-Accel-Buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watcher = asyncio.create_task(changes.watch())
        try:
            yield
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    routes: list[BaseRoute] = [
        Route("/", rankings, methods=["GET"]),
        Route("/board/{section}/{board:int}", board, methods=["GET"]),
        Route("/pair/{section}/{pair}", pair, methods=["GET"]),
        Route("/player/{number:int}", player, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/playing", still_playing, methods=["GET"]),
    ]
    if director is not None:
        routes += console_routes(path, director, new=new, listening=listening, championship=championship)
    routes += spare_routes(spare if spare is not None else SpareLink(), event=path.name)
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.changes = changes
    return app
