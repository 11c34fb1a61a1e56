"""`tenace serve`: the public results pages on the local network, live while the collector stores results, and the
director's console behind a login."""

from __future__ import annotations

import argparse
import asyncio
import socket
from pathlib import Path

import uvicorn

from tenace.collector.tcp_link import parse_listen
from tenace.commands.options import add_event_file, event_file, open_event
from tenace.errors import UsageError
from tenace.reports.event_results import ResultsError, event_results
from tenace.store.db import read_transaction
from tenace.web.app import create_app
from tenace.web.console import Director

DEFAULT_LISTEN = "0.0.0.0:8080"
HELP = ("serve the event's live rankings, travellers and scorecards to the players' phones (read-only web pages), "
        "and the director's console")
EPILOG = f"""\
examples:
  tenace serve club.sqlite                          every address of this laptop, port 8080
  tenace serve club.sqlite --listen 127.0.0.1:8000  this laptop only
  tenace serve club.sqlite --director-password-file td.txt   the console's password, from a file

The pages are public and read-only, with no login: the rankings of every section (/), each board's
traveller with its hand record and double-dummy table when the event file has them (/board/A/7),
each pair's scorecard (/pair/A/NS3). An open page follows the event file: a result the collector
stores (run `tenace collect` beside it) shows within a second, without reloading. Nothing on the
pages can change the event file: they read it read-only. --listen is {DEFAULT_LISTEN} unless given;
port 0 picks a free one. Ctrl-C stops. Exit code 2 when the event file or the address cannot be used.

The director's console (/director) lists the problems (as `tenace problems`) and makes adjusted
scores, corrections, erasures, resolutions and movement changes, each through the same code as the
command and logged with the name given at login and the why. Its login is the password in
--director-password-file (its first line), else a one-time link printed here at start: opening it
logs one browser in, then the link is spent. The session lives in this process's memory (a restart
logs out); its cookie is HttpOnly and SameSite=Strict, and every post must come from the console's
own pages (its form token and the Origin of this server), else it is refused (403). A wrong
password is refused after a second's wait and logged here."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT",
                   help=f"the address the pages are served on (default {DEFAULT_LISTEN}: the local network)")
    p.add_argument("--director-password-file", type=Path, metavar="FILE",
                   help="the director's console's password: the file's first line (default: a one-time login link)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_listen(args.listen)
    except ValueError as e:
        raise UsageError(str(e)) from None
    path = event_file(args)
    given = args.director_password_file
    director = Director(password=password(given)) if given is not None else Director.with_link()
    # Opened once as every command opens it (checked, its schema brought up to date) and scored once, so that
    # a file the pages could not show is refused here, in one line, rather than on every phone.
    with open_event(path) as conn:
        try:
            with read_transaction(conn):
                event_results(conn)
        except ResultsError as e:
            raise UsageError(str(e)) from None
    listener = bind(host, port, args.listen)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    where = " (every address of this laptop)" if host in ("0.0.0.0", "") else ""
    base = f"http://{shown}:{listener.getsockname()[1]}/"
    print(f"serving the results of {path} on {base}{where}; Ctrl-C stops", flush=True)
    if director.token is not None:
        print(f"the director's console, one login: {director.link(base)}", flush=True)
    else:
        print(f"the director's console: {base}director (password from {args.director_password_file})", flush=True)
    # Open event streams would hold a graceful shutdown forever: one second for them, then they are closed.
    config = uvicorn.Config(create_app(path, director=director), log_level="warning", timeout_graceful_shutdown=1,
                            access_log=False)
    asyncio.run(uvicorn.Server(config).serve(sockets=[listener]))
    print("stopped", flush=True)
    return 0


def password(path: Path) -> str:
    """The console's password: the file's first line, without its spaces at either end."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--director-password-file {path}: cannot read it: {getattr(e, 'strerror', None) or e}") \
            from None
    first = lines[0].strip() if lines else ""
    if len(first) < 8:
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
