"""The IMP side's rounding names (a Butler datum to the nearest 10, averages to hundredths), from rounding.py."""

from __future__ import annotations

from tenace.scoring.rounding import Rounding, round_to_step, to_decimal

__all__ = ["Rounding", "round_to_step", "to_decimal"]
