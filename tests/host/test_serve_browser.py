"""The live rankings page in a real browser (Debian's chromium, driven by Playwright): a stored result shows without
a reload, and the time from its commit to the page showing it is measured; the director's console refuses a wrong
password and a cross-site post, and an adjustment made in it shows on the rankings. The phone-sized screenshots of the
rankings and of a traveller with its hand record are saved in build/screenshots/ (tools/screenshots.py copies
them to docs/screenshots/ for the README)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cli_runner import tenace
from playwright.sync_api import Page, sync_playwright

from tenace.deals.analysis import analyse
from tenace.movement import Movement, mitchell
from tenace.page_base.words import LANGUAGES, words
from tenace.reports.event_results import ResultsError, event_results
from tenace.store import connect, create_event, director_log, ingest, sign_in
from tenace.store.db import connect_read_only
from tenace.store.errors import StoreError
from tenace.store.hand_records import keep_analysis, keep_hand_record
from tenace.store.names import Member, keep_roster, set_pair_players
from tenace.web.console import Director

from conftest import ROOT
from live_page import PHONE, served
from sample_results import session_results

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

SCREENSHOTS = ROOT / "build" / "screenshots"
# Generous: the goal is under a second (tools/bench_result_to_page.py); a loaded CI machine must not fail on it.
BOUND_MS = 3000
# What a screenshot may weigh in the README (PNG at the phone's 2x pixels).
MAX_SHOT_BYTES = 200_000
# The players of the screenshots' pairs (invented): NS 1 to 5, then EW 1 to 5.
PLAYERS = ["Ann Archer", "Bob Baker", "Chloé Durand", "Dev Patel", "Eva Lindqvist", "Finn O'Brien", "Grace Ho",
           "Hugo Martin", "Ines Costa", "Jack Turner", "Kofi Mensah", "Lena Vogel", "Marc Petit", "Nora Quinn",
           "Omar Haddad", "Pia Rossi", "Raj Iyer", "Sara Klein", "Tom Walsh", "Uma Sato"]


def shuffled_deal(seed: int) -> str:
    """A deal as a hand record file has it ("N:AK5.QJ2... ..."), dealt from a seeded shuffle."""
    ranks = "AKQJT98765432"
    cards = [(suit, rank) for suit in range(4) for rank in ranks]
    random.Random(seed).shuffle(cards)
    hands = [cards[i * 13:(i + 1) * 13] for i in range(4)]
    return "N:" + " ".join(".".join("".join(sorted((r for s, r in hand if s == suit), key=ranks.index))
                                        for suit in range(4)) for hand in hands)


def make_event(path: Path, movement: Movement, results: int) -> None:
    """A simulated session's first `results` results, every pair named, board 1's deal with its real double-dummy
    analysis (endplay)."""
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections={"A": movement})
    for table in range(1, movement.tables + 1):
        sign_in(conn, table, "A", table)
    for m in session_results(movement)[:results]:
        ingest(conn, m)
    keep_roster(conn, [Member(100 + i, name) for i, name in enumerate(PLAYERS)])
    for i, direction in enumerate(("NS", "EW")):
        for pair in range(1, movement.tables + 1):
            first = 100 + 2 * (i * movement.tables + pair - 1)
            set_pair_players(conn, "A", pair, direction, (first, first + 1), who="TD")
    deal = shuffled_deal(7)
    keep_hand_record(conn, "A", 1, deal)
    keep_analysis(conn, "A", 1, deal, analyse(deal, 1))
    conn.close()


def screenshot(page: Page, name: str) -> Path:
    """What a player sees on a phone, for the README (build/ is not committed; tools/screenshots.py copies)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / name
    page.screenshot(path=str(shot))
    assert 10_000 < shot.stat().st_size < MAX_SHOT_BYTES
    # No horizontal scrolling on a phone: the page fits its width.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return shot


