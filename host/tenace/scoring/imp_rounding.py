"""Explicit rounding rules for IMP scoring: a Butler datum to the nearest 10, averages to hundredths."""

from __future__ import annotations

import math
from decimal import Decimal
from enum import Enum
from fractions import Fraction


class Rounding(Enum):
    """How a value exactly halfway between two steps is resolved (values off halfway go to the nearest)."""

    NONE = "none"  # keep the exact value
    HALF_UP = "half-up"  # halfway goes away from zero: 25 -> 30, -25 -> -30 (decimal.ROUND_HALF_UP)
    HALF_EVEN = "half-even"  # halfway goes to the even multiple: 25 -> 20, 35 -> 40, -25 -> -20
    HALF_CEILING = "half-ceiling"  # halfway goes toward +infinity: 25 -> 30, -25 -> -20


def round_to_step(value: Fraction | int, step: Fraction | int, mode: Rounding) -> Fraction:
    """`value` rounded to a multiple of `step` (> 0) by `mode`, exactly (no binary floating point)."""
    value = Fraction(value)
    if mode is Rounding.NONE:
        return value
    step = Fraction(step)
    if step <= 0:
        raise ValueError(f"rounding step must be positive, not {step}")
    units = value / step
    low = math.floor(units)
    rest = units - low
    if rest > Fraction(1, 2):
        low += 1
    elif rest == Fraction(1, 2):
        if mode is Rounding.HALF_EVEN:
            low += low % 2
        elif mode is Rounding.HALF_CEILING or (mode is Rounding.HALF_UP and value > 0):
            low += 1
    return low * step


def to_decimal(value: Fraction | int, places: int = 2, mode: Rounding = Rounding.HALF_EVEN) -> Decimal:
    """`value` rounded to `places` decimals by `mode`, as a Decimal for display and files."""
    if mode is Rounding.NONE:
        raise ValueError("a Decimal with fixed places needs a rounding rule, not NONE")
    rounded = round_to_step(value, Fraction(1, 10**places), mode)
    return (Decimal(rounded.numerator) / Decimal(rounded.denominator)).quantize(Decimal(1).scaleb(-places))
