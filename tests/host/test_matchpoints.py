"""Law 78A matchpoints on one board: units, factoring, Law 12C1(c) weighted, 12C2 artificial, 87 fouled boards."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import pytest

from tenace.scoring.matchpoints import BoardScore, SideKind, factor, matchpoint_board, mp1_raw, weighted_raw
from tenace.scoring.model import Artificial, Average, BoardResult, NotPlayed, Outcome, Played, Split, Weighted
from tenace.scoring.mp_options import Factoring, MatchpointOptions, Units

EXACT = MatchpointOptions(board_mp_decimals=4, board_percent_decimals=4)


def board(*outcomes: Outcome, groups: tuple[str | None, ...] = ()) -> list[BoardResult]:
    """Board 1 at tables 1..n: NS pair "n", EW pair "10n" at table n."""
    return [
        BoardResult("A", t, 1, 1, str(t), str(100 + t), o, groups[t - 1] if groups else None)
        for t, o in enumerate(outcomes, start=1)
    ]


def ns_exact(score: BoardScore) -> list[F | None]:
    return [t.ns.exact if t.ns else None for t in score.tables]


def ew_exact(score: BoardScore) -> list[F | None]:
    return [t.ew.exact if t.ew else None for t in score.tables]


FIVE = (Played(420), Played(420), Played(400), Played(170), Played(-50))


def test_law78a_mp1_two_per_score_beaten_one_per_tie() -> None:
    # 420 beats 400, 170, -50 (3 x 2) and ties the other 420 (1): 7. 400 beats two: 4. 170: 2. -50: 0.
    assert mp1_raw([420, 420, 400, 170, -50]) == [7, 7, 4, 2, 0]
    assert mp1_raw([0, 0, 0]) == [2, 2, 2]
    assert mp1_raw([-100]) == [0]


def test_law78a_board_top_and_east_west_mirror() -> None:
    s = matchpoint_board(board(*FIVE))
    assert s.top == 8  # 2(N-1)
    assert ns_exact(s) == [7, 7, 4, 2, 0]
    assert ew_exact(s) == [1, 1, 4, 6, 8]
    assert [t.ns.percent for t in s.tables if t.ns] == [Decimal(x) for x in ("87.50", "87.50", "50.00", "25.00",
                                                                               "0.00")]


def test_law78a_north_american_units_one_per_score_beaten_half_per_tie() -> None:
    s = matchpoint_board(board(*FIVE), MatchpointOptions(units=Units.NORTH_AMERICAN))
    assert s.top == 4  # N-1
    assert ns_exact(s) == [F(7, 2), F(7, 2), 2, 1, 0]
    assert ew_exact(s) == [F(1, 2), F(1, 2), 2, 3, 4]
    assert s.tables[0].ns is not None and s.tables[0].ns.percent == Decimal("87.50")  # the same share as in MP1


def test_neuberg_formula_in_mp1_units() -> None:
    # M' = (M+1)E/N - 1: 4 scores (top 6) brought to E = 5 (top 8).
    assert factor(6, 4, 5, Factoring.NEUBERG) == F(31, 4)
    assert factor(4, 4, 5, Factoring.NEUBERG) == F(21, 4)
    assert factor(0, 4, 5, Factoring.NEUBERG) == F(1, 4)
    assert factor(3, 5, 5, Factoring.NEUBERG) == 3  # played as often as expected: unchanged


def test_neuberg_north_american_equivalent_is_half_the_mp1_figure() -> None:
    """ACBL units: M' = (M + 1/2)E/N - 1/2, which is exactly half of the MP1 Neuberg figure."""
    for m_na in (F(0), F(1, 2), F(3), F(5, 2)):
        na_neuberg = (m_na + F(1, 2)) * F(5, 4) - F(1, 2)
        assert na_neuberg == factor(2 * m_na, 4, 5, Factoring.NEUBERG) / 2
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50), NotPlayed()),
                         MatchpointOptions(units=Units.NORTH_AMERICAN))
    assert ns_exact(s)[:4] == [F(31, 8), F(21, 8), F(11, 8), F(1, 8)]
    assert s.top == 4


