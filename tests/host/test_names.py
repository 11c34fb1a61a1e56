"""`tenace names`: the club's roster from CSV, a pair's players by hand or keyed at the table, names in the results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.movement import mitchell
from tenace.roster import read_roster
from tenace.store import create_event, ingest, sign_in
from tenace.store.link import PlayerNumbers, record_players

from sample_results import session_results

ROSTER = """Number;Name;Club
101;Ann Archer;C1
102;Bob Baker;
103;Cy Cole;C1
104;Di Dunn;C2
10x;Broken Row;
105;;
102;Bob Again;
106;Ed Eyre;C3
"""



@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite"
    movement = mitchell(5, 3)
    conn = create_event(path, name="Tuesday pairs", date="2024-05-14", sections={"A": movement})
    for table in range(1, 6):
        sign_in(conn, table, "A", table)
    for m in session_results(movement):
        ingest(conn, m)
    # Table 1, round 1: NS 1 and EW 1 keyed their numbers at the terminal (EW 1's west is not a member).
    record_players(conn, PlayerNumbers("A", 1, 1, 101, 103, 102, 777, 1, 40000))
    conn.close()
    return path


def test_the_roster_is_read_leniently_and_every_bad_row_named() -> None:
    members, skipped = read_roster(ROSTER)
    assert [(m.number, m.name, m.club_id) for m in members] == [
        (101, "Ann Archer", "C1"), (102, "Bob Baker", None), (103, "Cy Cole", "C1"), (104, "Di Dunn", "C2"),
        (106, "Ed Eyre", "C3")]
    assert [(s.line, s.why) for s in skipped] == [
        (6, "the player number '10x' is not a whole number"), (7, "player 105 has no name"),
        (8, "player 102 again (line 3 is kept)")]
    assert read_roster("1,Solo\n")[0][0].name == "Solo" and read_roster("") == ([], [])


def test_the_rosters_e_mail_column_is_an_address_or_the_row_is_named() -> None:
    members, skipped = read_roster("number;name;club id;masterpoints;handicap;email\n"
                                   "1;Ann;;;;ann@club.example\n2;Bob;;120;;\n3;Cy;;;;cy at club\n"
                                   "4;Di;;;;di@club\n5;Ed;;;2;ed.eyre+bridge@mail.club.example\n")
    assert [(m.number, m.email) for m in members] == [
        (1, "ann@club.example"), (2, None), (5, "ed.eyre+bridge@mail.club.example")]
    assert [(s.line, s.why) for s in skipped] == [
        (4, "player 3: 'cy at club' is not an e-mail address"), (5, "player 4: 'di@club' is not an e-mail address")]


def test_names_from_the_roster_the_table_and_the_director_show_in_the_results(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "members.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    code, out, err = tenace(capsys, "names", str(event), "--roster", str(roster))
    assert code == 0 and "roster: 5 members kept, 3 lines skipped" in out
    assert f"skipped {roster}:6: the player number '10x' is not a whole number" in err
    code, out, _ = tenace(capsys, "names", str(event), "--pair", "EW 2", "--players", "104", "106", "--who", "TD")
    assert code == 0 and out.strip() == "EW 2: Di Dunn - Ed Eyre"
    code, out, _ = tenace(capsys, "names", str(event))
    assert code == 0 and "  NS 1: Ann Archer - Bob Baker" in out and "  EW 1: Cy Cole - #777" in out
    assert "  EW 2: Di Dunn - Ed Eyre" in out
    code, out, _ = tenace(capsys, "results", str(event), "--json")
    ranking = json.loads(out)["sections"][0]["report"]["ranking"]
    names = {r["pair"]: r.get("names") for r in ranking}
    assert names["NS 1"] == "Ann Archer - Bob Baker" and names["EW 1"] == "Cy Cole - #777"
    assert names["EW 2"] == "Di Dunn - Ed Eyre" and names["NS 3"] is None
    code, out, _ = tenace(capsys, "results", str(event))
    assert "Ann Archer - Bob Baker" in out
    # Published with them: the PBN's TotalScoreTable has a Names column, which tenace score reads back.
    pbn = tmp_path / "tuesday.pbn"
    assert tenace(capsys, "report", str(event), "--pbn", str(pbn))[0] == 0
    assert '"Ann Archer - Bob Baker"' in pbn.read_text(encoding="utf-8")
    code, out, _ = tenace(capsys, "score", str(pbn))
    assert code == 0 and "Di Dunn - Ed Eyre" in out
    # The director's word wins over what was keyed at the table.
    tenace(capsys, "names", str(event), "--pair", "NS 1", "--players", "106", "103")
    code, out, _ = tenace(capsys, "names", str(event))
    assert "  NS 1: Ed Eyre - Cy Cole" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--pair", "NS 3"], "--pair and --players go together"),
    (["--players", "1", "2"], "--pair and --players go together"),
    (["--pair", "XX 3", "--players", "1", "2"], "a pair as directors write it"),
    (["--pair", "NS 99", "--players", "1", "2"], "section A has no pair NS 99"),
    (["--pair", "B-NS 1", "--players", "1", "2"], "there is no section B"),
    (["--pair", "NS 1", "--players", "101", "101"], "a pair is two different players"),
    (["--pair", "NS 1", "--players", "0", "5"], "a pair is two different players"),
    (["--roster", "missing.csv"], "--roster missing.csv: cannot read it"),
    (["--roster", "bad.csv"], "--roster bad.csv: no member read (1 line skipped)"),
    (["--roster", "binary.csv"], "not UTF-8 text"),
])
def test_wrong_input_is_one_line_and_changes_nothing(event: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                     message: str) -> None:
    monkeypatch.chdir(event.parent)
    Path("bad.csv").write_text("number,name\nx,Nobody\n", encoding="utf-8")
    Path("binary.csv").write_bytes(b"\xff\xfe\x00\x01")
    code, _, err = tenace(capsys, "names", str(event), *args)
    lines = err.splitlines()  # the refusal's one line, after the rows a roster left out
    assert code == 2 and message in lines[-1] and all(line.startswith("skipped ") for line in lines[:-1]), err
    _, out, _ = tenace(capsys, "names", str(event))
    assert "roster: 0 members" in out and "NS 1: #101 - #102" in out


def test_a_player_named_in_two_pairs_is_kept_with_a_warning_naming_both(event: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # NS 1 keyed 101 and 102 at its table; the director now puts 101 in NS 3 too.
    code, out, err = tenace(capsys, "names", str(event), "--pair", "NS 3", "--players", "101", "117")
    assert code == 0 and out.strip() == "NS 3: #101 - #117"
    assert err == ("warning: player 101 is in two pairs: NS 1 and NS 3 (a player plays in one pair: set the other "
                   "pair's players)\n"), err
    # Setting NS 1's right players settles it: no warning.
    code, _, err = tenace(capsys, "names", str(event), "--pair", "NS 1", "--players", "105", "102")
    assert code == 0 and err == ""
    code, _, err = tenace(capsys, "names", str(event), "--pair", "EW 4", "--players", "117", "118")
    assert code == 0 and "player 117 is in two pairs: NS 3 and EW 4" in err, err


def test_a_teams_file_with_a_player_in_two_teams_is_kept_with_a_warning(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cup.sqlite"
    assert tenace(capsys, "event", "new", str(db), "--name", "Cup", "--date", "2026-11-24", "--movement", "teams",
                  "--boards-per-round", "4")[0] == 0
    (tmp_path / "teams.csv").write_text("1,Lions,101,102,103,104\n2,Tigers,201,202,203,101\n", encoding="utf-8")
    code, out, err = tenace(capsys, "names", str(db), "--teams", str(tmp_path / "teams.csv"))
    assert code == 0 and out.strip() == "teams: 2 named"
    assert "warning: player 101 is in two pairs: 1 and 4" in err, err


def test_a_roster_line_with_a_line_break_or_a_control_character_is_refused_and_names_are_nfc() -> None:
    members, skipped = read_roster('208;Ann\n209;"Multi\nLine";X13\n210;\x01control\n211;Zoe\u0301\n'
                                   '212;"Bob ""the\\\\"""\n')
    assert [(s.line, s.why) for s in skipped] == [
        (2, "player 209: a name or club id holds a line break or a control character"),
        (4, "player 210: a name or club id holds a line break or a control character")]
    assert [(m.number, m.name) for m in members] == [(208, "Ann"), (211, "Zo\u00e9"), (212, 'Bob "the\\\\"')]


