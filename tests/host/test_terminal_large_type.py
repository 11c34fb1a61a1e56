"""Issue 37: the board's number in large type on every entry screen and the move in large type on the round's end,
read back from the frames the pixel simulator captured of the real firmware (the MicroPython unix port)."""

from __future__ import annotations

import sys

import pytest

from tenace.simulation.terminal.process import Options
from tenace.simulation.terminal.screen import HEIGHT, WIDTH, pixel
from tenace.simulation.terminal.scripted import Screen, parse_script, run_script

from conftest import FIRMWARE

sys.path.insert(0, str(FIRMWARE))  # the terminal package is firmware, not installed on the host
from tenace_terminal import font

# Round 1 of 12 boards: UP on the empty contract screen picks another board, UP again goes round to board 12 (two
# digits), whose result is keyed screen by screen.
BOARD_12 = ("3 OK OK UP UP [choice] OK [contract] 4 [level] S [declarer] N [lead] K H [result] = [summary]")
# Rounds of 2 boards, both passed out: the passed-out summary, then the move (EW 3 to table 4).
MOVE = "3 OK OK PASS [passed] OK PASS OK [move]"
CAP = 7  # the font's digits and capitals: 7 pixel rows


def glyph(ch: str) -> list[list[bool]]:
    """The 6 x 8 pixels of the font's glyph for ch, [y][x]."""
    start = font.index(ord(ch)) * font.WIDTH
    columns = font.DATA[start:start + font.WIDTH]
    return [[bool(columns[x] >> y & 1) for x in range(font.WIDTH)] for y in range(font.HEIGHT)]


def found_at(frame: bytes, ch: str, x0: int, y0: int, scale: int) -> bool:
    """True when the pixels from (x0, y0) are ch's glyph with each pixel a scale x scale square."""
    art = glyph(ch)
    return all(pixel(frame, x0 + x, y0 + y) == art[y // scale][x // scale]
               for y in range(font.HEIGHT * scale) for x in range(font.WIDTH * scale))


def drawn(frame: bytes, s: str, scale: int) -> list[tuple[int, int]]:
    """Every place (x, y), at any pixel, where s is drawn at `scale` times the font's size, glyph after glyph."""
    step = font.WIDTH * scale
    return [(x, y) for y in range(HEIGHT - font.HEIGHT * scale + 1) for x in range(WIDTH - step * len(s) + 1)
            if all(found_at(frame, ch, x + i * step, y, scale) for i, ch in enumerate(s))]


def lit_height(frame: bytes, x0: int, y0: int, width: int, height: int) -> int:
    """How many pixel rows from the top lit one to the bottom one, in the box of width x height pixels at (x0, y0)."""
    rows = [y for y in range(y0, min(HEIGHT, y0 + height))
            if any(pixel(frame, x, y) for x in range(x0, min(WIDTH, x0 + width)))]
    return rows[-1] - rows[0] + 1 if rows else 0


def screens(script: str, boards: int, lang: str = "en") -> dict[str, Screen]:
    run = run_script(parse_script(script), Options(lang=lang, boards=boards, rounds=2))
    assert not run.output, run.output
    return {name: screen for screen in run.screens for name in screen.names}


def assert_large(screen: Screen, number: str) -> None:
    frame = screen.frame
    places = drawn(frame, number, 2)
    text = screen.text.render()
    assert places, f"{number} is not in large type on this screen:\n{text}"
    x, y = places[0]
    # Twice the font's size: a digit 14 pixels tall (6 mm on the 2.42-inch display), not the normal type's 7.
    assert lit_height(frame, x, y, 2 * font.WIDTH * len(number), 2 * font.HEIGHT) == 2 * CAP, text


@pytest.fixture(scope="module")
def board_12() -> dict[str, Screen]:
    return screens(BOARD_12, 12)


@pytest.mark.parametrize("name", ["contract", "level", "declarer", "lead", "result", "summary"])
def test_each_entry_screen_shows_its_board_in_large_type(board_12: dict[str, Screen], name: str) -> None:
    assert_large(board_12[name], "12")
    assert not drawn(board_12[name].frame, "12", 1), board_12[name].text.render()  # not again in small type


def test_the_board_screen_shows_the_board_ok_picks_in_large_type(board_12: dict[str, Screen]) -> None:
    assert_large(board_12["choice"], "12")


def test_the_passed_out_summary_and_the_move_are_in_large_type() -> None:
    shown = screens(MOVE, 2)
    assert_large(shown["passed"], "1")
    move = shown["move"]
    assert_large(move, "4")  # EW 3 goes to table 4
    words = " ".join(move.text.render().split())
    assert "EW 3 > table 4 EW" in words and "NS 3 stays here" in words, move.text.render()
    assert not drawn(move.frame, "4", 1)


def test_a_right_to_left_terminal_draws_the_board_large_from_its_right_edge() -> None:
    contract = screens("3 OK OK UP UP OK [contract]", 12, "he")["contract"]
    assert_large(contract, "12")  # the digits still read left to right
    word = drawn(contract.frame, "\u05d7\u05d5\u05dc", 2)  # "לוח" (board) as drawn, its last letter leftmost
    assert word and word[0][0] + 3 * 2 * font.WIDTH == WIDTH - 1, contract.text.render()  # to the grid's right edge
