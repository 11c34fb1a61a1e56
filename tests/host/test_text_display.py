"""The text display draws the 6x8 font into a 128x64 MONO_VLSB framebuffer: placement, inverse video, RTL."""

from __future__ import annotations

import os
import subprocess
import sys

from framebuf_standin import Device

from conftest import FIRMWARE, venv_tool

sys.path.insert(0, str(FIRMWARE))  # the terminal package is firmware, not installed on the host
from tenace_terminal.text_display import TextDisplay, rtl_visual

HE_BOARD = "\u05dc\u05d5\u05d7"  # "board" in Hebrew: lamed, vav, het


def cell_art(device: Device, col: int, row: int) -> list[str]:
    """The 6x8 pixels of one text cell as rows of '#' and '.'."""
    x0, y0 = 1 + 6 * col, 8 * row
    return ["".join("#" if device.pixel(x0 + x, y0 + y) else "." for x in range(6)) for y in range(8)]


def lit(device: Device) -> int:
    return sum(bin(b).count("1") for b in device.buffer)


H = ["#...#.", "#...#.", "#...#.", "#####.", "#...#.", "#...#.", "#...#.", "......"]
HE_LAMED = ["#.....", "#.....", "#####.", "....#.", "....#.", "...#..", "..#...", "......"]


def test_a_letter_lights_its_pixels_in_its_cell_and_nothing_else() -> None:
    d = Device()
    TextDisplay(d).text(2, 3, "H")
    assert cell_art(d, 2, 3) == H
    assert lit(d) == sum(r.count("#") for r in H)


def test_the_grid_is_21_by_8_and_text_past_the_edge_is_cut() -> None:
    d = Device()
    t = TextDisplay(d)
    assert (t.cols, t.rows) == (21, 8)
    t.text(19, 7, "HHH")
    t.text(0, 8, "H")  # below the last row: ignored
    assert cell_art(d, 19, 7) == H and cell_art(d, 20, 7) == H
    assert lit(d) == 2 * sum(r.count("#") for r in H)


def test_inverse_flips_the_cells_and_fills_the_edge_columns() -> None:
    d = Device()
    t = TextDisplay(d)
    t.text(0, 1, "H" + " " * 20, inverse=True)
    assert cell_art(d, 0, 1) == ["".join("." if p == "#" else "#" for p in r) for r in H]
    assert all(d.pixel(x, y) for x in (0, 127, 126) for y in range(8, 16))
    assert not any(d.pixel(x, 7) or d.pixel(x, 16) for x in range(128))


def test_clear_blanks_and_show_reaches_the_device() -> None:
    d = Device()
    t = TextDisplay(d)
    t.text(0, 0, "HHHH", inverse=True)
    t.clear()
    assert lit(d) == 0
    t.show()
    assert d.shown == 1


def test_suits_and_missing_characters() -> None:
    d = Device()
    t = TextDisplay(d)
    t.text(0, 0, "\u2660\u20ac")  # a spade, then the euro sign, which the font lacks: the box
    assert cell_art(d, 0, 0)[3] == "#####."
    assert cell_art(d, 1, 0) == ["#####.", "#...#.", "#...#.", "#...#.", "#...#.", "#...#.", "#####.", "......"]


def test_rtl_visual_order_keeps_numbers_and_contracts_readable() -> None:
    assert rtl_visual(HE_BOARD + " 12") == "12 " + HE_BOARD[::-1]
    assert rtl_visual("4\u2660X " + HE_BOARD) == HE_BOARD[::-1] + " 4\u2660X"
    assert rtl_visual(HE_BOARD + " -420") == "-420 " + HE_BOARD[::-1]
    assert rtl_visual(HE_BOARD + " 55%") == "55% " + HE_BOARD[::-1]
    assert rtl_visual("NS 420") == "NS 420"  # Latin only: one run, unchanged
    assert rtl_visual(HE_BOARD + " (3)") == "(3) " + HE_BOARD[::-1]  # brackets mirrored around the number
    assert rtl_visual(HE_BOARD + ":") == ":" + HE_BOARD[::-1]


def test_an_rtl_line_is_mirrored_from_the_right_edge_but_digits_read_left_to_right() -> None:
    d = Device()
    t = TextDisplay(d, rtl=True)
    t.text(0, 0, HE_BOARD + " 12")  # 6 cells from the right edge: "12 חול" in cells 15-20
    assert cell_art(d, 20, 0) == HE_LAMED  # the first letter is the rightmost
    assert cell_art(d, 15, 0) == cell_art_of("1") and cell_art(d, 16, 0) == cell_art_of("2")
    assert not any(d.pixel(x, y) for x in range(1, 91) for y in range(8))


