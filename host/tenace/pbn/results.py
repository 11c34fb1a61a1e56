"""From PBN games to the scoring engine's inputs: raw results only, every score recomputed by Law 77.

A PBN file may carry computed columns (MP_NS, IMP_NS, Percentage...); they are never read here.
Pairs files give one ScoreTable per board (table/round/pair ids, or a Multiplicity column); team
files give one game per room with Contract/Declarer/Result tags.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tenace.pbn.reader import PbnGame
from tenace.scoring.imp_results import ArtificialImps, Award, Entry, Score
from tenace.scoring.model import Artificial, Average, BoardResult, Played
from tenace.scoring.teams import RoomScores
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract, parse_declarer, parse_vulnerability
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks

_AVERAGES = {"A+": Average.PLUS, "A": Average.EVEN, "A-": Average.MINUS}
_NO_CONTRACT = ("", "-", "?")


class PbnResultError(ValueError):
    """A result in a PBN file that cannot be scored, naming its board and row."""


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

    def where(self) -> str:
        return f"board {self.board}" + (f" table {self.table}" if self.table is not None else f" row {self.row}")


def board_number(game: PbnGame) -> int:
    try:
        board = int(game.tag("Board"))
    except ValueError:
        raise PbnResultError(f"game at line {game.line}: Board tag {game.tag('Board')!r} is not a number") from None
    if board < 1:
        raise PbnResultError(f"game at line {game.line}: board number {board} is not 1 or more")
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
    return text if text in _AVERAGES else None


def raw_results(game: PbnGame) -> list[RawResult]:
    """The rows of a game's ScoreTable, each NS score recomputed from contract, declarer and tricks."""
    table = game.tables.get("ScoreTable")
    if table is None:
        return []
    board = board_number(game)
    vul = board_vulnerability(game, board)
    out = []
    for number, rec in enumerate(table.records(), start=1):
        contract = rec.get("Contract", "").strip()
        artificial = None
        score: int | None = None
        if contract in _NO_CONTRACT:
            ns, ew = _artificial(rec.get("Score_NS", "")), _artificial(rec.get("Score_EW", ""))
            if ns is None or ew is None:
                raise PbnResultError(f"board {board} row {number}: no contract and no artificial score (A+/A/A-)")
            artificial = (ns, ew)
        else:
            try:
                score = score_contract(contract, rec.get("Declarer", ""), rec.get("Result", ""), vul)
            except ValueError as e:
                raise PbnResultError(f"board {board} row {number}: {e}") from None
        out.append(RawResult(
            board=board, row=number,
            table=int(rec["Table"]) if rec.get("Table", "-").isdigit() else None,
            round=int(rec["Round"]) if rec.get("Round", "-").isdigit() else None,
            ns_pair=rec.get("PairId_NS"), ew_pair=rec.get("PairId_EW"),
            contract=contract, declarer=rec.get("Declarer", ""), result=rec.get("Result", ""),
            count=int(rec["Multiplicity"]) if rec.get("Multiplicity", "").isdigit() else 1,
            artificial=artificial, ns_score=score,
        ))
    return out


def all_raw_results(games: list[PbnGame]) -> list[RawResult]:
    return [r for game in games for r in raw_results(game)]


def has_pairs(rows: list[RawResult]) -> bool:
    return bool(rows) and all(r.ns_pair and r.ew_pair and r.ns_pair != "-" for r in rows)


def pairs_results(rows: list[RawResult], section: str = "") -> list[BoardResult]:
    """Matchpoint input: one BoardResult per row (rows need pair ids; a Multiplicity is not allowed)."""
    if not has_pairs(rows):
        raise PbnResultError("this file's score tables name no pairs (PairId_NS/PairId_EW): nothing to rank")
    out = []
    for r in rows:
        if r.count != 1:
            raise PbnResultError(f"{r.where()}: a Multiplicity of {r.count} cannot be matchpointed by pair")
        outcome: Played | Artificial
        if r.artificial is not None:
            outcome = Artificial(_AVERAGES[r.artificial[0]], _AVERAGES[r.artificial[1]])
        else:
            assert r.ns_score is not None
            outcome = Played(r.ns_score)
        out.append(BoardResult(section, r.table or r.row, r.round or 1, r.board, str(r.ns_pair), str(r.ew_pair),
                               outcome))
    return out


def imp_entries(rows: list[RawResult]) -> dict[int, list[Entry]]:
    """IMP input per board, in row order: scores with their multiplicities, artificial awards as ±3 IMPs."""
    boards: dict[int, list[Entry]] = defaultdict(list)
    for r in rows:
        if r.artificial is not None:
            boards[r.board].append(ArtificialImps.awards(Award.parse(r.artificial[0]), Award.parse(r.artificial[1]),
                                                         r.count))
        else:
            assert r.ns_score is not None
            boards[r.board].append(Score(r.ns_score, r.count))
    return dict(boards)


@dataclass(frozen=True)
class Room:
    game: PbnGame
    ns_score: int


def team_rooms(games: list[PbnGame]) -> dict[int, tuple[Room, Room]]:
    """Two games per board, open room first (by Room tag, else file order): the home team sits NS in the open."""
    by_board: dict[int, list[PbnGame]] = defaultdict(list)
    for game in games:
        if game.tag("Contract") or game.tag("Result"):
            by_board[board_number(game)].append(game)
    out = {}
    for board, pair in sorted(by_board.items()):
        if len(pair) != 2:
            raise PbnResultError(f"board {board}: a team match needs one result per room, found {len(pair)}")
        pair.sort(key=lambda g: g.tag("Room").lower() == "closed")
        rooms = []
        for game in pair:
            try:
                score = score_contract(game.tag("Contract"), game.tag("Declarer"), game.tag("Result"),
                                       board_vulnerability(game, board))
            except ValueError as e:
                raise PbnResultError(f"board {board} ({game.tag('Room') or 'room'}): {e}") from None
            rooms.append(Room(game, score))
        out[board] = (rooms[0], rooms[1])
    return out


def team_boards(rooms: dict[int, tuple[Room, Room]]) -> list[RoomScores]:
    return [RoomScores(board, open_room.ns_score, closed_room.ns_score)
            for board, (open_room, closed_room) in rooms.items()]
