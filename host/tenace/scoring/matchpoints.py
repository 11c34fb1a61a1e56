"""Law 78A matchpoints for one board (comparisons, a common top, artificial and weighted scores), as published."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from operator import attrgetter, countOf, itemgetter
from typing import NamedTuple, overload

from tenace.scoring.model import EW, NS, Artificial, Average, BoardResult, NotPlayed, Played, Split, Weighted
from tenace.scoring.mp_options import DEFAULT_OPTIONS, BoardOptions, BoardPercent, Factoring, Units
from tenace.scoring.rounding import round_ratio


class SideKind(Enum):
    PLAYED = "played"
    ASSIGNED = "assigned"  # Law 12C1(c) weighted assigned score
    ARTIFICIAL = "artificial"  # Law 12C2


class SideScore(NamedTuple):
    """One side's score on one board: exact and as published, in the session's units.

    It names no pair (the table does: TableScore.ns_pair, ew_pair), so every table with the same figures shares
    one: a board of 10,000 results holds a few hundred, not 20,000. A named tuple rather than a frozen
    dataclass: one is built several times faster.
    """

    direction: str  # NS or EW
    exact: Fraction
    mp: Decimal
    percent: Decimal
    top: int
    kind: SideKind
    average: Average | None = None  # for Average artificial scores, which Law 12C2(c) may revise

    @property
    def exact_percent(self) -> Fraction:
        return self.exact * 100 / self.top if self.top else Fraction(50)


class TableScore(NamedTuple):
    """One table's result on a board and the scores of its two sides (a named tuple for speed, as SideScore)."""

    result: BoardResult
    ns: SideScore | None  # None: not played
    ew: SideScore | None

    @property
    def ns_pair(self) -> str:
        return self.result.ns_pair

    @property
    def ew_pair(self) -> str:
        return self.result.ew_pair


Sides = tuple[SideScore | None, SideScore | None]  # a table's NS and EW side; (None, None): not played
_NOT_PLAYED: Sides = (None, None)


class Tables(Sequence[TableScore]):
    """A board's tables as TableScores, each made when it is read from the board's two columns."""

    __slots__ = ("_figures", "_results")

    def __init__(self, results: tuple[BoardResult, ...], figures: tuple[Sides, ...]) -> None:
        self._results = results
        self._figures = figures

    def __len__(self) -> int:
        return len(self._results)

    @overload
    def __getitem__(self, i: int) -> TableScore: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[TableScore, ...]: ...

    def __getitem__(self, i: int | slice) -> TableScore | tuple[TableScore, ...]:
        if isinstance(i, slice):
            return tuple(map(_table, self._results[i], self._figures[i]))
        return _table(self._results[i], self._figures[i])

    def __iter__(self) -> Iterator[TableScore]:
        return map(_table, self._results, self._figures)


