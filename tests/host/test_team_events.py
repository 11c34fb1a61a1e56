"""A team match run from the event file: teams named, results stored, each board's IMPs, the match's IMPs and VPs and
the standings checked against figures worked out here by hand (Law 77 scores, the Law 78B IMP scale, the WBF VP
formula), the PBN export rescored by `tenace score` to the same figures, and wrong input refused in one line."""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.store import IncomingResult, Kind, connect, ingest, sign_in
from tenace.store.encounters import section_rounds

# Law 78B: the lower bound of each IMP band from 1 IMP up (20-40 points is 1 IMP, ..., 4000 and more is 24).
IMP_BOUNDS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250,
              2500, 3000, 3500, 4000)


def imp(difference: int) -> int:
    return sum(1 for bound in IMP_BOUNDS if abs(difference) >= bound)


def wbf_vp(margin: int, boards: int) -> Decimal:
    """The winner's VPs on the WBF 2013 continuous scale: 10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), B = 15 sqrt(boards),
    20 at most, to two decimals."""
    tau = (math.sqrt(5) - 1) / 2
    vp = min(20.0, 10 + 10 * (1 - tau ** (3 * margin / (15 * math.sqrt(boards)))) / (1 - tau ** 3))
    return Decimal(vp).quantize(Decimal("0.01"), ROUND_HALF_UP)


# The match: team 1 (Lions: pairs 1 and 2) at home against team 2 (Tigers: pairs 3 and 4), 4 boards. The open room is
# table 1 (Lions pair 1 NS v Tigers pair 4 EW), the closed room table 2 (Tigers pair 3 NS v Lions pair 2 EW).
# board: (open room contract, declarer, tricks, NS score), (closed room ...); the scores by Law 77, worked out here.
PLAYED = {
    # Board 1, nobody vulnerable. 4S= : 4 x 30 + 300 game = +420; 4S-1 not vulnerable: -50.
    1: (("4S", "N", 10, 420), ("4S", "N", 9, -50)),
    # Board 2, NS vulnerable. 3NT= : 40 + 30 + 30 + 500 = +600; 3NTX= : 2 x 100 + 500 + 50 for the double = +750.
    2: (("3NT", "S", 9, 600), ("3NTX", "S", 9, 750)),
    # Board 3, EW vulnerable. 2H= by E : 60 + 50 part score = EW +110; 4H= by E : 120 + 500 = EW +620.
    3: (("2H", "E", 8, -110), ("4H", "E", 10, -620)),
    # Board 4, both vulnerable. 4S-1 vulnerable: -100; 4S= : 120 + 500 = +620.
    4: (("4S", "N", 9, -100), ("4S", "N", 10, 620)),
}
TEAMS_CSV = "team,name,first pair,,second pair,\n1,Lions,101,102,103,104\n2,Tigers,201,202,203,204\n"
ROSTER_CSV = "number,name\n101,Ann Archer\n102,Bob Baker\n201,Cy Cole\n202,Di Dunn\n"


def home_away(board: int) -> tuple[int, int]:
    """The IMPs each team wins on a board: the home team is NS in the open room, so the open-room NS score minus the
    closed-room NS score is its gain."""
    (_, _, _, open_ns), (_, _, _, closed_ns) = PLAYED[board]
    won = imp(open_ns - closed_ns)
    return (won, 0) if open_ns >= closed_ns else (0, won)


def make_match(tmp_path: Path, capsys: pytest.CaptureFixture[str], boards: tuple[int, ...] = (1, 2, 3, 4)) -> Path:
    """The event made as a director makes it, then the tables' results stored through the ingest API."""
    db = tmp_path / "cup.sqlite"
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER_CSV, encoding="utf-8")
    code, _, err = tenace(capsys, "event", "new", str(db), "--name", "Cup", "--date", "2026-11-24",
                            "--movement", "teams", "--boards-per-round", "4", "--teams", str(tmp_path / "teams.csv"))
    assert code == 0, err
    code, _, err = tenace(capsys, "names", str(db), "--roster", str(tmp_path / "roster.csv"))
    assert code == 0, err
    conn = connect(db)
    try:
        for table in (1, 2):
            sign_in(conn, table, "A", table)
        seats = {1: (1, 4), 2: (3, 2)}  # table: (NS pair, EW pair)
        for sequence, board in enumerate(boards, 1):
            for table, (contract, declarer, tricks, _) in zip((1, 2), PLAYED[board], strict=True):
                ns, ew = seats[table]
                stored = ingest(conn, IncomingResult(terminal=table, sequence=sequence, section="A", table=table,
                                                     round=1, board=board, ns_pair=ns, ew_pair=ew, kind=Kind.NORMAL,
                                                     contract=contract, declarer=declarer, tricks=tricks))
                assert stored.result_id is not None, stored
    finally:
        conn.close()
    return db


