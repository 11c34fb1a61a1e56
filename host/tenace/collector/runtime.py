"""The collector run: its options checked, the event file opened and locked, its ports open until it is stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tenace.club_key import read_club_key
from tenace.collector import Collector, Settings, link_key
from tenace.collector.hub_push import Pusher
from tenace.collector.lock import SOMEONE, CollectorLock, LockHeld
from tenace.collector.refusals import listen_reason, port_reason
from tenace.collector.service import Service, progress
from tenace.collector.tcp_link import TcpServer, serve_tcp, write_port_file
from tenace.errors import Refused, UsageError
from tenace.store import StoreError, connect


@dataclass(frozen=True)
class CollectorOptions:
    """What the collector runs with, checked by the command that runs it (`tenace collect`, `tenace serve`)."""

    command: str  # the command running it, named in the lock file
    settings: Settings
    progress_s: float
    listen: tuple[str, int] | None = None  # the base stations' TCP address (the simulator)
    listen_text: str = ""  # as typed, for the refusal
    port_file: Path | None = None  # the TCP port listened on is written there
    serial: str | None = None  # the base station's serial port
    baud: int = 115200


@dataclass
class Collecting:
    """A collector ready to run: its connection to the event file, the file's lock held, its options."""

    conn: sqlite3.Connection
    collector: Collector
    lock: CollectorLock
    options: CollectorOptions
    # Pushes the event's outbox to its sim's hub, if it is linked to one (or once it is): a thread of its own, so
    # that the collector's loop never waits for the hub.
    pusher: Pusher

    def close(self) -> None:
        """After the run, however it ended: the last flush, the progress line, the lock given back."""
        try:
            self.pusher.stop()
            self.collector.close()
            print(progress(self.conn, self.collector).line(), flush=True)
        finally:
            self.conn.close()
            self.lock.release()


def start_collecting(options: CollectorOptions, db: Path) -> Collecting:
    """Open the event file and take its lock; UsageError (one line) when either fails."""
    club = read_club_key()  # before the event file and its lock: a damaged key file is refused first
    try:
        conn = connect(db)
        key = link_key(conn)
    except StoreError as e:
        raise UsageError(str(e)) from None
    lock = CollectorLock(db, f"tenace {options.command}")  # collect, or serve with the collector in it
    try:
        lock.acquire()
    except LockHeld as e:
        conn.close()
        if e.holder == SOMEONE:
            raise Refused("locked_other", str(e)) from None
        raise Refused("locked", str(e), holder=e.holder, pid=e.pid if e.pid is not None else "?") from None
    except OSError as e:
        conn.close()
        error = e.strerror or e
        raise Refused("lock_file", f"cannot make the lock file {lock.path}: {error}", path=lock.path,
                      error=error) from None
    # Sign-ins and round changes are what the director watches: shown even without --verbose.
    logging.getLogger("tenace.collector").setLevel(logging.INFO)
    print(f"Pairing code for this event: {key.spaced_code} — key it at each terminal", flush=True)
    if club is not None:
        print(f"Club key {club.id} ({club.path}): terminals flashed with it pair with it", flush=True)
    collector = Collector(conn, options.settings, key=key, club_key=club.key if club else None)
    print(f"Director's PIN for the terminals' menu: {collector.director_pin:04d}", flush=True)
    pusher = Pusher(db)
    pusher.start()
    return Collecting(conn, collector, lock, options, pusher)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run_until_stopped(collecting: Collecting) -> int:
    """Collect in this thread's own asyncio loop until SIGINT or SIGTERM, then close; 0."""
    previous = {signum: signal.getsignal(signum) for signum in _STOP_SIGNALS}
    try:
        return asyncio.run(_serve(collecting))
    finally:
        collecting.close()
        with contextlib.suppress(ValueError):  # not the main thread: nothing was changed
            for signum, handler in previous.items():
                signal.signal(signum, handler)


async def _serve(collecting: Collecting) -> int:
    service = Service(collecting.collector, progress_s=collecting.options.progress_s)
    loop = asyncio.get_running_loop()
    handled = []
    for signum in _STOP_SIGNALS:
        # Windows has no signal handlers in asyncio: Ctrl-C arrives there as KeyboardInterrupt instead.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, service.stopping.set)
            handled.append(signum)
    try:
        return await collect_until_stopped(service, collecting)
    finally:
        # Already stopping: a second signal (Ctrl-C reaches the whole group, then `tenace sim` sends SIGTERM)
        # is ignored until run_until_stopped() restores the handlers. Removed here, while the loop is open, because
        # loop.close() closes its wakeup pipe before removing them, and a signal in between printed
        # "OSError: [Errno 9] Bad file descriptor" with a traceback.
        for signum in handled:
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)


async def collect_until_stopped(service: Service, collecting: Collecting,
                                started: Callable[[], None] | None = None) -> int:
    """Listen on the base stations' TCP port and/or open the serial one, then collect until `service.stopping`;
    `started` is called once they are open. UsageError when a port cannot be used."""
    options = collecting.options
    loop = asyncio.get_running_loop()
    server: TcpServer | None = None
    link = None
    if options.listen is not None:
        try:
            server = await serve_tcp(service, *options.listen)
        except OSError as e:
            error = e.strerror or e
            raise Refused(listen_reason(e), f"cannot listen on {options.listen_text}: {error}",
                          address=options.listen_text, error=error) from None
        print(f"listening for base stations on {options.listen[0]}:{server.port}", flush=True)
        service.where.append(f"TCP {options.listen[0]}:{server.port}")
        service.tcp_port = server.port
        if options.port_file:
            try:
                write_port_file(options.port_file, server.port)
            except OSError as e:
                await server.close()
                # The option has this name in both commands that run the collector.
                raise UsageError(f"--port-file {options.port_file}: cannot write it: {e.strerror or e}") from None
    if options.serial:
        import serial  # only with a serial port: the simulator needs none

        from tenace.collector.serial_link import SerialLink, open_port
        try:
            port_handle = open_port(options.serial, options.baud)
        except (serial.SerialException, OSError, ValueError) as e:
            if server is not None:
                await server.close()
            raise Refused(port_reason(e), f"cannot open the base station's port {options.serial}: {e}",
                          port=options.serial, error=e) from None
        link = SerialLink(service, loop, options.serial, options.baud, port_handle)
        link.start()
        print(f"base station on {options.serial} at {options.baud} baud", flush=True)
        service.where.append(f"{options.serial} ({options.baud} Bd)")  # the unit's symbol: no word to translate
    if started is not None:
        started()
    try:
        await service.tick()
    finally:
        if link is not None:
            link.stop()
        if server is not None:
            await server.close()
    print("collector stopped", flush=True)
    return 0
