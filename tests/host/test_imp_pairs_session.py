"""Butler IMP pairs sessions (Law 78B) from the matchpoint engine's results: totals, Mitchell fields, shared places."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tenace.scoring.imp_pairs_session import score_butler_session
from tenace.scoring.model import Artificial, Average, BoardResult, NotPlayed, Outcome, Played, Split, Weighted


def result(table: int, board: int, ns: int, ew: int, outcome: Outcome) -> BoardResult:
    return BoardResult("A", table, board, board, f"A{ns}NS", f"A{ew}EW", outcome)


# A three-table Mitchell, worked by hand with the default options (trim one score at each end, datum to 10).
SESSION = [
    # Board 1: -50 420 450, trimmed to 420. 0 -> 0; +30 -> 1; -470 -> -10 IMPs.
    result(1, 1, 1, 1, Played(420)), result(2, 1, 2, 2, Played(450)), result(3, 1, 3, 3, Played(-50)),
    # Board 2: not played at table 2; two scores keep both: mean 5, datum 10. +100 -> 3; -110 -> -3.
    result(1, 2, 1, 2, Played(110)), result(2, 2, 2, 3, NotPlayed()), result(3, 2, 3, 1, Played(-100)),
    # Board 3: A+/A- at table 1 is +3/-3 and stays out of the datum: +200, -200, datum 0. 200 -> 5 IMPs.
    result(1, 3, 1, 3, Artificial(Average.PLUS, Average.MINUS)), result(2, 3, 2, 1, Played(200)),
    result(3, 3, 3, 2, Played(-200)),
]


def test_law78b_hand_computed_mitchell_totals_and_ranks() -> None:
    session = score_butler_session(SESSION)
    imps = {p: t.imps for p, t in session.totals.items()}
    assert imps == {"A1NS": 0 + 3 + 3, "A2NS": 1 + 5, "A3NS": -10 - 3 - 5,
                    "A1EW": 0 + 3 - 5, "A2EW": -1 - 3 + 5, "A3EW": 10 - 3}
    assert [(p.field, p.text, p.pair) for p in session.ranking] == [
        ("NS", "1=", "A1NS"), ("NS", "1=", "A2NS"), ("NS", "3", "A3NS"),
        ("EW", "1", "A3EW"), ("EW", "2", "A2EW"), ("EW", "3", "A1EW"),
    ]
    assert [session.boards[("A", b, None)].datum for b in (1, 2, 3)] == [420, 10, 0]


def test_not_played_scores_nothing_for_either_pair() -> None:
    totals = score_butler_session(SESSION).totals
    assert totals["A2NS"].boards == 2 and totals["A3EW"].boards == 2
    assert totals["A1NS"].boards == 3 and totals["A1NS"].directions == {"NS"}


def test_a_pair_sitting_both_ways_makes_one_field() -> None:
    howell = [BoardResult("A", 1, 1, 1, "1", "2", Played(420)), BoardResult("A", 2, 1, 1, "3", "4", Played(170)),
              BoardResult("A", 1, 2, 2, "2", "3", Played(-100)), BoardResult("A", 2, 2, 2, "4", "1", Played(100))]
    session = score_butler_session(howell)
    assert {p.field for p in session.ranking} == {""}
    # Board 1: datum (420 + 170) / 2 = 295 -> 300: +120 -> 3, -130 -> -4. Board 2: datum 0: 100 -> 3.
    assert {p: t.imps for p, t in session.totals.items()} == {"1": 3 - 3, "2": -3 - 3, "3": -4 + 3, "4": 4 + 3}
    assert [(p.pair, p.text) for p in session.ranking] == [("4", "1"), ("1", "2"), ("3", "3"), ("2", "4")]


def test_weighted_score_imps_each_component_against_the_others_datum() -> None:
    board = [result(1, 1, 1, 1, Played(420)), result(2, 1, 2, 2, Played(420)), result(3, 1, 3, 3, Played(170)),
             result(4, 1, 4, 4, Weighted.of(("3/5", 420), ("2/5", -50)))]
    session = score_butler_session(board)
    assert session.boards[("A", 1, None)].datum == 420  # 170 420 420 trimmed: the weighted score is not in it
    # Law 12C1(c): 3/5 of 0 IMPs plus 2/5 of -470 -> -10 IMPs.
    assert session.totals["A4NS"].imps == Fraction(-4) and session.totals["A4EW"].imps == 4


def test_split_score_gives_each_side_the_imps_of_its_own_assigned_score() -> None:
    board = [result(1, 1, 1, 1, Played(420)), result(2, 1, 2, 2, Played(420)), result(3, 1, 3, 3, Played(170)),
             result(4, 1, 4, 4, Split(Weighted.of((1, 420)), Weighted.of((1, -50))))]
    session = score_butler_session(board)
    assert session.boards[("A", 1, None)].datum == 420  # 170 420 420 trimmed: the split score is not in it
    # NS at +420 against 420: 0 IMPs. EW at NS -50: -470 -> NS -10, so EW +10.
    assert session.totals["A4NS"].imps == 0 and session.totals["A4EW"].imps == 10


def test_a_percentage_without_an_imp_equivalent_is_refused() -> None:
    with pytest.raises(ValueError, match="65% has no IMP equivalent"):
        score_butler_session([result(1, 1, 1, 1, Artificial(Fraction(65), Fraction(35))),
                              result(2, 1, 2, 2, Played(420))])
    sixty = score_butler_session([result(1, 1, 1, 1, Artificial(Fraction(60), Fraction(40))),
                                  result(2, 1, 2, 2, Played(420))])
    assert (sixty.totals["A1NS"].imps, sixty.totals["A1EW"].imps) == (3, -3)
