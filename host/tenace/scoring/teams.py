"""Team matches: two rooms per board scored in IMPs (Law 78B) or total points (Law 78C), carry-over, VPs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from tenace.scoring.imp_results import Award
from tenace.scoring.imps import imps
from tenace.scoring.vp import VictoryPoints, VpOptions, victory_points


@dataclass(frozen=True, slots=True)
class RoomScores:
    """One board played in both rooms. The home team sits North-South in the open room, East-West in the closed."""

    board: int
    open_ns: int
    closed_ns: int


@dataclass(frozen=True, slots=True)
class ArtificialBoard:
    """A board with no comparison whose IMPs are given: Law 12C2 artificial scores (the sides need not balance), or
    the IMPs a file gives a board played in one room only."""

    board: int
    home_imps: Fraction | int
    away_imps: Fraction | int

    @classmethod
    def awards(cls, board: int, home: Award | str, away: Award | str) -> ArtificialBoard:
        """Law 12C2(b): A+ is +3 IMPs, A is 0, A- is -3, e.g. ArtificialBoard.awards(7, "A+", "A")."""
        h = home if isinstance(home, Award) else Award.parse(home)
        a = away if isinstance(away, Award) else Award.parse(away)
        return cls(board, h.imps, a.imps)


TeamBoard = RoomScores | ArtificialBoard

WBF_VP = VpOptions()  # the WBF continuous scale with its concavity correction


@dataclass(frozen=True, slots=True)
class TeamMatchOptions:
    carry_over_home: Fraction | int = 0  # IMPs brought into the match (may be fractional)
    carry_over_away: Fraction | int = 0
    vp: VpOptions | None = WBF_VP  # None: IMPs only
    vp_boards: int | None = None  # boards the VP scale is for; None: the boards scored


@dataclass(frozen=True, slots=True)
class BoardImps:
    board: int
    home: Fraction  # IMPs won by the home team on this board (an artificial score may be negative)
    away: Fraction
    difference: int | None  # open-room NS minus closed-room NS, None for an artificial board

    @property
    def net(self) -> Fraction:
        """Home minus away."""
        return self.home - self.away


@dataclass(frozen=True, slots=True)
class TeamMatch:
    boards: tuple[BoardImps, ...]
    home_imps: Fraction  # carry-over plus the boards
    away_imps: Fraction
    vp: VictoryPoints | None

    @property
    def margin(self) -> Fraction:
        return self.home_imps - self.away_imps


def board_imps(board: TeamBoard) -> BoardImps:
    """Law 78B on one board: the difference between the two rooms' NS scores, in IMPs to the side it favours."""
    if isinstance(board, ArtificialBoard):
        return BoardImps(board.board, Fraction(board.home_imps), Fraction(board.away_imps), None)
    difference = board.open_ns - board.closed_ns
    won = imps(difference)
    return BoardImps(board.board, Fraction(max(won, 0)), Fraction(max(-won, 0)), difference)


def score_team_match(boards: Iterable[TeamBoard], options: TeamMatchOptions = TeamMatchOptions()) -> TeamMatch:
    """IMPs board by board, match totals with carry-over, and (unless options.vp is None) Law 78D VPs."""
    scored = tuple(board_imps(b) for b in boards)
    home = Fraction(options.carry_over_home) + sum((b.home for b in scored), Fraction(0))
    away = Fraction(options.carry_over_away) + sum((b.away for b in scored), Fraction(0))
    vp = None
    if options.vp is not None:
        n = options.vp_boards if options.vp_boards is not None else len(scored)
        vp = victory_points(home - away, n, options.vp)
    return TeamMatch(scored, home, away, vp)


@dataclass(frozen=True, slots=True)
class TotalPoints:
    boards: tuple[tuple[int, int], ...]  # (board, home's net points on it)
    home: int  # Law 78C: the net total of all boards played
    away: int


def score_total_points(boards: Iterable[TeamBoard]) -> TotalPoints:
    """Law 78C total point scoring: each team's score is its net point total over all boards played."""
    per_board = []
    for b in boards:
        if isinstance(b, ArtificialBoard):
            raise ValueError(f"board {b.board}: total point scoring needs a point score in both rooms, "
                             "not an artificial IMP award (assign a score under Law 12C1)")
        per_board.append((b.board, b.open_ns - b.closed_ns))
    home = sum(net for _, net in per_board)
    return TotalPoints(tuple(per_board), home, -home)
