"""tenace event import-bws: the real Bridgemate .bws in ../shared, and the reader on tables given in memory."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from tenace.bws.importer import import_plan
from tenace.bws.mdb import MdbError, MdbFile, Row
from tenace.bws.reader import BwsError, read
from tenace.movement import mitchell
from tenace.movement.check import check
from tenace.store import connect, current_results, event_info
from tenace.store.hand_records import hand_record
from tenace.store.names import pair_players, roster
from tenace.store.queries import refusals

from conftest import SHARED, in_ci

BWS = SHARED / "oracles" / "bws" / "bridgeakhper-template.bws"


def _tenace(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenace", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def real_bws() -> Path:
    """The real .bws; skipped with one reason where it or mdbtools is absent, a failure under CI=true."""
    problem = (f"no {BWS} (the shared folder beside the project)" if not BWS.is_file()
               else "mdbtools is not installed (tools/setup-env installs it as root)" if not shutil.which("mdb-export")
               else None)
    if problem:
        if in_ci(os.environ):
            pytest.fail(f"CI=true and {problem}: the .bws tests may not be skipped in CI")
        pytest.skip(problem)
    return BWS


@pytest.fixture(scope="module")
def imported(real_bws: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    event = tmp_path_factory.mktemp("bws") / "night.sqlite"
    done = _tenace("event", "import-bws", real_bws, event)
    assert done.returncode == 0, done.stderr
    return event, done.stdout


def _export(path: Path, table: str) -> list[dict[str, str]]:
    text = subprocess.run(["mdb-export", str(path), table], capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(text.splitlines()))


def test_the_real_bws_movement_from_rounddata_passes_the_checker(real_bws: Path) -> None:
    plan = read(MdbFile(real_bws), "x")
    (section,) = plan.sections
    planned = section.planned
    assert (section.name, planned.kind, planned.tables, planned.rounds, planned.boards_per_round) == \
        ("A", "howell", 5, 9, 3)
    assert planned.phantom == ("", 999)  # MissingPair: whoever meets it sits out
    assert check(planned).ok
    assert len(planned.encounters) == 45


def test_the_real_bws_contradictions_are_named_one_line_each(imported: tuple[Path, str]) -> None:
    event, out = imported
    lines = [line for line in out.splitlines() if line.startswith("contradiction: ")]
    # Every result names pairs 90x where RoundData seats 30x (and 999, the missing pair).
    assert sum("ReceivedData ID" in line and "RoundData" in line for line in lines) == 63
    assert any("ReceivedData ID 991: section A table 3 round 5 board 1 NS 906 v EW 905: RoundData plays boards 19-21"
               in line for line in lines)
    assert any("63 of 63 results do not fit RoundData's movement" in line for line in lines)
    # Table 2 round 5: two pairs of pairs on boards 13-15.
    assert any("table 2 round 5: NS 904 v EW 907 and NS 903 v EW 902" in line for line in lines)
    conn = connect(event)
    kept = [r.detail for r in refusals(conn, "bws_contradiction")]
    conn.close()
    assert sorted(kept) == sorted(line.removeprefix("contradiction: ") for line in lines)
    # `tenace problems` lists them with the import, not as refused frames, and the imported results are not the
    # director's corrections; the travellers carry no director's mark, one note says where the results came from.
    problems = _tenace("problems", event).stdout
    assert f"IMPORTED: 63 result versions from another program's file; it contradicted itself {len(lines)} times" \
        in problems
    assert "REFUSED FRAMES: none" in problems and "CORRECTIONS: none" in problems
    results = _tenace("results", event).stdout
    assert "[TD:" not in results and "63 results imported from another program's file (imported from " in results


def _score(contract: str, declarer: str, result: str, board: int) -> int:
    """North-South's duplicate score, written out here from the Laws (not Tenace's scoring)."""
    level, strain, *rest = contract.split()
    doubled = len(rest[0]) if rest else 0
    level_n = int(level)
    over = 0 if result == "=" else int(result)
    vul_ns = board % 16 in (2, 5, 12, 15, 4, 7, 10, 13)
    vul_ew = board % 16 in (3, 6, 9, 0, 4, 7, 10, 13)
    vul = vul_ns if declarer in "NS" else vul_ew
    if over < 0:
        down = -over
        if not doubled:
            points = -(100 if vul else 50) * down
        else:
            steps = [200, 300, 300] if vul else [100, 200, 200]
            points = -sum(steps[i] if i < 3 else 300 for i in range(down)) * doubled
    else:
        trick = 20 if strain in "CD" else 30
        below = (trick * level_n + (10 if strain == "NT" else 0)) * (2 ** doubled)
        points = below + (50 if below < 100 else 300 if not vul else 500)
        points += {6: 500 if not vul else 750, 7: 1000 if not vul else 1500}.get(level_n, 0)
        points += 50 * doubled
        points += over * (trick if not doubled else (100 if not vul else 200) * doubled)
    return points if declarer in "NS" else -points


def test_the_real_bws_results_are_ranked(imported: tuple[Path, str], real_bws: Path) -> None:
    event, _ = imported
    rows = [r for r in _export(real_bws, "ReceivedData") if r["Erased"] == "0"]
    by_board: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for r in rows:
        by_board[int(r["Board"])].append((r["PairNS"], r["PairEW"],
                                          _score(r["Contract"], r["NS/EW"], r["Result"], int(r["Board"]))))
    points: dict[str, Fraction] = defaultdict(Fraction)
    tops: dict[str, int] = defaultdict(int)
    for scores in by_board.values():
        top = 2 * (len(scores) - 1)
        for ns, ew, mine in scores:
            mp = sum(2 if mine > other else 1 if mine == other else 0 for _, _, other in scores) - 1
            points[ns] += mp
            points[ew] += top - mp
            tops[ns] += top
            tops[ew] += top
    assert len(rows) == 63 and points["907"] == 41  # the figures the ranking below must show
    done = _tenace("results", event)
    assert done.returncode == 0, done.stderr
    ranking = done.stdout.split("\nRanking\n", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    shown = {line.split()[1]: (Fraction(line.split()[2]), line.split()[4]) for line in ranking}
    assert shown == {pair: (mp, f"{float(100 * mp / tops[pair]):.2f}%") for pair, mp in points.items()}
    order = [line.split()[1] for line in ranking]
    assert [points[p] for p in order] == sorted(points.values(), reverse=True)


def test_the_real_bws_movement_kept_is_the_one_played(imported: tuple[Path, str]) -> None:
    event, out = imported
    conn = connect(event)
    info = event_info(conn)
    versions = current_results(conn)
    conn.close()
    assert (info.name, info.date, info.scoring) == ("Bridge game", "2023-02-12", "matchpoints")
    assert info.sections[0].movement == "howell as played (from the .bws ReceivedData)"
    assert len(versions) == 63
    assert "section A: RoundData's movement (not kept: the results do not fit it):" in out


def test_import_refuses_an_existing_event_and_a_file_that_is_not_access(real_bws: Path, tmp_path: Path) -> None:
    event = tmp_path / "e.sqlite"
    event.write_text("")
    done = _tenace("event", "import-bws", real_bws, event)
    assert done.returncode == 2 and "already exists" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    text = tmp_path / "notes.bws"
    text.write_text("hello")
    done = _tenace("event", "import-bws", text, tmp_path / "new.sqlite")
    assert done.returncode == 2 and "is not an Access file" in done.stderr
    assert not (tmp_path / "new.sqlite").exists()
    done = _tenace("event", "import-bws", tmp_path / "absent.bws", tmp_path / "new.sqlite")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_missing_mdbtools_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MdbError, match="mdb-tables is not installed"):
        MdbFile(tmp_path / "x.bws")


def test_mdb_file_parses_mdb_export_csv_with_quotes(tmp_path: Path) -> None:
    path = tmp_path / "x.bws"
    path.write_bytes(b"\x00\x01\x00\x00Standard Jet DB\x00" + bytes(100))
    outputs = {"mdb-tables": "Section\nRoundData\n",
               "mdb-export": 'ID,Name\n1,"Smith, ""Jo"""\n2,\n'}
    calls: list[list[str]] = []

    def run(command: list[str]) -> str:
        calls.append(command)
        return outputs[command[0]]

    if shutil.which("mdb-export") is None:
        pytest.skip("mdbtools is not installed: MdbFile refuses to start without it")
    f = MdbFile(path, run)
    assert f.names() == ["Section", "RoundData"]
    assert f.rows("Session") == [{"ID": "1", "Name": 'Smith, "Jo"'}, {"ID": "2", "Name": ""}]
    assert calls[-1][-2:] == [str(path), "Session"] and "-D" in calls[-1]


