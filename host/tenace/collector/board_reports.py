"""Travellers and rankings for the tables, from the store's current results and the matchpoint engine."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

from tenace.collector.board_messages import ranking_message, traveller_message
from tenace.collector.wire_results import section_letter
from tenace.reports.session import session_report
from tenace.reports.store_results import StorePairs, section_options, version_line
from tenace.scoring.matchpoints import matchpoint_board
from tenace.scoring.pairs_session import score_pairs_session
from tenace.store.encounters import slot_count
from tenace.store.fields import one_field
from tenace.store.queries import current_results
from tenace.store.scoring_input import board_results
from tenace_wire.director_messages import Ranking, Traveller


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
    lines = [replace(version_line(v), percent_ns=percent.get((v.table, v.round)))
             for v in sorted(versions, key=lambda v: (v.round, v.table))]
    return traveller_message(section, board, lines)


def ranking(conn: sqlite3.Connection, section: int, round_: int) -> Ranking:
    """The section's matchpoint ranking so far, best first, percentages in hundredths (at most 64 lines).

    A Mitchell ranks its NS and EW fields apart and numbers their pairs alike: the lines of both fields
    are sent, field by field, each pair under its number and direction. A Howell's pairs are one field, each
    line's direction FIELD.
    """
    name = section_letter(section)
    pairs = StorePairs()
    results = board_results(conn, name, pair_name=pairs)
    if not results:
        return ranking_message(section, round_, ())
    session = score_pairs_session(results, section_options(one_field(conn, name)))
    report = session_report(session, pairs.named, "mp", travellers=False)
    return ranking_message(section, round_, report.ranking)
