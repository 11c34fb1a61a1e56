"""An event file's section as a PBN 2.1 file: a game per board (dealer, vulnerability, deal when kept), its
ScoreTable, and the section's TotalScoreTable on the first, through the reports room's PBN writer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from tenace.pbn.reader import PbnGame
from tenace.reports.event_results import EventResults, SectionResults
from tenace.reports.pbn import write_report_pbn
from tenace_rules.board import dealer, vulnerability

_VULNERABLE = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}  # PBN's words for Law 2's conditions


def section_games(results: EventResults, section: SectionResults, deals: Mapping[int, str]) -> list[PbnGame]:
    """A game for every board the section's movement plays, with the event's name and date."""
    info = results.info
    games = []
    for board in sorted(section.boards):
        tags = {"Event": info.name, "Date": info.date.replace("-", "."), "Section": section.section,
                "Board": str(board), "Dealer": dealer(board), "Vulnerable": _VULNERABLE[vulnerability(board)]}
        if board in deals:
            tags["Deal"] = deals[board]
        games.append(PbnGame(tags=tags))
    return games


def write_section_pbn(results: EventResults, section: SectionResults, deals: Mapping[int, str], out: TextIO) -> None:
    """The section's boards, travellers and ranking as PBN (open `out` with encoding="utf-8")."""
    write_report_pbn(section_games(results, section, deals), section.report, out)