def test_neuberg_board_played_fewer_times_is_factored_to_the_common_top() -> None:
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50), NotPlayed()))
    assert s.expected == 5 and s.top == 8
    # Raw MP1 out of a top of 6: 6, 4, 2, 0 -> (M+1)*5/4 - 1.
    assert ns_exact(s) == [F(31, 4), F(21, 4), F(11, 4), F(1, 4), None]
    assert ew_exact(s) == [F(1, 4), F(11, 4), F(21, 4), F(31, 4), None]


def test_neuberg_with_an_explicit_expected_count() -> None:
    # A board reached only 4 tables in a 5-table movement: no entry at all for the fifth.
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50)), expected=5)
    assert s.top == 8
    assert ns_exact(s) == [F(31, 4), F(21, 4), F(11, 4), F(1, 4)]


def test_neuberg_single_result_scores_average_of_the_common_top() -> None:
    s = matchpoint_board(board(Played(100)), expected=5)
    assert ns_exact(s) == [4] and ew_exact(s) == [4]  # (0+1)*5/1 - 1 = 4 = half of 8


def test_ratio_factoring_scales_by_top_ratio() -> None:
    opts = MatchpointOptions(factoring=Factoring.RATIO)
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50), NotPlayed()), opts)
    assert ns_exact(s)[:4] == [8, F(16, 3), F(8, 3), 0]  # M * (5-1)/(4-1)
    assert s.top == 8


def test_no_factoring_keeps_the_board_own_top() -> None:
    opts = MatchpointOptions(factoring=Factoring.NONE)
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50), NotPlayed()), opts)
    assert s.top == 6
    assert ns_exact(s)[:4] == [6, 4, 2, 0]


def test_law12c2_artificial_scores_take_no_part_in_the_comparison() -> None:
    """Law 12C2: A+ 60% and A- 40% of the top; the other results are factored as if played 4 times."""
    s = matchpoint_board(board(Played(420), Played(400), Played(170), Played(-50),
                               Artificial(Average.PLUS, Average.MINUS)))
    assert ns_exact(s)[:4] == [F(31, 4), F(21, 4), F(11, 4), F(1, 4)]  # as with the board not played there
    art = s.tables[4]
    assert art.ns is not None and art.ew is not None
    assert (art.ns.exact, art.ew.exact) == (F(24, 5), F(16, 5))  # 60% and 40% of 8
    assert (art.ns.percent, art.ew.percent) == (Decimal("60.00"), Decimal("40.00"))
    assert art.ns.kind is SideKind.ARTIFICIAL and art.ns.average is Average.PLUS


def test_law12c2_non_balancing_both_sides_average_plus() -> None:
    """Law 12C2: both sides not at fault get A+: the two scores need not add up to a top."""
    s = matchpoint_board(board(Played(420), Played(400), Artificial(Average.PLUS, Average.PLUS)), expected=3)
    art = s.tables[2]
    assert art.ns is not None and art.ew is not None
    assert art.ns.exact == art.ew.exact == F(12, 5)  # 60% of 4, twice: 4.8 > top
    assert art.ns.exact + art.ew.exact > s.top


def test_law12c2_average_for_partly_at_fault_and_explicit_percentages() -> None:
    s = matchpoint_board(board(Played(420), Played(400), Artificial(Average.EVEN, F(35)),
                               Artificial(F(65), Average.MINUS)))
    assert s.top == 6  # four entries, two of them compared
    assert (ns_exact(s)[2], ew_exact(s)[2]) == (3, F(21, 10))
    assert (ns_exact(s)[3], ew_exact(s)[3]) == (F(39, 10), F(12, 5))


