"""`tenace report --usebio`: an event's pairs sections as USEBIO 1.2 (Mitchell and Howell, matchpoints and IMPs,
two sections, the director's scores and Law 90 penalties, with and without hand records and names), every file
checked against tenace's schema; what USEBIO cannot hold refused in one line."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from cli_runner import tenace
from lxml import etree

from tenace.movement import Movement, howell, mitchell, teams
from tenace.movement.individual import individual
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.hand_records import keep_hand_record
from tenace.store.ledger import head
from tenace.store.names import Member, keep_roster
from tenace.usebio.schema import check_file, parse

from sample_results import session_results

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
OTHER = "N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98"
MITCHELL = mitchell(5, 3)
HOWELL = howell(4, 3)


def make_event(path: Path, sections: dict[str, Movement] | None = None, scoring: str = "matchpoints",
               deals: dict[str, str] | None = None) -> None:
    """Every result in; board 1's deal kept in the sections `deals` names (section A's only, by default)."""
    sections = sections or {"A": MITCHELL}
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections=sections, scoring=scoring)
    for index, (section, movement) in enumerate(sections.items()):
        for table in range(1, movement.tables + 1):
            sign_in(conn, 100 * index + table, section, table)
        for m in session_results(movement, section=section):
            ingest(conn, replace(m, terminal=100 * index + m.table))
    for section, deal in ({"A": DEAL} if deals is None else deals).items():
        keep_hand_record(conn, section, 1, deal)
    conn.close()


def export(capsys: pytest.CaptureFixture[str], db: Path, out: Path, *args: str) -> etree._ElementTree:
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC", "--club-id", "2074",
                          *args)
    assert code == 0, err
    check_file(out)  # the schema, as a reader's program would check it
    return parse(out)


def ranking(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, list[dict[str, object]]]:
    code, out, _ = tenace(capsys, "results", str(db), "--json")
    assert code == 0
    return {s["section"]: s["report"]["ranking"] for s in json.loads(out)["sections"]}


def usebio_pair(line: dict[str, object]) -> str:
    """A pair of `tenace results --json` ("NS 3", "A-EW 3", "7") as USEBIO numbers it ("3NS", "7")."""
    label = str(line["pair"]).split("-")[-1]
    direction, _, number = label.rpartition(" ")
    return number + direction


def totals(root: etree._Element, points: str) -> list[tuple[str, str, Decimal, Decimal | None]]:
    return [(p.findtext("PAIR_NUMBER") or "", p.findtext("PLACE") or "", Decimal(p.findtext("TOTAL_SCORE") or ""),
             Decimal(p.findtext("PERCENTAGE") or "") if points == "mp" else None) for p in root.iter("PAIR")]


def expected(lines: list[dict[str, object]], points: str) -> list[tuple[str, str, Decimal, Decimal | None]]:
    return [(usebio_pair(line), str(line["rank"]).rstrip("="), Decimal(str(line["mp" if points == "mp" else "imps"])),
             Decimal(str(line["percent"])).quantize(Decimal("0.01")) if points == "mp" else None) for line in lines]


# (movement, scoring, EVENT_TYPE, pairs, traveller lines, how a pair is numbered)
EVENTS = [(MITCHELL, "matchpoints", "MP_PAIRS", 10, 75, "NS"), (HOWELL, "matchpoints", "MP_PAIRS", 8, 84, ""),
          (MITCHELL, "imps", "BUTLER_PAIRS", 10, 75, "NS"), (HOWELL, "imps", "BUTLER_PAIRS", 8, 84, "")]


@pytest.mark.parametrize(("movement", "scoring", "event_type", "pairs", "lines", "ns"), EVENTS,
                         ids=["mp-mitchell", "mp-howell", "imps-mitchell", "imps-howell"])
def test_a_pairs_event_is_written_as_usebio_with_the_rankings_of_tenace_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], movement: Movement, scoring: str, event_type: str,
        pairs: int, lines: int, ns: str) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": movement}, scoring)
    root = export(capsys, db, tmp_path / "tuesday.xml").getroot()
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == event_type
    assert root.findtext("CLUB/CLUB_NAME") == "Riga BC" and root.findtext("CLUB/CLUB_ID_NUMBER") == "2074"
    assert event.findtext("DATE") == "14/05/2024" and event.findtext("EVENT_DESCRIPTION") == "Tuesday pairs"
    assert event.findtext("WINNER_TYPE") == ("2" if ns else "1") and event.find("SECTION") is None
    assert (event.findtext("SCORING_METHOD") == "IMPS") == (scoring == "imps")
    points = "mp" if scoring == "matchpoints" else "imps"
    assert totals(root, points) == expected(ranking(capsys, db)["A"], points)
    assert len(list(root.iter("PAIR"))) == pairs and len(list(root.iter("TRAVELLER_LINE"))) == lines
    first = next(root.iter("TRAVELLER_LINE"))
    assert (first.findtext("NS_PAIR_NUMBER") or "").endswith(ns) and first.findtext("NS_PAIR_NUMBER") != "0"
    assert sum(1 for _ in root.iter("LEAD")) > lines // 2  # the leads keyed at the tables
    if scoring == "imps":
        assert all(b.findtext("BOARD_AVERAGE") for b in event.iter("BOARD"))
    # The hand record: board 1 only, its four hands from East as the real files have them.
    hands = root.findall("HANDSET/BOARD")
    assert [b.findtext("BOARD_NUMBER") for b in hands] == ["1"]
    assert [(h.findtext("DIRECTION"), h.findtext("SPADES"), h.findtext("CLUBS")) for h in hands[0].iter("HAND")] == [
        ("East", "T98", "AKQJ"), ("North", "AKQJ", "432"), ("South", "765", "T98"), ("West", "432", "765")]


def test_two_sections_are_two_section_elements_and_one_section_can_be_asked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": MITCHELL, "B": HOWELL}, deals={"A": DEAL, "B": DEAL})
    root = export(capsys, db, tmp_path / "both.xml").getroot()
    sections = root.findall("EVENT/SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"] and root.findtext("EVENT/SECTION_COUNT") == "2"
    want = ranking(capsys, db)
    for section in sections:
        assert totals(section, "mp") == expected(want[section.get("SECTION_ID") or ""], "mp")
    assert [len(s.findall("BOARD/TRAVELLER_LINE")) for s in sections] == [75, 84]
    root = export(capsys, db, tmp_path / "b.xml", "--section", "B").getroot()
    assert root.find("EVENT/SECTION") is None and root.findtext("EVENT/SECTION_COUNT") == "1"
    assert totals(root, "mp") == expected(want["B"], "mp")


def test_two_sections_dealing_a_board_differently_need_one_file_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": MITCHELL, "B": HOWELL}, deals={"A": DEAL, "B": OTHER})
    out = tmp_path / "both.xml"
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert code == 2 and err.count("\n") == 1 and not out.exists()
    assert "sections A and B hold different deals for board 1: a USEBIO file has one hand set" in err, err
    for section in "AB":
        export(capsys, db, tmp_path / f"{section}.xml", "--section", section)


def test_an_event_without_hand_records_has_no_handset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, deals={})
    root = export(capsys, db, tmp_path / "x.xml").getroot()
    assert root.find("HANDSET") is None and len(list(root.iter("TRAVELLER_LINE"))) == 75


def directors_scores(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    """Artificial scores (A+/A-, 55/45), an assigned score, a board passed out, a result not played, and two Law 90
    penalties (one in % of a top: four decimals); the boards they are on."""
    e1, e2, e3, e4 = (MITCHELL.at(t, 1) for t in (1, 2, 3, 4))
    on = {"artificial": e1.boards[0], "percent": e2.boards[0], "assigned": e3.boards[0], "passed": e4.boards[0],
          "not played": e4.boards[1]}
    actions = [
        ["adjust", "--table", "1", "--board", str(on["artificial"]), "--ns", "A+", "--ew", "A-"],
        ["adjust", "--table", "2", "--board", str(on["percent"]), "--percent", "55/45"],
        ["adjust", "--table", "3", "--board", str(on["assigned"]), "--assigned", "+140"],
        ["correct", "--table", "4", "--board", str(on["passed"]), "--passed-out"],
        ["correct", "--table", "4", "--board", str(on["not played"]), "--not-played"],
        ["adjust", "--pair", "NS 3", "--penalty", "1.5MP"],
        ["adjust", "--pair", "EW 2", "--penalty", "33.33%"],
    ]
    for command, *args in actions:
        code, _, err = tenace(capsys, command, str(db), *args, "--why", "TD's ruling")
        assert code == 0, (args, err)
    return on


def line_on(root: etree._Element, board: int, ns: str) -> etree._Element:
    return next(t for b in root.iter("BOARD") if b.findtext("BOARD_NUMBER") == str(board) and b.find("HAND") is None
                for t in b.iter("TRAVELLER_LINE") if t.findtext("NS_PAIR_NUMBER") == ns)


def test_the_directors_scores_and_penalties_are_written_as_the_real_files_write_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    on = directors_scores(db, capsys)
    root = export(capsys, db, tmp_path / "adjusted.xml").getroot()
    shape = [[c.tag for c in line_on(root, on["artificial"], "1NS")], [c.tag for c in line_on(root, on["assigned"],
                                                                                               "3NS")]]
    assert shape == [["NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "SCORE", "NS_MATCH_POINTS", "EW_MATCH_POINTS"]] * 2
    assert line_on(root, on["artificial"], "1NS").findtext("SCORE") == "A6040"
    assert line_on(root, on["percent"], "2NS").findtext("SCORE") == "A5545"
    assert line_on(root, on["assigned"], "3NS").findtext("SCORE") == "140"
    passed = line_on(root, on["passed"], "4NS")
    assert [(c.tag, c.text) for c in passed][2:6] == [("CONTRACT", "PASS"), ("PLAYED_BY", "N"), ("TRICKS", "0"),
                                                      ("SCORE", "0")]
    with pytest.raises(StopIteration):  # not played: no line, as the files leave it out
        line_on(root, on["not played"], "4NS")
    # The penalties: out of the totals (the ranking of tenace results), and said in ADJUSTMENT.
    assert totals(root, "mp") == expected(ranking(capsys, db)["A"], "mp")
    adjusted = {p.findtext("PAIR_NUMBER"): (p.findtext("ADJUSTMENT"), p.findtext("TOTAL_SCORE"))
                for p in root.iter("PAIR") if p.find("ADJUSTMENT") is not None}
    assert set(adjusted) == {"3NS", "2EW"} and adjusted["3NS"][0] == "-1.5" and adjusted["2EW"][0] == "-2.6664"
    assert len((adjusted["2EW"][1] or "").split(".")[1]) in (2, 4)


def test_a_weighted_score_cannot_be_written_and_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    board = MITCHELL.at(4, 1).boards[0]
    assert tenace(capsys, "adjust", str(db), "--table", "4", "--board", str(board), "--weighted",
                  "0.6:+140,0.4:-110", "--why", "Law 12C1(c)")[0] == 0
    out = tmp_path / "x.xml"
    code, stdout, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert (code, stdout) == (2, "") and err.count("\n") == 1 and not out.exists()
    said = f"--usebio: section A board {board} table 4: a weighted score (weighted NS 3/5:140 2/5:-110) has no USEBIO"
    assert said in err, err



@pytest.mark.parametrize(("scoring", "args", "said"), [
    # Written "A6040", an explicit 60%/40% would be read back as A+/A-, whose Law 12C2(c) differs.
    ("matchpoints", ["--percent", "60/40"], "the artificial score 60%/40% has no USEBIO form (A6040 is read as"),
    # Written as SCORE, an assigned score would be read back as played and go into the Butler datum.
    ("imps", ["--assigned", "+140"], "an assigned score (assigned NS +140) has no USEBIO form at IMPs"),
], ids=["percent-60-40", "assigned-at-imps"])
def test_a_score_usebio_would_read_back_otherwise_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], scoring: str, args: list[str], said: str) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, scoring=scoring)
    board = MITCHELL.at(4, 1).boards[0]
    assert tenace(capsys, "adjust", str(db), "--table", "4", "--board", str(board), *args, "--why", "a ruling")[0] == 0
    out = tmp_path / "x.xml"
    code, stdout, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert (code, stdout) == (2, "") and err.count("\n") == 1 and not out.exists(), err
    assert f"section A board {board} table 4: {said}" in err, err


def test_a_percentage_below_zero_after_law_90_penalties_is_written(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    assert tenace(capsys, "adjust", str(db), "--pair", "NS 1", "--penalty", "80MP", "--why", "Law 90")[0] == 0
    lines = {line["pair"]: line for line in ranking(capsys, db)["A"]}
    assert lines["NS 1"]["percent"] < 0
    root = export(capsys, db, tmp_path / "x.xml").getroot()  # checked against the schema
    pair = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == "1NS")
    shown = Decimal(str(lines["NS 1"]["percent"])).quantize(Decimal("0.01"))
    assert Decimal(pair.findtext("PERCENTAGE") or "") == shown

def test_the_players_are_named_with_their_member_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    conn = connect(db)
    keep_roster(conn, [Member(101, "Ann Archer", "371"), Member(102, "Bob Baker"), Member(103, "Cy Cole", "RIGA")])
    conn.close()
    for pair, players in (("NS 1", ("101", "102")), ("EW 2", ("103", "777"))):
        assert tenace(capsys, "names", str(db), "--pair", pair, "--players", *players, "--who", "TD")[0] == 0
    out = tmp_path / "named.xml"
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert code == 0 and "player 103's club id 'RIGA' is not a number: left out" in err, err
    check_file(out)
    players = {p.findtext("PAIR_NUMBER"): [[(c.tag, c.text) for c in player] for player in p.iter("PLAYER")]
               for p in parse(out).getroot().iter("PAIR")}
    assert players["1NS"] == [[("PLAYER_NAME", "Ann Archer"), ("NATIONAL_ID_NUMBER", "101"),
                               ("CLUB_ID_NUMBER", "371")],
                              [("PLAYER_NAME", "Bob Baker"), ("NATIONAL_ID_NUMBER", "102")]]
    assert players["2EW"] == [[("PLAYER_NAME", "Cy Cole"), ("NATIONAL_ID_NUMBER", "103")],
                              [("NATIONAL_ID_NUMBER", "777")]]  # a number the roster does not name
    assert players["3NS"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["--usebio", "x.xml"], "--usebio needs --club NAME: a USEBIO file names the club that ran the event"),
    (["--usebio", "x.xml", "--club", " "], "--usebio needs --club NAME"),
    (["--usebio", "x.xml", "--club", "Riga BC", "--club-id", "R1"], "--club-id 'R1': a club's number is digits"),
    (["--pbn", "y.pbn", "--club", "Riga BC"], "--club and --club-id name the club of a --usebio file"),
    (["--usebio", "-", "--pbn", "-", "--club", "Riga BC"], "one file can go to standard output"),
    (["--usebio", "x.xml", "--pbn", "x.xml", "--club", "Riga BC"], "--usebio x.xml is the --pbn file too"),
    (["--usebio", "club.sqlite", "--club", "Riga BC"], "is the input file: give another name"),
    (["--usebio", ".", "--club", "Riga BC"], "is a folder"),
])
def test_wrong_requests_get_one_line_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                       message: str) -> None:
    monkeypatch.chdir(tmp_path)
    make_event(tmp_path / "club.sqlite")
    code, out, err = tenace(capsys, "report", "club.sqlite", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out, err
    assert not (tmp_path / "x.xml").exists() and not (tmp_path / "y.pbn").exists()


def test_a_file_that_is_there_is_written_over_only_with_force_and_standard_output_is_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    out = tmp_path / "x.xml"
    out.write_text("kept", encoding="utf-8")
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert code == 2 and f"--usebio {out} is there already" in err and out.read_text(encoding="utf-8") == "kept"
    export(capsys, db, out, "--force")
    code, stdout, _ = tenace(capsys, "report", str(db), "--usebio", "-", "--club", "Riga BC", "--club-id", "2074")
    assert code == 0 and stdout.encode("utf-8") == out.read_bytes()
    assert stdout.startswith("<?xml version='1.0' encoding='UTF-8'?>\n<!DOCTYPE USEBIO SYSTEM ")
    conn = connect(db)
    assert f"<!-- Tenace event file chain head: {head(conn)} " in stdout  # as every export carries it
    conn.close()


def test_damaged_results_are_published_only_with_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    conn = sqlite3.connect(db)
    rid = conn.execute("SELECT max(id) FROM result WHERE table_no = 3 AND board = 5").fetchone()[0]
    conn.executescript("DROP TRIGGER result_append_only_u; DROP TRIGGER result_chained_u;"
                       f"UPDATE result SET ns_score = 214 WHERE id = {rid};")
    conn.close()
    out = tmp_path / "x.xml"
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert code == 2 and "1 damaged result" in err and err.count("\n") == 1 and not out.exists()
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC", "--force")
    assert code == 0 and "published without them (--force)" in err
    check_file(out)
    assert len(list(parse(out).getroot().iter("TRAVELLER_LINE"))) == 74


@pytest.mark.parametrize(("movement", "said"), [(teams(2), "is a team event"), (individual(2, 1), "an individual")],
                         ids=["teams", "individual"])
def test_a_team_match_or_an_individual_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  movement: Movement, said: str) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": movement}, deals={})
    out = tmp_path / "x.xml"
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(out), "--club", "Riga BC")
    assert code == 2 and said in err and err.count("\n") == 1 and not out.exists(), err


@pytest.mark.parametrize(("total", "written"), [("63.08", "63.08"), ("63.083", "63.0830"), ("63.0836", "63.0836"),
                                                ("-2.5", "-2.50"), ("7", "7.00")])
def test_a_total_has_the_files_two_decimals_or_four(total: str, written: str) -> None:
    from tenace.reports.event_usebio import _total
    assert _total(Decimal(total), "pair NS 3") == written


def test_a_total_with_more_than_four_decimals_is_refused() -> None:
    from tenace.reports.event_usebio import UsebioError, _total
    with pytest.raises(UsebioError, match=r"pair NS 3: the total 1\.23456 has more than four decimals"):
        _total(Decimal("1.23456"), "pair NS 3")
