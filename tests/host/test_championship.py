"""`tenace championship`: sessions ranked as one (Neuberg or average %, carry-over), a later session seeded from the
ranking, strata and handicaps; every ranking checked against the test's own from `tenace results --json`."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import tenace
from lxml import etree

from tenace.movement import howell, mitchell
from tenace.movement.model import Movement
from tenace.roster import read_roster
from tenace.store import connect, create_event, ingest, sign_in
from tenace.store.names import Member, keep_roster, pair_players, roster, set_pair_players
from tenace.store.schema import MIGRATIONS
from tenace.usebio.schema import check_file

from sample_results import session_results

Row = tuple[str, str, float]  # rank, the pair's names, its score


def session_event(path: Path, sections: dict[str, Movement], *, seed: int, played: bool = True,
                  players: dict[tuple[str, int, str], tuple[int, int]] | None = None, name: str = "Spring",
                  member: str = "Member") -> Path:
    """An event with the roster (players named `member` and their number), every pair's players (numbered in order
    unless given) and, when played, a result for every board (tools/sample_results)."""
    with closing(create_event(path, name=name, date="2026-04-01", sections=sections)) as conn:
        keep_roster(conn, [Member(n, f"{member} {n}") for n in range(1, 61)])
        number = 1
        for section, movement in sections.items():
            for field, pair in movement.pairs():
                given = (players or {}).get((section, pair, field))
                set_pair_players(conn, section, pair, field, given or (number, number + 1), who="TD")
                number += 2
        if played:
            terminal = 0
            for section, movement in sections.items():
                for table in range(1, movement.tables + 1):
                    sign_in(conn, terminal + table, section, table)
                for m in session_results(movement, section=section, seed=seed,
                                         terminal_of=lambda t, base=terminal: base + t):
                    ingest(conn, m)
                terminal += movement.tables
    return path


def results_json(capsys: pytest.CaptureFixture[str], event: Path) -> dict[str, Any]:
    code, out, err = tenace(capsys, "results", str(event), "--json")
    assert code == 0, err
    return dict(json.loads(out))


def places(scores: dict[str, Fraction]) -> list[Row]:
    """Standard competition ranking written out: a place is 1 + the pairs strictly ahead, "=" when shared."""
    out = []
    for who, score in scores.items():
        ahead = sum(1 for s in scores.values() if s > score)
        shared = sum(1 for s in scores.values() if s == score) > 1
        out.append((f"{ahead + 1}{'=' if shared else ''}", who, float(hundredths(score))))
    return sorted(out, key=lambda r: (int(r[0].rstrip("=")), r[1]))


def hundredths(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))


def own_combined(docs: list[dict[str, Any]], weights: list[Fraction], how: str) -> list[Row]:
    """The combined ranking computed here from each session's results: Neuberg's (MP + 1) x N / n - 1 per board in
    2-a-beat matchpoints, N the most results on any board, added with each session's share; or the mean %."""
    most = max(b["expected"] for d in docs for s in d["sections"] for b in s["report"]["boards"])
    total: dict[str, Fraction] = {}
    percents: dict[str, list[tuple[Fraction, Fraction]]] = {}
    for weight, doc in zip(weights, docs, strict=True):
        for section in doc["sections"]:
            report = section["report"]
            names = {p["label"]: p["names"] for p in report["pairs"]}
            for board in report["boards"]:
                n, top = board["expected"], board["top"]
                for line in board["lines"]:
                    for side in ("ns", "ew"):
                        mp = line[f"mp_{side}"]
                        if mp is not None:
                            two_a_beat = Fraction(str(mp)) * 2 * (n - 1) / top
                            who = names[line[f"{side}_pair"]]
                            total[who] = total.get(who, Fraction(0)) + weight * ((two_a_beat + 1) * most / n - 1)
            for row in report["ranking"]:
                percents.setdefault(row["names"], []).append((weight, Fraction(str(row["percent"]))))
    if how == "neuberg":
        return places(total)
    zero = Fraction(0)
    return places({who: sum((w * p for w, p in got), zero) / sum((w for w, _ in got), zero)
                   for who, got in percents.items()})


def their_rows(doc: dict[str, Any], score: str = "score") -> list[Row]:
    rows = [(r["rank"], r["names"], r[score]) for r in doc["ranking"]]
    return sorted(rows, key=lambda r: (int(r[0].rstrip("=")), r[1]))


