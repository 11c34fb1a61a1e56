"""Exact rounding of scoring figures (matchpoints, percentages, IMPs, a Butler datum): one set of rules for all."""

from __future__ import annotations

import math
from decimal import Decimal
from enum import Enum
from fractions import Fraction


class Rounding(Enum):
    """How a figure between two published values goes; programs differ here, above all on ties.

    The HALF_ rules take the nearest value and differ only on an exact tie. Every function here takes every
    rule (but NONE where fixed decimals are asked for); each option offers those programs use for it.
    """

    NONE = "none"  # keep the exact value (a datum; never a figure with fixed decimals)
    HALF_UP = "half-up"  # ties away from zero: 28.25 -> 28.3, 25 -> 30, -25 -> -30 (Magic Contest, most clubs)
    HALF_EVEN = "half-even"  # ties to the even digit: 28.25 -> 28.2, 25 -> 20, 35 -> 40 (banker's rounding)
    HALF_CEILING = "half-ceiling"  # ties toward +infinity: 25 -> 30, -25 -> -20
    DOWN = "down"  # truncation toward zero, ties or not: 28.29 -> 28.2
    # The value as a program holding it in a binary double prints it with C's printf("%.2f"): the nearest double,
    # whose exact binary value is rounded, ties to even. 4.575 is 4.57500000000000017... so 4.58, 0.075 is
    # 0.07499999999999999722... so 0.07, 6.125 is exact so 6.12 (OKbridge's cross-IMPs).
    DOUBLE = "double"


# The rules each option offers, as programs use them (`tenace score --rounding` and `--datum-rounding`).
MP_ROUNDINGS = (Rounding.HALF_UP, Rounding.HALF_EVEN, Rounding.DOWN)
DATUM_ROUNDINGS = (Rounding.NONE, Rounding.HALF_UP, Rounding.HALF_EVEN, Rounding.HALF_CEILING)


def round_fraction(value: Fraction | int, decimals: int, mode: Rounding = Rounding.HALF_UP) -> Decimal:
    """`value` rounded to `decimals` places, computed on integers so no binary float error can flip a tie."""
    return round_ratio(value.numerator, value.denominator, decimals, mode)


def round_ratio(num: int, den: int, decimals: int, mode: Rounding = Rounding.HALF_UP) -> Decimal:
    """num/den rounded to `decimals` places (den > 0), without building a Fraction on hot paths."""
    if decimals < 0:
        raise ValueError(f"decimals must be 0 or more, not {decimals}")
    if mode is Rounding.NONE:
        raise ValueError("a figure with fixed decimals needs a rounding rule, not NONE")
    if mode is _DOUBLE:  # the exact binary value of num/den's nearest double (int / int rounds correctly), then ties
        num, den = (num / den).as_integer_ratio()  # to even
        mode = _HALF_EVEN
    sign = -1 if num < 0 else 1
    q, r = divmod(abs(num) * 10**decimals, den)
    if mode is not _DOWN:
        twice = 2 * r
        if twice > den or (twice == den and (mode is _HALF_UP or (mode is _HALF_EVEN and q & 1)
                                             or (mode is _HALF_CEILING and sign > 0))):
            q += 1
    return Decimal(sign * q).scaleb(-decimals)


# The rules as module constants for round_ratio, which every published figure goes through: reading a member off
# its Enum class costs about 0.17 us in Python 3.11, and it read up to five.
_DOWN, _HALF_UP, _HALF_EVEN, _HALF_CEILING = Rounding.DOWN, Rounding.HALF_UP, Rounding.HALF_EVEN, Rounding.HALF_CEILING
_DOUBLE = Rounding.DOUBLE


def round_to_step(value: Fraction | int, step: Fraction | int, mode: Rounding) -> Fraction:
    """`value` rounded to a multiple of `step` (> 0) by `mode`, exactly (no binary floating point)."""
    value = Fraction(value)
    if mode is Rounding.NONE:
        return value
    step = Fraction(step)
    if step <= 0:
        raise ValueError(f"rounding step must be positive, not {step}")
    if mode is Rounding.DOUBLE:  # the nearest double's exact value, ties to even
        value, mode = Fraction(float(value)), Rounding.HALF_EVEN
    units = value / step
    if mode is Rounding.DOWN:
        return math.trunc(units) * step
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


def to_fraction(value: Decimal) -> Fraction:
    """A published decimal back as an exact fraction, to add published figures without error."""
    return Fraction(value)
