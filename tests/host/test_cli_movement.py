"""`tenace movement show|check`: what the director sees, the JSON round trip, exit codes 0, 1 and 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_runner import run

from tenace.movement import howell, mitchell
from tenace.movement.serial import movement_to_json


def test_show_prints_round_by_round_who_plays_which_boards_where(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["movement", "show", "mitchell", "--tables", "3", "--boards-per-round", "2"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Mitchell, 3 tables, 3 rounds of 2 boards"
    assert lines[2] == "round 1" and lines.count("round 3") == 1
    # Round 2: EW moved up one table, boards down one.
    assert re.fullmatch(r"\s+1\s+NS 1\s+EW 3\s+3-4", lines[7]), lines[7]


@pytest.mark.parametrize("argv", [
    ["mitchell", "--tables", "7"], ["mitchell", "--tables", "8"], ["skip-mitchell", "--tables", "10"],
    ["relay-mitchell", "--tables", "8"], ["appendix-mitchell", "--tables", "10"],
    ["appendix-mitchell", "--tables", "7", "--arrow-switch", "last"],
    ["duplicated-mitchell", "--tables", "5", "--rounds", "4"],
    ["mitchell", "--tables", "9", "--half-table", "--arrow-switch", "last"], ["mitchell", "--tables", "9",
                                                                             "--rounds", "6"],
    ["howell", "--tables", "3"], ["howell", "--tables", "10", "--boards-per-round", "2"],
    ["howell", "--tables", "7", "--rounds", "9", "--half-table"], ["teams"], ["teams", "--boards-per-round", "12",
                                                                              "--rounds", "2"],
])
def test_every_kind_checks_clean_and_survives_its_json(argv: list[str], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["movement", "check", *argv], capsys)
    assert (code, err) == (0, ""), err
    assert ": no rule broken" in out.splitlines()[0] and "observations:" in out
    code, shown, _ = run(["movement", "show", *argv, "--json"], capsys)
    assert code == 0
    path = tmp_path / "m.json"
    path.write_text(shown, encoding="utf-8")
    code, again, err = run(["movement", "check", "--file", str(path)], capsys)
    assert (code, again, err) == (0, out, "")  # the file checks exactly as the generated movement did
    assert run(["movement", "show", "--file", str(path), "--json"], capsys)[1] == shown


def test_check_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["movement", "check", "howell", "--tables", "4", "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["errors"] == []
    assert len(report["meetings"]) == 28 and {m["times"] for m in report["meetings"]} == {1}
    assert report["balance"]["balanced"] in (True, False) and len(report["pairs"]) == 8


def broken_file(tmp_path: Path, how: str) -> Path:
    data = movement_to_json(mitchell(5, 2) if how != "missing board" else howell(5, 3))
    tables = data["plan"][1]["tables"]
    if how == "board twice":  # table 3, round 2 plays its round 1 boards again
        tables[2]["boards"] = data["plan"][0]["tables"][2]["boards"]
    else:  # a board left off a table
        tables[1]["boards"] = tables[1]["boards"][:2]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("how", "rules"), [("board twice", ["board-clash", "board-twice"]),
                                            ("missing board", ["layout", "split-set"])])
def test_a_broken_movement_exits_1_naming_the_rule(how: str, rules: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_file(tmp_path, how)
    code, out, err = run(["movement", "check", "--file", str(path)], capsys)
    assert (code, err) == (1, "")
    assert out.splitlines()[0].endswith(f"broken: {', '.join(rules)}")
    errors = out.split("errors:\n")[1].split("observations:")[0]
    for rule in rules:
        assert f"  {rule}: " in errors, out
    if how == "board twice":
        assert "  board-twice: NS 3 plays boards 5-6 twice (table 3 in round 1; table 3 in round 2)" in errors
    code, out, _ = run(["movement", "check", "--file", str(path), "--json"], capsys)
    assert code == 1 and sorted({e["rule"] for e in json.loads(out)["errors"]}) == sorted(rules)


BAD = [
    ("movement show howell --tables 11", "--tables: a Howell is for 3 to 10 tables, not 11 (play a Mitchell)"),
    ("movement show howell --tables 2", "--tables: a Howell is for 3 to 10 tables, not 2"),
    ("movement show mitchell --tables 0", "--tables: a Mitchell needs at least 2 tables, not 0"),
    ("movement check mitchell --tables 1", "--tables: a Mitchell needs at least 2 tables, not 1"),
    ("movement show mitchell --tables 100 --boards-per-round 18", "make 1800 boards; a terminal numbers boards up"),
    ("movement show mitchell --tables 200", "at most 128 tables"),
    ("movement show mitchell --tables 7 --boards-per-round 0", "--boards-per-round: each round needs at least 1"),
    ("movement show howell --tables 5 --boards-per-round 99", "--boards-per-round: a round has 1 to 36 boards"),
    ("movement show howell --tables 3 --boards-per-round 2", "a 3-table Howell needs at least 3 boards a round"),
    ("movement show howell --tables 5 --rounds 10", "--rounds: a Howell of 5 tables has 1 to 9 rounds, not 10"),
    ("movement show mitchell --tables 7 --rounds 0", "--rounds: this movement has 1 to 7 rounds, not 0"),
    ("movement show skip-mitchell --tables 7", "--tables: a skip Mitchell is for an even number of tables"),
    ("movement show relay-mitchell --tables 9", "--tables: a relay and bye stand Mitchell is for an even number"),
    ("movement show teams --tables 3", "--tables: a team match is played at 2 tables, not 3"),
    ("movement show appendix-mitchell --tables 3", "--tables: an appendix Mitchell is a base of at least 3 tables"),
    ("movement show appendix-mitchell --tables 7 --half-table", "--half-table: an appendix Mitchell has its half"),
    ("movement show teams --half-table", "--half-table: a team match has no half table"),
    ("movement show mitchell", "give --tables N for a mitchell movement"),
    ("movement show", "give a KIND"),
    ("movement check mitchell --tables 7 --file x.json", "--file holds the whole movement: give no KIND with it"),
    ("movement show mitchell --tables 7 --arrow-switch soon", "--arrow-switch takes round numbers"),
    ("movement show mitchell --tables 7 --arrow-switch 8", "--arrow-switch: round 8 is not one of this movement's"),
    ("movement show howell --tables 4 --arrow-switch 1", "--arrow-switch: an arrow switch is for a Mitchell"),
    ("movement check --file missing.json", "--file missing.json: cannot read it: No such file or directory"),
    ("movement check --file folder", "--file folder is a folder, not a movement file"),
    ("movement check --file notes.txt", "--file notes.txt is not JSON"),
    ("movement check --file binary.json", "--file binary.json is not UTF-8 text"),
    ("movement check --file list.json", "--file list.json: the file must be a JSON object"),
    ("movement check --file huge.json", "--file huge.json: the file: tables is 1 to 999, not 1000000000"),
    ("movement check --file badplan.json", "badplan.json: round 1, plan[0].tables[0].boards must be a JSON list"),
]
ARGPARSE = [
    ("movement show swiss --tables 4", "argument KIND: invalid choice: 'swiss'"),
    ("movement show mitchell --tables seven", "argument --tables: invalid int value: 'seven'"),
    ("movement", "the following arguments are required: ACTION"),
]


@pytest.fixture
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("not JSON", encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(bytes(range(256)))
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    good = movement_to_json(mitchell(3, 2))
    (tmp_path / "huge.json").write_text(json.dumps({**good, "tables": 10 ** 9}), encoding="utf-8")
    good["plan"][0]["tables"][0]["boards"] = "1-2"
    (tmp_path / "badplan.json").write_text(json.dumps(good), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("command", "says"), BAD, ids=[c for c, _ in BAD])
def test_impossible_or_wrong_input_is_one_line_and_exit_2(command: str, says: str, samples: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(command.split(), capsys)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith("tenace movement: ") and says in err, err


@pytest.mark.parametrize(("command", "says"), ARGPARSE, ids=[c for c, _ in ARGPARSE])
def test_argparse_refusals_end_in_one_error_line(command: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(command.split(), capsys)
    lines = err.splitlines()
    assert code == 2 and lines[0].startswith("usage: tenace movement") and says in lines[-1]
    assert sum("error:" in line for line in lines) == 1


def test_help_of_every_movement_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["movement", "--help"], ["movement", "show", "--help"], ["movement", "check", "--help"]):
        code, out, _ = run(argv, capsys)
        assert code == 0 and out.startswith("usage: tenace movement")


def test_show_appendix_mitchell_names_the_sharing_tables_and_the_bye(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["movement", "show", "appendix-mitchell", "--tables", "5", "--boards-per-round", "2"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Appendix Mitchell, 5 tables and a half (EW 6), on a base of 4 (skip)")
    assert re.fullmatch(r"\s+1\s+NS 1\s+EW 1\s+1-2  shares with table 5", lines[3]), lines[3]
    assert re.fullmatch(r"\s+5\s+NS 5\s+EW 5\s+1-2  shares with table 1", lines[7]), lines[7]
    assert lines[8] == "  bye: EW 6 sits out"


def test_show_and_check_the_movement_an_event_file_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.store import create_event
    event = tmp_path / "club.sqlite"
    create_event(event, name="Two", sections={"A": mitchell(5, 2), "B": howell(4, 3)}).close()
    code, out, err = run(["movement", "show", "--event", str(event), "--section", "B"], capsys)
    generated = run(["movement", "show", "howell", "--tables", "4", "--boards-per-round", "3"], capsys)[1]
    assert (code, err) == (0, "") and out == generated
    code, out, _ = run(["movement", "check", "--event", str(event), "--section", "A", "--json"], capsys)
    assert code == 0 and json.loads(out)["errors"] == []
    for argv, says in ((["--event", str(event)], "the event has sections A, B"),
                       (["--event", str(event), "--section", "Q"], "--section: there is no section 'Q'"),
                       (["--event", str(tmp_path / "none.sqlite")], "no such event file"),
                       (["--event", str(event), "--tables", "3"], "--event holds the whole movement: give no --tables"),
                       (["mitchell", "--section", "A"], "--section chooses a section of --event's file")):
        code, out, err = run(["movement", "show", *argv], capsys)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and says in err, err