def results_json(capsys: pytest.CaptureFixture[str], db: Path) -> dict:  # type: ignore[type-arg]
    code, out, err = tenace(capsys, "results", str(db), "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_a_team_match_from_the_store_gives_the_hand_worked_imps_vps_and_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys)
    doc = results_json(capsys, db)
    [section] = doc["sections"]
    [match] = section["matches"]
    assert (match["home"], match["away"], match["open_table"], match["closed_table"]) == (1, 2, 1, 2)
    assert match["complete"] and match["boards_compared"] == 4
    report = match["report"]
    for b in report["boards"]:
        (o_contract, _, o_tricks, o_ns), (c_contract, _, c_tricks, c_ns) = PLAYED[b["board"]]
        assert (b["open"]["contract"], b["open"]["tricks"], b["open"]["ns_score"]) == (o_contract, str(o_tricks), o_ns)
        assert (b["closed"]["contract"], b["closed"]["tricks"], b["closed"]["ns_score"]) == (c_contract, str(c_tricks),
                                                                                             c_ns)
        assert b["difference"] == o_ns - c_ns
        assert (b["imp_home"], b["imp_away"]) == home_away(b["board"])
    # By hand: board 1 +470 = 10 IMPs home, board 2 -150 = 4 away, board 3 +510 = 11 home, board 4 -720 = 12 away.
    home = sum(home_away(b)[0] for b in PLAYED)
    away = sum(home_away(b)[1] for b in PLAYED)
    assert (home, away) == (21, 16)
    summary = report["summary"]
    assert (summary["home"], summary["away"]) == ("Lions", "Tigers")
    assert (summary["imps_home"], summary["imps_away"]) == (home, away)
    winner = wbf_vp(home - away, 4)
    assert winner == Decimal("12.80")
    assert (Decimal(str(summary["vp_home"])), Decimal(str(summary["vp_away"]))) == (winner, 20 - winner)
    assert [(s["place"], s["team"], s["name"], s["matches"], s["imps_for"], s["imps_against"], Decimal(str(s["vps"])))
            for s in doc["standings"]] == [("1", 1, "Lions", 1, home, away, winner),
                                           ("2", 2, "Tigers", 1, away, home, 20 - winner)]
    code, out, _ = tenace(capsys, "results", str(db))
    assert code == 0
    assert "Match: 1 Lions v 2 Tigers (all 4 boards in)" in out
    assert f"IMPs {home}.00 - {away}.00   VPs {winner} - {20 - winner}" in out
    standings = out.split("Standings\n")[1].split("\n\n")[0].splitlines()
    assert [line.split() for line in standings[1:]] == [
        ["1", "1", "Lions", "1", f"{home}.00", f"{away}.00", str(winner)],
        ["2", "2", "Tigers", "1", f"{away}.00", f"{home}.00", str(20 - winner)]]


def test_the_exported_pbn_rescored_by_tenace_score_gives_the_same_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys)
    pbn = tmp_path / "cup.pbn"
    code, _, err = tenace(capsys, "report", str(db), "--pbn", str(pbn))
    assert code == 0, err
    text = pbn.read_text(encoding="utf-8")
    assert text.count('[Room "Open"]') == 4 and text.count('[Room "Closed"]') == 4
    assert '[HomeTeam "Lions"]' in text and '[North "Ann Archer"]' in text and '[South "Bob Baker"]' in text
    assert '[South "Di Dunn"]' in text  # the closed room's NS is the Tigers' first pair, 201 and 202
    assert '[East "' not in text.split('[Room "Closed"]')[1].split("\n\n")[0]  # the Lions' 103 are not in the roster
    code, out, err = tenace(capsys, "score", str(pbn), "--method", "teams", "--json")
    assert code == 0, err
    rescored = json.loads(out)
    ours = results_json(capsys, db)["sections"][0]["matches"][0]["report"]
    assert rescored["summary"] == ours["summary"]
    assert [(b["board"], b["difference"], b["imp_home"], b["imp_away"]) for b in rescored["boards"]] == \
        [(b["board"], b["difference"], b["imp_home"], b["imp_away"]) for b in ours["boards"]]
    assert rescored["problems"] == []


