"""`tenace check`: is an event file sound? Its schema, every result as read back, the movement, the chain of changes."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from tenace.commands.options import add_event_file, event_file
from tenace.errors import UsageError
from tenace.store import StoreError, connect
from tenace.store.db import read_transaction
from tenace.store.file_check import check_file

HELP = "check that an event file is sound: schema, every result, the movement, the chain of changes"
EPILOG = """\
examples:
  tenace check club.sqlite
  tenace check club.sqlite --head 6f8239c0e153     is this the file whose published results carried that head?

What is checked: SQLite's own integrity and references; the schema against this Tenace's (a trigger
dropped to edit the file is named); every result version read back as if it came off the wire (its
fields, and its score again by Law 77 from contract, declarer, tricks and the board's vulnerability;
its board and pairs against the movement); and the chain: every result version and director's action
is hashed with the one before it when it is written, so a row changed, added or deleted outside
Tenace (with sqlite3, say) is named, with the field that no longer matches.
The chain's head (its latest hash) is printed with published results and written into the exports;
--head says whether this file's chain holds that head (the head of the file as published).
Exit code 0 when the file is sound (one summary line), 1 when anything is wrong (a line each),
2 when it is no event file at all."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--head", metavar="HEX", help="a chain head (or its first 12+ characters) the file must hold")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    head = _head(args.head)
    try:
        conn = connect(path)
    except StoreError as e:
        if not _sqlite_file(path) or "not a Tenace event file" in str(e):
            raise UsageError(str(e)) from None
        print(f"{path}: damaged: {str(e).removeprefix(f'{path}: ')}")  # an SQLite file that SQLite cannot read
        return 1
    try:
        with read_transaction(conn):
            found = check_file(conn)
            held = None if head is None else _holds(conn, head)
    except sqlite3.DatabaseError as e:
        print(f"{path}: damaged: {e}")
        return 1
    finally:
        conn.close()
    for fault in found.faults:
        print(f"{path}: {fault}")
    if held is not None:
        print(f"{path}: the chain holds {head}: {held}" if held else f"{path}: the chain does not hold {head}: this is "
              "not the file those results were published from, or it was changed since")
    if found.faults or held == "":
        return 1
    print(f"{path}: sound: schema {found.version}, {found.results} results that count ({found.versions} versions), "
          f"a chain of {found.entries} changes, head {found.head or '(empty)'}")
    return 0


def _sqlite_file(path: Path) -> bool:
    """The file starts as every SQLite database does (whatever follows may be damaged)."""
    try:
        with path.open("rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _head(text: str | None) -> str | None:
    if text is None:
        return None
    t = text.strip().lower()
    if not 12 <= len(t) <= 64 or any(c not in "0123456789abcdef" for c in t):
        raise UsageError(f"--head {text!r}: a chain head is 12 to 64 hexadecimal digits, as published")
    return t


def _holds(conn: sqlite3.Connection, head: str) -> str:
    """"" when no entry of the chain has that digest; else how many changes came after it."""
    row = conn.execute("SELECT id FROM ledger WHERE digest LIKE ? || '%' ORDER BY id LIMIT 1", (head,)).fetchone()
    if row is None:
        return ""
    after = int(conn.execute("SELECT count(*) FROM ledger WHERE id > ?", (row[0],)).fetchone()[0])
    return "the latest change" if not after else f"{after} change{'s' if after > 1 else ''} made after it"
