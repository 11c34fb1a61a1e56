"""Swiss teams: standings from the results, the next round top against next with no avoidable rematch, the bye
rotated, each round a movement that check proves; `tenace movement swiss` and its refusals."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from cli_runner import run

from tenace.movement import check, pair_label
from tenace.movement.swiss import Match, next_round, standings
from tenace.movement.swiss_input import SwissInputError, read_results, read_teams
from tenace.scoring.vp import victory_points


def names(n: int) -> tuple[str, ...]:
    return tuple(f"Team {chr(ord('A') + i)}" for i in range(n))


def match(r: int, home: int, away: int | None, home_vps: float, away_vps: float = 0) -> Match:
    return Match(r, home, away, Decimal(str(home_vps)), Decimal(str(away_vps)))


def test_round_2_top_meets_next_down_the_standings() -> None:
    played = [match(1, 1, 5, 14, 6), match(1, 2, 6, 3, 17), match(1, 3, 7, 11, 9), match(1, 4, 8, 19, 1)]
    r = next_round(names(8), played, 8)
    # Standings: 4 (19), 6 (17), 1 (14), 3 (11), 7 (9), 5 (6), 2 (3), 8 (1).
    assert [s.team for s in standings(names(8), played)] == [4, 6, 1, 3, 7, 5, 2, 8]
    assert r.number == 2 and r.matches == ((4, 6), (1, 3), (7, 5), (2, 8)) and r.bye is None and not r.rematches


def test_no_rematch_while_one_can_be_avoided() -> None:
    # 1 and 2 lead but met in round 1; 3 and 4 met too: top meets the next it has not met, and the rest still pair.
    played = [match(1, 1, 2, 10, 10), match(1, 3, 4, 10, 10), match(2, 1, 3, 20, 0), match(2, 2, 4, 20, 0)]
    r = next_round(names(4), played, 6)
    assert r.matches == ((1, 4), (2, 3)) and not r.rematches


def test_the_top_team_backs_off_when_its_pick_would_leave_the_rest_unpairable() -> None:
    # Order 1, 2, 3, 4; 1 has met nobody, but 3 and 4 have met: 1 v 2 would force 3 v 4 again, so 1 v 3, 2 v 4.
    played = [match(1, 1, None, 15), match(1, 3, 4, 12, 8), match(1, 2, 5, 14, 6),
              match(2, 5, None, 12), match(2, 1, 2, 11, 9), match(2, 3, 4, 10, 10)]
    r = next_round(names(5), played, 6)
    assert r.bye == 4 and not r.rematches
    assert all(frozenset(m) not in {frozenset(p) for p in [(1, 2), (3, 4), (2, 5)]} for m in r.matches)


def test_a_rematch_only_when_none_can_be_avoided_and_it_is_named() -> None:
    played = [match(r + 1, a, b, 12, 8) for r, pairs in enumerate([[(1, 2), (3, 4)], [(1, 3), (2, 4)],
                                                                    [(1, 4), (2, 3)]]) for a, b in pairs]
    r = next_round(names(4), played, 6)
    assert len(r.matches) == 2 and set(r.rematches) == set(r.matches)  # every pairing repeats: said so
    assert check(r.movement).ok


def test_the_bye_goes_to_the_lowest_team_without_one_and_rotates() -> None:
    teams = names(5)
    played: list[Match] = []
    byes = []
    for number in range(1, 6):
        r = next_round(teams, played, 4)
        assert r.bye is not None and len(r.matches) == 2
        assert r.bye not in byes  # nobody has a second bye while another team has had none
        lowest_without = [s.team for s in standings(teams, played) if s.team not in byes][-1]
        if number > 1 and r.bye != lowest_without:  # passed over only when it would force a rematch on the others
            met = {frozenset((m.home, m.away)) for m in played if m.away is not None}
            assert not r.rematches
            assert not _avoidable([t for t in range(1, 6) if t != lowest_without], met)
        byes.append(r.bye)
        played += [match(number, r.bye, None, 12)]
        played += [match(number, h, a, 10 + h % 3, 10 - h % 3) for h, a in r.matches]
    assert sorted(byes) == [1, 2, 3, 4, 5]  # five rounds, five teams: each sat out once


def test_level_teams_keep_their_seeding_order_and_share_a_place() -> None:
    played = [match(1, 1, 2, 10, 10), match(1, 3, 4, 10, 10)]
    table = standings(names(4), played)
    assert [(s.team, s.place) for s in table] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    r = next_round(names(4), played, 6)
    assert r.matches == ((1, 3), (2, 4))  # 1 v 2 already played: 1 meets the next it has not met


def test_round_1_by_seeding_or_drawn_with_a_seed() -> None:
    assert next_round(names(8), [], 8).matches == ((1, 5), (2, 6), (3, 7), (4, 8))
    odd = next_round(names(7), [], 8)
    assert odd.bye == 7 and odd.matches == ((1, 4), (2, 5), (3, 6))
    drawn = next_round(names(8), [], 8, seed=11)
    assert drawn.matches == next_round(names(8), [], 8, seed=11).matches  # the same seed, the same draw
    assert drawn.matches != next_round(names(8), [], 8).matches
    assert sorted(t for m in drawn.matches for t in m) == list(range(1, 9))


def _avoidable(teams: list[int], met: set[frozenset[int]]) -> bool:
    """Brute force: can these teams be paired with no rematch at all?"""
    if not teams:
        return True
    top, rest = teams[0], teams[1:]
    return any(frozenset((top, o)) not in met and _avoidable([t for t in rest if t != o], met) for o in rest)


@pytest.mark.parametrize("teams", [4, 6, 7, 8])
def test_random_events_never_rematch_when_a_pairing_avoids_it(teams: int) -> None:
    rng = random.Random(teams)
    for _ in range(15):
        played: list[Match] = []
        for number in range(1, teams + 1):
            r = next_round(names(teams), played, 4)
            report = check(r.movement)
            assert report.ok, report.errors
            met = {frozenset((m.home, m.away)) for m in played if m.away is not None}
            rest = [t for t in range(1, teams + 1) if t != r.bye]
            if r.rematches:
                assert not _avoidable(rest, met)
            else:
                assert all(frozenset(m) not in met for m in r.matches)
            if r.bye is not None:
                played.append(match(number, r.bye, None, 12))
            for h, a in r.matches:
                vp = victory_points(rng.randint(-40, 40), 4)
                played.append(Match(number, h, a, vp.home, vp.away))


def test_the_round_is_a_team_movement_check_proves() -> None:
    r = next_round(names(6), [], 7)
    m = r.movement
    assert (m.kind, m.tables, m.rounds, m.copies) == ("teams", 6, 1, 3)
    assert m.relays == ((1, 2), (3, 4), (5, 6))
    home, away = r.matches[0]
    assert (m.at(1, 1).ns_pair, m.at(1, 1).ew_pair) == (2 * home - 1, 2 * away)
    assert (m.at(2, 1).ns_pair, m.at(2, 1).ew_pair) == (2 * away - 1, 2 * home)
    report = check(m)
    assert r.matches[0] == (1, 4)  # round 1 by seeding: 1 v 4, 2 v 5, 3 v 6
    # Team 1's NS pair (1) compares with team 4's (7) on every board, and with nobody in another match.
    assert report.ok and report.comparisons == {(("", 1), ("", 7)): 7, (("", 2), ("", 8)): 7, (("", 3), ("", 9)): 7,
                                                (("", 4), ("", 10)): 7, (("", 5), ("", 11)): 7, (("", 6), ("", 12)): 7}


def test_imps_are_turned_into_vps_on_the_wbf_scale() -> None:
    teams = read_teams("Lions\nTigers\n", "t")
    played = read_results("1,Lions,Tigers,31,12\n", "r", teams, imps_boards=8)
    vp = victory_points(19, 8)
    assert (played[0].home_vps, played[0].away_vps) == (vp.home, vp.away)
    assert vp.home + vp.away == 20 and vp.home > 15


@pytest.mark.parametrize(("text", "says"), [
    ("1,1,2,12\n", "r:1: a match needs both teams' VPs"),
    ("1,1,2\n", "r:1: a line is round, home team, away team"),
    ("1,1,2,12,8\none,1,2,12,8\n", "r:2: the round is a whole number from 1, not 'one'"),
    ("1,1,9,12,8\n", "r:1: no team '9' in the teams file"),
    ("1,Lions,Pumas,12,8\n", "r:1: no team 'Pumas'"),
    ("1,1,1,12,8\n", "r:1: team 1 cannot play itself"),
    ("1,1,2,25,0\n1,3,bye,12\n", "r:1: the home VPs are 0 to 20, not 25"),
    ("1,1,2,-3,8\n", "r:1: the home VPs are 0 to 20, not -3"),
    ("1,1,2,nan,8\n", "the home VPs are 0 to 20, not nan"),
    ("1,1,2,twelve,8\n", "r:1: the home VPs must be a number, not 'twelve'"),
    ("1,1,2,15,15\n", "r:1: 15 + 15 VPs is more than the 20 a match shares"),
    ("1,1,2,12,8\n1,3,bye,12\n3,1,3,12,8\n3,2,bye,12\n", "r: round 2 is missing, yet round 3 is there"),
    ("1,1,2,12,8\n1,1,3,12,8\n", "r: team 1 (Lions) plays twice in round 1"),
    ("1,1,2,12,8\n", "r: in round 1 team 3 (Bears) neither played nor had a bye"),
])
def test_bad_results_are_refused_naming_the_line(text: str, says: str) -> None:
    teams = read_teams("Lions\nTigers\nBears\n", "t")
    with pytest.raises(SwissInputError) as e:
        read_results(text, "r", teams)
    assert says in str(e.value)


@pytest.mark.parametrize(("text", "says"), [
    ("", "t: a Swiss needs at least 2 teams, one a line; this file has 0"),
    ("# only a comment\nLions\n", "this file has 1"),
    ("Lions\nlions\n", "t:2: team 'lions' is already team 1"),
    ("Lions\n7\n", "t:2: a team's name cannot be a bare number (7)"),
])
def test_bad_teams_files_are_refused(text: str, says: str) -> None:
    with pytest.raises(SwissInputError) as e:
        read_teams(text, "t")
    assert says in str(e.value)


def test_results_take_names_semicolons_a_header_and_byes() -> None:
    teams = read_teams("Lions\nTigers\nBears\n", "t")
    played = read_results("Round;Home;Away;HomeVP;AwayVP\n1;lions;3;11.5;8.5\n1;Tigers;BYE;12\n", "r", teams)
    assert played == [match(1, 1, 3, 11.5, 8.5), match(1, 2, None, 12)]


@pytest.fixture
def event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "teams.txt").write_text("Lions\nTigers\nBears\nOwls\nFoxes\n", encoding="utf-8")
    (tmp_path / "vps.csv").write_text("round,home,away,home VPs,away VPs\n1,1,4,15,5\n1,2,5,12.5,7.5\n1,3,bye,12\n"
                                      "2,1,2,10,10\n2,3,4,18,2\n2,5,bye,12\n", encoding="utf-8")
    (tmp_path / "binary.csv").write_bytes(bytes(range(256)))
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    return tmp_path


def test_cli_prints_standings_and_the_next_round(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["movement", "swiss", "--teams", "teams.txt", "--results", "vps.csv", "--round", "3",
                          "--movement", "r3.json"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Swiss teams: 5 teams, round 3: 2 matches of 8 boards"
    assert lines[1] == "standings after round 2:"
    assert lines[3].split() == ["1", "3", "Bears", "30.00", "1", "1"]
    # 3 v 1 would leave 2 v 5, who met in round 1: the leaders take the next that keeps the rest clean.
    assert [line.split() for line in lines[9:12]] == [["tables", "1-2", "3", "Bears", "v", "2", "Tigers"],
                                                      ["tables", "3-4", "1", "Lions", "v", "5", "Foxes"],
                                                      ["bye:", "4", "Owls"]]
    code, out, err = run(["movement", "check", "--file", "r3.json"], capsys)
    assert (code, err) == (0, "") and out.startswith("Swiss teams round 3, 2 matches of 8 boards: no rule broken")


def test_cli_json(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["movement", "swiss", "--teams", "teams.txt", "--results", "vps.csv", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["round"] == 3 and data["bye"] == {"team": 4, "name": "Owls"}
    assert [(m["home"], m["away"], m["rematch"]) for m in data["matches"]] == [(3, 2, False), (1, 5, False)]
    assert data["standings"][0] == {"place": 1, "team": 3, "name": "Bears", "letters": "C", "vps": "30.00",
                                    "played": 1, "byes": 1}
    assert data["movement"]["kind"] == "teams" and data["movement"]["copies"] == 2


BAD = [
    ("--teams missing.txt", "--teams missing.txt: cannot read it: No such file or directory"),
    ("--teams folder", "--teams folder is a folder, not a file"),
    ("--teams binary.csv", "--teams binary.csv is not UTF-8 text"),
    ("--teams teams.txt --results binary.csv", "--results binary.csv is not UTF-8 text"),
    ("--teams empty.txt", "empty.txt: a Swiss needs at least 2 teams, one a line; this file has 0"),
    ("--teams teams.txt --results teams.txt", "teams.txt:2: a line is round, home team"),
    ("--teams teams.txt --results vps.csv --round 5", "--round 5: the results hold rounds 1 to 2, so the round to "
                                                       "pair is 3"),
    ("--teams teams.txt --round 2", "--round 2: the results hold no round, so the round to pair is 1"),
    ("--teams teams.txt --imps", "--imps says how RESULTS gives its scores: give --results too"),
    ("--teams teams.txt --boards 0", "--boards: a match has 1 to 36 boards, not 0"),
]


@pytest.mark.parametrize(("args", "says"), BAD, ids=[a for a, _ in BAD])
def test_cli_refusals_are_one_line_and_exit_2(args: str, says: str, event: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["movement", "swiss", *args.split()], capsys)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith("tenace movement: ") and says in err, err


def test_cli_help_and_a_missing_teams_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["movement", "swiss", "--help"], capsys)
    assert code == 0 and out.startswith("usage: tenace movement swiss") and "examples:" in out
    code, _, err = run(["movement", "swiss"], capsys)
    assert code == 2 and "the following arguments are required: --teams" in err.splitlines()[-1]


def test_every_pairing_of_a_small_field_is_a_sound_movement() -> None:
    for n in range(2, 10):
        for a, b in itertools.combinations(range(1, n + 1), 2):
            played = [match(1, a, b, 12, 8)] + [match(1, t, None, 12) for t in range(1, n + 1) if t not in (a, b)]
            assert check(next_round(names(n), played, 3).movement).ok


def test_one_copy_too_few_for_the_matches_is_a_board_clash() -> None:
    m = next_round(names(6), [], 4).movement
    short = check(replace(m, copies=2))  # three matches on boards 1-4, two copies: one match has none
    assert [p.rule for p in short.errors] == ["board-clash"]
    assert "boards 1-4 are at tables 1, 2, 3, 4, 5 and 6 in round 1 (2 copies" in short.errors[0].message
    assert [pair_label(("", n), "teams") for n in (1, 2, 5, 6, 53)] == ["A1", "A2", "C1", "C2", "AA1"]
