"""A sim's field scored in IMPs (cross-IMPs or Butler): each board's figures from its own outcome counts, the ranking
from the pairs' sums, the same scored from scratch by the engines, and a club's own IMP ranking and a pair's boards.

Unlike matchpoints, a side's IMPs on a board are not rescaled by the field's size: they are the board's own, so
the national ranking is the pairs' plain sums of their boards' figures. The rules, the same in every path here:
- one field across all clubs' sections nationally (every result of a board against every other); at the club, each
  section its own field, as the club scores it;
- Butler: ButlerOptions() (score_butler_session's default, what `tenace` scores a club's Butler with: the datum the
  mean after dropping the top and bottom score, rounded to 10); cross-IMPs: CrossImpOptions() (per comparison);
- a Law 12C2 artificial side is +3 / 0 / -3 IMPs (A+ / A / A-, or 60% / 50% / 40%), not compared; a percentage with
  no IMP equivalent (55%) has none: the result counts for neither pair, with a logged warning;
- a Law 12C1 weighted (or split) score stays out of the comparisons and scores the weighted sum of its components'
  IMPs: at Butler against the datum (score_butler_session), at cross-IMPs against each played result of the board,
  averaged over those comparisons (the engine has no weighted scores: this is Butler's rule carried over); on a
  board with no played result it has nothing to be compared with and counts for neither pair (logged);
- not played: no score for either pair;
- Law 90: a club's penalty in an IMP sim is in IMPs: one pushed in unit "MP" is taken off the pair's IMP total; one
  in %top has no meaning without a top and is ignored with a logged warning (the pass scoring the whole field must
  not fail on one club's push).
The ranking rows carry "imps" (the total to 2 decimals, ties to even); "mp", "percent" and "top" are None."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

import psycopg

from tenace.hub import queries
from tenace.hub.field import Figure, PairId, load
from tenace.scoring import codec
from tenace.scoring.butler import ButlerOptions, butler_board
from tenace.scoring.cross_imps import CrossImpOptions, cross_imps_board
from tenace.scoring.imp_pairs_session import (
    DEFAULT_BUTLER,
    BoardKey,
    ImpPairTotal,
    imp_totals,
    rank_imp_pairs,
    score_butler_session,
    weighted_imps,
)
from tenace.scoring.imp_results import ArtificialImps, Award, Entry, ImpLine, Score
from tenace.scoring.imps import imps
from tenace.scoring.model import (
    EW,
    NS,
    Artificial,
    Average,
    BoardResult,
    NotPlayed,
    Penalty,
    PenaltyUnit,
    Played,
    Split,
    Weighted,
)
from tenace.scoring.rounding import Rounding, to_decimal

log = logging.getLogger(__name__)

SCORINGS = ("cross-imps", "butler")
BUTLER: ButlerOptions = DEFAULT_BUTLER  # club Butler's options (scoring.pairs_methods scores with the default)
CROSS = CrossImpOptions()  # per comparison
ImpSums = Mapping[str, tuple[Fraction, int, set[str]]]  # pair id text -> (IMPs, boards, directions)


def _check(scoring: str) -> None:
    if scoring not in SCORINGS:
        raise ValueError(f"an IMP field is scored by {' or '.join(SCORINGS)}, not {scoring!r}")


def _award(side: Average | Fraction) -> Award | None:
    """A Law 12C2 side's IMP award; None for a percentage with no IMP equivalent (only 60/50/40 have one)."""
    if isinstance(side, Average):
        return Award(side.value)
    try:
        return Award.parse(str(side))
    except ValueError:
        return None


def _artificial(outcome: Artificial, where: str) -> ArtificialImps | None:
    ns, ew = _award(outcome.ns), _award(outcome.ew)
    if ns is None or ew is None:
        log.warning("%s: an artificial score of %s / %s has no IMP equivalent (A+ / A / A-): it counts for neither "
                    "pair", where, outcome.ns, outcome.ew)
        return None
    return ArtificialImps.awards(ns, ew)


def _sides(outcome: Weighted | Split) -> tuple[Weighted, Weighted]:
    return (outcome.ns, outcome.ew) if isinstance(outcome, Split) else (outcome, outcome)


