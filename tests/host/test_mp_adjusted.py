"""Law 12C2(c): a non-offender above 60% or an offender below 40% keeps its own session percentage."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

from tenace.scoring.adjusted import apply_12c2c, real_percentages
from tenace.scoring.matchpoints import matchpoint_board
from tenace.scoring.model import Artificial, Average, BoardResult, Outcome, Played
from tenace.scoring.mp_options import DEFAULT_OPTIONS, MatchpointOptions
from tenace.scoring.pairs_session import SessionScore, score_pairs_session

PLUS, EVEN, MINUS = Average.PLUS, Average.EVEN, Average.MINUS


def session(table1_board3: Outcome, options: MatchpointOptions = DEFAULT_OPTIONS) -> SessionScore:
    """Three tables, three boards, a Mitchell: NS pairs 1-3 meet EW pairs 4-6 at tables 1-3 (top 4).

    Board 1: 420, 400, 420 -> NS 3, 0, 3.     Board 2: 140, 110, 100 -> NS 4, 2, 0.
    Board 3: table 1 gets `table1_board3`; 600 and 630 are factored from 2 to 3 results:
    630 -> (2+1)*3/2 - 1 = 3.5, 600 -> (0+1)*3/2 - 1 = 0.5.
    Pair 1 (NS at table 1) has 7 of 8 = 87.5% on boards 1-2; pair 4 (EW there) 1 of 8 = 12.5%.
    """
    scores = {1: (420, 400, 420), 2: (140, 110, 100), 3: (None, 600, 630)}
    results = []
    for b, row in scores.items():
        for t, s in enumerate(row, 1):
            outcome = table1_board3 if s is None else Played(s)
            results.append(BoardResult("A", t, b, b, str(t), str(t + 3), outcome))
    return score_pairs_session(results, options)


def side_mp(s: SessionScore, board: int, table: int) -> tuple[F, F]:
    t = s.board(board, "A").tables[table - 1]
    assert t.ns is not None and t.ew is not None
    return t.ns.exact, t.ew.exact


def test_law12c2c_non_offender_above_60_percent_keeps_own_percentage() -> None:
    s = session(Artificial(PLUS, MINUS))
    ns, ew = side_mp(s, 3, 1)
    assert ns == F(7, 2)  # 87.5% of 4 instead of 60% (2.4)
    assert ew == F(1, 2)  # the offender's 12.5% of 4 instead of 40% (1.6)
    assert s.totals["1"].exact == 3 + 4 + F(7, 2)
    assert s.totals["1"].percent == Decimal("87.50")
    assert s.totals["4"].exact == 1 + 0 + F(1, 2)
    assert s.totals["4"].percent == Decimal("12.50")
    assert side_mp(s, 3, 2) == (F(1, 2), F(7, 2))  # the other tables are untouched
    assert side_mp(s, 3, 3) == (F(7, 2), F(1, 2))


def test_law12c2c_does_not_lower_a_non_offender_or_raise_an_offender() -> None:
    """Law 12C2(a) stands when pair 1 (87.5%) is the offender and pair 4 (12.5%) the non-offender."""
    s = session(Artificial(MINUS, PLUS))
    assert side_mp(s, 3, 1) == (F(8, 5), F(12, 5))  # 40% and 60% of 4


def test_law12c2c_average_for_both_partly_at_fault_is_not_revised() -> None:
    s = session(Artificial(EVEN, EVEN))
    assert side_mp(s, 3, 1) == (2, 2)


def test_law12c2c_can_be_switched_off() -> None:
    s = session(Artificial(PLUS, MINUS), MatchpointOptions(law_12c2c=False))
    assert side_mp(s, 3, 1) == (F(12, 5), F(8, 5))
    assert s.totals["1"].exact == 3 + 4 + F(12, 5)


def test_law12c2c_published_board_figures_follow_the_revision() -> None:
    s = session(Artificial(PLUS, MINUS), MatchpointOptions(board_mp_decimals=1, board_percent_decimals=0))
    t = s.board(3, "A").tables[0]
    assert t.ns is not None and t.ew is not None
    assert (t.ns.mp, t.ns.percent, t.ew.mp, t.ew.percent) == (Decimal("3.5"), Decimal(88), Decimal("0.5"),
                                                              Decimal(13))


def test_law12c2c_explicit_percentage_is_never_revised() -> None:
    s = session(Artificial(F(60), F(40)))
    assert side_mp(s, 3, 1) == (F(12, 5), F(8, 5))


def test_law12c2c_board_level_functions() -> None:
    """The same rule on scored boards, for callers that score boards one by one."""
    opts = MatchpointOptions()
    b1 = matchpoint_board([BoardResult("A", 1, 1, 1, "1", "4", Played(420)),
                           BoardResult("A", 2, 1, 1, "2", "5", Played(400))])
    b2 = matchpoint_board([BoardResult("A", 1, 2, 2, "1", "4", Artificial(PLUS, MINUS)),
                           BoardResult("A", 2, 2, 2, "2", "5", Played(400))])
    own = real_percentages([b1, b2])
    assert own == {"1": 100, "4": 0, "2": 25, "5": 75}  # board 2 played once: 50% each at table 2
    revised = apply_12c2c([b1, b2], opts)
    t = revised[1].tables[0]
    assert t.ns is not None and t.ew is not None
    assert (t.ns.exact, t.ew.exact) == (2, 0)  # 100% and 0% of a top of 2
    assert revised[0] is b1  # boards without an average are returned as they were
