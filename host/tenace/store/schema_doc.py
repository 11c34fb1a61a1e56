"""The event file's current schema as Markdown (docs/schema.md): every migration applied to an in-memory database,
then its tables, indexes and triggers read back from sqlite_schema, normalised."""

from __future__ import annotations

import re
import sqlite3
import textwrap
from dataclasses import dataclass

from tenace.store.db import migrate
from tenace.store.schema import APPLICATION_ID

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r"""
    (?P<space>\s+|--[^\n]*|/\*.*?\*/)     # whitespace and comments: one space
  | (?P<quoted>'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])
  | (?P<word>[A-Za-z0-9_.$]+)
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)


@dataclass(frozen=True)
class SchemaObject:
    """One entry of sqlite_schema: a table, an index or a trigger, with its SQL normalised for reading."""

    kind: str
    name: str
    table: str
    sql: str


def _tokens(sql: str) -> list[str]:
    """The SQL's tokens, comments and whitespace runs each one " ", quoted text kept as written."""
    out: list[str] = []
    for m in _TOKEN.finditer(sql):
        token = " " if m.lastgroup == "space" else m.group()
        if token == " " and (not out or out[-1] == " "):
            continue
        out.append(token)
    while out and out[-1] == " ":
        out.pop()
    return out


def _joined(tokens: list[str]) -> str:
    """Tokens as one line: no space inside parentheses or before a comma or semicolon."""
    text = ""
    for i, token in enumerate(tokens):
        if token == " " and (i == 0 or tokens[i - 1] == "(" or i + 1 == len(tokens)
                             or tokens[i + 1] in (")", ",", ";")):
            continue
        text += token
    return text.strip()


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """Tokens cut at each `separator` outside parentheses."""
    parts: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        depth += (token == "(") - (token == ")")
        if token == separator and depth == 0:
            parts.append([])
        else:
            parts[-1].append(token)
    return [p for p in parts if _joined(p)]


def _unquoted(token: str) -> str:
    """A table's name as `ALTER TABLE ... RENAME` leaves it ("name"), without the quotes it does not need."""
    if token[:1] == '"' and _WORD.fullmatch(token[1:-1]):
        return token[1:-1]
    return token


def normalised(kind: str, sql: str) -> str:
    """The SQL of a schema entry laid out the same way whatever the migrations did to its text: a table one column
    or constraint a line, a trigger one statement a line, an index on one line; comments left out."""
    tokens = _tokens(sql)
    if kind == "table" and "(" in tokens:
        start = tokens.index("(")
        depth, end = 0, start
        for end in range(start, len(tokens)):
            depth += (tokens[end] == "(") - (tokens[end] == ")")
            if depth == 0:
                break
        head = [_unquoted(t) for t in tokens[:start]]
        items = [_joined(p) for p in _split(tokens[start + 1:end], ",")]
        tail = _joined(tokens[end + 1:])
        return f"{_joined(head)} (\n" + ",\n".join(f"    {item}" for item in items) + f"\n){' ' + tail if tail else ''}"
    if kind == "trigger" and "BEGIN" in (t.upper() for t in tokens):
        begin = [t.upper() for t in tokens].index("BEGIN")
        body = tokens[begin + 1:]
        if body and body[-1].upper() == "END":
            body = body[:-1]
        statements = [_joined(s) for s in _split(body, ";")]
        return f"{_joined(tokens[:begin])}\nBEGIN\n" + "".join(f"    {s};\n" for s in statements) + "END"
    return _joined(tokens)


def current_schema() -> tuple[int, list[SchemaObject]]:
    """The schema version the migrations reach and what they make, tables first, each by name; the indexes SQLite
    makes itself for a UNIQUE or PRIMARY KEY (no SQL of their own) left out."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        version = migrate(conn)
        return version, schema_objects(conn)
    finally:
        conn.close()


def schema_objects(conn: sqlite3.Connection) -> list[SchemaObject]:
    """A database's tables, views, indexes and triggers, normalised, tables first, each by name (indexes SQLite makes
    itself, with no SQL of their own, left out): what an event file's schema is compared by (tenace check)."""
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL "
                        "AND type IN ('table', 'index', 'trigger', 'view')").fetchall()
    order = {"table": 0, "view": 1, "index": 2, "trigger": 3}
    objects = [SchemaObject(kind, name, table, normalised(kind, sql)) for kind, name, table, sql in rows]
    return sorted(objects, key=lambda o: (o.table, order[o.kind], o.name))


def schema_markdown() -> str:
    """docs/schema.md: each table with its indexes and triggers, as the migrations leave a new event file."""
    version, objects = current_schema()
    tables = [o for o in objects if o.kind == "table"]
    about = (
        f"An event file is one SQLite database: `PRAGMA application_id` {APPLICATION_ID:#x} (\"TENA\") tells it "
        f"apart from any other, `PRAGMA user_version` {version} is its schema version. This is what the "
        f"{version} migrations of `host/tenace/store/schema.py` make, applied in turn to a new file; an older file "
        "is brought to the same by `tenace.store.connect`. The comments beside each statement are in the "
        "migrations. Only `host/tenace/store/` reads or writes these tables.")
    listed = f"{len(tables)} tables: " + ", ".join(f"[`{t.name}`](#{t.name})" for t in tables) + "."
    lines = [
        "# The event file's schema",
        "",
        "<!-- Generated by tools/schema_doc.py from host/tenace/store/schema.py: do not edit by hand. -->",
        "",
        _wrapped(about),
        "",
        _wrapped(listed),
    ]
    for table in tables:
        lines += ["", f"## {table.name}", "", "```sql", table.sql + ";"]
        lines += [o.sql + ";" for o in objects if o.table == table.name and o.kind != "table"]
        lines.append("```")
    return "\n".join(lines) + "\n"


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=110, break_long_words=False, break_on_hyphens=False)
