"""A list of pairs and their players as a director types or pastes it, a pair a line, read against the roster."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tenace.director.errors import DirectorInputError
from tenace.director.pairs import Pair, pair_label, parse_pair
from tenace.store.names import MAX_NUMBER, Member

_CELLS = re.compile(r"[,;\t]")
# Two players written in one cell: "Ann Archer - Bob Baker" (as Tenace prints a pair), "Ann & Bob", "Ann and Bob".
_JOINED = re.compile(r"\s+(?:-|–|&|and)\s+|\s*/\s*|(?<=\d)-(?=\d)", re.IGNORECASE)
_HEADERS = {"pair", "pairs", "player", "players", "name", "names"}


@dataclass(frozen=True)
class NamedPair:
    pair: Pair
    players: tuple[int, int]
    line: int


@dataclass(frozen=True)
class LineError:
    line: int
    error: DirectorInputError


def read_pair_list(text: str, seats: Mapping[str, Sequence[Pair]], section: str | None,
                   members: Mapping[int, Member]) -> tuple[list[NamedPair], list[LineError]]:
    """The pairs a list names and the lines it could not read.

    A line is a pair and its two players ("NS 3, 101, Bob Baker"; "A-EW 7; Ann Archer - Bob Baker"), or the two
    players alone, who are then the next pair of `section` (of the only section when None; `seats` has each
    section's pairs in order) that no line names. A player is a member number or a name in the roster (any case).
    Blank lines and lines starting with # are passed over, and a first line of headings ("pair, players")."""
    sections = list(seats)
    by_name: dict[str, list[int]] = {}
    for m in members.values():
        by_name.setdefault(_folded(m.name), []).append(m.number)
    named: list[NamedPair] = []
    unplaced: list[tuple[int, tuple[int, int]]] = []
    errors: list[LineError] = []
    for line, raw in enumerate(text.splitlines(), 1):
        cells = [c.strip() for c in _CELLS.split(raw) if c.strip()]
        if not cells or cells[0].startswith("#") or (not named and not unplaced and not errors
                                                     and cells[0].casefold() in _HEADERS):
            continue
        try:
            label, players = _split(cells)
            numbers = (_member(players[0], by_name), _member(players[1], by_name))
            if label is None:
                unplaced.append((line, numbers))
            else:
                # "B-NS 1" names its own section, whatever --section says for the lines without a pair.
                pair = parse_pair(label, sections, None if "-" in label else section)
                if pair not in seats[pair.section]:
                    raise DirectorInputError("pairs", "section {section} has no pair {label}", section=pair.section,
                                             label=pair_label(pair, len(sections) > 1))
                named.append(NamedPair(pair, numbers, line))
        except DirectorInputError as e:
            errors.append(LineError(line, e))
    taken: dict[Pair, int] = {}
    for p in named:
        if p.pair in taken:
            errors.append(LineError(p.line, DirectorInputError(
                "pairs", "{label} is named on line {first} already", label=pair_label(p.pair, len(sections) > 1),
                first=str(taken[p.pair]))))
        taken.setdefault(p.pair, p.line)
    if unplaced and section is None and len(sections) > 1:
        errors.extend(LineError(line, DirectorInputError(
            "section", "the event has sections {sections}: write the pair (\"A-NS 3, ...\") or give {section}",
            sections=", ".join(sections))) for line, _ in unplaced)
        unplaced = []
    order = seats[section or sections[0]] if unplaced else []
    free = iter([s for s in order if s not in taken])
    for line, numbers in unplaced:
        seat = next(free, None)
        if seat is None:
            errors.append(LineError(line, DirectorInputError(
                "pairs", "one pair too many: the section has {count} pairs", count=str(len(order)))))
        else:
            named.append(NamedPair(seat, numbers, line))
    return sorted(named, key=lambda p: p.line), sorted(errors, key=lambda e: e.line)


def _split(cells: list[str]) -> tuple[str | None, tuple[str, str]]:
    """(the pair's label or None, its two players) of a line's cells."""
    if len(cells) == 3:
        return cells[0], (cells[1], cells[2])
    if len(cells) == 2:
        joined = _JOINED.split(cells[1])
        if len(joined) == 2:
            return cells[0], (joined[0], joined[1])
        return None, (cells[0], cells[1])
    if len(cells) == 1:
        joined = _JOINED.split(cells[0])
        if len(joined) == 2:
            return None, (joined[0], joined[1])
    raise DirectorInputError("pairs", "a line is a pair and its two players (\"NS 3, 101, Bob Baker\") or the two "
                             "players alone, not {line}", line=repr(", ".join(cells)))


def member_number(text: str, members: Mapping[int, Member]) -> int:
    """A player as typed in one field: a member number, or a name in the roster (any case); DirectorInputError
    ("pairs") saying why not."""
    by_name: dict[str, list[int]] = {}
    for m in members.values():
        by_name.setdefault(_folded(m.name), []).append(m.number)
    return _member(text.strip(), by_name)


def _member(text: str, by_name: Mapping[str, list[int]]) -> int:
    if text.isdigit():
        if not 1 <= int(text) <= MAX_NUMBER:
            raise DirectorInputError("pairs", "a member number is 1 to {max}, not {number}", max=str(MAX_NUMBER),
                                     number=text)
        return int(text)
    found = by_name.get(_folded(text), [])
    if len(found) == 1:
        return found[0]
    if not found:
        raise DirectorInputError("pairs", "{name} is not in the roster: give the member number or import the roster "
                                 "first", name=repr(text))
    raise DirectorInputError("pairs", "{count} members are called {name}: give the number ({numbers})",
                             count=str(len(found)), name=repr(text), numbers=", ".join(map(str, sorted(found))))


def _folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())