def cell_art_of(s: str) -> list[str]:
    d = Device()
    TextDisplay(d).text(0, 0, s)
    return cell_art(d, 0, 0)


def test_micropython_framebuf_draws_the_same_pixels_as_the_stand_in() -> None:
    # The real thing: the unix port's built-in framebuf, as an SSD1306 driver subclasses it.
    script = (
        "import framebuf, sys\n"
        "from tenace_terminal.text_display import TextDisplay\n"
        "class D(framebuf.FrameBuffer):\n"
        "    def __init__(self):\n"
        "        self.buffer = bytearray(1024)\n"
        "        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)\n"
        "    def show(self):\n"
        "        sys.stdout.write(self.buffer.hex() + '\\n')\n"
        "d = D()\n"
        "t = TextDisplay(d)\n"
        "t.text(0, 0, 'Board 12  4\\u2660X=', True)\n"
        "t.text(3, 5, '\\u010d\\u0161\\u017e \\u0111 \\u013e\\u00f4')\n"
        "t.rtl = True\n"
        "t.text(0, 7, '\\u05dc\\u05d5\\u05d7 12')\n"
        "t.text(1, 6, '\\u05d7\\u05d5\\u05d6\\u05d4 4\\u2660X (-1) 55% = +n', True)\n"
        "t.show()\n"
    )
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE))
    proc = subprocess.run([str(venv_tool("micropython")), "-X", "heapsize=32k", "-c", script],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    d = Device()
    t = TextDisplay(d)
    t.text(0, 0, "Board 12  4\u2660X=", True)
    t.text(3, 5, "\u010d\u0161\u017e \u0111 \u013e\u00f4")
    t.rtl = True
    t.text(0, 7, HE_BOARD + " 12")
    t.text(1, 6, "\u05d7\u05d5\u05d6\u05d4 4\u2660X (-1) 55% = +n", True)
    assert proc.stdout.strip() == d.buffer.hex()
    assert lit(d) > 500


def big_art(device: Device, col: int, row: int) -> list[str]:
    """The 12x16 pixels of one large character (2 x 2 cells from cell (col, row)) as rows of '#' and '.'."""
    x0, y0 = 1 + 6 * col, 8 * row
    return ["".join("#" if device.pixel(x0 + x, y0 + y) else "." for x in range(12)) for y in range(16)]


def test_large_type_is_the_font_at_twice_its_size_two_rows_high() -> None:
    """Issue 37: the board, contract, score and move in large type: each pixel of the glyph is 2 x 2, a capital
    14 pixels tall (6 mm on the 2.42-inch display), a character 2 x 2 cells, ten to a line, none cut in half."""
    d = Device()
    t = TextDisplay(d)
    t.big(3, 2, "HH")
    doubled = ["".join(p + p for p in r) for r in H for _ in range(2)]
    assert big_art(d, 3, 2) == doubled and big_art(d, 5, 2) == doubled
    assert lit(d) == 2 * 4 * sum(r.count("#") for r in H)
    d = Device()
    t = TextDisplay(d)
    t.big(17, 0, "HHH")  # cells 17-18 and 19-20 fit; a third would start at 21, off the grid
    t.big(0, 7, "H")  # its lower half would be below the last row: not drawn
    assert lit(d) == 2 * 4 * sum(r.count("#") for r in H)
    t.rtl = True
    d.fill(0)
    t.big(0, 4, "H")  # right to left: from the right edge
    assert big_art(d, 19, 4) == doubled


def test_the_simulators_reader_takes_large_type_as_the_text_grid_keeps_it() -> None:
    """The pixel simulator reads a screen back as text (tenace.simulation.terminal.screen): large type as the text
    grid keeps it, its characters one after the other with a space kept between two, "_" drawn low included, the
    cells it covers blank."""
    from tenace.simulation.terminal.screen import screen_text

    d = Device()
    t = TextDisplay(d)
    t.text(0, 2, "Lead")
    t.text(0, 3, "Contract ")
    t.big(9, 3, "4\u2660X_")
    t.big(0, 5, "NS +590")
    lines = screen_text(bytes(d.buffer)).lines
    assert lines[2] == "Lead" + " " * 17
    assert lines[3] == "Contract 4\u2660X_" + " " * 8 and lines[4] == " " * 21
    assert lines[5] == "NS +590" + " " * 14 and lines[6] == " " * 21
