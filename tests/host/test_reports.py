"""The reports room: the report model, its pair names, and the text, JSON, PBN and terminal writers."""

from __future__ import annotations

import io
from dataclasses import replace
from decimal import Decimal

import pytest

from tenace.collector.board_messages import ranking_message, traveller_message
from tenace.movement import mitchell
from tenace.pbn.reader import parse_pbn, read_pbn
from tenace.reports.json import read_json, to_document, write_json
from tenace.reports.model import Adjustment, Board, Pair, RankingLine, Report, TravellerLine
from tenace.reports.pbn import rescored_games, write_report_pbn
from tenace.reports.rescore import matchpoint_report, team_report
from tenace.reports.session import movement_pairs, session_report
from tenace.reports.text import ranking_line, traveller_line, write_text
from tenace.scoring.model import Artificial, Average, BoardResult, Played
from tenace.scoring.mp_options import DEFAULT_OPTIONS
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.ranking import FieldMode
from tenace.scoring.teams import TeamMatchOptions
from tenace_wire.table_messages import ADJUSTED, PASSED_OUT, PLAYED

from conftest import ORACLES, needs_oracles

SMALL = """[Event "Club"]
[Board "1"]
[Vulnerable "None"]
[ScoreTable "Table;Round;PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
 1 1 1 11 4S  N 10 - -
 2 1 2 12 4S  N 11 - -
 3 1 3 13 3NT S 9  - -
 4 1 4 14 -   - -  A+ A-

[Board "2"]
[Vulnerable "NS"]
[ScoreTable "#"]
 1 1 1 11 2H  E 8  - -
 2 1 2 12 2H  E 8  - -
 3 1 3 13 Pass - -  - -
 4 1 4 14 2HX E 7  - -
"""


@pytest.mark.parametrize(("pair", "label"), [
    (Pair("3", "NS"), "NS 3"),
    (Pair("7", "EW", "A"), "A-EW 7"),
    (Pair("7"), "7"),  # a Howell pair is just its number
    (Pair("7", section="B"), "B-7"),
])
def test_a_pair_is_named_as_directors_write_it(pair: Pair, label: str) -> None:
    assert pair.label == label
    assert str(pair) == label
    assert str(Pair("3", "NS", names="Ann LEE - Bob RAY")) == "NS 3 (Ann LEE - Bob RAY)"


def small_report() -> Report:
    return matchpoint_report(parse_pbn(SMALL), "mp", DEFAULT_OPTIONS)


def test_a_mitchell_file_is_ranked_by_direction_and_its_pairs_named_so() -> None:
    report = small_report()
    assert {(p.field, p.pair.label) for p in report.ranking} == \
        {("NS", f"NS {n}") for n in range(1, 5)} | {("EW", f"EW {n}") for n in range(11, 15)}
    line = report.boards[0].lines[3]
    assert line.adjustment == Adjustment("A+", "A-") and line.ns == Pair("4", "NS")
    assert report.boards[1].lines[2].passed_out


def test_the_text_report_shows_pairs_by_direction_and_section() -> None:
    out = io.StringIO()
    write_text(small_report(), out)
    text = out.getvalue()
    assert "NS 1 v EW 11" in text and "\nRanking NS\n" in text and "\nRanking EW\n" in text
    assert "A+/A-" in text and "passed out" in text
    assert "pair " not in text and "1NS" not in text
    line = TravellerLine(3, 1, Pair("3", "NS", "A"), Pair("7", "EW", "A"), contract="4SX", declarer="N", tricks=9,
                         ns_score=-200, mp_ns=Decimal("1.00"), mp_ew=Decimal("3.00"))
    assert "A-NS 3 v A-EW 7" in traveller_line(line, imps=False)
    assert "4♠X   by N  -1" in traveller_line(line, imps=False)
    ranked = RankingLine("", "1", Pair("7", names="Ann LEE - Bob RAY"), "EW/NS", 30, mp=Decimal("771.10"),
                         percent=Decimal("61.20"))
    assert ranking_line(ranked).split() == ["1", "7", "771.10", "MP", "61.20%", "Ann", "LEE", "-", "Bob", "RAY"]


def test_a_json_report_round_trips() -> None:
    report = small_report()
    out = io.StringIO()
    write_json(report, out)
    assert read_json(out.getvalue()) == report
    doc = to_document(report)
    assert doc["ranking"][0]["pair"].startswith(("NS ", "EW "))  # pairs by their names
    assert {p["label"] for p in doc["pairs"]} >= {"NS 1", "EW 11"}


def test_a_json_team_report_round_trips() -> None:
    games = parse_pbn('[Board "1"]\n[Room "Open"]\n[North "Ann"]\n[South "Bob"]\n[Contract "4S"]\n[Declarer "N"]\n'
                      '[Result "10"]\n\n[Board "1"]\n[Room "Closed"]\n[Contract "3NT"]\n[Declarer "S"]\n'
                      '[Result "9"]\n')
    report = team_report(games, TeamMatchOptions())
    out = io.StringIO()
    write_json(report, out)
    assert read_json(out.getvalue()) == report
    assert report.match is not None and report.match.imps_home == Decimal("1.00")


