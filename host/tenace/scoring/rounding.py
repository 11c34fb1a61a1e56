"""Exact rounding of rational matchpoint figures to the decimals a published result shows."""

from __future__ import annotations

from decimal import Decimal
from enum import Enum
from fractions import Fraction


class Rounding(Enum):
    """How a figure exactly halfway between two published values goes; programs differ here."""

    HALF_UP = "half-up"  # ties away from zero: 28.25 -> 28.3 (Magic Contest, most club programs)
    HALF_EVEN = "half-even"  # ties to the even digit: 28.25 -> 28.2 (banker's rounding)
    DOWN = "down"  # truncation toward zero: 28.29 -> 28.2


def round_fraction(value: Fraction | int, decimals: int, mode: Rounding = Rounding.HALF_UP) -> Decimal:
    """`value` rounded to `decimals` places, computed on integers so no binary float error can flip a tie."""
    return round_ratio(value.numerator, value.denominator, decimals, mode)


def round_ratio(num: int, den: int, decimals: int, mode: Rounding = Rounding.HALF_UP) -> Decimal:
    """num/den rounded to `decimals` places (den > 0), without building a Fraction on hot paths."""
    if decimals < 0:
        raise ValueError(f"decimals must be 0 or more, not {decimals}")
    sign = -1 if num < 0 else 1
    q, r = divmod(abs(num) * 10**decimals, den)
    if mode is not Rounding.DOWN:
        twice = 2 * r
        if twice > den or (twice == den and (mode is Rounding.HALF_UP or q & 1)):
            q += 1
    return Decimal(sign * q).scaleb(-decimals)


def to_fraction(value: Decimal) -> Fraction:
    """A published decimal back as an exact fraction, to add published figures without error."""
    return Fraction(value)
