"""Oracle: OKbridge IMP pairs (193 boards, 18,396 results) re-scored from the raw results by cross-IMPs.

The file's conventions, learned from its tags and tables: each board's [ScoreTable] lists one row per distinct
result (Contract, Declarer, Result = declarer's tricks) with its NS score, the IMPs per comparison it earned
(IMP_NS, two decimals) and how many tables had it (Multiplicity). IMP_NS is the cross-IMP total against every
other result, multiplicity counted, divided by the results on the board minus one. Only Contract, Declarer,
Result, Multiplicity and the board's Vulnerable are inputs here; Score_NS and IMP_NS are expected values.

Rounding: the exact averages are rounded to the nearest hundredth. 19 distinct scores (30 table rows) lie
exactly halfway; the publisher rounds those inconsistently (6.125 -> 6.12 but 5.525 -> 5.53: binary floating
point on its side), so for those the test checks the published figure is one of the two nearest hundredths,
and that half-even reproduces all but 2 of them.

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


def test_preset_okbridge_reproduces_every_published_imp_figure_but_two_halfway_ones(games: list[PbnGame]) -> None:
    doc = command_json("--preset", "okbridge")  # no --method: the preset's, cross-IMPs per comparison
    assert doc["method"] == "cross-imps" and doc["summary"]["unit"] == "per-comparison"
    boards = {b["board"]: b["lines"] for b in doc["boards"]}
    differ = []
    compared = 0
    for game in games:
        board = int(game.tags["Board"])
        if board == ANOMALOUS_BOARD:
            continue
        for row, line in zip(rows(game), boards[board], strict=True):
            assert (line["contract"], line["count"]) == (row.contract, row.count)
            compared += 1
            if Decimal(str(line["imp_ns"])) != Decimal(row.imp_ns):
                differ.append((board, line["ns_score"], line["imp_ns"], row.imp_ns))
    assert compared == 5160
    # The two halfway figures the publisher rounded away from the even hundredth (see the module docstring): no
    # rounding rule fits them and the 28 others (the next test shows binary floating point fits fewer).
    assert differ == [(146, -430, -6.52, "-6.53"), (798, -90, 5.52, "5.53")]


def test_binary_floating_point_rounding_fits_the_halfway_figures_worse_than_ties_to_even(games: list[PbnGame]) -> None:
    """Why the preset rounds ties to even: printing the nearest double to two decimals (C's %.2f) would get 6 of the 30
    halfway figures wrong (4.575 is published 4.58, its double 4.57499... prints 4.57), ties to even gets 2 wrong."""
    wrong = {"even": 0, "double": 0}
    for game in games:
        if int(game.tags["Board"]) == ANOMALOUS_BOARD:
            continue
        table = rows(game)
        result = cross_imps_board([Score(law77(game, row), count=row.count) for row in table])
        for row, line in zip(table, result.lines, strict=True):
            if (line.ns_imps * 100).denominator != 2:
                continue
            published = Decimal(row.imp_ns)
            wrong["even"] += to_decimal(line.ns_imps, 2, Rounding.HALF_EVEN) != published
            wrong["double"] += Decimal(float(line.ns_imps)).quantize(Decimal("0.01"), ROUND_HALF_EVEN) != published
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
