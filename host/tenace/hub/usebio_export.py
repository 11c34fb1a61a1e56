"""The released sim as USEBIO 1.2 (tenace.reports.event_usebio's writer): the whole field as one section scored across
the nation, or one club's sections scored against the club's own field; nothing before release."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import psycopg
from lxml import etree

from tenace.hub import field
from tenace.hub.exports import released_sim
from tenace.reports.event_results import SectionResults
from tenace.reports.event_usebio import Extras, UsebioError, usebio_bytes, usebio_document
from tenace.reports.model import HandRecord, Pair
from tenace.reports.session import Play, session_report
from tenace.scoring.model import BoardResult, Penalty
from tenace.scoring.pairs_session import SessionScore, score_pairs_session
from tenace.usebio.schema import check

log = logging.getLogger(__name__)

FIELD_SECTION = "field"  # the national field's one section (named in messages only: one section has no SECTION_ID)


def sim_usebio(conn: psycopg.Connection[Any], sim: str, club: str | None = None) -> bytes | None:
    """The USEBIO file of the sim's whole field (of one club when `club` is given); None before release or for a
    sim or club the hub does not have; UsebioError (one line) for what USEBIO 1.2 cannot say."""
    with conn.transaction():
        # One snapshot: the slots read here and the results field.load reads are of the same moment.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        sim_row = released_sim(conn, sim)
        if sim_row is None:
            return None
        name, scoring = sim_row
        club_name = None
        if club is not None:
            found = conn.execute("SELECT name FROM clubs WHERE sim = %s AND club = %s", (sim, club)).fetchone()
            if found is None:
                return None
            club_name = str(found[0])
        if scoring != "mp":
            raise UsebioError(f"USEBIO export of a {scoring} sim: not yet (the hub scores its field by matchpoints "
                              "only)")
        results, penalties = field.load(conn, sim, club)
        bodies = {(f"{c}/{b['section']}", int(b["table"]), int(b["round"]), int(b["board"])): b
                  for c, b in conn.execute("SELECT club, body FROM slots WHERE sim = %s AND (%s::text IS NULL OR "
                                           "club = %s) AND outcome IS NOT NULL", (sim, club, club))}
        hands = {int(board): HandRecord(str(deal)) for board, deal in
                 conn.execute("SELECT board, deal FROM deals WHERE sim = %s", (sim,))}
        heat = conn.execute("SELECT min(starts_at) FROM heats WHERE sim = %s", (sim,)).fetchone()
    date = heat[0].date().isoformat() if heat and heat[0] is not None else "1970-01-01"
    # Each result at a table number of its own across the export (the i-th result at table i): clubs and sections
    # share table numbers, and what was played at a table is found again by it; a table's number takes no part in
    # matchpointing.
    every = [replace(r, table=i) for i, r in enumerate((r for rs in results.values() for r in rs), start=1)]
    slots = {i: bodies[r.section, r.table, r.round, r.board]
             for i, r in enumerate((r for rs in results.values() for r in rs), start=1)}
    taken = [p for ps in penalties.values() for p in ps]
    if not every:
        raise UsebioError(f"{'club ' + club if club else 'the field'} of sim {sim} has no results: there is nothing "
                          "to write")
    if club is None:
        sections = [_national(every, taken, slots, hands)]
        title, who = str(name), str(name)
    else:
        sections = _club(every, taken, slots, hands)
        title, who = f"{name}: {club_name}", str(club_name)
    extras = Extras(leads={key: lead for s in sections for key, lead in s.leads.items()})
    tree, _ = usebio_document(title, date, [s.results for s in sections], extras, who)
    _name_pairs(tree, sections)
    if club is None:  # a comment cannot hold two hyphens: the option is named in words
        tree.getroot().insert(0, etree.Comment(" The hub's national field, one section: tenace score FILE with the "
                                               "hub preset gives back its figures (its totals add the boards' exact "
                                               "matchpoints) "))
    check(tree, "the hub's USEBIO export")  # with its comments: checked again before it is served
    log.info("sim %s%s: USEBIO export of %d results", sim, f" club {club}" if club else "", len(every))
    return usebio_bytes(tree)


@dataclass(frozen=True)
class Section:
    """A section to write, with the opening leads of its lines and the hub's id of each of its USEBIO pairs."""

    results: SectionResults
    leads: dict[tuple[str, int, int, int], str]  # (section, board, table, round) -> "SK", as Extras keys them
    hub_ids: dict[str, str]  # "7NS" -> "c0001/A3NS"


