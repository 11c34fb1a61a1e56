"""`tenace serve`: the public results pages on the local network, live while the collector stores results
(run beside it by `tenace collect`, or in this process with the collector's options), and the director's console
behind a login."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import uvicorn

from tenace import crash_report
from tenace.collector.in_process import Listening
from tenace.collector.runtime import CollectorOptions
from tenace.collector.tcp_link import parse_listen
from tenace.commands.collector_options import add_collector_options, collector_options, wants_collector
from tenace.commands.options import add_event_file, event_file, open_event
from tenace.errors import Failure, UsageError
from tenace.reports.championship import ChampionshipError, combine, read_championship
from tenace.reports.event_results import ResultsError, event_results
from tenace.store.db import read_transaction
from tenace.web.app import create_app
from tenace.web.championship_page import ServedChampionship
from tenace.web.console import MIN_PASSWORD, Director
from tenace.web.console.keeping import Kept, kept_beside
from tenace.web.spare import SpareLink, installed, missing_message

log = logging.getLogger(__name__)

DEFAULT_LISTEN = "0.0.0.0:8080"
RADIO_FLAG = "--listen-radio"
HELP = ("serve the event's live rankings, travellers and scorecards to the players' phones (read-only web pages), "
        "and the director's console")
EPILOG = f"""\
examples:
  tenace serve club.sqlite                          every address of this laptop, port 8080
  tenace serve club.sqlite --listen 127.0.0.1:8000  this laptop only
  tenace serve club.sqlite --serial /dev/ttyUSB0    the collector too: the base station on USB
  tenace serve club.sqlite --listen-radio 127.0.0.1:0 --port-file port.txt   the collector, for `tenace sim`
  tenace serve club.sqlite --director-password-file td.txt   the console's password, from a file
  tenace serve tuesday.sqlite --new                  no event file yet: the console's set-up makes it
  tenace serve spring-2.sqlite --championship spring.toml   a session, and the championship's ranking so far

The pages are public and read-only, with no login: the rankings of every section (/), each board's
traveller with its hand record and double-dummy table when the event file has them (/board/A/7),
each pair's scorecard (/pair/A/NS3), and which tables are still playing which boards (/playing). An
open page follows the event file: a result the collector stores shows within a second, without
reloading. They speak the terminal's languages (en, he, lv, sk, sr): the browser's, or the one chosen
on the page (?lang=lv). Nothing on the pages can change the event file: it is opened read-only. --listen is
{DEFAULT_LISTEN} unless given; port 0 picks a free one.

