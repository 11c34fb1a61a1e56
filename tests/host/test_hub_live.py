"""Two hub workers (two `tenace hub serve` processes) on one database: a push taken by either reaches the live
national ranking open on the other, through PostgreSQL's LISTEN/NOTIFY, within 2 s."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tenace.protocol import wire

from hub_sim import batch, make_sim, slot

LIVE_S = 2.0
pytestmark = pytest.mark.slow  # two server processes, or scrypt and a refused login's second


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def workers(hub_db: str, tmp_path: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    tokens = make_sim(hub_db, tmp_path, clubs=2)
    ports = [_free_port(), _free_port()]
    procs = [subprocess.Popen([sys.executable, "-m", "tenace", "hub", "serve", "--host", "127.0.0.1",
                               "--port", str(p)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for p in ports]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        deadline = time.monotonic() + 30
        for base, proc in zip(bases, procs, strict=True):
            while True:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                try:
                    if httpx.get(f"{base}/api/sim/sim1/national", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "a worker did not start"
                time.sleep(0.1)
        yield bases, tokens
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


def _rankings(base: str, club: str) -> Iterator[dict[str, Any]]:
    """The live messages of a page following `club`: the head of the ranking, the counts, the club's own lines."""
    with httpx.Client(timeout=10) as client, client.stream("GET", f"{base}/sim/sim1/live?club={club}") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                yield json.loads(line[6:])


def test_a_push_to_one_worker_shows_live_on_the_others_page_within_2_s(workers: tuple[list[str], dict[str, str]]
                                                                       ) -> None:
    (a, b), tokens = workers
    for pusher, reader, club in ((a, b, "c1"), (b, a, "c2")):
        events = _rankings(reader, club)
        before = next(events)  # the ranking when the page opened
        sent = time.monotonic()
        r = httpx.post(f"{pusher}{wire.PUSH_PATH}", headers={"Authorization": f"Bearer {tokens[club]}"},
                       content=wire.encode(batch("sim1", club, 1, [slot("A", 1, 1, 420), slot("A", 2, 1, -50)])))
        assert r.status_code == 200, r.text
        after = next(events)
        took = time.monotonic() - sent
        mine = after  # the club's own lines come with the whole ranking, stored a moment after the live message
        while not mine["mine"] and time.monotonic() - sent < LIVE_S:
            mine = next(events)
        events.close()
        new = {f"{club}/A1NS", f"{club}/A1EW", f"{club}/A2NS", f"{club}/A2EW"}
        assert {row["pair"] for row in after["rows"]} - {row["pair"] for row in before["rows"]} == new
        assert {row["pair"] for row in mine["mine"]} == new and not before["mine"]
        assert after["clubs"][club] == 2 and club not in before["clubs"]
        assert took < LIVE_S, f"the ranking reached the other worker's page after {took:.2f} s"
