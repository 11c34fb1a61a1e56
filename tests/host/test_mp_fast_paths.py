"""The integer fast paths equal the exact Fraction definitions: matchpoint_board's played-board figures kept across
boards (one cache per options, results and expected), and cross-IMPs by pairs of distinct scores or by steps."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mp_reference import POOL, options, reference_board, rows, shown

from tenace.scoring import cross_imps, matchpoints
from tenace.scoring.cross_imps import (
    _DIFF_MAX,
    PAIRWISE_MAX_DISTINCT,
    CrossImpOptions,
    CrossImpUnit,
    _totals_by_steps,
    _totals_pairwise,
    _totals_pairwise_by_tens,
    cross_imp_totals,
    cross_imps_board,
)
from tenace.scoring.imp_results import Score
from tenace.scoring.imps import imps
from tenace.scoring.model import BoardResult, Played
from tenace.scoring.mp_options import MatchpointOptions, Units

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

played_boards = st.integers(1, 16).flatmap(
    lambda n: st.lists(st.lists(st.sampled_from(POOL) | st.integers(-7600, 7600), min_size=n, max_size=n),
                       min_size=1, max_size=6))


def board_of(number: int, scores: list[int]) -> list[BoardResult]:
    return [BoardResult("A", t, 1, number, f"N{t}", f"E{t}", Played(s)) for t, s in enumerate(scores, start=1)]


@settings(max_examples=200, deadline=None)
@given(played_boards, options, st.one_of(st.none(), st.integers(0, 4)))
def test_boards_of_one_size_share_figures_and_equal_the_definition(
        boards: list[list[int]], o: MatchpointOptions, extra: int | None) -> None:
    # Every board after the first reads the figures the earlier ones kept; each must still be its own.
    for number, scores in enumerate(boards, start=1):
        results = board_of(number, scores)
        expected = None if extra is None else len(results) + extra
        got = rows(results, o, expected)
        assert shown(got) == shown(reference_board(results, o, expected))
        assert all(type(side[2]) is Fraction for table in got for side in table if side is not None)


@pytest.mark.parametrize("walk_max", [0, 10**9])
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 90).flatmap(lambda n: st.lists(st.sampled_from(POOL) | st.integers(-7600, 7600),
                                                      min_size=n, max_size=n)),
       options)
def test_sorted_and_counted_walks_equal_the_definition(walk_max: int, scores: list[int],
                                                       o: MatchpointOptions) -> None:
    # A board's distinct scores are walked sorted up to SORTED_WALK_MAX results and counted above: each walk,
    # forced on every size, gives the definition's figures (fresh options: no figures kept from another walk).
    o = MatchpointOptions(**{f: getattr(o, f) for f in o.__dataclass_fields__})
    results = board_of(1, scores)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(matchpoints, "SORTED_WALK_MAX", walk_max)
        assert shown(rows(results, o, None)) == shown(reference_board(results, o, None))


def test_kept_figures_belong_to_their_options() -> None:
    # Same size, same scores, options that differ (and equal options that are other objects): never mixed up.
    results = board_of(1, [420, 420, 450, -50, 170, 420, 0, 100])
    for o in (MatchpointOptions(), MatchpointOptions(units=Units.NORTH_AMERICAN),
              MatchpointOptions(board_mp_decimals=0), MatchpointOptions()):
        assert shown(rows(results, o, None)) == shown(reference_board(results, o, None))
        assert shown(rows(results, o, 12)) == shown(reference_board(results, o, 12))


# Law 77 scores, and now and then a figure far outside them (pairs then IMPed by tens of points, not by difference)
counts = st.dictionaries(st.sampled_from(POOL) | st.integers(-7600, 7600) | st.integers(-50, 50)
                         | st.integers(-10**5, 10**5), st.integers(1, 5), max_size=2 * PAIRWISE_MAX_DISTINCT)


@settings(max_examples=400, deadline=None)
@given(counts)
def test_cross_imp_totals_pairwise_and_by_steps_equal_all_pairs(c: dict[int, int]) -> None:
    values = sorted(c)
    weights = [c[v] for v in values]
    want = {s: sum(w * imps(s - o) for o, w in c.items()) for s in c}  # imps(0) is 0: a score's own ties
    in_order = [want[v] for v in values]
    if not values or values[-1] - values[0] < _DIFF_MAX:  # the look-up by difference takes no wider board
        assert _totals_pairwise(values, weights) == in_order
    assert _totals_pairwise_by_tens(values, weights) == in_order
    assert _totals_by_steps(values, weights) == in_order
    assert cross_imp_totals(c) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(counts, min_size=1, max_size=4), st.sampled_from(CrossImpUnit))
def test_cross_imps_lines_kept_across_boards_are_exact(boards: list[dict[int, int]], unit: CrossImpUnit) -> None:
    for c in boards:
        if not c:
            continue
        got = cross_imps_board([Score(s, w) for s, w in c.items()], CrossImpOptions(unit=unit))
        n = sum(c.values())
        divisor = 1 if unit is CrossImpUnit.TOTAL else n - 1
        for (s, _), line in zip(c.items(), got.lines, strict=True):
            total = sum(w * imps(s - o) for o, w in c.items())
            want = Fraction(total, divisor) if n > 1 else Fraction(0)
            assert (line.ns_imps, line.ew_imps) == (want, -want)
            assert type(line.ns_imps) is Fraction


def test_the_lines_kept_stay_bounded_and_exact_after_they_are_cleared() -> None:
    """20 board sizes (20 divisors) of 2,000 distinct scores each: more than the cache keeps, which is cleared and
    refilled, never past 8 divisors of 8,192 lines, and every line still exact."""
    for n in range(2_000, 2_020):
        scores = list(range(0, 10 * n, 10))
        got = cross_imps_board(scores, CrossImpOptions())
        assert len(cross_imps._LINES) <= cross_imps._DIVISORS_MAX
        assert all(len(kept) <= cross_imps._LINES_MAX for kept in cross_imps._LINES.values())
        low = sum(imps(scores[0] - o) for o in scores)
        assert got.lines[0].ns_imps == Fraction(low, n - 1) and got.lines[-1].ns_imps == Fraction(-low, n - 1)

