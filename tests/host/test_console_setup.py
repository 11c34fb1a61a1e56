"""The director's console's set-up (`tenace serve --new`): a new event previewed then created, the roster, the pairs
named in a grid or a list, the deals imported and analysed in the background; each refusal beside its field, and every
post and JSON answer behind the login and the form token."""

from __future__ import annotations

import html
import random
import re
import time
from pathlib import Path

import pytest
from cli_runner import tenace
from starlette.testclient import TestClient

from tenace.movement import mitchell
from tenace.page_base.words import words
from tenace.store import connect, create_event, event_info
from tenace.store.hand_records import hand_records
from tenace.store.names import pair_players, roster
from tenace.web.app import create_app
from tenace.web.console import Director

PASSWORD = "correct horse battery"
SAME = {"Origin": "http://testserver"}
ROSTER = "number,name\n101,Ann Archer\n102,Bob Baker\n103,Chloé Durand\nx,Nobody\n104,Dev Patel\n"
# Two sections: a 3-table Mitchell of 2 boards a round and a 3-table Howell of 3 (the two kinds as `event new` makes).
TWO_SECTIONS = {"name": "Tuesday pairs", "date": "2024-05-14", "scoring": "matchpoints",
                "s1_section": "A", "s1_movement": "mitchell", "s1_tables": "3", "s1_boards": "2",
                "s2_section": "B", "s2_movement": "howell", "s2_tables": "3", "s2_boards": "3"}


def shuffled_deal(seed: int) -> str:
    ranks = "AKQJT98765432"
    cards = [(suit, rank) for suit in range(4) for rank in ranks]
    random.Random(seed).shuffle(cards)
    hands = [cards[i * 13:(i + 1) * 13] for i in range(4)]
    return "N:" + " ".join(".".join("".join(sorted((r for s, r in hand if s == suit), key=ranks.index))
                                        for suit in range(4)) for hand in hands)


def pbn(boards: range) -> str:
    return "\n".join(f'[Board "{b}"]\n[Deal "{shuffled_deal(b)}"]\n' for b in boards)


def log_in(client: TestClient) -> str:
    """Logged in with the password; the page's form token."""
    answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = client.get("/director/setup")
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, page.text
    return found[1]


def post(client: TestClient, url: str, csrf: str, **fields: str) -> object:
    return client.post(url, data={"csrf": csrf, **fields}, headers=SAME, follow_redirects=False)


def beside(page: str, field: str) -> str:
    """The refusal shown beside a field (its span, which the field's aria-describedby names; a whole form's or a
    button's: the span alone)."""
    assert field in ("event", "create") or f'aria-describedby="err-{field}"' in page, page
    found = re.search(rf'<span class="error" id="err-{re.escape(field)}" role="alert">([^<]*)</span>', page)
    assert found, page
    return html.unescape(found[1])


@pytest.fixture
def new(tmp_path: Path) -> Path:
    return tmp_path / "tuesday.sqlite"


def created(client: TestClient, csrf: str, **fields: str) -> None:
    """The event created as the director does it: previewed, then created with the preview's token."""
    shown = post(client, "/director/setup/event", csrf, **fields, do="preview")
    assert shown.status_code == 200, shown.text
    token = re.search(r'name="previewed" value="([^"]+)"', shown.text)
    assert token, shown.text
    done = post(client, "/director/setup/event", csrf, **fields, do="create", previewed=token[1])
    assert done.status_code == 303 and done.headers["location"] == "/director/setup", done.text


