"""Hard rule 2: each result frame ingested exactly once, in one transaction, acknowledged only after COMMIT."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import sqlite3
from datetime import datetime
from enum import Enum

from tenace.store import validate
from tenace.store.clock import timestamp
from tenace.store.db import transaction
from tenace.store.model import IncomingResult, Ingested, Kind, Refusal, Status
from tenace.store.validate import Bad, Entry
from tenace.store.versions import Slot, SlotState, Version, slot_state

log = logging.getLogger(__name__)

# What is kept of a refused frame for the TD: enough to recognise it, not enough to fill the disk.
MAX_MESSAGE_TEXT = 800
MAX_RAW_BYTES = 256


def ingest(conn: sqlite3.Connection, message: IncomingResult, *, at: datetime | None = None) -> Ingested:
    """Store one decoded result message, or recognise it as a duplicate, or refuse it with a reason.

    The whole decision and its writes are one transaction: when this returns, the outcome is committed
    (acknowledge if `outcome.acknowledge`). Database errors propagate and nothing is committed: the
    collector must not acknowledge, the terminal will send the frame again.
    """
    received = timestamp(at)
    try:
        terminal, sequence = validate.identity(message)
    except Bad as bad:
        # Without a usable (terminal, sequence) the frame cannot be matched to a later copy: log each arrival.
        with transaction(conn):
            record_refusal(conn, bad.refusal, message=message, at=received)
        log.warning("refused a frame without identity: %s", bad.refusal.detail)
        return Ingested(Status.REFUSED, bad.refusal.reason, bad.refusal.detail)
    digest = digest_of(message)
    with transaction(conn):
        outcome = _decide(conn, message, terminal, sequence, digest, received)
    if outcome.status is Status.REFUSED:
        log.log(logging.DEBUG if outcome.repeat else logging.WARNING, "terminal %d seq %d refused: %s",
                terminal, sequence, outcome.detail)
    elif outcome.conflict:
        log.warning("terminal %d seq %d: %s", terminal, sequence, outcome.detail)
    else:
        log.debug("terminal %d seq %d %s: %s", terminal, sequence, outcome.status, outcome.detail)
    return outcome


def _decide(conn: sqlite3.Connection, message: IncomingResult, terminal: int, sequence: int, digest: str,
            received: str) -> Ingested:
    stored = conn.execute(
        "SELECT f.id, f.digest, r.id, r.version FROM frame f JOIN result r ON r.frame = f.id "
        "WHERE f.terminal = ? AND f.seq = ? AND f.outcome = 'stored'", (terminal, sequence)).fetchone()
    if stored is not None:
        if stored[1] == digest:
            return Ingested(Status.DUPLICATE, detail=f"terminal {terminal} seq {sequence} was stored before",
                            result_id=stored[2], version=stored[3], conflict=stored_undecided(conn, terminal, sequence))
        return _refuse(conn, message, terminal, sequence, digest, received, Refusal(
            "sequence_reused", f"terminal {terminal} seq {sequence} is already stored with a different result"))
    try:
        entry = validate.entry_of(message)
        validate.check_terminal_entry(conn, terminal, entry)
        who = validate.check_text(message.who, "who", 80) or f"terminal {terminal}"
        why = validate.check_text(message.why, "why", 500)
    except Bad as bad:
        return _refuse(conn, message, terminal, sequence, digest, received, bad.refusal)
    revision = int(message.revision)
    if (revision > 0 or entry.kind is Kind.ERASED) and why is None:
        why = "corrected through the terminal's director menu"
    frame_id = conn.execute(
        "INSERT INTO frame (terminal, seq, digest, received, outcome) VALUES (?, ?, ?, ?, 'stored')",
        (terminal, sequence, digest, received)).lastrowid
    conn.execute("UPDATE terminal SET last_seq = max(coalesce(last_seq, -1), ?), last_heard = ? WHERE id = ?",
                 (sequence, received, terminal))
    return add_version(conn, entry, source="terminal", who=who, why=why, at=received, revision=revision,
                       terminal=terminal, frame_id=frame_id)


def stored_undecided(conn: sqlite3.Connection, terminal: int, sequence: int) -> bool:
    """Whether the slot of the result this terminal's frame stored has no result that counts now, until the director
    decides (a conflict, or a head damaged in the event file): what a copy of the frame is answered (Ingested's
    `conflict`). False when the frame stored no result."""
    row = conn.execute(
        "SELECT r.section, r.table_no, r.round, r.board FROM frame f JOIN result r ON r.frame = f.id "
        "WHERE f.terminal = ? AND f.seq = ? AND f.outcome = 'stored'", (terminal, sequence)).fetchone()
    return row is not None and _undecided(slot_state(conn, Slot(*row)))


def _undecided(state: SlotState) -> bool:
    return bool(state.heads) and state.current is None


def add_version(conn: sqlite3.Connection, entry: Entry, *, source: str, who: str, why: str | None, at: str,
                revision: int | None = None, terminal: int | None = None, frame_id: int | None = None) -> Ingested:
    """Append a version to the entry's slot, inside the caller's transaction, and say what it replaces.

    The director's entry (source "director") replaces every current head of the slot, settling a conflict.
    A terminal's entry, whatever order its frames arrive in (the outcome must not depend on it):
    - a lower revision than one this terminal already stored for the slot arrived late: it is kept,
      superseded at once by the next higher revision;
    - a correction (revision 1-15) or an erasure replaces every current head, except this terminal's
      entries of the same revision (two different ones of those are a conflict);
    - a first entry (revision 0) replaces an erasure (the board is missing until a result is entered) and stands
      beside the other heads: if it differs from any, the slot is in conflict.
    The answer's `conflict` says the slot has no result that counts now, until the director decides: what the
    terminal is told (an entry that differs, or a head damaged in the event file).
    """
    slot = Slot(entry.section, entry.table, entry.round, entry.board)
    state = slot_state(conn, slot)
    version = 1 + max((v.version for v in state.versions), default=0)
    result_id = conn.execute(
        "INSERT INTO result (section, table_no, round, board, version, ns_pair, ew_pair, kind, contract, declarer,"
        " tricks, lead, ns_score, ns_adjust, ew_adjust, weights, ew_weights, source, terminal, frame, revision, who,"
        " at, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*slot, version, entry.ns_pair, entry.ew_pair, entry.kind.value, entry.contract, entry.declarer,
         entry.tricks, entry.lead, entry.ns_score, entry.ns_adjust, entry.ew_adjust, entry.weights,
         entry.ew_weights, source, terminal, frame_id, revision, who, at, why)).lastrowid
    assert result_id is not None
    where = f"section {slot.section} table {slot.table} round {slot.round} board {slot.board}"

    def mine(v: Version) -> bool:
        return v.source == "terminal" and v.terminal == terminal

    if revision is not None:
        later = [v for v in state.versions if mine(v) and v.revision is not None and v.revision > revision]
        if later:
            successor = min(later, key=lambda v: (v.revision or 0, v.id))
            conn.execute("INSERT INTO result_supersedes (result, supersedes) VALUES (?, ?)", (successor.id, result_id))
            return Ingested(Status.STORED, detail=f"{where}: v{version} (revision {revision}) arrived after "
                            f"revision {successor.revision}: kept, superseded by v{successor.version}",
                            result_id=result_id, version=version, conflict=_undecided(state))
    if revision is None:
        replaced = list(state.heads)
    elif revision > 0 or entry.kind is Kind.ERASED:
        replaced = [h for h in state.heads if not (mine(h) and h.revision == revision)]
    else:
        replaced = [h for h in state.heads if h.kind == Kind.ERASED]
    conn.executemany("INSERT INTO result_supersedes (result, supersedes) VALUES (?, ?)",
                     [(result_id, h.id) for h in replaced])
    differing = [h for h in state.heads if h not in replaced and h.content() != entry.content()]
    if differing:
        others = ", v".join(str(h.version) for h in differing)
        detail = f"{where}: v{version} differs from v{others}: conflict for the TD"
    elif replaced:
        detail = f"{where}: v{version} replaces v{', v'.join(str(h.version) for h in replaced)}"
    else:
        detail = f"{where}: v{version} stored"
    return Ingested(Status.STORED, detail=detail, result_id=result_id, version=version, conflict=bool(differing))


def _refuse(conn: sqlite3.Connection, message: IncomingResult, terminal: int, sequence: int, digest: str,
            received: str, refusal: Refusal) -> Ingested:
    """Record a refusal of an identified frame, once: the same frame refused again for the same reason adds nothing."""
    earlier = conn.execute(
        "SELECT r.detail FROM frame f JOIN refusal r ON r.id = f.refusal "
        "WHERE f.terminal = ? AND f.seq = ? AND f.digest = ? AND r.reason = ?",
        (terminal, sequence, digest, refusal.reason)).fetchone()
    if earlier is not None:
        return Ingested(Status.REFUSED, refusal.reason, earlier[0], repeat=True)
    refusal_id = record_refusal(conn, refusal, message=message, terminal=terminal, sequence=sequence, at=received)
    conn.execute("INSERT INTO frame (terminal, seq, digest, received, outcome, refusal)"
                 " VALUES (?, ?, ?, ?, 'refused', ?)", (terminal, sequence, digest, received, refusal_id))
    return Ingested(Status.REFUSED, refusal.reason, refusal.detail)


def record_refusal(conn: sqlite3.Connection, refusal: Refusal, *, message: IncomingResult | None = None,
                   terminal: int | None = None, sequence: int | None = None, raw: bytes | None = None,
                   at: str | None = None) -> int:
    """Add a row to the refusals the TD sees, inside the caller's transaction; its id."""
    if raw is None and message is not None and isinstance(message.raw, (bytes, bytearray)):
        raw = bytes(message.raw)
    raw_hex = raw[:MAX_RAW_BYTES].hex() if isinstance(raw, (bytes, bytearray)) else None
    row_id = conn.execute(
        "INSERT INTO refusal (at, terminal, seq, reason, detail, message, raw_hex) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (at or timestamp(), terminal, sequence, refusal.reason, refusal.detail[:MAX_MESSAGE_TEXT],
         describe_message(message) if message is not None else None, raw_hex)).lastrowid
    assert row_id is not None
    return row_id


