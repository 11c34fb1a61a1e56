"""Team matches: Law 78B per board between the rooms, totals with carry-over, Law 12C2 boards, Law 78C, VPs."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tenace.scoring.teams import (
    ArtificialBoard,
    RoomScores,
    TeamMatchOptions,
    board_imps,
    score_team_match,
    score_total_points,
)
from tenace.scoring.vp import VictoryPoints, VpOptions

MATCH = [
    RoomScores(1, open_ns=620, closed_ns=170),  # home +450: 10 IMPs to home
    RoomScores(2, open_ns=-100, closed_ns=620),  # home -720: 12 IMPs to away
    RoomScores(3, open_ns=420, closed_ns=420),  # flat
    RoomScores(4, open_ns=-50, closed_ns=-90),  # home +40: 1 IMP
]


def test_law_78b_per_board_between_the_rooms() -> None:
    scored = [board_imps(b) for b in MATCH]
    assert [(b.board, b.home, b.away, b.difference) for b in scored] == [
        (1, 10, 0, 450), (2, 0, 12, -720), (3, 0, 0, 0), (4, 1, 0, 40)]
    assert [b.net for b in scored] == [10, -12, 0, 1]


def test_match_totals_and_vps() -> None:
    match = score_team_match(MATCH)
    assert (match.home_imps, match.away_imps, match.margin) == (11, 12, -1)
    # WBF scale for 4 boards (blitz 30): 10 + 10 (1 - tau^(3/30)) / (1 - tau^3) = 10.614999 to the away team.
    assert match.vp == VictoryPoints(Decimal("9.39"), Decimal("10.61"))


def test_carry_over_counts_in_totals_and_can_be_fractional() -> None:
    match = score_team_match(MATCH, TeamMatchOptions(carry_over_home=Fraction(5, 2)))
    assert (match.home_imps, match.away_imps, match.margin) == (Fraction(27, 2), 12, Fraction(3, 2))
    # Between the 4-board scale's 1 and 2 IMPs (10.61 and 11.20): 10.905, half-up 10.91 (the formula at 1.5: 10.9116).
    assert match.vp == VictoryPoints(Decimal("10.91"), Decimal("9.09"))
    both = score_team_match(MATCH, TeamMatchOptions(carry_over_home=2, carry_over_away=Fraction(1, 2)))
    assert both.margin == Fraction(1, 2)


def test_vp_options_and_scale_length() -> None:
    assert score_team_match(MATCH, TeamMatchOptions(vp=None)).vp is None
    # A 16-board VP scale for a match scored so far on 4 boards (e.g. a running score).
    sixteen = score_team_match(MATCH, TeamMatchOptions(vp_boards=16, carry_over_home=8))
    assert sixteen.margin == 7
    assert sixteen.vp == VictoryPoints(Decimal("12.03"), Decimal("7.97"))
    plain = score_team_match(MATCH, TeamMatchOptions(vp=VpOptions(concavity_correction=False)))
    assert plain.vp == VictoryPoints(Decimal("9.39"), Decimal("10.61"))  # no correction at 1 IMP on 4 boards


def test_law_12c2_artificial_board_in_teams() -> None:
    # No comparison possible on board 5: home in no way at fault (A+, +3), away directly at fault (A-, -3).
    match = score_team_match([*MATCH, ArtificialBoard.awards(5, "A+", "A-")])
    assert (match.boards[-1].home, match.boards[-1].away, match.boards[-1].difference) == (3, -3, None)
    assert (match.home_imps, match.away_imps, match.margin) == (14, 9, 5)
    # Non-balancing: home A+, away A (only partly at fault): +3 and 0.
    partial = score_team_match([*MATCH, ArtificialBoard.awards(5, "A+", "A")])
    assert (partial.home_imps, partial.away_imps) == (14, 12)
    assert ArtificialBoard(6, 2, Fraction(1, 2)).home_imps == 2  # 12C2(b) values varied by the organizer


def test_law_78c_total_points() -> None:
    total = score_total_points(MATCH)
    assert total.boards == ((1, 450), (2, -720), (3, 0), (4, 40))
    assert (total.home, total.away) == (-230, 230)
    with pytest.raises(ValueError, match="board 5"):
        score_total_points([*MATCH, ArtificialBoard.awards(5, "A", "A")])


def test_empty_match_is_a_draw() -> None:
    match = score_team_match([], TeamMatchOptions(vp_boards=8))
    assert (match.home_imps, match.away_imps) == (0, 0)
    assert match.vp == VictoryPoints(Decimal("10.00"), Decimal("10.00"))
