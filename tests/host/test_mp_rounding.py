"""Rounding of published matchpoint figures: every rule an option, computed exactly (Law 78A percentages)."""

from __future__ import annotations

from dataclasses import fields
from decimal import Decimal
from fractions import Fraction as F

import pytest

from tenace.scoring.matchpoints import matchpoint_board
from tenace.scoring.model import BoardResult, NotPlayed, Played
from tenace.scoring.mp_options import MAX_DECIMALS, BoardOptions, MatchpointOptions, PublishedFigures, RankingOptions
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.ranking import Tiebreak
from tenace.scoring.rounding import Rounding, round_fraction

UP, EVEN, DOWN = Rounding.HALF_UP, Rounding.HALF_EVEN, Rounding.DOWN


@pytest.mark.parametrize(
    ("value", "decimals", "up", "even", "down"),
    [
        (F(21, 4), 1, "5.3", "5.2", "5.2"),  # 5.25: a true tie
        (F(31, 4), 1, "7.8", "7.8", "7.7"),  # 7.75: the tie goes to the even 8 as well
        (F(-21, 4), 1, "-5.3", "-5.2", "-5.2"),  # half-up means away from zero
        (F(17, 3), 1, "5.7", "5.7", "5.6"),  # no tie: all but truncation agree
        (F(5, 2), 0, "3", "2", "2"),
        (F(201, 200), 2, "1.01", "1.00", "1.00"),  # 1.005: binary floats would make this 1.00 even half-up
        (F(0), 1, "0.0", "0.0", "0.0"),
    ],
)
def test_round_fraction(value: F, decimals: int, up: str, even: str, down: str) -> None:
    assert str(round_fraction(value, decimals, UP)) == up
    assert str(round_fraction(value, decimals, EVEN)) == even
    assert str(round_fraction(value, decimals, DOWN)) == down


def test_round_fraction_refuses_negative_decimals() -> None:
    with pytest.raises(ValueError):
        round_fraction(F(1, 3), -1)


def four_tables_one_missing() -> list[BoardResult]:
    # Law 78A with Neuberg: 420, 400, 170, -50 brought to E = 5: 31/4, 21/4, 11/4, 1/4 out of 8.
    scores = (420, 400, 170, -50)
    results = [BoardResult("A", t, 1, 1, str(t), str(100 + t), Played(s)) for t, s in enumerate(scores, 1)]
    return [*results, BoardResult("A", 5, 1, 1, "5", "105", NotPlayed())]


def test_board_mp_and_percentage_decimals_and_rule_are_options() -> None:
    s = matchpoint_board(four_tables_one_missing(), MatchpointOptions(board_mp_decimals=1, rounding=EVEN))
    assert [str(t.ns.mp) for t in s.tables if t.ns] == ["7.8", "5.2", "2.8", "0.2"]
    s = matchpoint_board(four_tables_one_missing(), MatchpointOptions(board_mp_decimals=1, rounding=UP))
    assert [str(t.ns.mp) for t in s.tables if t.ns] == ["7.8", "5.3", "2.8", "0.3"]
    # 1/4 of 8 is 3.125%.
    up = matchpoint_board(four_tables_one_missing(), MatchpointOptions(board_percent_decimals=2, rounding=UP))
    even = matchpoint_board(four_tables_one_missing(), MatchpointOptions(board_percent_decimals=2, rounding=EVEN))
    assert up.tables[3].ns is not None and up.tables[3].ns.percent == Decimal("3.13")
    assert even.tables[3].ns is not None and even.tables[3].ns.percent == Decimal("3.12")


def test_board_percentage_from_exact_or_from_published_mp() -> None:
    # 420 among four scores to a top of 8: 31/4 = 7.75 -> 96.875%. Published as "8" MP that is 100%.
    exact = MatchpointOptions(board_mp_decimals=0, board_percent_decimals=0)
    published = MatchpointOptions(board_mp_decimals=0, board_percent_decimals=0, board_percent_from_published_mp=True)
    a = matchpoint_board(four_tables_one_missing(), exact).tables[0].ns
    b = matchpoint_board(four_tables_one_missing(), published).tables[0].ns
    assert a is not None and b is not None
    assert (a.mp, a.percent) == (Decimal(8), Decimal(97))
    assert (b.mp, b.percent) == (Decimal(8), Decimal(100))


def three_boards_each_seventeen_thirds() -> list[BoardResult]:
    """Pair 1 scores 17/3 (5.666...) on each of three boards, fouled into two groups as in the Law 87 test."""
    out = []
    for b in (1, 2, 3):
        for t, s in enumerate((420, 420, 400, 100, -50), 1):
            out.append(BoardResult("A", t, b, b, str(t), str(100 + t), Played(s), "A" if t <= 3 else "B"))
    return out


def test_totals_round_per_board_or_only_the_total() -> None:
    """Summing published 5.7 three times gives 17.1; summing 17/3 exactly gives 17.0."""
    per_board = MatchpointOptions(board_mp_decimals=1, total_mp_decimals=1, total_from_published_boards=True)
    only_total = MatchpointOptions(board_mp_decimals=1, total_mp_decimals=1, total_from_published_boards=False)
    a = score_pairs_session(three_boards_each_seventeen_thirds(), per_board).totals["1"]
    b = score_pairs_session(three_boards_each_seventeen_thirds(), only_total).totals["1"]
    assert a.mp == Decimal("17.1") and b.mp == Decimal("17.0")
    assert a.exact == b.exact == 17
    # Session percentage of 24 (3 boards x top 8): 17.1/24 = 71.25%, 17/24 = 70.833..%.
    assert a.percent == Decimal("71.25") and b.percent == Decimal("70.83")


