"""`tenace report --html`: the event as a static site: the pages of `tenace serve` as files, linked relatively."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

from tenace.page_base.words import DEFAULT, Words, words
from tenace.reports.event_results import EventResults, SectionResults
from tenace.web.pages import pair_slug
from tenace.web.render import Links, board_context, pair_context, player_context, standing, templates

INDEX = "index.html"
# The index links down into board/A/ and pair/A/; a board's or a pair's page links back up two folders.
FROM_INDEX = Links(root="", suffix=".html")
FROM_PAGE = Links(root="../../", suffix=".html")
FROM_PLAYER = Links(root="../", suffix=".html")  # player/101.html


@dataclass(frozen=True)
class Written:
    """What one section added to the site."""

    section: str
    boards: int
    pairs: int


class Site:
    """The static pages of one event in one of the pages' languages, written into `folder` (made by the caller)."""

    def __init__(self, results: EventResults, folder: Path, lang: str = DEFAULT, chain_head: str = "") -> None:
        self.results = results
        self.chain_head = chain_head  # the event file's (store.ledger.head), in every page's footer
        self.folder = folder
        self.env: Environment = templates()
        self.words: Words = words(lang)

    def _write(self, relative: str, template: str, links: Links, context: dict[str, object]) -> None:
        html = self.env.get_template(template).render(results=self.results, info=self.results.info, part=False,
                                                      live=False, links=links, t=self.words, switcher=None,
                                                      chain_head=self.chain_head, **standing(self.results),
                                                      **context)
        target = self.folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8", newline="\n")

    def index(self) -> Path:
        """Every section's ranking and its boards."""
        self._write(INDEX, "rankings.html", FROM_INDEX, {})
        return self.folder / INDEX

    def section(self, section: SectionResults) -> Written:
        """A page per board (traveller, hand record, double dummy and par when kept) and per pair (scorecard)."""
        for board in section.boards:
            self._write(FROM_INDEX.board(section.section, board), "board.html", FROM_PAGE,
                        board_context(section, board))
        pairs = section.report.pairs()
        for pair in pairs:
            self._write(FROM_INDEX.pair(section.section, pair), "pair.html", FROM_PAGE,
                        pair_context(section, pair_slug(pair)))
        return Written(section.section, len(section.boards), len(pairs))

    def players(self) -> int:
        """A page per named player, linking the pairs they played in; how many."""
        numbers = sorted({n for s in self.results.sections for players in s.players.values() for n, _ in players})
        for number in numbers:
            self._write(FROM_INDEX.player(number), "player.html", FROM_PLAYER, player_context(self.results, number))
        return len(numbers)
