"""The director's console in the terminal's five languages: a refused form says its refusal in the page's language,
beside the field it concerns; Hebrew's page reads right to left."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from event_state import club_with_a_conflict
from starlette.testclient import TestClient

from tenace.page_base.words import LANGUAGES, console_words
from tenace.web.app import create_app
from tenace.web.console import Director

PASSWORD = "correct horse battery"
SAME = {"Origin": "http://testserver"}
# "table 'two': give a whole number", in each language, with the page's own label for the table.
SAYS = {"en": "table 'two': give a whole number", "lv": "Galds 'two': norādiet veselu skaitli",
        "sr": "Sto 'two': unesite ceo broj", "sk": "Stôl 'two': zadajte celé číslo",
        "he": "שולחן 'two': יש להזין מספר שלם"}


def test_every_language_has_every_word() -> None:
    english = console_words("en").texts
    for lang in LANGUAGES:
        texts = console_words(lang).texts
        assert texts.keys() == english.keys(), lang
        for key, text in texts.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_form_says_why_in_the_page_language_beside_its_field(tmp_path: Path, lang: str) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        login = client.get("/director/login", params={"lang": lang})
        assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}">' in login.text
        answer = client.post(f"/director/login?lang={lang}", data={"password": PASSWORD}, headers=SAME,
                             follow_redirects=False)
        assert answer.status_code == 303
        page = client.get("/director")  # the login's language stays the console's
        assert f'<html lang="{lang}"' in page.text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf
        refused = client.post("/director/adjust", headers=SAME, data={
            "table": "two", "board": "3", "ns": "A+", "ew": "A-", "why": "x", "csrf": csrf[1]})
    assert refused.status_code == 400
    form = refused.text.split('id="adjust"', 1)[1].split("</form>", 1)[0]
    # Right after the table's field, and nowhere else: beside it, in the page's language.
    beside = re.search(r'name="table" inputmode="numeric" value="two" aria-invalid="true" '
                       r'aria-describedby="adjust-error"></label><span class="beside" id="adjust-error">'
                       r'<p class="error" role="alert">(.*?)</p>', form)
    assert beside, form
    assert beside[1].replace("&#39;", "'") == SAYS[lang]
    assert refused.text.count('role="alert"') == 1


def test_the_language_follows_the_browser_until_one_is_chosen(tmp_path: Path) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        page = client.get("/director/login", headers={"Accept-Language": "sk-SK, en;q=0.5"})
        assert '<html lang="sk"' in page.text and "Prihlásiť sa" in page.text
        wrong = client.post("/director/login", data={"password": "no"}, headers={**SAME, "Accept-Language": "lv"})
        assert wrong.status_code == 401 and "Nepareiza parole." in wrong.text


# A few words each page says, in each language: none of the English ones is left on the translated pages.
PAGES = {"/director": ("wk_tag_conflict", "wk_conflict_advice", "wk_all_text"),
         "/director/setup": ("su_roster", "su_pairs", "su_deals", "su_import_roster"),
         "/director/grid/A": ("gr_none_behind", "gr_last_result", "state_conflict"),
         "/director/slot/A/1/1/1": ("sl_versions", "sl_actions", "sl_penalty_title", "sl_back"),
         "/director/terminals": ("te_seat_title", "te_seat_help", "te_seat"),
         "/director/finish": ("fi_heading", "fi_refused", "fi_finish"),
         "/director/publish": ("pu_heading", "pu_pbn", "pu_csv_download", "pu_usebio_download"),
         "/director/print": ("pr_heading", "pr_intro", "pr_cards", "pr_scorecards", "pr_travellers"),
         "/director/print/cards": ("pr_back", "pr_round", "pr_ns_next", "pr_boards_next"),
         "/director/print/scorecards": ("pr_sits", "pr_against", "pr_score_plus", "pr_notes"),
         "/director/print/travellers": ("pr_ns_score",),
         "/director/rehearsal": ("re_heading", "re_start")}


def logged_in(client: TestClient, lang: str) -> str:
    answer = client.post(f"/director/login?lang={lang}", data={"password": PASSWORD}, headers=SAME,
                         follow_redirects=False)
    assert answer.status_code == 303
    page = client.get("/director")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf
    return csrf[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_area_page_speaks_the_console_language(tmp_path: Path, lang: str) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    english, words = console_words("en"), console_words(lang)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        logged_in(client, lang)
        for url, keys in PAGES.items():
            page = client.get(url)
            assert page.status_code == 200, url
            assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}">' in page.text, url
            for key in keys:
                assert str(words(key)) in page.text, (url, key)
                if lang != "en":
                    assert str(english(key)) not in page.text, (url, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_set_up_says_why_beside_its_field_in_the_page_language(tmp_path: Path, lang: str) -> None:
    new = tmp_path / "new.sqlite"
    with TestClient(create_app(new, director=Director(password=PASSWORD), new=True)) as client:
        csrf = logged_in(client, lang)
        refused = client.post("/director/setup/event", headers=SAME, data={
            "csrf": csrf, "name": "Club", "date": "2024-13-40", "scoring": "matchpoints", "s1_section": "A",
            "s1_movement": "mitchell", "s1_tables": "six", "s1_boards": "3", "do": "preview"})
    assert refused.status_code == 400
    words = console_words(lang)
    tables = re.search(r'name="s1_tables"[^>]*aria-describedby="err-s1_tables"></td>|name="s1_tables"[^>]*>'
                       r'<span class="error" id="err-s1_tables" role="alert">(.*?)</span>', refused.text)
    assert tables and tables[1], refused.text
    said = tables[1].replace("&#39;", "'")
    expected = words.plain("refusal_whole", field=words.texts["tables"] if lang != "en" else "tables", text="'six'")
    assert said == expected[:1].upper() + expected[1:]
    date = re.search(r'name="date"[^>]*></label><span class="error" id="err-date" role="alert">(.*?)</span>',
                     refused.text)
    assert date and date[1].replace("&#39;", "'").startswith(
        (words.texts["date"] if lang != "en" else "The date") + " '2024-13-40'")


def test_every_director_refusal_has_its_words() -> None:
    """Each DirectorInputError message of tenace/director is en.txt's refusal_* text (so each language words it),
    or one of the refusals built of a list of fields (forms.LISTED); "{why}" passes another check's words on."""
    import ast

    import tenace.director
    from tenace.web.console.forms import LISTED, refusals

    known, seen = refusals(), 0
    for source in Path(tenace.director.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "DirectorInputError"):
                continue
            seen += 1
            message = node.args[1]
            if isinstance(message, ast.Constant):
                assert message.value in known or message.value == "{why}", (source.name, message.value)
            else:  # built at run time: its constant start is one of LISTED's
                start = ast.unparse(message)
                assert any(p.pattern.split("(")[0].replace("\\", "")[:12] in start for p, _ in LISTED), start
    assert seen >= 60


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_set_up_news_is_in_the_page_language(tmp_path: Path, lang: str) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    words = console_words(lang)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client, lang)
        done = client.post("/director/setup/roster", headers=SAME, data={
            "csrf": csrf, "roster": "1,Ann Able\n2,Bob Baker\nx,Nobody\n"}, follow_redirects=False)
        assert done.status_code == 303
        page = html.unescape(client.get("/director/setup").text)
    skipped = words.plain("su_done_skipped_one", count=1)
    assert words.plain("su_done_roster_many", count=2, skipped=skipped) in page
    assert words.plain("su_done_skipped_line", line=3, why="").rstrip() in page
    if lang != "en":
        assert "members kept" not in page and "skipped line" not in page


