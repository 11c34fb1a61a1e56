"""An event file's section as a PBN 2.1 file: a game per board (dealer, vulnerability, deal when kept), its
ScoreTable, and the section's TotalScoreTable on the first, through the reports room's PBN writer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from tenace.pbn.reader import PbnGame
from tenace.reports.event_results import EventResults, SectionResults
from tenace.reports.event_teams import MatchResult
from tenace.reports.pbn import write_report_pbn
from tenace_rules.board import dealer, vulnerability

_VULNERABLE = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}  # PBN's words for Law 2's conditions


def section_games(results: EventResults, section: SectionResults, deals: Mapping[int, str]) -> list[PbnGame]:
    """A game for every board the section's movement plays, with the event's name and date."""
    info = results.info
    games = []
    for board in sorted(section.boards):
        tags = {"Event": info.title, "Date": info.date.replace("-", "."), "Section": section.section,
                "Board": str(board), "Dealer": dealer(board), "Vulnerable": _VULNERABLE[vulnerability(board)]}
        if board in deals:
            tags["Deal"] = deals[board]
        games.append(PbnGame(tags=tags))
    return games


def match_games(results: EventResults, match: MatchResult, deals: Mapping[int, str],
                seats: Mapping[int, str]) -> list[PbnGame]:
    """A team match as PBN's two games a board, the open room first (the home team North-South there), each with its
    contract, declarer and tricks; a room without a played result (not in yet, the director's score) is left out.
    `seats` names each pair's players by pair number, for the North... West tags."""
    info = results.info
    t = match.report.match
    home, away = (t.home, t.away) if t else ("", "")
    # Team t's pairs are 2t - 1 (NS at its home table) and 2t: the open room seats home 2h - 1 v away 2a, the closed
    # room away 2a - 1 v home 2h.
    sitting = {"Open": (2 * match.home - 1, 2 * match.away), "Closed": (2 * match.away - 1, 2 * match.home)}
    games = []
    for board, *versions in match.rooms:
        for room, v in zip(("Open", "Closed"), versions, strict=True):
            if v is None or v.kind not in ("normal", "passed_out"):
                continue
            tags = {"Event": info.title, "Date": info.date.replace("-", "."), "Section": match.section,
                    "Board": str(board), "Dealer": dealer(board), "Vulnerable": _VULNERABLE[vulnerability(board)],
                    "Room": room, "HomeTeam": home, "VisitTeam": away}
            ns, ew = sitting[room]
            for pair, first, second in ((ns, "North", "South"), (ew, "East", "West")):
                names = seats.get(pair, "").split(" - ")
                for seat, name in zip((first, second), names, strict=False):
                    if name and not name.startswith("#"):  # "#103": a number the roster does not name
                        tags[seat] = name
            if board in deals:
                tags["Deal"] = deals[board]
            if v.kind == "passed_out":
                tags.update(Declarer="", Contract="Pass", Result="")
            else:
                tags.update(Declarer=v.declarer or "", Contract=v.contract or "", Result=str(v.tricks))
            games.append(PbnGame(tags=tags))
    return games


def export_comment(section: SectionResults, chain_head: str) -> list[str]:
    """The file's opening commentary: the event file's chain head when it has one (so whoever gets the file can
    check, with tenace check EVENT --head, that an event file is the one it comes from) and the Law 90 penalties."""
    lines = []
    if chain_head:
        lines += [f"Tenace event file chain head: {chain_head}",
                  f"(tenace check EVENT --head {chain_head} says whether an event file is the one published)"]
    return lines + [n for n in section.report.notes if n.startswith("Law 90 penalty")]


def write_section_pbn(results: EventResults, section: SectionResults, deals: Mapping[int, str], out: TextIO,
                      seats: Mapping[int, str] | None = None, match: MatchResult | None = None,
                      chain_head: str = "") -> None:
    """The section's boards, travellers and ranking as PBN (open `out` with encoding="utf-8"); a teams section's
    match (`match`, or its only one) as its two rooms a board, which `tenace score --method teams` reads back.
    `chain_head` (the event file's, store.ledger.head) opens the file in a commentary."""
    comment = export_comment(section, chain_head)
    if section.matches:
        if match is None and len(section.matches) > 1:
            raise ValueError(f"section {section.section} holds {len(section.matches)} matches; a PBN file holds one")
        match = match or section.matches[0]
        write_report_pbn(match_games(results, match, deals, seats or {}), match.report, out, comment)
        return
    write_report_pbn(section_games(results, section, deals), section.report, out, comment)
