"""Bad input to every `tenace` command: one line on stderr saying what is wrong, exit code 2, never a traceback.

Each case runs `tenace.cli.main` in-process, in a folder of sample files (an event file, PBN files, a
binary file, an empty file, a folder...), so the messages below are exactly what a user sees. argparse's
own errors (a wrong type, an unknown choice, a missing option) print the usage first and then their one
error line; those cases are marked ARGPARSE and only that last line is checked.
"""

from __future__ import annotations

import io
import re
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import run

from tenace.movement import mitchell
from tenace.store import create_event

PAIRS_PBN = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result"]
 1 1 1 11 4S  N 10
 2 1 2 12 4S  N 11
 3 1 3 13 3NT S 9
"""

TEAMS_PBN = """[Event "Match"]
[Board "1"]
[Room "Open"]
[Contract "4S"]
[Declarer "N"]
[Result "10"]

[Board "1"]
[Room "Closed"]
[Contract "4S"]
[Declarer "N"]
[Result "9"]
"""

ARGPARSE = "argparse"  # the code is still 2; the usage comes first, then the one error line

# (command line, what the one line must say, "" or ARGPARSE). Paths are relative to the sample folder.
CASES: list[tuple[str, str, str]] = [
    # tenace itself
    ("nonsense", "invalid choice: 'nonsense'", ARGPARSE),
    # contract
    ("contract 8S N 11", "contract '8S' must start with a level 1 to 7", ""),
    ("contract 4S Q 11", "declarer must be N, E, S or W, not 'Q'", ""),
    ("contract 4S N 14", "14 tricks is impossible", ""),
    ("contract 4S N +4", "at most +3 on a 4-level contract", ""),
    ("contract 4S N ten", "'ten'", ""),
    ("contract 4S N 10 --board 0", "board number must be a whole number from 1 up, not 0", ""),
    ("contract 4S N 10 --vul red", "vulnerability must be none, ns, ew or both, not 'red'", ""),
    ("contract pass N", "a passed-out board takes no declarer or tricks", ""),
    ("contract 4S", "give the declarer and the tricks after 4S", ""),
    ("contract", "give a contract", ""),
    ("contract 4S --batch", "--batch reads everything from standard input", ""),
    ("contract 4S N 10 --board x", "argument --board: invalid int value: 'x'", ARGPARSE),
    ("contract 4S N 10 --board 7 --vul ns", "argument --vul: not allowed with argument --board", ARGPARSE),
    # demo
    ("demo --tables 1", "--tables: a Mitchell needs at least 2 tables, not 1", ""),
    ("demo --tables 0", "--tables: a Mitchell needs at least 2 tables, not 0", ""),
    ("demo --tables -3", "--tables: a Mitchell needs at least 2 tables, not -3", ""),
    ("demo --boards-per-round 0", "--boards-per-round: each round needs at least 1 board, not 0", ""),
    ("demo --tables 100000", "--tables: a Mitchell has at most 999 tables, not 100000", ""),
    ("demo --tables 200", "at most 128 tables", ""),
    ("demo --tables 2", "boards 1-6 are each played at one table only in skip Mitchell, 2 tables", ""),
    ("demo --boards-per-round 37", "--boards-per-round: a round has at most 36 boards, not 37", ""),
    ("demo --tables 120 --boards-per-round 9", "1080 boards; a terminal numbers boards up to 1023", ""),
    ("demo --tables seven", "argument --tables: invalid int value: 'seven'", ARGPARSE),
    ("demo --scoring imps", "argument --scoring: invalid choice: 'imps'", ARGPARSE),
    # event
    ("event new new.sqlite --name X --tables 1 --boards-per-round 2", "--tables: a Mitchell needs at least 2", ""),
    ("event new new.sqlite --name X --tables 2 --boards-per-round 3", "there is nothing to compare them with", ""),
    ("event new new.sqlite --name X --tables 100000 --boards-per-round 2", "at most 999 tables", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 0", "--boards-per-round: each round needs", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 99", "a round has at most 36 boards", ""),
    ("event new new.sqlite --name X --movement howell --tables 2 --boards-per-round 3",
     "--tables: a Howell is for 3 to 10 tables, not 2", ""),
    ("event new new.sqlite --name X --movement howell --tables 40 --boards-per-round 3",
     "not 40 (play a Mitchell)", ""),
    ("event new new.sqlite --name X --movement howell --tables -4 --boards-per-round 3",
     "a Howell is for 3 to 10 tables, not -4", ""),
    ("event new new.sqlite --name X --movement howell --tables 4 --boards-per-round 0",
     "--boards-per-round: a round has 1 to 36 boards, not 0", ""),
    ("event new new.sqlite --name X --movement howell --tables 3 --boards-per-round 2",
     "--boards-per-round: a 3-table Howell needs at least 3 boards a round", ""),
    ("event new new.sqlite --name X --movement howell --tables 4 --boards-per-round 3 --rounds 8",
     "--rounds: a Howell of 4 tables has 1 to 7 rounds, not 8", ""),
    ("event new new.sqlite --name X --movement howell --tables 4 --boards-per-round 3 --rounds 1",
     "there is nothing to compare them with", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --rounds 8",
     "--rounds: this movement has 1 to 7 rounds, not 8", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --rounds 1",
     "there is nothing to compare them with", ""),
    ("event new new.sqlite --name X --movement howell --boards-per-round 3",
     "give --tables (or run it at a terminal", ""),
    ("event new new.sqlite --name X --movement hovell --tables 4 --boards-per-round 3",
     "invalid choice: 'hovell'", ARGPARSE),
    ("event new new.sqlite --name X --movement howell --tables four --boards-per-round 3",
     "invalid int value: 'four'", ARGPARSE),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --date 2024-02-30",
     "the event date 2024-02-30 is not a real date", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --date 2023-02-29",
     "the event date 2023-02-29 is not a real date", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --date 14/05/2024",
     "the event date must be YYYY-MM-DD, not '14/05/2024'", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --date 20240514",
     "the event date must be YYYY-MM-DD, not '20240514'", ""),
    ("event new new.sqlite --name '' --tables 7 --boards-per-round 3", "the event name must be printable", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --section ''", "a section name is 1 to 8", ""),
    ("event new new.sqlite --name X --tables 7 --boards-per-round 3 --section A,A", "a section named twice", ""),
    ("event new --db event.sqlite --name X --tables 7 --boards-per-round 3", "never overwritten", ""),
    ("event new notes.txt/x.sqlite --name X --tables 7 --boards-per-round 3", "cannot open", ""),
    ("event new new.sqlite --tables 7 --boards-per-round 3",
     "give --name (or run it at a terminal to be asked for them)", ""),
    ("event show --db missing.sqlite", "no such event file", ""),
    ("event show notes.txt", "not a usable event file: file is not a database", ""),
    ("event show other.sqlite", "an SQLite file, but not a Tenace event file", ""),
    ("event show folder", "folder is a folder, not an event file", ""),
    ("event show empty.pbn", "empty.pbn is an empty file, not an event file", ""),
    ("event seat --db event.sqlite --terminal 0 --table 1", "--terminal is 1 to 65534, not 0", ""),
    ("event seat event.sqlite --terminal 70000 --table 1", "--terminal is 1 to 65534, not 70000", ""),
    ("event seat event.sqlite --terminal 5 --table 99", "section A has tables 1 to 3, not 99", ""),
    ("event seat event.sqlite --terminal 5 --table 1 --section Z", "there is no section 'Z'", ""),
    ("event show", "name the event file: tenace event show EVENT (e.g. club.sqlite)", ""),
    ("event seat --terminal 5 --table 1", "name the event file: tenace event seat EVENT", ""),
    ("event seat event.sqlite --db event.sqlite --terminal 5 --table 1", "the event file given twice", ""),
    ("event new --name X --tables 7 --boards-per-round 3", "give EVENT (or run it at a terminal to be asked", ""),
    ("event new new.sqlite --db other.sqlite --name X --tables 7 --boards-per-round 3", "the event file given twice",
     ""),
    ("event", "the following arguments are required: ACTION", ARGPARSE),
    # problems
    ("problems --db missing.sqlite", "no such event file", ""),
    ("problems binary.pbn", "not a usable event file", ""),
    ("problems folder", "folder is a folder, not an event file", ""),
    ("problems event.sqlite --examples x", "argument --examples: invalid int value: 'x'", ARGPARSE),
    ("problems", "name the event file: tenace problems EVENT (e.g. club.sqlite)", ""),
    ("problems event.sqlite --db event.sqlite", "the event file given twice (event.sqlite and --db event.sqlite)", ""),
    # score: files
    ("score missing.pbn", "missing.pbn: cannot read missing.pbn: No such file or directory", ""),
    ("score folder", "folder: cannot read folder: Is a directory", ""),
    ("score empty.pbn", "empty.pbn: an empty file: there is nothing to score", ""),
    ("score binary.pbn", "binary.pbn: a binary file, not PBN text", ""),
    ("score notes.txt", "notes.txt: not a PBN file: line 1 is not a PBN tag", ""),
    ("score teams.pbn", "teams.pbn: no game in it has a ScoreTable: there are no results to score", ""),
    ("score pairs.pbn --method teams", "no played results (Contract/Result tags) found for a team match", ""),
    ("score pairs.pbn --pbn folder", "--pbn folder is a folder: give a file name", ""),
    ("score pairs.pbn --pbn missing/dir/x.pbn", "--pbn missing/dir/x.pbn: there is no folder missing/dir", ""),
    ("score pairs.pbn --pbn pairs.pbn", "--pbn pairs.pbn is the input file: give another name", ""),
    ("score pairs.pbn --pbn ./pairs.pbn", "is the input file", ""),
    # score: options
    ("score pairs.pbn --method butler --trim -1", "--trim is 0 or more, not -1", ""),
    ("score pairs.pbn --method butler --trim-percent 80", "--trim-percent is 0 to 49", ""),
    ("score pairs.pbn --method butler --trim 2 --trim-percent 10", "--trim or --trim-percent, not both", ""),
    ("score pairs.pbn --trim 3", "--trim is for --method butler, not mp", ""),
    ("score pairs.pbn --method cross-imps --trim-percent 10", "--trim-percent is for --method butler, not cross-imps",
     ""),
    ("score pairs.pbn --method butler --preset magic-contest", "--preset is for --method mp or mp-acbl, not butler",
     ""),
    ("score pairs.pbn --unit total", "--unit is for --method cross-imps, not mp", ""),
    ("score pairs.pbn --method butler --datum-rounding half-even --unit total", "--unit is for --method cross-imps",
     ""),
    ("score pairs.pbn --carry-over 3", "--carry-over is for --method teams, not mp", ""),
    ("score pairs.pbn --method butler --vp-boards 3", "--vp-boards is for --method teams, not butler", ""),
    ("score teams.pbn --method teams --tiebreak head-to-head", "--tiebreak is for --method mp or mp-acbl", ""),
    ("score pairs.pbn --expected 0", "--expected is 1 or more, not 0", ""),
    ("score pairs.pbn --mp-decimals 11", "--mp-decimals is 0 to 10 decimals, not 11", ""),
    ("score pairs.pbn --percent-decimals -1", "--percent-decimals is 0 to 10 decimals, not -1", ""),
    ("score pairs.pbn --total-decimals 50", "--total-decimals is 0 to 10 decimals, not 50", ""),
    ("score teams.pbn --method teams --vp-boards 0", "--vp-boards is 1 or more, not 0", ""),
    ("score teams.pbn --method teams --carry-over 1/0", "argument --carry-over: IMPs as a number", ARGPARSE),
    ("score teams.pbn --method teams --carry-over nan", "argument --carry-over: IMPs as a number", ARGPARSE),
    ("score pairs.pbn --method imps", "argument --method: invalid choice: 'imps'", ARGPARSE),
    ("score", "the following arguments are required: file", ARGPARSE),
    # terminal (all refused before MicroPython starts)
    ("terminal --headless --keys '3 OK FOO'", "unknown key 'FOO' in the script", ""),
    ("terminal --headless --keys '3 ok'", "unknown key 'ok' in the script (key names are upper case)", ""),
    ("terminal --headless --keys '4 S XX'", "unknown key 'XX' in the script (doubled is X pressed twice: X X)", ""),
    ("terminal --headless --keys '3 OK !bogus'", "unknown key '!bogus'", ""),
    ("terminal --headless --keys '3 OK !wait'", "!wait takes milliseconds after it", ""),
    ("terminal --headless --keys '3 OK !wait soon'", "!wait takes milliseconds from 0 to 3600000 after it", ""),
    ("terminal --headless --keys '3 [a+b]'", "screen name '[a+b]'", ""),
    ("terminal --keys 3 --out notes.txt", "--out notes.txt is a file, not a folder", ""),
    ("terminal --keys 3 --out notes.txt/screens", "--out notes.txt/screens: a part of that path is a file", ""),
    ("terminal --headless --keys 3 --journal notes.txt", "--journal notes.txt is a file, not a folder", ""),
    ("terminal --headless --script missing.keys", "--script missing.keys: cannot read it: No such file", ""),
    ("terminal --headless --script folder", "--script folder: cannot read it: Is a directory", ""),
    ("terminal --headless --script binary.pbn", "--script binary.pbn is not UTF-8 text", ""),
    ("terminal --headless --keys 3 --rounds 0", "--rounds is 1 to 127, not 0", ""),
    ("terminal --headless --keys 3 --rounds 1000", "--rounds is 1 to 127, not 1000", ""),
    ("terminal --headless --keys 3 --boards 100", "--boards is 1 to 36, not 100", ""),
    ("terminal --headless --keys 3 --rounds 127 --boards 9", "make 1143 boards", ""),
    ("terminal --headless --keys 3 --scale 0", "--scale is 1 to 16", ""),
    ("terminal --headless", "--headless and --out need keys", ""),
    ("terminal --lang xx --keys 3", "argument --lang: invalid choice: 'xx'", ARGPARSE),
    ("terminal --keys 3 --script x.keys", "argument --script: not allowed with argument --keys", ARGPARSE),
    # collect (all refused before it serves)
    ("collect event.sqlite", "give --serial DEV (a base station) or --listen HOST:PORT", ""),
    ("collect event.sqlite --serial /dev/null --port-file port.txt", "--port-file goes with --listen", ""),
    ("collect event.sqlite --listen nonsense", "--listen takes HOST:PORT", ""),
    ("collect event.sqlite --listen 127.0.0.1:99999", "--listen takes HOST:PORT", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --progress 0", "--progress is 1 to 3600 seconds, not 0", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --pin 123", "--pin '123': four digits, such as 4821", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --pin 12345", "--pin '12345': four digits", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --pin 12a4", "--pin '12a4': four digits", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --progress -5", "--progress is 1 to 3600 seconds, not -5", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --progress nan", "--progress must be a finite number", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --language xx", "--language 'xx': the terminals speak en", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --language EN", "--language 'EN': the terminals speak", ""),
    ("collect event.sqlite --serial /dev/null --baud 0", "--baud is 300 to 4000000, not 0", ""),
    ("collect event.sqlite --serial /dev/null --baud -5", "--baud is 300 to 4000000, not -5", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --port-file folder", "--port-file folder is a folder", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --port-file missing/port.txt", "there is no folder missing", ""),
    ("collect --db missing.sqlite --listen 127.0.0.1:0", "no such event file", ""),
    ("collect notes.txt --listen 127.0.0.1:0", "not a usable event file", ""),
    ("collect other.sqlite --listen 127.0.0.1:0", "an SQLite file, but not a Tenace event file", ""),
    ("collect empty.pbn --listen 127.0.0.1:0", "is an empty file, not an event file", ""),
    ("collect event.sqlite --serial /dev/tenace-no-such-port", "cannot open the base station's port", ""),
    ("collect event.sqlite --listen 127.0.0.1:0 --lead always", "argument --lead: invalid choice", ARGPARSE),
    ("collect --listen 127.0.0.1:0", "name the event file: tenace collect EVENT (e.g. club.sqlite)", ""),
    ("collect event.sqlite --db other.sqlite --listen 127.0.0.1:0", "the event file given twice", ""),
    # sim (all refused before any process starts)
    ("sim --tables 1", "--tables is 2 to 999, not 1", ""),
    ("sim --tables 100000", "--tables is 2 to 999, not 100000", ""),
    ("sim --tables 200 --boards 2 --boards-per-round 1", "make 200 MicroPython processes, at most 128", ""),
    ("sim --boards 0", "--boards is 1 to 1023, not 0", ""),
    ("sim --boards 22", "--boards 22 is not a whole number of rounds of 3 boards", ""),
    ("sim --boards-per-round 0", "--boards-per-round is 1 to 36, not 0", ""),
    ("sim --boards 24 --boards-per-round 1", "need at least 24 tables", ""),
    ("sim --loss 2", "--loss is a probability from 0 to 1, not 2.0", ""),
    ("sim --loss nan", "--loss is a probability from 0 to 1, not nan", ""),
    ("sim --corrupt -0.1", "--corrupt is a probability from 0 to 1", ""),
    ("sim --delay -1", "--delay is 0 to 60000 ms, not -1", ""),
    ("sim --timeout 0", "--timeout is 1 to 86400 seconds, not 0", ""),
    ("sim --down -1", "--down is 0 to 60 seconds, not -1", ""),
    ("sim --unplug -1", "--unplug is 0 to 600 seconds, not -1", ""),
    ("sim --kill-host -1", "--kill-host is 0 to 100, not -1", ""),
    ("sim --kill-host 1000", "--kill-host is 0 to 100, not 1000", ""),
    ("sim --howell 2", "--howell is 3 to 10, not 2", ""),
    ("sim --howell 11", "--howell is 3 to 10, not 11", ""),
    ("sim --tables 5 --boards 6 --change", "--change needs 4 rounds or more", ""),
    ("sim --per-process 0", "--per-process is 1 to 999, not 0", ""),
    ("sim --workdir notes.txt", "--workdir notes.txt is a file, not a folder", ""),
    ("sim --workdir notes.txt/run", "--workdir notes.txt/run: a part of that path is a file", ""),
    ("sim --workdir session", "session already holds a session", ""),
    ("sim --scoring imps", "argument --scoring: invalid choice: 'imps'", ARGPARSE),
]


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample folder: every kind of file a user may give where another was wanted."""
    folder = tmp_path_factory.mktemp("samples")
    create_event(folder / "event.sqlite", name="Samples", sections={"A": mitchell(3, 2)}).close()
    plain = sqlite3.connect(folder / "other.sqlite")
    plain.execute("CREATE TABLE t (x)")
    plain.commit()
    plain.close()
    (folder / "notes.txt").write_text("not a database, nor PBN, nor a folder " * 20, encoding="utf-8")
    (folder / "empty.pbn").write_bytes(b"")
    (folder / "binary.pbn").write_bytes(bytes(range(256)) * 8)
    (folder / "pairs.pbn").write_text(PAIRS_PBN, encoding="utf-8")
    (folder / "teams.pbn").write_text(TEAMS_PBN, encoding="utf-8")
    (folder / "folder").mkdir()
    (folder / "session").mkdir()
    (folder / "session" / "event.sqlite").write_bytes(b"")
    return folder