# A result's refused fields, each with the store's code and the field it is shown beside.
CONTRACTS = (({"contract": "8NT", "by": "N", "tricks": "9"}, "bad_contract", "contract"),
             ({"contract": "4S", "by": "Q", "tricks": "9"}, "bad_declarer", "by"),
             ({"contract": "4S", "by": "N", "tricks": "14"}, "bad_tricks", "tricks"),
             ({"contract": "4S", "by": "N", "tricks": "9", "lead": "ZZ"}, "bad_lead", "lead"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_contract_says_why_in_the_page_language_beside_its_field(tmp_path: Path, lang: str) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    words = console_words(lang)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client, lang)
        for typed, reason, field in CONTRACTS:
            refused = client.post("/director/correct", headers=SAME, data={
                "section": "A", "table": "2", "board": "3", "why": "x", "csrf": csrf, **typed})
            assert refused.status_code == 400
            form = refused.text.split('id="correct"', 1)[1].split("</form>", 1)[0]
            beside = re.search(rf'name="{field}"[^>]*></label><span class="beside" id="correct-error">'
                               r'<p class="error" role="alert">(.*?)</p>', form)
            assert beside, (reason, form)
            said = html.unescape(beside[1])
            if lang == "en":  # the store's own words, naming what was typed
                assert repr(typed[field]) in said or typed[field] in said, said
            else:
                assert said == words.plain(f"entry_{reason}"), (reason, said)


def test_every_slot_word_is_said_in_each_language() -> None:
    """The states, kinds and standings a slot and the grid show are keys of every language (the words test)."""
    from tenace.web.console.grid import STATES

    for lang in LANGUAGES:
        texts = console_words(lang).texts
        for name in [*STATES, "not_in", "superseded", "in_conflict", "counts", "head"]:
            assert f"is_{name}" in texts, (lang, name)
        for kind in ("normal", "passed_out", "not_played", "artificial", "weighted", "erased"):
            assert f"vs_kind_{kind}" in texts, (lang, kind)


@pytest.mark.parametrize("lang", ["sk", "he"])
def test_a_change_after_the_correction_period_is_refused_in_the_page_language(tmp_path: Path, lang: str) -> None:
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    words = console_words(lang)
    with TestClient(create_app(event, director=Director(password=PASSWORD))) as client:
        csrf = logged_in(client, lang)
        finished = client.post("/director/finish", headers=SAME, follow_redirects=False, data={
            "minutes": "0", "why": "done", "force": "on", "csrf": csrf})
        assert finished.status_code == 303, finished.text
        refused = client.post("/director/correct", headers=SAME, data={
            "section": "A", "table": "2", "board": "3", "contract": "3NT", "by": "N", "tricks": "9", "why": "x",
            "csrf": csrf})
    assert refused.status_code == 400
    said = html.unescape(re.findall(r'role="alert">([^<]*)<', refused.text)[0])
    assert said == words.plain("late_change", why=words.plain("late_change_why")), said