def _cross_weighted(score: Weighted, played: Mapping[int, int]) -> Fraction:
    """A weighted score's NS cross-IMPs: each component against every played result, averaged per comparison, the
    components weighted (Butler's weighted_imps with the other results in place of the datum)."""
    n = sum(played.values())
    return sum((w * Fraction(sum(imps(s - o) * c for o, c in played.items()), n) for w, s in score.components),
               Fraction(0))


def _weighted_line(outcome: Weighted | Split, scoring: str, played: Mapping[int, int],
                   datum: Fraction | None, where: str) -> ImpLine | None:
    """A weighted or split score's IMPs; None when the board has no played result to compare it with."""
    if not played:
        log.warning("%s: an assigned score with no played result to compare it with: it counts for neither pair",
                    where)
        return None
    ns, ew = _sides(outcome)
    if scoring == "butler":
        assert datum is not None
        return ImpLine(weighted_imps(ns, datum), -weighted_imps(ew, datum))
    return ImpLine(_cross_weighted(ns, played), -_cross_weighted(ew, played))


def _board_lines(outcomes: list[tuple[Any, Played | Artificial | Weighted | Split, int]], scoring: str,
                 where: str) -> dict[Any, tuple[ImpLine, ArtificialImps | None]]:
    """One board's (or one field's board's) IMP lines, by key: the engines on its played results (with their counts)
    and artificial awards, then the weighted scores; a key with no score is left out."""
    played: Counter[int] = Counter()
    for _, o, count in outcomes:
        if isinstance(o, Played):
            played[o.ns_score] += count
    keyed: list[tuple[Any, Entry]] = [(key, Score(o.ns_score, count)) for key, o, count in outcomes
                                      if isinstance(o, Played)]
    awards: dict[Any, ArtificialImps] = {}
    for key, o, count in outcomes:
        if isinstance(o, Artificial):
            award = _artificial(o, where)
            if award is not None:
                awards[key] = replace(award, count=count)
                keyed.append((key, awards[key]))
    lines: dict[Any, tuple[ImpLine, ArtificialImps | None]] = {}
    datum: Fraction | None = None
    if keyed:
        entries = [e for _, e in keyed]
        if scoring == "butler":
            butler = butler_board(entries, BUTLER)
            datum, got = butler.datum, butler.lines
        else:
            got = cross_imps_board(entries, CROSS).lines
        for (key, _), line in zip(keyed, got, strict=True):
            lines[key] = (line, awards.get(key))
    for key, o, _ in outcomes:
        if isinstance(o, Weighted | Split):
            weighted = _weighted_line(o, scoring, played, datum, where)
            if weighted is not None:
                lines[key] = (weighted, None)
    return lines


def imp_board_figures(board: int, outcomes: dict[str, int], scoring: str) -> tuple[int, list[Figure]]:
    """The IMP twin of field.board_figures: the board's entries (its results, not-played ones included) and, per
    distinct outcome text and direction, (direction, outcome, artificial, num, den, average): num/den the exact IMPs
    that side scores against the whole field (`scoring` "butler": against the board's datum; "cross-imps": against
    every other result, per comparison); average the Law 12C2 award (A+, A, A-) of an artificial side, else None.
    A not-played outcome, or one with no IMP score (see the module's rules), has no figure. The figures depend on
    the board's outcome counts alone."""
    _check(scoring)
    parsed: list[tuple[Any, Played | Artificial | Weighted | Split, int]] = []
    for text, count in sorted(outcomes.items()):
        got = codec.from_key(text)
        if count > 0 and not isinstance(got, NotPlayed):
            parsed.append((text, got, count))
    lines = _board_lines(parsed, scoring, f"board {board}")
    figures: list[Figure] = []
    for text, (line, award) in sorted(lines.items()):
        for direction, value in ((NS, line.ns_imps), (EW, line.ew_imps)):
            average = None
            if award is not None:
                average = _AWARD_OF[int(award.ns_imps if direction == NS else award.ew_imps)]
            value = Fraction(value)
            figures.append((direction, text, award is not None, value.numerator, value.denominator, average))
    return sum(c for c in outcomes.values() if c > 0), figures


