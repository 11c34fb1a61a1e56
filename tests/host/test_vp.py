"""Law 78D victory points on the WBF continuous 20-point scale: formula values, concavity, fractions, sides."""

from __future__ import annotations

import itertools
import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenace.scoring.vp import (
    FractionalMargin,
    VictoryPoints,
    VpOptions,
    blitz,
    formula_vp,
    victory_points,
    vp_table,
    winner_vp,
)

PHI = (1 + math.sqrt(5)) / 2
PLAIN = VpOptions(concavity_correction=False)


def wbf_scale(margin: float, boards: int) -> Decimal:
    """The winner's VPs on the WBF continuous scale, written out here rather than taken from tenace.scoring.vp:
    10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), tau = 1/phi, blitz B = 15 sqrt(boards), 20 from B on, half-up."""
    tau = 1 / PHI
    blitz = 15 * math.sqrt(boards)
    vp = 20.0 if margin >= blitz else 10 + 10 * (1 - tau ** (3 * margin / blitz)) / (1 - tau**3)
    return Decimal(repr(vp)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def test_blitz_is_fifteen_root_boards() -> None:
    assert blitz(16) == 60
    assert blitz(9) == 45
    assert blitz(36) == 90
    with pytest.raises(ValueError):
        blitz(0)


@pytest.mark.parametrize("boards", [9, 16, 36])
def test_law_78d_checkable_points_of_the_formula(boards: int) -> None:
    b = int(blitz(boards))
    # tau^2 = 1 - tau makes 1 - tau^3 = 2 tau^2, so a third of the blitz is worth exactly 15 VPs
    # and two thirds 10 + 5 / tau = 10 + 5 phi = 18.09.
    assert victory_points(0, boards) == VictoryPoints(Decimal("10.00"), Decimal("10.00"))
    assert winner_vp(b // 3, boards) == Decimal("15.00")
    assert winner_vp(2 * b // 3, boards) == Decimal(str(round(10 + 5 * PHI, 2)))
    assert winner_vp(b, boards) == Decimal("20.00")
    assert winner_vp(b + 25, boards) == Decimal("20.00")  # capped


def test_16_boards_small_margins_from_the_formula() -> None:
    # 10 + 10 (1 - tau^(3M/60)) / (2 tau^2) with tau = 1/phi, by hand: 10.311, 10.614, 10.910, 11.198.
    tau = 1 / PHI
    by_hand = [10 + 10 * (1 - tau ** (m / 20)) / (2 * tau * tau) for m in range(5)]
    assert [round(v, 2) for v in by_hand] == [10.0, 10.31, 10.61, 10.91, 11.2]
    assert [str(v) for v in vp_table(16)[:8]] == ["10.00", "10.31", "10.61", "10.91", "11.20", "11.48", "11.76",
                                                 "12.03"]


# Margins where the WBF concavity correction leaves the rounded formula alone; the figures by hand from the formula
# (10.614999, 11.201103, 12.047935, 14.388284, 12.029037, 12.799315, 15.563385, 16.730072, 12.334773, 14.535080).
@pytest.mark.parametrize(("margin", "boards", "winner"), [
    (1, 4, "10.61"), (2, 4, "11.20"), (5, 8, "12.05"), (12, 8, "14.39"), (7, 16, "12.03"), (10, 16, "12.80"),
    (23, 16, "15.56"), (30, 16, "16.73"), (60, 16, "20.00"), (10, 24, "12.33"), (25, 32, "14.54"),
])
def test_victory_points_against_the_formula_written_out(margin: int, boards: int, winner: str) -> None:
    assert wbf_scale(margin, boards) == Decimal(winner)
    loser = 20 - Decimal(winner)
    assert victory_points(margin, boards) == VictoryPoints(Decimal(winner), loser)
    assert victory_points(-margin, boards) == VictoryPoints(loser, Decimal(winner))


def test_loser_gets_twenty_minus_winner_and_sign_picks_the_side() -> None:
    assert victory_points(7, 16) == VictoryPoints(Decimal("12.03"), Decimal("7.97"))
    assert victory_points(-7, 16) == VictoryPoints(Decimal("7.97"), Decimal("12.03"))
    assert victory_points(-200, 16) == VictoryPoints(Decimal("0.00"), Decimal("20.00"))


def test_concavity_correction_16_boards_14_imps() -> None:
    # Rounded formula: 13 -> 13.52, 14 -> 13.74, 15 -> 13.97: the step into 14 (0.22) is smaller than the
    # step out of it (0.23). The WBF correction lifts 14 to 13.75 so increments never increase.
    assert [str(v) for v in vp_table(16, PLAIN)[13:16]] == ["13.52", "13.74", "13.97"]
    assert [str(v) for v in vp_table(16)[13:16]] == ["13.52", "13.75", "13.97"]
    assert winner_vp(14, 16) == Decimal("13.75")
    assert winner_vp(14, 16, PLAIN) == Decimal("13.74")


@pytest.mark.parametrize("boards", range(1, 101))
def test_corrected_tables_have_non_increasing_increments(boards: int) -> None:
    table = vp_table(boards)
    plain = vp_table(boards, PLAIN)
    steps = [b - a for a, b in itertools.pairwise(table)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(steps))
    assert all(s >= 0 for s in steps)
    assert table[0] == Decimal("10.00") and table[-1] == Decimal("20.00")
    assert len(table) == math.ceil(blitz(boards)) + 1
    # Each corrected value is the rounded formula or a few hundredths above it.
    assert all(Decimal(0) <= t - p <= Decimal("0.05") for t, p in zip(table, plain, strict=True))
    # The uncorrected table is the formula rounded half-up to hundredths.
    for m in range(len(plain)):
        assert abs(plain[m] - Decimal(str(formula_vp(m, boards)))) <= Decimal("0.005")


def test_fractional_margin_interpolates_between_whole_margins() -> None:
    # 16 boards: 7 -> 12.03, 8 -> 12.29; a carry-over makes the margin 7.5: halfway, 12.16.
    assert winner_vp(Fraction(15, 2), 16) == Decimal("12.16")
    assert winner_vp(Fraction(29, 4), 16) == Decimal("12.10")  # 12.03 + 0.25 x 0.26 = 12.095 -> half-up
    assert victory_points(Fraction(-15, 2), 16) == VictoryPoints(Decimal("7.84"), Decimal("12.16"))


def test_fractional_margin_by_the_formula() -> None:
    formula = VpOptions(fractional=FractionalMargin.FORMULA)
    # 10 + 10 (1 - tau^(7.5/20)) / (2 tau^2) = 12.1613
    assert winner_vp(Fraction(15, 2), 16, formula) == Decimal("12.16")
    assert winner_vp(Fraction(1, 2), 16, formula) == Decimal(str(round(formula_vp(0.5, 16), 2)))
    assert winner_vp(0.5, 16) == Decimal("10.16")  # interpolated: (10.00 + 10.31) / 2 = 10.155 -> 10.16


@given(st.integers(1, 64), st.fractions(min_value=-150, max_value=150, max_denominator=100))
def test_vps_sum_to_twenty_and_grow_with_the_margin(boards: int, margin: Fraction) -> None:
    vp = victory_points(margin, boards)
    assert vp.home + vp.away == 20
    assert Decimal(0) <= vp.home <= Decimal(20)
    assert victory_points(margin + 1, boards).home >= vp.home
    assert vp.home.as_tuple().exponent == -2
