"""The event store: schema and migrations, exactly-once ingest, refusals, versions, conflicts, corrections, queries."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from itertools import permutations
from pathlib import Path

import pytest

from tenace.movement import mitchell
from tenace.store import (
    EntryError,
    IncomingResult,
    Kind,
    Status,
    StoreError,
    choose_version,
    conflicts,
    connect,
    corrections,
    create_event,
    current_results,
    enter_result,
    event_info,
    ingest,
    is_ingested,
    missing_results,
    next_host_sequence,
    refusal_groups,
    refusals,
    refuse_frame,
    reserve_host_sequence,
    scoring_rows,
    sign_in,
    terminal_status,
)
from tenace.store.db import migrate, schema_version
from tenace.store.schema import MIGRATIONS

from sample_results import session_results

MOVEMENT = mitchell(5, 3)  # 5 tables, 5 rounds, boards 1-15


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    conn = create_event(tmp_path / "club.sqlite", name="Tuesday pairs", date="2024-05-14", sections={"A": MOVEMENT})
    for table in range(1, 6):
        sign_in(conn, 100 + table, "A", table)
    return conn


def result(**changes: object) -> IncomingResult:
    """Table 2, round 1 of the 5-table Mitchell: NS 2 v EW 2 on boards 4-6; 4S by N, 10 tricks."""
    base = IncomingResult(terminal=102, sequence=1, section="A", table=2, round=1, board=4, ns_pair=2, ew_pair=2,
                          contract="4S", declarer="N", tricks=10, lead="HK")
    return replace(base, **changes)


def count(conn: sqlite3.Connection, table: str) -> int:
    return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_the_event_file_is_wal_with_foreign_keys_and_a_schema_version(db: sqlite3.Connection, tmp_path: Path) -> None:
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema_version() == max(v for v, _ in MIGRATIONS)
    info = event_info(db)
    assert (info.name, info.date, info.scoring) == ("Tuesday pairs", "2024-05-14", "matchpoints")
    assert [(s.name, s.tables, s.rounds, s.boards_per_round) for s in info.sections] == [("A", 5, 5, 3)]
    assert count(db, "encounter") == 25 and count(db, "encounter_board") == 75
    with pytest.raises(StoreError, match="never overwritten"):
        create_event(tmp_path / "club.sqlite", name="again", sections={"A": MOVEMENT})


def test_files_that_are_not_tenace_events_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such event file"):
        connect(tmp_path / "nowhere.sqlite")
    other = tmp_path / "other.sqlite"
    plain = sqlite3.connect(other)
    plain.execute("CREATE TABLE t (x)")
    plain.commit()
    plain.close()
    with pytest.raises(StoreError, match="not a Tenace event"):
        connect(other)
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, just some text long enough to be read as a header" * 10)
    with pytest.raises(StoreError, match="not a usable event file"):
        connect(text)


def test_migrations_bring_an_old_file_up_and_a_newer_file_is_refused(db: sqlite3.Connection, tmp_path: Path) -> None:
    ingest(db, result())
    db.close()
    path = tmp_path / "club.sqlite"
    nxt = schema_version() + 1
    later = (*MIGRATIONS, (nxt, "CREATE TABLE penalty (id INTEGER PRIMARY KEY, pair INTEGER NOT NULL);"))
    conn = connect(path, migrations=later)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == nxt
    assert count(conn, "penalty") == 0 and count(conn, "result") == 1  # data kept
    assert migrate(conn, later) == nxt  # nothing left to do
    conn.close()
    with pytest.raises(StoreError, match="newer than this Tenace"):
        connect(path)


def test_a_failed_migration_leaves_the_file_as_it_was(db: sqlite3.Connection, tmp_path: Path) -> None:
    db.close()
    nxt = schema_version() + 1
    broken = (*MIGRATIONS, (nxt, "CREATE TABLE fine (x); CREATE TABLE event (x);"))  # the second statement fails
    with pytest.raises(StoreError):
        connect(tmp_path / "club.sqlite", migrations=broken)
    conn = connect(tmp_path / "club.sqlite")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    assert conn.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'fine'").fetchone()[0] == 0


def test_a_result_is_stored_with_the_score_recomputed_and_a_duplicate_changes_nothing(db: sqlite3.Connection) -> None:
    first = ingest(db, result(claimed_ns_score=620))
    assert first.status is Status.STORED and first.acknowledge and first.version == 1 and not first.conflict
    (stored,) = current_results(db)
    # Board 4: West deals, both vulnerable: 4S= by North is 620, whatever the terminal might think.
    assert (stored.contract, stored.declarer, stored.tricks, stored.lead, stored.ns_score) == ("4S", "N", 10, "HK", 620)
    before = db.total_changes
    again = ingest(db, result(claimed_ns_score=620))
    assert again.status is Status.DUPLICATE and again.acknowledge and again.result_id == first.result_id
    assert db.total_changes == before
    assert count(db, "result") == 1 and count(db, "frame") == 1


def test_the_terminal_score_claim_is_checked_not_trusted(db: sqlite3.Connection) -> None:
    refused = ingest(db, result(claimed_ns_score=420))
    assert refused.status is Status.REFUSED and refused.reason == "score_mismatch"
    assert "Law 77 gives NS +620" in refused.detail
    assert ingest(db, result(sequence=2, claimed_ns_score=620)).status is Status.STORED


def test_relative_tricks_symbols_and_passed_out_forms_are_normalised(db: sqlite3.Connection) -> None:
    assert ingest(db, result(contract="3nt", declarer="west", tricks="-2", lead="♠10")).status is Status.STORED
    assert ingest(db, result(sequence=2, board=5, contract="pass", declarer=None, tricks=None, lead=None)).status \
        is Status.STORED
    assert ingest(db, result(sequence=3, board=6, kind=Kind.PASSED_OUT, contract=None, declarer=None, tricks=None,
                             lead=None)).status is Status.STORED
    rows = {v.board: v for v in current_results(db)}
    assert (rows[4].contract, rows[4].declarer, rows[4].tricks, rows[4].lead, rows[4].ns_score) == \
        ("3NT", "W", 7, "ST", 200)
    assert (rows[5].kind, rows[5].contract, rows[5].ns_score) == ("passed_out", "Pass", 0)
    assert (rows[6].kind, rows[6].ns_score) == ("passed_out", 0)


@pytest.mark.parametrize(("changes", "reason"), [
    (dict(section="B"), "unknown_section"),
    (dict(terminal=999), "not_signed_in"),
    (dict(terminal=103), "wrong_table"),
    (dict(round=6), "no_such_round"),
    (dict(board=7), "wrong_board"),
    (dict(ew_pair=4), "wrong_pairs"),
    (dict(ns_pair=5, ew_pair=2), "wrong_pairs"),
    (dict(contract="8S"), "bad_contract"),
    (dict(contract=None), "bad_contract"),
    (dict(declarer="Q"), "bad_declarer"),
    (dict(tricks=14), "bad_tricks"),
    (dict(tricks=-1), "bad_tricks"),
    (dict(tricks="+4"), "bad_tricks"),
    (dict(tricks="10"), None),
    (dict(lead="S1"), "bad_lead"),
    (dict(kind="weighted"), "bad_kind"),
    (dict(kind="erased", contract=None, declarer=None, tricks=None, lead=None), None),  # the wire's ERASE
    (dict(revision=16), "bad_revision"),
    (dict(kind="forfeit"), "bad_kind"),
    (dict(kind="passed_out"), "inconsistent"),
    (dict(kind="artificial", contract=None, declarer=None, tricks=None, lead=None, ns_adjust="A+", ew_adjust="60%"),
     "bad_adjustment"),
    (dict(sequence=-1), "bad_identity"),
    (dict(terminal="102"), "bad_identity"),
    (dict(sequence=2**40), "bad_identity"),
    (dict(sequence=65536), "bad_identity"),  # the wire's sequence numbers are 16 bits
    (dict(terminal=65535), "bad_identity"),  # and its terminal ids 1-65534
    (dict(table=True), "bad_table"),
    (dict(board=10**30), "bad_board"),
    (dict(who="x" * 81), "bad_text"),
])
def test_each_field_is_checked_against_the_rules_and_the_movement(
        db: sqlite3.Connection, changes: dict[str, object], reason: str | None) -> None:
    outcome = ingest(db, result(**changes))
    if reason is None:
        assert outcome.status is Status.STORED
        return
    assert outcome.status is Status.REFUSED and outcome.reason == reason and not outcome.acknowledge
    assert count(db, "result") == 0
    (row,) = refusals(db)
    assert row.reason == reason and row.detail == outcome.detail and row.message


def test_a_refusal_is_recorded_once_per_frame_and_a_fixed_event_lets_the_frame_in(db: sqlite3.Connection) -> None:
    early = result(terminal=200, table=2)
    assert ingest(db, early).reason == "not_signed_in"
    repeat = ingest(db, early)
    assert repeat.status is Status.REFUSED and repeat.repeat
    assert len(refusals(db)) == 1
    sign_in(db, 200, "A", 2)  # the TD seats the replacement terminal: the retransmission now goes in
    assert ingest(db, early).status is Status.STORED
    assert ingest(db, early).status is Status.DUPLICATE
    assert [(f["outcome"]) for f in db.execute("SELECT outcome FROM frame ORDER BY id")] == ["refused", "stored"]


def test_a_reused_sequence_number_with_another_result_is_refused_and_the_first_kept(db: sqlite3.Connection) -> None:
    ingest(db, result())
    clash = ingest(db, result(tricks=11))
    assert clash.status is Status.REFUSED and clash.reason == "sequence_reused"
    assert [v.tricks for v in current_results(db)] == [10]
    assert ingest(db, result(tricks=11)).repeat


def test_the_collector_records_frames_it_could_not_decode(db: sqlite3.Connection) -> None:
    refuse_frame(db, "bad_crc", "CRC 0x1234 expected 0xBEEF", terminal=7, sequence=3, raw=b"\x01\x02\xff")
    refuse_frame(db, "bad_tag", "authentication tag does not match", terminal=-5, sequence=2**70)
    rows = refusals(db)
    assert [(r.reason, r.terminal, r.sequence, r.raw_hex) for r in rows] == [
        ("bad_tag", None, None, None), ("bad_crc", 7, 3, "0102ff")]
    assert ingest(db, result(raw=b"\xaa\xbb", board=9)).reason == "wrong_board"
    assert refusals(db)[0].raw_hex == "aabb"


def test_two_different_results_for_one_board_are_both_kept_as_a_conflict(db: sqlite3.Connection) -> None:
    ingest(db, result(), at=datetime(2024, 5, 14, 20, 1, tzinfo=UTC))
    same = ingest(db, result(sequence=2))  # the same result keyed twice: not a conflict
    assert same.status is Status.STORED and not same.conflict
    clash = ingest(db, result(terminal=200, sequence=1, tricks=9), at=datetime(2024, 5, 14, 20, 5, tzinfo=UTC))
    assert clash.status is Status.REFUSED  # terminal 200 is not at this table: no conflict from a stranger
    sign_in(db, 200, "A", 2)
    clash = ingest(db, result(terminal=200, sequence=1, tricks=9), at=datetime(2024, 5, 14, 20, 5, tzinfo=UTC))
    assert clash.status is Status.STORED and clash.conflict and clash.version == 3
    (conflict,) = conflicts(db)
    assert (conflict.slot.table, conflict.slot.board) == (2, 4)
    assert sorted((v.terminal, v.tricks, v.ns_score) for v in conflict.heads) == [
        (102, 10, 620), (102, 10, 620), (200, 9, -100)]
    assert current_results(db) == []  # nothing counts until the TD decides
    assert scoring_rows(db, "A") == {}
    assert not any(m.board == 4 and m.table == 2 for m in missing_results(db))  # a conflict is not "missing"
    decided = choose_version(db, conflict.heads[-1].id, who="TD Ana", why="EW agree it went one down")
    assert decided.version == 4 and not decided.conflict
    assert conflicts(db) == []
    (current,) = current_results(db)
    assert (current.tricks, current.ns_score, current.source, current.who) == (9, -100, "director", "TD Ana")
    (correction,) = corrections(db)
    assert correction.version.why == "EW agree it went one down"
    assert sorted(v.version for v in correction.replaced) == [1, 2, 3]
    assert count(db, "result") == 4  # append-only: every version is still there


def test_a_late_frame_after_the_director_decided_raises_a_new_conflict(db: sqlite3.Connection) -> None:
    ingest(db, result())
    enter_result(db, "A", 2, 1, 4, who="TD", why="revoke: Law 64 transfer", contract="4S", declarer="N", tricks=9)
    late = ingest(db, result(sequence=2, tricks=11))
    assert late.conflict and len(conflicts(db)) == 1


def test_a_correction_from_the_terminal_director_menu_replaces_the_result(db: sqlite3.Connection) -> None:
    ingest(db, result())
    fixed = ingest(db, result(sequence=2, tricks=11, revision=1, who="TD 4"))
    assert fixed.status is Status.STORED and not fixed.conflict and fixed.version == 2
    (current,) = current_results(db)
    assert (current.tricks, current.ns_score, current.who, current.supersedes) == (11, 650, "TD 4", (1,))
    assert current.why == "corrected through the terminal's director menu"
    erased = ingest(db, result(sequence=3, kind="erased", contract=None, declarer=None, tricks=None, lead=None,
                               revision=2, why="wrong board keyed"))
    assert erased.version == 3
    assert current_results(db) == []
    assert any(m.board == 4 and m.table == 2 and m.erased for m in missing_results(db))
    assert [c.version.version for c in corrections(db)] == [2, 3]


def test_adjusted_scores_are_versions_too(db: sqlite3.Connection) -> None:
    enter_result(db, "A", 1, 1, 1, who="TD", why="slow play, no time", kind="not_played")
    enter_result(db, "A", 1, 1, 2, who="TD", why="fouled board", kind="artificial", ns_adjust="A+", ew_adjust="A-")
    enter_result(db, "A", 1, 1, 3, who="TD", why="Law 12C1(c)", kind="weighted",
                 weights=[("3/5", 420), ("2/5", -50)])
    enter_result(db, "A", 2, 1, 4, who="TD", why="regulation", kind="artificial", ns_adjust="65%", ew_adjust="A")
    assert ingest(db, result(kind="artificial", contract=None, declarer=None, tricks=None, lead=None,
                             ns_adjust="A", ew_adjust="A-", sequence=9, board=5)).status is Status.STORED
    rows = scoring_rows(db, "A")
    assert rows[1][0].kind == "not_played" and rows[1][0].ns_score is None
    assert (rows[2][0].ns_adjust, rows[2][0].ew_adjust) == ("A+", "A-")
    assert rows[3][0].weights == "3/5:420 2/5:-50"
    assert (rows[4][0].ns_adjust, rows[4][0].ew_adjust) == ("65%", "A")
    assert (rows[5][0].ns_adjust, rows[5][0].ew_adjust) == ("A", "A-")


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(who="", why="x"), "who"),
    (dict(who="TD", why=""), "why"),
    (dict(who="TD", why="x", kind="weighted", weights=[("1/2", 420)]), "add up to 1"),
    (dict(who="TD", why="x", kind="weighted", weights=[("1/2", 420), ("1/2", 99999)]), "out of range"),
    (dict(who="TD", why="x", kind="artificial", ns_adjust="A+", ew_adjust="150%"), "artificial score"),
    (dict(who="TD", why="x", contract="4S", declarer="N", tricks=14), "out of range 0-13"),
    (dict(who="TD", why="x", board=9), "board 9 is not played"),
])
def test_invalid_director_entries_are_refused_and_nothing_is_recorded(
        db: sqlite3.Connection, kwargs: dict[str, object], message: str) -> None:
    board = kwargs.pop("board", 1)
    with pytest.raises(EntryError, match=message):
        enter_result(db, "A", 1, 1, board, **kwargs)  # type: ignore[arg-type]
    assert count(db, "result") == 0


def test_results_frames_and_refusals_cannot_be_changed_or_deleted(db: sqlite3.Connection) -> None:
    ingest(db, result())
    ingest(db, result(sequence=2, board=9))
    for sql in ("UPDATE result SET tricks = 11", "DELETE FROM result", "UPDATE frame SET seq = 5",
                "DELETE FROM frame", "DELETE FROM refusal", "UPDATE refusal SET reason = 'x'"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(sql)


def test_missing_results_and_terminal_status_follow_the_session(db: sqlite3.Connection) -> None:
    messages = session_results(MOVEMENT, terminal_of=lambda table: 100 + table)
    assert len(messages) == 75
    for m in messages[:30]:  # rounds 1 and 2
        assert ingest(db, m).status is Status.STORED
    missing = missing_results(db)
    assert len(missing) == 45 and {m.round for m in missing} == {3, 4, 5}
    assert missing[0].section == "A" and (missing[0].table, missing[0].board) == (1, 7)
    status = {t.terminal: t for t in terminal_status(db)}
    assert (status[101].table, status[101].last_sequence, status[101].stored, status[101].refused) == (1, 6, 6, 0)
    for m in messages[30:]:
        ingest(db, m)
    assert missing_results(db) == []
    rows = scoring_rows(db, "A")
    assert sorted(rows) == list(range(1, 16)) and all(len(r) == 5 for r in rows.values())
    assert refusal_groups(db) == []


def test_a_terminal_s_revisions_give_the_same_result_in_any_arrival_order(tmp_path: Path) -> None:
    """Radio reorders frames: first entry, correction 1 and correction 2 of one board, in all six orders."""
    entries = [result(sequence=1, tricks=10), result(sequence=2, tricks=11, revision=1),
               result(sequence=3, tricks=9, revision=2)]
    for n, order in enumerate(permutations(entries)):
        conn = create_event(tmp_path / f"order{n}.sqlite", name="Order", sections={"A": MOVEMENT})
        sign_in(conn, 102, "A", 2)
        outcomes = [ingest(conn, m) for m in order]
        assert all(o.status is Status.STORED and not o.conflict for o in outcomes), order
        (current,) = current_results(conn)
        assert (current.revision, current.tricks) == (2, 9), order
        assert conflicts(conn) == []
        assert len(list(conn.execute("SELECT id FROM result"))) == 3  # every entry kept


def test_a_twin_revision_with_another_result_is_a_conflict(db: sqlite3.Connection) -> None:
    ingest(db, result())
    ingest(db, result(sequence=2, revision=1, tricks=11))
    twin = ingest(db, result(sequence=3, revision=1, tricks=8))
    assert twin.conflict and len(conflicts(db)) == 1


def test_what_the_wire_host_session_keeps_in_the_store(db: sqlite3.Connection) -> None:
    assert not is_ingested(db, 102, 1)
    ingest(db, result())
    assert is_ingested(db, 102, 1) and not is_ingested(db, 102, 2) and not is_ingested(db, 101, 1)
    ingest(db, result(sequence=2, board=9))  # refused: not "ingested", the terminal gets the refusal again
    assert not is_ingested(db, 102, 2)
    assert next_host_sequence(db, 102) == 1
    reserve_host_sequence(db, 102, 33)
    reserve_host_sequence(db, 102, 20)  # never lowered
    reserve_host_sequence(db, 999, 65)  # a terminal refused at sign-in still gets answers: numbered too
    assert next_host_sequence(db, 102) == 33 and next_host_sequence(db, 999) == 65
    status = {t.terminal: t for t in terminal_status(db)}
    assert status[102].next_host_sequence == 33 and status[101].next_host_sequence == 1
