"""USEBIO 1.2 reader: a pairs event's participants and travellers as `tenace score` rescores them.

The standard library's expat parser is driven by hand (no lxml needed to read): it never fetches the DTD the
files name, and a document that declares entities (internal or external, the "billion laughs" and XXE routes) is
refused before anything is expanded. Only what scoring needs is read into dataclasses; the element tree is kept
so that `rewrite` can write the file back with only the computed elements changed.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from xml.parsers import expat

from tenace.scoring import codec
from tenace.scoring.model import BoardResult, Outcome, Played

log = logging.getLogger(__name__)

# A club's USEBIO file is under a megabyte (a 40-table, 36-board event a few MB); far more is not an event.
MAX_BYTES = 64 * 1024 * 1024

# EVENT_TYPE -> the `tenace score` method that rescores it (Compscore3 names the method in the type).
METHODS = {"MP_PAIRS": "mp", "BUTLER_PAIRS": "butler", "CROSS_IMP": "cross-imps"}
# USEBIO's own pairs type (EBU's DTD: INDIVIDUAL, PAIRS, SWISS_PAIRS, TEAMS, SWISS_TEAMS), as other programs write
# it (scorer-to-usebio: "PAIRS"), with the method in BOARD_SCORING_METHOD or, without it, in the lines' points.
PAIRS = "PAIRS"
SCORING_METHODS = {"MATCH_POINTS": "mp", "BUTLER_IMPS": "butler", "CROSS_IMPS": "cross-imps"}
# The element of a traveller line that holds each side's computed points, by method.
POINTS = {"mp": "MATCH_POINTS", "butler": "BUTLER_POINTS", "cross-imps": "CROSS_IMP_POINTS"}
# A pair number as writers spell it: "3NS" (Compscore3), "3 NS" (scorer-to-usebio), "NS 3", "3-EW", or "3".
_PAIR_NUMBER = re.compile(r"(?:(NS|EW)[\s-]*)?([A-Z]?\d+[A-Z]?)(?:[\s-]*(NS|EW))?")
_ROOT = re.compile(rb"<\s*USEBIO[\s>/]")


class UsebioError(ValueError):
    """A file that is not a USEBIO event `tenace score` can read, with why (one line)."""


@dataclass(frozen=True)
class Player:
    name: str
    national_id: str = ""


@dataclass(frozen=True)
class Participant:
    """A pair as PARTICIPANTS lists it, with the figures the file published for it."""

    number: str  # pair_key of PAIR_NUMBER: "3NS" in a Mitchell however written ("3 NS", or "3" and its DIRECTION)
    direction: str | None  # NS or EW in a Mitchell; None when DIRECTION is empty
    players: tuple[Player, ...]
    total: str | None = None  # TOTAL_SCORE as written
    percentage: str | None = None
    place: str | None = None
    adjustment: str | None = None  # ADJUSTMENT: the total less the boards' score ("-1.5": a Law 90 penalty)

    @property
    def names(self) -> str | None:
        named = [p.name for p in self.players if p.name]
        return " - ".join(named) if named else None

    @property
    def members(self) -> tuple[str, ...]:
        return tuple(p.national_id for p in self.players) if any(p.national_id for p in self.players) else ()


@dataclass(frozen=True)
class Line:
    """One TRAVELLER_LINE: who played, what, and the NS score or the artificial score's two percentages."""

    ns_pair: str
    ew_pair: str
    contract: str | None
    played_by: str | None
    lead: str | None
    tricks: int | None
    score: int | None  # NS's score; None for an artificial one
    artificial: tuple[Fraction, Fraction] | None  # (NS %, EW %) of an artificial score, "A6060" -> (60, 60)
    published_ns: str | None  # the computed points as the file wrote them (NS_MATCH_POINTS...)
    published_ew: str | None


@dataclass(frozen=True)
class UsebioBoard:
    number: int
    lines: tuple[Line, ...]
    board_average: str | None = None  # Butler's datum as written (BOARD_AVERAGE)


