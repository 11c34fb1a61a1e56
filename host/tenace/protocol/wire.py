"""What a club's laptop pushes to a simultaneous event's hub, as JSON: the one definition both ends use.

A club pushes, in order and exactly once, each change of what counts in its event file: a slot's state after a
result version was stored, corrected, erased or adjusted (`SlotPush`), and each Law 90 penalty given or withdrawn
(`PenaltyPush`). Each push carries the club's own sequence number for the event (1, 2, 3... without gaps) and its
key: a slot's by section, table, round and board with the club's latest result version id there; a penalty's by the
director's action id. The hub stores a push once (the same key again with the same content is acknowledged, with
other content refused as altered) and answers with the highest sequence number it holds without a gap.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from tenace.scoring import codec

PROTOCOL = 1
MAX_PUSHES = 500  # pushes a batch may carry
MAX_BODY_BYTES = 1_000_000  # a batch's JSON, at most
MAX_DEPTH = 8  # arrays and objects within each other (a batch has 4): deeper is refused before it is parsed
PUSH_PATH = "/api/push"  # POST a Batch here, `Authorization: Bearer <the club's token>`

STATES = ("result", "none")  # a slot's result counts, or nothing counts there (missing, erased, conflict, damaged)
KINDS = ("normal", "passed_out", "not_played", "artificial", "weighted")
FIELDS = ("NS", "EW", "")  # a pair's direction; "" for a Howell's pair, which sits both ways
UNITS = ("MP", "%top")


class WireError(ValueError):
    """A batch that is not one: its one-line reason."""


@dataclass(frozen=True)
class SlotPush:
    """A slot of the club's event after a change: what counts there now."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    ns_field: str  # "NS", or "" in a Howell
    ew_field: str  # "EW", or ""
    state: str  # "result" or "none"
    kind: str | None = None  # with "result": one of KINDS
    contract: str | None = None  # "4SX", "3NT"
    declarer: str | None = None  # N, E, S or W
    tricks: int | None = None
    lead: str | None = None
    ns_score: int | None = None  # a played or assigned result's NS score (Law 77)
    ns_adjust: str | None = None  # an artificial score: "A+", "A", "A-" or "60%"
    ew_adjust: str | None = None
    weights: str | None = None  # an assigned or weighted score (Law 12C1(b), (c)), NS's: "1:620", "3/5:620 2/5:-100"
    ew_weights: str | None = None


@dataclass(frozen=True)
class PenaltyPush:
    """A Law 90 penalty as the club's director gave it, or its withdrawal."""

    section: str
    pair: int
    field: str  # "NS", "EW" or ""
    amount: str  # a fraction as text: "3/2"
    unit: str  # "MP" or "%top"
    board: int | None
    withdrawn: bool = False


@dataclass(frozen=True)
class Push:
    seq: int  # the club's sequence number for this event: 1, 2, 3... without gaps
    version: int  # a slot's latest result version id at the club; a penalty's director's action id
    slot: SlotPush | None = None
    penalty: PenaltyPush | None = None

    @property
    def key(self) -> tuple[object, ...]:
        """What the hub stores a push under: the same key twice is the same push."""
        if self.slot is not None:
            s = self.slot
            return ("slot", s.section, s.table, s.round, s.board, self.version)
        assert self.penalty is not None
        return ("penalty", self.version)

    def digest(self) -> str:
        """The push's content (its seq apart) as a hash: a replay with other content is an altered push."""
        body = {"version": self.version, "slot": _plain(self.slot), "penalty": _plain(self.penalty)}
        return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass(frozen=True)
class Batch:
    sim: str  # the simultaneous event's id at the hub
    club: str  # the club's id at the hub
    pushes: tuple[Push, ...]
    protocol: int = PROTOCOL


@dataclass(frozen=True)
class Ack:
    """The hub's answer: the highest sequence number it holds for the club without a gap (0: none)."""

    acked: int


def outcome_key(slot: SlotPush) -> str | None:
    """What the slot counts as, in tenace.scoring.codec's key (None: nothing counts there), a played result's score
    derived again by Law 77; codec.Unreadable saying why when it cannot be scored."""
    if slot.state != "result":
        return None
    if slot.kind == "normal":
        codec.played(slot.contract, slot.declarer, slot.tricks, slot.board, slot.ns_score)
    return codec.key(codec.outcome(slot.kind, slot.ns_score, slot.ns_adjust, slot.ew_adjust, slot.weights,
                                   slot.ew_weights))


def encode(batch: Batch) -> bytes:
    return json.dumps({"protocol": batch.protocol, "sim": batch.sim, "club": batch.club,
                       "pushes": [_push_json(p) for p in batch.pushes]}, separators=(",", ":")).encode()


def decode(data: bytes) -> Batch:
    """A batch read from its JSON, every field checked; WireError saying what is wrong."""
    if len(data) > MAX_BODY_BYTES:
        raise WireError(f"a batch is at most {MAX_BODY_BYTES} bytes, not {len(data)}")
    if _depth(data) > MAX_DEPTH:  # json would recurse as deep (a RecursionError, or a stack spent)
        raise WireError(f"a batch nests arrays and objects at most {MAX_DEPTH} deep")
    try:
        raw = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WireError(f"not JSON: {e}") from None
    obj = _object(raw, "batch")
    if obj.get("protocol") != PROTOCOL:
        raise WireError(f"protocol {obj.get('protocol')!r} is not {PROTOCOL}")
    pushes = obj.get("pushes")
    if not isinstance(pushes, list) or not 1 <= len(pushes) <= MAX_PUSHES:
        raise WireError(f"pushes is a list of 1 to {MAX_PUSHES}")
    batch = Batch(_text(obj, "sim", 64), _text(obj, "club", 64), tuple(_push(p) for p in pushes))
    seqs = [p.seq for p in batch.pushes]
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        raise WireError("a batch's sequence numbers follow each other")
    return batch


