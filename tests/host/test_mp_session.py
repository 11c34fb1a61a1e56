"""A matchpoint pairs session: common top (Law 78A), Law 90 penalties, sections, not-played boards."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction as F

import pytest

from tenace.scoring.model import (
    Artificial,
    Average,
    BoardResult,
    NotPlayed,
    Outcome,
    Penalty,
    PenaltyUnit,
    Played,
    Weighted,
)
from tenace.scoring.mp_options import Factoring, MatchpointOptions, UnequalBoards, Units
from tenace.scoring.pairs_session import SessionScore, score_pairs_session


def mitchell(rows: dict[int, tuple[Outcome | int, ...]], section: str = "A") -> list[BoardResult]:
    """Table t: NS pair <section>t, EW pair <section>(t+10); one result per table and board."""
    out = []
    for b, row in rows.items():
        for t, o in enumerate(row, 1):
            outcome = Played(o) if isinstance(o, int) else o
            out.append(BoardResult(section, t, b, b, f"{section}{t}", f"{section}{t + 10}", outcome))
    return out


# Board 1: 420, 400, 170 -> NS 4, 2, 0. Board 2: -50, 100, -50 -> NS 1, 4, 1. Top 4, session top 8.
SMALL = {1: (420, 400, 170), 2: (-50, 100, -50)}


def test_session_totals_and_percentages() -> None:
    s = score_pairs_session(mitchell(SMALL))
    assert {p: t.exact for p, t in s.totals.items()} == {"A1": 5, "A2": 6, "A3": 1, "A11": 3, "A12": 2, "A13": 7}
    a1 = s.totals["A1"]
    assert (a1.mp, a1.percent, a1.top, a1.boards) == (Decimal("5.00"), Decimal("62.50"), 8, 2)
    assert a1.directions == {"NS"}


def test_law78a_common_top_when_a_board_reached_fewer_tables() -> None:
    """Board 2 was played at two tables only: Neuberg brings it to the session's top of 4 (E = 3)."""
    s = score_pairs_session(mitchell({1: (420, 400, 170), 2: (100, -50)}))
    b2 = s.board(2, "A")
    assert (b2.expected, b2.top) == (3, 4)
    assert [t.ns.exact for t in b2.tables if t.ns] == [F(7, 2), F(1, 2)]
    assert s.totals["A3"].top == 4  # pair A3 did not meet board 2 at all


FIELD = MatchpointOptions(unequal_boards=UnequalBoards.FIELD)


def test_unequal_boards_plain_or_brought_to_the_field() -> None:
    """Board 2 reached two tables: pair A3 and its EW opponent A13 have one board (top 4), the others two (top 8).
    PLAIN adds each pair's boards as they are; FIELD brings A3 (and A13) to the most top of its field, 8, so a pair
    that missed a board its field played is prorated. The percentage is over the pair's own boards either way."""
    rows = mitchell({1: (420, 400, 170), 2: (100, -50)})
    plain = score_pairs_session(rows)
    assert plain.totals["A3"].mp == Decimal("0.00") and plain.totals["A13"].mp == Decimal("4.00")
    field = score_pairs_session(rows, FIELD)
    assert field.totals["A13"].mp == Decimal("8.00") and field.totals["A13"].percent == Decimal("100.00")
    assert field.totals["A1"].mp == plain.totals["A1"].mp  # a pair with the field's boards: as it is
    # A sit-out every pair of a field has changes no total: two NS pairs meet three EW pairs, one board a round, an
    # EW pair sitting out each round; every EW pair has two boards, every NS pair three.
    meetings = [(1, "A1", "A11", 100), (1, "A2", "A12", 50), (2, "A1", "A12", -50), (2, "A2", "A13", 110),
                (3, "A1", "A13", 420), (3, "A2", "A11", 450)]
    sitout = [BoardResult("A", int(ns[1:]), b, b, ns, ew, Played(score)) for b, ns, ew, score in meetings]
    tops = {p: t.top for p, t in score_pairs_session(sitout).totals.items()}
    assert tops == {"A1": 6, "A2": 6, "A11": 4, "A12": 4, "A13": 4}
    assert {p: t.mp for p, t in score_pairs_session(sitout, FIELD).totals.items()} == \
        {p: t.mp for p, t in score_pairs_session(sitout).totals.items()}
    assert field.placing("A13").rank == plain.placing("A13").rank == 1


def test_law78a_north_american_units_session() -> None:
    s = score_pairs_session(mitchell(SMALL), MatchpointOptions(units=Units.NORTH_AMERICAN))
    a1 = s.totals["A1"]
    assert (a1.exact, a1.top, a1.percent) == (F(5, 2), 4, Decimal("62.50"))