@dataclass(frozen=True)
class UsebioEvent:
    """A USEBIO pairs event: what `tenace score` ranks, plus the tree `rewrite` writes back."""

    event_type: str
    method: str  # mp, butler or cross-imps
    title: str
    program: str  # PROGRAM_NAME: whose conventions produced the published figures
    participants: tuple[Participant, ...]
    boards: tuple[UsebioBoard, ...]
    tree: ET.ElementTree
    # Every pair's TOTAL_SCORE is its PERCENTAGE (scorer-to-usebio writes so), not its MPs: written back the same way.
    total_is_percentage: bool = False

    @property
    def mitchell(self) -> bool:
        return any(p.direction for p in self.participants)


def is_usebio(data: bytes) -> bool:
    """Whether `data` looks like a USEBIO file: an XML document whose first element is USEBIO (by content, not
    by the file's name). Only the head is looked at: the prolog and DOCTYPE come before the root."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        return False
    # The prolog: the XML declaration, comments, processing instructions and the DOCTYPE (no internal subset
    # with ">" in it is looked into: parse_tree refuses entity declarations anyway).
    body = re.sub(rb"<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>\[]*(\[.*?\])?\s*>", b"", head, flags=re.S).lstrip()
    return bool(_ROOT.match(body))


def read_usebio(path: Path) -> UsebioEvent:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise UsebioError(f"{size:,} bytes: a USEBIO event is far smaller (at most {MAX_BYTES:,} read)")
        data = path.read_bytes()
    except OSError as e:
        raise UsebioError(f"cannot read the file: {e.strerror or e}") from None
    return parse_usebio(data)


def parse_tree(data: bytes) -> ET.ElementTree:
    """The document's element tree, refusing what a scoring file never needs: entity declarations (their
    expansion is the billion-laughs and external-entity attack) and a document larger than MAX_BYTES."""
    if len(data) > MAX_BYTES:
        raise UsebioError(f"{len(data):,} bytes: a USEBIO event is far smaller (at most {MAX_BYTES:,} read)")
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()

    def refuse_entity(name: str, *_: object) -> None:
        raise UsebioError(f"it declares the entity {name!r}: a USEBIO file needs none, and they are not expanded")

    def start(tag: str, attrs: dict[str, str]) -> None:
        builder.start(tag, attrs)

    parser.EntityDeclHandler = refuse_entity
    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)  # the DTD is named, never read
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:
        raise UsebioError(f"not well-formed XML: {expat.ErrorString(e.code)} at line {e.lineno}, "
                          f"column {e.offset + 1}") from None
    return ET.ElementTree(builder.close())


def parse_usebio(data: bytes, section: str | None = None) -> UsebioEvent:
    """A USEBIO 1.2 pairs event from the file's bytes (of its one section, or of `section` where it has several
    <SECTION> elements, as tenace report --usebio writes them); a UsebioError (one line) for anything else."""
    if not is_usebio(data):
        raise UsebioError("not a USEBIO file: its root element is not <USEBIO>")
    tree = parse_tree(data)
    root = tree.getroot()
    if root is None or root.tag != "USEBIO":
        raise UsebioError(f"not a USEBIO file: its root element is <{getattr(root, 'tag', '')}>, not <USEBIO>")
    event = root.find("EVENT")
    if event is None:
        raise UsebioError("no <EVENT> under <USEBIO>: there is nothing to score")
    event_type = (event.get("EVENT_TYPE") or "").strip().upper()
    container = chosen_section(event, section)
    method = _method(event, event_type, container)
    participants = container.find("PARTICIPANTS")
    pairs = tuple(_participant(p, i) for i, p in enumerate(participants.findall("PAIR"), 1)) \
        if participants is not None else ()
    mitchell = any(p.direction for p in pairs)
    boards = tuple(_board(b, POINTS[method], mitchell) for b in container.findall("BOARD"))
    if not any(b.lines for b in boards):
        raise UsebioError("no <BOARD> with a <TRAVELLER_LINE>: there are no results to score")
    numbers = [b.number for b in boards]
    if len(set(numbers)) != len(numbers):
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        raise UsebioError(f"board {twice[0]} has two <BOARD> elements: one traveller per board")
    keys = [p.number for p in pairs]
    if len(set(keys)) != len(keys):
        raise UsebioError(f"pair {sorted({k for k in keys if keys.count(k) > 1})[0]} is in PARTICIPANTS twice")
    return UsebioEvent(event_type, method, _text(event, "EVENT_DESCRIPTION") or _text(event, "TITLE") or "",
                       _text(event, "PROGRAM_NAME") or "", pairs, boards, tree, _total_is_percentage(pairs))


def _method(event: ET.Element, event_type: str, container: ET.Element) -> str:
    """The method of the event: its EVENT_TYPE's (Compscore3's MP_PAIRS...), or a PAIRS event's BOARD_SCORING_METHOD,
    or, without one, the points its traveller lines carry (matchpoints when they carry none)."""
    if event_type in METHODS:
        return METHODS[event_type]
    if event_type != PAIRS:
        raise UsebioError(f"EVENT_TYPE {event_type!r} is not scored by tenace score (it scores "
                          f"{', '.join((*METHODS, PAIRS))})" if event_type
                          else "the <EVENT> has no EVENT_TYPE attribute")
    named = (_text(event, "BOARD_SCORING_METHOD") or "").upper()
    if named:
        if named not in SCORING_METHODS:
            raise UsebioError(f"BOARD_SCORING_METHOD {named!r} is not scored by tenace score (it scores "
                              f"{', '.join(SCORING_METHODS)})")
        return SCORING_METHODS[named]
    line = container.find("BOARD/TRAVELLER_LINE")
    for method, points in POINTS.items():
        if line is not None and line.find(f"NS_{points}") is not None:
            return method
    return "mp"


def _total_is_percentage(pairs: tuple[Participant, ...]) -> bool:
    """Whether every pair's TOTAL_SCORE is its PERCENTAGE, and some is not 0 (a file whose figures are all 0 says
    nothing)."""
    try:
        figures = [(Fraction(p.total), Fraction(p.percentage)) for p in pairs if p.total and p.percentage]
    except ValueError:
        return False
    return bool(pairs) and len(figures) == len(pairs) and all(t == q for t, q in figures) and any(
        t for t, _ in figures)


def pair_key(number: str, direction: str | None = None) -> str:
    """A pair number as the engine knows it, however the file writes it: "3NS", "3 NS", "NS 3" and "3" with the
    direction NS are all "3NS"; a Howell's "3" is "3"; anything else is kept as written."""
    text = number.strip().upper()
    found = _PAIR_NUMBER.fullmatch(text)
    if not found or (found[1] and found[3]):
        return number.strip()
    side = found[1] or found[3] or direction
    return f"{found[2]}{side}" if side else found[2]


