"""`tenace report --pbn`: an event file's section as PBN 2.1, read back by `tenace score` to the rankings of
`tenace results` (a Mitchell's NS and EW pairs share numbers: the reader keeps them apart by direction; a
Howell's pairs are one field, numbered 1 to 2n). `--csv`: each section's ranking and travellers, read back."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import Movement, howell, mitchell
from tenace.store import create_event, ingest, sign_in
from tenace.store.hand_records import keep_hand_record

from sample_results import session_results

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
LINE = re.compile(r"^\s+(\d+=?)\s+((?:NS |EW )?\d+)\s+([\d.]+) MP\s+([\d.]+)%$")



MITCHELL = mitchell(5, 3)


def make_event(path: Path, sections: tuple[str, ...] = ("A",), movement: Movement = MITCHELL) -> None:
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections=dict.fromkeys(sections, movement))
    for table in range(1, movement.tables + 1):
        sign_in(conn, table, "A", table)
    for m in session_results(movement):
        ingest(conn, m)
    keep_hand_record(conn, "A", 1, DEAL)
    conn.close()


def ranking(text: str) -> list[tuple[str, ...]]:
    return [m.groups() for line in text.splitlines() if (m := LINE.match(line))]


# (movement, boards, results, pairs ranked, how a pair is named)
EVENTS = [(MITCHELL, 15, 75, 10, re.compile(r"^(NS|EW) \d+$")),
          (howell(4, 3), 21, 84, 8, re.compile(r"^[1-8]$"))]


@pytest.mark.parametrize(("movement", "boards", "results", "pairs", "named"), EVENTS, ids=["mitchell", "howell"])
def test_the_pbn_export_scores_back_to_the_same_rankings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         movement: Movement, boards: int, results: int, pairs: int,
                                                         named: re.Pattern[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, movement=movement)
    pbn = tmp_path / "out" / "tuesday.pbn"
    pbn.parent.mkdir()
    code, _, err = tenace(capsys, "report", str(db), "--pbn", str(pbn))
    assert code == 0 and f"section A, {boards} boards, {results} of {results} results" in err, err
    text = pbn.read_text(encoding="utf-8")
    assert text.startswith("% PBN 2.1") and text.count('[Board "') == boards and text.count("[TotalScoreTable") == 1
    assert f'[Deal "{DEAL}"]' in text and '[Vulnerable "All"]' in text and '[Dealer "W"]' in text
    code, shown, _ = tenace(capsys, "results", str(db))
    code2, scored, err = tenace(capsys, "score", str(pbn))
    assert (code, code2) == (0, 0), err
    ranked = ranking(shown)
    assert len(ranked) == pairs and all(named.match(pair) for _, pair, _, _ in ranked) and ranking(scored) == ranked
    # To standard output, the same file.
    code, out, _ = tenace(capsys, "report", str(db), "--pbn", "-")
    assert code == 0 and out == text


def test_the_directors_adjusted_scores_go_through_the_pbn_export_to_the_same_rankings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    e1, e2, e3, e4 = (MITCHELL.at(t, 1) for t in (1, 2, 3, 4))
    adjustments = [  # scores every vulnerability allows (Law 77): partscores
        ["--table", "1", "--board", str(e1.boards[0]), "--ns", "A+", "--ew", "A-"],
        ["--table", "2", "--board", str(e2.boards[0]), "--percent", "55/45"],
        ["--table", "3", "--board", str(e3.boards[0]), "--assigned", "+140"],
        ["--table", "4", "--board", str(e4.boards[0]), "--weighted", "3/5:+140,2/5:-110"],
        ["--table", "4", "--board", str(e4.boards[1]), "--assigned", "+110", "--ew-assigned", "-140"],
    ]
    for args in adjustments:
        code, _, err = tenace(capsys, "adjust", str(db), *args, "--why", "TD's ruling")
        assert code == 0, (args, err)
    pbn = tmp_path / "adjusted.pbn"
    assert tenace(capsys, "report", str(db), "--pbn", str(pbn))[0] == 0
    text = pbn.read_text(encoding="utf-8")
    assert "   A+     A- " in text and "  55%    45% " in text and '"3/5:140 2/5:-110"' in text
    assert " -     -  -    110    140 " in text, "the split: NS's +110, EW's own +140"
    code, shown, _ = tenace(capsys, "results", str(db))
    code2, scored, err = tenace(capsys, "score", str(pbn))
    assert (code, code2) == (0, 0) and "left out" not in err, err
    assert ranking(scored) == ranking(shown) and len(ranking(shown)) == 10
    code, _, err = tenace(capsys, "score", str(pbn), "--method", "butler")
    assert code == 0 and "an assigned score: Butler and cross-IMPs from a file take played and artificial" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--pbn", "x.pbn"], "this event has sections A, B: give --section, one PBN file each"),
    (["--section", "C", "--pbn", "x.pbn"], "there is no section 'C'"),
    (["--pbn", "."], "is a folder"),
    (["--pbn", "club.sqlite"], "is the input file: give another name"),
    ([], "say what to write: --pbn FILE, --csv DIR, --html DIR, or several"),
    (["--csv", "club.sqlite"], "is a file, not a folder"),
])
def test_wrong_requests_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    make_event(tmp_path / "club.sqlite", ("A", "B"))
    code, out, err = tenace(capsys, "report", "club.sqlite", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out, err
    assert not (tmp_path / "x.pbn").exists()


def test_a_missing_event_file_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "report", str(tmp_path / "none.sqlite"), "--pbn", str(tmp_path / "x.pbn"))
    assert code == 2 and "no such event file" in err and err.count("\n") == 1


def test_the_csv_export_holds_every_sections_ranking_and_travellers(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    conn = create_event(db, name="Two sections", date="2024-05-14", sections={"A": MITCHELL, "B": howell(4, 3)})
    for section, movement in (("A", MITCHELL), ("B", howell(4, 3))):
        for table in range(1, movement.tables + 1):
            sign_in(conn, 100 * (section == "B") + table, section, table)
        for m in session_results(movement, section=section):
            assert ingest(conn, replace(m, terminal=100 * (section == "B") + m.table)).acknowledge
    conn.close()
    code, _, err = tenace(capsys, "report", str(db), "--csv", str(tmp_path / "web"))
    assert code == 0 and err.count("wrote ") == 2, err
    code, out, _ = tenace(capsys, "results", str(db), "--json")
    sections = {s["section"]: s["report"] for s in json.loads(out)["sections"]}
    for section, results, field in (("A", 75, {"NS", "EW"}), ("B", 84, {""})):
        with (tmp_path / "web" / f"{section}-ranking.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        want = [(r["rank"], r["pair"].removeprefix(f"{section}-"), Decimal(str(r["mp"])), Decimal(str(r["percent"])))
                for r in sections[section]["ranking"]]
        assert [(r["rank"], r["pair"], Decimal(r["matchpoints"]), Decimal(r["percent"])) for r in rows] == want
        assert {r["field"] for r in rows} == field and all(r["section"] == section for r in rows)
        with (tmp_path / "web" / f"{section}-travellers.csv").open(encoding="utf-8", newline="") as f:
            lines = list(csv.DictReader(f))
        assert len(lines) == results and all(line["contract"] and line["ns_mp"] for line in lines)


def test_an_existing_pbn_file_or_csv_files_are_not_written_over_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    pbn = tmp_path / "tuesday.pbn"
    pbn.write_text("225 results, kept", encoding="utf-8")
    code, out, err = tenace(capsys, "report", str(db), "--pbn", str(pbn))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"--pbn {pbn} is there already: give a new file name, or --force to write over it" in err, err
    assert pbn.read_text(encoding="utf-8") == "225 results, kept"
    folder = tmp_path / "web"
    folder.mkdir()
    (folder / "A-ranking.csv").write_text("kept", encoding="utf-8")
    code, out, err = tenace(capsys, "report", str(db), "--csv", str(folder))
    assert (code, out) == (2, "") and "holds CSV files already (A-ranking.csv)" in err and "--force" in err, err
    assert (folder / "A-ranking.csv").read_text(encoding="utf-8") == "kept"
    assert tenace(capsys, "report", str(db), "--pbn", str(pbn), "--csv", str(folder), "--force")[0] == 0
    assert pbn.read_text(encoding="utf-8").startswith("% PBN 2.1")
    assert (folder / "A-ranking.csv").read_text(encoding="utf-8").startswith("section,field,rank,")
    # Standard output is never refused; a folder with other files only is written into.
    assert tenace(capsys, "report", str(db), "--pbn", "-")[0] == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("x", encoding="utf-8")
    assert tenace(capsys, "report", str(db), "--csv", str(other))[0] == 0
