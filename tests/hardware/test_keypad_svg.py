"""The committed keypad legend (hardware/keypad.svg) is what tools/keypad_svg.py draws from the firmware's layout."""

from __future__ import annotations

import re
from pathlib import Path

import keypad_svg
import pytest


def test_the_committed_svg_is_the_generated_one() -> None:
    generated = keypad_svg.render(keypad_svg.load_layout(), keypad_svg.load_chord())
    assert keypad_svg.SVG_FILE.read_text(encoding="utf-8") == generated, (
        "hardware/keypad.svg is out of date: run tools/keypad_svg.py")


def test_every_key_of_the_layout_has_one_cap_and_no_place_without_a_key_has_one() -> None:
    layout = keypad_svg.load_layout()
    svg = keypad_svg.render(layout)
    names = [name for row in layout for name in row if name]
    assert re.findall(r'<g id="key-([^"]+)">', svg) == names
    assert len(names) == 33 and svg.count("<rect ") == 33 + 1  # 33 caps and the background
    assert ">♠ S<" in svg and ">▲<" in svg and ">−<" in svg  # the legend's symbols, not the key names
    assert ">BACK + OK held at power-on: factory test<" in keypad_svg.render(layout, keypad_svg.load_chord())


def test_a_changed_layout_changes_the_svg(tmp_path: Path) -> None:
    moved = tmp_path / "keypad_layout.py"
    text = keypad_svg.LAYOUT_FILE.read_text(encoding="utf-8").replace('("BACK", "", ""', '("", "BACK", ""')
    moved.write_text(text, encoding="utf-8")
    committed = keypad_svg.SVG_FILE.read_text(encoding="utf-8")
    assert keypad_svg.render(keypad_svg.load_layout(moved), keypad_svg.load_chord()) != committed
    assert keypad_svg.main(["--check"]) == 0


def test_check_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "old.svg"
    stale.write_text("<svg/>", encoding="utf-8")
    assert keypad_svg.main(["--check", "--out", str(stale)]) == 1
    assert keypad_svg.main(["--out", str(tmp_path / "missing" / "k.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("keypad_svg: ") and err.count("\n") == 1
    ragged = tmp_path / "ragged.py"
    ragged.write_text('LAYOUT = (("1", "2"), ("3",))\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a rectangle"):
        keypad_svg.load_layout(ragged)
