"""Scripted and headless runs: key presses from a script, every screen captured as text and as a PNG."""

from __future__ import annotations

import re
import runpy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tenace import crash_report
from tenace.errors import Failure, UsageError
from tenace.firmware_build import FIRMWARE
from tenace.simulation.terminal.process import Options, TerminalProcess
from tenace.simulation.terminal.screen import ScreenText, screen_text, write_png

MAX_WAIT_MS = 3_600_000  # an hour of the terminal's time: more is a typing mistake

# "[name]" in a script names the screen shown at that point (written as name.png and name.txt too).
_NAME = re.compile(r"^\[([A-Za-z0-9_.-]+)\]$")
# The simulator's own commands (host/tenace/simulation/boards/terminal_main.py); "!wait" takes milliseconds after it.
COMMANDS = ("!reboot", "!offline", "!online", "!wait")
_KEY_LIST = ("1-9 0 C D H S NT X PASS N E S W A K Q J T + - = OK BACK MENU UP DOWN, "
             "!reboot, !wait MS, !offline, !online, [name]")


@lru_cache(maxsize=1)
def key_names() -> frozenset[str]:
    """Every keypad key name, as firmware/tenace_terminal/keypad_layout.py places them (read as data: the host
    does not import the terminal app)."""
    layout = runpy.run_path(str(FIRMWARE / "tenace_terminal" / "keypad_layout.py"))["LAYOUT"]
    return frozenset(name for row in layout for name in row if name)


def parse_script(text: str) -> list[str]:
    """The words of a key script: key names, !commands and [names], separated by blanks; # starts a comment.

    UsageError on a word that is none of these (the terminal would ignore an unknown key and the run go
    on as if nothing were wrong); "!wait MS" becomes the one word the simulator reads.
    """
    words: list[str] = []
    for line in text.splitlines():
        words.extend(line.split("#", 1)[0].split())
    keys = key_names()
    out: list[str] = []
    pending = iter(words)
    for word in pending:
        if word == "!wait":
            ms = next(pending, "")
            if not re.fullmatch(r"[0-9]{1,7}", ms) or int(ms) > MAX_WAIT_MS:
                raise UsageError(f"!wait takes milliseconds from 0 to {MAX_WAIT_MS} after it (e.g. !wait 500), "
                                 f"not {ms!r}" if ms else "!wait takes milliseconds after it (e.g. !wait 500)")
            out.append(f"!wait {int(ms)}")
        elif word in keys or word in COMMANDS or _NAME.match(word):
            out.append(word)
        elif word.startswith("["):
            raise UsageError(f"screen name {word!r}: [name] with letters, digits, _ . - only")
        else:
            hint = " (key names are upper case)" if word.upper() in keys or word.upper() in COMMANDS else \
                " (doubled is X pressed twice: X X)" if word.upper() == "XX" else ""
            raise UsageError(f"unknown key {word!r} in the script{hint}; keys: {_KEY_LIST}")
    return out


@dataclass
class Screen:
    """What the terminal showed when it next waited for a key."""

    number: int
    after: str  # the key (or !command) that led to it; "" for the first screen
    frame: bytes
    names: list[str] = field(default_factory=list)

    @property
    def text(self) -> ScreenText:
        return screen_text(self.frame)

    def heading(self) -> str:
        label = f"after {self.after}" if self.after else "start"
        names = "".join(f" [{n}]" for n in self.names)
        return f"--- {self.number:03d} {label}{names}"


@dataclass
class Run:
    screens: list[Screen]
    output: list[str]  # lines the app printed that were not frames (tracebacks, logs)


def run_script(words: list[str], options: Options | None = None) -> Run:
    """Press the script's keys one by one, each when the terminal is idle, capturing every screen."""
    proc = TerminalProcess(options or Options())
    screens: list[Screen] = []
    output: list[str] = []
    frame: bytes | None = None
    pending = list(words)
    after = ""
    try:
        while True:
            event = proc.next_event()
            if event.kind == "frame":
                frame = event.frame
            elif event.kind == "output":
                output.append(event.text)
            elif event.kind == "ready":
                if frame is None:
                    raise UsageError("the terminal asked for a key before it drew anything")
                screen = Screen(len(screens), after, frame)
                screens.append(screen)
                while pending and _NAME.match(pending[0]):
                    screen.names.append(_NAME.match(pending.pop(0))[1])  # type: ignore[index]
                if pending:
                    after = pending.pop(0)
                    proc.send(after)
                else:
                    proc.end_input()
            else:  # exit
                if event.text.strip():
                    output.extend(event.text.rstrip().splitlines())
                break
    finally:
        status = proc.close()
    if status != 0:
        saved = crash_report.save("terminal", "\n".join(output) + "\n")
        last = next((line.strip() for line in reversed(output) if line.strip()), f"exit status {status}")
        raise Failure(f"the simulated terminal failed ({last})" + (f"; its output is in {saved}" if saved else ""))
    return Run(screens, output)


def write_screens(run: Run, out: Path, named_only: bool = False, scale: int = 4) -> list[Path]:
    """NNN.png and NNN.txt per screen (or only the named ones, as name.png and name.txt), and screens.txt."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for screen in run.screens:
        stems = list(screen.names) if named_only else [f"{screen.number:03d}", *screen.names]
        for stem in stems:
            png, txt = out / f"{stem}.png", out / f"{stem}.txt"
            write_png(screen.frame, png, scale)
            txt.write_text(screen.heading() + "\n" + screen.text.render(), encoding="utf-8")
            written += [png, txt]
    if not named_only:
        index = out / "screens.txt"
        index.write_text("".join(s.heading() + "\n" + s.text.render() for s in run.screens), encoding="utf-8")
        written.append(index)
    return written