def write_championship(path: Path, sessions: list[str], extra: str = "", carry: dict[int, float] | None = None
                       ) -> Path:
    text = f'name = "Spring pairs"\n{extra}\n'
    for i, event in enumerate(sessions):
        text += f'[[session]]\nevent = "{event}"\n'
        if carry and i in carry:
            text += f"carry_over = {carry[i]}\n"
    path.write_text(text, encoding="utf-8")
    return path


def test_two_sessions_of_different_sizes_combine_by_neuberg_and_by_average_percentage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Session 1: a 4-table and a 3-table Mitchell; session 2: one 7-table Mitchell (more results on each board, a
    # higher top: session 1's boards are factored up), the same 14 pairs in another order, one of them absent.
    first = session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=1)
    order = list(range(27, 0, -2))  # pairs (27, 28), (25, 26), ...: everyone moves
    second_players = {("A", pair, field): (order[i], order[i] + 1)
                      for i, (field, pair) in enumerate(mitchell(7, 1).pairs())}
    second_players[("A", 7, "EW")] = (41, 42)  # pair (1, 2) did not come back; a new pair plays session 2 only
    second = session_event(tmp_path / "s2.sqlite", {"A": mitchell(7, 1)}, seed=2, players=second_players)
    docs = [results_json(capsys, first), results_json(capsys, second)]
    for how, carry in (("neuberg", None), ("percentage", None), ("neuberg", {0: 0.5}), ("percentage", {0: 0.5})):
        champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s2.sqlite"], f'combine = "{how}"', carry)
        code, out, err = tenace(capsys, "championship", "rank", str(champ), "--json")
        assert code == 0, err
        doc = json.loads(out)
        weights = [Fraction(1, 2) if carry else Fraction(1), Fraction(1)]
        assert their_rows(doc) == own_combined(docs, weights, how), (how, carry)
        assert len(doc["ranking"]) == 15
    code, out, _ = tenace(capsys, "championship", "rank", str(champ))
    assert code == 0 and out.startswith("Spring pairs: 2 sessions, ranked by average percentage")
    assert "session 1: " in out and "(carry-over 50%)" in out


@pytest.mark.parametrize(("text", "says"), [
    ("", "name the sessions, each as [[session]]"),
    ('combine = "best"\n[[session]]\nevent = "s1.sqlite"\n', "combine is neuberg or percentage, not 'best'"),
    ('[[session]]\nevent = "none.sqlite"\n', "session 1: "),
    ('[[session]]\nevent = "s1.sqlite"\ncarry_over = 2\n', "carry_over is a share above 0 and at most 1"),
    ('roster = "r.csv"\nstrata = { A = 1500 }\n[[session]]\nevent = "s1.sqlite"\n',
     "are kept in the sessions' event files: import the CSV into each session (tenace names EVENT --roster FILE)"),
    ("this is = not = toml", "cannot be read as a championship file"),
])
def test_a_faulty_championship_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                                says: str) -> None:
    session_event(tmp_path / "s1.sqlite", {"A": howell(3, 3, 2)}, seed=1, played=False)
    champ = tmp_path / "bad.toml"
    champ.write_text(text, encoding="utf-8")
    code, out, err = tenace(capsys, "championship", "rank", str(champ))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and says in err, err
    assert tenace(capsys, "championship", "rank", str(tmp_path / "no.toml"))[0] == 2


