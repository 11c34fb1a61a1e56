"""From PBN games to the scoring engine's inputs: raw results only, every score recomputed by Law 77.

A PBN file may carry computed columns (MP_NS, IMP_NS, Percentage...); they are never read here.
Pairs files give one ScoreTable per board (table/round/pair ids, or a Multiplicity column); team
files give one game per room with Contract/Declarer/Result tags. A row or team board that cannot be
scored is left out and described in the `problems` list the caller passes; the rest is scored. A row or room
whose contract or result cannot be read but whose score the file gives (Score_NS, a Score tag) is scored by that
score and listed too (reports.model.ScoredAsGiven), as the programs that published such files scored it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from tenace.pbn.reader import PbnGame
from tenace.scoring import codec
from tenace.scoring.imp_results import ArtificialImps, Award, Entry, Score
from tenace.scoring.left_out import LeftOut, ScoredAsGiven
from tenace.scoring.model import (
    Artificial,
    BoardResult,
    NotPlayed,
    Outcome,
    Played,
    Weighted,
    weights_text,
)
from tenace.scoring.teams import RoomScores
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract, parse_declarer, parse_vulnerability
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks

_SCORE = re.compile(r"[+-]?\d{1,4}")
_NO_CONTRACT = ("", "-", "?")
NOT_PLAYED = "NP"  # Score_NS (and Score_EW) of a board not played at a table, as tenace report writes it


class PbnResultError(ValueError):
    """A result in a PBN file that cannot be scored, naming its board and row."""


class NothingScored(PbnResultError):
    """Not one result of the file could be scored: what was left out, and why."""

    def __init__(self, message: str, problems: list[LeftOut]) -> None:
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True)
class RawResult:
    """One row of a board's ScoreTable: who played, what they played, and how many times (Multiplicity)."""

    board: int
    row: int
    table: int | None
    round: int | None
    ns_pair: str | None
    ew_pair: str | None
    contract: str
    declarer: str
    result: str
    count: int
    # The director's artificial score per side ("A+", "A", "A-") when no contract was played.
    artificial: tuple[str, str] | None
    ns_score: int | None  # recomputed by Law 77; None for an artificial result
    line: int | None = None  # the file line the row starts on
    lead: str | None = None  # the Lead column, "S9", when the file has one and the row a lead
    # The director's assigned score (Law 12C1) when no contract was played: NS scores with their weights, "1:620"
    # or "3/5:620 2/5:-100", and East-West's own in `ew_weights` when the two sides' scores do not balance.
    weights: str | None = None
    ew_weights: str | None = None
    not_played: bool = False  # "NP" for the score: the board was not played at the table and counts for neither pair
    # Why the contract or result could not be read, when the row is scored by the file's own Score_NS instead.
    unread: str | None = None

    @property
    def named(self) -> bool:
        """Whether the row names both pairs (PairId_NS, PairId_EW)."""
        return bool(self.ns_pair and self.ew_pair and self.ns_pair != "-" and self.ew_pair != "-")

    def where(self) -> str:
        return f"board {self.board}" + (f" table {self.table}" if self.table is not None else f" row {self.row}")


def board_tag(game: PbnGame) -> int:
    """The Board tag's number (a PbnResultError saying what is wrong with it otherwise)."""
    try:
        board = int(game.tag("Board"))
    except ValueError:
        raise PbnResultError(f"Board tag {game.tag('Board')!r} is not a number") from None
    if board < 1:
        raise PbnResultError(f"board number {board} is not 1 or more")
    return board


def board_vulnerability(game: PbnGame, board: int) -> str:
    """The Vulnerable tag when present, else Law 2 from the board number."""
    tag = game.tag("Vulnerable")
    return parse_vulnerability(tag) if tag else vulnerability(board)


def score_contract(contract_text: str, declarer_text: str, result_text: str, vul: str) -> int:
    """The NS score of a played contract: PBN's Result is declarer's total tricks."""
    contract = parse_contract(contract_text)
    if contract.passed_out:
        return 0
    return ns_score(contract, parse_declarer(declarer_text), vul, parse_tricks(contract, result_text))


def _artificial(cell: str) -> str | None:
    # `^` marks an adjusted score in some exporters ("^A+", "A+^"); only the award itself matters here.
    text = cell.replace("^", "").strip().upper()
    try:
        codec.side(text)
    except codec.Unreadable:
        return None
    return text


def _assigned(cell: str, sign: int = 1) -> str | None:
    """An assigned score's cell as stored weights (NS scores, or the side's own times `sign`): "620" (one score,
    Law 12C1(b)) is "1:620"; "3/5:620 2/5:-100" (Law 12C1(c)) stays; None when the cell is neither. PBN has no
    word for a weighted score: this is tenace report's, which this reader takes back."""
    text = cell.strip()
    if _SCORE.fullmatch(text):
        return f"1:{sign * int(text)}"
    try:
        read = codec.weighted(text)  # the one reader of the stored form
    except codec.Unreadable:
        return None
    assert isinstance(read, Weighted)  # one side's text: never a Split
    return weights_text((w, sign * score) for w, score in read.components)


