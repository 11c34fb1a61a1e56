"""`tenace event new` without its flags: asks for each missing one at the terminal, checking every answer."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from tenace.errors import UsageError
from tenace.movement import MovementError, check_size, mitchell, nothing_to_compare

Ask = Callable[[str], str]
# What `event new` needs, in the order asked: the flag, the question, the default ("" for none).
QUESTIONS = (
    ("db", "Event file to create", "club.sqlite"),
    ("name", "Event name, as printed on the results", ""),
    ("tables", "Tables in play", "7"),
    ("boards_per_round", "Boards each round", "3"),
)
_TRIES = 5


def missing(args: argparse.Namespace) -> list[str]:
    """The flags of `event new` not given, as typed on the command line."""
    return ["--" + name.replace("_", "-") for name, _, _ in QUESTIONS if getattr(args, name) is None]


def fill_in(args: argparse.Namespace, ask: Ask | None = None, interactive: bool | None = None) -> None:
    """Ask for each missing flag (at a terminal), or refuse naming them (a script, a pipe: nobody to ask)."""
    lacking = missing(args)
    if not lacking:
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
    raise UsageError(f"no answer taken for --{name.replace('_', '-')} after {_TRIES} tries")


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
    if not text.isdigit():
        raise ValueError(f"a whole number, not {text!r}")
    number = int(text)
    try:
        if name == "tables":
            check_size(number, 1)
            why = nothing_to_compare(mitchell(number, 1))  # whatever the boards per round
            if why is not None:
                raise ValueError(why)
        else:
            check_size(args.tables, number)
    except MovementError as e:
        raise ValueError(str(e)) from None
    return number
