"""The club side of a simultaneous event against a real hub on a throwaway PostgreSQL: every result a club stores
reaches the hub once, in order, whatever fails on the way (the hub killed mid-heat, PostgreSQL restarted, a club
offline for a heat, pushes duplicated and reordered, the club's pusher killed), counted against the clubs' files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.collector.hub_push import Pusher, send
from tenace.movement import Movement
from tenace.simulation.clubs import HubProcess, ScriptedClub, batches, count, play, scripted_club
from tenace.simulation.cluster import Cluster
from tenace.store import connect, sign_in
from tenace.store.encounters import stored_movement
from tenace.store.hub_outbox import outbox, sim_link

from hub_sim import make_sim

BOARDS = 16  # a club's evening here: a Mitchell of 4 tables, 3 rounds of 4 boards (of the sim's 16)


@pytest.fixture
def hub(hub_db: str, tmp_path: Path) -> Iterator[HubProcess]:
    process = HubProcess(hub_db, tmp_path / "hub.log")
    process.start()
    yield process
    process.stop()


def clubs(hub: HubProcess, tmp_path: Path, n: int) -> list[ScriptedClub]:
    tokens = make_sim(hub.db_url, tmp_path, n, boards=BOARDS)
    return [scripted_club(tmp_path, club, hub.url, "sim1", token, 4, 4, 3, seed=i)
            for i, (club, token) in enumerate(tokens.items(), start=1)]


def movement_of(db: Path) -> Movement:
    """The movement the event file holds, its tables' terminals signed in."""
    conn = connect(db)
    try:
        movement = stored_movement(conn, "A")
        for table in range(1, movement.tables + 1):
            sign_in(conn, table, "A", table)
        return movement
    finally:
        conn.close()


