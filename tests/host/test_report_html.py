"""`tenace report --html`: a two-section event (a Mitchell and a Howell) as a static site: a page per board and
per pair, every link relative and leading to a file of the folder, no script, the rankings of `tenace results
--json` with the players' names; a folder in use, a missing or bad event file refused in one line."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field, replace
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cli_runner import tenace

from tenace.cli import main
from tenace.movement import howell, mitchell
from tenace.reports.event_results import event_results
from tenace.store import create_event, ingest, sign_in
from tenace.store.db import connect_read_only
from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy, keep_analysis, keep_hand_record
from tenace.store.names import Member, keep_roster, set_pair_players

from sample_results import session_results

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
MITCHELL, HOWELL = mitchell(5, 3), howell(4, 3)


def make_event(path: Path) -> None:
    """Section A a 5-table Mitchell, B a 4-table Howell, every result in; two pairs named; A's board 1 with its
    deal and a double-dummy analysis, B's board 2 with its deal only."""
    conn = create_event(path, name="Two sections", date="2024-05-14", sections={"A": MITCHELL, "B": HOWELL})
    for section, movement in (("A", MITCHELL), ("B", HOWELL)):
        for table in range(1, movement.tables + 1):
            sign_in(conn, 100 * (section == "B") + table, section, table)
        for m in session_results(movement, section=section):
            assert ingest(conn, replace(m, terminal=100 * (section == "B") + m.table)).acknowledge
    keep_roster(conn, [Member(101, "Ann Archer"), Member(117, "Bob Baker"), Member(120, "Cléo Dupré"),
                       Member(121, "Dan Eve")])
    set_pair_players(conn, "A", 1, "NS", (101, 117), who="TD")
    set_pair_players(conn, "B", 3, "", (120, 121), who="TD")
    keep_hand_record(conn, "A", 1, DEAL)
    keep_analysis(conn, "A", 1, DEAL, DoubleDummy({d: {s: 7 for s in STRAINS} for d in DECLARERS}, 0, ("1NT N =",)))
    keep_hand_record(conn, "B", 2, DEAL)
    conn.close()


@dataclass
class Page(HTMLParser):
    """What the tests look at in a page: its links and sources, scripts, and its ranking tables' cells (each cell's
    text pieces: a pair's cell is its label, then the players' names)."""

    links: list[str] = field(default_factory=list)
    scripts: int = 0
    rankings: list[tuple[str, list[list[list[str]]]]] = field(default_factory=list)  # (section, rows)
    _section: str = ""
    _in_ranking: bool = False
    _cell: list[str] | None = None

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for name in ("href", "src"):
            if a.get(name) is not None:
                self.links.append(str(a[name]))
        if tag == "script":
            self.scripts += 1
        elif tag == "section":
            self._section = a.get("data-section") or ""
        elif tag == "table" and a.get("class") == "ranking":
            self._in_ranking = True
            self.rankings.append((self._section, []))
        elif tag == "tr" and self._in_ranking:
            self.rankings[-1][1].append([])
        elif tag in ("td", "th") and self._in_ranking:
            self._cell = []
            self.rankings[-1][1][-1].append(self._cell)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_ranking = False
        elif tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and data.strip():
            self._cell.append(data.strip())


