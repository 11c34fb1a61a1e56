"""The event file as evidence: a result read back is checked again, every change is chained, `tenace check` names
what was edited outside Tenace."""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from pathlib import Path

import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict

from tenace.movement import mitchell
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.db import schema_version
from tenace.store.ledger import head
from tenace.store.schema import MIGRATIONS

from sample_results import session_results


@pytest.fixture
def event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """4 tables, 2 boards a round, every result in, the conflict resolved and a penalty given."""
    path = club_with_a_conflict(tmp_path / "club.sqlite")
    resolved = tenace(capsys, "resolve", str(path), "--table", "1", "--board", "1", "--keep", "v1", "--why", "NS right")
    assert resolved[0] == 0
    assert tenace(capsys, "adjust", str(path), "--pair", "NS 2", "--penalty", "1MP", "--why", "slow")[0] == 0
    return path


def outside(path: Path, sql: str) -> None:
    """An edit made with sqlite3, outside Tenace (it must drop the triggers that stand in its way)."""
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.close()


def result_id(path: Path, table: int, board: int) -> int:
    conn = connect(path)
    found = conn.execute("SELECT max(id) FROM result WHERE table_no = ? AND board = ?", (table, board)).fetchone()[0]
    conn.close()
    return int(found)


def test_a_sound_file_is_one_line_and_exit_0(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = tenace(capsys, "check", str(event))
    assert code == 0 and err == ""
    sound = f": sound: schema {schema_version()}, 24 results that count (26 versions), a chain of"
    assert out.count("\n") == 1 and sound in out


def test_an_edit_with_sqlite3_is_named_row_and_field(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = result_id(event, 3, 5)
    outside(event, f"DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                   f"UPDATE result SET ns_score = 214, lead = 'HA' WHERE id = {rid};")
    code, out, _ = tenace(capsys, "check", str(event))
    assert code == 1
    lines = out.splitlines()
    assert f"{event}: the trigger result_append_only_u is missing from the schema (dropped outside Tenace)" in lines
    assert (f"{event}: result {rid} (section A table 3 round 1 board 5, v1): NS score 214 is not the Law 77 score "
            "of 4DX by N, 10 tricks (NS +710)") in lines
    assert f"{event}: changed outside Tenace: result {rid}: ns_score is 214, chained as 710" in lines
    assert f"{event}: changed outside Tenace: result {rid}: lead is 'HA', chained as 'S3'" in lines
    assert not any("sound" in line for line in lines)


def test_rows_added_and_deleted_behind_tenaces_back_are_named(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside(event, "DROP TRIGGER director_action_append_only_d; DROP TRIGGER director_action_chained_d;"
                   "DROP TRIGGER pair_penalty_append_only_d; DROP TRIGGER pair_penalty_chained_d;"
                   "DELETE FROM pair_penalty; DELETE FROM director_action WHERE action = 'penalty';"
                   "DROP TRIGGER roster_chained_i; INSERT INTO roster (number, name) VALUES (77, 'Nobody');")
    code, out, _ = tenace(capsys, "check", str(event))
    assert code == 1
    assert "changed outside Tenace: pair_penalty 2: was chained and is no longer in the file" in out
    assert "changed outside Tenace: director_action 2: was chained and is no longer in the file" in out
    assert "changed outside Tenace: roster 77: is in no entry of the chain: it was added outside Tenace" in out


def test_a_chain_edited_to_match_breaks_at_that_entry(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(event)
    entry, content = conn.execute(
        "SELECT id, content FROM ledger WHERE source = 'result' ORDER BY id LIMIT 1").fetchone()
    conn.close()
    outside(event, "DROP TRIGGER ledger_append_only_u; DROP TRIGGER result_append_only_u; "
                   "DROP TRIGGER result_chained_u; UPDATE result SET who = 'forger' WHERE id = 1; "
                   f"UPDATE ledger SET content = replace(content, '\"terminal 1\"', '\"forger\"') WHERE id = {entry};")
    assert "terminal 1" in content
    code, out, _ = tenace(capsys, "check", str(event))
    assert code == 1
    assert f"changed outside Tenace: ledger {entry}: the digest of the entry for result [1] does not follow" in out
    assert "result 1: who" not in out  # the row matches its (forged) content: the chain is what gives it away


def test_a_damaged_result_never_counts_and_is_named_everywhere(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = json.loads(tenace(capsys, "results", str(event), "--json")[1])["sections"][0]
    rid = result_id(event, 3, 5)
    outside(event, f"DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                   f"UPDATE result SET ns_score = 214 WHERE id = {rid};")
    after = json.loads(tenace(capsys, "results", str(event), "--json")[1])["sections"][0]
    assert after["results_in"] == before["results_in"] - 1 and not after["complete"]
    board5 = next(b for b in after["report"]["boards"] if b["board"] == 5)
    assert all(line["table"] != 3 for line in board5["lines"])
    assert any("board 5 table 3 round 1: a damaged result in the event file, not scored (NS score 214 is not the "
               "Law 77 score of 4DX by N, 10 tricks (NS +710))" in n for n in after["report"]["notes"])
    code, out, _ = tenace(capsys, "problems", "--db", str(event))
    assert code == 0 and "DAMAGED RESULTS: 1:" in out
    assert f"section A table 3 round 1 board 5: v1 (result id {rid}): NS score 214 is not the Law 77 score" in out
    problems = json.loads(tenace(capsys, "problems", "--db", str(event), "--json")[1])
    assert [(d["result_id"], d["counts_now"]) for d in problems["damaged"]] == [(rid, False)]
    # Not published with it, unless forced (then it is left out, and said so).
    target = event.with_name("A.pbn")
    code, _, err = tenace(capsys, "report", str(event), "--pbn", str(target))
    assert code == 2 and "the event file holds 1 damaged result (tenace check names them)" in err
    assert not target.exists()
    code, _, err = tenace(capsys, "report", str(event), "--pbn", str(target), "--force")
    assert code == 0 and "published without them (--force)" in err and target.is_file()
    # The director enters the board again: it counts, the damaged version stays as evidence.
    assert tenace(capsys, "correct", str(event), "--table", "3", "--board", "5", "--contract", "4DX", "--by", "N",
                  "--tricks", "10", "--why", "the file was damaged")[0] == 0
    fixed = json.loads(tenace(capsys, "results", str(event), "--json")[1])["sections"][0]
    assert fixed["results_in"] == before["results_in"]


@pytest.mark.parametrize("column, value, says", [
    ("contract", "X'334E54'", "contract must be text such as 4SX or Pass, not b'3NT'"),
    ("kind", "'normal2'", "kind of result must be one of"),
    ("tricks", "'ten'", "result 'ten': give =, +n, -n or the total tricks 0 to 13"),
    ("declarer", "'Q'", "declarer"),
    ("lead", "'SX'", "opening lead must be a card"),
    ("board", "2", "board 2 is not played at table 3 in round 1"),
    ("ns_pair", "2", "the pairs NS 2 v EW 3 are not the movement's (NS 3 v EW 3)"),
    ("who", "X'00'", "who must be text"),
    ("version", "-1", "version -1 is out of range"),
])
def test_each_kind_of_damage_is_named_not_an_internal_error(event: Path, capsys: pytest.CaptureFixture[str],
                                                             column: str, value: str, says: str) -> None:
    rid = result_id(event, 3, 5)
    outside(event, f"PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF;"
                   f"DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                   f"UPDATE result SET {column} = {value} WHERE id = {rid};")
    for command in ("results", "problems --db", "check"):
        code, _, err = tenace(capsys, *command.split(), str(event))
        assert "internal error" not in err and code in (0, 1), (command, err)
    code, out, _ = tenace(capsys, "check", str(event))
    assert f"result {rid} (section A table 3 round 1 board" in out
    assert code == 1 and says in out, out


def test_an_old_file_is_chained_from_its_state_when_migrated(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite"
    # A file of the Tenace before the chain (schema version 12), with a session's results in it.
    monkeypatch.setattr("tenace.store.event.connect", partial(connect, migrations=MIGRATIONS[:12]))
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": mitchell(3, 2)})
    monkeypatch.undo()
    for table in range(1, 4):
        sign_in(conn, table, "A", table)
    for message in session_results(mitchell(3, 2)):
        ingest(conn, message)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 12
    results = conn.execute("SELECT count(*) FROM result").fetchone()[0]
    conn.close()
    code, out, _ = tenace(capsys, "check", str(path))  # opening it migrates it, and chains what it holds
    assert code == 0 and f"{results} results that count" in out, out
    conn = connect(path)
    assert conn.execute("SELECT count(*) FROM ledger WHERE source = 'result'").fetchone()[0] == results
    conn.close()


def test_the_published_head_is_found_and_what_came_after(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = connect(event)
    published = head(conn)
    conn.close()
    code, out, _ = tenace(capsys, "check", str(event), "--head", published[:16])
    assert code == 0 and f"the chain holds {published[:16]}: the latest change" in out
    tenace(capsys, "erase", str(event), "--table", "2", "--board", "3", "--why", "wrong table")
    code, out, _ = tenace(capsys, "check", str(event), "--head", published)
    assert code == 0 and "changes made after it" in out
    code, out, _ = tenace(capsys, "check", str(event), "--head", "0" * 16)
    assert code == 1 and "the chain does not hold 0000000000000000" in out


@pytest.mark.parametrize("args, says", [
    ([], "name the event file"),
    (["--head", "xyz"], "a chain head is 12 to 64 hexadecimal digits"),
    (["--head", ""], "a chain head is 12 to 64 hexadecimal digits"),
])
def test_wrong_input_is_one_line_exit_2(event: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                        says: str) -> None:
    argv = ["check", *([] if not args or args[0] != "--head" else [str(event)]), *args]
    code, _, err = tenace(capsys, *argv)
    assert code == 2 and says in err and err.count("\n") == 1


def test_no_event_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in (tmp_path / "none.sqlite", tmp_path):
        code, _, err = tenace(capsys, "check", str(path))
        assert code == 2 and err.count("\n") == 1
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).executescript("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
    code, _, err = tenace(capsys, "check", str(other))
    assert code == 2 and "not a Tenace event file" in err


def test_a_cut_event_file_is_damaged_and_a_text_file_no_event_file(event: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(event.read_bytes()[:50_000])
    code, out, _ = tenace(capsys, "check", str(cut))
    assert code == 1 and out == f"{cut}: damaged: not a usable event file: database disk image is malformed\n"
    text = tmp_path / "notes.sqlite"
    text.write_text("not an event\n" * 100)
    code, out, err = tenace(capsys, "check", str(text))
    assert code == 2 and out == "" and "file is not a database" in err and err.count("\n") == 1


def test_finishing_with_a_damaged_result_needs_force(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = result_id(event, 3, 5)
    outside(event, f"DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                   f"UPDATE result SET ns_score = 214 WHERE id = {rid};")
    code, _, err = tenace(capsys, "finish", str(event))
    assert code == 2 and "1 damaged result in the event file (tenace check names them; enter them again)" in err
    code, out, _ = tenace(capsys, "finish", str(event), "--force")
    assert code == 0 and "forced with 1 damaged result left out" in out
