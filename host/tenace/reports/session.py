"""The report of a scored session (`tenace demo`, `tenace sim`): its travellers and ranking from the scoring engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from tenace.movement import Movement
from tenace.reports.model import EW, NS, Adjustment, Board, Pair, RankingLine, Report, TravellerLine
from tenace.scoring.imp_pairs_session import ImpSessionScore
from tenace.scoring.model import Artificial, Average, BoardResult, Outcome, Played, Split, Weighted, weights_text
from tenace.scoring.pairs_methods import AnySessionScore
from tenace.scoring.rounding import Rounding, round_fraction, to_decimal
from tenace_rules.board import dealer, vulnerability

# What was played at a table, by (board, table): the contract in PBN form ("4SX", "Pass"), declarer, tricks.
Play = tuple[str, str | None, int | None]


def movement_pairs(movement: Movement, pair_id: Callable[[int, str], str],
                   section: str | None = None) -> dict[str, Pair]:
    """Every pair of a Mitchell by the id the scoring engine knows it by (`pair_id(number, "NS")`)."""
    pairs: dict[str, Pair] = {}
    for e in movement.encounters:
        for number, direction in ((e.ns_pair, NS), (e.ew_pair, EW)):
            pairs.setdefault(pair_id(number, direction), Pair(str(number), direction, section))
    return pairs


def _side(side: Average | Fraction) -> str:
    return side.value if isinstance(side, Average) else f"{side}%"


def traveller_line(r: BoardResult, pairs: Mapping[str, Pair], play: Play | None) -> TravellerLine:
    """A result as the scoring engine took it, with what was played when it is known."""
    ns, ew = pairs.get(r.ns_pair, Pair(r.ns_pair)), pairs.get(r.ew_pair, Pair(r.ew_pair))
    outcome: Outcome = r.outcome
    if isinstance(outcome, Played):
        contract, declarer, tricks = play if play is not None else (None, None, None)
        return TravellerLine(r.table, r.round, ns, ew, contract=contract, declarer=declarer, tricks=tricks,
                             ns_score=outcome.ns_score)
    if isinstance(outcome, Artificial):
        return TravellerLine(r.table, r.round, ns, ew, adjustment=Adjustment(_side(outcome.ns), _side(outcome.ew)))
    if isinstance(outcome, Weighted):
        return TravellerLine(r.table, r.round, ns, ew, adjustment=Adjustment(weights=weights_text(outcome.components)))
    if isinstance(outcome, Split):
        return TravellerLine(r.table, r.round, ns, ew,
                             adjustment=Adjustment(weights=weights_text(outcome.ns.components),
                                                       ew_weights=weights_text(outcome.ew.components)))
    return TravellerLine(r.table, r.round, ns, ew)


def penalty_figure(taken: Fraction, decimals: int, rounding: Rounding) -> Decimal:
    """Law 90 MPs taken off a total, as published: to the totals' decimals, or exactly when that needs more (33.33%
    of a top of 8 is 2.6664 MP), so that a PBN export's Penalty column takes off again just what was taken."""
    for places in range(decimals, decimals + 7):
        if (taken * 10**places).denominator == 1:
            return round_fraction(taken, places, rounding)
    return round_fraction(taken, decimals + 6, rounding)


def session_report(session: AnySessionScore, pairs: Mapping[str, Pair], method: str, title: str = "",
                   plays: Mapping[tuple[int, int], Play] | None = None, imp_decimals: int = 1,
                   travellers: bool = True) -> Report:
    """The session's travellers (board by board, table by table; none unless `travellers`) and its ranking.

    `pairs` names the engine's pair ids; `plays` gives the contracts behind the scores when they are known.
    IMPs are rounded to `imp_decimals`, ties away from zero.
    """
    plays = plays or {}

    def imps(value: Fraction) -> Decimal:
        return to_decimal(value, imp_decimals)

    boards: list[Board] = []
    ranking: list[RankingLine] = []
    if isinstance(session, ImpSessionScore):
        for (section, number, group), butler in session.boards.items() if travellers else ():
            scored = sorted(((r, line) for r, line in session.results
                            if (r.section, r.board, r.fouled_group) == (section, number, group)),
                           key=lambda item: item[0].table)
            boards.append(Board(number, tuple(
                replace(traveller_line(r, pairs, plays.get((number, r.table))), imp_ns=imps(line.ns_imps),
                        imp_ew=imps(line.ew_imps))
                for r, line in scored), dealer=dealer(number), vulnerable=vulnerability(number),
                datum=int(butler.datum)))
        for placing in session.ranking:
            imp_total = session.totals[placing.pair]
            ranking.append(RankingLine(placing.field, placing.text, pairs.get(placing.pair, Pair(placing.pair)),
                                       "/".join(sorted(imp_total.directions)), imp_total.boards,
                                       imps=imps(imp_total.imps)))
    else:
        for board in session.boards if travellers else ():
            lines: list[TravellerLine] = []
            for t in sorted(board.tables, key=lambda t: t.result.table):
                line = traveller_line(t.result, pairs, plays.get((board.board, t.result.table)))
                lines.append(replace(line, mp_ns=t.ns.mp if t.ns else None, mp_ew=t.ew.mp if t.ew else None,
                                     percent_ns=t.ns.percent if t.ns else None,
                                     percent_ew=t.ew.percent if t.ew else None))
            boards.append(Board(board.board, tuple(lines), dealer=dealer(board.board),
                                vulnerable=vulnerability(board.board), top=board.top, expected=board.expected))
        for placing in session.ranking:
            total = session.totals[placing.pair]
            ranking.append(RankingLine(placing.field, placing.text, pairs.get(placing.pair, Pair(placing.pair)),
                                       "/".join(sorted(total.directions)), total.boards, mp=total.mp,
                                       percent=total.percent, tiebreak=placing.tiebreak,
                                       penalty=penalty_figure(total.penalty, session.options.total_mp_decimals,
                                                              session.options.rounding)
                                       if total.penalty else None))
    return Report(method, title=title, boards=tuple(boards), ranking=tuple(ranking))

