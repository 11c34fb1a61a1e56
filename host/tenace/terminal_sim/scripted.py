"""Scripted and headless runs: key presses from a script, every screen captured as text and as a PNG."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tenace.errors import UsageError
from tenace.terminal_sim.process import Options, TerminalProcess
from tenace.terminal_sim.screen import ScreenText, screen_text, write_png

# "[name]" in a script names the screen shown at that point (written as name.png and name.txt too).
_NAME = re.compile(r"^\[([A-Za-z0-9_.-]+)\]$")


def parse_script(text: str) -> list[str]:
    """The words of a key script: key names, !commands and [names], separated by blanks; # starts a comment."""
    words: list[str] = []
    for line in text.splitlines():
        words.extend(line.split("#", 1)[0].split())
    return words


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
        raise UsageError("the simulated terminal failed:\n" + "\n".join(output[-20:]))
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
