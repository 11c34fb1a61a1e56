"""The sim scored across the whole field, board by board: every club's results matchpointed together (Neuberg where
counts differ) into the national ranking, kept in PostgreSQL and re-scored by whichever worker takes the sim's lock
(only the boards a push changed); each club's own ranking and a pair's boards against both fields, made when asked.

A board's figures across the field depend on its own results alone once written apart from the field's E (the most
results any board has, which grows as clubs push): in MP1 units with Neuberg a real side scores a E - 1 of a top of
2 (E - 1), where a = (MP1 + 1) / compared is the board's own; an artificial one a share of that top. A pair's total
is then E times the sum of its a's, less its real boards, plus its shares of the top: a sum PostgreSQL makes for
every pair at once, whatever E has become since its boards were scored."""

from __future__ import annotations

import logging
import time
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tenace.hub.schema import CHANNEL
from tenace.scoring.adjusted import revised_percent
from tenace.scoring.matchpoints import SideKind, artificial_side, matchpoint_board
from tenace.scoring.model import (
    Artificial,
    Average,
    BoardResult,
    NotPlayed,
    Outcome,
    Penalty,
    PenaltyUnit,
    Played,
    Split,
    Weighted,
)
from tenace.scoring.mp_options import MatchpointOptions
from tenace.scoring.pairs_session import (
    PairSums,
    PairTotal,
    SessionScore,
    pair_total,
    rank_session,
    revisions,
    score_pairs_session,
)
from tenace.scoring.ranking import Placing
from tenace.scoring.rounding import round_ratio

log = logging.getLogger(__name__)

# One field: every club's every section compared together; totals from the exact board MPs (a board's published
# figures change with E, which any club's push may raise, so they are not summed).
NATIONAL = MatchpointOptions(across_sections=True, total_from_published_boards=False)
CLUB = MatchpointOptions()  # a club scores each of its sections as its own field


@dataclass(frozen=True)
class PairId:
    club: str
    section: str
    number: int
    field: str  # "NS", "EW", or "" in a Howell

    @property
    def text(self) -> str:
        return f"{self.club}/{self.section}{self.number}{self.field}"

    @classmethod
    def parse(cls, text: str) -> PairId:
        club, _, rest = text.partition("/")
        field = rest[-2:] if rest[-2:] in ("NS", "EW") else ""
        body = rest[:len(rest) - len(field)]
        i = len(body)
        while i > 0 and body[i - 1].isdigit():
            i -= 1
        return cls(club, body[:i], int(body[i:] or 0), field)


def _side(text: str | None) -> Average | Fraction:
    if text in ("A+", "A", "A-"):
        return Average(text)
    if text is None or not text.endswith("%"):
        raise ValueError(f"an artificial score is A+, A, A- or a percentage, not {text!r}")
    return Fraction(text[:-1])


def _weights(text: str) -> Weighted:
    return Weighted(tuple((Fraction(w), int(s)) for w, _, s in (p.partition(":") for p in text.split(","))))


def outcome(s: dict[str, Any]) -> Outcome:
    """What a pushed slot in state 'result' counts as, for the matchpoint engine."""
    kind = s["kind"]
    if kind in ("normal", "passed_out"):
        return Played(int(s["ns_score"] or 0))
    if kind == "artificial":
        return Artificial(_side(s["ns_adjust"]), _side(s["ew_adjust"]))
    if kind == "weighted":
        ns = _weights(s["weights"])
        return Split(ns, _weights(s["ew_weights"])) if s.get("ew_weights") else ns
    return NotPlayed()


def outcome_from_text(text: str) -> Outcome:
    """What a slot's `outcome` column (schema migration 3: P420, AA+|A-, W0.6:420,0.4:-50|, N) counts as."""
    kind, body = text[:1], text[1:]
    if kind == "P":
        return Played(int(body))
    if kind == "A":
        ns, _, ew = body.partition("|")
        return Artificial(_side(ns), _side(ew))
    if kind == "W":
        ns, _, ew = body.partition("|")
        return Split(_weights(ns), _weights(ew)) if ew else _weights(ns)
    return NotPlayed()


