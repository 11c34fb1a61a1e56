"""The national pass: the boards a push changed re-scored and the national ranking made again, from every pair's
sides as the scoring worker keeps them in memory (numpy arrays, read from PostgreSQL whole once, then only the slots
a push changed), so that a pass costs the changes and a vectorised sum rather than a join over the whole field.

The memory is a cache, never the record: what a pass publishes is written to PostgreSQL with a token; a worker whose
last token is not the one stored (another worker scored the sim meanwhile, or this one is new) reads the sim whole
again. So any worker may score, one at a time (the sim's advisory lock), and none depends on another's memory."""

from __future__ import annotations

import logging
import secrets
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import partial
from math import lcm
from operator import mul
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg

from tenace.hub import queries
from tenace.hub.field import NATIONAL, Figure, PairId, board_figures, penalty_of, ranking_rows
from tenace.hub.field_imps import imp_board_figures, imp_ranking
from tenace.scoring import codec
from tenace.scoring.matchpoints import artificial_side, published_mp
from tenace.scoring.model import Average
from tenace.scoring.mp_options import MatchpointOptions, UnequalBoards
from tenace.scoring.pairs_session import (
    PairSums,
    PairTotal,
    fields_of,
    pair_total,
    penalty_mps,
    published_total,
    rank_session,
    rank_value,
    revisions,
    settled,
)
from tenace.scoring.ranking import Placing, Tiebreak

log = logging.getLogger(__name__)

STORE_EVERY_S = 2.0  # while pushes keep coming, the whole ranking is stored this often (the live message every pass)
LIVE_ROWS = 100  # the head of the national ranking each live message carries (a page asks for its own club's too)
_PROCESS = secrets.token_hex(6)  # names this process's passes in scores.token
SlotKey = tuple[str, str, int, int, int]  # club, section, table, round, board

_NONE, _REAL, _ARTIFICIAL = 0, 1, 2
# The pass sums a plain pair's boards itself and hands the sums to scoring.pairs_session's published_total: so a
# pair's total is its boards' (not prorated to a field, not shifted to factored percentages), and the head is ranked
# without head-to-head records (the pass keeps none). Checked here, should the national options change.
assert NATIONAL.unequal_boards is UnequalBoards.PLAIN and not NATIONAL.total_factored_as_percent
assert NATIONAL.tiebreak is Tiebreak.NONE


# A pair's directions by its seat (1 NS, 2 EW, 3 both: its `sat` bits)
_DIRECTIONS: tuple[frozenset[str], ...] = (frozenset(), frozenset(("NS",)), frozenset(("EW",)), frozenset(("NS", "EW")))


@dataclass(frozen=True, slots=True)
class _Seat:
    """The seats of some pairs, as scoring's fields_of reads them (a field is its pairs' section and directions)."""

    section: str
    directions: frozenset[str]


@dataclass
class _Side:
    kind: int
    value: Fraction  # real: a (MPs = a E - 1); artificial: its share of the top
    average: str | None = None


