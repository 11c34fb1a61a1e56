"""The one fault model of a frame in flight: loss, corruption, duplication, reordering, delay, forgery.

The virtual radio of `tenace sim` (radio.py) draws every fault; the loopback of the tests and benchmarks
(loopback.py), stepped by a simulated clock, draws loss alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tenace_wire.crc16 import crc16

_BASE_DELAY_S = 0.002  # time on the air and through the base station
_REORDER_S = (0.05, 0.3)  # a reordered frame is held this long, so that later frames overtake it


@dataclass(frozen=True)
class FaultRates:
    """Probabilities per frame and receiver (each 0-1), a delay bound, and the rate of forged frames."""

    loss: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    delay_ms: float = 0.0
    forge: float = 0.0  # per frame a terminal sends: an attacker's copy with a changed byte and a fixed-up CRC

    def __post_init__(self) -> None:
        for name in ("loss", "corrupt", "duplicate", "reorder", "forge"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"--{name} is a probability from 0 to 1, not {value}")
        if self.delay_ms < 0:
            raise ValueError(f"--delay is milliseconds, 0 or more, not {self.delay_ms}")


class Channel:
    """One receiver's view of the air: each frame sent reaches it zero, one or two times, maybe damaged."""

    def __init__(self, rates: FaultRates, rng: random.Random) -> None:
        self.rates = rates
        self.rng = rng

    def transmit(self, frame: bytes) -> list[tuple[float, bytes]]:
        """The copies that arrive: (seconds from now, bytes)."""
        rates, rng = self.rates, self.rng
        if lost(rates.loss, rng):
            return []
        if rng.random() < rates.corrupt:
            frame = flip_bit(frame, rng)
        copies = 2 if rng.random() < rates.duplicate else 1
        out = []
        for _ in range(copies):
            delay = _BASE_DELAY_S + rng.random() * rates.delay_ms / 1000
            if rng.random() < rates.reorder:
                delay += rng.uniform(*_REORDER_S)
            out.append((delay, frame))
        return out

    def forgery(self, frame: bytes) -> bytes | None:
        """Now and then, a forged frame modelled on `frame`: a payload byte changed and the CRC made right again,
        as an attacker in radio range without the event key would send."""
        if len(frame) < 16 or self.rng.random() >= self.rates.forge:
            return None
        body = bytearray(frame[:-2])
        body[5 + self.rng.randrange(len(frame) - 15 or 1)] ^= 1 + self.rng.randrange(255)
        return bytes(body) + crc16(body).to_bytes(2, "big")


def lost(loss: float, rng: random.Random) -> bool:
    """Whether a frame is lost, at probability `loss`: a draw only where frames can be lost, so that a lossless
    channel leaves the random stream it shares (the loopback's, with its terminals) as it was."""
    return loss > 0 and rng.random() < loss


def flip_bit(frame: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(frame)
    if damaged:
        damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
    return bytes(damaged)