def result_of(club: str, s: dict[str, Any]) -> BoardResult:
    ns = PairId(club, s["section"], s["ns_pair"], s["ns_field"]).text
    ew = PairId(club, s["section"], s["ew_pair"], s["ew_field"]).text
    return BoardResult(f"{club}/{s['section']}", s["table"], s["round"], s["board"], ns, ew, outcome(s))


def penalty_of(club: str, p: dict[str, Any]) -> Penalty:
    unit = PenaltyUnit.MATCHPOINTS if p["unit"] == "MP" else PenaltyUnit.PERCENT_OF_TOP
    return Penalty(PairId(club, p["section"], p["pair"], p["field"]).text, Fraction(p["amount"]), unit, p["board"])


def load(conn: psycopg.Connection[Any], sim: str, club: str | None = None
         ) -> tuple[dict[str, list[BoardResult]], dict[str, list[Penalty]]]:
    """Every club's counting results and penalties (one club's when `club` is given), by club."""
    results: dict[str, list[BoardResult]] = {}
    for slot_club, body in conn.execute(
            "SELECT club, body FROM slots WHERE sim = %s AND (%s::text IS NULL OR club = %s) AND outcome IS NOT NULL "
            "ORDER BY club, section, table_no, round, board", (sim, club, club)):
        results.setdefault(slot_club, []).append(result_of(slot_club, body))
    penalties: dict[str, list[Penalty]] = {}
    for slot_club, body in conn.execute("SELECT club, body FROM penalties WHERE sim = %s AND "
                                        "(%s::text IS NULL OR club = %s) ORDER BY club, action", (sim, club, club)):
        if not body["withdrawn"]:
            penalties.setdefault(slot_club, []).append(penalty_of(slot_club, body))
    return results, penalties


def rows_of(session: SessionScore) -> list[dict[str, Any]]:
    """A ranking as the pages show it and the hub stores it."""
    return _rows(session.totals, session.ranking)


def _rows(totals: dict[str, PairTotal], ranking: Iterable[Placing]) -> list[dict[str, Any]]:
    rows = []
    for p in ranking:
        t = totals[p.pair]
        rows.append({"pair": p.pair, "field": p.field, "rank": p.text, "mp": str(t.mp), "top": t.top,
                     "percent": str(t.percent), "boards": t.boards})
    return rows


def full_national(results: dict[str, list[BoardResult]], penalties: dict[str, list[Penalty]]) -> list[dict[str, Any]]:
    """The national ranking scored from scratch by scoring.pairs_session, as the incremental one must equal."""
    every = [r for rs in results.values() for r in rs]
    if not every:
        return []
    return rows_of(score_pairs_session(every, NATIONAL, [p for ps in penalties.values() for p in ps]))


def club_ranking(conn: psycopg.Connection[Any], sim: str, club: str) -> list[dict[str, Any]]:
    """The club's own ranking: its results alone, each section a field, as the club scores them (made when asked:
    a club's field is small)."""
    results, penalties = load(conn, sim, club)
    if not results.get(club):
        return []
    # hub-imps: an IMP sim's club ranks in IMPs (field_imps; imported here: it imports this module)
    from tenace.hub import field_imps
    scoring = field_imps.sim_scoring(conn, sim)
    if scoring != "mp":
        return field_imps.club_imps_ranking(results[club], penalties.get(club, ()), scoring)
    return rows_of(score_pairs_session(results[club], CLUB, penalties.get(club, ())))


