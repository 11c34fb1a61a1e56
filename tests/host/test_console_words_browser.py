"""Every word of the director's console translated: each console page, read in a real browser (Debian's chromium)
in each of the terminal's languages, shows no English word that the same page shows in English, bar names,
numbers and bridge notation; and every symbol it shows is one the page's fonts have."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from event_state import club_of_every_state, club_with_a_conflict
from playwright.sync_api import Browser, Page, sync_playwright
from test_console_a11y_browser import PAGES, PASSWORD

from tenace.collector.in_process import Listening
from tenace.collector.serial_link import open_port
from tenace.page_base.words import LANGUAGES, console_words, words
from tenace.web.console import Director

from live_page import served

pytestmark = pytest.mark.slow  # a browser, every page in five languages

# Words the same in every language: the languages' own names and codes on the switcher, the event's name and file,
# the director's name and the reasons the tests' director typed. Upper-case words of up to six letters are notation
# (NS, EW, NT, HK, PDF, PBN, USEBIO), never checked.
ALLOWED = frozenset({"english", "club", "sqlite", "ana", "test", *LANGUAGES})
NOTATION = re.compile(r"[A-Z]{1,6}")
# The page's visible text: what it says, what its closed parts say once opened, and its tooltips and placeholders;
# not a command or a path shown as code, which no language translates, nor a part the page marks as English (a
# screen reader reads it as English: the store's own check of a damaged row).
SEEN = """() => {
    document.querySelectorAll('details').forEach(d => { d.open = true; });
    document.querySelectorAll('code, kbd, samp, body [lang=en]').forEach(c => { c.textContent = ''; });
    const extra = [...document.querySelectorAll('[title], [placeholder], [aria-label]')].map(e =>
        [e.getAttribute('title'), e.getAttribute('placeholder'), e.getAttribute('aria-label')].join(' '));
    return document.title + ' ' + document.body.innerText + ' ' + extra.join(' '); }"""


def word_set(text: str) -> set[str]:
    """The words of a text, lower case: letters only, two or more (a number, a contract, a single letter: none)."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text) if not NOTATION.fullmatch(w)}


def own_words(lang: str) -> set[str]:
    """Every word a language's files use: a word its translators chose (Serbian's "board") is that language's."""
    return word_set(" ".join([*console_words(lang).texts.values(), *words(lang).texts.values()]))


