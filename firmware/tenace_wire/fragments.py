"""Messages longer than one frame's payload, cut into FRAGMENT frames and put back together.

A FRAGMENT frame's payload: inner type 8 | index 8 | count 8 | up to 14 bytes of the message.
The fragments of a message take consecutive sequence numbers, so the message is named by the
sequence number of its first fragment (seq - index): no message id on the air, and no fragment
of another message can be taken for one of this one. Every fragment but the last is full, and
all of a message's fragments agree on type and count, so the reassembled length is certain.
Each fragment is authenticated and CRC-checked on its own (frame.py), so a message is either
complete and right, or incomplete: never wrong. At most 255 fragments: 3570 bytes.
"""

from tenace_wire.errors import MALFORMED, WireError
from tenace_wire.frame_types import MAX_PAYLOAD, MAX_SEQ

FRAGMENT_HEADER = 3
FRAGMENT_DATA = MAX_PAYLOAD - FRAGMENT_HEADER  # 14
MAX_FRAGMENTS = 255


def fragment_count(size: int) -> int:
    """How many frames a message payload of `size` bytes takes (1 when it fits unfragmented)."""
    if size <= MAX_PAYLOAD:
        return 1
    count: int = (size + FRAGMENT_DATA - 1) // FRAGMENT_DATA
    return count


def split(ftype: int, payload: bytes) -> "list[bytes]":
    """The FRAGMENT payloads carrying a message of type `ftype`, in order."""
    count = fragment_count(len(payload))
    if count > MAX_FRAGMENTS:
        raise WireError(MALFORMED, "a message of %d bytes: at most %d" % (len(payload), MAX_FRAGMENTS * FRAGMENT_DATA))
    out = []
    for i in range(count):
        chunk = payload[i * FRAGMENT_DATA:(i + 1) * FRAGMENT_DATA]
        out.append(bytes((ftype, i, count)) + chunk)
    return out


def fragment_header(payload: "bytes | memoryview", seq: int) -> "tuple[int, int, int]":
    """(inner type, first sequence number of the message, count), checked; WireError(malformed) otherwise."""
    if len(payload) < FRAGMENT_HEADER + 1:
        raise WireError(MALFORMED, "a fragment of %d bytes" % len(payload))
    ftype, index, count = payload[0], payload[1], payload[2]
    if count < 2 or index >= count:
        raise WireError(MALFORMED, "fragment %d of %d" % (index, count))
    size = len(payload) - FRAGMENT_HEADER
    if index < count - 1 and size != FRAGMENT_DATA:
        raise WireError(MALFORMED, "fragment %d of %d carries %d bytes, not %d" % (index, count, size, FRAGMENT_DATA))
    first = seq - index
    if first < 1 or first + count - 1 > MAX_SEQ:
        raise WireError(MALFORMED, "fragment %d at sequence number %d" % (index, seq))
    return ftype, first, count


class Reassembler:
    """Collects fragments per (sender, first sequence number) until a message is whole.

    Keeps at most `limit` incomplete messages; the oldest is dropped for a new one (its sender
    retransmits what is not acknowledged, or asks again). Duplicated fragments are ignored.
    """

    def __init__(self, limit: int = 4) -> None:
        self.limit = limit
        self._parts: "dict[int, list]" = {}  # type: ignore[type-arg]
        self._order: "list[int]" = []

    def incomplete(self) -> int:
        return len(self._parts)

    def add(self, sender: int, seq: int, payload: "bytes | memoryview") -> "tuple[int, int, int, bytes] | None":
        """Add one FRAGMENT payload received with sequence number `seq`.

        Returns (inner type, first seq, count, message payload) when this completes a message, else None.
        """
        ftype, first, count = fragment_header(payload, seq)
        key = (sender << 16) | first
        entry = self._parts.get(key)
        if entry is None:
            if len(self._order) >= self.limit:
                del self._parts[self._order.pop(0)]
            entry = [ftype, count, [None] * count, 0]
            self._parts[key] = entry
            self._order.append(key)
        elif entry[0] != ftype or entry[1] != count:
            raise WireError(MALFORMED, "fragments of one message disagree on its type or length")
        chunks = entry[2]
        index = seq - first
        if chunks[index] is not None:
            return None  # a duplicate
        chunks[index] = bytes(payload[FRAGMENT_HEADER:])
        entry[3] += 1
        if entry[3] < count:
            return None
        del self._parts[key]
        self._order.remove(key)
        return ftype, first, count, b"".join(chunks)
