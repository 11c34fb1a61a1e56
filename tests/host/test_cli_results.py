"""`tenace results`: rankings, travellers, scorecards from an event file, partial or complete, equal to the engine's."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import mitchell
from tenace.scoring.pairs_session import score_pairs_session
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.scoring_input import board_results

from sample_results import session_results


def make_event(path: Path, tables: int = 5, boards_per_round: int = 3, results: int | None = None) -> int:
    """An event with the first `results` sample results in (all by default); how many went in."""
    movement = mitchell(tables, boards_per_round)
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections={"A": movement})
    for table in range(1, tables + 1):
        sign_in(conn, table, "A", table)
    messages = session_results(movement)[:results]
    for m in messages:
        ingest(conn, m)
    conn.close()
    return len(messages)


def engine_ranking(path: Path) -> list[tuple[str, str, Decimal, Decimal]]:
    """The engine fed directly from the store: (field, pair as "NS 3", MPs, percent), best first."""
    conn = connect(path)
    session = score_pairs_session(board_results(conn, "A"))
    conn.close()
    out = []
    for placing in session.ranking:
        total = session.totals[placing.pair]
        number, direction = placing.pair[1:-2], placing.pair[-2:]  # "A12NS"
        out.append((placing.field, f"{direction} {number}", total.mp, total.percent))
    return out


def json_ranking(doc: dict[str, object]) -> list[tuple[str, str, Decimal, Decimal]]:
    sections = doc["sections"]
    assert isinstance(sections, list)
    ranking = sections[0]["report"]["ranking"]
    return [(r["field"], r["pair"], Decimal(str(r["mp"])).quantize(Decimal("0.01")),
             Decimal(str(r["percent"])).quantize(Decimal("0.01"))) for r in ranking]


@pytest.mark.parametrize("results", [None, 31])
def test_the_ranking_is_the_engines_complete_or_partial(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        results: int | None) -> None:
    path = tmp_path / "club.sqlite"
    n = make_event(path, results=results)
    code, out, err = tenace(capsys, "results", str(path), "--json")
    assert code == 0, err
    doc = json.loads(out)
    section = doc["sections"][0]
    assert (section["results_in"], section["expected"], section["complete"]) == (n, 75, n == 75)
    assert json_ranking(doc) == engine_ranking(path)
    code, text, err = tenace(capsys, "results", str(path))
    assert code == 0, err
    state = "all 75 results in" if n == 75 else f"{n} of 75 results in: provisional"
    assert text.startswith(f"Tuesday pairs, 2024-05-14 (matchpoints; {state})")
    assert "Ranking NS" in text and "Ranking EW" in text and "Board 15" in text


def test_a_board_and_a_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite"
    make_event(path)
    code, out, _ = tenace(capsys, "results", str(path), "--board", "4")
    assert code == 0 and "Board 4 " in out and "Board 5 " not in out and "Ranking" not in out
    assert out.count("table ") == 5  # one line per table that played it
    code, out, _ = tenace(capsys, "results", "--db", str(path), "--pair", "ns3")
    assert code == 0 and "Scorecard of NS 3" in out
    lines = [line for line in out.splitlines() if "table " in line]
    assert len(lines) == 15 and all(" NS 3 v " in line for line in lines)
    assert [line.split()[0] for line in lines] == [str(b) for b in range(1, 16)]
    ranking = [line for line in out.splitlines() if line.endswith("%")]
    assert len(ranking) == 1 and "NS 3" in ranking[0]
    code, out, _ = tenace(capsys, "results", str(path), "--pair", "EW 2", "--json")
    report = json.loads(out)["sections"][0]["report"]
    assert [r["pair"] for r in report["ranking"]] == ["EW 2"]
    assert all("EW 2" in (line["ns_pair"], line["ew_pair"]) for b in report["boards"] for line in b["lines"])


def test_an_event_with_no_results_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite"
    make_event(path, results=0)
    code, out, _ = tenace(capsys, "results", str(path))
    assert code == 0 and "0 of 75 results in: provisional" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--board", "99"], "there is no board 99 in this event (boards 1-15)"),
    (["--pair", "NS 9"], "there is no pair 'NS 9' with results in this event (pairs are named like EW 1, EW 2, ...)"),
    (["--pair", "3"], "pair '3' is ambiguous: say EW 3 or NS 3"),
    (["--section", "B"], "there is no section 'B' in this event (sections: A)"),
])
def test_what_is_not_in_the_event_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              args: list[str], message: str) -> None:
    path = tmp_path / "club.sqlite"
    make_event(path, results=20)
    code, out, err = tenace(capsys, "results", str(path), *args)
    assert code == 2 and out == "" and err == f"tenace results: {message}\n"


def test_the_event_file_must_be_named_and_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "results")
    assert code == 2 and "name the event file" in err
    code, _, err = tenace(capsys, "results", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no such event file" in err and err.count("\n") == 1
