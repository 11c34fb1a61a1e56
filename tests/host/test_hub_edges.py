"""The hub at its edges: PostgreSQL restarted under a running hub (no 500: a dead pooled connection is replaced)."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from tenace.hub import wire
from tenace.hub.cluster import Cluster
from tenace.hub.pages import hub_app

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