@dataclass
class FieldCache:
    """One sim's slots as the last pass left them: each slot's board, pairs, club and outcome (codes into the
    lists below), each board's outcome counts, and each board's figures per outcome."""

    scoring: str = "mp"  # the sim's: mp, cross-imps or butler
    token: str | None = None
    rows: dict[SlotKey, int] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)
    pair_names: list[str] = field(default_factory=list)
    sections: dict[str, str] = field(default_factory=dict)
    section_list: list[str] = field(default_factory=list)
    _section_index: dict[str, int] = field(default_factory=dict)
    _section_codes: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    _fields: tuple[npt.NDArray[np.int64], MatchpointOptions, list[str], npt.NDArray[np.intp]] | None = None
    clubs: dict[str, int] = field(default_factory=dict)
    club_names: list[str] = field(default_factory=list)
    codes: dict[tuple[int, str], int] = field(default_factory=dict)  # (board, outcome) -> code
    code_list: list[tuple[int, str]] = field(default_factory=list)
    counts: dict[int, Counter[str]] = field(default_factory=dict)
    entries: dict[int, int] = field(default_factory=dict)
    figures: dict[int, dict[str, tuple[_Side, _Side]]] = field(default_factory=dict)
    dirty: set[int] = field(default_factory=set)
    # A slot whose outcome tenace.scoring.codec cannot read counts for nothing and is named (the `quarantine` table):
    # its reason by slot, each outcome text's reason once read ("" when readable), and whether the names changed.
    quarantined: dict[SlotKey, tuple[str, str]] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)
    quarantine_changed: bool = False
    size: int = 0
    ns: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(1024, np.int32))
    ew: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(1024, np.int32))
    club: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(1024, np.int32))
    code: npt.NDArray[np.int32] = field(default_factory=lambda: np.full(1024, -1, np.int32))

    def section_codes(self) -> npt.NDArray[np.int64]:
        """Each pair's section (section_of) as its index in section_list, by pair."""
        if len(self._section_codes) < len(self.pair_names):
            more = [self._index(self._section_index, self.section_list, self.section_of(name))
                    for name in self.pair_names[len(self._section_codes):]]
            self._section_codes = np.concatenate((self._section_codes, np.array(more, np.int64)))
        return self._section_codes

    def fields(self, kinds: npt.NDArray[np.int64]) -> tuple[MatchpointOptions, list[str], npt.NDArray[np.intp]]:
        """The national options settled over the field (scoring.pairs_session.settled), the fields' names and each
        kind's field as fields_of makes them, asked once per kind of seat (section index x 4 + seat: 1 NS, 2 EW, 3
        both; the kinds of the pairs that scored, sorted): made again only when the kinds change."""
        if self._fields is None or not np.array_equal(self._fields[0], kinds):
            seats = {str(i): _Seat(self.section_list[k // 4], _DIRECTIONS[k % 4]) for i, k in enumerate(kinds.tolist())}
            options = settled(seats, NATIONAL)
            field_of_kind = np.zeros(len(kinds), np.intp)
            names = []
            for f, (name, members) in enumerate(fields_of(seats, options).items()):
                field_of_kind[[int(i) for i in members]] = f
                names.append(name)
            self._fields = (kinds, options, names, field_of_kind)
        return self._fields[1:]

    def _index(self, table: dict[Any, int], names: list[Any], name: Any) -> int:
        got = table.get(name)
        if got is None:
            got = table[name] = len(names)
            names.append(name)
        return got

    def section_of(self, pair: str) -> str:
        """The pair's section as field.result_of names it (club/section), parsed once."""
        got = self.sections.get(pair)
        if got is None:
            pid = PairId.parse(pair)
            got = self.sections[pair] = f"{pid.club}/{pid.section}"
        return got

    def put(self, key: SlotKey, ns_id: str, ew_id: str, outcome: str | None) -> None:
        """A slot as it is now (its outcome None when nothing of it counts; quarantined when it cannot be read)."""
        board = key[4]
        why = "" if outcome is None else self._why_unreadable(outcome)
        if why:
            assert outcome is not None
            if self.quarantined.get(key) != (outcome, why):
                log.warning("slot %s quarantined: %s", "/".join(map(str, key)), why)
                self.quarantined[key] = (outcome, why)
                self.quarantine_changed = True
            outcome = None  # left out of the field: the rest of the sim is scored without it
        elif self.quarantined.pop(key, None) is not None:
            self.quarantine_changed = True
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = self.size
            self.size += 1
            if self.size > len(self.code):
                for name in ("ns", "ew", "club", "code"):
                    old = getattr(self, name)
                    grown = np.full(2 * len(old), -1, np.int32) if name == "code" else np.zeros(2 * len(old), np.int32)
                    grown[:len(old)] = old
                    setattr(self, name, grown)
        else:
            old_code = int(self.code[row])
            if old_code >= 0:
                text = self.code_list[old_code][1]
                counts = self.counts[board]
                counts[text] -= 1
                if not counts[text]:
                    del counts[text]
                self.dirty.add(board)
        self.ns[row] = self._index(self.pairs, self.pair_names, ns_id)
        self.ew[row] = self._index(self.pairs, self.pair_names, ew_id)
        self.club[row] = self._index(self.clubs, self.club_names, key[0])
        if outcome is None:
            self.code[row] = -1
        else:
            self.code[row] = self._index(self.codes, self.code_list, (board, outcome))
            self.counts.setdefault(board, Counter())[outcome] += 1
            self.dirty.add(board)

    def _why_unreadable(self, outcome: str) -> str:
        why = self.unreadable.get(outcome)
        if why is None:
            try:
                codec.from_key(outcome)
                why = ""
            except codec.Unreadable as e:
                why = str(e)
            self.unreadable[outcome] = why
        return why

    def rescore_boards(self) -> list[tuple[int, int, list[Figure]]]:
        """The dirty boards' figures made again; what to write of them: (board, entries, figures), entries 0 for a
        board left with no result."""
        done: list[tuple[int, int, list[Figure]]] = []
        for board in sorted(self.dirty):
            counts = self.counts.get(board)
            if not counts:
                self.entries.pop(board, None)
                self.figures.pop(board, None)
                done.append((board, 0, []))
                continue
            mp = self.scoring == "mp"
            n, figures = (board_figures(board, dict(counts)) if mp
                          else imp_board_figures(board, dict(counts), self.scoring))
            sides: dict[str, dict[str, _Side]] = {}
            for direction, text, art, num, den, average in figures:
                # An artificial side at matchpoints is a share of the top, resolved last (Law 12C2(c)); in IMPs it
                # is IMPs like any other side, summed with them.
                sides.setdefault(text, {})[direction] = _Side(_ARTIFICIAL if art and mp else _REAL,
                                                              Fraction(num, den), average)
            none = _Side(_NONE, Fraction(0))
            self.figures[board] = {t: (s.get("NS", none), s.get("EW", none)) for t, s in sides.items()}
            self.entries[board] = n
            done.append((board, n, figures))
        self.dirty.clear()
        return done


@dataclass
class Pass:
    """What a pass made: the head of the ranking (its first rows, for the live message), the results it counts, E,
    each club's counted results, and the whole ranking, made when asked (once the live message is out)."""

    head: list[dict[str, Any]]
    results: int
    expected: int
    clubs: dict[str, int]
    whole: Callable[[], list[dict[str, Any]]]
    pairs: int  # in the ranking


def national(cache: FieldCache, penalties: Iterable[tuple[str, dict[str, Any]]], head: int = LIVE_ROWS) -> Pass:
    """The national ranking from the cache's figures: each pair's sums vectorised; at matchpoints then E, Law 12C2(c),
    Law 90, the totals and the ranks by scoring.pairs_session's own pair_total (published_total for a plain pair's
    sums) and rank_session (its `head` rows first, from the pairs that can be in them: _head), in IMPs the sums
    ranked by hub.field_imps.imp_ranking."""
    expected = max(cache.entries.values(), default=0)
    n = cache.size
    code = cache.code[:n]
    counted = code >= 0
    results_by_club = np.bincount(cache.club[:n][counted], minlength=len(cache.club_names))
    clubs = {name: int(results_by_club[i]) for i, name in enumerate(cache.club_names) if results_by_club[i]}
    if not expected:
        return Pass([], 0, 0, clubs, list, 0)
    top = 2 * (expected - 1)
    codes = len(cache.code_list)
    kind = np.zeros((2, codes), np.int8)
    value: list[list[Fraction]] = [[Fraction(0)] * codes, [Fraction(0)] * codes]
    # A real side's MPs at E as a board publishes them (scoring.matchpoints.published_mp), in units of its last decimal:
    # the published totals add them (a handful of distinct outcomes a board: made again every pass, as E may move).
    mp = cache.scoring == "mp"
    unit = 10 ** NATIONAL.board_mp_decimals
    shown = np.zeros((2, codes), np.int64)
    for c, (board, text) in enumerate(cache.code_list):
        sides = cache.figures.get(board, {}).get(text)
        if sides is None:
            continue
        for d in (0, 1):
            kind[d, c] = sides[d].kind
            value[d][c] = v = sides[d].value
            if mp and kind[d, c] == _REAL:  # a E - 1, on integers: a Fraction's arithmetic costs more than the rounding
                shown[d, c] = int(published_mp(v.numerator * expected - v.denominator, v.denominator, NATIONAL) * unit)
    # Each pair's sum of a over its real boards, exactly: each board's a's over the board's own denominator (the lcm
    # of its figures': its entries, as a rule), the numerators summed per denominator (a bincount over pair x
    # denominator: integers well inside float64's 53 bits), then over the common one.
    board_den: dict[int, int] = {}
    for d in (0, 1):
        for c, v in enumerate(value[d]):
            if kind[d, c] == _REAL:
                board = cache.code_list[c][0]
                board_den[board] = lcm(board_den.get(board, 1), v.denominator)
    dens = sorted(set(board_den.values()))
    group = {den: i for i, den in enumerate(dens)}
    width = max(len(dens), 1)
    numerator = np.zeros((2, codes))
    den_index = np.zeros((2, codes), np.int64)
    for d in (0, 1):
        for c, v in enumerate(value[d]):
            if kind[d, c] == _REAL:
                den = board_den[cache.code_list[c][0]]
                numerator[d, c], den_index[d, c] = v.numerator * (den // v.denominator), group[den]
    pairs = len(cache.pair_names)
    sums = np.zeros(pairs * width)
    shown_sums = np.zeros(pairs)
    real_boards = np.zeros(pairs, np.int64)
    sat = np.zeros((2, pairs), bool)
    artificial: list[tuple[int, int, int]] = []  # (pair, direction, code)
    for d, who in enumerate((cache.ns[:n], cache.ew[:n])):
        side_kind = np.where(counted, kind[d][np.where(counted, code, 0)], _NONE)
        is_real = side_kind == _REAL
        real_boards += np.bincount(who[is_real], minlength=pairs)
        sat[d] |= np.bincount(who[side_kind != _NONE], minlength=pairs) > 0
        codes_real = code[is_real]
        sums += np.bincount(who[is_real] * width + den_index[d][codes_real], weights=numerator[d][codes_real],
                            minlength=pairs * width)
        shown_sums += np.bincount(who[is_real], weights=shown[d][codes_real], minlength=pairs)  # well inside 2**53
        for i in np.flatnonzero(side_kind == _ARTIFICIAL):
            artificial.append((int(who[i]), d, int(code[i])))
    common = lcm(*dens) if dens else 1
    scale = [common // den for den in dens]
    per_den = sums.astype(np.int64).reshape(pairs, width)
    if common * width * int(per_den.max(initial=0)) < 2**62:  # as a rule: the sums over the common one in numpy
        summed: list[int] = (per_den @ np.array(scale, np.int64)).tolist()
    else:
        summed = [sum(map(mul, row, scale)) for row in per_den.tolist()]
    active = np.flatnonzero(sat[0] | sat[1])
    seat = sat[0] + 2 * sat[1].astype(np.int64)  # 1 NS, 2 EW, 3 both
    seats: list[int] = seat.tolist()  # numpy's scalars are slow
    real: list[int] = real_boards.tolist()

    def directions(p: int) -> frozenset[str]:
        return _DIRECTIONS[seats[p]]

    given = [penalty_of(club, body) for club, body in penalties if not body["withdrawn"]]
    if cache.scoring != "mp":
        imp_sums = {cache.pair_names[p]: (Fraction(summed[p], common), real[p], set(directions(p)))
                    for p in active.tolist()}
        ranked = imp_ranking(imp_sums, given)
        return Pass(ranked[:head], int(counted.sum()), expected, clubs, lambda: ranked, len(ranked))
    taken: dict[str, Fraction] = {}
    for pen in given:
        taken[pen.pair] = taken.get(pen.pair, Fraction(0)) + penalty_mps(pen, top)  # every board's top is E's
    # A pair with an artificial side or a penalty goes through scoring.pairs_session's pair_total whole; every other
    # (all but a handful) straight to its published_total from the sums, without a PairSums (a third of the pass).
    whole = {who for who, _, _ in artificial} | {cache.pairs[pair] for pair in taken if pair in cache.pairs}
    points = shown_sums.astype(np.int64).tolist()
    acc: dict[str, PairSums] = {}

    def exact(p: int) -> int:  # over `common`: E (sum of a) - boards
        return summed[p] * expected - real[p] * common if real[p] else 0

    def board_points(p: int) -> Decimal:  # the sum of its real boards' published MPs
        return Decimal(points[p]).scaleb(-NATIONAL.board_mp_decimals)

    for p in whole:
        name = cache.pair_names[p]
        a = acc[name] = PairSums(cache.section_of(name))
        a.directions.update(directions(p))
        if real[p]:
            a.num = {common: exact(p)}
            a.pub = board_points(p)
            a.boards = real[p]
            a.top = top * real[p]
    for who_, d, c in artificial:
        side = cache.figures[cache.code_list[c][0]][cache.code_list[c][1]][d]
        direction = ("NS", "EW")[d]
        a = acc[cache.pair_names[who_]]
        a.boards += 1
        a.artificial[(None, cache.code_list[c][0])] = artificial_side(
            direction, Average(side.average) if side.average else side.value * 100, top, NATIONAL)
    revised = revisions(acc, NATIONAL)
    whole_totals = {p: pair_total(p, a, revised, taken.get(p), NATIONAL) for p, a in acc.items()}

    def total(p: int) -> PairTotal:
        name = cache.pair_names[p]
        got = whole_totals.get(name)
        if got is not None:
            return got
        return published_total(name, cache.section_of(name), directions(p), real[p], top * real[p],
                               Fraction(exact(p), common), board_points(p), None, NATIONAL)

    def everything() -> list[dict[str, Any]]:
        totals = {cache.pair_names[p]: total(p) for p in active.tolist()}
        return ranking_rows(totals, rank_session(totals, None, NATIONAL))

    # Each pair's rank value in floating point, within `slack` of its exact one: its published total (the board MPs'
    # sum, or the exact MPs, as NATIONAL adds them) is within half a unit of the total's last decimal of that sum;
    # the pairs with an artificial side or a penalty, whose sums alone say nothing, by their totals.
    boards = real_boards.astype(np.float64)
    tops = top * boards
    o = NATIONAL
    on = (shown_sums / unit if o.total_from_published_boards and not o.rank_on_exact
          else (np.array(summed, np.float64) * expected - boards * common) / common)
    with np.errstate(divide="ignore", invalid="ignore"):
        approx = np.where(tops > 0, on / tops, 0.5)
    slack = np.where(tops > 0, 0.51 / 10 ** o.total_mp_decimals / np.maximum(tops, 1), 0.0) + 1e-9
    for name, t in whole_totals.items():
        approx[cache.pairs[name]], slack[cache.pairs[name]] = float(rank_value(t, o)), 1e-9
    return Pass(_head(cache, active, seat, approx, slack, total, head), int(counted.sum()), expected, clubs,
                everything, len(active))


def _head(cache: FieldCache, active: npt.NDArray[np.intp], seat: npt.NDArray[np.int64],
          approx: npt.NDArray[np.float64], slack: npt.NDArray[np.float64], total: Callable[[int], PairTotal],
          rows: int) -> list[dict[str, Any]]:
    """The first `rows` rows of the national ranking, from the pairs that can be in them: the fields as
    scoring.pairs_session's fields_of makes them, asked once per kind of seat (a section and its directions); in
    each field its pairs in the order of `approx`, as many ranked by rank_session as the rows need and more, until
    no pair left out of a field could reach the value of the field's last row in the head (so ranked apart, they
    rank as all of them would: the head of rank_session's ranking of the whole field, its fields settled over the
    whole field)."""
    if not len(active) or rows <= 0:
        return []
    sections = cache.section_codes()
    kinds, kind_of = np.unique(sections[active] * 4 + seat[active], return_inverse=True)
    options, names, field_of_kind = cache.fields(kinds)
    field_of = field_of_kind[kind_of]
    orders = [active[field_of == f] for f in range(len(names))]
    orders = [order[np.argsort(-approx[order], kind="stable")] for order in orders]
    index = {name: f for f, name in enumerate(names)}
    ranked_n = [1] * len(orders)  # of each field's order, ranked: first one, for the order of the fields
    totals: dict[str, PairTotal] = {}
    while True:
        for order, k in zip(orders, ranked_n, strict=True):
            for p in order[:k].tolist():
                name = cache.pair_names[p]
                if name not in totals:
                    totals[name] = total(p)
        placings = rank_session(totals, None, options)
        by_field: dict[str, list[Placing]] = {}
        for placing in placings:
            by_field.setdefault(placing.field, []).append(placing)
        # The rows each field has in the head, the fields in the order rank_session gives them: a field after the
        # head's last row needs none (its first pair ranked only, for its place in that order).
        wider, left = False, rows
        for name, ranked in by_field.items():
            f = index[name]
            size = len(orders[f])
            need, left = min(left, size), max(0, left - size)
            if need and ranked_n[f] < min(size, need + 16):
                ranked_n[f] = min(size, need + 16)
                wider = True
                continue
            rest = orders[f][ranked_n[f]:]
            if not need or not len(rest):
                continue
            cut = float(rank_value(totals[ranked[need - 1].pair], options))
            if (approx[rest] + slack[rest] >= cut).any():
                ranked_n[f] = min(size, 2 * ranked_n[f])
                wider = True
        if not wider:
            return ranking_rows(totals, placings[:rows])


_CACHES: dict[str, FieldCache] = {}


_STORED: dict[str, float] = {}  # when this worker last stored each sim's whole ranking (perf_counter)


def _store(conn: psycopg.Connection[Any], sim: str, generation: int, done: Pass, scoring: str) -> None:
    """A pass's whole ranking into `field`, unless a later pass's is there already."""
    field_json = {"national": done.whole(), "results": done.results, "expected": done.expected, "scoring": scoring,
                  "generation": generation}
    with conn.transaction():
        queries.store_field(conn, sim, field_json, generation)
        queries.notify(conn, f"scored {sim} {generation}")


def _quarantine(conn: psycopg.Connection[Any], sim: str, cache: FieldCache) -> None:
    """The sim's quarantined slots as the cache has them, for the organiser's console (in the pass's transaction)."""
    queries.replace_quarantine(conn, sim, [(*key, outcome, why)
                                           for key, (outcome, why) in sorted(cache.quarantined.items())])
    cache.quarantine_changed = False


def _lock_key(sim: str) -> int:
    return zlib.crc32(sim.encode()) - 2**31


def _load(conn: psycopg.Connection[Any], sim: str, cache: FieldCache, everything: bool) -> None:
    """The slots as the queued changes left them (every slot of the sim when `everything`) into the cache; the
    changes read are taken off the queue (only those this snapshot sees: one committed meanwhile waits for the next
    pass)."""
    if everything:
        rows = queries.slots_seen(conn, sim)
        queries.clear_changes(conn, sim)
    else:  # in the order the changes were made: a slot's last one wins; board 0 is a penalty's or the release's
        rows = [row[1:] for row in sorted(queries.take_changes(conn, sim)) if row[5]]
    for club, section, table, rnd, board, ns_id, ew_id, outcome in rows:
        cache.put((club, section, table, rnd, board), ns_id, ew_id, outcome)


def rescore(conn: psycopg.Connection[Any], sim: str, full: bool = False) -> bool | None:
    """Re-score the boards pushes changed since the sim was last scored, and the national ranking, under the sim's
    lock (one worker at a time), all pushes committed meanwhile in one pass; True when scored now, False when it was
    up to date, None when another worker holds the lock. `full`: the sim read whole and every board re-scored."""
    try:
        return _rescore(conn, sim, full)
    except psycopg.errors.SerializationFailure:  # another worker's pass committed as this one began
        forget(sim)
        return None
    except BaseException:
        forget(sim)  # the cache may hold what the rolled-back pass read: read the sim whole next time
        raise


def _rescore(conn: psycopg.Connection[Any], sim: str, full: bool) -> bool | None:
    with conn.transaction():
        # One snapshot for the whole pass: the changes it takes off the queue are exactly those whose slots it reads.
        queries.repeatable_read(conn)
        if not queries.try_pass_lock(conn, _lock_key(sim)):
            return None
        row = queries.score_state(conn, sim)
        if row is None or (row[1] is None and not full):
            return False
        # The pass's generation: the last change it takes (a full pass with none, the last pass's).
        stored_token, generation = row[0], max(int(row[1] or 0), int(row[2]))
        started = time.perf_counter()
        cache = _CACHES.get(sim)
        whole = full or cache is None or cache.token is None or cache.token != stored_token
        if whole:
            cache = _CACHES[sim] = FieldCache(queries.sim_scoring(conn, sim) or "mp", quarantine_changed=True)
        assert cache is not None
        _load(conn, sim, cache, whole)
        if cache.quarantine_changed:  # rare: written only when a slot went in or out of quarantine
            _quarantine(conn, sim, cache)
        loaded = time.perf_counter()
        changed = cache.rescore_boards()
        if changed:
            queries.replace_board_figures(conn, sim, changed)
        figured = time.perf_counter()
        done = national(cache, queries.penalties(conn, sim))
        ranked = time.perf_counter()
        token = f"{_PROCESS}:{generation}:{secrets.token_hex(4)}"
        live = {"generation": generation, "results": done.results, "expected": done.expected, "clubs": done.clubs,
                "rows": done.head, "pairs": done.pairs}
        queries.store_live(conn, sim, generation, live, token)
        queries.notify(conn, f"scored {sim} {generation}")
    cache.token = token  # only once committed: a pass rolled back leaves the cache to be read whole again
    # The whole ranking (the megabytes of a thousand clubs' pairs) once the live message is out: while pushes keep
    # coming, every STORE_EVERY_S only, so a page's head and counts do not wait for it (its own club's lines, ?all=1
    # and the JSON may lag by that much); when the field is quiet, every pass. A worker that stops in between leaves
    # it to the next (see `serve`). (Stored by a thread beside the passes instead, it held them up more: one
    # interpreter lock.)
    shown = time.perf_counter()
    stored = "later"
    if not queries.changes_waiting(conn, sim) or shown - _STORED.get(sim, float("-inf")) >= STORE_EVERY_S:
        _store(conn, sim, generation, done, cache.scoring)
        _STORED[sim] = time.perf_counter()
        stored = f"{_STORED[sim] - shown:.3f}"
    log.info("sim %s scored (%d results, %d boards re-scored%s) in %.3f s: read %.3f, boards %.3f, ranking %.3f, "
             "shown %.3f, stored %s", sim, done.results, len(changed), ", read whole" if whole else "",
             time.perf_counter() - started, loaded - started, figured - loaded, ranked - figured, shown - ranked,
             stored)
    return True


def forget(sim: str | None = None) -> None:
    """Drop this process's cache of a sim (of every sim): the next pass reads it whole."""
    if sim is None:
        _CACHES.clear()
    else:
        _CACHES.pop(sim, None)


def rescore_until_current(conn: psycopg.Connection[Any], sim: str, patience_s: float = 30.0) -> None:
    """Make sure the sim's scores are of its latest push: score it here, or wait for the worker scoring it."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() < deadline:
        done = rescore(conn, sim)
        if done is False:
            return
        if done is None:
            time.sleep(0.05)


def serve(url: str, stop: threading.Event | None = None, idle_s: float = 1.0, log_level: int | None = None,
          failures: list[Exception] | None = None) -> None:
    """The scoring worker (`tenace hub serve` runs one beside its page and push workers): score every sim a push
    left behind, then wait for the next push's NOTIFY (or `idle_s`, to catch one missed while reconnecting); on a
    lost connection, again after a second, reading the sims whole. A pass that fails otherwise is logged with its
    traceback and noted in `failures` (a test's hub fails the test with it), and that sim is tried again a second
    later, read whole, while the other sims go on: its pushes stay queued, nothing is lost. `log_level`: a process
    of its own logs so."""
    if log_level is not None:
        logging.basicConfig(level=log_level, format="%(levelname)s %(name)s: %(message)s")
    held: dict[str, float] = {}  # a sim whose pass failed: not tried again before then (time.monotonic)
    while stop is None or not stop.is_set():
        try:
            with psycopg.connect(url, autocommit=True) as listen, psycopg.connect(url, autocommit=True) as conn:
                queries.listen(listen)
                # A worker stopped between a pass's live message and its ranking: score that sim again, whole.
                for sim in queries.sims_half_stored(conn):
                    _apart(sim, held, failures, partial(_whole, conn, sim))
                while stop is None or not stop.is_set():
                    for sim in queries.sims_with_changes(conn):
                        _apart(sim, held, failures, partial(rescore_until_current, conn, sim))
                    for _ in listen.notifies(timeout=idle_s, stop_after=1):
                        pass
        except psycopg.OperationalError as e:
            forget()
            log.warning("scoring: %s; again in a second", e)
            time.sleep(1.0)


def _whole(conn: psycopg.Connection[Any], sim: str) -> None:
    while rescore(conn, sim, full=True) is None:
        time.sleep(0.05)


def _apart(sim: str, held: dict[str, float], failures: list[Exception] | None, work: Callable[[], object]) -> None:
    """A sim's pass, kept apart from the other sims': a fault of ours in it is logged with its traceback, noted in
    `failures`, and the sim held back a second (read whole then: `rescore` forgot it), never stopping the others. A
    lost connection is the worker's (serve reconnects)."""
    if held.get(sim, 0.0) > time.monotonic():
        return
    try:
        work()
    except psycopg.OperationalError:
        raise
    except Exception as e:  # a fault of ours: kept alive for the other sims, but never quietly
        log.exception("scoring sim %s failed; it is tried again in a second, the other sims go on", sim)
        if failures is not None:
            failures.append(e)
        held[sim] = time.monotonic() + 1.0
    else:
        held.pop(sim, None)
