"""Travellers, rankings and hand records as the wire messages the terminals show (numbers, no words)."""

from __future__ import annotations

from collections.abc import Iterable

from tenace.collector.wire_results import lead_code
from tenace.reports.model import RankingLine, TravellerLine
from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy
from tenace_rules.board import SEATS
from tenace_rules.notation import CARD_RANKS, parse_contract
from tenace_wire import director_messages as wire
from tenace_wire.hand_record import HandRecord
from tenace_wire.table_messages import ADJUSTED, NOT_PLAYED, PASSED_OUT, PLAYED

MAX_PAIR = 1023  # the wire's pair and rank fields
_DIRECTIONS = {"NS": wire.NS, "EW": wire.EW}
_ADJUSTS = {"A-": 1, "A": 2, "A+": 3}


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and 1 <= int(text) <= MAX_PAIR else None


def traveller_line(line: TravellerLine) -> wire.TravellerLine | None:
    """One line for the terminal; None for what the wire has no words for (a director's % or weighted score)."""
    ns = _number(line.ns.number) if line.ns else None
    ew = _number(line.ew.number) if line.ew else None
    if ns is None or ew is None:
        return None
    fields: dict[str, int] = {}
    adjusted = line.adjustment
    if line.passed_out:
        fields = {"kind": PASSED_OUT}
    elif line.contract and line.declarer and line.tricks is not None:
        c = parse_contract(line.contract)
        fields = {"kind": PLAYED, "level": c.level, "strain": c.strain, "doubling": c.doubling,
                  "declarer": SEATS.index(line.declarer), "tricks": line.tricks, "lead": lead_code(line.lead)}
    elif adjusted is not None and not adjusted.weights and adjusted.ns in _ADJUSTS and adjusted.ew in _ADJUSTS:
        fields = {"kind": ADJUSTED, "ns_adjust": _ADJUSTS[adjusted.ns], "ew_adjust": _ADJUSTS[adjusted.ew]}
    elif line.not_played:
        fields = {"kind": NOT_PLAYED}
    else:
        return None
    percent = int(line.percent_ns * 100) if line.percent_ns is not None else 5000
    return wire.TravellerLine(ns_pair=ns, ew_pair=ew, ns_score=line.ns_score or 0,
                              ns_percent=max(0, min(percent, 10000)), **fields)


def traveller_message(section: int, board: int, lines: Iterable[TravellerLine]) -> wire.Traveller:
    """The board's traveller for a terminal: its first lines that the wire can carry, up to MAX_LINES."""
    out: list[wire.TravellerLine] = []
    for line in lines:
        sent = traveller_line(line)
        if sent is not None and len(out) < wire.MAX_LINES:
            out.append(sent)
    return wire.Traveller(section=section, board=board, lines=tuple(out))


def ranking_message(section: int, round_: int, ranking: Iterable[RankingLine]) -> wire.Ranking:
    """A matchpoint ranking for a terminal, percentages in hundredths (at most MAX_LINES lines).

    A Mitchell's NS and EW fields come field by field, each pair under its number and direction.
    """
    lines: list[wire.RankingLine] = []
    for p in ranking:
        number = _number(p.pair.number)
        if number is not None and p.percent is not None and len(lines) < wire.MAX_LINES:
            rank = int(p.rank.rstrip("="))
            lines.append(wire.RankingLine(rank=min(rank, MAX_PAIR), pair=number, score=int(p.percent * 100),
                                          direction=_DIRECTIONS.get(p.pair.direction or "", wire.FIELD)))
    return wire.Ranking(section=section, round=round_, unit=wire.PERCENT, lines=tuple(lines))


def hand_record(board: int, deal: str, analysis: DoubleDummy | None = None) -> HandRecord:
    """A PBN deal from North (tenace.store.hand_records) as the wire's HandRecord: the seat of every card, and
    the double-dummy tricks and par when `analysis` (which must be of this same deal) is given."""
    owners = bytearray(52)
    for seat, hand in enumerate(deal[2:].split(" ")):
        for i, holding in enumerate(hand.split(".")):
            suit = 3 - i  # PBN lists spades first; card codes count from clubs
            for rank in holding:
                owners[suit * 13 + CARD_RANKS.index(rank)] = seat
    if analysis is None:
        return HandRecord(board=board, owners=bytes(owners))
    tricks = bytes(analysis.tricks[d][s] for d in DECLARERS for s in STRAINS)  # the wire's order, as stored
    return HandRecord(board=board, owners=bytes(owners), tricks=tricks, par=analysis.par_score)
