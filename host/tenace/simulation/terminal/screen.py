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


def screen_text(frame: bytes) -> ScreenText:
    """Read the characters back from the pixels of each text cell; a cell matching no glyph reads '?'."""
    check_frame(frame)
    table = _glyph_table()
    lines, inverse = [], []
    for row in range(ROWS):
        chars, inv = [], []
        for col in range(COLS):
            start = row * WIDTH + X0 + col * CELL_W
            cell = frame[start:start + CELL_W]
            flipped = bytes(b ^ 0xFF for b in cell)
            if cell in table:
                chars.append(table[cell])
                inv.append(False)
            elif flipped in table:
                chars.append(table[flipped])
                inv.append(True)
            else:
                chars.append("?")
                inv.append(False)
        lines.append("".join(chars))
        inverse.append(tuple(inv))
    return ScreenText(tuple(lines), tuple(inverse))


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
