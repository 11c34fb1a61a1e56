"""`tenace serve`: the public pages render for Mitchell and Howell events, refuse writes, and stream changes."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from cli_runner import tenace
from starlette.testclient import TestClient

from tenace.cli import main
from tenace.movement import Movement, howell, mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.db import connect_read_only
from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy, keep_analysis, keep_hand_record
from tenace.store.names import Member, keep_roster, set_pair_players
from tenace.web.app import create_app

from live_page import served
from sample_results import session_results

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def make_event(path: Path, movement: Movement, results: int | None = None) -> None:
    """An event with the first `results` sample results (all by default), NS 1's (or pair 1's) players named and
    board 1's deal kept with a double-dummy analysis."""
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections={"A": movement})
    for table in range(1, movement.tables + 1):
        sign_in(conn, table, "A", table)
    for m in session_results(movement)[:results]:
        ingest(conn, m)
    keep_roster(conn, [Member(101, "Ann Archer"), Member(117, "Bob Baker")])
    set_pair_players(conn, "A", 1, "NS" if movement.kind == "mitchell" else "", (101, 117), who="TD")
    tricks = {d: {s: 7 for s in STRAINS} for d in DECLARERS}
    keep_hand_record(conn, "A", 1, DEAL)
    keep_analysis(conn, "A", 1, DEAL, DoubleDummy(tricks, 0, ("1NT N =",)))
    conn.close()


@pytest.fixture
def mitchell_event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    make_event(path, mitchell(5, 3))
    return path


def rows(html: str, table: str) -> list[str]:
    """The body rows of the first table of that class, as their text."""
    body = html.split(f'<table class="{table}">', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in body.split("<tr>")[1:]]


def test_a_mitchell_events_rankings_traveller_and_scorecard(mitchell_event: Path) -> None:
    with TestClient(create_app(mitchell_event)) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        html = page.text
        assert "75 of 75 results in" in html and "provisional" not in html
        assert len(rows(html, "ranking")) == 5 and html.count('<table class="ranking">') == 2  # NS and EW fields
        assert '<a href="/pair/A/NS1">NS 1</a><span class="names">Ann Archer - Bob Baker</span>' in html
        assert all(f'href="/board/A/{b}"' in html for b in range(1, 16))
        assert "<link" not in html and "src=" not in html  # nothing fetched from elsewhere

        board = client.get("/board/A/1").text
        assert "Board 1" in board and len(rows(board, "traveller")) == 5
        assert "AKQJ" in board and "Double dummy" in board and "Par NS +0: 1NT by N =" in board

        card = client.get("/pair/A/NS1").text
        assert "Scorecard of NS 1" in card and "Place " in card
        assert '<a href="/player/101">Ann Archer</a> - <a href="/player/117">Bob Baker</a>' in card
        player = client.get("/player/117")
        assert player.status_code == 200 and '<a href="/pair/A/NS1">NS 1</a>' in player.text
        assert client.get("/player/999").status_code == 404
        assert card.count('<table class="traveller">') == 15  # a Mitchell pair plays every board here
        assert client.get("/pair/A/ns-1").status_code == 200  # as a TD would type it

        # The live part alone, as the page's script fetches it: the same figures, no page around them.
        part = client.get("/?part=1").text
        assert "<html" not in part and rows(part, "ranking") == rows(html, "ranking")


def test_a_howell_event_and_one_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "howell.sqlite"
    make_event(path, howell(4, 3), results=30)
    with TestClient(create_app(path)) as client:
        html = client.get("/").text
        assert "30 of 84 results in: provisional" in html
        assert html.count('<table class="ranking">') == 1
        ranked = rows(html, "ranking")
        assert len(ranked) == 8 and all(re.match(r"^\d+=? \d ", r) for r in ranked)
        assert '<a href="/pair/A/1">1</a><span class="names">Ann Archer - Bob Baker</span>' in html
        card = client.get("/pair/A/3")
        assert card.status_code == 200 and "Scorecard of 3" in card.text
        # A board nobody has played yet shows its deal and says so.
        unplayed = client.get("/board/A/1").text
        assert "AKQJ" in unplayed


