"""An event's results as CSV for spreadsheets and club websites: per section its ranking and its travellers."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

from tenace.reports.event_results import SectionResults
from tenace.reports.model import Pair

RANKING_COLUMNS = ("section", "field", "rank", "pair", "players", "directions", "boards", "matchpoints", "percent",
                   "imps", "penalty")
TRAVELLER_COLUMNS = ("section", "board", "table", "round", "ns", "ew", "contract", "declarer", "tricks", "lead",
                     "ns_score", "adjusted", "ns_mp", "ew_mp", "ns_percent", "ew_percent", "ns_imps", "ew_imps",
                     "director")


def csv_names(section: str) -> tuple[str, str]:
    """The two files of a section: its ranking and its travellers."""
    return f"{section}-ranking.csv", f"{section}-travellers.csv"


MATCH_COLUMNS = ("section", "home", "home_name", "away", "away_name", "boards", "boards_in", "imps_home", "imps_away",
                 "vp_home", "vp_away")
ROOMS_COLUMNS = ("section", "home", "away", "board", "open_contract", "open_declarer", "open_tricks", "open_ns_score",
                 "closed_contract", "closed_declarer", "closed_tricks", "closed_ns_score", "difference", "imps_home",
                 "imps_away")


def write_section_csv(section: SectionResults, folder: Path) -> tuple[Path, Path]:
    """Write the section's ranking and travellers into `folder` (UTF-8, a header line, one row a line); a teams
    section's matches and their boards (A-matches.csv, A-boards.csv)."""
    if section.matches:
        return _write_matches(section, folder)
    report = section.report
    ranking_path, travellers_path = (folder / name for name in csv_names(section.section))
    with ranking_path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(RANKING_COLUMNS)
        for line in report.ranking:
            out.writerow((section.section, line.field, line.rank, _label(line.pair), line.pair.names or "",
                          line.directions, line.boards, _number(line.mp), _number(line.percent), _number(line.imps),
                          _number(line.penalty)))
    with travellers_path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(TRAVELLER_COLUMNS)
        for board in report.boards:
            for t in board.lines:
                adjusted = "" if t.adjustment is None else t.adjustment.text
                out.writerow((section.section, board.board, _number(t.table), _number(t.round), _label(t.ns),
                              _label(t.ew), t.contract or ("" if t.adjustment else "not played"), t.declarer or "",
                              _number(t.tricks), t.lead or "", _number(t.ns_score), adjusted, _number(t.mp_ns),
                              _number(t.mp_ew), _number(t.percent_ns), _number(t.percent_ew), _number(t.imp_ns),
                              _number(t.imp_ew), t.marked))
    return ranking_path, travellers_path


def _write_matches(section: SectionResults, folder: Path) -> tuple[Path, Path]:
    matches_path, boards_path = folder / f"{section.section}-matches.csv", folder / f"{section.section}-boards.csv"
    with matches_path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(MATCH_COLUMNS)
        for m in section.matches:
            t = m.report.match
            if t is not None:
                out.writerow((section.section, m.home, t.home, m.away, t.away, m.expected, m.compared, t.imps_home,
                              t.imps_away, _number(t.vp_home), _number(t.vp_away)))
    with boards_path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(ROOMS_COLUMNS)
        for m in section.matches:
            for b in m.report.boards:
                if b.rooms is None:
                    continue
                o, c = b.rooms.open, b.rooms.closed
                assert o is not None and c is not None  # a match of the event: both rooms of every board scored
                out.writerow((section.section, m.home, m.away, b.board, o.contract, o.declarer, o.tricks, o.ns_score,
                              c.contract, c.declarer, c.tricks, c.ns_score, _number(b.rooms.difference),
                              b.rooms.imp_home, b.rooms.imp_away))
    return matches_path, boards_path


def _label(pair: Pair | None) -> str:
    """The pair within its section's file: "NS 3", "7" (the section is a column of its own)."""
    if pair is None:
        return ""
    return f"{pair.direction} {pair.number}" if pair.direction else pair.number


def _number(value: Decimal | int | None) -> str:
    return "" if value is None else str(value)
