"""Cross-IMPs: every result IMPed against every other result of the board, counting equal scores by multiplicity."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import accumulate, chain, repeat

from tenace.scoring.imp_results import ArtificialImps, Entry, ImpLine, Score, not_an_entry
from tenace.scoring.imps import IMP_STEPS, MAX_IMPS, imps
from tenace.scoring.rounding import Rounding


class CrossImpUnit(Enum):
    """How a result's IMPs against the others are expressed.

    TOTAL: the sum over the other results. PER_COMPARISON: that sum divided by the comparisons made, the
    other played results (n - 1); this is "cross-IMPs averaged per comparison". PER_SCORE: the sum divided
    by the other results recorded on the board, Law 12C2 artificial ones included; it equals PER_COMPARISON
    unless the board holds artificial results, and then shrinks the played results' averages accordingly.
    """

    TOTAL = "total"
    PER_SCORE = "per-score"
    PER_COMPARISON = "per-comparison"


@dataclass(frozen=True, slots=True)
class CrossImpOptions:
    unit: CrossImpUnit = CrossImpUnit.PER_COMPARISON
    # Law 12C2(b)'s +3 / 0 / -3 IMPs are read per comparison, so a TOTAL multiplies them by the
    # comparisons each played result had (n - 1). False: they are taken as they are in every unit.
    artificial_per_comparison: bool = True
    # How a line's IMPs are published to 0.01 (HALF_EVEN ties to even on the exact value; DOUBLE as a program holding
    # them in a binary double prints them, OKbridge); the scoring itself stays exact.
    rounding: Rounding = Rounding.HALF_EVEN


@dataclass(frozen=True, slots=True)
class CrossImpBoard:
    unit: CrossImpUnit
    results: int  # played results, multiplicity counted
    comparisons: int  # comparisons per played result: results - 1
    scores: list[int]  # the distinct NS scores of the played results, ascending
    score_totals: list[int]  # each one's total IMPs against all other played results
    lines: tuple[ImpLine, ...]  # one per entry, in the order given, in `unit`

    @property
    def totals(self) -> dict[int, int]:
        """Distinct NS score -> its total IMPs (made when read: a board's scoring has no use for it)."""
        return dict(zip(self.scores, self.score_totals, strict=True))


# Up to this many distinct scores, IMPing each pair of distinct scores once costs less than the 24 steps'
# bisections (measured: 9 against 87 us at 8 distinct scores, 210 against 454 at 48); a club board has a handful.
PAIRWISE_MAX_DISTINCT = 64

# IMPs of a difference of 10q to 10q + 9 points, q = 0 to 399 (every step starts at a multiple of 10, so a whole
# difference d is worth _IMPS_BY_TENS[d // 10]); 400 tens and more are worth the 24 IMPs of 4000+.
_IMPS_BY_TENS: tuple[int, ...] = tuple(imps(10 * q) for q in range(400))
# IMPs of every difference below 16,000 points, the widest two Law 77 scores can be (-7,600 and +7,600) with room:
# a club board's pairs read it with no division or range test (a sixth faster); 128 KB, built in C from the tens.
_DIFF_MAX = 16_000
_IMPS_BY_DIFF: tuple[int, ...] = (*chain.from_iterable(map(repeat, _IMPS_BY_TENS, repeat(10))),
                                  *repeat(MAX_IMPS, _DIFF_MAX - 10 * len(_IMPS_BY_TENS)))


def cross_imp_totals(counts: Mapping[int, int]) -> dict[int, int]:
    """Total IMPs of each distinct NS score against every other result, from {score: multiplicity}.

    Few distinct scores: each pair of distinct scores is IMPed once (both ways, by multiplicity); more:
    by steps (_totals_by_steps). Both are exact integer sums and equal (a property test checks it).
    """
    values, totals = _totals({v: c for v, c in counts.items() if c > 0})
    return dict(zip(values, totals, strict=True))


def _totals(counts: Mapping[int, int]) -> tuple[list[int], list[int]]:
    """The distinct scores sorted, and each one's total, from counts that are all positive."""
    values = sorted(counts)
    weights = list(map(counts.__getitem__, values))
    if len(values) > PAIRWISE_MAX_DISTINCT:
        return values, _totals_by_steps(values, weights)
    if values and values[-1] - values[0] >= _DIFF_MAX:  # not Law 77 scores: the look-up by tens, which takes any
        return values, _totals_pairwise_by_tens(values, weights)
    return values, _totals_pairwise(values, weights)


def _totals_pairwise(values: list[int], weights: list[int]) -> list[int]:
    """Sorted distinct scores (less than _DIFF_MAX apart) and their multiplicities: O(distinct^2) IMP look-ups, one
    per pair."""
    d = len(values)
    totals = [0] * d
    by_diff = _IMPS_BY_DIFF
    for j in range(1, d):  # each score against the lower ones, with no test for a 0: a tenth faster
        v, w = values[j], weights[j]
        won = 0
        for i in range(j):
            k = by_diff[v - values[i]]  # v > values[i]: sorted and distinct
            won += k * weights[i]
            totals[i] -= k * w
        totals[j] += won
    return totals


def _totals_pairwise_by_tens(values: list[int], weights: list[int]) -> list[int]:
    """_totals_pairwise for scores any distance apart: IMPs looked up by tens of points, 24 from 4,000 up."""
    d = len(values)
    totals = [0] * d
    by_tens = _IMPS_BY_TENS
    for i in range(d):
        v, w = values[i], weights[i]
        lost = 0
        for j in range(i + 1, d):
            tens = (values[j] - v) // 10  # values[j] > v: sorted and distinct
            if tens >= 2:  # 20 points or more: at least 1 IMP
                k = by_tens[tens] if tens < 400 else MAX_IMPS
                lost += k * weights[j]
                totals[j] += k * w
        totals[i] -= lost
    return totals


def _totals_by_steps(values: list[int], weights: list[int]) -> list[int]:
    """Sum over others o of IMPs(s - o) = sum over the 24 steps L of #{o <= s - L} - #{o >= s + L}: with the
    distinct scores sorted and prefix counts, each term is one bisection, so a board costs
    O(24 * distinct * log distinct) however many times each score occurred.
    """
    if not values:
        return []
    prefix = list(accumulate(weights, initial=0))
    n = prefix[-1]
    spread = values[-1] - values[0]
    totals = [0] * len(values)
    for step in IMP_STEPS:
        if step > spread:  # no two scores this far apart: this and every later step add nothing
            break
        below = [prefix[bisect_right(values, v - step)] for v in values]
        above = [n - prefix[bisect_left(values, v + step)] for v in values]
        totals = [t + b - a for t, b, a in zip(totals, below, above, strict=True)]
    return totals


def cross_imps_board(entries: Iterable[Entry | int], options: CrossImpOptions = CrossImpOptions()) -> CrossImpBoard:
    """Cross-IMPs for every entry of one board, NS and EW (EW is the opposite of NS for a played result).

    Entries are NS scores (ints or Score with a multiplicity; assigned adjusted scores are compared like
    any other) and Law 12C2 ArtificialImps awards, which are not compared and keep their IMPs.
    """
    # One pass, not as_entries then a count: a club board's whole cross-IMPs cost about 10 us, and each pass a tenth.
    counts: dict[int, int] = {}
    count_of = counts.get
    order: list[int | ArtificialImps] = []  # each entry's NS score, or its award
    keep = order.append
    recorded = 0
    awards = False
    for e in entries:
        kind = type(e)
        if kind is int or (kind is not bool and isinstance(e, int)):  # the exact type first: a tenth faster
            counts[e] = count_of(e, 0) + 1  # type: ignore[index, arg-type]  # an int: mypy cannot see it
            keep(e)  # type: ignore[arg-type]
            recorded += 1
        elif isinstance(e, Score):
            ns, n = e.ns, e.count
            counts[ns] = count_of(ns, 0) + n
            keep(ns)
            recorded += n
        elif isinstance(e, ArtificialImps):
            awards = True
            keep(e)
            recorded += e.count
        else:
            raise not_an_entry(e)
    results = recorded if not awards else sum(counts.values())
    comparisons = results - 1 if results else 0
    values, sums = _totals(counts)  # of one length: zipped without strict=, which costs a twelfth of a club board
    unit = options.unit
    if not comparisons:  # a lone result (its total is 0) or none: nothing to compare with
        divisor = 1
    elif unit is _PER_COMPARISON:
        divisor = comparisons
    elif unit is _TOTAL:
        divisor = 1
    else:
        divisor = recorded - 1
    # One line per distinct score, shared by its occurrences and across boards (ImpLine is immutable).
    lines_of = _LINES.get(divisor)
    if lines_of is None:
        lines_of = _lines(divisor)
    line = lines_of.get
    per_score = {s: line(t) or _line(lines_of, t, divisor) for s, t in zip(values, sums)}  # noqa: B905
    if not awards:
        lines = tuple(map(per_score.__getitem__, order))  # type: ignore[arg-type]  # every item an int here
    else:
        scale = comparisons if unit is _TOTAL and options.artificial_per_comparison else 1
        lines = tuple([per_score[e] if isinstance(e, int) else
                       ImpLine(Fraction(e.ns_imps) * scale, Fraction(e.ew_imps) * scale) for e in order])
    return _board(unit, results, comparisons, values, sums, lines)


# Read on every board as module constants: a member read off its Enum class costs about 0.17 us in Python 3.11.
_PER_COMPARISON, _TOTAL = CrossImpUnit.PER_COMPARISON, CrossImpUnit.TOTAL
_SLOTS = tuple(CrossImpBoard.__dict__[name].__set__
               for name in ("unit", "results", "comparisons", "scores", "score_totals", "lines"))


def _board(unit: CrossImpUnit, results: int, comparisons: int, scores: list[int], score_totals: list[int],
           lines: tuple[ImpLine, ...]) -> CrossImpBoard:
    """CrossImpBoard(...) through its slots' descriptors: the generated frozen __init__ (object.__setattr__ per
    field) costs about twice as much, a tenth of a club board's cross-IMPs."""
    board = object.__new__(CrossImpBoard)
    set_unit, set_results, set_comparisons, set_scores, set_totals, set_lines = _SLOTS
    set_unit(board, unit)
    set_results(board, results)
    set_comparisons(board, comparisons)
    set_scores(board, scores)
    set_totals(board, score_totals)
    set_lines(board, lines)
    return board


_LINES: dict[int, dict[int, ImpLine]] = {}  # divisor -> total -> line
# At most 8 divisors of 8,192 lines kept, 65,536 lines in all (a few MB): a session has one or two board sizes.
_DIVISORS_MAX = 8
_LINES_MAX = 8192


def _lines(divisor: int) -> dict[int, ImpLine]:
    """The lines kept for boards of one divisor (of one size): they share their few hundred values."""
    if len(_LINES) >= _DIVISORS_MAX:
        _LINES.clear()
    got: dict[int, ImpLine] = {}
    _LINES[divisor] = got
    return got


def _line(lines: dict[int, ImpLine], total: int, divisor: int) -> ImpLine:
    """The line of total/divisor IMPs, made once."""
    if len(lines) >= _LINES_MAX:
        lines.clear()
    ns = Fraction(total, divisor)
    got = lines[total] = ImpLine(ns, -ns)
    return got
