"""PBN reader: games as tags plus tables (ScoreTable, TotalScoreTable...), UTF-8 or Latin-1.

Hand-written because no maintained PyPI library reads PBN 2.1 tables (endplay reads deals, not score
tables); it follows the PBN 2.1 standard: tags, inherited "#" values, column specs `Name\\width` + align.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_COLUMN = re.compile(r"^([+-]?)([^\\]+?)(?:\\(\d+)([LR]?))?$")


class PbnError(ValueError):
    """A PBN file that cannot be read, with the line it stopped at."""


@dataclass(frozen=True)
class PbnColumn:
    name: str
    width: int | None = None
    align: str = ""  # "L", "R" or "" (unspecified)
    sort: str = ""  # "+" ascending, "-" descending, "" none

    def spec(self) -> str:
        """The column as written in a table tag: `Score_NS\\6R`."""
        tail = f"\\{self.width}{self.align}" if self.width is not None else ""
        return f"{self.sort}{self.name}{tail}"


@dataclass
class PbnTable:
    name: str
    columns: list[PbnColumn]
    rows: list[list[str]] = field(default_factory=list)
    # The file line each row starts on (empty for a table built in memory), for messages.
    lines: list[int] = field(default_factory=list)
    # Lines left out because their cells do not fill whole rows: (file line, why), when the others do.
    unread: list[tuple[int, str]] = field(default_factory=list)

    def line_of(self, index: int) -> int | None:
        """The file line of row `index` (0-based), when known."""
        return self.lines[index] if index < len(self.lines) else None

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def records(self) -> list[dict[str, str]]:
        names = self.column_names()
        return [dict(zip(names, row, strict=True)) for row in self.rows]


@dataclass
class PbnGame:
    tags: dict[str, str] = field(default_factory=dict)
    tables: dict[str, PbnTable] = field(default_factory=dict)
    # Raw data lines after non-table tags (Auction, Play, Note...), keyed by tag name.
    sections: dict[str, list[str]] = field(default_factory=dict)
    line: int = 0  # where the game starts in the file, for messages

    def tag(self, name: str, default: str = "") -> str:
        return self.tags.get(name, default)


def decode_pbn(data: bytes) -> str:
    """PBN files come as UTF-8 (PBN 2.1) or Latin-1 (older exporters); a BOM or valid UTF-8 wins."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_pbn(path: Path | str) -> list[PbnGame]:
    """All games of a PBN file, with inherited ("#") tag values resolved."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PbnError(f"cannot read {path}: {e.strerror}") from None
    games = pbn_games(data)
    log.info("read %d games from %s", len(games), path)
    return games


def pbn_games(data: bytes, empty: str = "an empty file: there is nothing to score") -> list[PbnGame]:
    """All games of a PBN file's bytes (read from a file or standard input); `empty` is the message for no text."""
    if b"\0" in data:  # no text encoding PBN allows has NUL bytes: an image, an archive, a UTF-16 file
        raise PbnError("a binary file, not PBN text")
    text = decode_pbn(data)
    if not text.strip():
        raise PbnError(empty)
    games = parse_pbn(text)
    if not games:
        raise PbnError("no game in it, only comments: not a PBN results file")
    return games


def parse_column(spec: str) -> PbnColumn:
    m = _COLUMN.match(spec.strip())
    if not m:
        raise PbnError(f"bad table column {spec!r}")
    sort, name, width, align = m.groups()
    return PbnColumn(name=name, width=int(width) if width else None, align=align or "", sort=sort)


def _unescape(text: str) -> str:
    # Only \" and \\ are escapes: column specs hold literal backslashes (Score_NS\6R).
    return re.sub(r'\\(["\\])', r"\1", text)


def _tokens(line: str) -> list[str]:
    return [_unescape(q) if q is not None else w for q, w in (m.groups() for m in _TOKEN.finditer(line))]


def _is_table(name: str, value: str) -> bool:
    # PBN 2.1 tables: a tag named ...Table whose value lists columns ("Name\\width" joined by ";").
    return name.endswith("Table") and (";" in value or "\\" in value)


