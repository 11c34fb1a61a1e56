"""The sr, sk, lv and he catalogues: every English key translated, same placeholders, within the line budget."""

from __future__ import annotations

import re

import pytest

from catalogues import LANG, catalogue
from conftest import FIRMWARE

TRANSLATIONS = ("sr", "sk", "lv", "he")
PLACEHOLDER = re.compile(r"%[-0-9]*[sd%]")
LINE = 21  # display columns; a longer English text (a refusal) may wrap onto two lines


def refusals() -> set[str]:
    """Keys of en.txt's refusals section: the app wraps those onto two lines."""
    source = (LANG / "en.txt").read_text(encoding="utf-8")
    return set(re.findall(r"^(\w+)\t", source.split("# Refusals", 1)[1], re.M))


def filled(template: str) -> str:
    """The text as shown with typical values: two-digit numbers, two-letter words."""
    return PLACEHOLDER.sub(lambda m: {"%": "%", "d": "12"}.get(m[0][-1], "xx"), template)


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_every_english_key_is_translated_and_nothing_else(code: str) -> None:
    english, table = catalogue("en"), catalogue(code)
    assert sorted(set(english) - set(table)) == [], "not translated"
    assert sorted(set(table) - set(english)) == [], "not in en.txt"


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_placeholders_are_the_same_and_in_the_same_order(code: str) -> None:
    english, table = catalogue("en"), catalogue(code)
    wrong = {k: v for k, v in table.items() if PLACEHOLDER.findall(v) != PLACEHOLDER.findall(english[k])}
    assert not wrong


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_texts_keep_the_english_line_budget(code: str) -> None:
    english, table, wrapped = catalogue("en"), catalogue(code), refusals()
    assert "key_unused" in wrapped and "title" not in wrapped
    too_long = {}
    for key, text in table.items():
        budget = LINE if len(filled(english[key])) <= LINE and key not in wrapped else 2 * LINE
        if len(filled(text)) > budget:
            too_long[key] = f"{len(filled(text))} > {budget}: {filled(text)}"
    assert not too_long


def test_seat_letters_match_the_keypad_and_words_are_translated() -> None:
    for code in TRANSLATIONS:
        table = catalogue(code)
        assert table["seats"] == "NESW"  # the keys are printed N E S W
        assert table["contract"] != "Contract %s" and table["declarer"] != "Declarer %s"


def test_the_alphabets_are_used() -> None:
    # A cheap guard against a catalogue saved in the wrong script or encoding.
    texts = {code: "".join(catalogue(code).values()) for code in TRANSLATIONS}
    assert set("čćđšž") <= set(texts["sr"])
    assert set("áäčéíôúýž") <= set(texts["sk"])
    assert set("āēīķļņšū") <= set(texts["lv"])
    assert sum("\u05d0" <= ch <= "\u05ea" for ch in texts["he"]) > 500


def test_bidi_keeps_hebrew_messages_with_numbers_readable() -> None:
    import sys

    sys.path.insert(0, str(FIRMWARE))
    from tenace_terminal.text_display import rtl_visual

    he = catalogue("he")
    shown = rtl_visual(he["board_head"] % (12, "N", "NS"))
    # Read right to left: "לוח 12 ..." puts the number, still "12", left of the word for board.
    assert shown.endswith("12 \u05d7\u05d5\u05dc")
    assert "NS" in shown and "21" not in shown
    assert rtl_visual(he["result_hint_any"]).endswith("+n -n =")


def test_catalogue_paths_exist() -> None:
    assert all((LANG / f"{c}.txt").is_file() for c in ("en", *TRANSLATIONS))


def test_every_catalogue_fits_the_terminals_message_index() -> None:
    # tenace_terminal.catalogue keeps 16-bit line offsets in _SLOTS (256) slots with linear probing: a file
    # over 64 KB would wrap, and a full table would never end a probe. Raise _SLOTS before adding that much.
    for code in ("en", *TRANSLATIONS):
        assert (LANG / f"{code}.txt").stat().st_size < 0xFFFF, code
        assert len(catalogue(code)) <= 256 * 3 // 4, f"{code}: {len(catalogue(code))} messages"
