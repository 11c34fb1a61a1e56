"""The store's current results in the scoring engine's model (tenace.scoring.model.BoardResult)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from tenace.scoring import codec
from tenace.scoring.model import BoardResult, Outcome, Penalty, PenaltyUnit
from tenace.store.director import penalties
from tenace.store.fields import one_field_sections
from tenace.store.queries import current_results
from tenace.store.versions import Version


def pair_id(section: str, number: int, direction: str) -> str:
    """A pair id unique in the event: "A7NS" (a Mitchell has an NS 7 and an EW 7 in section A), "A7" for a pair of
    one field (direction "": a Howell's pair 7, whichever way it sits)."""
    return f"{section}{number}{direction}"


def board_results(conn: sqlite3.Connection, section: str | None = None,
                  pair_name: Callable[[str, int, str], str] = pair_id) -> list[BoardResult]:
    """Every result that counts now, as the scoring engine takes it.

    Conflicted slots are left out (nothing counts there until the TD decides: list them with
    `conflicts` to mark a ranking provisional), as are erased ones; not-played boards are kept.
    A Mitchell's pairs are named with the direction they keep ("NS", "EW"), a Howell's with none ("").
    """
    single = one_field_sections(conn)
    out = []
    for v in current_results(conn, section):
        ns, ew = ("", "") if v.section in single else ("NS", "EW")
        out.append(BoardResult(v.section, v.table, v.round, v.board, pair_name(v.section, v.ns_pair, ns),
                               pair_name(v.section, v.ew_pair, ew), outcome(v)))
    return out


def pair_penalties(conn: sqlite3.Connection, section: str | None = None,
                   pair_name: Callable[[str, int, str], str] = pair_id) -> list[Penalty]:
    """The Law 90 penalties the director gave, as the scoring engine takes them (pairs named as in board_results)."""
    return [Penalty(pair_name(p.section, p.pair, p.direction or ""), p.amount, PenaltyUnit(p.unit), p.board, p.why)
            for p in penalties(conn, section)]


def outcome(v: Version) -> Outcome:
    """The version's result as the scoring engine takes it (tenace.scoring.codec); ValueError naming it otherwise."""
    try:
        return codec.outcome(v.kind, v.ns_score, v.ns_adjust, v.ew_adjust, v.weights, v.ew_weights)
    except codec.Unreadable as e:
        raise ValueError(f"result id {v.id} ({v.kind}) has no score for the scoring engine: {e}") from None
