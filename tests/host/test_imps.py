"""Law 78B IMP table: both sides of every step, sign symmetry, and the table as printed in the Laws."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenace.scoring.imps import IMP_STEPS, MAX_IMPS, imp_range, imps
from tenace.scoring.rounding import Rounding, round_to_step, to_decimal

from conftest import SHARED

# Law 78B as printed: (lowest, highest) difference in points for 0, 1, ... 24 IMPs; typed from the Law.
LAW_78B = [
    (0, 10), (20, 40), (50, 80), (90, 120), (130, 160), (170, 210), (220, 260), (270, 310), (320, 360),
    (370, 420), (430, 490), (500, 590), (600, 740), (750, 890), (900, 1090), (1100, 1290), (1300, 1490),
    (1500, 1740), (1750, 1990), (2000, 2240), (2250, 2490), (2500, 2990), (3000, 3490), (3500, 3990),
    (4000, None),
]
LAWS_EN = SHARED / "laws" / "004_c4132b3f45984b2e.txt"


@pytest.mark.parametrize(("n", "low", "high"), [(n, lo, hi) for n, (lo, hi) in enumerate(LAW_78B)])
def test_law_78b_both_sides_of_every_step(n: int, low: int, high: int | None) -> None:
    assert imps(low) == n
    if low:
        assert imps(low - 10) == n - 1  # the last difference of the step below
        assert imps(-(low - 10)) == -(n - 1)
    assert imps(-low) == -n
    if high is not None:
        assert imps(high) == n
        assert imps(high + 10) == n + 1
        assert imps(-high) == -n
        assert imps(-(high + 10)) == -(n + 1)
    assert imp_range(n) == (low, high)


def test_law_78b_24_imps_has_no_ceiling() -> None:
    assert imps(4000) == imps(7600) == imps(25_000) == MAX_IMPS == 24
    assert imps(-7600) == -24


def test_law_78b_differences_between_printed_ranges_take_the_lower_step() -> None:
    # Only an unrounded Butler datum makes such differences; each step starts at its printed lower bound.
    assert imps(15) == 0
    assert imps(Fraction(39, 2)) == 0  # 19.5
    assert imps(45) == 1
    assert imps(Fraction(-2995, 1)) == -21
    assert imps(3995) == 23


@given(st.integers(-20_000, 20_000))
def test_law_78b_is_odd_and_monotone(d: int) -> None:
    assert imps(-d) == -imps(d)
    assert imps(d) <= imps(d + 10)
    assert imps(d + 10) - imps(d) <= 1  # a 10-point step never jumps two IMPs


def test_imp_range_refuses_impossible_imps() -> None:
    with pytest.raises(ValueError, match="0 to 24"):
        imp_range(25)


@pytest.mark.skipif(not LAWS_EN.exists(), reason=f"{LAWS_EN} is absent (../shared not mounted)")
def test_table_matches_the_law_78b_text() -> None:
    text = LAWS_EN.read_text(encoding="utf-8")
    start = text.index("B. International Matchpoint Scoring")
    section = text[start:text.index("C. Total Point Scoring", start)]
    printed = {int(n): (int(lo), int(hi)) for lo, hi, n in re.findall(r"(\d+)\s*[–-]\s*(\d+)\s+(\d+)", section)}
    assert re.search(r"4000\+\s+24", section)
    assert sorted(printed) == list(range(24))
    assert [printed[n] for n in range(24)] == LAW_78B[:24]
    assert tuple(lo for lo, _ in LAW_78B[1:]) == IMP_STEPS


@pytest.mark.parametrize(("value", "mode", "expected"), [
    (25, Rounding.HALF_UP, 30), (-25, Rounding.HALF_UP, -30),
    (25, Rounding.HALF_EVEN, 20), (35, Rounding.HALF_EVEN, 40), (-25, Rounding.HALF_EVEN, -20),
    (25, Rounding.HALF_CEILING, 30), (-25, Rounding.HALF_CEILING, -20),
    (Fraction(2449, 10), Rounding.HALF_UP, 240), (Fraction(2451, 10), Rounding.HALF_EVEN, 250),
    (Fraction(715, 2), Rounding.NONE, Fraction(715, 2)),
])
def test_round_to_step(value: Fraction | int, mode: Rounding, expected: Fraction | int) -> None:
    assert round_to_step(value, 10, mode) == expected


def test_to_decimal_hundredths() -> None:
    assert str(to_decimal(Fraction(49, 8))) == "6.12"  # 6.125, half-even
    assert str(to_decimal(Fraction(49, 8), mode=Rounding.HALF_UP)) == "6.13"
    assert str(to_decimal(Fraction(-1, 40))) == "-0.02"
    assert str(to_decimal(Fraction(-1, 40), mode=Rounding.HALF_UP)) == "-0.03"
    assert str(to_decimal(3)) == "3.00"
    assert str(to_decimal(Fraction(1, 3), places=1)) == "0.3"