def test_the_next_session_is_seeded_by_a_serpentine_over_the_fields(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=3)
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s2.sqlite"])
    code, _, err = tenace(capsys, "championship", "seed", str(champ))
    assert code == 0, err
    code, out, _ = tenace(capsys, "championship", "rank", str(write_championship(
        tmp_path / "first.toml", ["s1.sqlite"])), "--json")
    ranked = [tuple(r["players"]) for r in json.loads(out)["ranking"]]
    with closing(connect(tmp_path / "s2.sqlite")) as conn:
        seats = {players: (section, pair, field) for section in ("A", "B")
                 for (pair, field), players in pair_players(conn, section).items()}
    # The fields A-NS, B-NS, A-EW, B-EW take the ranked pairs 1 2 3 4, then 4 3 2 1 back (B-EW 2, A-EW 2, ...).
    fields = [("A", "NS"), ("B", "NS"), ("A", "EW"), ("B", "EW")]
    taken = dict.fromkeys(fields, 0)
    want = {}
    lap, rank = 0, 0
    while rank < len(ranked):
        for f in fields if lap % 2 == 0 else fields[::-1]:
            if rank < len(ranked) and taken[f] < (4 if f[0] == "A" else 3):
                taken[f] += 1
                want[ranked[rank]] = (f[0], taken[f], f[1])
                rank += 1
        lap += 1
    assert seats == want
    assert "no pair seeded" not in capsys.readouterr().out
    # One pair fewer in session 3 (its players unknown): the last place of the serpentine stays empty, said so.
    with closing(connect(tmp_path / "s1.sqlite")) as conn:
        conn.execute("DELETE FROM pair_players WHERE section = 'B' AND pair = 3 AND direction = 'EW'")
        conn.commit()
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s3.sqlite"])
    code, out, err = tenace(capsys, "championship", "seed", str(champ))
    assert code == 0, err
    assert "13 pairs seeded" in out and "not seeded (players unknown: name them with tenace names): B-EW 3" in out
    assert out.splitlines()[-1].startswith("no pair seeded at ")
    code, _, err = tenace(capsys, "championship", "seed", str(champ))
    assert code == 2 and "every session's event file exists already" in err


def import_ratings(event: Path, text: str) -> None:
    """The roster CSV imported into the event file, as tenace names --roster does (the figures kept with it)."""
    with closing(connect(event)) as conn:
        keep_roster(conn, read_roster(text)[0])


def strata_event(tmp_path: Path) -> tuple[Path, dict[int, tuple[int, int]]]:
    """A 5-table Mitchell, played, and a roster CSV with masterpoints and handicaps (and a row it passes over)
    imported into it."""
    event = session_event(tmp_path / "s1.sqlite", {"A": mitchell(5, 2)}, seed=7)
    figures = {n: ((n * 173) % 2400, (n % 7) - 3) for n in range(1, 21)}  # masterpoints, handicap
    figures[3] = (0, 0)
    lines = ["number,name,club id,masterpoints,handicap"]
    lines += [f"{n},Member {n},,{mp},{h}" for n, (mp, h) in figures.items()]
    lines.append("21,Member 21,,lots,")
    import_ratings(event, "\n".join(lines) + "\n")
    return event, figures


@pytest.mark.parametrize("by", ["higher", "average"])
def test_a_stratified_events_rankings_are_the_tests_own_per_stratum(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], by: str) -> None:
    event, figures = strata_event(tmp_path)
    setup = (f'combine = "percentage"\nstrata = {{ A = 1500, B = 500, C = 0 }}\n'
             f'stratum_by = "{by}"\n')
    champ = write_championship(tmp_path / "club.toml", [event.name], setup)
    code, out, err = tenace(capsys, "championship", "rank", str(champ), "--json")
    assert code == 0, err
    doc = json.loads(out)
    session = results_json(capsys, event)["sections"][0]["report"]["ranking"]
    percent = {r["names"]: Fraction(str(r["percent"])) for r in session}

    def held(names: str) -> Fraction:
        numbers = [int(w.split()[-1]) for w in names.split(" - ")]
        mps = [Fraction(figures[n][0]) for n in numbers]
        return max(mps) if by == "higher" else sum(mps, Fraction(0)) / 2

    # A pair plays in its own stratum and every one above: A (1500+) ranks everyone, B those under 1500, C under 500.
    for stratum, below in (("A", None), ("B", 1500), ("C", 500)):
        field = {who: p for who, p in percent.items() if below is None or held(who) < below}
        assert field, stratum
        theirs = sorted(((r["strata"][stratum], r["names"], r["score"]) for r in doc["ranking"]
                         if stratum in r["strata"]), key=lambda r: (int(r[0].rstrip("=")), r[1]))
        assert theirs == places(field), stratum
    own = {r["names"]: r["stratum"] for r in doc["ranking"]}
    assert own == {who: "A" if held(who) >= 1500 else "B" if held(who) >= 500 else "C" for who in percent}
    assert set(own.values()) == {"A", "B", "C"}  # the test's roster puts pairs in every stratum
    code, text, _ = tenace(capsys, "championship", "rank", str(champ))
    assert "Stratum B:" in text and "Stratum C:" in text
    code, page, _ = tenace(capsys, "championship", "rank", str(champ), "--html")
    assert code == 0 and '<section class="championship">' in page
    first = doc["ranking"][0]
    cells = "".join(f'<td class="n">{first["strata"].get(s, "")}</td>' for s in ("A", "B", "C"))
    assert f'<td>{first["names"]} ({first["stratum"]})</td><td class="n">{first["score"]:.2f}</td>' in page
    assert cells in page


