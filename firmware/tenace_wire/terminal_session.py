"""The terminal's end of the link (see session.py): reliable sending, replay window, sign-in."""

from micropython import const

from tenace_wire.auth import Tagger
from tenace_wire.control import ACCEPTED, STORED, Ack, Hello, SignIn, SignInAnswer
from tenace_wire.errors import ACCEPTED_FRAME, DUPLICATE, MALFORMED, NOT_MINE, NOT_SIGNED_IN, REPLAY, WireError, tally
from tenace_wire.fields import Message
from tenace_wire.fragments import Reassembler, fragment_header
from tenace_wire.frame import decode_frame, encode_frame
from tenace_wire.frame_types import ACK, FRAGMENT, FROM_HOST, HELLO, MORE, PAIR_OFFER, SIGN_IN_ANSWER
from tenace_wire.messages import decode_message
from tenace_wire.session import BASE_MS, CONTROL, MAX_MS, NO_KEY, Inbound, Outbox, SeqCounter, frame_payloads

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable

WINDOW = const(64)


class _Window:
    """The terminal's replay window over host sequence numbers: a floor, then the last WINDOW numbers."""

    def __init__(self, floor: int) -> None:
        self.floor = floor
        self.top = floor
        self.seen = {floor}

    def check(self, seq: int) -> bool:
        """True when new; False when already seen; WireError(replay) when too old."""
        if seq <= self.floor or seq <= self.top - WINDOW:
            raise WireError(REPLAY, "host sequence number %d is below the window" % seq)
        return seq not in self.seen

    def mark(self, seq: int) -> None:
        self.seen.add(seq)
        if seq > self.top:
            self.top = seq
            if len(self.seen) > WINDOW:
                low = seq - WINDOW
                self.seen = {s for s in self.seen if s > low}


