"""Every movement Tenace generates passes its own checker, has the properties its kind promises, and a
movement broken by hand fails with the broken rule named."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tenace.movement import (
    MAX_HOWELL_TABLES,
    MIN_HOWELL_TABLES,
    RULES,
    Encounter,
    Movement,
    MovementError,
    appendix_mitchell,
    arrow_switched,
    check,
    howell,
    mitchell,
    relay_mitchell,
    shortened,
    skip_mitchell,
    teams,
    with_phantom,
)

HOWELL_TABLES = range(MIN_HOWELL_TABLES, MAX_HOWELL_TABLES + 1)


def passes(m: Movement) -> None:
    report = check(m)
    assert report.ok, [p.message for p in report.errors]
    assert all(p.rule in RULES for p in report.errors)


@pytest.mark.parametrize("tables", [*range(2, 41), 63, 127, 128])
def test_every_mitchell_passes(tables: int) -> None:
    passes(mitchell(tables, 1 if tables > 100 else 3))
    if tables % 2 == 0 and tables < 100:
        passes(skip_mitchell(tables, 2))
        if tables < 127:
            passes(relay_mitchell(tables, 2))


@pytest.mark.parametrize("tables", [2, 3, 8, 13])
def test_mitchell_variants_pass(tables: int) -> None:
    plain = mitchell(tables, 2)
    passes(mitchell(tables, 2, tables))  # duplicated boards
    passes(with_phantom(plain, ("NS", tables)))
    passes(with_phantom(plain, ("EW", 1)))
    passes(arrow_switched(plain, [plain.rounds]))
    passes(arrow_switched(with_phantom(plain, ("NS", tables)), range(1, plain.rounds + 1, 2)))
    for rounds in range(1, plain.rounds + 1):
        passes(shortened(plain, rounds))


@pytest.mark.parametrize("tables", HOWELL_TABLES)
def test_every_howell_passes_complete_shortened_and_with_a_half_table(tables: int) -> None:
    complete = howell(tables, 3)
    assert (complete.rounds, complete.boards, complete.kind) == (2 * tables - 1, 3 * (2 * tables - 1), "howell")
    passes(complete)
    passes(with_phantom(complete, ("", 2 * tables)))
    for rounds in range(1, complete.rounds):
        passes(howell(tables, 3, rounds))


@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_team_matches_pass(rounds: int) -> None:
    passes(teams(8, rounds))


def test_mitchell_of_7_tables_every_ns_pair_meets_every_ew_pair_once() -> None:
    report = check(mitchell(7, 3))
    assert len(report.meetings) == 49 and set(report.meetings.values()) == {1}
    assert all(a[0] == "NS" and b[0] == "EW" for a, b in report.meetings)
    assert report.balance is not None and report.balance.balanced
    assert {s.boards for s in report.pairs} == {21}


@pytest.mark.parametrize("tables", HOWELL_TABLES)
def test_complete_howell_every_pair_meets_every_other_once_and_plays_every_board(tables: int) -> None:
    m = howell(tables, 3)
    report = check(m)
    pairs = 2 * tables
    assert len(report.meetings) == pairs * (pairs - 1) // 2 and set(report.meetings.values()) == {1}
    assert {s.boards for s in report.pairs} == {m.boards} and {s.opponents for s in report.pairs} == {pairs - 1}
    # Pairs change direction: no pair other than the stationary one sits the same way all evening.
    for s in report.pairs[:-1]:
        sides = Counter("NS" if e.ns_pair == s.pair[1] else "EW" for e in m.encounters if s.pair[1] in
                        (e.ns_pair, e.ew_pair))
        assert len(sides) == 2, s.label


@pytest.mark.parametrize(("tables", "spread"), [(3, 6), (4, 0), (5, 2), (6, 0), (7, 2), (8, 0), (9, 2), (10, 4)])
def test_howell_comparisons_are_as_balanced_as_the_directions_allow(tables: int, spread: int) -> None:
    """The couples' comparisons (at 1 board a round) differ by at most `spread` boards: balanced at 4, 6, 8."""
    balance = check(howell(tables, 3 if tables == 3 else 1)).balance
    assert balance is not None and balance.highest - balance.lowest == spread
    assert balance.balanced == (spread == 0)


