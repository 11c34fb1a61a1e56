"""Oracle: 1997 Venice Cup final, China v USA 1, boards 17-32, re-scored from the raw results as a team match.

The file's conventions, learned from its tags: two games per board, the open room first (Zhang Ya - Gu of
China North-South), then the closed room (Meyers - Montin of USA 1 North-South). Both games say
[Room "Open"], so the rooms are told apart by order and by who sat North-South, not by that tag.
[Score] is the NS score; [ScoreIMP] sits on the closed-room game, from that table's point of view
("EW 2": the closed room's East-West, China, won 2 IMPs), and is left out when the board was flat.
Inputs are Contract, Declarer, Result (declarer's tricks) and Vulnerable; Score and ScoreIMP are expected values.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest

from tenace.pbn.reader import PbnGame, read_pbn
from tenace.scoring.teams import RoomScores, TeamMatchOptions, board_imps, score_team_match, score_total_points
from tenace.scoring.vp import VictoryPoints
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract, parse_vulnerability
from tenace_rules.score import ns_score

from conftest import ORACLES, needs_oracles

PBN = ORACLES / "venice-cup-1997-final-2.pbn"

pytestmark = needs_oracles


def law77(game: PbnGame) -> int:
    """The NS score recomputed from contract, declarer and tricks with the board's vulnerability."""
    contract = parse_contract(game.tags["Contract"])
    if contract.passed_out:
        return 0
    return ns_score(contract, game.tags["Declarer"], parse_vulnerability(game.tags["Vulnerable"]),
                    int(game.tags["Result"]))


def signed(tag: str) -> int:
    """ "NS 480" -> 480, "EW 2" -> -2: the value from North-South's side."""
    side, value = tag.split()
    assert side in ("NS", "EW")
    return int(value) if side == "NS" else -int(value)


@pytest.fixture(scope="module")
def rooms() -> dict[int, tuple[PbnGame, PbnGame]]:
    by_board: dict[int, list[PbnGame]] = defaultdict(list)
    for game in read_pbn(PBN):
        by_board[int(game.tags["Board"])].append(game)
    assert all(len(games) == 2 for games in by_board.values())
    return {board: (games[0], games[1]) for board, games in sorted(by_board.items())}


def test_the_rooms_keep_their_players(rooms: dict[int, tuple[PbnGame, PbnGame]]) -> None:
    assert list(rooms) == list(range(17, 33))
    for open_room, closed_room in rooms.values():
        assert (open_room.tags["North"], open_room.tags["South"]) == ("Zhang Ya", "Gu")  # China NS
        assert (closed_room.tags["North"], closed_room.tags["South"]) == ("Meyers", "Montin")  # USA 1 NS
        assert open_room.tags["HomeTeam"] == "China"
        assert "ScoreIMP" not in open_room.tags


def test_law_77_scores_and_law_2_vulnerability(rooms: dict[int, tuple[PbnGame, PbnGame]]) -> None:
    compared = 0
    for board, games in rooms.items():
        for game in games:
            assert parse_vulnerability(game.tags["Vulnerable"]) == vulnerability(board)
            assert law77(game) == signed(game.tags["Score"]), (board, game.tags["Contract"])
            compared += 1
    assert compared == 32


def test_imps_per_board_reproduce_the_published_figures(rooms: dict[int, tuple[PbnGame, PbnGame]]) -> None:
    published = explicit = 0
    for board, (open_room, closed_room) in rooms.items():
        scored = board_imps(RoomScores(board, open_ns=law77(open_room), closed_ns=law77(closed_room)))
        # China (home) is NS in the open room, EW in the closed room: the tag's EW is China.
        expected_home_net = -signed(closed_room.tags["ScoreIMP"]) if "ScoreIMP" in closed_room.tags else 0
        explicit += "ScoreIMP" in closed_room.tags
        assert scored.net == expected_home_net, board
        assert (scored.home == 0) or (scored.away == 0)
        published += 1
    assert (published, explicit) == (16, 9)  # 9 boards with IMPs, 7 flat


def test_the_segment_as_a_match(rooms: dict[int, tuple[PbnGame, PbnGame]]) -> None:
    boards = [RoomScores(b, law77(o), law77(c)) for b, (o, c) in rooms.items()]
    # The published per-board IMPs summed by hand: China 2 + 1 + 3 + 7 + 2 + 6 + 6 = 27 (the "EW" tags),
    # USA 1 1 + 3 = 4 (the "NS" tags on boards 22 and 30).
    match = score_team_match(boards)
    assert (match.home_imps, match.away_imps) == (27, 4)
    # The file gives no VPs. WBF scale for 16 boards (blitz 60), by hand: 10 + 10 (1 - tau^(69/60)) / (1 - tau^3)
    # = 15.563 for a margin of 23.
    assert match.vp == VictoryPoints(Decimal("15.56"), Decimal("4.44"))
    # A carry-over into the segment only shifts the totals.
    carried = score_team_match(boards, TeamMatchOptions(carry_over_home=Fraction(21, 2)))
    assert carried.margin == match.margin + Fraction(21, 2)
    # Law 78C on the same boards, China's net total points by hand from the [Score] tags:
    # 80 + 30 - 30 + 100 + 290 + 60 + 250 - 100 + 230 = 910 (boards 18, 20, 22, 23, 25, 26, 27, 30, 31).
    total = score_total_points(boards)
    assert (total.home, total.away) == (910, -910)
