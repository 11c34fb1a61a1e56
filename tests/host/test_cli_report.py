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
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.hand_records import keep_hand_record
from tenace.store.ledger import head

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
    assert " -     -  - -      110    140 " in text, "the split: NS's +110, EW's own +140"
    code, shown, _ = tenace(capsys, "results", str(db))
    code2, scored, err = tenace(capsys, "score", str(pbn))
    assert (code, code2) == (0, 0) and "left out" not in err, err
    assert ranking(scored) == ranking(shown) and len(ranking(shown)) == 10
    # Butler from the file scores the assigned, weighted and split scores as the club's session does; 55% has no
    # IMP equivalent (Law 12C2 at IMPs), its row alone is left out.
    code, _, err = tenace(capsys, "score", str(pbn), "--method", "butler")
    assert code == 0 and "1 row or board left out" in err and "55%" in err and "assigned" not in err, err


def test_butler_of_the_pbn_export_of_an_imp_event_is_the_clubs_with_assigned_and_split_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    conn = create_event(db, name="IMP pairs", date="2024-05-14", sections={"A": MITCHELL}, scoring="imps")
    for table in range(1, MITCHELL.tables + 1):
        sign_in(conn, table, "A", table)
    for m in session_results(MITCHELL):
        ingest(conn, m)
    conn.close()
    e1, e2, e3 = (MITCHELL.at(t, 1) for t in (1, 2, 3))
    for args in (["--table", "1", "--board", str(e1.boards[0]), "--assigned", "+140"],
                 ["--table", "2", "--board", str(e2.boards[0]), "--weighted", "1/2:+140,1/2:+140"],
                 ["--table", "3", "--board", str(e3.boards[0]), "--assigned", "+110", "--ew-assigned", "-140"]):
        code, _, err = tenace(capsys, "adjust", str(db), *args, "--why", "TD's ruling")
        assert code == 0, (args, err)
    pbn = tmp_path / "imps.pbn"
    assert tenace(capsys, "report", str(db), "--pbn", str(pbn))[0] == 0
    code, shown, _ = tenace(capsys, "results", str(db), "--json")
    code2, scored, err = tenace(capsys, "score", str(pbn), "--method", "butler", "--json")
    assert (code, code2) == (0, 0) and "left out" not in err, err
    kept = ("field", "rank", "pair", "boards", "imps")
    club = [{k: line[k] for k in kept} for line in json.loads(shown)["sections"][0]["report"]["ranking"]]
    assert [{k: line[k] for k in kept} for line in json.loads(scored)["ranking"]] == club and len(club) == 10


def every_directors_score(db: Path, capsys: pytest.CaptureFixture[str], movement: Movement,
                          penalised: tuple[str, str]) -> None:
    """Every kind of director's score on the event: artificial both ways, percentages, assigned, weighted, split
    (assigned and weighted), not played, passed out, erased, corrected; Law 90 penalties in MP, in % of a top with
    and without --board (33.33% of a top of 8 is 2.6664 MP: more decimals than a total has), against an NS and an
    EW pair (a Howell's pairs sit both ways)."""
    first, second = ([movement.at(t, r) for t in range(1, 5)] for r in (1, 2))
    actions = [
        ["adjust", "--table", "1", "--board", str(first[0].boards[0]), "--ns", "A+", "--ew", "A-"],
        ["adjust", "--table", "1", "--board", str(first[0].boards[1]), "--ns", "A-", "--ew", "A"],
        ["adjust", "--table", "2", "--board", str(first[1].boards[0]), "--percent", "60/40"],
        ["adjust", "--table", "3", "--board", str(first[2].boards[0]), "--assigned", "+140"],
        ["adjust", "--table", "4", "--board", str(first[3].boards[0]), "--weighted", "0.6:+140,0.4:-110"],
        ["adjust", "--table", "4", "--board", str(first[3].boards[1]), "--assigned", "+110", "--ew-assigned", "-140"],
        ["adjust", "--table", "3", "--board", str(first[2].boards[1]), "--weighted", "0.5:+110,0.5:-50",
         "--ew-weighted", "0.5:+140,0.5:-50"],
        ["correct", "--table", "2", "--board", str(first[1].boards[1]), "--not-played"],
        ["correct", "--table", "2", "--board", str(first[1].boards[2]), "--passed-out"],
        ["correct", "--table", "1", "--board", str(first[0].boards[2]), "--contract", "2S", "--by", "N",
         "--tricks", "9"],
        ["erase", "--table", "3", "--board", str(first[2].boards[2])],
        ["adjust", "--pair", penalised[0], "--penalty", "1.5MP"],
        ["adjust", "--pair", penalised[1], "--penalty", "33.33%"],
        ["adjust", "--pair", penalised[1], "--penalty", "50%", "--board", str(second[0].boards[0])],
    ]
    for command, *args in actions:
        code, _, err = tenace(capsys, command, str(db), *args, "--why", "TD's ruling")
        assert code == 0, (args, err)


