"""Individual movements (every player partners every other once, meets each twice) and their scoring by player."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.collector.round_plans import round_plan
from tenace.movement import check
from tenace.movement.individual import individual
from tenace.movement.serial import movement_from_json, movement_to_json
from tenace.scoring.individual import score_individual_session
from tenace.scoring.model import Artificial, Average, BoardResult, Played
from tenace.scoring.mp_options import DEFAULT_OPTIONS
from tenace.store import Status, connect, ingest, sign_in
from tenace.store.link import PlayerNumbers, record_players
from tenace.store.model import IncomingResult


def new_individual(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> Path:
    """A 2-table individual of 1 board a round made by `tenace event new`, with these options too."""
    db = tmp_path / "individual.sqlite"
    code, _, err = tenace(capsys, "event", "new", str(db), "--name", "Tuesday individual", "--movement",
                          "individual", "--tables", "2", "--boards-per-round", "1", *options)
    assert code == 0, err
    return db


def first_board_played(db: Path) -> None:
    """Table 1's terminal stores board 1 of round 1: 4S by North, making."""
    conn = connect(db)
    sign_in(conn, 1, "A", 1)
    e = individual(2, 1).at(1, 1)
    ingest(conn, IncomingResult(terminal=1, sequence=1, section="A", table=1, round=1, board=1, ns_pair=e.ns_pair,
                                ew_pair=e.ew_pair, contract="4S", declarer="N", tricks=10))
    conn.close()

def keyed(db: Path, rounds: int, plays: dict[tuple[int, int], tuple[str, int]]) -> None:
    """The 2-table individual's terminals store these results, {(table, round): (contract by North, tricks)}."""
    conn = connect(db)
    sign_in(conn, 1, "A", 1)
    sign_in(conn, 2, "A", 2)
    for e in individual(2, 1, rounds=rounds).encounters:
        if (e.table, e.round) in plays:
            contract, tricks = plays[e.table, e.round]
            outcome = ingest(conn, IncomingResult(terminal=e.table, sequence=e.round, section="A", table=e.table,
                                                  round=e.round, board=e.boards[0], ns_pair=e.ns_pair,
                                                  ew_pair=e.ew_pair, contract=contract, declarer="N", tricks=tricks))
            assert outcome.status is Status.STORED, outcome
    conn.close()



@pytest.mark.parametrize("tables", [2, 3, 4, 5])
def test_a_complete_individual_is_a_whist_design_and_passes_the_check(tables: int) -> None:
    m = individual(tables, 2)
    players = 4 * tables
    assert (m.rounds, m.copies, len(m.partners)) == (players - 1, tables, players * (players - 1) // 2)
    report = check(m)
    assert report.ok, report.errors
    # Counted here from the seats themselves, not from the check: each two players partner once, oppose twice.
    partnered: Counter[frozenset[int]] = Counter()
    opposed: Counter[frozenset[int]] = Counter()
    for e in m.encounters:
        ns, ew = m.partners[e.ns_pair - 1], m.partners[e.ew_pair - 1]
        partnered.update((frozenset(ns), frozenset(ew)))
        opposed.update(frozenset((a, b)) for a in ns for b in ew)
    every = [frozenset(c) for c in combinations(range(1, players + 1), 2)]
    assert {partnered[c] for c in every} == {1} and {opposed[c] for c in every} == {2}
    assert set(report.meetings.values()) == {2}
    assert "partners: each of the" in report.observations[1] and "couples partners once" in report.observations[1]


def test_a_shortened_individual_keeps_only_the_partnerships_that_sit_down() -> None:
    m = individual(3, 2, rounds=4)
    assert m.rounds == 4 and check(m).ok
    assert len(m.partners) == 4 * 2 * 3 == max(max(e.ns_pair, e.ew_pair) for e in m.encounters)
    assert movement_from_json(json.loads(json.dumps(movement_to_json(m)))) == m


def test_the_check_catches_a_player_seated_twice_and_a_board_played_twice() -> None:
    m = individual(2, 2, rounds=3)
    # Round 2's table 2 given player 8 (already North at table 1), and round 3 replaying round 1's boards.
    twice = list(m.partners)
    first = m.at(2, 2)
    twice[first.ns_pair - 1] = (8, twice[first.ns_pair - 1][1])
    encounters = tuple(replace(e, boards=m.at(e.table, 1).boards) if e.round == 3 else e for e in m.encounters)
    broken = check(replace(m, partners=tuple(twice), encounters=encounters))
    rules = {p.rule for p in broken.errors}
    assert rules == {"player-once-a-round", "player-board-twice"}, broken.errors
    assert any(p.message.startswith("player 8 is seated twice in round 2 (tables 1 and 2)") for p in broken.errors)
    assert any(p.message == "player 1 plays board 1 twice" for p in broken.errors)


def test_movement_check_exits_1_on_a_broken_individual_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = movement_to_json(individual(2, 1))
    doc["partners"][0] = [8, 8]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = tenace(capsys, "movement", "check", "--file", str(path))
    assert code == 1 and "partnership: table 1 in round 1: partnerships 1 and 2 are not four different" in out
    code, out, _ = tenace(capsys, "movement", "show", "individual", "--tables", "2", "--boards-per-round", "1")
    assert code == 0 and "      1  8+1          2+4        1" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--tables", "6"], "an individual is for 2 to 5 tables (8 to 20 players), not 6"),
    (["--tables", "1"], "an individual is for 2 to 5 tables"),
    (["--tables", "2", "--rounds", "8"], "an individual of 2 tables has 1 to 7 rounds, not 8"),
    (["--tables", "2", "--half-table"], "an individual here is for whole tables of four players"),
    (["--tables", "3", "--boards-per-round", "0"], "--boards-per-round: a round has 1 to 36 boards, not 0"),
])
def test_impossible_individuals_are_refused_in_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                                        message: str) -> None:
    code, out, err = tenace(capsys, "movement", "show", "individual", *args)
    assert (code, out) == (2, "") and message in err and err.count("\n") == 1, err


