"""The PBN writer: a report's figures as PBN 2.1 score tables (ScoreTable, TotalScoreTable, ScoreIMP) in its games."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import TextIO

from tenace.pbn.reader import PbnColumn, PbnGame, PbnTable
from tenace.pbn.results import NOT_PLAYED, OneRoom, team_rooms
from tenace.pbn.writer import write_pbn
from tenace.reports.model import Report, TravellerLine
from tenace.scoring.model import weight_parts, weights_text

_MP_COLUMNS = [("Table", 2, "R"), ("Round", 2, "R"), ("PairId_NS", 2, "R"), ("PairId_EW", 2, "R"),
               ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
               ("Score_EW", 6, "R"), ("MP_NS", 5, "R"), ("MP_EW", 5, "R"), ("Percentage_NS", 6, "R"),
               ("Percentage_EW", 6, "R")]
_IMP_COLUMNS = [("Table", 2, "R"), ("Round", 2, "R"), ("PairId_NS", 2, "R"), ("PairId_EW", 2, "R"),
                ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
                ("Score_EW", 6, "R"), ("IMP_NS", 6, "R"), ("IMP_EW", 6, "R"), ("Multiplicity", 3, "R")]
_STALE = ("ScoreTable", "TotalScoreTable", "ScoreIMP", "ScoreMP", "ScorePercentage")


def _columns(spec: Iterable[tuple[str, int, str]]) -> list[PbnColumn]:
    return [PbnColumn(name, width, align) for name, width, align in spec]


def _cell(value: str | int | Decimal | None) -> str:
    return "-" if value is None or value == "" else str(value)


def score_imp(net: Decimal) -> str:
    """A ScoreIMP tag value: the side that won and its IMPs, whole IMPs as integers ("EW 2"); "NS 0" when flat."""
    size = abs(net)
    text = str(int(size)) if size == size.to_integral_value() else str(size)
    return f"{'EW' if net < 0 else 'NS'} {text}"


def assigned_cells(weights: str, ew_weights: str) -> tuple[str, str | None]:
    """An assigned score's Score_NS and Score_EW: "620" for one score (Law 12C1(b)), "3/5:620 2/5:-100" for a
    weighted one (PBN has no word for it: tenace score reads this back); Score_EW only when East-West have their own
    score (a split), from their side: NS -100 for EW is "100"."""
    def cell(text: str, sign: int) -> str:
        parts = [(w, sign * s) for w, s in weight_parts(text)]
        return str(parts[0][1]) if len(parts) == 1 else weights_text(parts)

    return cell(weights, 1), cell(ew_weights, -1) if ew_weights else None


def score_row(line: TravellerLine, spec: list[tuple[str, int, str]]) -> list[str]:
    """One ScoreTable row: who, what was played (or the artificial scores, A+/A-, or the assigned one, +620) and the
    method's figures."""
    adjusted = line.adjustment
    scores: tuple[str | int | None, str | None]
    if adjusted is not None and adjusted.weights:
        scores = assigned_cells(adjusted.weights, adjusted.ew_weights)
    elif adjusted is not None:
        scores = (adjusted.ns, adjusted.ew)
    else:  # a board not played at the table (no contract, no score): NP, which tenace score reads back
        scores = (line.ns_score, None) if line.ns_score is not None else (NOT_PLAYED, NOT_PLAYED)
    values: dict[str, str | int | Decimal | None] = {
        "Table": line.table, "Round": line.round,
        "PairId_NS": line.ns.number if line.ns else None, "PairId_EW": line.ew.number if line.ew else None,
        "Contract": line.contract, "Declarer": line.declarer, "Result": line.tricks, "Lead": line.lead,
        "Score_NS": scores[0], "Score_EW": scores[1], "MP_NS": line.mp_ns, "MP_EW": line.mp_ew,
        "Percentage_NS": line.percent_ns, "Percentage_EW": line.percent_ew,
        "IMP_NS": line.imp_ns, "IMP_EW": line.imp_ew, "Multiplicity": line.count}
    return [_cell(values[name]) for name, _, _ in spec]


# Law 90 penalties: PBN 2.1 has no column for them, so the TotalScoreTable gets this one (as programs add their own):
# the matchpoints taken off the pair's total, already out of TotalScoreMP and TotalPercentage, in the file's units,
# "-" for none. `tenace score` takes them off its own totals again (rescore.file_penalties).
PENALTY = "Penalty"
PENALTY_NOTE = ("Law 90 penalties: the TotalScoreTable's Penalty column is the matchpoints taken off a pair's total "
                "(already out of TotalScoreMP and TotalPercentage); tenace score takes them off again.")

# Columns of a published TotalScoreTable that are figures of its own scoring: never copied into ours.
_COMPUTED_TOTAL = re.compile(r"^(Total|Rank|MP|IMP|Percentage|Score|VP)")


