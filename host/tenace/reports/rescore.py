"""The report of a PBN file rescored from its raw results: matchpoints, IMP pairs (Butler, cross-IMPs) or teams.

What cannot be scored (a row, a team board) is left out and listed in the report's `problems`; a file none of
whose results can be scored is a NothingScored error.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from tenace.pbn.reader import PbnGame
from tenace.pbn.results import (
    NothingScored,
    OneRoom,
    RawResult,
    all_raw_results,
    imp_entries,
    named_rows,
    nothing_scored,
    pairs_results,
    team_boards,
    team_rooms,
)
from tenace.reports.model import (
    Adjustment,
    Board,
    Pair,
    RankingLine,
    Report,
    Room,
    RoomsResult,
    Setting,
    TeamMatch,
    TravellerLine,
)
from tenace.reports.pbn import PENALTY
from tenace.reports.session import penalty_figure
from tenace.scoring.butler import ButlerOptions, butler_board
from tenace.scoring.cross_imps import CrossImpOptions, cross_imps_board
from tenace.scoring.imp_pairs_session import imp_totals, rank_imp_pairs, score_butler_session
from tenace.scoring.imp_results import Award, ImpLine
from tenace.scoring.left_out import LeftOut
from tenace.scoring.matchpoints import BoardScore, matchpoint_board
from tenace.scoring.model import BoardResult, Penalty, PenaltyUnit
from tenace.scoring.mp_options import MatchpointOptions
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.rounding import Rounding, to_decimal
from tenace.scoring.teams import ArtificialBoard, TeamMatchOptions, score_team_match
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import parse_tricks

NO_PAIRS = "the score tables name no pairs, so there is no ranking: per-board figures only"


def imps(value: Fraction | int, rounding: Rounding = Rounding.HALF_EVEN) -> Decimal:
    """IMPs as `tenace score` publishes them: to 2 decimals, ties to even unless a program's rounding is given."""
    return to_decimal(Fraction(value), 2, rounding)


_MEMBER_ID = re.compile(r"MemberID(\d*)$")
_UNKNOWN = ("", "-")


@dataclass(frozen=True)
class Players:
    """A pair's players as the file's TotalScoreTable gives them: their names and member ids."""

    names: str | None = None
    members: tuple[str, ...] = ()


def file_players(games: list[PbnGame]) -> dict[str, Players]:
    """The players of each pair id, from the file's TotalScoreTable (Names, MemberID1, MemberID2... columns)."""
    players: dict[str, Players] = {}
    for game in games:
        table = game.tables.get("TotalScoreTable")
        if table is None or "PairId" not in table.column_names():
            continue
        ids = sorted((c for c in table.column_names() if _MEMBER_ID.match(c)),
                     key=lambda c: int(_MEMBER_ID.match(c)[1] or 0))  # type: ignore[index]
        for row in table.records():
            names = row.get("Names", "")
            members = tuple("" if row[c] in _UNKNOWN else row[c] for c in ids)
            found = Players(None if names in _UNKNOWN else names, members if any(members) else ())
            if found != Players():
                players.setdefault(row["PairId"], found)
                if row.get("Direction") in ("NS", "EW"):  # a Mitchell's pair, told apart by its field
                    players.setdefault(f'{row["PairId"]} {row["Direction"]}', found)
    return players


def pairs_of(directions: Mapping[str, frozenset[str]], players: Mapping[str, Players]) -> dict[str, Pair]:
    """Each pair id as a Pair: with its direction in a Mitchell (every pair kept its direction), else (a Howell,
    where some pair sat both ways, even if a stationary one did not) just its number. An id that carries its
    direction ("3 NS": a Mitchell numbering each field from 1, pbn.results.named_rows) is that pair."""
    howell = any(len(sat) > 1 for sat in directions.values())
    out = {}
    for pair, sat in directions.items():
        number, _, side = pair.partition(" ")
        found = players.get(pair) or Players()
        out[pair] = Pair(number, side or (None if howell else next(iter(sat), None)), names=found.names,
                         members=found.members)
    return out


def _pair(pairs: Mapping[str, Pair], pair_id: str | None) -> Pair | None:
    if not pair_id or pair_id == "-":
        return None
    return pairs.get(pair_id, Pair(pair_id))


