"""Oracle: the 4th Fifth Friday simultaneous (1999), an online tournament's PBN 2.0 export of frequency tables.

The file's conventions, found from it: each board's [ScoreTable] has one row per distinct NS score (Score_NS), how
many tables had it (Multiplicity) and its Percentage_NS and Percentage_EW to 0.1 (a whole NS one written without
decimals, "75" beside "25.0"). No row names a pair and no board is factored to a common top: a result's percentage
is (results beaten + half the equal ones, itself included) / N over the board's own N results, rounded half-up (a
board of two results is 75/25). `--preset fifth-friday` gives every one of its 1,298 figures.

What cannot be reproduced, and why:
- 18 rows give one side's adjusted percentage and nothing else ("^50" for NS, "-" for the score and EW): no result
  to score, their figure is the file's own input; they are listed as left out.
- The TotalScoreTable's MP and Percentage: its MP is a pair's sum of board percentages and its Percentage that sum
  over the boards it played, but no ScoreTable row says which pair had it, so no pair's boards are in the file.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from tenace.cli import main
from tenace.pbn.reader import PbnGame, read_pbn

from conftest import ORACLES, needs_oracles

PBN = ORACLES / "fifth-friday-1999-frequency.pbn"

pytestmark = needs_oracles


@pytest.fixture(scope="module")
def games() -> list[PbnGame]:
    return read_pbn(PBN)


def score_tables(games: list[PbnGame]) -> dict[int, list[dict[str, str]]]:
    out = {}
    for game in games:
        table = game.tables.get("ScoreTable")
        if table is not None:
            assert table.column_names() == ["Rank", "Percentage_NS", "Percentage_EW", "Score_NS", "Multiplicity"]
            out[int(game.tags["Board"])] = list(table.records())
    return out


def adjusted(row: dict[str, str]) -> bool:
    """A row of one side's adjusted percentage: no score, a "^" percentage on one side and "-" on the other."""
    return row["Score_NS"] == "-" and sorted((row["Percentage_NS"][:1], row["Percentage_EW"][:1])) == ["-", "^"]


def command_json(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["score", str(PBN), *args, "--json"]) == 0
    doc: dict[str, Any] = json.loads(out.getvalue())
    return doc


def test_preset_fifth_friday_reproduces_every_board_percentage(games: list[PbnGame]) -> None:
    doc = command_json("--preset", "fifth-friday")
    assert doc["summary"]["factoring"] == "none"
    boards = {b["board"]: b for b in doc["boards"]}
    tables = score_tables(games)
    assert sorted(boards) == sorted(tables) == list(range(1, 41))
    compared = 0
    for number, rows in tables.items():
        played = [row for row in rows if not adjusted(row)]
        lines = boards[number]["lines"]
        assert len(lines) == len(played)
        n = sum(int(row["Multiplicity"]) for row in played)
        assert boards[number]["top"] == 2 * (n - 1)  # the board's own results: no common top
        for row, line in zip(played, lines, strict=True):
            # Each row a score the file gives (no contract): an assigned score, as many times as its Multiplicity.
            assert (line["count"], line["adjustment"]["weights"]) == (int(row["Multiplicity"]), f"1:{row['Score_NS']}")
            for side in ("ns", "ew"):
                published = row[f"Percentage_{side.upper()}"]
                assert Decimal(str(line[f"percent_{side}"])) == Decimal(published), (number, row)
                compared += 1
    assert compared == 1298
    # The preset is its options: the same figures from them given one by one.
    by_options = command_json("--factoring", "none", "--board-percent", "results", "--percent-decimals", "1")
    assert by_options["boards"] == doc["boards"]


def test_a_board_of_two_results_is_75_25_not_100_0(games: list[PbnGame]) -> None:
    """Why the percentage is over N with the result's own counted as a tie, not its MPs over the top: one result
    beating the other is (1 + 1/2) / 2, where (beaten + half the other equal ones) / (N - 1) would be 100."""
    rows = score_tables(games)[40]
    assert [(row["Score_NS"], row["Multiplicity"], row["Percentage_NS"]) for row in rows] == \
        [("100", "1", "75"), ("-450", "1", "25")]
    doc = command_json("--method", "mp", "--factoring", "none")  # the default percentage: of the board's top
    assert [line["percent_ns"] for line in doc["boards"][39]["lines"]] == [100.0, 0.0]


def test_the_adjusted_rows_are_left_out_and_named(games: list[PbnGame]) -> None:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["score", str(PBN), "--preset", "fifth-friday", "--json"]) == 0
    problems = json.loads(out.getvalue())["problems"]
    want = [(number, f"row {i}") for number, rows in score_tables(games).items()
            for i, row in enumerate(rows, 1) if adjusted(row)]
    assert len(want) == 18
    assert [(p["board"], p["row"]) for p in problems] == want
    assert all(p["reason"].startswith("no result, only an adjusted figure (Percentage_") for p in problems)


def test_the_pairs_totals_cannot_be_rescored_from_the_file(games: list[PbnGame]) -> None:
    """The TotalScoreTable ranks 356 pairs, but no ScoreTable row names a pair: no ranking is made. What the file
    does show: each pair's Percentage is its MP (to 0.1) over a whole number of boards, its sum of board percentages
    over the boards it played (within the MP's rounding); NrBoards is not always that number (22 pairs, the Penarth
    ones 27 for 24), so it cannot stand for it either."""
    doc = command_json("--preset", "fifth-friday")
    assert doc["ranking"] == [] and any("name no pairs" in note for note in doc["notes"])
    totals = next(g.tables["TotalScoreTable"] for g in games if "TotalScoreTable" in g.tables)
    records = list(totals.records())
    assert len(records) == 356
    other_count = 0
    for row in records:
        mp, percent = Fraction(Decimal(row["MP"])), Fraction(Decimal(row["Percentage"]))
        boards = [k for k in range(1, 41) if abs(mp / k - percent) <= Fraction(1, 200) + Fraction(1, 20) / k]
        assert len(boards) == 1, row  # one number of boards fits: the percentage is the MP's average
        other_count += boards[0] != int(row["NrBoards"])
    assert other_count == 22