# The reader on tables in memory: the cases the real file lacks (a sit-out, erased rows, hand records, players).

class FakeTables:
    def __init__(self, tables: dict[str, list[Row]]) -> None:
        self.tables = tables

    def names(self) -> list[str]:
        return list(self.tables)

    def rows(self, table: str) -> list[Row]:
        return self.tables[table]


def _rounds(missing: int = 0) -> list[Row]:
    """RoundData of a three-table Mitchell (tenace's own, 3 rounds of 2 boards); NS 3 named `missing` when given."""
    return [{"Section": "1", "Table": str(e.table), "Round": str(e.round),
             "NSPair": str(missing if missing and e.ns_pair == 3 else e.ns_pair), "EWPair": str(e.ew_pair),
             "LowBoard": str(e.boards[0]), "HighBoard": str(e.boards[-1]), "CustomBoards": ""}
            for e in mitchell(3, 2).encounters]


def _result(rid: int, table: int, round_: int, board: int, ns: int, ew: int, contract: str = "3 NT",
            result: str = "=", erased: str = "0", declarer: str = "N") -> Row:
    return {"ID": str(rid), "Section": "1", "Table": str(table), "Round": str(round_), "Board": str(board),
            "PairNS": str(ns), "PairEW": str(ew), "NS/EW": declarer, "Contract": contract, "Result": result,
            "LeadCard": "H10", "Erased": erased}


