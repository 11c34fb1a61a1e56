"""A championship's combined ranking (with strata and handicaps) on the results pages: the page of `tenace championship
rank --html`, and the ranking so far beside a served session's (`tenace serve --championship`)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tenace.page_base.words import DEFAULT, words
from tenace.reports.championship import Championship, ChampionshipError, Combined, combine, combined_document, so_far
from tenace.reports.event_results import EventResults
from tenace.store.event import EventInfo
from tenace.store.names import Member
from tenace.web.pages import read_only_results, read_only_roster
from tenace.web.render import Links, templates


def championship_page(combined: Combined, lang: str = DEFAULT) -> str:
    """The rankings page of a championship: no session's sections, the combined ranking beside them."""
    name = combined.championship.name
    info = EventInfo(name=name, date="", scoring="matchpoints", created="", sections=())
    results = EventResults(info, (), None)
    return templates().get_template("rankings.html").render(
        results=results, info=info, part=False, live=False, links=Links(root="", suffix=".html"), t=words(lang),
        switcher=None, chain_head="", final=False, until=None, championship=combined_document(combined))


class ServedChampionship:
    """The championship a served session is one of: its ranking so far (the sessions up to the served one), made by
    the one championship code from the served session's results as the pages have them and the other sessions' files
    read-only; made again when the served file or another session's file changes."""

    def __init__(self, championship: Championship, served: Path) -> None:
        self.championship = so_far(championship, served)  # ChampionshipError: the file does not name the session
        self.served = served.resolve()
        self._lock = threading.Lock()
        self._made: tuple[object, dict[str, Any]] | None = None

    def _others(self) -> tuple[tuple[int, int], ...]:
        """The other sessions' files as they are now (size and time of the file and of its write-ahead log)."""
        stamps = []
        for s in self.championship.sessions:
            if s.event.resolve() == self.served:
                continue
            for f in (s.event, s.event.with_name(s.event.name + "-wal")):
                try:
                    st = f.stat()
                    stamps.append((st.st_size, st.st_mtime_ns))
                except OSError:
                    stamps.append((-1, -1))
        return tuple(stamps)

    def document(self, results: EventResults, generation: int | None = None) -> dict[str, Any]:
        """The combined ranking so far as the pages show it (combined_document), `results` the served session's as of
        `generation` (None: made anew, as the console's pages ask); ChampionshipError when a session cannot be read."""
        with self._lock:
            stamp = (generation, self._others())
            if generation is not None and self._made is not None and self._made[0] == stamp:
                return self._made[1]

            def read(path: Path) -> tuple[EventResults, Mapping[int, Member]]:
                if path.resolve() == self.served:
                    return results, read_only_roster(path)
                return read_only_results(path), read_only_roster(path)
            made = combined_document(combine(self.championship, read))
            self._made = (stamp, made)
            return made

    def context(self, results: EventResults, generation: int | None = None) -> dict[str, object]:
        """The rankings page's part: the ranking, or why there is none now (in English: it is for the director)."""
        try:
            return {"championship": self.document(results, generation)}
        except ChampionshipError as e:
            return {"championship_error": str(e)}