def _table(result: BoardResult, sides: Sides) -> TableScore:
    return _new_tuple(TableScore, (result, *sides))


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A board's results compared within its scope (a section, or the field) and brought to its top.

    Kept as two columns, the results and each one's sides, the sides shared by every table with the same figures
    (a board of 10,000 results holds two references per table and a few hundred SideScores, not 10,000 objects
    for the garbage collector to walk); `tables` reads them as TableScores.
    """

    section: str | None  # None when compared across sections
    board: int
    expected: int
    top: int
    results: tuple[BoardResult, ...]
    figures: tuple[Sides, ...]  # per result, in the same order

    @property
    def tables(self) -> Tables:
        return Tables(self.results, self.figures)

    def sides(self) -> Iterable[SideScore]:
        for ns, ew in self.figures:
            if ns is not None:
                yield ns
            if ew is not None:
                yield ew

    def pair_sides(self) -> Iterable[tuple[str, SideScore]]:
        """Each scored side with the pair that holds it."""
        for r, (ns, ew) in zip(self.results, self.figures, strict=True):
            if ns is not None:
                yield r.ns_pair, ns
            if ew is not None:
                yield r.ew_pair, ew


_set_section, _set_board, _set_expected, _set_top, _set_results, _set_figures = (
    BoardScore.__dict__[name].__set__ for name in ("section", "board", "expected", "top", "results", "figures"))


def _board_score(section: str | None, board: int, expected: int, top: int, results: tuple[BoardResult, ...],
                 figures: tuple[Sides, ...]) -> BoardScore:
    """BoardScore(...) through its slots' descriptors: the generated frozen __init__ (object.__setattr__ per
    field) costs about twice as much, a tenth of a club board."""
    score = object.__new__(BoardScore)
    _set_section(score, section)
    _set_board(score, board)
    _set_expected(score, expected)
    _set_top(score, top)
    _set_results(score, results)
    _set_figures(score, figures)
    return score


def _score_counts(scores: Collection[int]) -> Mapping[int, int]:
    """How many tables have each distinct score."""
    if len(scores) > 32:
        return Counter(scores)
    small: dict[int, int] = {}  # a club board: a plain dict counts faster than Counter's set-up
    for s in scores:
        small[s] = small.get(s, 0) + 1
    return small


def _mp1_by_score(scores: Sequence[int]) -> dict[int, int]:
    """MP1 of each distinct score: 2 per score below it, 1 per other equal score (integers, one sort of the
    distinct scores)."""
    counts = _score_counts(scores)
    out: dict[int, int] = {}
    twice_below_less_one = -1
    for s in sorted(counts):
        c = counts[s]
        out[s] = twice_below_less_one + c
        twice_below_less_one += 2 * c
    return out


def mp1_raw(scores: Sequence[int]) -> list[int]:
    """Law 78A in MP1 units: for each NS score, 2 per other score beaten and 1 per other score tied."""
    return list(map(_mp1_by_score(scores).__getitem__, scores))


def weighted_raw(tables: Sequence[Sequence[tuple[Fraction, int]]]) -> list[Fraction]:
    """Law 78A with Law 12C1(c) weighted scores: each component is compared with every other table's
    components, each comparison counting the product of the weights; a table is never compared with itself."""
    total: dict[int, Fraction] = {}
    for comps in tables:
        for w, s in comps:
            total[s] = total.get(s, Fraction(0)) + w
    below: dict[int, Fraction] = {}
    acc = Fraction(0)
    for s in sorted(total):
        below[s] = acc
        acc += total[s]
    out = []
    for comps in tables:
        raw = Fraction(0)
        for w, s in comps:
            own_below = sum((v for v, c in comps if c < s), Fraction(0))
            own_at = sum((v for v, c in comps if c == s), Fraction(0))
            raw += w * (2 * (below[s] - own_below) + (total[s] - own_at))
        out.append(raw)
    return out


def factor(raw: Fraction | int, n: int, expected: int, method: Factoring) -> Fraction:
    """MP1 matchpoints `raw` out of n comparable scores, brought to the top 2(expected-1)."""
    if method is Factoring.NONE or n == expected:
        return Fraction(raw)
    if method is Factoring.NEUBERG:
        return (raw + 1) * Fraction(expected, n) - 1
    if n == 1:  # nothing to compare with: the average of the common top
        return Fraction(expected - 1)
    return raw * Fraction(expected - 1, n - 1)


def _factored(raw: Fraction | int, n: int, expected: int, method: Factoring) -> tuple[int, int]:
    """factor() as a numerator and a positive denominator, on integers when `raw` is one (a played board)."""
    if type(raw) is not int:
        x = factor(raw, n, expected, method)
        return x.numerator, x.denominator
    if method is _NO_FACTORING or n == expected:
        return raw, 1
    if method is _NEUBERG:
        return (raw + 1) * expected - n, n
    if n == 1:
        return expected - 1, 1
    return raw * (expected - 1), n - 1


# Members read on the hot paths as module constants: reading one off its Enum class costs about 0.17 us (3.11).
_NO_FACTORING, _NEUBERG = Factoring.NONE, Factoring.NEUBERG
_OF_RESULTS = BoardPercent.RESULTS
_PLAYED = SideKind.PLAYED

_Sides = tuple[SideScore, SideScore]  # NS, EW, both scored


class _Publisher:
    """Rounds a board's exact MPs once per distinct value (ties share one rounding), on integers."""

    def __init__(self, top: int, options: BoardOptions) -> None:
        self.top = top
        self.o = options
        # Keyed by numerator and denominator: a Fraction's hash (a modular inverse) costs ten times a pair's.
        self.memo: dict[tuple[int, int], tuple[Decimal, Decimal]] = {}

    def __call__(self, exact: Fraction) -> tuple[Decimal, Decimal]:
        key = num, den = exact.numerator, exact.denominator
        got = self.memo.get(key)
        if got is None:
            o = self.o
            mp = published_mp(num, den, o)
            if o.board_percent_from_published_mp:
                num, den = mp.as_integer_ratio()
            if o.board_percent is _OF_RESULTS:  # (MP + 1) / (top + 2) in MP1 units, (MP + 1/2) / (top + 1) in NA
                if o.units is Units.NORTH_AMERICAN:
                    pct = round_ratio((2 * num + den) * 100, 2 * den * (self.top + 1), o.board_percent_decimals,
                                      o.rounding)
                else:
                    pct = round_ratio((num + den) * 100, den * (self.top + 2), o.board_percent_decimals, o.rounding)
            elif self.top:
                pct = round_ratio(num * 100, den * self.top, o.board_percent_decimals, o.rounding)
            else:
                pct = round_ratio(50, 1, o.board_percent_decimals, o.rounding)
            got = self.memo[key] = (mp, pct)
        return got


