"""The main job's simulation calls the director and runs the round clock: a simulated table's call shows on the
director's console within a second of reaching the event file, the simulated director answers it and the table shows
"Director coming"; the round clock reaches "move" on every terminal."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tenace.store import StoreError
from tenace.store.db import connect_read_only
from tenace.store.director_calls import calls
from tenace.web.app import create_app
from tenace.web.console import Director

pytestmark = pytest.mark.slow  # a whole simulated session

PASSWORD = "correct horse battery"
SAME = {"Origin": "http://testserver"}
SMALL = ["--tables", "5", "--boards", "6", "--boards-per-round", "2", "--seed", "3"]


def event_file_ready(path: Path) -> bool:
    """The simulator has made the event file (its schema in place: the console may open it)."""
    if not path.is_file():
        return False
    try:
        conn = connect_read_only(path)
    except (StoreError, sqlite3.Error):  # being made
        return False
    try:
        calls(conn)
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def test_a_simulated_call_is_on_the_console_within_a_second_and_every_table_moves(tmp_path: Path) -> None:
    db = tmp_path / "evening.sqlite"
    sim = subprocess.Popen([sys.executable, "-m", "tenace", "sim", *SMALL, "--workdir", str(tmp_path / "work"),
                            "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not event_file_ready(db):
            assert sim.poll() is None and time.monotonic() < deadline, "the simulator made no event file"
            time.sleep(0.1)
        seen: dict[int, datetime] = {}  # call id -> when the console's live part first showed it
        with TestClient(create_app(db, director=Director(password=PASSWORD), poll_s=0.1)) as client:
            answer = client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD}, headers=SAME,
                                 follow_redirects=False)
            assert answer.status_code == 303
            part = client.get("/director/terminals?part=1")
            generation = part.headers["x-generation"]
            while not seen and sim.poll() is None:
                part = client.get(f"/director/terminals?part=1&since={generation}")  # answers once the file changes
                now = datetime.now(UTC)
                generation = part.headers["x-generation"]
                for found in re.findall(r'id="call-(\d+)"', part.text):
                    seen.setdefault(int(found), now)
        out, err = sim.communicate(timeout=600)
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.communicate()
    assert sim.returncode == 0, out + err
    conn = connect_read_only(db)
    (call,) = calls(conn)
    conn.close()
    assert (call.section, call.table, call.round, call.who) == ("A", 1, 2, "simulated director")
    # On the console within a second of its commit by the collector (the file's change watcher polls every 0.1 s).
    waited = (seen[call.id] - datetime.fromisoformat(call.at)).total_seconds()
    assert 0 <= waited < 1.0, waited
    assert 'section A table 1 called the director in round 2; the director acknowledged it and the table showed ' \
           '"Director coming"' in out
    assert 'the round clock reached "move" on 5 of 5 terminals' in out
    assert out.splitlines()[-1].startswith("accepted=30 stored=30 lost=0 doubled=0 ")
