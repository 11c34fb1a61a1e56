"""`tenace move`: the movement changed from a round on, logged; the results then score on the tables that played;
wrong, missing and absurd input refused with one line, exit 2, nothing recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import mitchell
from tenace.store import connect, create_event, director_log, ingest, missing_results, sign_in

from sample_results import session_results

TD = ("--who", "TD Ana")
MOVEMENT = mitchell(5, 3)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    conn = create_event(path, name="Club", date="2024-05-14", sections={"A": MOVEMENT})
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    conn.close()
    return path


def log_size(path: Path) -> int:
    conn = connect(path)
    try:
        return len(director_log(conn))
    finally:
        conn.close()


def test_a_pair_that_leaves_is_logged_and_the_session_scores_without_its_boards(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = tenace(capsys, "move", str(event), "--leave", "EW 2", "--round", "4", "--why", "went home", *TD)
    assert (code, err) == (0, "")
    assert out.startswith("move: section A EW 2 absent from round 4\n  by TD Ana: went home\n")
    conn = connect(event)
    absent = {(e.table, e.round) for e in MOVEMENT.encounters if e.ew_pair == 2 and e.round >= 4}
    for m in session_results(MOVEMENT):
        if (m.table, m.round) not in absent:
            assert ingest(conn, m).status.value == "stored"
    assert missing_results(conn) == []  # the sit-outs are not missing
    conn.close()
    code, out, err = tenace(capsys, "results", str(event), "--json")
    assert code == 0, err
    report = json.loads(out)["sections"][0]
    assert (report["results_in"], report["expected"], report["complete"]) == (69, 69, True)
    ew2 = [line for line in report["report"]["ranking"] if line["pair"] == "EW 2"]
    # Three rounds of three boards, each scored on a top of 8 (5 tables; the boards EW 2's opponents sat out
    # have 4 results, factored up to the common top).
    assert len(ew2) == 1 and ew2[0]["boards"] == 9
    assert ew2[0]["percent"] == round(ew2[0]["mp"] / (9 * 8) * 100, 2)
    notes = report["report"]["notes"]
    assert "movement changed by TD Ana at " in notes[-1] and notes[-1].endswith(": EW 2 absent from round 4: went home")


@pytest.mark.parametrize(("args", "message"), [
    (("--leave", "EW 2", "--round", "4"), "--why is required"),
    (("--leave", "EW 2", "--why", "x"), "say from which round"),
    (("--round", "4", "--why", "x"), "say what changes"),
    (("--leave", "EW 2", "--close", "3", "--round", "4", "--why", "x"), "not allowed with"),
    (("--leave", "EW 9", "--round", "4", "--why", "x"), "there is no pair EW 9 in section A"),
    (("--leave", "XY 2", "--round", "4", "--why", "x"), "is not a pair"),
    (("--leave", "B-EW 2", "--round", "4", "--why", "x"), "there is no section B"),
    (("--leave", "EW 2", "--round", "99", "--why", "x"), "rounds 1 to 5, not 99"),
    (("--leave", "EW 2", "--round", "-1", "--why", "x"), "rounds 1 to 5, not -1"),
    (("--absent", "EW 2", "--round", "3", "--to", "2", "--why", "x"), "last round must be 3 to 5"),
    (("--leave", "EW 2", "--round", "4", "--to", "5", "--why", "x"), "--to goes with --absent or --present"),
    (("--close", "0", "--round", "2", "--why", "x"), "no table 0"),
    (("--swap", "NS 1", "EW 1", "--round", "2", "--why", "x"), "different fields"),
    (("--swap", "NS 1", "--round", "2", "--why", "x"), "expected 2 arguments"),
    (("--present", "NS 1", "--round", "2", "--why", "x"), "changes nothing"),
])
def test_wrong_moves_are_refused_with_one_line_and_nothing_recorded(
        event: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    code, out, err = tenace(capsys, "move", str(event), *args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("tenace move: ")  # argparse's usage lines come before it
    assert log_size(event) == 0


def test_a_missing_event_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "move", str(tmp_path / "none.sqlite"), "--close", "2", "--round", "2",
                          "--why", "x")
    assert code == 2 and "no such event file" in err


def test_a_half_table_event_and_its_late_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "half.sqlite"
    code, out, err = tenace(capsys, "event", "new", str(path), "--name", "Half", "--tables", "5",
                            "--boards-per-round", "3", "--half-table")
    assert (code, err) == (0, "") and "NS 5 missing (a half table)" in out
    conn = connect(path)
    assert len(missing_results(conn)) == 60  # table 5 sits out every round: 5 x 3 boards fewer
    conn.close()
    code, out, err = tenace(capsys, "move", str(path), "--present", "NS 5", "--round", "3", "--why", "came late")
    assert (code, err) == (0, "") and "changed: table 5 round 3, table 5 round 4, table 5 round 5" in out
    conn = connect(path)
    assert len(missing_results(conn)) == 69
    conn.close()
    code, out, _ = tenace(capsys, "event", "show", str(path))
    assert code == 0 and out.count("sit-out: NS 5 absent") == 2 and "round  3 table  5: NS  5 v EW  3" in out
    code, _, err = tenace(capsys, "event", "new", str(tmp_path / "t.sqlite"), "--name", "T", "--tables",
                          "2", "--boards-per-round", "3", "--half-table")
    assert code == 2 and "nothing to compare" in err
