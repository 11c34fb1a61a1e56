"""The hub's HTML pages rendered in the reader's language, on page_base's skeleton, style and words."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

from tenace.page_base.environment import environment
from tenace.page_base.words import DEFAULT, Words, hub_words, language_of, switcher

TEMPLATES = environment("tenace.hub")


def language(request: Request) -> tuple[Words, str]:
    """The page's words (the language of ?lang=, else the browser's, else English) and the query that keeps a
    language chosen in the address along the page's links and forms ("" when the browser chose)."""
    asked = request.query_params.get("lang")
    lang = language_of(asked, request.headers.get("accept-language")) or DEFAULT
    return hub_words(lang), (f"?lang={lang}" if asked == lang else "")


def page(request: Request, template: str, status: int = 200, headers: dict[str, str] | None = None,
         **context: object) -> HTMLResponse:
    """`template` (hub/templates/) in the request's language (language(request), which gives the words its
    `context` was said in), with its switcher: this page in each language, its other parameters kept."""
    t, query = language(request)
    kept = {k: v for k, v in request.query_params.items() if k != "lang"}
    html = TEMPLATES.get_template(template).render(t=t, query=query, switcher=switcher(request.url.path, kept),
                                                   **context)
    return HTMLResponse(html, status, headers=headers)
