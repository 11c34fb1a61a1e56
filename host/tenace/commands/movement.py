"""`tenace movement`: print a movement round by round, or prove it (a generated one, or one from a JSON file)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tenace.commands import movement_swiss
from tenace.commands.options import movement_error, open_event
from tenace.errors import UsageError
from tenace.movement import (
    Movement,
    MovementError,
    appendix_mitchell,
    arrow_switched,
    check,
    half_table,
    howell,
    mitchell,
    relay_mitchell,
    shortened,
    skip_mitchell,
    teams,
)
from tenace.movement.individual import individual
from tenace.movement.serial import FormError, movement_from_json, movement_to_json, report_to_json
from tenace.movement.text import render_plan, render_report
from tenace.store import EntryError
from tenace.store.db import read_transaction
from tenace.store.director import chosen_section
from tenace.store.encounters import stored_movement

KINDS = ("mitchell", "skip-mitchell", "relay-mitchell", "appendix-mitchell", "duplicated-mitchell", "howell", "teams",
         "individual")
OPTIONS = {"tables": "--tables", "boards_per_round": "--boards-per-round", "rounds": "--rounds",
           "arrow_switch": "--arrow-switch", "phantom": "--half-table"}
HELP = ("print a movement round by round (Mitchell, Howell, team match, individual), check one and say what it "
        "gives, or pair a Swiss teams round")
EPILOG = """\
kinds:
  mitchell             NS sit still, EW move up, boards down; an even count skips after half the rounds
  skip-mitchell        the same, for an even number of tables only
  relay-mitchell       an even number of tables with a relay (tables 1 and N share) and a bye stand
  appendix-mitchell    N tables and a half: a base of N - 1 tables, table N sharing table 1's boards, EW
                       pairs (one more than NS) moving through the N tables and a bye stand
  duplicated-mitchell  a copy of the boards at every table, every table on the same set (--rounds sets)
  howell               3 to 10 tables, every pair meets every other (--rounds fewer: a shortened Howell)
  teams                two-table team match: A's NS and B's EW at table 1, B's NS and A's EW at table 2
  individual           2 to 5 tables of 4 players each: every player partners every other once and meets each
                       twice; every table on the round's set, a copy of the boards at each (--rounds fewer:
                       shortened)

examples:
  tenace movement show mitchell --tables 7 --boards-per-round 3
  tenace movement show howell --tables 5 --half-table --json > howell.json
  tenace movement check relay-mitchell --tables 8
  tenace movement show individual --tables 3 --boards-per-round 2 --rounds 8
  tenace movement show appendix-mitchell --tables 10    10½ tables: 9 rounds, 27 boards
  tenace movement check --file howell.json        a movement given as JSON (as show --json writes it)
  tenace movement show --event club.sqlite --section B   the movement an event file holds
  tenace movement swiss --teams teams.txt --results vps.csv   the next Swiss round (see swiss --help)

check exits 0 when no rule is broken and 1 when one is (each broken rule is listed under errors); the
observations (meetings, comparisons, balance, sit-outs) never fail it. Impossible set-ups exit 2."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("movement", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print a movement round by round: who plays which boards where",
                              description="Print a movement round by round: who plays which boards at which table.")
    _movement_options(show)
    show.add_argument("--json", action="store_true", help="write the movement as JSON (check --file reads it)")
    show.set_defaults(run=run_show)
    chk = actions.add_parser("check", help="prove a movement: exit 1 when a rule is broken",
                             description="Check a movement's rules (no board twice, boards where they should be) "
                                         "and report meetings, comparisons and balance; exit 1 when a rule is "
                                         "broken.")
    _movement_options(chk)
    chk.add_argument("--json", action="store_true", help="write the report as JSON")
    chk.set_defaults(run=run_check)
    movement_swiss.register(actions)


def _movement_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", nargs="?", choices=KINDS, metavar="KIND", help=f"one of: {', '.join(KINDS)}")
    p.add_argument("--tables", type=int, metavar="N", help="tables in play (a team match: 2, the default)")
    p.add_argument("--boards-per-round", type=int, default=3, metavar="B", help="boards each round (default 3)")
    p.add_argument("--rounds", type=int, metavar="R",
                   help="rounds: fewer than the whole movement shortens it; a team match's or duplicated "
                        "Mitchell's number of rounds")
    p.add_argument("--half-table", action="store_true",
                   help="one pair short: the NS pair of the last table (Mitchell) or pair 2N (Howell) is missing")
    p.add_argument("--arrow-switch", metavar="ROUNDS",
                   help="Mitchell rounds where NS and EW swap seats, e.g. 7 or 5,7 or last")
    p.add_argument("--file", type=Path, metavar="F.json", help="the movement in a JSON file instead of KIND")
    p.add_argument("--event", type=Path, metavar="EVENT",
                   help="the movement an event file holds (as made, imported or changed) instead of KIND")
    p.add_argument("--section", metavar="S", help="with --event: the section, when the event has several")