def _hand(row: Row, seat: str, suits: tuple[str, str, str, str]) -> None:
    for suit, cards in zip(("Spades", "Hearts", "Diamonds", "Clubs"), suits, strict=True):
        row[f"{seat}{suit}"] = cards


def _tables(**extra: list[Row]) -> FakeTables:
    tables: dict[str, list[Row]] = {
        "Section": [{"ID": "1", "Letter": "B ", "Tables": "2", "MissingPair": "0", "ScoringType": "1"}],
        "Session": [{"ID": "1", "Name": "Club night", "Date": "2024-05-14 00:00:00"}],
        "RoundData": _rounds(),
        "ReceivedData": [_result(1, 1, 1, 1, 1, 1), _result(2, 1, 1, 1, 1, 1, "4 S x", "-1", erased="1"),
                         _result(3, 2, 1, 3, 2, 2, "PASS", ""), _result(4, 1, 2, 3, 1, 3, "2 H", "+1")],
    }
    tables.update(extra)
    return FakeTables(tables)


def test_reader_a_mitchell_that_fits_its_results(tmp_path: Path) -> None:
    deal: Row = {"Section": "1", "Board": "1"}
    _hand(deal, "North", ("AKQJ", "AKQ", "AKQ", "AKQ"))
    _hand(deal, "East", ("10 9 8 7", "JT9", "JT9", "JT9"))
    _hand(deal, "South", ("65432", "876", "8765", "8"))
    _hand(deal, "West", ("", "5432", "432", "765432"))
    numbers = [{"Section": "1", "Table": "1", "Direction": d, "Number": n, "Name": name, "Round": "0"}
               for d, n, name in (("N", "11", "Ann"), ("S", "12", "Bob"), ("E", "13", ""), ("W", "14", ""))]
    plan = read(_tables(HandRecord=[deal], PlayerNumbers=numbers,
                        PlayerNames=[{"ID": "7", "Name": "Cy", "strID": "14"}]), "default")
    assert (plan.name, plan.date, plan.scoring) == ("Club night", "2024-05-14", "matchpoints")
    (section,) = plan.sections
    assert section.name == "B" and not section.as_played and section.movement.kind == "mitchell"
    assert plan.contradictions == ()
    assert section.players == {(1, "NS"): (11, 12), (1, "EW"): (13, 14)}
    assert section.deals == {1: "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 65432.876.8765.8 .5432.432.765432"}
    assert [(r.id, r.kind, r.contract, r.erased) for r in section.results] == [
        (1, "normal", "3NT", False), (2, "normal", "4SX", True), (3, "passed_out", None, False),
        (4, "normal", "2H", False)]
    event = tmp_path / "b.sqlite"
    done = import_plan(plan, event, "b.bws", who="td")
    assert (done.results, done.erased, done.players, done.deals) == (5, 1, 2, 1)
    conn = connect(event)
    now = {(v.table, v.round, v.board): (v.kind, v.version) for v in current_results(conn)}
    # Board 1 at table 1: 3NT (v1), then 4SX (v2), erased at once (v3): no result counts there now.
    assert now == {(2, 1, 3): ("passed_out", 1), (1, 2, 3): ("normal", 1)}
    assert pair_players(conn, "B")[(1, "NS")] == (11, 12)
    assert {n: m.name for n, m in roster(conn).items()} == {11: "Ann", 12: "Bob", 14: "Cy"}
    assert hand_record(conn, "B", 1) == section.deals[1]
    conn.close()


