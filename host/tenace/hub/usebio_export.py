"""The released sim as USEBIO 1.2 (tenace.reports.event_usebio's writer): the whole field as one section scored across
the nation, or one club's sections scored against the club's own field, by matchpoints or in IMPs (Butler,
cross-IMPs) as the sim is scored; nothing before release."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

import psycopg
from lxml import etree

from tenace.hub import field, field_imps, queries
from tenace.hub.exports import released_sim
from tenace.reports.event_results import SectionResults
from tenace.reports.event_usebio import Extras, UsebioError, usebio_bytes, usebio_document
from tenace.reports.model import EW, NS, Board, HandRecord, Pair, RankingLine, Report
from tenace.reports.session import Play, session_report, traveller_line
from tenace.scoring.imp_pairs_session import BoardKey
from tenace.scoring.imp_results import ImpLine
from tenace.scoring.model import BoardResult, Penalty, Split, Weighted
from tenace.scoring.pairs_session import SessionScore, score_pairs_session
from tenace.scoring.rounding import Rounding, to_decimal
from tenace.usebio.schema import check
from tenace_rules.board import dealer, vulnerability

log = logging.getLogger(__name__)

FIELD_SECTION = "field"  # the national field's one section (named in messages only: one section has no SECTION_ID)


def sim_usebio(conn: psycopg.Connection[Any], sim: str, club: str | None = None) -> bytes | None:
    """The USEBIO file of the sim's whole field (of one club when `club` is given); None before release or for a
    sim or club the hub does not have; UsebioError (one line) for what USEBIO 1.2 cannot say."""
    with conn.transaction():
        # One snapshot: the slots read here and the results field.load reads are of the same moment.
        queries.repeatable_read(conn)
        sim_row = released_sim(conn, sim)
        if sim_row is None:
            return None
        name, scoring = sim_row
        club_name = None
        if club is not None:
            club_name = queries.club_name(conn, sim, club)
            if club_name is None:
                return None
        if scoring != "mp" and scoring not in field_imps.SCORINGS:
            raise UsebioError(f"sim {sim} is scored by {scoring}, which USEBIO cannot say")
        results, penalties = field.load(conn, sim, club)
        bodies = {(f"{c}/{b['section']}", int(b["table"]), int(b["round"]), int(b["board"])): b
                  for c, b in queries.scored_slots(conn, sim, club)}
        hands = {int(board): HandRecord(str(deal)) for board, deal in
                 ((d[0], d[3]) for d in queries.deals(conn, sim))}
        heat = queries.first_heat(conn, sim)
    date = heat.date().isoformat() if heat is not None else "1970-01-01"
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
    if scoring != "mp":
        _refuse_assigned(every, slots)
    if club is None:
        sections = [_national(every, taken, slots, hands) if scoring == "mp"
                    else _imp_national(every, taken, slots, hands, scoring)]
        title, who = str(name), str(name)
    else:
        sections = (_club(every, taken, slots, hands) if scoring == "mp"
                    else _imp_club(every, taken, slots, hands, scoring))
        title, who = f"{name}: {club_name}", str(club_name)
    extras = Extras(leads={key: lead for s in sections for key, lead in s.leads.items()})
    tree, _ = usebio_document(title, date, [s.results for s in sections], extras, who)
    _name_pairs(tree, sections)
    if club is None:  # the hub's options are tenace score's defaults
        tree.getroot().insert(0, etree.Comment(f" The hub's national field, one section, {_SCORED[scoring]}: "
                                               "tenace score FILE gives back its figures "))
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


_SCORED = {"mp": "matchpointed (Neuberg where a board has fewer results)",
           "butler": "Butler-scored (each board's datum the mean of its results without the top and bottom one, "
                     "rounded to 10)",
           "cross-imps": "cross-IMPed (every result against every other, IMPs per comparison)"}


def _field_pairs(every: list[BoardResult]) -> dict[str, Pair]:
    """The field's pairs numbered 1, 2... by (club, section, number), a Mitchell's keeping NS and EW."""
    ids = {p: field.PairId.parse(p) for r in every for p in (r.ns_pair, r.ew_pair)}
    keys = sorted({(pid.club, pid.section, pid.number) for pid in ids.values()})
    number = {key: i for i, key in enumerate(keys, start=1)}
    return {p: Pair(str(number[pid.club, pid.section, pid.number]), pid.field or None) for p, pid in ids.items()}


def _national(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord]) -> Section:
    """The whole field as ONE section: `tenace score` (tenace.usebio.reader) compares a section's results on a board
    with each other, one traveller a board, so only a single section gives back the national matchpoints (a SECTION
    per club-section would be read back as so many fields of their own). Its pairs are numbered 1, 2... over the
    field by (club, section, number), a Mitchell's keeping NS and EW ("7NS", "7EW") as USEBIO numbers them."""
    return _section(FIELD_SECTION, score_pairs_session(every, field.NATIONAL, taken), _field_pairs(every), slots,
                    hands)


