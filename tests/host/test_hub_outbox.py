"""The club's side of a simultaneous event in its event file: the outbox every stored change is enqueued in, gapless
and in the writer's transaction, and the pushes computed from it (what counts in the slot after each change)."""

from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict

from tenace.protocol import wire
from tenace.store import connect, transaction
from tenace.store.errors import EntryError
from tenace.store.hub_outbox import link_sim, outbox, pending, record_answer, sim_link
from tenace.store.schema import MIGRATIONS

TD = ("--who", "TD Ana")


@pytest.fixture
def event(tmp_path: Path) -> Path:
    return club_with_a_conflict(tmp_path / "club.sqlite")


def test_every_stored_version_is_enqueued_gapless_in_order(event: Path) -> None:
    conn = connect(event)
    results = conn.execute("SELECT count(*) FROM result").fetchone()[0]
    assert outbox(conn).total == results == 25  # 24 results played + terminal 9's disagreeing entry
    seqs = [r[0] for r in conn.execute("SELECT seq FROM hub_outbox ORDER BY seq")]
    assert seqs == list(range(1, results + 1))
    pushes = pending(conn, 0, 1000)
    assert [p.seq for p in pushes] == seqs
    assert [p.version for p in pushes] == [r[0] for r in conn.execute("SELECT id FROM result ORDER BY id")]
    # Terminal 9's entry put board 1 at table 1 in conflict: nothing counts there now.
    last = pushes[-1]
    assert last.slot is not None and last.slot.state == "none" and (last.slot.table, last.slot.board) == (1, 1)
    first = pushes[0]
    assert first.slot is not None and first.slot.state == "result" and first.slot.ns_field == "NS"
    assert first.slot.kind == "normal" and first.slot.ns_score is not None
    # What travels is wire's: every push round-trips through the JSON the hub decodes.
    batch = wire.Batch("spring", "c1", tuple(pushes[:wire.MAX_PUSHES]))
    assert wire.decode(wire.encode(batch)) == batch
    conn.close()


def test_a_resend_is_the_same_push_and_director_actions_and_penalties_are_enqueued(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = connect(event)
    before = pending(conn, 0, 1000)
    conn.close()
    assert tenace(capsys, "resolve", str(event), "--table", "1", "--board", "1", "--keep", "v1", "--why", "NS",
                  *TD)[0] == 0
    assert tenace(capsys, "adjust", str(event), "--pair", "NS 2", "--penalty", "25%", "--board", "4",
                  "--why", "slow play", *TD)[0] == 0
    assert tenace(capsys, "erase", str(event), "--table", "4", "--board", "8", "--why", "wrong table", *TD)[0] == 0
    conn = connect(event)
    after = pending(conn, 0, 1000)
    assert after[:len(before)] == before  # computed once and kept: the same digests on every resend
    assert [p.digest() for p in after[:len(before)]] == [p.digest() for p in before]
    resolved, penalty, erased = after[len(before):]
    assert resolved.slot is not None and resolved.slot.state == "result" and resolved.slot.board == 1
    assert penalty.penalty == wire.PenaltyPush("A", 2, "NS", "25", "%top", 4)
    assert erased.slot is not None and erased.slot.state == "none" and erased.slot.board == 8
    assert len({p.key for p in after}) == len(after)
    conn.close()


def test_a_rolled_back_write_leaves_no_entry_and_the_outbox_is_append_only(event: Path) -> None:
    conn = connect(event)
    total = outbox(conn).total
    with pytest.raises(RuntimeError), transaction(conn):
        conn.execute("INSERT INTO result (section, table_no, round, board, version, ns_pair, ew_pair, kind, source,"
                     " who, at) VALUES ('A', 1, 1, 1, 9, 1, 1, 'not_played', 'director', 'x', 'now')")
        assert outbox(conn).total == total + 1  # in the writer's own transaction
        raise RuntimeError("the writer fails")
    assert outbox(conn).total == total
    pending(conn, 0, 5)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM hub_outbox WHERE seq = 3")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE hub_outbox SET push = '{}' WHERE seq = 1")
    conn.close()


def test_the_link_and_the_acknowledged_number(event: Path) -> None:
    conn = connect(event)
    assert sim_link(conn) is None and outbox(conn).acked == 0
    link_sim(conn, "http://127.0.0.1:1", "spring", "c1", "secret")
    record_answer(conn, 12)
    assert outbox(conn).acked == 12 and outbox(conn).queued == 13
    link_sim(conn, "http://127.0.0.1:2", "spring", "c1", "new-secret")  # a new address or token keeps the ack
    link = sim_link(conn)
    assert link is not None and (link.hub, link.token, link.acked) == ("http://127.0.0.1:2", "new-secret", 12)
    with pytest.raises(EntryError, match="linked already as club 'c1' of sim 'spring'"):
        link_sim(conn, "http://127.0.0.1:2", "autumn", "c1", "secret")
    record_answer(conn, None, "hub unreachable")
    link = sim_link(conn)
    assert link is not None and link.last_error == "hub unreachable" and link.acked == 12
    conn.close()


def test_a_file_made_before_the_outbox_enqueues_what_it_holds_when_migrated(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tenace.store.event.connect", partial(connect, migrations=MIGRATIONS[:13]))
    path = club_with_a_conflict(tmp_path / "old.sqlite")
    monkeypatch.undo()
    old = sqlite3.connect(path)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 13
    old.close()
    conn = connect(path)  # migrates it
    ids = [r[0] for r in conn.execute("SELECT id FROM result ORDER BY id")]
    assert [p.version for p in pending(conn, 0, 1000)] == ids and outbox(conn).total == len(ids) == 25
    conn.close()


def test_a_redoubled_grand_slam_in_no_trumps_travels() -> None:
    push = wire.Push(1, 1, slot=wire.SlotPush("A", 1, 1, 1, 1, 1, "NS", "EW", "result", "normal", "7NTXX", "N", 13,
                                              None, 2980))
    batch = wire.Batch("s", "c", (push,))
    assert wire.decode(wire.encode(batch)) == batch