def split(command: str) -> list[str]:
    """The command line as a shell would split it (single quotes only, as in CASES)."""
    return [a if q is None else q for q, a in ((m[1], m[2]) for m in re.finditer(r"'([^']*)'|(\S+)", command))]


def contents(folder: Path) -> dict[str, bytes]:
    """The sample files' bytes (SQLite's -wal and -shm files and the collector's lock file change on any use)."""
    return {p.name: p.read_bytes() for p in folder.iterdir()
            if p.is_file() and not p.name.endswith(("-wal", "-shm", ".lock"))}


@pytest.fixture
def in_samples(samples: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(samples)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    yield samples


@pytest.mark.parametrize(("command", "says", "kind"), CASES, ids=[c for c, _, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(command: str, says: str, kind: str, in_samples: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    argv = split(command)
    before = contents(in_samples)
    code, out, err = run(argv, capsys)
    assert "Traceback" not in out + err
    assert code == 2, err
    lines = err.splitlines()
    if kind == ARGPARSE:
        assert lines[0].startswith("usage: tenace") and re.match(r"tenace( [a-z]+)*: error: ", lines[-1]), err
        assert sum("error:" in line for line in lines) == 1 and says in lines[-1], err
        return
    assert len(lines) == 1, err
    assert lines[0].startswith(f"tenace {argv[0]}: ") and says in lines[0], err
    if argv[0] == "collect":  # a collector that could not open its port still saves its link counters on stopping
        before.pop("event.sqlite")
    assert contents(in_samples).items() >= before.items(), "a refused command changed a file"


def test_there_are_more_than_fifty_cases() -> None:
    assert len(CASES) >= 50 and len({c for c, _, _ in CASES}) == len(CASES)


# --- inputs that are not mistakes ----------------------------------------------------------------------

def test_bare_tenace_prints_the_help_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """A bare `tenace` is someone finding out what it does: the help on stdout, exit 0, nothing on stderr."""
    code, out, err = run([], capsys)
    assert code == 0 and err == ""
    assert out.startswith("usage: tenace") and "score" in out and "collect" in out
    assert run(["-v"], capsys)[0] == 0


@pytest.mark.parametrize(("stdin", "want"), [
    ("4SX N 11 both\n3NT E 9 none\n\n", "990\n-400\n"),  # a trailing blank line
    ("\ufeff4SX N 11 both\n", "990\n"),  # a byte order mark, as Windows Notepad writes
    ("\n  \n4SX N 11 both\n\n\n3NT E 9 none", "990\n-400\n"),  # blank lines anywhere, no final newline
    ("4SX N 11 both\r\n3NT E 9 none\r\n", "990\n-400\n"),  # Windows line ends
])
def test_contract_batch_takes_blank_lines_and_a_bom(stdin: str, want: str, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    assert run(["contract", "--batch"], capsys) == (0, want, "")


@pytest.mark.parametrize(("data", "says"), [
    (b"\xff\xfe4\x00S\x00\n", "standard input is not UTF-8 text"),
    (b"4SX N 11 both\n4S\xe9 N 10 none\n", "standard input is not UTF-8 text"),
])
def test_contract_batch_input_that_is_not_utf8(data: bytes, says: str, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for errors in ("strict", "surrogateescape"):  # a UTF-8 locale, and the POSIX locale's escapes
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors=errors))
        code, _, err = run(["contract", "--batch"], capsys)
        assert code == 2 and len(err.splitlines()) == 1 and says in err, err


def test_refused_event_new_and_pbn_leave_no_file_behind(in_samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pairs = (in_samples / "pairs.pbn").read_bytes()
    assert run(["score", "pairs.pbn", "--pbn", "pairs.pbn"], capsys)[0] == 2
    assert (in_samples / "pairs.pbn").read_bytes() == pairs
    assert run(["event", "new", "--db", "new.sqlite", "--name", "X", "--tables", "7", "--boards-per-round", "3",
                "--date", "2024-02-30"], capsys)[0] == 2
    assert not (in_samples / "new.sqlite").exists()


def test_a_fault_of_ours_is_one_line_naming_its_crash_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Not the user's mistake: one line (what failed, where the traceback was saved), exit 1, no traceback shown."""
    from tenace.commands import demo

    def broken(tables: int, boards_per_round: int, seed: int) -> None:
        raise RuntimeError("the scorer fell over")

    monkeypatch.setattr(demo, "play_session", broken)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, _, err = run(["demo"], capsys)
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
    found = re.fullmatch(r"tenace demo: internal error \(RuntimeError: the scorer fell over\); please report it "
                         r"with (\S+\.log)\n", err)
    assert found, err
    saved = Path(found[1]).read_text(encoding="utf-8")
    assert saved.startswith("tenace ") and "Traceback" in saved and "the scorer fell over" in saved


def test_a_message_of_several_lines_is_one_line_and_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A child process's output (a MicroPython traceback) in a message stays off the screen: one line names its file."""
    from tenace.commands import demo
    from tenace.errors import Failure

    def failing(tables: int, boards_per_round: int, seed: int) -> None:
        raise Failure("the terminal process of tables [1, 2] failed (exit 1):\nTraceback (most recent call last):\n"
                      "AttributeError: no MESSAGES")

    monkeypatch.setattr(demo, "play_session", failing)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, _, err = run(["demo"], capsys)
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
    found = re.fullmatch(r"tenace demo: the terminal process of tables \[1, 2\] failed \(exit 1\); the details are in "
                         r"(\S+\.log)\n", err)
    assert found, err
    assert "AttributeError: no MESSAGES" in Path(found[1]).read_text(encoding="utf-8")
