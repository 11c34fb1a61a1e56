"""The public pages in the terminal's languages: every language file has every key (and the same placeholders) and
every key a page asks for, so that no missing translation reaches a page; each page renders in each language, Hebrew
right to left with its numbers and contracts kept left to right; the language comes from ?lang= (kept in the links)
or the browser's Accept-Language; `tenace report --html --lang` writes the static site in one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import words_left
from cli_runner import tenace
from starlette.testclient import TestClient
from test_serve import make_event
from test_serve_playing import partial_event

from tenace.cli import main
from tenace.movement import mitchell
from tenace.page_base.words import LANGUAGES, PLACEHOLDER, language_of, parse, read, words
from tenace.reports.event_results import _DONE
from tenace.web.app import create_app
from tenace.web.pages import marked_text
from tenace.web.render import templates

from conftest import ROOT

WEB = ROOT / "host" / "tenace" / "web"
# The modules that ask for words in Python: t("key") and NotFound("key", ...).
PYTHON = sorted(WEB.glob("*.py"))  # the static site (web/static_site.py) among them


def template_keys() -> set[str]:
    """The keys the public templates pass to t(...), each a literal (a key the test cannot see fails it)."""
    env = templates()
    # The console's pages (and its print pages, print.html) take their words from lang/console: test_console_languages.
    public = [name for name in env.list_templates() if not name.startswith("console") and name != "print.html"]
    assert {"layout.html", "rankings.html", "board.html", "pair.html", "playing.html", "missing.html"} <= set(public)
    return words_left.template_keys(env, public)


def python_keys() -> set[str]:
    keys = set()
    for path in PYTHON:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("t", "NotFound")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                keys.add(node.args[0].value)
    return keys


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = read("en")
    for lang in LANGUAGES:
        texts = read(lang)
        assert set(texts) == set(english), f"{lang}: {set(english) ^ set(texts)}"
        for key, text in texts.items():
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), f"{lang} {key}: {text}"
            assert "{" not in PLACEHOLDER.sub("", text) and "}" not in PLACEHOLDER.sub("", text), f"{lang} {key}"
    assert len({read(lang)["language"] for lang in LANGUAGES}) == len(LANGUAGES)  # the switcher tells them apart


def test_every_key_a_page_asks_for_is_in_the_files() -> None:
    asked = template_keys() | python_keys()
    assert {"results_in", "scorecard", "contract", "not_played", "no_section", "unavailable"} <= asked  # the scan sees
    assert asked - set(read("en")) == set()
    # And nothing in the files that no page says: a translator's work is not wasted on it.
    assert set(read("en")) - asked - {"language"} == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_mark_of_a_directors_entry_is_said_in_the_pages_words(lang: str) -> None:
    t = words(lang)
    for done in {*_DONE.values(), "entered"}:  # as event_results marks a traveller line ("TD: adjusted")
        said = marked_text(f"TD: {done}", t)
        assert said == t(f"mark_{done}") and (lang == "en" or "TD" not in said), (lang, done)
    assert marked_text("TD: shrugged", t) == t.ltr("TD: shrugged")  # one it does not know: as it is


@pytest.mark.parametrize(("text", "error"), [
    ("rank\tRank\nrank\tPlace\n", "lang/x.txt:2: 'rank' twice"),
    ("rank Rank\n", "lang/x.txt:1: not a key, a tab and a text"),
    ("# a comment\n\nrank\t \n", "lang/x.txt:3: not a key, a tab and a text"),
])
def test_a_broken_language_file_names_its_line(text: str, error: str) -> None:
    with pytest.raises(ValueError, match=re.escape(error)):
        parse(text, "lang/x.txt")


@pytest.mark.parametrize(("asked", "header", "chosen"), [
    (None, "lv-LV,lv;q=0.9,en-US;q=0.8,en;q=0.7", "lv"),
    (None, "en;q=0.5, sk;q=0.8", "sk"),
    (None, "fr-FR, de;q=0.5, he;q=0.1", "he"),
    (None, "iw-IL", "he"),  # Hebrew's old code
    (None, "sr-Latn-RS", "sr"),
    (None, "bs-BA", "sr"),  # Serbian in Latin script is read in Bosnia
    (None, "lv;q=0, en", "en"),  # q=0: not wanted at all
    (None, "fr, de", None),  # none of ours: the caller's default
    (None, None, None),
    ("sk", "lv", "sk"),  # the page's own switcher wins over the browser
    ("fr", "lv", "lv"),  # not one of ours: as if not asked
])
def test_the_language_is_the_one_asked_for_else_the_browsers(asked: str | None, header: str | None,
                                                            chosen: str | None) -> None:
    assert language_of(asked, header) == chosen


def visible_text(html: str) -> str:
    """The page's text in its own language: not its script and style, nor the director's log lines, which are in
    English and marked so (lang="en")."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<ul class="notes" lang="en" dir="ltr">.*?</ul>', " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def english_left(html: str, lang: str) -> list[str]:
    """The English words of the pages (their files' fixed parts, three letters or more) that show on a page in
    another language where its file says something else (the switcher names English in English)."""
    return words_left.english_left(visible_text(html), read("en"), read(lang))


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a whole Mitchell with players' names, a hand record and the director's scores on board 2, a partly played
    one with sit-outs)."""
    folder = tmp_path_factory.mktemp("languages")
    make_event(folder / "whole.sqlite", mitchell(5, 3))
    for table, score in ((2, ["--assigned", "+620", "--ew-assigned", "-100"]), (3, ["--weighted", "0.6:+620,0.4:-100"]),
                         (4, ["--ns", "A+", "--ew", "A-"])):
        assert main(["adjust", str(folder / "whole.sqlite"), "--table", str(table), "--board", "2", *score,
                     "--why", "a ruling", "--who", "TD"]) == 0
    partial_event(folder / "partial.sqlite")
    return folder / "whole.sqlite", folder / "partial.sqlite"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_renders_in_each_language(events: tuple[Path, Path], lang: str) -> None:
    whole, partial = events
    t = words(lang)
    direction = "rtl" if lang == "he" else "ltr"
    pages = {}
    with TestClient(create_app(whole)) as client:
        for path in ("/", "/board/A/1", "/board/A/2", "/pair/A/NS1", "/player/101", "/playing", "/board/A/99",
                     "/player/999"):
            pages[path] = client.get(path, params={"lang": lang})
    with TestClient(create_app(partial)) as client:
        pages["partial"] = client.get("/playing", params={"lang": lang})
        pages["partial /"] = client.get("/", params={"lang": lang})
    for path, page in pages.items():
        assert page.status_code == (404 if path in ("/board/A/99", "/player/999") else 200), path
        assert f'<html lang="{lang}" dir="{direction}">' in page.text, path
        assert english_left(page.text, lang) == [], path
    assert str(t("results_in", done=75, expected=75)) in pages["/"].text
    assert str(t("board", board=1)) in pages["/board/A/1"].text
    assert str(t("double_dummy")) in pages["/board/A/1"].text and str(t("contract")) in pages["/board/A/1"].text
    assert str(t("split", ns=t("assigned", score=t.ltr("+620")), ew=t("assigned", score=t.ltr("-100")))) in \
        pages["/board/A/2"].text
    assert str(t("weighted", weights=t.ltr("3/5:620 2/5:-100"))) in pages["/board/A/2"].text
    assert str(t.ltr("A+/A-")) in pages["/board/A/2"].text
    assert str(t("scorecard", pair="NS 1")) in pages["/pair/A/NS1"].text
    assert "Ann Archer</a> - <a" in pages["/pair/A/NS1"].text  # names are never translated
    assert "<h2>Ann Archer</h2>" in pages["/player/101"].text
    assert str(t("no_player", player=999)) in pages["/player/999"].text
    assert str(t("no_board", board=99, section="A")) in pages["/board/A/99"].text
    assert str(t("tables_playing", n=4, tables=5)) in pages["partial"].text
    assert str(t("sits_out", pair="NS 4", absent="EW 2")) in pages["partial"].text
    assert str(t("provisional")) in pages["partial /"].text
    # The switcher: each language by its own name, this page in it, this one marked as the current one.
    for other in LANGUAGES:
        current = ' aria-current="page"' if other == lang else ""
        assert (f'<a href="/board/A/1?lang={other}" hreflang="{other}" lang="{other}"{current}>'
                f'{words(other).name}</a>') in pages["/board/A/1"].text


def test_hebrew_runs_right_to_left_with_its_numbers_and_contracts_left_to_right(events: tuple[Path, Path]) -> None:
    with TestClient(create_app(events[0])) as client:
        board = client.get("/board/A/1", params={"lang": "he"}).text
        rankings = client.get("/", params={"lang": "he"}).text
        english = client.get("/board/A/1", params={"lang": "en"}).text
    assert '<html lang="he" dir="rtl">' in board
    # A score's minus sign and a contract's suit would otherwise be moved by the right-to-left line.
    # (East-West's score under it, for a phone: isolated too.)
    scores = re.findall(r'<td class="n"><bdi dir="ltr">([-+]\d{2,})</bdi>'  # not the tricks (+1)
                        r'<span class="phone ew"><bdi dir="ltr">([-+]\d{2,})</bdi></span></td>', board)
    assert len(scores) == 5 and all(int(ns) == -int(ew) for ns, ew in scores)
    assert re.search(r'<bdi dir="ltr">\d(NT|[♠♥♦♣])X{0,2}</bdi>', board)
    # A shared place ("3=") and a percentage too, on every line of the rankings (five pairs a field).
    assert len(re.findall(r'<tr><td><bdi dir="ltr">\d+=?</bdi></td>', rankings)) == 10
    assert len(re.findall(r'<td class="n"><bdi dir="ltr">\d+\.\d\d</bdi></td>', rankings)) == 20  # % and MP
    # The deal and the double-dummy table keep the table's own layout, West on the left.
    assert '<div class="deal" dir="ltr">' in board and '<table class="dd" dir="ltr">' in board
    # A left-to-right page has nothing to isolate.
    assert "<bdi" not in english and 'dir="ltr">' in english  # the <html> only


def test_the_browsers_language_and_the_chosen_one_in_the_links(events: tuple[Path, Path]) -> None:
    with TestClient(create_app(events[0])) as client:
        browser = client.get("/", headers={"Accept-Language": "lv-LV,lv;q=0.9,en;q=0.8"})
        chosen = client.get("/", params={"lang": "sk"}, headers={"Accept-Language": "lv"})
        part = client.get("/", params={"part": "1", "lang": "sr"})
    assert browser.headers["vary"] == "Accept-Language"
    assert '<html lang="lv" dir="ltr">' in browser.text
    assert str(words("lv")("results_in", done=75, expected=75)) in browser.text
    assert 'href="/board/A/1"' in browser.text  # no ?lang: the next page asks the browser again
    assert 'data-part="/?part=1&amp;lang=lv"' in browser.text  # the live part in the page's language
    assert '<html lang="sk" dir="ltr">' in chosen.text
    assert 'href="/board/A/1?lang=sk"' in chosen.text and 'href="/pair/A/NS1?lang=sk"' in chosen.text
    assert 'href="/playing?lang=sk"' in chosen.text
    assert "<html" not in part.text and str(words("sr")("results_in", done=75, expected=75)) in part.text


def test_the_static_site_in_a_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    make_event(db, mitchell(5, 3))
    code, _, err = tenace(capsys, "report", str(db), "--html", str(tmp_path / "site"), "--lang", "he")
    assert code == 0, err
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    board = (tmp_path / "site" / "board" / "A" / "1.html").read_text(encoding="utf-8")
    assert '<html lang="he" dir="rtl">' in index and str(words("he")("rankings")) in board
    assert english_left(board, "he") == [] and english_left(index, "he") == []
    # One language written: no switcher to pages that are not there, no ?lang= in a file's links.
    assert 'class="langs"' not in index and "?lang" not in index and 'href="board/A/1.html"' in index
    code, _, err = tenace(capsys, "report", str(db), "--html", str(tmp_path / "en"))
    assert code == 0 and '<html lang="en" dir="ltr">' in (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