def traveller_line(r: RawResult, pairs: Mapping[str, Pair]) -> TravellerLine:
    """A PBN ScoreTable row as a traveller line without figures: the contract in canonical PBN form, total tricks."""
    ns, ew = _pair(pairs, r.ns_pair), _pair(pairs, r.ew_pair)
    if r.not_played:
        return TravellerLine(r.table, r.round, ns, ew, count=r.count)
    if r.artificial is not None:
        return TravellerLine(r.table, r.round, ns, ew, adjustment=Adjustment(*r.artificial), count=r.count)
    if r.weights is not None:
        return TravellerLine(r.table, r.round, ns, ew, adjustment=Adjustment(weights=r.weights,
                                                                          ew_weights=r.ew_weights or ""),
                             count=r.count)
    if r.unread is not None:  # scored by the file's own score: the contract and result as the file gives them
        tricks = int(r.result) if r.result.strip().isdigit() and int(r.result) <= 13 else None
        return TravellerLine(r.table, r.round, ns, ew, contract=r.contract or None, declarer=r.declarer.strip() or None,
                             tricks=tricks, ns_score=r.ns_score, count=r.count)
    contract = parse_contract(r.contract)
    if contract.passed_out:
        return TravellerLine(r.table, r.round, ns, ew, contract="Pass", ns_score=0, count=r.count)
    return TravellerLine(r.table, r.round, ns, ew, contract=contract.text(), declarer=r.declarer.strip().upper()[:1],
                         tricks=parse_tricks(contract, r.result), lead=r.lead, ns_score=r.ns_score, count=r.count)


def file_penalties(games: list[PbnGame], pair_ids: Iterable[str], problems: list[LeftOut]) -> list[Penalty]:
    """The Law 90 penalties of the file's TotalScoreTable (its Penalty column, pbn.PENALTY: MPs taken off, "-" for
    none) against the pairs of `pair_ids`, the engine's ids ("3", or "3 NS" when a Mitchell numbers each field from
    1); a penalty that is not a number, or of a pair with no result, is left out (in `problems`)."""
    known = set(pair_ids)
    directed = any(pair.endswith((" NS", " EW")) for pair in known)
    out = []
    for game in games:
        table = game.tables.get("TotalScoreTable")
        if table is None or PENALTY not in table.column_names() or "PairId" not in table.column_names():
            continue
        for index, row in enumerate(table.records()):
            cell = row[PENALTY].strip()
            if cell in _UNKNOWN:
                continue
            pair = f"{row['PairId']} {row.get('Direction', '')}" if directed else row["PairId"]
            line = table.line_of(index) or game.line
            try:
                amount = Fraction(cell)
            except (ValueError, ZeroDivisionError):
                problems.append(LeftOut(line, None, None, f"Penalty {cell!r} of pair {pair} is not matchpoints "
                                                          "(1.5): the penalty is left out"))
                continue
            if amount < 0 or pair not in known:
                why = "is below 0" if amount < 0 else "is of a pair with no result in the file"
                problems.append(LeftOut(line, None, None, f"Penalty {cell} of pair {pair} {why}: it is left out"))
                continue
            out.append(Penalty(pair, amount, PenaltyUnit.MATCHPOINTS))
        break  # the first TotalScoreTable is the file's ranking
    return out


# --- matchpoints -------------------------------------------------------------------------------------------

def matchpoint_report(games: list[PbnGame], method: str, options: MatchpointOptions) -> Report:
    problems: list[LeftOut] = []
    rows, named = named_rows(all_raw_results(games, problems), problems)
    results = pairs_results(rows, problems, named)
    if not results:
        raise nothing_scored(games, problems)
    ranking = []
    pairs: dict[str, Pair] = {}
    scored: tuple[BoardScore, ...] | list[BoardScore]
    if named:
        pair_ids = {p for r in results for p in (r.ns_pair, r.ew_pair)}
        session = score_pairs_session(results, options, file_penalties(games, pair_ids, problems))
        scored = session.boards
        pairs = pairs_of({p: t.directions for p, t in session.totals.items()}, file_players(games))
        for placing in session.ranking:
            total = session.totals[placing.pair]
            ranking.append(RankingLine(field=placing.field, rank=placing.text, pair=pairs[placing.pair],
                                       directions="/".join(sorted(total.directions)), boards=total.boards,
                                       mp=total.mp, percent=total.percent, tiebreak=placing.tiebreak,
                                       penalty=penalty_figure(total.penalty, options.total_mp_decimals,
                                                              options.rounding) if total.penalty else None))
    else:
        scored = _boards_alone(results, options)
    # By round too: a table that played a board twice (a movement changed, a .bws) has a row for each round.
    raw = {(r.board, r.table or r.row, r.round or 1): r for r in rows}
    frequencies = any(r.count != 1 for r in rows)  # rows of equal results, not tables: no table number made up
    boards = []
    for board in scored:
        lines = []
        shown: set[int] = set()
        for t in board.tables:
            r = raw[(board.board, t.result.table, t.result.round)]
            if r.count != 1:  # a frequency table's row: its results tie, so the first one's figures are the row's
                if r.row in shown:
                    continue
                shown.add(r.row)
            # The table and round as the engine knew them (a row without a Table is known by its row number).
            lines.append(replace(traveller_line(r, pairs), table=r.table if frequencies else t.result.table,
                                 round=t.result.round,
                                 mp_ns=t.ns.mp if t.ns else None, mp_ew=t.ew.mp if t.ew else None,
                                 percent_ns=t.ns.percent if t.ns else None,
                                 percent_ew=t.ew.percent if t.ew else None))
        boards.append(Board(board.board, tuple(lines), top=board.top, expected=board.expected))
    settings: dict[str, Setting] = {"units": options.units.value, "factoring": options.factoring.value,
                                    "boards": len(scored), "results": len(results)}
    return Report(method, settings=settings, boards=tuple(boards), ranking=tuple(ranking),
                  notes=() if named else (NO_PAIRS,), problems=tuple(problems))


