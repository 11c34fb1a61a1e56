"""`tenace serve SESSION --championship FILE`: a session of a championship served, its rankings page, the console's
publish page and its printed ranking showing the session's ranking and the championship's combined ranking so far,
which is the test's own from `tenace results --json` of the sessions (and follows the served session's results)."""

from __future__ import annotations

import json
import re
from contextlib import closing
from fractions import Fraction
from pathlib import Path

import httpx2 as httpx
import pytest
from cli_runner import tenace
from starlette.testclient import TestClient
from test_championship import Row, import_ratings, own_combined, places, results_json, session_event

from tenace.movement import mitchell
from tenace.movement.model import Movement
from tenace.page_base.words import LANGUAGES, console_words, words
from tenace.reports.championship import read_championship
from tenace.store import connect, ingest, sign_in
from tenace.web.app import create_app
from tenace.web.championship_page import ServedChampionship
from tenace.web.console import Director

from live_page import served
from sample_results import session_results

PASSWORD = "correct horse battery"
SECOND = {"A": mitchell(7, 1)}  # session 2: one 7-table Mitchell, the 14 pairs of session 1 in another order


def second_players() -> dict[tuple[str, int, str], tuple[int, int]]:
    order = list(range(27, 0, -2))  # pairs (27, 28), (25, 26), ...: everyone moves
    return {("A", pair, field): (order[i], order[i] + 1) for i, (field, pair) in enumerate(SECOND["A"].pairs())}


def championship_file(folder: Path, name: str = "Spring pairs", extra: str = "") -> Path:
    """Three sessions: the first played, the second under way (served), the third not made yet."""
    path = folder / "spring.toml"
    sessions = "".join(f'[[session]]\nevent = "s{i}.sqlite"\n' for i in (1, 2, 3))
    path.write_text(f"name = {name!r}\n{extra}\n{sessions}".replace("'", '"'), encoding="utf-8")
    return path


def play_into(path: Path, movement: Movement, seed: int, results: slice) -> None:
    """Those of the section's sample results (tools/sample_results), as its terminals send them."""
    with closing(connect(path)) as conn:
        for table in range(1, movement.tables + 1):
            sign_in(conn, table, "A", table)
        for m in session_results(movement, section="A", seed=seed)[results]:
            ingest(conn, m)


def sessions(folder: Path, member: str = "Member", name: str = "Spring") -> tuple[Path, Path]:
    """Session 1 played (a 4-table and a 3-table Mitchell), session 2 (7 tables) with 30 of its 49 results."""
    first = session_event(folder / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=1, member=member,
                          name=name)
    second = session_event(folder / "s2.sqlite", SECOND, seed=2, played=False, players=second_players(),
                           member=member, name=name)
    play_into(second, SECOND["A"], 2, slice(0, 30))
    return first, second


def cells(html: str, table: str) -> list[list[str]]:
    """Each body row of the first table of that class, as its cells' text."""
    body = html.split(f'<table class="{table}">', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in body.split("<tr>")[1:]]


def shown_rows(html: str) -> list[Row]:
    """The combined ranking as the page shows it: place, pair, score (its stratum after the names taken off)."""
    rows = [(c[0], re.sub(r" \([A-Z]\)$", "", c[1]), float(c[2])) for c in cells(html, "combined")]
    return sorted(rows, key=lambda r: (int(r[0].rstrip("=")), r[1]))


