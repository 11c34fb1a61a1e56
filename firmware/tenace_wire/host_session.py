"""The host's end of the link (see session.py): every terminal of the event, duplicates checked with the store.

One event key for every terminal, unless `use_keys` gives a terminal its own (one paired with the club key
derives another event key: auth.py); a terminal's frames are checked under its keys, and frames to it carry the
one its last frame verified under.
"""

from tenace_wire.auth import Tagger
from tenace_wire.control import ACCEPTED, STORED, Ack, More, PairOffer, SignIn, SignInAnswer
from tenace_wire.director_call import Call
from tenace_wire.errors import (
    ACCEPTED_FRAME,
    BAD_TAG,
    DUPLICATE,
    MALFORMED,
    NOT_SIGNED_IN,
    WRONG_TABLE,
    WireError,
    tally,
)
from tenace_wire.fields import Message
from tenace_wire.fragments import Reassembler, fragment_header
from tenace_wire.frame import Frame, decode_frame, encode_frame, frame_terminal, message_type
from tenace_wire.frame_types import ACK, FRAGMENT, FROM_TERMINAL, HELLO, MORE, PAIR_OFFER
from tenace_wire.messages import decode_message
from tenace_wire.session import BASE_MS, CONTROL, MAX_MS, NO_KEY, REFUSED, Inbound, Outbox, SeqCounter, frame_payloads
from tenace_wire.table_messages import Erase, Players, Request, Result

AWAKE_MS = 1000  # a terminal silent this long may have missed what was sent to it: sent again when it speaks

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable


