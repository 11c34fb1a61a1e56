"""The PBN reader: tags, inherited values, comments, tables, encodings, and the oracle files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenace.pbn.reader import PbnError, decode_pbn, parse_column, parse_pbn, read_pbn

from conftest import ORACLES, needs_oracles

SAMPLE = """% PBN 2.1
% EXPORT
[Event "Club pairs"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"] ; the first board
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\6R"]
 1  2 4S   N 10 "420"
 3  4 "3NT" S  8 -
{ a commentary
  over two lines [Not "a tag"] }

[Event "#"]
[Board "2"]
[ScoreTable "#"]
[Auction "E"]
1S Pass 2S Pass
Pass Pass
"""


def test_tags_tables_and_inheritance() -> None:
    first, second = parse_pbn(SAMPLE)
    assert first.tags["Event"] == "Club pairs" and first.tags["Vulnerable"] == "None"
    table = first.tables["ScoreTable"]
    assert table.column_names() == ["PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Score_NS"]
    assert table.rows == [["1", "2", "4S", "N", "10", "420"], ["3", "4", "3NT", "S", "8", "-"]]
    assert table.records()[1]["Score_NS"] == "-"
    assert "Not" not in first.tags  # inside the commentary
    assert second.tags["Event"] == "Club pairs" and second.tags["Board"] == "2"
    assert second.tables["ScoreTable"].rows == table.rows
    assert second.sections["Auction"] == ["1S Pass 2S Pass", "Pass Pass"]


def test_column_specs() -> None:
    col = parse_column("Score_NS\\6R")
    assert (col.name, col.width, col.align, col.sort) == ("Score_NS", 6, "R", "")
    assert col.spec() == "Score_NS\\6R"
    assert parse_column("+Rank\\2R").sort == "+"
    assert parse_column("Names").width is None


def test_a_line_with_missing_cells_is_left_out_with_its_line() -> None:
    """One row a line, one line short of a cell: the other rows are read, that line is set aside with its number."""
    table = parse_pbn('[Board "1"]\n[ScoreTable "A;B"]\n1 2\n3\n4 5\n')[0].tables["ScoreTable"]
    assert table.rows == [["1", "2"], ["4", "5"]] and table.lines == [3, 5]
    assert table.unread == [(4, "1 cell where [ScoreTable] has 2 columns")]


def test_a_table_whose_rows_run_over_lines_with_missing_cells_is_refused_with_its_line() -> None:
    with pytest.raises(PbnError, match=r"line 2: \[ScoreTable\] has 5 cells, not a multiple of its 3 columns"):
        parse_pbn('[Board "1"]\n[ScoreTable "A;B;C"]\n1 2\n3 4\n5\n')


def test_malformed_tag_is_refused() -> None:
    with pytest.raises(PbnError, match="line 1: malformed tag"):
        parse_pbn('[Board 1]\n')


def test_encodings() -> None:
    assert decode_pbn("Séance".encode("latin-1")) == "Séance"
    assert decode_pbn("Séance".encode()) == "Séance"
    assert decode_pbn(b"\xef\xbb\xbf[Board \"1\"]") == '[Board "1"]'


def test_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(PbnError, match="cannot read"):
        read_pbn(tmp_path / "nothing.pbn")




@needs_oracles
def test_reads_the_ffb_final_latin1() -> None:
    games = read_pbn(ORACLES / "ffb-2022-dn1-session1.pbn")
    assert len(games) == 30
    assert "Séance 1" in games[0].tags["Event"]
    assert len(games[0].tables["TotalScoreTable"].rows) == 44
    assert sum(len(g.tables["ScoreTable"].rows) for g in games) == 660
    assert all(len(row) == 14 for g in games for row in g.tables["ScoreTable"].rows)


@needs_oracles
def test_reads_the_team_and_imp_pairs_files() -> None:
    venice = read_pbn(ORACLES / "venice-cup-1997-final-2.pbn")
    assert len(venice) == 32 and all(g.tags.get("Room") in ("Open", "Closed") for g in venice)
    okb = read_pbn(ORACLES / "okbridge-imp-pairs-01.pbn")
    assert sum(len(g.tables["ScoreTable"].rows) for g in okb if "ScoreTable" in g.tables) == 5172