def _strip_comments(lines: list[str]) -> list[tuple[int, str]]:
    """Drop `%` escape lines, `;` line comments and `{...}` commentary (which may span lines)."""
    out: list[tuple[int, str]] = []
    in_brace = False
    for number, raw in enumerate(lines, start=1):
        if not in_brace and raw.startswith("%"):
            out.append((number, ""))
            continue
        kept = []
        in_quote = False
        for ch in raw:
            if in_brace:
                in_brace = ch != "}"
                continue
            if ch == '"':
                in_quote = not in_quote
            elif not in_quote and ch == "{":
                in_brace = True
                continue
            elif not in_quote and ch == ";":
                break
            kept.append(ch)
        out.append((number, "".join(kept).rstrip()))
    return out


def parse_pbn(text: str) -> list[PbnGame]:
    games: list[GameBuilder] = []
    current: GameBuilder | None = None
    for number, line in _strip_comments(text.splitlines()):
        stripped = line.strip()
        if not stripped:
            if current is not None:
                current.close_section()
                current = None
            continue
        if stripped.startswith("["):
            if current is None:
                current = GameBuilder(number, games[-1].game if games else None)
                games.append(current)
            rest = stripped
            while rest.startswith("["):
                m = _TAG.match(rest)
                if not m:
                    raise PbnError(f"line {number}: malformed tag {stripped!r}")
                current.add_tag(m[1], _unescape(m[2]), number)
                rest = rest[m.end():].strip()
            if rest:
                current.add_data(rest, number)
        elif current is not None:
            current.add_data(stripped, number)
        elif not games:  # text before any tag: not a PBN file at all (notes, a CSV, a spreadsheet export)
            raise PbnError(f"not a PBN file: line {number} is not a PBN tag such as [Event \"...\"]: "
                           f"{stripped[:40]!r}")
        else:
            raise PbnError(f"line {number}: data outside a game: {stripped[:40]!r}")
    if current is not None:
        current.close_section()
    return [g.game for g in games]


class GameBuilder:
    """Collects one game's tags and the data lines that follow each tag."""

    def __init__(self, line: int, previous: PbnGame | None) -> None:
        self.game = PbnGame(line=line)
        self.previous = previous
        self.section: str | None = None
        self.pending: list[tuple[int, str]] = []  # (file line, data)
        self.inherited = False
        self.line = line

    def add_tag(self, name: str, value: str, line: int) -> None:
        self.close_section()
        self.inherited = value == "#" and self.previous is not None
        if self.previous is not None and self.inherited:
            value = self.previous.tags.get(name, "")
            if name in self.previous.tables:
                self.game.tables[name] = self.previous.tables[name]
        self.game.tags[name] = value
        self.section = name
        self.line = line

    def add_data(self, line: str, number: int) -> None:
        if self.section is None:
            raise PbnError(f"line {number}: data before any tag")
        self.pending.append((number, line))

    def close_section(self) -> None:
        name, lines = self.section, self.pending
        self.section, self.pending = None, []
        if name is None:
            return
        value = self.game.tags[name]
        if self.inherited and not lines:
            return
        if _is_table(name, value):
            self.game.tables[name] = _table(name, [parse_column(c) for c in value.split(";") if c.strip()], lines,
                                            self.line)
        elif lines:
            self.game.sections[name] = [text for _, text in lines]


def _table(name: str, columns: list[PbnColumn], lines: list[tuple[int, str]], tag_line: int) -> PbnTable:
    """A table's rows from its data lines. PBN lets a row run over several lines, so the cells are one stream;
    when they do not fill whole rows but most lines hold whole rows, the other lines are left out (`unread`)."""
    width = len(columns)
    cells = [(number, tok) for number, line in lines for tok in _tokens(line)]
    if len(cells) % width == 0:
        return PbnTable(name, columns, [[tok for _, tok in cells[i:i + width]] for i in range(0, len(cells), width)],
                        [cells[i][0] for i in range(0, len(cells), width)])
    table = PbnTable(name, columns)
    for number, line in lines:
        tokens = _tokens(line)
        if len(tokens) % width:
            cells_text = f"{len(tokens)} cell{'s' if len(tokens) != 1 else ''}"
            table.unread.append((number, f"{cells_text} where [{name}] has {width} columns"))
            continue
        for i in range(0, len(tokens), width):
            table.rows.append(tokens[i:i + width])
            table.lines.append(number)
    if not table.rows:  # no line holds whole rows: the rows run over lines, and which cell is missing is unknown
        raise PbnError(f"line {tag_line}: [{name}] has {len(cells)} cells, not a multiple of its {width} columns")
    return table