def raw_results(game: PbnGame, problems: list[LeftOut]) -> list[RawResult]:
    """The rows of a game's ScoreTable, each NS score recomputed from contract, declarer and tricks; a row that
    cannot be read is left out (in `problems`), and so is the whole board when its number or vulnerability is bad."""
    table = game.tables.get("ScoreTable")
    if table is None:
        return []
    try:
        board = board_tag(game)
        vul = board_vulnerability(game, board)
    except ValueError as e:
        problems.append(LeftOut(game.line, None, None, f"{e}; the board is left out"))
        return []
    problems.extend(LeftOut(line, board, None, f"{why}: the line is left out") for line, why in table.unread)
    out = []
    for index, rec in enumerate(table.records()):
        line = table.line_of(index) or game.line
        try:
            raw = _raw_result(board, index + 1, rec, vul, line)
        except ValueError as e:
            problems.append(LeftOut(line, board, f"row {index + 1}", str(e)))
            continue
        if raw.unread is not None:
            problems.append(ScoredAsGiven(line, board, f"row {index + 1}",
                                          f"{raw.unread}: scored by the score it gives (NS {raw.ns_score:+d})"))
        out.append(raw)
    return out


def given_score(ns_cell: str, ew_cell: str) -> int | None:
    """The NS score a row gives for itself (Score_NS 50, else Score_EW -50 turned to NS's side), None when neither
    is a score."""
    if _SCORE.fullmatch(ns_cell.strip()):
        return int(ns_cell)
    if _SCORE.fullmatch(ew_cell.strip()):
        return -int(ew_cell)
    return None


def _raw_result(board: int, number: int, rec: dict[str, str], vul: str, line: int) -> RawResult:
    contract = rec.get("Contract", "").strip()
    artificial = None
    score: int | None = None
    weights = ew_weights = None
    not_played = False
    unread = None
    if contract in _NO_CONTRACT:
        ns_cell, ew_cell = rec.get("Score_NS", ""), rec.get("Score_EW", "")
        ns, ew = _artificial(ns_cell), _artificial(ew_cell)
        weights = _assigned(ns_cell)
        if ns_cell.strip().upper() == NOT_PLAYED and ew_cell.strip().upper() in (NOT_PLAYED, *_NO_CONTRACT):
            not_played = True
        elif ns is not None and ew is not None:
            artificial = (ns, ew)
        elif weights is not None:  # Score_EW: "-", or East-West's own score when the sides' do not balance
            ew_weights = None if ew_cell.strip() in _NO_CONTRACT else _assigned(ew_cell, -1)
            if ew_weights is None and ew_cell.strip() not in _NO_CONTRACT:
                raise PbnResultError(f"Score_EW {ew_cell!r} is not East-West's assigned score")
            ew_weights = None if ew_weights == weights else ew_weights
        else:
            marked = [f"{column} {cell.strip()}" for column, cell in rec.items() if cell.strip().startswith("^")]
            if marked:  # a frequency table's adjusted side ("^50" under Percentage_NS): a figure, not a result
                raise PbnResultError(f"no result, only an adjusted figure ({', '.join(marked)}): nothing to score")
            raise PbnResultError("no contract, no artificial score (A+/A/A-, 60%), no assigned score (+620) and "
                                 "not NP (not played)")
    else:
        try:
            score = score_contract(contract, rec.get("Declarer", ""), rec.get("Result", ""), vul)
        except ValueError as e:  # the contract or result unread: the row's own score, when it gives one
            score = given_score(rec.get("Score_NS", ""), rec.get("Score_EW", ""))
            if score is None:
                raise
            unread = str(e)
    return RawResult(
        board=board, row=number,
        table=int(rec["Table"]) if rec.get("Table", "-").isdigit() else None,
        round=int(rec["Round"]) if rec.get("Round", "-").isdigit() else None,
        ns_pair=rec.get("PairId_NS"), ew_pair=rec.get("PairId_EW"),
        contract=contract, declarer=rec.get("Declarer", ""), result=rec.get("Result", ""),
        count=_multiplicity(rec.get("Multiplicity", "")),
        artificial=artificial, ns_score=score, line=line,
        lead=rec["Lead"] if rec.get("Lead", "-") not in _NO_CONTRACT else None, weights=weights, ew_weights=ew_weights,
        not_played=not_played, unread=unread,
    )