def test_a_handicap_events_ranking_is_the_tests_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event, figures = strata_event(tmp_path)
    for rule in ("sum", "average"):
        champ = write_championship(tmp_path / "club.toml", [event.name],
                                   f'combine = "percentage"\nhandicap = "{rule}"\n')
        code, out, err = tenace(capsys, "championship", "rank", str(champ), "--json")
        assert code == 0, err
        doc = json.loads(out)
        session = results_json(capsys, event)["sections"][0]["report"]["ranking"]

        def handicap(names: str, rule: str = rule) -> Fraction:
            h = [Fraction(figures[int(w.split()[-1])][1]) for w in names.split(" - ")]
            return sum(h, Fraction(0)) if rule == "sum" else sum(h, Fraction(0)) / 2

        want = places({r["names"]: Fraction(str(r["percent"])) + handicap(r["names"]) for r in session})
        theirs = sorted(((r["handicap_rank"], r["names"], r["handicapped"]) for r in doc["ranking"]),
                        key=lambda r: (int(r[0].rstrip("=")), r[1]))
        assert theirs == want, rule
        assert their_rows(doc) == places({r["names"]: Fraction(str(r["percent"])) for r in session})  # scratch
    assert doc["ranking"][0]["handicap"] is not None


@pytest.mark.slow
def test_the_simulator_plays_two_sessions_the_second_seeded_and_the_combined_ranking_is_the_tests_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=0, played=False)
    play(first, tmp_path / "s1-played.sqlite", 3)
    champ = write_championship(tmp_path / "spring.toml", ["s1-played.sqlite", "s2.sqlite"])
    code, out, err = tenace(capsys, "championship", "seed", str(champ))
    assert code == 0, err
    assert out.startswith(f"{tmp_path / 's2.sqlite'}: session 2, 14 pairs seeded from the ranking of session 1")
    play(tmp_path / "s2.sqlite", tmp_path / "s2-played.sqlite", 4)
    for how in ("neuberg", "percentage"):
        champ = write_championship(tmp_path / "spring.toml", ["s1-played.sqlite", "s2-played.sqlite"],
                                   f'combine = "{how}"')
        code, out, err = tenace(capsys, "championship", "rank", str(champ), "--json")
        assert code == 0, err
        docs = [results_json(capsys, tmp_path / f"s{i}-played.sqlite") for i in (1, 2)]
        assert their_rows(json.loads(out)) == own_combined(docs, [Fraction(1), Fraction(1)], how)
        assert all(len(r["sessions"]) == 2 for r in json.loads(out)["ranking"])  # every pair in both sessions


def play(event: Path, copy: Path, seed: int) -> None:
    """The simulator plays the event (real firmware on simulated terminals) into `copy`."""
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", "--event", str(event), "--db", str(copy),
                           "--seed", str(seed)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("accepted=42 stored=42 lost=0 doubled=0 ")


def test_the_roster_reads_optional_masterpoints_and_handicaps() -> None:
    members, skipped = read_roster("number;name;club;masterpoints;handicap\n1;Ann;;1234.5;-2\n2;Bob;C1;;\n"
                                   "3;Cy;;many;1\n4;Di;;;\n")
    assert [(m.number, m.masterpoints, m.handicap) for m in members] == [
        (1, Decimal("1234.5"), Decimal(-2)), (2, None, None), (4, None, None)]
    assert [(s.line, s.why) for s in skipped] == [(4, "player 3: masterpoints and handicaps are numbers, not 'many'")]


