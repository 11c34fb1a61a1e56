"""The event store: one SQLite file per event, results ingested exactly once, append-only, with versions."""

from tenace.store.db import connect, transaction
from tenace.store.director import choose_version, enter_result
from tenace.store.errors import EntryError, StoreError
from tenace.store.event import EventInfo, SectionInfo, add_section, create_event, event_info, sign_in
from tenace.store.ingest import ingest, refuse_frame
from tenace.store.model import IncomingResult, Ingested, Kind, Refusal, Status
from tenace.store.queries import (
    Conflict,
    Correction,
    Missing,
    RefusalGroup,
    RefusalRow,
    ScoringRow,
    TerminalStatus,
    conflicts,
    corrections,
    current_results,
    missing_results,
    refusal_groups,
    refusals,
    scoring_rows,
    states,
    terminal_status,
)
from tenace.store.session_state import is_ingested, next_host_sequence, reserve_host_sequence
from tenace.store.versions import Slot, SlotState, Version

__all__ = [
    "Conflict",
    "Correction",
    "EntryError",
    "EventInfo",
    "IncomingResult",
    "Ingested",
    "Kind",
    "Missing",
    "Refusal",
    "RefusalGroup",
    "RefusalRow",
    "ScoringRow",
    "SectionInfo",
    "Slot",
    "SlotState",
    "Status",
    "StoreError",
    "TerminalStatus",
    "Version",
    "add_section",
    "choose_version",
    "conflicts",
    "connect",
    "corrections",
    "create_event",
    "current_results",
    "enter_result",
    "event_info",
    "ingest",
    "is_ingested",
    "missing_results",
    "next_host_sequence",
    "refusal_groups",
    "refusals",
    "refuse_frame",
    "reserve_host_sequence",
    "scoring_rows",
    "sign_in",
    "states",
    "terminal_status",
    "transaction",
]