def test_a_stored_result_shows_on_the_open_rankings_page_without_a_reload(tmp_path: Path, browser_path: str) -> None:
    path = tmp_path / "club.sqlite"
    movement = mitchell(5, 3)
    make_event(path, movement, 40)
    results = session_results(movement)
    with served(path) as url, sync_playwright() as playwright:
        # --no-sandbox: chromium refuses to run as root with its sandbox (CI and set-up run as root here).
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE, device_scale_factor=2)
            page.goto(f"{url}/")
            assert page.inner_text("p.state") == "40 of 75 results in: provisional"
            page.evaluate("window.notReloaded = true")  # gone if the page were loaded again
            # The page's event stream is open before the result goes in (the server would catch it up anyway).
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            writer = connect(path)
            ingest(writer, results[40])
            committed_ms = time.time() * 1000
            writer.close()
            page.wait_for_function("document.body.dataset.updates >= 1", timeout=10_000)
            shown_ms = float(page.evaluate("document.body.dataset.updated"))
            assert page.inner_text("p.state") == "41 of 75 results in: provisional"
            assert page.evaluate("window.notReloaded") is True
            latency = shown_ms - committed_ms
            print(f"result to page: {latency:.0f} ms")
            assert 0 <= latency < BOUND_MS
            assert "Ann Archer - Bob Baker" in page.inner_text("table.ranking")
            screenshot(page, "rankings-390x844.png")
        finally:
            browser.close()


def test_a_traveller_with_its_hand_record_on_a_phone(tmp_path: Path, browser_path: str) -> None:
    path = tmp_path / "club.sqlite"
    movement = mitchell(5, 3)
    make_event(path, movement, 75)
    deal = analyse(shuffled_deal(7), 1)
    with served(path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE, device_scale_factor=2)
            page.goto(f"{url}/")
            page.click("ul.boards a >> text='1'")  # as a player gets there: from the rankings
            page.wait_for_url(f"{url}/board/A/1")
            assert page.inner_text("h2") == "Board 1"
            north = page.inner_text(".deal .N")
            assert north.splitlines()[0] == "N" and len(north.splitlines()) == 5
            north_tricks = page.inner_text("table.dd tbody tr:first-child").split()
            assert north_tricks == ["N", *(str(deal.tricks["N"][s]) for s in ("NT", "S", "H", "D", "C"))]
            assert page.inner_text("p.par").startswith(f"Par NS {deal.par_score:+d}")
            assert len(page.query_selector_all("table.traveller tbody tr")) == 5
            screenshot(page, "traveller-390x844.png")
        finally:
            browser.close()


def fits_the_width(page: Page) -> dict[str, int]:
    """How wide the page and its travellers are against the room they have (the widest traveller's overflow)."""
    return page.evaluate("""() => {
        const s = document.scrollingElement;
        const over = [...document.querySelectorAll('table.traveller')]
            .map(t => t.scrollWidth - t.parentElement.clientWidth);
        return {page: s.scrollWidth - s.clientWidth, traveller: Math.max(...over), travellers: over.length};
    }""")