def test_a_stratified_seeding_fills_the_first_section_with_the_highest_stratum(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=5)
    masterpoints = {n: (n * 389) % 3000 for n in range(1, 29)}
    import_ratings(tmp_path / "s1.sqlite", "".join(f"{n},Member {n},,{mp},\n" for n, mp in masterpoints.items()))
    strata = 'strata = { A = 1500, B = 0 }\n'
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s2.sqlite"], strata)
    code, _, err = tenace(capsys, "championship", "seed", str(champ), "--stratified")
    assert code == 0, err
    code, out, _ = tenace(capsys, "championship", "rank", str(write_championship(
        tmp_path / "first.toml", ["s1.sqlite"])), "--json")
    ranked = [tuple(r["players"]) for r in json.loads(out)["ranking"]]
    # Stratum A (a player of 1500 or more) first, each stratum in its ranked order; section A's 8 places in turn
    # NS 1, EW 1, NS 2, ..., then section B's 6.
    ordered = sorted(ranked, key=lambda p: 0 if max(masterpoints[n] for n in p) >= 1500 else 1)
    places = [("A", n, f) for n in range(1, 5) for f in ("NS", "EW")] + [("B", n, f) for n in range(1, 4)
                                                                          for f in ("NS", "EW")]
    with closing(connect(tmp_path / "s2.sqlite")) as conn:
        seats = {players: (section, pair, field) for section in ("A", "B")
                 for (pair, field), players in pair_players(conn, section).items()}
    assert seats == dict(zip(ordered, places, strict=True))
    assert ordered != ranked  # the strata changed the order: the test sees the difference
    assert sum(1 for p in ranked if max(masterpoints[n] for n in p) >= 1500) not in (0, 14)
    code, _, err = tenace(capsys, "championship", "seed", str(write_championship(
        tmp_path / "plain.toml", ["s1.sqlite", "s3.sqlite"])), "--stratified")
    assert code == 2 and "names no strata" in err


def test_the_sessions_as_one_usebio_file_each_section_its_sessions_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=1)
    second = session_event(tmp_path / "s2.sqlite", {"A": mitchell(7, 1)}, seed=2)
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s2.sqlite"], carry={0: 0.5})
    out = tmp_path / "spring.xml"
    code, text, err = tenace(capsys, "championship", "rank", str(champ), "--usebio", str(out), "--club", "Riga BC",
                             "--club-id", "2074")
    assert code == 0, err
    assert text.startswith("Spring pairs: 2 sessions")  # the ranking still printed
    assert "the combined ranking, strata and handicaps are not in the file" in err
    assert "the carry-over is not in the file" in err and f"wrote {out}: 3 sections, 28 pairs" in err
    check_file(out)  # the schema's validator (test_usebio_schema's), as every USEBIO file tenace writes
    root = etree.parse(str(out)).getroot()
    event = root.find("EVENT")
    assert event is not None and event.findtext("SESSION_COUNT") == "2" and event.findtext("SECTION_COUNT") == "3"
    assert event.findtext("EVENT_DESCRIPTION") == "Spring pairs" and root.findtext("CLUB/CLUB_ID_NUMBER") == "2074"
    sections = {s.get("SECTION_ID"): s for s in event.findall("SECTION")}
    assert list(sections) == ["1A", "1B", "2A"]
    for sid, event_file in (("1A", first), ("1B", first), ("2A", second)):
        doc = results_json(capsys, event_file)
        ranking = next(s for s in doc["sections"] if s["section"] == sid[1])["report"]["ranking"]
        with closing(connect(event_file)) as conn:
            players = pair_players(conn, sid[1])
        want = {}
        for r in ranking:
            number, direction = r["pair"].split("-")[-1].split()[::-1]
            want[f"{number}{direction}"] = (r["rank"].rstrip("="), f'{r["percent"]:.2f}', f'{r["mp"]:.2f}',
                                            [str(n) for n in players[(int(number), direction)]])
        shown = {p.findtext("PAIR_NUMBER"): (p.findtext("PLACE"), p.findtext("PERCENTAGE"), p.findtext("TOTAL_SCORE"),
                                             [x.text for x in p.findall("PLAYER/NATIONAL_ID_NUMBER")])
                 for p in sections[sid].findall("PARTICIPANTS/PAIR")}
        assert shown == want, sid
        # tenace score reads each section back to the session's own ranking.
        code, scored, err = tenace(capsys, "score", str(out), "--section", sid, "--json")
        assert code == 0, err
        assert [(r["rank"], r["percent"]) for r in json.loads(scored)["ranking"]] == [
            (r["rank"], r["percent"]) for r in ranking], sid


