"""A club's side of a simultaneous event in its event file: the link to the sim's hub and the outbox of pushes.

Every result version stored and every Law 90 penalty given is enqueued by schema version 14's triggers, in the
writer's own transaction, under a gapless sequence (hub_outbox.seq). What is pushed for an entry is computed here the
first time it is asked for, from the versions stored up to it (the slot's state then: what counted there after that
change), and kept: a resend after a restart is the same push, which the hub takes as a duplicate."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime

from tenace.protocol import wire
from tenace.store.clock import timestamp
from tenace.store.db import read_transaction, transaction
from tenace.store.errors import EntryError
from tenace.store.fields import one_field
from tenace.store.versions import Slot, Version, load_versions, slot_states


@dataclass(frozen=True)
class SimLink:
    """Where the club pushes: the hub's address, the sim's and the club's ids there, the club's token (a secret)."""

    hub: str
    sim: str
    club: str
    token: str
    linked: str
    acked: int
    last_try: str | None
    last_error: str | None


@dataclass(frozen=True)
class Outbox:
    """How far the pushes went: `total` enqueued, `acked` held by the hub (as it last said)."""

    total: int
    acked: int

    @property
    def queued(self) -> int:
        return max(self.total - self.acked, 0)


def link_sim(conn: sqlite3.Connection, hub: str, sim: str, club: str, token: str,
             at: datetime | None = None) -> SimLink:
    """Link the event to a sim (again: a new token or hub address for the same sim and club keeps what was acked).
    EntryError: an event not scored in matchpoints, or one linked already as another club or to another sim."""
    with transaction(conn):
        scoring = conn.execute("SELECT scoring FROM event WHERE id = 1").fetchone()[0]
        if scoring != "matchpoints":
            raise EntryError(f"a simultaneous pairs is scored in matchpoints; this event is scored in {scoring}")
        old = sim_link(conn)
        if old is not None and (old.sim, old.club) != (sim, club):
            raise EntryError(f"this event is linked already as club {old.club!r} of sim {old.sim!r}: its pushes "
                             f"belong there")
        if not token or not token.isprintable() or len(token) > 200:
            raise EntryError("the token is printable text of 1 to 200 characters")
        conn.execute("INSERT INTO hub_link (id, hub, sim, club, token, linked) VALUES (1, ?, ?, ?, ?, ?) "
                     "ON CONFLICT (id) DO UPDATE SET hub = excluded.hub, token = excluded.token, last_error = NULL",
                     (hub, sim, club, token, timestamp(at)))
    link = sim_link(conn)
    assert link is not None
    return link


def sim_link(conn: sqlite3.Connection) -> SimLink | None:
    row = conn.execute("SELECT hub, sim, club, token, linked, acked, last_try, last_error FROM hub_link "
                       "WHERE id = 1").fetchone()
    return None if row is None else SimLink(*row)


def outbox(conn: sqlite3.Connection) -> Outbox:
    total = conn.execute("SELECT coalesce(max(seq), 0) FROM hub_outbox").fetchone()[0]
    row = conn.execute("SELECT acked FROM hub_link WHERE id = 1").fetchone()
    return Outbox(int(total), int(row[0]) if row else 0)


def record_answer(conn: sqlite3.Connection, acked: int | None, error: str | None = None,
                  at: datetime | None = None) -> None:
    """What the hub answered (its acknowledged number: it is the truth, even lower than ours), or why it did not."""
    with transaction(conn):
        if acked is None:
            conn.execute("UPDATE hub_link SET last_try = ?, last_error = ? WHERE id = 1", (timestamp(at), error))
        else:
            conn.execute("UPDATE hub_link SET acked = ?, last_try = ?, last_error = NULL WHERE id = 1",
                         (acked, timestamp(at)))


def pending(conn: sqlite3.Connection, after: int, limit: int = wire.MAX_PUSHES) -> list[wire.Push]:
    """The pushes after seq `after`, at most `limit`, in order: those never computed are computed and kept first."""
    with read_transaction(conn):
        rows = conn.execute("SELECT seq, result, penalty, push FROM hub_outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                            (after, limit)).fetchall()
    if any(row[3] is None for row in rows):
        with transaction(conn):  # read again under the write lock: entries may have come since
            rows = conn.execute("SELECT seq, result, penalty, push FROM hub_outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                                (after, limit)).fetchall()
            fresh = {int(row[0]): json.dumps(_compute(conn, row[1], row[2]), separators=(",", ":"))
                     for row in rows if row[3] is None}
            conn.executemany("UPDATE hub_outbox SET push = ? WHERE seq = ? AND push IS NULL",
                             [(body, seq) for seq, body in fresh.items()])
        rows = [(row[0], row[1], row[2], fresh.get(int(row[0]), row[3])) for row in rows]
    return [_push(int(row[0]), json.loads(row[3])) for row in rows]


def _push(seq: int, body: dict[str, object]) -> wire.Push:
    slot, penalty = body.get("slot"), body.get("penalty")
    version = body["version"]
    assert isinstance(version, int)
    return wire.Push(seq, version, slot=wire.SlotPush(**slot) if isinstance(slot, dict) else None,
                     penalty=wire.PenaltyPush(**penalty) if isinstance(penalty, dict) else None)


def _compute(conn: sqlite3.Connection, result: int | None, penalty: int | None) -> dict[str, object]:
    if penalty is not None:
        section, pair, direction, amount, unit, board = conn.execute(
            "SELECT section, pair, direction, amount, unit, board FROM pair_penalty WHERE action = ?",
            (penalty,)).fetchone()
        return {"version": penalty, "slot": None, "penalty": asdict(wire.PenaltyPush(
            section, pair, direction or "", amount, unit, board))}
    row = conn.execute("SELECT section, table_no, round, board FROM result WHERE id = ?", (result,)).fetchone()
    slot = Slot(*row)
    upto = [v for v in load_versions(conn, slot=slot) if v.id <= int(result or 0)]
    return {"version": result, "slot": asdict(slot_push(conn, slot, upto)), "penalty": None}


def slot_push(conn: sqlite3.Connection, slot: Slot, versions: list[Version]) -> wire.SlotPush:
    """What counts in a slot given its versions: the current result, or nothing (missing, erased, in conflict,
    damaged)."""
    state = slot_states(versions).get(slot)
    current = state.current if state is not None else None
    ns, ew = _pairs(conn, slot, current or (versions[-1] if versions else None))
    ns_field, ew_field = ("", "") if one_field(conn, slot.section) else ("NS", "EW")
    where = (slot.section, slot.table, slot.round, slot.board, ns, ew, ns_field, ew_field)
    if current is None or current.kind not in wire.KINDS:
        return wire.SlotPush(*where, state="none")
    return wire.SlotPush(*where, state="result", kind=current.kind, contract=current.contract,
                         declarer=current.declarer, tricks=current.tricks, lead=current.lead,
                         ns_score=current.ns_score, ns_adjust=current.ns_adjust, ew_adjust=current.ew_adjust,
                         weights=current.weights, ew_weights=current.ew_weights)


def _pairs(conn: sqlite3.Connection, slot: Slot, version: Version | None) -> tuple[int, int]:
    """The pairs a slot's version was entered for; the movement's when it has none that can be read."""
    if version is not None and not version.damage and version.ns_pair >= 1 and version.ew_pair >= 1:
        return version.ns_pair, version.ew_pair
    row = conn.execute("SELECT ns_pair, ew_pair FROM encounter WHERE section = ? AND table_no = ? AND round = ?",
                       (slot.section, slot.table, slot.round)).fetchone()
    if row is None:
        raise EntryError(f"section {slot.section} table {slot.table} round {slot.round} is not in the movement")
    return int(row[0]), int(row[1])
