"""Travellers and rankings for the tables, from the store's current results and the matchpoint engine."""

from __future__ import annotations

import sqlite3
from decimal import Decimal

from tenace.collector.wire_results import lead_code, section_letter
from tenace.scoring.matchpoints import matchpoint_board
from tenace.scoring.pairs_session import score_pairs_session
from tenace.store.encounters import slot_count
from tenace.store.queries import current_results
from tenace.store.scoring_input import board_results
from tenace.store.versions import Version
from tenace_rules.notation import parse_contract
from tenace_wire.director_messages import MAX_LINES, PERCENT, Ranking, RankingLine, Traveller, TravellerLine
from tenace_wire.table_messages import ADJUSTED, NOT_PLAYED, PASSED_OUT, PLAYED

_ADJUSTS = {"A-": 1, "A": 2, "A+": 3}
_SEATS = "NESW"


def traveller(conn: sqlite3.Connection, section: int, board: int) -> Traveller | None:
    """The board's results at every table so far with NS's score and matchpoint percentage; None when none."""
    name = section_letter(section)
    results = [r for r in board_results(conn, name) if r.board == board]
    if not results:
        return None
    expected = slot_count(conn, name, board)
    scored = matchpoint_board(results, expected=max(int(expected), len(results)), section=name)
    percent = {(t.result.table, t.result.round): t.ns.percent for t in scored.tables if t.ns is not None}
    versions = [v for v in current_results(conn, name) if v.board == board]
    lines = []
    for v in sorted(versions, key=lambda v: (v.round, v.table))[:MAX_LINES]:
        line = _line(v, percent.get((v.table, v.round)))
        if line is not None:
            lines.append(line)
    return Traveller(section=section, board=board, lines=tuple(lines))


def _line(v: Version, ns_percent: Decimal | None) -> TravellerLine | None:
    if v.ns_pair > 1023 or v.ew_pair > 1023:
        return None
    fields: dict[str, int] = {}
    if v.kind == "normal" and v.contract and v.declarer and v.tricks is not None:
        c = parse_contract(v.contract)
        fields = {"kind": PLAYED, "level": c.level, "strain": c.strain, "doubling": c.doubling,
                  "declarer": _SEATS.index(v.declarer), "tricks": v.tricks, "lead": lead_code(v.lead)}
    elif v.kind == "passed_out":
        fields = {"kind": PASSED_OUT}
    elif v.kind == "artificial" and v.ns_adjust in _ADJUSTS and v.ew_adjust in _ADJUSTS:
        fields = {"kind": ADJUSTED, "ns_adjust": _ADJUSTS[v.ns_adjust], "ew_adjust": _ADJUSTS[v.ew_adjust]}
    elif v.kind == "not_played":
        fields = {"kind": NOT_PLAYED}
    else:
        return None  # a director's percentage or weighted score: the wire has no words for it
    score = v.ns_score or 0
    percent = int(ns_percent * 100) if ns_percent is not None else 5000
    return TravellerLine(ns_pair=v.ns_pair, ew_pair=v.ew_pair, ns_score=score, ns_percent=max(0, min(percent, 10000)),
                         **fields)


def ranking(conn: sqlite3.Connection, section: int, round_: int) -> Ranking:
    """The section's matchpoint ranking so far, best first, percentages in hundredths (at most 64 lines).

    A Mitchell ranks its NS and EW fields apart and numbers their pairs alike: the lines of both fields
    are sent, field by field, each pair under its number.
    """
    name = section_letter(section)
    results = board_results(conn, name)
    lines: list[RankingLine] = []
    if results:
        session = score_pairs_session(results)
        for placing in session.ranking:
            total = session.totals[placing.pair]
            number = int("".join(ch for ch in placing.pair[len(name):] if ch.isdigit()) or 0)
            if 1 <= number <= 1023 and len(lines) < MAX_LINES:
                lines.append(RankingLine(rank=min(placing.rank, 1023), pair=number, score=int(total.percent * 100)))
    return Ranking(section=section, round=round_, unit=PERCENT, lines=tuple(lines))