_AWARD_OF = {a.imps: a.value for a in Award}


def _taken(penalties: Iterable[Penalty]) -> dict[str, Fraction]:
    """Law 90 in IMPs: a penalty in unit MP (the wire's "MP") is that many IMPs off; %top ones are ignored."""
    taken: dict[str, Fraction] = defaultdict(Fraction)
    for p in penalties:
        if p.unit is PenaltyUnit.MATCHPOINTS:
            taken[p.pair] += p.amount
        else:
            log.warning("pair %s: a penalty of %s%% of the top has no meaning at IMPs: ignored (push it in IMPs, "
                        "unit MP)", p.pair, p.amount)
    return taken


def imp_ranking(sums: ImpSums, penalties: Iterable[Penalty] = ()) -> list[dict[str, Any]]:
    """The hub's ranking rows from each pair's (IMPs, boards, directions): rank_imp_pairs (NS and EW apart in a
    Mitchell, one field once any pair sat both ways), Law 90 `penalties` taken off in IMPs. Each row has the keys of
    field._rows: pair, field, rank, boards, "imps" (the total to 2 decimals, ties to even), and mp, percent and top
    None (an IMP field has no top)."""
    taken = _taken(penalties)
    totals = {p: ImpPairTotal(p, frozenset(directions), boards, Fraction(total) - taken.get(p, Fraction(0)))
              for p, (total, boards, directions) in sums.items()}
    rows = []
    for placing in rank_imp_pairs(totals):
        t = totals[placing.pair]
        rows.append({"pair": placing.pair, "field": placing.field, "rank": placing.text,
                     "imps": str(to_decimal(t.imps, 2, Rounding.HALF_EVEN)), "boards": t.boards,
                     "mp": None, "percent": None, "top": None})
    return rows


def _scorable(results: Iterable[BoardResult]) -> list[BoardResult]:
    """The results that score at IMPs: not-played ones, artificial ones with no IMP equivalent and assigned ones on a
    board (of its section and Law 87 group) with no played result left out, each logged as the figures log them."""
    kept = [r for r in results if not isinstance(r.outcome, NotPlayed)
            and (not isinstance(r.outcome, Artificial) or _artificial(r.outcome, f"board {r.board}") is not None)]
    played = {(r.section, r.board, r.fouled_group) for r in kept if isinstance(r.outcome, Played)}
    return [r for r in kept if not isinstance(r.outcome, Weighted | Split)
            or (r.section, r.board, r.fouled_group) in played]


def _scored(results: Iterable[BoardResult], scoring: str) -> list[tuple[BoardResult, ImpLine]]:
    """Each scorable result with its IMPs, each section (and Law 87 group) a field: score_butler_session, or
    cross_imps_board board by board (as reports.rescore_usebio scores a cross-IMP session) and the weighted ones."""
    _check(scoring)
    kept = _scorable(results)
    if scoring == "butler":
        return list(score_butler_session(kept, BUTLER).results)
    by_board: dict[tuple[str, int, str | None], list[BoardResult]] = defaultdict(list)
    for r in kept:
        by_board[(r.section, r.board, r.fouled_group)].append(r)
    scored: list[tuple[BoardResult, ImpLine]] = []
    for key in sorted(by_board, key=lambda k: (k[0], k[1], k[2] or "")):
        rs = by_board[key]
        compared = [r for r in rs if not isinstance(r.outcome, Weighted | Split)]
        entries: list[Entry | int] = []
        for r in compared:
            o = r.outcome
            if isinstance(o, Played):
                entries.append(o.ns_score)
            else:
                assert isinstance(o, Artificial)
                award = _artificial(o, f"board {r.board}")
                assert award is not None  # _scorable kept it
                entries.append(award)
        scored += zip(compared, cross_imps_board(entries, CROSS).lines, strict=True)
        played = Counter(r.outcome.ns_score for r in compared if isinstance(r.outcome, Played))
        for r in rs:
            if isinstance(r.outcome, Weighted | Split):
                line = _weighted_line(r.outcome, scoring, played, None, f"board {r.board}")
                assert line is not None  # _scorable kept it: the board has a played result
                scored.append((r, line))
    return scored


