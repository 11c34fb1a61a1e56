"""Hand records: `tenace event deals` imports PBN and LIN deals, endplay's double-dummy tables and par are kept,
and `tenace results --board N` shows them (text and JSON)."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.deals.analysis import Job, analyse, analyse_batch, analyse_in_background, table_analysis
from tenace.deals.files import from_north, lin_deal, read_deals
from tenace.deals.progress import Progress
from tenace.movement import mitchell
from tenace.pbn.reader import read_pbn
from tenace.reports.json import from_document, to_document
from tenace.simulation.terminal.table_host import fixed_analysis, fixed_deal
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.hand_records import DoubleDummy, hand_records

from conftest import ORACLES, needs_oracles
from sample_results import session_results

# Each hand holds one whole suit: North spades, East hearts, South diamonds, West clubs. Whoever holds the
# trumps ruffs the first lead and takes every trick; in no trump the opening leader runs his suit. So NS take
# 13 tricks in spades and diamonds and none elsewhere, EW 13 in hearts and clubs and none elsewhere.
SUITS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
SUITS_TRICKS = {"N": {"C": 0, "D": 13, "H": 0, "S": 13, "NT": 0}, "S": {"C": 0, "D": 13, "H": 0, "S": 13, "NT": 0},
                "E": {"C": 13, "D": 0, "H": 13, "S": 0, "NT": 0}, "W": {"C": 13, "D": 0, "H": 13, "S": 0, "NT": 0}}
# FFB 2022 board 1 (its published double-dummy table is checked below against the oracle file).
FFB1 = "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8"
FFB1_FROM_EAST = "E:A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8 KQT6.AJT.T984.65"

DEALS_PBN = f"""\
% deals for the tests
[Event "Club night"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{SUITS}"]

[Board "2"]
[Deal "{FFB1_FROM_EAST}"]

[Board "3"]
[Deal "N:AKQ.JT9.876.5432 T98.876.5432.AKQ 765.5432.AKQ.JT9 A432.AKQ.JT9.876"]

[Board "12"]
[Deal "{SUITS}"]

[Board "1"]
[Deal "{SUITS}"]

[Board "4"]
[Deal "N:AKQJ.T98.765.432 - - -"]
"""



def make_event(path: Path, results: bool = True) -> None:
    """Three tables, three boards a round: boards 1-9, every result in when `results`."""
    movement = mitchell(3, 3)
    conn = create_event(path, name="Club night", date="2024-05-14", sections={"A": movement})
    if results:
        for table in range(1, 4):
            sign_in(conn, table, "A", table)
        for m in session_results(movement):
            ingest(conn, m)
    conn.close()


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    make_event(path)
    return path


def write(tmp_path: Path, text: str, name: str = "deals.pbn") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deal_from_another_seat_is_turned_to_north() -> None:
    assert from_north(FFB1_FROM_EAST) == FFB1
    assert from_north("S:" + " ".join(FFB1[2:].split()[2:] + FFB1[2:].split()[:2])) == FFB1
    with pytest.raises(ValueError, match="incomplete"):
        from_north("N:AKQJ.T98.765.432 - - -")


def test_a_lin_deal_with_its_fourth_hand_left_out() -> None:
    # LIN lists South, West, North, East after the dealer digit (3: North deals).
    assert lin_deal("3SJ543H43DAQ5CAKJ3,S987HQ52DKJ63CQT8,SKQT6HAJTDT984C65,") == FFB1
    deals = read_deals(b"pn|a,b,c,d|st||md|3SJ543H43DAQ5CAKJ3,S987HQ52DKJ63CQT8,SKQT6HAJTDT984C65,|"
                       b"rh||ah|Board 7|sv|o|\nmd|1S2,S3,S4,|ah|Board 8|\nmd|3SAKQ,,,|\n")
    assert (deals[0].line, deals[0].board, deals[0].deal) == (1, 7, FFB1) and deals[2].line == 3
    assert deals[1].board == 8 and deals[1].problem is not None and "13" in deals[1].problem
    assert deals[2].board is None and deals[2].problem is not None and "board number" in deals[2].problem


def dup_record(deal: str, lowest: int) -> bytes:
    """A Duplimate DUP record written as its documentation lays it out: North's, East's and South's cards as two digits
    (01 the ace of spades, 13 its two, 14 the ace of hearts ... 52 the two of clubs), 68 bytes of display text, and the
    set's 10 bytes: random? backwards? (Y/N), lowest board (3, left-aligned), copies (2), highest board (3)."""
    digits = ""
    for hand in deal[2:].split()[:3]:
        for suit, holding in enumerate(hand.split(".")):
            digits += "".join(f"{13 * suit + 'AKQJT98765432'.index(rank) + 1:02d}" for rank in reversed(holding))
    return (digits + " " * 68 + f"YN{lowest:<3}1 {lowest + 31:<3}").encode("ascii")


def test_a_dup_file_of_a_dealing_machine(event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = "N:AKQJ.AKQ.AKQ.AKQ T987.J987.J98.J9 6543.T65.T765.T8 2.432.432.765432"
    assert read_deals(dup_record(FFB1, 1) + dup_record(other, 1))[1].deal == other
    doubled = dup_record(FFB1, 5)[:2] * 2 + dup_record(FFB1, 5)[4:]  # North's first card twice: West's 14
    file = tmp_path / "set.dup"
    file.write_bytes(dup_record(FFB1, 5) + dup_record(other, 5) + doubled)
    deals = read_deals(file.read_bytes())
    assert [(d.line, d.board, d.deal) for d in deals[:2]] == [(1, 5, FFB1), (2, 6, other)]
    assert deals[2].board == 7 and deals[2].problem is not None and "dealt twice" in deals[2].problem
    code, out, err = tenace(capsys, "event", "deals", str(event), str(file), "--no-analysis")
    assert code == 0, err
    assert "section A: 2 deals kept (boards 5-6), 1 skipped" in out, out
    assert err.startswith(f"skipped {file}:3: board 7: ") and "dealt twice" in err


def test_import_keeps_the_good_deals_and_lists_the_others(event: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path, DEALS_PBN)
    code, out, err = tenace(capsys, "event", "deals", str(event), str(file))
    assert code == 0, err
    assert "section A: 2 deals kept (boards 1-2), 4 skipped" in out
    assert "double dummy: 2 boards analysed" in out
    skipped = [line for line in err.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 4
    assert skipped[0].startswith(f"skipped {file}:11: board 3: ") and "dealt twice" in skipped[0]
    assert skipped[1] == f"skipped {file}:14: board 12: section A has no board 12 (its boards: 1-9)"
    assert skipped[2].startswith(f"skipped {file}:17: board 1: board 1 again (the same deal as at line 2)")
    assert skipped[3].startswith(f"skipped {file}:20: board 4: an incomplete deal")
    # Plain progress lines: stderr is not a terminal here.
    assert "double dummy: 2/2 boards" in err and "\r" not in err
    conn = connect(event)
    kept = hand_records(conn, "A")
    conn.close()
    assert sorted(kept) == [1, 2]
    assert kept[2].deal == FFB1  # given from East, kept from North


def test_the_known_double_dummy_table_and_par(event: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    tenace(capsys, "event", "deals", str(event), str(write(tmp_path, DEALS_PBN)))
    conn = connect(event)
    kept = hand_records(conn, "A")
    conn.close()
    one = kept[1].analysis
    assert one is not None and one.tricks == SUITS_TRICKS
    # Board 1, nobody vulnerable: NS's grand slam in spades, 210 + 300 + 1000; EW have nothing higher that
    # makes (7NT doubled goes down 13 for 3500).
    assert one.par_score == 1510 and one.par_contracts == ("7S N =", "7S S =")
    # The same deal on board 2 (NS vulnerable, East deals): 210 + 500 + 1500.
    assert analyse(SUITS, 2).par_score == 2210
    # FFB board 1's table, as the federation published it (ffb-2022-dn1-session1.pbn); board 2: NS vulnerable.
    two = kept[2].analysis
    assert two is not None
    assert two.tricks == {"N": {"C": 7, "D": 9, "H": 6, "S": 10, "NT": 8}, "S": {"C": 7, "D": 9, "H": 7, "S": 10,
                                                                             "NT": 8},
                          "E": {"C": 4, "D": 4, "H": 6, "S": 3, "NT": 4}, "W": {"C": 4, "D": 4, "H": 6, "S": 3,
                                                                             "NT": 4}}
    assert (two.par_score, two.par_contracts) == (620, ("4S N =", "4S S ="))
    assert DoubleDummy.decoded(one.encoded(), one.par_score, ";".join(one.par_contracts)) == one


def test_a_session_is_analysed_in_batches_each_job_with_its_own_analysis() -> None:
    # 45 jobs: a batch of BATCH (40) and one of 5, each result back with its job, in order.
    calls: list[list[int]] = []

    def fake(deals: Sequence[tuple[str, int]]) -> list[DoubleDummy]:
        calls.append([board for _, board in deals])
        return [DoubleDummy({}, board, (deal,)) for deal, board in deals]

    jobs = [Job(b, f"deal {b}") for b in range(1, 46)]
    got = list(analyse_in_background(jobs, fake))
    assert calls == [list(range(1, 41)), list(range(41, 46))]
    assert [(job.board, dd.par_score, dd.par_contracts) for job, dd in got] == [(b, b, (f"deal {b}",))
                                                                                 for b in range(1, 46)]


@pytest.mark.slow
def test_the_bulk_analysis_is_the_one_deal_at_a_time() -> None:
    # One DDS bulk call for the twelve fixed deals gives each board the table and par of its own deal.
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    deals = [(fixed_deal()(board), board) for board in range(1, 13)]
    bulk = analyse_batch(deals)
    for (deal, board), got in zip(deals, bulk, strict=True):
        single = calc_dd_table(Deal(deal))
        assert got == table_analysis(single, board) == analyse(deal, board), board


@pytest.mark.slow
def test_the_simulators_fixed_analysis_is_endplays() -> None:
    # The simulated collector keeps micropython/deals.py's analysis of its fixed deals without loading endplay;
    # the terminal tests check the screens against it, so it must be the real one.
    for board in range(1, 13):
        analysis = fixed_analysis(board)
        real = analyse(fixed_deal()(board), board)
        assert analysis is not None and (analysis.tricks, analysis.par_score) == (real.tricks, real.par_score), board
    assert fixed_analysis(13) is None


def test_nothing_imported_is_exit_2_with_one_line(event: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path, f'[Board "12"]\n[Deal "{SUITS}"]\n\n[Board "3"]\n[Deal "N:AKQ"]\n')
    code, out, err = tenace(capsys, "event", "deals", str(event), str(file))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 3 and lines[-1] == f"tenace event: {file}: no deal imported (2 skipped, listed above)"
    for text in ("", "just some notes\n", "[Event \"x\"]\n"):
        code, _, err = tenace(capsys, "event", "deals", str(event), str(write(tmp_path, text)))
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, _, err = tenace(capsys, "event", "deals", str(event), str(tmp_path / "absent.pbn"))
    assert code == 2 and "cannot read" in err
    code, _, err = tenace(capsys, "event", "deals", str(event))
    assert code == 2 and "name the file of deals" in err


def test_standard_input_and_analyse_later(event: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f'[Board "5"]\n[Deal "{SUITS}"]\n'.encode())))
    code, out, err = tenace(capsys, "event", "deals", "--db", str(event), "-", "--no-analysis")
    assert code == 0, err
    assert "section A: 1 deal kept (boards 5), 0 skipped" in out and "double dummy" not in out
    conn = connect(event)
    assert hand_records(conn, "A")[5].analysis is None
    conn.close()
    code, out, err = tenace(capsys, "event", "deals", str(event), "--analyse")
    assert code == 0 and "double dummy: 1 board analysed" in out
    conn = connect(event)
    analysis = hand_records(conn, "A")[5].analysis
    conn.close()
    assert analysis is not None and analysis.tricks == SUITS_TRICKS
    code, out, _ = tenace(capsys, "event", "deals", str(event), "--analyse")
    assert code == 0 and "every kept deal is analysed already" in out


def test_results_board_shows_the_deal_the_table_and_par(event: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, before, _ = tenace(capsys, "results", str(event), "--board", "4")
    assert code == 0
    tenace(capsys, "event", "deals", str(event), str(write(tmp_path, DEALS_PBN)))
    code, out, _ = tenace(capsys, "results", str(event), "--board", "2")
    assert code == 0
    lines = out.splitlines()
    traveller = next(i for i, line in enumerate(lines) if line.lstrip().startswith("table"))
    north = next(i for i, line in enumerate(lines) if line.strip() == "\u2660 KQT6")
    assert traveller < north  # under the traveller
    assert any(line.startswith("  \u2660 987") and line.rstrip().endswith("\u2660 A2") for line in lines)  # W, E
    table = lines.index("  Double dummy  NT  \u2660  \u2665  \u2666  \u2663")
    assert lines[table + 1:table + 5] == ["  N              8 10  6  9  7", "  S              8 10  7  9  7",
                                          "  E              4  3  6  4  4", "  W              4  3  6  4  4"]
    assert "  Par NS +620: 4\u2660 by N =, 4\u2660 by S =" in lines
    # A board without a hand record prints as it did.
    code, after, _ = tenace(capsys, "results", str(event), "--board", "4")
    # All but the chain head, which the deals imported moved on.
    assert after.splitlines()[:-1] == before.splitlines()[:-1] and "Double dummy" not in after
    assert after.splitlines()[-1].startswith("event file chain head: ") and after != before


def test_results_json_carries_the_hand_record_and_reads_back(event: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    tenace(capsys, "event", "deals", str(event), str(write(tmp_path, DEALS_PBN)))
    code, out, _ = tenace(capsys, "results", str(event), "--board", "1", "--json")
    assert code == 0
    report = json.loads(out)["sections"][0]["report"]
    hand = report["boards"][0]["hand"]
    assert hand["deal"] == SUITS and hand["hands"]["N"] == "AKQJT98765432..."
    assert hand["double_dummy"] == SUITS_TRICKS
    assert hand["par"] == {"score": 1510, "contracts": ["7S N =", "7S S ="]}
    read = from_document(report)
    assert read.boards[0].hand is not None and read.boards[0].hand.par_contracts == ("7S N =", "7S S =")
    assert to_document(read) == report
    code, out, _ = tenace(capsys, "results", str(event), "--board", "4", "--json")
    assert "hand" not in json.loads(out)["sections"][0]["report"]["boards"][0]


def test_a_board_with_a_deal_but_no_result_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.sqlite"
    make_event(path, results=False)
    tenace(capsys, "event", "deals", str(path), str(write(tmp_path, DEALS_PBN)))
    code, out, _ = tenace(capsys, "results", str(path), "--board", "1")
    assert code == 0 and "Board 1  dealer N  vulnerable none" in out and "Par NS +1510" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_line_on_a_terminal() -> None:
    screen = _Terminal()
    bar = Progress(4, stream=screen)
    for board in range(1, 5):
        bar.advance(note=f"board {board}")
    bar.close()
    text = screen.getvalue()
    assert text.count("\r") == 5 and text.endswith("\n") and text.count("\n") == 1
    assert "4/4 boards" in text and "#" * 30 in text
    plain = io.StringIO()
    bar = Progress(20, stream=plain)
    for _ in range(20):
        bar.advance()
    bar.close()
    lines = plain.getvalue().splitlines()
    assert len(lines) == 11 and lines[-1] == "double dummy: 20/20 boards"  # every tenth of the way


@needs_oracles
@pytest.mark.slow
def test_ffb_published_double_dummy_tables_and_par(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The FFB's file gives each board's double-dummy table (OptimumResultTable) and par score (OptimumScore),
    from the organiser's own software: endplay's must be the same, board by board."""
    path = tmp_path / "ffb.sqlite"
    create_event(path, name="DN1", date="2022-02-06", sections={"A": mitchell(15, 2)}).close()
    file = ORACLES / "ffb-2022-dn1-session1.pbn"
    code, out, err = tenace(capsys, "event", "deals", str(path), str(file))
    assert code == 0, err
    assert "30 deals kept (boards 1-30), 0 skipped" in out
    conn = connect(path)
    kept = hand_records(conn, "A")
    conn.close()
    for game in read_pbn(file):
        board = int(game.tag("Board"))
        analysis = kept[board].analysis
        assert analysis is not None
        published = {(row[0], row[1]): int(row[2]) for row in game.tables["OptimumResultTable"].rows}
        assert {(d, s): analysis.tricks[d][s] for d in "NESW" for s in ("C", "D", "H", "S", "NT")} == published, board
        assert analysis.par_score == int(game.tag("OptimumScore").split()[1]), board


def test_after_publication_importing_deals_needs_force_and_why_and_is_logged(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.store import director_log
    file = write(tmp_path, f'[Board "1"]\n[Deal "{SUITS}"]\n\n[Board "2"]\n[Deal "{FFB1}"]\n')
    # Before publication an import is the event's setup: kept, not logged.
    assert tenace(capsys, "event", "deals", str(event), str(file), "--no-analysis")[0] == 0
    assert director_log(connect(event)) == []
    assert tenace(capsys, "finish", str(event), "--who", "TD Ana")[0] == 0
    other = write(tmp_path, f'[Board "1"]\n[Deal "{FFB1}"]\n', name="other.pbn")
    code, out, err = tenace(capsys, "event", "deals", str(event), str(other), "--no-analysis")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "the results were published at" in err and "by TD Ana" in err and "--force imports them" in err, err
    code, _, err = tenace(capsys, "event", "deals", str(event), str(other), "--no-analysis", "--force")
    assert code == 2 and "--why is required after publication" in err, err
    assert hand_records(connect(event), "A")[1].deal == SUITS and len(director_log(connect(event))) == 1
    code, out, err = tenace(capsys, "event", "deals", str(event), str(other), "--no-analysis", "--force",
                            "--who", "TD Ana", "--why", "the wrong set was loaded")
    assert code == 0 and "1 replacing another deal" in out, (out, err)
    assert hand_records(connect(event), "A")[1].deal == FFB1
    entry = director_log(connect(event))[-1]
    assert (entry.action, entry.who, entry.why) == ("correct", "TD Ana", "the wrong set was loaded")
    assert entry.detail == "section A hand records imported after publication: board 1, replacing board 1"
    assert entry.result is None and not entry.forced
