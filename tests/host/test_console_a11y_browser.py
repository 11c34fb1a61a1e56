"""Every page of the director's console in a real browser (Debian's chromium, driven by Playwright), on a laptop
(1366x768, light) and on a phone (360x740, dark), in each of its five languages: axe-core's audit (npm, pinned in
tools/constraints.txt, injected into the page) finds no serious or critical violation, nothing scrolls sideways, and
Tab reaches every control."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from event_state import club_with_a_conflict
from playwright.sync_api import Browser, Page, sync_playwright

from tenace.collector.in_process import Listening
from tenace.page_base.words import LANGUAGES
from tenace.web.console import Director

from conftest import ROOT
from live_page import served

pytestmark = pytest.mark.slow  # a browser, and two dozen pages at two sizes

AXE = ROOT / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "correct horse battery"
SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 360, "height": 740}}
# The laptop in the light colour scheme, the phone in the dark one (the console follows the system's): both audited.
SCHEMES = {"laptop": "light", "phone": "dark"}
# Every page of the console with an event (its set-up, its play, its end), after the login page.
PAGES = ("/director", "/director/setup", "/director/grid", "/director/grid/A",
         "/director/slot/A/1/1/1", "/director/terminals", "/director/publish", "/director/finish",
         "/director/print", "/director/print/cards", "/director/print/scorecards", "/director/print/travellers",
         "/director/print/ranking", "/director/rehearsal")
# What the keyboard can reach: links, buttons, fields, a details' summary, anything given a tab stop.
CONTROLS = ("a[href], button, input:not([type=hidden]), select, textarea, summary, "
            "[tabindex]:not([tabindex='-1'])")


@pytest.fixture(scope="module")
def browser(browser_path: str) -> Iterator[Browser]:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run tools/setup-env (it installs the npm packages of tools/constraints.txt)")
    with sync_playwright() as playwright:
        # --no-sandbox: chromium refuses to run as root with its sandbox (CI and set-up run as root here).
        launched = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each (the rule, and where)."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, object]] = page.evaluate("""async () => (await axe.run(document, {
        resultTypes: ['violations']})).violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""")
    return [f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}" for v in found]


def sideways_scroll(page: Page) -> str | None:
    """How far the page scrolls sideways, and what sticks out (None: it fits the window's width)."""
    found: dict[str, object] = page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const over = document.documentElement.scrollWidth - width;
        const out = [...document.body.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > width
            && !e.closest('.scroll')).map(e => e.outerHTML.slice(0, 80));
        return {over, out: out.slice(-3)}; }""")
    return f"scrolls sideways by {found['over']}px: {found['out']}" if found["over"] else None


def unreachable(page: Page) -> list[str]:
    """The visible controls that Tab, pressed from the top of the page until focus comes round, never reaches."""
    count: int = page.evaluate(f"""() => {{
        const shown = [...document.querySelectorAll("{CONTROLS}")].filter(e => !e.disabled && e.getClientRects().length
            && getComputedStyle(e).visibility !== 'hidden');
        shown.forEach((e, i) => e.setAttribute('data-tab-check', String(i)));
        if (document.activeElement) document.activeElement.blur();
        window.scrollTo(0, 0);
        return shown.length; }}""")
    reached: set[str] = set()
    for _ in range(count + 5):
        page.keyboard.press("Tab")
        mark = page.evaluate("document.activeElement && document.activeElement.getAttribute('data-tab-check')")
        if mark is not None:
            reached.add(mark)
        if len(reached) == count:
            break
    return page.evaluate("""(reached) => [...document.querySelectorAll('[data-tab-check]')]
        .filter(e => !reached.includes(e.getAttribute('data-tab-check')))
        .map(e => e.outerHTML.slice(0, 120))""", sorted(reached))


def audit(page: Page, url: str, tab: bool = True) -> list[str]:
    """Every fault of the page at `url`: axe's, a sideways scroll, a control Tab does not reach (with `tab`: where
    Tab goes is the page's markup, the same in every language, so it is walked in one)."""
    answer = page.goto(url)
    assert answer is not None and answer.status == 200, (url, answer and answer.status)
    page.wait_for_load_state("load")
    # Every part folded away opened, as the director may: its forms are audited and reached by Tab too.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    faults = serious_violations(page)
    scroll = sideways_scroll(page)
    if scroll is not None:
        faults.append(scroll)
    if tab:
        faults += [f"Tab does not reach {html}" for html in unreachable(page)]
    return faults


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_console_page_passes_the_audit(tmp_path: Path, browser: Browser, size: str, lang: str) -> None:
    """In each of the console's languages (the browser's, Accept-Language): a longer word may push a page sideways,
    a right-to-left page may lose its contrast or its labels."""
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    tab = lang == "en"
    # The Terminals page with its collector to start: its form is audited too, a base station's port found.
    listening = Listening(lambda: event, ports=lambda: ["/dev/ttyUSB0"])
    with served(event, director=Director(password=PASSWORD), listening=listening) as url:
        context = browser.new_context(viewport=SIZES[size], color_scheme=SCHEMES[size],  # type: ignore[arg-type]
                                      locale=lang)
        page = context.new_page()
        faults = {f"{url}/director/login": audit(page, f"{url}/director/login", tab)}
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{url}/director")
        assert page.get_attribute("html", "lang") == lang
        faults |= {path: audit(page, url + path, tab) for path in PAGES}
        context.close()
    faults = {path: found for path, found in faults.items() if found}
    assert not faults, "\n".join(f"{path}:\n  " + "\n  ".join(found) for path, found in faults.items())


def test_the_first_page_of_a_new_evening_passes_the_audit(tmp_path: Path, browser: Browser) -> None:
    """`tenace serve --new`: the set-up page that makes the event, before there is one."""
    faults: dict[str, list[str]] = {}
    with served(tmp_path / "new.sqlite", director=Director(password=PASSWORD), new=True) as url:
        for size, viewport in SIZES.items():
            context = browser.new_context(viewport=viewport, color_scheme=SCHEMES[size])  # type: ignore[arg-type]
            page = context.new_page()
            page.goto(f"{url}/director/login")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{url}/director/setup")
            faults[size] = audit(page, f"{url}/director/setup")
            context.close()
    faults = {size: found for size, found in faults.items() if found}
    assert not faults, faults