def test_names_with_quotes_and_backslashes_go_through_the_pbn_and_come_back(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text('101;"Ann ""Ace"" O\'Neil"\n102;Bob \\ Back\\\n', encoding="utf-8")
    assert tenace(capsys, "names", str(event), "--roster", str(roster))[0] == 0
    pbn = tmp_path / "out.pbn"
    assert tenace(capsys, "report", str(event), "--pbn", str(pbn))[0] == 0
    assert '"Ann \\"Ace\\" O\'Neil - Bob \\\\ Back\\\\"' in pbn.read_text(encoding="utf-8")
    code, out, err = tenace(capsys, "score", str(pbn))
    assert code == 0 and 'Ann "Ace" O\'Neil - Bob \\ Back\\' in out, (out, err)


def test_the_store_refuses_a_control_character_in_a_name(event: Path) -> None:
    from tenace.store import EntryError, connect
    from tenace.store.names import Member, keep_roster
    conn = connect(event)
    with pytest.raises(EntryError, match="player 7: a name or club id holds a line break"):
        keep_roster(conn, [Member(7, "Two\nLines")])
    keep_roster(conn, [Member(8, "Zoe\u0301")])
    assert conn.execute("SELECT name FROM roster WHERE number = 8").fetchone()[0] == "Zo\u00e9"


def test_a_pasted_list_names_many_pairs_at_once_by_number_or_roster_name(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "members.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    tenace(capsys, "names", str(event), "--roster", str(roster))
    pairs = tmp_path / "pairs.txt"
    # Labelled lines, in any order; unlabelled ones fill the section's pairs in order (NS 1, NS 2, ... EW 1, ...),
    # passing over those named on a line (NS 2 here). Names in any case and spacing; a heading and a comment.
    pairs.write_text("Pair; Players\nNS 2; ann archer; 102\n# the rest, in order\nCy  Cole - di dunn\n"
                     "EW 5, Ed Eyre, 201\n205 & 206\n", encoding="utf-8")
    code, out, err = tenace(capsys, "names", str(event), "--pairs", str(pairs), "--who", "TD")
    # EW 1 keyed Cy Cole's number at its table: kept, with the same warning as --pair gives.
    assert code == 0 and err.splitlines() == ["warning: player 103 is in two pairs: NS 1 and EW 1 (a player plays in "
                                              "one pair: set the other pair's players)"], err
    assert out.splitlines() == ["NS 2: Ann Archer - Bob Baker", "NS 1: Cy Cole - Di Dunn", "EW 5: Ed Eyre - #201",
                                "NS 3: #205 - #206", "pairs: 4 named"]
    _, out, _ = tenace(capsys, "names", str(event))
    assert "  NS 1: Cy Cole - Di Dunn" in out and "  NS 3: #205 - #206" in out and "  EW 5: Ed Eyre - #201" in out


def test_a_list_with_any_wrong_line_names_each_and_sets_no_pair(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "members.csv"
    roster.write_text("101,Ann Archer\n107,Ann Archer\n102,Bob Baker\n", encoding="utf-8")
    tenace(capsys, "names", str(event), "--roster", str(roster))
    pairs = tmp_path / "pairs.txt"
    lines = ["NS 1, 301, 302", "Ann Archer - 102", "NS 9, 1, 2", "just one", "NS 1, 3, 4", "Zed Zulu & 5",
             "1000000, 2"] + [f"{n} - {n + 1}" for n in range(400, 420, 2)]
    pairs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = tenace(capsys, "names", str(event), "--pairs", str(pairs))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"{pairs}:2: 2 members are called 'Ann Archer': give the number (101, 107)",
        f"{pairs}:3: section A has no pair NS 9",
        f"{pairs}:4: a line is a pair and its two players (\"NS 3, 101, Bob Baker\") or the two players alone, "
        "not 'just one'",
        f"{pairs}:5: NS 1 is named on line 1 already",
        f"{pairs}:6: 'Zed Zulu' is not in the roster: give the member number or import the roster first",
        f"{pairs}:7: a member number is 1 to 999999, not 1000000",
        f"{pairs}:17: one pair too many: the section has 10 pairs",
        f"tenace names: --pairs {pairs}: 7 lines wrong, no pair named (correct them and run it again)"]
    _, out, _ = tenace(capsys, "names", str(event))
    assert out.splitlines()[1:] == ["  EW 1: #103 - #777", "  NS 1: Ann Archer - Bob Baker"]  # as keyed
    for given, message in (("missing.txt", "--pairs missing.txt: cannot read it"),
                           ("/dev/null", "--pairs /dev/null: no pair in it")):
        code, _, err = tenace(capsys, "names", str(event), "--pairs", given)
        assert code == 2 and len(err.splitlines()) == 1 and message in err, err


def test_a_list_for_two_sections_names_pairs_by_letter_and_the_rest_in_the_section_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.sqlite"
    create_event(path, name="Two", sections={"A": mitchell(3, 2), "B": mitchell(3, 2)}).close()
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("A-NS 1, 1, 2\nB-NS 1; 3; 4\n5 - 6\n", encoding="utf-8")
    code, _, err = tenace(capsys, "names", str(path), "--pairs", str(pairs))
    assert code == 2 and err.splitlines()[0] == (f"{pairs}:3: the event has sections A, B: write the pair "
                                                 "(\"A-NS 3, ...\") or give --section"), err
    code, out, _ = tenace(capsys, "names", str(path), "--pairs", str(pairs), "--section", "B")
    assert code == 0 and out.splitlines() == ["A-NS 1: #1 - #2", "B-NS 1: #3 - #4", "B-NS 2: #5 - #6",
                                              "pairs: 3 named"]
    code, _, err = tenace(capsys, "names", str(path), "--pairs", str(pairs), "--section", "C")
    assert code == 2 and "C" in err and len(err.splitlines()) == 1, err