def test_a_board_in_one_room_only_is_provisional_and_an_artificial_score_is_three_imps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys, boards=(1, 3, 4))
    conn = connect(db)
    try:  # board 2 is in at the open table only
        (contract, declarer, tricks, _), _ = PLAYED[2]
        ingest(conn, IncomingResult(terminal=1, sequence=9, section="A", table=1, round=1, board=2, ns_pair=1,
                                    ew_pair=4, kind=Kind.NORMAL, contract=contract, declarer=declarer, tricks=tricks))
    finally:
        conn.close()
    match = results_json(capsys, db)["sections"][0]["matches"][0]
    assert not match["complete"] and match["boards_compared"] == 3
    summary = match["report"]["summary"]
    home, away = 10 + 11, 12  # boards 1, 3 and 4 as worked out above
    assert (summary["imps_home"], summary["imps_away"]) == (home, away)
    assert Decimal(str(summary["vp_home"])) == wbf_vp(home - away, 4)  # still on the 4-board scale
    assert "not in yet: board 2 (closed)" in match["report"]["notes"][0]
    # The director gives the closed room (Tigers NS, Lions EW) average-minus to NS and average-plus to EW (Law 12C2):
    # 3 IMPs to the Lions, -3 to the Tigers.
    code, _, err = tenace(capsys, "adjust", str(db), "--table", "2", "--board", "2", "--ns", "A-", "--ew", "A+",
                          "--why", "board fouled at table 2")
    assert code == 0, err
    match = results_json(capsys, db)["sections"][0]["matches"][0]
    summary = match["report"]["summary"]
    assert match["complete"]
    assert (summary["imps_home"], summary["imps_away"]) == (home + 3, away - 3)
    assert Decimal(str(summary["vp_home"])) == wbf_vp(home + 3 - (away - 3), 4)
    board2 = next(b for b in match["report"]["boards"] if b["board"] == 2)
    assert (board2["imp_home"], board2["imp_away"], board2["difference"]) == (3, -3, None)


def test_the_csv_and_the_web_site_show_the_match_and_the_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys)
    code, _, err = tenace(capsys, "report", str(db), "--csv", str(tmp_path / "csv"), "--html", str(tmp_path / "site"))
    assert code == 0, err
    with (tmp_path / "csv" / "A-matches.csv").open(encoding="utf-8", newline="") as f:
        [match] = list(csv.DictReader(f))
    winner = wbf_vp(21 - 16, 4)
    assert (match["home_name"], match["away_name"], match["boards_in"], match["imps_home"], match["imps_away"],
            match["vp_home"], match["vp_away"]) == ("Lions", "Tigers", "4", "21.00", "16.00", str(winner),
                                                    str(20 - winner))
    with (tmp_path / "csv" / "A-boards.csv").open(encoding="utf-8", newline="") as f:
        boards = list(csv.DictReader(f))
    assert [(int(b["board"]), int(b["open_ns_score"]), int(b["closed_ns_score"]), Decimal(b["imps_home"]),
             Decimal(b["imps_away"])) for b in boards] == [
        (n, PLAYED[n][0][3], PLAYED[n][1][3], *map(Decimal, home_away(n))) for n in sorted(PLAYED)]
    index = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (tmp_path / "site" / "index.html").read_text(encoding="utf-8")))
    assert f"1 Lions v 2 Tigers: IMPs 21.00 - 16.00, VPs {winner} - {20 - winner}" in index
    assert f"Standings Place Team Matches IMPs for against VPs 1 1 Lions 1 21.00 16.00 {winner}" in index
    board = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (tmp_path / "site" / "board" / "A" / "3.html").read_text(
        encoding="utf-8")))
    assert "Open 2H E 8 -110 Closed 4H E 10 -620 IMPs: Lions 11.00, Tigers 0.00" in board


