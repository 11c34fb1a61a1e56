"""Law 78A matchpoints for one board: comparisons, factoring to a common top, artificial and weighted scores."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction

from tenace.scoring.model import EW, NS, Artificial, Average, BoardResult, NotPlayed, Played, Weighted
from tenace.scoring.ranking import FieldMode, Tiebreak
from tenace.scoring.rounding import Rounding, round_fraction


class Units(Enum):
    """Law 78A scoring units."""

    MP1 = "MP1"  # international: 2 per score beaten, 1 per tie; top 2(N-1)
    NORTH_AMERICAN = "NA"  # ACBL: 1 per score beaten, 1/2 per tie; top N-1


class Factoring(Enum):
    """How a board scored N times is brought to the common top of E expected scores."""

    NONE = "none"  # raw matchpoints; the board keeps its own top 2(N-1)
    NEUBERG = "neuberg"  # M' = (M+1)E/N - 1 in MP1 units; in NA units M' = (M+1/2)E/N - 1/2
    RATIO = "ratio"  # simple scaling M' = M(E-1)/(N-1) (old programs, and the ACBL before Neuberg)


class SideKind(Enum):
    PLAYED = "played"
    ASSIGNED = "assigned"  # Law 12C1(c) weighted assigned score
    ARTIFICIAL = "artificial"  # Law 12C2


@dataclass(frozen=True, slots=True)
class MatchpointOptions:
    """Every choice a TD may need to reproduce another program's figures. Percentages are 0-100.

    Rounding: board MPs, board percentages, totals and total percentages each have their number of
    decimals; `total_from_published_boards` adds the published (rounded) board MPs as Magic Contest
    does, or else adds the exact values and rounds only the total.
    """

    units: Units = Units.MP1
    factoring: Factoring = Factoring.NEUBERG
    fouled_factoring: Factoring = Factoring.NEUBERG  # Law 87 groups are always brought to the common top
    expected_results: int | None = None  # E; None: the most entries any board has in its comparison
    across_sections: bool = False  # compare a board across all sections (one common top)
    average_plus: Fraction = Fraction(60)
    average: Fraction = Fraction(50)
    average_minus: Fraction = Fraction(40)
    law_12c2c: bool = True  # own session percentage beyond 60% (A+) or below 40% (A-)
    rounding: Rounding = Rounding.HALF_UP
    board_mp_decimals: int = 2
    board_percent_decimals: int = 2
    board_percent_from_published_mp: bool = False
    total_mp_decimals: int = 2
    total_percent_decimals: int = 2
    total_from_published_boards: bool = True
    fields: FieldMode = FieldMode.AUTO
    rank_by_section: bool = False
    rank_on_exact: bool = False  # rank on unrounded totals instead of the published ones
    tiebreak: Tiebreak = Tiebreak.NONE

    def __post_init__(self) -> None:
        for name in ("board_mp_decimals", "board_percent_decimals", "total_mp_decimals", "total_percent_decimals"):
            if not 0 <= getattr(self, name) <= 10:
                raise ValueError(f"{name} must be 0 to 10")
        if not self.average_minus <= self.average <= self.average_plus:
            raise ValueError("averages must be ordered: average-minus <= average <= average-plus")
        if self.expected_results is not None and self.expected_results < 1:
            raise ValueError("expected_results must be 1 or more")

    def average_percent(self, average: Average) -> Fraction:
        if average is Average.PLUS:
            return self.average_plus
        if average is Average.MINUS:
            return self.average_minus
        return self.average


DEFAULT_OPTIONS = MatchpointOptions()

# Magic Contest as exported for the FFB: board MPs to 0.1, board percentages whole, totals to 0.1 from the
# published board MPs, session percentages to 0.01, ties broken by the pairs' own meetings.
MAGIC_CONTEST_FFB = MatchpointOptions(
    board_mp_decimals=1,
    board_percent_decimals=0,
    total_mp_decimals=1,
    total_percent_decimals=2,
    tiebreak=Tiebreak.HEAD_TO_HEAD,
)


@dataclass(frozen=True, slots=True)
class SideScore:
    """One pair's score on one board: exact and as published, in the session's units."""

    pair: str
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


@dataclass(frozen=True, slots=True)
class TableScore:
    result: BoardResult
    ns: SideScore | None  # None: not played
    ew: SideScore | None


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A board's results compared within its scope (a section, or the field) and brought to its top."""

    section: str | None  # None when compared across sections
    board: int
    expected: int
    top: int
    tables: tuple[TableScore, ...]

    def sides(self) -> Iterable[SideScore]:
        for t in self.tables:
            if t.ns is not None:
                yield t.ns
            if t.ew is not None:
                yield t.ew


def mp1_raw(scores: Sequence[int]) -> list[int]:
    """Law 78A in MP1 units: for each NS score, 2 per other score beaten and 1 per other score tied."""
    counts = Counter(scores)
    below: dict[int, int] = {}
    seen = 0
    for s in sorted(counts):
        below[s] = seen
        seen += counts[s]
    return [2 * below[s] + counts[s] - 1 for s in scores]


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


