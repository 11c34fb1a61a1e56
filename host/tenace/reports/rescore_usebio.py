"""The report of a USEBIO pairs event rescored from its travellers (matchpoints, Butler or cross-IMPs), and the
figures `usebio.rewrite` writes back into the file, as text in the file's own form."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

from tenace.reports.model import Adjustment, Board, Pair, RankingLine, Report, Setting, TravellerLine
from tenace.reports.rescore import imps
from tenace.reports.session import penalty_figure
from tenace.scoring.butler import ButlerOptions
from tenace.scoring.cross_imps import CrossImpOptions, cross_imps_board
from tenace.scoring.imp_pairs_session import imp_totals, rank_imp_pairs, score_butler_session
from tenace.scoring.imp_results import ArtificialImps, Award, Entry, ImpLine, Score
from tenace.scoring.matchpoints import BoardScore, SideScore, matchpoint_board
from tenace.scoring.model import BoardResult, Penalty, PenaltyUnit
from tenace.scoring.mp_options import ArtificialLines, MatchpointOptions
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.ranking import Placing
from tenace.scoring.rounding import Rounding
from tenace.usebio.reader import Line, Participant, UsebioError, UsebioEvent, artificial_by_points, board_results
from tenace.usebio.rewrite import UsebioFigures


def _penalties(event: UsebioEvent) -> list[Penalty]:
    """A pair's ADJUSTMENT, the MPs (IMPs in an IMP event) its total lost to Law 90 penalties (as tenace report
    --usebio and the hub's export write it), taken off again."""
    out = []
    for p in event.participants:
        if p.adjustment is None:
            continue
        try:
            taken = -Fraction(p.adjustment)
        except ValueError:
            raise UsebioError(f"pair {p.number}: ADJUSTMENT {p.adjustment!r} is not a number") from None
        if taken:
            out.append(Penalty(p.number, taken, PenaltyUnit.MATCHPOINTS))
    return out


def _pairs(event: UsebioEvent) -> dict[str, Pair]:
    return {p.number: _pair(p) for p in event.participants}


def _pair(p: Participant) -> Pair:
    """As the report shows pairs: a Mitchell's "3NS" is pair 3 of the NS field."""
    number = p.number[:-2] if p.direction and p.number.endswith(p.direction) and p.number[:-2] else p.number
    return Pair(number, p.direction, names=p.names, members=p.members)


def _line(index: int, line: Line, pairs: dict[str, Pair]) -> TravellerLine:
    ns, ew = pairs.get(line.ns_pair, Pair(line.ns_pair)), pairs.get(line.ew_pair, Pair(line.ew_pair))
    if line.artificial is not None:
        return TravellerLine(index, None, ns, ew, adjustment=Adjustment(*(f"{p}%" for p in line.artificial)))
    return TravellerLine(index, None, ns, ew, contract=line.contract, declarer=line.played_by, tricks=line.tricks,
                         lead=line.lead, ns_score=line.score)


def _check_pairs(event: UsebioEvent) -> None:
    known = {p.number for p in event.participants}
    for board in event.boards:
        for i, line in enumerate(board.lines, 1):
            for pair in (line.ns_pair, line.ew_pair):
                if known and pair not in known:
                    raise UsebioError(f"board {board.number} traveller line {i}: pair {pair} is not in "
                                      "PARTICIPANTS")


def _ranking(placings: list[Placing] | tuple[Placing, ...], figures: UsebioFigures) -> None:
    for placing in placings:
        figures.places[placing.pair] = str(placing.rank)


def usebio_report(event: UsebioEvent, mp: MatchpointOptions, butler: ButlerOptions,
                  cross: CrossImpOptions) -> tuple[Report, UsebioFigures]:
    """The event rescored by its EVENT_TYPE's method, with the options of that method."""
    _check_pairs(event)
    if event.method == "mp":
        return _matchpoints(event, mp)
    if event.method == "butler":
        return _butler(event, butler)
    return _cross_imps(event, cross)


# --- matchpoints -------------------------------------------------------------------------------------------