def test_a_weighted_score_in_one_room_gives_each_components_imps_weighted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys)
    # Board 1's open room becomes half 4S= (+420) and half 4S-1 (-50) against the closed room's -50 (Law 12C1(c)):
    # half of 470 points' 10 IMPs and half of 0: 5 IMPs to the Lions instead of 10.
    code, _, err = tenace(capsys, "adjust", str(db), "--table", "1", "--board", "1", "--weighted", "1/2:+420,1/2:-50",
                          "--why", "misinformation")
    assert code == 0, err
    report = results_json(capsys, db)["sections"][0]["matches"][0]["report"]
    board1 = next(b for b in report["boards"] if b["board"] == 1)
    assert (board1["imp_home"], board1["imp_away"]) == (5, 0)
    assert (report["summary"]["imps_home"], report["summary"]["imps_away"]) == (21 - 10 + 5, 16)


@pytest.mark.parametrize(("args", "says"), [
    (("results", "{db}", "--pair", "1"), "this is a team event"),
    (("names", "{db}", "--pair", "NS 1", "--players", "5", "6"),
     "section A is a team match: its pairs have no direction, name it 1"),
    (("adjust", "{db}", "--pair", "1", "--penalty", "25%", "--why", "slow play"),
     "section A is a team event: a Law 90 penalty there is in IMPs or VPs"),
    (("adjust", "{db}", "--table", "1", "--board", "2", "--percent", "60/40", "--why", "x"),
     "its artificial scores are A+, A or A- (+3, 0, -3 IMPs), not percentages"),
    (("adjust", "{db}", "--table", "1", "--board", "2", "--assigned", "+420", "--ew-assigned", "-50", "--why", "x"),
     "a split score (--ew-assigned, --ew-weighted) is not scored in a team match yet"),
    (("names", "{db}", "--teams", "{bad_team}"), "team 3: the event has no such team (its teams are 1, 2)"),
    (("names", "{db}", "--teams", "{bad_line}"), "bad.csv:2: team 2: give its four players' numbers"),
    (("event", "new", "{new}", "--name", "X", "--movement", "teams", "--boards-per-round", "4", "--teams",
      "{bad_team}"), "team 3: the match has no such team (its teams are 1, 2)"),
    (("event", "new", "{new}", "--name", "X", "--movement", "teams", "--boards-per-round", "4", "--scoring",
      "matchpoints"), "a team match is scored in IMPs and VPs"),
    (("event", "new", "{new}", "--name", "X", "--movement", "teams", "--boards-per-round", "4", "--tables",
      "3"), "a team match is played at 2 tables, not 3"),
    (("event", "new", "{new}", "--name", "X", "--tables", "3", "--boards-per-round", "4", "--teams",
      "{bad_team}"), "give --movement teams (or swiss) too"),
])
def test_wrong_input_for_a_team_event_gets_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str) -> None:
    db = make_match(tmp_path, capsys)
    (tmp_path / "unknown.csv").write_text("1,Lions\n3,Bears\n", encoding="utf-8")
    (tmp_path / "bad.csv").write_text("1,Lions\n2,Tigers,201,202\n", encoding="utf-8")
    paths = {"db": str(db), "bad_team": str(tmp_path / "unknown.csv"), "bad_line": str(tmp_path / "bad.csv"),
             "new": str(tmp_path / "new.sqlite")}
    code, _, err = tenace(capsys, *(a.format(**paths) for a in args))
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "new.sqlite").exists()


def test_teams_named_on_a_pairs_event_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    assert tenace(capsys, "event", "new", str(db), "--name", "Club", "--tables", "3",
                  "--boards-per-round", "2")[0] == 0
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    code, _, err = tenace(capsys, "names", str(db), "--teams", str(tmp_path / "teams.csv"))
    assert code == 2 and "the event has no teams section" in err


def test_the_names_list_shows_each_team_and_its_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_match(tmp_path, capsys)
    code, out, _ = tenace(capsys, "names", str(db))
    assert code == 0
    assert "team 1: Lions (pairs 1 and 2)" in out and "team 2: Tigers (pairs 3 and 4)" in out
    assert "1 (team 1: Lions): Ann Archer - Bob Baker" in out and "4 (team 2: Tigers): #203 - #204" in out


