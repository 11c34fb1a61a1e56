"""The director's console's finish, publish, print and rehearsal pages: finishing as `tenace finish` does (warnings
first, force where it needs it, the correction period's end), each export of `tenace report` as a download, the print
pages and their PDFs, and the rehearsal button (`tenace sim --event` into a copy)."""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
import shutil
import sqlite3
import time
import zipfile
from contextlib import closing
from pathlib import Path

import pytest
from event_state import club_with_a_conflict
from starlette.testclient import TestClient
from test_serve_console import PASSWORD, SAME, logged_in

from tenace.movement import Movement, howell, mitchell
from tenace.store import connect, create_event, director_log, ingest, sign_in
from tenace.store.names import Member, keep_roster, set_pair_players
from tenace.web.app import create_app
from tenace.web.console import Director

from sample_results import session_results


def played(path: Path, movement: Movement, results: bool = True) -> Path:
    """A one-section event on `movement`, the pairs named, every result in (or none)."""
    with closing(create_event(path, name="Club", date="2024-05-14", sections={"A": movement})) as conn:
        keep_roster(conn, [Member(n, f"Member {n}") for n in range(1, 41)])
        number = 1
        for field, pair in movement.pairs():
            set_pair_players(conn, "A", pair, field, (number, number + 1), who="TD")
            number += 2
        if results:
            for table in range(1, movement.tables + 1):
                sign_in(conn, table, "A", table)
            for m in session_results(movement):
                ingest(conn, m)
    return path


def client_for(path: Path) -> TestClient:
    return TestClient(create_app(path, director=Director(password=PASSWORD)))


def log_of(path: Path) -> list[tuple[str, str, bool]]:
    with closing(connect(path)) as conn:
        return [(e.action, e.detail, e.forced) for e in director_log(conn)]


def text_of(answer_text: str) -> str:
    return html.unescape(answer_text)


# Finish


def test_finish_warns_of_the_conflict_and_finishes_only_with_force(tmp_path: Path) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    with client_for(event) as client:
        csrf = logged_in(client)
        page = text_of(client.get("/director/finish").text)
        assert "Finishing now is refused unless forced" in page and "1 conflict still stands" in page
        assert 'name="force"' in page and "<time" not in page
        refused = client.post("/director/finish", data={"csrf": csrf, "minutes": "30"}, headers=SAME)
        assert refused.status_code == 400
        said = text_of(refused.text)
        assert "1 conflict still stands" in said and "tick force to finish anyway" in said
        assert log_of(event) == []  # nothing recorded
        done = client.post("/director/finish", data={"csrf": csrf, "minutes": "45", "force": "on"}, headers=SAME,
                           follow_redirects=False)
        assert done.status_code == 303 and done.headers["location"] == "/director/finish"
        action, detail, _ = log_of(event)[-1]
        assert action == "finish" and "correction period 45 minutes" in detail
        page = text_of(client.get("/director/finish").text)
        assert "results published; correction period 45 minutes" in page  # the log line, once
        # The period's end as a time of day, with the countdown's script beside it (the time alone without it).
        ends = re.search(r'<time datetime="([^"]+)" data-countdown>(\d\d:\d\d)</time>', page)
        assert ends, page
        assert '<script src="/director/static/countdown.js"' in page
        script = client.get("/director/static/countdown.js")
        assert script.status_code == 200 and "data-countdown" in script.text
        # Finished already: finishing again is one more reason, as tenace finish says.
        assert "the session was finished at" in page


