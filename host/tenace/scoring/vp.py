"""Law 78D victory points: an IMP margin to the WBF continuous 20-point scale (2013), to two decimals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from fractions import Fraction
from functools import lru_cache

TAU = (math.sqrt(5) - 1) / 2
MAX_VP = 20
_HUNDREDTH = Decimal("0.01")


class FractionalMargin(Enum):
    """How a margin with a fraction of an IMP (carry-over, Butler, cross-IMPs) is converted."""

    INTERPOLATE = "interpolate"  # linearly between the table's two whole margins around it (WBF practice)
    FORMULA = "formula"  # the continuous formula at the exact margin, then rounded to two decimals


@dataclass(frozen=True, slots=True)
class VpOptions:
    # The published WBF tables adjust some rounded values so that one more IMP never gains more VPs than
    # the IMP before it; False gives the plain rounded formula.
    concavity_correction: bool = True
    fractional: FractionalMargin = FractionalMargin.INTERPOLATE


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    home: Decimal  # the side the margin is counted for
    away: Decimal  # 20 - home


def blitz(boards: int) -> float:
    """The margin that wins 20-0: 15 times the square root of the boards played."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    return 15 * math.sqrt(boards)


def formula_vp(margin: float, boards: int) -> float:
    """The winner's VPs by the WBF formula, unrounded: 10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), at most 20."""
    m = abs(margin)
    return min(float(MAX_VP), 10 + 10 * (1 - math.pow(TAU, 3 * m / blitz(boards))) / (1 - TAU**3))


def _hundredths(x: float) -> int:
    # Decimal(x) is the float's exact value, so a float just under a half-hundredth rounds down.
    return int(Decimal(x).quantize(_HUNDREDTH, ROUND_HALF_UP) * 100)


@lru_cache(maxsize=256)
def _table(boards: int, corrected: bool) -> tuple[int, ...]:
    """Winner's VPs in hundredths for whole margins 0, 1, ... up to the first margin worth 20."""
    top = math.ceil(blitz(boards))
    vp = [_hundredths(formula_vp(m, boards)) for m in range(top + 1)]
    if corrected:
        # WBF rule: increments must never increase. Where a rounded value leaves a dip (the step into it
        # smaller than the step out of it), add 0.01 to it; start again from the first violation until none.
        i = 2
        while i < len(vp):
            if vp[i] - vp[i - 1] > vp[i - 1] - vp[i - 2]:
                vp[i - 1] += 1
                i = 2
            else:
                i += 1
    return tuple(vp)


def vp_table(boards: int, options: VpOptions = VpOptions()) -> tuple[Decimal, ...]:
    """The winner's VPs for each whole IMP margin 0, 1, 2, ... until the blitz (20.00), as published."""
    return tuple(Decimal(h).scaleb(-2) for h in _table(boards, options.concavity_correction))


def winner_vp(margin: Fraction | int | float, boards: int, options: VpOptions = VpOptions()) -> Decimal:
    """The VPs of the side ahead by |margin| IMPs in a match of `boards` boards."""
    m = abs(Fraction(margin))
    table = _table(boards, options.concavity_correction)
    if m >= len(table) - 1:
        return Decimal(MAX_VP).quantize(_HUNDREDTH)
    whole = math.floor(m)
    if m == whole:
        return Decimal(table[whole]).scaleb(-2)
    if options.fractional is FractionalMargin.FORMULA:
        return Decimal(_hundredths(formula_vp(float(m), boards))).scaleb(-2)
    low, high = table[whole], table[whole + 1]
    exact = low + (m - whole) * (high - low)  # in hundredths
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal(1), ROUND_HALF_UP).scaleb(-2)


def victory_points(margin: Fraction | int | float, boards: int, options: VpOptions = VpOptions()) -> VictoryPoints:
    """VPs for both sides from the home side's IMP margin (home IMPs - away IMPs); they sum to 20."""
    won = winner_vp(margin, boards, options)
    lost = Decimal(MAX_VP) - won
    return VictoryPoints(won, lost) if margin >= 0 else VictoryPoints(lost, won)
