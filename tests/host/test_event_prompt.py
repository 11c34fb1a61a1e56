"""`tenace event new` asks for what its flags leave out, checks each answer, and refuses without a terminal."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tenace.cli import build_parser
from tenace.commands import event_prompt
from tenace.errors import UsageError
from tenace.store import connect, event_info
from tenace.store.encounters import section_rounds


def parsed(*words: str) -> argparse.Namespace:
    return build_parser().parse_args(["event", "new", *words])


def answers(*given: str) -> tuple[event_prompt.Ask, list[str]]:
    """An ask() giving these answers in turn, and the list of questions it was asked."""
    asked: list[str] = []
    stream: Iterator[str] = iter(given)

    def ask(question: str) -> str:
        asked.append(question)
        try:
            return next(stream)
        except StopIteration:
            raise EOFError from None

    return ask, asked


def test_each_missing_flag_is_asked_wrong_answers_are_asked_again_and_the_event_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    args = parsed("--name", "Tuesday pairs")
    ask, asked = answers(str(db), "", "seven", "1", "", "0", "2")
    event_prompt.fill_in(args, ask, interactive=True)
    assert [q.split(" [")[0].rstrip(": ") for q in asked] == [
        "Event file to create", "Movement, mitchell, howell, individual, teams or swiss", "Tables in play",
        "Tables in play", "Tables in play", "Boards each round", "Boards each round"]
    out = capsys.readouterr().out
    assert "a whole number, not 'seven'" in out and "at least 2 tables, not 1" in out
    assert "each round needs at least 1 board, not 0" in out
    assert (args.db, args.name, args.movement, args.tables, args.boards_per_round) == (
        db, "Tuesday pairs", "mitchell", 7, 2)
    assert args.run(args) == 0  # the same command creates it
    conn = connect(db)
    assert event_info(conn).name == "Tuesday pairs"
    conn.close()


def test_an_existing_file_and_an_impossible_movement_are_refused_in_the_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "old.sqlite"
    taken.write_bytes(b"")
    args = parsed()
    ask, _ = answers(str(taken), str(tmp_path / "new.sqlite"), "", "Club", "", "2", "3", "")
    event_prompt.fill_in(args, ask, interactive=True)
    out = capsys.readouterr().out
    assert "exists already" in out and "an answer is needed" in out and "nothing to compare" in out
    assert (args.name, args.tables, args.boards_per_round) == ("Club", 3, 3)


def test_stopping_or_no_terminal_creates_nothing(tmp_path: Path) -> None:
    ask, _ = answers(str(tmp_path / "x.sqlite"))  # then Ctrl-D
    with pytest.raises(UsageError, match="stopped: no event file created"):
        event_prompt.fill_in(parsed(), ask, interactive=True)
    with pytest.raises(UsageError, match=r"give EVENT, --tables, --boards-per-round \(or run it at a terminal"):
        event_prompt.fill_in(parsed("--name", "X"), interactive=False)
    ask, _ = answers("howell", *["x"] * 5)
    with pytest.raises(UsageError, match="no answer taken for --tables after 5 tries"):
        event_prompt.fill_in(parsed(str(tmp_path / "y.sqlite"), "--name", "X"), ask, interactive=True)
    assert not list(tmp_path.iterdir())


def test_several_sections_each_with_the_movement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "two.sqlite"
    args = parsed(str(db), "--name", "Two", "--tables", "5", "--boards-per-round", "3", "--section", "A,B")
    assert args.run(args) == 0
    assert "sections A, B: Mitchell, 5 tables" in capsys.readouterr().out
    conn = connect(db)
    assert [s.name for s in event_info(conn).sections] == ["A", "B"]
    conn.close()


def test_a_howell_is_asked_for_and_its_own_limits_refused_in_the_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "howell.sqlite"
    args = parsed(str(db), "--name", "Howell night")
    ask, asked = answers("hoWell?", "Howell", "2", "12", "3", "2", "4")
    event_prompt.fill_in(args, ask, interactive=True)
    out = capsys.readouterr().out
    assert "mitchell, howell, individual, teams or swiss, not 'hoWell?'" in out
    assert "a Howell is for 3 to 10 tables, not 2" in out and "not 12 (play a Mitchell)" in out
    assert "a 3-table Howell needs at least 3 boards a round" in out  # 2 boards: refused, then 4
    assert (args.movement, args.tables, args.boards_per_round) == ("howell", 3, 4)
    assert len(asked) == 7
    assert args.run(args) == 0
    conn = connect(db)
    section = event_info(conn).sections[0]
    assert (section.kind, section.one_field, section.tables, section.rounds) == ("howell", True, 3, 5)
    conn.close()


def test_a_script_without_movement_gets_a_mitchell_as_before(tmp_path: Path) -> None:
    args = parsed("--db", str(tmp_path / "m.sqlite"), "--name", "M", "--tables", "5", "--boards-per-round", "2")
    event_prompt.fill_in(args, interactive=False)
    assert args.movement == "mitchell"
    assert args.run(args) == 0
    conn = connect(tmp_path / "m.sqlite")
    assert [(s.kind, s.one_field) for s in event_info(conn).sections] == [("mitchell", False)]
    conn.close()


def test_a_shortened_mitchell_plays_its_first_rounds_with_every_set_at_fewer_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "short.sqlite"
    args = parsed(str(db), "--name", "Short", "--tables", "9", "--boards-per-round", "3", "--rounds", "7")
    assert args.run(args) == 0
    assert "Mitchell (first 7 of 9 rounds), 9 tables, 7 rounds of 3 boards, boards 1-27" in capsys.readouterr().out
    conn = connect(db)
    section = event_info(conn).sections[0]
    assert (section.kind, section.tables, section.rounds) == ("mitchell", 9, 7)
    plays: dict[str, int] = {}
    for _round, _table, _ns, _ew, boards in section_rounds(conn, "A"):
        plays[boards] = plays.get(boards, 0) + 1
    conn.close()
    assert len(plays) == 9 and set(plays.values()) == {7}  # 9 sets, each played at 7 of the 9 tables


def test_a_team_match_asked_for_has_its_two_tables_without_asking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cup.sqlite"
    args = parsed("--name", "Cup")
    ask, asked = answers(str(db), "teams", "40", "8")
    event_prompt.fill_in(args, ask, interactive=True)
    assert [q.split(" [")[0].rstrip(": ") for q in asked] == [
        "Event file to create", "Movement, mitchell, howell, individual, teams or swiss", "Boards each round",
        "Boards each round"]
    assert "a round has 1 to 36 boards, not 40" in capsys.readouterr().out
    assert args.run(args) == 0
    conn = connect(db)
    info = event_info(conn)
    conn.close()
    assert (info.scoring, info.sections[0].kind, info.sections[0].tables, info.sections[0].boards_per_round) == (
        "imps", "teams", 2, 8)


def test_the_event_file_given_as_event_is_not_asked_for_nor_taken_twice(tmp_path: Path) -> None:
    db = tmp_path / "given.sqlite"
    args = parsed(str(db), "--name", "Given")
    ask, asked = answers("", "", "")
    event_prompt.fill_in(args, ask, interactive=True)
    assert not any(q.startswith("Event file") for q in asked) and args.db == db
    assert args.run(args) == 0 and db.exists()
    with pytest.raises(UsageError, match=r"the event file given twice \(a.sqlite and --db b.sqlite\)"):
        event_prompt.fill_in(parsed("a.sqlite", "--db", "b.sqlite", "--name", "X"), interactive=False)
    ask, _ = answers(*[str(db)] * 5)  # it exists now: never overwritten
    with pytest.raises(UsageError, match="no answer taken for EVENT after 5 tries"):
        event_prompt.fill_in(parsed("--name", "X", "--tables", "3", "--boards-per-round", "2"), ask, interactive=True)


def test_a_shortened_mitchell_with_a_half_table_reads_back_whole(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "short-half.sqlite"
    args = parsed(str(db), "--name", "X", "--tables", "7", "--boards-per-round", "3", "--rounds", "5", "--half-table")
    assert args.run(args) == 0
    conn = connect(db)  # its description is longer than 80 characters: kept whole, not read back as damaged
    assert event_info(conn).sections[0].movement.endswith("NS 7 missing (a half table)")
    conn.close()
