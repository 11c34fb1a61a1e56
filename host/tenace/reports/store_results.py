"""The store's results (tenace.store.versions.Version) as a report's pairs and traveller lines."""

from __future__ import annotations

from dataclasses import replace

from tenace.reports.model import Adjustment, Pair, TravellerLine, section_shown
from tenace.scoring.mp_options import DEFAULT_OPTIONS, MatchpointOptions
from tenace.scoring.ranking import FieldMode
from tenace.store.scoring_input import pair_id
from tenace.store.versions import Version


class StorePairs:
    """The pairs the store's results name, recorded as the scoring engine's ids are made (`pair_id`).

    Pass it as `board_results(..., pair_name=pairs)`: then `pairs.named[id]` is each pair as a director names
    it (`NS 3`, or `A-NS 3` when the event has several sections; a Howell's pair, named with no direction, `3`).
    """

    def __init__(self, sections: int = 1) -> None:
        self.sections = sections
        self.named: dict[str, Pair] = {}

    def __call__(self, section: str, number: int, direction: str) -> str:
        known = pair_id(section, number, direction)
        if known not in self.named:
            self.named[known] = Pair(str(number), direction or None, section_shown(section, self.sections))
        return known


def section_options(one_field: bool) -> MatchpointOptions:
    """The matchpoint options for a section: a Howell's pairs are one field from the first round, before any of
    them has sat both ways (the engine's automatic choice would rank them NS and EW apart until then)."""
    return replace(DEFAULT_OPTIONS, fields=FieldMode.ONE) if one_field else DEFAULT_OPTIONS


def version_line(v: Version, sections: int = 1) -> TravellerLine:
    """A stored result as a traveller line: what was played, or the director's score, or nothing (not played)."""
    section = section_shown(v.section, sections)
    ns, ew = Pair(str(v.ns_pair), "NS", section), Pair(str(v.ew_pair), "EW", section)
    if v.kind == "normal":
        return TravellerLine(v.table, v.round, ns, ew, contract=v.contract, declarer=v.declarer, tricks=v.tricks,
                             lead=v.lead, ns_score=v.ns_score)
    if v.kind == "passed_out":
        return TravellerLine(v.table, v.round, ns, ew, contract="Pass", ns_score=v.ns_score or 0)
    if v.kind == "artificial":
        return TravellerLine(v.table, v.round, ns, ew, adjustment=Adjustment(v.ns_adjust or "", v.ew_adjust or ""))
    if v.kind == "weighted":
        return TravellerLine(v.table, v.round, ns, ew, ns_score=v.ns_score,
                             adjustment=Adjustment(weights=v.weights or "", ew_weights=v.ew_weights or ""))
    return TravellerLine(v.table, v.round, ns, ew)
