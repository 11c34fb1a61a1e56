"""`tenace score` on imperfect files: what it cannot read is left out and listed, the rest scored; --strict refuses.

Each case runs `tenace.cli.main` in-process on a small file with one kind of flaw (a contract `8S`, a row short of a
cell, a team board with one room or an empty result, score tables without pair ids, empty and non-PBN input) and
checks the boards scored, the problems listed (stderr and `problems` in --json) and the exit code, with and without
--strict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenace.cli import main

GOOD = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result"]
 1 1 1 11 4S  N 10
{ROW}
 3 1 3 13 3NT S 9
 4 1 4 14 4S  N 11

[Board "2"]
[Vulnerable "NS"]
[ScoreTable "#"]
 1 1 1 11 2H  E 8
 2 1 2 12 2H  E 8
 3 1 3 13 Pass - -
 4 1 4 14 2HX E 7
"""
ROW = " 2 1 2 12 4S  N 10"  # line 6

MATCH = """[Event "Match"]
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

[Board "2"]
[Room "Open"]
[Contract "3NT"]
[Declarer "S"]
[Result "9"]

[Board "2"]
[Room "Closed"]
[Contract "3NT"]
[Declarer "S"]
[Result ""]

[Board "3"]
[Room "Open"]
[Contract "2H"]
[Declarer "E"]
[Result "8"]

[Board "4"]
[Room "Open"]
[Contract "1NT"]
[Declarer "W"]
[Result "7"]

[Board "4"]
[Room "Closed"]
[Contract "1NT"]
[Declarer "W"]
"""

NO_PAIRS = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;Contract;Declarer;Result;Score_NS;Score_EW"]
 1 1 4S  N 10 - -
 2 1 4S  N 11 - -
 3 1 3NT S 9  - -
 4 1 -   -  - A+ A-

[Board "2"]
[Vulnerable "NS"]
[ScoreTable "#"]
 1 1 2H  E 8 - -
 2 1 2H  E 8 - -
 3 1 Pass - - - -
