"""Oracle: OKbridge IMP pairs (193 boards, 18,396 results) re-scored from the raw results by cross-IMPs.

The file's conventions, learned from its tags and tables: each board's [ScoreTable] lists one row per distinct
result (Contract, Declarer, Result = declarer's tricks) with its NS score, the IMPs per comparison it earned
(IMP_NS, two decimals) and how many tables had it (Multiplicity). IMP_NS is the cross-IMP total against every
other result, multiplicity counted, divided by the results on the board minus one. Only Contract, Declarer,
Result, Multiplicity and the board's Vulnerable are inputs here; Score_NS and IMP_NS are expected values.

Rounding: the exact averages are rounded to the nearest hundredth. 19 distinct scores (30 table rows) lie
exactly halfway; the publisher holds the average as a binary double and prints it as C's %.2f does (the double's
exact binary value to 0.01, ties to even: 6.125 -> 6.12, 4.575 -> 4.58 from 4.57500000000000017...), which
`--preset okbridge` does (Rounding.DOUBLE). Measured on 20 other OKbridge IMP-pair games (issue 33): 158 of their
159 halfway figures are so, against 126 by ties to even on the exact value. Here 3 distinct halfway figures (6 rows)
are published on the other side of the half from their double; the tests name them from the data.

Board 395 is left out: its last row, 5D by N making 10 tricks not vulnerable, reads -55 (Law 77 gives -50:
no Law 77 score ends in 5), and none of that board's IMPs fit a per-comparison average of the listed scores
with either -50 or -55; the published figures come from something the file does not record.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

import pytest

from tenace.cli import main
from tenace.pbn.reader import PbnGame, read_pbn
from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit, cross_imps_board
from tenace.scoring.imp_results import Score
from tenace.scoring.rounding import Rounding, to_decimal
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract, parse_vulnerability
from tenace_rules.score import ns_score

from conftest import ORACLES, needs_oracles

PBN = ORACLES / "okbridge-imp-pairs-01.pbn"
ANOMALOUS_BOARD = 395

pytestmark = needs_oracles


@dataclass(frozen=True)
class Row:
    contract: str
    declarer: str
    tricks: str
    score_ns: int  # expected: the file's Score_NS
    imp_ns: str  # expected: the file's IMP_NS, as printed
    count: int
    rank: int


def rows(game: PbnGame) -> list[Row]:
    table = game.tables["ScoreTable"]
    assert table.column_names() == ["Rank", "Contract", "Declarer", "Result", "Score_NS", "IMP_NS", "Multiplicity"]
    return [Row(r["Contract"], r["Declarer"], r["Result"], int(r["Score_NS"]), r["IMP_NS"], int(r["Multiplicity"]),
                int(r["Rank"])) for r in table.records()]


def law77(game: PbnGame, row: Row) -> int:
    """The NS score recomputed from contract, declarer and tricks, with the board's vulnerability."""
    contract = parse_contract(row.contract)
    if contract.passed_out:
        return 0
    return ns_score(contract, row.declarer, parse_vulnerability(game.tags["Vulnerable"]), int(row.tricks))


@pytest.fixture(scope="module")
def games() -> list[PbnGame]:
    return read_pbn(PBN)


@dataclass
class Tally:
    exact: int = 0
    halfway: int = 0
    halfway_even: int = 0


def test_every_board_has_its_law_2_vulnerability(games: list[PbnGame]) -> None:
    assert len(games) == 193
    for game in games:
        board = int(game.tags["Board"])
        assert parse_vulnerability(game.tags["Vulnerable"]) == vulnerability(board), board


def test_law_77_scores_from_the_raw_results(games: list[PbnGame]) -> None:
    mismatches = []
    compared = 0
    for game in games:
        for row in rows(game):
            compared += 1
            if law77(game, row) != row.score_ns:
                mismatches.append((int(game.tags["Board"]), row.contract, row.declarer, row.tricks, row.score_ns))
    assert compared == 5172
    # The one row no Law 77 score can match (see the module docstring).
    assert mismatches == [(ANOMALOUS_BOARD, "5D", "N", "10", -55)]


