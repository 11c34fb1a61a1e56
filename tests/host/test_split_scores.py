"""Law 12C1(b) split scores through `tenace adjust`: each side compared with its own field on its own score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import tenace
from event_state import club_with_a_conflict

from tenace.store import connect, current_results, director_log


def mp1(own: int, others: list[int]) -> int:
    """Law 78A by hand: 2 per score beaten, 1 per score tied (NS's view)."""
    return sum(2 if own > o else 1 if own == o else 0 for o in others)


def board_lines(capsys: pytest.CaptureFixture[str], event: Path, board: int) -> list[dict[str, Any]]:
    doc = json.loads(tenace(capsys, "results", str(event), "--json")[1])
    report = doc["sections"][0]["report"]
    return next(b["lines"] for b in report["boards"] if b["board"] == board)


def test_a_split_score_compares_each_field_on_its_own_sides_score(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    played = {line["table"]: line["ns_score"] for line in board_lines(capsys, event, 5)}
    assert len(played) == 3 and all(isinstance(s, int) for s in played.values())
    # NS at table 3 are given 4S making (+620, board 5 NS vulnerable); EW are given NS -500 (down two doubled).
    code, out, err = tenace(capsys, "adjust", str(event), "--table", "3", "--board", "5", "--assigned", "+620",
                            "--ew-assigned", "-500", "--why", "Law 12C1(b): not balanced", "--who", "TD Ana")
    assert code == 0 and err == "", err
    assert "split: assigned NS +620 to NS, assigned NS -500 to EW" in out

    lines = {line["table"]: line for line in board_lines(capsys, event, 5)}
    others = {t: s for t, s in played.items() if t != 3}
    top = 2 * (len(lines) - 1)
    ns_view = {**others, 3: 620}  # the NS field sees table 3 at +620
    ew_view = {**others, 3: -500}  # the EW field sees it at -500
    for table, line in lines.items():
        ns_mp = mp1(ns_view[table], [s for t, s in ns_view.items() if t != table])
        ew_mp = top - mp1(ew_view[table], [s for t, s in ew_view.items() if t != table])
        assert (line["mp_ns"], line["mp_ew"]) == (ns_mp, ew_mp), (table, line)
    assert lines[3]["adjustment"] == {"ns": "", "ew": "", "weights": "1:620", "ew_weights": "1:-500"}
    assert lines[3]["mp_ns"] + lines[3]["mp_ew"] != top  # the point of it: the two sides' scores do not balance

    conn = connect(event)
    try:
        (stored,) = [v for v in current_results(conn) if (v.table, v.board) == (3, 5)]
        assert (stored.kind, stored.weights, stored.ew_weights) == ("weighted", "1:620", "1:-500")
        assert director_log(conn)[-1].detail.endswith("split: assigned NS +620 to NS, assigned NS -500 to EW")
    finally:
        conn.close()
    code, out, _ = tenace(capsys, "results", str(event), "--board", "5")
    assert code == 0 and "split: assigned NS +620 to NS, assigned NS -500 to EW" in out


def test_a_weighted_split_and_one_that_balances_after_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    code, out, err = tenace(capsys, "adjust", str(event), "--table", "3", "--board", "5", "--weighted",
                            "1/2:+620,1/2:-100", "--ew-weighted", "0.5:-500,0.5:-100", "--why", "12C1(c) each side")
    assert code == 0, err
    assert "split: weighted NS 1/2:620 1/2:-100 to NS, weighted NS 1/2:-500 1/2:-100 to EW" in out
    # EW's score the same as NS's is no split: stored and shown as one weighted score.
    code, out, err = tenace(capsys, "adjust", str(event), "--table", "3", "--board", "6", "--assigned", "+100",
                            "--ew-assigned", "+100", "--why", "the same for both")
    assert code == 0, err
    assert "v2 replaces v1: assigned NS +100\n" in out and "split" not in out