"""


@pytest.fixture
def score(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """score(text, *args): `tenace score in.pbn *args` in tmp_path; (exit code, stdout, stderr lines)."""
    monkeypatch.chdir(tmp_path)

    def scored(text: str | bytes, *args: str) -> tuple[int, str, list[str]]:
        path = tmp_path / "in.pbn"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        try:
            code = main(["score", "in.pbn", *args])
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err.splitlines()

    return scored


def boards_of(doc: dict[str, Any]) -> dict[int, list[tuple[int, float, float]]]:
    return {b["board"]: [(line["table"], line["mp_ns"], line["mp_ew"]) for line in b["lines"]] for b in doc["boards"]}


# --- a row that cannot be read ---------------------------------------------------------------------------------

def test_a_contract_8s_leaves_its_row_out_and_the_board_is_scored_on_the_others(score: Any) -> None:
    code, out, err = score(GOOD.replace("{ROW}", " 2 1 2 12 8S  N 10"), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["problems"] == [{"line": 6, "board": 1, "row": "row 2",
                                "reason": "contract '8S' must start with a level 1 to 7 then a strain"}]
    assert err == ["tenace score: in.pbn: 1 row or board left out, the rest scored:",
                   "  in.pbn:6: board 1 row 2: contract '8S' must start with a level 1 to 7 then a strain"]
    # Board 1 on its three readable rows, factored by Neuberg to the 4 results board 2 has (Law 78): (M+1)*4/3 - 1.
    board1 = doc["boards"][0]
    assert (board1["board"], board1["expected"], board1["top"]) == (1, 4, 6)
    assert [(t, ns) for t, ns, _ in boards_of(doc)[1]] == [(1, 3.0), (3, 0.33), (4, 5.67)]
    assert doc["summary"]["results"] == 7 and len(doc["ranking"]) == 8


def test_a_flawed_row_scores_as_if_it_were_not_in_the_file(score: Any) -> None:
    """The figures of a file with an unreadable row are those of the same file without that row."""
    flawed = json.loads(score(GOOD.replace("{ROW}", " 2 1 2 12 8S  N 10"), "--json")[1])
    without = json.loads(score(GOOD.replace("{ROW}\n", ""), "--json")[1])
    assert without["problems"] == []
    assert flawed["boards"] == without["boards"] and flawed["ranking"] == without["ranking"]


def test_strict_refuses_the_file_with_one_line_per_problem(score: Any) -> None:
    code, out, err = score(GOOD.replace("{ROW}", " 2 1 2 12 8S  N 10"), "--strict")
    assert (code, out) == (2, "")
    assert err == ["  in.pbn:6: board 1 row 2: contract '8S' must start with a level 1 to 7 then a strain",
                   "tenace score: in.pbn: 1 row or board that cannot be scored (--strict; without it they are left "
                   "out and the rest is scored)"]


def test_a_row_short_of_a_cell_and_a_row_without_a_result_are_left_out(score: Any) -> None:
    text = GOOD.replace("{ROW}", " 2 1 2 12 4S  N").replace(" 3 1 3 13 Pass - -", " 3 1 3 13 Pass - ")
    code, out, err = score(text, "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(p["line"], p["board"], p["row"]) for p in doc["problems"]] == [(6, 1, None), (15, 2, None)]
    assert "6 cells where [ScoreTable] has 7 columns" in doc["problems"][0]["reason"]
    assert [[t for t, _, _ in lines] for lines in boards_of(doc).values()] == [[1, 3, 4], [1, 2, 4]]
    assert err[0] == "tenace score: in.pbn: 2 rows or boards left out, the rest scored:" and len(err) == 3
    assert score(text, "--strict")[0] == 2


def test_butler_and_cross_imps_leave_the_same_row_out(score: Any) -> None:
    for method in ("butler", "cross-imps"):
        code, out, err = score(GOOD.replace("{ROW}", " 2 1 2 12 4S  N 14"), "--method", method, "--json")
        doc = json.loads(out)
        assert code == 0 and [p["row"] for p in doc["problems"]] == ["row 2"], method
        assert [line["table"] for line in doc["boards"][0]["lines"]] == [1, 3, 4]
        assert "14 tricks is impossible" in err[1]
        assert score(GOOD.replace("{ROW}", " 2 1 2 12 4S  N 14"), "--method", method, "--strict")[0] == 2


def test_a_file_none_of_whose_rows_can_be_read_is_refused_with_its_rows(score: Any) -> None:
    text = '[Board "1"]\n[ScoreTable "Table;PairId_NS;PairId_EW;Contract;Declarer;Result"]\n1 1 2 8S N 10\n'
    code, out, err = score(text)
    assert (code, out) == (2, "")
    assert err == ["  in.pbn:3: board 1 row 1: contract '8S' must start with a level 1 to 7 then a strain",
                   "tenace score: in.pbn: none of its results could be scored (1 left out)"]


def test_a_board_whose_number_cannot_be_read_is_left_out(score: Any) -> None:
    code, out, err = score(GOOD.replace("{ROW}", ROW).replace('[Board "2"]', '[Board "two"]'), "--json")
    doc = json.loads(out)
    assert code == 0 and [b["board"] for b in doc["boards"]] == [1]
    assert doc["problems"] == [{"line": 10, "board": None, "row": None,
                                "reason": "Board tag 'two' is not a number; the board is left out"}]
    assert err[1] == "  in.pbn:10: Board tag 'two' is not a number; the board is left out"


# --- team boards -----------------------------------------------------------------------------------------------

def test_a_team_board_with_one_room_or_an_empty_result_is_left_out_of_the_match(score: Any) -> None:
    code, out, err = score(MATCH, "--method", "teams", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [b["board"] for b in doc["boards"]] == [1]
    assert doc["summary"]["boards"] == 1 and doc["summary"]["imps_home"] == 10.0
    assert [(p["line"], p["board"], p["row"]) for p in doc["problems"]] == [
        (20, 2, "closed room"), (26, 3, None), (38, 4, "closed room")]
    assert err == [
        "tenace score: in.pbn: 3 rows or boards left out, the rest scored:",
        "  in.pbn:20: board 2 closed room: result '': give =, +n, -n or the total tricks 0 to 13; the board is left "
        "out of the match",
        "  in.pbn:26: board 3: one room only: a team board needs one result per room; left out of the match",
        "  in.pbn:38: board 4 closed room: result '': give =, +n, -n or the total tricks 0 to 13; the board is left "
        "out of the match"]
    code, out, err = score(MATCH, "--method", "teams", "--strict")
    assert (code, out, len(err)) == (2, "", 4) and err[-1].startswith("tenace score: in.pbn: 3 rows or boards that")


def test_a_team_board_of_one_room_whose_file_gives_its_imps_is_scored_by_them(score: Any, tmp_path: Path) -> None:
    """Board 3 was played in the open room only and its game gives ScoreIMP NS 5 (that table's North-South, the
    home team): scored 5 to home and named; board 5, the closed room only, EW 2 there is 2 to home (EW in the
    closed room). A room of one board without ScoreIMP is still left out."""
    with_imps = MATCH.replace('[Board "3"]\n[Room "Open"]\n', '[Board "3"]\n[Room "Open"]\n[ScoreIMP "NS 5"]\n')
    with_imps += '\n[Board "5"]\n[Room "Closed"]\n[ScoreIMP "EW 2"]\n[Contract "3C"]\n[Declarer "S"]\n[Result "9"]\n'
    code, out, err = score(with_imps, "--method", "teams", "--json")
    assert code == 0
    doc = json.loads(out)
    boards = {b["board"]: b for b in doc["boards"]}
    assert sorted(boards) == [1, 3, 5]
    assert (boards[3]["imp_home"], boards[3]["imp_away"], boards[3]["difference"]) == (5.0, 0.0, None)
    assert boards[3]["closed"] is None and boards[3]["open"]["contract"] == "2H"
    assert (boards[5]["imp_home"], boards[5]["imp_away"], boards[5]["open"]) == (2.0, 0.0, None)
    assert doc["summary"]["imps_home"] == 17.0 and doc["summary"]["boards"] == 3
    assert "  in.pbn:26: board 3 open room: one room only: scored by its ScoreIMP (NS 5)" in err
    assert any("board 5 closed room: one room only: scored by its ScoreIMP (EW 2)" in line for line in err)
    code, text, _ = score(with_imps, "--method", "teams")
    assert code == 0 and any(line.split()[:2] == ["3", "2H"] and line.split()[-2:] == ["5.00", "0.00"]
                             for line in text.splitlines())
    # Written back with --pbn, each such room keeps the ScoreIMP it was scored by, so the written file scores alike.
    written = tmp_path / "out.pbn"
    assert score(with_imps, "--method", "teams", "--pbn", str(written))[0] == 0
    code, again, _ = score(written.read_text(), "--method", "teams", "--json")
    assert json.loads(again)["boards"] == doc["boards"]


# --- no pair ids -------------------------------------------------------------------------------------------------

def test_a_file_naming_no_pairs_gets_every_boards_matchpoints_and_no_ranking(score: Any) -> None:
    code, out, err = score(NO_PAIRS, "--json")
    assert (code, err) == (0, [])
    doc = json.loads(out)
    assert doc["ranking"] == [] and doc["problems"] == []
    assert doc["notes"] == ["the score tables name no pairs, so there is no ranking: per-board figures only"]
    boards = boards_of(doc)
    # Board 1: three played results on a top of 6 (E = 4, Neuberg) and A+/A- at 60/40 of it (Law 12C2).
    assert boards[1] == [(1, 3.0, 3.0), (2, 5.67, 0.33), (3, 0.33, 5.67), (4, 3.6, 2.4)]
    # Board 2: three results, factored to the 4 of board 1.
    assert boards[2] == [(1, 1.67, 4.33), (2, 1.67, 4.33), (3, 5.67, 0.33)]
    code, out, err = score(NO_PAIRS)
    assert code == 0 and err == []
    assert out.rstrip().splitlines()[-1] == "Note: the score tables name no pairs, so there is no ranking: " \
                                            "per-board figures only"
    assert score(NO_PAIRS, "--strict")[0] == 0  # a file without pairs is not a flaw: nothing was left out


def test_a_board_without_pair_ids_in_a_file_that_names_pairs_is_left_out(score: Any) -> None:
    text = GOOD.replace("{ROW}", ROW).replace('[ScoreTable "#"]', '[ScoreTable "Table;Round;Contract;Declarer;Result"]')
    text = text.replace(" 1 1 1 11 2H", " 1 1 2H").replace(" 2 1 2 12 2H", " 2 1 2H").replace(
        " 3 1 3 13 Pass", " 3 1 Pass").replace(" 4 1 4 14 2HX", " 4 1 2HX")
    code, out, err = score(text, "--json")
    doc = json.loads(out)
    assert code == 0 and [b["board"] for b in doc["boards"]] == [1] and len(doc["ranking"]) == 8
    assert [(p["line"], p["board"], p["row"], p["reason"]) for p in doc["problems"]] == [
        (line, 2, f"row {row}", "no pair ids (PairId_NS, PairId_EW)") for row, line in enumerate(range(13, 17), 1)]
    assert len(err) == 5
    assert score(text, "--strict")[0] == 2


# --- a good file, and files that are not PBN at all -----------------------------------------------------------

def test_a_good_file_lists_no_problems(score: Any) -> None:
    code, out, err = score(GOOD.replace("{ROW}", ROW), "--json")
    assert (code, err, json.loads(out)["problems"]) == (0, [], [])
    assert score(GOOD.replace("{ROW}", ROW), "--strict")[:1] == (0,)


@pytest.mark.parametrize(("data", "says"), [
    (b"", "in.pbn: an empty file: there is nothing to score"),
    (b"\n  \r\n\n", "in.pbn: an empty file: there is nothing to score"),
    (b"% PBN 2.1\n; only a comment\n", "in.pbn: no game in it, only comments: not a PBN results file"),
    (bytes(range(256)), "in.pbn: a binary file, not PBN text"),
    (b"Board,Contract,Result\n1,4S,10\n", "in.pbn: not a PBN file: line 1 is not a PBN tag such as [Event"),
    (b'[Event "x"]\n[Board "1"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n',
     "in.pbn: no game in it has a ScoreTable: there are no results to score"),
])
@pytest.mark.parametrize("strict", [(), ("--strict",)])
def test_empty_binary_and_non_pbn_input_says_so(data: bytes, says: str, strict: tuple[str, ...], score: Any) -> None:
    code, out, err = score(data, *strict)
    assert (code, out, len(err)) == (2, "", 1) and err[0].startswith(f"tenace score: {says}"), err
