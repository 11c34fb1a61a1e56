"""A practice event: made from the set-up page, marked as practice on every page and export, and the only kind that
simulated terminals may play into (live, through the collector in `tenace serve`); a real event refuses them in one
line, in the console and on the command line."""

from __future__ import annotations

import html
import re
import time
from contextlib import closing
from pathlib import Path

import pytest
from cli_runner import tenace
from starlette.testclient import TestClient
from test_console_setup import PASSWORD, SAME, created, log_in

from tenace.collector.in_process import Listening
from tenace.movement import mitchell
from tenace.store import create_event, event_info
from tenace.store.db import connect_read_only
from tenace.store.queries import result_count
from tenace.web.app import create_app
from tenace.web.console import Director

PRACTICE = {"name": "Learning night", "date": "2024-05-14", "scoring": "matchpoints", "practice": "on",
            "s1_section": "A", "s1_movement": "mitchell", "s1_tables": "3", "s1_boards": "1", "s1_rounds": "3"}
REFUSED = "is a real event: simulated tables play only into a practice event"


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def csrf_on(client: TestClient, url: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(url).text)
    assert found
    return found[1]


def test_a_practice_event_is_made_on_the_set_up_page_and_marked_on_every_page_and_export(tmp_path: Path) -> None:
    new = tmp_path / "learning.sqlite"
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True, poll_s=0.01)) as client:
        csrf = log_in(client)
        created(client, csrf, **PRACTICE)
        done = text_of(client.get("/director/setup").text)
        assert "'Learning night', a practice event, 2024-05-14" in done
        with closing(connect_read_only(new)) as conn:
            assert event_info(conn).practice and event_info(conn).title == "Learning night (practice)"
        mark = "Practice event: simulated tables may play into it; these are not real results."
        for url in ("/director", "/director/terminals", "/director/grid/A", "/director/publish"):
            assert mark in text_of(client.get(url).text), url
        assert mark in text_of(client.get("/").text) and mark in text_of(client.get("/playing").text)
        # The exports: their names and their own titles.
        pbn = client.get("/director/download/pbn", params={"section": "A", "force": "on"})
        assert pbn.status_code == 200, pbn.text[:300]
        assert 'filename="learning-practice-A.pbn"' in pbn.headers["content-disposition"]
        assert '[Event "Learning night (practice)"]' in pbn.text


def test_the_command_lines_reports_say_practice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "learning.sqlite"
    create_event(path, name="Learning night", sections={"A": mitchell(3, 2)}, practice=True).close()
    code, out, _ = tenace(capsys, "results", str(path))
    assert code == 0 and "Learning night (practice)" in out, out


def test_a_real_event_refuses_simulated_tables_in_the_console_and_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "club.sqlite"
    create_event(real, name="Club night", sections={"A": mitchell(3, 2)}).close()
    listening = Listening(lambda: real)
    with TestClient(create_app(real, director=Director(password=PASSWORD), listening=listening)) as client:
        log_in(client)
        page = client.get("/director/terminals").text
        assert "Play simulated tables" not in page  # not offered
        csrf = csrf_on(client, "/director/terminals")
        answer = client.post("/director/listen/simulate", data={"csrf": csrf, "pace": "brisk"}, headers=SAME)
        assert answer.status_code == 400
        assert f"club.sqlite {REFUSED} (made as one on the console's set-up page)" in text_of(answer.text)
        assert not listening.state().on  # nothing was started for them
    code, _, err = tenace(capsys, "sim", "--event", str(real), "--play-into", "7373")
    assert code == 2 and err.count("\n") == 1 and REFUSED in err, err
    code, _, err = tenace(capsys, "sim", "--play-into", "7373")
    assert code == 2 and "--play-into plays into an event: give --event FILE" in err


@pytest.mark.slow
def test_simulated_tables_play_into_a_practice_event_live(tmp_path: Path) -> None:
    """The practice event's tables played by the real firmware, through the collector the console starts, into the
    event file itself: the grid fills while they play."""
    new = tmp_path / "learning.sqlite"
    listening = Listening(lambda: new)
    app = create_app(new, director=Director(password=PASSWORD), new=True, poll_s=0.05, listening=listening)
    try:
        with TestClient(app) as client:
            csrf = log_in(client)
            created(client, csrf, **PRACTICE)
            csrf = csrf_on(client, "/director/terminals")
            started = client.post("/director/listen/simulate", data={"csrf": csrf, "pace": "brisk"}, headers=SAME)
            assert started.status_code == 200, text_of(started.text)
            page = text_of(started.text)
            assert "The simulated tables are playing (brisk): watch the grid." in page
            assert "The collector is listening: TCP 127.0.0.1:" in page  # started on TCP for them
            deadline = time.monotonic() + 300
            seen_partway = False
            while time.monotonic() < deadline:
                with closing(connect_read_only(new)) as conn:
                    stored = result_count(conn)
                if 0 < stored < 9:
                    grid = client.get("/director/grid/A").text
                    seen_partway = seen_partway or 'class="c entered"' in grid or "c entered" in grid
                terminals = text_of(client.get("/director/terminals").text)
                if "The simulated tables stopped (exit" in terminals:
                    break
                time.sleep(0.5)
            assert "The simulated tables stopped (exit 0)" in terminals, terminals
            assert "accepted=9 stored=9 lost=0 doubled=0" in terminals, terminals
            with closing(connect_read_only(new)) as conn:
                assert result_count(conn) == 9
            assert seen_partway, "the grid never showed the results coming in"
            assert "Nothing missing: the collector is listening and every table has its terminal." in terminals
            # Played once: the same practice event is not played twice (its results are there).
            csrf = csrf_on(client, "/director/terminals")
            again = client.post("/director/listen/simulate", data={"csrf": csrf, "pace": "brisk"}, headers=SAME)
            assert again.status_code == 400 and "holds 9 results already" in text_of(again.text)
    finally:
        listening.stop()
