"""An event's pairs sections as a USEBIO 1.2 file: the club, the event, each section's pairs with their players, its
boards' travellers with their points, and the hand records; checked against tenace.usebio's schema before it is
written."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from lxml import etree

import tenace
from tenace.reports.event_results import EventResults, SectionResults
from tenace.reports.model import Adjustment, Pair, RankingLine, TravellerLine
from tenace.scoring import codec
from tenace.scoring.model import Artificial
from tenace.store.names import Member, pair_players, roster
from tenace.store.queries import current_in, states
from tenace.usebio.schema import check

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'  # as the real files declare it
# The report's method as USEBIO's EVENT_TYPE and the name of a traveller line's points.
_KINDS = {"mp": ("MP_PAIRS", "MATCH_POINTS"), "butler": ("BUTLER_PAIRS", "BUTLER_POINTS"),
          "cross-imps": ("CROSS_IMP", "CROSS_IMP_POINTS")}
_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}


class UsebioError(ValueError):
    """What the event holds that USEBIO 1.2 cannot say: one line for the TD."""


@dataclass(frozen=True)
class Extras:
    """What USEBIO holds that the report model does not carry: who each pair is ((section, pair number, 'NS'/'EW'/'')
    -> two player numbers), the roster, and the opening leads keyed ((section, board, table, round) -> "SK")."""

    pairs: Mapping[tuple[str, int, str], tuple[int, int]] = field(default_factory=dict)
    members: Mapping[int, Member] = field(default_factory=dict)
    leads: Mapping[tuple[str, int, int, int], str] = field(default_factory=dict)


def event_extras(conn: sqlite3.Connection, sections: Sequence[str]) -> Extras:
    """The players of the sections' pairs (the director's, else keyed at the tables), the club's roster, and the
    leads of the results that count now; inside the caller's read transaction."""
    pairs = {(s, number, direction): players for s in sections
             for (number, direction), players in pair_players(conn, s).items()}
    leads = {(s, v.board, v.table, v.round): v.lead for s in sections for v in current_in(states(conn, s))
             if v.lead and v.kind == "normal"}
    return Extras(pairs, roster(conn), leads)


@dataclass
class Written:
    """What the file holds, for the TD's one line, and what was left out of it."""

    sections: int = 0
    pairs: int = 0
    lines: int = 0
    notes: list[str] = field(default_factory=list)


def usebio_tree(results: EventResults, sections: Sequence[SectionResults], extras: Extras, club: str,
                club_id: str | None = None, chain_head: str = "") -> tuple[etree._ElementTree, Written]:
    """The sections as a USEBIO 1.2 tree, checked against the schema; UsebioError for what cannot be written."""
    return usebio_document(results.info.title, results.info.date, sections, extras, club, club_id, chain_head)


def usebio_document(title: str, date: str, sections: Sequence[SectionResults], extras: Extras, club: str,
                    club_id: str | None = None, chain_head: str = "", sessions: int = 1
                    ) -> tuple[etree._ElementTree, Written]:
    """The sections of an event named `title`, played on `date` (YYYY-MM-DD), as a USEBIO 1.2 tree, checked against
    the schema; UsebioError for what cannot be written. Shared by the event file's export, the hub's and a
    championship's (its `sessions`' sections, each its own SECTION)."""
    written = Written()
    methods = {s.report.method for s in sections}
    for s in sections:
        _writable(s)
    if len(methods) > 1:
        raise UsebioError("the sections are scored differently: write one --section at a time")
    event_type, points = _KINDS[methods.pop()]
    root = etree.Element("USEBIO", Version="1.2")
    if chain_head:
        # A comment cannot hold "--": the option is named in words.
        root.append(etree.Comment(f" Tenace event file chain head: {chain_head} (tenace check EVENT with the head "
                                  "option says whether an event file is the one published) "))
    c = _sub(root, "CLUB")
    _sub(c, "CLUB_NAME", club)
    if club_id is not None:
        _sub(c, "CLUB_ID_NUMBER", club_id)
    event = _sub(root, "EVENT", EVENT_TYPE=event_type)
    _sub(event, "EVENT_DESCRIPTION", title)
    _sub(event, "PROGRAM_NAME", "Tenace")
    _sub(event, "PROGRAM_VERSION", tenace.__version__)
    two_fields = all(any(line.field for line in s.report.ranking) for s in sections)
    _sub(event, "WINNER_TYPE", "2" if two_fields else "1")
    year, month, day = date.split("-")
    _sub(event, "DATE", f"{day}/{month}/{year}")
    _sub(event, "SESSION_COUNT", str(sessions))
    _sub(event, "SECTION_COUNT", str(len(sections)))
    if event_type != "MP_PAIRS":
        _sub(event, "SCORING_METHOD", "IMPS")
    for s in sections:
        # One section straight in EVENT, as the real files have it; several, each in its SECTION (scorer-to-usebio).
        parent = event if len(sections) == 1 else _sub(event, "SECTION", SECTION_ID=s.section)
        _section(parent, s, event_type, points, extras, written)
    deals = _deals(sections)
    if deals:
        handset = _sub(root, "HANDSET")
        for board, deal in sorted(deals.items()):
            _hand_record(_sub(handset, "BOARD"), board, deal)
    tree = etree.ElementTree(root)
    check(tree, "the USEBIO export")  # a bug of this writer, if ever: refused rather than published
    written.sections = len(sections)
    return tree, written