def parsed(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """(event file, site folder, what the command said on stderr)."""
    folder = tmp_path_factory.mktemp("html")
    db = folder / "club.sqlite"
    make_event(db)
    err = io.StringIO()  # capsys is for one test, the site for the module
    with contextlib.redirect_stderr(err):
        code = main(["report", str(db), "--html", str(folder / "site")])
    assert code == 0, err.getvalue()
    return db, folder / "site", err.getvalue()


@pytest.mark.slow
def test_a_page_per_board_and_per_pair_and_a_line_per_section(site: tuple[Path, Path, str]) -> None:
    _, folder, err = site
    lines = err.splitlines()
    assert len(lines) == 4, err
    assert lines[2] == f"wrote {folder / 'player'}/ (4 players named in tenace names)"
    assert lines[0].endswith("(15 boards) and " + str(folder / "pair" / "A") + "/ (10 pairs): section A")
    assert lines[1].endswith("(21 boards) and " + str(folder / "pair" / "B") + "/ (8 pairs): section B")
    pages = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    want = ({"index.html"} | {f"board/A/{b}.html" for b in range(1, 16)} | {f"board/B/{b}.html" for b in range(1, 22)}
            | {f"pair/A/{d}{n}.html" for d in ("NS", "EW") for n in range(1, 6)}
            | {f"pair/B/{n}.html" for n in range(1, 9)} | {f"player/{n}.html" for n in (101, 117, 120, 121)})
    assert pages == want


@pytest.mark.slow
def test_every_link_is_relative_and_leads_to_a_page_of_the_folder(site: tuple[Path, Path, str]) -> None:
    _, folder, _ = site
    reached = {folder / "index.html"}
    for page in folder.rglob("*.html"):
        found = parsed(page)
        assert found.scripts == 0, page  # the live script is for tenace serve only
        assert found.links, page
        for link in found.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc and not link.startswith("/"), (page, link)
            target = (page.parent / parts.path).resolve()
            assert target.is_file() and target.is_relative_to(folder.resolve()), (page, link)
            reached.add(target)
    # And every page is reached from another one.
    assert reached == {p.resolve() for p in folder.rglob("*.html")} | {folder / "index.html"}


@pytest.mark.slow
def test_the_rankings_are_those_of_tenace_results(site: tuple[Path, Path, str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db, folder, _ = site
    code, out, _ = tenace(capsys, "results", str(db), "--json")
    assert code == 0
    want = sorted((s["section"], r["field"] or "", r["rank"], r["pair"], r["names"], Decimal(str(r["percent"])),
                   Decimal(str(r["mp"])), r["boards"])
                  for s in json.loads(out)["sections"] for r in s["report"]["ranking"])
    shown = []
    for section, rows in parsed(folder / "index.html").rankings:
        header, *body = rows
        field_ = header[0][0] if header[0][0] != "Rank" else ""
        for rank, pair, percent, mp, boards in body:
            shown.append((section, field_, rank[0], pair[0], pair[1] if len(pair) > 1 else None, Decimal(percent[0]),
                          Decimal(mp[0]), int(boards[0])))
    assert len(want) == 18 and sorted(shown) == want
    names = {s[3]: s[4] for s in shown}
    assert names["A-NS 1"] == "Ann Archer - Bob Baker" and names["B-3"] == "Cléo Dupré - Dan Eve"


@pytest.mark.slow
def test_a_board_shows_its_hand_record_and_a_pair_its_scorecard(site: tuple[Path, Path, str]) -> None:
    _, folder, _ = site
    board = (folder / "board" / "A" / "1.html").read_text(encoding="utf-8")
    assert "Board 1, section A" in board and "AKQJ" in board and "Double dummy" in board
    assert "Par NS +0: 1NT by N =" in board and board.count("<tr>") == 1 + 5 + 1 + 4  # traveller, DD table
    deal_only = (folder / "board" / "B" / "2.html").read_text(encoding="utf-8")
    assert "AKQJ" in deal_only and "Double dummy" not in deal_only
    assert "AKQJ" not in (folder / "board" / "A" / "2.html").read_text(encoding="utf-8")
    card = (folder / "pair" / "A" / "NS1.html").read_text(encoding="utf-8")
    assert "Scorecard of A-NS 1" in card and "Ann Archer</a> - <a" in card
    assert card.count('<table class="traveller">') == 15
    howell_card = (folder / "pair" / "B" / "3.html").read_text(encoding="utf-8")
    assert "Scorecard of B-3" in howell_card and "Cléo Dupré</a> - <a" in howell_card


@pytest.mark.slow
def test_a_folder_in_use_is_refused_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    folder = tmp_path / "web"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    code, out, err = tenace(capsys, "report", str(db), "--html", str(folder))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "is not empty" in err and "--force" in err, err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    code, _, err = tenace(capsys, "report", str(db), "--html", str(folder), "--force")
    assert code == 0 and "section B" in err, err
    assert (folder / "notes.txt").read_text() == "mine\n" and (folder / "board" / "B" / "21.html").is_file()
    # An empty folder is used as it is.
    (tmp_path / "empty").mkdir()
    code, _, err = tenace(capsys, "report", str(db), "--html", str(tmp_path / "empty"))
    assert code == 0 and (tmp_path / "empty" / "index.html").is_file(), err


@pytest.mark.parametrize(("args", "message"), [
    (["none.sqlite", "--html", "web"], "no such event file"),
    (["notes.txt", "--html", "web"], "not a usable event file"),
    (["club.sqlite", "--html", "notes.txt"], "is a file, not a folder"),
    (["club.sqlite", "--html", "web", "--section", "C"], "there is no section 'C'"),
    (["club.sqlite", "--html", "web", "--lang", "fr"], "--lang 'fr': the pages speak en, he, lv, sk, sr"),
    (["club.sqlite", "--pbn", "x.pbn", "--lang", "lv"], "--lang is for --html DIR"),
])
def test_wrong_requests_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    create_event(tmp_path / "club.sqlite", name="Empty", date="2024-05-14", sections={"A": MITCHELL}).close()
    (tmp_path / "notes.txt").write_text("not an event\n" * 100)
    code, out, err = tenace(capsys, "report", *args)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.pbn").exists() and not (tmp_path / "web").exists()


def test_one_section_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db)
    code, _, err = tenace(capsys, "report", str(db), "--html", str(tmp_path / "b"), "--section", "B")
    assert code == 0 and "section A" not in err and "section B" in err, err
    assert not (tmp_path / "b" / "board" / "A").exists() and len(list((tmp_path / "b" / "board" / "B").iterdir())) == 21
    index = parsed(tmp_path / "b" / "index.html")
    assert [section for section, _ in index.rankings] == ["B"]


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = tenace(capsys, "report", "--help")
    assert code == 0 and "--html DIR" in out and "--force" in out and "index.html" in out and "--lang XX" in out


@pytest.mark.slow
def test_a_pairs_debrief_shows_each_board_with_the_field_and_its_own_line(site: tuple[Path, Path, str]) -> None:
    """The pair's page: every board it played with the hand record where kept, the whole traveller with the pair's
    line marked, and its own matchpoints and percentage on each (the scorer's figures)."""
    db, folder, _ = site
    conn = connect_read_only(db)
    try:
        section = event_results(conn).sections[0]
    finally:
        conn.close()
    card = (folder / "pair" / "A" / "NS1.html").read_text(encoding="utf-8")
    boards = card.split('<h2><a href="../../board/A/')[1:]
    played = [b for b in section.report.boards if any(line.ns and line.ns.label == "A-NS 1" for line in b.lines)]
    assert len(boards) == len(played) == 15
    for page, board in zip(boards, played, strict=True):
        assert page.startswith(f"{board.board}.html")
        line = next(line for line in board.lines if line.ns and line.ns.label == "A-NS 1")
        assert f"Played NS: {line.mp_ns} MP ({line.percent_ns}%)" in page
        assert page.count('<tr class="mine">') == 1 and page.count("<tr") == 1 + len(board.lines) + (
            5 if board.board == 1 else 0)  # the whole field's traveller, and board 1's double-dummy table
        mine = page.split('<tr class="mine">')[1].split("</tr>")[0]
        assert 'NS1.html">A-NS 1</a>' in mine
    assert "AKQJ" in boards[0] and "Par NS +0: 1NT by N =" in boards[0] and "AKQJ" not in "".join(boards[1:])


@pytest.mark.slow
def test_a_players_page_links_their_pairs_and_a_pairs_page_its_players(site: tuple[Path, Path, str]) -> None:
    _, folder, _ = site
    page = (folder / "player" / "120.html").read_text(encoding="utf-8")
    assert "<h2>Cléo Dupré</h2>" in page and '<a href="../pair/B/3.html">B-3</a>' in page
    assert parsed(folder / "player" / "101.html").links.count("../pair/A/NS1.html") == 1
    card = (folder / "pair" / "A" / "NS1.html").read_text(encoding="utf-8")
    assert '<a href="../../player/101.html">Ann Archer</a> - <a href="../../player/117.html">Bob Baker</a>' in card
