"""The collector inside `tenace serve`'s process: a thread of its own, started from the command line or from the
console's Terminals page, and stopped from either."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from tenace.collector.refusals import stop_reason
from tenace.collector.runtime import Collecting, CollectorOptions, collect_until_stopped, start_collecting
from tenace.collector.serial_link import usb_ports
from tenace.collector.service import Service
from tenace.collector.settings import Settings
from tenace.collector.tcp_link import parse_listen
from tenace.errors import Refused, UsageError

log = logging.getLogger(__name__)

# How long a stopping collector may take to close its ports and flush before the command gives up on it.
COLLECTOR_STOP_S = 10.0
MIN_BAUD, MAX_BAUD = 300, 4_000_000


class Attachable(Protocol):
    """What else takes frames from the collector's loop while it runs (the spare terminal's pages: web/spare.py)."""

    def attach(self, loop: asyncio.AbstractEventLoop, service: Service) -> None: ...

    def detach(self) -> None: ...


class CollectorThread:
    """The collector's asyncio loop in a thread of its own, as `tenace collect` runs it (each result committed
    before the table is told), so that its SQLite commits never hold up the pages' loop.

    A failure is kept in `error` and `on_end` is called: `tenace serve` then stops its pages (the collector of its
    command line) or the console says so (the one started there). No restart: whatever failed would most likely fail
    again, unseen."""

    def __init__(self, options: CollectorOptions, path: Path, on_end: Callable[[], None],
                 spare: Attachable | None = None) -> None:
        self.options = options
        self.spare = spare  # the spare terminal pages' way in: attached to this collector while it runs
        self.path = path
        self.on_end = on_end
        self.error: BaseException | None = None
        self.started = time.time()
        self._ready = threading.Event()
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._service: Service | None = None
        self._thread = threading.Thread(target=self._main, name="collector", daemon=True)

    def start(self) -> None:
        """Run it and wait until its ports are open; what stopped it before (UsageError, as from `tenace collect`:
        a port, the event file or its lock) is raised here."""
        self._thread.start()
        self._ready.wait()
        if self.error is not None:
            self._thread.join()
            raise self.error

    def stop(self) -> None:
        self._stopping = True
        loop, service = self._loop, self._service
        if loop is not None and service is not None and self._thread.is_alive():
            loop.call_soon_threadsafe(service.stopping.set)
        self._thread.join(COLLECTOR_STOP_S)
        if self._thread.is_alive():
            log.warning("the collector did not stop within %.0f s", COLLECTOR_STOP_S)

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and self._ready.is_set() and self.error is None

    @property
    def stations(self) -> list[str]:
        """The base stations connected now (a serial one, the simulator's radio over TCP, a spare terminal's page)."""
        service = self._service
        return [station.name for station in list(service.stations)] if service is not None else []

    @property
    def tcp_port(self) -> int | None:
        service = self._service
        return service.tcp_port if service is not None else None

    @property
    def where(self) -> list[str]:
        """Where it listens: a TCP address (its port as opened) and/or a serial port."""
        service = self._service
        return list(service.where) if service is not None else []

    def _main(self) -> None:
        # Opened, run and closed in this thread: an SQLite connection is used in the thread that made it.
        try:
            collecting = start_collecting(self.options, self.path)
        except BaseException as e:  # a UsageError is the command's to say, in one line
            self.error = e
            self._ready.set()
            return
        try:
            asyncio.run(self._collect(collecting))
        except BaseException as e:  # kept for the command, which says so in one line
            self.error = e
        finally:
            try:
                collecting.close()
            except BaseException as e:
                self.error = self.error or e
            self._ready.set()
            if not self._stopping:
                self.on_end()

    async def _collect(self, collecting: Collecting) -> None:
        self._loop = asyncio.get_running_loop()
        self._service = Service(collecting.collector, progress_s=collecting.options.progress_s)
        if self.spare is not None:
            self.spare.attach(self._loop, self._service)
        try:
            await collect_until_stopped(self._service, collecting, started=self._ready.set)
        finally:
            if self.spare is not None:
                self.spare.detach()
        if not self._stopping:
            raise RuntimeError("the collector stopped by itself")


@dataclass(frozen=True)
class Stopped:
    """Why the collector stopped by itself after it had started, and when: said on the Terminals page until it listens
    again, in the page's words (lr_REASON, its values)."""

    at: str  # ISO 8601, UTC
    reason: str
    values: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ListeningState:
    """What the Terminals page says of the collector."""

    on: bool
    where: tuple[str, ...]  # where it listens, when on
    stations: tuple[str, ...]  # the base stations connected now
    by_console: bool  # started from the console (so stopped there too)
    error: str | None  # why the last start failed, or why it stopped, in one line
    ports: tuple[str, ...] = ()  # when off: the USB serial ports plugged in, the first offered to start on
    stopped: Stopped | None = None  # it stopped by itself since it last started