class HostSession:
    """The laptop's end of the link, for every terminal of the event under one key."""

    def __init__(self, key: bytes, random_bits: "Callable[[int], int]",
                 ingested: "Callable[[int, int], bool] | None" = None,
                 reserve: "Callable[[int, int], None] | None" = None, block: int = 32,
                 base_ms: int = BASE_MS, max_ms: int = MAX_MS, max_pending: int = 4096) -> None:
        self.counters: "dict[str, int]" = {}  # errors.py: ACCEPTED_FRAME, DUPLICATE, reasons
        self._tagger = Tagger(key)
        self._keys: "dict[int, list[Tagger]]" = {}  # terminal -> its own keys, the one to send under first
        self._ingested = ingested
        self._reserve = reserve
        self._block = block
        self._out = Outbox(random_bits, base_ms, max_ms, max_pending)
        self._replies: "list[bytes]" = []
        self._reassembler = Reassembler(64)
        self._done: "set[int]" = set()  # (terminal << 16 | seq) acknowledged since this host started
        self._seqs: "dict[int, SeqCounter]" = {}
        self.bindings: "dict[int, tuple[int, int]]" = {}  # terminal -> (section, table)
        self._heard: "dict[int, int]" = {}  # terminal -> when its last authentic frame came (a sleepy terminal)
        self.woken: "set[int]" = set()  # terminals that spoke after AWAKE_MS of silence (a poll): the caller clears it

    # -- terminals --

    def resume(self, terminal: int, section: int, table: int, next_seq: int = 1) -> None:
        """After a host restart, from the store: the terminal's table and the host's next sequence number to it."""
        self.bindings[terminal] = (section, table)
        self._seqs[terminal] = self._counter(terminal, next_seq)

    def _counter(self, terminal: int, next_seq: int) -> SeqCounter:
        reserve = self._reserve
        if reserve is None:
            return SeqCounter(next_seq, None, self._block)

        def reserve_for(limit: int) -> None:
            reserve(terminal, limit)
        return SeqCounter(next_seq, reserve_for, self._block)

    def use_keys(self, terminal: int, keys: "list[bytes]") -> None:
        """The keys the terminal's frames may carry, tried in this order; the first is the key of frames to it until
        one of its frames verifies under another. [] : the event's key alone, as for any terminal not named."""
        if keys:
            self._keys[terminal] = [Tagger(k) for k in keys]
        else:
            self._keys.pop(terminal, None)

    def key_of(self, terminal: int) -> bytes:
        """The key of frames to `terminal` now: the one its last frame verified under."""
        return self._tagger_of(terminal).key

    def _tagger_of(self, terminal: int) -> Tagger:
        own = self._keys.get(terminal)
        return own[0] if own else self._tagger

    def offer_pairing(self, terminal: int, nonce: bytes) -> bytes:
        """The PAIR_OFFER frame answering a HELLO (unauthenticated; the terminal asks again if it is lost)."""
        return encode_frame(NO_KEY, True, PAIR_OFFER, terminal, 1, PairOffer(nonce=nonce).encode())

    def answer_sign_in(self, inbound: Inbound, answer: SignInAnswer, now: int) -> int:
        """Acknowledge a SIGN_IN, bind the table if accepted, cancel what was in flight to that terminal,
        and send the answer (with the sign-in's nonce). Returns the answer's sequence number."""
        sign_in = inbound.message
        if not isinstance(sign_in, SignIn):
            raise ValueError("answer_sign_in needs a received SIGN_IN")
        terminal = inbound.terminal
        self.acknowledge(inbound)
        answer.nonce = sign_in.nonce
        if answer.status == ACCEPTED:
            self.bindings[terminal] = (answer.section, answer.table)
        for key in [k for k in self._out.waiting if k >> 16 == terminal]:
            del self._out.waiting[key]
        return self.send(terminal, answer, now)

    # -- sending --

    def send(self, terminal: int, msg: Message, now: int) -> int:
        """Queue a message to a terminal, retransmitted until acknowledged; returns its first sequence number."""
        frames = frame_payloads(msg.TYPE, msg.encode())
        self._out.room(len(frames))
        seq = self._seq_counter(terminal).take(len(frames))
        tagger = self._tagger_of(terminal)
        for i, (ftype, payload) in enumerate(frames):
            frame = encode_frame(tagger, True, ftype, terminal, seq + i, payload)
            self._out.put((terminal << 16) | (seq + i), frame, now)
        return seq

    def probe(self, terminal: int, msg: Message) -> "tuple[int, bytes]":
        """A one-frame message to a terminal that is sent once and never retransmitted (a survey's PING: the loss is
        what it measures). Returns its sequence number and frame, for the caller to put on the air."""
        payload = msg.encode()
        seq = self._seq_counter(terminal).take(1)
        return seq, encode_frame(self._tagger_of(terminal), True, msg.TYPE, terminal, seq, payload)

    def _seq_counter(self, terminal: int) -> SeqCounter:
        counter = self._seqs.get(terminal)
        if counter is None:
            counter = self._seqs[terminal] = self._counter(terminal, 1)
        return counter

    def next_seq(self, terminal: int) -> int:
        counter = self._seqs.get(terminal)
        return counter.next if counter is not None else 1

    def due(self, now: int) -> "list[bytes]":
        """Every frame to transmit now (route each by frame.frame_terminal)."""
        out = self._replies
        self._replies = []
        self._out.due(now, out)
        return out

    def withdraw(self, terminal: int, ftype: int) -> int:
        """Stop sending `terminal` the frames of messages of type `ftype` (fragments included) still unacknowledged,
        superseded by newer ones sent after (a round plan the director changed): sent again late, an old one would
        land after its successor. Returns how many frames were withdrawn."""
        stale = [key for key, entry in self._out.waiting.items()
                 if key >> 16 == terminal and message_type(entry[0]) == ftype]
        for key in stale:
            del self._out.waiting[key]
        return len(stale)

    def span(self, terminal: int) -> int:
        """How many numbers the next frame to `terminal` is ahead of its oldest unacknowledged one (0: none waits).
        The terminal takes a frame only within its replay window of the newest it has taken: a lost frame that
        is overtaken by more is refused for good when it comes again."""
        oldest = 0
        for key in self._out.waiting:
            if key >> 16 == terminal and (not oldest or key & 0xFFFF < oldest):
                oldest = key & 0xFFFF
        return self.next_seq(terminal) - oldest if oldest else 0

    def pending(self, terminal: "int | None" = None, ftype: int = 0) -> int:
        """Frames waiting for their ACK: all, a terminal's, or a terminal's messages of type `ftype` (fragments
        included)."""
        if terminal is None:
            return len(self._out)
        return sum(1 for k, entry in self._out.waiting.items()
                   if k >> 16 == terminal and (not ftype or message_type(entry[0]) == ftype))

    def acknowledge(self, inbound: Inbound, status: int = STORED) -> None:
        """Acknowledge a received message (after the store committed it), or refuse it for good (status >= 16)."""
        if status < REFUSED:
            self._done.add((inbound.terminal << 16) | inbound.seq)
        self._replies.append(encode_frame(self._tagger_of(inbound.terminal), True, ACK, inbound.terminal, inbound.seq,
                                          Ack(count=inbound.count, status=status).encode()))

    def more(self, terminal: int, waiting: int) -> None:
        """Tell a sleepy terminal that `waiting` frames still wait for it (0: none any more), ahead of them: it keeps
        its receiver on until told 0 (session.py, "Sleepy terminals")."""
        self._replies.append(encode_frame(self._tagger_of(terminal), True, MORE, terminal, 1,
                                          More(waiting=min(waiting, 255)).encode()))

    # -- receiving --

    def receive(self, data: "bytes | bytearray | memoryview", now: int) -> "Inbound | None":
        """One frame from a terminal. Returns a message (or a duplicate to acknowledge again), an ACK or a
        HELLO; None while a fragmented message is incomplete; raises WireError (counted) when refused."""
        try:
            inbound = self._receive(data)
        except WireError as e:
            tally(self.counters, e.reason)
            raise
        if inbound is None or inbound.type != HELLO:
            self._awake(frame_terminal(data), now)
        return inbound

    def _awake(self, terminal: int, now: int) -> None:
        """A terminal spoke, so it listens (session.py, "Sleepy terminals"): after AWAKE_MS of silence, everything
        already sent to it that waits for its ACK goes again now rather than at its retransmission time, backed off
        while the terminal was deaf."""
        last = self._heard.get(terminal)
        self._heard[terminal] = now
        if last is not None and now - last < AWAKE_MS:
            return  # in the middle of an exchange: it heard what was sent, or the retransmissions will do
        self.woken.add(terminal)
        for key, entry in self._out.waiting.items():
            if key >> 16 == terminal and entry[2] and entry[1] > now:
                entry[1] = now
                entry[2] = 1  # and its short delays again: it listens now (MORE keeps it so), lost it goes in 0.5 s

    def already_ingested(self, terminal: int, seq: int) -> bool:
        if (terminal << 16) | seq in self._done:
            return True
        return self._ingested is not None and self._ingested(terminal, seq)

    def _decode_under(self, data: "bytes | bytearray | memoryview", own: "list[Tagger]") -> Frame:
        """Decode a frame under the first of a terminal's keys its tag verifies with, which becomes its first."""
        for i in range(len(own)):
            try:
                frame = decode_frame(data, own[i], False)
            except WireError as e:
                if e.reason != BAD_TAG or i == len(own) - 1:
                    raise
                continue
            if i:
                own.insert(0, own.pop(i))
            return frame
        raise WireError(BAD_TAG, "no key")  # not reached: use_keys gives at least one

    def _receive(self, data: "bytes | bytearray | memoryview") -> "Inbound | None":
        own = self._keys.get(frame_terminal(data))
        if own is None:
            frame = decode_frame(data, self._tagger, False)
        else:
            frame = self._decode_under(data, own)
        terminal = frame.terminal
        ftype = frame.type
        if ftype == ACK or ftype == HELLO:
            msg = decode_message(ftype, frame.payload)
            count = 1
            if isinstance(msg, Ack):
                count = msg.count
                self._out.acknowledge((terminal << 16) | frame.seq, count)
            tally(self.counters, ACCEPTED_FRAME)
            return Inbound(terminal, frame.seq, count, ftype, msg)
        first = frame.seq
        count = 1
        if ftype == FRAGMENT:
            ftype, first, count = fragment_header(frame.payload, frame.seq)
            if not ((FROM_TERMINAL & ~CONTROL) >> ftype) & 1:
                raise WireError(MALFORMED, "no message type %d in fragments from a terminal" % ftype)
        if self.already_ingested(terminal, first):
            tally(self.counters, DUPLICATE)
            return Inbound(terminal, first, count, ftype, None, True)
        payload = frame.payload
        if count > 1:
            done = self._reassembler.add(terminal, frame.seq, payload)
            if done is None:
                tally(self.counters, ACCEPTED_FRAME)
                return None
            payload = done[3]
        msg = decode_message(ftype, payload)
        inbound = Inbound(terminal, first, count, ftype, msg)
        if isinstance(msg, (Result, Players, Erase, Request, Call)):
            where = (msg.section, msg.table)
            bound = self.bindings.get(terminal)
            if bound is None:
                raise WireError(NOT_SIGNED_IN, "terminal %d has not signed in" % terminal, inbound)
            if where != bound:
                raise WireError(WRONG_TABLE, "terminal %d sits at %s%d, not %s%d" % (
                    terminal, chr(65 + bound[0]), bound[1], chr(65 + where[0]), where[1]), inbound)
        tally(self.counters, ACCEPTED_FRAME)
        return inbound