class TerminalSession:
    """The table's end of the link: sends reliably, accepts host frames after a fresh sign-in."""

    def __init__(self, terminal: int, random_bits: "Callable[[int], int]", key: "bytes | None" = None,
                 next_seq: int = 1, reserve: "Callable[[int], None] | None" = None, block: int = 32,
                 base_ms: int = BASE_MS, max_ms: int = MAX_MS, max_pending: int = 32,
                 club: "bytes | None" = None) -> None:
        if not 1 <= terminal <= 65534:
            raise ValueError("terminal id %r: 1..65534" % (terminal,))
        self.terminal = terminal
        self.club = club  # the club key `tenace flash` wrote, or None: pairing with the code alone (auth.py)
        self._club_id = b""
        self.counters: "dict[str, int]" = {}  # errors.py: ACCEPTED_FRAME, DUPLICATE, reasons
        self._random_bits = random_bits
        self._tagger: "Tagger | None" = Tagger(key) if key else None
        self._seq = SeqCounter(next_seq, reserve, block)
        self._out = Outbox(random_bits, base_ms, max_ms, max_pending)
        self._replies: "list[bytes]" = []
        self._window: "_Window | None" = None
        self._reassembler = Reassembler(2)
        self._nonce: "int | None" = None
        self._sign_in_seq = 0
        self._answer_seq = 0
        self.answer: "SignInAnswer | None" = None

    # -- pairing and sign-in --

    @property
    def signed_in(self) -> bool:
        return self.answer is not None and self.answer.status == ACCEPTED

    @property
    def next_seq(self) -> int:
        return self._seq.next

    def hello(self, firmware: int = 0) -> bytes:
        """A HELLO frame (unauthenticated, not retransmitted: send it again until a PAIR_OFFER comes), with the
        club key's id when the terminal has one (the host then derives the event key the same way)."""
        if self.club is not None and not self._club_id:
            from tenace_wire.pairing import club_id  # only now: pairing is rare, RAM is not
            self._club_id = club_id(self.club)
        return encode_frame(NO_KEY, False, HELLO, self.terminal, 1,
                            Hello(firmware=firmware, club=self._club_id).encode())

    def pair(self, code: str, nonce: bytes) -> bytes:
        """Derive and use the event key from the keyed code, the offer's nonce and the club key if the terminal has
        one; returns it for the journal."""
        from tenace_wire.pairing import event_key  # only now: pairing is rare, RAM is not
        key = event_key(code, nonce, self.club)
        self._tagger = Tagger(key)
        self.answer = None
        return key

    def sign_in(self, section: int, table: int, now: int, firmware: int = 0) -> int:
        """Queue a SIGN_IN with a fresh nonce (replacing one still waiting); returns its sequence number."""
        if self._sign_in_seq:
            self._out.acknowledge((self.terminal << 16) | self._sign_in_seq, 1)
        self._nonce = self._random_bits(32)
        self.answer = None
        self._sign_in_seq = self.queue(SignIn(section=section, table=table, nonce=self._nonce, firmware=firmware), now)
        return self._sign_in_seq

    # -- sending --

    def queue(self, msg: Message, now: int) -> int:
        """Give a message new sequence number(s); returns the first. Nothing is sent before due(now),
        so the caller journals (seq, message) in between."""
        payload = msg.encode()
        frames = frame_payloads(msg.TYPE, payload)
        self._out.room(len(frames))
        seq = self._seq.take(len(frames))
        self._put(seq, frames, now)
        return seq

    def requeue(self, seq: int, msg: Message, now: int) -> None:
        """After a reboot: send a journaled message again under the sequence number it had."""
        frames = frame_payloads(msg.TYPE, msg.encode())
        if seq + len(frames) > self._seq.next:
            raise ValueError("sequence number %d was never reserved (next is %d)" % (seq, self._seq.next))
        self._out.room(len(frames))
        self._put(seq, frames, now)

    def queue_at(self, seq: int, msg: Message, now: int) -> None:
        """Queue a message under a number the caller gives it, from a range the counter never reaches (the
        terminal app numbers its results itself): the same message goes out under the same number every time."""
        frames = frame_payloads(msg.TYPE, msg.encode())
        self._out.room(len(frames))
        self._put(seq, frames, now)

    def waiting(self, seq: int) -> bool:
        """True while the frame numbered `seq` waits for the host's acknowledgement."""
        return (self.terminal << 16) | seq in self._out.waiting

    def _put(self, seq: int, frames: "list[tuple[int, bytes]]", now: int) -> None:
        tagger = self._keyed()
        for i, (ftype, payload) in enumerate(frames):
            frame = encode_frame(tagger, False, ftype, self.terminal, seq + i, payload)
            self._out.put((self.terminal << 16) | (seq + i), frame, now)

    def due(self, now: int) -> "list[bytes]":
        """Every frame to transmit now: ACKs, then first transmissions and retransmissions."""
        out = self._replies
        self._replies = []
        self._out.due(now, out)
        return out

    def poll(self) -> None:
        """Tell the host the terminal listens now, with nothing else to say (session.py, "Sleepy terminals"): the
        ACK of the newest host frame it took, again, which the host drops nothing by."""
        if self._window is not None:
            self._reply(self._window.top)

    def pending(self) -> int:
        """Frames still waiting for the host's acknowledgement."""
        return len(self._out)

    def next_due(self) -> "int | None":
        return self._out.next_due()

    def traffic(self) -> "tuple[int, int]":
        """(frames sent, frames sent again) since this session was made: the uplink's loss as the terminal sees it."""
        return self._out.sent, self._out.retried

    def _keyed(self) -> Tagger:
        if self._tagger is None:
            raise WireError(NOT_SIGNED_IN, "no event key yet: pair first")
        return self._tagger

    # -- receiving --

    def receive(self, data: "bytes | bytearray | memoryview", now: int) -> "Inbound | None":
        """One frame off the air. Returns what it brings (an ACK, a message), None for a duplicate or an
        incomplete message; raises WireError (counted) when refused."""
        try:
            return self._receive(data)
        except WireError as e:
            tally(self.counters, e.reason)
            raise

    def _receive(self, data: "bytes | bytearray | memoryview") -> "Inbound | None":
        # A cheap look before any hashing: on a shared channel most frames are for other tables, or
        # other terminals' own frames (ESP-NOW broadcast: every terminal hears every other).
        if len(data) >= 5 and (data[1] << 8 | data[2]) != self.terminal:
            raise WireError(NOT_MINE, "a frame for or from terminal %d" % (data[1] << 8 | data[2]))
        if self._tagger is None and not (len(data) and data[0] & 0x1F == PAIR_OFFER):
            raise WireError(NOT_SIGNED_IN, "no event key yet")
        frame = decode_frame(data, self._tagger or NO_KEY, True)
        ftype = frame.type
        seq = frame.seq
        if ftype == PAIR_OFFER or ftype == ACK or ftype == MORE:  # unsequenced: no window, no ACK back
            msg = decode_message(ftype, frame.payload)
            count = 1
            if isinstance(msg, Ack):
                count = msg.count
                self._out.acknowledge((self.terminal << 16) | seq, count)
            tally(self.counters, ACCEPTED_FRAME)
            return Inbound(self.terminal, seq, count, ftype, msg)
        if ftype == SIGN_IN_ANSWER:
            return self._answer(frame.seq, decode_message(ftype, frame.payload))
        window = self._window
        if window is None or not self.signed_in:
            raise WireError(NOT_SIGNED_IN, "a host frame before the sign-in was answered")
        if not window.check(seq):
            self._duplicate(seq)
            return None
        if ftype != FRAGMENT:
            msg = decode_message(ftype, frame.payload)  # malformed: refused, and not acknowledged
            self._accept(seq)
            return Inbound(self.terminal, seq, 1, ftype, msg)
        inner, _first, _count = fragment_header(frame.payload, seq)
        if not ((FROM_HOST & ~CONTROL) >> inner) & 1:
            raise WireError(MALFORMED, "no message type %d in fragments from the host" % inner)
        done = self._reassembler.add(0, seq, frame.payload)
        if done is None:
            # Acknowledged once the message is whole: a part dropped to make room (two messages at most) is then
            # sent again by the host, where an acknowledged one would be lost with it for good.
            return None
        first = done[1]
        count = done[2]
        for part in range(first, first + count):
            window.mark(part)
        self._reply(first, count)
        tally(self.counters, ACCEPTED_FRAME)
        return Inbound(self.terminal, first, count, done[0], decode_message(done[0], done[3]))

    def _answer(self, seq: int, msg: Message) -> "Inbound | None":
        answer = msg if isinstance(msg, SignInAnswer) else None
        if answer is None or self._nonce is None or answer.nonce != self._nonce:
            raise WireError(REPLAY, "a sign-in answer to another sign-in")
        if seq == self._answer_seq:
            self._duplicate(seq)
            return None
        if seq < self._answer_seq:
            raise WireError(REPLAY, "an older answer to this sign-in")
        self._answer_seq = seq
        self._window = _Window(seq)
        self._out.acknowledge((self.terminal << 16) | self._sign_in_seq, 1)
        self._sign_in_seq = 0
        self.answer = answer
        self._reply(seq)
        tally(self.counters, ACCEPTED_FRAME)
        return Inbound(self.terminal, seq, 1, SIGN_IN_ANSWER, answer)

    def _accept(self, seq: int) -> None:
        window = self._window
        if window is not None:
            window.mark(seq)
        self._reply(seq)
        tally(self.counters, ACCEPTED_FRAME)

    def _duplicate(self, seq: int) -> None:
        tally(self.counters, DUPLICATE)
        self._reply(seq)

    def _reply(self, seq: int, count: int = 1) -> None:
        ack = Ack(count=count, status=STORED).encode()
        self._replies.append(encode_frame(self._keyed(), False, ACK, self.terminal, seq, ack))