def test_a_complete_session_finishes_without_force_and_a_late_correction_needs_it(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with client_for(event) as client:
        csrf = logged_in(client)
        page = text_of(client.get("/director/finish").text)
        assert "the session can be finished" in page and 'name="force"' not in page
        # A period that is not a number is refused beside its field, the form kept as typed.
        refused = client.post("/director/finish", data={"csrf": csrf, "minutes": "half", "why": "done"},
                              headers=SAME)
        assert refused.status_code == 400 and 'value="half"' in refused.text and "whole number" in refused.text
        done = client.post("/director/finish", data={"csrf": csrf, "minutes": "0"}, headers=SAME,
                           follow_redirects=False)
        assert done.status_code == 303
        assert log_of(event)[-1][0] == "finish" and not log_of(event)[-1][2]
        # The period was 0 minutes: a correction now is refused unless forced (the existing form has force).
        fields = {"csrf": csrf, "table": "1", "board": "1", "contract": "3NT", "by": "N", "tricks": "9",
                  "why": "wrong card"}
        late = client.post("/director/correct", data=fields, headers=SAME)
        assert late.status_code == 400 and "tick force" in text_of(late.text)
        forced = client.post("/director/correct", data={**fields, "force": "on"}, headers=SAME,
                             follow_redirects=False)
        assert forced.status_code == 303 and log_of(event)[-1][0] == "correct" and log_of(event)[-1][2]


def test_the_log_says_why_a_finish_was_forced_and_a_second_finish_is_named(tmp_path: Path) -> None:
    """A finish forced over missing results says so (not "after the correction period"); a second one
    is refused unless forced, then logged as published again."""
    event = played(tmp_path / "club.sqlite", mitchell(4, 2), results=False)
    with client_for(event) as client:
        csrf = logged_in(client)
        done = client.post("/director/finish", data={"csrf": csrf, "minutes": "30", "force": "on"}, headers=SAME)
        assert done.status_code == 200
        action, detail, forced = log_of(event)[-1]
        assert action == "finish" and forced and "forced with 24 results missing" in detail
        said = text_of(done.text)
        assert "forced with 24 results missing" in said and "after the correction period" not in said
        problems = client.get("/director/problems.txt").text
        assert "finish by TD Ana FORCED (see the detail)" in problems and "after the correction period" not in problems
        again = client.post("/director/finish", data={"csrf": csrf, "minutes": "30"}, headers=SAME)
        assert again.status_code == 400 and "the session was finished at" in text_of(again.text)
        assert len(log_of(event)) == 1
        client.post("/director/finish", data={"csrf": csrf, "minutes": "10", "force": "on"}, headers=SAME)
        action, detail, _ = log_of(event)[-1]
        assert detail.startswith("results published again (first at ") and "correction period restarted" in detail


@pytest.mark.parametrize("lang", ["en", "lv"])
def test_the_public_pages_say_final_once_the_correction_period_is_over(tmp_path: Path, lang: str) -> None:
    from tenace.page_base.words import words
    t = words(lang).plain
    event = played(tmp_path / "club.sqlite", mitchell(4, 2), results=False)
    with client_for(event) as client:
        assert t("provisional") in text_of(client.get(f"/?lang={lang}").text)
        csrf = logged_in(client)
        client.post("/director/finish", data={"csrf": csrf, "minutes": "30", "force": "on"}, headers=SAME)
        deadline = time.monotonic() + 5
        while t("corrections_until", at="") not in (page := text_of(client.get(f"/?lang={lang}").text)):
            assert time.monotonic() < deadline, page
            time.sleep(0.05)
        assert f": {t('final')}</p>" not in page and t("provisional") not in page
        client.post("/director/finish", data={"csrf": csrf, "minutes": "0", "force": "on"}, headers=SAME)
        deadline = time.monotonic() + 5  # the pages notice the file's change within their poll
        while f": {t('final')}</p>" not in (page := text_of(client.get(f"/?lang={lang}").text)):
            assert time.monotonic() < deadline, page
            time.sleep(0.05)
        assert t("provisional") not in page and t("corrections_until", at="") not in page


def test_a_refused_usebio_download_keeps_the_club_typed(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with client_for(event) as client:
        logged_in(client)
        refused = client.get("/director/download/usebio", params={"club": "Riga Bridge <Club>", "club_id": "12a"})
        assert refused.status_code == 400 and "digits" in text_of(refused.text)
        assert 'name="club" required value="Riga Bridge &lt;Club&gt;"' in refused.text
        assert 'name="club_id" inputmode="numeric" value="12a"' in refused.text


@pytest.mark.parametrize("where", ["/director/finish", "/director/rehearsal"])
def test_posts_need_the_login_and_the_form_token(tmp_path: Path, where: str) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2), results=False)
    with client_for(event) as client:
        assert client.post(where, data={"csrf": "x"}, headers=SAME).status_code == 403  # not logged in
        csrf = logged_in(client)
        assert client.post(where, data={"csrf": "not this"}, headers=SAME).status_code == 403
        assert client.post(where, data={"csrf": csrf}, headers={"Origin": "http://evil.example"}).status_code == 403
        for page in ("/director/finish", "/director/publish", "/director/print", "/director/print/cards",
                     "/director/download/csv", "/director/rehearsal"):
            assert client.get(page).status_code == 200, page
    assert log_of(event) == []
    with client_for(event) as client:  # a new client: not logged in, every page sends to the login
        for page in ("/director/finish", "/director/publish", "/director/print/cards", "/director/download/pbn",
                     "/director/rehearsal"):
            answer = client.get(page, follow_redirects=False)
            assert answer.status_code == 303 and answer.headers["location"] == "/director/login", page


# Publish


