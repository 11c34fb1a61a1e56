"""A whole evening in the director's console, in Debian's chromium, never on the command line: from `tenace serve
--new`, a two-section event created, the roster, the deals and the pairs' names pasted, the evening rehearsed into a
copy; then, while the tables' results come in, a conflict settled and a score adjusted from the grid, the session
finished, a correction after the correction period forced, every export downloaded and the table cards printed as a
PDF. It saves the README's screenshots of the console (the set-up, the grid, a printed table card) in
build/screenshots/ (tools/screenshots.py copies them to docs/screenshots/).

The tables' results are written through the store's ingest, as the collector stores what terminals key, a terminal
signed in at each table (the real firmware's terminals are tests/host/test_serve_collector.py's and the rehearsal's:
playing the whole evening on them a second time would double this test's minutes)."""

from __future__ import annotations

import hashlib
import io
import threading
import time
import zipfile
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest
from endplay.dealer import generate_deal
from playwright.sync_api import Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tenace.pbn.reader import PbnGame
from tenace.pbn.writer import write_pbn
from tenace.store import connect, ingest, sign_in
from tenace.store.db import connect_read_only
from tenace.store.encounters import stored_movement
from tenace.store.hand_records import hand_records
from tenace.store.model import IncomingResult, Kind
from tenace.store.names import pair_players
from tenace.store.versions import Slot, slot_state
from tenace.web.console import Director

from conftest import ROOT
from live_page import served
from sample_results import session_results

pytestmark = pytest.mark.slow  # a few minutes: the rehearsal plays the event on simulated terminals

PASSWORD = "correct horse battery"
SCREENSHOTS = ROOT / "build" / "screenshots"
MAX_SHOT_BYTES = 200_000  # as the README's other screenshots (tools/screenshots.py checks it again)
DESKTOP = {"width": 1366, "height": 768}  # the laptop the director runs the evening on
# Section A: a Mitchell of 3 tables, 2 boards a round (3 rounds); B: a Howell of 3 tables, 3 boards a round
# (5 rounds). 6 + 15 boards, 18 + 45 results.
SECTIONS = (("A", "mitchell", 3, 2, 6), ("B", "howell", 3, 3, 15))
# The players (invented): 12 pairs, A's NS 1-3 and EW 1-3, then B's pairs 1-6.
PLAYERS = ["Ann Archer", "Bob Baker", "Chloé Durand", "Dev Patel", "Eva Lindqvist", "Finn O'Brien", "Grace Ho",
           "Hugo Martin", "Ines Costa", "Jack Turner", "Kofi Mensah", "Lena Vogel", "Marc Petit", "Nora Quinn",
           "Omar Haddad", "Pia Rossi", "Raj Iyer", "Sara Klein", "Tom Walsh", "Uma Sato", "Vera Novak", "Will Shaw",
           "Xena Moreau", "Yuki Tanaka"]
ROSTER = "number,name\n" + "".join(f"{101 + i},{name}\n" for i, name in enumerate(PLAYERS))
# The other terminal that keys a second, different result for one of table A1's boards: the conflict.
STRAY = 9


def deals_pbn(boards: int, seed: int) -> str:
    """`boards` deals dealt by endplay from a seed, written as a PBN file by Tenace's own PBN writer."""
    games = [PbnGame(tags={"Board": str(b), "Deal": generate_deal(seed=seed * 100 + b).to_pbn()})
             for b in range(1, boards + 1)]
    out = io.StringIO()
    write_pbn(games, out)
    return out.getvalue()


