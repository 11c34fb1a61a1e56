"""The hub's push endpoint on a PostgreSQL started by the test: duplicates acknowledged, altered, foreign and revoked
pushes refused and logged, gaps held back, oversized and flooding clients refused."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from tenace.hub import organiser
from tenace.hub.app import create_app
from tenace.hub.ingest import RATE_LIMIT
from tenace.hub.schema import MIGRATIONS, migrate
from tenace.protocol import wire

from hub_sim import batch, make_sim, slot


@pytest.fixture
def hub(hub_db: str, tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str], str]]:
    tokens = make_sim(hub_db, tmp_path, clubs=2)
    with TestClient(create_app(hub_db)) as client:
        yield client, tokens, hub_db


def post(client: TestClient, token: str, b: wire.Batch | bytes) -> Any:
    body = b if isinstance(b, bytes) else wire.encode(b)
    return client.post(wire.PUSH_PATH, content=body, headers={"Authorization": f"Bearer {token}"})


def rows(url: str, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]  # type: ignore[arg-type]


def test_a_batch_is_applied_and_acknowledged_and_its_duplicate_changes_nothing(hub: Any) -> None:
    client, tokens, url = hub
    b = batch("sim1", "c1", 1, [slot("A", 1, 1, 400), slot("A", 2, 1, -50)])
    r = post(client, tokens["c1"], b)
    assert r.status_code == 200 and wire.decode_ack(r.content) == wire.Ack(2)
    assert rows(url, "SELECT table_no, body->>'ns_score' FROM slots ORDER BY table_no") == [(1, "400"), (2, "-50")]
    # The queue's sequence, not its rows: the scoring worker may take the rows off it at any moment.
    queued = "SELECT last_value FROM pg_sequences WHERE sequencename = 'slot_changes_id_seq'"
    before = rows(url, queued)
    again = post(client, tokens["c1"], b)
    assert again.status_code == 200 and wire.decode_ack(again.content) == wire.Ack(2)
    assert rows(url, queued) == before  # nothing changed: nothing queued to re-score
    assert rows(url, "SELECT count(*) FROM pushes") == [(2,)]


def test_an_altered_push_is_refused_and_logged_with_the_club_and_key_and_nothing_of_its_batch_is_kept(hub: Any) -> None:
    client, tokens, url = hub
    assert post(client, tokens["c1"], batch("sim1", "c1", 1, [slot("A", 1, 1, 400)])).status_code == 200
    altered = batch("sim1", "c1", 1, [slot("A", 1, 1, 430, tricks=10), slot("A", 2, 1, 100)])
    r = post(client, tokens["c1"], altered)
    assert r.status_code == 409
    assert rows(url, "SELECT body->>'ns_score' FROM slots") == [("400",)]
    assert rows(url, "SELECT count(*) FROM pushes") == [(1,)]
    [(club, status, key)] = rows(url, "SELECT club, status, key FROM refusals")
    assert (club, status) == ("c1", 409) and key == '["slot","A",1,1,1,101]'
    # The same key under a new sequence number is refused too: a push is stored once.
    assert post(client, tokens["c1"], wire.Batch("sim1", "c1", (wire.Push(2, 101, slot=slot("A", 1, 1, 400)),))
                ).status_code == 409


def test_a_foreign_push_an_unknown_or_revoked_token_are_refused_and_logged(hub: Any) -> None:
    client, tokens, url = hub
    foreign = post(client, tokens["c1"], batch("sim1", "c2", 1, [slot("A", 1, 1, 400)]))
    assert foreign.status_code == 403
    assert post(client, "not-a-token", batch("sim1", "c1", 1, [slot("A", 1, 1, 400)])).status_code == 401
    assert client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", "c1", 1, [slot("A", 1, 1, 1)]))
                       ).status_code == 401
    with psycopg.connect(url, autocommit=True) as conn:
        organiser.revoke_club(conn, "sim1", "c2")
    assert post(client, tokens["c2"], batch("sim1", "c2", 1, [slot("A", 1, 1, 400)])).status_code == 403
    assert rows(url, "SELECT count(*) FROM slots") == [(0,)]
    # the two of one address in one minute are one row, counted twice
    assert rows(url, "SELECT club, status, sum(count)::int FROM refusals GROUP BY club, status ORDER BY min(id)") == \
        [("c1", 403, 1), (None, 401, 2), ("c2", 403, 1)]


def test_pushes_after_a_gap_wait_until_it_is_filled(hub: Any) -> None:
    client, tokens, url = hub
    r = post(client, tokens["c1"], batch("sim1", "c1", 3, [slot("A", 3, 1, 100)]))
    assert wire.decode_ack(r.content) == wire.Ack(0)
    assert rows(url, "SELECT count(*) FROM slots") == [(0,)]
    r = post(client, tokens["c1"], batch("sim1", "c1", 1, [slot("A", 1, 1, 400), slot("A", 2, 1, 420)]))
    assert wire.decode_ack(r.content) == wire.Ack(3)
    assert rows(url, "SELECT table_no FROM slots ORDER BY 1") == [(1,), (2,), (3,)]
    # A later push of a slot replaces what it held: the slot's state now is what counts.
    post(client, tokens["c1"], batch("sim1", "c1", 4, [slot("A", 1, 1, None)]))
    assert rows(url, "SELECT body->>'state' FROM slots WHERE table_no = 1") == [("none",)]


def test_an_oversized_batch_is_refused_before_it_is_read(hub: Any) -> None:
    client, tokens, url = hub
    big = b"{" + b" " * wire.MAX_BODY_BYTES + b"}"
    assert post(client, tokens["c1"], big).status_code == 413
    # A body whose length is not announced is cut off as soon as it is over the limit.
    chunks = iter([b" " * 600_000, b" " * 600_000, b"{}"])
    r = client.post(wire.PUSH_PATH, content=chunks, headers={"Authorization": f"Bearer {tokens['c1']}"})
    assert r.status_code == 413
    assert [s for (s,) in rows(url, "SELECT status FROM refusals")] == [413, 413]


def test_json_nested_deep_is_refused_400_before_it_is_parsed(hub: Any) -> None:
    client, tokens, url = hub
    r = post(client, tokens["c1"], b"[" * 100_000 + b"]" * 100_000)  # was a 500 with a RecursionError
    assert r.status_code == 400 and r.text == f"a batch nests arrays and objects at most {wire.MAX_DEPTH} deep\n"
    assert rows(url, "SELECT status, club FROM refusals") == [(400, "c1")]


def test_a_flood_of_refusals_is_counted_per_club_and_minute_not_a_row_each(hub: Any,
                                                                            caplog: pytest.LogCaptureFixture) -> None:
    client, tokens, url = hub
    sent = 3 * RATE_LIMIT
    codes = [post(client, tokens["c1"], b"not json").status_code for _ in range(sent)]
    assert set(codes) == {400, 429}
    logged = rows(url, "SELECT status, minute, count, who FROM refusals ORDER BY minute, status")
    assert len(logged) == len({(status, minute) for status, minute, _, _ in logged}) <= 4  # at most two minutes
    assert sum(count for _, _, count, _ in logged) == sent and {who for *_, who in logged} == {"club:sim1/c1"}
    lines = [r for r in caplog.records if r.getMessage().startswith("push refused")]
    assert len(lines) == len(logged)  # the first of each row alone


def test_the_refusals_logged_before_are_counted_so_too(pg_cluster: Any) -> None:
    name = f"t{os.urandom(6).hex()}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE hub_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL "
                     "DEFAULT now())")
        for version, sql in enumerate(MIGRATIONS[:5], start=1):
            conn.execute(sql.encode())
            conn.execute("INSERT INTO hub_migrations (version) VALUES (%s)", (version,))
        conn.execute("INSERT INTO refusals (at, sim, club, address, status, reason) VALUES "
                     "('2026-04-02 19:30:05+00', 's', 'c', 'a', 400, 'one'), "
                     "('2026-04-02 19:30:55+00', 's', 'c', 'b', 400, 'two'), "
                     "('2026-04-02 19:30:56+00', NULL, NULL, 'b', 400, 'three'), "
                     "('2026-04-02 19:31:00+00', 's', 'c', 'a', 400, 'four')")
        migrate(conn)
    assert rows(url, "SELECT who, count, reason FROM refusals ORDER BY id") == [
        ("club:s/c", 2, "two"), ("address:b", 1, "three"), ("club:s/c", 1, "four")]


def test_a_flooding_club_is_refused_429(hub: Any) -> None:
    client, tokens, url = hub
    b = batch("sim1", "c1", 1, [slot("A", 1, 1, 400)])
    # 2 x RATE_LIMIT + 1 requests fall in at most two windows (each well over a second): one of them is over.
    codes = [post(client, tokens["c1"], b).status_code for _ in range(2 * RATE_LIMIT + 1)]
    assert set(codes) == {200, 429} and codes[0] == 200
    assert ("c1", 429) in rows(url, "SELECT club, status FROM refusals")
    assert post(client, tokens["c2"], batch("sim1", "c2", 1, [slot("A", 1, 1, 400)])).status_code == 200


def test_a_played_score_that_is_not_its_contracts_by_law_77_is_refused_and_nothing_of_its_batch_kept(hub: Any) -> None:
    client, tokens, url = hub
    wrong = wire.SlotPush("A", 2, 1, 1, 2, 2, "NS", "EW", "result", "normal", "1C", "N", 7, None, 7600)
    r = post(client, tokens["c1"], batch("sim1", "c1", 1, [slot("A", 1, 1, 400), wrong]))
    assert r.status_code == 422 and r.text.count("\n") == 1
    assert "push 2: 1C by N taking 7 tricks on board 1 scores NS +70 by Law 77, not 7600" in r.text
    assert rows(url, "SELECT count(*) FROM slots") == [(0,)] and rows(url, "SELECT count(*) FROM pushes") == [(0,)]
    assert rows(url, "SELECT club, status, key FROM refusals") == [("c1", 422, '["slot","A",2,1,1,102]')]
    # A contract that cannot be read, or a played result without its tricks, are refused the same way.
    for bad in (wire.SlotPush("A", 2, 1, 1, 2, 2, "NS", "EW", "result", "normal", "8C", "N", 7, None, 70),
                wire.SlotPush("A", 2, 1, 1, 2, 2, "NS", "EW", "result", "normal", "1C", "N", None, None, 70)):
        assert post(client, tokens["c1"], batch("sim1", "c1", 1, [bad])).status_code == 422
    assert rows(url, "SELECT count(*) FROM slots") == [(0,)]


@pytest.mark.parametrize("fields", [
    {"kind": "artificial", "ns_adjust": "ZZ", "ew_adjust": "ZZ"},
    {"kind": "artificial", "ns_adjust": "A+"},
    {"kind": "weighted", "weights": "0.6:420,0.4:-50"},
    {"kind": "weighted", "weights": "1/2:420 1/3:-50"},
    {"kind": "passed_out", "ns_score": 420},
])
def test_an_outcome_the_hub_cannot_read_is_refused_at_the_push_and_never_stored(hub: Any, fields: dict[str, Any]
                                                                                ) -> None:
    client, tokens, url = hub
    bad = wire.SlotPush("A", 2, 1, 1, 2, 2, "NS", "EW", "result", **fields)
    r = post(client, tokens["c2"], batch("sim1", "c2", 1, [slot("A", 1, 1, 400), bad]))
    assert r.status_code == 422 and r.text.count("\n") == 1 and r.text.startswith("push 2: ")
    assert rows(url, "SELECT count(*) FROM slots") == [(0,)] and rows(url, "SELECT count(*) FROM pushes") == [(0,)]
    assert rows(url, "SELECT club, status FROM refusals") == [("c2", 422)]


def test_a_weighted_score_as_the_club_writes_it_is_taken_and_kept_as_its_outcome(hub: Any) -> None:
    client, tokens, url = hub
    weighted = wire.SlotPush("A", 2, 1, 1, 2, 2, "NS", "EW", "result", "weighted", weights="3/5:620 2/5:-100")
    split = wire.SlotPush("A", 3, 1, 1, 3, 3, "NS", "EW", "result", "weighted", weights="1:420", ew_weights="1:-50")
    r = post(client, tokens["c1"], batch("sim1", "c1", 1, [slot("A", 1, 1, 400), weighted, split]))
    assert r.status_code == 200 and wire.decode_ack(r.content) == wire.Ack(3)
    assert rows(url, "SELECT table_no, outcome FROM slots ORDER BY table_no") == [
        (1, "P400"), (2, "W3/5:620 2/5:-100|"), (3, "W1:420|1:-50")]
