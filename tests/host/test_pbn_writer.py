"""The PBN writer: what it writes reads back the same, aligned and quoted as PBN 2.1 wants."""

from __future__ import annotations

import io

import pytest

from tenace.pbn.reader import PbnColumn, PbnGame, PbnTable, parse_pbn, read_pbn
from tenace.pbn.writer import write_pbn

from conftest import ORACLES, needs_oracles


def round_trip(games: list[PbnGame]) -> list[PbnGame]:
    out = io.StringIO()
    write_pbn(games, out)
    return parse_pbn(out.getvalue())


def test_tags_and_tables_round_trip() -> None:
    table = PbnTable("TotalScoreTable", [PbnColumn("Rank", 2, "R"), PbnColumn("Names", 20, "L"),
                                         PbnColumn("TotalPercentage", 5, "R")],
                     [["1", "Ann Lee - Bo \"B\" Ray", "61.21"], ["2", "", "-"]])
    game = PbnGame(tags={"Event": 'Club "Tenace"', "Board": "1", "TotalScoreTable": ""}, tables={})
    game.tables["TotalScoreTable"] = table
    game.tags["Auction"] = "N"
    game.sections["Auction"] = ["1S Pass 4S AP"]
    (back,) = round_trip([game])
    assert back.tags["Event"] == 'Club "Tenace"'
    assert back.tables["TotalScoreTable"].rows == table.rows
    assert back.tables["TotalScoreTable"].columns == table.columns
    assert back.sections["Auction"] == ["1S Pass 4S AP"]


def test_columns_are_aligned_to_their_width() -> None:
    table = PbnTable("ScoreTable", [PbnColumn("Table", 2, "R"), PbnColumn("Contract", 4, "L")], [["3", "4S"]])
    out = io.StringIO()
    write_pbn([PbnGame(tags={"ScoreTable": ""}, tables={"ScoreTable": table})], out)
    assert ' 3 4S\n' in out.getvalue()
    assert out.getvalue().startswith("% PBN 2.1\n")


def test_a_row_of_the_wrong_length_is_refused() -> None:
    table = PbnTable("ScoreTable", [PbnColumn("A"), PbnColumn("B")], [["1"]])
    with pytest.raises(ValueError, match="a row has 1 cells for 2 columns"):
        write_pbn([PbnGame(tables={"ScoreTable": table})], io.StringIO())


@needs_oracles
def test_the_ffb_file_survives_a_round_trip() -> None:
    games = read_pbn(ORACLES / "ffb-2022-dn1-session1.pbn")
    back = round_trip(games)
    assert [g.tags for g in back] == [g.tags for g in games]
    assert [{k: t.rows for k, t in g.tables.items()} for g in back] == \
           [{k: t.rows for k, t in g.tables.items()} for g in games]