def test_an_individual_event_with_a_half_table_is_refused_naming_the_flag(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = tenace(capsys, "event", "new", str(tmp_path / "x.sqlite"), "--name", "X", "--movement",
                            "individual", "--tables", "3", "--boards-per-round", "2", "--half-table")
    assert (code, out) == (2, "") and err == ("tenace event: --half-table: an individual here is for whole tables of "
                                              "four players\n")
    assert not (tmp_path / "x.sqlite").exists()


def test_movement_check_rejects_partners_on_a_pairs_movement(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = movement_to_json(individual(2, 1))
    doc["kind"] = "howell"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = tenace(capsys, "movement", "check", "--file", str(path))
    assert code == 2 and "only an individual does" in err


def test_each_player_scores_the_boards_they_played_whoever_their_partner() -> None:
    """Two rounds of one board. Board 1: 8+1 v 2+4 +420, 3+7 v 5+6 +170 (tops 2, so 2/0 and 0/2). Board 2:
    -100 at both tables, 1 MP each side. Players 1, 5, 6, 8: 2 + 1 of 4 (75 %); players 2, 3, 4, 7: 0 + 1."""
    m = individual(2, 1, rounds=2)
    scores = {(1, 1): 420, (2, 1): 170, (1, 2): -100, (2, 2): -100}
    results = [BoardResult("A", e.table, e.round, e.boards[0], str(e.ns_pair), str(e.ew_pair),
                           Played(scores[e.table, e.round])) for e in m.encounters]
    partners = {str(n): (str(a), str(b)) for n, (a, b) in enumerate(m.partners, start=1)}
    session = score_individual_session(results, partners)
    assert {p: (t.exact, t.top, t.boards) for p, t in session.totals.items()} == {
        **{p: (3, 4, 2) for p in ("1", "5", "6", "8")}, **{p: (1, 4, 2) for p in ("2", "3", "4", "7")}}
    assert session.totals["8"].percent == Decimal("75.00")
    assert [(p.pair, p.text) for p in session.ranking] == [("1", "1="), ("5", "1="), ("6", "1="), ("8", "1="),
                                                           ("2", "5="), ("3", "5="), ("4", "5="), ("7", "5=")]
    with pytest.raises(ValueError, match="partnership 1 has results but no players"):
        score_individual_session(results, {k: v for k, v in partners.items() if k != "1"})



def test_law_12c2c_revises_an_average_plus_by_each_players_own_percentage() -> None:
    """Three rounds of one board, top 2. Board 1: +420 at table 1 (8+1 beat 2+4), +170 at table 2 (5+6 beat 3+7).
    Board 2: +620 at table 1 (8+2 beat 3+5), -100 at table 2 (6+7 beat 4+1). So players 8 and 6 have 4 of 4
    (100 %) and players 3 and 4 have 0 of 4. Board 3, table 1: 8+3 v 4+6, average-plus to both sides (60 %: 6/5).
    Law 12C2(c) gives the contestant's own percentage when it is above 60: players 8 and 6 get 2 (100 %), their
    partners 3 and 4 keep 6/5, though each pair of partners shared the board."""
    m = individual(2, 1, rounds=3)
    outcomes = {(1, 1): Played(420), (2, 1): Played(170), (1, 2): Played(620), (2, 2): Played(-100),
                (1, 3): Artificial(Average.PLUS, Average.PLUS), (2, 3): Played(100)}
    results = [BoardResult("A", e.table, e.round, e.boards[0], str(e.ns_pair), str(e.ew_pair),
                           outcomes[e.table, e.round]) for e in m.encounters]
    partners = {str(n): (str(a), str(b)) for n, (a, b) in enumerate(m.partners, start=1)}
    assert (partners["9"], partners["10"]) == (("8", "3"), ("4", "6"))  # board 3 at table 1, as the docstring says
    totals = score_individual_session(results, partners).totals
    assert {p: (totals[p].exact, totals[p].top) for p in ("8", "6", "3", "4")} == {
        "8": (4 + 2, 6), "6": (4 + 2, 6), "3": (Fraction(6, 5), 6), "4": (Fraction(6, 5), 6)}
    assert totals["8"].percent == Decimal("100.00") and totals["3"].percent == Decimal("20.00")
    unrevised = score_individual_session(results, partners, replace(DEFAULT_OPTIONS, law_12c2c=False)).totals
    assert unrevised["8"].exact == 4 + Fraction(6, 5)


def test_an_individual_event_file_ranks_its_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same two rounds as above, through `tenace event new` and terminals' results: board 1 4S= (+420) at table
    1 and 3S+1 (+170) at table 2; board 2 (NS vulnerable) 4S-1 (-100) at both."""
    db = new_individual(tmp_path, capsys, "--rounds", "2")
    code, out, _ = tenace(capsys, "event", "show", str(db))
    assert "Individual (first 2 of 7 rounds), 2 tables, 2 rounds of 1 boards" in out
    assert "round  1 table  1: 8+1 (NS) v 2+4 (EW)  boards 1" in out
    keyed(db, 2, {(1, 1): ("4S", 10), (2, 1): ("3S", 10), (1, 2): ("4S", 9), (2, 2): ("4S", 9)})
    doc = json.loads(tenace(capsys, "results", str(db), "--json")[1])
    report = doc["sections"][0]["report"]
    ranking = {line["pair"]: (line["rank"], line["mp"], line["percent"]) for line in report["ranking"]}
    assert ranking == {**{p: ("1=", 3.0, 75.0) for p in "1568"}, **{p: ("5=", 1.0, 25.0) for p in "2347"}}
    first = {line["table"]: (line["ns_pair"], line["ew_pair"], line["ns_score"])
             for line in report["boards"][0]["lines"]}
    assert first == {1: ("8+1", "2+4", 420), 2: ("3+7", "5+6", 170)}
    code, out, _ = tenace(capsys, "results", str(db))
    assert code == 0 and "8+1 v 2+4" in out and "Rank  Player" in out
    # Player 1's scorecard: board 1 with player 8 (NS at table 1), board 2 with player 4 (NS at table 2).
    code, out, _ = tenace(capsys, "results", str(db), "--pair", "1")
    assert code == 0 and "Scorecard of 1" in out
    assert "8+1 v 2+4" in out and "4+1 v 6+7" in out and "3+7" not in out


def test_an_individuals_results_show_each_players_law_12c2c_figure(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The three rounds of the Law 12C2(c) test above, through the event file: board 3 at table 1 adjusted to A+
    for both sides. Players 8 and 6 (100 % elsewhere) score 2 on it, their partners 3 and 4 keep 60 %."""
    db = new_individual(tmp_path, capsys, "--rounds", "3")
    keyed(db, 3, {(1, 1): ("4S", 10), (2, 1): ("3S", 10), (1, 2): ("4S", 10), (2, 2): ("4S", 9), (2, 3): ("2S", 8)})
    code, _, err = tenace(capsys, "adjust", str(db), "--table", "1", "--board", "3", "--ns", "A+", "--ew", "A+",
                          "--why", "board fouled", "--who", "TD")
    assert code == 0, err
    doc = json.loads(tenace(capsys, "results", str(db), "--json")[1])
    report = doc["sections"][0]["report"]
    ranking = {line["pair"]: (line["mp"], line["percent"]) for line in report["ranking"]}
    assert {p: ranking[p] for p in "8634"} == {"8": (6.0, 100.0), "6": (6.0, 100.0), "3": (1.2, 20.0),
                                               "4": (1.2, 20.0)}
    notes = [n for n in report["notes"] if "12C2(c)" in n]
    assert notes == ["board 3 table 1: player 8's A+ is their own 100.00 % (Law 12C2(c))",
                     "board 3 table 1: player 6's A+ is their own 100.00 % (Law 12C2(c))"]
    code, out, _ = tenace(capsys, "results", str(db), "--pair", "8")
    assert code == 0 and "player 8's A+ is their own 100.00 %" in out
    code, _, err = tenace(capsys, "results", str(db), "--pair", "99")
    assert code == 2 and err == ("tenace results: there is no player '99' with results in this event (players are "
                                 "named like 1, 2, ...)\n")


def test_an_individual_event_scored_by_imps_is_refused_in_one_line(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = new_individual(tmp_path, capsys, "--scoring", "imps")
    first_board_played(db)
    code, out, err = tenace(capsys, "results", str(db))
    assert (code, out) == (2, "") and "an individual is ranked by matchpoints; this event is scored by imps" in err


def test_the_collectors_round_plan_names_each_player_and_their_next_seat(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = new_individual(tmp_path, capsys, "--rounds", "3")
    conn = connect(db)
    try:
        m = individual(2, 1, rounds=3)
        for e in m.encounters:
            plan = round_plan(conn, 0, e.table, e.round)
            assert plan is not None and (plan.ns_pair, plan.ew_pair) == (e.ns_pair, e.ew_pair)
            (north, south), (east, west) = m.partners[e.ns_pair - 1], m.partners[e.ew_pair - 1]
            assert [p[0] for p in plan.players] == [north, east, south, west]
            for player, table, seat in plan.players:
                if e.round == 3:  # the last round: nowhere to go
                    assert (table, seat) == (0, 0)
                    continue
                later = m.at(table, e.round + 1)
                (n2, s2), (e2, w2) = m.partners[later.ns_pair - 1], m.partners[later.ew_pair - 1]
                assert (n2, e2, s2, w2)[seat] == player
        assert round_plan(conn, 0, 1, 1).players[0] == (8, 1, 0)  # player 8 keeps North at table 1
    finally:
        conn.close()


def test_an_individuals_players_are_named_by_the_director_or_by_the_numbers_keyed_at_the_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = new_individual(tmp_path, capsys, "--rounds", "2")
    roster = tmp_path / "members.csv"
    roster.write_text("101,Ann Archer\n102,Bob Baker\n117,Cat Cole\n", encoding="utf-8")
    assert tenace(capsys, "names", str(db), "--roster", str(roster))[0] == 0
    code, out, err = tenace(capsys, "names", str(db), "--player", "8", "--member", "117")
    assert code == 0 and out == "player 8: Cat Cole\n", err
    conn = connect(db)
    sign_in(conn, 2, "A", 2)
    # At table 2 in round 1 the seats are N 3, E 5, S 7, W 6: North keys member 101, East 102 (South and West 0).
    record_players(conn, PlayerNumbers(section="A", table=2, round=1, north=101, east=102, south=0, west=0,
                                       terminal=2, seq=1))
    e = individual(2, 1).at(1, 1)
    sign_in(conn, 1, "A", 1)
    ingest(conn, IncomingResult(terminal=1, sequence=1, section="A", table=1, round=1, board=1, ns_pair=e.ns_pair,
                                ew_pair=e.ew_pair, contract="4S", declarer="N", tricks=10))
    conn.close()
    code, out, _ = tenace(capsys, "names", str(db))
    assert "player 3: Ann Archer" in out and "player 5: Bob Baker" in out and "player 8: Cat Cole" in out
    doc = json.loads(tenace(capsys, "results", str(db), "--json")[1])
    named = {line["pair"]: line.get("names") for line in doc["sections"][0]["report"]["ranking"]}
    assert named["8"] == "Cat Cole" and named["1"] is None
    for args, message in ((["--player", "9", "--member", "5"], "section A has players 1 to 8, not 9"),
                          (["--player", "3"], "--player and --member go together"),
                          (["--player", "3", "--member", "0"], "a member number is 1 to 999999, not 0")):
        code, out, err = tenace(capsys, "names", str(db), *args)
        assert (code, out) == (2, "") and message in err, err


def test_an_individuals_ranking_page_heads_its_column_player(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = new_individual(tmp_path, capsys, "--rounds", "1")
    first_board_played(db)
    site = tmp_path / "site"
    for lang, word in (("en", "Player"), ("sk", "Hráč")):
        code, _, err = tenace(capsys, "report", str(db), "--html", str(site / lang), "--lang", lang)
        assert code == 0, err
        page = (site / lang / "index.html").read_text(encoding="utf-8")
        assert f"<th>{word}</th>" in page and "<th>Pair</th>" not in page