def test_one_rule_set_for_matchpoints_and_imps() -> None:
    # The same enum rounds matchpoint figures (to decimals) and IMP figures (to a step); they agree on ties.
    from tenace.scoring.rounding import round_to_step, to_decimal

    for mode in (UP, EVEN, Rounding.HALF_CEILING, DOWN):
        for value in (F(21, 4), F(-21, 4), F(31, 4), F(17, 3), F(-17, 3), F(0)):
            assert round_fraction(value, 1, mode) == to_decimal(value, 1, mode), (mode, value)
            assert round_to_step(value * 100, 10, mode) == F(round_fraction(value, 1, mode)) * 100, (mode, value)


def test_half_ceiling_and_none_on_decimals() -> None:
    assert str(round_fraction(F(21, 4), 1, Rounding.HALF_CEILING)) == "5.3"
    assert str(round_fraction(F(-21, 4), 1, Rounding.HALF_CEILING)) == "-5.2"
    with pytest.raises(ValueError, match="NONE"):
        round_fraction(F(1, 3), 2, Rounding.NONE)


@pytest.mark.parametrize("value", [F(183, 40), F(3, 40), F(49, 8), F(-1, 40), F(-63, 40), F(-261, 40), F(2, 3), F(7)])
def test_double_rounds_the_nearest_binary_double_as_c_printf_does(value: F) -> None:
    """DOUBLE: a program's figure held in a double and printed with %.2f. 4.575's double is above the half (4.58),
    0.075's below (0.07); an exact half such as 6.125 goes to even (6.12), as printf does."""
    from tenace.scoring.rounding import round_to_step, to_decimal

    printed = Decimal("%.2f" % float(value))
    assert round_fraction(value, 2, Rounding.DOUBLE) == to_decimal(value, 2, Rounding.DOUBLE) == printed
    assert round_to_step(value, F(1, 100), Rounding.DOUBLE) == F(printed)


def test_double_differs_from_ties_to_even_where_the_double_is_off_the_half() -> None:
    assert [str(round_fraction(F(n, 40), 2, Rounding.DOUBLE)) for n in (183, 3, -63)] == ["4.58", "0.07", "-1.57"]
    assert [str(round_fraction(F(n, 40), 2, EVEN)) for n in (183, 3, -63)] == ["4.58", "0.08", "-1.58"]


def test_board_percent_of_the_top_or_of_the_results() -> None:
    """RESULTS: (beaten + half the equal ones, itself included) / N. 420 beats 400 and 170: (2 + 1/2) / 3 = 83.3;
    400 (1.5/3) 50; 170 (0.5/3) 16.7. In NA units the same; an artificial score keeps its own percentage."""
    from tenace.scoring.model import Artificial
    from tenace.scoring.mp_options import BoardPercent, Factoring, Units

    results = [BoardResult("A", t, 1, 1, f"N{t}", f"E{t}", Played(s)) for t, s in ((1, 420), (2, 400), (3, 170))]
    of_results = MatchpointOptions(board_percent=BoardPercent.RESULTS, factoring=Factoring.NONE)
    for units in Units:
        board = matchpoint_board(results, MatchpointOptions(board_percent=BoardPercent.RESULTS, units=units,
                                                            factoring=Factoring.NONE, board_percent_decimals=1))
        assert [str(t.ns.percent) for t in board.tables if t.ns] == ["83.3", "50.0", "16.7"], units
        assert [str(t.ew.percent) for t in board.tables if t.ew] == ["16.7", "50.0", "83.3"], units
    assert [str(t.ns.percent) for t in matchpoint_board(results).tables if t.ns] == ["100.00", "50.00", "0.00"]
    with_artificial = [*results, BoardResult("A", 4, 1, 1, "N4", "E4", Artificial(F(60), F(40)))]
    board = matchpoint_board(with_artificial, of_results)
    assert [str(t.ns.percent) for t in board.tables if t.ns] == ["83.33", "50.00", "16.67", "60.00"]


def test_the_cli_offers_the_same_rules_as_before() -> None:
    from tenace.scoring.rounding import DATUM_ROUNDINGS, MP_ROUNDINGS

    assert [r.value for r in MP_ROUNDINGS] == ["half-up", "half-even", "down"]
    assert [r.value for r in DATUM_ROUNDINGS] == ["none", "half-up", "half-even", "half-ceiling"]


def test_matchpoint_options_refuse_no_rounding() -> None:
    with pytest.raises(ValueError, match="NONE"):
        MatchpointOptions(rounding=Rounding.NONE)


def test_board_and_ranking_options_share_one_rounding_rule() -> None:
    """Every option is a board option or a ranking option, but the rounding both publish by."""
    board = {f.name for f in fields(BoardOptions)}
    ranking = {f.name for f in fields(RankingOptions)}
    assert board & ranking == {f.name for f in fields(PublishedFigures)} == {"rounding"}
    assert {f.name for f in fields(MatchpointOptions)} == board | ranking
    for options in (BoardOptions, RankingOptions):
        with pytest.raises(ValueError, match="NONE"):
            options(rounding=Rounding.NONE)
    with pytest.raises(ValueError, match="total_mp_decimals"):
        RankingOptions(total_mp_decimals=MAX_DECIMALS + 1)


def test_a_board_scored_with_board_options_alone_is_the_same() -> None:
    session = MatchpointOptions(board_mp_decimals=1, rounding=EVEN, tiebreak=Tiebreak.HEAD_TO_HEAD)
    board_only = BoardOptions(board_mp_decimals=1, rounding=EVEN)
    assert matchpoint_board(four_tables_one_missing(), board_only) == matchpoint_board(four_tables_one_missing(),
                                                                                         session)
