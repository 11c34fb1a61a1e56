"""Ranks within a field: shared places for ties ("31="), optional head-to-head tiebreak, Mitchell or one field."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from math import lcm


class FieldMode(Enum):
    """Which pairs are ranked together."""

    AUTO = "auto"  # one field if any pair played both directions (Howell, arrow-switch), else NS and EW apart
    ONE = "one"  # one field: Howell, arrow-switch, or a Mitchell scored across the field
    BY_DIRECTION = "by-direction"  # Mitchell: North-South and East-West are two fields


class Tiebreak(Enum):
    NONE = "none"  # tied pairs share the place: 1, 2=, 2=, 4
    # Magic Contest's "in-between meeting": among the tied pairs, each two that met compare the MPs they
    # scored against each other; 2 points to the better, 1 each if equal. Still equal: the place is shared.
    HEAD_TO_HEAD = "head-to-head"


@dataclass(frozen=True, slots=True)
class Placing:
    pair: str
    field: str
    rank: int
    tied: bool  # the place is shared with another pair
    tiebreak: int | None = None  # tiebreak points when a tie had to be broken, else None

    @property
    def text(self) -> str:
        return f"{self.rank}=" if self.tied else str(self.rank)


@cache
def pair_order(pair: str) -> tuple[tuple[int, int, str], ...]:
    """Natural order of pair ids ("2" before "10", "A9" before "A10", numbers before letters)."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", pair))


# MPs pair a scored on the boards it played against pair b, or None when they did not meet.
HeadToHead = Callable[[str, str], Fraction | None]


def head_to_head_points(tied: Collection[str], scored: HeadToHead) -> dict[str, int]:
    """Tiebreak points among tied pairs: 2 to the better of each two that met, 1 each when equal."""
    points = dict.fromkeys(tied, 0)
    group = sorted(tied, key=pair_order)
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            ab, ba = scored(a, b), scored(b, a)
            if ab is None or ba is None:
                continue
            if ab > ba:
                points[a] += 2
            elif ba > ab:
                points[b] += 2
            else:
                points[a] += 1
                points[b] += 1
    return points


def rank_field(field: str, values: Mapping[str, Fraction], head_to_head: HeadToHead | None = None) -> list[Placing]:
    """Standard competition ranking of one field, best first: equal values share a place (1, 2=, 2=, 4).

    With `head_to_head`, ties are broken by the tied pairs' meetings (see Tiebreak.HEAD_TO_HEAD).
    """
    # Exact integer sort keys over a common denominator: comparing Fractions one by one is slow.
    common = lcm(*(v.denominator for v in values.values())) if values else 1
    key = {p: v.numerator * (common // v.denominator) for p, v in values.items()}
    ordered = sorted(key, key=lambda p: (-key[p], pair_order(p)))
    out: list[Placing] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and key[ordered[j]] == key[ordered[i]]:
            j += 1
        tied = ordered[i:j]
        if len(tied) == 1:
            out.append(Placing(tied[0], field, i + 1, False))
        elif head_to_head is None:
            out.extend(Placing(p, field, i + 1, True) for p in tied)
        else:
            points = head_to_head_points(tied, head_to_head)
            tied.sort(key=lambda p: (-points[p], pair_order(p)))
            by_points = Counter(points.values())
            ahead = 0  # tied pairs placed before this point level
            for k, p in enumerate(tied):
                if k and points[p] != points[tied[k - 1]]:
                    ahead = k
                out.append(Placing(p, field, i + 1 + ahead, by_points[points[p]] > 1, points[p]))
        i = j
    return out
