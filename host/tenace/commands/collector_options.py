"""The collector's options, one definition for `tenace collect` and `tenace serve`, checked into CollectorOptions."""

from __future__ import annotations

import argparse
from pathlib import Path

from tenace.collector import Settings
from tenace.collector.runtime import CollectorOptions
from tenace.collector.settings import LEAD, PLAYER_NUMBERS, RESULT_ENTRY
from tenace.collector.tcp_link import parse_listen
from tenace.commands.options import in_range, output_file
from tenace.errors import UsageError
from tenace.simulation.terminal.process import LANGUAGES

MAX_PROGRESS_S = 3600


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


def collector_options(args: argparse.Namespace, port_needed: bool = True) -> CollectorOptions:
    """The collector's options checked; UsageError (one line) naming the option at fault. Without `port_needed`
    (`tenace serve`, whose console may start the collector later on a port it chooses), none may be given."""
    flag = args.radio_flag
    if port_needed and not args.radio and not args.serial:
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
    return CollectorOptions(args.command, settings, args.progress, listen, args.radio or "", args.port_file,
                            args.serial, args.baud)
