"""The chain of every change in an event file, each entry hashed with the one before.

The triggers of schema version 13 add an entry for every row written, changed or deleted in a table of schema.CHAINED
(the results' versions, the director's actions, the movement, names, deals), and a later version's in
schema.CHAINED_LATER (the roster's figures), inside the transaction that writes it; this module gives them their hash
function and checks the chain: an entry whose digest does not follow from the one before, a row whose columns are no
longer what was chained last (named by field), a row nobody chained (added with the triggers dropped) and a chained
row that is gone."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass

from tenace.store.schema import CHAINED, CHAINED_LATER

# The registered name the triggers call.
DIGEST_FUNCTION = "tenace_digest"


def digest(previous: str, content: str) -> str:
    """SHA-256, in hex, of the previous entry's digest ("" for the first) and this entry's content."""
    return hashlib.sha256(f"{previous}\n{content}".encode()).hexdigest()


def register(conn: sqlite3.Connection) -> None:
    """Give a connection the function the chain's triggers call (every connection that may write)."""
    conn.create_function(DIGEST_FUNCTION, 2, digest, deterministic=True)


def head(conn: sqlite3.Connection) -> str:
    """The chain's latest digest: it stands for the whole file's history up to now ("" before anything is written)."""
    row = conn.execute("SELECT digest FROM ledger ORDER BY id DESC LIMIT 1").fetchone()
    return str(row[0]) if row is not None and row[0] is not None else ""


def changes_after(conn: sqlite3.Connection, published: str) -> int | None:
    """How many entries came after the one whose digest starts with `published` (a head as published: 12 or more
    hex digits); None when the chain has no such entry."""
    row = conn.execute("SELECT id FROM ledger WHERE digest LIKE ? || '%' ORDER BY id LIMIT 1", (published,)).fetchone()
    if row is None:
        return None
    return int(conn.execute("SELECT count(*) FROM ledger WHERE id > ?", (row[0],)).fetchone()[0])


@dataclass(frozen=True)
class Break:
    """Something in the file that the chain does not vouch for: where (a table and a row's key) and what."""

    source: str
    key: str
    what: str

    def __str__(self) -> str:
        key = self.key.strip("[]").replace(",", " ").replace('"', "")
        return f"{self.source} {key}: {self.what}"


def check(conn: sqlite3.Connection) -> tuple[list[Break], int]:
    """Every break in the chain and in the rows it covers, and how many entries it has."""
    breaks: list[Break] = []
    latest: dict[tuple[str, str], object] = {}  # each row's latest chained content (None: deleted)
    previous = ""
    count = 0
    for entry_id, source, key, content, found in conn.execute(
            "SELECT id, source, key, content, digest FROM ledger ORDER BY id"):
        count += 1
        text = content if isinstance(content, str) else ascii(content)
        expected = digest(previous, text)
        if found != expected:
            breaks.append(Break("ledger", str(entry_id), f"the digest of the entry for {source} {key} does not follow "
                                "from the entry before it: the chain itself was changed"))
        previous = found if isinstance(found, str) else expected
        latest[(str(source), str(key))] = _parsed(text)
    for table, key_columns, columns in CHAINED + CHAINED_LATER:
        for row in conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key_columns)}"):
            values = list(row)
            key = _key([values[columns.index(c)] for c in key_columns])
            was = latest.pop((table, key), None)
            if was is None:
                breaks.append(Break(table, key, "is in no entry of the chain: it was added outside Tenace"))
            else:
                breaks.extend(Break(table, key, what) for what in _differences(columns, values, was))
    breaks.extend(Break(source, key, "was chained and is no longer in the file: it was deleted outside Tenace")
                  for (source, key), was in latest.items() if was is not None)
    return breaks, count


def _key(values: list[object]) -> str:
    """A row's key as the triggers write it (json_array of the key columns, compact)."""
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False, default=repr)


def _parsed(content: str) -> object:
    """An entry's content as chained: the row's column values, None for a deleted row, "" when unreadable."""
    try:
        return json.loads(content)
    except ValueError:
        return ""


def _differences(columns: tuple[str, ...], values: list[object], chained: object) -> list[str]:
    """Each column whose value is not the one chained, named with both values."""
    if not isinstance(chained, list) or len(chained) != len(columns):
        return ["its chained content is unreadable: the chain itself was changed"]
    return [f"{column} is {_shown(now)}, chained as {_shown(was)}"
            for column, now, was in zip(columns, values, chained, strict=True)
            if now != was or type(now) is not type(was)]


def _shown(value: object) -> str:
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."
