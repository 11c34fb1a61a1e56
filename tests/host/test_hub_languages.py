"""The hub's pages speak the public pages' five languages, on their templates and words: every hub language file has
every key (and the same placeholders) and none the public files have, every key a hub page asks for is in them and
none is unused; each hub page (the national ranking, a club's, a pair's, a traveller, the organiser's login and
console) renders in each language with no English word of its files left, Hebrew right to left, escaping what
clubs send."""

from __future__ import annotations

import ast
import re
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
import words_left
from psycopg.types.json import Jsonb
from starlette.testclient import TestClient

from tenace.hub import organiser
from tenace.hub.pages import hub_app
from tenace.hub.rendering import TEMPLATES
from tenace.page_base.words import LANGUAGES, PLACEHOLDER, hub_words, read
from tenace.protocol import wire

from conftest import ROOT
from hub_sim import batch, slot, write_hand_records

HUB = ROOT / "host" / "tenace" / "hub"
ORIGIN = {"Origin": "http://testserver"}
# A slot the scoring cannot read, stored as an older hub stored it: quarantined, and named on the console.
UNREADABLE = wire.SlotPush("A", 1, 1, 1, 1, 1, "NS", "EW", "result", "artificial", ns_adjust="ZZ", ew_adjust="ZZ")


def template_keys() -> set[str]:
    """The keys the hub's templates (and the base ones they stand on) pass to t(...), each a literal."""
    return words_left.template_keys(TEMPLATES, TEMPLATES.list_templates())


def python_keys() -> tuple[set[str], set[str]]:
    """The keys the hub's modules pass to t.plain(...): (the literal first arguments, every string in them: a key
    chosen from a dict such as the scorings' names)."""
    direct, within = set(), set()
    for path in sorted(HUB.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "plain"
                    and node.args):
                if isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    direct.add(node.args[0].value)
                within |= {c.value for c in ast.walk(node.args[0])
                           if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return direct, within


def test_every_hub_language_has_every_key_with_the_same_placeholders() -> None:
    english = read("en", "hub")
    for lang in LANGUAGES:
        texts = read(lang, "hub")
        assert set(texts) == set(english), f"{lang}: {set(english) ^ set(texts)}"
        for key, text in texts.items():
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), f"{lang} {key}: {text}"
        assert hub_words(lang).plain("club_imps")  # the public words and the hub's, none said twice


def test_every_key_a_hub_page_asks_for_is_in_the_files() -> None:
    direct, within = python_keys()
    asked = template_keys() | direct
    assert {"rank", "national_imps", "wrong_login", "language_label", "national_note", "first_rows"} <= asked
    assert asked - set(hub_words("en").texts) == set()
    # And nothing in the hub's file that no hub page says.
    assert set(read("en", "hub")) - template_keys() - within == set()


def visible_text(html: str) -> str:
    """The page's text in its own language: not its script and style, nor the hub's log lines (lang="en")."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<(\w+)\b[^>]*\blang="en"[^>]*>.*?</\1>', " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def english_left(html: str, lang: str) -> list[str]:
    """The English words of the hub's and the public pages' files (their fixed parts, three letters or more) that
    show on a page in another language where its file says something else."""
    return words_left.english_left(visible_text(html), hub_words("en").texts, hub_words(lang).texts)


def test_the_check_sees_an_english_word_left() -> None:
    page = '<p>Refused pushes</p><td lang="en">Log in</td>'  # a log line marked English is left alone
    assert english_left(page, "lv") == ["refused_pushes: 'Refused pushes'"]


@pytest.fixture
def hub(hub_db: str, tmp_path: Path) -> str:
    """A released sim of two boards ("Pavasaris"), two clubs with names in no page's words (one named with markup),
    their results pushed and scored, a quarantined slot, a refused push and an organiser."""
    path = tmp_path / "deals.pbn"
    write_hand_records(path, 2)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.new_sim(conn, "sim1", "Pavasaris", [datetime.now(UTC) - timedelta(hours=3)], 2,
                          organiser.hand_records(path, 2), "mp")
        tokens = {club: organiser.add_club(conn, "sim1", club, name)
                  for club, name in (("c1", "Ventspils"), ("c2", "<b>Kuldīga</b>"))}
        organiser.set_organiser(conn, "alice", "correct horse")
        conn.execute("INSERT INTO slots (sim, club, section, table_no, round, board, seq, body, outcome) VALUES "
                     "('sim1', 'c1', 'A', 9, 1, 1, 1, %s, 'AZZ|ZZ')", (Jsonb(asdict(UNREADABLE)),))
    with TestClient(hub_app(hub_db)) as client:
        for club, scores in (("c1", (420, 170)), ("c2", (-50, 450))):
            slots = [slot("A", table, 1, score) for table, score in enumerate(scores, 1)]
            r = client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", club, 1, slots)),
                            headers={"Authorization": f"Bearer {tokens[club]}"})
            assert r.status_code == 200, r.text
        assert client.post(wire.PUSH_PATH, content=b"{}", headers={"Authorization": "Bearer x"}).status_code == 401
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(client.get("/api/sim/sim1/national").json()) < 8:
            time.sleep(0.05)
        assert len(client.get("/api/sim/sim1/national").json()) == 8
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.release(conn, "sim1")
    return hub_db


PAGES = ("/sim/sim1", "/sim/sim1?club=c1", "/sim/sim1/club/c1", "/sim/sim1/pair/c1/A1NS", "/sim/sim1/board/1")


def test_each_hub_page_renders_in_each_language(hub: str) -> None:
    with TestClient(hub_app(hub)) as client:
        for lang in LANGUAGES:
            t = hub_words(lang)
            direction = "rtl" if lang == "he" else "ltr"
            pages = {path: client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}") for path in PAGES}
            pages["login"] = client.get("/console", params={"lang": lang})
            logged = client.post("/console/login", params={"lang": lang}, headers=ORIGIN,
                                 data={"login": "alice", "password": "correct horse"})
            pages["console"] = logged
            for path, page in pages.items():
                assert page.status_code == 200, path
                assert f'<html lang="{lang}" dir="{direction}">' in page.text, path
                assert english_left(page.text, lang) == [], (lang, path)
            assert str(t("national_percent")) in pages["/sim/sim1/pair/c1/A1NS"].text
            assert t.plain("national_title", sim="sim1") in pages["/sim/sim1"].text
            assert str(t("club")) in pages["/sim/sim1/board/1"].text and "Ventspils" in pages["console"].text
            assert str(t("quarantined")) in pages["console"].text and str(t("log_in")) in pages["login"].text
            assert "&lt;b&gt;Kuldīga&lt;/b&gt;" in pages["console"].text  # what a club is named is escaped
            # The language chosen in the address goes along: the pairs' links, the console's forms, the switcher.
            assert f'href="/sim/sim1/pair/c1/A1NS?lang={lang}"' in pages["/sim/sim1"].text
            assert 'href="/sim/sim1?club=c1&amp;lang=sk" hreflang="sk"' in pages["/sim/sim1?club=c1"].text
            client.cookies.clear()
        # Without ?lang=, the browser's language.
        page = client.get("/sim/sim1", headers={"Accept-Language": "sk-SK, en;q=0.5"})
        assert '<html lang="sk" dir="ltr">' in page.text and 'href="/sim/sim1/pair/c1/A1NS">' in page.text