def chosen_section(event: ET.Element, section: str | None) -> ET.Element:
    """The element holding the pairs and boards to score: the EVENT itself, or its SECTION named `section` (the
    only one when None)."""
    sections = event.findall("SECTION")
    ids = [s.get("SECTION_ID") or str(i) for i, s in enumerate(sections, 1)]
    if not sections:
        if section is not None:
            raise UsebioError(f"--section {section}: the file has no <SECTION>: leave --section out")
        return event
    if section is None:
        if len(sections) == 1:
            return sections[0]
        raise UsebioError(f"the file has sections {', '.join(ids)}: score one at a time with --section {ids[0]}")
    for found, name in zip(sections, ids, strict=True):
        if name.upper() == section.upper():
            return found
    raise UsebioError(f"--section {section}: the file has sections {', '.join(ids)}")


def _text(element: ET.Element, tag: str) -> str | None:
    found = element.find(tag)
    if found is None:
        return None
    return (found.text or "").strip()


def _required(element: ET.Element, tag: str, where: str) -> str:
    got = _text(element, tag)
    if not got:
        raise UsebioError(f"{where}: no <{tag}>")
    return got


def _participant(pair: ET.Element, index: int) -> Participant:
    number = _required(pair, "PAIR_NUMBER", f"PAIR {index} of PARTICIPANTS")
    direction = (_text(pair, "DIRECTION") or "").upper() or None
    if direction not in (None, "NS", "EW"):
        raise UsebioError(f"pair {number}: DIRECTION {direction!r} is not NS, EW or empty")
    players = tuple(Player(_text(p, "PLAYER_NAME") or "", _text(p, "NATIONAL_ID_NUMBER") or "")
                    for p in pair.findall("PLAYER"))
    key = pair_key(number, direction)
    if direction and not key.endswith(direction):
        raise UsebioError(f"pair {number}: its number says {key[-2:]}, its DIRECTION {direction}")
    return Participant(key, direction, players, _text(pair, "TOTAL_SCORE"), _text(pair, "PERCENTAGE"),
                       _text(pair, "PLACE"), _text(pair, "ADJUSTMENT"))