def test_law90_penalty_in_percent_of_a_top_is_a_separate_entry() -> None:
    pen = Penalty("A1", F(25), PenaltyUnit.PERCENT_OF_TOP, reason="slow play")
    s = score_pairs_session(mitchell(SMALL), penalties=[pen])
    a1 = s.totals["A1"]
    assert a1.penalty == 1  # 25% of a top of 4
    assert (a1.exact, a1.mp, a1.percent) == (4, Decimal("4.00"), Decimal("50.00"))
    t = s.board(1, "A").tables[0]
    assert t.ns is not None and t.ns.exact == 4  # the table result is untouched
    assert s.totals["A11"].exact == 3  # the opponents are not affected
    assert [p.pair for p in s.ranking if p.field == "NS"] == ["A2", "A1", "A3"]


def test_law90_penalty_in_matchpoints_and_on_a_given_board() -> None:
    mp = score_pairs_session(mitchell(SMALL), penalties=[Penalty("A2", F(3), PenaltyUnit.MATCHPOINTS)])
    assert (mp.totals["A2"].exact, mp.totals["A2"].percent) == (3, Decimal("37.50"))
    # Without factoring, board 2 played twice has its own top of 2: 50% of it is 1 MP.
    rows = {1: (420, 400, 170), 2: (100, -50)}
    opts = MatchpointOptions(factoring=Factoring.NONE)
    on_board = score_pairs_session(mitchell(rows), opts, [Penalty("A1", F(50), board=2)])
    session_top = score_pairs_session(mitchell(rows), opts, [Penalty("A1", F(50))])
    assert on_board.totals["A1"].penalty == 1
    assert session_top.totals["A1"].penalty == 2
    with pytest.raises(ValueError):
        Penalty("A1", F(-1))


def test_not_played_leaves_the_board_out_of_both_pairs_totals() -> None:
    not_played = score_pairs_session(mitchell({1: SMALL[1], 2: (NotPlayed(), 100, -50)}))
    average = score_pairs_session(mitchell({1: SMALL[1], 2: (Artificial(Average.EVEN, Average.EVEN), 100, -50)}))
    a, b = not_played.totals["A1"], average.totals["A1"]
    assert (a.boards, a.top, a.exact) == (1, 4, 4)
    assert (b.boards, b.top, b.exact) == (2, 8, 6)
    assert a.percent == Decimal("100.00") and b.percent == Decimal("75.00")


def test_sections_compared_apart_or_across_the_field() -> None:
    results = mitchell({1: (420, 400, 170)}, "A") + mitchell({1: (420, 420, 420)}, "B")
    apart = score_pairs_session(results)
    assert apart.board(1, "A").top == 4 and apart.totals["A1"].exact == 4
    assert apart.totals["B1"].exact == 2
    across = score_pairs_session(results, MatchpointOptions(across_sections=True))
    assert across.board(1).top == 10
    # A1's 420 beats 400 and 170 and ties the three 420s of section B: 2 x 2 + 3.
    assert across.totals["A1"].exact == 7
    assert across.totals["B1"].exact == 7
    assert across.totals["A3"].exact == 0


def random_session(rng: random.Random, tables: int = 4, boards: int = 6) -> list[BoardResult]:
    outcomes: list[Outcome] = [NotPlayed(), Artificial(Average.PLUS, Average.MINUS),
                               Artificial(Average.PLUS, Average.PLUS), Weighted.of(("3/5", 420), ("2/5", -50))]
    out = []
    for b in range(1, boards + 1):
        fouled = rng.random() < 0.2
        for t in range(1, tables + 1):
            roll = rng.random()
            o = rng.choice(outcomes) if roll < 0.15 else Played(rng.choice((-100, -50, 90, 110, 140, 420)))
            group = rng.choice(("x", "y")) if fouled else None
            out.append(BoardResult("A" if t <= 2 else "B", t, b, b, f"{t}", f"{t + 50}", o, group))
    return out


def comparable(s: SessionScore) -> tuple[object, ...]:
    tables = {(b.section, b.board, t.result.table): (t.ns, t.ew) for b in s.boards for t in b.tables}
    return (s.totals, s.ranking, tables)


@pytest.mark.parametrize("seed", range(4))
def test_a_later_version_of_a_result_replaces_the_earlier(seed: int) -> None:
    """Corrections in the input (same section, table, round and board) score as if only the last were there."""
    rng = random.Random(seed)
    opts = MatchpointOptions(across_sections=True, board_mp_decimals=1, total_mp_decimals=1)
    final = random_session(rng)
    with_corrections: list[BoardResult] = []
    for r in rng.sample(final, len(final)):
        if rng.random() < 0.3:  # a wrong first version, corrected later
            with_corrections.append(replace(r, outcome=Played(-1430)))
        with_corrections.append(r)
    assert comparable(score_pairs_session(with_corrections, opts)) == comparable(score_pairs_session(final, opts))
