"""`tenace sim`: a whole simulated session over a faulty virtual radio, then what was accepted against stored."""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from tenace.commands.options import in_range, movement_error, open_event, output_folder
from tenace.errors import UsageError
from tenace.movement import (
    MAX_BOARDS,
    MAX_BOARDS_PER_ROUND,
    MAX_HOWELL_TABLES,
    MAX_TABLES,
    MIN_HOWELL_TABLES,
    Movement,
    MovementError,
)
from tenace.reports.event_results import event_results
from tenace.reports.text import write_text
from tenace.scoring.pairs_methods import SCORINGS
from tenace.simulation.faults import FaultRates
from tenace.simulation.session.rehearsal import copy_event, default_copy, practice_play
from tenace.simulation.session.runner import SimOptions, SimResult, run
from tenace.store.db import read_transaction

MAX_PROCESSES = 128  # MicroPython processes, each with its own heap: more only thrash the machine
MAX_KILLS = 100
HELP = "play a whole session on simulated terminals (real firmware, MicroPython) over a faulty radio"
EPILOG = """\
examples:
  tenace sim                                      7 tables, 21 boards, a perfect radio
  tenace sim --tables 30 --boards 27 --loss 0.2 --corrupt 0.02 --duplicate 0.05 --kill-host 2 --seed 1
  tenace sim --tables 12 --boards 24 --unplug 5 --reorder 0.1 --delay 200 --workdir run1
  tenace sim --event club.sqlite                  rehearse tonight's event: club-rehearsal.sqlite
  tenace sim --event practice.sqlite --play-into 7373 --pace 1000   a practice event, live in tenace serve

A rehearsal (--event) plays the director's event as it was set up, before the evening: each
section's movement, the pairs' names and the deals, on a copy of the file (the original is opened
read-only); tenace results, problems and report then work on the copy as they would on the night.
With --play-into, the tables play into the event file itself, through the collector of a running
tenace serve (its console's Terminals page starts it, and this): only a practice event, made as one
on the console's set-up page, takes simulated tables; a real event is refused.

Each table's terminal is the real firmware on the MicroPython unix port with scripted players (the
results are a function of the seed, table and board, so any faults give the same session). The
collector is a real `tenace collect` process, killed with SIGKILL and restarted --kill-host times.
The run ends by comparing what the tables accepted with what the event file holds and prints, last:
  accepted=… stored=… lost=0 doubled=0 refused_forged=…
Exit code 0 when nothing was lost or doubled and the ranking from the store equals the ranking of
what the tables accepted; 1 otherwise; 2 for bad options."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sim", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--event", type=Path, metavar="FILE",
                   help="rehearse the director's own event (its movements, names and deals) in a copy of FILE, "
                        "which is left untouched; the copy is --db (default FILE-rehearsal.sqlite beside it)")
    p.add_argument("--play-into", type=int, metavar="PORT",
                   help="with --event: the tables play into FILE itself, a practice event (a real one is refused), "
                        "through the collector listening on this loopback port (tenace serve's, started on its "
                        "console's Terminals page), so that the console's grid fills live")
    p.add_argument("--pace", type=int, metavar="MS",
                   help="milliseconds between two keys at a table (default 30: brisk; 1000 is a slow table)")
    p.add_argument("--tables", type=int, metavar="N", help="tables (and terminals), default 7")
    p.add_argument("--boards", type=int, metavar="N", help="boards in the session, default 21")
    p.add_argument("--boards-per-round", type=int, metavar="N", help="default 3")
    p.add_argument("--howell", type=int, metavar="N",
                   help=f"a second section, B, playing a complete Howell on N tables "
                        f"({MIN_HOWELL_TABLES}-{MAX_HOWELL_TABLES}; default none)")
    p.add_argument("--teams", action="store_true",
                   help="a section T: a two-table team match (team 1 v team 2) over the session's rounds, two more "
                        "terminals; tenace results shows the match in IMPs and VPs")
    p.add_argument("--change", action="store_true",
                   help="the director changes the movement once mid-session (tenace move): a pair of section A "
                        "leaves, its opponents sit out; the section's tables wait until the new plans reach them")
    faults = p.add_argument_group("faults on the radio (probabilities per frame and receiver)")
    faults.add_argument("--loss", type=float, default=0.0, metavar="P", help="frame lost")
    faults.add_argument("--corrupt", type=float, default=0.0, metavar="P", help="a bit flipped")
    faults.add_argument("--duplicate", type=float, default=0.0, metavar="P", help="frame received twice")
    faults.add_argument("--reorder", type=float, default=0.0, metavar="P", help="frame held back 50-300 ms")
    faults.add_argument("--delay", type=float, default=0.0, metavar="MS", help="extra delay, up to MS")
    faults.add_argument("--forge", type=float, default=0.01, metavar="P",
                        help="an attacker's forged copy of a terminal's frame (default 0.01)")
    faults.add_argument("--unplug", type=float, default=0.0, metavar="S",
                        help="unplug the base station for S seconds half-way through")
    faults.add_argument("--kill-host", type=int, default=0, metavar="N",
                        help="SIGKILL the collector N times during the session, restarting it each time (with "
                             "--change, the first as soon as the tables play on after it)")
    faults.add_argument("--down", type=float, default=1.0, metavar="S", help="seconds the killed host stays down")
    p.add_argument("--seed", type=int, default=1, help="seed of the players' results and of the faults")
    p.add_argument("--scoring", choices=SCORINGS, default="mp",
                   help="rank both rankings by matchpoints or by Butler IMPs (default mp; a rehearsal ranks as its "
                        "event does)")
    p.add_argument("--per-process", type=int, default=1, metavar="N",
                   help="terminals per MicroPython process (default 1: one process per terminal)")
    p.add_argument("--timeout", type=float, default=900.0, metavar="S", help="give up after S seconds")
    p.add_argument("--workdir", type=Path, metavar="DIR",
                   help="keep the event file, logs and journals here (default: a temporary folder)")
    p.add_argument("--db", type=Path, metavar="FILE",
                   help="keep the event file as FILE (a new file), for tenace results and the director's commands; "
                        "with --event, the rehearsal's copy")
    p.add_argument("--clubs", type=int, metavar="N",
                   help="a simultaneous event: N clubs into a local hub on a throwaway PostgreSQL, the first "
                        "--firmware-clubs of them played by the firmware, the rest scripted; prints the national "
                        "ranking and clubs=N results=R stored=R lost=0 doubled=0")
    p.add_argument("--firmware-clubs", type=int, default=1, metavar="K",
                   help="with --clubs: clubs played by the real firmware (default 1; each a whole session)")
    p.add_argument("--keep", action="store_true",
                   help="with --clubs: leave the hub and its database running for inspection, printing their "
                        "addresses and how to stop them (else both stop with the command, however it ends)")
    p.set_defaults(run=run_command)


# The session's own shape, which a rehearsal takes from the event instead; None when not given.
SHAPE = {"tables": 7, "boards": 21, "boards_per_round": 3, "howell": 0, "teams": False, "change": False}


def check_options(args: argparse.Namespace) -> None:
    """Each option in its range, by its name, before any process is started; the session's shape filled in with
    its defaults unless the event is rehearsed (which has its own)."""
    if args.play_into is not None:
        if args.event is None:
            raise UsageError("--play-into plays into an event: give --event FILE (a practice event)")
        in_range("--play-into", args.play_into, 1, 65535)
        if args.kill_host or args.db is not None:
            raise UsageError("--play-into: the collector is tenace serve's, the event file FILE itself: give no "
                             f"{'--kill-host' if args.kill_host else '--db'}")
    if args.pace is not None:
        in_range("--pace", args.pace, 1, 600_000, unit="ms")
    if args.event is not None:
        given = [name for name in SHAPE if getattr(args, name) not in (None, False)]
        if given:
            raise UsageError(f"--event plays the event as it was set up: give no {_flag(given[0])}")
        return _check_faults(args)
    for name, default in SHAPE.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    in_range("--tables", args.tables, 2, MAX_TABLES)
    in_range("--boards-per-round", args.boards_per_round, 1, MAX_BOARDS_PER_ROUND)
    in_range("--boards", args.boards, 1, MAX_BOARDS)
    if args.howell:
        in_range("--howell", args.howell, MIN_HOWELL_TABLES, MAX_HOWELL_TABLES)
    check_processes(args.tables + args.howell + (2 if args.teams else 0), args.per_process)
    _check_faults(args)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def check_processes(tables: int, per_process: int) -> None:
    in_range("--per-process", per_process, 1, MAX_TABLES)
    processes = -(-tables // per_process)
    if processes > MAX_PROCESSES:
        raise UsageError(f"{tables} tables with --per-process {per_process} make {processes} "
                         f"MicroPython processes, at most {MAX_PROCESSES}: raise --per-process")


def _check_faults(args: argparse.Namespace) -> None:
    in_range("--kill-host", args.kill_host, 0, MAX_KILLS)
    in_range("--down", args.down, 0, 60, unit="seconds")
    in_range("--unplug", args.unplug, 0, 600, unit="seconds")
    in_range("--delay", args.delay, 0, 60_000, unit="ms")
    in_range("--timeout", args.timeout, 1, 86_400, unit="seconds")


def run_command(args: argparse.Namespace) -> int:
    if args.clubs is not None:
        return run_clubs_command(args)
    if args.keep:
        raise UsageError("--keep keeps the hub of --clubs: give --clubs N, or no --keep")
    check_options(args)
    try:
        rates = FaultRates(args.loss, args.corrupt, args.duplicate, args.reorder, args.delay, args.forge)
    except ValueError as e:
        raise UsageError(str(e)) from None
    options = SimOptions(faults=rates, kill_host=args.kill_host, down_s=args.down, unplug_s=args.unplug,
                         seed=args.seed, per_process=args.per_process, timeout_s=args.timeout, scoring=args.scoring,
                         collector_port=args.play_into, think_ms=args.pace)
    if args.db is not None:
        if args.db.exists():
            raise UsageError(f"--db {args.db} exists already: give a new file name (an event file is never replaced)")
        output_folder("--db", args.db.parent)
    if args.workdir is not None:
        output_folder("--workdir", args.workdir)
        if (args.workdir / "event.sqlite").exists():
            raise UsageError(f"{args.workdir} already holds a session: give an empty or new --workdir")
    given: dict[str, Movement] | None = None
    if args.play_into is not None:
        db = args.event
        given, scoring = practice_play(args.event)
        check_processes(sum(m.tables for m in given.values()), args.per_process)
        options, movements = replace(options, scoring=scoring), given
        print(f"Simulated tables playing into the practice event {args.event}", flush=True)
    elif args.event is not None:
        db = args.db if args.db is not None else default_copy(args.event)
        if db.exists():
            raise UsageError(f"{db} exists already (an earlier rehearsal?): remove it or give --db NEW.sqlite")
        given, scoring = copy_event(args.event, db)
        try:
            check_processes(sum(m.tables for m in given.values()), args.per_process)
        except UsageError:
            db.unlink()
            raise
        options, movements = replace(options, scoring=scoring), given
        print(f"Rehearsal of {args.event} in {db} (the event file itself is left untouched)", flush=True)
    else:
        options = replace(options, tables=args.tables, boards=args.boards, boards_per_round=args.boards_per_round,
                          howell_tables=args.howell, teams=args.teams, change=args.change)
        try:
            movements = options.movements()
        except MovementError as e:
            raise movement_error(e) from None
    plan = "; ".join(f"section {s}: {m.name}" for s, m in movements.items())
    print(f"Simulated session: {plan}; {sum(m.tables for m in movements.values())} terminals, seed {args.seed}",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="tenace-sim-") as tmp:
        workdir = args.workdir if args.workdir is not None else Path(tmp)
        if args.event is None:
            db = args.db if args.db is not None else workdir / "event.sqlite"
        result = run(options, workdir, db, given)
        report(result, db)
    return 0 if result.comparison.ok else 1


def report(result: SimResult, db: Path) -> None:
    c = result.comparison
    with open_event(db) as conn, read_transaction(conn):
        sections = event_results(conn).sections
    for section in sections:  # the rankings from the event file, with the players' names; a team match in full
        write_text(section.report if section.matches else replace(section.report, boards=(), notes=()), sys.stdout,
                   travellers=False)
    sys.stdout.flush()
    air = result.air
    stored = max(c.stored, 1)
    print(f"\n{result.seconds:.1f} s; host started {result.host_starts}x; {result.keys} keys pressed")
    if result.change is not None:
        print(f"the director changed the movement: {result.change}")
    elif result.change_missed:
        print("the director did not change the movement: the tables had gone too far for it")
    if result.call is not None:
        print(f"{result.call}; the director acknowledged it"
              + (" and the table showed \"Director coming\"" if result.coming else ", but the answer never reached it"))
    tables = sum(m.tables for m in result.movements.values())
    if result.call is not None or result.moved:
        print(f"the round clock reached \"move\" on {result.moved} of {tables} terminals")
    if result.host_starts > 1:
        print(f"while the host was down the tables went on and accepted {result.keyed_while_down} results")
    print(f"on the air: {air.frames_up} frames up, {air.frames_down} down; "
          f"{(air.bytes_up + air.bytes_down) / stored:.0f} bytes per stored result; "
          f"{air.forged} forged frames injected, {air.dropped_at_base} lost at an unplugged or dead host")
    print("ranking from the event file " + ("equals" if c.rankings_equal else "DIFFERS FROM")
          + " the ranking of what the tables accepted")
    if c.unexpected:
        print(f"{c.unexpected} results stored that no table accepted")
    print(c.line)


def run_clubs_command(args: argparse.Namespace) -> int:
    """tenace sim --clubs N: the clubs of a simultaneous event into a local hub; 0 when nothing was lost or
    doubled, 1 otherwise."""
    from tenace.simulation.clubs import run_clubs

    in_range("--clubs", args.clubs, 1, 1000)
    in_range("--firmware-clubs", args.firmware_clubs, 0, min(args.clubs, 4))
    if args.event is not None or args.db is not None:
        raise UsageError("--clubs makes its own clubs' event files: give no --event or --db (--workdir keeps them)")
    if args.workdir is not None:
        output_folder("--workdir", args.workdir)
        if any(args.workdir.iterdir()):
            raise UsageError(f"--workdir {args.workdir} is not empty: give an empty or new one")
    if args.keep:  # the hub's log and the clubs' files stay beside the hub left running
        workdir = args.workdir or Path(tempfile.mkdtemp(prefix="tenace-clubs-"))
        counted = run_clubs(args.clubs, args.firmware_clubs, workdir, seed=args.seed, keep=True)
    else:
        with tempfile.TemporaryDirectory(prefix="tenace-clubs-") as temporary:
            counted = run_clubs(args.clubs, args.firmware_clubs, args.workdir or Path(temporary), seed=args.seed)
    print(counted.line())
    return 0 if counted.lost == 0 and counted.doubled == 0 and counted.stored == counted.results else 1