def test_a_realistic_traveller_fits_a_phone_in_every_language(tmp_path: Path, browser_path: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """13 tables (two-digit pairs, a top of 24) and the director's weighted and split scores on the board: at 390 px
    neither the page nor the traveller scrolls sideways (the lead and EW's share give way); a wide screen has them."""
    path = tmp_path / "club.sqlite"
    movement = mitchell(13, 2)
    make_event(path, movement, 13 * 26)
    for table, score in ((10, ["--weighted", "0.6:+460,0.4:-50"]), (11, ["--assigned", "+460", "--ew-assigned", "-50"]),
                         (12, ["--ns", "60%", "--ew", "40%"])):
        code, _, err = tenace(capsys, "adjust", str(path), "--table", str(table), "--board", "1", *score,
                              "--why", "a ruling", "--who", "TD")
        assert code == 0, err
    with served(path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE)
            for lang in LANGUAGES:
                for where in ("board/A/1", "pair/A/NS10"):
                    page.goto(f"{url}/{where}?lang={lang}")
                    fit = fits_the_width(page)
                    assert fit["travellers"] >= 1 and fit["page"] <= 0 and fit["traveller"] <= 0, (lang, where, fit)
                page.goto(f"{url}/board/A/1?lang={lang}")
                assert len(page.query_selector_all("table.traveller tbody tr")) == 13
                assert not page.is_visible("table.traveller th.wide")
            page.set_viewport_size({"width": 1024, "height": 768})
            assert page.is_visible("table.traveller th.wide") and fits_the_width(page)["traveller"] <= 0
        finally:
            browser.close()


def test_the_page_speaks_the_browsers_language_and_the_switcher_changes_it(tmp_path: Path, browser_path: str) -> None:
    """A phone set to Latvian gets the pages in Latvian; a language chosen on the page's switcher stays in its links
    (whatever the browser's), and on its live updates; Hebrew runs right to left."""
    path = tmp_path / "club.sqlite"
    movement = mitchell(5, 3)
    make_event(path, movement, 40)
    lv, sk = words("lv"), words("sk")
    with served(path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport=PHONE, locale="lv-LV")  # Accept-Language: lv-LV
            page = context.new_page()
            with page.expect_response(f"{url}/") as first:
                page.goto(f"{url}/")
            assert first.value.request.headers["accept-language"].startswith("lv")
            assert page.get_attribute("html", "lang") == "lv"
            assert page.inner_text("p.state") == f"{lv('results_in', done=40, expected=75)}: {lv('provisional')}"
            assert page.inner_text("nav.langs a[aria-current]") == "Latviešu"
            page.click("nav.langs >> text=Slovenčina")
            page.wait_for_url(f"{url}/?lang=sk")
            assert page.get_attribute("html", "lang") == "sk"
            assert page.inner_text("p.state") == f"{sk('results_in', done=40, expected=75)}: {sk('provisional')}"
            page.click("ul.boards a >> text='1'")  # the next page keeps the language chosen, not the browser's
            page.wait_for_url(f"{url}/board/A/1?lang=sk")
            assert page.inner_text("h2") == str(sk("board", board=1))
            page.click(f"text={sk('rankings')}")
            page.wait_for_url(f"{url}/?lang=sk")
            page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            writer = connect(path)
            ingest(writer, session_results(movement)[40])
            writer.close()
            page.wait_for_function("document.body.dataset.updates >= 1", timeout=10_000)
            assert page.inner_text("p.state") == f"{sk('results_in', done=41, expected=75)}: {sk('provisional')}"
            page.click("nav.langs >> text=עברית")
            page.wait_for_url(f"{url}/?lang=he")
            assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
        finally:
            browser.close()


def test_the_static_site_works_from_disk(tmp_path: Path, browser_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`tenace report --html`'s folder opened as files (file://, JavaScript off): from the rankings to a board and on
    to a pair's scorecard by its links, and back."""
    path = tmp_path / "club.sqlite"
    make_event(path, mitchell(5, 3), 75)
    code, _, err = tenace(capsys, "report", str(path), "--html", str(tmp_path / "site"))
    assert code == 0, err
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE, java_script_enabled=False)
            index = (tmp_path / "site" / "index.html").as_uri()
            page.goto(index)
            assert page.inner_text("p.state") == "75 of 75 results in"
            page.click("ul.boards a >> text='1'")
            page.wait_for_url("**/board/A/1.html")
            assert page.inner_text("p.par").startswith("Par NS ")
            page.click("table.traveller a >> text='NS 1'")
            page.wait_for_url("**/pair/A/NS1.html")
            assert page.inner_text("h2") == "Scorecard of NS 1"
            page.click("text=Rankings")
            page.wait_for_url(index)
        finally:
            browser.close()


def results_in(path: Path, sim: subprocess.Popen[str], within_s: float) -> int:
    """The results the event file holds once `tenace sim` has made it (until then it is missing or being set up)."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            conn = connect_read_only(path)
            try:
                sections = event_results(conn).sections
            finally:
                conn.close()
            if sections and sections[0].expected:
                return sections[0].results_in
        except (StoreError, ResultsError, sqlite3.Error):
            pass
        assert sim.poll() is None, "tenace sim ended before its event file could be read"
        assert time.monotonic() < deadline, f"no event file at {path} after {within_s} s"
        time.sleep(0.05)


def test_results_keyed_on_simulated_terminals_show_on_the_open_page(tmp_path: Path, browser_path: str) -> None:
    """The whole way: the terminal firmware on MicroPython keys each result (`tenace sim`), the real collector
    (a process of its own) stores it, and the rankings page, open since before the first, shows every one."""
    path = tmp_path / "club.sqlite"
    # 3 tables, 6 boards: 18 results, the first some seconds after the event file is made (the terminals boot, sign
    # in and play first), time enough for the page to open before it.
    sim = subprocess.Popen([sys.executable, "-m", "tenace", "sim", "--tables", "3", "--boards", "6",
                            "--boards-per-round", "2", "--forge", "0", "--seed", "2", "--db", str(path)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        results_in(path, sim, 120)
        with served(path) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport=PHONE)
                page.goto(f"{url}/")
                page.evaluate("window.notReloaded = true")
                page.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
                shown_first = int(page.get_attribute("p.state", "data-results-in") or "-1")
                print(f"results in when the page opened: {shown_first} of 18")
                out, err = sim.communicate(timeout=600)
                assert sim.returncode == 0, out + err
                assert out.splitlines()[-1].startswith("accepted=18 stored=18 lost=0 doubled=0 "), out
                # The page catches up on its own: wait on what it shows, not on a clock.
                page.wait_for_function("document.querySelector('p.state').dataset.resultsIn === '18'",
                                       timeout=30_000)
                assert page.inner_text("p.state") == "18 of 18 results in"
                assert shown_first < 18, "the session was over before the page opened: nothing came in live"
                assert page.evaluate("window.notReloaded") is True
                assert int(page.evaluate("document.body.dataset.updates")) >= 1
                assert len(page.query_selector_all("table.ranking tbody tr")) == 6  # NS 1-3 and EW 1-3
            finally:
                browser.close()
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.communicate()


PASSWORD = "correct horse battery"


@contextmanager
def foreign_page(html: str) -> Iterator[str]:
    """One page served on another port of this machine (another origin): yields its URL."""
    body = html.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def log_lines(path: Path) -> int:
    conn = connect(path)
    try:
        return len(director_log(conn))
    finally:
        conn.close()


def ranking_row(page: Page, pair: str) -> str:
    """The pair's row of the rankings, as its text (its cells separated by one space)."""
    texts = [" ".join(r.inner_text().split()) for r in page.query_selector_all("table.ranking tbody tr")]
    return next(t for t in texts if f" {pair} " in f" {t} ")


def test_the_directors_console_in_a_browser(tmp_path: Path, browser_path: str) -> None:
    """The console refuses a wrong password and a form posted from a page of another origin (even one that knows the
    session's form token: the Origin check alone refuses it); an adjusted score made in it shows on the rankings page
    a player has open."""
    path = tmp_path / "club.sqlite"
    make_event(path, mitchell(5, 3), 75)
    with served(path, director=Director(password=PASSWORD)) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            context = browser.new_context()
            td = context.new_page()
            td.goto(f"{url}/director")
            td.wait_for_url(f"{url}/director/login")
            td.fill("input[name=name]", "TD Ana")
            td.fill("input[name=password]", "not the password")
            # The login form posts to /director/login?lang=..., the page's language carried into the console.
            with td.expect_response(lambda r: r.url.split("?")[0] == f"{url}/director/login"
                                    and r.request.method == "POST") as refused:
                td.click("button[type=submit]")
            assert refused.value.status == 401
            assert td.inner_text("p.error") == "Wrong password."
            td.fill("input[name=name]", "TD Ana")
            td.fill("input[name=password]", PASSWORD)
            td.click("button[type=submit]")
            td.wait_for_url(f"{url}/director")
            assert td.inner_text("b.who") == "TD Ana"
            csrf = td.get_attribute("#adjust input[name=csrf]", "value")
            assert csrf

            # Another site's page in the same browser posts a form to the console: the browser sends the session's
            # cookie along (the same host, another port, is the same site), the Origin is the other page's.
            before = log_lines(path)
            attack = (f'<form method="post" action="{url}/director/adjust">'
                      + "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in
                                {"table": 2, "board": 3, "ns": "A-", "ew": "A+", "why": "forged", "csrf": csrf}.items())
                      + '</form><script>document.forms[0].submit()</script>')
            with foreign_page(attack) as elsewhere:
                other = context.new_page()
                with other.expect_response(f"{url}/director/adjust") as posted:
                    other.goto(elsewhere)
                assert posted.value.status == 403
                assert "cross-site" in posted.value.text()
            assert log_lines(path) == before

            # A player's rankings page, open while the director adjusts board 3 at table 2 (NS 2 against EW 2).
            player = context.new_page()
            player.goto(f"{url}/")
            player.wait_for_function("document.body.dataset.live === 'open'", timeout=10_000)
            ns2_before = ranking_row(player, "NS 2")
            td.fill("#adjust input[name=table]", "2")
            td.fill("#adjust input[name=board]", "3")
            td.fill("#adjust input[name=ns]", "A+")
            td.fill("#adjust input[name=ew]", "A-")
            td.fill("#adjust input[name=why]", "fouled board, NS not at fault")
            td.click("#adjust button[type=submit]")
            td.wait_for_selector("p.done")
            assert "artificial NS A+ / EW A-" in td.inner_text("p.done")
            assert "by TD Ana: fouled board, NS not at fault" in td.inner_text("p.done")
            player.wait_for_function("document.body.dataset.updates >= 1", timeout=10_000)
            assert ranking_row(player, "NS 2") != ns2_before
            player.goto(f"{url}/board/A/3")
            assert "A+" in player.inner_text("table.traveller")
            assert log_lines(path) == before + 1
        finally:
            browser.close()
