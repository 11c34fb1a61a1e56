"""A whole evening in the director's console, in Debian's chromium, with no command typed after `tenace serve EVENT
--new` (run as the laptop runs it, a process of its own): a two-section event created, the roster, the deals and the
pairs' names pasted, the evening rehearsed into a copy; then listening started on the Terminals page, and, while the
tables play, a conflict settled and a score adjusted from the grid, the session finished, a correction after the
correction period forced, every export downloaded and the table cards printed as a PDF. It saves the README's
screenshots of the console (the set-up, the grid, a printed table card) in build/screenshots/ (tools/screenshots.py
copies them to docs/screenshots/).

The tables are the real firmware on the simulator's terminals (a MicroPython process each), keying the evening into
the event file itself through the collector inside `tenace serve`, over the TCP port the console opened. A stray
terminal, signed in at A's table 1 for a moment during play, keys another result for its first round's last board:
a conflict."""

from __future__ import annotations

import hashlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from endplay.dealer import generate_deal
from playwright.sync_api import Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tenace.pbn.reader import PbnGame
from tenace.pbn.writer import write_pbn
from tenace.simulation.session import runner
from tenace.store import connect, ingest, sign_in
from tenace.store.db import connect_read_only
from tenace.store.encounters import stored_movement
from tenace.store.hand_records import hand_records
from tenace.store.model import IncomingResult, Kind
from tenace.store.names import pair_players
from tenace.store.queries import terminal_result_count
from tenace.store.versions import Slot, slot_state

from conftest import ROOT

pytestmark = pytest.mark.slow  # a few minutes: the rehearsal, then the evening, on simulated terminals

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
THINK_MS = 150  # between two keys at a table: the tables play on while the director settles the conflict


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


