"""The sim scored across the whole field, board by board: every club's results matchpointed together (Neuberg where
counts differ) into the national ranking, kept in PostgreSQL and re-scored by tenace.hub.scorer
(only the boards a push changed); each club's own ranking and a pair's boards against both fields, made when asked.

A board's figures across the field depend on its own results alone once written apart from the field's E (the most
results any board has, which grows as clubs push): in MP1 units with Neuberg a real side scores a E - 1 of a top of
2 (E - 1), where a = (MP1 + 1) / compared is the board's own; an artificial one a share of that top. A pair's exact
total is then E times the sum of its a's, less its real boards, plus its shares of the top, and its published one
the sum of each distinct outcome's a E - 1 rounded: sums made for every pair at once (tenace.hub.scorer), whatever E
has become since its boards were scored."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import psycopg

from tenace.hub import queries
from tenace.scoring import codec
from tenace.scoring.adjusted import revised_percent
from tenace.scoring.matchpoints import SideKind, artificial_side, matchpoint_board, published
from tenace.scoring.model import (
    Average,
    BoardResult,
    Penalty,
    PenaltyUnit,
)
from tenace.scoring.mp_options import MatchpointOptions
from tenace.scoring.pairs_session import (
    PairTotal,
    SessionScore,
    own_percent,
    score_pairs_session,
)
from tenace.scoring.ranking import Placing

log = logging.getLogger(__name__)

# One field: every club's every section compared together, its figures as a club publishes them: a pair's total is
# the sum of its boards' published MPs at the field's E (tenace.hub.scorer rounds them again as E grows), so one club
# alone at the hub is ranked as `tenace results` ranks it, and a pair's page adds up (docs/organiser.md).
NATIONAL = MatchpointOptions(across_sections=True)
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


def result_of(club: str, s: dict[str, Any], outcome: str) -> BoardResult | None:
    """A stored slot's result, its `outcome` key read by tenace.scoring.codec; None when it cannot be read (the
    scorer quarantines such a slot: tenace.hub.scorer)."""
    try:
        got = codec.from_key(outcome)
    except codec.Unreadable:
        return None
    ns = PairId(club, s["section"], s["ns_pair"], s["ns_field"]).text
    ew = PairId(club, s["section"], s["ew_pair"], s["ew_field"]).text
    return BoardResult(f"{club}/{s['section']}", s["table"], s["round"], s["board"], ns, ew, got)


def penalty_of(club: str, p: dict[str, Any]) -> Penalty:
    unit = PenaltyUnit.MATCHPOINTS if p["unit"] == "MP" else PenaltyUnit.PERCENT_OF_TOP
    return Penalty(PairId(club, p["section"], p["pair"], p["field"]).text, Fraction(p["amount"]), unit, p["board"])


def load(conn: psycopg.Connection[Any], sim: str, club: str | None = None
         ) -> tuple[dict[str, list[BoardResult]], dict[str, list[Penalty]]]:
    """Every club's counting results and penalties (one club's when `club` is given), by club."""
    results: dict[str, list[BoardResult]] = {}
    for slot_club, body, outcome in queries.counting_slots(conn, sim, club):
        got = result_of(slot_club, body, outcome)
        if got is not None:
            results.setdefault(slot_club, []).append(got)
    penalties: dict[str, list[Penalty]] = {}
    for slot_club, body in queries.penalties(conn, sim, club):
        if not body["withdrawn"]:
            penalties.setdefault(slot_club, []).append(penalty_of(slot_club, body))
    return results, penalties


def rows_of(session: SessionScore) -> list[dict[str, Any]]:
    """A ranking as the pages show it and the hub stores it."""
    return ranking_rows(session.totals, session.ranking)


def ranking_rows(totals: dict[str, PairTotal], ranking: Iterable[Placing]) -> list[dict[str, Any]]:
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


def mp_club_ranking(conn: psycopg.Connection[Any], sim: str, club: str) -> list[dict[str, Any]]:
    """A matchpoint sim's club's own ranking: its results alone, each section a field, as the club scores them
    (made when asked: a club's field is small)."""
    results, penalties = load(conn, sim, club)
    if not results.get(club):
        return []
    return rows_of(score_pairs_session(results[club], CLUB, penalties.get(club, ())))


def mp_pair_cards(conn: psycopg.Connection[Any], sim: str, pair: str) -> list[list[Any]] | None:
    """A matchpoint sim's pair's boards against its club's field and the nation's: [board, direction, club MP, %,
    top, national MP, %, top]; None when the pair has no scored board. Made when the pair's page is asked for."""
    club = pair.partition("/")[0]
    results, penalties = load(conn, sim, club)
    if not results.get(club):
        return None
    own = score_pairs_session(results[club], CLUB, penalties.get(club, ()))
    mine = {b.board: side for b in own.boards for p, side in b.pair_sides() if p == pair}
    if not mine:
        return None
    with conn.transaction():  # one snapshot: E and the figures of the same pass
        queries.repeatable_read(conn)
        expected = queries.most_entries(conn, sim)
        national = {int(board): (direction, bool(art), Fraction(int(num), int(den)), average)
                    for board, direction, art, num, den, average in queries.pair_national_figures(conn, sim, club,
                                                                                                 pair)}
    top = 2 * (expected - 1)
    reals = [value * expected - 1 for _, art, value, _ in national.values() if not art]
    real_percent = own_percent(sum(reals, Fraction(0)), top * len(reals))
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
            mp, percent = published(value * expected - 1, top, o)
        cards.append([board, side.direction, str(side.mp), str(side.percent), side.top, str(mp), str(percent), top])
    return cards


Figure = tuple[str, str, bool, int, int, str | None]  # direction, outcome, artificial, num, den, average


def board_figures(board: int, outcomes: dict[str, int]) -> tuple[int, list[Figure]]:
    """A board's entries and, per distinct outcome and direction, (direction, outcome, artificial, num, den, average):
    matchpoint_board on the board's own results (one stand-in table per result: who sat there does not change
    the figures), each side's figures written apart from E. A board of played scores alone, the common case, is
    counted directly: a side's MP1 + 1 is two per score it beats and one per equal score, its own included (the
    engine's arithmetic, pinned against it by test_hub_scorer; 8,000 results a board would cost the engine 30 ms)."""
    if all(text[:1] == "P" for text in outcomes):
        return _played_figures(outcomes)
    return _engine_figures(board, outcomes)


def _played_figures(outcomes: dict[str, int]) -> tuple[int, list[Figure]]:
    entries = sum(outcomes.values())
    figures: list[Figure] = []
    below = 0
    for _, text in sorted((int(text[1:]), text) for text in outcomes):
        equal = outcomes[text]
        above = entries - below - equal
        for direction, beaten in (("NS", below), ("EW", above)):
            a = Fraction(2 * beaten + equal, entries)
            figures.append((direction, text, False, a.numerator, a.denominator, None))
        below += equal
    return entries, figures


def _engine_figures(board: int, outcomes: dict[str, int]) -> tuple[int, list[Figure]]:
    results: list[BoardResult] = []
    first: dict[str, int] = {}
    for text, count in sorted(outcomes.items()):
        got = codec.from_key(text)
        first[text] = len(results)
        for _ in range(count):
            i = len(results)
            results.append(BoardResult("", i, 1, board, f"n{i}", f"e{i}", got))
    entries = len(results)
    # Scored to a top of at least 2: at a top of 0 (the board's only result) an artificial side's percentage is lost
    # (50 %), and a played side's (MP + 1) / E is the same for any E (Neuberg).
    factored = max(entries, 2)
    scored = matchpoint_board(results, NATIONAL, factored, None)
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
                a = (side.exact + 1) / factored
                figures.append((side.direction, text, False, a.numerator, a.denominator, None))
    return entries, figures