@pytest.mark.parametrize(("args", "says"), [
    (["--usebio", "x.xml"], "--usebio needs --club NAME"),
    (["--usebio", "-", "--club", "C"], "--usebio - and the ranking would both go to standard output"),
    (["--club", "C"], "--club and --club-id name the club of a --usebio file"),
    (["--usebio", "spring.toml", "--club", "C"], "spring.toml is the input file"),
])
def test_a_championship_usebio_file_asked_for_wrongly_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2)}, seed=1)
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite"])
    code, out, err = tenace(capsys, "championship", "rank", str(champ), *[
        str(tmp_path / a) if a.endswith((".xml", ".toml")) else a for a in args])
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and says in err, err


def test_the_figures_are_kept_in_the_event_files_and_a_csv_edited_later_changes_no_ranking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = session_event(tmp_path / "s1.sqlite", {"A": mitchell(5, 2)}, seed=7)
    second = session_event(tmp_path / "s2.sqlite", {"A": mitchell(5, 2)}, seed=8)
    ratings = tmp_path / "ratings.csv"
    held = {n: (n * 173) % 2400 for n in range(1, 21)}
    ratings.write_text("".join(f"{n},Member {n},,{mp},{n % 3}\n" for n, mp in held.items()), encoding="utf-8")
    assert tenace(capsys, "names", str(first), "--roster", str(ratings))[0] == 0
    # Session 2's roster says otherwise: a pair's stratum stays the one of the first session that has its figures.
    ratings.write_text("".join(f"{n},Member {n},,0,0\n" for n in held), encoding="utf-8")
    assert tenace(capsys, "names", str(second), "--roster", str(ratings))[0] == 0
    champ = write_championship(tmp_path / "spring.toml", ["s1.sqlite", "s2.sqlite"],
                               'strata = { A = 1500, B = 0 }\nhandicap = "sum"')
    code, out, err = tenace(capsys, "championship", "rank", str(champ), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert {r["names"]: r["stratum"] for r in doc["ranking"]} == {
        r["names"]: "A" if max(held[p] for p in r["players"]) >= 1500 else "B" for r in doc["ranking"]}
    assert {r["names"]: r["handicap"] for r in doc["ranking"]} == {
        r["names"]: sum(p % 3 for p in r["players"]) for r in doc["ranking"]}
    assert {r["stratum"] for r in doc["ranking"]} == {"A", "B"}
    # The CSV edited after the import: the ranking is the same (the figures are the event files').
    ratings.write_text("".join(f"{n},Member {n},,3000,9\n" for n in held), encoding="utf-8")
    assert tenace(capsys, "championship", "rank", str(champ), "--json")[1] == out
    # Kept as evidence: chained as the roster is, an edit outside Tenace is named.
    assert tenace(capsys, "check", str(first))[0] == 0
    conn = sqlite3.connect(first)
    conn.executescript("DROP TRIGGER roster_figures_chained_u; "
                       "UPDATE roster_figures SET masterpoints = '9999' WHERE number = 1;")
    conn.close()
    code, out, _ = tenace(capsys, "check", str(first))
    assert code == 1 and f"{first}: changed outside Tenace: roster_figures 1: masterpoints is '9999', chained as " \
                          f"'{held[1]}'" in out.splitlines()


def test_a_roster_import_replaces_the_figures_and_an_older_file_takes_them_once_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with closing(connect(path, create=True, migrations=MIGRATIONS[:-1])) as conn:  # the schema before the figures
        conn.execute("INSERT INTO roster (number, name) VALUES (1, 'Ann')")
    with closing(connect(path)) as conn:
        assert roster(conn)[1] == Member(1, "Ann")
        keep_roster(conn, [Member(1, "Ann", None, Decimal("1234.50"), Decimal("-2")), Member(2, "Bob", None,
                                                                                             Decimal("1E+3"))])
        assert [(m.masterpoints, m.handicap) for m in roster(conn).values()] == [
            (Decimal("1234.50"), Decimal(-2)), (Decimal(1000), None)]
        assert conn.execute("SELECT masterpoints FROM roster_figures WHERE number = 2").fetchone()[0] == "1000"
        keep_roster(conn, [Member(1, "Ann")])  # a roster without figures: Ann's go, Bob's stay (not in it)
        assert [(m.number, m.masterpoints) for m in roster(conn).values()] == [(1, None), (2, Decimal(1000))]