@pytest.mark.slow
def test_a_team_match_played_on_simulated_terminals_is_scored_from_what_the_tables_accepted(tmp_path: Path) -> None:
    """The real firmware at both tables of a match over a lossy radio: the IMPs and VPs of `tenace results` are those
    worked out here from the scores the tables' opponents accepted (each terminal's accepted.txt)."""
    db, work = tmp_path / "sim.sqlite", tmp_path / "work"
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", "--tables", "3", "--boards", "6",
                           "--boards-per-round", "2", "--teams", "--loss", "0.1", "--seed", "5", "--workdir", str(work),
                           "--db", str(db)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    accepted: dict[tuple[int, int], int] = {}  # (table, board): the NS score the table accepted
    for table in (1, 2):  # section T is the second section: its terminals are 1001 and 1002
        for line in (work / "terminals" / f"100{table}" / "accepted.txt").read_text(encoding="utf-8").splitlines():
            _, board, result = line.split(" ", 2)
            accepted[(table, int(board))] = int(result.rsplit(" ", 1)[1])
    assert len(accepted) == 12
    results = subprocess.run([sys.executable, "-m", "tenace", "results", str(db), "--section", "T", "--json"],
                             capture_output=True, text=True, timeout=120)
    assert results.returncode == 0, results.stderr
    [match] = json.loads(results.stdout)["sections"][0]["matches"]
    home = away = 0
    for b in match["report"]["boards"]:
        difference = accepted[(1, b["board"])] - accepted[(2, b["board"])]  # table 1 is the open room
        won = (imp(difference), 0) if difference >= 0 else (0, imp(difference))
        assert (b["imp_home"], b["imp_away"]) == won, b
        home, away = home + won[0], away + won[1]
    summary = match["report"]["summary"]
    assert match["complete"] and (summary["imps_home"], summary["imps_away"]) == (home, away)
    winner = wbf_vp(abs(home - away), 6)
    assert Decimal(str(max(summary["vp_home"], summary["vp_away"]))) == winner
    assert (summary["vp_home"] > summary["vp_away"]) == (home > away)


# --- a Swiss in the event file ----------------------------------------------------------------------------------

SWISS_TEAMS = "1,Lions\n2,Tigers\n3,Bears\n4,Wolves\n"
# A match's two boards: (open room NS, closed room NS) results, as in PLAYED. "home": board 1 of PLAYED as it was
# (+420 v -50: 10 IMPs home) and board 2 (+600 v +750: 4 IMPs away); "away": board 1 the other way round (-50 v +420:
# 10 away) and board 2 flat (+600 both); "flat": both boards flat.
SWISS_SETS = {
    "home": {1: (("4S", "N", 10), ("4S", "N", 9)), 2: (("3NT", "S", 9), ("3NTX", "S", 9))},
    "away": {1: (("4S", "N", 9), ("4S", "N", 10)), 2: (("3NT", "S", 9), ("3NT", "S", 9))},
    "flat": {1: (("4S", "N", 10), ("4S", "N", 10)), 2: (("3NT", "S", 9), ("3NT", "S", 9))},
}


def play_round(db: Path, section: str, outcomes: dict[int, str]) -> None:
    """Store every table's results of a Swiss round: the match at tables 2i - 1 (open) and 2i plays SWISS_SETS's
    set `outcomes[2i - 1]`. The seats are the event file's, as the terminals get them."""
    conn = connect(db)
    try:
        seats = {table: (ns, ew) for _, table, ns, ew, _ in section_rounds(conn, section)}
        for table, (ns, ew) in seats.items():
            terminal = 100 * (ord(section) - 64) + table
            sign_in(conn, terminal, section, table)
            first = table - (table + 1) % 2  # the match's open table
            for sequence, (board, rooms) in enumerate(sorted(SWISS_SETS[outcomes[first]].items()), 1):
                contract, declarer, tricks = rooms[table - first]
                ingest(conn, IncomingResult(terminal=terminal, sequence=sequence, section=section, table=table,
                                            round=1, board=board, ns_pair=ns, ew_pair=ew, kind=Kind.NORMAL,
                                            contract=contract, declarer=declarer, tricks=tricks))
    finally:
        conn.close()