def test_a_served_session_shows_its_ranking_and_the_championships_so_far(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = sessions(tmp_path)
    champ = read_championship(championship_file(tmp_path, "Spring <pairs> & co"))
    app = create_app(second, director=Director(password=PASSWORD), championship=ServedChampionship(champ, second))
    want = own_combined([results_json(capsys, first), results_json(capsys, second)], [Fraction(1)] * 2, "neuberg")
    assert len(want) == 14
    with TestClient(app) as client:
        page = client.get("/").text
        # The session's own ranking, and the championship's of sessions 1 and 2 (session 3 is still to come).
        assert '<table class="ranking">' in page and "30 of 49 results in" in page
        assert shown_rows(page) == want
        assert "Championship: Spring &lt;pairs&gt; &amp; co" in page and "<pairs>" not in page
        # The common top so far: session 2's boards have up to 5 of their 7 results yet.
        assert "Sessions: 2. Ranked by total matchpoints, each board factored to a top of 8." in page
        # Each pair's percentage in each session so far, the session's own.
        by_names = {c[1]: c[4:6] for c in cells(page, "combined")}
        session_2 = {r["names"]: f'{r["percent"]:.2f}' for r in
                     results_json(capsys, second)["sections"][0]["report"]["ranking"] if r["boards"]}
        assert {n: v[1] for n, v in by_names.items() if v[1] != "-"} == session_2
        for lang in LANGUAGES:
            shown = client.get(f"/?lang={lang}")
            assert shown.status_code == 200
            assert str(words(lang)("ch_heading", name="Spring <pairs> & co")) in shown.text
        # The console's publish page and its printed ranking: the same ranking, beside the session's.
        client.post("/director/login", data={"password": PASSWORD}, headers={"origin": "http://testserver"})
        for url in ("/director/publish", "/director/print/ranking"):
            shown = client.get(url)
            assert shown.status_code == 200 and shown_rows(shown.text) == want, url
        assert "<table>" in client.get("/director/print/ranking").text  # the session's ranking printed first


def test_the_championships_ranking_follows_the_served_sessions_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = sessions(tmp_path)
    champ = read_championship(championship_file(tmp_path))
    with served(second, championship=ServedChampionship(champ, second)) as url, \
            httpx.stream("GET", f"{url}/events", timeout=10) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        before = shown_rows(httpx.get(f"{url}/").text)
        play_into(second, SECOND["A"], 2, slice(30, 49))  # the rest of session 2, as the collector stores it
        for line in lines:
            if line == "event: changed":
                break
        now = own_combined([results_json(capsys, first), results_json(capsys, second)], [Fraction(1)] * 2, "neuberg")
        after = shown_rows(httpx.get(f"{url}/?part=1").text)
        assert after == now and after != before
        # A change in another session's file (a pair of session 1 renamed) shows at the next look.
        with closing(connect(first)) as conn:
            conn.execute("UPDATE roster SET name = 'Renamed' WHERE number = 1")
        assert "Renamed - Member 2" in httpx.get(f"{url}/").text


def test_strata_and_handicaps_on_the_served_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = sessions(tmp_path)
    for event in (first, second):
        import_ratings(event, "".join(f"{n},Member {n},,{(n * 173) % 2400},{n % 5 - 2}\n" for n in range(1, 29)))
    path = championship_file(tmp_path, extra='strata = { A = 1500, B = 0 }\nhandicap = "sum"')
    # The same championship's sessions so far, ranked by tenace championship rank.
    two = path.with_name("two.toml")
    two.write_text(path.read_text(encoding="utf-8").split('[[session]]\nevent = "s3.sqlite"')[0], encoding="utf-8")
    code, out, err = tenace(capsys, "championship", "rank", str(two), "--json")
    assert code == 0, err
    doc = json.loads(out)
    with TestClient(create_app(second, championship=ServedChampionship(read_championship(path), second))) as client:
        page = client.get("/").text
    shown = {c[1]: c for c in cells(page, "combined")}
    assert "Stratum A" in page and "Stratum B" in page and "% with handicap" in page
    for r in doc["ranking"]:
        row = shown[f'{r["names"]} ({r["stratum"]})']
        # place, pair, MP, %, session 1, session 2, stratum A's place, B's, handicap, handicapped %, its place
        assert row[6:] == [r["strata"].get("A", ""), r["strata"].get("B", ""), f'{r["handicap"]:+g}',
                           f'{r["handicapped"]:.2f}', r["handicap_rank"]]


@pytest.mark.parametrize(("text", "says"), [
    ('name = "Other"\n[[session]]\nevent = "s1.sqlite"\n', "s2.sqlite is none of the championship 'Other''s sessions"),
    ('[[session]]\nevent = "gone.sqlite"\n[[session]]\nevent = "s2.sqlite"\n', "session 1: "),
    ("not = toml = at all", "cannot be read as a championship file"),
])
def test_a_championship_that_cannot_be_shown_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str) -> None:
    sessions(tmp_path)
    path = tmp_path / "other.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = tenace(capsys, "serve", str(tmp_path / "s2.sqlite"), "--championship", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err
    assert err.startswith(f"tenace serve: --championship {path}: ")