def published_mp(num: int, den: int, options: BoardOptions) -> Decimal:
    """A side's exact MPs num/den (den > 0) as a board publishes them."""
    return round_ratio(num, den, options.board_mp_decimals, options.rounding)


def published(exact: Fraction, top: int, options: BoardOptions) -> tuple[Decimal, Decimal]:
    """A side's exact MPs on a board of `top` as the options publish them: (MPs, percentage)."""
    return _Publisher(top, options)(exact)


@dataclass(slots=True)
class _SideFigures:
    """What every distinct comparison result of one board is turned into: its two sides' figures."""

    n_expected: int
    top1: int  # the top in MP1 units
    half: bool
    method: Factoring
    publish: _Publisher

    def sides(self, raw: Fraction | int, n: int, kind: SideKind) -> _Sides:
        num, den = _factored(raw, n, self.n_expected, self.method)
        ew_num = self.top1 * den - num
        if self.half:
            den *= 2
        x_ns, x_ew = Fraction(num, den), Fraction(ew_num, den)
        publish = self.publish
        top = publish.top
        # SideScore(...) through tuple.__new__: the named tuple's generated __new__ costs five times as much
        return (_new_tuple(SideScore, (NS, x_ns, *publish(x_ns), top, kind, None)),
                _new_tuple(SideScore, (EW, x_ew, *publish(x_ew), top, kind, None)))


_board_of = attrgetter("board")
_new_tuple = tuple.__new__

# The figures of a plain played board, per raw MP1 score, kept across boards: a session's boards share their
# size, so each distinct (options, results, expected) computes and rounds each raw score once. Keyed by the
# options' id (hashing a dataclass costs more than the figures); the options are kept, so the id stays theirs.
_PLAYED_FIGURES: dict[tuple[int, int, int], tuple[BoardOptions, _SideFigures, dict[int, _Sides]]] = {}
_PLAYED_FIGURES_MAX = 1024


def _side_figures(options: BoardOptions, fouled: bool, compared: int, expected: int) -> _SideFigures:
    """A board's top and factoring: `compared` results (all groups), brought to `expected`."""
    method = options.fouled_factoring if fouled else options.factoring
    # MP1 units; NONE has one group here
    top1 = 2 * max(compared - 1, 0) if method is Factoring.NONE else 2 * (expected - 1)
    half = options.units is Units.NORTH_AMERICAN
    top = top1 // 2 if half else top1
    return _SideFigures(expected, top1, half, method, _Publisher(top, options))


def _check_entries(results: Sequence[BoardResult], board: int) -> None:
    """One board, and each pair at most once on it (a count and a set size first; the slow walk only names the
    culprit)."""
    if countOf(map(_board_of, results), board) != len(results):
        for r in results:
            if r.board != board:
                raise ValueError(f"board {r.board} mixed into the results of board {board}")
    _check_pairs(results, board)


def _check_pairs(results: Sequence[BoardResult], board: int) -> None:
    """Each pair at most once on the board: set sizes first (comprehensions, faster than attrgetters on slots), the
    slow walk only to name the culprit. Two sets of n and a disjointness test cost a tenth less than one set of 2n
    at 10,000 results (smaller tables, the test reads the stored hashes)."""
    ns = {r.ns_pair for r in results}
    ew = {r.ew_pair for r in results}
    if len(ns) + len(ew) != 2 * len(results) or not ns.isdisjoint(ew):
        seen: set[str] = set()
        for r in results:
            if r.ns_pair in seen or r.ew_pair in seen:
                raise ValueError(f"board {board}: pair {r.ns_pair if r.ns_pair in seen else r.ew_pair} has two "
                                 "results")
            seen.add(r.ns_pair)
            seen.add(r.ew_pair)


