"""The embargo: before the organiser releases the sim, no route of the hub (pages, JSON, live events, the PBN and USEBIO
exports) shows a deal's cards or a pushed contract; after release the same scan finds them (so it can see them)."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from tenace.hub import organiser
from tenace.hub.pages import hub_app
from tenace.protocol import wire
from tenace.scoring.model import Played

from hub_sim import batch, make_sim, write_hand_records

CONTRACTS = ("6NTX", "4HXX", "5CX", "7SX")  # none of them text a page could show by chance


def _urls(app: Starlette, sim: str, pairs: list[str]) -> list[str]:
    """Every route's URL, each parameter given each value it can take here; a route with a parameter this test
    does not know fails it (a new route is scanned too)."""
    values = {"sim": [sim], "club": ["c1", "c2", "c3"], "pair": pairs, "board": ["1", "2", "3", "4"]}
    urls = []
    for route in app.routes:
        assert isinstance(route, Route)
        if "GET" not in (route.methods or ()):
            continue
        paths = [route.path]
        for name in route.param_convertors:
            assert name in values, f"{route.path}: the embargo test does not know {{{name}}}"
            paths = [p.replace("{" + name + (":path" if name == "pair" else ":int" if name == "board" else "") + "}",
                               v) for p in paths for v in values[name]]
        urls += paths
    return urls


def _read(client: TestClient, url: str) -> str:
    if url.endswith("/live"):
        with client.stream("GET", url) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    return line
        return ""
    return client.get(url).text


def test_nothing_of_a_board_leaks_before_release(hub_db: str, tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=3)
    deals = write_hand_records(tmp_path / "again.pbn", 4)  # the same seed: the sim's deals
    hands = [hand for deal in deals for hand in deal[2:].split()]
    # A hand as a USEBIO file holds it: a suit's cards in an element of its own (the export.xml routes).
    suits = [f"<{tag}>{cards}</{tag}>" for hand in hands
             for tag, cards in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), hand.split("."), strict=True)]
    app = hub_app(hub_db)
    with TestClient(app) as client:
        for n, (club, token) in enumerate(sorted(tokens.items())):
            slots = [wire.SlotPush("A", t, 1, b, t, t, "NS", "EW", "result", "normal", CONTRACTS[(b + t + n) % 4],
                                   "S", 9, None, Played.from_contract(CONTRACTS[(b + t + n) % 4], "S", 9, b).ns_score)
                     for b in range(1, 5) for t in (1, 2)]
            assert client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", club, 1, slots)),
                               headers={"Authorization": f"Bearer {token}"}).status_code == 200
        deadline = time.monotonic() + 20
        while len(client.get("/api/sim/sim1/national").json()) < 12 and time.monotonic() < deadline:
            time.sleep(0.1)
        pairs = [r["pair"] for r in client.get("/api/sim/sim1/national").json()]
        assert len(pairs) == 12
        urls = _urls(app, "sim1", pairs)
        assert "/sim/sim1/live" in urls and "/console" in urls

        def leaks() -> list[str]:
            found = []
            for url in urls:
                text = _read(client, url)
                found += [f"{url}: {needle}" for needle in (*hands, *suits, *CONTRACTS) if needle in text]
            return found

        assert leaks() == []
        with psycopg.connect(hub_db, autocommit=True) as conn:
            organiser.release(conn, "sim1")
        time.sleep(0.5)
        released = leaks()
        assert any("/board/1" in line for line in released) and any("export.pbn" in line for line in released)
        assert all(hand in "".join(released) for hand in hands)
        # The USEBIO exports, the field's and each club's, are scanned too: after release they show the cards and
        # the contracts the scan looks for, so before it the scan would have seen them.
        for url in ("/sim/sim1/export.xml", "/sim/sim1/club/c1/export.xml", "/sim/sim1/club/c3/export.xml"):
            assert url in urls
            shown = "".join(line for line in released if line.startswith(f"{url}: "))
            assert all(contract in shown for contract in CONTRACTS), url
            assert url != "/sim/sim1/export.xml" or all(suit in shown for suit in suits)
