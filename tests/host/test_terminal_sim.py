"""The terminal simulator: frames as half blocks and text, scripted runs of the real app with PNGs, the CLI."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from framebuf_standin import Device
from PIL import Image

from tenace.cli import main
from tenace.firmware_build import SIM_DIR, build, flat, package_tree
from tenace.simulation.terminal import interactive
from tenace.simulation.terminal.process import Options
from tenace.simulation.terminal.screen import DARK, LIT, half_blocks, png_image, screen_text
from tenace.simulation.terminal.scripted import parse_script, run_script, write_screens
from tenace.simulation.terminal.table_host import serve

from conftest import FIRMWARE

sys.path.insert(0, str(FIRMWARE))  # the terminal package is firmware, not installed on the host
from tenace_terminal.text_display import TextDisplay

SIGN_IN_AND_KEY = "3 OK OK 4 S [contract] N K H + 1 [summary]"


def frame_with(*pixels: tuple[int, int]) -> bytes:
    buf = bytearray(1024)
    for x, y in pixels:
        buf[(y // 8) * 128 + x] |= 1 << (y % 8)
    return bytes(buf)


def test_half_blocks_show_two_pixel_rows_per_character() -> None:
    lines = half_blocks(frame_with((0, 0), (1, 1), (2, 0), (2, 1), (127, 63), (5, 8)))
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "▀▄█ "
    assert lines[31][127] == "▄"
    assert lines[4][5] == "▀"  # pixel row 8 is the top half of character row 4
    assert sum(line.count(" ") for line in lines) == 32 * 128 - 5


def test_half_blocks_of_a_letter() -> None:
    d = Device()
    TextDisplay(d).text(0, 0, "H")
    top = [line[1:6] for line in half_blocks(bytes(d.buffer))[:4]]
    # H: rows 0-6 have the two stems, row 3 the bar; two pixel rows per character.
    assert top == ["█   █", "█▄▄▄█", "█   █", "▀   ▀"]


def test_screen_text_reads_back_what_the_display_drew() -> None:
    d = Device()
    t = TextDisplay(d)
    t.text(0, 0, "Bd 12 Dlr N Vul None ", inverse=True)
    t.text(0, 3, "Contract 4\u2660X")
    t.text(0, 5, "\u010c\u0161\u017e \u0111 \u013e\u00f4 \u0146\u0101")
    t.rtl = True
    t.text(0, 7, "\u05dc\u05d5\u05d7 12")
    read = screen_text(bytes(d.buffer))
    assert read.lines[0] == "Bd 12 Dlr N Vul None "
    assert all(read.inverse[0]) and not any(read.inverse[3])
    assert read.lines[3].rstrip() == "Contract 4\u2660X"
    assert read.lines[5].rstrip() == "\u010c\u0161\u017e \u0111 \u013e\u00f4 \u0146\u0101"
    assert read.lines[7].lstrip() == "12 \u05d7\u05d5\u05dc"  # as drawn: left to right on the glass
    assert "^" * 21 in read.render()


def test_png_is_four_times_the_display_with_an_oled_look() -> None:
    image = png_image(frame_with((0, 0), (10, 5)))
    assert image.size == (512, 256)
    assert image.getpixel((0, 0)) == LIT and image.getpixel((41, 21)) == LIT
    assert image.getpixel((3, 3)) != LIT  # the seam between two pixels is dimmer
    assert image.getpixel((4, 0)) == DARK


def test_a_scripted_run_of_the_app_writes_pngs_and_text(tmp_path: Path) -> None:
    run = run_script(parse_script(SIGN_IN_AND_KEY + " # a comment\n"))
    assert not run.output
    assert [s.after for s in run.screens[:4]] == ["", "3", "OK", "OK"]
    named = {n: s for s in run.screens for n in s.names}
    assert named["contract"].text.lines[3].startswith("Contract 4\u2660")
    summary = named["summary"].text.render()
    assert "4\u2660 by N" in summary and "NS +450" in summary
    written = write_screens(run, tmp_path)
    assert (tmp_path / "summary.png").exists() and (tmp_path / "screens.txt").exists()
    pngs = sorted(p for p in written if p.suffix == ".png")
    assert len(pngs) == len(run.screens) + 2
    for png in pngs:
        with Image.open(png) as image:
            assert image.size == (512, 256)
    assert "NS +450" in (tmp_path / "summary.txt").read_text(encoding="utf-8")


def test_a_hebrew_terminal_lays_its_lines_out_right_to_left() -> None:
    run = run_script(parse_script(SIGN_IN_AND_KEY), Options(lang="he"))
    summary = next(s for s in run.screens if "summary" in s.names).text.lines
    # The board in large type ends at the right edge with "לוח" drawn last-letter-first (the reader keeps large type's
    # characters one after the other, then blanks over the cells they cover); the score reads +450.
    assert summary[0].rstrip().endswith("1 \u05d7\u05d5\u05dc")
    assert any(line.rstrip().endswith("NS +450") for line in summary)


def test_a_power_cut_brings_the_terminal_back_where_it_was() -> None:
    run = run_script(parse_script("3 OK OK 4 S N K H + 1 OK [before] !reboot [after]"))
    named = {n: s for s in run.screens for n in s.names}
    # The accepted board 1 is in the journal: after the restart the round is back, one board entered.
    assert named["before"].text.lines[0].startswith("Bd 2")
    after = named["after"].text.render()
    assert "Round 1" in after and "1 of 3 entered" in after


def test_the_command_writes_only_the_named_screens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["terminal", "--keys", SIGN_IN_AND_KEY, "--out", str(tmp_path), "--named-only"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contract.png", "contract.txt", "summary.png", "summary.txt"]
    assert "2 PNG files" in capsys.readouterr().err


def test_the_headless_command_prints_every_screen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["terminal", "--headless", "--keys", "3 OK", "--lang", "sk"]) == 0
    out = capsys.readouterr().out
    assert out.count("--- ") == 3 and "Zostava 1" in out


def test_the_command_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["terminal", "--headless"]) == 2
    assert "--keys" in capsys.readouterr().err
    assert main(["terminal", "--script", "/nonexistent/keys.txt"]) == 2


def test_every_keypad_key_has_a_laptop_key() -> None:
    layout = interactive.keypad_layout()
    reachable = set(interactive.KEYMAP.values()) | set(interactive.SPECIAL.values())
    assert {k for row in layout for k in row if k} <= reachable
    assert interactive.key_for("n") == "NT" and interactive.key_for("N") == "N"
    assert interactive.key_for("\r") == "OK" and interactive.key_for("?") is None
    assert interactive.split_keys("4s\x1b[AN\x7f") == ["4", "s", "\x1b[A", "N", "\x7f"]


def test_the_interactive_screen_draws_the_display_and_the_keypad(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "60")
    out = io.StringIO()
    screen = interactive.Screen(out, interactive.keypad_layout())
    screen.frame = frame_with((0, 0))
    screen.draw()
    text = out.getvalue()
    assert "▀" + " " * 127 in text
    assert "PASS" in text and "\u2663" in text


def test_the_readme_shows_the_terminals_main_screens_made_by_the_simulator() -> None:
    root = FIRMWARE.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    keys = (root / "tools" / "readme-screens.keys").read_text(encoding="utf-8")
    for name in ("terminal-contract", "terminal-summary", "terminal-traveller", "terminal-move"):
        assert f'src="docs/screenshots/{name}.png"' in readme and f"[{name}]" in keys
        with Image.open(root / "docs" / "screenshots" / f"{name}.png") as image:
            assert image.size == (512, 256)


@pytest.mark.slow
def test_the_pixel_terminal_runs_compiled_in_three_quarters_of_its_216k_heap(tmp_path: Path) -> None:
    # Hard rule 5 for the real display: app, font, display, link and simulator compiled by mpy-cross, as on a
    # device. 216 KB declared (4/3 of the 151 KB it was seen to run in since the club key and the status reports,
    # 150 failing; 140 before; rounded up so that it runs 5 % above), run in 162 KB.
    from conftest import venv_tool

    build(tmp_path, package_tree(FIRMWARE) + flat(SIM_DIR))
    keys = ["3", "OK", "OK", "4", "S", "N", "K", "H", "+", "1", "OK", "MENU", "1", "5"]
    port, stop = serve()  # the collector it signs in to
    try:
        proc = subprocess.run([str(venv_tool("micropython")), "-X", "heapsize=162k", "-m", "terminal_main"],
                              input="\n".join(keys) + "\n", cwd=tmp_path,
                              env=dict(os.environ, MICROPYPATH=".", TENACE_HOST_PORT=str(port)),
                              capture_output=True, text=True, timeout=120)
    finally:
        stop()
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    # An interactive terminal lives on after an error, printing it: here any such error fails the test.
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout[-2000:] + proc.stderr
    frames = [bytes.fromhex(line[2:]) for line in proc.stdout.splitlines() if line.startswith("F ")]
    assert proc.stdout.count("\nK\n") + proc.stdout.startswith("K\n") >= len(keys)
    saved = [screen_text(f) for f in frames if "Board 1 saved" in screen_text(f).lines[7]]
    assert saved
    last = screen_text(frames[-1]).render()  # Hebrew chosen in the menu: the screen is right to left
    assert any("\u05d0" <= ch <= "\u05ea" for ch in last)


def test_a_window_too_small_for_the_keypad_gets_a_key_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "140")
    monkeypatch.setenv("LINES", "40")
    out = io.StringIO()
    interactive.Screen(out, interactive.keypad_layout()).draw()
    lines = out.getvalue().split("\r\n")
    assert "keys: 0-9" in out.getvalue() and "PASS|" not in out.getvalue()
    assert len(lines) - 1 <= 39  # nothing written past the last row: the window does not scroll
