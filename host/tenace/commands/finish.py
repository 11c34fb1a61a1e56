"""`tenace finish`: close the session and publish its results; the Law 79C correction period starts."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_signature, event, signature, usage
from tenace.commands.options import add_event_file
from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.errors import UsageError
from tenace.store import CORRECTION_MINUTES, EntryError

HELP = "close the session and publish its results; the Law 79C correction period starts"
EPILOG = f"""\
examples:
  tenace finish club.sqlite
  tenace finish club.sqlite --correction-minutes 45 --who "TD Ana"

The results are published now (tenace results says so in its title). For the correction period
({CORRECTION_MINUTES} minutes unless --correction-minutes says otherwise) the director may still adjust, correct,
erase and resolve; after it, those commands are refused unless --force, and the force is logged.
Finishing is refused while conflicts stand (nothing counts on those boards), while results are missing
(their count and the first few named: tenace problems lists them all) and when the session is already
finished; --force finishes anyway (publishing again restarts the period), and is logged, with how many
results were missing."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("finish", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--correction-minutes", type=int, default=CORRECTION_MINUTES, metavar="M",
                   help=f"how long the results may be corrected after publication (default {CORRECTION_MINUTES})")
    add_signature(p, why_required=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        finishing = parse.finish(args.correction_minutes)
        signed = signature(args, default_why="session finished, results published")
    except DirectorInputError as e:
        raise usage(e) from None
    with event(args) as conn:
        try:
            line, published = actions.finish(conn, finishing, signed)
        except EntryError as e:
            raise UsageError(f"{e}: --force publishes anyway, and the force is logged") from None
        print(line)
    print(f"after {published.ends.astimezone():%H:%M} changes are refused unless --force (the force is logged)")
    return 0