def test_no_event_yet_then_the_preview_then_the_event(new: Path) -> None:
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True, poll_s=0.01)) as client:
        # The public pages say there is no event yet, in their language, and look again later.
        for lang in ("en", "lv", "he"):
            public = client.get(f"/?lang={lang}")
            assert public.status_code == 503 and words(lang)("no_event") in html.unescape(public.text)
            assert 'http-equiv="refresh"' in public.text
        generation = client.app.state.changes.generation  # type: ignore[attr-defined]
        csrf = log_in(client)
        assert client.get("/director", follow_redirects=False).headers["location"] == "/director/setup"
        shown = post(client, "/director/setup/event", csrf, **TWO_SECTIONS, do="preview")
        assert shown.status_code == 200 and not new.exists()  # a preview makes nothing
        text = html.unescape(shown.text)
        # Each section round by round (an HTML table), with the checker's verdict, before it can be created.
        assert text.count("The movement checker: no rule broken") == 2
        assert "Section A: Mitchell" in text and "Section B: Howell" in text
        assert '<th scope="rowgroup" rowspan="3">1</th><td>1</td><td>NS 1</td><td>EW 1</td><td>1-2</td>' in shown.text
        assert 'value="create"' in shown.text and 'value="Tuesday pairs"' in shown.text  # the form kept as typed
        created(client, csrf, **TWO_SECTIONS)
        assert new.exists()
        conn = connect(new)
        info = event_info(conn)
        conn.close()
        assert info.name == "Tuesday pairs" and info.date == "2024-05-14"
        assert [(s.name, s.kind, s.tables, s.boards_per_round) for s in info.sections] == [
            ("A", "mitchell", 3, 2), ("B", "howell", 3, 3)]
        page = client.get("/director/setup").text
        assert "created " in page and "Import the roster" in page and "new-event" not in page
        # The public pages now show the event, and their poller has noticed the file appear.
        assert client.get("/").status_code == 200 and "Tuesday pairs" in client.get("/").text
        deadline = time.monotonic() + 5
        while client.app.state.changes.generation == generation and time.monotonic() < deadline:  # type: ignore
            time.sleep(0.02)
        assert client.app.state.changes.generation > generation  # type: ignore[attr-defined]
        # Once made, no second event over it.
        again = post(client, "/director/setup/event", csrf, **TWO_SECTIONS, do="preview")
        assert again.status_code == 400 and "exists already" in beside(again.text, "event")


def test_a_shortened_mitchell_and_a_half_table_are_previewed(new: Path) -> None:
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True)) as client:
        csrf = log_in(client)
        fields = {"name": "Short", "s1_section": "A", "s1_tables": "7", "s1_boards": "3", "s1_rounds": "5",
                  "s2_section": "B", "s2_tables": "5", "s2_boards": "3", "s2_half": "on"}
        text = html.unescape(post(client, "/director/setup/event", csrf, **fields, do="preview").text)
        assert "first 5 of 7 rounds" in text and "NS 5 missing (a half table)" in text
        assert "EW 1 sits out" in text and text.count("The movement checker: no rule broken") == 2
        # Both at once: a shortened Mitchell with a half table (its long description is kept whole by the file).
        both = html.unescape(post(client, "/director/setup/event", csrf, **{**fields, "s1_half": "on"},
                                  do="preview").text)
        assert "first 5 of 7 rounds" in both and "NS 7 missing (a half table)" in both
        created(client, csrf, **fields)
        conn = connect(new)
        assert [s.rounds for s in event_info(conn).sections] == [5, 5]
        conn.close()