def test_the_pbn_writer_is_read_back_with_the_same_figures() -> None:
    games = parse_pbn(SMALL)
    report = small_report()
    out = io.StringIO()
    write_report_pbn(games, report, out)
    again = parse_pbn(out.getvalue())
    assert matchpoint_report(again, "mp", DEFAULT_OPTIONS) == report
    for game, board in zip(again, report.boards, strict=True):
        rows = game.tables["ScoreTable"].records()
        assert [Decimal(r["MP_NS"]) for r in rows] == [line.mp_ns for line in board.lines]
        assert [r["PairId_NS"] for r in rows] == [line.ns.number for line in board.lines if line.ns]
    totals = again[0].tables["TotalScoreTable"].records()
    assert [(r["PairId"], Decimal(r["TotalPercentage"])) for r in totals] == \
        [(p.pair.number, p.percent) for p in report.ranking]


@needs_oracles
def test_the_players_names_come_from_the_file_and_go_back_into_it() -> None:
    games = read_pbn(ORACLES / "ffb-2022-dn1-session1.pbn")
    report = matchpoint_report(games, "mp", DEFAULT_OPTIONS)
    first = report.ranking[0]
    assert first.pair.label == "7" and first.pair.names == "Philippe CHESNY - Rémi LEGRAS"
    written = rescored_games(games, report)[0].tables["TotalScoreTable"].records()
    assert written[0]["PairId"] == "7" and written[0]["Names"] == "Philippe CHESNY - Rémi LEGRAS"
    # A Howell ranked by direction all the same: its pairs (stationary ones too) are still just their numbers.
    by_direction = matchpoint_report(games, "mp", replace(DEFAULT_OPTIONS, fields=FieldMode.BY_DIRECTION))
    assert {p.field for p in by_direction.ranking} == {"NS"}  # every pair of this Howell sat NS at some time
    assert all(p.pair.label.isdigit() for p in by_direction.ranking)


def test_a_session_report_names_a_mitchell_by_direction_and_section() -> None:
    movement = mitchell(3, 2)
    pairs = movement_pairs(movement, lambda n, d: f"B{n}{d}", section="B")
    results = [BoardResult("B", e.table, e.round, board, f"B{e.ns_pair}NS", f"B{e.ew_pair}EW",
                           Played(50 * e.table) if e.table != 2 else Artificial(Average.PLUS, Average.MINUS))
               for e in movement.encounters for board in e.boards]
    report = session_report(score_pairs_session(results), pairs, "mp", "Three tables")
    assert {p.pair.label for p in report.ranking} == {f"B-{d} {n}" for d in ("NS", "EW") for n in (1, 2, 3)}
    adjusted = [line for b in report.boards for line in b.lines if line.adjustment]
    assert adjusted and all(line.adjustment == Adjustment("A+", "A-") for line in adjusted)
    out = io.StringIO()
    write_text(report, out)
    assert out.getvalue().startswith("Three tables\n") and "B-NS 1 v B-EW 1" in out.getvalue()


def test_the_terminal_writer_sends_numbers_and_what_the_wire_can_say() -> None:
    ns, ew = Pair("3", "NS"), Pair("7", "EW")
    lines = [TravellerLine(1, 1, ns, ew, contract="4SX", declarer="S", tricks=10, lead="HK", ns_score=590,
                           percent_ns=Decimal("75.00")),
             TravellerLine(2, 1, ns, ew, contract="Pass", ns_score=0),
             TravellerLine(3, 1, ns, ew, adjustment=Adjustment("A+", "A-")),
             TravellerLine(4, 1, ns, ew, adjustment=Adjustment("65%", "35%"))]  # no words for it on the wire
    sent = traveller_message(0, 5, lines)
    assert [line.kind for line in sent.lines] == [PLAYED, PASSED_OUT, ADJUSTED]
    assert (sent.lines[0].ns_pair, sent.lines[0].ew_pair, sent.lines[0].ns_percent) == (3, 7, 7500)
    assert sent.lines[1].ns_percent == 5000
    ranking = ranking_message(0, 2, [RankingLine("NS", "1=", ns, "NS", 2, mp=Decimal(3), percent=Decimal("61.25"))])
    assert [(r.rank, r.pair, r.score) for r in ranking.lines] == [(1, 3, 6125)]


def test_a_report_lists_each_pair_once() -> None:
    ns = Pair("1", "NS")
    board = Board(1, (TravellerLine(1, 1, ns, Pair("2", "EW")), TravellerLine(2, 1, ns, Pair("3", "EW"))))
    assert [p.label for p in Report("mp", boards=(board,)).pairs()] == ["NS 1", "EW 2", "EW 3"]


def test_the_text_writer_keeps_a_name_to_its_line() -> None:
    from tenace.reports.text import one_line
    assert one_line("Multi\nLine\x01\u2028x") == "Multi Line  x"
