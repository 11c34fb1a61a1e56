"""A result row read back from the event file, checked as if it came off the wire: what is wrong with it, if anything.

The file is evidence, and anything can have changed it since it was written (a failing disk, a bit flipped, an edit
with sqlite3): a row is re-validated by the collector's own checks (types, ranges, the movement) and its score
re-derived by Law 77 from its contract, declarer, tricks and the board's vulnerability. A row that fails is damaged:
it is named to the director and never scored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from tenace.scoring.model import weight_parts
from tenace.store.errors import StoreError
from tenace.store.model import IncomingResult
from tenace.store.validate import MAX_REVISION, MAX_TERMINAL, Bad, entry_of, show, text, whole

# A stored row's fields after the checks, beside what the row holds: any difference is damage.
_COMPARED = ("section", "table", "round", "board", "ns_pair", "ew_pair", "kind", "contract", "declarer", "tricks",
             "lead", "ns_score", "ns_adjust", "ew_adjust", "weights", "ew_weights")
_SOURCES = ("terminal", "director")
# A column's kind for `sound`: ("int", low, high), ("text", longest), ("choice", *values), ("time",), ("fraction",).
Column = tuple[object, ...]
# The movement at a table in a round: (NS pair, EW pair, the boards played there).
Seat = tuple[int, int, frozenset[int]]
# The row's fields that entry_of checks, as a message from a table would carry them.
_MESSAGE = ("section", "table", "round", "board", "ns_pair", "ew_pair", "kind", "contract", "declarer", "tricks",
            "lead", "ns_adjust", "ew_adjust")


def damage(row: Mapping[str, object], seats: Mapping[tuple[str, int, int], Seat]) -> str:
    """What is wrong with a stored result row ("" when nothing is). `row` has the result table's columns (table_no as
    "table"); `seats` maps (section, table, round) to the movement's (NS pair, EW pair, boards)."""
    try:
        _check(row, seats)
    except Bad as e:
        return str(e)
    return ""


def _check(row: Mapping[str, object], seats: Mapping[tuple[str, int, int], Seat]) -> None:
    whole(row["version"], "version", 1, 1_000_000, "")
    source = row["source"]
    if source not in _SOURCES:
        raise Bad("", f"source must be terminal or director, not {show(source)}")
    text(row["who"], "who", 200, "")
    at = row["at"]
    if type(at) is not str or len(at) > 40 or not _is_time(at):
        raise Bad("", f"the time it was entered, {show(at)}, is not a time")
    if row["why"] is not None:
        text(row["why"], "why", 2000, "")
    if source == "terminal":
        whole(row["terminal"], "terminal id", 0, MAX_TERMINAL, "")
        whole(row["revision"], "revision", 0, MAX_REVISION, "")
    fields: dict[str, Any] = {name: row[name] for name in _MESSAGE}
    message = IncomingResult(terminal=0, sequence=0, **fields)
    entry = entry_of(message, from_terminal=False, weights=_weights(row["weights"], "weights"),
                     ew_weights=_weights(row["ew_weights"], "East-West's weights"))
    for name in _COMPARED:
        stored, checked = row[name], getattr(entry, name)
        if name == "kind":
            checked = str(checked)
        if name == "ns_score" and row["kind"] in ("normal", "passed_out") and stored != checked:
            raise Bad("", f"NS score {show(stored)} is not the Law 77 score of {entry.contract or 'a passed-out board'}"
                          f"{' by ' + str(entry.declarer) if entry.declarer else ''}"
                          f"{', ' + str(entry.tricks) + ' tricks' if entry.tricks is not None else ''}"
                          f" (NS {checked:+d})")
        if stored != checked or type(stored) is not type(checked):
            raise Bad("", f"{name} {show(stored)} is not as stored by Tenace (it reads as {show(checked)})")
    seat = seats.get((entry.section, entry.table, entry.round))
    if seat is None:
        raise Bad("", f"section {entry.section} has no table {entry.table} in round {entry.round}")
    ns_pair, ew_pair, boards = seat
    if entry.board not in boards:
        raise Bad("", f"board {entry.board} is not played at table {entry.table} in round {entry.round}")
    if (entry.ns_pair, entry.ew_pair) != (ns_pair, ew_pair):
        raise Bad("", f"the pairs NS {entry.ns_pair} v EW {entry.ew_pair} are not the movement's "
                      f"(NS {ns_pair} v EW {ew_pair})")


def _weights(value: object, name: str) -> tuple[tuple[Fraction, int], ...] | None:
    """A stored weighted score ("3/5:620 2/5:-100") as its components, for entry_of to check again."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 400:
        raise Bad("", f"{name} must be text such as 3/5:620 2/5:-100, not {show(value)}")
    try:
        return weight_parts(value)
    except (ValueError, ZeroDivisionError):
        raise Bad("", f"{name} {show(value)} are not weight:NS score pairs") from None


class DamagedFile(StoreError):
    """A row of the event file that Tenace did not write as it reads now: named, refused as a whole."""

    def __init__(self, table: str, key: object, what: str) -> None:
        super().__init__(f"the event file is damaged: {table} {show(key)}: {what} (tenace check lists what is wrong)")


def sound(table: str, key: object, column: str, value: object, kind: Column) -> None:
    """DamagedFile unless a stored value is of its column's kind: ("int", low, high), ("text", longest),
    ("choice", values...), ("time",), ("fraction",); a kind ending in "?" also takes None."""
    name, *limits = kind
    assert isinstance(name, str)
    if name.endswith("?"):
        if value is None:
            return
        name = name[:-1]
    ok = False
    if name == "int":
        ok = type(value) is int and limits[0] <= value <= limits[1]  # type: ignore[operator]
    elif name == "text":
        ok = type(value) is str and 0 < len(value) <= limits[0] and value.isprintable()  # type: ignore[operator]
    elif name == "choice":
        ok = value in limits
    elif name == "time":
        ok = type(value) is str and len(value) <= 40 and _is_time(value)
    elif name == "fraction":
        ok = type(value) is str and len(value) <= 20 and _is_fraction(value)
    if not ok:
        raise DamagedFile(table, key, f"{column} is {show(value)}")


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _is_fraction(text: str) -> bool:
    try:
        return Fraction(text) >= 0
    except (ValueError, ZeroDivisionError):
        return False


def checked_rows(table: str, columns: Mapping[str, Column], rows: Iterable[Sequence[Any]]) -> list[Sequence[Any]]:
    """The rows read from `table`, each value checked against its column's kind (`sound`); the first value is the
    row's key, as a refusal names it."""
    out = []
    for row in rows:
        for (column, kind), value in zip(columns.items(), row, strict=True):
            sound(table, row[0], column, value, kind)
        out.append(row)
    return out