def test_an_event_with_no_results_yet(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    make_event(path, mitchell(3, 2), results=0)
    with TestClient(create_app(path)) as client:
        html = client.get("/").text
        assert "0 of 18 results in" in html and "No results yet." in html
        assert "No results on this board yet." in client.get("/board/A/2").text


@pytest.mark.parametrize("url", ["/board/A/99", "/board/B/1", "/pair/A/NS99", "/pair/A/XX", "/pair/B/NS1",
                                 "/nothing"])
def test_what_the_event_does_not_have_is_not_found(mitchell_event: Path, url: str) -> None:
    with TestClient(create_app(mitchell_event)) as client:
        assert client.get(url).status_code == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("url", ["/", "/board/A/1", "/pair/A/NS1", "/events"])
def test_nothing_is_writable(mitchell_event: Path, method: str, url: str) -> None:
    before = mitchell_event.read_bytes()
    with TestClient(create_app(mitchell_event)) as client:
        assert client.request(method, url).status_code == 405
    assert mitchell_event.read_bytes() == before


def test_the_pages_connection_cannot_write(mitchell_event: Path) -> None:
    conn = connect_read_only(mitchell_event)
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("DELETE FROM roster")
    conn.close()


@pytest.fixture
def half_event(tmp_path: Path) -> Iterator[tuple[Path, list[object]]]:
    """An event with 40 of its 75 results in, and the rest to come."""
    path = tmp_path / "club.sqlite"
    movement = mitchell(5, 3)
    make_event(path, movement, results=40)
    yield path, list(session_results(movement)[40:])


def test_the_event_stream_says_changed_soon_after_a_result_is_stored(half_event: tuple[Path, list[object]]) -> None:
    path, rest = half_event
    with served(path) as url, httpx.stream("GET", f"{url}/events", timeout=5) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        writer = connect(path)  # as the collector writes: a connection of its own
        ingest(writer, rest[0])  # type: ignore[arg-type]
        stored = time.monotonic()
        writer.close()
        for line in lines:
            if line == "event: changed":
                break
        assert time.monotonic() - stored < 1.0
        assert httpx.get(f"{url}/?part=1").text.count("41 of 75 results in") == 1


def test_a_page_behind_is_told_at_once(half_event: tuple[Path, list[object]]) -> None:
    # A page rendered before a change and connecting its stream after it must still hear of it.
    path, _ = half_event
    with served(path) as url, httpx.stream("GET", f"{url}/events?since=-1", timeout=5) as stream:
        lines = stream.iter_lines()
        assert [next(lines) for _ in range(4)] == ["retry: 1000", "", "event: changed", "data: 0"]



@pytest.mark.parametrize(("args", "message"), [
    (["missing.sqlite"], "no such event file"),
    (["notes.txt"], "not a usable event file"),
    (["club.sqlite", "--listen", "localhost"], "--listen takes HOST:PORT"),
    (["club.sqlite", "--listen", "127.0.0.1:99999"], "--listen takes HOST:PORT"),
    ([], "name the event file"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str) -> None:
    make_event(tmp_path / "club.sqlite", mitchell(3, 2), results=0)
    (tmp_path / "notes.txt").write_text("not an event\n" * 100)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, err = tenace(capsys, "serve", *args)
    finally:
        os.chdir(cwd)
    assert code == 2 and out == "" and err.startswith("tenace serve: ") and message in err
    assert err.count("\n") == 1


def test_an_address_in_use_is_refused(mitchell_event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with served(mitchell_event) as url:
        code, _, err = tenace(capsys, "serve", str(mitchell_event), "--listen", url.removeprefix("http://"))
    assert code == 2 and err.startswith("tenace serve: cannot listen on 127.0.0.1:") and err.count("\n") == 1


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    assert "--listen HOST:PORT" in capsys.readouterr().out


@pytest.mark.slow
def test_the_command_serves_until_interrupted(mitchell_event: Path) -> None:
    tenace_bin = Path(sys.executable).parent / "tenace"
    process = subprocess.Popen([str(tenace_bin), "serve", str(mitchell_event), "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.search(r"on (http://127\.0\.0\.1:\d+/);", first)
        assert found, first
        page = httpx.get(found.group(1), timeout=10)
        assert page.status_code == 200 and "Ann Archer - Bob Baker" in page.text
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    # Ctrl-C as for every command: one line, exit 130, no traceback.
    assert (process.returncode, err) == (130, "tenace serve: interrupted\n")


@pytest.mark.slow
def test_ctrl_c_with_pages_open_stops_without_a_traceback(mitchell_event: Path) -> None:
    """Phones and the console keep the event stream open: Ctrl-C ends those streams rather than have them cancelled
    (an ASGI traceback each)."""
    tenace_bin = Path(sys.executable).parent / "tenace"
    process = subprocess.Popen([str(tenace_bin), "serve", str(mitchell_event), "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    opened = threading.Semaphore(0)

    def page_open(url: str) -> None:
        """A phone's page: its event stream read line by line until the server ends it."""
        with contextlib.suppress(httpx.HTTPError), httpx.stream("GET", f"{url}events", timeout=30) as response:
            for line in response.iter_lines():
                if line.startswith("retry:"):
                    opened.release()
    readers = []
    try:
        assert process.stdout is not None
        found = re.search(r"on (http://127\.0\.0\.1:\d+/);", process.stdout.readline())
        assert found
        readers = [threading.Thread(target=page_open, args=(found.group(1),), daemon=True) for _ in range(3)]
        for reader in readers:
            reader.start()
        for _ in readers:
            assert opened.acquire(timeout=10)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    for reader in readers:
        reader.join(10)
        assert not reader.is_alive()  # the server ended the stream
    assert (process.returncode, err) == (130, "tenace serve: interrupted\n")


def test_the_public_pages_show_the_kind_of_score_not_the_directors_reasons(
        mitchell_event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A director's adjusted score and Law 90 penalty: the pages say what kind of score and which pair, never the
    director's own words; the penalised pair's ranking row says so; the console keeps the reasons."""
    event = str(mitchell_event)
    assert tenace(capsys, "adjust", event, "--board", "2", "--table", "2", "--ns", "A+", "--ew", "A-",
                  "--why", "Law 12: revoke unnoticed", "--who", "TD")[0] == 0
    assert tenace(capsys, "adjust", event, "--pair", "NS 3", "--penalty", "1.5MP", "--why", "Law 90: mobile phone",
                  "--who", "TD")[0] == 0
    with TestClient(create_app(mitchell_event)) as client:
        home, board, card = (client.get(url).text for url in ("/", "/board/A/2", "/pair/A/NS3"))
    for html in (home, board, card):
        assert "mobile phone" not in html and "revoke" not in html
    assert "Law 90 penalty, NS 3: 1.5 MP, by TD" in home and "Law 90 penalty, NS 3: 1.5 MP, by TD" in card
    assert "board 2 table 2: artificial NS A+ / EW A-, adjusted by TD" in board
    penalised = [row for row in rows(home, "ranking") if "NS 3" in row]
    assert penalised and "penalty -1.50 MP" in penalised[0]
    assert not [row for row in rows(home, "ranking") if "NS 1" in row and "penalty" in row]
    code, out, _ = tenace(capsys, "results", event)  # the director's own view keeps the reasons
    assert code == 0 and "Law 90: mobile phone" in out and "Law 12: revoke unnoticed" in out


def test_the_phone_traveller_gives_east_west_their_own_score_and_share(mitchell_event: Path) -> None:
    """Under 30rem the EW columns give way; the score and MP cells then show EW's under NS's (class phone)."""
    with TestClient(create_app(mitchell_event)) as client:
        board = client.get("/board/A/1").text
    body = board.split('<table class="traveller">', 1)[1].split("</table>", 1)[0]
    line = body.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", line, re.S)
    score, mp_ns, mp_ew = cells[6], cells[7], cells[8]
    ns_score = int(re.sub(r"<[^>]+>", "", score.split('<span class="phone ew">')[0]))
    assert f'<span class="phone ew">{-ns_score:+d}</span>' in score
    assert f'<span class="phone ew">{re.sub(r"<[^>]+>", "", mp_ew)}</span>' in mp_ns
    assert "NS/EW" in body.split("</thead>", 1)[0]
    assert ".traveller span.ew { display: block" in board  # shown on a phone only
