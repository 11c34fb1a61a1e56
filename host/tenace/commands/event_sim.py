"""`tenace event link-sim` and `tenace event push`: a club's event linked to a simultaneous event, its pushes sent."""

from __future__ import annotations

import argparse
import sqlite3

from tenace.collector.hub_push import PushError, SimAddress, push_all, sim_address
from tenace.commands.options import add_event_file, event_file, open_event
from tenace.errors import UsageError
from tenace.store import EntryError
from tenace.store.hub_outbox import link_sim, outbox, sim_link

LINK_HELP = "link the event to a simultaneous event (a sim): its results are pushed to the sim's hub"
LINK_EPILOG = """\
The organiser of the sim gives each club its address (HUB/sims/SIM/clubs/CLUB) and its token. The token
is a secret, kept in the event file (whoever has the file can push as the club): hand the file to nobody
outside the club. Every result version, correction, adjusted score and penalty stored since the event
was made is queued in the event file (its outbox) and pushed in order, exactly once, by `tenace collect`
(in the background: the evening never waits for the hub) or by `tenace event push`. Linking again with a
new token or hub address (the same sim and club) keeps what the hub holds already.

examples:
  tenace event link-sim club.sqlite --sim https://hub.example.org/sims/spring/clubs/c042 --token T
  tenace event new club.sqlite --name "Spring sim" --tables 7 --boards-per-round 3 --sim URL --token T"""

PUSH_HELP = "push what is queued for the sim's hub now, once (a laptop without a collector running)"
PUSH_EPILOG = """\
Sends the event file's queued pushes to the hub, a batch at a time, from what the hub acknowledged on,
and prints how many it holds. Exit 2 with one line when the hub is unreachable or refuses: nothing is
lost, the pushes stay queued (tenace event show EVENT) and go with the next push or collector.

example:
  tenace event push club.sqlite"""


def add_sim_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sim", metavar="URL", help="the club's address at the sim's hub, HUB/sims/SIM/clubs/CLUB, as "
                   "the organiser gave it")
    p.add_argument("--token", metavar="T", help="the club's token for the sim (a secret, kept in the event file)")


def sim_options(args: argparse.Namespace, required: bool) -> tuple[SimAddress, str] | None:
    """--sim and --token, checked: both or (when not `required`) neither; UsageError otherwise."""
    if args.sim is None and args.token is None and not required:
        return None
    if args.sim is None or args.token is None:
        raise UsageError("give both --sim URL and --token T (as the sim's organiser gave them)")
    try:
        address = sim_address(args.sim)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if not args.token.strip() or not args.token.isprintable() or len(args.token) > 200:
        raise UsageError("--token: printable text of 1 to 200 characters, as the organiser gave it")
    return address, args.token.strip()


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    link = actions.add_parser("link-sim", help=LINK_HELP, description=LINK_HELP, epilog=LINK_EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(link)
    add_sim_options(link)
    link.set_defaults(run=run_link)
    push = actions.add_parser("push", help=PUSH_HELP, description=PUSH_HELP, epilog=PUSH_EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(push)
    push.set_defaults(run=run_push)


def link(conn: sqlite3.Connection, given: tuple[SimAddress, str]) -> str:
    """Link the open event; the line that says so. UsageError for a refusal."""
    address, token = given
    try:
        link_sim(conn, address.hub, address.sim, address.club, token)
    except EntryError as e:
        raise UsageError(str(e)) from None
    return (f"linked to sim {address.sim} as club {address.club} at {address.hub}: {outbox(conn).queued} push(es) "
            f"queued (tenace collect sends them, or tenace event push)")


def run_link(args: argparse.Namespace) -> int:
    given = sim_options(args, required=True)
    assert given is not None
    with open_event(event_file(args)) as conn:
        print(link(conn, given))
    return 0


def run_push(args: argparse.Namespace) -> int:
    with open_event(event_file(args)) as conn:
        try:
            done = push_all(conn)
        except PushError as e:
            raise UsageError(f"{e}: {outbox(conn).queued} push(es) stay queued") from None
    print(f"the hub holds {done.acked} of {done.total} push(es) ({done.batches} batch(es) sent)")
    return 0


def show_lines(conn: sqlite3.Connection) -> list[str]:
    """For tenace event show: the sim link and the outbox, or nothing for an event in no sim."""
    link = sim_link(conn)
    if link is None:
        return []
    box = outbox(conn)
    lines = [f"sim: {link.sim} as club {link.club} at {link.hub} (linked {link.linked}; token kept in the file)",
             f"  outbox: {box.total} push(es), {box.acked} acknowledged by the hub, {box.queued} queued"
             + (f"; last try {link.last_try}" if link.last_try else "")]
    if link.last_error:
        lines.append(f"  last error: {link.last_error}")
    return lines