@pytest.mark.parametrize("tables", [4, 6, 8, 10, 12, 30])
def test_skip_mitchell_no_ew_pair_plays_a_board_set_twice(tables: int) -> None:
    m = skip_mitchell(tables, 3)
    for ew in range(1, tables + 1):
        sets = [e.boards for e in m.encounters if e.ew_pair == ew]
        assert len(sets) == len(set(sets)) == tables - 1
    assert check(m).meetings and max(check(m).meetings.values()) == 1


@pytest.mark.parametrize("tables", [2, 4, 8, 14])
def test_relay_mitchell_every_pair_plays_every_board_and_meets_every_opponent(tables: int) -> None:
    m = relay_mitchell(tables, 2)
    report = check(m)
    assert m.rounds == tables and {s.boards for s in report.pairs} == {2 * tables}
    assert set(report.meetings.values()) == {1}
    for r in range(1, tables + 1):  # tables 1 and N share a set; one set rests on the bye stand
        assert m.at(1, r).boards == m.at(tables, r).boards
        assert len({e.boards for e in m.round_plan(r)}) == tables - 1


def test_three_table_howell_shares_only_in_its_last_round() -> None:
    m = howell(3, 3)
    for r in range(1, 5):
        assert len({e.boards for e in m.round_plan(r)}) == 3
    assert len({e.boards for e in m.round_plan(5)}) == 1
    assert check(howell(3, 2, 4)).ok  # shortened, it shares no set: 2 boards a round will do


def test_team_match_a_and_b_swap_seats_on_the_same_boards() -> None:
    m = teams(12)
    one, two = m.at(1, 1), m.at(2, 1)
    assert one.boards == two.boards and (one.ns_pair, one.ew_pair, two.ns_pair, two.ew_pair) == (1, 4, 3, 2)
    report = check(m)
    assert report.comparisons == {(("", 1), ("", 3)): 12, (("", 2), ("", 4)): 12}  # A1 with B1, A2 with B2
    assert report.balance is None and [s.label for s in report.pairs] == ["A1", "A2", "B1", "B2"]


def test_arrow_switch_makes_the_fields_compare() -> None:
    plain = check(mitchell(7, 3))
    assert all(a[0] == b[0] for a, b in plain.comparisons)  # two fields: NS with NS, EW with EW
    switched = arrow_switched(mitchell(7, 3), [7])
    assert all(e.switched == (e.round == 7) for e in switched.encounters)
    report = check(switched)
    across = {c: n for c, n in report.comparisons.items() if c[0][0] != c[1][0]}
    assert across and max(across.values()) == 6  # the switched round's sets, played the other way in 2 rounds
    # The switched round's seating: EW pairs sit North-South.
    assert switched.seated(switched.at(1, 7)) == (("EW", 2), ("NS", 1))


def test_half_table_each_ew_pair_sits_out_once() -> None:
    report = check(with_phantom(mitchell(7, 3), ("NS", 7)))
    assert report.ok
    out = {s.label: s.sit_outs for s in report.pairs}
    assert all(out[f"EW {n}"] == 1 for n in range(1, 8)) and "NS 7" not in out
    assert {s.boards for s in report.pairs if s.label.startswith("EW")} == {18}


def test_refused_set_ups_say_why() -> None:
    with pytest.raises(MovementError, match="a Howell is for 3 to 10 tables, not 11"):
        howell(11, 2)
    with pytest.raises(MovementError, match="a Howell is for 3 to 10 tables, not 2"):
        howell(2, 2)
    with pytest.raises(MovementError, match="needs at least 3 boards a round"):
        howell(3, 2)
    with pytest.raises(MovementError, match="a skip Mitchell is for an even number of tables"):
        skip_mitchell(7, 3)
    with pytest.raises(MovementError, match="relay and bye stand Mitchell is for an even number"):
        relay_mitchell(7, 3)
    with pytest.raises(MovementError, match="a team match is played at 2 tables, not 3"):
        teams(8, 1, tables=3)
    with pytest.raises(MovementError, match="1800 boards"):
        mitchell(100, 18)
    with pytest.raises(MovementError, match="an arrow switch is for a Mitchell"):
        arrow_switched(howell(4, 2), [1])


# --- broken by hand -----------------------------------------------------------------------------------

def edited(m: Movement, table: int, round_: int, **changes: object) -> Movement:
    encounters = tuple(replace(e, **changes) if (e.table, e.round) == (table, round_) else e  # type: ignore[arg-type]
                       for e in m.encounters)
    return replace(m, encounters=encounters)


def rules(m: Movement) -> set[str]:
    return {p.rule for p in check(m).errors}


