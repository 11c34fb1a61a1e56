"""`tenace score` keeps what the file gave: standard input, players' member ids, the file's other columns, team
names, column headers, and Butler or cross-IMPs on a team match refused with the method to use."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenace.cli import main
from tenace.pbn.reader import read_pbn

from conftest import ORACLES, needs_oracles

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

FFB = ORACLES / "ffb-2022-dn1-session1.pbn"
VENICE = ORACLES / "venice-cup-1997-final-2.pbn"

PAIRS = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[TotalScoreTable "Rank;PairId;Direction;TotalScoreMP;Names;MemberID1;MemberID2;Sex1;Sex2"]
1 1 NS 9 "Ann LEE - Bob RAY" "00012345" "00067890" W M
2 11 EW 9 "Cat KIM - Dan ORR" "00011111" "00022222" W M
3 2 NS 9 "Eve FOX - Fay GUY" "00033333" - W W
4 12 EW 9 "Gus HAL - Ida JAY" - - M W
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result;Lead;Score_NS;Score_EW"]
 1 1 1 11 4S  N 10 HK - -
 2 1 2 12 4S  N 11 C2 - -

[Board "2"]
[Vulnerable "NS"]
[ScoreTable "#"]
 1 1 1 11 2H  E 8 SA - -
 2 1 2 12 3NT S 9 - - -
"""


def tenace(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tenace.cli", *map(str, args)], capture_output=True, input=stdin,
                          timeout=120)


