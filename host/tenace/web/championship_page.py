"""A championship's combined ranking (with strata and handicaps) as a page in the results pages' own template."""

from __future__ import annotations

from tenace.reports.championship import Combined, combined_document
from tenace.reports.event_results import EventResults
from tenace.store.event import EventInfo
from tenace.web.render import Links, templates
from tenace.web.words import DEFAULT, words


def championship_page(combined: Combined, lang: str = DEFAULT) -> str:
    """The rankings page of a championship: no session's sections, the combined ranking beside them."""
    name = combined.championship.name
    info = EventInfo(name=name, date="", scoring="matchpoints", created="", sections=())
    results = EventResults(info, (), None)
    return templates().get_template("rankings.html").render(
        results=results, info=info, part=False, live=False, links=Links(root="", suffix=".html"), t=words(lang),
        switcher=None, chain_head="", final=False, until=None, championship=combined_document(combined))