def test_law12c2_average_percentages_are_options() -> None:
    opts = MatchpointOptions(average_plus=F(65), average_minus=F(35))
    s = matchpoint_board(board(Played(420), Artificial(Average.PLUS, Average.MINUS)), opts, expected=3)
    assert (ns_exact(s)[1], ew_exact(s)[1]) == (F(13, 5), F(7, 5))


def test_not_played_counts_for_neither_pair_unlike_an_artificial_score() -> None:
    s = matchpoint_board(board(Played(420), Played(400), NotPlayed()))
    assert s.tables[2].ns is None and s.tables[2].ew is None
    assert len(list(s.sides())) == 4
    a = matchpoint_board(board(Played(420), Played(400), Artificial(Average.EVEN, Average.EVEN)))
    assert len(list(a.sides())) == 6
    assert ns_exact(a)[:2] == ns_exact(s)[:2]  # the others are scored the same either way


def test_law12c1c_weighted_score_is_scored_component_by_component() -> None:
    """Law 12C1(c): 60% of +420 and 40% of -50 among 420, 420, -50, 170.

    Weighted table: 0.6 x (beats 170 and -50, ties two 420s: 6) + 0.4 x (ties -50: 1) = 4.
    Each 420: 1 (tie) + 2 + 2 + against the weighted table 0.6 x 1 + 0.4 x 2 = 6.4.
    -50: 0.4 x 1 = 0.4. 170: 2 + 0.4 x 2 = 2.8.
    """
    weighted = Weighted.of(("3/5", 420), ("2/5", -50))
    s = matchpoint_board(board(Played(420), Played(420), Played(-50), Played(170), weighted))
    assert ns_exact(s) == [F(32, 5), F(32, 5), F(2, 5), F(14, 5), 4]
    assert sum(x for x in ns_exact(s) if x is not None) == 5 * 4  # every comparison shared out: N(N-1)
    assert ew_exact(s)[4] == 4
    assert [side.kind for side in s.sides()][8:] == [SideKind.ASSIGNED, SideKind.ASSIGNED]


def test_law12c1c_two_weighted_scores_compare_with_each_other_by_weights() -> None:
    a = Weighted.of(("1/2", 100), ("1/2", -100))
    raws = weighted_raw([a.components, a.components])
    # Each component ties the same component of the other table half the time and beats/loses the other.
    # 100: 0.5 x (0.5 x 1 + 0.5 x 2) = 0.75; -100: 0.5 x (0.5 x 0 + 0.5 x 1) = 0.25.
    assert raws == [1, 1]
    assert sum(raws) == 2  # N(N-1)


def test_law12c1b_split_score_compares_each_field_on_its_own_sides_score() -> None:
    """Law 12C1(b), scores that need not balance: at table 4 NS are given +420, EW are given NS +50.

    The NS field (420, 170, -100 and NS's +420): 420s tie (1) and beat two (4): 5 each; 170: 2; -100: 0.
    The EW field sees table 4 at NS +50 (420, 170, -100, 50): EW's matchpoints are the top (6) less NS's in
    that comparison: 420 -> 6 - 6 = 0, 170 -> 6 - 4 = 2, -100 -> 6 - 0 = 6, +50 -> 6 - 2 = 4.
    """
    split = Split(Weighted.of((1, 420)), Weighted.of((1, 50)))
    s = matchpoint_board(board(Played(420), Played(170), Played(-100), split))
    assert ns_exact(s) == [5, 2, 0, 5]
    assert ew_exact(s) == [0, 2, 6, 4]
    assert s.tables[3].ns.exact + s.tables[3].ew.exact == 9  # not the top, 6: the two sides' scores do not balance
    assert [t.ns.kind if t.ns else None for t in s.tables][3] == SideKind.ASSIGNED
    # One side's split score balanced with the other's is the plain assigned score.
    same = matchpoint_board(board(Played(420), Played(170), Played(-100), Split(*(Weighted.of((1, 420)),) * 2)))
    plain = matchpoint_board(board(Played(420), Played(170), Played(-100), Weighted.of((1, 420))))
    assert (ns_exact(same), ew_exact(same)) == (ns_exact(plain), ew_exact(plain))