def lines_of(report: dict[str, object]) -> dict[tuple[int, int], tuple[object, ...]]:
    """Each traveller line by (board, table): its pairs, what it scored and its figures."""
    boards = report["boards"]
    assert isinstance(boards, list)
    return {(b["board"], line["table"]): (line["ns_pair"], line["ew_pair"], line["contract"], line["ns_score"],
                                          line["adjustment"], line["mp_ns"], line["mp_ew"], line["percent_ns"],
                                          line["percent_ew"])
            for b in boards for line in b["lines"]}


@pytest.mark.parametrize(("movement", "penalised"), [(MITCHELL, ("NS 3", "EW 2")), (howell(4, 3), ("3", "6"))],
                         ids=["mitchell", "howell"])
def test_every_directors_score_and_penalty_comes_back_through_the_pbn_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], movement: Movement, penalised: tuple[str, str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, movement=movement)
    every_directors_score(db, capsys, movement, penalised)
    pbn = tmp_path / "A.pbn"
    assert tenace(capsys, "report", str(db), "--section", "A", "--pbn", str(pbn))[0] == 0
    text = pbn.read_text(encoding="utf-8")
    assert "Law 90 penalties: the TotalScoreTable's Penalty column" in text and " NP " in text
    assert re.search(r"^\[TotalScoreTable .*;Penalty\\7R\"\]$", text, re.M) and re.search(r"\d\.\d{4}$", text, re.M)
    code, shown, _ = tenace(capsys, "results", str(db), "--json")
    code2, scored, err = tenace(capsys, "score", str(pbn), "--json")
    assert (code, code2) == (0, 0) and "left out" not in err, err
    results, rescored = json.loads(shown)["sections"][0]["report"], json.loads(scored)
    # The whole ranking: field, place, pair, boards, MPs, percentage, the penalty taken.
    assert rescored["ranking"] == results["ranking"]
    taken = {line["pair"]: line["penalty"] for line in results["ranking"] if line["penalty"]}
    assert set(taken) == set(penalised) and taken[penalised[0]] == 1.5
    assert lines_of(rescored) == lines_of(results)
    kinds = [line[4] for line in lines_of(results).values() if line[4]]
    assert len(kinds) == 7 and any(line[2] is None and line[4] is None for line in lines_of(results).values())
    # A second round through tenace score's own PBN: the same again.
    again = tmp_path / "again.pbn"
    assert tenace(capsys, "score", str(pbn), "--pbn", str(again))[0] == 0
    code, scored2, err = tenace(capsys, "score", str(again), "--json")
    assert code == 0 and json.loads(scored2)["ranking"] == results["ranking"], err


@pytest.mark.parametrize(("args", "message"), [
    (["--pbn", "x.pbn"], "this event has sections A, B: give --section, one PBN file each"),
    (["--section", "C", "--pbn", "x.pbn"], "there is no section 'C'"),
    (["--pbn", "."], "is a folder"),
    (["--pbn", "club.sqlite"], "is the input file: give another name"),
    ([], "say what to write: --pbn FILE, --usebio FILE, --csv DIR, --html DIR, --email SETTINGS, or several"),
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


def test_the_chain_head_is_published_with_the_results_and_in_every_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    assert tenace(capsys, "adjust", str(db), "--pair", "NS 3", "--penalty", "1.5MP", "--why", "Law 90: late")[0] == 0
    conn = connect(db)
    chain = head(conn)
    conn.close()
    assert re.fullmatch(r"[0-9a-f]{64}", chain)
    code, out, _ = tenace(capsys, "results", str(db))
    assert code == 0 and out.rstrip("\n").splitlines()[-1] == (
        f"event file chain head: {chain} (tenace check {db} --head {chain} proves a copy)")
    code, out, _ = tenace(capsys, "results", str(db), "--json")
    assert code == 0 and json.loads(out)["chain_head"] == chain
    pbn = tmp_path / "A.pbn"
    assert tenace(capsys, "report", str(db), "--pbn", str(pbn), "--html", str(tmp_path / "site"))[0] == 0
    text = pbn.read_text(encoding="utf-8")
    assert text.startswith(f"% PBN 2.1\n% EXPORT\n{{Tenace event file chain head: {chain}\n")
    assert "Law 90 penalty, NS 3: 1.5 MP" in text.split("[Event")[0]
    for page in ("index.html", "board/A/1.html", "pair/A/NS3.html"):
        html = (tmp_path / "site" / page).read_text(encoding="utf-8")
        assert f'<footer class="chain" title="{chain}">Event file chain head: {chain[:16]} ' in html, page
    for given in (chain, chain[:16]):
        code, out, err = tenace(capsys, "check", str(db), "--head", given)
        assert code == 0, out + err
    # The comment does not change what tenace score reads.
    assert tenace(capsys, "score", str(pbn))[0] == 0