def pair_list(first: int, pairs: int) -> str:
    """A pasted list of pairs, one a line in the movement's order, `first` the index of its first player."""
    return "".join(f"{PLAYERS[first + 2 * i]} - {PLAYERS[first + 2 * i + 1]}\n" for i in range(pairs))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def screenshot(page: Page | Locator, name: str) -> Path:
    """A screenshot for the README (of the page's viewport, or of one element), in build/ (not committed;
    tools/screenshots.py copies it)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / name
    page.screenshot(path=str(shot))
    assert 10_000 < shot.stat().st_size < MAX_SHOT_BYTES, shot.stat().st_size
    return shot


def tables_results(event: Path) -> list[IncomingResult]:
    """Every result of the evening as the tables' terminals send them (A's tables on terminals 1-3, B's on 4-6),
    round by round, both sections interleaved as they play at once."""
    with closing(connect_read_only(event)) as conn:
        a = session_results(stored_movement(conn, "A"), section="A", seed=5)
        b = session_results(stored_movement(conn, "B"), section="B", seed=6, terminal_of=lambda table: table + 3)
    return sorted(a + b, key=lambda m: (m.round, m.section, m.table))


def play(event: Path, results: list[IncomingResult], stop: threading.Event, wrong: list[str]) -> None:
    """The tables play: each terminal signs in at its table, then the results come in a few a second, as the
    collector stores them (what the store did not take goes into `wrong`). After the first round a stray terminal,
    signed in at A's table 1 for a moment, keys another result for its last board: two different results for one
    slot; table 1's own terminal signs in again and play goes on."""
    conn = connect(event)
    try:
        for section, first in (("A", 1), ("B", 4)):
            for table in range(1, 4):
                sign_in(conn, first + table - 1, section, table)
        stray = max((m for m in results if (m.section, m.table, m.round) == ("A", 1, 1)), key=lambda m: m.board)
        for m in results:
            if stop.is_set():
                return
            if m.round == 2 and stray is not None:
                sign_in(conn, STRAY, "A", 1)
                other = replace(stray, terminal=STRAY, sequence=1, kind=Kind.NORMAL, contract="3NT", declarer="S",
                                tricks=7 if stray.tricks != 7 else 8, lead=None)
                if not ingest(conn, other).conflict:
                    wrong.append("the stray terminal's result made no conflict")
                sign_in(conn, 1, "A", 1)
                stray = None
            stored = ingest(conn, m)
            if not stored.acknowledge:
                wrong.append(f"{m}: {stored.reason} {stored.detail}")
            time.sleep(0.3)
    finally:
        conn.close()


