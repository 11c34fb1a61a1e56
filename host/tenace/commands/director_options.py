"""What the director's commands share: the board and table a result is at, who and why, --force, the event file."""

from __future__ import annotations

import argparse
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tenace.commands.options import event_file, open_event
from tenace.errors import UsageError
from tenace.store import EntryError, LateChange, Slot, director_log, find_slot, login_name


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


def result_fields(args: argparse.Namespace) -> dict[str, Any] | None:
    """The store's fields of the result given by add_result's options; None when none is given."""
    chosen = [name for name, given in (("--contract", args.contract is not None), ("--passed-out", args.passed_out),
                                       ("--not-played", args.not_played)) if given]
    if len(chosen) > 1:
        raise UsageError(f"give one result: {' or '.join(chosen)}")
    if args.passed_out or args.not_played:
        extra = [o for o, v in (("--by", args.by), ("--tricks", args.tricks), ("--lead", args.lead)) if v is not None]
        if extra:
            raise UsageError(f"{chosen[0]} takes no {', '.join(extra)}")
        return {"kind": "passed_out" if args.passed_out else "not_played"}
    if args.contract is None:
        if args.by is not None or args.tricks is not None:
            raise UsageError("--by and --tricks go with --contract")
        return None
    if args.by is None or args.tricks is None:
        raise UsageError("a contract needs its declarer and tricks: --contract 4S --by N --tricks 10")
    tricks: int | str = int(args.tricks) if args.tricks.isdecimal() else args.tricks
    return {"kind": "normal", "contract": args.contract, "declarer": args.by, "tricks": tricks, "lead": args.lead}


def signature(args: argparse.Namespace, default_why: str | None = None) -> tuple[str, str]:
    """(who, why): why is required (Law 79C: every change is explained), who defaults to the user logged in."""
    why = args.why if args.why is not None else default_why
    if why is None or not why.strip():
        raise UsageError("--why is required: say why (it is logged with who and when)")
    return (args.who if args.who is not None else login_name()), why


@contextmanager
def event(args: argparse.Namespace) -> Iterator[sqlite3.Connection]:
    """The event file named on the command line, open; its faults and the store's refusals as one line each."""
    with open_event(event_file(args)) as conn:
        try:
            yield conn
        except LateChange as e:
            raise UsageError(f"{e}: --force makes the change anyway, and the force is logged") from None
        except EntryError as e:
            raise UsageError(str(e)) from None


def slot(conn: sqlite3.Connection, args: argparse.Namespace) -> Slot:
    """The result's slot from --table, --board (and --section, --round); the store says what is wrong with them."""
    missing = [o for o, v in (("--table", args.table), ("--board", args.board)) if v is None]
    if missing:
        raise UsageError(f"say where the result is: {' and '.join(missing)}")
    return find_slot(conn, args.section, args.table, args.board, args.round)


def logged(conn: sqlite3.Connection) -> str:
    """The director's log's latest line, as the command's answer: what was recorded, by whom, why."""
    entry = director_log(conn)[-1]
    forced = " (FORCED after the correction period: logged)" if entry.forced else ""
    return f"{entry.action}: {entry.detail}{forced}\n  by {entry.who}: {entry.why}"


_PERCENT_SPLIT = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*/\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*$")


def percent_split(text: str) -> tuple[str, str]:
    """ "60/40" or "60%/40%" as the two sides' percentages ("60%", "40%"); each 0 to 100."""
    match = _PERCENT_SPLIT.match(text)
    if match is None:
        raise UsageError(f"--percent {text!r}: give NS then EW, such as 60/40")
    for side, value in zip(("NS", "EW"), match.groups(), strict=True):
        if float(value) > 100:
            raise UsageError(f"--percent {text!r}: {side} {value}% is over 100%")
    return f"{match[1]}%", f"{match[2]}%"
