"""Law 78B: the IMP scale, a point difference to 0-24 IMPs, by bisection on the steps' lower bounds."""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

# Lower bound of the difference worth 1, 2, ... 24 IMPs (Law 78B: 20-40 is 1 IMP, ..., 4000+ is 24).
IMP_STEPS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)
MAX_IMPS = len(IMP_STEPS)


def imps(difference: int | Fraction) -> int:
    """Signed IMPs for a point difference (positive when the first score is the better one).

    Law 78B prints its ranges in tens (0-10, 20-40, ...). A difference that falls between two printed
    ranges (only possible against an unrounded Butler datum) scores the lower step: a step starts at
    its printed lower bound.
    """
    if difference >= 0:
        return bisect_right(IMP_STEPS, difference)
    return -bisect_right(IMP_STEPS, -difference)


def imp_range(n: int) -> tuple[int, int | None]:
    """The Law 78B range of differences, in points, worth `n` IMPs: (low, high), high None for 24."""
    if not 0 <= n <= MAX_IMPS:
        raise ValueError(f"IMPs run from 0 to {MAX_IMPS}, not {n}")
    low = 0 if n == 0 else IMP_STEPS[n - 1]
    high = IMP_STEPS[n] - 10 if n < MAX_IMPS else None
    return low, high