# The most equal results one row may stand for: a frequency table's row is matchpointed as that many results, and
# the largest published fields (an online tournament's board) hold a few thousand.
MAX_MULTIPLICITY = 100_000


def _multiplicity(cell: str) -> int:
    """How many equal results a row stands for: its Multiplicity, 1 when the file has none ("" or "-")."""
    text = cell.strip()
    if not text.isdigit():
        return 1
    count = int(text)
    if not 1 <= count <= MAX_MULTIPLICITY:
        raise PbnResultError(f"a Multiplicity of {count}: give 1 to {MAX_MULTIPLICITY} equal results")
    return count


def all_raw_results(games: list[PbnGame], problems: list[LeftOut]) -> list[RawResult]:
    return [r for game in games for r in raw_results(game, problems)]


def named_rows(rows: list[RawResult], problems: list[LeftOut]) -> tuple[list[RawResult], bool]:
    """The rows to rank and whether there is a ranking: when some rows name their pairs, a row that does not
    is left out (its result belongs to no pair); when none do, every row is kept for per-board figures only.

    A Mitchell numbers its NS and its EW pairs each from 1: when a row has the same id on both sides, every
    id is kept with its direction ("3 NS", "3 EW"), two pairs (rescore.pairs_of names them NS 3 and EW 3)."""
    if not any(r.named for r in rows):
        return rows, False
    for r in rows:
        if not r.named:
            problems.append(LeftOut(r.line, r.board, f"row {r.row}", "no pair ids (PairId_NS, PairId_EW)"))
    named = [r for r in rows if r.named]
    if any(r.ns_pair == r.ew_pair for r in named):
        named = [replace(r, ns_pair=f"{r.ns_pair} NS", ew_pair=f"{r.ew_pair} EW") for r in named]
    return named, True


def pairs_results(rows: list[RawResult], problems: list[LeftOut], named: bool = True,
                  section: str = "") -> list[BoardResult]:
    """Matchpoint input: one BoardResult per result, in row order.

    Rows of a file that names no pairs get stand-in ids for per-board figures only ("row 3 NS"); a row with a
    Multiplicity of m (a frequency table) stands for m equal results, m BoardResults ("row 3.1 NS" to "row 3.m
    NS") that tie with each other and with every equal row. In a file that names pairs, a row with a
    Multiplicity above 1 is left out: one pair cannot have several results on a board.
    """
    out: list[BoardResult] = []
    for r in rows:
        if named and r.count != 1:
            problems.append(LeftOut(r.line, r.board, f"row {r.row}",
                                    f"a Multiplicity of {r.count} cannot be matchpointed by pair"))
            continue
        outcome: Outcome
        if r.not_played:
            outcome = NotPlayed()
        elif r.artificial is not None:
            outcome = Artificial(*(codec.side(side) for side in r.artificial))
        elif r.weights is not None:
            outcome = codec.weighted(r.weights, r.ew_weights)
        else:
            assert r.ns_score is not None
            outcome = Played(r.ns_score)
        if named:
            stand_ins = [(str(r.ns_pair), str(r.ew_pair))]
        elif r.count == 1:
            stand_ins = [(f"row {r.row} NS", f"row {r.row} EW")]
        else:
            stand_ins = [(f"row {r.row}.{k} NS", f"row {r.row}.{k} EW") for k in range(1, r.count + 1)]
        out.extend(BoardResult(section, r.table or r.row, r.round or 1, r.board, ns, ew, outcome)
                   for ns, ew in stand_ins)
    return out


def nothing_scored(games: list[PbnGame], problems: list[LeftOut]) -> NothingScored:
    """The error for a file none of whose results could be scored."""
    if problems:
        return NothingScored(f"none of its results could be scored ({len(problems)} left out)", problems)
    if not any("ScoreTable" in g.tables for g in games):
        return NothingScored("no game in it has a ScoreTable: there are no results to score (a file of deals?)", [])
    return NothingScored("its score tables hold no results", [])


def team_match(games: list[PbnGame]) -> bool:
    """Whether the file is a team match: results as Contract/Result tags, one game per room, and no ScoreTable."""
    return not any("ScoreTable" in g.tables for g in games) and any(g.tag("Contract") or g.tag("Result")
                                                                    for g in games)


def imp_entries(rows: list[RawResult]) -> dict[int, list[Entry | int]]:
    """IMP input per board, in row order: scores (a plain int for a score scored once, the scorers' fast path) with
    their multiplicities, artificial awards as ±3 IMPs."""
    boards: dict[int, list[Entry | int]] = defaultdict(list)
    for r in rows:
        if r.artificial is not None:
            boards[r.board].append(ArtificialImps.awards(Award.parse(r.artificial[0]), Award.parse(r.artificial[1]),
                                                         r.count))
        else:
            assert r.ns_score is not None
            boards[r.board].append(r.ns_score if r.count == 1 else Score(r.ns_score, r.count))
    return dict(boards)