def refuse_frame(conn: sqlite3.Connection, reason: str, detail: str, *, terminal: int | None = None,
                 sequence: int | None = None, raw: bytes | None = None, at: datetime | None = None) -> int:
    """For the collector: record a frame refused before it could be decoded (bad CRC, bad auth tag), committed.

    `terminal`/`sequence` are what the frame claimed, kept only when they are plausible numbers.
    """
    def plausible(value: int | None, highest: int) -> int | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= highest
        return value if ok else None
    with transaction(conn):
        row_id = record_refusal(conn, Refusal(str(reason)[:40], str(detail)),
                                terminal=plausible(terminal, validate.MAX_TERMINAL),
                                sequence=plausible(sequence, validate.MAX_SEQUENCE), raw=raw, at=timestamp(at))
    log.warning("frame refused by the collector: %s: %s", reason, detail)
    return row_id


def _fields(message: IncomingResult) -> list[tuple[str, object]]:
    """The decoded fields, enums as their plain values (Kind.NORMAL and "normal" are the same frame)."""
    values = [(f.name, getattr(message, f.name, None)) for f in dataclasses.fields(IncomingResult) if f.name != "raw"]
    return [(name, value.value if isinstance(value, Enum) else value) for name, value in values]


def _safe_ascii(value: object) -> str:
    try:
        return ascii(value)
    except Exception:  # a hostile object's __repr__: the frame is refused anyway, it must not crash the host
        return f"<{type(value).__name__}>"


def digest_of(message: IncomingResult) -> str:
    """What makes two frames "the same frame": every decoded field (not the raw bytes, not the arrival time)."""
    text = ";".join(f"{name}={_safe_ascii(value)}" for name, value in _fields(message))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def describe_message(message: IncomingResult) -> str:
    """The fields as received, printable and bounded, for the refusals list."""
    text = " ".join(f"{name}={validate.show(value, 60)}" for name, value in _fields(message) if value is not None)
    return text[:MAX_MESSAGE_TEXT]
