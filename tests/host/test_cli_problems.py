"""`tenace event new|show|seat` and `tenace problems` (text and --json) on a session with every kind of problem."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tenace.movement import mitchell
from tenace.store import connect, enter_result, ingest, refuse_frame, sign_in

from sample_results import session_results


def tenace(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TZ": "UTC"}
    return subprocess.run([sys.executable, "-m", "tenace.cli", *args], capture_output=True, text=True,
                          timeout=60, env=env)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """A 5-table event, rounds 1-2 in and one board of round 3, with a conflict, refusals and a correction."""
    path = tmp_path / "club.sqlite"
    proc = tenace("event", "new", str(path), "--name", "Tuesday pairs", "--tables", "5",
                  "--boards-per-round", "3", "--date", "2024-05-14")
    assert proc.returncode == 0, proc.stderr
    assert "Mitchell, 5 tables, 5 rounds of 3 boards" in proc.stdout
    conn = connect(path)
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    messages = session_results(mitchell(5, 3))
    for m in messages[:31]:
        ingest(conn, m)
    ingest(conn, replace(messages[0], sequence=90, contract="3NT", declarer="S", tricks=8, lead=None))
    ingest(conn, replace(messages[1], sequence=91, board=40))
    ingest(conn, replace(messages[1], sequence=92, board=41))
    ingest(conn, replace(messages[1], sequence=93, contract="9S"))
    refuse_frame(conn, "bad_crc", "CRC mismatch", raw=b"\x00\x01")
    ingest(conn, replace(messages[3], sequence=94, revision=1, who="TD Ana", why="revoke, Law 64",
                         kind="normal", contract="4S", declarer="N", tricks=9, lead=None))
    enter_result(conn, "A", 3, 1, 7, who="TD Ana", why="fouled board", kind="artificial",
                 ns_adjust="A+", ew_adjust="A-")
    conn.close()
    return path


@pytest.mark.slow
def test_event_commands_create_show_and_seat(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    assert tenace("event", "new", str(path), "--name", "X", "--tables", "4",
                  "--boards-per-round", "2").returncode == 0
    show = tenace("event", "show", str(path))
    assert show.returncode == 0 and "skip Mitchell, 4 tables, 3 rounds of 2 boards" in show.stdout
    assert "round  1 table  1: NS  1 v EW  1  boards 1 2" in show.stdout
    assert "terminals: none signed in" in show.stdout
    seat = tenace("event", "seat", str(path), "--terminal", "77", "--table", "3")
    assert seat.returncode == 0 and "terminal 77 is at section A table 3" in seat.stdout
    show = tenace("event", "show", str(path))
    assert "terminal 77: section A table 3, signed in " in show.stdout and "last heard never, 0 stored" in show.stdout
    # --db FILE, the older form, is the same as EVENT.
    seat = tenace("event", "seat", "--db", str(path), "--terminal", "78", "--table", "4")
    assert seat.returncode == 0 and "terminal 78 is at section A table 4" in seat.stdout
    alias = tenace("event", "show", "--db", str(path))
    assert alias.returncode == 0 and "terminal 78: section A table 4" in alias.stdout
    for args, message in [
        (["event", "new", str(path), "--name", "X", "--tables", "4", "--boards-per-round", "2"],
         "never overwritten"),
        (["event", "new", str(tmp_path / "f.sqlite"), "--name", "X", "--tables", "1",
          "--boards-per-round", "2"], "at least 2 tables"),
        (["event", "new", str(tmp_path / "g.sqlite"), "--name", "X", "--tables", "3",
          "--boards-per-round", "2", "--date", "14/05/2024"], "YYYY-MM-DD"),
        (["event", "seat", str(path), "--terminal", "7", "--table", "9"], "tables 1 to 4"),
        (["event", "show", str(tmp_path / "none.sqlite")], "no such event file"),
        (["problems", str(tmp_path / "none.sqlite")], "no such event file"),
    ]:
        proc = tenace(*args)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "f.sqlite").exists() and not (tmp_path / "g.sqlite").exists()


@pytest.mark.slow
def test_every_command_has_help() -> None:
    for args in (["event"], ["event", "new"], ["event", "show"], ["event", "seat"], ["problems"]):
        proc = tenace(*args, "--help")
        assert proc.returncode == 0 and "usage: tenace" in proc.stdout
        if args != ["event"]:  # the event file is EVENT, --db its alias
            assert "[EVENT]" in proc.stdout and "--db EVENT" in proc.stdout and "alias of EVENT" in proc.stdout


def test_the_event_file_is_given_once() -> None:
    for args in (["problems"], ["event", "show"], ["event", "seat", "--terminal", "1", "--table", "1"]):
        proc = tenace(*args)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert f"name the event file: tenace {' '.join(args[:2] if args[0] == 'event' else args)} EVENT" in proc.stderr
        proc = tenace(*args, "a.sqlite", "--db", "b.sqlite")
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "the event file given twice (a.sqlite and --db b.sqlite)" in proc.stderr


def test_problems_lists_conflicts_refusals_missing_results_and_corrections(event: Path) -> None:
    proc = tenace("problems", str(event))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Tuesday pairs, 2024-05-14, matchpoints")
    assert "CONFLICTS: 1\n  section A table 1 round 1 board 1: 2 different results" in out
    assert "v2 3NT-1 by S: NS -50  (NS 1 v EW 1; terminal 1 seq 90 at " in out
    assert "REFUSED FRAMES: 4 for 3 reasons\n  wrong_board x2: the board is not played" in out
    assert "terminal 1 seq 92: board 41 is not played at table 1 in round 1 (boards 1, 2, 3)" in out
    assert "bad_crc x1: refused by the collector\n" in out and "unidentified frame: CRC mismatch" in out
    # Rounds 1-2 complete, round 3 under way with one board in; rounds 4-5 not started.
    assert "section A round 3: table 1 boards 8-9; table 2 boards 10-12" in out
    assert "table 3 boards 13-15;" in out and "section A rounds 4-5: not started (30 results to come)" in out
    assert "CORRECTIONS: 2" in out
    assert "section A table 2 round 1 board 4: v2 4S-1 by N: NS -100 replacing v1" in out
    assert "by terminal 2 seq 94 rev 1 (TD Ana) at " in out and ": revoke, Law 64" in out
    assert "section A table 3 round 1 board 7: v2 artificial NS A+ / EW A- replacing v1" in out
    assert "by director TD Ana at " in out and "fouled board" in out


def test_problems_json_holds_the_same_list(event: Path) -> None:
    proc = tenace("problems", str(event), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["event"]["name"] == "Tuesday pairs"
    (conflict,) = data["conflicts"]
    assert conflict["slot"] == {"section": "A", "table": 1, "round": 1, "board": 1}
    assert [r["sequence"] for r in conflict["results"]] == [1, 90]
    assert data["refusals"]["total"] == 4
    assert [(g["reason"], g["count"]) for g in data["refusals"]["by_reason"]] == [
        ("wrong_board", 2), ("bad_contract", 1), ("bad_crc", 1)]
    assert data["missing"]["latest_round"] == {"A": 3} and data["missing"]["total"] == 44
    assert len(data["missing"]["under_way"]) == 14
    assert [c["result"]["why"] for c in data["corrections"]] == ["revoke, Law 64", "fouled board"]
    assert data["corrections"][0]["result"]["ns_score"] == -100 and len(data["corrections"][1]["replaced"]) == 1


def test_problems_on_a_quiet_event_says_none(tmp_path: Path) -> None:
    path = tmp_path / "quiet.sqlite"
    tenace("event", "new", "--db", str(path), "--name", "Quiet", "--tables", "3", "--boards-per-round", "2")
    assert path.exists()  # --db FILE, the older form, is the same as EVENT
    proc = tenace("problems", "--db", str(path))
    assert proc.returncode == 0
    assert "CONFLICTS: none" in proc.stdout and "REFUSED FRAMES: none" in proc.stdout
    assert "section A rounds 1-3: not started (18 results to come)" in proc.stdout