def usebio_bytes(tree: etree._ElementTree) -> bytes:
    """The file as written: UTF-8 with its declaration and the DOCTYPE of the real files, indented."""
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", pretty_print=True, doctype=DOCTYPE)


def _writable(s: SectionResults) -> None:
    if s.matches or s.report.method == "teams":
        raise UsebioError(f"section {s.section} is a team event: tenace writes USEBIO for pairs events only "
                          "(--pbn writes a team match)")
    if s.report.settings.get("ranked") == "players":
        raise UsebioError(f"section {s.section} is an individual: tenace writes USEBIO for pairs events only")
    if s.report.method not in _KINDS:
        raise UsebioError(f"section {s.section} is scored by {s.report.method}, which USEBIO cannot say")
    if not s.report.ranking:
        raise UsebioError(f"section {s.section} has no results yet: there is nothing to write")


def _sub(parent: etree._Element, tag: str, text: str | None = None, **attrib: str) -> etree._Element:
    element = etree.SubElement(parent, tag, attrib)
    if text is not None:
        element.text = text
    return element


def _number(pair: Pair) -> str:
    """A pair as USEBIO numbers it: "3NS", "3EW" in a Mitchell, "3" in a Howell."""
    return f"{pair.number}{pair.direction or ''}"


def _section(parent: etree._Element, s: SectionResults, event_type: str, points: str, extras: Extras,
             written: Written) -> None:
    participants = _sub(parent, "PARTICIPANTS", EVENT_TYPE=event_type)
    for line in s.report.ranking:
        _pair(_sub(participants, "PAIR"), s.section, line, event_type, extras, written)
        written.pairs += 1
    for board in s.report.boards:
        lines = [t for t in board.lines if not t.not_played]  # a board not played has no line, as in the files
        if not lines:
            continue
        b = _sub(parent, "BOARD", EVENT_TYPE=event_type)
        _sub(b, "BOARD_NUMBER", str(board.board))
        if event_type == "BUTLER_PAIRS":
            if board.datum is None:
                raise UsebioError(f"section {s.section} board {board.board}: no Butler datum to write")
            _sub(b, "BOARD_AVERAGE", str(board.datum))
        for t in lines:
            lead = extras.leads.get((s.section, board.board, t.table or 0, t.round or 0))
            _line(_sub(b, "TRAVELLER_LINE"), s.section, board.board, t if t.lead or not lead else replace(t, lead=lead),
                  points)
            written.lines += 1


def _pair(p: etree._Element, section: str, line: RankingLine, event_type: str, extras: Extras,
          written: Written) -> None:
    pair = line.pair
    _sub(p, "PAIR_NUMBER", _number(pair))
    _sub(p, "DIRECTION", pair.direction or "")
    total = line.mp if event_type == "MP_PAIRS" else line.imps
    if total is None:
        raise UsebioError(f"section {section} pair {pair.label}: no total to write")
    _sub(p, "TOTAL_SCORE", _total(total, f"section {section} pair {pair.label}"))
    if event_type == "MP_PAIRS" and line.percent is not None:
        _sub(p, "PERCENTAGE", f"{line.percent.quantize(Decimal('0.01'))}")
    _sub(p, "PLACE", line.rank.rstrip("="))
    if line.penalty:
        # Law 90: already out of TOTAL_SCORE and PERCENTAGE; said here so that a reader sees what was taken.
        _sub(p, "ADJUSTMENT", _plain(-line.penalty))
    numbers = extras.pairs.get((section, int(pair.number), pair.direction or ""))
    for number in numbers or ():
        _player(_sub(p, "PLAYER"), number, extras.members.get(number), written)


def _player(p: etree._Element, number: int, member: Member | None, written: Written) -> None:
    if member is not None:
        _sub(p, "PLAYER_NAME", member.name)
    _sub(p, "NATIONAL_ID_NUMBER", str(number))  # the member number keyed at the table, the roster's number
    if member is not None and member.club_id:
        if member.club_id.isascii() and member.club_id.isdigit():
            _sub(p, "CLUB_ID_NUMBER", member.club_id)
        else:
            written.notes.append(f"player {number}'s club id {member.club_id!r} is not a number: left out "
                                 "(USEBIO's CLUB_ID_NUMBER)")


def _total(value: Decimal, what: str) -> str:
    """A total with two decimals as the files write it, up to four when a Law 90 penalty in % of a top left more."""
    if value != value.quantize(Decimal("0.0001")):
        raise UsebioError(f"{what}: the total {value} has more than four decimals")
    text = f"{value.quantize(Decimal('0.01'))}"
    return text if Decimal(text) == value else f"{value.quantize(Decimal('0.0001'))}"