def test_a_whole_evening_from_the_console(tmp_path: Path, browser_path: str) -> None:
    event = tmp_path / "tuesday.sqlite"
    started = time.monotonic()
    with served(event, director=Director(password=PASSWORD), new=True) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
            td = context.new_page()
            td.set_default_timeout(30_000)
            td.goto(f"{url}/director")
            td.fill("input[name=name]", "TD Ana")
            td.fill("input[name=password]", PASSWORD)
            td.click("button[type=submit]")
            td.wait_for_url(f"{url}/director/setup")

            # The event: two sections, previewed, then created.
            td.fill("input[name=name]", "Tuesday pairs")
            td.fill("input[name=date]", "2024-05-14")
            for i, (letter, kind, tables, per_round, _) in enumerate(SECTIONS, 1):
                td.fill(f"input[name=s{i}_section]", letter)
                td.select_option(f"select[name=s{i}_movement]", kind)
                td.fill(f"input[name=s{i}_tables]", str(tables))
                td.fill(f"input[name=s{i}_boards]", str(per_round))
            td.click("button[value=preview]")
            td.wait_for_selector("p.verdict")
            assert td.locator("p.verdict").all_inner_texts() == ["The movement checker: no rule broken"] * 2
            td.click("button[value=create]")
            td.wait_for_selector("#roster-form")
            assert event.exists() and "created" in td.inner_text("p.done")

            # The roster, the deals and the pairs, each pasted.
            td.fill("#roster-text", ROSTER)
            td.click("#roster-form button[type=submit]")
            td.wait_for_selector("p.done")
            assert f"roster: {len(PLAYERS)} members kept" in td.inner_text("p.done")
            # One set of boards for the club, dealt once: A plays its first 6 (a USEBIO file holds one hand set).
            for letter, _, _, _, boards in SECTIONS:
                td.select_option("#deals-form select[name=section]", letter)
                td.fill("#deals-text", deals_pbn(boards, seed=1))
                td.click("#deals-form button[type=submit]")
                td.wait_for_selector("p.done")
                assert f"section {letter}: {boards} deals kept (boards 1-{boards})" in td.inner_text("p.done")
            for letter, first, pairs in (("A", 0, 6), ("B", 12, 6)):
                td.select_option("#pairs-list select[name=section]", letter)
                td.fill("#pairs-text", pair_list(first, pairs))
                td.click("#pairs-list button[type=submit]")
                td.wait_for_selector("p.done")
                assert f"pairs: {pairs} named from the list" in td.inner_text("p.done")
            # The double-dummy analysis of the deals runs in the background: the page says when it is done.
            deadline = time.monotonic() + 180
            while td.get_attribute("#analysis", "data-running") == "yes" and time.monotonic() < deadline:
                time.sleep(1)
                td.goto(f"{url}/director/setup")
            assert td.inner_text("#analysis .progress-text").startswith("done, "), td.inner_text("#analysis")
            screenshot(td, "console-setup-1366x768.png")

            # The rehearsal: the event played on simulated terminals into a copy; the event file stays as it is.
            before = digest(event)
            td.goto(f"{url}/director/rehearsal")
            td.click("button[type=submit]:has-text('Rehearse the evening')")
            check = td.wait_for_selector("p.check", timeout=600_000)  # the page reloads itself while it runs
            assert check is not None
            line = check.inner_text()
            assert line.startswith("accepted=63 stored=63 ") and "lost=0 doubled=0" in line, line
            td.wait_for_selector("text=Ended (exit 0)", timeout=60_000)
            assert digest(event) == before and (tmp_path / "tuesday-rehearsal.sqlite").is_file()
            rehearsed = time.monotonic()

            # The evening: the tables' results come in while the director watches section A's grid.
            td.goto(f"{url}/director/grid/A")
            td.evaluate("window.notReloaded = true")
            results = tables_results(event)
            stop = threading.Event()
            wrong: list[str] = []
            tables = threading.Thread(target=play, args=(event, results, stop, wrong), daemon=True)
            tables.start()
            try:
                # The grid follows the file without a reload: the stray terminal's conflict shows during play.
                td.wait_for_selector("a.c.conflict", timeout=60_000)
                assert td.evaluate("window.notReloaded") is True
                conflict = td.locator("a.c.conflict")
                assert conflict.count() == 1
                screenshot(td, "console-grid-1366x768.png")

                # The conflict settled from its cell while the tables play on: the table's own result (v1) kept.
                slot = conflict.get_attribute("href")
                assert slot is not None and slot.startswith("/director/slot/A/1/1/")
                conflict.click()
                td.wait_for_url(f"{url}{slot}")
                assert td.locator("tr.v.in-conflict").count() == 2
                # The form's result starts empty: keeping a version is instead of typing one; one click keeps v1.
                assert all(td.input_value(f"#resolve input[name={field}]") == ""
                           for field in ("contract", "by", "tricks", "lead"))
                td.click("tr.v.in-conflict >> nth=0 >> button:has-text('Keep this one')")
                td.wait_for_selector("p.done")
                assert "v1 kept" in td.inner_text("p.done")
                assert td.inner_text("b.verdict") == "entered"
                assert tables.is_alive(), "the tables finished before the conflict was settled: pace them slower"
                tables.join(120)
            finally:
                stop.set()
                tables.join(30)
            assert wrong == []
            td.goto(f"{url}/director/grid/A")
            assert td.locator("a.c.entered").count() == 18 and td.locator("a.c.conflict").count() == 0

            # A score adjusted from a cell of section B (a slow play: 60% to NS, 40% to EW).
            td.goto(f"{url}/director/grid/B")
            cell = td.locator("a.c.entered").first
            adjusted = cell.get_attribute("href")
            assert adjusted is not None
            cell.click()
            td.wait_for_url(f"{url}{adjusted}")
            td.click("summary:has-text('Adjusted score')")  # the slot opens its correction first
            td.fill("#adjust input[name=percent]", "60/40")
            td.fill("#adjust input[name=why]", "slow play, Law 12C")
            td.click("#adjust button[type=submit]")
            td.wait_for_selector("p.done")
            assert td.inner_text("b.verdict") == "adjusted"

            # Finished with a correction period of 0 minutes: every result is in, no force needed.
            td.goto(f"{url}/director/finish")
            assert td.locator("p.ready").count() == 1
            td.fill("#finish input[name=minutes]", "0")
            td.click("#finish button[type=submit]")
            td.wait_for_selector("p.published")
            assert "The correction period (0 min)" in td.inner_text("p.published")

            # A correction after the period: refused beside its form, then made with force.
            td.goto(f"{url}{slot}")
            td.fill("#correct input[name=tricks]", "13")
            td.fill("#correct input[name=contract]", "7NT")
            td.fill("#correct input[name=lead]", "")  # the scripted tables' leads are not from the deals' hands
            td.fill("#correct input[name=why]", "the claim was not disputed")
            td.click("#correct button[type=submit]")
            refusal = td.locator("#correct .error").first.inner_text()
            assert "force" in refusal, refusal
            td.check("#correct input[name=force]")
            td.click("#correct button[type=submit]")
            td.wait_for_selector("p.done")
            assert "7NT" in td.inner_text("table.versions")

            # Every export, downloaded: each file's first bytes are its kind's.
            td.goto(f"{url}/director/publish")
            td.fill("input[name=club]", "Tenace Bridge Club")
            buttons = {"Section A (.pbn)": b"% PBN 2.1", "Section B (.pbn)": b"% PBN 2.1",
                       "Download the CSV files (.zip)": b"PK\x03\x04", "Download the site (.zip)": b"PK\x03\x04",
                       "Download the USEBIO file (.xml)": b"<?xml"}
            got: dict[str, bytes] = {}
            for label, first_bytes in buttons.items():
                try:
                    with td.expect_download(timeout=60_000) as download:
                        td.click(f"button:has-text('{label}')")
                except PlaywrightTimeout:  # the page answered instead of the file: say what it says
                    pytest.fail(f"{label}: no download, the page says {td.locator('p.error').all_inner_texts()}")
                data = Path(download.value.path()).read_bytes()
                assert data.startswith(first_bytes), (label, data[:40])
                got[download.value.suggested_filename] = data
            assert sorted(got) == ["tuesday-A.pbn", "tuesday-B.pbn", "tuesday-csv.zip", "tuesday-site-en.zip",
                                   "tuesday-usebio.xml"]
            assert any(n.endswith(".csv") for n in zipfile.ZipFile(io.BytesIO(got["tuesday-csv.zip"])).namelist())
            assert "index.html" in zipfile.ZipFile(io.BytesIO(got["tuesday-site-en.zip"])).namelist()
            assert "Ann Archer" in got["tuesday-A.pbn"].decode("utf-8")

            # The table cards: printed (the print page, as the printer gets it) and as a PDF.
            td.goto(f"{url}/director/print")
            pdf = context.request.get(f"{url}/director/print/cards.pdf")
            assert pdf.status == 200 and pdf.body().startswith(b"%PDF-"), pdf.text()[:200]
            td.click("a:text-is('Table cards')")
            td.wait_for_url(f"{url}/director/print/cards")
            # One card as the printer gets it (the print style), on a sheet of A4's width at 96 dpi.
            td.emulate_media(media="print")
            td.set_viewport_size({"width": 794, "height": 1123})
            assert td.locator("section.sheet.card").count() == 6  # a card a table, both sections
            screenshot(td.locator("section.sheet.card").first, "table-card-print.png")
        finally:
            browser.close()
    finished = time.monotonic()
    print(f"evening: {finished - started:.0f} s, of which the rehearsal up to {rehearsed - started:.0f} s")
    with closing(connect_read_only(event)) as conn:
        assert all(r.analysis is not None for s in "AB" for r in hand_records(conn, s).values())
        assert pair_players(conn, "A")[(1, "NS")] == (101, 102) and pair_players(conn, "B")[(6, "")] == (123, 124)
        resolved = slot_state(conn, Slot("A", *map(int, slot.rsplit("/", 3)[1:])))  # type: ignore[arg-type]
        assert resolved.current is not None and resolved.current.contract == "7NT"
