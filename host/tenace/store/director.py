"""The TD's entries at the laptop (Law 79C corrections, adjusted scores, erasures), each a new version."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

from tenace.store import validate
from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.errors import EntryError
from tenace.store.ingest import add_version
from tenace.store.model import IncomingResult, Ingested, Kind
from tenace.store.validate import Bad, Entry
from tenace.store.versions import load_versions

log = logging.getLogger(__name__)


def enter_result(conn: sqlite3.Connection, section: str, table: int, round: int, board: int, *, who: str,
                 why: str, kind: str = Kind.NORMAL, contract: str | None = None, declarer: str | None = None,
                 tricks: int | str | None = None, lead: str | None = None, ns_adjust: str | None = None,
                 ew_adjust: str | None = None, weights: Sequence[tuple[Fraction | int | str, int]] | None = None,
                 ns_pair: int | None = None, ew_pair: int | None = None, at: datetime | None = None) -> Ingested:
    """Enter the result of a slot as the director, replacing whatever stands there now (and settling a conflict).

    Every kind is possible: normal, passed_out, not_played, artificial (A+/A/A- or "65%" for each side),
    weighted (components (weight, NS score) adding up to 1), erased. The pairs default to the movement's;
    give them when the TD rules that other pairs played the board. `who` and `why` are required (Law 79C).
    Raises EntryError, with the reason, when the entry is not valid; nothing is then recorded.
    """
    with transaction(conn):
        try:
            names = validate.text(who, "who", 80, "bad_text"), validate.text(why, "why", 500, "bad_text")
            seated = validate.check_slot(conn, _entry(section, table, round, board, 1, 1, Kind.NOT_PLAYED))
            message = IncomingResult(
                terminal=0, sequence=0, section=section, table=table, round=round, board=board,
                ns_pair=seated[0] if ns_pair is None else ns_pair, ew_pair=seated[1] if ew_pair is None else ew_pair,
                kind=kind, contract=contract, declarer=declarer, tricks=tricks, lead=lead, ns_adjust=ns_adjust,
                ew_adjust=ew_adjust)
            entry = validate.entry_of(message, from_terminal=False, weights=weights)
        except Bad as bad:
            raise EntryError(bad.refusal.detail) from None
        outcome = add_version(conn, entry, source="director", who=names[0], why=names[1], at=timestamp(at))
    log.info("director %s: %s (%s)", names[0], outcome.detail, names[1])
    return outcome


def choose_version(conn: sqlite3.Connection, result_id: int, *, who: str, why: str,
                   at: datetime | None = None) -> Ingested:
    """Settle a slot (typically a conflict) on one of its stored versions: a new version with that content."""
    chosen = next((v for v in load_versions(conn) if v.id == result_id), None)
    if chosen is None:
        raise EntryError(f"there is no result with id {result_id}")
    weights = None
    if chosen.weights:
        weights = [(w, int(s)) for w, s in (part.split(":") for part in chosen.weights.split())]
    return enter_result(conn, chosen.section, chosen.table, chosen.round, chosen.board, who=who, why=why,
                        kind=chosen.kind, contract=chosen.contract if chosen.kind == Kind.NORMAL else None,
                        declarer=chosen.declarer, tricks=chosen.tricks, lead=chosen.lead, ns_adjust=chosen.ns_adjust,
                        ew_adjust=chosen.ew_adjust, weights=weights, ns_pair=chosen.ns_pair,
                        ew_pair=chosen.ew_pair, at=at)


def _entry(section: str, table: int, round_: int, board: int, ns_pair: int, ew_pair: int, kind: Kind) -> Entry:
    """The bare where-part of an entry, checked for types, to look the slot up in the movement."""
    message = IncomingResult(terminal=0, sequence=0, section=section, table=table, round=round_, board=board,
                             ns_pair=ns_pair, ew_pair=ew_pair, kind=kind)
    return validate.entry_of(message, from_terminal=False)
