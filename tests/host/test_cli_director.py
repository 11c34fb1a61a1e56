"""`tenace adjust`, `correct`, `erase`, `resolve`, `finish`: each logged with who, when and why; wrong input refused."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict, current, snapshot

from tenace.store import connect, director_log, publication

TD = ("--who", "TD Ana")



@pytest.fixture
def event(tmp_path: Path) -> Path:
    """4 tables, 2 boards a round, every result in; terminal 9 at table 1 disagrees on board 1 (a conflict)."""
    return club_with_a_conflict(tmp_path / "club.sqlite")


def test_each_action_is_recorded_with_who_when_and_why(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(event)
    steps = [
        (["resolve", db, "--table", "1", "--board", "1", "--keep", "v2", "--why", "EW agree", *TD],
         "resolve: section A table 1 round 1 board 1: v3 replaces v1, v2: 3NT-1 by S: NS -50"),
        (["adjust", db, "--table", "2", "--board", "3", "--ns", "A+", "--ew", "A-", "--why", "fouled", *TD],
         "artificial NS A+ / EW A-"),
        (["adjust", db, "--table", "2", "--board", "4", "--percent", "60/40", "--why", "regulation", *TD],
         "artificial NS 60% / EW 40%"),
        (["adjust", db, "--table", "3", "--board", "5", "--assigned", "+620", "--why", "Law 23", *TD],
         "assigned NS +620"),
        (["adjust", db, "--table", "3", "--board", "6", "--weighted", "0.6:+420,40%:-100", "--why", "12C1c", *TD],
         "weighted NS 3/5:420 2/5:-100"),
        (["adjust", db, "--pair", "NS 2", "--penalty", "25%", "--board", "4", "--why", "slow play", *TD],
         "penalty: section A NS 2: 25% of a top (board 4)"),
        (["correct", db, "--table", "4", "--board", "7", "--contract", "4S", "--by", "N", "--tricks", "=",
          "--why", "wrong declarer", *TD], "correct: section A table 4 round 1 board 7: v2 replaces v1: 4S= by N"),
        (["erase", db, "--table", "4", "--board", "8", "--why", "wrong table", *TD], "v2 replaces v1: erased"),
        # Board 8 at table 4 is erased, so missing: finishing needs --force, and says so in the log.
        (["finish", db, "--force", *TD], "finish: results published; correction period 30 minutes"),
    ]
    for args, says in steps:
        code, out, err = tenace(capsys, *args)
        assert code == 0 and err == "", (args, err)
        assert says in out and "by TD Ana" in out, (args, out)
    assert current(event, 2, 3) == ("artificial", "A+", "A-", None)
    assert current(event, 2, 4) == ("artificial", "60%", "40%", None)
    assert current(event, 3, 5) == ("weighted", None, None, "1:620")
    assert current(event, 3, 6) == ("weighted", None, None, "3/5:420 2/5:-100")
    conn = connect(event)
    log = director_log(conn)
    assert [e.action for e in log] == ["resolve", "adjust", "adjust", "adjust", "adjust", "penalty", "correct",
                                       "erase", "finish"]
    assert all(e.who == "TD Ana" and e.at and e.why and not e.forced for e in log[:-1])
    assert log[-1].forced and log[-1].detail.endswith("; forced with 1 result missing")
    assert publication(conn) is not None
    conn.close()

    code, out, _ = tenace(capsys, "results", db)
    assert "[TD: decided]" in out and "[TD: adjusted]" in out and "[TD: corrected]" in out
    assert "(Law 90 penalty -" in out and "published at" in out
    code, out, _ = tenace(capsys, "problems", db)
    assert "DIRECTOR'S LOG: 9 (finished at" in out and "penalty by TD Ana: section A NS 2" in out
    assert "CONFLICTS: none" in out
    problems = json.loads(tenace(capsys, "problems", "--db", db, "--json")[1])  # --db: EVENT's alias
    assert [e["action"] for e in problems["director_log"]][-1] == "finish"
    assert problems["published"]["correction_minutes"] == 30


def test_the_penalty_comes_off_the_ranking(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tenace(capsys, "resolve", str(event), "--table", "1", "--board", "1", "--keep", "v1", "--why", "NS right")

    def ns2() -> dict[str, object]:
        doc = json.loads(tenace(capsys, "results", str(event), "--json")[1])
        return next(r for r in doc["sections"][0]["report"]["ranking"] if r["pair"] == "NS 2")

    before = ns2()
    code, _, err = tenace(capsys, "adjust", str(event), "--pair", "NS 2", "--penalty", "1.5MP", "--why", "phone")
    assert code == 0, err
    after = ns2()
    assert Decimal(str(before["mp"])) - Decimal(str(after["mp"])) == Decimal("1.5")
    assert after["penalty"] == 1.5 and before["penalty"] is None


@pytest.mark.parametrize(("args", "message"), [
    (["adjust", "--table", "2", "--board", "3", "--ns", "A+", "--ew", "A-"], "--why is required"),
    (["adjust", "--table", "2", "--board", "3", "--ns", "A+", "--ew", "A-", "--why", " "], "--why is required"),
    (["adjust", "--table", "2", "--board", "40", "--ns", "A+", "--ew", "A-", "--why", "x"],
     "there is no board 40 in section A (boards 1-8)"),
    (["adjust", "--table", "2", "--board", "1", "--ns", "A+", "--ew", "A-", "--why", "x"],
     "table 2 does not play board 1 (it plays boards 3-8)"),
    (["adjust", "--table", "9", "--board", "1", "--ns", "A+", "--ew", "A-", "--why", "x"],
     "there is no table 9 in section A (tables 1-4)"),
    (["adjust", "--table", "2", "--board", "3", "--percent", "160/40", "--why", "x"], "NS 160% is over 100%"),
    (["adjust", "--table", "2", "--board", "3", "--ns", "120%", "--ew", "A", "--why", "x"],
     "NS artificial score must be A+, A, A- or a percentage such as 65%, not '120%'"),
    (["adjust", "--table", "2", "--board", "3", "--weighted", "0.6:+420;0.5:-50", "--why", "x"],
     "the weights add up to 1.1, not 1"),
    (["adjust", "--table", "2", "--board", "3", "--weighted", "0.6+420", "--why", "x"],
     "'0.6+420' is not weight:NS score"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+421", "--why", "x"],
     "NS +421 is not a score board 3 can have"),
    (["adjust", "--table", "2", "--board", "3", "--why", "x"], "give one adjusted score"),
    (["adjust", "--table", "2", "--board", "3", "--ew-assigned", "-50", "--why", "x"],
     "--ew-assigned is East-West's side of a split score: give North-South's with --assigned or --weighted"),
    (["adjust", "--table", "2", "--board", "3", "--percent", "60/40", "--ew-weighted", "1:-50", "--why", "x"],
     "--ew-weighted is East-West's side of a split score"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+110", "--ew-assigned", "-50", "--ew-weighted",
      "1:-50", "--why", "x"], "--ew-assigned or --ew-weighted, not both"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+110", "--ew-assigned", "-55", "--why", "x"],
     "NS -55 is not a score board 3 can have"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+110", "--ew-weighted", "0.5:-50", "--why", "x"],
     "--ew-weighted '0.5:-50': the weights add up to 0.5, not 1"),
    (["adjust", "--pair", "NS 2", "--penalty", "10%", "--ew-assigned", "-50", "--why", "x"], "drop --ew-assigned"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+420", "--percent", "60/40", "--why", "x"],
     "not --percent and --assigned"),
    (["adjust", "--pair", "NS 2", "--penalty", "120%", "--why", "x"], "at most 100% of a top, not 120%"),
    (["adjust", "--pair", "NS 9", "--penalty", "10%", "--why", "x"], "there is no pair NS 9 in section A"),
    (["adjust", "--pair", "2", "--penalty", "10%", "--why", "x"], "say the pair's direction, NS 2 or EW 2"),
    (["adjust", "--pair", "NS 2", "--penalty", "ten", "--why", "x"], "a percentage of a top, 25%, or matchpoints"),
    (["correct", "--table", "2", "--board", "3", "--contract", "8S", "--by", "N", "--tricks", "10", "--why", "x"],
     "contract"),
    (["correct", "--table", "2", "--board", "3", "--contract", "4S", "--by", "N", "--tricks", "+4", "--why", "x"],
     "at most +3 on a 4-level contract"),
    (["correct", "--table", "2", "--board", "3", "--contract", "4S", "--why", "x"], "needs its declarer and tricks"),
    (["correct", "--table", "2", "--board", "3", "--why", "x"], "give the right result"),
    (["erase", "--table", "2", "--why", "x"], "say where the result is: --board"),
    (["resolve", "--table", "2", "--board", "3", "--keep", "v1", "--why", "x"], "has no conflict to resolve"),
    (["resolve", "--table", "1", "--board", "1", "--keep", "v7", "--why", "x"], "--keep v7: no such result"),
    (["resolve", "--keep", "999", "--why", "x"], "there is no result with id 999"),
    (["resolve", "--table", "1", "--board", "1", "--why", "x"], "give --keep"),
    (["finish", "--who", "TD"], "1 conflict still stands (resolve them first): --force publishes anyway"),
    (["adjust", "--table", "2", "--board", "3", "--assigned", "+7777", "--why", "x"],
     "--assigned '+7777': not a possible score: no contract scores more than 7600 either way"),
    (["adjust", "--table", "2", "--board", "3", "--weighted", "0.5:+420,0.5:-9000", "--why", "x"],
     "--weighted '0.5:+420,0.5:-9000': not a possible score"),
    (["finish", "--correction-minutes", "-5"], "--correction-minutes is 0 to 10080, not -5"),
])
def test_wrong_input_is_one_line_exit_2_and_nothing_recorded(event: Path, capsys: pytest.CaptureFixture[str],
                                                             args: list[str], message: str) -> None:
    before = snapshot(event)
    code, out, err = tenace(capsys, args[0], str(event), *args[1:])
    assert code == 2 and out == "", (args, out)
    assert err.count("\n") == 1 and err.startswith(f"tenace {args[0]}: ") and message in err, err
    assert snapshot(event) == before


@pytest.mark.slow
def test_every_command_has_help_and_a_missing_why_is_one_line_from_a_shell(event: Path) -> None:
    for command in ("results", "adjust", "correct", "erase", "resolve", "finish"):
        proc = subprocess.run([sys.executable, "-m", "tenace.cli", command, "--help"], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0 and ("examples:" in proc.stdout or "example:" in proc.stdout), command
    proc = subprocess.run([sys.executable, "-m", "tenace.cli", "erase", str(event), "--table", "2", "--board", "3"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "tenace erase: --why is required: say why (it is logged with who and when)\n"


def test_finishing_with_results_missing_names_them_and_needs_force(event: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = str(event)
    assert tenace(capsys, "resolve", db, "--table", "1", "--board", "1", "--keep", "v1", "--why", "x")[0] == 0
    assert tenace(capsys, "erase", db, "--table", "4", "--board", "8", "--why", "wrong table")[0] == 0
    before = snapshot(event)
    code, out, err = tenace(capsys, "finish", db, *TD)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "1 result missing (tenace problems lists them): section A table 4 board 8 (erased): --force" in err, err
    assert snapshot(event) == before and publication(connect(event)) is None
    code, out, err = tenace(capsys, "finish", db, "--force", *TD)
    assert code == 0 and "forced with 1 result missing" in out and "FORCED" in out, out
    assert director_log(connect(event))[-1].forced


def test_finishing_an_empty_session_lists_the_first_missing_results(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.movement import mitchell
    from tenace.store import create_event
    create_event(tmp_path / "empty.sqlite", name="Club", date="2024-05-14", sections={"A": mitchell(4, 2)}).close()
    code, _, err = tenace(capsys, "finish", str(tmp_path / "empty.sqlite"), *TD)
    assert code == 2
    assert ("24 results missing (tenace problems lists them): section A table 1 board 1, table 1 board 2, "
            "table 2 board 3 and 21 more") in err, err
    assert publication(connect(tmp_path / "empty.sqlite")) is None


def test_erasing_an_erased_result_is_refused(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(event)
    assert tenace(capsys, "erase", db, "--table", "4", "--board", "8", "--why", "wrong table", *TD)[0] == 0
    before = snapshot(event)
    code, out, err = tenace(capsys, "erase", db, "--table", "4", "--board", "8", "--why", "again", *TD)
    assert code == 2 and out == ""
    assert err.startswith("tenace erase: section A table 4 round 1 board 8 is erased already (v2, by TD Ana at ")
    assert err.rstrip().endswith("nothing to erase"), err
    assert snapshot(event) == before


def test_one_minute_is_singular(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tenace(capsys, "resolve", str(event), "--table", "1", "--board", "1", "--keep", "v1", "--why", "x")[0] == 0
    code, out, err = tenace(capsys, "finish", str(event), "--correction-minutes", "1", *TD)
    assert code == 0 and "correction period 1 minute, until" in out, (out, err)


def test_a_corrected_lead_is_checked_against_the_hand_record(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.store.hand_records import keep_hand_record
    conn = connect(event)
    # North holds the spades, East the hearts, South the diamonds, West the clubs.
    keep_hand_record(conn, "A", 5, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    conn.close()
    db = str(event)
    where = ("--table", "3", "--board", "5", "--contract", "4S", "--by", "N", "--tricks", "10", "--why", "x")
    before = snapshot(event)
    code, out, err = tenace(capsys, "correct", db, *where, "--lead", "SA")
    assert (code, out) == (2, "") and err == (
        "tenace correct: the opening lead SA is not in East's hand (the leader, declarer North's left-hand opponent) "
        "in board 5's hand record\n"), err
    code, _, err = tenace(capsys, "correct", db, *where, "--lead", "10C")
    assert code == 2 and "the opening lead CT is not in East's hand" in err, err
    assert snapshot(event) == before
    assert tenace(capsys, "correct", db, *where, "--lead", "HT")[0] == 0
    # Board 6 has no hand record: any card goes.
    assert tenace(capsys, "correct", db, "--table", "3", "--board", "6", "--contract", "4S", "--by", "N",
                  "--tricks", "10", "--lead", "SA", "--why", "x")[0] == 0