def test_a_swiss_pairs_each_next_round_from_the_event_files_vp_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "swiss.sqlite"
    (tmp_path / "teams.txt").write_text(SWISS_TEAMS, encoding="utf-8")
    code, out, err = tenace(capsys, "event", "new", str(db), "--name", "Swiss", "--movement", "swiss",
                            "--boards-per-round", "2", "--teams", str(tmp_path / "teams.txt"))
    assert code == 0, err
    # Round 1 by seeding, the top half against the bottom half: 1 v 3 and 2 v 4.
    assert "tables 1-2  1 Lions  v  3 Bears" in out and "tables 3-4  2 Tigers  v  4 Wolves" in out
    code, _, err = tenace(capsys, "event", "next-round", str(db))
    assert code == 2 and "round 1 (section A): the match 1 v 3 has 0 of its 2 boards in" in err
    play_round(db, "A", {1: "home", 3: "away"})
    # Lions beat Bears by 10 - 4 (6 IMPs), Wolves beat Tigers by 10 - 0, both over 2 boards.
    lions, wolves = wbf_vp(6, 2), wbf_vp(10, 2)
    code, out, err = tenace(capsys, "event", "next-round", str(db))
    assert code == 0, err
    table = [line.split() for line in out.split("Standings\n")[1].splitlines()[1:5]]
    assert table == [["1", "4", "Wolves", "1", "10.00", "0.00", str(wolves)],
                     ["2", "1", "Lions", "1", "10.00", "4.00", str(lions)],
                     ["3", "3", "Bears", "1", "4.00", "10.00", str(20 - lions)],
                     ["4", "2", "Tigers", "1", "0.00", "10.00", str(20 - wolves)]]
    # Round 2: the top team against the next it has not met, down the standings: Wolves v Lions, Bears v Tigers.
    assert "section B: round 2" in out
    assert "tables 1-2  4 Wolves  v  1 Lions" in out and "tables 3-4  3 Bears  v  2 Tigers" in out
    play_round(db, "B", {1: "flat", 3: "home"})  # 10 - 10 VPs; Bears beat Tigers 10 - 4
    doc = results_json(capsys, db)
    assert [(m["section"], m["home"], m["away"], m["open_table"]) for s in doc["sections"] for m in s["matches"]] == \
        [("A", 1, 3, 1), ("A", 2, 4, 3), ("B", 4, 1, 1), ("B", 3, 2, 3)]
    bears = wbf_vp(6, 2)
    assert [(s["place"], s["team"], Decimal(str(s["vps"]))) for s in doc["standings"]] == [
        ("1", 4, wolves + 10), ("2", 1, lions + 10), ("3", 3, 20 - lions + bears), ("4", 2, 20 - wolves + 20 - bears)]
    code, out, _ = tenace(capsys, "results", str(db), "--section", "B", "--board", "1")
    assert code == 0 and "Standings" not in out
    assert [line.split()[:1] + line.split()[-2:] for line in out.splitlines() if line.startswith("    1 ")] == [
        ["1", "0.00", "0.00"], ["1", "10.00", "0.00"]]  # board 1 of Wolves v Lions (flat), of Bears v Tigers
    # A round's PBN file holds one of its matches, the one --match names by a team in it: rescored to the same VPs.
    code, _, err = tenace(capsys, "report", str(db), "--section", "B", "--pbn", str(tmp_path / "b.pbn"))
    assert code == 2 and "section B holds 2 team matches (4 v 1, 3 v 2); a PBN file holds one: give --match" in err
    code, _, err = tenace(capsys, "report", str(db), "--section", "B", "--pbn", str(tmp_path / "b.pbn"), "--match", "2")
    assert code == 0, err
    code, out, err = tenace(capsys, "score", str(tmp_path / "b.pbn"), "--method", "teams", "--json")
    assert code == 0, err
    summary = json.loads(out)["summary"]
    assert (summary["home"], summary["away"], summary["imps_home"], summary["imps_away"]) == ("Bears", "Tigers", 10, 4)
    assert Decimal(str(summary["vp_home"])) == bears
    # The web site's page of a board of the round shows it in both matches.
    assert tenace(capsys, "report", str(db), "--html", str(tmp_path / "site"))[0] == 0
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (tmp_path / "site" / "board" / "B" / "1.html").read_text(
        encoding="utf-8")))
    assert "4 Wolves v 1 Lions" in page and "3 Bears v 2 Tigers" in page
    assert "IMPs: Bears 10.00, Tigers 0.00" in page and "IMPs: Wolves 0.00, Lions 0.00" in page


