"""`tenace collect`: run the collector: results from the tables' base station(s) into the event file."""

from __future__ import annotations

import argparse
from pathlib import Path

from tenace.collector.runtime import Collecting, run_until_stopped
from tenace.collector.runtime import start_collecting as start
from tenace.commands.collector_options import add_collector_options, collector_options
from tenace.commands.options import add_event_file, event_file

HELP = "collect results from the tables: the base station on a serial port, or the simulator over TCP"
EPILOG = """\
examples:
  tenace collect club.sqlite --serial /dev/ttyUSB0                 the base station on USB
  tenace collect club.sqlite --serial COM3 --lead warn --traveller
  tenace collect club.sqlite --listen 127.0.0.1:0 --port-file port.txt         for `tenace sim`

The pairing code is printed at start: key it at each terminal once. Terminals flashed with the club
key (tenace flash --club-key; the file is $TENACE_CLUB_KEY or club.key in your configuration folder)
pair with it, the others with the code alone: tenace problems lists which did which. Every result is stored in the
event file before the table is told it is saved, so the collector may be stopped (Ctrl-C) or even
killed and started again at any moment: nothing is lost or counted twice. A progress line is printed
every few seconds. One collector at a time per event file: it holds EVENT.lock beside the event file
while it runs. Exit code 0 when stopped, 2 when the event file or the port cannot be used."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("collect", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_collector_options(p, "--listen")
    p.set_defaults(run=run)


def start_collecting(args: argparse.Namespace, db: Path) -> Collecting:
    """Check the collector's options, open the event file and take its lock; UsageError (one line) when any fails."""
    return start(collector_options(args), db)


def run(args: argparse.Namespace) -> int:
    return run_until_stopped(start_collecting(args, event_file(args)))