Slots = Mapping[int, dict[str, Any]]  # each exported result's slot as pushed, by its table number in the export


def _national(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord]) -> Section:
    """The whole field as ONE section: `tenace score` (tenace.usebio.reader) compares a section's results on a board
    with each other, one traveller a board, so only a single section gives back the national matchpoints (a SECTION
    per club-section would be read back as so many fields of their own). Its pairs are numbered 1, 2... over the
    field by (club, section, number), a Mitchell's keeping NS and EW ("7NS", "7EW") as USEBIO numbers them."""
    ids = {p: field.PairId.parse(p) for r in every for p in (r.ns_pair, r.ew_pair)}
    keys = sorted({(pid.club, pid.section, pid.number) for pid in ids.values()})
    number = {key: i for i, key in enumerate(keys, start=1)}
    pairs = {p: Pair(str(number[pid.club, pid.section, pid.number]), pid.field or None) for p, pid in ids.items()}
    return _section(FIELD_SECTION, score_pairs_session(every, field.NATIONAL, taken), pairs, slots, hands)


def _club(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord]) -> list[Section]:
    """The club's results scored as field.club_ranking scores them (field.CLUB: each section its own field, the
    places over the club), written a SECTION per club-section with the club's own pair numbers (one section:
    straight in EVENT, as the real files have it; several: `tenace score --section A` reads each)."""
    session = score_pairs_session(every, field.CLUB, taken)
    ids = {p: field.PairId.parse(p) for r in every for p in (r.ns_pair, r.ew_pair)}
    out = []
    for name in sorted({pid.section for pid in ids.values()}):
        pairs = {p: Pair(str(pid.number), pid.field or None) for p, pid in ids.items() if pid.section == name}
        own = replace(session, boards=tuple(b for b in session.boards if b.results and b.results[0].ns_pair in pairs),
                      totals={p: t for p, t in session.totals.items() if p in pairs},
                      ranking=tuple(p for p in session.ranking if p.pair in pairs))
        out.append(_section(name, own, pairs, slots, hands))
    return out


def _section(name: str, session: SessionScore, pairs: dict[str, Pair], slots: Slots,
             hands: dict[int, HandRecord]) -> Section:
    """One section's report (scoring's session_report) with what was played at each table and its lead."""
    plays: dict[tuple[int, int], Play] = {}
    leads: dict[tuple[str, int, int, int], str] = {}
    for board in session.boards:
        for r in board.results:
            body = slots[r.table]
            if body["kind"] == "passed_out":
                plays[r.board, r.table] = ("Pass", None, None)
            elif body["kind"] == "normal":
                plays[r.board, r.table] = (body["contract"], body["declarer"], body["tricks"])
                if body.get("lead"):
                    leads[name, r.board, r.table, r.round] = str(body["lead"])
    report = session_report(session, pairs, "mp", plays=plays)
    lines = sum(len(b.results) for b in session.boards)
    results = SectionResults(name, report, lines, lines, 0, tuple(b.board for b in session.boards), hands=hands)
    return Section(results, leads, {f"{pairs[p].number}{pairs[p].direction or ''}": p for p in session.totals})


def _name_pairs(tree: etree._ElementTree, sections: Sequence[Section]) -> None:
    """Each PAIR says which of the hub's pairs it is, in a comment after its number (USEBIO has no element for a
    pair's own id; a comment is outside the schema, and every reader passes over it)."""
    root = tree.getroot()
    containers = root.findall("EVENT/SECTION") or root.findall("EVENT")
    for container, section in zip(containers, sections, strict=True):
        for pair in container.iterfind("PARTICIPANTS/PAIR"):
            hub = section.hub_ids.get(pair.findtext("PAIR_NUMBER") or "")
            if hub is not None:
                pair.insert(1, etree.Comment(f" hub pair {hub} "))