def _club(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord]) -> list[Section]:
    """The club's results scored as club_field.club_ranking scores them (field.CLUB: each section its own field, the
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


def _refuse_assigned(every: list[BoardResult], slots: Slots) -> None:
    """An assigned (Law 12C1) score at IMPs stays out of the comparisons and the datum, but a USEBIO line holds it as
    a score, which a reader compares like any other: refused in one line (the PBN export has it)."""
    for r in every:
        if isinstance(r.outcome, Weighted | Split):
            body = slots[r.table]
            raise UsebioError(f"section {r.section} board {r.board} table {body['table']} round {r.round}: an "
                              "assigned score at IMPs has no USEBIO form (a reader would compare it as a played "
                              "score): the PBN export holds it")


def _imp_national(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord],
                  scoring: str) -> Section:
    """The whole field in IMPs as ONE section (see _national): every club's every section compared together, as
    field_imps scores the national ranking (its totals and places; at Butler each board's datum)."""
    one = [replace(r, section=FIELD_SECTION, fouled_group=None) for r in every]
    return _imp_section(FIELD_SECTION, one, taken, _field_pairs(every), slots, hands, scoring)


def _imp_club(every: list[BoardResult], taken: list[Penalty], slots: Slots, hands: dict[int, HandRecord],
              scoring: str) -> list[Section]:
    """The club's results in IMPs as field_imps.club_imps_ranking scores them (each section its own field, the
    places over the club), a SECTION per club-section with the club's own pair numbers (as _club)."""
    scored, datums = field_imps.export_lines(every, scoring)
    rows = field_imps.scored_ranking(scored, taken)
    ids = {p: field.PairId.parse(p) for r in every for p in (r.ns_pair, r.ew_pair)}
    out = []
    for name in sorted({pid.section for pid in ids.values()}):
        pairs = {p: Pair(str(pid.number), pid.field or None) for p, pid in ids.items() if pid.section == name}
        own = [(r, line) for r, line in scored if r.ns_pair in pairs]
        out.append(_imp_report(name, own, datums, [row for row in rows if row["pair"] in pairs], taken, pairs,
                               slots, hands, scoring))
    return out


def _imp_section(name: str, results: list[BoardResult], taken: list[Penalty], pairs: dict[str, Pair], slots: Slots,
                 hands: dict[int, HandRecord], scoring: str) -> Section:
    scored, datums = field_imps.export_lines(results, scoring)
    return _imp_report(name, scored, datums, field_imps.scored_ranking(scored, taken), taken, pairs, slots, hands,
                       scoring)


def _imp_report(name: str, scored: list[tuple[BoardResult, ImpLine]], datums: Mapping[BoardKey, Fraction],
                rows: list[dict[str, Any]], taken: list[Penalty], pairs: dict[str, Pair], slots: Slots,
                hands: dict[int, HandRecord], scoring: str) -> Section:
    """One section's IMP report: each scored result's line with its IMPs (to 0.01, ties to even, as the hub and
    `tenace score` publish them), each board's Butler datum, and the hub's ranking rows (total, place) with each
    Law 90 penalty in IMPs said apart. A result that scores nothing at IMPs (not played, an artificial score with no
    IMP equivalent) has no line, as it has no figure at the hub."""
    plays, leads = _plays(name, (r for r, _ in scored), slots)
    by_board: dict[tuple[int, BoardKey], list[tuple[BoardResult, ImpLine]]] = defaultdict(list)
    for r, line in scored:
        by_board[r.board, (r.section, r.board, r.fouled_group)].append((r, line))
    boards = []
    for (number, key), lines in sorted(by_board.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        travellers = tuple(replace(traveller_line(r, pairs, plays.get((r.board, r.table))), imp_ns=_imps(line.ns_imps),
                                   imp_ew=_imps(line.ew_imps)) for r, line in sorted(lines, key=lambda x: x[0].table))
        datum = datums.get(key)
        boards.append(Board(number, travellers, dealer=dealer(number), vulnerable=vulnerability(number),
                            datum=None if datum is None else int(datum)))
    off = field_imps.penalty_imps(taken)
    directions: dict[str, set[str]] = defaultdict(set)
    for r, _ in scored:
        directions[r.ns_pair].add(NS)
        directions[r.ew_pair].add(EW)
    ranking = tuple(RankingLine(row["field"], row["rank"], pairs[row["pair"]],
                                "/".join(sorted(directions[row["pair"]])), row["boards"], imps=Decimal(row["imps"]),
                                penalty=_imps(off[row["pair"]]) if off.get(row["pair"]) else None)
                    for row in rows)
    report = Report(scoring, boards=tuple(boards), ranking=ranking)
    results = SectionResults(name, report, len(scored), len(scored), 0, tuple(sorted({b.board for b in boards})),
                             hands=hands)
    return Section(results, leads, {f"{pairs[row['pair']].number}{pairs[row['pair']].direction or ''}": row["pair"]
                                    for row in rows})


def _imps(value: Fraction) -> Decimal:
    return to_decimal(value, 2, Rounding.HALF_EVEN)


def _plays(name: str, results: Iterable[BoardResult], slots: Slots
           ) -> tuple[dict[tuple[int, int], Play], dict[tuple[str, int, int, int], str]]:
    """What was played at each result's table, by (board, table), and its opening lead, keyed as Extras keys it."""
    plays: dict[tuple[int, int], Play] = {}
    leads: dict[tuple[str, int, int, int], str] = {}
    for r in results:
        body = slots[r.table]
        if body["kind"] == "passed_out":
            plays[r.board, r.table] = ("Pass", None, None)
        elif body["kind"] == "normal":
            plays[r.board, r.table] = (body["contract"], body["declarer"], body["tricks"])
            if body.get("lead"):
                leads[name, r.board, r.table, r.round] = str(body["lead"])
    return plays, leads


def _section(name: str, session: SessionScore, pairs: dict[str, Pair], slots: Slots,
             hands: dict[int, HandRecord]) -> Section:
    """One section's report (scoring's session_report) with what was played at each table and its lead."""
    plays, leads = _plays(name, (r for board in session.boards for r in board.results), slots)
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