def _boards_alone(results: list[BoardResult], options: MatchpointOptions) -> list[BoardScore]:
    """Each board matchpointed on its own, to the same E as a session (no pairs: no Law 12C2(c), no totals)."""
    by_board: dict[int, list[BoardResult]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    expected = options.expected_results or max(map(len, by_board.values()))
    return [matchpoint_board(board_results, options, expected) for _, board_results in sorted(by_board.items())]


# --- IMP pairs ---------------------------------------------------------------------------------------------

def _imp_report(games: list[PbnGame], rows: list[RawResult], named: bool, problems: list[LeftOut], method: str,
                lines_of: Mapping[int, tuple[ImpLine, ...]], settings: dict[str, Setting],
                datums: Mapping[int, int] | None = None, compared: Mapping[int, int] | None = None,
                rounding: Rounding = Rounding.HALF_EVEN) -> Report:
    """Butler or cross-IMPs: the lines' IMPs (published by `rounding`), each board's datum (Butler) or results
    compared (cross-IMPs)."""
    datums, compared = datums or {}, compared or {}
    by_board: dict[int, list[RawResult]] = defaultdict(list)
    for r in rows:
        by_board[r.board].append(r)
    ranking: list[RankingLine] = []
    notes: tuple[str, ...] = ()
    pairs: dict[str, Pair] = {}
    if named:
        results = [(str(r.ns_pair), str(r.ew_pair), line) for board, board_rows in sorted(by_board.items())
                   for r, line in zip(board_rows, lines_of[board], strict=True)]
        totals = imp_totals(results)
        # Tied pairs are listed in the order they first appear in the file, as `tenace score` always has.
        seen = {pair: i for i, pair in enumerate(totals)}
        placings = sorted(rank_imp_pairs(totals), key=lambda p: (p.field != "NS", p.rank, seen[p.pair]))
        pairs = pairs_of({p: t.directions for p, t in totals.items()}, file_players(games))
        for placing in placings:
            total = totals[placing.pair]
            ranking.append(RankingLine(field=placing.field, rank=placing.text, pair=pairs[placing.pair],
                                       directions="/".join(sorted(total.directions)), boards=total.boards,
                                       imps=imps(total.imps)))
    else:
        notes = (NO_PAIRS,)
    boards = []
    for board, board_rows in sorted(by_board.items()):
        lines = tuple(replace(traveller_line(r, pairs), imp_ns=imps(line.ns_imps, rounding),
                              imp_ew=imps(line.ew_imps, rounding))
                      for r, line in zip(board_rows, lines_of[board], strict=True))
        boards.append(Board(board, lines, datum=datums.get(board), results=compared.get(board)))
    return Report(method, settings=settings, boards=tuple(boards), ranking=tuple(ranking), notes=notes,
                  problems=tuple(problems))


def _imp_rows(games: list[PbnGame], problems: list[LeftOut], assigned: bool = False) -> tuple[list[RawResult], bool]:
    """The rows IMP pairs compare; `assigned`: a file naming its pairs keeps its assigned and weighted scores (the
    Butler session scores them)."""
    rows, named = named_rows(all_raw_results(games, problems), problems)
    kept = []
    for r in rows:
        if r.not_played:  # counts for neither pair: nothing to compare
            continue
        try:
            if r.weights is not None and not (assigned and named):
                raise ValueError("an assigned score: Butler and cross-IMPs from a file take played and artificial "
                                 "(A+/A/A-) results")
            for side in r.artificial or ():
                Award.parse(side)  # a percentage has an IMP equivalent only at 60/50/40
            kept.append(r)
        except ValueError as e:
            problems.append(LeftOut(r.line, r.board, f"row {r.row}", str(e)))
    rows = kept
    if not rows:
        raise nothing_scored(games, problems)
    return rows, named


def cross_imps_report(games: list[PbnGame], options: CrossImpOptions) -> Report:
    problems: list[LeftOut] = []
    rows, named = _imp_rows(games, problems)
    boards = {board: cross_imps_board(entries, options) for board, entries in imp_entries(rows).items()}
    return _imp_report(games, rows, named, problems, "cross-imps", {b: s.lines for b, s in boards.items()},
                       {"unit": options.unit.value, "boards": len(boards), "results": len(rows)},
                       compared={b: s.results for b, s in boards.items()}, rounding=options.rounding)


def butler_report(games: list[PbnGame], options: ButlerOptions) -> Report:
    problems: list[LeftOut] = []
    rows, named = _imp_rows(games, problems, assigned=True)
    settings: dict[str, Setting] = {"trim": options.trim_count, "trim_percent": _setting(options.trim_percent),
                                    "datum_rounding": options.datum_rounding.value}
    if named:
        # The club's Butler session, so that a weighted, assigned or split score is scored as the club scores it.
        try:
            session = score_butler_session(pairs_results(rows, problems), options)
        except ValueError as e:
            raise NothingScored(f"the file cannot be Butler-scored: {e}", problems) from None
        line_of = {(r.board, r.table, r.round): line for r, line in session.results}
        lines_of: dict[int, list[ImpLine]] = defaultdict(list)
        for r in rows:
            lines_of[r.board].append(line_of[(r.board, r.table or r.row, r.round or 1)])
        return _imp_report(games, rows, named, problems, "butler", {b: tuple(v) for b, v in lines_of.items()},
                           {**settings, "boards": len(session.boards), "results": len(rows)},
                           datums={board: int(b.datum) for (_, board, _), b in session.boards.items()})
    boards = {board: butler_board(entries, options) for board, entries in imp_entries(rows).items()}
    return _imp_report(games, rows, named, problems, "butler", {b: s.lines for b, s in boards.items()},
                       {**settings, "boards": len(boards), "results": len(rows)},
                       datums={b: int(s.datum) for b, s in boards.items()})


def _setting(value: Fraction | int) -> Setting:
    return value if isinstance(value, int) else str(value)


# --- teams -------------------------------------------------------------------------------------------------

def team_report(games: list[PbnGame], options: TeamMatchOptions) -> Report:
    problems: list[LeftOut] = []
    one_room: dict[int, OneRoom] = {}
    rooms = team_rooms(games, problems, one_room)
    if not rooms and not one_room:
        if problems:
            raise NothingScored(f"no board of the match could be scored ({len(problems)} left out)", problems)
        raise NothingScored("no played results (Contract/Result tags) found for a team match", [])
    # A board of one room is scored by the IMPs its file gives (named in problems), as the publisher scored it.
    given = {board: ArtificialBoard(board, max(one.home_net, Fraction(0)), max(-one.home_net, Fraction(0)))
             for board, one in one_room.items()}
    match = score_team_match(sorted([*team_boards(rooms), *given.values()], key=lambda b: b.board), options)
    boards = []
    for b in match.boards:
        if b.board in one_room:
            one = one_room[b.board]
            room = _room(one.room.game, one.room.ns_score)
            played = RoomsResult(open=room if one.open else None, closed=None if one.open else room,
                                 difference=None, imp_home=imps(b.home), imp_away=imps(b.away))
        else:
            open_room, closed_room = rooms[b.board]
            played = RoomsResult(open=_room(open_room.game, open_room.ns_score),
                                 closed=_room(closed_room.game, closed_room.ns_score),
                                 difference=b.difference, imp_home=imps(b.home), imp_away=imps(b.away))
        boards.append(Board(b.board, rooms=played))
    first = rooms[min(rooms)][0].game if rooms else one_room[min(one_room)].room.game
    carry_over = Fraction(options.carry_over_home) - Fraction(options.carry_over_away)
    totals = TeamMatch(home=_team(first, "HomeTeam", "North", "South"), away=_team(first, "VisitTeam", "East", "West"),
                       boards=len(match.boards), carry_over=imps(carry_over), imps_home=imps(match.home_imps),
                       imps_away=imps(match.away_imps), vp_home=match.vp.home if match.vp else None,
                       vp_away=match.vp.away if match.vp else None)
    return Report("teams", boards=tuple(boards), match=totals, problems=tuple(problems))


def _team(game: PbnGame, tag: str, first: str, second: str) -> str:
    """A team by its name (HomeTeam, VisitTeam), else by the pair it had in the open room: "Zhang Ya - Gu"."""
    name = game.tag(tag).strip()
    if name:
        return name
    players = [game.tag(seat).strip() for seat in (first, second)]
    return " - ".join(p for p in players if p) or ""


def _room(game: PbnGame, ns_score: int) -> Room:
    return Room(contract=game.tag("Contract"), declarer=game.tag("Declarer"), tricks=game.tag("Result"),
                ns_score=ns_score)
