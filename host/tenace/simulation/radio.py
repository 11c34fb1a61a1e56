"""The virtual radio: terminals on one side (TCP, one connection each), the base station and collector on the other.

Like ESP-NOW broadcast: every frame from the host is on the air for every terminal, each receiving
it through its own faulty channel and keeping the frames with its own id; a terminal's frame reaches
the base station through its channel. To spare the CPU of a 256-terminal run, a frame for a terminal
whose id the radio has heard goes only to that terminal's connection: the others would drop it
unread (TerminalSession's NOT_MINE check, tested with 256 terminals in tests/firmware/test_radio_*).
The base station speaks SLIP over TCP to `tenace collect`, as a real one does over USB serial; it
can be unplugged for a while, and the collector may vanish (killed) and come back on another port.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import Any

from tenace.simulation.faults import Channel, FaultRates
from tenace_wire import slip
from tenace_wire.frame import frame_terminal

log = logging.getLogger(__name__)

_RECONNECT_S = 0.1


@dataclass
class AirStats:
    """What went over the air and the base station's serial link."""

    frames_up: int = 0  # transmissions by terminals
    bytes_up: int = 0
    frames_down: int = 0  # transmissions by the base station (broadcast: once for all terminals)
    bytes_down: int = 0
    forged: int = 0  # forged frames injected towards the base station
    dropped_at_base: int = 0  # arrived while the base station had no link to the collector


class VirtualRadio:
    def __init__(self, rates: FaultRates, seed: int) -> None:
        self.rates = rates
        self.rng = random.Random(seed)
        self.stats = AirStats()
        self.collector_port: int | None = None
        self._terminals: dict[asyncio.StreamWriter, Channel] = {}
        self._heard: dict[int, asyncio.StreamWriter] = {}  # terminal id -> its connection
        self._uplink = Channel(rates, self.rng)
        self._base: asyncio.StreamWriter | None = None
        self._unplugged_until = 0.0
        self._server: asyncio.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[Any]] = set()  # one per terminal connection

    async def start(self) -> int:
        """Listen for terminals; returns the port they connect to."""
        self._server = await asyncio.start_server(self._terminal, "127.0.0.1", 0)
        self._task = asyncio.create_task(self._base_station())
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop the base station, close every terminal's connection and let their handlers see it end
        (cancelled mid-read by asyncio.run instead, each would be logged with a traceback by Python 3.11)."""
        if self._task is not None:
            self._task.cancel()
        if self._server is not None:
            self._server.close()
        for writer in list(self._terminals):
            writer.close()
        if self._base is not None:
            self._base.close()
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=2.0)

    def unplug(self, seconds: float) -> None:
        """Pull the base station's USB cable for `seconds`: frames both ways are lost meanwhile."""
        self._unplugged_until = asyncio.get_running_loop().time() + seconds
        if self._base is not None:
            self._base.close()
        log.info("base station unplugged for %.1f s", seconds)

    def _plugged(self) -> bool:
        return asyncio.get_running_loop().time() >= self._unplugged_until

    # -- terminals -> base station

    async def _terminal(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        self._terminals[writer] = Channel(self.rates, random.Random(self.rng.random()))
        decoder = slip.Decoder()
        try:
            while data := await reader.read(4096):
                for frame in decoder.feed(data):
                    self._heard[frame_terminal(frame)] = writer
                    self._from_terminal(frame)
        except ConnectionError:
            pass
        finally:
            self._terminals.pop(writer, None)
            for terminal in [t for t, w in self._heard.items() if w is writer]:
                del self._heard[terminal]
            writer.close()
            if task is not None:
                self._handlers.discard(task)

    def _from_terminal(self, frame: bytes) -> None:
        self.stats.frames_up += 1
        self.stats.bytes_up += len(frame)
        loop = asyncio.get_running_loop()
        for delay, copy in self._uplink.transmit(frame):
            loop.call_later(delay, self._to_collector, copy)
        forged = self._uplink.forgery(frame)
        if forged is not None:
            self.stats.forged += 1
            loop.call_later(0.001, self._to_collector, forged)

    def _to_collector(self, frame: bytes) -> None:
        base = self._base
        if base is None or base.is_closing() or not self._plugged():
            self.stats.dropped_at_base += 1
            return
        base.write(slip.encode(frame))

    # -- base station <-> collector, and broadcast to the terminals

    async def _base_station(self) -> None:
        while True:
            port = self.collector_port
            if port is None or not self._plugged():
                await asyncio.sleep(_RECONNECT_S)
                continue
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(_RECONNECT_S)
                continue
            self._base = writer
            decoder = slip.Decoder()
            try:
                while data := await reader.read(4096):
                    for frame in decoder.feed(data):
                        self._broadcast(frame)
            except ConnectionError:
                pass
            finally:
                self._base = None
                writer.close()

    def _broadcast(self, frame: bytes) -> None:
        if not self._plugged():
            return
        self.stats.frames_down += 1
        self.stats.bytes_down += len(frame)
        loop = asyncio.get_running_loop()
        addressee = self._heard.get(frame_terminal(frame))
        receivers = [addressee] if addressee is not None else list(self._terminals)
        for writer in receivers:
            channel = self._terminals.get(writer)
            if channel is None:
                continue
            for delay, copy in channel.transmit(frame):
                loop.call_later(delay, _deliver, writer, copy)


def _deliver(writer: asyncio.StreamWriter, frame: bytes) -> None:
    if not writer.is_closing():
        writer.write(slip.encode(frame))