def _mp_text(side: SideScore, o: MatchpointOptions) -> str:
    if o.board_figures_own_top and side.exact.denominator == 1:  # Compscore3 writes a whole number as such
        return str(side.exact.numerator)
    return str(side.mp)


def _matchpoints(event: UsebioEvent, o: MatchpointOptions) -> tuple[Report, UsebioFigures]:
    if o.artificial_lines is ArtificialLines.POINTS:
        event = artificial_by_points(event)
    results = board_results(event)
    session = score_pairs_session(results, o, _penalties(event))
    published: dict[int, BoardScore] = {b.board: b for b in session.boards}
    if o.board_figures_own_top:  # each board on its own traveller's lines (Compscore3); the totals as scored
        by_board: dict[int, list[BoardResult]] = defaultdict(list)
        for r in results:
            by_board[r.board].append(r)
        published = {board: matchpoint_board(rs, o, len(rs)) for board, rs in by_board.items()}
    pairs = _pairs(event)
    figures = UsebioFigures()
    boards = []
    for board in event.boards:
        if not board.lines:
            continue
        scored = published[board.number]
        lines = []
        for i, (line, (ns, ew)) in enumerate(zip(board.lines, scored.figures, strict=True)):
            assert ns is not None and ew is not None  # a traveller line is played or artificial
            figures.lines[board.number, i] = (_mp_text(ns, o), _mp_text(ew, o))
            lines.append(replace(_line(i + 1, line, pairs), mp_ns=ns.mp, mp_ew=ew.mp, percent_ns=ns.percent,
                                 percent_ew=ew.percent))
        boards.append(Board(board.number, tuple(lines), top=scored.top, expected=scored.expected))
    ranking = []
    for placing in session.ranking:
        total = session.totals[placing.pair]
        # A file whose TOTAL_SCORE is the percentage (scorer-to-usebio's) gets the percentage there again.
        figures.totals[placing.pair] = str(total.percent if event.total_is_percentage else total.mp)
        figures.percentages[placing.pair] = str(total.percent)
        ranking.append(RankingLine(field=placing.field, rank=placing.text, pair=pairs.get(placing.pair,
                                                                                           Pair(placing.pair)),
                                   directions="/".join(sorted(total.directions)), boards=total.boards,
                                   mp=total.mp, percent=total.percent,
                                   penalty=penalty_figure(total.penalty, o.total_mp_decimals, o.rounding)
                                   if total.penalty else None))
    _ranking(session.ranking, figures)
    settings: dict[str, Setting] = {"units": o.units.value, "factoring": o.factoring.value, "boards": len(boards),
                "results": len(results), "event_type": event.event_type}
    return Report("mp", title=event.title, settings=settings, boards=tuple(boards), ranking=tuple(ranking)), figures


# --- IMP pairs ---------------------------------------------------------------------------------------------

def _imp_text(value: Fraction, rounding: Rounding = Rounding.HALF_EVEN) -> str:
    """Butler and cross-IMP points as Compscore3 writes them: whole as such ("-1"), else to 2 decimals."""
    return str(value.numerator) if value.denominator == 1 else str(imps(value, rounding))


def _imp_ranking(event: UsebioEvent, scored: list[tuple[str, str, ImpLine]],
                 figures: UsebioFigures) -> tuple[RankingLine, ...]:
    totals = imp_totals(scored)
    for penalty in _penalties(event):  # Law 90 in IMPs (the hub's IMP export), already out of TOTAL_SCORE
        if penalty.pair in totals:
            total = totals[penalty.pair]
            totals[penalty.pair] = replace(total, imps=total.imps - penalty.amount)
    placings = rank_imp_pairs(totals)
    pairs = _pairs(event)
    ranking = []
    for placing in placings:
        total = totals[placing.pair]
        figures.totals[placing.pair] = str(imps(total.imps))
        ranking.append(RankingLine(field=placing.field, rank=placing.text, pair=pairs.get(placing.pair,
                                                                                           Pair(placing.pair)),
                                   directions="/".join(sorted(total.directions)), boards=total.boards,
                                   imps=imps(total.imps)))
    _ranking(placings, figures)
    return tuple(ranking)


