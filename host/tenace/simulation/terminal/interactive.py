"""Interactive mode: a person plays a terminal from the laptop's keyboard, its OLED drawn in half blocks."""

from __future__ import annotations

import importlib
import os
import queue
import select
import shutil
import sys
import termios
import threading
import tty
from collections.abc import Sequence
from typing import TextIO

from tenace.errors import UsageError
from tenace.firmware_build import FIRMWARE
from tenace.simulation.terminal.process import Event, Options, TerminalProcess
from tenace.simulation.terminal.screen import HEIGHT, WIDTH, half_blocks

# Laptop key -> keypad key (tenace_terminal.keypad_layout). Lower-case n is NT: upper-case N is North.
KEYMAP: dict[str, str] = {d: d for d in "0123456789+-="}
KEYMAP.update({"c": "C", "d": "D", "h": "H", "s": "S", "n": "NT", "x": "X", "p": "PASS", "m": "MENU",
               "N": "N", "e": "E", "E": "E", "S": "S", "w": "W", "W": "W"})
KEYMAP.update({r.lower(): r for r in "AKQJT"} | {r: r for r in "AKQJT"})
SPECIAL = {"\r": "OK", "\n": "OK", "\x7f": "BACK", "\x08": "BACK", "\x1b": "BACK",
           "\x1b[A": "UP", "\x1b[B": "DOWN", "\x1bOA": "UP", "\x1bOB": "DOWN",
           "\x12": "!reboot"}  # Ctrl-R: power off and on (the journal brings the terminal back)
QUIT = ("\x03", "\x04")  # Ctrl-C, Ctrl-D
# What the keypad grid shows for each key: its legend, and the laptop key that presses it.
LEGEND = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660/S"}
HINT = {"OK": "Ent", "BACK": "Bsp", "UP": "\u2191", "DOWN": "\u2193", "NT": "n", "X": "x", "PASS": "p",
        "MENU": "m", "C": "c", "D": "d", "H": "h", "S": "s/S", "E": "e", "W": "w"}

SHORT_KEYS = ("keys: 0-9, c d h s suits, n NT, x X, p PASS, N e S w seats, a k q j t, + - =, "
              "Enter OK, Bsp BACK, m MENU, arrows UP/DOWN, Ctrl-R power cut, Ctrl-C quit")

CSI = "\x1b["
DISPLAY_STYLE = CSI + "38;2;205;236;255;48;2;10;14;20m"  # the PNG's OLED colours, on a 24-bit terminal
RESET = CSI + "0m"


def keypad_layout() -> tuple[tuple[str, ...], ...]:
    """The reference keypad, row by row, from the firmware (tenace_terminal.keypad_layout)."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    layout: tuple[tuple[str, ...], ...] = importlib.import_module("tenace_terminal.keypad_layout").LAYOUT
    return layout


def key_for(typed: str) -> str | None:
    """The keypad key (or simulator command) a laptop key press stands for, None when it means nothing."""
    return SPECIAL.get(typed) or KEYMAP.get(typed)


def split_keys(data: str) -> list[str]:
    """Cut what the keyboard sent into single presses; an arrow key is one escape sequence."""
    presses, i = [], 0
    while i < len(data):
        if data.startswith(("\x1b[", "\x1bO"), i) and i + 2 < len(data):
            presses.append(data[i:i + 3])
            i += 3
        else:
            presses.append(data[i])
            i += 1
    return presses


def keypad_panel(layout: Sequence[Sequence[str]]) -> list[str]:
    """The keypad as a grid of cells, each its legend over the laptop key for it."""
    width = 5
    rule = "+" + "+".join("-" * width for _ in layout[0]) + "+"
    lines = ["Keypad (laptop key below)", rule]
    for row in layout:
        legends = [LEGEND.get(k, k) for k in row]
        hints = [HINT.get(k, k) if k else "" for k in row]
        lines.append("|" + "|".join(s[:width].center(width) for s in legends) + "|")
        lines.append("|" + "|".join(s[:width].center(width) for s in hints) + "|")
        lines.append(rule)
    lines += ["", "N=North: Shift-n; n is NT", "Ctrl-R power cycle, Ctrl-C quit"]
    return lines


class Screen:
    """Draws the display (two pixel rows per character) with the keypad beside it, or below when narrow."""

    def __init__(self, out: TextIO, layout: Sequence[Sequence[str]]) -> None:
        self.out = out
        self.panel = keypad_panel(layout)
        self.frame = bytes(WIDTH * HEIGHT // 8)
        self.status = ""

    def draw(self) -> None:
        cols, rows = shutil.get_terminal_size((160, 50))
        border = "+" + "-" * WIDTH + "+"
        display = [border] + ["|" + DISPLAY_STYLE + line + RESET + "|" for line in half_blocks(self.frame)] + [border]
        side = cols >= WIDTH + 2 + 2 + max(len(p) for p in self.panel)
        lines = []
        for i, line in enumerate(display):
            extra = self.panel[i] if side and i < len(self.panel) else ""
            lines.append(line + "  " + extra)
        if not side:
            # Below the display if the window is tall enough, else the keys in one line.
            fits = len(lines) + len(self.panel) + 1 < rows
            lines += self.panel if fits else [SHORT_KEYS[:cols]]
        lines.append(self.status[:cols])
        # Never write past the last row: the terminal would scroll and tear the picture.
        lines = lines[:max(rows - 1, 1)]
        self.out.write(CSI + "H" + "".join(line + CSI + "K\r\n" for line in lines) + CSI + "J")
        self.out.flush()


def run_interactive(options: Options) -> int:
    """Play the terminal until Ctrl-C, Ctrl-D or the app ends; returns the exit status."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the interactive terminal needs a terminal window (use --script or --headless)")
    cols = shutil.get_terminal_size((160, 50)).columns
    if cols < WIDTH + 2:
        raise UsageError(f"the window is {cols} columns wide: the display needs {WIDTH + 2}")
    proc = TerminalProcess(options)
    events: queue.Queue[Event] = queue.Queue()

    def pump() -> None:
        # MicroPython's output is read on its own thread so the keyboard never waits for it.
        while True:
            event = proc.next_event()
            events.put(event)
            if event.kind == "exit":
                return

    threading.Thread(target=pump, daemon=True).start()
    screen = Screen(sys.stdout, keypad_layout())
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    sys.stdout.write(CSI + "?1049h" + CSI + "?25l" + CSI + "2J")  # alternate screen, no cursor
    try:
        tty.setraw(fd)
        while True:
            while not events.empty():
                event = events.get()
                if event.kind == "frame":
                    screen.frame = event.frame
                    screen.draw()
                elif event.kind == "output":
                    screen.status = event.text[:WIDTH]
                elif event.kind == "exit":
                    screen.status = event.text.strip().splitlines()[-1] if event.text.strip() else "ended"
                    return 0 if not event.text.strip() else 1
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            for press in split_keys(os.read(fd, 64).decode("utf-8", "replace")):
                if press in QUIT:
                    return 0
                key = key_for(press)
                if key is None:
                    screen.status = f"{press!r} is no key: see the keypad"
                    screen.draw()
                else:
                    screen.status = f"key {key}"
                    proc.send(key)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write(CSI + "?25h" + CSI + "?1049l")
        sys.stdout.flush()
        proc.close()