def test_every_export_downloads_as_tenace_report_writes_it(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with client_for(event) as client:
        logged_in(client)
        page = client.get("/director/publish").text
        for form in ("/director/download/pbn", "/director/download/csv", "/director/download/html",
                     "/director/download/usebio"):
            assert f'action="{form}"' in page
        pbn = client.get("/director/download/pbn", params={"section": "A"})
        assert pbn.status_code == 200 and pbn.headers["content-type"].startswith("application/x-pbn")
        assert 'filename="club-A.pbn"' in pbn.headers["content-disposition"]
        assert pbn.text.startswith("% PBN 2.1") and '[Board "8"]' in pbn.text and "TotalScoreTable" in pbn.text
        csv = client.get("/director/download/csv")
        assert csv.headers["content-type"] == "application/zip" and csv.content.startswith(b"PK\x03\x04")
        with zipfile.ZipFile(io.BytesIO(csv.content)) as z:
            assert sorted(z.namelist()) == ["A-ranking.csv", "A-travellers.csv"]
            ranking = z.read("A-ranking.csv").decode("utf-8")
        assert "Member 1 - Member 2" in ranking
        site = client.get("/director/download/html", params={"lang": "lv"})
        assert site.headers["content-type"] == "application/zip" and site.content.startswith(b"PK\x03\x04")
        with zipfile.ZipFile(io.BytesIO(site.content)) as z:
            names = set(z.namelist())
            assert {"index.html", "board/A/1.html", "board/A/8.html", "pair/A/NS1.html"} <= names
            assert 'lang="lv"' in z.read("index.html").decode("utf-8")
        usebio = client.get("/director/download/usebio", params={"club": "Riga BC", "club_id": "2074"})
        assert usebio.status_code == 200 and usebio.headers["content-type"] == "application/xml"
        assert usebio.content.startswith(b"<?xml") and b"<CLUB_NAME>Riga BC</CLUB_NAME>" in usebio.content
        # Refusals in one line, as tenace report's.
        no_club = client.get("/director/download/usebio", params={"club": ""})
        assert no_club.status_code == 400
        # Said beside the club's field, the page's forms still there to try again.
        assert re.search(r'name="club" required value=""></label> <span class="error">[^<]*give the club</span>',
                         no_club.text)
        bad_id = client.get("/director/download/usebio", params={"club": "Riga BC", "club_id": "x7"})
        assert bad_id.status_code == 400
        assert 'inputmode="numeric" value="x7"></label> <span class="error">' in bad_id.text
        assert client.get("/director/download/zip").status_code == 404


def test_damaged_results_are_downloaded_only_with_force(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    conn = sqlite3.connect(event)
    rid = conn.execute("SELECT max(id) FROM result WHERE table_no = 3 AND board = 5").fetchone()[0]
    conn.executescript("DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                       f"UPDATE result SET ns_score = 214 WHERE id = {rid};")
    conn.close()
    with client_for(event) as client:
        logged_in(client)
        assert "1 damaged result" in client.get("/director/publish").text
        refused = client.get("/director/download/csv")
        assert refused.status_code == 400 and "1 damaged result" in refused.text and "tick force" in refused.text
        forced = client.get("/director/download/csv", params={"force": "1"})
        assert forced.status_code == 200 and forced.content.startswith(b"PK\x03\x04")


# Print


def cells(page: str, table: int) -> list[list[str]]:
    """The rows of table `table`'s card: round, NS, EW, boards, NS next, EW next, boards next."""
    card = page.split(f"Table {table}</h1>", 1)[1].split("</section>", 1)[0]
    return [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", card, re.S)][1:]


def test_a_mitchells_table_cards_say_where_the_pairs_and_boards_go(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2), results=False)  # a skip Mitchell: EW skip in round 3
    with client_for(event) as client:
        logged_in(client)
        page = client.get("/director/print/cards").text
    assert page.count('class="sheet card"') == 4 and "@media print" in page and "break-after: page" in page
    assert cells(page, 1) == [
        ["1", "NS 1", "EW 1", "1-2", "table 1 NS", "table 2 EW", "table 4"],
        ["2", "NS 1", "EW 4", "3-4", "table 1 NS", "table 3 EW", "table 4"],
        ["3", "NS 1", "EW 2", "5-6", "end", "end", "end"],
    ]
    # Round 2 at table 2: EW 1 skips table 3 in round 3 and goes to table 4.
    assert cells(page, 2)[1] == ["2", "NS 2", "EW 1", "5-6", "table 2 NS", "table 4 EW", "table 1"]


def test_a_howells_table_cards_move_the_pairs_and_put_boards_out_of_play(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", howell(3, 3, 2), results=False)  # the first 2 of 5 rounds
    with client_for(event) as client:
        logged_in(client)
        page = client.get("/director/print/cards").text
    assert cells(page, 1)[0] == ["1", "6", "1", "1-3", "table 1 NS", "table 2 EW", "out of play"]
    assert cells(page, 2)[0] == ["1", "2", "5", "4-6", "table 1 EW", "table 3 EW", "table 2"]
    assert cells(page, 3)[0] == ["1", "3", "4", "7-9", "table 2 NS", "table 3 NS", "table 1"]


def test_scorecards_travellers_and_the_ranking_print(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with client_for(event) as client:
        logged_in(client)
        scorecards = client.get("/director/print/scorecards").text
        travellers = client.get("/director/print/travellers").text
        ranking = client.get("/director/print/ranking").text
    # A scorecard a pair (8), a line a board it plays (3 rounds of 2), with blank cells to write in.
    assert scorecards.count('class="sheet scorecard"') == 8
    card = scorecards.split("Pair EW 1</h1>", 1)[1].split("</section>", 1)[0]
    assert "Member 9 - Member 10" in card
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td>(NS|EW)</td><td>([^<]*)</td><th scope=\"row\">(\d+)</th>",
                      card)
    assert rows == [("1", "1", "EW", "NS 1", "1"), ("1", "1", "EW", "NS 1", "2"),
                    ("2", "2", "EW", "NS 2", "5"), ("2", "2", "EW", "NS 2", "6"),
                    ("3", "4", "EW", "NS 4", "3"), ("3", "4", "EW", "NS 4", "4")]
    assert card.count('class="write"') == 6 * 7
    assert travellers.count('class="keep traveller"') == 8 and "Board 8" in travellers and "MP NS" in travellers
    assert ranking.count("<th scope=\"row\">NS ") == 4 and "Member 1 - Member 2" in ranking


def pages(pdf: bytes) -> int:
    """The page objects of a PDF (chromium's are written out plainly: /Type /Page, not in compressed streams)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.slow
def test_the_table_cards_as_pdf_one_page_a_table(tmp_path: Path) -> None:
    if shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (tools/setup-env installs it)")
        pytest.skip("chromium is not installed: the PDF link says so, the print page still works")
    event = played(tmp_path / "club.sqlite", mitchell(4, 2), results=False)
    with client_for(event) as client:
        logged_in(client)
        assert "/director/print/cards.pdf" in client.get("/director/print").text
        pdf = client.get("/director/print/cards.pdf")
    assert pdf.status_code == 200, pdf.text
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-") and pdf.content.rstrip().endswith(b"%%EOF")
    assert pages(pdf.content) == 4


# Rehearsal


def test_a_rehearsal_is_refused_for_an_event_with_results(tmp_path: Path) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    with client_for(event) as client:
        csrf = logged_in(client)
        refused = client.post("/director/rehearsal", data={"csrf": csrf}, headers=SAME)
    assert refused.status_code == 400
    said = re.findall(r'<p class="error" role="alert">([^<]*)</p>', refused.text)
    assert said == ["club.sqlite holds 25 results already: a rehearsal plays an event before its evening (rehearse "
                    "a copy made before play)"]
    assert not (tmp_path / "club-rehearsal.sqlite").exists()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_the_rehearsal_button_plays_a_3_table_event_into_a_copy(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(3, 2), results=False)
    before = digest(event)
    with client_for(event) as client:
        csrf = logged_in(client)
        started = client.post("/director/rehearsal", data={"csrf": csrf}, headers=SAME, follow_redirects=False)
        assert started.status_code == 303
        # One at a time: a second press while it runs is refused in one line.
        again = client.post("/director/rehearsal", data={"csrf": csrf}, headers=SAME)
        assert again.status_code == 409 and "a rehearsal is running already" in again.text
        deadline = time.monotonic() + 600
        while True:
            page = client.get("/director/rehearsal").text
            if "Ended (exit" in page or time.monotonic() > deadline:
                break
            assert 'http-equiv="refresh"' in page  # the running page reloads itself
            time.sleep(2)
    assert "Ended (exit 0): club-rehearsal.sqlite" in page, page
    check = re.search(r'<p class="check" role="status"><b>([^<]+)</b>', page)
    assert check and check[1].startswith("accepted=18 stored=18 ") and "lost=0 doubled=0" in check[1], page
    shown = html.unescape(page)  # the page's words are escaped as they are put in ("The copy&#39;s ranking")
    assert "Rehearsal of " in shown and "The copy's ranking" in shown and "Member 1 - Member 2" in shown
    assert digest(event) == before and (tmp_path / "club-rehearsal.sqlite").is_file()
