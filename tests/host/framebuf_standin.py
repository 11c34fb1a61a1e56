"""A pure-Python stand-in for the few MicroPython framebuf.FrameBuffer methods the text display uses (MONO_VLSB)."""

from __future__ import annotations

from typing import Any

MONO_VLSB = 0


class FrameBuffer:
    """MONO_VLSB only: byte (y // 8) * width + x holds column x of the 8-pixel page, bit 0 on top."""

    def __init__(self, buffer: bytearray, width: int, height: int, fmt: int = MONO_VLSB) -> None:
        if fmt != MONO_VLSB or len(buffer) < width * ((height + 7) // 8):
            raise ValueError("the stand-in does MONO_VLSB buffers of the right size only")
        self.buffer, self.width, self.height = buffer, width, height

    def pixel(self, x: int, y: int, c: int | None = None) -> int | None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        i, bit = (y >> 3) * self.width + x, 1 << (y & 7)
        if c is None:
            return 1 if self.buffer[i] & bit else 0
        self.buffer[i] = self.buffer[i] | bit if c else self.buffer[i] & ~bit
        return None

    def fill(self, c: int) -> None:
        self.buffer[:] = (b"\xff" if c else b"\x00") * len(self.buffer)

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def blit(self, source: Any, x: int, y: int, key: int = -1) -> None:
        # As MicroPython >= 1.20: the source is a FrameBuffer or a (buffer, width, height, format) tuple.
        src = FrameBuffer(*source[:4]) if isinstance(source, tuple) else source
        for sy in range(src.height):
            for sx in range(src.width):
                c = src.pixel(sx, sy)
                if c != key:
                    self.pixel(x + sx, y + sy, c)


class Device(FrameBuffer):
    """A 128x64 display: the stand-in framebuffer plus a show() that counts the frames sent."""

    def __init__(self) -> None:
        super().__init__(bytearray(1024), 128, 64, MONO_VLSB)
        self.shown = 0

    def show(self) -> None:
        self.shown += 1
