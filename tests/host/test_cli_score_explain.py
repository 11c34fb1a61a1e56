"""`tenace score --explain BOARD`: each figure of a board made step by step, and the same as the report's."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from tenace.cli import main
from tenace.pbn.reader import read_pbn
from tenace.reports.explain import explain_board, rounding_text
from tenace.reports.rescore import cross_imps_report, matchpoint_report
from tenace.reports.rescore_usebio import usebio_report
from tenace.scoring.butler import ButlerOptions
from tenace.scoring.cross_imps import CrossImpOptions
from tenace.scoring.presets import PRESETS
from tenace.scoring.rounding import Rounding
from tenace.usebio.reader import parse_usebio

from conftest import ORACLES, needs_oracles

CLUB = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result"]
 1 1 1 11 4S  N 10
 2 1 2 12 4S  N 10
 3 1 3 13 3NT S 9
 4 1 4 14 4S  N 11

[Board "2"]
[Vulnerable "NS"]
[ScoreTable "#"]
 1 1 1 11 2H  E 8
 2 1 2 12 2H  E 8
 3 1 3 13 Pass - -
"""


def run(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "club.pbn"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["score", str(path), *args])
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_a_board_explained_step_by_step(tmp_path: Path) -> None:
    """Board 2 was played at 3 tables of the 4 that played board 1: E = 4, so Neuberg brings its 3 results to it.
    2H by E making (-110) twice beats the passed out board's 0 not at all: MP1 0 + 1 = 1, (1 + 1) x 4/3 - 1 = 5/3."""
    code, out, err = run(tmp_path, CLUB, "--explain", "2")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("Board 2: 3 results compared, E = 4 (the results the top is set for), top 6 (MP1: 2 per "
                        "result beaten, 1 per other equal one)")
    assert "  3 results brought to E = 4 by Neuberg: M' = (M + 1) x 4/3 - 1 in MP1 units" in lines
    at = lines.index("  NS -110 (2 results): beats 0, ties 1: MP1 2 x 0 + 1 = 1, factored: 1.666666666666...")
    assert lines[at + 1] == "    NS MPs 1.666666666666... to 2 decimals half-up: 1.67; % 27.78  EW MPs 4.33, % 72.22"
    assert "Some figure" not in out


def test_explain_refuses_a_board_not_scored_and_json(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, CLUB, "--explain", "7")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--explain 7: board 7 is not scored here (boards 1-2)" in err
    code, out, err = run(tmp_path, CLUB, "--explain", "1", "--json")
    assert code == 2 and "--explain prints a board's steps as text: leave out --json" in err


def test_rounding_text_shows_the_double_a_program_prints() -> None:
    from fractions import Fraction

    assert rounding_text(Fraction(3, 40), 2, Rounding.DOUBLE) == (
        "0.075 held as the double 0.07499999999999999722444243843710864894092082977294921875, printed to 2 decimals "
        "as C's %.2f: 0.07")
    assert rounding_text(Fraction(3, 40), 2, Rounding.HALF_EVEN) == "0.075 to 2 decimals half-even: 0.08"


@needs_oracles
def test_every_board_of_the_oracles_explained_gives_the_reports_figures() -> None:
    """The explanation recomputes each figure with the engine's own steps: on every board of the frequency-table
    files and the Compscore3 matchpoint files, under their presets, it ends on the report's figures."""
    checked = 0
    for name, preset in (("fifth-friday-1999-frequency.pbn", "fifth-friday"),
                         ("okbridge-imp-pairs-01.pbn", "okbridge")):
        games = read_pbn(ORACLES / name)
        options = PRESETS[preset]
        report = (matchpoint_report(games, "mp", options.matchpoints) if preset == "fifth-friday"
                  else cross_imps_report(games, options.cross_imps))
        for board in report.boards:
            done = explain_board(report, board.board, options.matchpoints, ButlerOptions(), options.cross_imps)
            assert done.agrees, (name, board.board)
            checked += 1
    for name in ("compscore3-mp_pairs_mitchell.xml", "compscore3-mp_pairs_mitchell_sitout.xml",
                 "compscore3-mp_pairs_mitchell_adjusted.xml"):
        event = parse_usebio((ORACLES / "usebio" / name).read_bytes())
        options = PRESETS["compscore3"]
        report, _ = usebio_report(event, options.matchpoints, ButlerOptions(), CrossImpOptions())
        for board in report.boards:
            assert explain_board(report, board.board, options.matchpoints, ButlerOptions(), CrossImpOptions()).agrees
            checked += 1
    for name in ("compscore3-butler_howell.xml", "compscore3-cross_imp_howell.xml"):
        event = parse_usebio((ORACLES / "usebio" / name).read_bytes())
        report, _ = usebio_report(event, PRESETS["compscore3"].matchpoints, ButlerOptions(), CrossImpOptions())
        for board in report.boards:
            assert explain_board(report, board.board, PRESETS["compscore3"].matchpoints, ButlerOptions(),
                                 CrossImpOptions()).agrees, (name, board.board)
            checked += 1
    assert checked == 40 + 193 + 27 + 21 + 27 + 35 + 27


@needs_oracles
@pytest.mark.parametrize(("args", "want"), [
    (("fifth-friday-1999-frequency.pbn", "--preset", "fifth-friday", "--explain", "40"),
     ["  percentage: (beaten + half the equal results, itself included) / N = (MP1 + 1) / (top + 2)",
      "    NS MPs 2 to 2 decimals half-up: 2.00; % 75.0  EW MPs 0.00, % 25.0"]),
    (("okbridge-imp-pairs-01.pbn", "--preset", "okbridge", "--explain", "546"),
     ["  NS +200 (6): 6 IMPs / 80 = 0.075 held as the double 0.07499999999999999722444243843710864894092082977294921875"
      ", printed to 2 decimals as C's %.2f: 0.07"]),
    (("venice-cup-1997-final-2.pbn", "--method", "teams", "--explain", "17"),
     ["Board 17: open room NS +480, closed room NS +480: difference +0: no IMPs (a flat board) (the home team sits "
      "NS in the open room)"]),
])
def test_the_oracles_boards_explained(args: tuple[str, ...], want: list[str], tmp_path: Path) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["score", str(ORACLES / args[0]), *args[1:]]) == 0
    lines = out.getvalue().splitlines()
    assert all(line in lines for line in want), lines
