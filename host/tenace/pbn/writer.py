"""PBN 2.1 writer: games as tags, data sections and aligned tables (ScoreTable, TotalScoreTable)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TextIO

from tenace.pbn.reader import PbnColumn, PbnGame, PbnTable

HEADER = "% PBN 2.1\n% EXPORT\n"


def quote(value: str) -> str:
    # A lone backslash stays as it is (column specs need it); only quotes are escaped.
    return '"' + value.replace('"', '\\"') + '"'


def quote_text(value: str) -> str:
    """A value of free text (a name, an event's title) quoted: backslashes and quotes escaped, and a control
    character or line break (which would end the line a PBN reader reads) as a space."""
    flat = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in value)
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cell(value: str, column: PbnColumn) -> str:
    # Strings with spaces (names) and empty values must be quoted; "-" stays bare for "no value".
    text = value if value and not any(ch.isspace() or ch in '"[]{};\\' or not ch.isprintable() for ch in value) \
        else quote_text(value)
    width = max(column.width or 0, len(text))
    return text.rjust(width) if column.align == "R" else text.ljust(width)


def table_lines(table: PbnTable) -> list[str]:
    spec = ";".join(c.spec() for c in table.columns)
    lines = [f"[{table.name} {quote(spec)}]"]
    for row in table.rows:
        if len(row) != len(table.columns):
            raise ValueError(f"{table.name}: a row has {len(row)} cells for {len(table.columns)} columns")
        lines.append(" ".join(_cell(v, c) for v, c in zip(row, table.columns, strict=True)).rstrip())
    return lines


def game_lines(game: PbnGame) -> list[str]:
    lines: list[str] = []
    for name, value in game.tags.items():
        if name in game.tables:
            lines.extend(table_lines(game.tables[name]))
        else:
            lines.append(f"[{name} {quote_text(value)}]")
            lines.extend(game.sections.get(name, []))
    for name, table in game.tables.items():
        if name not in game.tags:
            lines.extend(table_lines(table))
    return lines


def commentary(lines: Iterable[str]) -> str:
    """PBN commentary: the lines in one { } block (a brace in them made a parenthesis, which cannot end it early)."""
    text = "\n".join(line.replace("{", "(").replace("}", ")") for line in lines)
    return f"{{{text}}}\n" if text else ""


def write_pbn(games: Iterable[PbnGame], out: TextIO, comment: Iterable[str] = ()) -> None:
    """Write games to a text stream (open it with encoding="utf-8": PBN 2.1 is UTF-8), the `comment` lines as a
    commentary before the first game."""
    out.write(HEADER)
    out.write(commentary(comment))
    for game in games:
        out.write("\n".join(game_lines(game)))
        out.write("\n\n")
