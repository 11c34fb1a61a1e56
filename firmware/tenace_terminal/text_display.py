"""The terminal's text display: 21 x 8 cells of the 6x8 font on a 128x64 MONO_VLSB framebuffer, LTR or RTL; large type
(big(): the font at twice its size, 2 x 2 cells a character) for what the players must not misread."""

from micropython import const

from tenace_terminal import font

COLS = const(21)
ROWS = const(8)
# 21 cells of 6 pixels fill 126 of the 128 columns: one dark pixel column is left at either edge.
_X0 = const(1)
_CELL_W = const(6)
_CELL_H = const(8)
# framebuf.MONO_VLSB. blit() takes a (buffer, width, height, format) tuple (MicroPython >= 1.20), so this
# module needs no framebuf import: it works over anything with fill/fill_rect/blit, e.g. an SSD1306.
_MONO_VLSB = const(0)
# A glyph column's 4 bits each doubled into 8: large type is the font scaled by two, no second font in flash.
_DOUBLED = const(b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff")

# Bidi classes of the minimal algorithm below.
_NEUTRAL = const(0)
_LTR = const(1)
_RTL = const(2)
_MIRRORED = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<"}


def _strong(cp: int) -> int:
    """Bidi class of a code point: Hebrew is RTL; Latin letters, digits and suit symbols are LTR."""
    if 0x0590 <= cp <= 0x05FF:
        return _RTL
    if 0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A:
        return _LTR
    if 0xC0 <= cp <= 0x24F and cp != 0xD7 and cp != 0xF7:  # Latin-1 and Latin Extended letters
        return _LTR
    if 0x2660 <= cp <= 0x2667:  # suits belong to the contract they are part of: "4♠X"
        return _LTR
    return _NEUTRAL


def rtl_visual(s: str) -> str:
    """The left-to-right drawing order of a logical string in a right-to-left (Hebrew) line.

    A minimal bidi, enough for the terminal's catalogue and numbers (not the full Unicode algorithm):
    - Hebrew letters are right to left; Latin letters, digits and suits are left to right;
    - a neutral (space, punctuation) between two left-to-right characters joins them, so "4♠X",
      "12:30", "N-S" and "NS 420" stay one run; any other neutral follows the line (right to left);
    - a sign (+ -) just before a left-to-right character and a % just after a digit belong to it:
      "-420", "+n", "55%";
    - the line is reversed, each left-to-right run is put back in reading order, and brackets in
      right-to-left text are mirrored, as Unicode's rule L4 does.
    """
    chars = list(s)
    n = len(chars)
    kinds = bytearray(n)
    for i in range(n):
        kinds[i] = _strong(ord(chars[i]))
    for i in range(n):
        c = chars[i]
        if (c == "+" or c == "-") and i + 1 < n and kinds[i + 1] == _LTR:
            kinds[i] = _LTR
        elif c == "%" and i > 0 and "0" <= chars[i - 1] <= "9":
            kinds[i] = _LTR
    # Neutrals between two left-to-right characters join them; the rest stay right to left.
    before = _RTL  # the line's own direction stands in for the characters outside it
    i = 0
    while i < n:
        if kinds[i] != _NEUTRAL:
            before = kinds[i]
            i += 1
            continue
        j = i
        while j < n and kinds[j] == _NEUTRAL:
            j += 1
        after = kinds[j] if j < n else _RTL
        side = _LTR if before == _LTR and after == _LTR else _RTL
        for k in range(i, j):
            kinds[k] = side
        i = j
    out = []
    i = n - 1
    while i >= 0:
        if kinds[i] == _LTR:
            j = i
            while j > 0 and kinds[j - 1] == _LTR:
                j -= 1
            out.extend(chars[j:i + 1])
            i = j - 1
        else:
            c = chars[i]
            out.append(_MIRRORED.get(c, c))
            i -= 1
    return "".join(out)


class TextDisplay:
    """display.text(col, row, s, inverse) on a grid of `cols` x `rows` cells; show() sends it to the device.

    `fb` is a 128x64 MONO_VLSB framebuf.FrameBuffer with a show() method, such as micropython-lib's
    SSD1306 driver (which subclasses FrameBuffer) or the simulator's device. With `rtl` set (Hebrew),
    columns count from the right edge and each string is laid out right to left by rtl_visual().
    """

    def __init__(self, fb, rtl: bool = False) -> None:
        self.fb = fb
        self.cols = COLS
        self.rows = ROWS
        self.rtl = rtl
        # One cell's pixels, rewritten for every character and blitted: no allocation per character.
        self._cell = bytearray(_CELL_W)
        self._source = (self._cell, _CELL_W, _CELL_H, _MONO_VLSB)
        self._big = bytearray(4 * _CELL_W)  # a large character: 12 columns, two 8-pixel pages
        self._big_source = (self._big, 2 * _CELL_W, 2 * _CELL_H, _MONO_VLSB)

    def clear(self) -> None:
        self.fb.fill(0)

    def show(self) -> None:
        self.fb.show()

    def big(self, col: int, row: int, s: str) -> None:
        """Draw s at twice the size from cell (col, row): a character takes 2 x 2 cells, rows `row` and `row` + 1, so
        a line holds 10. A character that would not fit whole is left out."""
        if not 0 <= row < ROWS - 1 or not s:
            return
        if self.rtl:
            s = rtl_visual(s)
            col = COLS - col - 2 * len(s)
        y = row * _CELL_H
        data = font.DATA
        cell = self._big
        c = col
        for ch in s:
            if 0 <= c <= COLS - 2:
                offset = font.index(ord(ch)) * _CELL_W
                for k in range(_CELL_W):
                    b = data[offset + k]
                    cell[2 * k] = cell[2 * k + 1] = _DOUBLED[b & 0x0F]  # the top page: the glyph's upper 4 rows
                    cell[2 * _CELL_W + 2 * k] = cell[2 * _CELL_W + 2 * k + 1] = _DOUBLED[b >> 4]
                self.fb.blit(self._big_source, _X0 + c * _CELL_W, y)
            c += 2

    def text(self, col: int, row: int, s: str, inverse: bool = False) -> None:
        """Draw s from cell (col, row); cells outside the grid are cut off. Characters the font lacks show □."""
        if not 0 <= row < ROWS or not s:
            return
        if self.rtl:
            s = rtl_visual(s)
            col = COLS - col - len(s)
        flip = 0xFF if inverse else 0
        y = row * _CELL_H
        data = font.DATA
        cell = self._cell
        fb = self.fb
        c = col
        for ch in s:
            if 0 <= c < COLS:
                offset = font.index(ord(ch)) * _CELL_W
                for k in range(_CELL_W):
                    cell[k] = data[offset + k] ^ flip
                fb.blit(self._source, _X0 + c * _CELL_W, y)
            c += 1
        if inverse:
            # A highlighted run that reaches an edge takes the spare pixel column there too.
            if col <= 0 < c:
                fb.fill_rect(0, y, _X0, _CELL_H, 1)
            if col < COLS <= c:
                fb.fill_rect(_X0 + COLS * _CELL_W, y, 128 - _X0 - COLS * _CELL_W, _CELL_H, 1)
