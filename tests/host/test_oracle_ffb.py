"""The FFB 2022 DN1 final, session 1 (Magic Contest export): every MP, percentage, total and rank reproduced.

Inputs are the raw results only: table, round, pairs, contract, declarer and tricks (scored again by
Law 77), and the director's artificial rulings (A+/A-) where no contract was played. The computed
columns (MP_*, Percentage_*, TotalScoreMP, TotalPercentage, Rank, Tiebreak) are only ever expected values.

Conventions found in the file: MP1 units, Neuberg to the top of 42 (22 tables) when artificial scores
leave 21 results, board MPs to 0.1 and board percentages whole (half-up), the total as the sum of the
published board MPs, the session percentage of that total over 30 x 42 to 0.01, and ties broken by
the pairs' head-to-head ("in-between meeting": 2 points to the better, shown in the Tiebreak column).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from tenace.pbn.reader import read_pbn
from tenace.scoring.model import Artificial, Average, BoardResult, Played
from tenace.scoring.mp_options import MAGIC_CONTEST_FFB, Factoring
from tenace.scoring.pairs_session import SessionScore, score_pairs_session
from tenace_rules.notation import parse_vulnerability

from conftest import ORACLES, needs_oracles

FFB = ORACLES / "ffb-2022-dn1-session1.pbn"

pytestmark = needs_oracles

AVERAGES = {"A+": Average.PLUS, "A": Average.EVEN, "A-": Average.MINUS}


@dataclass
class Oracle:
    results: list[BoardResult]
    rows: dict[tuple[int, int], dict[str, str]]  # (board, table) -> the published row
    totals: list[dict[str, str]]
    scoring: str


def load(path: Path) -> Oracle:
    games = read_pbn(path)
    results, rows = [], {}
    for game in games:
        board = int(game.tags["Board"])
        vul = parse_vulnerability(game.tags["Vulnerable"])
        for rec in game.tables["ScoreTable"].records():
            table = int(rec["Table"])
            if rec["Contract"] == "-":  # no play: the director's ruling is in the score columns
                outcome: Played | Artificial = Artificial(AVERAGES[rec["Score_NS"]], AVERAGES[rec["Score_EW"]])
            else:
                outcome = Played.from_contract(rec["Contract"], rec["Declarer"], int(rec["Result"]), board, vul)
            results.append(BoardResult("", table, int(rec["Round"]), board, rec["PairId_NS"], rec["PairId_EW"],
                                       outcome))
            rows[board, table] = rec
    return Oracle(results, rows, games[0].tables["TotalScoreTable"].records(), games[0].tags["Scoring"])


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return load(FFB)


@pytest.fixture(scope="module")
def scored(oracle: Oracle) -> SessionScore:
    return score_pairs_session(oracle.results, MAGIC_CONTEST_FFB)


def test_ffb_file_is_the_session_described(oracle: Oracle) -> None:
    assert oracle.scoring == "MatchPoints;MP1"
    assert len({r.board for r in oracle.results}) == 30
    assert len(oracle.results) == 660  # 22 tables x 30 boards
    assert len(oracle.totals) == 44


def test_ffb_every_played_score_is_law77(oracle: Oracle) -> None:
    """Contract, declarer and tricks give the published Score_NS / Score_EW on all 656 played rows."""
    played = 0
    for r in oracle.results:
        rec = oracle.rows[r.board, r.table]
        if isinstance(r.outcome, Played):
            published = int(rec["Score_NS"]) if rec["Score_NS"] != "-" else -int(rec["Score_EW"])
            assert r.outcome.ns_score == published, (r.board, r.table)
            played += 1
    assert played == 656
    assert sum(isinstance(r.outcome, Artificial) for r in oracle.results) == 4


def test_ffb_board_matchpoints_and_percentages(oracle: Oracle, scored: SessionScore) -> None:
    """Law 78A MP1 with Neuberg and Law 12C2 averages: MP_NS, MP_EW, Percentage_NS, Percentage_EW, 660 rows."""
    compared, wrong = 0, []
    for b in scored.boards:
        assert b.top == 42
        for t in b.tables:
            rec = oracle.rows[b.board, t.result.table]
            assert t.ns is not None and t.ew is not None
            got = (str(t.ns.mp), str(t.ew.mp), str(t.ns.percent), str(t.ew.percent))
            want = (rec["MP_NS"], rec["MP_EW"], rec["Percentage_NS"], rec["Percentage_EW"])
            if got != want:
                wrong.append((b.board, t.result.table, got, want))
            compared += 1
    assert wrong == []
    assert compared == 660


def test_ffb_session_totals_and_percentages(oracle: Oracle, scored: SessionScore) -> None:
    wrong = []
    for rec in oracle.totals:
        t = scored.totals[rec["PairId"]]
        got = (str(t.mp), str(t.percent), str(t.boards))
        want = (rec["TotalScoreMP"], rec["TotalPercentage"], rec["NrBoards"])
        if got != want:
            wrong.append((rec["PairId"], got, want))
    assert wrong == []
    assert len(scored.totals) == 44


def test_ffb_ranks_and_tiebreak(oracle: Oracle, scored: SessionScore) -> None:
    """One field of 44 (pairs change direction); pairs 44 and 1 tie on 593.2 and 44 won their meeting."""
    assert {p.field for p in scored.ranking} == {""}
    got = [(p.pair, str(p.rank), "-" if p.tiebreak is None else str(p.tiebreak)) for p in scored.ranking]
    want = [(rec["PairId"], rec["Rank"], rec["Tiebreak"]) for rec in oracle.totals]
    assert got == want


def test_ffb_totals_need_the_published_board_figures(oracle: Oracle) -> None:
    """Adding exact MPs and rounding only the total would not reproduce the file (pair 7: 771.1, not 771.2)."""
    exact = score_pairs_session(oracle.results, replace(MAGIC_CONTEST_FFB, total_from_published_boards=False))
    published = {rec["PairId"]: rec["TotalScoreMP"] for rec in oracle.totals}
    assert str(exact.totals["7"].mp) == "771.1" and published["7"] == "771.2"
    differ = sorted((p for p, t in exact.totals.items() if str(t.mp) != published[p]), key=int)
    assert differ == ["4", "7", "8", "15", "34", "38", "43"]


def test_ffb_boards_with_averages_need_neuberg(oracle: Oracle) -> None:
    """Without factoring, the four boards with an artificial score would have a top of 40, not 42."""
    plain = score_pairs_session(oracle.results, replace(MAGIC_CONTEST_FFB, factoring=Factoring.NONE))
    assert sorted(b.board for b in plain.boards if b.top != 42) == [1, 2, 9, 14]
    first = plain.board(1).tables[0]
    assert first.ns is not None and str(first.ns.mp) == "27.0"
    assert oracle.rows[1, first.result.table]["MP_NS"] == "28.3"