def _imp_boards(event: UsebioEvent, lines_of: dict[int, tuple[ImpLine, ...]], figures: UsebioFigures,
                datums: dict[int, int] | None = None, compared: dict[int, int] | None = None,
                rounding: Rounding = Rounding.HALF_EVEN) -> tuple[Board, ...]:
    pairs = _pairs(event)
    boards = []
    for board in event.boards:
        if not board.lines:
            continue
        lines = []
        for i, (line, imp) in enumerate(zip(board.lines, lines_of[board.number], strict=True)):
            figures.lines[board.number, i] = (_imp_text(imp.ns_imps, rounding), _imp_text(imp.ew_imps, rounding))
            lines.append(replace(_line(i + 1, line, pairs), imp_ns=imps(imp.ns_imps, rounding),
                                 imp_ew=imps(imp.ew_imps, rounding)))
        boards.append(Board(board.number, tuple(lines), datum=(datums or {}).get(board.number),
                            results=(compared or {}).get(board.number)))
    return tuple(boards)


def _butler(event: UsebioEvent, o: ButlerOptions) -> tuple[Report, UsebioFigures]:
    results = board_results(event)
    session = score_butler_session(results, o)
    figures = UsebioFigures()
    lines_of: dict[int, list[ImpLine]] = defaultdict(list)
    for r, line in session.results:  # board by board, each board's lines in the traveller's order
        lines_of[r.board].append(line)
    datums = {board: int(b.datum) for (_, board, _), b in session.boards.items()}
    figures.datums = {board: str(datum) for board, datum in datums.items()}
    boards = _imp_boards(event, {b: tuple(lines) for b, lines in lines_of.items()}, figures, datums=datums)
    ranking = _imp_ranking(event, [(r.ns_pair, r.ew_pair, line) for r, line in session.results], figures)
    settings: dict[str, Setting] = {"trim": o.trim_count, "datum_rounding": o.datum_rounding.value,
                                    "boards": len(boards), "results": len(results), "event_type": event.event_type}
    return Report("butler", title=event.title, settings=settings, boards=boards, ranking=ranking), figures


def _entry(line: Line, where: str) -> Entry:
    if line.artificial is None:
        assert line.score is not None
        return Score(line.score)
    try:  # Law 12C2 at IMPs: 60 / 50 / 40% are A+ / A / A-
        return ArtificialImps.awards(Award.parse(str(line.artificial[0])), Award.parse(str(line.artificial[1])))
    except ValueError:
        raise UsebioError(f"{where}: an artificial score of {line.artificial[0]}%/{line.artificial[1]}% has no "
                          "IMP equivalent (Law 12C2 at IMPs is 60, 50 or 40%)") from None


def _cross_imps(event: UsebioEvent, o: CrossImpOptions) -> tuple[Report, UsebioFigures]:
    figures = UsebioFigures()
    lines_of: dict[int, tuple[ImpLine, ...]] = {}
    compared: dict[int, int] = {}
    scored: list[tuple[str, str, ImpLine]] = []
    for board in event.boards:
        if not board.lines:
            continue
        entries = [_entry(line, f"board {board.number} traveller line {i}") for i, line in enumerate(board.lines, 1)]
        b = cross_imps_board(entries, o)
        lines_of[board.number], compared[board.number] = b.lines, b.results
        scored += [(line.ns_pair, line.ew_pair, imp) for line, imp in zip(board.lines, b.lines, strict=True)]
    boards = _imp_boards(event, lines_of, figures, compared=compared, rounding=o.rounding)
    ranking = _imp_ranking(event, scored, figures)
    settings: dict[str, Setting] = {"unit": o.unit.value, "boards": len(boards), "results": len(scored),
                                    "event_type": event.event_type}
    return Report("cross-imps", title=event.title, settings=settings, boards=boards, ranking=ranking), figures