def test_rank_column_counts_multiplicities(games: list[PbnGame]) -> None:
    for game in games:
        position = 1
        for row in rows(game):
            assert row.rank == position
            position += row.count


def test_cross_imps_per_comparison_reproduce_every_published_figure(games: list[PbnGame]) -> None:
    tally = Tally()
    off_by_rounding: list[tuple[int, int, Fraction, str]] = []
    for game in games:
        board = int(game.tags["Board"])
        if board == ANOMALOUS_BOARD:
            continue
        table = rows(game)
        # Inputs: the recomputed scores and their multiplicities only.
        entries = [Score(law77(game, row), count=row.count) for row in table]
        result = cross_imps_board(entries, CrossImpOptions(unit=CrossImpUnit.PER_COMPARISON))
        assert result.results == sum(row.count for row in table)
        for row, line in zip(table, result.lines, strict=True):
            published = Decimal(row.imp_ns)
            assert line.ew_imps == -line.ns_imps
            if (line.ns_imps * 200).denominator == 1 and (line.ns_imps * 100).denominator == 2:
                # Exactly halfway between two hundredths: either neighbour is a faithful rounding.
                tally.halfway += 1
                assert abs(Fraction(published) - line.ns_imps) == Fraction(1, 200), (board, row)
                if to_decimal(line.ns_imps, 2, Rounding.HALF_EVEN) == published:
                    tally.halfway_even += 1
                else:
                    off_by_rounding.append((board, law77(game, row), line.ns_imps, row.imp_ns))
            else:
                assert to_decimal(line.ns_imps, 2) == published, (board, row, line.ns_imps)
                tally.exact += 1
    assert tally.exact + tally.halfway == 5160  # every IMP figure of the 192 boards
    assert (tally.halfway, tally.halfway_even) == (30, 28)  # table rows; 19 and 17 distinct scores
    assert off_by_rounding == [(146, -430, Fraction(-261, 40), "-6.53"), (798, -90, Fraction(221, 40), "5.53")]


def test_the_played_result_tags_agree_with_the_table(games: list[PbnGame]) -> None:
    compared = 0
    for game in games:
        board = int(game.tags["Board"])
        if board == ANOMALOUS_BOARD:
            continue
        table = rows(game)
        played = (game.tags["Contract"], game.tags["Declarer"], game.tags["Result"])
        if parse_contract(played[0]).passed_out:  # the tags leave declarer and result empty, the table has "-"
            played = (played[0], "-", "-")
        mine = [row for row in table if (row.contract, row.declarer, row.tricks) == played]
        assert len(mine) == 1, board
        side, score = game.tags["Score"].split()
        assert (side, int(score)) == ("NS", law77(game, mine[0]))
        entries = [Score(law77(game, row), count=row.count) for row in table]
        line = cross_imps_board(entries).lines[table.index(mine[0])]
        side, imps = game.tags["ScoreIMP"].split()
        assert side == "NS"
        assert Decimal(imps) == Decimal(mine[0].imp_ns), board
        assert abs(Fraction(Decimal(imps)) - line.ns_imps) <= Fraction(1, 200), board
        compared += 1
    assert compared == 192


# --- through the command: `tenace score --preset okbridge`, and the file's frequency tables by matchpoints ---------

