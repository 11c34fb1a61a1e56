"""A traveller line shows its own slot's play: a board played twice at one table (a movement change, a .bws import)
has each round's contract on its own line, and the opening leads the store holds are in the reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import Encounter, Movement
from tenace.store import create_event
from tenace.store.director import enter_result

# Two tables, two rounds, board 1 at table 1 and board 2 at table 2 in both rounds (the pairs swap tables): every
# pair plays each board once, but each table plays the same board twice.
TWICE = Movement("board twice at a table", tables=2, rounds=2, boards_per_round=1, encounters=(
    Encounter(1, 1, 1, 1, (1,)), Encounter(2, 1, 2, 2, (2,)),
    Encounter(1, 2, 2, 2, (1,)), Encounter(2, 2, 1, 1, (2,))))


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    conn = create_event(path, name="Twice", date="2024-05-14", sections={"A": TWICE})

    def play(table: int, round_: int, board: int, contract: str, declarer: str, tricks: int, lead: str) -> None:
        enter_result(conn, "A", table, round_, board, who="TD", why="imported", contract=contract,
                     declarer=declarer, tricks=tricks, lead=lead)
    play(1, 1, 1, "2H", "W", 8, "SA")  # NS -110 (board 1: nobody vulnerable)
    play(1, 2, 1, "2C", "S", 7, "DK")  # NS -50
    play(2, 1, 2, "3NT", "N", 9, "H2")
    play(2, 2, 2, "4S", "E", 10, "C5")
    conn.close()
    return path


def lines(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[tuple[int, int, int], dict[str, object]]:
    code, out, err = tenace(capsys, "results", str(path), "--json")
    assert code == 0, err
    boards = json.loads(out)["sections"][0]["report"]["boards"]
    return {(b["board"], line["table"], line["round"]): line for b in boards for line in b["lines"]}


def test_each_round_of_a_board_played_twice_at_a_table_shows_its_own_contract(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shown = lines(event, capsys)
    played = {slot: (line["contract"], line["declarer"], line["tricks"], line["ns_score"])
              for slot, line in shown.items()}
    assert played == {(1, 1, 1): ("2H", "W", 8, -110), (1, 1, 2): ("2C", "S", 7, -50),
                      (2, 2, 1): ("3NT", "N", 9, 600), (2, 2, 2): ("4S", "E", 10, -420)}


def test_the_json_report_has_the_leads_the_store_holds(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    leads = {slot: line["lead"] for slot, line in lines(event, capsys).items()}
    assert leads == {(1, 1, 1): "SA", (1, 1, 2): "DK", (2, 2, 1): "H2", (2, 2, 2): "C5"}


def test_tenace_score_of_the_pbn_export_keeps_each_round_of_a_board_played_twice_at_a_table(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pbn = tmp_path / "A.pbn"
    assert tenace(capsys, "report", str(event), "--pbn", str(pbn))[0] == 0
    code, out, err = tenace(capsys, "score", str(pbn), "--json")
    assert code == 0, err
    shown = {(b["board"], line["table"], line["round"]): (line["ns_pair"], line["ew_pair"], line["ns_score"])
             for b in json.loads(out)["boards"] for line in b["lines"]}
    assert shown == {(1, 1, 1): ("NS 1", "EW 1", -110), (1, 1, 2): ("NS 2", "EW 2", -50),
                     (2, 2, 1): ("NS 2", "EW 2", 600), (2, 2, 2): ("NS 1", "EW 1", -420)}
