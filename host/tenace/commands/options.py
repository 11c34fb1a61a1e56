"""Checks shared by the subcommands' options: each refusal is a UsageError naming the option as typed."""

from __future__ import annotations

import argparse
import math
import os
import sqlite3
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tenace.errors import UsageError
from tenace.movement import MovementError
from tenace.store import StoreError, connect

# A movement's figures as the command-line options that set them (tenace demo, event new, sim).
MOVEMENT_OPTIONS = {"tables": "--tables", "boards_per_round": "--boards-per-round", "rounds": "--boards"}


def movement_error(e: MovementError, options: Mapping[str, str] = MOVEMENT_OPTIONS) -> UsageError:
    return UsageError(f"{options.get(e.figure, e.figure)}: {e}")


def in_range(option: str, value: float, low: float | None = None, high: float | None = None,
             unit: str = "") -> None:
    """UsageError unless low <= value <= high (either bound may be open); NaN and infinity are never in range."""
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"{option} must be a finite number, not {value}")
    unit = f" {unit}" if unit else ""
    shown = f"{value:g}" if isinstance(value, float) else str(value)  # -1, not -1.0, when -1 was typed
    if low is not None and high is not None and not low <= value <= high:
        raise UsageError(f"{option} is {low} to {high}{unit}, not {shown}")
    if low is not None and value < low:
        raise UsageError(f"{option} is {low} or more, not {shown}")
    if high is not None and value > high:
        raise UsageError(f"{option} is at most {high}{unit}, not {shown}")


def output_file(option: str, path: Path, *, not_same_as: Path | None = None) -> None:
    """UsageError unless `path` can be written as a file: not a folder, its folder there and writable,
    and not the input file (`not_same_as`), which would be overwritten by its own rewrite."""
    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder: give a file name")
    if not_same_as is not None and path.exists() and not_same_as.exists() and path.samefile(not_same_as):
        raise UsageError(f"{option} {path} is the input file: give another name (it would be overwritten)")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {path}: not allowed to write there")


def read_text_option(option: str, source: str | Path, save_as: str, stdin: bool = False) -> str:
    """The text of the file an option names (UTF-8, a byte order mark passed over; '-' standard input when `stdin`);
    UsageError naming the option and the file when it cannot be read. `save_as` says how to save it instead: "the
    roster as CSV, UTF-8"."""
    try:
        if stdin and str(source) == "-":
            return sys.stdin.read()
        return Path(source).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{option} {source}: not UTF-8 text (save {save_as})") from None
    except OSError as e:
        raise UsageError(f"{option} {source}: cannot read it: {e.strerror or e}") from None


def output_folder(option: str, path: Path) -> None:
    """Make the folder `path` (and its parents) if new; UsageError when that cannot be, saying why."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"{option} {path} is a file, not a folder: give a folder (it is made if new)") from None
    except NotADirectoryError:
        raise UsageError(f"{option} {path}: a part of that path is a file, not a folder") from None
    except OSError as e:
        raise UsageError(f"{option} {path}: cannot make that folder: {e.strerror or e}") from None
    if not os.access(path, os.W_OK):
        raise UsageError(f"{option} {path}: not allowed to write in that folder")


def cannot_write(option: str, path: Path, e: OSError) -> UsageError:
    """The refusal for a write that failed anyway (a full disk, a read-only file system)."""
    return UsageError(f"{option} {path}: cannot write it: {e.strerror or e}")


def add_event_file(p: argparse.ArgumentParser, what: str = "the event file") -> None:
    """The event file as a positional EVENT, the same for every command; `--db EVENT` is accepted as its alias (the
    older form of `tenace collect`, `problems` and `event`). Read back with event_file(args)."""
    p.add_argument("event", type=Path, nargs="?", metavar="EVENT", help=f"{what} (e.g. club.sqlite)")
    p.add_argument("--db", type=Path, metavar="EVENT", help="an alias of EVENT (the older form): give one or the other")
    p.set_defaults(event_usage=f"{p.prog} EVENT")


@contextmanager
def open_event(path: Path) -> Iterator[sqlite3.Connection]:
    """The event file open, closed after; a file that is none and the store's faults as one line each."""
    try:
        conn = connect(path)
    except StoreError as e:
        raise UsageError(str(e)) from None
    try:
        yield conn
    except (StoreError, sqlite3.DatabaseError) as e:
        raise UsageError(f"{path}: {e}") from None
    finally:
        conn.close()


def given_event_file(args: argparse.Namespace) -> Path | None:
    """The event file named by EVENT or --db, None when neither; UsageError when both are given."""
    if args.event is not None and args.db is not None:
        raise UsageError(f"the event file given twice ({args.event} and --db {args.db}): give it once, as EVENT "
                         "(--db is its older alias)")
    path: Path | None = args.event if args.event is not None else args.db
    return path


def event_file(args: argparse.Namespace) -> Path:
    """The event file named by EVENT or --db; UsageError when neither or both are given."""
    path = given_event_file(args)
    if path is None:
        usage = getattr(args, "event_usage", "tenace COMMAND EVENT")
        raise UsageError(f"name the event file: {usage} (e.g. club.sqlite)")
    return path
