"""The running collector: one asyncio loop feeding frames from every base station in, broadcasting what is due."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from tenace.collector.collector import Collector
from tenace.store.queries import Tally, refusal_count, tally
from tenace_wire import slip

log = logging.getLogger(__name__)

TICK_S = 0.02


class BaseStation:
    """One connected base station: SLIP bytes in (fed by its transport), frames out through `write`."""

    def __init__(self, name: str, write: Callable[[bytes], None]) -> None:
        self.name = name
        self._write = write
        self._decoder = slip.Decoder()

    def packets(self, data: bytes) -> list[bytes]:
        return self._decoder.feed(data)

    def send(self, frames: list[bytes]) -> None:
        if frames:
            self._write(b"".join(slip.encode(f) for f in frames))


@dataclass
class Progress:
    results: Tally  # the results that count of the movement's slots, conflicts apart
    terminals: int  # terminals heard by this run
    refusals: int  # refused frames recorded in the event file

    def line(self) -> str:
        return f"{self.results.text()}, terminals heard {self.terminals}, refused frames {self.refusals}"


def progress(conn: sqlite3.Connection, collector: Collector) -> Progress:
    return Progress(tally(conn), len(collector.heard), refusal_count(conn))


class Service:
    """Frames from base stations into the collector; every ~20 ms the frames due go to every base station."""

    def __init__(self, collector: Collector, clock: Callable[[], float] = time.monotonic,
                 progress_s: float = 5.0) -> None:
        self.collector = collector
        self.stations: list[BaseStation] = []
        self._clock = clock
        self._start = clock()
        self.progress_s = progress_s
        self.stopping = asyncio.Event()
        # Where it listens, as said to the director ("TCP 127.0.0.1:40123", "/dev/ttyUSB0 (115200 Bd)").
        self.where: list[str] = []
        self.tcp_port: int | None = None  # the TCP port listened on, once open

    def now_ms(self) -> int:
        return int((self._clock() - self._start) * 1000)

    def attach(self, station: BaseStation) -> None:
        self.stations.append(station)
        log.info("base station %s connected", station.name)

    def detach(self, station: BaseStation) -> None:
        if station in self.stations:
            self.stations.remove(station)
            log.info("base station %s gone", station.name)

    def heard(self, station: BaseStation, data: bytes) -> None:
        """Bytes from a base station: every complete frame to the collector, then what is due straight back."""
        now = self.now_ms()
        for packet in station.packets(data):
            self.collector.receive(packet, now)
        self.broadcast()

    def broadcast(self) -> None:
        frames = self.collector.due(self.now_ms())
        for station in list(self.stations):
            try:
                station.send(frames)
            except OSError as e:
                log.warning("base station %s: write failed (%s)", station.name, e)
                self.detach(station)

    async def tick(self) -> None:
        """Retransmissions and flushes, until stopped; a progress line every few seconds."""
        last_progress = self._clock()
        while not self.stopping.is_set():
            self.broadcast()
            if self._clock() - last_progress >= self.progress_s:
                last_progress = self._clock()
                print(progress(self.collector.conn, self.collector).line(), flush=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), TICK_S)
