"""The JSON writer and reader: a report as one JSON document, figures as numbers, pairs by their names."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from decimal import Decimal
from typing import Any, TextIO

from tenace.reports.model import (
    Adjustment,
    Board,
    HandRecord,
    Pair,
    RankingLine,
    Report,
    Room,
    RoomsResult,
    TeamMatch,
    TravellerLine,
)
from tenace.scoring.left_out import LeftOut

# Keys of the document that name a pair (by its label, e.g. "NS 3"); the pairs themselves are under "pairs".
_LINE_PAIRS = {"ns": "ns_pair", "ew": "ew_pair"}


def _number(value: Any) -> Any:
    """Decimals as JSON numbers (as `tenace score --json` has always written them)."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _number(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_number(v) for v in value]
    return value


def _line(line: TravellerLine) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for f in fields(line):
        value = getattr(line, f.name)
        if f.name in _LINE_PAIRS:
            doc[_LINE_PAIRS[f.name]] = value.label if value is not None else None
        elif f.name == "adjustment":
            doc[f.name] = asdict(value) if value is not None else None
        else:
            doc[f.name] = value
    return doc


def _hand(hand: HandRecord) -> dict[str, Any]:
    """The deal (whole and by seat), the double-dummy tricks by declarer and strain, and par."""
    return {"deal": hand.deal, "hands": hand.hands(), "double_dummy": hand.double_dummy,
            "par": None if hand.par_score is None else {"score": hand.par_score,
                                                        "contracts": list(hand.par_contracts)}}


def _board(board: Board) -> dict[str, Any]:
    doc: dict[str, Any] = {f.name: getattr(board, f.name) for f in fields(board)
                           if f.name not in ("lines", "rooms", "hand")}
    if board.hand is not None:  # only then: a board without a hand record is written as it always was
        doc["hand"] = _hand(board.hand)
    if board.rooms is not None:
        doc.update(asdict(board.rooms))
    else:
        doc["lines"] = [_line(line) for line in board.lines]
    return doc


def _ranking_line(line: RankingLine) -> dict[str, Any]:
    doc = {f.name: getattr(line, f.name) for f in fields(line)}
    doc["pair"] = line.pair.label
    doc["names"] = line.pair.names
    doc["members"] = list(line.pair.members)
    return doc


def to_document(report: Report) -> dict[str, Any]:
    """The report as JSON-ready data: `summary` is how it was scored (a team match: its totals)."""
    summary = asdict(report.match) if report.match is not None else dict(report.settings)
    doc: dict[str, Any] = {
        "method": report.method, "title": report.title, "summary": summary,
        "pairs": [{"label": p.label, **asdict(p)} for p in report.pairs()],
        "boards": [_board(b) for b in report.boards],
        "ranking": [_ranking_line(p) for p in report.ranking],
        "notes": list(report.notes),
        "problems": [asdict(p) for p in report.problems],
    }
    converted: dict[str, Any] = _number(doc)
    return converted


def write_json(report: Report, out: TextIO) -> None:
    json.dump(to_document(report), out, indent=2, ensure_ascii=False)
    out.write("\n")


# --- reading back ----------------------------------------------------------------------------------------


def _decimal(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


_DECIMALS = {"mp_ns", "mp_ew", "percent_ns", "percent_ew", "imp_ns", "imp_ew", "mp", "percent", "imps",
             "imp_home", "imp_away", "carry_over", "imps_home", "imps_away", "vp_home", "vp_away", "penalty"}


def _build(cls: Any, doc: dict[str, Any], **given: Any) -> Any:
    values = {}
    for f in fields(cls):
        if f.name in given:
            values[f.name] = given[f.name]
        elif f.name in doc:
            values[f.name] = _decimal(doc[f.name]) if f.name in _DECIMALS else doc[f.name]
    return cls(**values)


def from_document(doc: dict[str, Any]) -> Report:
    """A report from `to_document`'s data (or a JSON report read back)."""
    pairs = {p["label"]: Pair(p["number"], p.get("direction"), p.get("section"), p.get("names"),
                              tuple(p.get("members", ())))
             for p in doc.get("pairs", [])}

    def pair(label: str | None) -> Pair | None:
        return None if label is None else pairs.get(label, Pair(label))

    def hand(h: dict[str, Any] | None) -> HandRecord | None:
        if h is None:
            return None
        par = h.get("par") or {}
        return HandRecord(h["deal"], h.get("double_dummy"), par.get("score"), tuple(par.get("contracts", ())))

    boards = []
    for b in doc.get("boards", []):
        if "open" in b:
            rooms = _build(RoomsResult, b, open=Room(**b["open"]) if b["open"] else None,
                           closed=Room(**b["closed"]) if b["closed"] else None)
            boards.append(_build(Board, b, rooms=rooms, hand=hand(b.get("hand"))))
            continue
        lines = tuple(_build(TravellerLine, line, ns=pair(line.get("ns_pair")), ew=pair(line.get("ew_pair")),
                             adjustment=Adjustment(**line["adjustment"]) if line.get("adjustment") else None)
                      for line in b.get("lines", []))
        boards.append(_build(Board, b, lines=lines, hand=hand(b.get("hand"))))
    ranking = tuple(_build(RankingLine, p, pair=pair(p["pair"])) for p in doc.get("ranking", []))
    teams = doc["method"] == "teams"
    return Report(method=doc["method"], title=doc.get("title", ""),
                  settings={} if teams else dict(doc.get("summary", {})), boards=tuple(boards), ranking=ranking,
                  match=_build(TeamMatch, doc["summary"]) if teams else None, notes=tuple(doc.get("notes", [])),
                  problems=tuple(LeftOut(**p) for p in doc.get("problems", [])))


def read_json(text: str) -> Report:
    """A report from a JSON document written by `write_json`."""
    doc: dict[str, Any] = json.loads(text, parse_float=Decimal)
    return from_document(doc)