def pair_cards(conn: psycopg.Connection[Any], sim: str, pair: str) -> list[list[Any]] | None:
    """A pair's boards against its club's field and the nation's: [board, direction, club MP, %, top, national MP,
    %, top]; None when the pair has no scored board. Made when the pair's page is asked for."""
    # hub-imps: an IMP sim's cards are in IMPs (field_imps; imported here: it imports this module)
    from tenace.hub import field_imps
    scoring = field_imps.sim_scoring(conn, sim)
    if scoring != "mp":
        return field_imps.imp_pair_cards(conn, sim, pair, scoring)
    club = pair.partition("/")[0]
    results, penalties = load(conn, sim, club)
    if not results.get(club):
        return None
    own = score_pairs_session(results[club], CLUB, penalties.get(club, ()))
    mine = {b.board: side for b in own.boards for p, side in b.pair_sides() if p == pair}
    if not mine:
        return None
    with conn.transaction():  # one snapshot: E and the figures of the same pass
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        expected = _expected(conn, sim)
        national = {int(board): (direction, bool(art), Fraction(int(num), int(den)), average)
                    for board, direction, art, num, den, average in conn.execute(
                        "SELECT s.board, f.direction, f.artificial, f.num, f.den, f.average FROM slots s "
                        "JOIN national_figures f ON f.sim = s.sim AND f.board = s.board AND f.outcome = s.outcome "
                        "AND f.direction = CASE WHEN s.ns_id = %s THEN 'NS' ELSE 'EW' END WHERE s.sim = %s "
                        "AND s.club = %s AND (s.ns_id = %s OR s.ew_id = %s)", (pair, sim, club, pair, pair))}
    top = 2 * (expected - 1)
    reals = [value * expected - 1 for _, art, value, _ in national.values() if not art]
    real_percent = sum(reals, Fraction(0)) * 100 / (top * len(reals)) if reals and top else None  # Law 12C2(c)
    o = NATIONAL
    cards: list[list[Any]] = []
    for board, side in sorted(mine.items()):
        if board not in national:
            continue
        direction, art, value, average = national[board]
        if art:
            figures = artificial_side(direction, Average(average) if average else value * 100, top, o)
            revised = revised_percent(figures, real_percent, o)
            if revised is not None:
                figures = artificial_side(direction, figures.average or value * 100, top, o, percent=revised)
            mp, percent = figures.mp, figures.percent
        else:
            exact = value * expected - 1
            mp = round_ratio(exact.numerator, exact.denominator, o.board_mp_decimals, o.rounding)
            percent = (round_ratio(exact.numerator * 100, exact.denominator * top, o.board_percent_decimals,
                                   o.rounding) if top else Decimal(50))
        cards.append([board, side.direction, str(side.mp), str(side.percent), side.top, str(mp), str(percent), top])
    return cards


def _expected(conn: psycopg.Connection[Any], sim: str) -> int:
    row = conn.execute("SELECT max(entries) FROM national_boards WHERE sim = %s", (sim,)).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


Figure = tuple[str, str, bool, int, int, str | None]  # direction, outcome, artificial, num, den, average


def board_figures(board: int, outcomes: dict[str, int]) -> tuple[int, list[Figure]]:
    """A board's entries and, per distinct outcome and direction, (direction, outcome, artificial, num, den, average):
    matchpoint_board on the board's own results (one stand-in table per result: who sat there does not change
    the figures), each side's figures written apart from E."""
    results: list[BoardResult] = []
    first: dict[str, int] = {}
    for text, count in sorted(outcomes.items()):
        got = outcome_from_text(text)
        first[text] = len(results)
        for _ in range(count):
            i = len(results)
            results.append(BoardResult("", i, 1, board, f"n{i}", f"e{i}", got))
    entries = len(results)
    scored = matchpoint_board(results, NATIONAL, entries, None)
    figures: list[Figure] = []
    for text, i in first.items():
        for side in scored.figures[i]:
            if side is None:
                continue  # not played: no score for either pair
            if side.kind is SideKind.ARTIFICIAL:
                share = side.exact / side.top if side.top else Fraction(side.percent) / 100
                figures.append((side.direction, text, True, share.numerator, share.denominator,
                                None if side.average is None else side.average.value))
            else:
                a = (side.exact + 1) / entries
                figures.append((side.direction, text, False, a.numerator, a.denominator, None))
    return entries, figures


