"""The simulation's child processes: `tenace collect` (killable, restartable) and the MicroPython terminal processes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

from tenace.errors import UsageError
from tenace.firmware_build import SIM_DIR
from tenace.lifetime import die_with_parent
from tenace.simulation.terminal.process import micropython

log = logging.getLogger(__name__)

TERMINAL_MAIN = SIM_DIR / "radio_terminal.py"
_PORT_WAIT_S = 30.0

class CollectorProcess:
    """`tenace collect` on a loopback port, as its own process: started, SIGKILLed and started again."""

    def __init__(self, db: Path, workdir: Path, extra: list[str]) -> None:
        self.db = db
        self.workdir = workdir
        self.extra = extra
        self.port_file = workdir / "collector.port"
        self.log_path = workdir / "collector.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    async def start(self) -> int:
        """Start it and wait until it listens; returns its port."""
        self.port_file.unlink(missing_ok=True)
        command = [sys.executable, "-m", "tenace", "collect", "--db", str(self.db), "--listen", "127.0.0.1:0",
                   "--port-file", str(self.port_file), *self.extra]
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                         preexec_fn=die_with_parent)  # no collector left holding the event file
        self.starts += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _PORT_WAIT_S
        while loop.time() < deadline:
            if self.proc.poll() is not None:
                raise UsageError(f"tenace collect exited with code {self.proc.returncode}; see {self.log_path}")
            text = self.port_file.read_text() if self.port_file.exists() else ""
            if text.strip():
                return int(text)
            await asyncio.sleep(0.05)
        raise UsageError(f"tenace collect did not start listening within {_PORT_WAIT_S:.0f} s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no last flush, as when the laptop's power goes."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.kills += 1

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class RunningCollector:
    """A collector already listening on a loopback port (`tenace serve`'s, started from its console): the simulated
    tables play into it; it is neither killed nor stopped here."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.starts = 1

    async def start(self) -> int:
        return self.port

    def kill(self) -> None:
        raise UsageError("the collector of tenace serve is not the simulator's to kill")

    def stop(self) -> None:
        pass


class TerminalGroup:
    """One MicroPython process running the terminals of some tables (simulation/boards/radio_terminal.py)."""

    def __init__(self, tables: list[tuple[int, str, int]]) -> None:
        self.tables = tables  # (terminal id, section, table)
        self.done: set[int] = set()
        self.keys = 0
        self.faults = 0  # errors the apps caught to stay alive, as each terminal reported when done
        self.moved: set[int] = set()  # terminals whose screen showed the round clock's "move"
        self.coming: set[int] = set()  # terminals the director's answer to their call reached
        self.proc: asyncio.subprocess.Process | None = None
        self.output: list[str] = []  # anything else it printed (a traceback): shown if it fails

    async def start(self, firmware: Path, radio_port: int, seed: int, code: str, storage: Path,
                    heap_kb: int, think_ms: int | None = None, caller: int = 0) -> None:
        env = dict(os.environ, MICROPYPATH=f"{firmware}{os.pathsep}{SIM_DIR}")
        terminals = ",".join(f"{t}:{section}{table}" for t, section, table in self.tables)
        self.proc = await asyncio.create_subprocess_exec(
            str(micropython()), "-X", f"heapsize={heap_kb}k", str(TERMINAL_MAIN), f"port={radio_port}",
            f"seed={seed}", f"code={code}", f"dir={storage}", f"terminals={terminals}",
            *([f"think={think_ms}"] if think_ms is not None else []), f"caller={caller}",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)

    async def wait(self) -> int:
        """Read its output until it exits; returns the exit code."""
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            words = line.split()
            if len(words) == 4 and words[0] == "DONE":  # DONE <terminal> keys=<n> faults=<n>
                self.done.add(int(words[1]))
                self.keys += int(words[2].partition("=")[2])
                self.faults += int(words[3].partition("=")[2])
            elif len(words) == 2 and words[0] in ("MOVE", "COMING") and words[1].isdecimal():
                (self.moved if words[0] == "MOVE" else self.coming).add(int(words[1]))
            elif line and not line.startswith("READY"):
                self.output.append(line)
                log.debug("terminals %s: %s", self.tables[0][0], line)
        return await self.proc.wait()

    async def stop(self) -> None:
        """Kill it if it still runs, then wait for asyncio's child watcher to reap it.

        By its pid, not Process.kill(): that polls first (Popen.send_signal), which reaps a child that Ctrl-C
        has just killed behind the watcher's back ("Unknown child process"). Until the watcher reaps it,
        the pid cannot be reused, so the signal reaches nothing else.
        """
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
