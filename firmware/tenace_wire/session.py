"""Sessions: sequence numbers, acknowledgements, retransmission and duplicate discard, as pure state machines.

No sockets, no clock, no randomness of their own: `now` is passed in (a monotonic count of
milliseconds that never wraps: on MicroPython the caller accumulates time.ticks_diff), random
bits come from an injected `random_bits(n)`, and frames go in and out as bytes. `due(now)`
returns every frame to put on the air now: first transmissions, retransmissions and ACKs.

Reliability. Every frame but ACK, HELLO and PAIR_OFFER waits in an outbox until the peer's ACK
for its sequence number, and only then is dropped. It is retransmitted, identical, after
base_ms, 2*base_ms, 4*base_ms... capped at max_ms, each delay lengthened by a random 0-50% so
that tables that lost the same burst do not retry in step. Nothing is ever given up: a terminal
holds a confirmed result until the host has it (hard rule 1).

Terminal -> host, exactly once (hard rule 2). The host names a message by (terminal id, first
sequence number). It asks `ingested(terminal, seq)` (the store's durable check) and its own
memory; a message already there is returned with `duplicate=True` and is only acknowledged
again. The collector stores a new message in one transaction and then calls acknowledge(): the
ACK goes out only after the commit. A fragmented message is acknowledged once, whole: an
incomplete one lost in a host restart is simply sent again by the terminal.

Sequence numbers persist across a terminal reboot without a flash write per frame: the session
calls `reserve(limit)` before it uses a number at or beyond the last reserved limit, asking the
caller to store `limit` (blocks of `block` numbers); after a reboot the session is created with
next_seq = the stored limit. Numbers skipped that way cost nothing; none is ever used twice. The
journal keeps each confirmed result with its sequence number, and after a reboot the terminal
puts it back with requeue(seq, message): the host, which may already have it, sees a duplicate.
The host side does the same per terminal with `reserve(terminal, limit)` and resume().

Host -> terminal. The terminal accepts a host frame only after a sign-in: the SIGN_IN_ANSWER
must carry the nonce of the terminal's latest SIGN_IN (else: replay), and its sequence number
becomes the floor of a 64-wide replay window (older: replay; seen: duplicate, acknowledged
again). The host cancels what it still had in flight to a terminal when it answers its sign-in,
so nothing below the new floor waits for an ACK that cannot come. The terminal acknowledges each
host frame as it accepts it (it is not the durable side), and a fragmented message once whole: it has
room for two unfinished ones and drops the oldest for a third, whose parts the host must then send again.

Sleepy terminals. A terminal's receiver is on only while it expects an answer and for a moment after each frame
in or out (wire_link.py); with nothing to send it still speaks every few seconds (TerminalSession.poll). The host
holds every message to a terminal in its outbox until acknowledged, as always, and when a terminal speaks after
AWAKE_MS of silence it sends it at once all that it holds for it (HostSession.receive): what the terminal missed
while deaf reaches it in the window after its next frame. While the host holds frames for a terminal it answers each
frame the terminal sends with a MORE (HostSession.more: how many wait; 0 once none does), which keeps the terminal's
receiver on, so that a lost frame sent again or the next batch of a push reaches it without waiting for its next
poll. Frames are not changed, only when they go: every rule above holds whatever the receiver misses, which is only
more loss.

Refusals raise WireError and are counted per reason in `counters` (errors.py).
"""

from micropython import const

from tenace_wire.auth import Tagger
from tenace_wire.errors import BUSY, SEQ_EXHAUSTED, WireError
from tenace_wire.fields import Message
from tenace_wire.fragments import split
from tenace_wire.frame_types import ACK, FRAGMENT, HELLO, MAX_PAYLOAD, MAX_SEQ, MORE, PAIR_OFFER

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable

BASE_MS = const(250)
MAX_MS = const(8000)
REFUSED = const(16)  # ACK statuses from here are refusals (control.py)
# Types that never travel inside fragments: link control.
CONTROL = (1 << ACK) | (1 << HELLO) | (1 << PAIR_OFFER) | (1 << MORE) | (1 << FRAGMENT)