@dataclass(frozen=True)
class Room:
    game: PbnGame
    ns_score: int


def room_name(game: PbnGame, index: int) -> str:
    """ "open room", "closed room" (the Room tag), else the room's place among the board's games: "room 2"."""
    room = game.tag("Room").strip().lower()
    return f"{room} room" if room else f"room {index + 1}"


_ROOM_SCORE = re.compile(r"(NS|EW)\s+([+-]?\d{1,4})")


def room_score(tag: str) -> int | None:
    """The NS score a room's Score tag gives ("NS +620", "EW 100": PBN's side then points), None when it gives none."""
    found = _ROOM_SCORE.fullmatch(tag.strip().upper())
    if found is None:
        return None
    points = int(found[2])
    return points if found[1] == "NS" else -points


@dataclass(frozen=True)
class OneRoom:
    """A team board played in one room only whose game gives its IMPs (ScoreIMP, from that table's North-South):
    scored by that figure, as the file's publisher did."""

    room: Room
    open: bool  # the open room (the home team sat NS), else the closed one (the home team sat EW)
    home_net: Fraction  # IMPs to the home team less the away team's


_SCORE_IMP = re.compile(r"(NS|EW)\s+([+-]?\d{1,3}(?:\.\d+)?)")


def parse_score_imp(tag: str) -> Fraction | None:
    """The IMPs a ScoreIMP tag gives North-South ("NS 3", "EW 2.5": PBN's side then IMPs), None when it gives none."""
    found = _SCORE_IMP.fullmatch(tag.strip().upper())
    if found is None:
        return None
    value = Fraction(found[2])
    return value if found[1] == "NS" else -value


def team_rooms(games: list[PbnGame], problems: list[LeftOut],
               one_room: dict[int, OneRoom] | None = None) -> dict[int, tuple[Room, Room]]:
    """Two games per board, open room first (by Room tag, else file order): the home team sits NS in the open.

    A board without exactly two rooms that can be scored is left out of the match (in `problems`), but for a
    board of one room whose game gives its IMPs (ScoreIMP), put in `one_room` when given and named in `problems`.
    """
    by_board: dict[int, list[PbnGame]] = defaultdict(list)
    for game in games:
        if game.tag("Contract") or game.tag("Result"):
            try:
                by_board[board_tag(game)].append(game)
            except PbnResultError as e:
                problems.append(LeftOut(game.line, None, None, f"{e}; the room is left out of the match"))
    out = {}
    for board, pair in sorted(by_board.items()):
        pair.sort(key=lambda g: g.tag("Room").lower() == "closed")
        rooms, bad = [], []
        given: list[LeftOut] = []
        for index, game in enumerate(pair):
            try:
                vul = board_vulnerability(game, board)
            except ValueError as e:
                bad.append(LeftOut(game.line, board, room_name(game, index),
                                   f"{e}; the board is left out of the match"))
                continue
            try:
                score = score_contract(game.tag("Contract"), game.tag("Declarer"), game.tag("Result"), vul)
            except ValueError as e:  # the contract or result unread: the room's own Score tag, when it has one
                own = room_score(game.tag("Score"))
                if own is None:
                    bad.append(LeftOut(game.line, board, room_name(game, index),
                                       f"{e}; the board is left out of the match"))
                    continue
                score = own
                given.append(ScoredAsGiven(game.line, board, room_name(game, index),
                                           f"{e}: scored by its Score tag (NS {own:+d})"))
            rooms.append(Room(game, score))
        problems.extend(given)
        if bad:
            problems.extend(bad)
        elif len(rooms) == 1 and one_room is not None and parse_score_imp(rooms[0].game.tag("ScoreIMP")) is not None:
            game = rooms[0].game
            ns_imps = parse_score_imp(game.tag("ScoreIMP"))
            assert ns_imps is not None
            is_open = game.tag("Room").strip().lower() != "closed"
            one_room[board] = OneRoom(rooms[0], is_open, ns_imps if is_open else -ns_imps)
            problems.append(ScoredAsGiven(game.line, board, room_name(game, 0),
                                          f"one room only: scored by its ScoreIMP ({game.tag('ScoreIMP').strip()})"))
        elif len(rooms) != 2:
            found = "one room only" if len(rooms) == 1 else f"{len(rooms)} results"
            problems.append(LeftOut(pair[0].line, board, None,
                                    f"{found}: a team board needs one result per room; left out of the match"))
        else:
            out[board] = (rooms[0], rooms[1])
    return out


def team_boards(rooms: dict[int, tuple[Room, Room]]) -> list[RoomScores]:
    return [RoomScores(board, open_room.ns_score, closed_room.ns_score)
            for board, (open_room, closed_room) in rooms.items()]
