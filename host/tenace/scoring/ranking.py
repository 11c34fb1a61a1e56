"""Ranks within a field: shared places for ties ("31="), optional head-to-head tiebreak, Mitchell or one field."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction


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


def pair_order(pair: str) -> tuple[tuple[int, str], ...]:
    """Natural order of pair ids ("2" before "10", "A9" before "A10"): how tied pairs are listed."""
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in re.findall(r"\d+|\D+", pair))


def head_to_head_points(tied: Collection[str], meetings: Mapping[tuple[str, str], Fraction]) -> dict[str, int]:
    """Tiebreak points among tied pairs from `meetings[(a, b)]`: the MPs a scored on boards against b."""
    points = dict.fromkeys(tied, 0)
    group = sorted(tied, key=pair_order)
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            ab, ba = meetings.get((a, b)), meetings.get((b, a))
            if ab is None or ba is None:
                continue  # they did not meet
            if ab > ba:
                points[a] += 2
            elif ba > ab:
                points[b] += 2
            else:
                points[a] += 1
                points[b] += 1
    return points


def rank_field(
    field: str,
    values: Mapping[str, Fraction],
    meetings: Mapping[tuple[str, str], Fraction] | None = None,
) -> list[Placing]:
    """Standard competition ranking of one field, best first: equal values share a place (1, 2=, 2=, 4).

    With `meetings`, ties are broken head-to-head (see Tiebreak.HEAD_TO_HEAD).
    """
    ordered = sorted(values, key=lambda p: (-values[p], pair_order(p)))
    out: list[Placing] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and values[ordered[j]] == values[ordered[i]]:
            j += 1
        tied = ordered[i:j]
        if len(tied) == 1:
            out.append(Placing(tied[0], field, i + 1, False))
        elif meetings is None:
            out.extend(Placing(p, field, i + 1, True) for p in tied)
        else:
            points = head_to_head_points(tied, meetings)
            tied.sort(key=lambda p: (-points[p], pair_order(p)))
            by_points = Counter(points.values())
            ahead = 0  # tied pairs placed before this point level
            for k, p in enumerate(tied):
                if k and points[p] != points[tied[k - 1]]:
                    ahead = k
                out.append(Placing(p, field, i + 1 + ahead, by_points[points[p]] > 1, points[p]))
        i = j
    return out