class Inbound:
    """A message received: from/to `terminal`, named by its first sequence number `seq`, `count` frames.

    `message` is the decoded message (None for a host-side duplicate, which is only acknowledged again).
    """

    def __init__(self, terminal: int, seq: int, count: int, ftype: int, message: "Message | None",
                 duplicate: bool = False) -> None:
        self.terminal = terminal
        self.seq = seq
        self.count = count
        self.type = ftype
        self.message = message
        self.duplicate = duplicate


class SeqCounter:
    """Hands out sequence numbers 1..65535, reserving them in blocks through `reserve(limit)`."""

    def __init__(self, next_seq: int = 1, reserve: "Callable[[int], None] | None" = None, block: int = 32) -> None:
        if not 1 <= next_seq <= MAX_SEQ + 1:
            raise ValueError("next sequence number %r: 1..65536" % (next_seq,))
        self.next = next_seq
        self.limit = next_seq
        self._reserve = reserve
        self._block = block

    def take(self, count: int) -> int:
        first = self.next
        if first + count - 1 > MAX_SEQ:
            raise WireError(SEQ_EXHAUSTED, "sequence numbers used up: pair again with a new event key")
        if first + count > self.limit:
            limit = min(first + count + self._block, MAX_SEQ + 1)
            if self._reserve is not None:
                self._reserve(limit)  # stored before any of these numbers is used
            self.limit = limit
        self.next = first + count
        return first


class Outbox:
    """Frames waiting for their ACK, keyed by (peer << 16 | seq), with their retransmission schedule."""

    def __init__(self, random_bits: "Callable[[int], int]", base_ms: int = BASE_MS, max_ms: int = MAX_MS,
                 limit: int = 64) -> None:
        self._random_bits = random_bits
        self.base_ms = base_ms
        self.max_ms = max_ms
        self.limit = limit
        self.waiting: "dict[int, list]" = {}  # type: ignore[type-arg]  # key -> [frame, due_ms, attempt]
        self.sent = 0  # frames put on the air the first time, and again (the link's loss, for a terminal's STATUS)
        self.retried = 0

    def __len__(self) -> int:
        return len(self.waiting)

    def room(self, count: int) -> None:
        if len(self.waiting) + count > self.limit:
            raise WireError(BUSY, "%d frames wait for their acknowledgement" % len(self.waiting))

    def put(self, key: int, frame: bytes, now: int) -> None:
        self.waiting[key] = [frame, now, 0]

    def delay(self, attempt: int) -> int:
        """Milliseconds before retransmission number attempt+1: doubling, capped, plus 0-50% jitter."""
        delay = self.base_ms << attempt if attempt < 16 else self.max_ms
        if delay > self.max_ms:
            delay = self.max_ms
        return delay + ((delay * self._random_bits(8)) >> 9)

    def acknowledge(self, key: int, count: int) -> int:
        """Drop `count` frames from `key` on; return how many were waiting."""
        dropped = 0
        for k in range(key, key + count):
            if self.waiting.pop(k, None) is not None:
                dropped += 1
        return dropped

    def due(self, now: int, out: "list[bytes]") -> None:
        for key in sorted(self.waiting):
            entry = self.waiting[key]
            if entry[1] <= now:
                out.append(entry[0])
                if entry[2]:
                    self.retried += 1
                else:
                    self.sent += 1
                entry[1] = now + self.delay(entry[2])
                entry[2] += 1

    def next_due(self) -> "int | None":
        """When the next frame is due (to sleep until then), or None when nothing waits."""
        times = [entry[1] for entry in self.waiting.values()]
        return min(times) if times else None


def frame_payloads(ftype: int, payload: bytes) -> "list[tuple[int, bytes]]":
    """(frame type, frame payload) for each frame of a message: itself, or its fragments."""
    if len(payload) <= MAX_PAYLOAD:
        return [(ftype, payload)]
    return [(FRAGMENT, part) for part in split(ftype, payload)]


# Pairing frames are tagged with the public key whatever key is passed (frame.py): any Tagger will do.
NO_KEY = Tagger(b"\x00")
