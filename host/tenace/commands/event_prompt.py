"""`tenace event new` without its flags: asks for each missing one at the terminal, checking every answer."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from tenace.commands.options import given_event_file
from tenace.director.setup import MOVEMENTS as MOVEMENTS
from tenace.director.setup import ONE_OF
from tenace.director.setup import movement_of as movement_of
from tenace.errors import UsageError
from tenace.movement import MovementError, nothing_to_compare

Ask = Callable[[str], str]
_ONE_OF = ONE_OF
TEAM_MOVEMENTS = ("teams", "swiss")
# What `event new` needs, in the order asked: the flag, the question, the default ("" for none). The event file,
# given as EVENT or --db, is read into args.db (see fill_in).
QUESTIONS = (
    ("db", "Event file to create", "club.sqlite"),
    ("name", "Event name, as printed on the results", ""),
    ("movement", f"Movement, {_ONE_OF}", "mitchell"),
    ("tables", "Tables in play", "7"),
    ("boards_per_round", "Boards each round", "3"),
)
# Asked only along with the others: without them a script gets the default, as before there was a choice.
_OPTIONAL = {"movement": "mitchell"}
_TRIES = 5

# A movement's figures as `event new` names them in a refusal.
OPTIONS = {"tables": "--tables", "boards_per_round": "--boards-per-round", "rounds": "--rounds",
           "phantom": "--half-table"}
# Boards per round that a movement of any size accepts, to check the number of tables before they are asked
# (a 3-table Howell shares one set among its three tables in its last round: at least 3 boards).
_ANY_BOARDS = {"mitchell": 1, "howell": 3, "individual": 1, "teams": 1, "swiss": 1}


def missing(args: argparse.Namespace) -> list[str]:
    """The flags of `event new` not given, as typed on the command line (those with a default left out)."""
    return [_typed(name) for name, _, _ in QUESTIONS if getattr(args, name) is None and name not in _OPTIONAL]


def _typed(name: str) -> str:
    """A question's flag as typed: the event file is the positional EVENT, the others --name-like."""
    return "EVENT" if name == "db" else "--" + name.replace("_", "-")


def fill_in(args: argparse.Namespace, ask: Ask | None = None, interactive: bool | None = None) -> None:
    """Ask for each missing flag (at a terminal), or refuse naming them (a script, a pipe: nobody to ask)."""
    args.db, args.event = given_event_file(args), None  # EVENT or --db: one file, asked for as args.db
    _team_tables(args)
    lacking = missing(args)
    if not lacking:
        for name, default in _OPTIONAL.items():
            if getattr(args, name) is None:
                setattr(args, name, default)
        return
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if not interactive:
        raise UsageError(f"give {', '.join(lacking)} (or run it at a terminal to be asked for them)")
    ask = ask or input
    print("A new event: each question's default in [brackets]; Ctrl-D or Ctrl-C stops without creating anything.")
    for name, question, default in QUESTIONS:
        if getattr(args, name) is None:
            setattr(args, name, _answer(args, name, question, default, ask))
        if name == "movement":
            _team_tables(args)


def _team_tables(args: argparse.Namespace) -> None:
    if args.movement in TEAM_MOVEMENTS and args.tables is None:
        args.tables = 2  # a team match has its two tables (a Swiss two a match, from its teams): nothing to ask


def _answer(args: argparse.Namespace, name: str, question: str, default: str, ask: Ask) -> object:
    for _ in range(_TRIES):
        try:
            text = ask(f"{question}{f' [{default}]' if default else ''}: ").strip() or default
        except (EOFError, KeyboardInterrupt):
            raise UsageError("stopped: no event file created") from None
        try:
            return _checked(args, name, text)
        except ValueError as e:
            print(f"  {e}")
    raise UsageError(f"no answer taken for {_typed(name)} after {_TRIES} tries")


def _checked(args: argparse.Namespace, name: str, text: str) -> object:
    """The answer as the flag's value; ValueError saying what is wrong with it."""
    if not text:
        raise ValueError("an answer is needed")
    if name == "db":
        path = Path(text).expanduser()
        if path.exists():
            raise ValueError(f"{path} exists already: an event file is never overwritten; give a new name")
        return path
    if name == "name":
        return text
    if name == "movement":
        if text.lower() not in MOVEMENTS:
            raise ValueError(f"{_ONE_OF}, not {text!r}")
        return text.lower()
    if not text.isdigit():
        raise ValueError(f"a whole number, not {text!r}")
    number = int(text)
    kind = args.movement or "mitchell"
    try:
        if name == "tables":  # whatever the boards per round; --rounds, when given, counts
            movement = movement_of(kind, number, _ANY_BOARDS[kind], args.rounds)
        else:
            movement = movement_of(kind, args.tables, number, args.rounds)
    except MovementError as e:
        if name == "tables" and e.figure == "rounds":
            return number  # the movement's other figures are refused when the event is made, naming their flag
        raise ValueError(str(e)) from None
    why = nothing_to_compare(movement)
    if why is not None:
        raise ValueError(why)
    return number
