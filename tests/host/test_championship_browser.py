"""A session of a championship served (tenace serve --championship) in a real browser (Debian's chromium): the rankings
page with the combined ranking so far, the console's publish page and its printed ranking pass axe-core's audit on a
laptop and on a phone in each of the five languages, and show no English word in another language."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from test_championship import import_ratings
from test_championship_served import championship_file, sessions
from test_console_a11y_browser import PASSWORD, SCHEMES, SIZES, audit, browser  # noqa: F401 (the browser fixture)
from test_console_words_browser import english_left, read_all

from tenace.page_base.words import LANGUAGES
from tenace.reports.championship import read_championship
from tenace.web.championship_page import ServedChampionship
from tenace.web.console import Director

from live_page import served

pytestmark = pytest.mark.slow  # a browser, three pages in five languages

PAGES = ("/", "/director/publish", "/director/print/ranking")


def served_championship(folder: Path) -> tuple[Path, ServedChampionship]:
    """The session under way and its championship, with strata and a handicap ranking (every column shown); names
    and the event's name the words checks allow in every language ("Ana", "Test")."""
    first, second = sessions(folder, member="Ana", name="Test")
    path = championship_file(folder, "Test", 'strata = { A = 1500, B = 0 }\nhandicap = "sum"')
    for event in (first, second):
        import_ratings(event, "".join(f"{n},Ana {n},,{(n * 173) % 2400},{n % 5 - 2}\n" for n in range(1, 29)))
    return second, ServedChampionship(read_championship(path), second)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_championship_pages_pass_the_audit(tmp_path: Path, browser: Browser, size: str, lang: str) -> None:  # noqa: F811
    event, championship = served_championship(tmp_path)
    with served(event, director=Director(password=PASSWORD), championship=championship) as url:
        context = browser.new_context(viewport=SIZES[size], color_scheme=SCHEMES[size],  # type: ignore[arg-type]
                                      locale=lang)
        page = context.new_page()
        page.goto(f"{url}/director/login")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{url}/director")
        faults = {path: audit(page, url + path, tab=lang == "en") for path in PAGES}
        shown = page.goto(f"{url}/")
        assert shown is not None and 'class="combined"' in shown.text()
        context.close()
    faults = {path: found for path, found in faults.items() if found}
    assert not faults, "\n".join(f"{path}:\n  " + "\n  ".join(found) for path, found in faults.items())


def test_no_english_word_is_left_on_the_championship_pages(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    event, championship = served_championship(tmp_path)
    with served(event, director=Director(password=PASSWORD), championship=championship) as url:
        texts = {}
        for lang in LANGUAGES:
            context = browser.new_context(viewport=SIZES["laptop"], locale=lang)  # the public page: the browser's
            texts[lang] = read_all(context.new_page(), url, lang, PAGES)
            context.close()
    assert all("Test" in texts[lang]["/"] for lang in LANGUAGES)
    left = english_left(texts)
    assert not left, left