def export_lines(results: Iterable[BoardResult], scoring: str
                 ) -> tuple[list[tuple[BoardResult, ImpLine]], dict[BoardKey, Fraction]]:
    """What a USEBIO export writes: each scorable result with its IMPs, as _scored gives them, and at Butler each
    board's datum by (section, board, Law 87 group) (cross-IMPs have none)."""
    _check(scoring)
    if scoring == "butler":
        session = score_butler_session(_scorable(results), BUTLER)
        return list(session.results), {key: board.datum for key, board in session.boards.items()}
    return _scored(results, scoring), {}


def scored_ranking(scored: Iterable[tuple[BoardResult, ImpLine]], penalties: Iterable[Penalty] = ()
                   ) -> list[dict[str, Any]]:
    """The ranking rows (imp_ranking's) of results already scored: the pairs' sums, Law 90 `penalties` taken off."""
    return imp_ranking(_sums(scored), penalties)


def penalty_imps(penalties: Iterable[Penalty]) -> dict[str, Fraction]:
    """The IMPs each pair's Law 90 penalties take off its total (those imp_ranking takes; %top ones are ignored)."""
    return dict(_taken(penalties))


def _sums(scored: Iterable[tuple[BoardResult, ImpLine]]) -> dict[str, tuple[Fraction, int, set[str]]]:
    totals = imp_totals((r.ns_pair, r.ew_pair, line) for r, line in scored)
    return {p: (t.imps, t.boards, set(t.directions)) for p, t in totals.items()}


def _one_field(r: BoardResult) -> BoardResult:
    return replace(r, section="", fouled_group=None)  # every club's every section compared together


def full_national_imps(results: dict[str, list[BoardResult]], penalties: dict[str, list[Penalty]],
                       scoring: str) -> list[dict[str, Any]]:
    """The national IMP ranking scored from scratch by the engines over every club's results, one field across all
    clubs' sections: what the ranking from the boards' figures must equal (field.full_national's twin)."""
    every = [_one_field(r) for rs in results.values() for r in rs]
    return imp_ranking(_sums(_scored(every, scoring)), [p for ps in penalties.values() for p in ps])


def club_imps_ranking(results: Iterable[BoardResult], penalties: Iterable[Penalty], scoring: str
                      ) -> list[dict[str, Any]]:
    """A club's own IMP ranking: its results alone, each section its own field, as the club scores them."""
    return imp_ranking(_sums(_scored(results, scoring)), penalties)


def sim_scoring(conn: psycopg.Connection[Any], sim: str) -> str:
    """The sim's scoring: mp, cross-imps or butler (mp for a sim that is not there: its pages say so)."""
    return queries.sim_scoring(conn, sim) or "mp"


def imp_pair_cards(conn: psycopg.Connection[Any], sim: str, pair: str, scoring: str) -> list[list[Any]] | None:
    """An IMP sim's pair's boards against its club's field and the nation's, in the places field.mp_pair_cards gives a
    matchpoint sim's: [board, direction, club IMPs, None, None, national IMPs, None, None] (no % and no top at
    IMPs); None when the pair has no scored board."""
    club = PairId.parse(pair).club
    results, _ = load(conn, sim, club)
    mine: dict[int, tuple[str, Fraction]] = {}
    for r, line in _scored(results.get(club, ()), scoring):
        if pair in (r.ns_pair, r.ew_pair):
            mine[r.board] = (NS, line.ns_imps) if r.ns_pair == pair else (EW, line.ew_imps)
    if not mine:
        return None
    national = {int(board): Fraction(int(num), int(den))
                for board, _, _, num, den, _ in queries.pair_national_figures(conn, sim, club, pair)}

    def text(value: Fraction) -> str:
        return str(to_decimal(value, 2, Rounding.HALF_EVEN))

    return [[board, direction, text(own), None, None, text(national[board]) if board in national else None, None,
             None] for board, (direction, own) in sorted(mine.items())]
