"""Writing a .bws import plan into a new event file through the store: movement, players, deals, result versions."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from tenace.bws.reader import Plan, ResultRow
from tenace.store import EntryError, create_event, transaction
from tenace.store.clock import timestamp
from tenace.store.hand_records import keep_hand_records
from tenace.store.ingest import add_version, record_refusal
from tenace.store.model import CONTRADICTION, IncomingResult, Kind, Refusal
from tenace.store.names import keep_roster, set_pair_players
from tenace.store.validate import Bad, entry_of
from tenace.store.versions import IMPORTED

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class Imported:
    results: int  # versions stored, erasures included
    erased: int
    players: int
    deals: int
    contradictions: tuple[str, ...]  # the plan's and the ones found while storing


def import_plan(plan: Plan, path: Path, source: str, *, who: str, scoring: str | None = None) -> Imported:
    """Create the event file `path` from `plan`; StoreError when it exists, EntryError when the store refuses the
    event itself (nothing is left then). `source` names the .bws in each version's why."""
    conn = create_event(path, name=plan.name, date=plan.date, scoring=scoring or plan.scoring,
                        sections={s.name: s.movement for s in plan.sections})
    said = list(plan.contradictions)
    stored = erased = players = deals = 0
    try:
        keep_roster(conn, plan.members)
        for s in plan.sections:
            for (pair, field), two in s.players.items():
                try:
                    set_pair_players(conn, s.name, pair, field, two, who=who)
                    players += 1
                except EntryError as e:
                    said.append(f"PlayerNumbers section {s.name} pair {pair}: {e}: left out")
            if s.deals:
                keep_hand_records(conn, s.name, s.deals)
                deals += len(s.deals)
            at = timestamp()
            with transaction(conn):
                for r in s.results:
                    try:
                        entry = entry_of(_message(s.name, r, r.kind), from_terminal=False)
                    except Bad as bad:
                        said.append(f"ReceivedData ID {r.id}: {bad.refusal.detail}: left out")
                        continue
                    why = f"{IMPORTED}{source} (ReceivedData ID {r.id})"
                    add_version(conn, entry, source="director", who=who, why=why, at=at)
                    stored += 1
                    if r.erased:  # the row was withdrawn in Bridgemate: its version stays, erased at once
                        add_version(conn, entry_of(_message(s.name, r, Kind.ERASED), from_terminal=False),
                                    source="director", who=who, why=f"{why}: erased in the .bws", at=at)
                        erased += 1
        with transaction(conn):
            for line in said:
                record_refusal(conn, Refusal(CONTRADICTION, line), at=timestamp())
    finally:
        conn.close()
    log.info("imported %s into %s: %d versions, %d contradictions", source, path, stored + erased, len(said))
    return Imported(stored + erased, erased, players, deals, tuple(said))


def _message(section: str, r: ResultRow, kind: str) -> IncomingResult:
    normal = kind == Kind.NORMAL
    return IncomingResult(terminal=0, sequence=0, section=section, table=r.table, round=r.round, board=r.board,
                          ns_pair=r.ns_pair, ew_pair=r.ew_pair, kind=kind, contract=r.contract if normal else None,
                          declarer=r.declarer if normal else None, tricks=r.tricks if normal else None,
                          lead=r.lead if normal else None)
