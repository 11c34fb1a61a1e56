"""The organiser's console on the hub is behind a login: nothing of the clubs without it, a wrong password refused,
a release only from a logged-in session's own form."""

from __future__ import annotations

from pathlib import Path

import psycopg
from starlette.testclient import TestClient

from tenace.hub import organiser
from tenace.hub.console import COOKIE
from tenace.hub.pages import hub_app

from hub_sim import make_sim

ORIGIN = {"Origin": "http://testserver"}


def test_the_console_needs_the_organisers_login(hub_db: str, tmp_path: Path) -> None:
    make_sim(hub_db, tmp_path, clubs=2)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.set_organiser(conn, "alice", "correct horse")
    with TestClient(hub_app(hub_db)) as client:
        page = client.get("/console")
        assert "Log in" in page.text and "Club 1" not in page.text
        assert client.post("/console/release", data={"sim": "sim1"}, headers=ORIGIN).status_code == 403
        wrong = client.post("/console/login", data={"login": "alice", "password": "wrong horse"}, headers=ORIGIN)
        assert wrong.status_code == 403 and COOKIE not in client.cookies
        assert client.post("/console/login", data={"login": "alice", "password": "correct horse"}).status_code == 403
        ok = client.post("/console/login", data={"login": "alice", "password": "correct horse"}, headers=ORIGIN)
        assert ok.status_code == 200 and "Club 1" in ok.text and "Embargoed" in ok.text
        # A post without the session's form token is refused; with it, the sim is released.
        assert client.post("/console/release", data={"sim": "sim1"}, headers=ORIGIN).status_code == 403
        csrf = ok.text.split('name="csrf" value="')[1].split('"')[0]
        done = client.post("/console/release", data={"sim": "sim1", "csrf": csrf}, headers=ORIGIN)
        assert done.status_code == 200 and "sim sim1 released" in done.text
    with psycopg.connect(hub_db) as conn:
        row = conn.execute("SELECT released_at IS NOT NULL FROM sims").fetchone()
        assert row is not None and row[0] is True