def _plain(value: Decimal) -> str:
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _line(x: etree._Element, section: str, board: int, t: TravellerLine, points: str) -> None:
    where = f"section {section} board {board} table {t.table}"
    if t.ns is None or t.ew is None:
        raise UsebioError(f"{where}: a traveller line without its two pairs")
    _sub(x, "NS_PAIR_NUMBER", _number(t.ns))
    _sub(x, "EW_PAIR_NUMBER", _number(t.ew))
    if t.adjustment is not None:
        if t.adjustment.weights and points != "MATCH_POINTS":
            # A reader takes a SCORE for a played one, into the datum; Butler keeps an assigned score out of it.
            raise UsebioError(f"{where}: an assigned score ({t.adjustment.text}) has no USEBIO form at IMPs (a "
                              "line's SCORE is read as played, into the datum): --pbn writes it")
        _sub(x, "SCORE", _adjusted(t.adjustment, where))
    elif t.passed_out:
        # Passed out as the files write it: PASS, "by" North, no tricks, no score.
        _sub(x, "CONTRACT", "PASS")
        _sub(x, "PLAYED_BY", "N")
        _sub(x, "TRICKS", "0")
        _sub(x, "SCORE", "0")
    else:
        if t.contract is None or t.declarer is None or t.tricks is None or t.ns_score is None:
            raise UsebioError(f"{where}: a played result without its contract, declarer, tricks and score")
        _sub(x, "CONTRACT", t.contract)
        _sub(x, "PLAYED_BY", t.declarer)
        if t.lead:
            _sub(x, "LEAD", _lead(t.lead))
        _sub(x, "TRICKS", str(t.tricks))
        _sub(x, "SCORE", str(t.ns_score))
    ns, ew = (t.mp_ns, t.mp_ew) if points == "MATCH_POINTS" else (t.imp_ns, t.imp_ew)
    if ns is None or ew is None:
        raise UsebioError(f"{where}: a result without its points")
    _sub(x, f"NS_{points}", _plain(ns))
    _sub(x, f"EW_{points}", _plain(ew))


def _adjusted(a: Adjustment, where: str) -> str:
    """A director's score as the files write it: "A6040", the two sides' percentages NS then EW (Law 12C2), or an
    assigned score (Law 12C1(b)) as NS's score."""
    if a.weights:
        # "1:420": one score of weight 1, assigned (tenace.scoring.codec.weighted_text).
        if a.ew_weights or not (a.weights.startswith("1:") and " " not in a.weights):
            what = "split score" if a.ew_weights else "weighted score"
            raise UsebioError(f"{where}: a {what} ({a.text}) has no USEBIO form (a line holds one score, or an "
                              "artificial score's two percentages): --pbn writes it")
        return str(int(a.weights[2:]))
    sides = [codec.percent(codec.side(side)) for side in (a.ns, a.ew)]
    if any(p.denominator != 1 or p >= 100 for p in sides):
        raise UsebioError(f"{where}: the artificial score {a.text} has no USEBIO form (whole percentages "
                          "below 100: A6040)")
    # Written as two percentages, the score is read back by the one codec: 60, 50 and 40 both ways are averages.
    if codec.from_percentages(*sides) != Artificial(codec.side(a.ns), codec.side(a.ew)):
        raise UsebioError(f"{where}: the artificial score {a.text} has no USEBIO form (A{int(sides[0]):02d}"
                          f"{int(sides[1]):02d} is read as average plus, average or average minus, Law 12C2(c))")
    return f"A{int(sides[0]):02d}{int(sides[1]):02d}"


def _lead(card: str) -> str:
    """Tenace's lead, suit then rank ("SK", "H10"), as the files write it: rank then suit ("KS", "TH")."""
    rank = card[1:].upper().replace("10", "T")
    return f"{rank}{card[0].upper()}"


def _deals(sections: Sequence[SectionResults]) -> dict[int, str]:
    """One hand record a board for the file's HANDSET: the sections' own; refused when two sections deal a board
    differently (a USEBIO file has one hand set)."""
    deals: dict[int, str] = {}
    where: dict[int, str] = {}
    for s in sections:
        for board, hand in s.hands.items():
            if board in deals and deals[board] != hand.deal:
                raise UsebioError(f"sections {where[board]} and {s.section} hold different deals for board {board}: "
                                  "a USEBIO file has one hand set, write one --section at a time")
            deals.setdefault(board, hand.deal)
            where.setdefault(board, s.section)
    return deals


def _hand_record(b: etree._Element, board: int, deal: str) -> None:
    """A deal ("N:AKQ.JT9.876.5432 ...", PBN's, from North) as the files hold it: East, North, South, West."""
    first = "NESW".index(deal[0])
    hands = dict(zip("NESW"[first:] + "NESW"[:first], deal[2:].split(" "), strict=True))
    _sub(b, "BOARD_NUMBER", str(board))
    for seat in "ENSW":
        h = _sub(b, "HAND")
        _sub(h, "DIRECTION", _SEATS[seat])
        spades, hearts, diamonds, clubs = hands[seat].split(".")
        for tag, cards in (("CLUBS", clubs), ("DIAMONDS", diamonds), ("HEARTS", hearts), ("SPADES", spades)):
            _sub(h, tag, cards)
