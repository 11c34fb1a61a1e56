"""A matchpoint pairs session: boards, Law 12C2(c), Law 90 penalties, totals and ranks; full or incremental."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from math import lcm

from tenace.scoring.adjusted import revised_percent
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
from tenace.scoring.ranking import FieldMode, HeadToHead, Placing, Tiebreak, rank_field
from tenace.scoring.rounding import round_ratio

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
        """A board's score; `section` may be left out when only one section holds that board."""
        found = [b for b in self.boards if b.board == board and (section is None or b.section == section)]
        if len(found) != 1:
            where = f" in section {section}" if section is not None else ""
            raise KeyError(f"board {board}{where}: {'several sections hold it' if found else 'not scored'}")
        return found[0]


class _Pair:
    """Running sums of one pair, updated by each board's difference so a new result costs one board."""

    __slots__ = ("artificial", "boards", "directions", "num", "pub", "section", "top", "versus")

    def __init__(self, section: str) -> None:
        self.section = section
        self.num: dict[int, int] = {}  # denominator -> numerators of exact MPs on real boards (no Fraction adds)
        self.pub = _ZERO  # published MPs on real (played or assigned) boards
        self.top = 0
        self.boards = 0
        self.directions: Counter[str] = Counter()
        self.artificial: dict[BoardKey, SideScore] = {}  # resolved last: Law 12C2(c) needs the rest
        # Published MPs scored against each opponent and on how many boards: the head-to-head record.
        self.versus: dict[str, tuple[Decimal, int]] = {}

    def exact(self) -> Fraction:
        common = lcm(*self.num) if self.num else 1
        return Fraction(sum(n * (common // d) for d, n in self.num.items()), common)


_ZERO = Decimal(0)


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
        self._averages: dict[BoardKey, list[tuple[int, str]]] = {}  # (table index, NS/EW) holding an Average
        self._dirty: set[BoardKey] = set()
        self._expected: dict[str | None, int] = {}
        self._pairs: dict[str, _Pair] = {}
        self._pair_section: dict[str, str] = {}
        self._penalties_given: list[Penalty] = list(penalties)
        self._penalized: set[str] = {pen.pair for pen in self._penalties_given}  # re-totalled every time
        self._touched: set[str] = set()  # pairs whose sums moved since the last score()
        self._totals: dict[str, PairTotal] = {}
        self._rank_values: dict[str, Fraction] = {}
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

    @property
    def penalties(self) -> tuple[Penalty, ...]:
        return tuple(self._penalties_given)

    def add_penalty(self, penalty: Penalty) -> None:
        self._penalties_given.append(penalty)
        self._penalized.add(penalty.pair)

    def remove_penalty(self, penalty: Penalty) -> None:
        self._penalties_given.remove(penalty)

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

    def _rescore(self, key: BoardKey) -> None:
        """Rescore one board and move each pair's running sums by what changed for that pair."""
        old = self._scores.pop(key, None)
        self._averages.pop(key, None)
        entries = self._entries.get(key)
        new = None
        if entries:
            new = matchpoint_board(list(entries.values()), self.options, self._expected[key[0]], key[0])
            self._scores[key] = new
            averages = [(i, side.direction) for i, t in enumerate(new.tables) if t.ns is not None
                        for side in (t.ns, t.ew) if side is not None and side.average is not None]
            if averages:
                self._averages[key] = averages
        before, after = _by_pair(old), _by_pair(new)
        for pair in before.keys() | after.keys():
            was, now = before.get(pair), after.get(pair)
            if was is not None and now is not None and _same_for_totals(was, now):
                continue  # most pairs keep their score when one result changes
            if was is not None:
                self._add(key, *was, -1)
            if now is not None:
                self._add(key, *now, +1)
            self._touched.add(pair)

    def _add(self, key: BoardKey, side: SideScore, opponent: str, sign: int) -> None:
        acc = self._pairs.get(side.pair)
        if acc is None:
            acc = self._pairs[side.pair] = _Pair(self._pair_section[side.pair])
        acc.boards += sign
        acc.directions[side.direction] += sign
        if side.kind is SideKind.ARTIFICIAL:
            if sign > 0:
                acc.artificial[key] = side
            else:
                del acc.artificial[key]
            return
        d = side.exact.denominator
        acc.num[d] = acc.num.get(d, 0) + sign * side.exact.numerator
        mp = side.mp if sign > 0 else -side.mp
        acc.pub += mp
        acc.top += sign * side.top
        got, boards = acc.versus.get(opponent, (_ZERO, 0))
        if boards + sign:
            acc.versus[opponent] = (got + mp, boards + sign)
        else:
            del acc.versus[opponent]  # they no longer met

    def score(self) -> SessionScore:
        self._refresh_expected()
        for key in self._dirty:
            self._rescore(key)
        self._dirty.clear()
        return self._resolve()

    def _revisions(self) -> dict[tuple[BoardKey, str], SideScore]:
        """Law 12C2(c): the average-plus/minus sides that the pair's own session percentage replaces."""
        o = self.options
        out: dict[tuple[BoardKey, str], SideScore] = {}
        if not o.law_12c2c:
            return out
        own: dict[str, Fraction | None] = {}
        for key, where in self._averages.items():
            tables = self._scores[key].tables
            for i, direction in where:
                side = tables[i].ns if direction == NS else tables[i].ew
                assert side is not None and side.average is not None
                if side.pair not in own:
                    acc = self._pairs[side.pair]
                    own[side.pair] = acc.exact() * 100 / acc.top if acc.top else None
                pct = revised_percent(side, own[side.pair], o)
                if pct is not None:
                    out[key, side.pair] = artificial_side(side.pair, side.direction, side.average, side.top, o,
                                                          percent=pct)
        return out

    def _resolve(self) -> SessionScore:
        o = self.options
        revised = self._revisions()
        boards = []
        for key, b in sorted(self._scores.items(), key=_board_order):
            if revised and key in self._averages:
                b = _with_revisions(b, key, self._averages[key], revised)
            boards.append(b)
        penalty = self._penalties(boards)
        # Only pairs whose sums moved, or whose averages or penalties depend on the rest, are re-totalled.
        redo = self._touched | self._penalized | {p for _, p in revised}
        redo |= {s.pair for key, where in self._averages.items() for s in _sides_at(self._scores[key], where)}
        for p in redo:
            a = self._pairs.get(p)
            if a is None or not a.boards:
                self._totals.pop(p, None)
                self._rank_values.pop(p, None)
                continue
            t = self._totals[p] = self._total(p, a, revised, penalty.get(p))
            self._rank_values[p] = rank_value(t, o)
        self._touched.clear()
        ranking = rank_session(self._totals, self._head_to_head, o, self._rank_values)
        return SessionScore(o, tuple(boards), dict(self._totals), tuple(ranking))

    def _head_to_head(self, a: str, b: str) -> Fraction | None:
        got = self._pairs[a].versus.get(b)
        return None if got is None else Fraction(got[0])

    def _penalties(self, boards: Iterable[BoardScore]) -> dict[str, Fraction]:
        """Law 90: each penalty in MPs of the session's units, by pair."""
        if not self._penalties_given:
            return {}
        boards = list(boards)
        common_top = max((b.top for b in boards), default=0)
        tops = {(s.pair, b.board): s.top for b in boards for s in b.sides()}
        out: dict[str, Fraction] = {}
        for pen in self._penalties_given:
            if pen.unit is PenaltyUnit.MATCHPOINTS:
                amount = pen.amount
            else:
                top = tops.get((pen.pair, pen.board), common_top) if pen.board is not None else common_top
                amount = pen.amount * top / 100
            out[pen.pair] = out.get(pen.pair, Fraction(0)) + amount
        return out

    def _total(self, p: str, a: _Pair, revised: Mapping[tuple[BoardKey, str], SideScore],
               taken: Fraction | None) -> PairTotal:
        o = self.options
        exact, pub, top = a.exact(), a.pub, a.top
        for key, side in a.artificial.items():
            side = revised.get((key, p), side)
            exact += side.exact
            pub += side.mp
            top += side.top
        if taken:
            exact -= taken
        if o.total_from_published_boards:
            n, d = pub.as_integer_ratio()
            if taken:
                n, d = n * taken.denominator - taken.numerator * d, d * taken.denominator
            mp = round_ratio(n, d, o.total_mp_decimals, o.rounding)
            n, d = mp.as_integer_ratio()  # the session percentage of the published total
        else:
            mp = round_ratio(exact.numerator, exact.denominator, o.total_mp_decimals, o.rounding)
            n, d = exact.numerator, exact.denominator
        percent = round_ratio(n * 100, d * top, o.total_percent_decimals, o.rounding) if top else Decimal(50)
        dirs = frozenset(k for k, v in a.directions.items() if v > 0)
        return PairTotal(p, a.section, dirs, a.boards, top, exact, mp, percent, taken or Fraction(0))


def _by_pair(board: BoardScore | None) -> dict[str, tuple[SideScore, str]]:
    """Each pair's side on a scored board, with its opponent (not-played tables count for neither)."""
    out: dict[str, tuple[SideScore, str]] = {}
    if board is not None:
        for t in board.tables:
            if t.ns is not None and t.ew is not None:
                out[t.ns.pair] = (t.ns, t.ew.pair)
                out[t.ew.pair] = (t.ew, t.ns.pair)
    return out


def _same_for_totals(a: tuple[SideScore, str], b: tuple[SideScore, str]) -> bool:
    """Whether a pair's side moved in anything its totals use (cheaper than comparing whole dataclasses)."""
    x, y = a[0], b[0]
    return (a[1] == b[1] and x.top == y.top and x.kind is y.kind and x.average is y.average
            and x.direction == y.direction and x.mp == y.mp and x.exact == y.exact)


def _sides_at(board: BoardScore, where: Iterable[tuple[int, str]]) -> Iterable[SideScore]:
    for i, direction in where:
        side = board.tables[i].ns if direction == NS else board.tables[i].ew
        if side is not None:
            yield side


def _with_revisions(board: BoardScore, key: BoardKey, where: Iterable[tuple[int, str]],
                    revised: Mapping[tuple[BoardKey, str], SideScore]) -> BoardScore:
    """The board with its Law 12C2(c) sides in place of the averages (unchanged if none is revised)."""
    tables = list(board.tables)
    changed = False
    for i, direction in where:
        t = tables[i]
        side = t.ns if direction == NS else t.ew
        new = revised.get((key, side.pair)) if side is not None else None
        if new is not None:
            tables[i] = t._replace(ns=new) if direction == NS else t._replace(ew=new)
            changed = True
    return replace(board, tables=tuple(tables)) if changed else board


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


def rank_value(total: PairTotal, options: MatchpointOptions) -> Fraction:
    """What ranks a pair: its published total (or exact, by option) as a share of its own top."""
    if not total.top:
        return Fraction(1, 2)
    exact = options.rank_on_exact
    n, d = (total.exact.numerator, total.exact.denominator) if exact else total.mp.as_integer_ratio()
    return Fraction(n, d * total.top)


def rank_session(totals: Mapping[str, PairTotal], head_to_head: HeadToHead | None,
                 options: MatchpointOptions, values: Mapping[str, Fraction] | None = None) -> list[Placing]:
    """Ranks each field (see `fields_of`) by `rank_value`, ties broken as the options say."""
    placings: list[Placing] = []
    h2h = head_to_head if options.tiebreak is Tiebreak.HEAD_TO_HEAD else None
    for name, pairs in sorted(fields_of(totals, options).items()):
        field_values = {p: values[p] if values is not None else rank_value(totals[p], options) for p in pairs}
        placings += rank_field(name, field_values, h2h)
    return placings


def score_pairs_session(
    results: Iterable[BoardResult],
    options: MatchpointOptions = DEFAULT_OPTIONS,
    penalties: Iterable[Penalty] = (),
) -> SessionScore:
    """Matchpoint a whole pairs session from its raw results: every board, totals and ranks."""
    return PairsSessionScorer(options, results, penalties).score()

