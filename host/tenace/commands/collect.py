"""`tenace collect`: run the collector: results from the tables' base station(s) into the event file."""

from __future__ import annotations

import argparse
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
from tenace.collector.lock import CollectorLock, LockHeld
from tenace.collector.service import Service, progress
from tenace.collector.settings import LEAD, PLAYER_NUMBERS, RESULT_ENTRY
from tenace.collector.tcp_link import TcpServer, parse_listen, serve_tcp, write_port_file
from tenace.commands.options import cannot_write, in_range, output_file
from tenace.errors import UsageError
from tenace.simulation.terminal.process import LANGUAGES
from tenace.store import StoreError, connect

log = logging.getLogger(__name__)

MAX_PROGRESS_S = 3600
HELP = "collect results from the tables: the base station on a serial port, or the simulator over TCP"
EPILOG = """\
examples:
  tenace collect --db club.sqlite --serial /dev/ttyUSB0            the base station on USB
  tenace collect --db club.sqlite --serial COM3 --lead warn --traveller
  tenace collect --db club.sqlite --listen 127.0.0.1:0 --port-file port.txt    for `tenace sim`

The pairing code is printed at start: key it at each terminal once. Terminals flashed with the club
key (tenace flash --club-key; the file is $TENACE_CLUB_KEY or club.key in your configuration folder)
pair with it, the others with the code alone: tenace problems lists which did which. Every result is stored in the
event file before the table is told it is saved, so the collector may be stopped (Ctrl-C) or even
killed and started again at any moment: nothing is lost or counted twice. A progress line is printed
every few seconds. One collector at a time per event file: it holds FILE.lock beside the event file
while it runs. Exit code 0 when stopped, 2 when the event file or the port cannot be used."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("collect", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", type=Path, required=True, metavar="FILE", help="the event file")
    add_collector_options(p, "--listen")
    p.set_defaults(run=run)


def add_collector_options(p: argparse._ActionsContainer, radio_flag: str) -> None:
    """The collector's options, one definition for `tenace collect` and `tenace serve` (which runs the collector in
    its own process). `radio_flag` names the simulator's TCP address (`--listen` here; serve's --listen is its
    pages'); it is read back as `args.radio`."""
    p.set_defaults(radio_flag=radio_flag)
    p.add_argument(radio_flag, dest="radio", metavar="HOST:PORT",
                   help="accept base stations over TCP (the simulator); port 0 picks a free one")
    p.add_argument("--port-file", type=Path, metavar="F", help="write the TCP port listened on to this file")
    p.add_argument("--serial", metavar="DEV", help="the base station's serial port (/dev/ttyUSB0, COM3)")
    p.add_argument("--baud", type=int, default=115200, metavar="N", help="serial speed (default 115200)")
    p.add_argument("--players", choices=PLAYER_NUMBERS, default="off", help="player numbers at the tables")
    p.add_argument("--lead", choices=LEAD, default="off",
                   help="opening lead entry: off, on, warn (checked), force (must be corrected)")
    p.add_argument("--result-entry", choices=RESULT_ENTRY, default="any",
                   help="tricks keyed as =, +1, -2 (relative), as a total, or either (any, the default)")
    p.add_argument("--traveller", action="store_true", help="show each board's traveller after its result")
    p.add_argument("--language", default="en", metavar="xx",
                   help=f"the terminals' language: {', '.join(LANGUAGES)} (default en)")
    p.add_argument("--pin", metavar="NNNN",
                   help="the director's PIN for the terminals' menu, four digits (default: the event's own, printed "
                        "at the start: the same for the whole event)")
    p.add_argument("--progress", type=float, default=5.0, metavar="S",
                   help=f"seconds between progress lines, 1 to {MAX_PROGRESS_S} (default 5)")


def wants_collector(args: argparse.Namespace) -> bool:
    """True when the command line asks for a base station (serial or TCP): what `tenace serve` collects with."""
    return bool(args.radio or args.serial)


@dataclass
class Collecting:
    """A collector ready to run: its connection to the event file, the file's lock held, the checked options."""

    conn: sqlite3.Connection
    collector: Collector
    lock: CollectorLock
    listen: tuple[str, int] | None
    args: argparse.Namespace

    def close(self) -> None:
        """After the run, however it ended: the last flush, the progress line, the lock given back."""
        try:
            self.collector.close()
            print(progress(self.conn, self.collector).line(), flush=True)
        finally:
            self.conn.close()
            self.lock.release()


