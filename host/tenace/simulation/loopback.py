"""Terminals and a collector on a simulated radio channel with a simulated clock: for tests and the link benchmark.

Each SimulatedTerminal is a tenace_wire TerminalSession that pairs (HELLO, PAIR_OFFER, the keyed code),
signs in and keeps what the host sends it; the Channel drops frames at random (the one fault model's loss,
tenace.simulation.faults) and counts the bytes on air.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tenace.collector.collector import Collector
from tenace.simulation import faults
from tenace_wire.control import Ack, More, PairOffer, SignInAnswer
from tenace_wire.director_messages import RoundPlan
from tenace_wire.errors import WireError
from tenace_wire.fields import Message
from tenace_wire.terminal_session import TerminalSession

HELLO_EVERY_MS = 500


@dataclass
class Channel:
    """A shared channel losing each frame with probability `loss` (each way), counting every byte sent."""

    rng: random.Random
    loss: float = 0.0
    bytes_up: int = 0  # terminal -> host, lost frames included: they were on the air
    bytes_down: int = 0
    frames_up: int = 0
    frames_down: int = 0

    def up(self, frames: Iterable[bytes]) -> list[bytes]:
        return self._pass(frames, True)

    def down(self, frames: Iterable[bytes]) -> list[bytes]:
        return self._pass(frames, False)

    def _pass(self, frames: Iterable[bytes], up: bool) -> list[bytes]:
        kept = []
        for frame in frames:
            if up:
                self.bytes_up += len(frame)
                self.frames_up += 1
            else:
                self.bytes_down += len(frame)
                self.frames_down += 1
            if not faults.lost(self.loss, self.rng):
                kept.append(frame)
        return kept


@dataclass
class SimulatedTerminal:
    """One table's terminal: pairs with `code`, signs in to (section, table), records what comes back."""

    terminal: int
    section: int
    table: int
    code: str
    rng: random.Random
    session: TerminalSession = field(init=False)
    answers: list[SignInAnswer] = field(default_factory=list)
    plans: list[RoundPlan] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    acks: dict[int, int] = field(default_factory=dict)  # first seq acknowledged -> status
    refused: int = 0  # frames its session refused (most: frames for other terminals on the shared channel)
    key: bytes | None = None  # the event key, once paired
    club: bytes | None = None  # the club key tenace flash would have written; None: it pairs with the code alone
    _hello_at: int = -HELLO_EVERY_MS

    def __post_init__(self) -> None:
        self.session = TerminalSession(self.terminal, self.rng.getrandbits, club=self.club)

    @property
    def paired(self) -> bool:
        return self.key is not None

    def frames(self, now: int) -> list[bytes]:
        """What this terminal puts on the air now: HELLO until paired, then its session's frames."""
        if not self.paired:
            if now - self._hello_at >= HELLO_EVERY_MS:
                self._hello_at = now
                return [self.session.hello()]
            return []
        return self.session.due(now)

    def hear(self, frame: bytes, now: int) -> None:
        try:
            inbound = self.session.receive(frame, now)
        except WireError:
            self.refused += 1
            return
        if inbound is None:
            return
        msg = inbound.message
        if isinstance(msg, PairOffer) and not self.paired:
            self.key = self.session.pair(self.code, msg.nonce)
            self.session.sign_in(self.section, self.table, now)
        elif isinstance(msg, Ack):
            self.acks[inbound.seq] = msg.status
        elif isinstance(msg, SignInAnswer):
            self.answers.append(msg)
        elif isinstance(msg, RoundPlan):
            self.plans.append(msg)
        elif msg is not None and not isinstance(msg, More):  # MORE: for a sleepy terminal's receiver (wire_link.py)
            self.messages.append(msg)

    def send(self, msg: Message, now: int) -> int:
        return self.session.queue(msg, now)


@dataclass
class Loopback:
    """A collector and its terminals on one channel, stepped by a simulated clock (milliseconds)."""

    collector: Collector
    terminals: list[SimulatedTerminal]
    channel: Channel
    now: int = 0
    step_ms: int = 20

    def step(self) -> None:
        for t in self.terminals:
            for frame in self.channel.up(t.frames(self.now)):
                self.collector.receive(frame, self.now)
        for frame in self.channel.down(self.collector.due(self.now)):
            for t in self.terminals:  # a broadcast: every terminal hears every host frame
                t.hear(frame, self.now)
        self.now += self.step_ms

    def run_until(self, done: Callable[[], bool], limit_ms: int = 600_000) -> bool:
        """Step until `done()` or the time limit; whether done."""
        end = self.now + limit_ms
        while not done():
            if self.now >= end:
                return False
            self.step()
        return True

    def signed_in(self) -> bool:
        return all(t.session.signed_in for t in self.terminals)