def run_show(args: argparse.Namespace) -> int:
    movement = movement_of(args)
    print(json.dumps(movement_to_json(movement), indent=1) if args.json else render_plan(movement))
    return 0


def run_check(args: argparse.Namespace) -> int:
    report = check(movement_of(args))
    print(json.dumps(report_to_json(report), indent=2, ensure_ascii=False) if args.json else render_report(report))
    return 0 if report.ok else 1


def movement_of(args: argparse.Namespace) -> Movement:
    """The movement the arguments name: read from --file, or generated; UsageError when that cannot be."""
    whole = "--file" if args.file is not None else "--event" if args.event is not None else None
    if args.file is not None and args.event is not None:
        raise UsageError("--file or --event, not both")
    if args.section is not None and args.event is None:
        raise UsageError("--section chooses a section of --event's file: give --event EVENT")
    if whole is not None:
        given = [o for o, v in (("KIND", args.kind), ("--tables", args.tables), ("--rounds", args.rounds),
                                ("--half-table", args.half_table), ("--arrow-switch", args.arrow_switch)) if v]
        if given:
            raise UsageError(f"{whole} holds the whole movement: give no {given[0]} with it")
        if args.event is not None:
            with open_event(args.event) as conn, read_transaction(conn):
                try:
                    return stored_movement(conn, chosen_section(conn, args.section))
                except EntryError as e:
                    raise UsageError(f"--section: {e}") from None
        return read_file(args.file)
    if args.kind is None:
        raise UsageError(f"give a KIND ({', '.join(KINDS)}) or --file F.json")
    try:
        movement = generate(args.kind, args.tables, args.boards_per_round, args.rounds)
        if args.half_table and args.kind == "appendix-mitchell":
            raise MovementError("phantom", "an appendix Mitchell has its half table already (the EW pair one above "
                                "the tables): give the number of whole tables")
        if args.half_table:
            movement = half_table(movement)
        if args.arrow_switch is not None:
            movement = arrow_switched(movement, _rounds(args.arrow_switch, movement.rounds))
    except MovementError as e:
        raise movement_error(e, OPTIONS) from None
    return movement


def generate(kind: str, tables: int | None, boards_per_round: int, rounds: int | None) -> Movement:
    if tables is None:
        if kind != "teams":
            raise UsageError(f"give --tables N for a {kind} movement")
        tables = 2
    if kind == "teams":
        return teams(boards_per_round, 1 if rounds is None else rounds, tables)
    if kind == "howell":
        return howell(tables, boards_per_round, rounds)
    if kind == "individual":
        return individual(tables, boards_per_round, rounds)
    if kind == "duplicated-mitchell":
        return mitchell(tables, boards_per_round, tables if rounds is None else rounds)
    built = {"mitchell": mitchell, "skip-mitchell": skip_mitchell, "relay-mitchell": relay_mitchell,
             "appendix-mitchell": appendix_mitchell}[kind]
    movement = built(tables, boards_per_round)
    return movement if rounds is None else shortened(movement, rounds)


def _rounds(text: str, rounds: int) -> list[int]:
    chosen = []
    for part in text.split(","):
        part = part.strip().lower()
        if part == "last":
            chosen.append(rounds)
        elif part.isdigit():
            chosen.append(int(part))
        else:
            raise UsageError(f"--arrow-switch takes round numbers separated by commas (or last), not {text!r}")
    return chosen


def read_file(path: Path) -> Movement:
    try:
        text = path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise UsageError(f"--file {path} is a folder, not a movement file") from None
    except UnicodeDecodeError:
        raise UsageError(f"--file {path} is not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"--file {path}: cannot read it: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"--file {path} is not JSON: {e.msg} at line {e.lineno}") from None
    try:
        return movement_from_json(data)
    except FormError as e:
        raise UsageError(f"--file {path}: {e}") from None
