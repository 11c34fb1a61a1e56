"""From the store to the matchpoint engine: current results as BoardResults, ranked as if given directly."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tenace.movement import mitchell
from tenace.scoring.model import Artificial, Average, BoardResult, NotPlayed, Played, Weighted
from tenace.scoring.pairs_session import score_pairs_session
from tenace.store import create_event, enter_result, ingest, sign_in
from tenace.store.scoring_input import board_results
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score

from sample_results import session_results


def test_a_stored_session_ranks_as_the_same_results_given_directly(tmp_path: Path) -> None:
    movement = mitchell(7, 2)
    conn = create_event(tmp_path / "e.sqlite", name="Ranked", sections={"A": movement})
    for table in range(1, 8):
        sign_in(conn, table, "A", table)
    messages = session_results(movement, seed=4)
    direct = []
    for m in messages:
        assert ingest(conn, m).acknowledge
        assert isinstance(m.contract, str | None) and isinstance(m.tricks, int | None)
        score = 0 if m.contract is None else ns_score(parse_contract(m.contract), str(m.declarer),
                                                       vulnerability(m.board), int(m.tricks or 0))
        direct.append(BoardResult("A", m.table, m.round, m.board, f"A{m.ns_pair}NS", f"A{m.ew_pair}EW", Played(score)))
    from_store = board_results(conn)
    assert sorted(from_store, key=str) == sorted(direct, key=str)
    assert score_pairs_session(from_store).totals == score_pairs_session(direct).totals


def test_adjusted_results_map_to_the_engine_model(tmp_path: Path) -> None:
    conn = create_event(tmp_path / "e.sqlite", name="Adjusted", sections={"A": mitchell(3, 2)})
    enter_result(conn, "A", 1, 1, 1, who="TD", why="x", kind="not_played")
    enter_result(conn, "A", 1, 1, 2, who="TD", why="x", kind="artificial", ns_adjust="A+", ew_adjust="65%")
    enter_result(conn, "A", 2, 1, 3, who="TD", why="x", kind="weighted", weights=[("3/5", 420), ("2/5", -50)])
    enter_result(conn, "A", 2, 1, 4, who="TD", why="x", kind="passed_out")
    enter_result(conn, "A", 3, 1, 5, who="TD", why="x", kind="erased")
    outcomes = {r.board: r.outcome for r in board_results(conn)}
    assert outcomes == {
        1: NotPlayed(),
        2: Artificial(Average.PLUS, Fraction(65)),
        3: Weighted(((Fraction(3, 5), 420), (Fraction(2, 5), -50))),
        4: Played(0),
    }
