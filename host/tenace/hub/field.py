"""The sim scored across the whole field: every club's results matchpointed together (Neuberg where counts differ),
the national ranking, each club's own ranking (its results alone, as the club scores them) and each pair's boards
against both fields; re-scored by whichever worker takes the sim's lock, and cached in PostgreSQL (scores)."""

from __future__ import annotations

import logging
import time
import zlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tenace.hub.schema import CHANNEL
from tenace.scoring.matchpoints import SideScore
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
from tenace.scoring.pairs_session import SessionScore, score_pairs_session

log = logging.getLogger(__name__)

NATIONAL = MatchpointOptions(across_sections=True)  # one field: every club's every section compared together
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


def result_of(club: str, s: dict[str, Any]) -> BoardResult:
    ns = PairId(club, s["section"], s["ns_pair"], s["ns_field"]).text
    ew = PairId(club, s["section"], s["ew_pair"], s["ew_field"]).text
    return BoardResult(f"{club}/{s['section']}", s["table"], s["round"], s["board"], ns, ew, outcome(s))


def penalty_of(club: str, p: dict[str, Any]) -> Penalty:
    unit = PenaltyUnit.MATCHPOINTS if p["unit"] == "MP" else PenaltyUnit.PERCENT_OF_TOP
    return Penalty(PairId(club, p["section"], p["pair"], p["field"]).text, Fraction(p["amount"]), unit, p["board"])


def load(conn: psycopg.Connection[Any], sim: str) -> tuple[dict[str, list[BoardResult]], dict[str, list[Penalty]]]:
    """Every club's counting results and penalties, by club."""
    results: dict[str, list[BoardResult]] = {}
    for club, body in conn.execute("SELECT club, body FROM slots WHERE sim = %s AND body->>'state' = 'result' "
                                   "ORDER BY club, section, table_no, round, board", (sim,)):
        results.setdefault(club, []).append(result_of(club, body))
    penalties: dict[str, list[Penalty]] = {}
    for club, body in conn.execute("SELECT club, body FROM penalties WHERE sim = %s ORDER BY club, action", (sim,)):
        if not body["withdrawn"]:
            penalties.setdefault(club, []).append(penalty_of(club, body))
    return results, penalties


def _rows(session: SessionScore) -> list[dict[str, Any]]:
    rows = []
    for p in session.ranking:
        t = session.totals[p.pair]
        rows.append({"pair": p.pair, "field": p.field, "rank": p.text, "mp": str(t.mp), "top": t.top,
                     "percent": str(t.percent), "boards": t.boards})
    return rows


def _cards(session: SessionScore) -> dict[str, dict[int, SideScore]]:
    cards: dict[str, dict[int, SideScore]] = {}
    for b in session.boards:
        for pair, side in b.pair_sides():
            cards.setdefault(pair, {})[b.board] = side
    return cards


def score_field(results: dict[str, list[BoardResult]], penalties: dict[str, list[Penalty]]) -> dict[str, Any]:
    """The national ranking, each club's, and each pair's boards against both fields, as stored (JSON)."""
    every = [r for rs in results.values() for r in rs]
    if not every:
        return {"national": [], "clubs": {}, "cards": {}, "results": 0}
    national = score_pairs_session(every, NATIONAL, [p for ps in penalties.values() for p in ps])
    national_cards = _cards(national)
    clubs: dict[str, list[dict[str, Any]]] = {}
    cards: dict[str, list[list[Any]]] = {}
    for club, rs in sorted(results.items()):
        own = score_pairs_session(rs, CLUB, penalties.get(club, ()))
        clubs[club] = _rows(own)
        for pair, boards in _cards(own).items():
            versus = national_cards.get(pair, {})
            cards[pair] = [[board, side.direction, str(side.mp), str(side.percent), side.top,
                            str(versus[board].mp), str(versus[board].percent), versus[board].top]
                           for board, side in sorted(boards.items()) if board in versus]
    return {"national": _rows(national), "clubs": clubs, "cards": cards, "results": len(every)}


def _lock_key(sim: str) -> int:
    return zlib.crc32(sim.encode()) - 2**31


def rescore(conn: psycopg.Connection[Any], sim: str) -> bool | None:
    """Re-score the sim if a push changed it since it was last scored, under its lock (one worker at a time); True
    when scored now, False when it was up to date, None when another worker holds the lock."""
    with conn.transaction():
        got = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (_lock_key(sim),)).fetchone()
        if not got or not got[0]:
            return None
        row = conn.execute("SELECT generation, scored FROM scores WHERE sim = %s", (sim,)).fetchone()
        if row is None or row[0] == row[1]:
            return False
        generation = int(row[0])
        started = time.perf_counter()
        results, penalties = load(conn, sim)
        field = score_field(results, penalties)
        cards = field.pop("cards")
        conn.execute("UPDATE scores SET scored = %s, field = %s, cards = %s, scored_at = now() WHERE sim = %s",
                     (generation, Jsonb(field), Jsonb(cards), sim))
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"scored {sim} {generation}"))
        log.info("sim %s scored (%d results) in %.3f s", sim, field["results"], time.perf_counter() - started)
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

