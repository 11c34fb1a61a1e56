"""The USEBIO round trip: an event written by `tenace report --usebio` and rescored by `tenace score OUT.xml` has the
rankings of `tenace results`: place, pair, boards, matchpoints (or IMPs), percentage and the Law 90 penalty taken,
with the director's scores on the travellers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import tenace
from test_cli_report_usebio import make_event

from tenace.movement import Movement, howell, mitchell
from tenace.usebio.schema import check_file

MITCHELL = mitchell(5, 3)
HOWELL = howell(4, 3)
KEPT = ("field", "rank", "pair", "directions", "boards", "mp", "percent", "imps", "penalty")


def rankings(capsys: pytest.CaptureFixture[str], db: Path, xml: Path) -> tuple[list[dict[str, object]],
                                                                               list[dict[str, object]]]:
    """`tenace results --json`'s ranking of the event, and `tenace score --json`'s of its USEBIO export."""
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(xml), "--club", "Riga BC")
    assert code == 0, err
    check_file(xml)
    code, shown, _ = tenace(capsys, "results", str(db), "--json")
    assert code == 0
    code, scored, err = tenace(capsys, "score", str(xml), "--json")
    assert code == 0 and "left out" not in err, err
    results = json.loads(shown)["sections"][0]["report"]["ranking"]
    rescored = json.loads(scored)["ranking"]
    return ([{k: line[k] for k in KEPT} for line in results], [{k: line[k] for k in KEPT} for line in rescored])


@pytest.mark.parametrize(("movement", "scoring"), [(MITCHELL, "matchpoints"), (HOWELL, "matchpoints"),
                                                   (MITCHELL, "imps"), (HOWELL, "imps")],
                         ids=["mp-mitchell", "mp-howell", "imps-mitchell", "imps-howell"])
def test_an_export_rescores_to_the_rankings_of_tenace_results(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              movement: Movement, scoring: str) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": movement}, scoring)
    results, rescored = rankings(capsys, db, tmp_path / "out.xml")
    assert len(results) == (10 if movement is MITCHELL else 8) and rescored == results


def directors_scores(db: Path, capsys: pytest.CaptureFixture[str], movement: Movement,
                     actions: list[list[str]]) -> None:
    for command, *args in actions:
        code, _, err = tenace(capsys, command, str(db), *args, "--why", "TD's ruling")
        assert code == 0, (args, err)


@pytest.mark.parametrize("movement", [MITCHELL, HOWELL], ids=["mitchell", "howell"])
def test_the_directors_scores_come_back_through_the_usebio_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], movement: Movement) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": movement})
    first = [movement.at(t, 1) for t in range(1, 5)]
    directors_scores(db, capsys, movement, [
        ["adjust", "--table", "2", "--board", str(first[1].boards[0]), "--percent", "55/45"],
        ["adjust", "--table", "3", "--board", str(first[2].boards[0]), "--assigned", "+140"],
        ["correct", "--table", "4", "--board", str(first[3].boards[0]), "--passed-out"],
        ["correct", "--table", "4", "--board", str(first[3].boards[1]), "--not-played"],
    ])
    results, rescored = rankings(capsys, db, tmp_path / "adjusted.xml")
    assert rescored == results and any(line["boards"] != results[0]["boards"] for line in results)


@pytest.mark.parametrize(("movement", "penalised"), [(MITCHELL, ("NS 3", "EW 2")), (HOWELL, ("3", "6"))],
                         ids=["mitchell", "howell"])
def test_averages_and_law_90_penalties_come_back_through_the_usebio_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], movement: Movement, penalised: tuple[str, str]) -> None:
    """A+/A- are written A6040 and must be read back as Law 12C2's averages (A60 A+, A50 A, A40 A-: tenace gives a
    pair its session percentage where Law 12C2(c) says so, not a fixed 40%), and a penalty is out of TOTAL_SCORE and
    in the pair's ADJUSTMENT, which the reader must take off its own totals again."""
    db = tmp_path / "club.sqlite"
    make_event(db, {"A": movement})
    first = [movement.at(t, 1) for t in range(1, 5)]
    directors_scores(db, capsys, movement, [
        ["adjust", "--table", "1", "--board", str(first[0].boards[0]), "--ns", "A+", "--ew", "A-"],
        ["adjust", "--pair", penalised[0], "--penalty", "1.5MP"],
        ["adjust", "--pair", penalised[1], "--penalty", "33.33%"],
    ])
    results, rescored = rankings(capsys, db, tmp_path / "adjusted.xml")
    taken = {line["pair"]: line["penalty"] for line in results if line["penalty"]}
    assert set(taken) == set(penalised) and taken[penalised[0]] == 1.5
    assert rescored == results


def test_every_section_of_a_two_section_export_rescores_to_its_ranking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, xml = tmp_path / "club.sqlite", tmp_path / "two.xml"
    make_event(db, {"A": MITCHELL, "B": HOWELL})
    code, _, err = tenace(capsys, "report", str(db), "--usebio", str(xml), "--club", "Riga BC")
    assert code == 0, err
    check_file(xml)
    code, shown, _ = tenace(capsys, "results", str(db), "--json")
    sections = {s["section"]: s["report"]["ranking"] for s in json.loads(shown)["sections"]}
    for name in ("A", "B"):
        code, scored, err = tenace(capsys, "score", str(xml), "--section", name, "--json")
        assert code == 0, err
        rescored = json.loads(scored)["ranking"]
        # A section's pairs are named by section in tenace results ("B-3"), by number alone within the section here.
        expected = [{k: (str(line[k]).removeprefix(f"{name}-") if k == "pair" else line[k]) for k in KEPT}
                    for line in sections[name]]
        assert [{k: line[k] for k in KEPT} for line in rescored] == expected and len(expected) in (8, 10)
    code, _, err = tenace(capsys, "score", str(xml))
    assert code == 2 and "the file has sections A, B: score one at a time with --section A" in err