def total_score_table(report: Report, published: PbnTable | None = None) -> PbnTable:
    """The ranking as a TotalScoreTable, with the players' names and member ids when the report knows them.

    The file's own TotalScoreTable (`published`) keeps its columns and their order: NrBoards and Tiebreak get our
    figures, what is not a figure (Table, Sex1, Club...) is copied by PairId, and its stale figures are dropped.
    """
    figure = "TotalIMP" if report.imps else "TotalScoreMP"
    members = max((len(p.pair.members) for p in report.ranking), default=0)
    spec = [("Rank", 3, "R"), ("PairId", 3, "R"), ("Direction", 5, "R"), (figure, 7, "R"), ("TotalPercentage", 6, "R")]
    if any(p.penalty for p in report.ranking):
        spec.append((PENALTY, 7, "R"))
    if any(p.pair.names for p in report.ranking):
        spec.append(("Names", 40, "L"))
    spec.extend((f"MemberID{i}", 10, "R") for i in range(1, members + 1))
    ours = {name: PbnColumn(name, width, align) for name, width, align in spec}
    columns: list[PbnColumn] = []
    copied: dict[str, dict[str, str]] = {}
    if published is not None:
        names = published.column_names()
        copied = {row["PairId"]: row for row in published.records()} if "PairId" in names else {}
        for column in published.columns:
            kept = column.name in ours or column.name in ("NrBoards", "Tiebreak")
            if kept or not _COMPUTED_TOTAL.match(column.name):
                columns.append(PbnColumn(column.name, column.width, column.align))
    columns.extend(c for name, c in ours.items() if name not in {c.name for c in columns})
    rows = []
    for p in report.ranking:
        values: dict[str, str | int | Decimal | None] = {
            "Rank": p.rank, "PairId": p.pair.number, "Direction": p.directions,
            figure: p.imps if report.imps else p.mp, "TotalPercentage": p.percent, "Names": p.pair.names,
            "NrBoards": p.boards, "Tiebreak": p.tiebreak, PENALTY: p.penalty,
            **{f"MemberID{i}": m for i, m in enumerate(p.pair.members, start=1)}}
        row = copied.get(p.pair.number, {})
        rows.append([_cell(values.get(c.name)) if c.name in values or c.name in ours else row.get(c.name, "-")
                     for c in columns])
    return PbnTable("TotalScoreTable", columns, rows)


def rescored_games(games: list[PbnGame], report: Report) -> list[PbnGame]:
    """Copies of the games with the report's score tables (and, for pairs, a TotalScoreTable on the first game)."""
    out = [PbnGame(tags=dict(g.tags), tables=dict(g.tables), sections=dict(g.sections), line=g.line) for g in games]
    by_board = {b.board: b for b in report.boards}
    leads = any(line.lead for b in report.boards for line in b.lines)
    published = next((g.tables["TotalScoreTable"] for g in games if "TotalScoreTable" in g.tables), None)
    for game in out:
        for stale in _STALE:
            game.tables.pop(stale, None)
            game.tags.pop(stale, None)
        try:
            board = by_board.get(int(game.tag("Board") or 0))
        except ValueError:  # a board number that could not be read: the board was left out
            board = None
        if board is None or report.match is not None:
            continue
        spec = _IMP_COLUMNS if report.imps else _MP_COLUMNS
        if leads:  # the file's Lead column, after the result as PBN exporters write it
            spec = [*spec[:7], ("Lead", 3, "L"), *spec[7:]]
        game.tags["ScoreTable"] = ""
        game.tables["ScoreTable"] = PbnTable("ScoreTable", _columns(spec), [score_row(line, spec)
                                                                           for line in board.lines])
    if report.match is not None:
        # PBN's ScoreIMP is from the table's own North-South ("EW 2": its EW won 2), as published: the home team is
        # NS in the open room and EW in the closed one.
        for number, (open_room, closed_room) in team_rooms(out, []).items():
            rooms = by_board[number].rooms if number in by_board else None
            if rooms is None:  # a board left out of the match (the report lists why)
                continue
            net = rooms.imp_home - rooms.imp_away
            open_room.game.tags["ScoreIMP"] = score_imp(net)
            closed_room.game.tags["ScoreIMP"] = score_imp(-net)
        # A board of one room keeps the IMPs it was scored by (read from the games as given: out's have lost them).
        one_room: dict[int, OneRoom] = {}
        team_rooms(games, [], one_room)
        copy_of = {id(g): o for g, o in zip(games, out, strict=True)}
        for number, one in one_room.items():
            if number in by_board and by_board[number].rooms is not None:
                net = Decimal(one.home_net.numerator) / one.home_net.denominator
                copy_of[id(one.room.game)].tags["ScoreIMP"] = score_imp(net if one.open else -net)
    if report.ranking and out:
        out[0].tags["TotalScoreTable"] = ""
        out[0].tables["TotalScoreTable"] = total_score_table(report, published)
    return out


def write_report_pbn(games: list[PbnGame], report: Report, out: TextIO, comment: Sequence[str] = ()) -> None:
    """The games rescored by the report, as a PBN 2.1 file (open `out` with encoding="utf-8"), after a commentary of
    the `comment` lines (and of how its penalties are written, when the ranking has any)."""
    lines = list(comment)
    if any(p.penalty for p in report.ranking):
        lines.append(PENALTY_NOTE)
    write_pbn(rescored_games(games, report), out, lines)
