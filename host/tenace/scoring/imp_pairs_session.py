"""A Butler IMP pairs session (Law 78B): every board against its datum, each pair's IMP total, and the ranks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from tenace.scoring.butler import ButlerBoard, ButlerOptions, butler_board
from tenace.scoring.imp_results import ArtificialImps, Award, Entry, ImpLine, Score
from tenace.scoring.imps import imps
from tenace.scoring.model import EW, NS, Artificial, Average, BoardResult, NotPlayed, Played, Split, Weighted
from tenace.scoring.ranking import Placing, rank_field

DEFAULT_BUTLER = ButlerOptions()
BoardKey = tuple[str, int, str | None]  # (section, board, Law 87 fouled group): the results compared together


@dataclass(frozen=True, slots=True)
class ImpPairTotal:
    pair: str
    directions: frozenset[str]
    boards: int  # boards with a score: played, assigned or artificial
    imps: Fraction


@dataclass(frozen=True)
class ImpSessionScore:
    boards: dict[BoardKey, ButlerBoard]
    results: tuple[tuple[BoardResult, ImpLine], ...]  # each scored result with its IMPs, board by board
    totals: dict[str, ImpPairTotal]
    ranking: tuple[Placing, ...]  # field by field, best first


def imp_totals(lines: Iterable[tuple[str, str, ImpLine]]) -> dict[str, ImpPairTotal]:
    """Each pair's IMPs over its (NS pair, EW pair, IMP line) results, in the order pairs first appear."""
    imps_of: dict[str, Fraction] = defaultdict(Fraction)
    boards: dict[str, int] = defaultdict(int)
    directions: dict[str, set[str]] = defaultdict(set)
    for ns_pair, ew_pair, line in lines:
        for pair, direction, got in ((ns_pair, NS, line.ns_imps), (ew_pair, EW, line.ew_imps)):
            imps_of[pair] += got
            boards[pair] += 1
            directions[pair].add(direction)
    return {p: ImpPairTotal(p, frozenset(directions[p]), boards[p], imps_of[p]) for p in imps_of}


def rank_imp_pairs(totals: Mapping[str, ImpPairTotal]) -> list[Placing]:
    """A Mitchell ranks NS and EW apart; once any pair has sat both ways (Howell, arrow-switch) it is one field."""
    one_field = any(len(t.directions) > 1 for t in totals.values())
    placings: list[Placing] = []
    for name in ("",) if one_field else (NS, EW):
        placings += rank_field(name, {p: t.imps for p, t in totals.items() if one_field or name in t.directions})
    return placings


def score_butler_session(results: Iterable[BoardResult], options: ButlerOptions = DEFAULT_BUTLER) -> ImpSessionScore:
    """Butler-score a whole pairs session from the same results the matchpoint engine takes.

    A board is compared within its section (and its Law 87 group). Not-played results count for neither
    pair; Law 12C2 artificial scores are +3 / 0 / -3 IMPs; a Law 12C1(c) weighted score is the weighted
    sum of its components' IMPs against the datum of the board's other results (it stays out of the datum), and a
    Law 12C1(b) split score gives each side the IMPs of its own assigned score.
    """
    by_board: dict[BoardKey, list[BoardResult]] = defaultdict(list)
    for r in results:
        if not isinstance(r.outcome, NotPlayed):
            by_board[(r.section, r.board, r.fouled_group)].append(r)
    boards: dict[BoardKey, ButlerBoard] = {}
    scored: list[tuple[BoardResult, ImpLine]] = []
    for key in sorted(by_board, key=lambda k: (k[0], k[1], k[2] or "")):
        board_results = by_board[key]
        weighted = [r for r in board_results if isinstance(r.outcome, Weighted | Split)]
        others = [r for r in board_results if not isinstance(r.outcome, Weighted | Split)]
        board = boards[key] = butler_board([_entry(r) for r in others], options)
        scored += zip(others, board.lines, strict=True)
        scored += [(r, _weighted_line(r, board)) for r in weighted]
    totals = imp_totals((r.ns_pair, r.ew_pair, line) for r, line in scored)
    return ImpSessionScore(boards, tuple(scored), totals, tuple(rank_imp_pairs(totals)))


_AWARDS = {Average.PLUS: Award.AVERAGE_PLUS, Average.EVEN: Award.AVERAGE, Average.MINUS: Award.AVERAGE_MINUS}


def _entry(r: BoardResult) -> Entry:
    outcome = r.outcome
    if isinstance(outcome, Played):
        return Score(outcome.ns_score)
    if isinstance(outcome, Artificial):
        return ArtificialImps.awards(_award(outcome.ns, r), _award(outcome.ew, r))
    raise TypeError(f"board {r.board} table {r.table}: no IMP entry for {outcome!r}")


def _award(side: Average | Fraction, r: BoardResult) -> Award:
    if isinstance(side, Average):
        return _AWARDS[side]
    try:  # an explicit percentage has an IMP equivalent only at 60 / 50 / 40 (A+ / A / A-)
        return Award.parse(str(side))
    except ValueError:
        raise ValueError(f"board {r.board} table {r.table}: an artificial score of {side}% has no IMP "
                         "equivalent (Law 12C2 at IMPs is A+ / A / A-)") from None


def _weighted_line(r: BoardResult, board: ButlerBoard) -> ImpLine:
    """A weighted (or assigned) score against the datum; a split score's sides each on their own assigned score."""
    outcome = r.outcome
    assert isinstance(outcome, Weighted | Split)
    if not board.scores_in_datum:
        raise ValueError(f"board {r.board} table {r.table}: an assigned score needs other results to form a datum")
    ns_side, ew_side = (outcome.ns, outcome.ew) if isinstance(outcome, Split) else (outcome, outcome)
    return ImpLine(weighted_imps(ns_side, board.datum), -weighted_imps(ew_side, board.datum))


def weighted_imps(score: Weighted, against: Fraction | int) -> Fraction:
    """Law 12C1(c) in IMPs: a weighted score's NS IMPs against a datum or the other room's NS score, the weighted sum
    of its components' IMPs."""
    return sum((w * imps(s - against) for w, s in score.components), Fraction(0))