A session of a championship (tenace championship): with --championship FILE, the file that names EVENT
among its sessions, the rankings page (/) shows the championship's combined ranking so far (the sessions
up to EVENT: overall, each stratum's places and the handicap ranking when the file names them) beside
the session's, live as the session's results come in; the console's publish and print-ranking pages too.
The publish page also offers it as `tenace championship rank --json` prints it, and the sessions so far as
one USEBIO file as its --usebio writes them.
Named rather than found beside EVENT: a session may count in several championships (the month's series,
the year's), and a TOML file beside it may be another's. The other sessions' files are read read-only.

The collector: with --serial or {RADIO_FLAG} (the options of `tenace collect`, which see) this command
runs the collector too, in a thread of its own, and holds FILE.lock as `tenace collect` does (with --new,
once the console's set-up has made the event). Without them, the console's Terminals page starts and
stops listening (a serial base station or TCP, the table settings of these options kept), or run
`tenace collect` beside it. Should the collector fail, the pages stop too and the command
exits 1 with one line (the details in a file): the terminals keep their results until a collector
is running again. Ctrl-C (or SIGTERM) stops both: exit 130. Exit code 2 when the event file, an address or a port
cannot be used, or another collector holds the event file.

The director's console (/director) lists the problems (as `tenace problems`) and makes adjusted
scores, corrections, erasures, resolutions and movement changes, each through the same code as the
command and logged with the name given at login and the why. Its login: the password in
--password-file (its first line), else a one-time link printed here at start, with which the director
chooses the console's password at the first login; the password then logs in again after a logout or
a restart. `tenace serve EVENT --login-link` prints a new one-time link and exits (a lost link, a
forgotten password: with the link a new one is chosen): the serve of EVENT running now takes it at
once, or the next one does; good for 24 hours or until used. The login page says all this. What the
login needs is kept beside the event file, not in it, in EVENT.director (mode 0600: the key that signs
the sessions, the chosen password's scrypt hash, the links not used yet, the sessions logged out), so
a session outlives a restart of `tenace serve` (delete that file to log everybody out). The cookie is
HttpOnly and SameSite=Strict, and every post must come from the console's
own pages (its form token and the Origin of this server), else it is refused (403). A wrong
password is refused after a second's wait and logged here.

The evening's set-up (/director/setup): with --new, EVENT does not exist yet (refused if it does) and
the public pages say that there is no event yet until the console's set-up creates it: a new event's
name, date, scoring and sections, each section's movement (Mitchell, Howell, individual, team match;
tables, boards per round, rounds for a shortened one, a half table) previewed round by round with the
movement checker's verdict before it is created. Then, as for any event file: the club's roster
imported from its CSV (as tenace names --roster), the pairs' players named in a grid or pasted as a
list (as tenace names --pairs; a member's name shown beside the number as it is typed), and the deals
from a PBN, LIN or DUP file (as tenace event deals), analysed double dummy in the background with the
progress shown. A practice event (its box on the set-up page) is marked so on every page and export,
and its Terminals page plays simulated tables into it at a chosen pace (tenace sim --play-into, through
this collector), to learn the console on a real grid; a real event never takes simulated tables.

The spare terminal (/spare, with the collector in this process): a page that runs the terminal's own
firmware in a phone's browser, on MicroPython's WebAssembly port (tools/setup-env installs it into
build/npm), for a table whose terminal has failed. It signs in with the table number and the pairing
code as a terminal does and sends the same frames, over the page's WebSocket, to this collector; its
journal is kept by the phone's browser, so a reload loses nothing and sends nothing twice."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT",
                   help=f"the address the pages are served on (default {DEFAULT_LISTEN}: the local network)")
    p.add_argument("--new", action="store_true",
                   help="EVENT does not exist yet: the director's console's set-up page creates it")
    p.add_argument("--director-password-file", "--password-file", type=Path, metavar="FILE",
                   help="the director's console's password: the file's first line (default: a one-time login link, "
                        "with which the director chooses the password)")
    p.add_argument("--login-link", action="store_true",
                   help="print a new one-time login link to the director's console and exit: for the serve of EVENT "
                        "running now, or else the next one; good for 24 hours or until used")
    p.add_argument("--championship", type=Path, metavar="FILE",
                   help="the championship file (TOML, tenace championship) that names EVENT as one of its sessions: "
                        "the rankings page and the console show its combined ranking so far beside the session's")
    add_collector_options(p.add_argument_group("the collector (the options of `tenace collect`; none: pages only)"),
                          RADIO_FLAG)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_listen(args.listen)
    except ValueError as e:
        raise UsageError(str(e)) from None
    path = event_file(args)
    if args.login_link:
        return login_link(path, args.listen)
    given = args.director_password_file
    secret = password(given) if given is not None else None
    # A collector's option without a port is refused (by collector_options) rather than silently ignored.
    asked = wants_collector(args) or args.port_file or args.pin is not None or args.traveller
    # Checked now, in one line, even with --new (whose collector starts once the console has made the event).
    options = collector_options(args) if asked else None
    base = options or collector_options(args, port_needed=False)
    if args.new:
        new_event_file(path)
    championship = served_championship(args.championship, path, args.new) if args.championship else None
    if not args.new:
        # Opened once as every command opens it (checked, its schema brought up to date) and scored once, so that
        # a file the pages could not show is refused here, in one line, rather than on every phone.
        with open_event(path) as conn:
            try:
                with read_transaction(conn):
                    event_results(conn)
            except ResultsError as e:
                raise UsageError(str(e)) from None
    return _serve(args, path, host, port, Director.kept_beside(path, secret), base, options, championship)


def served_championship(given: Path, path: Path, new: bool) -> ServedChampionship:
    """--championship: the file read and checked to name the served event among its sessions; the sessions before it
    opened once as every command opens them (their schema brought up to date: the pages read them read-only) and
    combined once, so that a championship the pages could not show is refused here, in one line."""
    try:
        served = ServedChampionship(read_championship(given), path)
        if not new:
            combine(served.championship)
    except ChampionshipError as e:
        raise UsageError(f"--championship {given}: {e}") from None
    return served


def login_link(path: Path, listen: str) -> int:
    """--login-link: a new one-time link, kept in FILE.director for the serve running now (or the next one)."""
    if not path.parent.is_dir():
        raise UsageError(f"{path.parent}: no such folder for the event file")
    if not path.exists() and not kept_beside(path).exists():  # a mistyped name, and no `serve --new` making it
        raise UsageError(f"{path}: no such event file (and no tenace serve --new is making it)")
    kept = Kept(kept_beside(path))
    token = kept.new_link()
    address = kept.address()
    if address is None:
        host, port = parse_listen(listen)
        address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
    print(f"the director's console, one login (for 24 hours; for tenace serve {path} running now or the next "
          f"one, on the address it prints): {Director().link(address, token)}", flush=True)
    return 0


def new_event_file(path: Path) -> None:
    """--new: the event file is the set-up's to make, so none may be there yet, and its folder must be."""
    if path.exists():
        raise UsageError(f"{path} exists already: --new makes a new event file (serve this one without --new)")
    if not path.parent.is_dir():
        raise UsageError(f"{path.parent}: no such folder for the new event file")


def _serve(args: argparse.Namespace, path: Path, host: str, port: int, director: Director,
           base: CollectorOptions, asked: CollectorOptions | None, championship: ServedChampionship | None) -> int:
    listener = bind(host, port, args.listen)
    spare = SpareLink()

    def made() -> Path:
        if not path.exists():
            raise UsageError(f"there is no event yet: make it on the set-up page first ({path})")
        return path
    # The collector of the command line (`asked`) or the one the console's Terminals page starts: one at a time.
    listening = Listening(made, spare, base, asked)
    # Open event streams would hold a graceful shutdown forever: one second for them, then they are closed.
    app = create_app(path, director=director, spare=spare, new=args.new, listening=listening,
                     championship=championship)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, access_log=False)
    server = StoppingServer(config, app.state.changes.stop)
    listening.on_failure = lambda: setattr(server, "should_exit", True)
    sigterm: signal.Handlers | Callable[[int, FrameType | None], object] | int | None = None
    if asked is not None and not args.new:
        try:
            listening.start()
        except BaseException:
            listener.close()
            raise
    try:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        where = " (every address of this laptop)" if host in ("0.0.0.0", "") else ""
        base_url = f"http://{shown}:{listener.getsockname()[1]}/"
        what = f"no event yet: the console's set-up makes {path}" if args.new else f"the results of {path}"
        print(f"serving {what} on {base_url}{where}; Ctrl-C stops", flush=True)
        if championship is not None:
            c = championship.championship
            print(f"with the ranking so far of {c.name!r} (session {len(c.sessions)} of {args.championship})",
                  flush=True)
        if director.kept is not None:
            director.kept.served_at(base_url)
        if director.token is not None:
            print(f"the director's console, one login: {director.link(base_url)}", flush=True)
            chosen = "with the password chosen in the console, or " if director.has_password() else ""
            print(f"  (to log in again: {chosen}a new link from tenace serve {path} --login-link)", flush=True)
        else:
            print(f"the director's console: {base_url}director (password from {args.director_password_file})",
                  flush=True)
        if asked is not None and args.new:
            print("the collector starts once the console's set-up has made the event", flush=True)
        elif asked is None:
            print(f"the collector: start listening on the console's Terminals page ({base_url}director/terminals)",
                  flush=True)
        if asked is not None:
            spare_line = f"a spare terminal for a table whose terminal failed: {base_url}spare on a phone"
            print(spare_line if installed() is not None else f"no spare terminal page: {missing_message()}", flush=True)
        # Ctrl-C: uvicorn stops serving, then raises the signal again (KeyboardInterrupt: exit 130); the
        # collector is stopped on the way out either way. SIGTERM likewise (the console may start a collector at
        # any time), so that the collector closes as `tenace collect` does on it (the default action would end the
        # process there and then).
        if threading.current_thread() is threading.main_thread():
            sigterm = signal.signal(signal.SIGTERM, signal.default_int_handler)
        asyncio.run(server.serve(sockets=[listener]))
    finally:
        listening.stop()
        if sigterm is not None:
            signal.signal(signal.SIGTERM, sigterm)
    failure = listening.failure
    if failure is not None:
        raise Failure(f"the collector failed, so the pages stopped too: {crash_report.write('serve', failure)}")
    print("stopped", flush=True)
    return 0


class StoppingServer(uvicorn.Server):
    """uvicorn's server, whose Ctrl-C (or SIGTERM) also ends the pages' open event streams at once: left open, they
    would be cancelled after the graceful shutdown's second, each with an ASGI traceback on the laptop's console."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_exit = on_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        with contextlib.suppress(RuntimeError):  # no loop running (yet): no stream to end
            asyncio.get_running_loop().call_soon_threadsafe(self.on_exit)


def password(path: Path) -> str:
    """The console's password: the file's first line, without its spaces at either end."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--director-password-file {path}: cannot read it: {getattr(e, 'strerror', None) or e}") \
            from None
    first = lines[0].strip() if lines else ""
    if len(first) < MIN_PASSWORD:
        raise UsageError(f"--director-password-file {path}: its first line, the password, has fewer than 8 characters")
    return first


def bind(host: str, port: int, text: str) -> socket.socket:
    """The listening socket, made here so that an address in use is one line and exit 2 (uvicorn would exit 1)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        listener = socket.socket(family, kind, proto)
    except OSError as e:
        raise UsageError(f"--listen {text}: {e.strerror or e}") from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as e:
        listener.close()
        raise UsageError(f"cannot listen on {text}: {e.strerror or e}") from None
    return listener
