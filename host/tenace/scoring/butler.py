"""Butler IMP pairs: each result scores IMPs against the board's datum, a trimmed mean of the NS scores."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from tenace.scoring.imp_results import ArtificialImps, Entry, ImpLine, Score, as_entries
from tenace.scoring.imps import imps
from tenace.scoring.rounding import Rounding, round_to_step


@dataclass(frozen=True, slots=True)
class ButlerOptions:
    """How the datum is formed. Trim by count or by percentage, not both."""

    trim_count: int = 1  # drop this many highest and as many lowest scores before averaging
    # ... or drop this share (a percentage, 0 to 50) of the scores from each end, the count rounded down.
    trim_percent: Fraction | int = 0
    datum_rounding: Rounding = Rounding.HALF_UP
    datum_step: int = 10  # the datum is rounded to a multiple of this (Law 78B ranges are in tens)
    # Whether Law 12C1 assigned adjusted scores enter the datum. Law 12C2 artificial scores (A+/A/A-)
    # never do: they carry IMPs, not a point score.
    datum_includes_assigned: bool = True

    def __post_init__(self) -> None:
        if self.trim_count < 0:
            raise ValueError(f"trim_count must be 0 or more, not {self.trim_count}")
        if not 0 <= self.trim_percent < 50:
            raise ValueError(f"trim_percent must be from 0 to under 50, not {self.trim_percent}")
        if self.trim_count and self.trim_percent:
            raise ValueError("trim by count or by percentage, not both")
        if self.datum_step <= 0:
            raise ValueError(f"datum_step must be positive, not {self.datum_step}")

    def trimmed_each_end(self, n: int) -> int:
        """How many scores are dropped from each end of `n`; at least one score always stays in."""
        k = math.floor(Fraction(self.trim_percent) * n / 100) if self.trim_percent else self.trim_count
        return min(k, (n - 1) // 2)


@dataclass(frozen=True, slots=True)
class ButlerBoard:
    datum: Fraction  # what the results are scored against (rounded by the options)
    raw_datum: Fraction  # the trimmed mean before rounding
    scores_in_datum: int  # how many results (counting multiplicity) the mean was taken over
    trimmed_each_end: int
    lines: tuple[ImpLine, ...]  # one per entry, in the order given


def butler_datum(ns_scores: Iterable[tuple[int, int]], options: ButlerOptions = ButlerOptions()) -> tuple[
        Fraction, Fraction, int, int]:
    """(datum, raw mean, scores averaged, trimmed each end) from (NS score, count) pairs."""
    merged: Counter[int] = Counter()
    for s, c in ns_scores:
        merged[s] += c
    groups = sorted((s, c) for s, c in merged.items() if c > 0)
    n = sum(c for _, c in groups)
    if n == 0:
        raise ValueError("no score to form a Butler datum from")
    k = options.trimmed_each_end(n)
    # Trim on the sorted multiset without expanding it: walk in from each end k results.
    total = sum(s * c for s, c in groups) - _extreme_sum(groups, k) - _extreme_sum(groups[::-1], k)
    used = n - 2 * k
    raw = Fraction(total, used)
    return round_to_step(raw, options.datum_step, options.datum_rounding), raw, used, k


def _extreme_sum(groups: list[tuple[int, int]], k: int) -> int:
    """Sum of the first k results of a (score, count) list taken in order."""
    total = 0
    for s, c in groups:
        if k <= 0:
            break
        take = min(c, k)
        total += s * take
        k -= take
    return total


def butler_board(entries: Iterable[Entry | int], options: ButlerOptions = ButlerOptions()) -> ButlerBoard:
    """Butler IMPs for every entry of one board: NS gets IMPs(score - datum), EW the opposite.

    Entries are NS scores (ints or Score, with multiplicity) and ArtificialImps awards, which keep their own
    IMPs (Law 12C2: +3 / 0 / -3, the two sides independently).
    """
    board = as_entries(entries)
    in_datum = [(e.ns, e.count) for e in board
                if isinstance(e, Score) and (options.datum_includes_assigned or not e.assigned)]
    if not any(isinstance(e, Score) for e in board):
        # Only artificial results: nothing to compare, each side keeps its award.
        return ButlerBoard(Fraction(0), Fraction(0), 0, 0, tuple(_artificial_line(e) for e in board
                                                                 if isinstance(e, ArtificialImps)))
    datum, raw, used, k = butler_datum(in_datum, options)
    per_score: dict[int, ImpLine] = {}  # one line per distinct score, shared by its occurrences
    lines = []
    for e in board:
        if isinstance(e, Score):
            line = per_score.get(e.ns)
            if line is None:
                ns = Fraction(imps(e.ns - datum))
                line = per_score[e.ns] = ImpLine(ns, -ns)
            lines.append(line)
        else:
            lines.append(_artificial_line(e))
    return ButlerBoard(datum, raw, used, k, tuple(lines))


def _artificial_line(e: ArtificialImps) -> ImpLine:
    return ImpLine(Fraction(e.ns_imps), Fraction(e.ew_imps))