@pytest.fixture
def pairs(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.pbn"
    path.write_text(PAIRS, encoding="utf-8")
    return path


# --- standard input ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(), ("--json",), ("--method", "butler"), ("--method", "cross-imps", "--json")])
def test_standard_input_scores_as_the_file_does(pairs: Path, args: tuple[str, ...]) -> None:
    piped = tenace("score", "-", *args, stdin=pairs.read_bytes())
    named = tenace("score", pairs, *args)
    assert piped.returncode == named.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout and piped.stdout


@needs_oracles
def test_standard_input_scores_the_ffb_file_as_the_file(tmp_path: Path) -> None:
    """`cat f.pbn | tenace score -` equals `tenace score f.pbn`, Latin-1 file and --pbn output included."""
    piped = tenace("score", "-", "--pbn", tmp_path / "piped.pbn", stdin=FFB.read_bytes())
    named = tenace("score", FFB, "--pbn", tmp_path / "named.pbn")
    assert piped.returncode == named.returncode == 0
    assert piped.stdout == named.stdout
    assert (tmp_path / "piped.pbn").read_bytes() == (tmp_path / "named.pbn").read_bytes()


@pytest.mark.parametrize(("data", "says"), [
    (b"", "standard input is empty: pipe a PBN file in"),
    (b"  \n\n", "standard input is empty"),
    (b"hello\n", "<stdin>: not a PBN file"),
    (b"\x89PNG\r\n\x1a\n\0\0", "<stdin>: a binary file"),
])
def test_empty_or_bad_standard_input_is_refused_in_one_line(data: bytes, says: str) -> None:
    proc = tenace("score", "-", stdin=data)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and says in err and "Traceback" not in err
    assert len(err.splitlines()) == 1


def test_problems_on_standard_input_are_placed_in_it(pairs: Path) -> None:
    proc = tenace("score", "-", stdin=pairs.read_bytes().replace(b"4S  N 11", b"8S  N 11"))
    assert proc.returncode == 0
    assert "  <stdin>:11: board 1 row 2: contract '8S'" in proc.stderr.decode()


def test_a_terminal_on_standard_input_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    assert main(["score", "-"]) == 2
    err = capsys.readouterr().err
    assert "standard input, which is a terminal: pipe a file in" in err and len(err.splitlines()) == 1


def score_json(*args: str | Path) -> dict[str, Any]:
    proc = tenace("score", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    doc: dict[str, Any] = json.loads(proc.stdout)
    return doc


# --- a team match under a pairs method --------------------------------------------------------------------------

MATCH = """[Event "Match"]
[Board "1"]
[Room "Open"]
[HomeTeam "Lions"]
[VisitTeam "Tigers"]
[North "Ann"]
[South "Bob"]
[Contract "4S"]
[Declarer "N"]
[Result "10"]

[Board "1"]
[Room "Closed"]
[HomeTeam "Lions"]
[VisitTeam "Tigers"]
[Contract "3NT"]
[Declarer "S"]
[Result "9"]
"""


@pytest.mark.parametrize(("method", "why"), [
    ("butler", "Butler IMPs need a field's results per board for a datum"),
    ("cross-imps", "cross-IMPs compare a field's results per board"),
    ("mp", "matchpoints rank a field of pairs"),
])
def test_a_pairs_method_on_a_team_match_is_refused_with_the_method_to_use(tmp_path: Path, method: str,
                                                                           why: str) -> None:
    path = tmp_path / "match.pbn"
    path.write_text(MATCH, encoding="utf-8")
    proc = tenace("score", path, "--method", method)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b""
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "Note" not in err
    assert f"no results to score by --method {method} ({why}" in err and err.rstrip().endswith("use --method teams")


@needs_oracles
@pytest.mark.parametrize("method", ["butler", "cross-imps"])
def test_butler_and_cross_imps_on_the_venice_match_say_to_use_teams(method: str) -> None:
    proc = tenace("score", VENICE, "--method", method)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().splitlines() == [
        f"tenace score: {VENICE}: no game in it has a ScoreTable: there are no results to score by --method {method}"
        f" ({'Butler IMPs need a field' if method == 'butler' else 'cross-IMPs compare a field'}'s results per board"
        f"{' for a datum' if method == 'butler' else ''}), only a team match's rooms: use --method teams"]


# --- team names -------------------------------------------------------------------------------------------------

def test_a_team_match_names_its_teams_from_home_team_and_visit_team(tmp_path: Path) -> None:
    path = tmp_path / "match.pbn"
    path.write_text(MATCH, encoding="utf-8")
    summary = score_json(path, "--method", "teams")["summary"]
    assert (summary["home"], summary["away"]) == ("Lions", "Tigers")
    text = tenace("score", path, "--method", "teams").stdout.decode()
    assert "\nHome: Lions (NS in the open room)\nAway: Tigers (EW in the open room)\n" in text
    # Without the tags, each team is known by its pair in the open room (the away team's seats may be empty).
    path.write_text(MATCH.replace('[HomeTeam "Lions"]\n', "").replace('[VisitTeam "Tigers"]\n', ""), encoding="utf-8")
    summary = score_json(path, "--method", "teams")["summary"]
    assert (summary["home"], summary["away"]) == ("Ann - Bob", "")
    assert "\nHome: Ann - Bob (NS in the open room)\nAway: ? (EW in the open room)\n" in \
        tenace("score", path, "--method", "teams").stdout.decode()


@needs_oracles
def test_the_venice_match_is_china_against_usa_1() -> None:
    summary = score_json(VENICE, "--method", "teams")["summary"]
    assert (summary["home"], summary["away"], summary["imps_home"], summary["imps_away"]) == \
        ("China", "USA 1", 27.0, 4.0)


# --- players' member ids and the file's other columns ---------------------------------------------------------

def test_member_ids_reach_the_ranking_in_text_and_json(pairs: Path) -> None:
    doc = score_json(pairs)
    ranked = {p["pair"]: p for p in doc["ranking"]}
    assert (ranked["NS 1"]["names"], ranked["NS 1"]["members"]) == ("Ann LEE - Bob RAY", ["00012345", "00067890"])
    assert ranked["NS 2"]["members"] == ["00033333", ""]  # the second player's id is "-" in the file
    assert ranked["EW 12"]["members"] == []  # no id at all
    assert {p["label"]: p["members"] for p in doc["pairs"]}["EW 11"] == ["00011111", "00022222"]
    text = tenace("score", pairs).stdout.decode()
    line = next(line for line in text.splitlines() if "Ann LEE" in line)
    assert line.endswith("NS 1 ") is False and line.split()[-2:] == ["[00012345", "00067890]"]
    assert next(line for line in text.splitlines() if "Eve FOX" in line).endswith("[00033333 -]")
    assert next(line for line in text.splitlines() if "Gus HAL" in line).endswith("Gus HAL - Ida JAY")


@pytest.mark.parametrize("method", ["mp", "butler", "cross-imps"])
def test_pbn_output_keeps_the_files_columns_and_values(pairs: Path, tmp_path: Path, method: str) -> None:
    out = tmp_path / "out.pbn"
    assert tenace("score", pairs, "--method", method, "--pbn", out).returncode == 0
    games = read_pbn(out)
    totals = {r["PairId"]: r for r in games[0].tables["TotalScoreTable"].records()}
    published = {r["PairId"]: r for r in read_pbn(pairs)[0].tables["TotalScoreTable"].records()}
    assert totals.keys() == published.keys()
    for pair, row in published.items():
        for column in ("Names", "MemberID1", "MemberID2", "Sex1", "Sex2"):
            assert totals[pair][column] == row[column], (pair, column)
    figure = "TotalScoreMP" if method == "mp" else "TotalIMP"
    assert figure in games[0].tables["TotalScoreTable"].column_names()
    if method != "mp":  # the file's matchpoints are not ours: not carried into an IMP ranking
        assert "TotalScoreMP" not in games[0].tables["TotalScoreTable"].column_names()
    leads = [[r["Lead"] for r in g.tables["ScoreTable"].records()] for g in games]
    assert leads == [["HK", "C2"], ["SA", "-"]]
    # Read back, the same ids and leads come out again.
    again = score_json(out, "--method", method)
    assert [p["members"] for p in again["ranking"]] == [p["members"] for p in score_json(pairs, "--method", method)
                                                        ["ranking"]]
    assert [line["lead"] for b in again["boards"] for line in b["lines"]] == ["HK", "C2", "SA", None]


@needs_oracles
def test_ffb_pbn_output_has_every_column_and_value_of_the_published_total_score_table(tmp_path: Path) -> None:
    out = tmp_path / "ffb.pbn"
    assert tenace("score", FFB, "--preset", "magic-contest", "--pbn", out).returncode == 0
    published, written = read_pbn(FFB), read_pbn(out)
    want, got = published[0].tables["TotalScoreTable"], written[0].tables["TotalScoreTable"]
    assert got.column_names() == want.column_names()  # the file's columns, in its order
    mine = {r["PairId"]: r for r in got.records()}
    for row in want.records():
        for column in want.column_names():
            if column != "Direction":  # "E-W" in the file; ours says which directions the pair sat: "EW/NS"
                assert mine[row["PairId"]][column] == row[column], (row["PairId"], column)
    for pub, game in zip(published, written, strict=True):
        want_leads = {r["Table"]: r["Lead"] for r in pub.tables["ScoreTable"].records()}
        assert {r["Table"]: r["Lead"] for r in game.tables["ScoreTable"].records()} == want_leads
    doc = score_json(FFB)
    first = doc["ranking"][0]
    assert (first["pair"], first["names"], first["members"]) == ("7", "Philippe CHESNY - Rémi LEGRAS",
                                                                 ["00203787", "00835093"])


# --- column headers ---------------------------------------------------------------------------------------------

def test_the_text_report_has_column_headers_over_travellers_and_ranking(pairs: Path) -> None:
    lines = tenace("score", pairs).stdout.decode().splitlines()
    board = lines.index("Board 1  top 2")
    assert lines[board + 1].split() == ["Table", "NS", "v", "EW", "Result", "NS", "score", "MP", "NS", "MP", "EW",
                                        "%", "NS", "%", "EW"]
    assert lines[board + 2].startswith("  table  1")
    ranking = lines.index("Ranking NS")
    assert lines[ranking + 1].split() == ["Rank", "Pair", "Matchpoints", "Percent", "Players", "[member", "ids]"]
    # Each header sits over its column: the figures end where their header ends.
    assert lines[ranking + 1].index("Percent") + len("Percent") == lines[ranking + 2].index("%") + 1
    assert lines[board + 1].index("% EW") + 4 == len(lines[board + 2])
    imp = tenace("score", pairs, "--method", "butler").stdout.decode().splitlines()
    head = imp[imp.index("Ranking NS") + 1]
    assert head.split()[:3] == ["Rank", "Pair", "IMPs"]
    assert head.index("IMPs") == imp[imp.index("Ranking NS") + 2].index("IMPs")
    traveller = imp[next(i for i, line in enumerate(imp) if line.startswith("Board 1")) + 1]
    assert traveller.rstrip().endswith("IMP NS  IMP EW")


def test_a_ranking_without_players_has_no_players_header(tmp_path: Path) -> None:
    path = tmp_path / "bare.pbn"
    path.write_text(PAIRS.split("[TotalScoreTable")[0] + "[ScoreTable" + PAIRS.split("[ScoreTable", 1)[1],
                    encoding="utf-8")
    lines = tenace("score", path).stdout.decode().splitlines()
    assert lines[lines.index("Ranking NS") + 1].split() == ["Rank", "Pair", "Matchpoints", "Percent"]