def test_each_refusal_is_beside_its_field_and_nothing_is_made(new: Path) -> None:
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True)) as client:
        csrf = log_in(client)
        wrong = {"name": "", "date": "2024-02-30", "s1_section": "A", "s1_tables": "x", "s1_boards": "2",
                 "s2_section": "B", "s2_movement": "howell", "s2_tables": "40", "s2_boards": "2",
                 "s3_section": "A!", "s3_tables": "3", "s3_boards": "2"}
        answer = post(client, "/director/setup/event", csrf, **wrong, do="preview")
        assert answer.status_code == 400 and not new.exists()
        assert "is required" in beside(answer.text, "name")
        assert "2024-02-30" in beside(answer.text, "date")
        assert "give a whole number" in beside(answer.text, "s1_tables")
        assert "40" in beside(answer.text, "s2_tables")
        assert "one capital letter, A to Z" in beside(answer.text, "s3_section")
        assert 'name="s2_tables" size="3" aria-label="section 2: tables" value="40"' in answer.text  # kept as typed
        twice = post(client, "/director/setup/event", csrf, name="X", s1_section="A", s1_tables="3", s1_boards="2",
                     s2_section="A", s2_tables="3", s2_boards="2", do="preview")
        assert twice.status_code == 400 and "Section A is named twice" in html.unescape(twice.text)
        # A create that was not previewed, or whose movements changed since, shows the preview instead.
        fields = {"name": "X", "s1_section": "A", "s1_tables": "3", "s1_boards": "2"}
        unseen = post(client, "/director/setup/event", csrf, **fields, do="create")
        assert unseen.status_code == 400 and "preview" in beside(unseen.text, "create") and not new.exists()
        token = re.search(r'name="previewed" value="([^"]+)"', unseen.text)
        assert token
        changed = post(client, "/director/setup/event", csrf, **{**fields, "s1_tables": "4"}, do="create",
                       previewed=token[1])
        assert changed.status_code == 400 and not new.exists()


@pytest.mark.parametrize("lang", ["en", "lv"])
def test_what_the_terminals_cannot_serve_is_refused_at_its_field(new: Path, lang: str) -> None:
    """Sections A to Z, one letter (what a terminal signs in to); at most 64 tables (a terminal's traveller) and 127
    rounds: each refused beside its field, saying the limit, in the page's language."""
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True)) as client:
        csrf = log_in(client)
        wrong = {"name": "X", "s1_section": "AB1", "s1_tables": "3", "s1_boards": "2",
                 "s2_section": "b", "s2_tables": "3", "s2_boards": "2",
                 "s3_section": "C", "s3_tables": "99", "s3_boards": "2",
                 "s4_section": "D", "s4_tables": "7", "s4_boards": "2", "s4_rounds": "200"}
        answer = post(client, f"/director/setup/event?lang={lang}", csrf, **wrong, do="preview")
        assert answer.status_code == 400 and not new.exists()
        said = {field: beside(answer.text, field) for field in ("s1_section", "s2_section", "s3_tables", "s4_rounds")}
        assert "'AB1'" in said["s1_section"] and "'b'" in said["s2_section"]
        assert "64" in said["s3_tables"] and "127" in said["s4_rounds"]
        if lang == "en":
            assert "one capital letter, A to Z" in said["s2_section"]
            assert "at most 64 tables" in said["s3_tables"] and "at most 127 rounds" in said["s4_rounds"]
        else:  # no English left
            assert not any(word in text for text in said.values() for word in ("section", "tables", "rounds"))
        ok = post(client, "/director/setup/event", csrf, name="X", s1_section="Z", s1_tables="64", s1_boards="1",
                  s1_rounds="3", do="preview")
        assert ok.status_code == 200, ok.text