def drained(club: ScriptedClub, within_s: float = 60.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        conn = connect(club.db)
        try:
            if outbox(conn).queued == 0:
                return
        finally:
            conn.close()
        time.sleep(0.1)
    pytest.fail(f"club {club.club}: its outbox was not drained within {within_s:.0f} s")


def pushers(played: list[ScriptedClub]) -> list[Pusher]:
    out = [Pusher(c.db, idle_s=0.05, backoff_s=(0.05, 0.5)) for c in played]
    for p in out:
        p.start()
    return out


def test_the_cli_links_an_event_shows_its_outbox_and_pushes(hub: HubProcess, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    token = make_sim(hub.db_url, tmp_path, 1, boards=BOARDS)["c1"]
    db = tmp_path / "club.sqlite"
    url = f"{hub.url}/sims/sim1/clubs/c1"
    code, out, err = tenace(capsys, "event", "new", str(db), "--name", "Sim night", "--tables", "4",
                            "--boards-per-round", "4", "--rounds", "3", "--sim", url, "--token", token)
    assert code == 0, err
    assert "linked to sim sim1 as club c1" in out
    club = ScriptedClub("c1", db, movement_of(db), 1)
    play(club, club.results())
    code, out, _ = tenace(capsys, "event", "show", str(db))
    assert code == 0 and "outbox: 48 push(es), 0 acknowledged by the hub, 48 queued" in out
    assert token not in out  # a secret: never printed
    code, out, _ = tenace(capsys, "event", "push", str(db))
    assert code == 0 and out.startswith("the hub holds 48 of 48 push(es)")
    assert count(hub.db_url, "sim1", {"c1": db}).line() == "clubs=1 results=48 stored=48 lost=0 doubled=0"
    code, out, _ = tenace(capsys, "event", "show", str(db))
    assert "48 acknowledged by the hub, 0 queued" in out


def test_one_line_refusals(hub: HubProcess, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    base = ("event", "new", str(db), "--name", "N", "--tables", "4", "--boards-per-round", "3")
    code, _, err = tenace(capsys, *base, "--sim", "ftp://x/sims/a/clubs/b", "--token", "t")
    assert code == 2 and err.count("\n") == 1 and "http://" in err and not db.exists()
    code, _, err = tenace(capsys, *base, "--sim", f"{hub.url}/sims/a/clubs/b")
    assert code == 2 and "give both --sim URL and --token T" in err
    assert tenace(capsys, *base)[0] == 0
    code, _, err = tenace(capsys, "event", "link-sim", str(db), "--sim", f"{hub.url}/sim/a", "--token", "t")
    assert code == 2 and "ends in /sims/SIM/clubs/CLUB" in err
    assert tenace(capsys, "event", "link-sim", str(db), "--sim", f"{hub.url}/sims/a/clubs/b", "--token", "t")[0] == 0
    code, _, err = tenace(capsys, "event", "link-sim", str(db), "--sim", f"{hub.url}/sims/z/clubs/b", "--token", "t")
    assert code == 2 and "linked already as club 'b' of sim 'a'" in err
    code, _, err = tenace(capsys, "event", "push", str(db))  # nothing queued yet: nothing to send
    assert code == 0
    club = ScriptedClub("b", db, movement_of(db), 1)
    play(club, club.results()[:1])
    code, _, err = tenace(capsys, "event", "push", str(db))  # an unknown token: refused, kept queued
    assert code == 2 and err.count("\n") == 1 and "401" in err and "1 push(es) stay queued" in err


def test_the_hub_killed_mid_heat_then_back(hub: HubProcess, tmp_path: Path) -> None:
    played = clubs(hub, tmp_path, 3)
    running = pushers(played)
    try:
        heats = [c.results() for c in played]
        for c, results in zip(played, heats, strict=True):
            play(c, results[:20])
        hub.kill()
        for c, results in zip(played, heats, strict=True):
            play(c, results[20:40])  # the evening goes on: storing never waits for the hub
        conn = connect(played[0].db)
        link = sim_link(conn)
        conn.close()
        assert link is not None
        hub.start()
        for c, results in zip(played, heats, strict=True):
            play(c, results[40:])
        for c in played:
            drained(c)
    finally:
        for p in running:
            p.stop()
    result = count(hub.db_url, "sim1", {c.club: c.db for c in played})
    assert result.line() == "clubs=3 results=144 stored=144 lost=0 doubled=0"


def test_postgresql_restarted_during_the_heat(hub: HubProcess, pg_cluster: Cluster, tmp_path: Path) -> None:
    played = clubs(hub, tmp_path, 2)
    running = pushers(played)
    try:
        heats = [c.results() for c in played]
        for c, results in zip(played, heats, strict=True):
            play(c, results[:24])
        for c in played:
            drained(c)
        assert pg_cluster.process is not None
        pg_cluster.shutdown()  # a fast shutdown, as an administrator's restart
        for c, results in zip(played, heats, strict=True):
            play(c, results[24:36])
        time.sleep(1.0)  # pushes fail meanwhile, and stay queued
        pg_cluster.restart()
        for c, results in zip(played, heats, strict=True):
            play(c, results[36:])
        for c in played:
            drained(c)
    finally:
        for p in running:
            p.stop()
    assert count(hub.db_url, "sim1", {c.club: c.db for c in played}).line() == \
        "clubs=2 results=96 stored=96 lost=0 doubled=0"


def test_a_club_offline_for_a_heat_then_back(hub: HubProcess, tmp_path: Path) -> None:
    played = clubs(hub, tmp_path, 2)
    online = pushers(played[:1])
    try:
        for c in played:
            play(c, c.results())  # club 2's laptop has no network all evening: everything queued in its file
        drained(played[0])
        conn = connect(played[1].db)
        assert outbox(conn).queued == 48
        conn.close()
        back = pushers(played[1:])
        drained(played[1])
        online += back
    finally:
        for p in online:
            p.stop()
    assert count(hub.db_url, "sim1", {c.club: c.db for c in played}).line() == \
        "clubs=2 results=96 stored=96 lost=0 doubled=0"


def test_duplicated_and_reordered_pushes(hub: HubProcess, tmp_path: Path) -> None:
    (club,) = clubs(hub, tmp_path, 1)
    play(club, club.results())
    conn = connect(club.db)
    link = sim_link(conn)
    conn.close()
    assert link is not None
    pushes = [p for chunk in batches(club.db) for p in chunk]
    assert len(pushes) == 48
    parts = [pushes[i:i + 10] for i in range(0, 48, 10)]
    assert send(link, parts[2]).acked == 0  # after a gap: held, not applied
    assert send(link, parts[1]).acked == 0
    assert send(link, parts[0]).acked == 30  # the gap filled: 1-30 applied in order
    assert send(link, parts[0]).acked == 30  # a duplicate: acknowledged, nothing changes
    assert send(link, parts[4]).acked == 30
    assert send(link, parts[3]).acked == 48
    assert send(link, parts[2] + parts[3]).acked == 48
    assert count(hub.db_url, "sim1", {club.club: club.db}).line() == "clubs=1 results=48 stored=48 lost=0 doubled=0"


def test_the_club_laptop_restarted_mid_push(hub: HubProcess, tmp_path: Path) -> None:
    (club,) = clubs(hub, tmp_path, 1)
    play(club, club.results())
    # The pusher in a process of its own (as in tenace collect), killed while it sends, then started again.
    code = ("import sys, time\nfrom pathlib import Path\nfrom tenace.collector.hub_push import Pusher\n"
            "p = Pusher(Path(sys.argv[1]), idle_s=0.05)\np.start()\ntime.sleep(60)\n")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    first = subprocess.Popen([sys.executable, "-c", code, str(club.db)], env=env)
    time.sleep(1.0)
    first.send_signal(signal.SIGKILL)
    first.wait()
    second = subprocess.Popen([sys.executable, "-c", code, str(club.db)], env=env)
    try:
        drained(club)
    finally:
        second.send_signal(signal.SIGKILL)
        second.wait()
    assert count(hub.db_url, "sim1", {club.club: club.db}).line() == "clubs=1 results=48 stored=48 lost=0 doubled=0"