def _board(board: ET.Element, points: str, mitchell: bool) -> UsebioBoard:
    text = _required(board, "BOARD_NUMBER", "a <BOARD> of the EVENT")
    try:
        number = int(text)
    except ValueError:
        raise UsebioError(f"BOARD_NUMBER {text!r} is not a number") from None
    if number < 1:
        raise UsebioError(f"BOARD_NUMBER {number} is not 1 or more")
    lines = tuple(_line(line, number, i, points, mitchell)
                  for i, line in enumerate(board.findall("TRAVELLER_LINE"), 1))
    return UsebioBoard(number, lines, _text(board, "BOARD_AVERAGE"))


def _line(line: ET.Element, board: int, index: int, points: str, mitchell: bool) -> Line:
    """A traveller line; in a Mitchell, a pair number written without its direction ("3") is of the side it sat."""
    where = f"board {board} traveller line {index}"
    ns = pair_key(_required(line, "NS_PAIR_NUMBER", where), "NS" if mitchell else None)
    ew = pair_key(_required(line, "EW_PAIR_NUMBER", where), "EW" if mitchell else None)
    if ns == ew:
        raise UsebioError(f"{where}: pair {ns} cannot play against itself")
    score_text = _required(line, "SCORE", where)
    score: int | None = None
    artificial: tuple[Fraction, Fraction] | None = None
    found = codec.PERCENTAGES.fullmatch(score_text.upper())
    if found:
        artificial = (Fraction(int(found[1])), Fraction(int(found[2])))
    else:
        try:
            score = int(score_text)
        except ValueError:
            raise UsebioError(f"{where}: SCORE {score_text!r} is neither a score (-420) nor an artificial "
                              "score (A6040)") from None
        if score % 10:
            raise UsebioError(f"{where}: SCORE {score} is not a bridge score (a multiple of 10)")
    tricks_text = _text(line, "TRICKS")
    tricks = None
    if tricks_text:
        if not tricks_text.isdigit() or int(tricks_text) > 13:
            raise UsebioError(f"{where}: TRICKS {tricks_text!r} is not 0 to 13")
        tricks = int(tricks_text)
    return Line(ns, ew, _text(line, "CONTRACT") or None, _text(line, "PLAYED_BY") or None,
                _text(line, "LEAD") or None, tricks, score, artificial,
                _text(line, f"NS_{points}"), _text(line, f"EW_{points}"))


def outcome(line: Line) -> Outcome:
    """The line as the scoring engine takes it: a Law 77 score, or an artificial score's two percentages (read by
    tenace.scoring.codec)."""
    if line.artificial is not None:
        return codec.from_percentages(*line.artificial)
    assert line.score is not None
    return Played(line.score)


def artificial_by_points(event: UsebioEvent) -> UsebioEvent:
    """The event with each line that kept its played SCORE but was given an adjusted score's points read as that
    artificial score (scoring.mp_options.ArtificialLines.POINTS says when): on a board of E lines (the most any
    board has) with no artificial SCORE and some points written with decimals (factored: fewer than E results were
    compared), a line whose two points are written as whole numbers adding up to the top 2(E - 1)."""
    most = max(len(b.lines) for b in event.boards)
    top = 2 * (most - 1)
    boards = []
    for board in event.boards:
        if len(board.lines) != most or any(line.artificial for line in board.lines) or not any(
                "." in (line.published_ns or "") + (line.published_ew or "") for line in board.lines):
            boards.append(board)
            continue
        lines = []
        for line in board.lines:
            ns, ew = _whole(line.published_ns), _whole(line.published_ew)
            if top and ns is not None and ew is not None and ns + ew == top:
                line = replace(line, score=None, artificial=(Fraction(100 * ns, top), Fraction(100 * ew, top)))
            lines.append(line)
        boards.append(replace(board, lines=tuple(lines)))
    return replace(event, boards=tuple(boards))


def _whole(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def board_results(event: UsebioEvent) -> list[BoardResult]:
    """Every traveller line as a BoardResult (one section; the line's place on the traveller is its table)."""
    return [BoardResult("", table, 1, board.number, line.ns_pair, line.ew_pair, outcome(line))
            for board in event.boards for table, line in enumerate(board.lines, 1)]