# Up to this many results a board's distinct scores are walked on its sorted scores (one sort, one bisection per
# distinct score); above, on counts, which cost less than sorting a bigger field (measured on 26 realistic boards:
# 2.7 against 3.7 us a board at 10 results, 7.2 against 10.4 at 48, about even at 100, 127 against 104 at 1,000).
SORTED_WALK_MAX = 64


def _played_figures(scores: Collection[int], figures: _SideFigures, memo: dict[int, _Sides]) -> tuple[Sides, ...]:
    """Each table's sides on a board of plain played scores: the figures of each distinct raw score (from `memo`,
    which keeps them across boards), then one reference per table to those of its score."""
    n = len(scores)
    by_score: dict[int, _Sides] = {}
    kept = memo.get
    if n <= SORTED_WALK_MAX:
        ordered = sorted(scores)
        i = 0
        while i < n:
            s = ordered[i]
            j = bisect_right(ordered, s, i)  # scores i to j-1 equal s
            raw = i + j - 1  # MP1: 2 per score below (i), 1 per other equal one (j - i - 1)
            got = kept(raw)
            if got is None:
                got = memo[raw] = figures.sides(raw, n, _PLAYED)
            by_score[s] = got
            i = j
    else:
        counts = _score_counts(scores)
        twice_below_less_one = -1  # _mp1_by_score's walk, the figures looked up in the same pass
        for s in sorted(counts):
            c = counts[s]
            raw = twice_below_less_one + c
            twice_below_less_one += 2 * c
            got = kept(raw)
            if got is None:
                got = memo[raw] = figures.sides(raw, n, _PLAYED)
            by_score[s] = got
    if n < 2:  # itemgetter of one key returns the value itself, not a 1-tuple
        return tuple(map(by_score.__getitem__, scores))
    # itemgetter looks every key up in C and builds the tuple at once: a third less than tuple(map(...)) per table
    return itemgetter(*scores)(by_score)  # type: ignore[no-any-return]


