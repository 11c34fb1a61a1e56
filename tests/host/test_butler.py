"""Butler IMP pairs: the datum (trimming, rounding half-up / half-even), IMPs against it, Law 12C2 awards."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenace.scoring.butler import ButlerOptions, butler_board, butler_datum
from tenace.scoring.imp_results import ArtificialImps, Award, Score
from tenace.scoring.rounding import Rounding


def test_hand_example_trim_one_each_end_half_up() -> None:
    # Sorted: -50 170 420 420 420 450; drop -50 and 450: (170 + 3 x 420) / 4 = 357.5 -> 360.
    result = butler_board([420, 420, 450, -50, 170, 420])
    assert result.raw_datum == Fraction(715, 2)
    assert result.datum == 360
    assert result.scores_in_datum == 4
    assert result.trimmed_each_end == 1
    # 420-360=60: 2; 450-360=90: 3; -50-360=-410: -9; 170-360=-190: -5 (Law 78B).
    assert [line.ns_imps for line in result.lines] == [2, 2, 3, -9, -5, 2]
    assert [line.ew_imps for line in result.lines] == [-2, -2, -3, 9, 5, -2]


@pytest.mark.parametrize(("mode", "datum", "imps"), [
    (Rounding.HALF_UP, 270, [-8, 7]),  # -50-270=-320: -8; 580-270=310: 7
    (Rounding.HALF_EVEN, 260, [-7, 8]),  # -310: -7; 320: 8
    (Rounding.HALF_CEILING, 270, [-8, 7]),
    (Rounding.NONE, 265, [-7, 7]),  # -315 and 315 fall between printed ranges: the lower step
])
def test_datum_rounding_half_up_versus_half_even(mode: Rounding, datum: int, imps: list[int]) -> None:
    options = ButlerOptions(trim_count=0, datum_rounding=mode)
    result = butler_board([-50, 580], options)  # mean 265, exactly halfway between 260 and 270
    assert result.datum == datum
    assert [line.ns_imps for line in result.lines] == imps


@pytest.mark.parametrize(("mode", "datum"), [
    (Rounding.HALF_UP, -270), (Rounding.HALF_EVEN, -260), (Rounding.HALF_CEILING, -260)])
def test_negative_halfway_datum(mode: Rounding, datum: int) -> None:
    assert butler_board([-100, -430], ButlerOptions(trim_count=0, datum_rounding=mode)).datum == datum


def test_datum_step_other_than_ten() -> None:
    options = ButlerOptions(trim_count=0, datum_step=50)
    assert butler_board([100, 170], options).datum == 150  # mean 135 -> nearest 50


def test_trim_by_count_walks_through_multiplicities() -> None:
    board = [Score(420, count=5), -100, 1430]
    assert butler_board(board).datum == 420  # -100 and 1430 dropped
    two = butler_board(board, ButlerOptions(trim_count=2))
    assert (two.datum, two.scores_in_datum) == (420, 3)
    none = butler_board(board, ButlerOptions(trim_count=0))
    assert none.raw_datum == Fraction(5 * 420 - 100 + 1430, 7)  # 490 exactly
    assert none.datum == 490


def test_trim_never_empties_the_board() -> None:
    assert ButlerOptions(trim_count=3).trimmed_each_end(2) == 0
    assert ButlerOptions(trim_count=3).trimmed_each_end(5) == 2
    result = butler_board([100, 200, 300], ButlerOptions(trim_count=5))
    assert (result.datum, result.scores_in_datum) == (200, 1)


@pytest.mark.parametrize(("percent", "n", "k"), [
    (10, 10, 1), (10, 9, 0), (25, 10, 2), (Fraction(25, 2), 16, 2), (20, 4, 0), (40, 12, 4)])
def test_trim_by_percentage_rounds_the_count_down(percent: Fraction | int, n: int, k: int) -> None:
    assert ButlerOptions(trim_count=0, trim_percent=percent).trimmed_each_end(n) == k


def test_trim_by_percentage_on_a_board() -> None:
    scores = [-600, -100, 100, 110, 140, 140, 170, 400, 420, 2000]
    result = butler_board(scores, ButlerOptions(trim_count=0, trim_percent=20))  # 2 from each end
    assert result.raw_datum == Fraction(100 + 110 + 140 + 140 + 170 + 400, 6)  # 176.67
    assert result.datum == 180


def test_options_refuse_two_trims_and_bad_values() -> None:
    with pytest.raises(ValueError, match="not both"):
        ButlerOptions(trim_count=1, trim_percent=10)
    with pytest.raises(ValueError):
        ButlerOptions(trim_percent=50, trim_count=0)
    with pytest.raises(ValueError):
        ButlerOptions(trim_count=-1)
    with pytest.raises(ValueError):
        ButlerOptions(datum_step=0)


def test_law_12c2_artificial_scores_keep_their_imps_and_stay_out_of_the_datum() -> None:
    board = [Score(620, count=3), 170, 650, ArtificialImps.awards("A+", "A-")]
    result = butler_board(board, ButlerOptions(trim_count=0))
    assert result.raw_datum == Fraction(3 * 620 + 170 + 650, 5)  # 536: the A+/A- is not a score
    assert result.datum == 540
    assert result.lines[-1].ns_imps == 3
    assert result.lines[-1].ew_imps == -3
    assert result.lines[0].ns_imps == 2  # 620 - 540 = 80


def test_law_12c2_sides_need_not_balance() -> None:
    # Law 12C2(a): NS in no way at fault (A+), EW partly at fault (A): +3 and 0, not +3 and -3.
    line = butler_board([100, ArtificialImps.awards(Award.AVERAGE_PLUS, "A")]).lines[1]
    assert (line.ns_imps, line.ew_imps) == (3, 0)
    # 12C2(b) lets the Tournament Organizer vary the IMPs: any value is expressible.
    line = butler_board([100, ArtificialImps(2, Fraction(-5, 2))]).lines[1]
    assert (line.ns_imps, line.ew_imps) == (2, Fraction(-5, 2))


def test_a_board_of_only_artificial_scores() -> None:
    result = butler_board([ArtificialImps.awards("A", "A"), ArtificialImps.awards("A-", "A+")])
    assert [(line.ns_imps, line.ew_imps) for line in result.lines] == [(0, 0), (-3, 3)]
    assert result.scores_in_datum == 0


def test_assigned_adjusted_scores_in_or_out_of_the_datum() -> None:
    board = [100, 140, 150, Score(-1100, assigned=True)]
    inside = butler_board(board, ButlerOptions(trim_count=0))
    outside = butler_board(board, ButlerOptions(trim_count=0, datum_includes_assigned=False))
    assert inside.datum == -180  # (100 + 140 + 150 - 1100) / 4 = -177.5
    assert outside.datum == 130  # 130 exactly
    # Either way the assigned score is scored against the datum.
    assert outside.lines[3].ns_imps == -15  # -1230: 1100-1290 is 15 IMPs
    with pytest.raises(ValueError, match="no score"):
        butler_board([Score(100, assigned=True)], ButlerOptions(datum_includes_assigned=False))


def test_award_parsing() -> None:
    assert Award.parse(" avg+ ") is Award.AVERAGE_PLUS
    assert Award.parse("40%") is Award.AVERAGE_MINUS
    assert Award.parse("A") is Award.AVERAGE
    assert [a.imps for a in Award] == [3, 0, -3]
    with pytest.raises(ValueError, match="A\\+, A or A-"):
        Award.parse("B+")


def test_entries_must_be_scores() -> None:
    with pytest.raises(TypeError):
        butler_board([True])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        Score(100, count=0)


@given(st.lists(st.tuples(st.integers(-80, 80).map(lambda x: x * 10), st.integers(1, 4)), min_size=1, max_size=12),
       st.integers(0, 6))
def test_trimming_by_counts_equals_trimming_the_expanded_list(groups: list[tuple[int, int]], k: int) -> None:
    expanded = sorted(s for s, c in groups for _ in range(c))
    options = ButlerOptions(trim_count=k, datum_rounding=Rounding.NONE)
    kk = min(k, (len(expanded) - 1) // 2)
    kept = expanded[kk:len(expanded) - kk]
    datum, raw, used, trimmed = butler_datum(groups, options)
    assert (datum, raw, used, trimmed) == (Fraction(sum(kept), len(kept)), Fraction(sum(kept), len(kept)),
                                           len(kept), kk)
