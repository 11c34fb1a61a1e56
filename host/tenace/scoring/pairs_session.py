"""A matchpoint pairs session: boards, Law 12C2(c), Law 90 penalties, totals and ranks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from math import lcm
from typing import Protocol, TypeVar

from tenace.scoring.adjusted import revised_percent
from tenace.scoring.matchpoints import BoardScore, SideKind, SideScore, artificial_side, matchpoint_board
from tenace.scoring.model import EW, NS, BoardResult, Penalty, PenaltyUnit
from tenace.scoring.mp_options import DEFAULT_OPTIONS, BoardOptions, MatchpointOptions, RankingOptions, UnequalBoards
from tenace.scoring.ranking import FieldMode, HeadToHead, Placing, Tiebreak, rank_field
from tenace.scoring.rounding import round_ratio

BoardKey = tuple[str | None, int]  # (section compared in, or None across sections; board number)
EntryKey = tuple[str, int, int, int]  # (section, table, round, board)


@dataclass(frozen=True, slots=True)
class PairTotal:
    """A pair's session result. MPs in the session's units; `top` is the sum of the tops it scored on."""

    pair: str
    section: str
    directions: frozenset[str]
    boards: int  # boards with a score: played, assigned or artificial
    top: int
    exact: Fraction  # after penalties
    mp: Decimal  # as published, after penalties
    percent: Decimal
    penalty: Fraction  # MPs taken off by Law 90 penalties


@dataclass(frozen=True)
class SessionScore:
    options: MatchpointOptions
    boards: tuple[BoardScore, ...]
    totals: dict[str, PairTotal]
    ranking: tuple[Placing, ...]  # field by field, best first
    # Law 12C2(c) sides held in the totals but not on the boards, by (board key, contestant): an individual's
    # players, whose partners on the board may keep the average.
    revised: dict[tuple[BoardKey, str], SideScore] = field(default_factory=dict)
    _placings: dict[str, Placing] = field(default_factory=dict, repr=False, compare=False)

    def placing(self, pair: str) -> Placing:
        if not self._placings:
            self._placings.update((p.pair, p) for p in self.ranking)
        return self._placings[pair]

    def board(self, board: int, section: str | None = None) -> BoardScore:
        """A board's score; `section` may be left out when only one section holds that board."""
        found = [b for b in self.boards if b.board == board and (section is None or b.section == section)]
        if len(found) != 1:
            where = f" in section {section}" if section is not None else ""
            raise KeyError(f"board {board}{where}: {'several sections hold it' if found else 'not scored'}")
        return found[0]


