"""What the director's console costs a director: ten common tasks of an evening done in Debian's chromium as a
director does them (a click for each link, button, summary, box or field gone to, two for a drop-down, a keystroke
for each character typed), each at or under what it costs in Bridgemate Control Software (BCS), the program
directors come from. The table is printed, and is in docs/director.md (the director's console)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from tenace.collector.in_process import Listening
from tenace.movement import mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.versions import Slot, slot_state
from tenace.web.console import Director

from live_page import served
from sample_results import session_results

pytestmark = pytest.mark.slow  # a browser, a dozen pages

PASSWORD = "correct horse battery"
LATE_TABLE = 3  # NS 3, late: nothing in at its table in round 1


@dataclass
class Hands:
    """A director at the console: each act done in the browser, and counted."""

    page: Page
    clicks: int = 0
    keys: int = 0

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.clicks += 1

    def type(self, selector: str, text: str) -> None:
        """A field gone to (a click) and typed into, over what it held."""
        self.page.locator(selector).first.click()
        self.page.locator(selector).first.fill(text)
        self.clicks += 1
        self.keys += len(text)

    def choose(self, selector: str, value: str) -> None:
        """A drop-down opened and an option picked: two clicks."""
        self.page.select_option(selector, value)
        self.clicks += 2

    def done(self) -> str:
        """What the page said it did (the console's one line), after a post."""
        self.page.wait_for_load_state("load")
        said = self.page.locator("p.done, p.published, p.error")
        said.first.wait_for()
        assert self.page.locator("p.error").count() == 0, self.page.locator("p.error").all_inner_texts()
        return said.first.inner_text()


# Each task: its limit (clicks, keystrokes: what it costs in BCS) and why that is BCS's cost. A reason typed for the
# log is a short one ("12C", "L90"): BCS asks for none; the console asks for one (Law 79C: every change explained).
LIMITS: dict[str, tuple[int, int, str]] = {
    "start listening": (2, 0, "BCS: started from the scoring program, Start reading (the base station found by it)"),
    "seat a spare": (6, 6, "BCS: Tables tab, the table, Edit, its section and table typed, OK"),
    "settle a conflict": (2, 0, "the issue's own limit: the grid's cell, then keep this one"),
    "adjust 60/40": (7, 10, "BCS: Results, the board, the row, Edit, Adjusted score, A+ and A- chosen, OK"),
    "assigned score": (7, 10, "BCS: Results, the board, the row, Edit, the score typed, OK"),
    "penalty": (7, 10, "BCS: Results, the pair's Penalty column, the figure typed, Save"),
    "erase": (5, 4, "BCS: Results, the board, the row, Delete, Yes"),
    "late pair": (7, 10, "BCS: Movement, Late arrival, the section, the pair, the round, OK"),
    "finish": (3, 0, "BCS: Session, Finish, Yes"),
    "download USEBIO": (5, 12, "BCS: Export, USEBIO, the club's name typed once, Save"),
}


def evening(path: Path) -> Path:
    """A Mitchell of 4 tables, 2 boards a round, every result in but table 3's first round (its NS pair is late),
    and terminal 9 disagreeing with table 1 on its first board (a conflict)."""
    movement = mitchell(4, 2)
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": movement})
    for table in range(1, 5):
        sign_in(conn, table, "A", table)
    messages = [m for m in session_results(movement) if (m.table, m.round) != (LATE_TABLE, 1)]
    for m in messages:
        ingest(conn, m)
    first = next(m for m in messages if (m.table, m.round) == (1, 1))
    sign_in(conn, 9, "A", 1)
    ingest(conn, replace(first, terminal=9, sequence=1, contract="3NT", declarer="S", tricks=8, lead=None))
    sign_in(conn, 1, "A", 1)
    conn.close()
    return path


def test_ten_tasks_cost_no_more_than_in_bcs(tmp_path: Path, browser_path: str) -> None:
    event = evening(tmp_path / "club.sqlite")
    boards = {(e.table, e.round): e.boards for e in mitchell(4, 2).encounters}
    costs: dict[str, tuple[int, int]] = {}
    # The base station on a USB port: a pseudo-terminal, which the console finds as it would a USB device.
    master, slave = os.openpty()
    port = os.ttyname(slave)
    listening = Listening(lambda: event, ports=lambda: [port])
    with served(event, director=Director(password=PASSWORD), listening=listening) as url, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.set_default_timeout(20_000)
            page.goto(f"{url}/director/login")
            page.fill("input[name=name]", "TD Ana")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{url}/director")

            def task(name: str, start: str, acts: Callable[[Hands], None]) -> None:
                """A task done from the page `start` (where the director is: the grid, or any page of the console)."""
                page.goto(url + start)
                hands = Hands(page)
                acts(hands)
                costs[name] = (hands.clicks, hands.keys)

            def cell(table: int, round_: int, board: int) -> str:
                return f"#s-{table}-{round_}-{board}"

            def listen(h: Hands) -> None:
                h.click("nav a:has-text('Terminals')")
                h.click("#listen button[type=submit]")  # the port found is filled in, at the usual speed
                assert port in h.done() and listening.state().on
            task("start listening", "/director/grid/A", listen)

            def late(h: Hands) -> None:
                h.click(cell(LATE_TABLE, 2, boards[(LATE_TABLE, 2)][0]))
                h.click("summary:has-text('Change the movement')")
                h.type("#move input[name=pair]", "NS 3")  # late is the first change; the slot gives its round
                h.type("#move input[name=why]", "late")
                h.click("#move button[type=submit]")
                assert "late" in h.done()
            task("late pair", "/director/grid/A", late)

            def settle(h: Hands) -> None:
                h.click("a.c.conflict")
                h.click("button:has-text('Keep this one')")
                assert "v1 kept" in h.done() and page.inner_text("b.verdict") == "entered"
            task("settle a conflict", "/director/grid/A", settle)

            def adjust(h: Hands) -> None:
                h.click(cell(2, 1, boards[(2, 1)][0]))
                h.click("summary:has-text('Adjusted score')")
                # Average plus and minus (Law 12C2): written 60/40 the USEBIO export below would refuse it.
                h.type("#adjust input[name=ns]", "A+")
                h.type("#adjust input[name=ew]", "A-")
                h.type("#adjust input[name=why]", "12C")
                h.click("#adjust button[type=submit]")
                h.done()
                assert page.inner_text("b.verdict") == "adjusted"
            task("adjust 60/40", "/director/grid/A", adjust)

            def assigned(h: Hands) -> None:
                h.click(cell(2, 2, boards[(2, 2)][0]))
                h.click("summary:has-text('Adjusted score')")
                h.type("#adjust input[name=assigned]", "+140")  # a part score: a board of any vulnerability
                h.type("#adjust input[name=why]", "12C")
                h.click("#adjust button[type=submit]")
                h.done()
                assert page.inner_text("b.verdict") == "adjusted"
            task("assigned score", "/director/grid/A", assigned)

            def penalty(h: Hands) -> None:
                h.click(cell(4, 2, boards[(4, 2)][0]))
                h.click("summary:has-text('Procedural penalty')")
                h.type("#penalty input[name=penalty]", "25%")  # the slot's NS pair is chosen already
                h.type("#penalty input[name=why]", "L90")
                h.click("#penalty button[type=submit]")
                h.done()
            task("penalty", "/director/grid/A", penalty)

            def seat(h: Hands) -> None:
                h.click("nav a:has-text('Terminals')")
                h.type("#seat input[name=terminal]", "12")
                h.type("#seat input[name=section]", "A")
                h.type("#seat input[name=table]", "4")
                h.click("#seat button[type=submit]")
                assert "terminal 12" in h.done()
            task("seat a spare", "/director/grid/A", seat)

            def finish(h: Hands) -> None:
                h.click("nav a:has-text('Finish')")
                h.click("#finish button[type=submit]")
                h.done()
            task("finish", "/director/grid/A", finish)

            erased = Slot("A", 3, 3, boards[(3, 3)][1])

            def erase(h: Hands) -> None:
                h.click(cell(erased.table, erased.round, erased.board))
                h.click("summary:has-text('Erase')")
                h.type("#erase input[name=why]", "79C")
                h.click("#erase button[type=submit]")
                h.done()
            task("erase", "/director/grid/A", erase)

            def usebio(h: Hands) -> None:
                h.click("nav a:has-text('Publish')")
                h.type("input[name=club]", "Riga BC")
                with page.expect_download() as download:
                    h.click("button:has-text('USEBIO')")
                assert download.value.suggested_filename.endswith(".xml")
            task("download USEBIO", "/director/grid/A", usebio)
        finally:
            browser.close()
            listening.stop()
            os.close(master)
            os.close(slave)
    conn = connect(event)
    current = slot_state(conn, erased).current
    conn.close()
    assert current is not None and current.kind == "erased"
    rows = [f"| {name} | {clicks} | {keys} | {LIMITS[name][0]} | {LIMITS[name][1]} | {LIMITS[name][2]} |"
            for name, (clicks, keys) in costs.items()]
    print("\n| task | clicks | keystrokes | BCS clicks | BCS keystrokes | BCS's way |\n|---|---|---|---|---|---|")
    print("\n".join(rows))
    over = {name: cost for name, cost in costs.items() if cost[0] > LIMITS[name][0] or cost[1] > LIMITS[name][1]}
    assert not over, over
    assert sorted(costs) == sorted(LIMITS)
