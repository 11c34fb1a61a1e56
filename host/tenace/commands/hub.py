"""`tenace hub`: a simultaneous event's hub on PostgreSQL: define the sim, its clubs and their tokens, release it,
serve it (any number of workers on one database), and a throwaway database for a demo."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tenace.errors import UsageError
from tenace.hub.serving import DB_ENV

HELP = "a simultaneous event's hub: many clubs' results scored across the field, live, on PostgreSQL"
HUB_ENV = "TENACE_HUB_URL"
EPILOG = f"""\
an organiser's sim, from start to release:
  tenace hub demo-db                     a throwaway PostgreSQL (prints its URL; Ctrl-C removes it)
  export {DB_ENV}=postgresql://...   or --db-file PATH on each command (a file holding the URL)
  tenace hub new --sim spring26 --name "Spring sim" --heat 2026-04-02T19:30 --boards 24 \\
      --hands spring26.pbn                (hand records: a PBN with each board's Deal)
  tenace hub club add --sim spring26 --club leeds --name "Leeds BC" --hub https://hub.example.org
                                          prints the club's token, once, and its address for event link-sim
  tenace hub club revoke --sim spring26 --club leeds                 its pushes are refused from now
  tenace hub organiser --login alice --password-file pw.txt         a login to the console
  tenace hub serve --port 8090 --workers 4
  tenace hub release --sim spring26     after the last heat: travellers, hands and exports show
  tenace hub export --sim spring26 --usebio spring26.xml    the whole field (--club leeds: one club)
                                          as USEBIO 1.2, or --pbn FILE; only after release

The database's URL (postgresql://user:password@host:port/name) is read from ${DB_ENV} or from the first line
of --db-file PATH, never needed on the command line, where `ps` would show its password to every user of the
machine (--db URL still works, with a warning when the URL holds a password). The workers keep nothing
of their own: serve more of them, on as many machines, in front of one database; each page is told of a new
ranking through PostgreSQL's LISTEN/NOTIFY. Each `serve` also runs a scoring worker, a process of its own beside
the workers: one pass at a time scores the field (the others wait on PostgreSQL's lock). Pages: /sim/SIM (the
national ranking's head, live; ?club=CLUB that club's pairs, ?all=1 every pair), /sim/SIM/club/CLUB,
/sim/SIM/pair/CLUB/SECTIONnumberNS (the pair's boards against its club's field and the nation's), after release
/sim/SIM/board/N and /sim/SIM/export.pbn, /sim/SIM/export.xml (USEBIO; /sim/SIM/club/CLUB/export.pbn and .xml);
each with its JSON under /api/. Clubs
push to /api/push with their token. The organiser's console, /console, is behind the login of `tenace hub
organiser`. A mistake is one line and exit code 2."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("hub", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="hub_action", metavar="ACTION", required=True)

    def action(name: str, text: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        a = actions.add_parser(name, help=text, description=text)
        a.set_defaults(run=run)
        return a

    def db(a: argparse.ArgumentParser) -> None:
        a.add_argument("--db-file", type=Path, metavar="PATH",
                       help=f"a file (yours alone to read) whose first line is the database's URL (default: ${DB_ENV})")
        a.add_argument("--db", metavar="URL", help="the database's URL on the command line: a password in it is shown "
                                                   "by `ps` to every user of the machine (a warning says so); prefer "
                                                   f"--db-file or ${DB_ENV}")

    new = action("new", "define a simultaneous event: its heats, boards, hand records and scoring", _new)
    db(new)
    new.add_argument("--sim", required=True, help="the sim's id (letters, digits, - and _), as the clubs push it")
    new.add_argument("--name", required=True, help="its title on the pages")
    new.add_argument("--heat", action="append", required=True, metavar="WHEN",
                     help="a heat's start time, ISO 8601 (2026-04-02T19:30+01:00); once per heat")
    new.add_argument("--boards", type=int, required=True, help="how many boards the set has")
    new.add_argument("--hands", type=Path, required=True, help="the hand records: a PBN with each board's Deal")
    new.add_argument("--scoring", default="mp", choices=("mp", "cross-imps", "butler"),
                     help="mp: matchpoints across the field (Neuberg where a board was played fewer times); "
                          "cross-imps: each result IMPed against every other result of the board at every club, "
                          "averaged per comparison; butler: IMPs against the board's datum, the mean of the field's "
                          "NS scores less the highest and the lowest, to 10. At IMPs an average is +3/0/-3 IMPs and a "
                          "club's Law 90 penalty (pushed in MP) is in IMPs (default: mp)")

    club = action("club", "add a club to a sim (its token is printed once) or revoke one", _club)
    club.add_argument("what", choices=("add", "revoke"))
    db(club)
    club.add_argument("--sim", required=True)
    club.add_argument("--club", required=True, help="the club's id (letters, digits, - and _)")
    club.add_argument("--name", help="the club's name (add)")
    club.add_argument("--hub", metavar="URL", default=os.environ.get(HUB_ENV),
                      help=f"the hub's public address, https://hub.example.org (add; default: ${HUB_ENV}): the club's "
                           "address at the hub, HUB/sims/SIM/clubs/CLUB, is printed for `tenace event link-sim --sim`")

    rel = action("release", "lift the embargo after the last heat: travellers, hands, frequencies and exports",
                 _release)
    db(rel)
    rel.add_argument("--sim", required=True)

    export = action("export", "write the released sim's results, the whole field's or one club's, as USEBIO 1.2 or "
                    "PBN", _export)
    db(export)
    export.add_argument("--sim", required=True)
    export.add_argument("--club", help="one club's results, scored against its own field (default: the whole "
                                       "field, scored across the nation)")
    out = export.add_mutually_exclusive_group(required=True)
    out.add_argument("--usebio", type=Path, metavar="FILE",
                     help="write USEBIO 1.2 (checked against its schema), by matchpoints or in IMPs as the sim is "
                          "scored (Butler, cross-IMPs)")
    out.add_argument("--pbn", type=Path, metavar="FILE", help="write PBN: each board's hand record and traveller")

    org = action("organiser", "add an organiser's login to the console, or change its password", _organiser)
    db(org)
    org.add_argument("--login", required=True)
    org.add_argument("--password-file", type=Path, required=True, help="its first line is the password")

    serve = action("serve", "serve the hub: the clubs' pushes and the live pages", _serve)
    db(serve)
    serve.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every address)")
    serve.add_argument("--port", type=int, default=8090, help="the port (default: 8090)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes on this machine (default: 1)")

    action("demo-db", "start a throwaway PostgreSQL, print its URL, and remove it at Ctrl-C", _demo_db)


def _url(args: argparse.Namespace) -> str:
    """The database's URL from --db-file, --db or the environment (read once: --db's warning is said once)."""
    known: str | None = getattr(args, "db_url", None)
    if known is not None:
        return known
    if args.db is not None and args.db_file is not None:
        raise UsageError("give the database's URL once: --db-file or --db, not both")
    if args.db_file is not None:
        try:
            url = args.db_file.read_text(encoding="utf-8").strip().splitlines()[0].strip()
        except (OSError, UnicodeDecodeError, IndexError) as e:
            why = e.strerror if isinstance(e, OSError) else "not a line of text"
            raise UsageError(f"cannot read the database's URL from --db-file {args.db_file}: {why}") from None
    else:
        url = args.db if args.db is not None else os.environ.get(DB_ENV, "")
        if args.db is not None and _has_password(url):
            print(f"tenace hub: warning: --db shows the database's password to every user of this machine (ps); "
                  f"give --db-file PATH or ${DB_ENV} instead", file=sys.stderr)
    if not url.strip():
        raise UsageError(f"give the database's URL: --db-file PATH (its first line), or ${DB_ENV}")
    args.db_url = url.strip()
    return str(args.db_url)


def _has_password(url: str) -> bool:
    """A password in a postgresql:// URL or in a key=value connection string."""
    try:
        if urlsplit(url).password:
            return True
    except ValueError:  # not a URL: a connection string
        pass
    return re.search(r"(^|[\s?&])password\s*=", url) is not None


@contextmanager
def _connect(args: argparse.Namespace) -> Iterator[Any]:
    import psycopg

    from tenace.hub.schema import migrate

    try:
        conn = psycopg.connect(_url(args), autocommit=True, connect_timeout=10)
    except psycopg.Error as e:
        raise UsageError(f"cannot reach the database: {str(e).strip().splitlines()[0]}") from None
    with conn:
        migrate(conn)
        yield conn


def _when(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"a heat's start is ISO 8601 (2026-04-02T19:30+01:00), not {text!r}") from None
    return when if when.tzinfo else when.astimezone()


def _new(args: argparse.Namespace) -> int:
    from tenace.hub import organiser

    heats = [_when(h) for h in args.heat]
    deals = organiser.hand_records(args.hands, args.boards)
    with _connect(args) as conn:
        organiser.new_sim(conn, args.sim, args.name, heats, args.boards, deals, args.scoring)
    print(f"sim {args.sim}: {args.boards} boards, {len(heats)} heat{'s' if len(heats) > 1 else ''}, {args.scoring}")
    return 0


def _club(args: argparse.Namespace) -> int:
    from tenace.hub import organiser

    with _connect(args) as conn:
        if args.what == "add":
            token = organiser.add_club(conn, args.sim, args.club, args.name or args.club)
            print(f"club {args.club} of sim {args.sim}: its token (shown this once; give it to the club):\n{token}")
            hub = (args.hub or "HUB").rstrip("/")
            print(f"its address (tenace event link-sim --sim): {hub}/sims/{args.sim}/clubs/{args.club}"
                  + ("" if args.hub else f"  (HUB: the hub's public address; --hub or ${HUB_ENV})"))
        else:
            organiser.revoke_club(conn, args.sim, args.club)
            print(f"club {args.club} of sim {args.sim}: revoked")
    return 0


def _release(args: argparse.Namespace) -> int:
    from tenace.hub import organiser

    with _connect(args) as conn:
        organiser.release(conn, args.sim)
    print(f"sim {args.sim}: released")
    return 0


def _export(args: argparse.Namespace) -> int:
    from tenace.commands.options import cannot_write, output_file
    from tenace.hub.exports import export_refusal, field_pbn
    from tenace.hub.usebio_export import sim_usebio
    from tenace.reports.event_usebio import UsebioError

    option, path = ("--usebio", args.usebio) if args.usebio is not None else ("--pbn", args.pbn)
    output_file(option, path)
    with _connect(args) as conn:
        refused = export_refusal(conn, args.sim, args.club)
        if refused is not None:
            raise UsageError(refused)
        try:
            data = sim_usebio(conn, args.sim, args.club) if args.usebio is not None else \
                (field_pbn(conn, args.sim, args.club) or "").encode()
        except UsebioError as e:
            raise UsageError(str(e)) from None
    if not data:  # released and there a moment ago: withdrawn meanwhile
        raise UsageError(f"sim {args.sim!r} has no export now: try again")
    try:
        path.write_bytes(data)
    except OSError as e:
        raise cannot_write(option, path, e) from None
    print(f"sim {args.sim}{f' club {args.club}' if args.club else ''}: {option[2:].upper()} written to {path}")
    return 0


def _organiser(args: argparse.Namespace) -> int:
    from tenace.hub import organiser

    try:
        password = args.password_file.read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError, UnicodeDecodeError):
        raise UsageError(f"cannot read a password from {args.password_file}") from None
    with _connect(args) as conn:
        organiser.set_organiser(conn, args.login, password)
    print(f"organiser {args.login}: set")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from tenace.hub.serving import serve

    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers is 1 to 64, not {args.workers}")
    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port is 1 to 65535, not {args.port}")
    with _connect(args):
        pass  # reachable, and its schema up to date before any worker starts
    return serve(_url(args), args.host, args.port, args.workers)


def _demo_db(args: argparse.Namespace) -> int:
    from tenace.simulation.cluster import Cluster

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with Cluster.start() as cluster:
        print(cluster.url, flush=True)
        with suppress(KeyboardInterrupt):
            stop.wait()
    return 0