class PairSums:
    """Sums of one pair (in an individual, one player) over the session's boards (numerators by denominator: no
    Fraction adds)."""

    __slots__ = ("artificial", "boards", "directions", "num", "pub", "section", "shift", "top", "versus")

    def __init__(self, section: str) -> None:
        self.section = section
        self.num: dict[int, int] = {}  # denominator -> numerators of exact MPs on real boards
        self.pub = _ZERO  # published MPs on real (played or assigned) boards
        self.shift = Fraction(0)  # what the published total adds to the exact MPs (total_factored_as_percent)
        self.top = 0
        self.boards = 0
        self.directions: set[str] = set()
        self.artificial: dict[BoardKey, SideScore] = {}  # resolved last: Law 12C2(c) needs the rest
        # Published MPs scored against each opponent: the head-to-head record.
        self.versus: dict[str, Decimal] = {}

    def add(self, key: BoardKey, side: SideScore, opponent: str, as_percent: bool = False) -> None:
        """Count a side; `as_percent`: in the published total, by its published percentage of the top."""
        self.boards += 1
        self.directions.add(side.direction)
        if side.kind is SideKind.ARTIFICIAL:
            self.artificial[key] = side
            return
        if as_percent:
            self.shift += Fraction(side.percent) * side.top / 100 - side.exact
        d = side.exact.denominator
        self.num[d] = self.num.get(d, 0) + side.exact.numerator
        self.pub += side.mp
        self.top += side.top
        self.versus[opponent] = self.versus.get(opponent, _ZERO) + side.mp

    def exact(self) -> Fraction:
        if len(self.num) == 1:  # one denominator (a field of one size): no common one to find
            (d, n), = self.num.items()
            return Fraction(n, d)
        common = lcm(*self.num) if self.num else 1
        return Fraction(sum(n * (common // d) for d, n in self.num.items()), common)


_ZERO = Decimal(0)
_NO_PENALTY = Fraction(0)  # shared: a Fraction is immutable, and making one costs a microsecond a pair
_FIFTY = Decimal(50)  # a pair's percentage with no top yet


def score_pairs_session(
    results: Iterable[BoardResult],
    options: MatchpointOptions = DEFAULT_OPTIONS,
    penalties: Iterable[Penalty] = (),
) -> SessionScore:
    """Matchpoint a whole pairs session from its raw results: every board, Law 12C2(c), Law 90, totals and ranks.

    A later result of the same section, table, round and board replaces an earlier one.
    """
    o = options
    entries: dict[BoardKey, dict[EntryKey, BoardResult]] = {}
    pair_section: dict[str, str] = {}  # a pair's section: that of its first result
    for r in results:
        key: BoardKey = (None if o.across_sections else r.section, r.board)
        entries.setdefault(key, {})[(r.section, r.table, r.round, r.board)] = r
        pair_section.setdefault(r.ns_pair, r.section)
        pair_section.setdefault(r.ew_pair, r.section)
    # E per scope: the option, else the most entries any board of the scope has.
    expected: dict[str | None, int] = {}
    for (scope, _), board_entries in entries.items():
        expected[scope] = o.expected_results or max(expected.get(scope, 0), len(board_entries))

    scores: dict[BoardKey, BoardScore] = {}
    averages: dict[BoardKey, list[tuple[int, str]]] = {}  # (table index, NS/EW) holding an Average
    pairs: dict[str, PairSums] = {}
    for key in sorted(entries, key=_key_order):
        board = scores[key] = matchpoint_board(list(entries[key].values()), o, expected[key[0]], key[0])
        where = [(i, side.direction) for i, (ns, ew) in enumerate(board.figures) if ns is not None
                 for side in (ns, ew) if side is not None and side.average is not None]
        if where:
            averages[key] = where
        as_percent = o.total_factored_as_percent and _factored(board)
        for r, (ns, ew) in zip(board.results, board.figures, strict=True):
            if ns is None or ew is None:  # not played: the board counts for neither pair
                continue
            for pair, side, opponent in ((r.ns_pair, ns, r.ew_pair), (r.ew_pair, ew, r.ns_pair)):
                acc = pairs.get(pair)
                if acc is None:
                    acc = pairs[pair] = PairSums(pair_section[pair])
                acc.add(key, side, opponent, as_percent)

    revised = revisions(pairs, o)
    boards = [_with_revisions(b, key, averages[key], revised) if revised and key in averages else b
              for key, b in scores.items()]
    penalty = _penalties(boards, list(penalties))
    field_top = _field_tops(pairs, o) if o.unequal_boards is UnequalBoards.FIELD else {}
    totals = {p: pair_total(p, a, revised, penalty.get(p), o, field_top.get(p)) for p, a in pairs.items()}

    def head_to_head(a: str, b: str) -> Fraction | None:
        got = pairs[a].versus.get(b)
        return None if got is None else Fraction(got)

    ranking = rank_session(totals, head_to_head, o)
    return SessionScore(o, tuple(boards), totals, tuple(ranking))


def _field_tops(pairs: Mapping[str, PairSums], o: RankingOptions) -> dict[str, int]:
    """UnequalBoards.FIELD: each pair's total is brought to the most top a pair of its field scored on."""
    tops = {p: a.top + sum(side.top for side in a.artificial.values()) for p, a in pairs.items()}
    out: dict[str, int] = {}
    for members in fields_of(pairs, o).values():
        most = max(tops[p] for p in members)
        out.update((p, most) for p in members)
    return out


def _factored(board: BoardScore) -> bool:
    """Whether the board's played results were brought to a top other than their own (fewer than E of them)."""
    played = sum(1 for ns, _ in board.figures if ns is not None and ns.kind is not SideKind.ARTIFICIAL)
    return played != board.expected


def revisions(sums: Mapping[str, PairSums], o: BoardOptions) -> dict[tuple[BoardKey, str], SideScore]:
    """Law 12C2(c): the average-plus/minus sides that the contestant's own session percentage replaces."""
    out: dict[tuple[BoardKey, str], SideScore] = {}
    if not o.law_12c2c:
        return out
    for who, acc in sums.items():
        averages = [(key, side) for key, side in acc.artificial.items() if side.average is not None]
        if not averages:
            continue
        own = own_percent(acc.exact(), acc.top)
        for key, side in averages:
            assert side.average is not None
            pct = revised_percent(side, own, o)
            if pct is not None:
                out[key, who] = artificial_side(side.direction, side.average, side.top, o, percent=pct)
    return out


def own_percent(mps: Fraction, top: int) -> Fraction | None:
    """Law 12C2(c): a contestant's own session percentage, its MPs over the tops of the boards it played (its
    artificial ones aside); None without such a board."""
    return mps * 100 / top if top else None


def _penalties(boards: Iterable[BoardScore], penalties: Iterable[Penalty]) -> dict[str, Fraction]:
    """Law 90: each penalty in MPs of the session's units, by pair."""
    penalties = list(penalties)
    if not penalties:
        return {}
    boards = list(boards)
    common_top = max((b.top for b in boards), default=0)
    tops = {(pair, b.board): s.top for b in boards for pair, s in b.pair_sides()}
    out: dict[str, Fraction] = {}
    for pen in penalties:
        top = tops.get((pen.pair, pen.board), common_top) if pen.board is not None else common_top
        out[pen.pair] = out.get(pen.pair, Fraction(0)) + penalty_mps(pen, top)
    return out


def penalty_mps(pen: Penalty, top: int) -> Fraction:
    """A Law 90 penalty in MPs: as given, or its percentage of `top` (its board's, else the session's)."""
    return pen.amount if pen.unit is PenaltyUnit.MATCHPOINTS else pen.amount * top / 100


def pair_total(p: str, a: PairSums, revised: Mapping[tuple[BoardKey, str], SideScore], taken: Fraction | None,
           o: RankingOptions, field_top: int | None = None) -> PairTotal:
    """The pair's total and percentage as the options publish them; `field_top` is the top its total is brought
    to (UnequalBoards.FIELD), None to add its boards as they are."""
    exact, pub, top = a.exact(), a.pub, a.top
    for key, side in a.artificial.items():
        side = revised.get((key, p), side)
        exact += side.exact
        pub += side.mp
        top += side.top
    return published_total(p, a.section, frozenset(a.directions), a.boards, top, exact, pub, taken, o, field_top,
                           a.shift)


def published_total(p: str, section: str, directions: frozenset[str], boards: int, top: int, exact: Fraction,
                    pub: Decimal, taken: Fraction | None, o: RankingOptions, field_top: int | None = None,
                    shift: Fraction = _NO_PENALTY) -> PairTotal:
    """A pair's total and percentage as the options publish them, from its sums over its boards (every side's
    exact and published MPs, tops added; `shift` see PairSums) and its Law 90 penalties `taken`: pair_total's, and
    the hub's for a pair it sums itself (tenace.hub.scorer)."""
    if taken:
        exact -= taken
    to = field_top if field_top and top and field_top != top else 0  # the top the total is prorated to
    if o.total_from_published_boards:
        n, d = pub.as_integer_ratio()
        if taken:
            n, d = n * taken.denominator - taken.numerator * d, d * taken.denominator
        if to:
            n, d = n * to, d * top
        mp = round_ratio(n, d, o.total_mp_decimals, o.rounding)
        n, d = mp.as_integer_ratio()  # the session percentage of the published total, over the top it is out of
        if to:
            n, d = n * top, d * to
    else:
        shown = exact + shift if shift else exact  # total_factored_as_percent: the published % of factored boards
        if to:
            shown = shown * to / top
        mp = round_ratio(shown.numerator, shown.denominator, o.total_mp_decimals, o.rounding)
        n, d = exact.numerator, exact.denominator
    percent = round_ratio(n * 100, d * top, o.total_percent_decimals, o.rounding) if top else _FIFTY
    return PairTotal(p, section, directions, boards, top, exact, mp, percent, taken or _NO_PENALTY)


def _with_revisions(board: BoardScore, key: BoardKey, where: Iterable[tuple[int, str]],
                    revised: Mapping[tuple[BoardKey, str], SideScore]) -> BoardScore:
    """The board with its Law 12C2(c) sides in place of the averages (unchanged if none is revised)."""
    figures = list(board.figures)
    changed = False
    for i, direction in where:
        r, (ns, ew) = board.results[i], figures[i]
        pair, side = (r.ns_pair, ns) if direction == NS else (r.ew_pair, ew)
        new = revised.get((key, pair)) if side is not None else None
        if new is not None:
            figures[i] = (new, ew) if direction == NS else (ns, new)
            changed = True
    return replace(board, figures=tuple(figures)) if changed else board


def _key_order(key: BoardKey) -> tuple[str, int]:
    scope, board = key
    return (scope or "", board)


_Options = TypeVar("_Options", bound=RankingOptions)


class Fielded(Protocol):
    """What puts a pair in its field: its section and the directions it sat (a PairTotal, or the hub's pairs)."""

    @property
    def section(self) -> str: ...
    @property
    def directions(self) -> AbstractSet[str]: ...


def settled(totals: Mapping[str, Fielded], options: _Options) -> _Options:
    """The options with FieldMode.AUTO settled over these pairs, the whole session's: one field if any pair sat
    both ways, else NS and EW apart. Ranking some of the pairs only (the head's candidates: tenace.hub.scorer)
    under the settled options fields them as the whole session is fielded."""
    if options.fields is not FieldMode.AUTO:
        return options
    both = any(len(t.directions) > 1 for t in totals.values())
    return replace(options, fields=FieldMode.ONE if both else FieldMode.BY_DIRECTION)


def fields_of(totals: Mapping[str, Fielded], options: RankingOptions) -> dict[str, list[str]]:
    """The fields ranked separately: by section if asked, and NS/EW apart for a Mitchell. A pair's field is its
    section's and directions' alone, but for FieldMode.AUTO (see `settled`)."""
    by_direction = settled(totals, options).fields is FieldMode.BY_DIRECTION
    fields: dict[str, list[str]] = {}
    for p, t in totals.items():
        parts = [t.section] if options.rank_by_section else []
        if by_direction:
            parts.append(NS if NS in t.directions else EW)
        fields.setdefault(" ".join(parts), []).append(p)
    return fields


def rank_value(total: PairTotal, options: RankingOptions) -> Fraction:
    """What ranks a pair: its published total (or exact, by option) as a share of its own top."""
    if not total.top:
        return Fraction(1, 2)
    if options.unequal_boards is UnequalBoards.FIELD and not options.rank_on_exact:  # a field's totals share a top
        return Fraction(total.mp)
    exact = options.rank_on_exact
    n, d = (total.exact.numerator, total.exact.denominator) if exact else total.mp.as_integer_ratio()
    return Fraction(n, d * total.top)


def rank_session(totals: Mapping[str, PairTotal], head_to_head: HeadToHead | None,
                 options: RankingOptions) -> list[Placing]:
    """Ranks each field (see `fields_of`) by `rank_value`, ties broken as the options say."""
    placings: list[Placing] = []
    h2h = head_to_head if options.tiebreak is Tiebreak.HEAD_TO_HEAD else None
    for name, pairs in sorted(fields_of(totals, options).items()):
        placings += rank_field(name, {p: rank_value(totals[p], options) for p in pairs}, h2h)
    return placings