def matchpoint_board(
    results: Sequence[BoardResult],
    options: BoardOptions = DEFAULT_OPTIONS,
    expected: int | None = None,
    section: str | None = None,
) -> BoardScore:
    """Score one board's results (all of one comparison scope) by Law 78A, 12C1(c), 12C2 and 87.

    Artificial and not-played entries take no part in the comparisons: the others are factored as if
    the board had been played fewer times. `expected` is E, the scores the top is set for (default:
    the number of entries). Law 87 groups are matchpointed separately, each scaled to the same top.
    """
    if not results:
        raise ValueError("a board needs at least one result to score")
    board = results[0].board
    n = len(results)
    e = expected if expected is not None else n
    # The scores of a plain played board in one pass (a comprehension reads the slots faster than attrgetters),
    # keyed by the NS pair so that the same pass checks that no NS pair has two results (the dict keeps the
    # results' order): only Played has an ns_score (AttributeError otherwise), and a result of another board, in a
    # Law 87 group or of an NS pair already seen is left out, so a smaller dict sends the board to the general
    # path, whose _check_entries names the culprit.
    try:
        by_ns: dict[str, int] | None = {r.ns_pair: r.outcome.ns_score for r in results  # type: ignore[union-attr]
                                        if r.board == board and r.fouled_group is None}
    except AttributeError:  # an outcome other than Played
        by_ns = None
    if by_ns is not None and len(by_ns) == n:
        ew = {r.ew_pair for r in results}
        if len(ew) != n or not ew.isdisjoint(by_ns):
            _check_pairs(results, board)  # raises, naming the pair
        scores = by_ns.values()
        # Every result a plain played score in one group: one figure pair per distinct raw score (kept across
        # boards, with the board's figures), then one reference per table.
        key = (id(options), n, e)
        entry = _PLAYED_FIGURES.get(key)
        if entry is None or entry[0] is not options:
            if len(_PLAYED_FIGURES) >= _PLAYED_FIGURES_MAX:
                _PLAYED_FIGURES.clear()
            entry = _PLAYED_FIGURES[key] = (options, _side_figures(options, False, n, e), {})
        return _board_score(section, board, e, entry[1].publish.top, tuple(results),
                            _played_figures(scores, entry[1], entry[2]))

    _check_entries(results, board)
    if any(type(r.outcome) is Split for r in results):
        return _split_board(results, options, e, section)
    outcomes = [r.outcome for r in results]

    # Results compared with each other, by Law 87 group: played and weighted ones only.
    groups: dict[str | None, list[int]] = {}
    for i, r in enumerate(results):
        if isinstance(r.outcome, Played | Weighted):
            groups.setdefault(r.fouled_group, []).append(i)
    figures = _side_figures(options, len(groups) > 1, sum(len(g) for g in groups.values()), e)
    publish = figures.publish
    top = publish.top

    # Per table: the figures of both sides, computed once per distinct raw score and kind.
    per_table: dict[int, _Sides] = {}
    for members in groups.values():
        n = len(members)
        group = [outcomes[i] for i in members]
        if all(type(o) is Played for o in group):
            mp1 = _mp1_by_score([o.ns_score for o in group if isinstance(o, Played)])
            by_score = {s: figures.sides(raw, n, _PLAYED) for s, raw in mp1.items()}
            for i, o in zip(members, group, strict=True):
                assert isinstance(o, Played)
                per_table[i] = by_score[o.ns_score]
            continue
        raws = weighted_raw([((Fraction(1), o.ns_score),) if isinstance(o, Played) else o.components
                             for o in group if isinstance(o, Played | Weighted)])
        by_raw: dict[tuple[Fraction, SideKind], _Sides] = {}
        for i, o, raw in zip(members, group, raws, strict=True):
            kind = SideKind.PLAYED if type(o) is Played else SideKind.ASSIGNED
            sides = by_raw.get((raw, kind))
            if sides is None:
                sides = by_raw[raw, kind] = figures.sides(raw, n, kind)
            per_table[i] = sides

    column: list[Sides] = []
    for i, out in enumerate(outcomes):
        f = per_table.get(i)
        if f is not None:
            column.append(f)
        elif isinstance(out, Artificial):
            column.append((artificial_side(NS, out.ns, top, options, publish),
                          artificial_side(EW, out.ew, top, options, publish)))
        else:
            assert isinstance(out, NotPlayed)
            column.append(_NOT_PLAYED)
    return _board_score(section, board, e, top, tuple(results), tuple(column))


def _split_board(results: Sequence[BoardResult], options: BoardOptions, expected: int,
                 section: str | None) -> BoardScore:
    """A board with Law 12C1(b) split scores: matchpointed with each split table's NS score for the North-South
    sides, and again with its EW score for the East-West sides (each field compared on the score its side got)."""
    ns = matchpoint_board([_side_view(r, NS) for r in results], options, expected, section)
    ew = matchpoint_board([_side_view(r, EW) for r in results], options, expected, section)
    figures = tuple((n, w) for (n, _), (_, w) in zip(ns.figures, ew.figures, strict=True))
    return _board_score(section, ns.board, ns.expected, ns.top, tuple(results), figures)


def _side_view(r: BoardResult, direction: str) -> BoardResult:
    """The result as one side's field sees it: a split score is that side's assigned score, others are as they are."""
    if type(r.outcome) is not Split:
        return r
    return replace(r, outcome=r.outcome.ns if direction == NS else r.outcome.ew)


def artificial_side(
    direction: str,
    side: Average | Fraction,
    top: int,
    options: BoardOptions,
    publish: _Publisher | None = None,
    percent: Fraction | None = None,
) -> SideScore:
    """Law 12C2: a share of the board's top (`percent` overrides the average's, for Law 12C2(c))."""
    if percent is None:
        percent = options.average_percent(side) if isinstance(side, Average) else side
    exact = percent * top / 100
    pub = publish or _Publisher(top, options)
    mp, pct = pub(exact)
    if options.board_percent is _OF_RESULTS:  # the share given is the percentage, not a place among the results
        pct = round_ratio(percent.numerator, percent.denominator, options.board_percent_decimals,
                          options.rounding)
    return SideScore(direction, exact, mp, pct, top, SideKind.ARTIFICIAL,
                     side if isinstance(side, Average) else None)
