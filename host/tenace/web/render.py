"""The results pages' templates and links, shared by `tenace serve` (live) and `tenace report --html` (files)."""

from __future__ import annotations

from dataclasses import dataclass

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from tenace.page_base.environment import environment
from tenace.page_base.words import Words
from tenace.reports.event_results import EventResults, SectionResults
from tenace.reports.model import Pair
from tenace.store import clock
from tenace.web.pages import (
    STRAINS,
    board_of,
    debriefs,
    diagram,
    figure,
    marked_text,
    pair_of,
    pair_slug,
    player_pairs,
    result_cells,
)


def standing(results: EventResults) -> dict[str, object]:
    """What the results are now, for every page: `final` once the session is finished and its correction period
    (Law 79C) is over; `until`, the period's end on the laptop's clock while it runs (None before the finish)."""
    published = results.published
    if published is None:
        return {"final": False, "until": None}
    ends = published.ends
    return {"final": clock.now() >= ends, "until": f"{ends.astimezone():%H:%M}"}


@dataclass(frozen=True)
class Links:
    """Where a page's links point: the server's addresses (`root` "/"), or the static site's files relative to the
    page (`root` "" or "../../", `suffix` ".html"), so that the folder works from any web host or from disk. A
    language chosen on a served page (`query` "?lang=lv") goes along to the next page."""

    root: str = "/"
    suffix: str = ""
    query: str = ""

    def home(self) -> str:
        # From disk a folder does not open its index.html: name the file.
        return (f"{self.root}index.html" if self.suffix else self.root) + self.query

    def board(self, section: str, board: int) -> str:
        return f"{self.root}board/{section}/{board}{self.suffix}{self.query}"

    def pair(self, section: str, pair: Pair) -> str:
        return self.pair_at(section, pair_slug(pair))

    def pair_at(self, section: str, slug: str) -> str:
        """A pair's page by its part of the address (pair_slug), as a printed scorecard's QR code names it."""
        return f"{self.root}pair/{section}/{slug}{self.suffix}{self.query}"

    def player(self, number: int) -> str:
        return f"{self.root}player/{number}{self.suffix}{self.query}"

    def playing(self) -> str:
        return f"{self.root}playing{self.suffix}{self.query}"


SERVED = Links()


def served_links(lang: str | None) -> Links:
    """The server's links, keeping the language asked for in the address (none: each page asks the browser)."""
    return Links(query=f"?lang={lang}") if lang else SERVED


@pass_context
def ltr(context: Context, text: object) -> Markup:
    """`text` kept left to right in the page's language (Words.ltr)."""
    t: Words = context["t"]
    return t.ltr(text)


def templates() -> Environment:
    env = environment("tenace.web")
    env.globals.update(figure=figure, result_cells=result_cells, diagram=diagram, strains=STRAINS, ltr=ltr,
                       marked_text=marked_text)
    return env


# What board.html and pair.html are given besides the event's results and the links (NotFound when not there).

def board_context(section: SectionResults, board: int) -> dict[str, object]:
    return {"section": section, "board": board, "report": board_of(section, board)}


def pair_context(section: SectionResults, slug: str) -> dict[str, object]:
    found, report = pair_of(section, slug)
    # The notes not on one board (a penalty) are said once, after the boards.
    pair_notes = tuple(n for n in report.shown_notes() if not n.startswith("board "))
    return {"section": section, "pair": found, "report": report, "debriefs": debriefs(section, found, report),
            "pair_notes": pair_notes, "players": section.players.get(found.label, ())}


def player_context(results: EventResults, number: int) -> dict[str, object]:
    name, pairs = player_pairs(results, number)
    return {"number": number, "name": name, "pairs": pairs}