_Figures = tuple[Fraction, Decimal, Decimal, Fraction, Decimal, Decimal]  # NS exact, MP, %; EW exact, MP, %


class _Publisher:
    """Rounds a board's exact MPs once per distinct value (ties share one rounding)."""

    def __init__(self, top: int, options: MatchpointOptions) -> None:
        self.top = top
        self.o = options
        self.memo: dict[Fraction, tuple[Decimal, Decimal]] = {}

    def __call__(self, exact: Fraction) -> tuple[Decimal, Decimal]:
        got = self.memo.get(exact)
        if got is None:
            o = self.o
            mp = round_fraction(exact, o.board_mp_decimals, o.rounding)
            base = Fraction(mp) if o.board_percent_from_published_mp else exact
            pct = round_fraction(base * 100 / self.top if self.top else Fraction(50), o.board_percent_decimals,
                                 o.rounding)
            got = self.memo[exact] = (mp, pct)
        return got


def matchpoint_board(
    results: Sequence[BoardResult],
    options: MatchpointOptions = DEFAULT_OPTIONS,
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
    e = expected if expected is not None else len(results)
    half = options.units is Units.NORTH_AMERICAN
    groups: dict[str | None, list[int]] = {}
    for i, r in enumerate(results):
        if r.board != board:
            raise ValueError(f"board {r.board} mixed into the results of board {board}")
        if isinstance(r.outcome, Played | Weighted):
            groups.setdefault(r.fouled_group, []).append(i)
    fouled = len(groups) > 1
    method = options.fouled_factoring if fouled else options.factoring
    if method is Factoring.NONE:
        n_all = sum(len(g) for g in groups.values())
        top1 = 2 * max(n_all - 1, 0)  # MP1 units; NONE has one group here
    else:
        top1 = 2 * (e - 1)
    top = top1 // 2 if half else top1
    publish = _Publisher(top, options)

    # Per table: the exact and published figures of both sides, computed once per distinct raw score.
    figures: dict[int, _Figures] = {}
    for members in groups.values():
        n = len(members)
        outcomes = [results[i].outcome for i in members]
        raws: list[Fraction | int]
        if all(type(o) is Played for o in outcomes):
            raws = [*mp1_raw([o.ns_score for o in outcomes if isinstance(o, Played)])]
        else:
            raws = [*weighted_raw([((Fraction(1), o.ns_score),) if isinstance(o, Played) else o.components
                                 for o in outcomes if isinstance(o, Played | Weighted)])]
        memo: dict[Fraction | int, _Figures] = {}
        for i, raw in zip(members, raws, strict=True):
            got = memo.get(raw)
            if got is None:
                x_ns = factor(raw, n, e, method)
                x_ew = top1 - x_ns
                if half:
                    x_ns, x_ew = x_ns / 2, x_ew / 2
                got = memo[raw] = (x_ns, *publish(x_ns), x_ew, *publish(x_ew))
            figures[i] = got

    tables = []
    seen: set[str] = set()
    for i, r in enumerate(results):
        out = r.outcome
        ns: SideScore | None = None
        ew: SideScore | None = None
        if r.ns_pair in seen or r.ew_pair in seen:
            raise ValueError(f"board {board}: pair {r.ns_pair if r.ns_pair in seen else r.ew_pair} has two results")
        seen.add(r.ns_pair)
        seen.add(r.ew_pair)
        f = figures.get(i)
        if f is not None:
            kind = SideKind.PLAYED if type(out) is Played else SideKind.ASSIGNED
            ns = SideScore(r.ns_pair, NS, f[0], f[1], f[2], top, kind)
            ew = SideScore(r.ew_pair, EW, f[3], f[4], f[5], top, kind)
        elif isinstance(out, Artificial):
            ns = artificial_side(r.ns_pair, NS, out.ns, top, options, publish)
            ew = artificial_side(r.ew_pair, EW, out.ew, top, options, publish)
        else:
            assert isinstance(out, NotPlayed)
        tables.append(TableScore(r, ns, ew))
    return BoardScore(section, board, e, top, tuple(tables))


def artificial_side(
    pair: str,
    direction: str,
    side: Average | Fraction,
    top: int,
    options: MatchpointOptions,
    publish: _Publisher | None = None,
    percent: Fraction | None = None,
) -> SideScore:
    """Law 12C2: a share of the board's top (`percent` overrides the average's, for Law 12C2(c))."""
    if percent is None:
        percent = options.average_percent(side) if isinstance(side, Average) else side
    exact = percent * top / 100
    pub = publish or _Publisher(top, options)
    mp, pct = pub(exact)
    return SideScore(pair, direction, exact, mp, pct, top, SideKind.ARTIFICIAL,
                     side if isinstance(side, Average) else None)