def console_options(base: CollectorOptions, way: str, address: str, baud: str) -> CollectorOptions:
    """The options a start from the console asks for: a serial port (`address`, at `baud`) or a TCP address, the
    table settings of the command line's options kept. UsageError (one line) when one cannot be used."""
    address = address.strip()
    if way == "serial":
        if not address:
            raise Refused("serial_none", "give the base station's serial port, such as /dev/ttyUSB0 or COM3")
        text = baud.strip() or str(base.baud)
        if not text.isdecimal() or not MIN_BAUD <= int(text) <= MAX_BAUD:
            raise Refused("baud", f"the serial speed is {MIN_BAUD} to {MAX_BAUD} baud, not {text!r}", low=MIN_BAUD,
                          high=MAX_BAUD, text=repr(text))
        return replace(base, serial=address, baud=int(text), listen=None, listen_text="", port_file=None)
    if way == "tcp":
        try:
            listen = parse_listen(address)
        except ValueError:
            raise Refused("tcp_form", f"the TCP address is HOST:PORT, such as 127.0.0.1:7373, not {address!r}",
                          text=repr(address)) from None
        return replace(base, serial=None, listen=listen, listen_text=address, port_file=None)
    raise Refused("way", "choose a serial base station or TCP")


class Listening:
    """The collector inside `tenace serve`, one at a time: as the command line asked for it (`asked`, started once the
    event file exists) or as the console starts and stops it. `event` gives the event file (UsageError while there is
    none yet). `base`: the command line's collector options, whose table settings a start from the console keeps."""

    def __init__(self, event: Callable[[], Path], spare: Attachable | None = None, base: CollectorOptions | None = None,
                 asked: CollectorOptions | None = None, on_failure: Callable[[], None] | None = None,
                 ports: Callable[[], list[str]] = usb_ports) -> None:
        self.event = event
        self.ports = ports  # the serial ports a base station may be on (the tests give their pseudo-terminal)
        self.spare = spare
        self.base = base or asked or CollectorOptions("serve", Settings(), 5.0)
        self.asked = asked
        self.on_failure = on_failure  # the command line's collector failed: the pages stop
        self.thread: CollectorThread | None = None
        self.by_console = False
        self.error: str | None = None
        self.stopped: Stopped | None = None
        # Stopped with it: what plays into it from this process (a practice event's simulated tables).
        self.followers: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def start(self, options: CollectorOptions | None = None) -> None:
        """Start it (the command line's options unless given); UsageError (one line) when it cannot be."""
        with self._lock:
            if self.thread is not None and self.thread.running:
                where = ", ".join(self.thread.where)
                raise Refused("already", f"the collector is listening already ({where}): stop it first", where=where)
            by_console = options is not None
            chosen = options if options is not None else self.asked
            if chosen is None:
                raise Refused("no_station", "no base station given: choose a serial port or a TCP address")
            thread = CollectorThread(chosen, self.event(), on_end=lambda: self._ended(thread), spare=self.spare)
            try:
                thread.start()
            except UsageError as e:
                self.error = str(e)
                raise
            self.thread, self.by_console, self.error, self.stopped = thread, by_console, None, None
        log.info("the collector is listening on %s", ", ".join(thread.where))

    def _ended(self, thread: CollectorThread) -> None:
        """It stopped by itself (failed): the console says why; the command line's own stops the pages."""
        if thread is not self.thread:  # it failed to start: start() raises why
            return
        self.error = f"the collector stopped: {thread.error}" if thread.error is not None else "the collector stopped"
        reason, values = stop_reason(thread.error)
        self.stopped = Stopped(datetime.now(UTC).isoformat(timespec="seconds"), reason, values)
        log.warning("%s", self.error)
        if not self.by_console and self.on_failure is not None:
            self.on_failure()

    def stop(self) -> None:
        with self._lock:
            thread = self.thread
            followers, self.followers = self.followers, []
        for follower in followers:
            follower()
        if thread is not None:  # kept: its failure, if any, is still the command's to say
            thread.stop()

    def start_asked(self) -> None:
        """The command line's collector, once the event file exists (`tenace serve --new`: once the console's set-up
        has made it); nothing when none was asked for or one runs already."""
        if self.asked is not None and (self.thread is None or not self.thread.running):
            self.start()

    @property
    def failure(self) -> BaseException | None:
        """Why the command line's collector stopped by itself, for the command to say (None: it did not)."""
        thread = self.thread
        if thread is None or self.by_console:
            return None
        return thread.error

    def tcp_port(self) -> int | None:
        """The TCP port it listens on now (None: not listening, or on a serial port alone)."""
        thread = self.thread
        return thread.tcp_port if thread is not None and thread.running else None

    def state(self) -> ListeningState:
        thread = self.thread
        on = thread is not None and thread.running
        return ListeningState(on, tuple(thread.where) if thread is not None and on else (),
                              tuple(thread.stations) if thread is not None and on else (), self.by_console, self.error,
                              () if on else tuple(self.ports()), None if on else self.stopped)
