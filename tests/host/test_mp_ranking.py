"""Ranks of a matchpoint field: shared places, the head-to-head tiebreak, Mitchell and one-field ranking."""

from __future__ import annotations

from fractions import Fraction as F

from tenace.scoring.model import BoardResult, Played
from tenace.scoring.mp_options import MatchpointOptions
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.ranking import FieldMode, HeadToHead, Placing, Tiebreak, pair_order, rank_field


def ranks(placings: list[Placing]) -> list[tuple[str, str]]:
    return [(p.pair, p.text) for p in placings]


def test_ties_share_a_place_and_the_next_place_is_skipped() -> None:
    got = rank_field("", {"a": F(10), "b": F(8), "c": F(8), "d": F(5)})
    assert ranks(got) == [("a", "1"), ("b", "2="), ("c", "2="), ("d", "4")]
    assert [p.rank for p in got] == [1, 2, 2, 4]
    assert all(p.tiebreak is None for p in got)


def test_equal_values_written_differently_still_tie() -> None:
    got = rank_field("", {"x": F(1, 2), "y": F(21, 42), "z": F(1, 3)})
    assert [p.text for p in got] == ["1=", "1=", "3"]


def meetings(scored: dict[tuple[str, str], F]) -> HeadToHead:
    return lambda a, b: scored.get((a, b))


def test_head_to_head_breaks_a_tie_two_points_to_the_better() -> None:
    """Magic Contest's "in-between meeting": c beat b on the boards they played against each other."""
    values = {"a": F(10), "b": F(8), "c": F(8), "d": F(5)}
    got = rank_field("", values, meetings({("b", "c"): F(39, 10), ("c", "b"): F(441, 10)}))
    assert ranks(got) == [("a", "1"), ("c", "2"), ("b", "3"), ("d", "4")]
    assert [p.tiebreak for p in got] == [None, 2, 0, None]


def test_head_to_head_draw_or_no_meeting_keeps_the_place_shared() -> None:
    values = {"b": F(8), "c": F(8)}
    drawn = rank_field("", values, meetings({("b", "c"): F(21), ("c", "b"): F(21)}))
    assert ranks(drawn) == [("b", "1="), ("c", "1=")]
    assert [p.tiebreak for p in drawn] == [1, 1]
    apart = rank_field("", values, meetings({}))
    assert ranks(apart) == [("b", "1="), ("c", "1=")]
    assert [p.tiebreak for p in apart] == [0, 0]


def test_head_to_head_among_three_tied_pairs() -> None:
    values = {"a": F(5), "b": F(5), "c": F(5), "z": F(9)}
    scored = {("a", "b"): F(3), ("b", "a"): F(1), ("b", "c"): F(2), ("c", "b"): F(2), ("a", "c"): F(0),
              ("c", "a"): F(4)}
    got = rank_field("", values, meetings(scored))
    # a: 2 (beat b) + 0; c: 2 (beat a) + 1 (drew b); b: 0 + 1.
    assert ranks(got) == [("z", "1"), ("c", "2"), ("a", "3"), ("b", "4")]
    assert [p.tiebreak for p in got] == [None, 3, 2, 1]


def test_pair_ids_in_natural_order() -> None:
    assert sorted(["10", "9", "A10", "A9", "2"], key=pair_order) == ["2", "9", "10", "A9", "A10"]


def mitchell(across: bool = False, sections: tuple[str, ...] = ("A",)) -> list[BoardResult]:
    """Per section, tables 1-3 with NS pairs <s>1..<s>3 and EW pairs <s>4..<s>6, two boards."""
    out = []
    for sec in sections:
        for b, row in ((1, (420, 400, 170)), (2, (-50, 100, -50))):
            for t, s in enumerate(row, 1):
                out.append(BoardResult(sec, t, b, b, f"{sec}{t}", f"{sec}{t + 3}", Played(s)))
    return out


def test_mitchell_ranks_north_south_and_east_west_apart() -> None:
    s = score_pairs_session(mitchell())
    # NS: A1 4+1=5, A2 2+4=6, A3 0+1=1; EW mirrors: A4 3, A5 2, A6 7 (top 4 per board).
    assert [(p.field, p.pair, p.text) for p in s.ranking] == [
        ("EW", "A6", "1"), ("EW", "A4", "2"), ("EW", "A5", "3"),
        ("NS", "A2", "1"), ("NS", "A1", "2"), ("NS", "A3", "3"),
    ]


def test_one_field_when_asked_or_when_pairs_play_both_directions() -> None:
    one = score_pairs_session(mitchell(), MatchpointOptions(fields=FieldMode.ONE))
    assert [p.pair for p in one.ranking] == ["A6", "A2", "A1", "A4", "A5", "A3"]
    assert {p.field for p in one.ranking} == {""}
    # Arrow-switch on board 2: the NS pairs sit EW, so everyone played both directions.
    switched = [r if r.board == 1 else BoardResult(r.section, r.table, r.round, r.board, r.ew_pair, r.ns_pair,
                                                   r.outcome) for r in mitchell()]
    auto = score_pairs_session(switched)
    assert {p.field for p in auto.ranking} == {""}
    assert len(auto.ranking) == 6


def test_sections_ranked_apart_or_together() -> None:
    results = mitchell(sections=("A", "B"))
    apart = score_pairs_session(results, MatchpointOptions(rank_by_section=True))
    assert {p.field for p in apart.ranking} == {"A NS", "A EW", "B NS", "B EW"}
    assert [p.text for p in apart.ranking if p.field == "A NS"] == ["1", "2", "3"]
    together = score_pairs_session(results)
    assert {p.field for p in together.ranking} == {"NS", "EW"}
    # The two sections are identical, so each place is shared by the A and the B pair.
    assert [p.text for p in together.ranking if p.field == "NS"] == ["1=", "1=", "3=", "3=", "5=", "5="]


def test_session_head_to_head_tiebreak_from_the_boards_the_tied_pairs_met_on() -> None:
    """Four pairs, two tables (top 2), three rounds of two boards; pairs 2 and 3 change direction (one field).

    Totals: pairs 1 and 2 on 7, pairs 3 and 4 on 5. On boards 1-2 pair 1 scored 3 against pair 2's 1,
    and pair 4 scored 3 against pair 3's 1 (table 2): so 1 before 2 and 4 before 3.
    """
    rounds = {1: (("1", "2"), ("3", "4")), 2: (("1", "3"), ("2", "4")), 3: (("1", "4"), ("3", "2"))}
    scores = {1: (100, 50), 2: (100, 100), 3: (-100, 0), 4: (0, 0), 5: (100, 50), 6: (50, 50)}
    results = []
    for b, row in scores.items():
        rnd = (b + 1) // 2
        for t, score in enumerate(row, 1):
            ns, ew = rounds[rnd][t - 1]
            results.append(BoardResult("A", t, rnd, b, ns, ew, Played(score)))
    s = score_pairs_session(results, MatchpointOptions(tiebreak=Tiebreak.HEAD_TO_HEAD))
    assert {p: t.exact for p, t in s.totals.items()} == {"1": 7, "2": 7, "3": 5, "4": 5}
    assert [(p.pair, p.text, p.tiebreak) for p in s.ranking] == [
        ("1", "1", 2), ("2", "2", 0), ("4", "3", 2), ("3", "4", 0)]
    shared = score_pairs_session(results)  # no tiebreak: the places are shared
    assert [(p.pair, p.text) for p in shared.ranking] == [("1", "1="), ("2", "1="), ("3", "3="), ("4", "3=")]
