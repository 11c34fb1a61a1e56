"""`tenace serve`: the public results pages on the local network, live while the collector stores results."""

from __future__ import annotations

import argparse
import asyncio
import socket

import uvicorn

from tenace.collector.tcp_link import parse_listen
from tenace.commands.options import add_event_file, event_file, open_event
from tenace.errors import UsageError
from tenace.reports.event_results import ResultsError, event_results
from tenace.store.db import read_transaction
from tenace.web.app import create_app

DEFAULT_LISTEN = "0.0.0.0:8080"
HELP = "serve the event's live rankings, travellers and scorecards to the players' phones (read-only web pages)"
EPILOG = f"""\
examples:
  tenace serve club.sqlite                          every address of this laptop, port 8080
  tenace serve club.sqlite --listen 127.0.0.1:8000  this laptop only

The pages are public and read-only, with no login: the rankings of every section (/), each board's
traveller with its hand record and double-dummy table when the event file has them (/board/A/7),
each pair's scorecard (/pair/A/NS3). An open page follows the event file: a result the collector
stores (run `tenace collect` beside it) shows within a second, without reloading. Nothing on the
pages can change the event file: it is opened read-only. --listen is {DEFAULT_LISTEN} unless given;
port 0 picks a free one. Ctrl-C stops. Exit code 2 when the event file or the address cannot be used."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT",
                   help=f"the address the pages are served on (default {DEFAULT_LISTEN}: the local network)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_listen(args.listen)
    except ValueError as e:
        raise UsageError(str(e)) from None
    path = event_file(args)
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
    print(f"serving the results of {path} on http://{shown}:{listener.getsockname()[1]}/{where}; Ctrl-C stops",
          flush=True)
    # Open event streams would hold a graceful shutdown forever: one second for them, then they are closed.
    config = uvicorn.Config(create_app(path), log_level="warning", timeout_graceful_shutdown=1, access_log=False)
    asyncio.run(uvicorn.Server(config).serve(sockets=[listener]))
    print("stopped", flush=True)
    return 0


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