def test_reader_missing_pair_sits_out_and_a_result_there_is_a_contradiction() -> None:
    results = [_result(1, 1, 1, 1, 1, 1), _result(5, 3, 1, 5, 3, 3)]
    plan = read(_tables(Section=[{"ID": "1", "Letter": "A", "MissingPair": "9"}], RoundData=_rounds(missing=9),
                        ReceivedData=results), "x")
    (section,) = plan.sections
    planned = section.planned
    assert planned.phantom == ("NS", 9) and check(planned).ok
    assert [e.table for e in planned.encounters if planned.sits_out(e)] == [3, 3, 3]
    # ReceivedData ID 5 was at table 3 round 1, where NS 9 (missing) is: the results are kept as played.
    assert section.as_played and section.movement.kind == "mitchell"
    assert any("ReceivedData ID 5" in c and "NS 3 v EW 3: RoundData seats NS 9 v EW 3 there" in c
               for c in plan.contradictions)


def test_reader_names_each_contradiction() -> None:
    rows = [*_rounds(), dict(_rounds()[0], Round="1")]
    results = [_result(1, 1, 1, 1, 1, 1), _result(2, 1, 1, 1, 1, 1, "4 S"), _result(3, 1, 1, 2, 1, 1, "8 Z"),
               _result(4, 2, 2, 5, 2, 1, declarer="Q")]
    deal: Row = {"Section": "1", "Board": "40"}
    plan = read(_tables(RoundData=rows, ReceivedData=results, HandRecord=[deal],
                        Section=[{"ID": "1", "Letter": "?", "ScoringType": "7"}],
                        Session=[{"Name": "", "Date": "yesterday"}]), "fallback")
    said = plan.contradictions
    assert plan.name == "fallback" and plan.sections[0].name == "1"
    expected = ["letter '?' is not a section name", "table 1 round 1 is given twice", "IDs 1 and 2",
                "ReceivedData ID 3", "ReceivedData ID 4", "HandRecord section 1 board 40",
                "ScoringType 7 is not one Tenace reads", "date 'yesterday' is not a date"]
    for words in expected:
        assert sum(words in line for line in said) == 1, (words, said)
    assert len(said) == len(expected)


def test_reader_refuses_a_file_without_a_needed_table_or_section() -> None:
    tables = _tables()
    del tables.tables["RoundData"]
    with pytest.raises(BwsError, match="no RoundData table"):
        read(tables, "x")
    with pytest.raises(BwsError, match="lists no section"):
        read(_tables(Section=[]), "x")
    with pytest.raises(BwsError, match="ReceivedData table has no Table column"):
        read(_tables(ReceivedData=[{"ID": "1", "Section": "1"}]), "x")
    with pytest.raises(BwsError, match="no section of the file has a movement"):
        read(_tables(RoundData=[]), "x")