def _national(conn: psycopg.Connection[Any], sim: str, expected: int) -> list[dict[str, Any]]:
    """The national ranking from the boards' figures: the pairs' sums in PostgreSQL, then E, Law 12C2(c), Law 90
    and the ranks (scoring.pairs_session's own pair_total and rank_session)."""
    top = 2 * (expected - 1)
    sums: dict[str, PairSums] = {}
    reals: dict[str, Fraction] = defaultdict(Fraction)

    def acc(pair: str) -> PairSums:
        got = sums.get(pair)
        if got is None:
            pid = PairId.parse(pair)
            got = sums[pair] = PairSums(f"{pid.club}/{pid.section}")  # as result_of names the section
        return got

    # Hash joins: the figures and slots of a sim being pushed have no statistics yet, and the planner's guess
    # (one row each) picks a nested loop, quadratic in the results (7 s for 12,000).
    conn.execute("SET LOCAL enable_nestloop = off")
    conn.execute("SET LOCAL work_mem = '256MB'")  # the pairs' sums hashed in memory, not sorted on disk
    sides = ("SELECT ns_id AS pair, 'NS' AS direction, board, outcome FROM slots WHERE sim = %(sim)s AND outcome "
             "IS NOT NULL UNION ALL SELECT ew_id, 'EW', board, outcome FROM slots WHERE sim = %(sim)s AND outcome "
             "IS NOT NULL")
    for pair, direction, den, num, boards in conn.execute(
            f"SELECT s.pair, s.direction, f.den::text, sum(f.num)::text, count(*) FROM ({sides}) s "
            "JOIN national_figures f ON f.sim = %(sim)s AND f.board = s.board AND f.direction = s.direction "
            "AND f.outcome = s.outcome WHERE NOT f.artificial GROUP BY s.pair, s.direction, f.den", {"sim": sim}):
        a = acc(pair)
        a.directions.add(direction)
        a.boards += int(boards)
        a.top += top * int(boards)
        reals[pair] += Fraction(int(num), int(den))
    for pair, total in reals.items():
        a = sums[pair]
        exact = total * expected - a.boards  # every board so far is real: the artificial ones come next
        a.num = {exact.denominator: exact.numerator}
    for pair, direction, board, num, den, average in conn.execute(
            f"SELECT s.pair, s.direction, s.board, f.num, f.den, f.average FROM ({sides}) s JOIN national_figures f "
            "ON f.sim = %(sim)s AND f.board = s.board AND f.direction = s.direction AND f.outcome = s.outcome "
            "WHERE f.artificial", {"sim": sim}):
        share = Fraction(int(num), int(den))
        side = artificial_side(direction, Average(average) if average else share * 100, top, NATIONAL)
        a = acc(pair)
        a.boards += 1
        a.directions.add(direction)
        a.artificial[(None, int(board))] = side
    taken: dict[str, Fraction] = defaultdict(Fraction)
    for club, body in conn.execute("SELECT club, body FROM penalties WHERE sim = %s ORDER BY club, action", (sim,)):
        if not body["withdrawn"]:
            p = penalty_of(club, body)
            taken[p.pair] += p.amount if p.unit is PenaltyUnit.MATCHPOINTS else p.amount * top / 100
    revised = revisions(sums, NATIONAL)
    totals = {p: pair_total(p, a, revised, taken.get(p), NATIONAL) for p, a in sums.items()}
    return _rows(totals, rank_session(totals, None, NATIONAL))


def _lock_key(sim: str) -> int:
    return zlib.crc32(sim.encode()) - 2**31