def start_collecting(args: argparse.Namespace, db: Path) -> Collecting:
    """Check the collector's options, open the event file and take its lock; UsageError (one line) when any fails."""
    flag = args.radio_flag
    if not args.radio and not args.serial:
        raise UsageError(f"give --serial DEV (a base station) or {flag} HOST:PORT (the simulator)")
    if args.port_file and not args.radio:
        raise UsageError(f"--port-file goes with {flag}")
    if args.language not in LANGUAGES:
        raise UsageError(f"--language {args.language!r}: the terminals speak {', '.join(LANGUAGES)}")
    in_range("--progress", args.progress, 1, MAX_PROGRESS_S, unit="seconds")
    in_range("--baud", args.baud, 300, 4_000_000)
    if args.port_file:
        output_file("--port-file", args.port_file)
    if args.pin is not None and not (len(args.pin) == 4 and args.pin.isascii() and args.pin.isdigit()):
        raise UsageError(f"--pin {args.pin!r}: four digits, such as 4821")
    try:
        listen = parse_listen(args.radio) if args.radio else None
        settings = Settings(player_numbers=args.players, lead=args.lead, result_entry=args.result_entry,
                            show_traveller=args.traveller, language=args.language,
                            pin=int(args.pin) if args.pin is not None else None)
    except ValueError as e:
        # parse_listen names collect's flag; serve's is another.
        raise UsageError(str(e).replace("--listen ", f"{flag} ", 1)) from None
    club = read_club_key()  # before the event file and its lock: a damaged key file is refused first
    try:
        conn = connect(db)
        key = link_key(conn)
    except StoreError as e:
        raise UsageError(str(e)) from None
    lock = CollectorLock(db, f"tenace {args.command}")  # collect, or serve with the collector in it
    try:
        lock.acquire()
    except LockHeld as e:
        conn.close()
        raise UsageError(str(e)) from None
    except OSError as e:
        conn.close()
        raise UsageError(f"cannot make the lock file {lock.path}: {e.strerror or e}") from None
    # Sign-ins and round changes are what the director watches: shown even without --verbose.
    logging.getLogger("tenace.collector").setLevel(logging.INFO)
    print(f"Pairing code for this event: {key.spaced_code} — key it at each terminal", flush=True)
    if club is not None:
        print(f"Club key {club.id} ({club.path}): terminals flashed with it pair with it", flush=True)
    collector = Collector(conn, settings, key=key, club_key=club.key if club else None)
    print(f"Director's PIN for the terminals' menu: {collector.director_pin:04d}", flush=True)
    return Collecting(conn, collector, lock, listen, args)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run(args: argparse.Namespace) -> int:
    collecting = start_collecting(args, args.db)
    previous = {signum: signal.getsignal(signum) for signum in _STOP_SIGNALS}
    try:
        return asyncio.run(_serve(collecting))
    finally:
        collecting.close()
        with contextlib.suppress(ValueError):  # not the main thread: nothing was changed
            for signum, handler in previous.items():
                signal.signal(signum, handler)


async def _serve(collecting: Collecting) -> int:
    service = Service(collecting.collector, progress_s=collecting.args.progress)
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
        # is ignored until run() restores the handlers. Removed here, while the loop is open, because
        # loop.close() closes its wakeup pipe before removing them, and a signal in between printed
        # "OSError: [Errno 9] Bad file descriptor" with a traceback.
        for signum in handled:
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)


async def collect_until_stopped(service: Service, collecting: Collecting,
                                started: Callable[[], None] | None = None) -> int:
    """Listen on the base stations' TCP port and/or open the serial one, then collect until `service.stopping`;
    `started` is called once they are open. UsageError when a port cannot be used."""
    args, listen = collecting.args, collecting.listen
    loop = asyncio.get_running_loop()
    server: TcpServer | None = None
    link = None
    if listen is not None:
        try:
            server = await serve_tcp(service, *listen)
        except OSError as e:
            raise UsageError(f"cannot listen on {args.radio}: {e.strerror or e}") from None
        print(f"listening for base stations on {listen[0]}:{server.port}", flush=True)
        if args.port_file:
            try:
                write_port_file(args.port_file, server.port)
            except OSError as e:
                await server.close()
                raise cannot_write("--port-file", args.port_file, e) from None
    if args.serial:
        import serial  # only with --serial: the simulator needs no serial port

        from tenace.collector.serial_link import SerialLink, open_port
        try:
            port_handle = open_port(args.serial, args.baud)
        except (serial.SerialException, OSError, ValueError) as e:
            if server is not None:
                await server.close()
            raise UsageError(f"cannot open the base station's port {args.serial}: {e}") from None
        link = SerialLink(service, loop, args.serial, args.baud, port_handle)
        link.start()
        print(f"base station on {args.serial} at {args.baud} baud", flush=True)
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
