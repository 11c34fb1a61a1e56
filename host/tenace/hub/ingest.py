"""A club's batch of pushes taken in by the hub: stored once, applied in the club's sequence order, in one
transaction, and announced (NOTIFY) when it commits."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tenace.hub import queries
from tenace.protocol import wire
from tenace.scoring import codec

log = logging.getLogger(__name__)

# A push this far past the acknowledged one is refused: the pending pushes a club may leave are bounded.
MAX_AHEAD = 10 * wire.MAX_PUSHES
RATE_WINDOW_S = 10  # the rate limit counts requests in windows of this many seconds
RATE_LIMIT = 50  # requests a club (or an address with a bad token) may send in one window


@dataclass(frozen=True)
class Club:
    sim: str
    club: str
    revoked: bool
    boards: int


class Refused(Exception):
    """A batch the hub will not take: its HTTP status and the one-line reason (logged with the club and key)."""

    def __init__(self, status: int, reason: str, key: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.key = key


def token_hash(token: str) -> str:
    """What the hub keeps of a club's token (a random 256-bit secret, so a plain hash is enough)."""
    return hashlib.sha256(token.encode()).hexdigest()


def club_of(conn: psycopg.Connection[Any], token: str) -> Club | None:
    row = queries.club_by_token(conn, token_hash(token))
    return None if row is None else Club(row[0], row[1], row[2], row[3])


def over_rate(conn: psycopg.Connection[Any], who: str, limit: int = RATE_LIMIT) -> bool:
    """Count one request of `who` in the current window (in PostgreSQL: every worker sees the same count); True
    when it is over the limit."""
    window = int(time.time()) // RATE_WINDOW_S
    with conn.transaction():
        requests = queries.count_request(conn, who, window)
        if requests == 1:  # a new window: the old ones go
            queries.drop_rate_windows_before(conn, who, window)
    return requests > limit


def client(sim: str | None, club: str | None, address: str | None) -> str:
    """Who sent a request, as its rate window and its refusals count it: the club when its token is known, else the
    address it came from."""
    return f"club:{sim}/{club}" if club is not None else f"address:{address or '?'}"


def log_refusal(conn: psycopg.Connection[Any], status: int, reason: str, *, sim: str | None = None,
                club: str | None = None, address: str | None = None, key: str | None = None) -> None:
    """A refused push counted in `refusals`, one row per client, status and minute (the latest reason and key in
    it): a flood adds to a count, not a row per push; only the first of each row is also a log line."""
    with conn.transaction():
        count = queries.count_refusal(conn, status, reason, sim, club, address, key, client(sim, club, address))
    if count == 1:
        log.warning("push refused (%d) sim %s club %s from %s: %s%s (more such this minute: counted, not logged)",
                    status, sim, club, address, reason, f" [key {key}]" if key else "")


def _key_text(push: wire.Push) -> str:
    return json.dumps(push.key, separators=(",", ":"))


def _body(push: wire.Push) -> dict[str, Any]:
    return {"slot": None if push.slot is None else asdict(push.slot),
            "penalty": None if push.penalty is None else asdict(push.penalty), "version": push.version}


def take(conn: psycopg.Connection[Any], club: Club, batch: wire.Batch) -> wire.Ack:
    """Store and apply a batch in one transaction; Refused (nothing of the batch kept) for an altered push, one
    too far ahead, of a board the sim does not have or of a result no pass could score (a played score not its
    contract's by Law 77, an artificial or weighted score that cannot be read). The club comes from the token, never
    from the batch: a push can only ever land in that club's own slots."""
    if batch.sim != club.sim or batch.club != club.club:
        raise Refused(403, f"the token is club {club.club!r} of sim {club.sim!r}, the batch says club "
                           f"{batch.club!r} of sim {batch.sim!r}")
    for push in batch.pushes:
        board = push.slot.board if push.slot is not None else push.penalty.board if push.penalty else None
        if board is not None and board > club.boards:
            raise Refused(422, f"push {push.seq}: board {board}, and the sim has {club.boards}", _key_text(push))
        if push.slot is not None:  # an outcome no pass could score is never stored
            try:
                wire.outcome_key(push.slot)
            except codec.Unreadable as e:
                raise Refused(422, f"push {push.seq}: {e}", _key_text(push)) from None
    with conn.transaction():
        acked = queries.acked_for_update(conn, club.sim, club.club)
        seqs = [p.seq for p in batch.pushes]
        keys = [_key_text(p) for p in batch.pushes]
        stored = {(r[0], r[1]): r[2] for r in queries.stored_pushes(conn, club.sim, club.club, seqs, keys)}
        by_seq = {seq: (key, digest) for (seq, key), digest in stored.items()}
        by_key = {key: (seq, digest) for (seq, key), digest in stored.items()}
        fresh: list[tuple[wire.Push, str, str]] = []
        for push, key in zip(batch.pushes, keys, strict=True):
            digest = push.digest()
            held = by_seq.get(push.seq)
            if held is not None:
                if held != (key, digest):
                    raise Refused(409, f"push {push.seq} is not the push this club sent under that number", key)
                continue  # a duplicate: acknowledged, nothing changes
            other = by_key.get(key)
            if other is not None:
                raise Refused(409, f"push {push.seq} repeats the key of push {other[0]} with "
                                   f"{'the same' if other[1] == digest else 'other'} content", key)
            if push.seq > acked + MAX_AHEAD:
                raise Refused(422, f"push {push.seq} is more than {MAX_AHEAD} past the acknowledged {acked}", key)
            fresh.append((push, key, digest))
        if fresh:
            queries.insert_pushes(conn, [(club.sim, club.club, p.seq, k, d, Jsonb(_body(p))) for p, k, d in fresh])
        applied = _apply(conn, club, acked)
        if applied > acked:
            queries.set_acked(conn, club.sim, club.club, applied)
            # Delivered on commit, to the scoring workers; what to score is in the queue the slots' trigger fills.
            queries.notify(conn, f"pushed {club.sim}")
    return wire.Ack(applied)


def _apply(conn: psycopg.Connection[Any], club: Club, acked: int) -> int:
    """Apply the stored pushes that follow `acked` without a gap, in order; the new acknowledged number."""
    rows = queries.pushes_after(conn, club.sim, club.club, acked)
    slots: list[tuple[Any, ...]] = []
    penalties: list[tuple[Any, ...]] = []
    for seq, body in rows:
        if seq != acked + 1:
            break  # a gap: the rest waits for the club to fill it
        acked = seq
        if body["slot"] is not None:
            s = body["slot"]
            try:
                outcome = wire.outcome_key(wire.SlotPush(**s))
            except codec.Unreadable as e:  # stored before the hub read each push: the scorer quarantines it
                outcome = f"?{e}"
            slots.append((club.sim, club.club, s["section"], s["table"], s["round"], s["board"], seq, Jsonb(s),
                          outcome))
        else:
            penalties.append((club.sim, club.club, body["version"], seq, Jsonb(body["penalty"])))
    if slots:  # in sequence order: a later push of the same slot wins
        queries.upsert_slots(conn, slots)
    if penalties:
        queries.upsert_penalties(conn, penalties)
    return acked