def test_a_pair_yet_to_play_in_the_session_under_way_keeps_its_average(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """By average percentage, a pair that has played no board of the served session yet is averaged over the sessions
    it has played (not given 0% in this one)."""
    first = session_event(tmp_path / "s1.sqlite", {"A": mitchell(4, 2), "B": mitchell(3, 2)}, seed=1)
    second = session_event(tmp_path / "s2.sqlite", SECOND, seed=2, played=False, players=second_players())
    play_into(second, SECOND["A"], 2, slice(0, 3))  # three tables' first board: six pairs have played
    champ = read_championship(championship_file(tmp_path, extra='combine = "percentage"'))
    with TestClient(create_app(second, championship=ServedChampionship(champ, second))) as client:
        page = client.get("/").text
    percent: dict[str, list[Fraction]] = {}
    for doc in (results_json(capsys, first), results_json(capsys, second)):
        for section in doc["sections"]:
            for row in section["report"]["ranking"]:
                if row["boards"]:
                    percent.setdefault(row["names"], []).append(Fraction(str(row["percent"])))
    assert sum(1 for p in percent.values() if len(p) == 2) == 6
    assert shown_rows(page) == places({who: sum(p, Fraction(0)) / len(p) for who, p in percent.items()})


def test_the_publish_page_offers_the_championships_ranking_and_usebio_as_the_command_writes_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, second = sessions(tmp_path)
    path = championship_file(tmp_path)
    # The sessions so far (1 and 2) ranked by tenace championship rank, as JSON and as one USEBIO file.
    two = path.with_name("two.toml")
    two.write_text(path.read_text(encoding="utf-8").split('[[session]]\nevent = "s3.sqlite"')[0], encoding="utf-8")
    xml = tmp_path / "spring.xml"
    code, out, err = tenace(capsys, "championship", "rank", str(two), "--json", "--usebio", str(xml),
                            "--club", "Riga BC", "--club-id", "2074")
    assert code == 0, err
    app = create_app(second, director=Director(password=PASSWORD),
                     championship=ServedChampionship(read_championship(path), second))
    with TestClient(app) as client:
        client.post("/director/login", data={"password": PASSWORD}, headers={"origin": "http://testserver"})
        page = client.get("/director/publish").text
        assert 'action="/director/download/championship-json"' in page
        assert 'action="/director/download/championship-usebio"' in page
        ranking = client.get("/director/download/championship-json")
        assert ranking.status_code == 200 and ranking.headers["content-type"].startswith("application/json")
        assert 'filename="s2-championship.json"' in ranking.headers["content-disposition"]
        assert ranking.text == out
        usebio = client.get("/director/download/championship-usebio", params={"club": " Riga BC ", "club_id": "2074"})
        assert usebio.status_code == 200 and usebio.headers["content-type"] == "application/xml"
        assert usebio.content == xml.read_bytes()
        # No club: refused beside the championship form's club field, in the page's language, its number kept.
        for lang in LANGUAGES:
            refused = client.get("/director/download/championship-usebio", params={"club": "", "club_id": "77"},
                                 headers={"accept-language": lang})
            assert refused.status_code == 400
            form = refused.text.split('action="/director/download/championship-usebio"', 1)[1].split("</form>")[0]
            said = re.search(r'name="club" required value=""></label> <span class="error">([^<]*)</span>', form)
            assert said and said[1] == worded_refusal(lang), (lang, form)
            assert 'name="club_id" inputmode="numeric" value="77"' in form
            session_form = refused.text.split('action="/director/download/usebio"', 1)[1].split("</form>")[0]
            assert 'class="error"' not in session_form and 'value="77"' not in session_form
    # Served without --championship: neither offered nor made.
    with TestClient(create_app(second, director=Director(password=PASSWORD))) as client:
        client.post("/director/login", data={"password": PASSWORD}, headers={"origin": "http://testserver"})
        assert "championship-json" not in client.get("/director/publish").text
        assert client.get("/director/download/championship-json").status_code == 404


def worded_refusal(lang: str) -> str:
    """The console's refusal of a USEBIO download without a club, in `lang`, its field named by the page's label."""
    words = console_words(lang)
    return words.plain("refusal_usebio_club", club=words.plain("club")) if lang != "en" else \
        "a USEBIO file names the club that ran the event: give the club"
