"""What the director's commands share: their options read into the director's inputs, the event file, the refusals."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TypeVar

from tenace.commands.options import event_file, open_event
from tenace.director import parse
from tenace.director.errors import DirectorInputError
from tenace.director.inputs import Place, ResultInput, Signature
from tenace.errors import UsageError
from tenace.store import EntryError, LateChange

T = TypeVar("T")


def add_signature(p: argparse.ArgumentParser, why_required: bool = True) -> None:
    """--why (required unless said otherwise: it goes into the log), --who, --force."""
    p.add_argument("--why", metavar="TEXT",
                   help="why: the ruling or the fault, logged" + (" (required)" if why_required else ""))
    p.add_argument("--who", metavar="NAME", help="who decides (default: the user logged in)")
    p.add_argument("--force", action="store_true",
                   help="act after the Law 79C correction period anyway (the force is logged)")


def add_slot(p: argparse.ArgumentParser) -> None:
    """The result's place: table and board (the round is the movement's), the section when there are several."""
    p.add_argument("--table", type=int, metavar="T", help="the table the board was played at")
    p.add_argument("--board", type=int, metavar="N", help="the board")
    p.add_argument("--section", metavar="S", help="the section (needed only when the event has several)")
    p.add_argument("--round", type=int, metavar="R",
                   help="the round (needed only when the table plays the board in several rounds)")


def add_result(p: argparse.ArgumentParser) -> None:
    """A result as the table should have entered it: a contract played, a passed-out board, or not played."""
    g = p.add_argument_group("the result")
    g.add_argument("--contract", metavar="C", help="the contract: 4S, 3NTX, 4♠x")
    g.add_argument("--by", metavar="SEAT", help="declarer: N, E, S or W")
    g.add_argument("--tricks", metavar="T", help="declarer's tricks: 10, or relative: =, +1, -2")
    g.add_argument("--lead", metavar="CARD", help="the opening lead, SK (optional)")
    g.add_argument("--passed-out", action="store_true", help="the board was passed out")
    g.add_argument("--not-played", action="store_true", help="the board was not played and gets no score")


def flag(field: str) -> str:
    """The option a director's input field is given with: percent -> --percent, ew_assigned -> --ew-assigned."""
    return "--" + field.replace("_", "-")


class Flags(dict[str, str]):
    """The director's input fields as the command's options (a field may be named otherwise, or not at all: "")."""

    def __missing__(self, field: str) -> str:
        return flag(field)


def usage(e: DirectorInputError, names: Mapping[str, str] | None = None) -> UsageError:
    """The director's refusal as the command says it: naming its options."""
    return UsageError(e.said(Flags(names or {})))


def place(args: argparse.Namespace) -> Place:
    """Where the result is, from --table, --board, --section and --round."""
    return Place(args.table, args.board, args.section, args.round)


def signature(args: argparse.Namespace, default_why: str | None = None) -> Signature:
    """Who and why from --who and --why (required unless `default_why`), and --force."""
    return parse.signature(args.who, args.why, args.force, default_why)


def result(args: argparse.Namespace) -> ResultInput | None:
    """The result add_result's options give; None when none is given."""
    return parse.result(contract=args.contract, by=args.by, tricks=args.tricks, lead=args.lead,
                        passed_out=args.passed_out, not_played=args.not_played)


@contextmanager
def event(args: argparse.Namespace, names: Mapping[str, str] | None = None) -> Iterator[sqlite3.Connection]:
    """The event file named on the command line, open; its faults, the store's refusals and the director's as one
    line each."""
    with open_event(event_file(args)) as conn:
        try:
            yield conn
        except LateChange as e:
            raise UsageError(f"{e}: --force makes the change anyway, and the force is logged") from None
        except EntryError as e:
            raise UsageError(str(e)) from None
        except DirectorInputError as e:
            raise usage(e, names) from None


def perform(args: argparse.Namespace, read: Callable[[argparse.Namespace], T],
            action: Callable[[sqlite3.Connection, T, Signature], str], names: Mapping[str, str] | None = None) -> int:
    """A director's command: who and why, then its input from the options (their faults before the file's), then
    the action on the event file, its log line printed. `names` calls some fields otherwise than by their flag."""
    try:
        signed = signature(args)
        given = read(args)
    except DirectorInputError as e:
        raise usage(e, names) from None
    with event(args, names) as conn:
        print(action(conn, given, signed))
    return 0
