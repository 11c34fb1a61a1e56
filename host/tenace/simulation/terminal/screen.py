"""One terminal screen (a 1024-byte SSD1306 frame) as Unicode half blocks, as text, and as an OLED-like PNG."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from tenace.firmware_build import FIRMWARE

WIDTH = 128
HEIGHT = 64
FRAME_BYTES = WIDTH * HEIGHT // 8
COLS = 21
ROWS = 8
CELL_W = 6
X0 = 1  # the text grid starts one pixel in (firmware/tenace_terminal/text_display.py)
SCALE = 4
# OLED look: a white-blue lit pixel, a faint glow for dark ones, and a darker seam between pixels.
LIT = (205, 236, 255)
DARK = (10, 14, 20)
SEAM = 0.55


def pixel(frame: bytes, x: int, y: int) -> bool:
    """MONO_VLSB, as the SSD1306: byte (y // 8) * 128 + x holds column x of an 8-row page, bit 0 on top."""
    return bool(frame[(y >> 3) * WIDTH + x] >> (y & 7) & 1)


def check_frame(frame: bytes) -> bytes:
    if len(frame) != FRAME_BYTES:
        raise ValueError(f"a frame is {FRAME_BYTES} bytes, not {len(frame)}")
    return frame


_HALF_BLOCKS = (" ", "\u2584", "\u2580", "\u2588")  # index: top pixel * 2 + bottom pixel


def half_blocks(frame: bytes) -> list[str]:
    """32 lines of 128 characters: each character shows two pixels, one above the other (▀ ▄ █ or space)."""
    check_frame(frame)
    return ["".join(_HALF_BLOCKS[pixel(frame, x, y) * 2 + pixel(frame, x, y + 1)] for x in range(WIDTH))
            for y in range(0, HEIGHT, 2)]


@dataclass(frozen=True)
class ScreenText:
    """What the screen says: 8 lines of 21 characters as drawn, and which cells are in inverse video."""

    lines: tuple[str, ...]
    inverse: tuple[tuple[bool, ...], ...]

    def render(self) -> str:
        """The lines in a frame, each row with inverse cells marked underneath by ^."""
        out = ["+" + "-" * COLS + "+"]
        for line, inv in zip(self.lines, self.inverse, strict=True):
            out.append("|" + line + "|")
            if any(inv):
                out.append(" " + "".join("^" if i else " " for i in inv).rstrip())
        out.append("+" + "-" * COLS + "+")
        return "\n".join(out) + "\n"


@cache
def _glyph_table() -> dict[bytes, str]:
    """Glyph bitmap -> character, from the firmware's own font (read from its file: it is not a host package)."""
    path = FIRMWARE / "tenace_terminal" / "font.py"
    spec = importlib.util.spec_from_file_location("_tenace_terminal_font", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"{path}: the simulator needs the Tenace source tree")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = bytes(module.DATA)
    table: dict[bytes, str] = {}
    for cp in range(0x20, 0x2700):
        n = int(module.index(cp))
        if n != module.FALLBACK or cp == 0x25A1:
            table.setdefault(data[n * CELL_W:(n + 1) * CELL_W], chr(cp))
    return table


def _cell(frame: bytes, col: int, row: int) -> bytes:
    start = row * WIDTH + X0 + col * CELL_W
    return frame[start:start + CELL_W]


def _unknown(frame: bytes, col: int, row: int, table: dict[bytes, str]) -> bool:
    """True when cell (col, row) is on the screen and reads as no glyph, plain or inverse."""
    if row >= ROWS:
        return False
    cell = _cell(frame, col, row)
    return cell not in table and bytes(b ^ 0xFF for b in cell) not in table


def _blank(frame: bytes, col: int, row: int) -> bool:
    """True when the 2 x 2 cells from (col, row) light nothing."""
    return col + 2 <= COLS and row + 1 < ROWS and not any(
        _cell(frame, c, r) != bytes(CELL_W) for c in (col, col + 1) for r in (row, row + 1))


def _big_char(frame: bytes, col: int, row: int, table: dict[bytes, str]) -> str | None:
    """The large-type character (TextDisplay.big: a glyph at twice its size) whose 2 x 2 cells start at (col, row),
    or None when those pixels are not one."""
    if col + 2 > COLS or row + 1 >= ROWS:
        return None
    x0, y0 = X0 + col * CELL_W, row * 8
    glyph = bytearray(CELL_W)
    for x in range(CELL_W):
        for y in range(8):
            bits = {pixel(frame, x0 + 2 * x + dx, y0 + 2 * y + dy) for dx in (0, 1) for dy in (0, 1)}
            if len(bits) != 1:
                return None  # not a doubled pixel
            if bits.pop():
                glyph[x] |= 1 << y
    found = table.get(bytes(glyph))
    return None if found is None or found == " " else found


def screen_text(frame: bytes) -> ScreenText:
    """Read the characters back from the pixels of each text cell; a cell matching no glyph reads '?'. Large type
    reads as the text display keeps it (tenace_terminal.text_grid): its characters one after the other from the
    first cell, then spaces over the rest of the cells it covers, on both rows."""
    check_frame(frame)
    table = _glyph_table()
    lines: list[list[str]] = []
    inverse: list[list[bool]] = []
    covered: set[tuple[int, int]] = set()  # the lower cells of large characters: blank in the text
    for row in range(ROWS):
        chars, inv = [], []
        col = 0
        while col < COLS:
            if (col, row) in covered:
                chars.append(" ")
                inv.append(False)
                col += 1
                continue
            cell = _cell(frame, col, row)
            flipped = bytes(b ^ 0xFF for b in cell)
            # A blank cell over one that is no glyph may be the top of a large character drawn low ("_").
            if cell in table and not (table[cell] == " " and _unknown(frame, col, row + 1, table)):
                chars.append(table[cell])
                inv.append(False)
            elif flipped in table:
                chars.append(table[flipped])
                inv.append(True)
            else:
                run: list[str] = []
                while True:
                    big = _big_char(frame, col + 2 * len(run), row, table)
                    if big is None and _blank(frame, col + 2 * len(run), row) and run:
                        big = _big_char(frame, col + 2 * len(run) + 2, row, table) and " "  # a space between two
                    if big is None or big == "":
                        break
                    run.append(big)
                if not run:
                    chars.append(" " if cell == bytes(CELL_W) else "?")
                    inv.append(False)
                    col += 1
                    continue
                width = 2 * len(run)
                chars.extend(run + [" "] * (width - len(run)))
                inv.extend([False] * width)
                covered.update((c, row + 1) for c in range(col, col + width))
                col += width
                continue
            col += 1
        lines.append(chars)
        inverse.append(inv)
    return ScreenText(tuple("".join(line) for line in lines), tuple(tuple(i) for i in inverse))


def png_image(frame: bytes, scale: int = SCALE) -> Image.Image:
    """The frame scaled up `scale` times, each pixel a lit or dark square with a thin seam, like an OLED."""
    check_frame(frame)
    lum = bytes(255 if pixel(frame, x, y) else 0 for y in range(HEIGHT) for x in range(WIDTH))
    size = (WIDTH * scale, HEIGHT * scale)
    mask = Image.frombytes("L", (WIDTH, HEIGHT), lum).resize(size, Image.Resampling.NEAREST)
    lit = Image.new("RGB", size, LIT)
    if scale >= 3:
        # Dim the last row and column of every pixel's square: the gaps between OLED pixels.
        seams = ImageDraw.Draw(lit)
        dim = tuple(int(c * SEAM) for c in LIT)
        for x in range(scale - 1, size[0], scale):
            seams.line([(x, 0), (x, size[1] - 1)], fill=dim)
        for y in range(scale - 1, size[1], scale):
            seams.line([(0, y), (size[0] - 1, y)], fill=dim)
    return Image.composite(lit, Image.new("RGB", size, DARK), mask)


def write_png(frame: bytes, path: Path, scale: int = SCALE) -> None:
    png_image(frame, scale).save(path, format="PNG", optimize=True)
