"""`tenace score` on PBN files of every shape: frequency tables (a Multiplicity column) by matchpoints, and rows or
rooms whose contract or result cannot be read but whose score the file gives, with and without --strict.

The expected figures are worked out by hand in each test (Law 78A, Law 77, the IMP scale), not read off the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenace.cli import main

# Board 1: 8 results in 5 rows (two rows of 420 that tie); board 2: 3 results in 2 rows.
FREQUENCIES = """[Event "Online"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Contract;Declarer;Result;Multiplicity"]
4S  N 10 3
4S  S 10 1
4S  N 11 1
3NT S 9  2
2H  E 8  1

[Board "2"]
[Vulnerable "None"]
[ScoreTable "Contract;Declarer;Result;Multiplicity"]
4S  N 10 2
4S  N 9  1
"""

GIVEN = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
 1 1 1 11 4S  N 10 420 -
 2 1 2 12 8S  W 13 {NS} {EW}
 3 1 3 13 3NT S 9  400 -
 4 1 4 14 4S  N 11 450 -
"""  # row 2 is line 6

MATCH = """[Event "Match"]
[Board "1"]
[Vulnerable "All"]
[Room "Open"]
[Contract "4H"]
[Declarer "S"]
[Result "10"]

[Board "1"]
[Vulnerable "All"]
[Room "Closed"]
[Contract "4H"]
[Declarer "S"]
[Result ""]
[Score "EW 100"]

[Board "2"]
[Vulnerable "None"]
[Room "Open"]
[Contract "2S"]
[Declarer "N"]
[Result "8"]

[Board "2"]
[Vulnerable "None"]
[Room "Closed"]
[Contract "2S"]
[Declarer "N"]
[Result "9"]
"""  # board 1's closed room starts on line 9


@pytest.fixture
def score(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """score(text, *args): `tenace score in.pbn *args` in tmp_path; (exit code, stdout, stderr lines)."""
    monkeypatch.chdir(tmp_path)

    def scored(text: str, *args: str) -> tuple[int, str, list[str]]:
        (tmp_path / "in.pbn").write_text(text, encoding="utf-8")
        try:
            code = main(["score", "in.pbn", *args])
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err.splitlines()

    return scored


def figures(doc: dict[str, Any], key: str = "mp") -> dict[int, list[tuple[int, float, float]]]:
    return {b["board"]: [(line["count"], line[f"{key}_ns"], line[f"{key}_ew"]) for line in b["lines"]]
            for b in doc["boards"]}


# --- frequency tables by matchpoints ---------------------------------------------------------------------------

@pytest.mark.parametrize("strict", [(), ("--strict",)])
def test_a_frequency_table_is_matchpointed_row_by_row_as_its_multiplicities_say(score: Any,
                                                                                  strict: tuple[str, ...]) -> None:
    code, out, err = score(FREQUENCIES, "--json", *strict)
    assert (code, err) == (0, [])
    doc = json.loads(out)
    assert doc["problems"] == [] and doc["ranking"] == [] and doc["summary"]["results"] == 11
    board1, board2 = doc["boards"]
    # Board 1: N = 3+1+1+2+1 = 8 results, top 2(N-1) = 14. 420 (4 results, two rows): beats 400 x2 and -110, 3 results,
    # 6 MPs, and ties with its 3 other results, 3: 9 of 14 for both rows. 450 beats all 7: 14. 400 beats -110: 2,
    # ties with 1: 3. -110: 0. EW gets 14 minus NS.
    assert (board1["top"], board1["expected"]) == (14, 8)
    assert figures(doc)[1] == [(3, 9.0, 5.0), (1, 9.0, 5.0), (1, 14.0, 0.0), (2, 3.0, 11.0), (1, 0.0, 14.0)]
    assert [line["percent_ns"] for line in board1["lines"]] == [64.29, 64.29, 100.0, 21.43, 0.0]  # 9/14, 3/14
    # Board 2: N = 3 results, brought to E = 8 by Neuberg, (M+1)E/N - 1: 420 x2 has M = 2 + 1 = 3, so 4*8/3 - 1 =
    # 29/3 = 9.67; -50 has 0, so 8/3 - 1 = 5/3 = 1.67 (EW: 14 minus those).
    assert (board2["top"], board2["expected"]) == (14, 8)
    assert figures(doc)[2] == [(2, 9.67, 4.33), (1, 1.67, 12.33)]


def test_a_frequency_table_in_north_american_units_and_as_text(score: Any) -> None:
    code, out, _ = score(FREQUENCIES, "--method", "mp-acbl", "--json")
    # Board 1 in NA units: top N-1 = 7; 420 beats 3 results (3) and ties with 3 (3 halves): 4.5; 450: 7; 400: 1 + 1/2.
    assert code == 0 and figures(json.loads(out))[1] == [(3, 4.5, 2.5), (1, 4.5, 2.5), (1, 7.0, 0.0), (2, 1.5, 5.5),
                                                         (1, 0.0, 7.0)]
    code, out, _ = score(FREQUENCIES)
    lines = out.splitlines()
    assert code == 0 and "Board 1  top 14" in lines
    row = next(line for line in lines if "x3" in line)
    assert row.split()[-4:] == ["9.00", "5.00", "64.29", "35.71"] and "table" not in row  # rows are not tables


def test_a_multiplicity_of_0_is_a_row_left_out(score: Any) -> None:
    text = FREQUENCIES.replace("2H  E 8  1", "2H  E 8  0")
    code, out, err = score(text, "--json")
    assert len(err) == 2  # the count, then the row
    doc = json.loads(out)
    assert code == 0 and [(p["board"], p["row"]) for p in doc["problems"]] == [(1, "row 5")]
    assert "a Multiplicity of 0" in doc["problems"][0]["reason"]
    # Board 1 on the 7 other results, Neuberg to E = 7 (the most any board has): top 12, and 450 beats all 6.
    assert doc["boards"][0]["top"] == 12 and figures(doc)[1][2] == (1, 12.0, 0.0)
    assert score(text, "--strict")[0] == 2


# --- a row or room that cannot be read, with its score given --------------------------------------------------

@pytest.mark.parametrize(("ns", "ew"), [("50", "-"), ("-", "-50")])
def test_a_contract_8s_with_its_score_given_is_scored_by_that_score_and_listed(score: Any, ns: str, ew: str) -> None:
    text = GIVEN.replace("{NS}", ns).replace("{EW}", ew)
    code, out, err = score(text, "--json")
    assert code == 0
    doc = json.loads(out)
    why = "contract '8S' must start with a level 1 to 7 then a strain: scored by the score it gives (NS +50)"
    assert doc["problems"] == [{"line": 6, "board": 1, "row": "row 2", "reason": why}]
    assert err == ["tenace score: in.pbn: 1 row or room scored by the file's own score, the rest scored:",
                   f"  in.pbn:6: board 1 row 2: {why}"]
    # All four rows count: top 2(4-1) = 6. NS +50 is the lowest score: 0 for NS 2, 6 for EW 12; 420 beats 400 and 50:
    # 4; 400 beats 50: 2; 450: 6. Left out, the row would have made a top of 4 factored to 6 instead.
    board = doc["boards"][0]
    assert board["top"] == 6 and [line["ns_score"] for line in board["lines"]] == [420, 50, 400, 450]
    assert [(line["mp_ns"], line["mp_ew"]) for line in board["lines"]] == [(4.0, 2.0), (0.0, 6.0), (2.0, 4.0),
                                                                          (6.0, 0.0)]
    assert len(doc["ranking"]) == 8
    code, out, _ = score(text)
    assert code == 0 and "8S    by W  13   NS    +50" in out  # the contract and result as the file gives them


def test_strict_refuses_a_row_scored_by_its_given_score(score: Any) -> None:
    code, out, err = score(GIVEN.replace("{NS}", "50").replace("{EW}", "-"), "--strict")
    assert (code, out) == (2, "")
    assert err == ["  in.pbn:6: board 1 row 2: contract '8S' must start with a level 1 to 7 then a strain: scored by "
                   "the score it gives (NS +50)",
                   "tenace score: in.pbn: 1 row or board that cannot be scored (--strict; without it they are left "
                   "out, or scored by the score the file gives them, and the rest is scored)"]


def test_cross_imps_take_a_given_score_too(score: Any) -> None:
    code, out, _ = score(GIVEN.replace("{NS}", "50").replace("{EW}", "-"), "--method", "cross-imps", "--json")
    assert code == 0
    # NS +50 against 420 (370 points: 9 IMPs), 400 (350: 8) and 450 (400: 9): -26 over 3 comparisons = -8.67.
    assert json.loads(out)["boards"][0]["lines"][1]["imp_ns"] == -8.67


def test_a_team_room_with_an_empty_result_and_a_score_tag_is_scored_by_that_score(score: Any) -> None:
    code, out, err = score(MATCH, "--method", "teams", "--json")
    assert code == 0
    doc = json.loads(out)
    why = "result '': give =, +n, -n or the total tricks 0 to 13: scored by its Score tag (NS -100)"
    assert doc["problems"] == [{"line": 9, "board": 1, "row": "closed room", "reason": why}]
    assert err[0] == "tenace score: in.pbn: 1 row or room scored by the file's own score, the rest scored:"
    # Board 1: 4H made vulnerable, +620 in the open room; EW +100 in the closed: 720 points, 12 IMPs to the home team.
    # Board 2: +110 against +140: 30 points, 1 IMP to the away team.
    assert [b["board"] for b in doc["boards"]] == [1, 2]
    assert (doc["summary"]["imps_home"], doc["summary"]["imps_away"]) == (12.0, 1.0)
    assert score(MATCH, "--method", "teams", "--strict")[0] == 2