def test_a_pair_playing_a_board_twice_is_named() -> None:
    m = mitchell(7, 3)
    # Table 3 in round 2 gets table 3's round 1 boards back: NS 3 plays them twice.
    broken = edited(m, 3, 2, boards=m.at(3, 1).boards)
    report = check(broken)
    assert "board-twice" in rules(broken) and not report.ok
    assert any(p.rule == "board-twice" and p.message.startswith("NS 3 plays boards 7-9 twice") for p in report.errors)


def test_a_board_missing_at_a_table_is_named() -> None:
    m = howell(5, 3)
    e = m.at(2, 4)
    broken = edited(m, 2, 4, boards=e.boards[:2])
    found = check(broken).errors
    assert {p.rule for p in found} == {"layout", "split-set"}
    assert any(p.message == "table 2 in round 4 has 2 boards, not 3" for p in found)


def test_a_board_at_two_tables_at_once_is_named() -> None:
    m = mitchell(5, 2)
    broken = edited(m, 2, 1, boards=m.at(1, 1).boards)
    assert "board-clash" in rules(broken)
    # The same two tables declared a relay share legitimately.
    shared = replace(broken, relays=((1, 2),))
    assert "board-clash" not in rules(shared)


def test_a_pair_at_two_tables_and_a_missing_table_are_named() -> None:
    m = howell(4, 2)
    e = m.at(3, 2)
    assert "pair-once-a-round" in rules(edited(m, 3, 2, ns_pair=m.at(2, 2).ns_pair))
    gone = replace(m, encounters=tuple(x for x in m.encounters if x != e))
    assert any(p.message == "table 3 has nobody in round 2" for p in check(gone).errors)
    assert "layout" in rules(edited(m, 3, 2, ew_pair=e.ns_pair))


def test_a_gap_in_the_board_numbers_is_named() -> None:
    m = teams(2, 3)
    renumbered = replace(m, encounters=tuple(replace(e, boards=tuple(b + 2 for b in e.boards)) if e.round == 3 else e
                                             for e in m.encounters))
    assert rules(renumbered) == {"numbering"}


def test_relay_of_more_tables_than_boards_is_named() -> None:
    m = Movement("three on one board", 3, 1, 1, tuple(Encounter(t, 1, t, t, (1,)) for t in (1, 2, 3)),
                 relays=((1, 2, 3),))
    assert rules(m) == {"relay-size"}


@pytest.mark.parametrize("tables", [*range(4, 41), 64, 128])
def test_every_appendix_mitchell_passes(tables: int) -> None:
    passes(appendix_mitchell(tables, 2 if tables > 100 else 3))


@pytest.mark.parametrize("tables", [4, 5, 8, 10, 11, 16])
def test_appendix_mitchell_shares_table_1s_set_and_every_pair_sits_out_at_most_once(tables: int) -> None:
    m = appendix_mitchell(tables, 2)
    base = tables - 1
    assert (m.tables, m.rounds, m.boards, m.relays) == (tables, base, 2 * base, ((1, tables),))
    seated: Counter[tuple[str, int]] = Counter()
    for r in range(1, m.rounds + 1):
        assert m.at(tables, r).boards == m.at(1, r).boards  # the appendix table plays table 1's set
        assert len({m.at(t, r).boards for t in range(1, base + 1)}) == base  # the base's sets each at one table
        for e in m.round_plan(r):
            seated.update(m.seated(e))
    assert m.pairs() == [*(("NS", n) for n in range(1, tables + 1)), *(("EW", n) for n in range(1, tables + 2))]
    assert all(seated["NS", n] == base for n in range(1, tables + 1))  # NS never moves, never sits out
    assert all(seated["EW", n] in (base - 1, base) for n in range(1, tables + 2))
    assert m.at_no_table()[1] == [("EW", tables + 1)]  # the extra pair starts at the bye stand
    report = check(m)
    ns = [s for s in report.pairs if s.pair[0] == "NS"]
    assert all(s.boards == 2 * base and s.sit_outs == 0 and s.opponents == base for s in ns)
    assert all(n <= 1 for n in report.meetings.values())  # no couple meets twice: no revenge round


def test_appendix_mitchell_needs_a_base_of_three() -> None:
    with pytest.raises(MovementError, match="4 tables or more, not 3") as e:
        appendix_mitchell(3, 2)
    assert e.value.figure == "tables"
    with pytest.raises(MovementError, match=r"tables 1 and 9 share a set .* at least 2 boards") as e:
        appendix_mitchell(9, 1)
    assert e.value.figure == "boards_per_round"
