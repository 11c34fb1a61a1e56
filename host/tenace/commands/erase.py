"""`tenace erase`: withdraw the result of a board at a table; the board is missing again until one is entered."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_signature, add_slot, perform, place
from tenace.commands.options import add_event_file
from tenace.director import actions
from tenace.director.inputs import Erasure

HELP = "withdraw the result of a board at a table (it is missing again until one is entered)"
EPILOG = """\
example:
  tenace erase club.sqlite --table 4 --board 11 --why "keyed at the wrong table"

The erased result stays in the event file's history. The board is listed as missing by
`tenace problems` (marked erased) and counts for neither pair in `tenace results` until the table
or the director enters a result. --why is required; after the Law 79C correction period erasures
are refused unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("erase", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return perform(args, lambda a: Erasure(place(a)), actions.erase)
