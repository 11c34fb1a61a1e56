"""Every page of the hub in a real browser (Debian's chromium, driven by Playwright), on a laptop (light) and on a
phone (dark), in each of its five languages: axe-core's audit finds no serious or critical violation, nothing
scrolls sideways, and Tab reaches every control (test_console_a11y_browser's audit, on the hub's pages)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from test_console_a11y_browser import SCHEMES, SIZES, audit, browser  # noqa: F401 (browser: the fixture)
from test_hub_languages import PAGES, hub  # noqa: F401 (hub: the fixture)

from tenace.hub.pages import hub_app
from tenace.page_base.words import LANGUAGES

from live_page import served_app

pytestmark = pytest.mark.slow  # a browser, and seven pages at two sizes


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_hub_page_passes_the_audit(hub: str, browser: Browser, size: str, lang: str) -> None:  # noqa: F811
    tab = lang == "en"  # where Tab goes is the page's markup, the same in every language
    with served_app(hub_app(hub)) as url:
        context = browser.new_context(viewport=SIZES[size], color_scheme=SCHEMES[size],  # type: ignore[arg-type]
                                      locale=lang)
        page = context.new_page()
        faults = {path: audit(page, url + path, tab) for path in PAGES}
        faults["/console (login)"] = audit(page, f"{url}/console", tab)
        page.fill("input[name=login]", "alice")
        page.fill("input[name=password]", "correct horse")
        page.click("form button")
        page.wait_for_url(f"{url}/console")
        assert page.get_attribute("html", "lang") == lang
        faults["/console"] = audit(page, f"{url}/console", tab)
        context.close()
    faults = {path: found for path, found in faults.items() if found}
    assert not faults, "\n".join(f"{path}:\n  " + "\n  ".join(found) for path, found in faults.items())
