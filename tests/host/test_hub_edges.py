"""The hub at its edges: PostgreSQL restarted under a running hub (no 500: a dead pooled connection is replaced);
the national page's own JSON at /api/sim/SIM, as the organiser's guide (docs/organiser.md) promises of every page."""

from __future__ import annotations

import time
from pathlib import Path

from starlette.testclient import TestClient

from tenace.hub.pages import hub_app
from tenace.protocol import wire
from tenace.simulation.cluster import Cluster

from hub_sim import batch, make_sim, slot


def test_a_page_and_a_push_answer_normally_after_postgresql_restarts(hub_db: str, pg_cluster: Cluster,
                                                                      tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=1)
    with TestClient(hub_app(hub_db, scoring=False), raise_server_exceptions=False) as client:
        assert client.get("/api/sim/sim1/national").status_code == 200  # the pool holds a connection now
        pg_cluster.restart()  # which it dropped
        assert client.get("/api/sim/sim1/national").status_code == 200
        r = client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", "c1", 1, [slot("A", 1, 1, 400)])),
                        headers={"Authorization": f"Bearer {tokens['c1']}"})
        assert r.status_code == 200 and wire.decode_ack(r.content) == wire.Ack(1)


def test_the_national_page_has_its_json(hub_db: str, tmp_path: Path) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=2)
    with TestClient(hub_app(hub_db)) as client:
        for club, token in sorted(tokens.items()):
            slots = [slot("A", t, 1, 400 if (t + len(club)) % 2 else -50) for t in (1, 2)]
            assert client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", club, 1, slots)),
                               headers={"Authorization": f"Bearer {token}"}).status_code == 200
        deadline = time.monotonic() + 20
        while len(client.get("/api/sim/sim1/national").json()) < 8 and time.monotonic() < deadline:
            time.sleep(0.1)
        every = client.get("/api/sim/sim1/national").json()
        r = client.get("/api/sim/sim1")  # was 404
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        assert r.json() == {"sim": "sim1", "scoring": "mp", "results": 4, "pairs": 8, "released": False,
                            "club": None, "national": every}
        mine = client.get("/api/sim/sim1?club=c2").json()
        assert mine["club"] == "c2" and mine["national"] == [row for row in every if row["pair"].startswith("c2/")]
        assert client.get("/api/sim/nosuch").status_code == 404
