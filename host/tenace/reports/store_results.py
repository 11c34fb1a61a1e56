"""The store's results (tenace.store.versions.Version) as a report's pairs and traveller lines."""

from __future__ import annotations

from tenace.reports.model import Adjustment, Pair, TravellerLine, section_shown
from tenace.store.scoring_input import mitchell_pair
from tenace.store.versions import Version


class StorePairs:
    """The pairs the store's results name, recorded as the scoring engine's ids are made (`mitchell_pair`).

    Pass it as `board_results(..., pair_name=pairs)`: then `pairs.named[id]` is each pair as a director names
    it (`NS 3`, or `A-NS 3` when the event has several sections).
    """

    def __init__(self, sections: int = 1) -> None:
        self.sections = sections
        self.named: dict[str, Pair] = {}

    def __call__(self, section: str, number: int, direction: str) -> str:
        pair_id = mitchell_pair(section, number, direction)
        if pair_id not in self.named:
            self.named[pair_id] = Pair(str(number), direction, section_shown(section, self.sections))
        return pair_id


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
                             adjustment=Adjustment(weights=v.weights or ""))
    return TravellerLine(v.table, v.round, ns, ew)
