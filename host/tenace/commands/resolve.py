"""`tenace resolve`: settle a conflict (two results for one board at one table): keep one, or enter the right one."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_result, add_signature, add_slot, perform, place, result
from tenace.commands.options import add_event_file
from tenace.director import actions, parse

HELP = "settle a conflict: keep one of the two results, or enter the right one"
EPILOG = """\
examples:
  tenace resolve club.sqlite --table 1 --board 1 --keep v2 --why "EW agree it went one down"
  tenace resolve club.sqlite --keep 17 --why "NS's terminal was right"     (17: the result id tenace problems shows)
  tenace resolve club.sqlite --table 1 --board 1 --contract 4H --by S --tricks 10 --why "neither was right"

`tenace problems` lists each conflict with its results, their versions (v1, v2) and result ids.
Nothing counts on a board in conflict until it is resolved; then the result kept counts at once in
`tenace results`. --why is required; after the Law 79C correction period a resolution is refused
unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("resolve", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    p.add_argument("--keep", metavar="ID|vN", help="keep this result: its result id (17) or its version (v2)")
    add_result(p)
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return perform(args, lambda a: parse.resolution(place(a), a.keep, result(a)), actions.resolve)
