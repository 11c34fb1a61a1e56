"""A matchpoint pairs session: boards, Law 12C2(c), Law 90 penalties, totals and ranks; full or incremental."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tenace.scoring.adjusted import apply_12c2c, revised_percent
from tenace.scoring.matchpoints import (
    DEFAULT_OPTIONS,
    BoardScore,
    MatchpointOptions,
    SideKind,
    SideScore,
    artificial_side,
    matchpoint_board,
)
from tenace.scoring.model import EW, NS, BoardResult, Penalty, PenaltyUnit
from tenace.scoring.ranking import FieldMode, Placing, Tiebreak, rank_field
from tenace.scoring.rounding import round_fraction

log = logging.getLogger(__name__)

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
    _placings: dict[str, Placing] = field(default_factory=dict, repr=False, compare=False)

    def placing(self, pair: str) -> Placing:
        if not self._placings:
            self._placings.update((p.pair, p) for p in self.ranking)
        return self._placings[pair]

    def board(self, board: int, section: str | None = None) -> BoardScore:
        for b in self.boards:
            if b.board == board and b.section == section:
                return b
        raise KeyError(f"no board {board}" + (f" in section {section}" if section else ""))


class _Pair:
    """Running sums of one pair over its real (played or assigned) boards, updated by board deltas."""

    __slots__ = ("artificial", "boards", "directions", "num", "pub", "section", "top")

    def __init__(self, section: str) -> None:
        self.section = section
        self.num: dict[int, int] = {}  # denominator -> sum of numerators: exact MPs without Fraction adds
        self.pub = Decimal(0)
        self.top = 0
        self.boards = 0
        self.directions: Counter[str] = Counter()
        self.artificial: dict[BoardKey, SideScore] = {}

    def add(self, key: BoardKey, side: SideScore, sign: int) -> None:
        self.boards += sign
        self.directions[side.direction] += sign
        if side.kind is SideKind.ARTIFICIAL:
            if sign > 0:
                self.artificial[key] = side
            else:
                del self.artificial[key]
            return
        d = side.exact.denominator
        self.num[d] = self.num.get(d, 0) + sign * side.exact.numerator
        self.pub += sign * side.mp
        self.top += sign * side.top

    def exact(self) -> Fraction:
        return sum((Fraction(n, d) for d, n in self.num.items() if n), Fraction(0))


class PairsSessionScorer:
    """Scores a session and keeps it scored as results arrive: only the boards that changed are rescored.

    Each `put` of a result (new or corrected) marks its board; `score()` rescores the marked boards,
    updates each pair's running sums by the difference, then resolves Law 12C2(c), penalties and ranks.
    """

    def __init__(
        self,
        options: MatchpointOptions = DEFAULT_OPTIONS,
        results: Iterable[BoardResult] = (),
        penalties: Iterable[Penalty] = (),
    ) -> None:
        self.options = options
        self._entries: dict[BoardKey, dict[EntryKey, BoardResult]] = {}
        self._scores: dict[BoardKey, BoardScore] = {}
        self._dirty: set[BoardKey] = set()
        self._expected: dict[str | None, int] = {}
        self._pairs: dict[str, _Pair] = {}
        self._pair_section: dict[str, str] = {}
        self.penalties: list[Penalty] = list(penalties)
        for r in results:
            self.put(r)

    def _key(self, r: BoardResult) -> BoardKey:
        return (None if self.options.across_sections else r.section, r.board)

    def put(self, result: BoardResult) -> None:
        """Add a result, or replace the one of the same section, table, round and board."""
        key = self._key(result)
        self._entries.setdefault(key, {})[(result.section, result.table, result.round, result.board)] = result
        for pair in (result.ns_pair, result.ew_pair):
            self._pair_section.setdefault(pair, result.section)
        self._dirty.add(key)

    def remove(self, section: str, table: int, round: int, board: int) -> None:
        key: BoardKey = (None if self.options.across_sections else section, board)
        del self._entries[key][(section, table, round, board)]
        if not self._entries[key]:
            del self._entries[key]
        self._dirty.add(key)

    def add_penalty(self, penalty: Penalty) -> None:
        self.penalties.append(penalty)

    def _refresh_expected(self) -> None:
        """E per scope: the option, else the most entries any board of the scope has."""
        fixed = self.options.expected_results
        expected: dict[str | None, int] = {}
        for (scope, _), entries in self._entries.items():
            expected[scope] = fixed or max(expected.get(scope, 0), len(entries))
        for scope, e in expected.items():
            if self._expected.get(scope) != e:  # the common top moved: every board of the scope changes
                self._dirty.update(k for k in self._entries if k[0] == scope)
        self._expected = expected

    def _apply(self, key: BoardKey, board: BoardScore, sign: int) -> None:
        for side in board.sides():
            acc = self._pairs.get(side.pair)
            if acc is None:
                acc = self._pairs[side.pair] = _Pair(self._pair_section[side.pair])
            acc.add(key, side, sign)

    def score(self) -> SessionScore:
        self._refresh_expected()
        for key in self._dirty:
            old = self._scores.pop(key, None)
            if old is not None:
                self._apply(key, old, -1)
            entries = self._entries.get(key)
            if entries:
                new = matchpoint_board(list(entries.values()), self.options, self._expected[key[0]], key[0])
                self._scores[key] = new
                self._apply(key, new, +1)
        self._dirty.clear()
        return self._resolve()

    def _resolve(self) -> SessionScore:
        o = self.options
        own = {p: a.exact() for p, a in self._pairs.items()}
        own_pct = {p: own[p] * 100 / a.top for p, a in self._pairs.items() if a.top}
        # Law 12C2(c) only touches boards holding an average; the others are returned as cached.
        adjusted = {k: b for k, b in self._scores.items() if any(s.average is not None for s in b.sides())}
        if adjusted:
            revised = apply_12c2c(list(adjusted.values()), o, own_pct)
            adjusted = dict(zip(adjusted, revised, strict=True))
        boards = tuple(adjusted.get(k, b) for k, b in sorted(self._scores.items(), key=_board_order))
        common_top = max((b.top for b in boards), default=0)
        tops = {(s.pair, b.board): s.top for b in boards for s in b.sides()} if self.penalties else {}
        penalty: dict[str, Fraction] = {}
        for pen in self.penalties:
            if pen.unit is PenaltyUnit.MATCHPOINTS:
                amount = pen.amount
            else:
                top = tops.get((pen.pair, pen.board), common_top) if pen.board is not None else common_top
                amount = pen.amount * top / 100
            penalty[pen.pair] = penalty.get(pen.pair, Fraction(0)) + amount

        totals: dict[str, PairTotal] = {}
        for p, a in self._pairs.items():
            if not a.boards:
                continue
            exact, pub, top = own[p], Fraction(a.pub), a.top
            for side in a.artificial.values():
                pct = revised_percent(side, own_pct.get(p), o) if o.law_12c2c else None
                if pct is not None and side.average is not None:
                    side = artificial_side(p, side.direction, side.average, side.top, o, percent=pct)
                exact += side.exact
                pub += Fraction(side.mp)
                top += side.top
            taken = penalty.get(p, Fraction(0))
            exact -= taken
            base = pub - taken if o.total_from_published_boards else exact
            mp = round_fraction(base, o.total_mp_decimals, o.rounding)
            pct_base = Fraction(mp) if o.total_from_published_boards else exact
            percent = round_fraction(pct_base * 100 / top if top else Fraction(50), o.total_percent_decimals,
                                     o.rounding)
            dirs = frozenset(d for d, n in a.directions.items() if n > 0)
            totals[p] = PairTotal(p, a.section, dirs, a.boards, top, exact, mp, percent, taken)
        return SessionScore(o, boards, totals, tuple(rank_session(totals, boards, o)))


def _board_order(item: tuple[BoardKey, BoardScore]) -> tuple[str, int]:
    (scope, board), _ = item
    return (scope or "", board)


def fields_of(totals: Mapping[str, PairTotal], options: MatchpointOptions) -> dict[str, list[str]]:
    """The fields ranked separately: by section if asked, and NS/EW apart for a Mitchell."""
    mode = options.fields
    if mode is FieldMode.AUTO:
        both = any(len(t.directions) > 1 for t in totals.values())
        mode = FieldMode.ONE if both else FieldMode.BY_DIRECTION
    fields: dict[str, list[str]] = {}
    for p, t in totals.items():
        parts = [t.section] if options.rank_by_section else []
        if mode is FieldMode.BY_DIRECTION:
            parts.append(NS if NS in t.directions else EW)
        fields.setdefault(" ".join(parts), []).append(p)
    return fields


def meetings_of(boards: Iterable[BoardScore]) -> dict[tuple[str, str], Fraction]:
    """MPs (as published) each pair scored on the boards against each opponent: the head-to-head record."""
    met: dict[tuple[str, str], Fraction] = {}
    for b in boards:
        for t in b.tables:
            if t.ns is not None and t.ew is not None:
                for me, them in ((t.ns, t.ew), (t.ew, t.ns)):
                    k = (me.pair, them.pair)
                    met[k] = met.get(k, Fraction(0)) + Fraction(me.mp)
    return met


def rank_session(totals: Mapping[str, PairTotal], boards: Iterable[BoardScore],
                 options: MatchpointOptions) -> list[Placing]:
    """Ranks each field on the published totals (or the exact ones), as a share of each pair's top."""
    placings: list[Placing] = []
    meetings: dict[tuple[str, str], Fraction] | None = None
    for name, pairs in sorted(fields_of(totals, options).items()):
        values = {}
        for p in pairs:
            t = totals[p]
            v = t.exact if options.rank_on_exact else Fraction(t.mp)
            values[p] = v / t.top if t.top else Fraction(1, 2)
        if options.tiebreak is Tiebreak.HEAD_TO_HEAD and len(set(values.values())) < len(values):
            if meetings is None:
                meetings = meetings_of(boards)
            placings += rank_field(name, values, meetings)
        else:
            placings += rank_field(name, values)
    return placings


def score_pairs_session(
    results: Iterable[BoardResult],
    options: MatchpointOptions = DEFAULT_OPTIONS,
    penalties: Iterable[Penalty] = (),
) -> SessionScore:
    """Matchpoint a whole pairs session from its raw results: every board, totals and ranks."""
    return PairsSessionScorer(options, results, penalties).score()