def test_law12c1c_weights_must_add_up_to_one() -> None:
    with pytest.raises(ValueError, match="add up to 1"):
        Weighted.of(("1/2", 420), ("1/3", -50))
    with pytest.raises(ValueError, match="positive"):
        Weighted.of(("3/2", 420), ("-1/2", -50))


def test_law87_fouled_board_groups_scored_apart_then_scaled_to_the_common_top() -> None:
    """Law 87: the board in its correct form (420, 420, 400) and in the changed form (100, -50)."""
    s = matchpoint_board(board(Played(420), Played(420), Played(400), Played(100), Played(-50),
                               groups=("A", "A", "A", "B", "B")))
    assert s.top == 8
    # Group A, 3 scores: 420s have 3 raw -> (3+1)*5/3 - 1 = 17/3; 400 has 0 -> 2/3.
    # Group B, 2 scores: 100 has 2 raw -> 3*5/2 - 1 = 13/2; -50 -> 3/2.
    assert ns_exact(s) == [F(17, 3), F(17, 3), F(2, 3), F(13, 2), F(3, 2)]
    assert ew_exact(s)[3:] == [F(3, 2), F(13, 2)]


def test_law87_unmarked_board_compares_every_result() -> None:
    s = matchpoint_board(board(Played(420), Played(420), Played(400), Played(100), Played(-50)))
    assert ns_exact(s) == [7, 7, 4, 2, 0]


def test_a_pair_cannot_score_twice_on_a_board() -> None:
    results = board(Played(420), Played(400))
    twice = [results[0], BoardResult("A", 2, 1, 1, "1", "102", Played(400))]
    with pytest.raises(ValueError, match="two results"):
        matchpoint_board(twice)


def test_a_board_from_another_board_is_refused_on_every_path() -> None:
    for outcomes in (FIVE, (*FIVE[:4], NotPlayed())):
        results = board(*outcomes)
        stray = BoardResult("A", 9, 1, 2, "9", "109", Played(420))
        with pytest.raises(ValueError, match="board 2 mixed into the results of board 1"):
            matchpoint_board([*results, stray])


def test_tables_are_a_view_of_the_shared_figures() -> None:
    results = board(*FIVE, NotPlayed(), Artificial(Average.PLUS, Average.MINUS))
    s = matchpoint_board(results)
    tables = list(s.tables)
    assert len(s.tables) == len(results) and [t.result for t in tables] == results
    assert s.tables[1] == tables[1] and s.tables[-1] == tables[-1] and s.tables[1:3] == tuple(tables[1:3])
    assert (tables[0].ns_pair, tables[0].ew_pair) == ("1", "101")
    assert tables[0].ns is tables[1].ns and tables[0].ew is tables[1].ew  # equal scores share their figures
    assert tables[5].ns is None and tables[5].ew is None
    assert list(s.pair_sides()) == [(p, side) for t in tables for p, side in ((t.ns_pair, t.ns), (t.ew_pair, t.ew))
                                    if side is not None]
    assert list(s.sides()) == [side for _, side in s.pair_sides()]
    assert s == BoardScore(s.section, s.board, s.expected, s.top, tuple(results), s.figures)


def test_played_from_contract_scores_by_law77() -> None:
    assert Played.from_contract("4S", "S", 10, board=1) == Played(420)
    assert Played.from_contract("3NT", "E", 10, board=2) == Played(-430)  # board 2: NS vulnerable, E not
    assert Played.from_contract("4SX", "N", 7, board=2) == Played(-800)  # vulnerable, doubled, three down
    assert Played.from_contract("Pass", "N", 0, board=5) == Played(0)