@pytest.fixture(scope="module")
def browser(browser_path: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def read_all(page: Page, url: str, lang: str, pages: tuple[str, ...] = PAGES) -> dict[str, str]:
    """Each console page's visible text in `lang`, logged in with the login page in that language."""
    page.goto(f"{url}/director/login?lang={lang}")
    seen = {"/director/login": page.evaluate(SEEN)}
    page.fill("input[name=name]", "Ana")  # the name the pages say who is logged in by
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/director")
    for path in pages:
        answer = page.goto(url + path)
        assert answer is not None and answer.status == 200, (path, lang)
        page.wait_for_load_state("load")
        # The live pages' script says whether the page follows the file: wait for it to have said it.
        page.wait_for_function("() => !document.getElementById('live') || document.body.dataset.live")
        seen[path] = page.evaluate(SEEN)
    return seen


def english_left(texts: dict[str, dict[str, str]], names: frozenset[str] = frozenset()) -> str:
    """Each page's English words left in another language, a line each ("" when none); `names`: words of names the
    pages show as they are (a serial port's path)."""
    left = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        mine = own_words(lang) | ALLOWED | names | {w for code in LANGUAGES for w in word_set(console_words(code).name)}
        for path, text in texts[lang].items():
            found = sorted((word_set(text) & word_set(texts["en"][path])) - mine)
            if found:
                left.append(f"{lang} {path}: {' '.join(found)}")
    return "\n".join(left)


def read_every_language(browser: Browser, event: Path, pages: tuple[str, ...] = PAGES) -> dict[str, dict[str, str]]:
    with served(event, director=Director(password=PASSWORD)) as url:
        texts = {}
        for lang in LANGUAGES:
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            texts[lang] = read_all(context.new_page(), url, lang, pages)
            context.close()
    return texts


def test_no_english_word_is_left_on_a_console_page_in_another_language(tmp_path: Path, browser: Browser) -> None:
    left = english_left(read_every_language(browser, club_with_a_conflict(tmp_path / "club.sqlite")))
    assert not left, left


def test_no_english_word_is_left_on_the_grid_and_the_slots_of_every_state(tmp_path: Path, browser: Browser) -> None:
    """An event with a result of every state (damaged, conflict, missing, erased, late, adjusted, entered, being
    played, to come): its work list, its grid and a slot of each kind. A damaged row's detail and tenace check's
    verdict are the store's own, marked as English."""
    every = ((1, 2, 3), (2, 2, 6), (2, 1, 4), (3, 1, 6), (4, 2, 1))  # adjusted, erased, missing, damaged, late
    slots = tuple(f"/director/slot/A/{t}/{r}/{b}" for t, r, b in every)
    event = club_of_every_state(tmp_path / "club.sqlite")
    texts = read_every_language(browser, event, ("/director", "/director/grid/A", *slots))
    left = english_left(texts)
    assert not left, left


def start_listening(page: Page, way: str, address: str, baud: str = "115200") -> None:
    """The Terminals page's form to start the collector, filled in and sent."""
    page.select_option("#listen select[name=way]", way)
    page.fill("#listen input[name=address]", address)
    page.fill("#listen input[name=baud]", baud)
    page.click("#listen button[type=submit]")
    page.wait_for_load_state("load")


def test_no_english_word_is_left_in_what_the_terminals_page_says_of_the_collector(tmp_path: Path,
                                                                                 browser: Browser) -> None:
    """The Terminals page with its collector to start, a base station's port found; each refusal to start it (the
    port absent, held by another program, a TCP port in use, a wrong speed); listening; stopped."""
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    master, slave = os.openpty()
    held = os.ttyname(slave)
    listening = Listening(lambda: event, ports=lambda: ["/dev/ttyUSB0"])
    texts: dict[str, dict[str, str]] = {}
    with socket.socket() as busy, open_port(held, 115200), \
            served(event, director=Director(password=PASSWORD), listening=listening) as url:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = f"127.0.0.1:{busy.getsockname()[1]}"
        try:
            for lang in LANGUAGES:
                context = browser.new_context(viewport={"width": 1366, "height": 768})
                page = context.new_page()
                read_all(page, url, lang, ())
                seen = texts[lang] = {}
                page.goto(f"{url}/director/terminals")
                seen["off"] = page.evaluate(SEEN)
                for name, way, address, baud in (("absent", "serial", str(tmp_path / "ttyUSB9"), "115200"),
                                                 ("busy", "serial", held, "115200"), ("in use", "tcp", taken, ""),
                                                 ("speed", "serial", "/dev/ttyUSB0", "12")):
                    start_listening(page, way, address, baud)
                    assert page.locator("p.error").count() == 1, (lang, name)
                    seen[name] = page.evaluate(SEEN)
                start_listening(page, "tcp", "127.0.0.1:0")
                assert page.locator("p.done").count() == 1 and listening.state().on, lang
                seen["on"] = page.evaluate(SEEN)
                page.click("#listen-stop button[type=submit]")
                page.wait_for_load_state("load")
                seen["stopped"] = page.evaluate(SEEN)
                context.close()
        finally:
            listening.stop()
            os.close(master)
            os.close(slave)
    left = english_left(texts, frozenset(word_set(f"{held} {tmp_path}")))  # paths: names, never translated
    assert not left, left


def test_every_symbol_of_the_grid_is_in_a_font_the_browser_has() -> None:
    """Each state's symbol (the grid says a state by it, not by colour alone) is in a font fontconfig knows, the fonts
    Debian's chromium draws with (fonts-dejavu): U+231B, the hourglass once used for late, was an empty box."""
    from tenace.web.console.grid import STATES

    fc_list = shutil.which("fc-list")
    if fc_list is None:
        pytest.fail("fc-list is missing: run tools/setup-env (chromium brings fontconfig)")
    lacking = []
    for state, (symbol, _) in STATES.items():
        for ch in symbol:
            if ch.isascii():
                continue
            found = subprocess.run([fc_list, f":charset={ord(ch):x}", "family"], capture_output=True, text=True,
                                   check=True).stdout
            if not found.strip():
                lacking.append(f"{state}: U+{ord(ch):04X}")
    assert not lacking, lacking
