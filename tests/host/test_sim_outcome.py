"""The simulator's verdict without running it: stored against accepted results, ranked by matchpoints or Butler IMPs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenace.movement import mitchell
from tenace.scoring.imp_pairs_session import ImpSessionScore, score_butler_session
from tenace.scoring.pairs_session import SessionScore
from tenace.simulation.session.outcome import SECTION, compare, stored_line
from tenace.store import create_event, current_results, ingest, sign_in
from tenace.store.scoring_input import board_results

from sample_results import session_results


@pytest.mark.parametrize(("scoring", "kind"), [("mp", SessionScore), ("butler", ImpSessionScore)])
def test_compare_ranks_both_sides_by_the_chosen_scoring(tmp_path: Path, scoring: str, kind: type) -> None:
    movement = mitchell(5, 2)
    conn = create_event(tmp_path / "e.sqlite", name="Sim", sections={SECTION: movement})
    for table in range(1, 6):
        sign_in(conn, table, SECTION, table)
    for m in session_results(movement, section=SECTION, seed=2):
        assert ingest(conn, m).acknowledge
    accepted = {(v.section, v.table, v.round, v.board): stored_line(v.contract, v.declarer, v.tricks, v.ns_score)
                for v in current_results(conn, SECTION)}
    movements = {SECTION: movement}

    same = compare(conn, accepted, movements, scoring)
    assert isinstance(same.store_rankings[SECTION], kind) and isinstance(same.accepted_rankings[SECTION], kind)
    assert same.ok and same.lost == 0 and same.rankings_equal
    assert same.line.endswith(" terminal_faults=0")
    # Everything stored and equal, but a terminal's app caught an error on the way: not a pass.
    faulty = compare(conn, accepted, movements, scoring, terminal_faults=2)
    assert not faulty.ok and faulty.line.endswith(" terminal_faults=2") and faulty.lost == 0
    if scoring == "butler":
        assert same.store_rankings[SECTION] == score_butler_session(board_results(conn, SECTION))

    # A table that accepted a very different score than the store holds: lost, and the rankings part.
    slot = min(accepted)
    accepted[slot] = accepted[slot].rsplit(" ", 1)[0] + " -2000"
    differs = compare(conn, accepted, movements, scoring)
    assert differs.lost == 1 and not differs.rankings_equal and not differs.ok
