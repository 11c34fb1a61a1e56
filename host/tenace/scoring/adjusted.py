"""Law 12C2(c): average-plus and average-minus revised by the pair's own session percentage."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from tenace.scoring.matchpoints import BoardScore, SideKind, Sides, SideScore, artificial_side
from tenace.scoring.model import Average
from tenace.scoring.mp_options import BoardOptions


def real_percentages(boards: Iterable[BoardScore]) -> dict[str, Fraction]:
    """Each pair's exact percentage over the boards it has a real result on (played or assigned).

    An assigned score (12C1) is the board's result, so it counts; artificial scores do not, since
    12C2(c) asks for the percentage obtained on the other boards.
    """
    mp: dict[str, Fraction] = {}
    top: dict[str, int] = {}
    for b in boards:
        for pair, s in b.pair_sides():
            if s.kind is not SideKind.ARTIFICIAL:
                mp[pair] = mp.get(pair, Fraction(0)) + s.exact
                top[pair] = top.get(pair, 0) + s.top
    return {p: mp[p] * 100 / top[p] for p in mp if top[p]}


def revised_percent(side: SideScore, own: Fraction | None, options: BoardOptions) -> Fraction | None:
    """The percentage 12C2(c) gives instead of the average, or None when the average stands."""
    if own is None:
        return None
    if side.average is Average.PLUS and own > options.average_plus:
        return own  # a non-offender above 60% keeps its own percentage
    if side.average is Average.MINUS and own < options.average_minus:
        return own  # an offender below 40% keeps its own
    return None


def apply_12c2c(
    boards: Sequence[BoardScore], options: BoardOptions, own: Mapping[str, Fraction] | None = None
) -> list[BoardScore]:
    """The boards with Law 12C2(c) applied; resolves after the normal boards are scored.

    `own` gives each pair's percentage on its real boards when the caller already has it (the
    session's sums), else it is computed from `boards`.
    """
    if not options.law_12c2c:
        return list(boards)
    if own is None:
        own = real_percentages(boards)
    out = []
    for b in boards:
        changed = False
        figures: list[Sides] = []
        for r, sides in zip(b.results, b.figures, strict=True):
            new = list(sides)
            for i, pair in enumerate((r.ns_pair, r.ew_pair)):
                side = new[i]
                if side is None or side.average is None:
                    continue
                pct = revised_percent(side, own.get(pair), options)
                if pct is not None:
                    new[i] = artificial_side(side.direction, side.average, side.top, options, percent=pct)
            if new != list(sides):
                changed = True
                figures.append((new[0], new[1]))
            else:
                figures.append(sides)
        out.append(replace(b, figures=tuple(figures)) if changed else b)
    return out