def encode_ack(ack: Ack) -> bytes:
    return json.dumps({"acked": ack.acked}).encode()


_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)  # possessive: no backtracking over a long string
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _depth(data: bytes, beyond: int = MAX_DEPTH) -> int:
    """How deep arrays and objects lie within each other in `data`, outside its strings, counted up to one past
    `beyond` (an unclosed string's brackets count too: such a body is refused either way)."""
    depth = deepest = 0
    for b in _STRING.sub(b"", data).translate(None, _NOT_BRACKETS):
        depth += 1 if b in b"[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > beyond:
                break
    return deepest


def decode_ack(data: bytes) -> Ack:
    try:
        acked = _object(json.loads(data), "ack").get("acked")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WireError(f"not JSON: {e}") from None
    if type(acked) is not int or acked < 0:
        raise WireError("acked is a whole number, 0 or more")
    return Ack(acked)


def _plain(value: SlotPush | PenaltyPush | None) -> dict[str, Any] | None:
    return None if value is None else asdict(value)


def _push_json(p: Push) -> dict[str, Any]:
    return {"seq": p.seq, "version": p.version, "slot": _plain(p.slot), "penalty": _plain(p.penalty)}


def _push(raw: object) -> Push:
    obj = _object(raw, "push")
    seq, version = _int(obj, "seq", 1, 2**53), _int(obj, "version", 1, 2**62)
    slot, penalty = obj.get("slot"), obj.get("penalty")
    if (slot is None) == (penalty is None):
        raise WireError(f"push {seq}: a slot or a penalty, one of them")
    if slot is not None:
        return Push(seq, version, slot=_slot(_object(slot, "slot"), seq))
    return Push(seq, version, penalty=_penalty(_object(penalty, "penalty"), seq))


def _slot(obj: dict[str, Any], seq: int) -> SlotPush:
    s = SlotPush(_text(obj, "section", 8), _int(obj, "table", 1, 999), _int(obj, "round", 1, 999),
                 _int(obj, "board", 1, 9999), _int(obj, "ns_pair", 1, 9999), _int(obj, "ew_pair", 1, 9999),
                 _choice(obj, "ns_field", FIELDS), _choice(obj, "ew_field", FIELDS), _choice(obj, "state", STATES),
                 _optional(obj, "kind", lambda: _choice(obj, "kind", KINDS)),
                 _optional(obj, "contract", lambda: _text(obj, "contract", 5)),  # "7NTXX"
                 _optional(obj, "declarer", lambda: _choice(obj, "declarer", ("N", "E", "S", "W"))),
                 _optional(obj, "tricks", lambda: _int(obj, "tricks", 0, 13)),
                 _optional(obj, "lead", lambda: _text(obj, "lead", 3)),
                 _optional(obj, "ns_score", lambda: _int(obj, "ns_score", -7600, 7600)),
                 _optional(obj, "ns_adjust", lambda: _text(obj, "ns_adjust", 8)),
                 _optional(obj, "ew_adjust", lambda: _text(obj, "ew_adjust", 8)),
                 _optional(obj, "weights", lambda: _text(obj, "weights", 200)),
                 _optional(obj, "ew_weights", lambda: _text(obj, "ew_weights", 200)))
    if (s.state == "result") != (s.kind is not None):
        raise WireError(f"push {seq}: a slot's state 'result' goes with a kind, 'none' without")
    return s


def _penalty(obj: dict[str, Any], seq: int) -> PenaltyPush:
    withdrawn = obj.get("withdrawn", False)
    if type(withdrawn) is not bool:
        raise WireError(f"push {seq}: withdrawn is true or false")
    return PenaltyPush(_text(obj, "section", 8), _int(obj, "pair", 1, 9999), _choice(obj, "field", FIELDS),
                       _text(obj, "amount", 32), _choice(obj, "unit", UNITS),
                       _optional(obj, "board", lambda: _int(obj, "board", 1, 9999)), withdrawn)


def _object(raw: object, what: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise WireError(f"a {what} is a JSON object")
    return raw


def _int(obj: dict[str, Any], name: str, low: int, high: int) -> int:
    value = obj.get(name)
    if type(value) is not int or not low <= value <= high:
        raise WireError(f"{name} is a whole number from {low} to {high}, not {value!r}")
    return value


def _text(obj: dict[str, Any], name: str, longest: int) -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not 1 <= len(value) <= longest or not value.isprintable():
        raise WireError(f"{name} is printable text of 1 to {longest} characters, not {value!r}")
    return value


def _choice(obj: dict[str, Any], name: str, choices: tuple[str, ...]) -> str:
    value = obj.get(name)
    if value not in choices:
        raise WireError(f"{name} is one of {', '.join(repr(c) for c in choices)}, not {value!r}")
    return str(value)


def _optional(obj: dict[str, Any], name: str, read: Any) -> Any:
    return None if obj.get(name) is None else read()
