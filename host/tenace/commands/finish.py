"""`tenace finish`: close the session and publish its results; the Law 79C correction period starts."""

from __future__ import annotations

import argparse

from tenace.commands.director_options import add_signature, event, logged, signature
from tenace.commands.options import add_event_file, in_range
from tenace.store import CORRECTION_MINUTES, finish_session
from tenace.store.director import MAX_CORRECTION_MINUTES

HELP = "close the session and publish its results; the Law 79C correction period starts"
EPILOG = f"""\
examples:
  tenace finish club.sqlite
  tenace finish club.sqlite --correction-minutes 45 --who "TD Ana"

The results are published now (tenace results says so in its title). For the correction period
({CORRECTION_MINUTES} minutes unless --correction-minutes says otherwise) the director may still adjust, correct,
erase and resolve; after it, those commands are refused unless --force, and the force is logged.
Finishing is refused while conflicts stand (nothing counts on those boards) and when the session is
already finished; --force finishes anyway (publishing again restarts the period), and is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("finish", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--correction-minutes", type=int, default=CORRECTION_MINUTES, metavar="M",
                   help=f"how long the results may be corrected after publication (default {CORRECTION_MINUTES})")
    add_signature(p, why_required=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    in_range("--correction-minutes", args.correction_minutes, 0, MAX_CORRECTION_MINUTES)
    who, why = signature(args, default_why="session finished, results published")
    with event(args) as conn:
        published = finish_session(conn, who=who, why=why, minutes=args.correction_minutes, force=args.force)
        print(logged(conn))
    print(f"after {published.ends.astimezone():%H:%M} changes are refused unless --force (the force is logged)")
    return 0