@contextmanager
def serve_new(event: Path, password_file: Path) -> Iterator[tuple[str, list[str]]]:
    """`tenace serve EVENT --new` as the director starts it, its own process; its base URL and its output so far.
    Stopped with Ctrl-C (SIGINT) at the end, as the director stops it."""
    command = [sys.executable, "-m", "tenace", "serve", str(event), "--new", "--listen", "127.0.0.1:0",
               "--director-password-file", str(password_file)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               text=True, encoding="utf-8", errors="replace",
                               env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines: list[str] = []
    assert process.stdout is not None
    stdout = process.stdout

    def follow() -> None:  # read all along: the collector prints a progress line every few seconds
        for line in stdout:
            lines.append(line.rstrip("\n"))
    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        url = None
        while url is None:
            assert process.poll() is None and time.monotonic() < deadline, "\n".join(lines)
            found = next((re.search(r" on (http://127\.0\.0\.1:\d+)/", line) for line in lines
                          if line.startswith("serving ")), None)
            url = found[1] if found else None
            time.sleep(0.05)
        yield url, lines
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(10)
    assert not any("Traceback" in line for line in lines), "\n".join(lines)


def stray_result(event: Path) -> None:
    """Once table A1's own terminal has keyed its first round's last board, a stray terminal signs in at that table
    for a moment and keys another result for it (a contract the table did not play); then table 1's own terminal is
    seated back, as a director would (the own terminal's frames are its own sign-in's: none is refused meanwhile)."""
    with closing(connect(event)) as conn:
        movement = stored_movement(conn, "A")
        first = next(e for e in movement.encounters if (e.table, e.round) == (1, 1))
        deadline = time.monotonic() + 180
        while slot_state(conn, Slot("A", 1, 1, max(first.boards))).current is None:
            assert time.monotonic() < deadline, "table A1 keyed nothing in 3 minutes"
            time.sleep(0.1)
        sign_in(conn, STRAY, "A", 1)
        stored = ingest(conn, IncomingResult(terminal=STRAY, sequence=1, section="A", table=1, round=1,
                                             board=max(first.boards), ns_pair=first.ns_pair, ew_pair=first.ew_pair,
                                             kind=Kind.NORMAL, contract="7NT", declarer="S", tricks=0))
        sign_in(conn, 1, "A", 1)
        assert stored.acknowledge and stored.conflict, stored


def play(event: Path, port: int, done: list[runner.SimResult], failed: list[BaseException]) -> None:
    """The tables: the real firmware on the simulator's terminals, one a table, into the collector on `port`."""
    try:
        with closing(connect_read_only(event)) as conn:
            movements = {s: stored_movement(conn, s) for s in "AB"}
        options = runner.SimOptions(collector_port=port, think_ms=THINK_MS, seed=5, timeout_s=600)
        work = event.parent / "tables"
        work.mkdir()
        done.append(runner.run(options, work, event, movements))
    except BaseException as e:  # for the test to say
        failed.append(e)


def test_a_whole_evening_from_the_console(tmp_path: Path, browser_path: str) -> None:
    event = tmp_path / "tuesday.sqlite"
    password_file = tmp_path / "td.txt"
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    started = time.monotonic()
    with serve_new(event, password_file) as (url, output), sync_playwright() as playwright:
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

            # Play starts from the console: listening on TCP (the simulated tables' base station), with what is
            # still missing before the first round said until every table's terminal has signed in.
            td.goto(f"{url}/director/terminals")
            missing = td.inner_text("ul.missing")
            assert "The collector is not listening yet" in missing and "Section B: no terminal at table 1, 2, 3" \
                in missing, missing
            td.select_option("#listen select[name=way]", "tcp")
            td.fill("#listen input[name=address]", "127.0.0.1:0")
            td.click("#listen button[type=submit]")
            listening = td.inner_text("p.listening.on")
            found = re.search(r"TCP 127\.0\.0\.1:(\d+)", listening)
            assert found, listening
            port = int(found[1])
            assert re.search(r"Pairing code of this event: \d{6}", td.inner_text("#live")), td.inner_text("#live")
            assert "Section A: no terminal at table 1, 2, 3" in td.inner_text("ul.missing")

            # The evening: the tables play while the director watches section A's grid.
            td.goto(f"{url}/director/grid/A")
            td.evaluate("window.notReloaded = true")
            done: list[runner.SimResult] = []
            failed: list[BaseException] = []
            tables = threading.Thread(target=play, args=(event, port, done, failed), daemon=True)
            tables.start()
            try:
                stray_result(event)
                # The grid follows the file without a reload: the stray's result makes the conflict during play.
                td.wait_for_selector("a.c.conflict", timeout=180_000)
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
                # Every table's terminal has signed in by now: nothing is missing before play.
                td.goto(f"{url}/director/terminals")
                assert td.locator("p.ready").count() == 1, td.inner_text("#live")
                tables.join(600)
            finally:
                tables.join(30)
            assert failed == [] and len(done) == 1, failed
            played = done[0].comparison
            print(f"the tables: {played.line}")
            # Every result the tables accepted is the one that counts: the slot the director settled counts by her
            # entry (kept v1: the same result, not a terminal's version any more) and holds the stray's beside it.
            assert played.accepted == 63 and (played.lost, played.doubled, played.unexpected) == (1, 1, 0), played.line
            assert played.rankings_equal, played.line
            with closing(connect_read_only(event)) as conn:
                assert terminal_result_count(conn) == 63 + 1  # every slot's result from its table, and the stray's
            td.goto(f"{url}/director/grid/A")
            assert td.locator("a.c.entered").count() == 18 and td.locator("a.c.conflict").count() == 0

            # A score adjusted from a cell of section B (a slow play: 60% to NS, 40% to EW; written 60/40 rather than
            # A+/A-, the USEBIO export would refuse it: the console warns of that, tests/host/test_serve_console.py).
            td.goto(f"{url}/director/grid/B")
            cell = td.locator("a.c.entered").first
            adjusted = cell.get_attribute("href")
            assert adjusted is not None
            cell.click()
            td.wait_for_url(f"{url}{adjusted}")
            td.click("summary:has-text('Adjusted score')")  # the slot opens its correction first
            td.fill("#adjust input[name=ns]", "A+")
            td.fill("#adjust input[name=ew]", "A-")
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
    assert any(line == "collector stopped" for line in output), output
    with closing(connect_read_only(event)) as conn:
        assert all(r.analysis is not None for s in "AB" for r in hand_records(conn, s).values())
        assert pair_players(conn, "A")[(1, "NS")] == (101, 102) and pair_players(conn, "B")[(6, "")] == (123, 124)
        resolved = slot_state(conn, Slot("A", *map(int, slot.rsplit("/", 3)[1:])))  # type: ignore[arg-type]
        assert resolved.current is not None and resolved.current.contract == "7NT"
        assert [v.terminal for v in resolved.versions][:2] == [1, STRAY]