def test_a_player_in_two_pairs_is_warned_as_tenace_names_does(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = log_in(client)
        post(client, "/director/setup/roster", csrf, roster=ROSTER)
        done = post(client, "/director/setup/pairs", csrf, **{"p-A-NS-1-1": "101", "p-A-NS-1-2": "102",
                                                             "p-A-EW-2-1": "103", "p-A-EW-2-2": "101"})
        assert done.status_code == 303
        page = html.unescape(client.get("/director/setup").text)
        warning = ("Warning: player 101 is in two pairs: A-NS 1 and A-EW 2 (a player plays in one pair: set the other "
                   "pair's players).")
        assert f'<p class="warning" role="alert">{warning}</p>' in page
        assert "Warning:" not in client.get("/director/setup").text  # said once
        listed = post(client, "/director/setup/pair-list?lang=sk", csrf, pairs="NS 3, 104, 102\n", section="A")
        assert listed.status_code == 303
        page = html.unescape(client.get("/director/setup?lang=sk").text)
        # The list warns of the players it named (102), as `tenace names --pairs` does, not of 101 again.
        assert "hráč 102 je v dvoch pároch: A-NS 1 a A-NS 3" in page and page.count('class="warning"') == 1


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    create_event(path, name="Club", date="2024-05-14", sections={"A": mitchell(3, 2), "B": mitchell(3, 2)}).close()
    return path


def test_the_roster_is_imported_with_its_skipped_lines_and_looked_up(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = log_in(client)
        done = post(client, "/director/setup/roster", csrf, roster=ROSTER)
        assert done.status_code == 303 and done.headers["location"] == "/director/setup#roster"
        page = html.unescape(client.get("/director/setup").text)
        assert "roster: 4 members kept, 1 line skipped" in page and "skipped line 5:" in page
        conn = connect(event)
        assert roster(conn)[103].name == "Chloé Durand"
        conn.close()
        bad = post(client, "/director/setup/roster", csrf, roster="number,name\nx,Nobody\n")
        assert bad.status_code == 400 and "No member read (1 line skipped)" in beside(bad.text, "roster")
        assert "line 2: the player number 'x' is not a whole number" in html.unescape(bad.text)
        # The member lookup as the director types: by number, by a part of the name; the page's token required.
        token = {"X-CSRF-Token": csrf}
        assert client.get("/director/roster?q=10", headers=token).json()["members"][0] == {
            "number": 101, "name": "Ann Archer"}
        assert client.get("/director/roster?q=chlo", headers=token).json() == {
            "members": [{"number": 103, "name": "Chloé Durand"}]}
        assert client.get("/director/roster?q=ann").status_code == 403
        assert client.get("/director/roster?q=ann", headers={"X-CSRF-Token": "wrong"}).status_code == 403


def test_the_pairs_grid_is_all_or_nothing_with_each_wrong_field_beside_it(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = log_in(client)
        post(client, "/director/setup/roster", csrf, roster=ROSTER)
        page = client.get("/director/setup").text
        # One row a pair of each section, in the order a list names them: NS 1 to 3, then EW 1 to 3.
        assert re.findall(r'name="p-(A-\w+-\d)-1"', page) == ["A-NS-1", "A-NS-2", "A-NS-3", "A-EW-1", "A-EW-2",
                                                              "A-EW-3"]
        wrong = post(client, "/director/setup/pairs", csrf, **{
            "p-A-NS-1-1": "101", "p-A-NS-1-2": "bob baker", "p-A-NS-2-1": "103", "p-A-NS-2-2": "Nobody",
            "p-B-EW-3-1": "104"})
        assert wrong.status_code == 400
        assert "'Nobody' is not in the roster" in beside(wrong.text, "p-A-NS-2-2")
        assert "Give both players" in beside(wrong.text, "p-B-EW-3-2")
        conn = connect(event)
        assert pair_players(conn, "A") == {}  # the good row is not named either
        conn.close()
        done = post(client, "/director/setup/pairs", csrf, **{"p-A-NS-1-1": "101", "p-A-NS-1-2": "bob baker",
                                                             "p-B-EW-3-1": "103", "p-B-EW-3-2": "104"})
        assert done.status_code == 303
        conn = connect(event)
        assert pair_players(conn, "A") == {(1, "NS"): (101, 102)} and pair_players(conn, "B") == {(3, "EW"): (103, 104)}
        conn.close()
        page = client.get("/director/setup").text
        assert "pairs: 2 named" in page and '<output class="who">Bob Baker</output>' in page


def test_a_pasted_list_of_pairs_names_its_wrong_lines_and_then_the_pairs(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = log_in(client)
        post(client, "/director/setup/roster", csrf, roster=ROSTER)
        wrong = post(client, "/director/setup/pair-list", csrf, pairs="NS 1, 101, 102\nNS 9, 103, 104\n", section="A")
        assert wrong.status_code == 400 and "1 line wrong" in beside(wrong.text, "pairs")
        assert "line 2: Section A has no pair A-NS 9" in html.unescape(wrong.text)
        no_section = post(client, "/director/setup/pair-list", csrf, pairs="101, 102\n")
        assert no_section.status_code == 400 and "sections A, B" in html.unescape(no_section.text)
        done = post(client, "/director/setup/pair-list", csrf, pairs="Ann Archer - Bob Baker\n103, 104\n",
                    section="B")
        assert done.status_code == 303
        conn = connect(event)
        assert pair_players(conn, "B") == {(1, "NS"): (101, 102), (2, "NS"): (103, 104)}
        conn.close()


def test_deals_are_imported_then_analysed_in_the_background(event: Path) -> None:
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = log_in(client)
        bad = post(client, "/director/setup/deals", csrf, section="A", deals='[Board "1"]\n[Deal "N:AKQ"]\n')
        assert bad.status_code == 400 and "No deal imported" in beside(bad.text, "deals")
        assert "skipped" in bad.text
        deals = pbn(range(1, 5)) + "\n" + pbn(range(9, 10))
        done = post(client, "/director/setup/deals", csrf, section="B", deals=deals)
        assert done.status_code == 303
        text = html.unescape(client.get("/director/setup").text)
        assert "section B: 4 deals kept (boards 1-4)" in text and "board 9: section B has no board 9" in text
        deadline = time.monotonic() + 60
        state = client.get("/director/setup/analysis", headers={"X-CSRF-Token": csrf}).json()
        while state["running"] and time.monotonic() < deadline:
            time.sleep(0.1)
            state = client.get("/director/setup/analysis", headers={"X-CSRF-Token": csrf}).json()
        assert state == {"running": False, "done": 4, "total": 4, "error": None}
        conn = connect(event)
        assert all(r.analysis is not None for r in hand_records(conn, "B").values())
        conn.close()
        assert "4 deals kept, 4 analysed double dummy" in client.get("/director/setup").text
        assert client.get("/director/setup/analysis").status_code == 403


POSTS = ("/director/setup/event", "/director/setup/roster", "/director/setup/pairs", "/director/setup/pair-list",
         "/director/setup/deals")


@pytest.mark.parametrize("url", POSTS)
def test_every_setup_post_needs_the_login_the_token_and_this_origin(new: Path, url: str) -> None:
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True)) as client:
        fields = {**TWO_SECTIONS, "do": "preview", "roster": ROSTER}
        assert client.post(url, data=fields, headers=SAME).status_code == 403  # not logged in
        csrf = log_in(client)
        assert client.post(url, data=fields, headers=SAME).status_code == 403  # no token
        assert client.post(url, data={**fields, "csrf": "wrong"}, headers=SAME).status_code == 403
        cross = client.post(url, data={**fields, "csrf": csrf}, headers={"Origin": "http://elsewhere"})
        assert cross.status_code == 403
        assert not new.exists()


def test_serve_new_refuses_an_existing_file_and_checks_the_collectors_options(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "serve", str(event), "--new")
    assert code == 2 and "exists already: --new makes a new event file" in err
    # The collector's options are accepted with --new (it starts once the set-up has made the event), checked at once.
    code, _, err = tenace(capsys, "serve", str(tmp_path / "x.sqlite"), "--new", "--listen-radio", "7373")
    assert code == 2 and "--listen-radio takes HOST:PORT" in err
    code, _, err = tenace(capsys, "serve", str(tmp_path / "x.sqlite"), "--new", "--pin", "1234")
    assert code == 2 and "give --serial DEV (a base station) or --listen-radio HOST:PORT (the simulator)" in err
    code, _, err = tenace(capsys, "serve", str(tmp_path / "nowhere" / "x.sqlite"), "--new")
    assert code == 2 and "no such folder" in err
    code, _, err = tenace(capsys, "serve", str(tmp_path / "missing.sqlite"))  # without --new: refused as ever
    assert code == 2 and "no such event file" in err
    code, out, _ = tenace(capsys, "serve", "--help")
    assert code == 0 and "--new" in out and "/director/setup" in out


@pytest.mark.slow
def test_an_evening_set_up_in_a_browser_from_serve_new(new: Path, browser_path: str) -> None:
    """From `--new`: a two-section event previewed and created, the roster chosen as a file, a member's name shown
    as the number is typed, pairs named in the grid and from a pasted list, deals chosen and analysed to the end."""
    from playwright.sync_api import sync_playwright

    from live_page import served

    with served(new, director=Director(password=PASSWORD), new=True) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            td = browser.new_page(viewport={"width": 360, "height": 740})
            td.goto(f"{url}/director")
            td.fill("input[name=name]", "TD Ana")
            td.fill("input[name=password]", PASSWORD)
            td.click("button[type=submit]")
            td.wait_for_url(f"{url}/director/setup")
            td.fill("input[name=name]", "Tuesday pairs")
            td.fill("input[name=date]", "2024-05-14")
            for i, (letter, kind, tables, boards) in enumerate((("A", "mitchell", "3", "2"), ("B", "howell", "3", "3")),
                                                                1):
                td.fill(f"input[name=s{i}_section]", letter)
                td.select_option(f"select[name=s{i}_movement]", kind)
                td.fill(f"input[name=s{i}_tables]", tables)
                td.fill(f"input[name=s{i}_boards]", boards)
            td.click("button[value=preview]")
            assert td.locator("p.verdict").all_inner_texts() == ["The movement checker: no rule broken"] * 2
            assert td.locator("table.movement").count() == 2 and not new.exists()
            td.click("button[value=create]")
            td.wait_for_selector("#roster-form")
            assert new.exists() and "created" in td.inner_text("p.done")
            td.set_input_files("#roster-form input[type=file]", files=[
                {"name": "members.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}])
            td.wait_for_function("document.getElementById('roster-text').value.includes('Ann Archer')")
            td.click("#roster-form button[type=submit]")
            td.wait_for_selector("p.done")
            assert "roster: 4 members kept, 1 line skipped" in td.inner_text("p.done")
            first = td.locator("input[name='p-A-NS-1-1']")
            first.press_sequentially("101")
            td.wait_for_function("document.querySelector(\"input[name='p-A-NS-1-1'] + output\").textContent"
                                 " === 'Ann Archer'")
            td.fill("input[name='p-A-NS-1-2']", "Bob Baker")
            td.click("#pairs-grid button[type=submit]")
            td.wait_for_selector("p.done")
            assert "pairs: 1 named" in td.inner_text("p.done")
            td.select_option("#pairs-list select[name=section]", "B")
            td.fill("#pairs-text", "Chloé Durand - Dev Patel\n")
            td.click("#pairs-list button[type=submit]")
            td.wait_for_selector("p.done")
            assert "pairs: 1 named from the list" in td.inner_text("p.done")
            td.select_option("#deals-form select[name=section]", "A")
            td.set_input_files("#deals-form input[type=file]", files=[
                {"name": "deals.pbn", "mimeType": "text/plain", "buffer": pbn(range(1, 7)).encode()}])
            td.wait_for_function("document.getElementById('deals-file').value.length > 0")
            td.click("#deals-form button[type=submit]")
            td.wait_for_selector("p.done")
            assert "section A: 6 deals kept (boards 1-6)" in td.inner_text("p.done")
            td.wait_for_function("document.querySelector('#analysis .progress-text').textContent"
                                 " === 'done, 6 boards analysed'", timeout=120_000)
            assert td.evaluate("document.querySelector('#analysis progress').value") == 6
            assert td.evaluate("document.querySelector('#analysis progress').max") == 6
            # On a phone, the page does not scroll sideways (wide tables scroll within their own box).
            assert td.evaluate("document.documentElement.scrollWidth") <= 360
        finally:
            browser.close()
    conn = connect(new)
    assert pair_players(conn, "A") == {(1, "NS"): (101, 102)} and pair_players(conn, "B") == {(1, ""): (103, 104)}
    assert all(r.analysis is not None for r in hand_records(conn, "A").values())
    conn.close()
