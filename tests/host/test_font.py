"""The terminal font: built from its drawings, compact, and it has a glyph for every character the terminal shows."""

from __future__ import annotations

import subprocess
import sys

from tenace_rules.contract import Contract

from catalogues import LANG, catalogue
from conftest import FIRMWARE, ROOT

sys.path.insert(0, str(FIRMWARE))  # the terminal package is firmware, not installed on the host
from tenace_terminal import font

LANGUAGES = ("en", "sr", "sk", "lv", "he")
# Letters each language needs beyond ASCII, from their alphabets (capitals and lower case).
ALPHABETS = {
    "sr": "čćđšžČĆĐŠŽ",
    "sk": "áäčďéíĺľňóôŕšťúýžÁÄČĎÉÍĹĽŇÓÔŔŠŤÚÝŽ",
    "lv": "āčēģīķļņšūžĀČĒĢĪĶĻŅŠŪŽ",
    "he": "אבגדהוזחטיכךלמםנןסעפףצץקרשת",
}


def test_font_py_is_what_the_drawings_give() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "font" / "build_font.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_every_letter_of_the_five_languages_and_the_suits_has_a_glyph() -> None:
    needed = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(ALPHABETS.values()) + "♠♥♦♣"
    missing = sorted({ch for ch in needed if not font.has_glyph(ch)})
    assert not missing, missing


def test_every_character_of_every_catalogue_has_a_glyph() -> None:
    found = sorted(p.stem for p in LANG.glob("*.txt"))
    assert set(found) >= set(LANGUAGES)
    for code in found:
        missing = sorted({ch for s in catalogue(code).values() for ch in s if not font.has_glyph(ch)})
        assert not missing, f"{code}.txt: no glyph for {[f'U+{ord(c):04X} {c}' for c in missing]}"


def test_every_contract_as_the_rules_write_it_has_glyphs() -> None:
    texts = [Contract(level, strain, doubling).symbol_text()
             for level in range(1, 8) for strain in range(5) for doubling in range(3)] + [Contract(0).symbol_text()]
    assert "4♠X" in texts
    assert all(font.has_glyph(ch) for t in texts for ch in t)


def test_a_character_outside_the_font_gets_the_box() -> None:
    assert not font.has_glyph("€") and not font.has_glyph("\u0590")
    assert font.index(ord("€")) == font.FALLBACK
    assert font.has_glyph("\u25a1")


def test_lookup_agrees_with_the_table_for_every_glyph() -> None:
    codes = [c for c in range(0x30000) if font.index(c) != font.FALLBACK] + [0x25A1]
    assert sorted(font.index(c) for c in codes) == list(range(font.COUNT))


def test_the_font_is_compact() -> None:
    # 6 bytes of pixels and 2 of code point a glyph, nothing else.
    assert len(font.DATA) == 6 * font.COUNT
    assert len(font.DATA) + 2 * (font.COUNT - 95) <= 1600


def lit(ch: str) -> set[tuple[int, int]]:
    """The (column, row) pixels glyph `ch` lights."""
    offset = font.index(ord(ch)) * font.WIDTH
    return {(x, y) for x in range(font.WIDTH) for y in range(font.HEIGHT) if font.DATA[offset + x] >> y & 1}


def test_the_four_suits_differ_at_a_glance() -> None:
    """Issue 37: ♠ and ♣ differed in 6 of the 21 pixels either lights, inside one outline. Every two suits now differ
    in at least a quarter of them, the spade and the club in 30 % and in their outline: the spade's top is a point,
    the club's flat, and the spade's middle is solid where the club's has a notch."""
    suits = "\u2660\u2665\u2666\u2663"
    for a in suits:
        for b in suits:
            if a < b:
                assert len(lit(a) ^ lit(b)) * 4 >= len(lit(a) | lit(b)), (a, b)
    spade, club = lit("\u2660"), lit("\u2663")
    assert len(spade ^ club) * 10 >= len(spade | club) * 3
    assert {x for x, y in spade if y == 0} == {2} and {x for x, y in club if y == 0} == {1, 2, 3}
    assert (2, 2) in spade and (2, 3) in spade and (2, 2) not in club and (2, 3) not in club
