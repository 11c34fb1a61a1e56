"""A club's roster as a CSV file (number, name, optional club id, masterpoints, handicap, e-mail): read leniently,
every bad row named."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from tenace.store.names import MAX_NUMBER, Member, plain

# An address a club's SMTP server can take: one @, no space, a dot in the domain (the server says the rest).
EMAIL = re.compile(r"[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;.]+")


@dataclass(frozen=True)
class Skipped:
    line: int
    why: str


def read_roster(text: str) -> tuple[list[Member], list[Skipped]]:
    """The members of a roster CSV (comma, semicolon or tab separated; a header row is passed over) and the
    rows left out, with their line and why. A number given twice keeps its first row."""
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    members: list[Member] = []
    skipped: list[Skipped] = []
    seen: dict[int, int] = {}
    reader = csv.reader(io.StringIO(text), dialect)
    end = 0
    for row in reader:
        line, end = end + 1, reader.line_num  # a row's first line: a quoted cell may run over several
        cells = [unicodedata.normalize("NFC", c.strip()) for c in row]
        if not any(cells):
            continue
        if not cells[0].isdigit():
            if line == 1 and not members:
                continue  # a header row: "number,name,club id"
            skipped.append(Skipped(line, f"the player number {cells[0]!r} is not a whole number"))
            continue
        number = int(cells[0])
        name = cells[1] if len(cells) > 1 else ""
        club_id = cells[2] if len(cells) > 2 and cells[2] else None
        try:
            masterpoints, handicap = (_figure(cells[i]) if len(cells) > i else None for i in (3, 4))
        except ValueError as e:
            skipped.append(Skipped(line, f"player {number}: {e}"))
            continue
        email = cells[5] if len(cells) > 5 and cells[5] else None
        if email is not None and (len(email) > 254 or not EMAIL.fullmatch(email)):
            skipped.append(Skipped(line, f"player {number}: {email!r} is not an e-mail address"))
            continue
        if not 1 <= number <= MAX_NUMBER:
            skipped.append(Skipped(line, f"a player number is 1 to {MAX_NUMBER}, not {number}"))
        elif not name:
            skipped.append(Skipped(line, f"player {number} has no name"))
        elif len(name) > 80 or (club_id is not None and len(club_id) > 40):
            skipped.append(Skipped(line, f"player {number}: a name is at most 80 characters, a club id 40"))
        elif not plain(name) or (club_id is not None and not plain(club_id)):
            skipped.append(Skipped(line, f"player {number}: a name or club id holds a line break or a control "
                                         "character"))
        elif number in seen:
            skipped.append(Skipped(line, f"player {number} again (line {seen[number]} is kept)"))
        else:
            seen[number] = line
            members.append(Member(number, name, club_id, masterpoints, handicap, email))
    return members, skipped


def _figure(cell: str) -> Decimal | None:
    """An optional number of the roster (masterpoints 1234.5, handicap -3 or 2.5); None for an empty cell."""
    if not cell:
        return None
    try:
        value = Decimal(cell)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or abs(value) >= 10**7:
        raise ValueError(f"masterpoints and handicaps are numbers, not {cell!r}")
    return value