def rescore(conn: psycopg.Connection[Any], sim: str, full: bool = False) -> bool | None:
    """Re-score the boards a push changed since the sim was last scored, and the national ranking from every
    board's figures, under the sim's lock (one worker at a time), all pushes committed meanwhile in one pass; True
    when scored now, False when it was up to date, None when another worker holds the lock. `full`: every board."""
    try:
        return _rescore(conn, sim, full)
    except psycopg.errors.SerializationFailure:  # another worker's pass committed as this one began
        return None


def _rescore(conn: psycopg.Connection[Any], sim: str, full: bool) -> bool | None:
    with conn.transaction():
        # One snapshot for the whole pass: the boards marked dirty are exactly those whose slots it reads.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        got = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (_lock_key(sim),)).fetchone()
        if not got or not got[0]:
            return None
        row = conn.execute("SELECT generation, scored FROM scores WHERE sim = %s", (sim,)).fetchone()
        if row is None or (row[0] == row[1] and not full):
            return False
        generation = int(row[0])
        started = time.perf_counter()
        marked = conn.execute("SELECT max(id), array_agg(DISTINCT board) FROM national_dirty WHERE sim = %s",
                              (sim,)).fetchone()
        last = marked[0] if marked else None
        boards: set[int] = set(marked[1] or ()) if marked else set()
        if full:
            boards |= {int(r[0]) for r in conn.execute(
                "SELECT DISTINCT board FROM slots WHERE sim = %s UNION SELECT board FROM national_boards "
                "WHERE sim = %s", (sim, sim))}
        if boards:
            outcomes: dict[int, dict[str, int]] = {b: {} for b in boards}
            for board, text, count in conn.execute(
                    "SELECT board, outcome, count(*) FROM slots WHERE sim = %s AND board = ANY(%s) AND outcome IS NOT "
                    "NULL GROUP BY board, outcome", (sim, sorted(boards))):
                outcomes[int(board)][text] = int(count)
            conn.execute("DELETE FROM national_boards WHERE sim = %s AND board = ANY(%s)", (sim, sorted(boards)))
            entries: list[tuple[Any, ...]] = []
            figures: list[tuple[Any, ...]] = []
            for board, counts in sorted(outcomes.items()):
                if not counts:
                    continue  # every result of the board erased
                n, sides = board_figures(board, counts)
                entries.append((sim, board, n))
                figures += [(sim, board, *side) for side in sides]
            with conn.cursor() as cur:
                with cur.copy("COPY national_boards (sim, board, entries) FROM STDIN") as copy:
                    for entry in entries:
                        copy.write_row(entry)
                with cur.copy("COPY national_figures (sim, board, direction, outcome, artificial, num, den, average) "
                              "FROM STDIN") as copy:
                    for figure in figures:
                        copy.write_row(figure)
        if last is not None:
            conn.execute("DELETE FROM national_dirty WHERE sim = %s AND id <= %s", (sim, last))
        expected = _expected(conn, sim)
        national = _national(conn, sim, expected) if expected else []
        count = conn.execute("SELECT count(*) FROM slots WHERE sim = %s AND outcome IS NOT NULL", (sim,)).fetchone()
        field = {"national": national, "results": int(count[0]) if count else 0, "expected": expected}
        conn.execute("UPDATE scores SET scored = %s, field = %s, cards = NULL, scored_at = now() WHERE sim = %s",
                     (generation, Jsonb(field), sim))
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"scored {sim} {generation}"))
        log.info("sim %s scored (%d results, %d boards re-scored) in %.3f s", sim, field["results"], len(boards),
                 time.perf_counter() - started)
    return True


def rescore_until_current(conn: psycopg.Connection[Any], sim: str, patience_s: float = 30.0) -> None:
    """Make sure the sim's scores are of its latest push: score it here, or wait for the worker scoring it."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() < deadline:
        done = rescore(conn, sim)
        if done is False:
            return
        if done is None:
            time.sleep(0.05)
