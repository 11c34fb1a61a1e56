"""A Swiss teams event in the event file: `tenace event new --movement swiss` makes round 1 its section A, and
`tenace event next-round` pairs each next round from the file's VP standings as the next section (B, C...)."""

from __future__ import annotations

import argparse
import sqlite3
import string
from decimal import Decimal

from tenace.commands.options import add_event_file, event_file, movement_error, open_event
from tenace.errors import UsageError
from tenace.movement import MovementError, check
from tenace.movement.swiss import MAX_TEAMS, Match, Round, next_round
from tenace.reports.event_teams import TeamStanding, section_matches, standings, standings_text, swiss_played
from tenace.store import EntryError, StoreError, add_section, create_event, event_info, login_name
from tenace.store.db import read_transaction
from tenace.store.teams import Team, byes, keep_teams, record_bye, team_names

# A round is a section, and the terminals name a section by one letter on the wire (A-Z): 26 rounds at most.
ROUND_SECTIONS = string.ascii_uppercase
DEFAULT_BYE_VPS = Decimal("12.00")  # as the WBF's and many national regulations give a bye

NEXT_HELP = "pair the next round of a Swiss teams event from its VP standings and add it as the next section"
NEXT_EPILOG = """\
The event file's matches give each team its VPs (WBF 20-point scale); the next round pairs the top
team against the next it has not met, and so on down (tenace movement swiss --help says how), and is
added as the next section: round 2 is section B, round 3 C. Each match takes two tables: the home team
NS at the first, the away team NS at the second; seat the terminals in the new section (tenace event
seat --section B) or sign them in there. Every match of the rounds so far must be complete.

examples:
  tenace event next-round swiss.sqlite
  tenace results swiss.sqlite                 every round's matches and the standings"""


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = actions.add_parser("next-round", help=NEXT_HELP, description=NEXT_HELP, epilog=NEXT_EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--boards", type=int, metavar="B", help="boards a match (default: as the round before)")
    add_bye_vps(p)
    p.set_defaults(run=run_next_round)


def add_bye_vps(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bye-vps", type=Decimal, metavar="VP",
                   help=f"an odd number of teams: the VPs of the team with the bye (default {DEFAULT_BYE_VPS})")


def bye_vps(value: Decimal | None) -> Decimal:
    """The bye's VPs as given (0 to 20, to the hundredth), else the default."""
    if value is None:
        return DEFAULT_BYE_VPS
    if not value.is_finite() or not 0 <= value <= 20 or value != value.quantize(Decimal("0.01")):
        raise UsageError(f"--bye-vps is 0 to 20 VPs (to the hundredth), not {value}")
    return value.quantize(Decimal("0.01"))


def seeded(teams: list[Team], where: str) -> tuple[str, ...]:
    """The teams' names in seeding order; UsageError unless they are numbered 1 to N, N even."""
    numbers = sorted(t.number for t in teams)
    missing = sorted(set(range(1, len(teams) + 1)) - set(numbers))
    if missing:
        raise UsageError(f"{where}: a Swiss numbers its teams 1 to {len(teams)} in seeding order; team {missing[0]} "
                         "is missing")
    if not 2 <= len(teams) <= MAX_TEAMS:
        raise UsageError(f"{where}: a Swiss needs 2 to {MAX_TEAMS} teams, not {len(teams)}")
    by_number = {t.number: t.name for t in teams}
    return tuple(by_number[n] for n in range(1, len(teams) + 1))


def new_swiss(args: argparse.Namespace, teams: list[Team], scoring: str, seed: int | None) -> None:
    """Make the event file with round 1 (by seeding, or drawn with `seed`) as section A, and name its teams."""
    names = seeded(teams, f"--teams {args.teams}")
    rest = bye_vps(args.bye_vps)
    try:
        paired = next_round(names, [], args.boards_per_round, seed)
    except MovementError as e:
        raise movement_error(e, {"boards": "--boards-per-round", "teams": "--teams"}) from None
    _checked(paired)
    try:
        conn = create_event(args.db, name=args.name, date=args.date, scoring=scoring,
                            sections={ROUND_SECTIONS[0]: paired.movement})
    except (ValueError, StoreError) as e:
        raise UsageError(str(e)) from None
    try:
        keep_teams(conn, teams, who=login_name(), bye=paired.bye)
        if paired.bye is not None:
            record_bye(conn, ROUND_SECTIONS[0], paired.bye, rest)
    except EntryError as e:
        raise UsageError(f"--teams {args.teams}: {e}") from None
    finally:
        conn.close()
    print(f"created {args.db}: {args.name!r}, Swiss teams, {len(names)} teams, {args.boards_per_round} boards a match")
    print(_round_text(paired, names, rest))


def run_next_round(args: argparse.Namespace) -> int:
    with open_event(event_file(args)) as conn:
        names, sections, played, boards, table = _so_far(conn)
        if len(sections) == len(ROUND_SECTIONS):
            raise UsageError(f"the event has {len(sections)} rounds, sections A to Z: the terminals name no more")
        try:
            paired = next_round(names, played, args.boards or boards)
        except MovementError as e:
            raise movement_error(e, {"boards": "--boards"}) from None
        _checked(paired)
        rest = bye_vps(args.bye_vps)
        section = ROUND_SECTIONS[len(sections)]
        try:
            add_section(conn, section, paired.movement)
            if paired.bye is not None:
                record_bye(conn, section, paired.bye, rest)
        except (EntryError, StoreError) as e:
            raise UsageError(str(e)) from None
    print(standings_text(table))
    print(f"section {section}: {_round_text(paired, names, rest)}")
    return 0


def _so_far(conn: sqlite3.Connection) -> tuple[tuple[str, ...], list[str], list[Match], int, list[TeamStanding]]:
    """The teams' names, the rounds' sections, the matches played, the boards a match of the last round and the
    standings, all read at one moment."""
    with read_transaction(conn):
        info = event_info(conn)
        if not info.sections or any(s.kind != "teams" for s in info.sections):
            raise UsageError("this event is not a Swiss teams event (tenace event new --movement swiss makes one)")
        sections = [s.name for s in info.sections]
        if sections != list(ROUND_SECTIONS[:len(sections)]):
            raise UsageError(f"a Swiss's rounds are sections A, B, C...; this event has {', '.join(sections)}")
        known = team_names(conn)
        names = seeded([Team(n, name) for n, name in known.items()], "the event's teams")
        matches = [(s, section_matches(conn, s, known, "")) for s in sections]
        rested = byes(conn)
        try:
            played = swiss_played(matches, rested)
        except ValueError as e:
            raise UsageError(str(e)) from None
    table = standings([m for _, ms in matches for m in ms], known, set(range(1, len(names) + 1)), rested)
    return names, sections, played, info.sections[-1].boards_per_round, table


def _checked(paired: Round) -> None:
    report = check(paired.movement)
    if not report.ok:  # a pairing is always a sound movement; say so loudly if this one is not
        raise AssertionError(f"round {paired.number} breaks a movement rule: {report.errors[0].message}")


def _round_text(r: Round, names: tuple[str, ...], rest: Decimal) -> str:
    lines = [f"round {r.number}: {len(r.matches)} match{'es' if len(r.matches) != 1 else ''} of "
             f"{r.movement.boards_per_round} boards"]
    for i, (home, away) in enumerate(r.matches):
        again = "  (a rematch: no pairing avoids one)" if (home, away) in r.rematches else ""
        lines.append(f"  tables {2 * i + 1}-{2 * i + 2}  {home} {names[home - 1]}  v  {away} {names[away - 1]}{again}")
    if r.bye is not None:
        lines.append(f"  bye: {r.bye} {names[r.bye - 1]} ({rest} VPs)")
    lines.append("the home team sits NS at its match's first table, the away team NS at the second")
    return "\n".join(lines)