def test_an_odd_swiss_gives_the_bye_its_vps_and_never_the_same_team_twice_while_others_had_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "swiss.sqlite"
    (tmp_path / "teams.txt").write_text("1,Lions\n2,Tigers\n3,Bears\n", encoding="utf-8")
    code, out, err = tenace(capsys, "event", "new", str(db), "--name", "Swiss", "--movement", "swiss",
                            "--boards-per-round", "2", "--teams", str(tmp_path / "teams.txt"))
    assert code == 0, err
    # By seeding the last team has the bye, at the default 12 VPs: Lions v Tigers.
    assert "tables 1-2  1 Lions  v  2 Tigers" in out and "bye: 3 Bears (12.00 VPs)" in out
    play_round(db, "A", {1: "home"})  # Lions 10 - 4
    lions = wbf_vp(6, 2)
    code, out, err = tenace(capsys, "event", "next-round", str(db), "--bye-vps", "10")
    assert code == 0, err
    table = [line.split() for line in out.split("Standings\n")[1].splitlines()[1:4]]
    assert table == [["1", "1", "Lions", "1", "10.00", "4.00", str(lions), "0"],
                     ["2", "3", "Bears", "0", "0.00", "0.00", "12.00", "1"],
                     ["3", "2", "Tigers", "1", "4.00", "10.00", str(20 - lions), "0"]]
    # The bye goes to the lowest team that has had none: the Tigers; Lions v Bears.
    assert "tables 1-2  1 Lions  v  3 Bears" in out and "bye: 2 Tigers (10.00 VPs)" in out
    code, out, _ = tenace(capsys, "event", "show", str(db))
    assert code == 0 and "team 3: Bears, pairs 5 and 6" in out
    assert out.count("bye: ") == 2 and "bye: 3 Bears (12.00 VPs)" in out and "bye: 2 Tigers (10.00 VPs)" in out
    assert "round  1 table  2:  3 (NS) v  2 (EW)  2 Tigers v 1 Lions" in out  # round 1's closed room, section A
    play_round(db, "B", {1: "flat"})
    doc = results_json(capsys, db)
    assert [(s["team"], s["matches"], s["byes"], Decimal(str(s["vps"]))) for s in doc["standings"]] == [
        (1, 2, 0, lions + 10), (3, 1, 1, Decimal(22)), (2, 1, 1, 20 - lions + 10)]


@pytest.mark.parametrize(("teams", "extra", "says"), [
    ("1,Lions\n2,Tigers\n3,Bears\n", ("--bye-vps", "21"), "--bye-vps is 0 to 20 VPs (to the hundredth), not 21"),
    ("1,Lions\n3,Bears\n", (), "a Swiss numbers its teams 1 to 2 in seeding order; team 2 is missing"),
    ("1,Lions\n2,Tigers\n", ("--tables", "4"), "a Swiss's tables come from its teams"),
    (None, (), "a Swiss needs its teams: give --teams FILE"),
])
def test_a_swiss_that_cannot_be_made_gets_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], teams: str | None, extra: tuple[str, ...],
        says: str) -> None:
    db = tmp_path / "swiss.sqlite"
    given: tuple[str, ...] = ()
    if teams is not None:
        (tmp_path / "teams.txt").write_text(teams, encoding="utf-8")
        given = ("--teams", str(tmp_path / "teams.txt"))
    code, _, err = tenace(capsys, "event", "new", str(db), "--name", "Swiss", "--movement", "swiss",
                          "--boards-per-round", "2", *given, *extra)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not db.exists()


def test_next_round_on_a_pairs_event_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    assert tenace(capsys, "event", "new", str(db), "--name", "Club", "--tables", "3",
                  "--boards-per-round", "2")[0] == 0
    code, _, err = tenace(capsys, "event", "next-round", str(db))
    assert code == 2 and "this event is not a Swiss teams event" in err