def command_json(*args: str) -> dict[str, Any]:
    """`tenace score okbridge.pbn *args --json`, in-process; it must list no problems."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["score", str(PBN), *args, "--json"]) == 0
    doc: dict[str, Any] = json.loads(out.getvalue())
    assert doc["problems"] == []
    return doc


def halfway(value: Fraction) -> bool:
    return (value * 100).denominator == 2


def test_preset_okbridge_reproduces_every_published_imp_figure_but_three_halfway_ones(games: list[PbnGame]) -> None:
    doc = command_json("--preset", "okbridge")  # no --method: the preset's, cross-IMPs per comparison
    assert doc["method"] == "cross-imps" and doc["summary"]["unit"] == "per-comparison"
    boards = {b["board"]: b["lines"] for b in doc["boards"]}
    differ = []
    compared = 0
    for game in games:
        board = int(game.tags["Board"])
        if board == ANOMALOUS_BOARD:
            continue
        table = rows(game)
        exact = cross_imps_board([Score(law77(game, row), count=row.count) for row in table]).lines
        for row, line, want in zip(table, boards[board], exact, strict=True):
            assert (line["contract"], line["count"]) == (row.contract, row.count)
            compared += 1
            published = Decimal(row.imp_ns)
            if Decimal(str(line["imp_ns"])) != published:
                # Each exception is exactly halfway, and the publisher's figure lies on the other side of the half
                # from the nearest double of the exact average (the figure printed): no printing of that double
                # gives it, so the program's value there was not that double.
                value = want.ns_imps
                assert halfway(value) and abs(Fraction(published) - value) == Fraction(1, 200), (board, row)
                double = Fraction(float(value))
                assert double != value and (double > value) != (Fraction(published) > value), (board, row)
                differ.append((board, line["ns_score"], row.contract))
    assert compared == 5160
    # Three halfway averages, two table rows each (two contracts scoring the same): -0.025 published -0.02 (its
    # double -0.02500000000000000139 prints -0.03), 0.075 published 0.08 (0.07499999999999999722: 0.07), -1.575
    # published -1.58 (-1.57499999999999995559: -1.57).
    assert sorted(differ) == [(387, -110, "2H"), (387, -110, "3C"), (546, 200, "2S"), (546, 200, "3S"),
                              (798, -400, "3NT"), (798, -400, "3NT")]


def test_binary_double_and_ties_to_even_on_the_halfway_figures(games: list[PbnGame]) -> None:
    """The halfway figures by both rules: printing the nearest double to two decimals (C's %.2f, the preset's) gets
    6 of the 30 rows wrong here, ties to even on the exact value 2 (-6.525 and 5.525, whose doubles print -6.53
    and 5.53 as published); on 20 other games of the program the double is right where ties to even is not
    (issue 33: 158 against 126 of 159), so the preset follows the program's arithmetic, not this file's count."""
    wrong = {"even": 0, "double": 0}
    for game in games:
        if int(game.tags["Board"]) == ANOMALOUS_BOARD:
            continue
        table = rows(game)
        result = cross_imps_board([Score(law77(game, row), count=row.count) for row in table])
        for row, line in zip(table, result.lines, strict=True):
            if not halfway(line.ns_imps):
                continue
            published = Decimal(row.imp_ns)
            wrong["even"] += to_decimal(line.ns_imps, 2, Rounding.HALF_EVEN) != published
            double = Decimal(float(line.ns_imps)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)
            assert to_decimal(line.ns_imps, 2, Rounding.DOUBLE) == double == Decimal("%.2f" % float(line.ns_imps))
            wrong["double"] += double != published
    assert wrong == {"even": 2, "double": 6}


def test_matchpoints_score_every_row_of_the_frequency_tables(games: list[PbnGame]) -> None:
    """Each row stands for Multiplicity equal results: Law 78A in international units on N results (multiplicities
    counted), 2 per result beaten and 1 per other equal result, computed here from the file's own Score_NS."""
    doc = command_json("--method", "mp", "--factoring", "none")
    assert doc["ranking"] == [] and doc["summary"]["results"] == 18_396
    boards = {b["board"]: b for b in doc["boards"]}
    for game in games:
        board = boards[int(game.tags["Board"])]
        table = rows(game)
        n = sum(row.count for row in table)
        assert board["top"] == 2 * (n - 1)
        assert len(board["lines"]) == len(table)
        for row, line in zip(table, board["lines"], strict=True):
            below = sum(o.count for o in table if o.score_ns < row.score_ns)
            equal = sum(o.count for o in table if o.score_ns == row.score_ns)
            assert Decimal(str(line["mp_ns"])) == 2 * below + equal - 1, (game.tags["Board"], row)
            assert line["count"] == row.count
