"""The club-to-hub wire format: a batch survives its JSON, and every malformed one is refused with its reason."""

from __future__ import annotations

import json

import pytest

from tenace.protocol.wire import (
    MAX_BODY_BYTES,
    Ack,
    Batch,
    PenaltyPush,
    Push,
    SlotPush,
    WireError,
    decode,
    decode_ack,
    encode,
    encode_ack,
)

SLOT = SlotPush("A", 3, 2, 7, 3, 5, "NS", "EW", "result", "normal", "4SX", "N", 11, "HK", 990)
BATCH = Batch("sim1", "club7", (Push(4, 17, slot=SLOT),
                                Push(5, 18, slot=SlotPush("A", 3, 2, 8, 3, 5, "NS", "EW", "none")),
                                Push(6, 40, penalty=PenaltyPush("A", 3, "NS", "3/2", "MP", None))))


def test_a_batch_survives_its_json_and_keys_and_digests_tell_pushes_apart() -> None:
    assert decode(encode(BATCH)) == BATCH
    assert decode_ack(encode_ack(Ack(6))) == Ack(6)
    first, _, penalty = BATCH.pushes
    assert first.key == ("slot", "A", 3, 2, 7, 17) and penalty.key == ("penalty", 40)
    resent = Push(9, 17, slot=SLOT)  # the same push under a later sequence number: the same content
    assert resent.key == first.key and resent.digest() == first.digest()
    altered = Push(4, 17, slot=SlotPush("A", 3, 2, 7, 3, 5, "NS", "EW", "result", "normal", "4SX", "N", 10, "HK",
                                         -200))
    assert altered.key == first.key and altered.digest() != first.digest()


def test_brackets_within_strings_are_not_nesting() -> None:
    named = Batch("sim1", 'club[{"[[[[[[[[[[', BATCH.pushes)
    assert decode(encode(named)) == named


def _with(change: dict[str, object], push: int = 0) -> bytes:
    raw = json.loads(encode(BATCH))
    target = raw["pushes"][push]["slot"] if "state" in change or "table" in change or "kind" in change else \
        raw["pushes"][push] if "seq" in change or "slot" in change else raw
    target.update(change)
    return json.dumps(raw).encode()


@pytest.mark.parametrize(("data", "says"), [
    (b"{", "not JSON"),
    (b"[]", "a batch is a JSON object"),
    (_with({"protocol": 2}), "protocol 2 is not 1"),
    (_with({"pushes": []}), "pushes is a list of 1 to 500"),
    (_with({"club": ""}), "club is printable text"),
    (_with({"table": 0}), "table is a whole number from 1 to 999, not 0"),
    (_with({"table": True}), "table is a whole number"),
    (_with({"state": "maybe"}), "state is one of 'result', 'none'"),
    (_with({"kind": None}), "a slot's state 'result' goes with a kind"),
    (_with({"seq": 9}), "a batch's sequence numbers follow each other"),
    (_with({"slot": None}), "a slot or a penalty, one of them"),
    (b" " * (MAX_BODY_BYTES + 1), "a batch is at most"),
    (b"[" * 100_000 + b"]" * 100_000, "a batch nests arrays and objects at most 8 deep"),  # was a RecursionError
    (b'{"a": ' * 9 + b"1" + b"}" * 9, "a batch nests arrays and objects at most 8 deep"),
])
def test_a_malformed_batch_is_refused_with_its_reason(data: bytes, says: str) -> None:
    with pytest.raises(WireError, match=says.replace("(", r"\(").replace(")", r"\)")):
        decode(data)
