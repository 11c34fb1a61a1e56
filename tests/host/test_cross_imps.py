"""Cross-IMPs: hand-computed boards, multiplicity, the three units, Law 12C2 awards, and counts == all pairs."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit, cross_imp_totals, cross_imps_board
from tenace.scoring.imp_results import ArtificialImps, Score
from tenace.scoring.imps import imps

BOARD = [420, 420, 450, -50, 170, 420]


def test_hand_computed_totals() -> None:
    # -50: vs 3 x 420 (470: -10 each), vs 450 (500: -11), vs 170 (220: -6) = -47.
    # 170: vs 3 x 420 (250: -6 each), vs 450 (280: -7), vs -50 (+6) = -19.
    # 420: vs 420 x 2 (0), vs 450 (-1), vs -50 (+10), vs 170 (+6) = 15.  450: 3 x 1 + 7 + 11 = 21.
    result = cross_imps_board(BOARD, CrossImpOptions(unit=CrossImpUnit.TOTAL))
    assert result.totals == {-50: -47, 170: -19, 420: 15, 450: 21}
    assert [line.ns_imps for line in result.lines] == [15, 15, 21, -47, -19, 15]
    assert [line.ew_imps for line in result.lines] == [-15, -15, -21, 47, 19, -15]
    assert (result.results, result.comparisons) == (6, 5)


def test_per_comparison_divides_by_the_other_results() -> None:
    result = cross_imps_board(BOARD)  # the default unit
    assert result.unit is CrossImpUnit.PER_COMPARISON
    assert [line.ns_imps for line in result.lines] == [3, 3, Fraction(21, 5), Fraction(-47, 5), Fraction(-19, 5), 3]


def test_multiplicity_counts_a_score_as_often_as_it_occurred() -> None:
    grouped = cross_imps_board([Score(420, count=3), 450, -50, 170], CrossImpOptions(unit=CrossImpUnit.TOTAL))
    assert grouped.totals == {-50: -47, 170: -19, 420: 15, 450: 21}
    assert grouped.lines[0].ns_imps == 15  # each of the three 420s
    assert grouped.results == 6


def test_a_lone_result_has_nothing_to_be_compared_with() -> None:
    result = cross_imps_board([620])
    assert result.lines[0].ns_imps == 0
    assert result.comparisons == 0
    assert cross_imp_totals({}) == {}


def test_law_12c2_awards_per_comparison_and_scaled_in_totals() -> None:
    board: list[Score | ArtificialImps | int] = [*BOARD, ArtificialImps.awards("A+", "A-")]
    per = cross_imps_board(board)
    assert (per.lines[-1].ns_imps, per.lines[-1].ew_imps) == (3, -3)
    assert per.lines[0].ns_imps == 3  # the award is not a score: 420 still has 5 comparisons
    total = cross_imps_board(board, CrossImpOptions(unit=CrossImpUnit.TOTAL))
    assert (total.lines[-1].ns_imps, total.lines[-1].ew_imps) == (15, -15)  # 3 IMPs x 5 comparisons
    raw = cross_imps_board(board, CrossImpOptions(unit=CrossImpUnit.TOTAL, artificial_per_comparison=False))
    assert (raw.lines[-1].ns_imps, raw.lines[-1].ew_imps) == (3, -3)


def test_law_12c2_non_balancing_awards() -> None:
    line = cross_imps_board([100, 200, ArtificialImps.awards("A+", "A")]).lines[2]
    assert (line.ns_imps, line.ew_imps) == (3, 0)


def test_per_score_counts_artificial_results_among_the_other_scores() -> None:
    board: list[Score | ArtificialImps | int] = [*BOARD, ArtificialImps.awards("A", "A")]
    per_score = cross_imps_board(board, CrossImpOptions(unit=CrossImpUnit.PER_SCORE))
    per_comparison = cross_imps_board(board, CrossImpOptions(unit=CrossImpUnit.PER_COMPARISON))
    assert per_score.lines[2].ns_imps == Fraction(21, 6)  # 6 other results recorded
    assert per_comparison.lines[2].ns_imps == Fraction(21, 5)  # 5 comparisons made
    # Without artificial results the two units agree.
    assert cross_imps_board(BOARD, CrossImpOptions(unit=CrossImpUnit.PER_SCORE)).lines == cross_imps_board(
        BOARD).lines


def test_assigned_scores_are_compared_like_any_other() -> None:
    plain = cross_imps_board([100, 600, 620])
    assigned = cross_imps_board([100, Score(600, assigned=True), 620])
    assert plain.lines == assigned.lines


def naive_totals(scores: list[int]) -> dict[int, int]:
    """Every pair of results, one by one: the definition the counting method must equal."""
    totals: dict[int, int] = {}
    for i, s in enumerate(scores):
        totals[s] = sum(imps(s - o) for j, o in enumerate(scores) if j != i)
    return totals


scores_strategy = st.lists(st.integers(-760, 760).map(lambda x: x * 10), min_size=1, max_size=40)


@given(scores_strategy)
def test_counting_equals_all_pairs(scores: list[int]) -> None:
    assert cross_imp_totals(Counter(scores)) == naive_totals(scores)


@given(st.lists(st.integers(-7600, 7600), min_size=1, max_size=30))
def test_counting_equals_all_pairs_for_any_integer_scores(scores: list[int]) -> None:
    assert cross_imp_totals(Counter(scores)) == naive_totals(scores)


@given(scores_strategy)
def test_cross_imps_sum_to_zero_over_the_board(scores: list[int]) -> None:
    counts = Counter(scores)
    totals = cross_imp_totals(counts)
    assert sum(totals[s] * c for s, c in counts.items()) == 0


@pytest.mark.parametrize("unit", list(CrossImpUnit))
def test_units_scale_the_same_totals(unit: CrossImpUnit) -> None:
    result = cross_imps_board(BOARD, CrossImpOptions(unit=unit))
    divisor = 1 if unit is CrossImpUnit.TOTAL else 5
    assert [line.ns_imps * divisor for line in result.lines] == [15, 15, 21, -47, -19, 15]
